"""A small held-out catalog of another domain (freight hubs, the directed lanes between them, the shipments dispatched
from them, and the operators that run the hubs, grouped by parent operator), with questions whose answers are computed
here from the data, in plain Python.

Written before looking at how the agents decide, and kept as it is: it measures how the project carries over to a
catalog it was not written with (``vadaorchestra eval freight_hubs``).

Conventions of the gold answers:

- Weights are tonnes (multiples of 0.5 t), declared values euros; hub capacities are tonnes per day and an operator's
  contracted tonnage is tonnes per month. All shipments of ``shipments.csv`` belong to one month (the ledger of the
  current month), so the tonnage an operator dispatches in the month is the sum of the weights of every shipment
  whose *origin* hub it runs. A hub "handles"/"dispatches" the shipments leaving it (origin hub); arrivals are not
  counted anywhere.
- Totals and counts run over every shipment row: many shipments share one weight or one declared value, so a sum that
  merges equal values is wrong. A count of shipments counts shipment ids; a count of shippers or carriers counts
  distinct names.
- A share is a **fraction** (0 to 1), the exact quotient of the two amounts; the questions are picked so that it is a
  short terminating decimal (contracted tonnages are of the form 2^a * 5^b, and the heaviest shipment of the hub
  of the carrier-share question is lowered so that the hub's tonnage is of that form too). ``37.5`` or ``37.5 %``
  does not match ``0.375``.
- Lanes are directed. "Directly" is one lane; "reachable ... directly or through other hubs" / "eventually" is the
  transitive closure along lanes; the starting hub itself is never in the answer, even where a cycle leads back to it.
- Capacity filters are strict for "above"/"more than" and non-strict for "at least"; no capacity equals a threshold
  asked about, so both readings agree.
- An operator's **group** is the operator itself and every subsidiary it owns, directly or through other
  subsidiaries (``subsidiaries.csv`` has one row per parent -> subsidiary link; the tree is two levels deep under
  Continental Rail Terminals). The group's hubs are the hubs whose operator (``hubs.csv``) is a group member. An
  operator's ``contracted_monthly_t`` covers its whole group: the group breaches it when the group's dispatched
  tonnage is strictly more than it; no group tonnage equals a contract, so ``>`` and ``>=`` agree. Every operator is
  a candidate (a subsidiary is checked against its own contract, counting its own subsidiaries' hubs).
- An operator is not its own subsidiary: "which subsidiaries" lists the group without the operator; "stayed within"
  is ``<=`` its contract. An argmax question ("which carrier ... heaviest", "which hub ... largest capacity") has a
  single row at the maximum.
- The breach question is picked so that it differs from the naive reading (counting only an operator's own hubs):
  Meridian Port Holdings breaches only through its subsidiaries' hubs, and none of its members alone exceeds its
  contract.
- Question types: ``generic`` reads values off one tool's rows (including an argmax over them); ``count`` is one
  number aggregated over one tool's rows (a count, a sum, a max or a ratio of two sums); ``multi-hop`` combines the
  rows of two or more tools.
"""

from __future__ import annotations

import random
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

from vadaorchestra.eval.datasets import check_names, exact_number

