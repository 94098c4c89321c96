"""Seeded ownership graphs for the company-control scenario: N companies in groups, multi-level chains and joint
holdings (two owners together above 50 %), written as data/companies.csv and data/ownership.csv.

    python scenarios/company_control/generate.py --companies 100000 --out scenarios/company_control/data
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

SECTORS = ("banking", "energy", "software", "retail", "logistics", "insurance", "pharma", "media")
COUNTRIES = ("IT", "DE", "FR", "ES", "NL", "AT", "BE", "PT")


def name(i: int) -> str:
    return f"Company {i:06d}"


def generate(out_dir: str | Path, companies: int = 10_000, seed: int = 3) -> dict[str, int]:
    """Write the two CSV files; same arguments, same bytes. Returns the row counts."""
    rng = random.Random(seed)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    edges: dict[tuple[int, int], float] = {}
    i = 0
    while i < companies:
        size = min(companies - i, rng.choice((1, 2, 3, 5, 8, 13, 21)))
        members = list(range(i, i + size))
        root = members[0]
        for pos, c in enumerate(members[1:], start=1):
            parent = members[rng.randrange(0, pos)]
            kind = rng.random()
            if kind < 0.6:  # a majority holding
                edges[(parent, c)] = round(rng.uniform(0.51, 1.0), 2)
            elif kind < 0.85 and pos >= 2:  # a joint holding: two group members, each below 50 %, together above
                other = members[rng.randrange(0, pos)]
                while other == parent and pos > 1:
                    other = members[rng.randrange(0, pos)]
                a = round(rng.uniform(0.26, 0.45), 2)
                edges[(parent, c)] = a
                if other != parent:
                    edges[(other, c)] = round(max(0.51 - a + 0.05, rng.uniform(0.1, 0.45)), 2)
            else:  # a minority holding only: the company stays outside the group's control
                edges[(parent, c)] = round(rng.uniform(0.05, 0.45), 2)
        if companies > 1 and rng.random() < 0.3:  # a small cross-holding into another group
            other = rng.randrange(0, companies)
            if other not in members:
                edges.setdefault((root, other), round(rng.uniform(0.01, 0.2), 2))
        i += size
    with (out / "companies.csv").open("w", encoding="utf-8") as fh:
        fh.write("company,country,sector\n")
        for c in range(companies):
            fh.write(f"{name(c)},{rng.choice(COUNTRIES)},{rng.choice(SECTORS)}\n")
    with (out / "ownership.csv").open("w", encoding="utf-8") as fh:
        fh.write("owner,company,share\n")
        for (o, c), s in sorted(edges.items()):
            fh.write(f"{name(o)},{name(c)},{s:.2f}\n")
    return {"companies.csv": companies, "ownership.csv": len(edges)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Generate the company-control ownership graph.")
    ap.add_argument("--companies", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "data")
    args = ap.parse_args(argv)
    print(generate(args.out, args.companies, args.seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
