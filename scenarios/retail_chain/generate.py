"""A held-out catalog of a retail chain (a fashion and homeware chain of stores in Great Britain): its organisation
(regions, districts, stores and concession kiosks in one hierarchy, each unit with its manager), the stores' floor
areas and approved headcounts, the staff of each store with their role and contracted weekly hours, and the monthly
revenue of every store and kiosk from January to June 2024. Gold answers are computed here from the generated rows,
in plain Python.

Written from the project's README only, without looking at how the agents decide
(``vadaorchestra eval retail_chain``).

Conventions of the gold answers:

- Units (``units.csv``) have a ``unit_type``: ``region``, ``district``, ``store`` or ``kiosk``. The hierarchy
  (``unit_links.csv``: a parent unit and a unit directly below it) has regions at the top; below a region sit
  districts and a few flagship stores; below a district sit stores and station kiosks; a kiosk may also sit below a
  store. A unit is **directly** under another when a row links them (one hop: "directly", "sit directly under",
  "report directly to"); it is under it "directly or indirectly", "anywhere below", "in" a region or district, when
  a chain of rows links them (the transitive closure). A unit is not under itself. "The region a unit ultimately
  belongs to" is the region at the top of its chain.
- A question naming a kind ("stores", "kiosks", "districts") counts or lists only the units of that ``unit_type``;
  the other kinds below the same unit are left out ("How many stores are there anywhere below the Northern Region?"
  does not count its districts or kiosks).
- Each unit has one manager (``units.csv``); a person may manage several units. "The stores X manages" are the units
  of type store whose manager is X (kiosks left out).
- Only stores have staff (``staff.csv``: one row per employee, an employee works at one store) and an approved
  headcount (``stores.csv``: ``headcount_cap``, the most employees the store may have). A store **exceeds** its
  approved headcount when its number of employees is **strictly** more than the cap and **stays within** it otherwise;
  no store's count equals its cap, so ``>`` and ``>=`` agree. The gold answer of a yes/no limit question ("Does X stay
  within its approved headcount?") is the list of the stores that exceed (``[]``: none does, the answer is yes).
- Hours are contracted hours per week; revenue is in pounds sterling (GBP), one row per unit and month
  (``2024-01`` .. ``2024-06``); floor area is in square metres. Totals sum **every** row: many employees have the same
  hours, and a sum over the distinct values is wrong. Counts of employees count rows of ``staff.csv``.
- A share is a **fraction** (0 to 1), an exact quotient whose denominator is of the form 2**a * 5**b, so it is a
  terminating decimal (``0.375``; ``37.5 %`` does not match).
- Numeric conditions ("more than £212.5k", "above 1,200 m²") are strict, "at least" is non-strict; no value equals a
  strict threshold asked about. "£212.5k" is 212,500 GBP.
- "The highest"/"the fewest"/"the three largest" have no ties at the place asked about: the answer of "the three
  largest" is exactly three names.
- A two-part question's gold is ``{"parts": [<answer of part 1>, <answer of part 2>]}``, each part in these
  conventions. A question that no tool of the catalog can answer (the data hold no rent, footfall, ...) has the gold
  ``null`` and the template ``no_tool``.
- Names answers are lists (compared as sets; one entity is a one-element list); counts are ints; hours, revenue and
  shares are floats.
- Question types: ``generic`` reads values off one tool's rows (including an argmin over them); ``count`` is one
  number aggregated over one tool's rows; ``multi-hop`` combines the rows of two or more tools (or two calls).
  ``complexity`` is the number of data rows the answer depends on.
"""

from __future__ import annotations

import random
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

from vadaorchestra.eval.datasets import check_names, exact_number, write_generated

