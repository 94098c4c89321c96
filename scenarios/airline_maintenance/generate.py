"""A held-out catalog of an airline's fleet maintenance (a regional turboprop airline in Ireland): its aircraft and
their home bases, the illustrated parts breakdown of the type (systems, assemblies and parts in one tree), the
life-limited parts fitted to each aircraft with the cycles they have run and their life limit, the maintenance work
orders booked against each aircraft, and the licensed engineers who certified them. Gold answers are computed here
from the generated rows, in plain Python.

Written from the project's README only, without looking at how the agents decide
(``vadaorchestra eval airline_maintenance``).

Conventions of the gold answers:

- Aircraft are named by their registration (``EI-WRA``). Each aircraft has one home base.
- Components (``components.csv``) have a ``component_kind``: ``system``, ``assembly`` or ``part``. The breakdown
  (``component_links.csv``: a component and a component fitted directly in it) has systems at the top; assemblies
  and parts sit under systems, parts and further assemblies under assemblies. A component is **directly** under
  another when a row links them (one hop: "directly", "sit directly under"); it is under it "directly or
  indirectly", "anywhere below", "at any depth" when a chain of rows links them. A component is not under itself.
- A question naming a kind ("parts", "assemblies") counts or lists only the components of that kind; the other kinds
  below the same component are left out.
- ``installed_parts.csv`` lists the life-limited parts fitted to each aircraft (one serial number per row; a
  component is fitted at most once per aircraft). ``cycles_since_new`` is how many flight cycles the part has run;
  ``life_limit_cycles`` (``life_limits.csv``, per component) is the most it may run. A part **exceeds** (is past,
  beyond) its life limit when its cycles are **strictly** more than the limit; no part's cycles equal its limit. The
  gold answer of a yes/no limit question ("Are all the parts ... within their life limits?") is the list of the parts
  (component names) that exceed (``[]``: none does, the answer is yes). "Which aircraft carry a part past its life
  limit" lists the aircraft with at least one such part.
- Work orders (``work_orders.csv``: one row per work order id) have a ``task_type`` (inspection, repair,
  modification, servicing), the certifying engineer and the labour hours booked. An engineer "has worked on" an
  aircraft when they certified at least one of its work orders. Engineers hold a licence category: ``B1``, ``B2``
  or ``C`` ("B1 engineers").
- Totals sum **every** row: many work orders have the same labour hours, and a sum over the distinct values is wrong.
  Counts of work orders count ids. Labour hours are floats (multiples of 0.5), cycles ints.
- A share is a **fraction** (0 to 1), an exact quotient whose denominator is of the form 2**a * 5**b (a terminating
  decimal: ``0.375``; ``37.5 %`` does not match).
- Numeric conditions ("more than 12,500 cycles") are strict, "at least" is non-strict; no value equals a strict
  threshold asked about.
- "The most"/"the three ... most" have no ties at the place asked about: "the three" is exactly three names.
- A two-part question's gold is ``{"parts": [<answer of part 1>, <answer of part 2>]}``, each part in these
  conventions. A question no tool of the catalog can answer (the data hold no check schedule, fuel burn, ...) has the
  gold ``null`` and the template ``no_tool``.
- Names answers are lists (compared as sets; one entity is a one-element list); counts are ints; hours and shares
  are floats.
- Question types: ``generic`` reads values off one tool's rows (including an argmax over them, or over sums grouped on
  one tool's rows); ``count`` is one number aggregated over one tool's rows; ``multi-hop`` combines the rows of two
  or more tools (or of several calls). ``complexity`` is the number of data rows the answer depends on.
"""

from __future__ import annotations

import random
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

from vadaorchestra.eval.datasets import check_names, exact_number, write_generated