# hub -> (country, operator, daily handling capacity in tonnes)
HUBS = {
    "Rotterdam Maasvlakte Hub": ("Netherlands", "Meridian Port Holdings", 920.0),
    "Felixstowe Trimley Depot": ("United Kingdom", "Meridian Port Holdings", 560.0),
    "Antwerp Scheldt Terminal": ("Belgium", "Flanders Gateway Operations", 780.0),
    "Hamburg Waltershof Depot": ("Germany", "Elbe Quay Services", 840.0),
    "Duisburg Rhine Gateway": ("Germany", "Continental Rail Terminals", 610.0),
    "Lyon Rhone Freight Center": ("France", "Continental Rail Terminals", 350.0),
    "Vienna Danube Cargo Center": ("Austria", "Alpine Inland Logistics", 380.0),
    "Milan Segrate Interchange": ("Italy", "Alpine Inland Logistics", 430.0),
    "Prague Rudna Terminal": ("Czechia", "Vltava Freight Services", 260.0),
    "Barcelona Zona Franca Hub": ("Spain", "Iberia Cargo Partners", 520.0),
    "Warsaw Pruszkow Logistics Park": ("Poland", "Vistula Hub Operators", 290.0),
    "Gdansk Baltic Container Yard": ("Poland", "Vistula Hub Operators", 470.0),
}
# directed lanes (origin, destination, transit days); two cycles: Rotterdam <-> Felixstowe, Lyon -> Barcelona -> Lyon,
# and Prague -> Warsaw -> Prague
LANES = [
    ("Rotterdam Maasvlakte Hub", "Antwerp Scheldt Terminal", 1),
    ("Rotterdam Maasvlakte Hub", "Duisburg Rhine Gateway", 1),
    ("Rotterdam Maasvlakte Hub", "Felixstowe Trimley Depot", 2),
    ("Felixstowe Trimley Depot", "Rotterdam Maasvlakte Hub", 2),
    ("Antwerp Scheldt Terminal", "Lyon Rhone Freight Center", 2),
    ("Antwerp Scheldt Terminal", "Duisburg Rhine Gateway", 1),
    ("Duisburg Rhine Gateway", "Hamburg Waltershof Depot", 1),
    ("Duisburg Rhine Gateway", "Prague Rudna Terminal", 2),
    ("Hamburg Waltershof Depot", "Gdansk Baltic Container Yard", 2),
    ("Gdansk Baltic Container Yard", "Warsaw Pruszkow Logistics Park", 1),
    ("Prague Rudna Terminal", "Vienna Danube Cargo Center", 1),
    ("Prague Rudna Terminal", "Warsaw Pruszkow Logistics Park", 2),
    ("Warsaw Pruszkow Logistics Park", "Prague Rudna Terminal", 2),
    ("Vienna Danube Cargo Center", "Milan Segrate Interchange", 2),
    ("Lyon Rhone Freight Center", "Barcelona Zona Franca Hub", 2),
    ("Lyon Rhone Freight Center", "Milan Segrate Interchange", 1),
    ("Milan Segrate Interchange", "Barcelona Zona Franca Hub", 2),
    ("Barcelona Zona Franca Hub", "Lyon Rhone Freight Center", 2),
]
OPERATORS = ["Meridian Port Holdings", "Flanders Gateway Operations", "Elbe Quay Services",
             "Continental Rail Terminals", "Alpine Inland Logistics", "Vltava Freight Services",
             "Iberia Cargo Partners", "Vistula Hub Operators"]
SUBSIDIARIES = [
    ("Meridian Port Holdings", "Flanders Gateway Operations"),
    ("Meridian Port Holdings", "Elbe Quay Services"),
    ("Continental Rail Terminals", "Alpine Inland Logistics"),
    ("Alpine Inland Logistics", "Vltava Freight Services"),
]
CARRIERS = ["Blue Anchor Freight", "Red Kite Haulage", "Northern Star Carriers", "Greyhound Cargo Lines",
            "Saffron Road Transport"]
SHIPPERS = ["Kestrel Foods", "Halvorsen Paper Mills", "Orbital Appliances", "Solenne Cosmetics", "Tamsin Textiles",
            "Brightwater Beverages", "Corvid Machinery", "Lindqvist Timber"]
# relative dispatch volume per hub
VOLUME = {"Rotterdam Maasvlakte Hub": 5, "Felixstowe Trimley Depot": 2, "Antwerp Scheldt Terminal": 3,
          "Hamburg Waltershof Depot": 3, "Duisburg Rhine Gateway": 3, "Lyon Rhone Freight Center": 2,
          "Vienna Danube Cargo Center": 2, "Milan Segrate Interchange": 2, "Prague Rudna Terminal": 2,
          "Barcelona Zona Franca Hub": 2, "Warsaw Pruszkow Logistics Park": 1, "Gdansk Baltic Container Yard": 2}
N_SHIPMENTS = 220
# contracted tonnages are picked among these (multiples of 25 of the form 2^a * 5^b: shares of them terminate)
CONTRACT_VALUES = sorted(2 ** a * 5 ** b for a in range(0, 12) for b in range(0, 8)
                         if (2 ** a * 5 ** b) % 25 == 0 and 100 <= 2 ** a * 5 ** b <= 20000)