# unit -> (unit_type, parent unit or None, manager)
UNITS = {
    "Northern Region": ("region", None, "Gareth Holloway"),
    "Pennine District": ("district", "Northern Region", "Priya Chaudhry"),
    "Leeds Briggate": ("store", "Pennine District", "Fiona Bradshaw"),
    "Leeds City Station Kiosk": ("kiosk", "Leeds Briggate", "Owen Gallagher"),
    "Bradford Broadway": ("store", "Pennine District", "Fiona Bradshaw"),
    "Harrogate James Street": ("store", "Pennine District", "Tomasz Nowak"),
    "Huddersfield Kingsgate": ("store", "Pennine District", "Aisha Rahman"),
    "Halifax Piece Hall Kiosk": ("kiosk", "Pennine District", "Owen Gallagher"),
    "Tyneside District": ("district", "Northern Region", "Siobhan Kerr"),
    "Newcastle Eldon Square": ("store", "Tyneside District", "Declan Murray"),
    "Newcastle Central Station Kiosk": ("kiosk", "Newcastle Eldon Square", "Owen Gallagher"),
    "Sunderland The Bridges": ("store", "Tyneside District", "Rachel Okoye"),
    "Durham Prince Bishops": ("store", "Tyneside District", "Rachel Okoye"),
    "Manchester King Street": ("store", "Northern Region", "Marcus Whitfield"),
    "Manchester Piccadilly Kiosk": ("kiosk", "Manchester King Street", "Hannah Lowe"),
    "York Coppergate": ("store", "Northern Region", "Hannah Lowe"),
    "Midlands Region": ("region", None, "Victoria Ashcroft"),
    "West Midlands District": ("district", "Midlands Region", "Imran Siddiqui"),
    "Birmingham Bullring": ("store", "West Midlands District", "Callum Reid"),
    "Birmingham New Street Kiosk": ("kiosk", "Birmingham Bullring", "Callum Reid"),
    "Solihull Touchwood": ("store", "West Midlands District", "Jessica Harding"),
    "Wolverhampton Mander Centre": ("store", "West Midlands District", "Callum Reid"),
    "East Midlands District": ("district", "Midlands Region", "Eleanor Pryce"),
    "Nottingham Victoria Centre": ("store", "East Midlands District", "Daniel Osei"),
    "Leicester Highcross": ("store", "East Midlands District", "Megan Foley"),
    "Derby Cathedral Quarter": ("store", "East Midlands District", "Megan Foley"),
    "Coventry Cathedral Lanes": ("store", "Midlands Region", "Samuel Brandt"),
    "Southern Region": ("region", None, "Oliver Pemberton"),
    "Thames Valley District": ("district", "Southern Region", "Natalie Greaves"),
    "Reading Oracle": ("store", "Thames Valley District", "Lucy Fairweather"),
    "Oxford Westgate": ("store", "Thames Valley District", "Benjamin Clarke"),
    "Guildford High Street": ("store", "Thames Valley District", "Benjamin Clarke"),
    "Reading Station Kiosk": ("kiosk", "Thames Valley District", "Lucy Fairweather"),
    "West Country District": ("district", "Southern Region", "Rhys Morgan"),
    "Bristol Cabot Circus": ("store", "West Country District", "Amelia Dunn"),
    "Bristol Temple Meads Kiosk": ("kiosk", "Bristol Cabot Circus", "Amelia Dunn"),
    "Bath SouthGate": ("store", "West Country District", "Thomas Beaumont"),
    "Exeter Princesshay": ("store", "West Country District", "Thomas Beaumont"),
    "Brighton Churchill Square": ("store", "Southern Region", "Grace Whitmore"),
}
# store -> (number of employees, approved headcount); never equal
HEADCOUNT = {
    "Leeds Briggate": (12, 14), "Bradford Broadway": (7, 6), "Harrogate James Street": (5, 6),
    "Huddersfield Kingsgate": (6, 7), "Newcastle Eldon Square": (11, 10), "Sunderland The Bridges": (6, 8),
    "Durham Prince Bishops": (5, 6), "Manchester King Street": (16, 18), "York Coppergate": (9, 8),
    "Birmingham Bullring": (14, 15), "Solihull Touchwood": (7, 8), "Wolverhampton Mander Centre": (6, 5),
    "Nottingham Victoria Centre": (10, 12), "Leicester Highcross": (8, 9), "Derby Cathedral Quarter": (5, 6),
    "Coventry Cathedral Lanes": (6, 7), "Reading Oracle": (9, 10), "Oxford Westgate": (8, 7),
    "Guildford High Street": (5, 6), "Bristol Cabot Circus": (8, 9), "Bath SouthGate": (6, 7),
    "Exeter Princesshay": (5, 6), "Brighton Churchill Square": (7, 8),
}
ROLES = ["cashier", "stylist", "stockroom", "supervisor"]
HOURS = [16.0, 20.0, 24.0, 30.0, 37.5]
MONTHS = ["2024-01", "2024-02", "2024-03", "2024-04", "2024-05", "2024-06"]
FIRST = ["Abigail", "Adam", "Alfie", "Alice", "Amber", "Ben", "Bethany", "Caitlin", "Charlie", "Chloe", "Connor",
         "Daisy", "Dylan", "Eden", "Elliot", "Erin", "Ethan", "Evie", "Finley", "Freya", "Harvey", "Holly", "Isaac",
         "Isla", "Jack", "Jasmine", "Jodie", "Kai", "Katie", "Kieran", "Leah", "Liam", "Lily", "Logan", "Maisie",
         "Mason", "Molly", "Nathan", "Niamh", "Noah", "Olivia", "Oscar", "Paige", "Poppy", "Reece", "Rosie", "Ryan",
         "Scarlett", "Sophie", "Toby", "Tyler", "Zara", "Zoe", "Jamal", "Anya", "Kacper", "Nadia", "Ravi", "Sana",
         "Tariq"]
