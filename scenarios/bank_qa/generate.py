"""Generate the bank_qa knowledge graph and its two question sets, deterministically.

    python scenarios/bank_qa/generate.py [--seed 2606] [--out scenarios/bank_qa/data]

A synthetic graph shaped like the paper's Bank KG (about 10k triples, anonymized names) over nine relations, one CSV
file each with a header: has_role_in, owns_minority (< 50 %), owns_majority (>= 50 %), controls and
ultimately_controls (derived from ownership by :mod:`ground_truth`, never by the engine), has_holdings_in, lends_to,
has_credit_line_with, guarantees. Some banks and holders get 1 to 1,000 relations on purpose: the bank_plus stress
questions count them. Then ``bank_qa.jsonl`` and ``bank_plus.jsonl`` (see :mod:`questions`).

Same seed, same bytes: one ``random.Random(seed)``, rows sorted, integers only, ``\\n`` line ends.
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import io
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_SEED = 2606
N_PERSONS, N_COMPANIES, N_BANKS = 1000, 1500, 40
ROLES = ("CEO", "CFO", "Director", "Chair", "Board Member", "Auditor")
# borrowers of the stress banks and holdings of the stress holders: 1 to 1,000 entity-relations
LEND_LEVELS = (1, 2, 3, 5, 8, 13, 20, 32, 50, 80, 130, 200, 320, 500, 1000)
HOLD_LEVELS = (1, 4, 10, 25, 64, 160, 400, 1000)


def _sibling(name: str):
    """A module of this folder, loaded by path (the scenario folder is not a package)."""
    key = f"bank_qa_{name}"
    if key in sys.modules:
        return sys.modules[key]
    spec = importlib.util.spec_from_file_location(key, HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[key] = module
    spec.loader.exec_module(module)
    return module


def names(prefix: str, n: int, width: int) -> list[str]:
    return [f"{prefix} {i:0{width}d}" for i in range(1, n + 1)]


def build(seed: int = DEFAULT_SEED) -> dict[str, list[tuple]]:
    """The nine relations as sorted rows."""
    rng = random.Random(seed)
    persons, companies, banks = names("Person", N_PERSONS, 4), names("Company", N_COMPANIES, 4), names("Bank", N_BANKS, 3)

    # --- roles: every company has 0 to 3 officers; a few busy persons sit on many boards ---------------------------
    busy = rng.sample(persons, 40)
    roles: dict[tuple[str, str], str] = {}
    for c in companies:
        for _ in range(rng.choice((0, 1, 1, 1, 2, 2, 3))):
            p = rng.choice(busy) if rng.random() < 0.25 else rng.choice(persons)
            roles.setdefault((p, c), rng.choice(ROLES))

    # --- ownership: majority trees (acyclic), minority stakes, joint control through subsidiaries --------------------
    own: dict[tuple[str, str], int] = {}
    order = companies[:]
    rng.shuffle(order)
    majority_of: dict[str, str] = {}  # company -> its majority owner (for joint-control cases)
    subsidiaries: dict[str, list[str]] = {}

    def owner_pool(i: int) -> str:
        # persons, or companies placed before position i (majority chains never loop)
        if i == 0 or rng.random() < 0.35:
            return rng.choice(persons)
        return order[rng.randrange(i)]

    for i, c in enumerate(order):
        r = rng.random()
        if r < 0.22:
            continue  # widely held or private: no recorded owner
        left = 100
        if r < 0.72:
            owner = owner_pool(i)
            pct = rng.choice((50, 50, 51, 55, 60, 60, 65, 70, 75, 80, 85, 90, 95, 100, 100))
            own[(owner, c)] = pct
            left -= pct
            majority_of[c] = owner
            subsidiaries.setdefault(owner, []).append(c)
        elif r < 0.80 and subsidiaries:
            # joint holdings: X and a company X controls hold minority stakes that may add up to control
            x = rng.choice(sorted(subsidiaries))
            sub = rng.choice(subsidiaries[x])
            if sub != c and x != c:
                a = rng.randint(15, 35)
                b = rng.choice((51 - a, 50 - a, rng.randint(max(1, 52 - a), 49)))
                own[(x, c)] = a
                own[(sub, c)] = b
                left -= a + b
        for _ in range(rng.choice((0, 0, 1, 1, 2))):
            if left <= 1:
                break
            o = rng.choice(persons) if rng.random() < 0.5 else rng.choice(companies)
            if o == c or (o, c) in own:
                continue
            pct = rng.randint(1, min(49, left - 1))
            own[(o, c)] = pct
            left -= pct

    # --- holdings: ordinary holders, and stress holders with 1..1,000 holdings ---------------------------------------
    holdings: dict[tuple[str, str], int] = {}
    holders = rng.sample(companies, 60 + len(HOLD_LEVELS))
    stress_holders, plain_holders = holders[: len(HOLD_LEVELS)], holders[len(HOLD_LEVELS):]
    for h, n in zip(stress_holders, HOLD_LEVELS, strict=True):
        for c in rng.sample([x for x in companies if x != h], n):
            holdings[(h, c)] = rng.randint(1, 500) * 10_000
    for h in plain_holders + rng.sample(banks, 10):
        for c in rng.sample(companies, rng.randint(1, 6)):
            if c != h:
                holdings[(h, c)] = rng.randint(1, 500) * 10_000

    # --- lending: stress banks with 1..1,000 borrowers, ordinary banks with 3..25 ----------------------------------
    loans: dict[tuple[str, str], int] = {}
    shuffled = banks[:]
    rng.shuffle(shuffled)
    for b, n in zip(shuffled, LEND_LEVELS, strict=False):
        for c in rng.sample(companies, n):
            loans[(b, c)] = rng.randint(10, 5000) * 10_000
    for b in shuffled[len(LEND_LEVELS):]:
        for c in rng.sample(companies, rng.randint(3, 25)):
            loans[(b, c)] = rng.randint(10, 5000) * 10_000
    lines: dict[tuple[str, str], int] = {}
    for _ in range(320):
        lines.setdefault((rng.choice(companies), rng.choice(banks)), rng.randint(5, 2000) * 10_000)
    guarantees: dict[tuple[str, str], int] = {}
    for _ in range(260):
        g, c = rng.choice(companies), rng.choice(companies)
        if g != c:
            guarantees.setdefault((g, c), rng.randint(5, 1000) * 10_000)

    # --- derived: control and ultimate control, by the independent ground-truth fixpoint -----------------------------
    gt = _sibling("ground_truth")
    edges = [(o, c, p) for (o, c), p in own.items()]
    control = gt.control_pairs(edges)
    ultimate = gt.ultimate_pairs(control)

    return {
        "has_role_in": sorted((p, c, r) for (p, c), r in roles.items()),
        "owns_minority": sorted((o, c, p) for (o, c), p in own.items() if p < 50),
        "owns_majority": sorted((o, c, p) for (o, c), p in own.items() if p >= 50),
        "controls": sorted(control),
        "ultimately_controls": sorted(ultimate),
        "has_holdings_in": sorted((h, c, v) for (h, c), v in holdings.items()),
        "lends_to": sorted((b, c, a) for (b, c), a in loans.items()),
        "has_credit_line_with": sorted((c, b, v) for (c, b), v in lines.items()),
        "guarantees": sorted((g, c, a) for (g, c), a in guarantees.items()),
    }


def csv_text(header: tuple[str, ...], rows: list[tuple]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return buf.getvalue()


def write(out: Path, seed: int = DEFAULT_SEED) -> dict[str, int]:
    """Write the nine CSV files and both question files into ``out``; return the row count per file."""
    gt = _sibling("ground_truth")
    questions = _sibling("questions")
    out.mkdir(parents=True, exist_ok=True)
    counts = {}
    for rel, rows in build(seed).items():
        file, cols = gt.RELATIONS[rel]
        (out / file).write_text(csv_text(cols, rows), encoding="utf-8", newline="")
        counts[file] = len(rows)
    kg = gt.KG(out)
    for name, items in questions.build(kg, seed).items():
        (out / f"{name}.jsonl").write_text(questions.jsonl(items), encoding="utf-8", newline="")
        counts[f"{name}.jsonl"] = len(items)
    return counts


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--out", type=Path, default=HERE / "data")
    args = ap.parse_args(argv)
    counts = write(args.out, args.seed)
    triples = sum(n for f, n in counts.items() if f.endswith(".csv"))
    for f, n in counts.items():
        print(f"{f}: {n}")
    print(f"{triples} triples -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
