"""Seeded data for the ``concentration_risk`` scenario: the paper's running example inside thousands of counterparties.

``generate(out_dir, seed=7, banks=8, companies=5000)`` writes five CSV files (header row, rows sorted, amounts as
whole euros, shares with two decimals), the same bytes for the same arguments:

- ``banks.csv`` (bank, capital, limit_pct): Bank Gamma with capital 80,000,000 and a 25 % large-exposure limit,
  ``banks - 1`` other banks, and the designed Bank Nova (below);
- ``loans.csv`` (bank, borrower, loan_id, amount) and ``credit_lines.csv`` (bank, borrower, line_id, credit_limit,
  drawn): a bank's exposure to a borrower is its loans plus the drawn part of its credit lines;
- ``ownership.csv`` (owner, company, share): a forest of groups (a head and up to four levels of controlled companies,
  some controlled only jointly, through the sum of the stakes of companies the head controls), standalone companies,
  and minority stakes of investors and of other groups' heads (never enough to control anything);
- ``companies.csv`` (company, sector, country, rating, total_assets): a profile of every entity (``companies`` of
  them, plus the 14 of Bank Nova's designed group).

The running example (arXiv 2606.22485), with its exact figures: at Bank Gamma DeepLogic Ltd owes 13,100,000 (two loans
and a drawn credit line, 16.375 % of capital) and NeuralLinker SpA 11,500,000 (a loan and a drawn credit line,
14.375 %). Synthetix Global Fund controls Alpha Corp (80 %), which holds 60 % of DeepLogic Ltd; Synthetix Global Fund
and Alpha Corp each hold 30 % of Beta Holding, which Synthetix therefore controls with 60 % (a monotonic sum over the
companies it controls), and Beta Holding holds 70 % of NeuralLinker SpA. No other company of the Synthetix group
borrows from Bank Gamma, so the group's exposure there is 24,600,000 = 30.75 % of capital, above the 25 % limit.

Everything else stays inside the limits by construction: every generated exposure is at most 30 % of its bank's limit
amount (at Bank Gamma at most 6,000,000, so the third largest exposure, the designed Orion Maritime SA with 7,200,000,
is clearly smaller than the first two), and every group's exposure at a bank is at most 80 % of the limit (scaled down
when it would be more), except two designed ones at Bank Gamma: the Synthetix group (the breach) and the Meridian
Capital Partners group, four borrowers including Orion Maritime SA totalling 18,950,000 (23.6875 %), a group that
stays under the limit. A group is everything its head controls; nobody else controls anything.

A second designed bank, Bank Nova (capital 120,000,000, limit 25 % = 30,000,000), lends to twelve companies of the
Castellan Holding group (nine held directly, three through Castellan Finance BV, which Castellan Holding controls with
70 %), each between 2,400,000 and 4,200,000 (every one under 5 % of capital), together 38,500,000 = 32.08 %: a breach
that only a group check over every borrower finds, since none of them is among the bank's largest exposures. Its other
borrowers stay inside the limits as at every bank. Bank Nova is drawn from a second random stream after everything
else, so the rest of the data is the same as without it.

Run it: ``python scenarios/concentration_risk/generate.py OUT_DIR [--seed N] [--banks N] [--companies N]``.
"""

from __future__ import annotations

import argparse
import csv
import math
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

GAMMA = "Bank Gamma"
GAMMA_CAPITAL = 80_000_000
LIMIT_PCT = 25
SYNTHETIX = "Synthetix Global Fund"
ALPHA = "Alpha Corp"
BETA = "Beta Holding"
DEEPLOGIC = "DeepLogic Ltd"
NEURALLINKER = "NeuralLinker SpA"
MERIDIAN = "Meridian Capital Partners"
ORION = "Orion Maritime SA"
# the second designed bank: no single exposure near its limit, one group of many mid-sized borrowers above it
NOVA = "Bank Nova"
NOVA_CAPITAL = 120_000_000
CASTELLAN = "Castellan Holding"
CASTELLAN_FINANCE = "Castellan Finance BV"
CASTELLAN_MEMBERS = tuple(f"Castellan {ind} {form}" for ind, form in (
    ("Logistics", "Ltd"), ("Foods", "SpA"), ("Textiles", "GmbH"), ("Software", "SA"), ("Robotics", "BV"),
    ("Energy", "AB"), ("Pharma", "Oy"), ("Shipping", "Inc"), ("Materials", "PLC"), ("Retail", "Srl"),
    ("Telecom", "AG"), ("Construction", "NV")))
