"""Company control computed independently of the engine (plain Python over the CSV): who controls whom, ultimate
controllers, and what each company controls. X controls Y when the shares of Y held by X and by the companies X
controls sum above 50 %."""

from __future__ import annotations

import csv
from collections import defaultdict
from pathlib import Path


def read_ownership(data_dir: str | Path) -> dict[str, dict[str, float]]:
    owns: dict[str, dict[str, float]] = defaultdict(dict)
    with (Path(data_dir) / "ownership.csv").open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            owns[row["owner"]][row["company"]] = float(row["share"])
    return owns


def controlled_by(owns: dict[str, dict[str, float]], x: str) -> set[str]:
    """Every company x controls (a fixpoint: add a company once x's and its controlled companies' shares pass 50 %)."""
    controlled: set[str] = set()
    while True:
        totals: dict[str, float] = defaultdict(float)
        for holder in {x} | controlled:
            for company, share in owns.get(holder, {}).items():
                if company != x:
                    totals[company] += share
        new = {c for c, t in totals.items() if t > 0.5} - controlled
        if not new:
            return controlled
        controlled |= new


def ultimate_controllers(owns: dict[str, dict[str, float]], company: str) -> set[str]:
    """Controllers of ``company`` that nobody controls."""
    owners_of: dict[str, set[str]] = defaultdict(set)
    for o, held in owns.items():
        for c in held:
            owners_of[c].add(o)
    ancestors, todo = set(), [company]
    while todo:
        for o in owners_of[todo.pop()]:
            if o not in ancestors:
                ancestors.add(o)
                todo.append(o)
    controls = {a: controlled_by(owns, a) for a in ancestors}
    controllers = {a for a, cs in controls.items() if company in cs and a != company}
    return {a for a in controllers if not any(a in cs for b, cs in controls.items() if b != a)}