SMOOTH = sorted(2 ** a * 5 ** b for a in range(0, 12) for b in range(0, 8))
SHARE_HUB = "Hamburg Waltershof Depot"
HEADERS = {"hubs": ["hub", "country", "operator", "daily_capacity_t"],
           "lanes": ["origin_hub", "destination_hub", "transit_days"],
           "shipments": ["shipment_id", "shipper", "carrier", "origin_hub", "destination_hub", "weight_t",
                         "declared_value_eur"],
           "operators": ["operator", "contracted_monthly_t"],
           "subsidiaries": ["parent_operator", "subsidiary"]}


# --- relations, in plain Python --------------------------------------------------------------------------------------
def direct(hub: str) -> list[str]:
    return sorted(d for o, d, _t in LANES if o == hub)


def reachable(hub: str) -> list[str]:
    seen, todo = set(), [hub]
    while todo:
        for d in direct(todo.pop()):
            if d not in seen:
                seen.add(d)
                todo.append(d)
    return sorted(seen - {hub})


def lanes_within(hub: str) -> int:
    """The lanes the transitive answer depends on: those leaving the hub or a hub reachable from it."""
    nodes = set(reachable(hub)) | {hub}
    return sum(1 for o, _d, _t in LANES if o in nodes)


def group(op: str) -> list[str]:
    """The operator and its subsidiaries, directly or through other subsidiaries."""
    out, todo = {op}, [op]
    while todo:
        p = todo.pop()
        for parent, sub in SUBSIDIARIES:
            if parent == p and sub not in out:
                out.add(sub)
                todo.append(sub)
    return sorted(out)


def group_hubs(op: str) -> list[str]:
    members = set(group(op))
    return sorted(h for h, (_c, o, _k) in HUBS.items() if o in members)


def own_hubs(op: str) -> list[str]:
    return sorted(h for h, (_c, o, _k) in HUBS.items() if o == op)


# --- data ------------------------------------------------------------------------------------------------------------
def _tonnage(shipments: list[list], hubs: list[str]) -> Fraction:
    return sum((Fraction(r[5]) for r in shipments if r[3] in hubs), Fraction(0))


def _above(x: Fraction, factor: float) -> int:
    return next(v for v in CONTRACT_VALUES if v > x * Fraction(factor))


def _below(x: Fraction, factor: float) -> int:
    return max(v for v in CONTRACT_VALUES if v < x * Fraction(factor))