CASTELLAN_EXPOSURES = (4_200_000, 3_900_000, 3_700_000, 3_600_000, 3_400_000, 3_300_000, 3_100_000, 2_900_000,
                       2_800_000, 2_700_000, 2_500_000, 2_400_000)  # each under 5 % of 120M; 38.5M = 32.08 % in all

SINGLE_CAP = 0.30  # of the limit amount: the largest exposure a generated borrower may have
GROUP_CAP = 0.80  # of the limit amount: the largest exposure a generated group may have at one bank
MAX_DEPTH = 4  # levels of controlled companies under a group's head
FILES = ("banks.csv", "companies.csv", "credit_lines.csv", "loans.csv", "ownership.csv")

BANK_NAMES = ("Delta", "Epsilon", "Zeta", "Eta", "Theta", "Iota", "Kappa", "Lambda", "Sigma", "Tau", "Upsilon", "Phi",
              "Chi", "Psi", "Omega", "Rho", "Nu", "Xi", "Omicron", "Mu")
ROOTS = """Aurora Borealis Cobalt Dorado Ember Fjord Granite Harbor Indigo Juniper Kestrel Lumen Magnolia Nimbus Obsidian
Pinnacle Quarry Rosewood Sapphire Tundra Umber Vantage Willow Yarrow Zenith Amber Basalt Cedar Delphi Evergreen Falcon
Glacier Horizon Ironwood Jasper Keystone Lighthouse Marble Northwind Oakridge Prairie Quicksilver Redwood Summit
Tidewater Upland Valley Westbrook Argent Bluestone Crescent Driftwood Eastgate Foxglove Goldfield Highland Islay
Jadeite Kingsley Larkspur Moorland Nettle Oriel Pebble Quill Riverside Saffron Thistle Unity Verdant Wexford Acorn
Bramble Copper Dune Elm Fernhill Garnet Heather Ivory Kelp Lagoon Mistral Northgate Opal Pine Ravenna Silverline
Torrent Upton Vesper Wren Alder Birch Calder Dover Estuary Flint Grove Hazel Inlet Kite Linden Meadow Nova Orchard
Peregrine Ridge Slate Tamarind Vale Windmere Ashford Beacon Corvid Dales Elbrus Fenwick Gull Halcyon""".split()
INDUSTRIES = """Logistics Foods Textiles Software Robotics Energy Pharma Shipping Materials Retail Telecom Construction
Agritech Biotech Media Metals Paper Plastics Optics Semiconductors Motors Aerospace Chemicals Ceramics Dairy Brewing
Water Solar Wind Rail Ports Hotels Health Instruments Packaging Furniture Apparel Analytics Systems Cables""".split()
FORMS = ("Ltd", "SpA", "GmbH", "SA", "BV", "AB", "Oy", "Inc", "PLC", "Srl", "AG", "NV", "AS", "Kft")
HEAD_FORMS = ("Holding", "Capital", "Group", "Family Office", "Investments", "Partners", "Ventures", "Participations")
INVESTOR_FORMS = ("Pension Fund", "Investment Trust", "Asset Management", "Mutual Fund", "Endowment", "Insurance")
SECTOR_OF = {"Logistics": "Transport", "Shipping": "Transport", "Rail": "Transport", "Ports": "Transport",
             "Foods": "Food", "Dairy": "Food", "Brewing": "Food", "Agritech": "Agriculture",
             "Software": "Information technology", "Analytics": "Information technology",
             "Systems": "Information technology", "Semiconductors": "Electronics", "Optics": "Electronics",
             "Instruments": "Electronics", "Cables": "Electronics", "Robotics": "Machinery", "Motors": "Automotive",
             "Aerospace": "Aerospace", "Energy": "Energy", "Solar": "Energy", "Wind": "Energy", "Water": "Utilities",
             "Pharma": "Health care", "Biotech": "Health care", "Health": "Health care", "Materials": "Materials",
             "Metals": "Materials", "Chemicals": "Chemicals", "Plastics": "Chemicals", "Paper": "Materials",
             "Ceramics": "Materials", "Textiles": "Consumer goods", "Apparel": "Consumer goods",
             "Furniture": "Consumer goods", "Packaging": "Industrials", "Construction": "Buildings and infrastructure",
             "Retail": "Retail", "Telecom": "Telecommunications", "Media": "Media", "Hotels": "Hospitality"}
