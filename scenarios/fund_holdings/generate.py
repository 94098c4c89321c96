"""A small held-out catalog of another domain (investment funds, their holdings of securities, the issuers of those
securities and the issuers' parent companies), with questions whose answers are computed here from the data, in plain
Python.

Written before any tuning of the LLM policy on its behaviour, and kept as it is: it measures how the policy and its
prompts carry over to a catalog they were not written with (``vadaorchestra eval fund_holdings``).

Conventions of the gold answers:

- A share of a fund's net assets is a **fraction** (0 to 1), the unit of the fund's ``max_issuer_share`` limit
  (0.10 is 10 %), and is the exact quotient ``sum of market values / net assets``: net assets are multiples of
  10,000,000 and market values multiples of 50,000, so every such share is a short terminating decimal (0.0725).
  Exact match compares numbers, not units: an answer of ``7.25`` or ``7.25 %`` does not match ``0.0725``.
- An issuer exceeds a fund's issuer limit when the total market value of all its securities in the fund is strictly
  more than ``max_issuer_share * net_assets``; no issuer total equals a limit, so ``>`` and ``>=`` agree.
- Totals sum every holding row: a fund holds several securities of one issuer, some with equal market values, so a
  sum that merges equal values is wrong.
- ``share_pct`` in the parent table is a percentage of the issuer's shares (0 to 100). An issuer's parent group is the
  parent holding more than 50 % of it; the group questions are picked so that their answer is the same if every
  parent with a stake counts, and no stand-alone issuer outweighs the winning group.
- Question types: ``generic`` reads values off one tool's rows; ``count`` is one number aggregated over one tool's
  rows (a count or a sum); ``multi-hop`` combines the rows of two or more tools (holdings with the fund's net assets
  and limit, holdings with the issuers' parents).
"""

from __future__ import annotations

import random
from collections import defaultdict
from pathlib import Path

FUNDS = ["Aurora Growth Fund", "Borealis Income Fund", "Cascade Value Fund", "Delta Balanced Fund"]
# fund -> (net assets, max share of net assets per issuer)
FUND_TERMS = {"Aurora Growth Fund": (40_000_000.0, 0.10), "Borealis Income Fund": (50_000_000.0, 0.08),
              "Cascade Value Fund": (80_000_000.0, 0.10), "Delta Balanced Fund": (100_000_000.0, 0.15)}
# issuer -> (ticker, sector, country)
ISSUERS = {
    "Orion Energy": ("ORN", "Energy", "Norway"),
    "Pallas Pharma": ("PLS", "Healthcare", "Switzerland"),
    "Quasar Telecom": ("QSR", "Telecommunications", "Spain"),
    "Rigel Motors": ("RGL", "Automotive", "Germany"),
    "Sirius Bank": ("SRS", "Financials", "Ireland"),
    "Tethys Mining": ("TTH", "Materials", "Chile"),
    "Umbra Software": ("UMB", "Technology", "Finland"),
    "Vega Foods": ("VGA", "Consumer Staples", "Italy"),
    "Wren Logistics": ("WRN", "Industrials", "Netherlands"),
    "Xenon Chemicals": ("XEN", "Chemicals", "Belgium"),
}
# (parent, issuer, share_pct): majority parents make groups; Beacon and Crescent also hold minority stakes
PARENTS = [
    ("Atlas Holdings", "Orion Energy", 70.0), ("Beacon Group", "Orion Energy", 30.0),
    ("Atlas Holdings", "Tethys Mining", 55.0), ("Atlas Holdings", "Xenon Chemicals", 80.0),
    ("Beacon Group", "Quasar Telecom", 60.0), ("Crescent Capital", "Quasar Telecom", 40.0),
    ("Beacon Group", "Umbra Software", 100.0),
    ("Crescent Capital", "Rigel Motors", 51.0), ("Crescent Capital", "Vega Foods", 75.0),
]
HEADERS = {"funds": ["fund", "net_assets", "max_issuer_share"],
           "holdings": ["fund", "security_id", "issuer", "market_value"],
           "issuers": ["issuer", "sector", "country"],
           "parents": ["parent", "issuer", "share_pct"]}


def generate(seed: int = 7) -> dict[str, list[list]]:
    rng = random.Random(seed)
    names = list(ISSUERS)
    holdings = []
    for fund in FUNDS:
        held = sorted(rng.sample(names, rng.randint(4, 6)), key=names.index)
        values_seen: list[float] = []
        duplicated = False
        for k, issuer in enumerate(held):
            ticker = ISSUERS[issuer][0]
            n = 1 if k == len(held) - 1 else rng.randint(1, 3)
            securities = sorted(rng.sample([f"{ticker}{j}" for j in range(1, 5)], n))
            for j, sec in enumerate(securities):
                value = float(rng.randrange(10, 80) * 50_000)
                if j == 1 and not duplicated:  # two securities of one issuer with the same market value
                    value, duplicated = holdings[-1][3], True
                elif j == 0 and k == len(held) - 1 and values_seen:  # and one equal to another issuer's holding
                    value = values_seen[0]
                values_seen.append(value)
                holdings.append([fund, sec, issuer, value])
    funds = [[f, *FUND_TERMS[f]] for f in FUNDS]
    issuers = [[i, s, c] for i, (_t, s, c) in ISSUERS.items()]
    parents = [list(p) for p in PARENTS]
    return {"funds": funds, "holdings": holdings, "issuers": issuers, "parents": parents}


def _totals(data: dict[str, list[list]]) -> dict[str, dict[str, float]]:
    totals: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for f, _sec, i, v in data["holdings"]:
        totals[f][i] += v
    return totals