BASES = ["Shannon Airport", "Cork Airport", "Kerry Airport"]
# registration -> (aircraft type, home base, year of delivery)
AIRCRAFT = {
    "EI-WRA": ("ATR 72-600", "Shannon Airport", 2013),
    "EI-WRB": ("ATR 72-600", "Shannon Airport", 2014),
    "EI-WRC": ("ATR 72-600", "Shannon Airport", 2011),
    "EI-WRJ": ("ATR 72-600", "Shannon Airport", 2020),
    "EI-WRD": ("ATR 42-600", "Cork Airport", 2016),
    "EI-WRE": ("ATR 72-600", "Cork Airport", 2015),
    "EI-WRF": ("ATR 72-600", "Cork Airport", 2012),
    "EI-WRG": ("ATR 42-600", "Kerry Airport", 2019),
    "EI-WRH": ("ATR 72-600", "Kerry Airport", 2018),
}
# component -> (kind, the component it is fitted in, or None for a system)
COMPONENTS = {
    "Landing Gear System": ("system", None),
    "Main Gear Leg Assembly": ("assembly", "Landing Gear System"),
    "Main Gear Shock Strut": ("part", "Main Gear Leg Assembly"),
    "Main Gear Drag Brace": ("part", "Main Gear Leg Assembly"),
    "Main Gear Retraction Actuator": ("part", "Main Gear Leg Assembly"),
    "Nose Gear Leg Assembly": ("assembly", "Landing Gear System"),
    "Nose Gear Shock Strut": ("part", "Nose Gear Leg Assembly"),
    "Nose Wheel Steering Actuator": ("part", "Nose Gear Leg Assembly"),
    "Wheel and Brake Assembly": ("assembly", "Landing Gear System"),
    "Carbon Brake Heat Stack": ("part", "Wheel and Brake Assembly"),
    "Main Wheel Hub": ("part", "Wheel and Brake Assembly"),
    "Landing Gear Control Unit": ("part", "Landing Gear System"),
    "Powerplant System": ("system", None),
    "Engine Core Module": ("assembly", "Powerplant System"),
    "High Pressure Turbine Disk": ("part", "Engine Core Module"),
    "Combustion Chamber Liner": ("part", "Engine Core Module"),
    "Compressor Impeller": ("part", "Engine Core Module"),
    "Propeller Assembly": ("assembly", "Powerplant System"),
    "Propeller Blade Set": ("part", "Propeller Assembly"),
    "Propeller Hub": ("part", "Propeller Assembly"),
    "Pitch Change Mechanism": ("assembly", "Propeller Assembly"),
    "Pitch Control Unit": ("part", "Pitch Change Mechanism"),
    "Blade Bearing Kit": ("part", "Pitch Change Mechanism"),
    "Engine Mount Truss": ("part", "Powerplant System"),
    "Fuel Metering Unit": ("part", "Powerplant System"),
    "Flight Control System": ("system", None),
    "Aileron Control Assembly": ("assembly", "Flight Control System"),
    "Aileron Trim Actuator": ("part", "Aileron Control Assembly"),
    "Aileron Cable Quadrant": ("part", "Aileron Control Assembly"),
    "Elevator Control Assembly": ("assembly", "Flight Control System"),
    "Elevator Servo Tab": ("part", "Elevator Control Assembly"),
    "Rudder Damper Unit": ("part", "Flight Control System"),
}
# life-limited component -> life limit in flight cycles
LIFE_LIMITS = {
    "Main Gear Shock Strut": 20000, "Nose Gear Shock Strut": 20000, "Main Gear Drag Brace": 24000,
    "Carbon Brake Heat Stack": 3000, "High Pressure Turbine Disk": 15000, "Compressor Impeller": 18000,
    "Propeller Hub": 30000, "Propeller Blade Set": 12000, "Engine Mount Truss": 25000,
}
# engineer -> (licence category, base)
ENGINEERS = {
    "Ciaran Doyle": ("B1", "Shannon Airport"), "Aoife Brennan": ("B2", "Shannon Airport"),
    "Padraig Kinsella": ("B1", "Shannon Airport"), "Maeve Considine": ("C", "Shannon Airport"),
    "Tomas Hegarty": ("B1", "Shannon Airport"), "Siobhan Nagle": ("B1", "Cork Airport"),
    "Eoin Crowley": ("B2", "Cork Airport"), "Grainne Twomey": ("B1", "Cork Airport"),
    "Darragh Buckley": ("C", "Cork Airport"), "Niall Sheehan": ("B1", "Kerry Airport"),
    "Roisin Fitzgerald": ("B2", "Kerry Airport"),
}
TASKS = ["inspection", "repair", "modification", "servicing"]
# registration -> number of work orders
WORK_ORDER_COUNTS = {"EI-WRA": 9, "EI-WRB": 8, "EI-WRC": 11, "EI-WRJ": 5, "EI-WRD": 7, "EI-WRE": 8, "EI-WRF": 10,
                     "EI-WRG": 6, "EI-WRH": 7}