LAST = ["Ackroyd", "Barker", "Bennett", "Birch", "Blackwood", "Booth", "Carver", "Chambers", "Cole", "Crossley",
        "Dawson", "Dixon", "Ellwood", "Fenwick", "Fletcher", "Gibbs", "Hargreaves", "Hendry", "Hirst", "Howarth",
        "Iqbal", "Jagger", "Kaur", "Kowalski", "Lambert", "Lister", "Marsden", "McCall", "Metcalfe", "Nolan",
        "Oakley", "Pearce", "Pickering", "Quinn", "Ramsden", "Rowntree", "Sharma", "Sutcliffe", "Tennant",
        "Thorpe", "Varley", "Wainwright", "Walsh", "Webster", "Wilde", "Yates", "Zielinski", "Mensah", "Novak",
        "Patel"]
HEADERS = {"units": ["unit", "unit_type", "manager"],
           "unit_links": ["parent_unit", "unit"],
           "stores": ["store", "opening_year", "floor_area_m2", "headcount_cap"],
           "staff": ["employee", "store", "role", "weekly_hours"],
           "monthly_sales": ["unit", "month", "revenue_gbp"]}

# stores whose questions need a property the generator sets
SHARE_STORE = "Bristol Cabot Circus"         # 3 cashiers out of 8
FEWEST_HOURS_STORE = "Manchester King Street"  # one employee on 12 hours, the only one
REVENUE_STORE = "York Coppergate"


def person_names(rng: random.Random, n: int, taken: list[str]) -> list[str]:
    """``n`` distinct full names, none inside another nor inside or around a name already ``taken``."""
    out: list[str] = []
    while len(out) < n:
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        if any(name.casefold() in x.casefold() or x.casefold() in name.casefold() for x in out + taken):
            continue
        out.append(name)
    return out


def generate(seed: int = 20240) -> dict[str, list[list]]:
    rng = random.Random(seed)
    stores = list(HEADCOUNT)
    areas = rng.sample([a for a in range(600, 2610, 10) if a != 1200], len(stores))
    years = [rng.randint(1996, 2021) for _ in stores]
    store_rows = [[s, y, float(a), HEADCOUNT[s][1]] for s, y, a in zip(stores, years, areas)]
    managers = sorted({m for _t, _p, m in UNITS.values()})
    names = person_names(rng, sum(n for n, _c in HEADCOUNT.values()), managers + list(UNITS))
    staff, k = [], 0
    for s in stores:
        n = HEADCOUNT[s][0]
        mine = names[k:k + n]
        k += n
        if s == SHARE_STORE:
            roles = ["cashier"] * 3 + [rng.choice(["stylist", "stockroom", "supervisor"]) for _ in range(n - 3)]
            rng.shuffle(roles)
        else:
            roles = [rng.choices(ROLES, weights=[4, 3, 2, 1])[0] for _ in range(n)]
        hours = [rng.choice(HOURS) for _ in range(n)]
        if s == FEWEST_HOURS_STORE:
            hours[rng.randrange(n)] = 12.0
        staff += [[e, s, r, h] for e, r, h in zip(mine, roles, hours)]
    sales = []
    for u, (t, _p, _m) in UNITS.items():
        if t not in ("store", "kiosk"):
            continue
        base = rng.randrange(140, 330) * 1000 if t == "store" else rng.randrange(18, 46) * 1000
        for m in MONTHS:
            sales.append([u, m, float(round(base * rng.uniform(0.8, 1.2) / 500) * 500)])
    return {
        "units": [[u, t, m] for u, (t, _p, m) in UNITS.items()],
        "unit_links": [[p, u] for u, (_t, p, _m) in UNITS.items() if p is not None],
        "stores": store_rows,
        "staff": staff,
        "monthly_sales": sales,
    }