COUNTRIES = ("Italy", "Germany", "France", "Spain", "Netherlands", "Belgium", "Austria", "Ireland", "Portugal",
             "Sweden", "Finland", "Denmark", "Poland", "Luxembourg", "United Kingdom", "Switzerland")
RATINGS = ("AA", "A", "BBB", "BBB", "BB", "BB", "B", "CCC")


@dataclass
class Entity:
    name: str
    role: str  # "pinned", "investor", "head", "member", "standalone"
    group: str  # the head of its group (itself when it heads one, or stands alone)
    sector: str
    depth: int = 0
    held: float = 0.0  # sum of the stakes others hold in it
    owners: set[str] = field(default_factory=set)


class Book:
    """Exposures per (bank, borrower), then split into loans and credit lines."""

    def __init__(self) -> None:
        self.exposure: dict[tuple[str, str], int] = {}
        self.pinned_lines: list[tuple[str, str, int, int]] = []  # bank, borrower, limit, drawn
        self.pinned_loans: list[tuple[str, str, int]] = []


def _k(x: float) -> int:
    """Whole thousands of euros, at least one thousand."""
    return max(1000, int(round(x / 1000.0)) * 1000)


def _names(rng: random.Random, forms: tuple[str, ...], n: int, taken: set[str]) -> list[str]:
    """``n`` distinct names ``Root Industry Form`` not in ``taken`` (sampled without replacement, seeded)."""
    space = len(ROOTS) * len(INDUSTRIES) * len(forms)
    if n > space - len(taken):
        raise ValueError(f"at most about {space} names of this kind; asked for {n}")
    out: list[str] = []
    for i in rng.sample(range(space), min(space, n + len(taken))):
        r, rest = divmod(i, len(INDUSTRIES) * len(forms))
        ind, f = divmod(rest, len(forms))
        name = f"{ROOTS[r]} {INDUSTRIES[ind]} {forms[f]}"
        if name not in taken:
            taken.add(name)
            out.append(name)
            if len(out) == n:
                break
    return out


def _sector(name: str) -> str:
    parts = name.split()
    return SECTOR_OF.get(parts[1], "Financial services") if len(parts) > 1 else "Financial services"