def _between(lo: Fraction, hi: Fraction) -> int:
    inside = [v for v in CONTRACT_VALUES if lo < v < hi]
    assert inside, f"no contract value between {lo} and {hi}"
    return inside[len(inside) // 2]


def generate(seed: int = 23) -> dict[str, list[list]]:
    rng = random.Random(seed)
    origins = [h for h, w in VOLUME.items() for _ in range(w)]
    # each hub serves its own customer base of three to five shippers
    customers = {h: sorted(rng.sample(SHIPPERS, rng.randint(3, 5)), key=SHIPPERS.index) for h in HUBS}
    shipments = []
    for n in range(1, N_SHIPMENTS + 1):
        origin = rng.choice(origins)
        dest = rng.choice(reachable(origin))
        weight = rng.randrange(4, 57) * 0.5
        value = float(rng.randrange(4, 80) * 5000)
        shipper, carrier = rng.choice(customers[origin]), rng.choice(CARRIERS)
        shipments.append([f"SHP-{n:04d}", shipper, carrier, origin, dest, weight, value])
    # the carrier-share question divides by SHARE_HUB's tonnage: lower its heaviest shipment so that the tonnage is
    # of the form 2^a * 5^b and every share of it is a terminating decimal
    rows = [r for r in shipments if r[3] == SHARE_HUB]
    total = sum(Fraction(r[5]) for r in rows)
    heaviest = max(rows, key=lambda r: r[5])
    target = max(v for v in SMOOTH if v <= total and heaviest[5] - (total - v) >= 2)
    heaviest[5] = float(heaviest[5] - (total - target))
    t = {op: _tonnage(shipments, group_hubs(op)) for op in OPERATORS}
    own = {op: _tonnage(shipments, own_hubs(op)) for op in OPERATORS}
    contracts = {
        # breaches only counting its subsidiaries: above its own hubs and above each subsidiary's group
        "Meridian Port Holdings": _between(max([own["Meridian Port Holdings"], t["Flanders Gateway Operations"],
                                                t["Elbe Quay Services"]]), t["Meridian Port Holdings"]),
        "Flanders Gateway Operations": _above(t["Flanders Gateway Operations"], 1.1),
        "Elbe Quay Services": _below(t["Elbe Quay Services"], 0.95),  # breaches alone
        "Continental Rail Terminals": _above(t["Continental Rail Terminals"], 1.1),
        "Alpine Inland Logistics": _between(own["Alpine Inland Logistics"], t["Alpine Inland Logistics"]),
        "Vltava Freight Services": _above(t["Vltava Freight Services"], 1.1),
        "Iberia Cargo Partners": _above(t["Iberia Cargo Partners"], 1.1),
        "Vistula Hub Operators": _above(t["Vistula Hub Operators"], 1.1),
    }
    return {
        "hubs": [[h, c, o, k] for h, (c, o, k) in HUBS.items()],
        "lanes": [list(lane) for lane in LANES],
        "shipments": shipments,
        "operators": [[op, float(contracts[op])] for op in OPERATORS],
        "subsidiaries": [list(s) for s in SUBSIDIARIES],
    }


# --- questions -------------------------------------------------------------------------------------------------------
def analysis(data: dict[str, list[list]]) -> dict:
    ships = data["shipments"]
    by_hub = defaultdict(list)
    for r in ships:
        by_hub[r[3]].append(r)
    contract = {op: Fraction(c) for op, c in data["operators"]}
    cap = {h: k for h, _c, _o, k in data["hubs"]}
    tonnage = {op: sum((Fraction(r[5]) for h in group_hubs(op) for r in by_hub[h]), Fraction(0)) for op in OPERATORS}
    own = {op: sum((Fraction(r[5]) for h in own_hubs(op) for r in by_hub[h]), Fraction(0)) for op in OPERATORS}
    return {"by_hub": by_hub, "contract": contract, "cap": cap, "tonnage": tonnage, "own": own}


def check(data: dict[str, list[list]]) -> None:
    """The properties the questions rely on."""
    a = analysis(data)
    contract, tonnage, own = a["contract"], a["tonnage"], a["own"]
    assert all(tonnage[op] != contract[op] for op in OPERATORS), "a group tonnage equals its contract"
    right = sorted(op for op in OPERATORS if tonnage[op] > contract[op])
    naive = sorted(op for op in OPERATORS if own[op] > contract[op])
    assert right and right != naive, (right, naive)
    m = "Meridian Port Holdings"
    assert tonnage[m] > contract[m] and own[m] < contract[m]
    assert all(tonnage[s] < contract[m] for s in group(m) if s != m), "a Meridian member alone exceeds the contract"
    assert all(sum(Fraction(r[5]) for r in a["by_hub"][h]) < contract[m] for h in group_hubs(m))
    names = list(HUBS) + OPERATORS + CARRIERS + SHIPPERS
    check_names(names)
    assert len(set(HUBS[h][2] for h in HUBS)) == len(HUBS), "capacities are not distinct"


def questions(data: dict[str, list[list]]) -> list[dict]:
    a = analysis(data)
    by_hub, contract, cap, tonnage = a["by_hub"], a["contract"], a["cap"], a["tonnage"]
    country = {h: c for h, c, _o, _k in data["hubs"]}
    operator = {h: o for h, _c, o, _k in data["hubs"]}
    out = []

    def pos(name: str) -> str:
        return f"{name}'" if name.endswith("s") else f"{name}'s"

    def add(qtype: str, template: str, question: str, answer, complexity: int) -> None:
        out.append({"id": f"fr{len(out) + 1:03d}", "type": qtype, "template": template, "question": question,
                    "answer": answer, "complexity": complexity})

    def weight(rows: list[list]) -> Fraction:
        return sum((Fraction(r[5]) for r in rows), Fraction(0))

    # lookup: one attribute of one named entity
    add("generic", "lookup", "In which country is Duisburg Rhine Gateway located?",
        [country["Duisburg Rhine Gateway"]], 1)
    add("generic", "lookup", "What is the daily handling capacity of Prague Rudna Terminal, in tonnes?",
        exact_number(Fraction(cap["Prague Rudna Terminal"])), 1)
    add("generic", "lookup", "Which company operates Milan Segrate Interchange?",
        [operator["Milan Segrate Interchange"]], 1)
    add("generic", "lookup", "What contracted monthly tonnage does Alpine Inland Logistics have?",
        exact_number(contract["Alpine Inland Logistics"]), 1)

    # list: the entities related to a named one
    h = "Felixstowe Trimley Depot"
    assert len({r[2] for r in by_hub[h]}) < len(CARRIERS)
    add("generic", "list", f"Which carriers dispatched shipments from {h}?", sorted({r[2] for r in by_hub[h]}),
        len(by_hub[h]))
    h = "Lyon Rhone Freight Center"
    assert len({r[1] for r in by_hub[h]}) < len(SHIPPERS)
    add("generic", "list", f"List the shippers whose loads left {h}.", sorted({r[1] for r in by_hub[h]}),
        len(by_hub[h]))
    op = "Meridian Port Holdings"
    add("generic", "list", f"Name the hubs run by {op} or by its subsidiaries.", group_hubs(op),
        len(group(op)) + len(group_hubs(op)))
    op = "Continental Rail Terminals"
    add("generic", "list", f"Which subsidiaries does {op} own, directly or through other subsidiaries?",
        [s for s in group(op) if s != op], len(group(op)) - 1)

    # count: how many of something a named entity has
    h = "Rotterdam Maasvlakte Hub"
    add("count", "count", f"How many shipments left {h}?", len(by_hub[h]), len(by_hub[h]))
    h = "Antwerp Scheldt Terminal"
    add("count", "count", f"What number of different shippers sent freight out of {h}?",
        len({r[1] for r in by_hub[h]}), len(by_hub[h]))
    h = "Antwerp Scheldt Terminal"
    add("count", "count", f"Count the hubs that cargo from {h} can reach, directly or via other hubs.",
        len(reachable(h)), lanes_within(h))

    # total: a sum of amounts for a named entity (equal amounts all counted)
    h = "Lyon Rhone Freight Center"
    ws = [r[5] for r in by_hub[h]]
    assert len(ws) != len(set(ws)), f"{h}: no two equal weights"
    add("count", "total", f"What is the total weight, in tonnes, of the shipments dispatched from {h}?",
        exact_number(weight(by_hub[h])), len(by_hub[h]))
    h = "Gdansk Baltic Container Yard"
    vs = [r[6] for r in by_hub[h]]
    assert len(vs) != len(set(vs)), f"{h}: no two equal declared values"
    add("count", "total", f"What is the combined declared value of all loads leaving {h}?",
        exact_number(sum((Fraction(v) for v in vs), Fraction(0))), len(by_hub[h]))

    # share: a fraction of a total or of a limit
    h = SHARE_HUB
    c = next(c for c in CARRIERS if 0 < weight([r for r in by_hub[h] if r[2] == c]) < weight(by_hub[h]))
    part = weight([r for r in by_hub[h] if r[2] == c])
    add("count", "share", f"What share of the tonnage dispatched from {h} was carried by {c}?",
        exact_number(part / weight(by_hub[h])), len(by_hub[h]))
    op, h = "Meridian Port Holdings", "Rotterdam Maasvlakte Hub"
    add("multi-hop", "share", f"What fraction of {pos(op)} contracted monthly tonnage was dispatched from {h}?",
        exact_number(weight(by_hub[h]) / contract[op]), len(by_hub[h]) + 1)

    # extreme: argmax entity or max value
    h = "Duisburg Rhine Gateway"
    top = max(r[5] for r in by_hub[h])
    heaviest = [r for r in by_hub[h] if r[5] == top]
    assert len(heaviest) == 1, f"{h}: the heaviest shipment is not unique"
    add("generic", "extreme", f"Which carrier moved the heaviest single shipment out of {h}?", [heaviest[0][2]],
        len(by_hub[h]))
    h = "Vienna Danube Cargo Center"
    add("count", "extreme", f"What is the highest declared value among the shipments leaving {h}?",
        exact_number(Fraction(max(r[6] for r in by_hub[h]))), len(by_hub[h]))
    h = "Prague Rudna Terminal"
    reach = reachable(h)
    best = max(reach, key=lambda x: cap[x])
    assert best != max(direct(h), key=lambda x: cap[x]), "the transitive argmax equals the direct one"
    add("multi-hop", "extreme", f"Among the hubs reachable from {h}, directly or through other hubs, which one has "
        f"the largest daily handling capacity?", [best], lanes_within(h) + len(reach))

    # count or total restricted by a second named entity in an output column
    h, c = "Rotterdam Maasvlakte Hub", "Blue Anchor Freight"
    mine = [r for r in by_hub[h] if r[2] == c]
    assert 1 < len(mine) < len(by_hub[h])
    add("count", "restricted", f"How many shipments did {c} carry out of {h}?", len(mine), len(mine))
    h = "Duisburg Rhine Gateway"
    counts = defaultdict(list)
    for r in by_hub[h]:
        counts[r[1]].append(r)
    s = max(SHIPPERS, key=lambda x: (len(counts[x]), -SHIPPERS.index(x)))
    assert 1 < len(counts[s]) < len(by_hub[h])
    add("count", "restricted", f"What total tonnage did {s} send from {h}?", exact_number(weight(counts[s])),
        len(counts[s]))

    # a list restricted by a numeric condition on another tool's output
    h = "Antwerp Scheldt Terminal"
    ans = sorted(x for x in reachable(h) if cap[x] > 500)
    assert ans != sorted(x for x in direct(h) if cap[x] > 500)
    add("multi-hop", "filtered_list", f"Which hubs reachable from {h}, directly or through other hubs, have a daily "
        f"capacity above 500 tonnes?", ans, lanes_within(h) + len(reachable(h)))
    op = "Meridian Port Holdings"
    ans = sorted(x for x in group_hubs(op) if cap[x] >= 800)
    assert ans != sorted(x for x in own_hubs(op) if cap[x] >= 800)
    add("multi-hop", "filtered_list", f"Which hubs of {op} and its subsidiaries can handle at least 800 tonnes a "
        "day?", ans, len(group(op)) + 2 * len(group_hubs(op)))

    # direct vs transitive, for the same hub
    for h, direct_q, trans_q in [
        ("Prague Rudna Terminal", "Which hubs have a direct lane from {h}?",
         "Which hubs can shipments from {h} eventually reach, directly or through other hubs?"),
        ("Duisburg Rhine Gateway", "To which hubs does {h} run direct lanes?",
         "List every hub reachable from {h}, whether directly or through intermediate hubs."),
    ]:
        assert direct(h) != reachable(h)
        add("generic", "direct_vs_transitive", direct_q.format(h=h), direct(h), len(direct(h)))
        add("generic", "direct_vs_transitive", trans_q.format(h=h), reachable(h), lanes_within(h))

    # comparison with a limit, per group found through the subsidiary relation
    n_rel = len(SUBSIDIARIES)
    all_rows = len(data["shipments"])
    add("multi-hop", "group_limit", "Which operators, counting the hubs of their subsidiaries, dispatched more tonnage "
        "than their contracted monthly tonnage?", sorted(op for op in OPERATORS if tonnage[op] > contract[op]),
        all_rows + len(HUBS) + n_rel + len(OPERATORS))
    head = "Continental Rail Terminals"
    members = group(head)
    rows = sum(len(by_hub[x]) for x in group_hubs(head))
    add("multi-hop", "group_limit", f"Within {pos(head)} group, which operators exceed their contracted monthly "
        "tonnage once the hubs of their own subsidiaries are included?",
        sorted(op for op in members if tonnage[op] > contract[op]), rows + len(group_hubs(head)) + 2 * len(members))
    head = "Meridian Port Holdings"
    members = group(head)
    rows = sum(len(by_hub[x]) for x in group_hubs(head))
    add("multi-hop", "group_limit", f"Which members of {pos(head)} group stayed within their contracted monthly "
        "tonnage, counting the hubs of their subsidiaries?",
        sorted(op for op in members if tonnage[op] <= contract[op]), rows + len(group_hubs(head)) + 2 * len(members))
    return out


def write(folder: Path, seed: int = 23) -> None:
    from vadaorchestra.eval.datasets import write_generated

    write_generated(folder, generate(seed), check, HEADERS, questions)


if __name__ == "__main__":
    write(Path(__file__).resolve().parent)