SHARE_AIRCRAFT = "EI-WRE"  # 3 repairs out of 8 work orders
HEADERS = {"aircraft": ["aircraft", "aircraft_type", "home_base", "delivery_year"],
           "components": ["component", "component_kind"],
           "component_links": ["parent_component", "component"],
           "life_limits": ["component", "life_limit_cycles"],
           "installed_parts": ["serial_number", "aircraft", "component", "cycles_since_new"],
           "engineers": ["engineer", "licence_category", "base"],
           "work_orders": ["work_order", "aircraft", "task_type", "engineer", "labour_hours"]}


def generate(seed: int = 81) -> dict[str, list[list]]:
    rng = random.Random(seed)
    installed, serials = [], rng.sample(range(10000, 99999), len(AIRCRAFT) * len(LIFE_LIMITS))
    for ac, (_t, _b, year) in AIRCRAFT.items():
        airframe = (2024 - year) * rng.randrange(1500, 1900)
        for comp, limit in LIFE_LIMITS.items():
            if comp == "Carbon Brake Heat Stack":
                cycles = rng.randrange(300, 3400)
            elif rng.random() < 0.55:
                cycles = airframe  # fitted new with the aircraft
            else:
                cycles = rng.randrange(airframe // 10, airframe + 9000)  # swapped in from the pool
            if cycles == limit or cycles == 12500:
                cycles += 7
            installed.append([f"SN-{serials.pop()}", ac, comp, cycles])
    orders, n = [], 24000
    for ac, k in WORK_ORDER_COUNTS.items():
        base = AIRCRAFT[ac][1]
        local = [e for e, (_c, b) in ENGINEERS.items() if b == base]
        if ac == SHARE_AIRCRAFT:
            tasks = ["repair"] * 3 + [rng.choice(["inspection", "modification", "servicing"]) for _ in range(k - 3)]
            rng.shuffle(tasks)
        else:
            tasks = [rng.choices(TASKS, weights=[4, 3, 1, 3])[0] for _ in range(k)]
        for t in tasks:
            n += rng.randrange(1, 9)
            eng = rng.choice(local) if rng.random() < 0.85 else rng.choice(list(ENGINEERS))
            hours = rng.randrange(3, 49) * 0.5
            orders.append([f"WO-{n}", ac, t, eng, hours])
    return {
        "aircraft": [[a, t, b, y] for a, (t, b, y) in AIRCRAFT.items()],
        "components": [[c, k] for c, (k, _p) in COMPONENTS.items()],
        "component_links": [[p, c] for c, (_k, p) in COMPONENTS.items() if p is not None],
        "life_limits": [[c, x] for c, x in LIFE_LIMITS.items()],
        "installed_parts": installed,
        "engineers": [[e, c, b] for e, (c, b) in ENGINEERS.items()],
        "work_orders": orders,
    }


# --- relations, in plain Python --------------------------------------------------------------------------------------
def children(comp: str) -> list[str]:
    return sorted(c for c, (_k, p) in COMPONENTS.items() if p == comp)


def below(comp: str) -> list[str]:
    out, todo = [], [comp]
    while todo:
        for c in children(todo.pop()):
            out.append(c)
            todo.append(c)
    return sorted(out)


def kind(comp: str) -> str:
    return COMPONENTS[comp][0]


def analysis(data: dict[str, list[list]]) -> dict:
    parts, orders, by_engineer = defaultdict(list), defaultdict(list), defaultdict(list)
    for r in data["installed_parts"]:
        parts[r[1]].append(r)
    for r in data["work_orders"]:
        orders[r[1]].append(r)
        by_engineer[r[3]].append(r)
    return {"parts": parts, "orders": orders, "by_engineer": by_engineer}


def over_limit(parts: list[list]) -> list[str]:
    return sorted(r[2] for r in parts if r[3] > LIFE_LIMITS[r[2]])


def check(data: dict[str, list[list]]) -> None:
    a = analysis(data)
    for ac in AIRCRAFT:
        comps = [r[2] for r in a["parts"][ac]]
        assert len(comps) == len(set(comps))
        assert all(r[3] != LIFE_LIMITS[r[2]] for r in a["parts"][ac])
    assert len({r[0] for r in data["work_orders"]}) == len(data["work_orders"])
    assert len({r[0] for r in data["installed_parts"]}) == len(data["installed_parts"])
    names = (list(AIRCRAFT) + BASES + list(COMPONENTS) + list(ENGINEERS) + [r[0] for r in data["work_orders"]]
             + [r[0] for r in data["installed_parts"]])
    check_names(names)
    assert all(p is None or p in COMPONENTS for _k, p in COMPONENTS.values())


# --- questions -------------------------------------------------------------------------------------------------------
def questions(data: dict[str, list[list]]) -> list[dict]:
    a = analysis(data)
    parts, orders, by_engineer = a["parts"], a["orders"], a["by_engineer"]
    out: list[dict] = []

    def add(qtype: str, template: str, question: str, answer, complexity: int) -> None:
        out.append({"id": f"am{len(out) + 1:03d}", "type": qtype, "template": template, "question": question,
                    "answer": answer, "complexity": complexity})

    def fleet(base: str) -> list[str]:
        return sorted(ac for ac, (_t, b, _y) in AIRCRAFT.items() if b == base)

    # 1. relations in different voices
    e = "Ciaran Doyle"
    ans = sorted({r[1] for r in by_engineer[e]})
    assert 1 < len(ans) < len(AIRCRAFT)
    add("generic", "relation_active", f"Which aircraft has {e} worked on?", ans, len(by_engineer[e]))
    b = "Cork Airport"
    add("generic", "relation_passive", f"Which aircraft are based at {b}?", fleet(b), len(fleet(b)))
    e = "Aoife Brennan"
    ans = sorted(r[0] for r in by_engineer[e])
    assert 1 < len(ans)
    add("generic", "relation_possessive", f"Which work orders is {e} the certifying engineer of?", ans, len(ans))
    b = "Kerry Airport"
    rows = [r for ac in fleet(b) for r in orders[ac]]
    ans = sorted({r[3] for r in rows})
    assert any(ENGINEERS[x][1] != b for x in ans)
    add("multi-hop", "relation_join", f"Which engineers have certified work on the aircraft based at {b}?", ans,
        len(fleet(b)) + len(rows))

    # 3. kinds: licence letters, component kinds directly and along the whole chain
    ac = "EI-WRB"
    engs = sorted({r[3] for r in orders[ac]})
    ans = [x for x in engs if ENGINEERS[x][0] == "B1"]
    assert 0 < len(ans) < len(engs)
    add("multi-hop", "kind_letter", f"Which B1 engineers have worked on {ac}?", ans, len(orders[ac]) + len(engs))
    c = "Powerplant System"
    ans = sorted(x for x in children(c) if kind(x) == "assembly")
    assert len(ans) < len(children(c)) and any(kind(x) == "assembly" for x in below(c) if x not in children(c))
    add("generic", "kind_direct", f"Which assemblies sit directly under the {c}?", ans, len(children(c)))
    ans = sum(kind(x) == "part" for x in below(c))
    assert ans < len(below(c)) and ans > sum(kind(x) == "part" for x in children(c))
    add("count", "kind_count_chain", f"How many parts are there anywhere below the {c}?", ans, len(below(c)))

    # 5. counts, totals, shares, extremes
    ac = "EI-WRD"
    add("count", "count", f"How many work orders have been raised against {ac}?", len(orders[ac]), len(orders[ac]))
    ac = "EI-WRA"
    hours = [r[4] for r in orders[ac]]
    assert len(hours) != len(set(hours))
    add("count", "total", f"How many labour hours were booked on {ac} in total?",
        exact_number(sum(Fraction(h) for h in hours)), len(hours))
    ac = SHARE_AIRCRAFT
    k = sum(r[2] == "repair" for r in orders[ac])
    add("count", "share", f"What share of the work orders on {ac} were repairs?",
        exact_number(Fraction(k, len(orders[ac]))), len(orders[ac]))
    ac = "EI-WRF"
    tot = defaultdict(Fraction)
    for r in orders[ac]:
        tot[r[3]] += Fraction(r[4])
    ranked = sorted(tot.values())
    assert len(ranked) > 1 and ranked[-1] != ranked[-2]
    add("generic", "highest", f"Which engineer booked the most labour hours on {ac}?", [max(tot, key=tot.get)],
        len(orders[ac]))

    # 2. a number of items
    ac = "EI-WRB"
    ranked = sorted(parts[ac], key=lambda r: r[3], reverse=True)
    assert ranked[2][3] != ranked[3][3]
    add("generic", "top_n", f"Which three life-limited parts fitted to {ac} have run the most cycles?",
        sorted(r[2] for r in ranked[:3]), len(parts[ac]))

    # 9. a number condition with a format
    ac = "EI-WRA"
    ans = sorted(r[2] for r in parts[ac] if r[3] > 12500)
    assert 0 < len(ans) < len(parts[ac])
    add("generic", "condition", f"Which parts on {ac} have more than 12,500 cycles since new?", ans, len(parts[ac]))

    # 6. limits stored in the data
    ac = "EI-WRC"
    ans = over_limit(parts[ac])
    assert len(ans) >= 2
    add("generic", "limit", f"Which parts fitted to {ac} have exceeded their life limit?", ans, len(parts[ac]))
    ac = "EI-WRG"
    assert over_limit(parts[ac]) == []
    add("generic", "limit_yes_no", f"Are all the life-limited parts on {ac} still within their life limits?", [],
        len(parts[ac]))
    b = "Shannon Airport"
    ans = sorted(ac for ac in fleet(b) if over_limit(parts[ac]))
    assert 0 < len(ans) < len(fleet(b))
    add("multi-hop", "limit", f"Which aircraft based at {b} carry a part that is past its life limit?", ans,
        len(fleet(b)) + sum(len(parts[ac]) for ac in fleet(b)))

    # 7. a two-part question
    b = "Cork Airport"
    load = {ac: sum(Fraction(r[4]) for r in orders[ac]) for ac in fleet(b)}
    ranked = sorted(load.values())
    assert ranked[-1] != ranked[-2]
    top = max(load, key=load.get)
    part2 = over_limit(parts[top])
    assert part2
    add("multi-hop", "two_part", f"Which aircraft based at {b} has had the most labour hours booked against it, and "
        "does any part fitted to it exceed its life limit?", {"parts": [[top], part2]},
        len(fleet(b)) + sum(len(orders[ac]) for ac in fleet(b)) + len(parts[top]))

    # 8. nothing in the data answers it
    add("generic", "no_tool", "When is EI-WRD next due for its C-check?", None, 0)
    return out


def write(folder: Path, seed: int = 81) -> None:
    write_generated(folder, generate(seed), check, HEADERS, questions)


if __name__ == "__main__":
    write(Path(__file__).resolve().parent)