def generate(out_dir: str | Path, seed: int = 7, banks: int = 8, companies: int = 5000) -> dict[str, int]:
    """Write the scenario's CSV files into ``out_dir``; return the number of data rows of each file."""
    if banks < 1 or banks > len(BANK_NAMES) + 1:
        raise ValueError(f"banks must be from 1 to {len(BANK_NAMES) + 1}")
    if companies < 200:
        raise ValueError("companies must be at least 200")
    rng = random.Random(seed)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)

    # --- entities -----------------------------------------------------------------------------------------------------
    ents: dict[str, Entity] = {}
    own: dict[tuple[str, str], float] = {}  # (owner, company) -> share

    def add(name: str, role: str, group: str, sector: str, depth: int = 0) -> Entity:
        ents[name] = Entity(name, role, group, sector, depth)
        return ents[name]

    def stake(owner: str, company: str, share: float) -> None:
        share = round(share, 2)
        e = ents[company]
        assert owner != company and (owner, company) not in own and e.held + share <= 1.0 + 1e-9
        own[(owner, company)] = share
        e.held = round(e.held + share, 2)
        e.owners.add(owner)

    add(SYNTHETIX, "pinned", SYNTHETIX, "Financial services")
    add(ALPHA, "pinned", SYNTHETIX, "Financial services", 1)
    add(BETA, "pinned", SYNTHETIX, "Financial services", 2)
    add(DEEPLOGIC, "pinned", SYNTHETIX, "Information technology", 2)
    add(NEURALLINKER, "pinned", SYNTHETIX, "Electronics", 3)
    add(MERIDIAN, "pinned", MERIDIAN, "Financial services")
    add(ORION, "pinned", MERIDIAN, "Transport", 1)
    taken = set(ents)
    n_gen = companies - len(ents)
    n_inv = max(4, companies // 25)
    n_heads = max(4, companies // 10)
    n_members = int(n_gen * 0.55)
    n_alone = n_gen - n_inv - n_heads - n_members
    investors = _names(rng, INVESTOR_FORMS, n_inv, taken)
    heads = _names(rng, HEAD_FORMS, n_heads, taken)
    operating = _names(rng, FORMS, n_members + n_alone, taken)
    for name in investors:
        add(name, "investor", name, "Financial services")
    for name in heads:
        add(name, "head", name, "Financial services")

    # the running example's chains (the joint holding in Beta Holding needs the sum over controlled companies)
    stake(SYNTHETIX, ALPHA, 0.80)
    stake(ALPHA, DEEPLOGIC, 0.60)
    stake(SYNTHETIX, BETA, 0.30)
    stake(ALPHA, BETA, 0.30)
    stake(BETA, NEURALLINKER, 0.70)
    stake(MERIDIAN, ORION, 0.55)
    # minority investors around them, none able to control
    stake(investors[0], SYNTHETIX, 0.20)
    stake(investors[1], SYNTHETIX, 0.15)
    stake(investors[2], ALPHA, 0.10)
    stake(investors[3], DEEPLOGIC, 0.25)
    stake(heads[0], BETA, 0.20)
    stake(investors[1], NEURALLINKER, 0.30)
    stake(investors[2], ORION, 0.35)

    # groups: every operating company in a group picks its head (a few heads get many), then a parent inside it
    members, alone = operating[:n_members], operating[n_members:]
    group_heads = [*heads[:10], SYNTHETIX, *heads[10:20], MERIDIAN, *heads[20:]]  # a few large groups, many small
    weights = [1.0 / (i + 1) ** 0.6 for i in range(len(group_heads))]
    nodes: dict[str, list[str]] = {h: [h] for h in group_heads}
    nodes[SYNTHETIX] += [ALPHA, BETA]  # the group's holdings can hold more; its borrowers are pinned
    nodes[MERIDIAN] += [ORION]
    extra_synthetix: list[str] = []
    extra_meridian: list[str] = []
    for name in members:
        head = rng.choices(group_heads, weights)[0]
        e = add(name, "member", head, _sector(name))
        parents = [p for p in nodes[head] if ents[p].depth < MAX_DEPTH]
        if len(parents) >= 2 and rng.random() < 0.12:
            p, q = rng.sample(parents, 2)  # jointly held: neither alone, both together (both controlled by head)
            s1 = round(rng.uniform(0.20, 0.45), 2)
            s2 = round(rng.uniform(0.52 - s1, min(0.49, 0.95 - s1)), 2)
            stake(p, name, s1)
            stake(q, name, s2)
            e.depth = max(ents[p].depth, ents[q].depth) + 1
        else:
            p = rng.choice(parents)
            stake(p, name, round(rng.uniform(0.51, 1.0), 2))
            e.depth = ents[p].depth + 1
        nodes[head].append(name)
        (extra_synthetix if head == SYNTHETIX else extra_meridian if head == MERIDIAN else []).append(name)
    for name in alone:
        add(name, "standalone", name, _sector(name))

    # minority stakes from investors and from other groups' heads: one per holder and company, each at most 30 %, so
    # that whoever controls a company keeps control and nobody else gets it
    minority_holders = investors + heads
    for name in [*heads, *members, *alone]:
        e = ents[name]
        if rng.random() >= 0.35:
            continue
        for _ in range(rng.choice((1, 1, 2))):
            room = round(1.0 - e.held - 0.01, 2)
            if room < 0.04:
                break
            pool = investors if e.role == "head" else minority_holders
            holder = rng.choice(pool)
            if holder == e.group or holder == name or holder in e.owners:
                continue
            stake(holder, name, round(rng.uniform(0.02, min(0.30, room)), 2))

    # --- banks --------------------------------------------------------------------------------------------------------
    bank_rows = [(GAMMA, GAMMA_CAPITAL, LIMIT_PCT)]
    for letter in BANK_NAMES[: banks - 1]:
        bank_rows.append((f"Bank {letter}", rng.randint(40, 600) * 1_000_000, LIMIT_PCT))
    limit_of = {b: c * p / 100 for b, c, p in bank_rows}
    capital_of = {b: c for b, c, _ in bank_rows}

    book = Book()
    # the running example at Bank Gamma, exactly as in the paper
    book.pinned_loans += [(GAMMA, DEEPLOGIC, 8_000_000), (GAMMA, DEEPLOGIC, 3_100_000), (GAMMA, NEURALLINKER, 9_000_000)]
    book.pinned_lines += [(GAMMA, DEEPLOGIC, 3_000_000, 2_000_000), (GAMMA, NEURALLINKER, 4_000_000, 2_500_000)]
    # the Meridian group at Bank Gamma: Orion Maritime SA third largest, the group at 18.95M stays under 20M
    meridian_others = extra_meridian[:3]
    while len(meridian_others) < 3:  # tiny inputs: give the group more companies
        name = alone.pop()
        ents[name].role, ents[name].group, ents[name].depth = "member", MERIDIAN, 1
        stake(MERIDIAN, name, 0.75)
        meridian_others.append(name)
    pinned_gamma = {DEEPLOGIC: None, NEURALLINKER: None, ORION: 7_200_000,
                    meridian_others[0]: 5_400_000, meridian_others[1]: 3_850_000, meridian_others[2]: 2_500_000}
    for name, amount in pinned_gamma.items():
        if amount is not None:
            book.exposure[(GAMMA, name)] = amount

    borrowers = [*members, *alone, *heads]
    kept_out = set(extra_synthetix) | set(extra_meridian) | {SYNTHETIX, ALPHA, BETA, MERIDIAN}
    for bank, capital, _ in bank_rows:
        if bank == GAMMA:
            pool = [b for b in borrowers if b not in kept_out]
            n = min(len(pool), int(companies * 0.40))
        else:
            pool = borrowers + [DEEPLOGIC, NEURALLINKER, ORION, ALPHA]
            n = min(len(pool), rng.randint(int(companies * 0.06), int(companies * 0.16)))
        median = 300_000 * capital / GAMMA_CAPITAL
        cap = SINGLE_CAP * limit_of[bank]
        for b in rng.sample(pool, n):
            if (bank, b) in book.exposure:
                continue
            x = math.exp(rng.gauss(math.log(median), 1.1))
            if x > 0.95 * cap:  # the tail folded back under the cap, not piled up on it
                x = cap * rng.uniform(0.7, 0.95)
            book.exposure[(bank, b)] = _k(max(x, 20_000))

    # groups above GROUP_CAP of a bank's limit are scaled down (the designed ones at Bank Gamma excepted)
    for bank, _, _ in bank_rows:
        totals: dict[str, int] = {}
        for (bk, b), amount in book.exposure.items():
            if bk == bank:
                totals[ents[b].group] = totals.get(ents[b].group, 0) + amount
        cap = GROUP_CAP * limit_of[bank]
        for group, total in sorted(totals.items()):
            if total <= cap or (bank == GAMMA and group in (SYNTHETIX, MERIDIAN)):
                continue
            factor = cap / total
            for key in sorted(k for k in book.exposure if k[0] == bank and ents[k[1]].group == group):
                book.exposure[key] = max(1000, int(book.exposure[key] * factor // 1000) * 1000)

    # --- loans and credit lines ---------------------------------------------------------------------------------------
    nova = _nova(random.Random(seed + 1), ents, own, stake, add, borrowers)
    loans: list[tuple[str, str, int]] = list(book.pinned_loans)
    lines: list[tuple[str, str, int, int]] = list(book.pinned_lines)
    for (bank, b), amount in sorted(book.exposure.items()):
        drawn = 0
        if amount >= 2000 and rng.random() < 0.5:
            drawn = min(amount - 1000, _k(amount * rng.uniform(0.1, 0.7)))
            lines.append((bank, b, drawn + _k(amount * rng.uniform(0.0, 0.8)), drawn))
        if rng.random() < 0.08:  # an undrawn commitment: no exposure yet
            lines.append((bank, b, _k(amount * rng.uniform(0.1, 1.0)), 0))
        rest = amount - drawn
        k = min(rng.choice((1, 1, 1, 2, 2, 3)), rest // 1000)
        cuts = sorted(rng.sample(range(1, rest // 1000), k - 1)) if k > 1 else []
        bounds = [0, *cuts, rest // 1000]
        loans += [(bank, b, (bounds[i + 1] - bounds[i]) * 1000) for i in range(k)]
    nova_loans, nova_lines = _split(nova, random.Random(seed + 2))
    loans += nova_loans
    lines += nova_lines
    bank_rows.append((NOVA, NOVA_CAPITAL, LIMIT_PCT))

    # --- files --------------------------------------------------------------------------------------------------------
    loans.sort()
    lines.sort()
    nova_rng = random.Random(seed + 3)
    rows = {
        "banks.csv": (("bank", "capital", "limit_pct"), sorted(bank_rows)),
        "loans.csv": (("bank", "borrower", "loan_id", "amount"),
                      [(b, w, f"L{i:06d}", a) for i, (b, w, a) in enumerate(loans, 1)]),
        "credit_lines.csv": (("bank", "borrower", "line_id", "credit_limit", "drawn"),
                             [(b, w, f"C{i:06d}", lim, d) for i, (b, w, lim, d) in enumerate(lines, 1)]),
        "ownership.csv": (("owner", "company", "share"), [(o, c, f"{s:.2f}") for (o, c), s in sorted(own.items())]),
        "companies.csv": (("company", "sector", "country", "rating", "total_assets"), sorted(
                          [(e.name, e.sector, rng.choice(COUNTRIES), rng.choice(RATINGS),
                            _k(math.exp(rng.gauss(math.log(40_000_000), 1.3))))
                           for e in sorted(ents.values(), key=lambda e: e.name) if e.role != "nova"]
                          + [(e.name, e.sector, nova_rng.choice(COUNTRIES), nova_rng.choice(RATINGS),
                              _k(math.exp(nova_rng.gauss(math.log(40_000_000), 1.3))))
                             for e in sorted(ents.values(), key=lambda e: e.name) if e.role == "nova"])),
    }
    profile = {DEEPLOGIC: ("Information technology", "United Kingdom", "BBB"),
               NEURALLINKER: ("Electronics", "Italy", "BB"), ORION: ("Transport", "Greece", "BBB"),
               SYNTHETIX: ("Financial services", "Luxembourg", "A")}
    header, comp = rows["companies.csv"]
    rows["companies.csv"] = (header, [(c, *profile[c], t) if c in profile else (c, s, k, r, t)
                                      for c, s, k, r, t in comp])
    assert all(capital_of[b] > 0 for b in capital_of)
    for fname, (header, data) in rows.items():
        with (out / fname).open("w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(header)
            w.writerows(data)
    return {fname: len(data) for fname, (_, data) in sorted(rows.items())}


def _nova(rng: random.Random, ents: dict[str, Entity], own: dict, stake, add, borrowers: list[str]
          ) -> dict[str, int]:
    """Bank Nova's exposures: the Castellan group's twelve mid-sized borrowers, and others drawn as at every bank."""
    add(CASTELLAN, "nova", CASTELLAN, "Financial services")
    add(CASTELLAN_FINANCE, "nova", CASTELLAN, "Financial services", 1)
    stake(CASTELLAN, CASTELLAN_FINANCE, 0.70)
    for i, name in enumerate(CASTELLAN_MEMBERS):
        add(name, "nova", CASTELLAN, _sector(name), 1 if i < 9 else 2)
        if i < 9:
            stake(CASTELLAN, name, round(rng.uniform(0.55, 0.95), 2))
        else:
            stake(CASTELLAN_FINANCE, name, round(rng.uniform(0.55, 0.95), 2))
    limit = NOVA_CAPITAL * LIMIT_PCT / 100
    exposure = dict(zip(CASTELLAN_MEMBERS, CASTELLAN_EXPOSURES, strict=True))
    median = 300_000 * NOVA_CAPITAL / GAMMA_CAPITAL
    pool = [b for b in borrowers if ents[b].group != CASTELLAN]
    for b in rng.sample(pool, 600):
        x = math.exp(rng.gauss(math.log(median), 1.1))
        exposure[b] = _k(min(max(x, 20_000), 0.045 * NOVA_CAPITAL))  # under 5 % of capital too, like the group's
    totals: dict[str, int] = {}
    for b, amount in exposure.items():
        totals[ents[b].group] = totals.get(ents[b].group, 0) + amount
    for group, total in sorted(totals.items()):  # other groups at most GROUP_CAP of the limit, as everywhere
        if group != CASTELLAN and total > GROUP_CAP * limit:
            factor = GROUP_CAP * limit / total
            for b in sorted(b for b in exposure if ents[b].group == group):
                exposure[b] = max(1000, int(exposure[b] * factor // 1000) * 1000)
    assert sum(exposure[b] for b in CASTELLAN_MEMBERS) > limit
    assert max(exposure.values()) < 0.05 * NOVA_CAPITAL
    return exposure


def _split(exposure: dict[str, int], rng: random.Random) -> tuple[list, list]:
    """Bank Nova's exposures as loans and drawn credit lines."""
    loans, lines = [], []
    for b, amount in sorted(exposure.items()):
        drawn = 0
        if rng.random() < 0.5:
            drawn = min(amount - 1000, _k(amount * rng.uniform(0.1, 0.7)))
            lines.append((NOVA, b, drawn + _k(amount * rng.uniform(0.0, 0.8)), drawn))
        rest = amount - drawn
        k = min(rng.choice((1, 1, 2, 3)), rest // 1000)
        cuts = sorted(rng.sample(range(1, rest // 1000), k - 1)) if k > 1 else []
        bounds = [0, *cuts, rest // 1000]
        loans += [(NOVA, b, (bounds[i + 1] - bounds[i]) * 1000) for i in range(k)]
    return loans, lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out_dir", type=Path)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--banks", type=int, default=8)
    ap.add_argument("--companies", type=int, default=5000)
    args = ap.parse_args(argv)
    counts = generate(args.out_dir, seed=args.seed, banks=args.banks, companies=args.companies)
    for fname, n in counts.items():
        print(f"{args.out_dir / fname}: {n} rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