# --- relations, in plain Python --------------------------------------------------------------------------------------
def children(unit: str) -> list[str]:
    return sorted(u for u, (_t, p, _m) in UNITS.items() if p == unit)


def below(unit: str) -> list[str]:
    """Every unit under ``unit``, directly or indirectly (not ``unit`` itself)."""
    out, todo = [], [unit]
    while todo:
        for c in children(todo.pop()):
            out.append(c)
            todo.append(c)
    return sorted(out)


def top_of(unit: str) -> str:
    while UNITS[unit][1] is not None:
        unit = UNITS[unit][1]
    return unit


def kind(unit: str) -> str:
    return UNITS[unit][0]


def analysis(data: dict[str, list[list]]) -> dict:
    staff = defaultdict(list)
    for r in data["staff"]:
        staff[r[1]].append(r)
    sales = defaultdict(list)
    for r in data["monthly_sales"]:
        sales[r[0]].append(r)
    store = {r[0]: r for r in data["stores"]}
    return {"staff": staff, "sales": sales, "store": store}


def exceeds(a: dict, s: str) -> bool:
    return len(a["staff"][s]) > a["store"][s][3]


def check(data: dict[str, list[list]]) -> None:
    a = analysis(data)
    for s, (n, cap) in HEADCOUNT.items():
        assert kind(s) == "store" and len(a["staff"][s]) == n != cap
    assert {u for u, (t, _p, _m) in UNITS.items() if t == "store"} == set(HEADCOUNT)
    people = [r[0] for r in data["staff"]] + sorted({m for _t, _p, m in UNITS.values()})
    check_names(list(UNITS) + people)
    assert len({(r[0], r[1]) for r in data["monthly_sales"]}) == len(data["monthly_sales"])