def _groups(data: dict[str, list[list]], fund: str, majority_only: bool) -> dict[str, float]:
    out: dict[str, float] = defaultdict(float)
    for p, i, pct in data["parents"]:
        if pct > 50 or not majority_only:
            out[p] += _totals(data)[fund].get(i, 0.0)
    return {p: v for p, v in out.items() if v > 0}


def _group_winner(data: dict[str, list[list]], fund: str) -> str | None:
    """The parent group with the largest total in ``fund``, if that answer is robust (see the module docstring)."""
    winners = []
    for majority_only in (True, False):
        g = _groups(data, fund, majority_only)
        if not g:
            return None
        top = sorted(g.values(), reverse=True)
        if len(top) > 1 and top[0] == top[1]:
            return None
        winners.append(max(g, key=g.get))
    standalone = {i for i in ISSUERS} - {i for _p, i, _s in data["parents"]}
    best = _groups(data, fund, True).get(winners[0], 0.0)
    if winners[0] != winners[1] or any(_totals(data)[fund].get(i, 0.0) >= best for i in standalone):
        return None
    return winners[0]


def check(data: dict[str, list[list]]) -> None:
    """The properties the questions rely on."""
    totals = _totals(data)
    terms = {f: (na, lim) for f, na, lim in data["funds"]}
    breaches = {}
    for f in FUNDS:
        na, lim = terms[f]
        assert sum(totals[f].values()) < na, f"{f}: holdings exceed net assets"
        assert all(v != lim * na for v in totals[f].values()), f"{f}: an issuer total equals the limit"
        breaches[f] = [i for i, v in totals[f].items() if v > lim * na]
        rows = [r for r in data["holdings"] if r[0] == f]
        vals = [r[3] for r in rows]
        assert len(vals) != len(set(vals)), f"{f}: no equal market values"
    assert any(not b for b in breaches.values()), "no fund without a breach"
    assert sum(1 for b in breaches.values() if b) >= 2, "fewer than two funds with a breach"
    # at least one breach comes from a sum of securities, none of which alone breaches
    single = {(f, i) for f, _s, i, v in data["holdings"] if v > terms[f][0] * terms[f][1]}
    assert any((f, i) not in single for f in FUNDS for i in breaches[f]), "every breach is one security"
    assert sum(1 for f in FUNDS if _group_winner(data, f)) >= 2, "fewer than two robust parent-group questions"


def questions(data: dict[str, list[list]]) -> list[dict]:
    totals = _totals(data)
    rows_of = defaultdict(list)
    for f, sec, i, v in data["holdings"]:
        rows_of[f].append((sec, i, v))
    terms = {f: (na, lim) for f, na, lim in data["funds"]}
    sector = {i: s for i, s, _c in data["issuers"]}
    country = {i: c for i, _s, c in data["issuers"]}
    parents = defaultdict(list)
    for p, i, _pct in data["parents"]:
        parents[i].append(p)
    out = []

    def add(qtype: str, template: str, question: str, answer, complexity: int) -> None:
        out.append({"id": f"fh{len(out) + 1:03d}", "type": qtype, "template": template, "question": question,
                    "answer": answer, "complexity": complexity})

    for n, f in enumerate(FUNDS):
        rows = rows_of[f]
        na, lim = terms[f]
        issuers = sorted(totals[f])
        by_issuer = defaultdict(list)
        for _sec, i, v in rows:
            by_issuer[i].append(v)
        # the issuer with the most securities (first in issuer order on a tie), and one with equal values
        most = max(issuers, key=lambda i: (len(by_issuer[i]), -list(ISSUERS).index(i)))
        dup = next((i for i in issuers if len(by_issuer[i]) != len(set(by_issuer[i]))), most)
        other = [i for i in issuers if i != dup]
        share_issuer = other[n % len(other)]
        add("generic", "issuers", f"Which issuers does {f} hold?", issuers, len(rows))
        add("count", "n_issuers", f"How many issuers does {f} hold?", len(issuers), len(rows))
        add("count", "n_securities_of", f"How many securities of {most} does {f} hold?", len(by_issuer[most]),
            len(by_issuer[most]))
        add("count", "total_with", f"What is the total market value of {f}'s holdings in {dup}?", totals[f][dup],
            len(by_issuer[dup]))
        add("multi-hop", "share_of_assets", f"What share of {f}'s net assets is invested in {share_issuer}?",
            totals[f][share_issuer] / na, len(by_issuer[share_issuer]) + 1)
        add("multi-hop", "limit_breaches", f"Which issuers exceed {f}'s issuer limit?",
            sorted(i for i in issuers if totals[f][i] > lim * na), len(rows) + 1)
    for f in FUNDS[:2]:
        top = max(totals[f], key=totals[f].get)
        add("multi-hop", "largest_share", f"Which issuer accounts for the largest share of {f}'s net assets?", [top],
            len(rows_of[f]) + 1)
    names = list(ISSUERS)
    for i in names[:3]:
        add("generic", "sector", f"Which sector is {i} in?", [sector[i]], 1)
    add("generic", "country", f"In which country is {names[4]} based?", [country[names[4]]], 1)
    for i in ("Orion Energy", "Quasar Telecom", "Rigel Motors"):
        add("generic", "parents", f"Who are the parents of {i}?", sorted(parents[i]), len(parents[i]))
    for f in FUNDS:
        winner = _group_winner(data, f)
        if winner:
            add("multi-hop", "largest_group", f"Which parent group has the largest total market value in {f}?",
                [winner], len(rows_of[f]) + sum(len(parents[i]) for i in totals[f]))
    return out


def write(folder: Path, seed: int = 7) -> None:
    data = generate(seed)
    check(data)
    from vadaorchestra.eval.datasets import write_tables

    write_tables(folder, data, HEADERS, questions(data))


if __name__ == "__main__":
    write(Path(__file__).resolve().parent)
