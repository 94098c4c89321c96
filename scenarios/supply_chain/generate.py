"""A small held-out catalog of another domain (a manufacturer's purchase orders, its suppliers, their owners), with
questions whose answers are computed here from the data, in plain Python.

Written before any tuning of the LLM policy on its behaviour, and kept as it is: it measures how the policy and its
prompts carry over to a catalog they were not written with (``vadaorchestra eval supply_chain``).
"""

from __future__ import annotations

import random
from collections import defaultdict
from pathlib import Path

BUYERS = ["Acme Motors", "Helios Robotics", "Nordwind Tractors"]
SUPPLIERS = ["Borealis Steel", "Cobalt Parts", "Dynamo Castings", "Emerald Plastics", "Fjord Electronics",
             "Granite Fasteners", "Harbor Glass"]
COUNTRIES = ["Norway", "Portugal", "Poland", "Japan", "Chile", "Canada", "Kenya"]
OWNERS = ["Ivory Holding", "Juniper Capital", "Kestrel Partners", "Laura Moreau", "Marco Bianchi"]


def generate(seed: int = 11) -> dict[str, list[list]]:
    rng = random.Random(seed)
    orders, n = [], 0
    for buyer in BUYERS:
        for supplier in rng.sample(SUPPLIERS, 4):
            for _ in range(rng.randint(1, 4)):
                n += 1
                orders.append([buyer, supplier, f"PO-{n:04d}", float(rng.randrange(5, 400) * 250)])
    suppliers = [[s, COUNTRIES[i], rng.randint(1, 5)] for i, s in enumerate(SUPPLIERS)]
    owners = []
    for s in SUPPLIERS:
        picked = rng.sample(OWNERS, rng.randint(1, 3))
        shares = [rng.randint(10, 60) for _ in picked]
        for o, p in zip(picked, shares, strict=True):
            owners.append([o, s, float(round(100 * p / sum(shares), 1))])
    return {"orders": orders, "suppliers": suppliers, "owners": owners}


HEADERS = {"orders": ["buyer", "supplier", "order_id", "amount"], "suppliers": ["supplier", "country", "rating"],
           "owners": ["owner", "supplier", "share_pct"]}


def questions(data: dict[str, list[list]]) -> list[dict]:
    by_buyer = defaultdict(list)
    for b, s, o, a in data["orders"]:
        by_buyer[b].append((s, o, a))
    owners = defaultdict(list)
    for o, s, _p in data["owners"]:
        owners[s].append(o)
    country = {s: c for s, c, _r in data["suppliers"]}
    out = []

    def add(qtype: str, template: str, question: str, answer, complexity: int) -> None:
        out.append({"id": f"sc{len(out) + 1:03d}", "type": qtype, "template": template, "question": question,
                    "answer": answer, "complexity": complexity})

    for b in BUYERS:
        rows = by_buyer[b]
        sups = sorted({s for s, _, _ in rows})
        add("generic", "suppliers", f"Which suppliers does {b} buy from?", sups, len(rows))
        add("count", "n_suppliers", f"How many suppliers does {b} buy from?", len(sups), len(rows))
        s = sups[0]
        mine = [r for r in rows if r[0] == s]
        add("count", "n_orders_with", f"How many orders did {b} place with {s}?", len(mine), len(mine))
        add("generic", "largest_order", f"Which supplier received the largest purchase order of {b}?",
            [max(rows, key=lambda r: r[2])[0]], len(rows))
    for s in SUPPLIERS[:4]:
        add("generic", "owners", f"Who owns {s}?", sorted(owners[s]), len(owners[s]))
        add("generic", "country", f"In which country is {s} based?", [country[s]], 1)
    for b in BUYERS[:2]:
        sups = sorted({s for s, _, _ in by_buyer[b]})
        add("multi-hop", "owners_of_suppliers", f"Who owns the suppliers that {b} buys from?",
            sorted({o for s in sups for o in owners[s]}), len(sups) + sum(len(owners[s]) for s in sups))
    return out


def write(folder: Path, seed: int = 11) -> None:
    data = generate(seed)
    from vadaorchestra.eval.datasets import write_tables

    write_tables(folder, data, HEADERS, questions(data))


if __name__ == "__main__":
    write(Path(__file__).resolve().parent)