# --- questions -------------------------------------------------------------------------------------------------------
def questions(data: dict[str, list[list]]) -> list[dict]:
    a = analysis(data)
    staff, sales, store = a["staff"], a["sales"], a["store"]
    manager = {u: m for u, (_t, _p, m) in UNITS.items()}
    n_links = {u: len(below(u)) for u in UNITS}
    out: list[dict] = []

    def add(qtype: str, template: str, question: str, answer, complexity: int) -> None:
        out.append({"id": f"rc{len(out) + 1:03d}", "type": qtype, "template": template, "question": question,
                    "answer": answer, "complexity": complexity})

    def managed(person: str, of_kind: str) -> list[str]:
        return sorted(u for u, m in manager.items() if m == person and kind(u) == of_kind)

    # 1. relations in different voices
    p = "Fiona Bradshaw"
    ans = managed(p, "store")
    assert len(ans) == 2 and ans == sorted(u for u, m in manager.items() if m == p)
    add("generic", "relation_active", f"Which stores does {p} manage?", ans, len(ans))
    p = "Callum Reid"
    ans = managed(p, "store")
    assert len(ans) == 2 and managed(p, "kiosk")  # a kiosk of his is left out
    add("generic", "relation_passive", f"Which stores are managed by {p}?", ans, len(ans) + len(managed(p, "kiosk")))
    p = "Owen Gallagher"
    ans = managed(p, "kiosk")
    assert len(ans) == 3
    add("generic", "relation_possessive", f"Which kiosks is {p} the manager of?", ans, len(ans))
    p = "Rachel Okoye"
    shops = managed(p, "store")
    ans = sorted(r[0] for s in shops for r in staff[s])
    add("multi-hop", "relation_join", f"Which employees work at the stores that {p} manages?", ans,
        len(shops) + len(ans))

    # 3./4. kinds of units, direct and whole chain
    u = "Pennine District"
    ans = sorted(c for c in children(u) if kind(c) == "store")
    assert len(ans) < len(children(u)) and any(kind(x) == "kiosk" for x in below(u) if x not in children(u))
    add("generic", "kind_direct", f"Which stores sit directly under the {u}?", ans, len(children(u)))
    u = "Northern Region"
    ans = sum(kind(x) == "store" for x in below(u))
    assert ans < n_links[u] and sum(kind(x) == "store" for x in children(u)) < ans
    add("count", "kind_count_chain", f"How many stores are there anywhere below the {u}?", ans, n_links[u])
    k = "Newcastle Central Station Kiosk"
    chain = 0
    x = k
    while UNITS[x][1] is not None:
        x, chain = UNITS[x][1], chain + 1
    assert chain == 3
    add("generic", "ultimately", f"Which region does the {k} ultimately belong to?", [top_of(k)], chain)

    # 5. counts, totals, shares, extremes
    s = "Manchester King Street"
    add("count", "count", f"How many people work at {s}?", len(staff[s]), len(staff[s]))
    s = "Leeds Briggate"
    hours = [r[3] for r in staff[s]]
    assert len(hours) != len(set(hours))
    add("count", "total", f"What are the total contracted weekly hours of all the staff at {s}?",
        exact_number(sum(Fraction(h) for h in hours)), len(hours))
    s = SHARE_STORE
    c = sum(r[2] == "cashier" for r in staff[s])
    add("count", "share", f"What fraction of the employees at {s} are cashiers?",
        exact_number(Fraction(c, len(staff[s]))), len(staff[s]))
    s = FEWEST_HOURS_STORE
    low = min(staff[s], key=lambda r: r[3])
    assert sum(r[3] == low[3] for r in staff[s]) == 1
    add("generic", "lowest", f"Which employee at {s} is contracted for the fewest hours a week?", [low[0]],
        len(staff[s]))

    # 2. a number of items
    u = "Northern Region"
    shops = [x for x in below(u) if kind(x) == "store"]
    ranked = sorted(shops, key=lambda x: store[x][2], reverse=True)
    assert store[ranked[2]][2] != store[ranked[3]][2]
    add("multi-hop", "top_n", f"Which three stores in the {u} have the largest floor area?", sorted(ranked[:3]),
        n_links[u] + len(shops))

    # 9. number conditions with units and formats
    s = REVENUE_STORE
    assert all(r[2] != 212500 for r in sales[s])
    ans = sum(r[2] > 212500 for r in sales[s])
    assert 0 < ans < len(sales[s])
    add("count", "condition", f"In how many months did {s} take more than £212.5k?", ans, len(sales[s]))
    u = "West Midlands District"
    shops = [x for x in below(u) if kind(x) == "store"]
    ans = sorted(x for x in shops if store[x][2] > 1200)
    assert 0 < len(ans) < len(shops)
    add("multi-hop", "condition", f"Which stores in the {u} have a floor area above 1,200 m²?", ans,
        n_links[u] + len(shops))

    # 6. limits stored in the data
    ans = sorted(s for s in HEADCOUNT if exceeds(a, s))
    assert 2 < len(ans) < len(HEADCOUNT) - 2
    add("multi-hop", "limit", "Which stores employ more people than their approved headcount allows?", ans,
        len(data["staff"]) + len(data["stores"]))
    s = "Leeds Briggate"
    assert not exceeds(a, s)
    add("multi-hop", "limit_yes_no", f"Does {s} stay within its approved headcount?", [],
        len(staff[s]) + 1)

    # 7. a two-part question
    u = "Tyneside District"
    shops = [x for x in children(u) if kind(x) == "store"]
    big = max(shops, key=lambda x: len(staff[x]))
    assert sorted(len(staff[x]) for x in shops)[-2] < len(staff[big])
    part2 = [big] if exceeds(a, big) else []
    assert part2
    add("multi-hop", "two_part", f"Which store directly under the {u} has the most employees, and does it exceed "
        "its approved headcount?", {"parts": [[big], part2]},
        len(children(u)) + sum(len(staff[x]) for x in shops) + 1)

    # 8. nothing in the data answers it
    add("generic", "no_tool", "What annual rent does the chain pay for Oxford Westgate?", None, 0)
    return out


def write(folder: Path, seed: int = 20240) -> None:
    write_generated(folder, generate(seed), check, HEADERS, questions)


if __name__ == "__main__":
    write(Path(__file__).resolve().parent)
