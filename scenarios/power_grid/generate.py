"""A small held-out catalog of another domain (an electricity grid: substations feeding other substations, the
generators connected to them, the customer feeders they supply with their demand, and the grid operators that own
the substations, grouped by parent company), with questions whose answers are computed here from the data, in plain
Python.

Written without looking at how the agents decide, and kept as it is: it measures how the project carries over to a
catalog it was not written with (``vadaorchestra eval power_grid``).

Conventions of the gold answers:

- Power is in megawatts (MW). Feeder demand is a multiple of 0.5 MW, generator capacity and transformer ratings
  multiples of 5 MW.
- Substations form two radial trees (``feeds.csv``: one row per upstream -> downstream link; every substation is fed
  by at most one other, the roots are the two grid supply points). A substation feeds another **directly** when a
  row links them (one hop: "directly", "straight from"); it feeds every substation below it "directly or
  indirectly", "eventually", "downstream", "through other substations" (the transitive closure). A substation is not
  downstream of itself.
- A feeder (``feeders.csv``) is connected to exactly one substation and supplies one customer; a customer can have
  several feeders, at one or several substations. The demand a substation **carries** (serves) is the demand of the
  feeders connected to it directly plus the demand of every feeder of every substation downstream of it; "connected
  directly to" a substation means its own feeders only. Generators do not offset demand: the rating check compares
  the carried demand alone with the rating.
- A substation's ``transformer_rating_mw`` is the most demand it can carry. It is **exceeded** when the demand it
  carries, counting the substations it feeds, is **strictly** more than the rating, and the substation **stays
  within** it otherwise (``<=``); no carried demand equals a rating, so ``>`` and ``>=`` agree. Every substation is
  checked against its own rating. The plan makes three substations exceed their rating only through the substations
  they feed (their own feeders alone stay below it), so the naive direct reading gives a different answer.
- Totals sum **every** row: feeders and generators with the same demand or capacity all count (a sum over the
  distinct values is wrong). Counts of feeders count feeder ids; counts of customers, generators or substations count
  distinct names.
- A share is a **fraction** (0 to 1), the exact quotient of two amounts: the direct demand of the substation of the
  customer-share question is lowered (its largest feeder) to a value whose double is 2**a * 5**b, and the rating of
  the substation of the rating-share question is of that form, so every share asked is a short terminating
  decimal. ``62.5 %`` does not match ``0.625``.
- Numeric conditions: "above"/"more than" are strict (no value equals such a threshold), "at least" is non-strict and
  a value may equal it.
- A company's **group** is the company and every subsidiary it owns, directly or through other subsidiaries
  (``ownership.csv``: one row per parent -> subsidiary link). "The substations of a company or its subsidiaries" are
  those whose operator (``substations.csv``) is a group member; a company is not its own subsidiary.
- "Largest"/"lowest" questions that ask for an entity (a one-element list) have a unique extreme; ratings are
  distinct.
- Names answers are lists (compared as sets); numbers are ints for counts and floats for MW and shares.
- Question types: ``generic`` reads values off one tool's rows (including an argmax over them, or over sums grouped
  on one tool's rows); ``count`` is one number aggregated over one tool's rows (a count, a sum, or a ratio of two
  sums of the same rows); ``multi-hop`` combines the rows of two or more tools. ``complexity`` is the number of rows
  (facts) the answer depends on.
"""

from __future__ import annotations

import random
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

from vadaorchestra.eval.datasets import check_names, exact_number, write_generated

# substation -> (region, operating company)
SUBSTATIONS = {
    "Kingsbridge Grid Supply Point": ("North Valley Region", "Albion Energy Holdings"),
    "Ashworth Primary Substation": ("North Valley Region", "Thamesvale Power Networks"),
    "Deepdale Substation": ("North Valley Region", "Redvale Distribution"),
    "Foxley Lane Substation": ("North Valley Region", "Redvale Distribution"),
    "Elmstead Substation": ("North Valley Region", "Thamesvale Power Networks"),
    "Bramley Heath Substation": ("Eastern Downs Region", "Thamesvale Power Networks"),
    "Glenmore Road Substation": ("Eastern Downs Region", "Redvale Distribution"),
    "Coldwater Junction Substation": ("Coastal Region", "Coastline Grid Services"),
    "Hartside Substation": ("Coastal Region", "Harbourline Electric"),
    "Juniper Wharf Substation": ("Coastal Region", "Harbourline Electric"),
    "Ivybridge Substation": ("Coastal Region", "Coastline Grid Services"),
    "Larkhill Grid Supply Point": ("Western Uplands Region", "Pennine Transmission Group"),
    "Marston Vale Substation": ("Western Uplands Region", "Moorside Energy Networks"),
    "Northwick Substation": ("Western Uplands Region", "Moorside Energy Networks"),
    "Oakhurst Substation": ("Western Uplands Region", "Moorside Energy Networks"),
}
# upstream -> downstream, with the length of the line in km (two radial trees)
FEEDS = [
    ("Kingsbridge Grid Supply Point", "Ashworth Primary Substation", 12.5),
    ("Kingsbridge Grid Supply Point", "Bramley Heath Substation", 18.0),
    ("Kingsbridge Grid Supply Point", "Coldwater Junction Substation", 24.5),
    ("Ashworth Primary Substation", "Deepdale Substation", 6.5),
    ("Ashworth Primary Substation", "Elmstead Substation", 8.0),
    ("Deepdale Substation", "Foxley Lane Substation", 4.5),
    ("Bramley Heath Substation", "Glenmore Road Substation", 7.0),
    ("Coldwater Junction Substation", "Hartside Substation", 9.5),
    ("Coldwater Junction Substation", "Ivybridge Substation", 11.0),
    ("Hartside Substation", "Juniper Wharf Substation", 3.5),
    ("Larkhill Grid Supply Point", "Marston Vale Substation", 15.0),
    ("Larkhill Grid Supply Point", "Northwick Substation", 21.5),
    ("Northwick Substation", "Oakhurst Substation", 5.5),
]
OWNERSHIP = [
    ("Albion Energy Holdings", "Thamesvale Power Networks"),
    ("Albion Energy Holdings", "Coastline Grid Services"),
    ("Thamesvale Power Networks", "Redvale Distribution"),
    ("Coastline Grid Services", "Harbourline Electric"),
    ("Pennine Transmission Group", "Moorside Energy Networks"),
]
COMPANIES = ["Albion Energy Holdings", "Thamesvale Power Networks", "Redvale Distribution", "Coastline Grid Services",
             "Harbourline Electric", "Pennine Transmission Group", "Moorside Energy Networks"]
# generator -> (substation it is connected to, fuel, capacity in MW)
GENERATORS = {
    "Saltmarsh Offshore Wind Farm": ("Kingsbridge Grid Supply Point", "wind", 120.0),
    "Greyfell Combined Cycle Plant": ("Kingsbridge Grid Supply Point", "gas", 200.0),
    "Hollowmere Battery Store": ("Kingsbridge Grid Supply Point", "battery", 50.0),
    "Cresswell Solar Park": ("Kingsbridge Grid Supply Point", "solar", 45.0),
    "Tarnside Hydro Station": ("Kingsbridge Grid Supply Point", "hydro", 35.0),
    "Linthorpe Solar Farm": ("Ashworth Primary Substation", "solar", 15.0),
    "Fernhill Biomass Plant": ("Deepdale Substation", "biomass", 25.0),
    "Brackenridge Wind Farm": ("Coldwater Junction Substation", "wind", 30.0),
    "Pellow Moor Wind Farm": ("Coldwater Junction Substation", "wind", 30.0),
    "Seabright Solar Park": ("Coldwater Junction Substation", "solar", 20.0),
    "Redcliffe Gas Peaker": ("Coldwater Junction Substation", "gas", 45.0),
    "Skelmore Battery Store": ("Hartside Substation", "battery", 20.0),
    "Stonebarrow Wind Farm": ("Larkhill Grid Supply Point", "wind", 90.0),
    "Wexcombe Pumped Storage": ("Larkhill Grid Supply Point", "hydro", 150.0),
    "Highmoor Solar Park": ("Larkhill Grid Supply Point", "solar", 40.0),
    "Brantwood Gas Turbines": ("Larkhill Grid Supply Point", "gas", 90.0),
    "Ottery Fields Solar Farm": ("Northwick Substation", "solar", 10.0),
    "Ravenhill Biogas Plant": ("Marston Vale Substation", "biomass", 5.0),
}
CUSTOMERS = {
    "Redfield Steel Works": "industrial", "Calder Valley Paper Mill": "industrial",
    "Ashgrove Cement Plant": "industrial", "Northbank Water Treatment Works": "public services",
    "Brightwell Data Centre": "commercial", "Seagate Container Terminal": "industrial",
    "Pennfield Aluminium Smelter": "industrial", "Ridgeway Industrial Estate": "industrial",
    "Castlegate Shopping Centre": "commercial", "Marlowe Business Park": "commercial",
    "Quayside Retail Park": "commercial", "Saint Aldric Hospital": "public services",
    "Hillcrest Hospital": "public services", "Westbury University Campus": "public services",
    "Elmfield Rail Depot": "public services", "Parkside Housing Estate": "residential",
    "Millford Village": "residential", "Ravensworth Estate": "residential", "Oldcastle Town Centre": "residential",
    "Harbour View Estate": "residential", "Lowther Village": "residential", "Brookvale Estate": "residential",
    "Thornbury Farms Cooperative": "residential",
}
# substation -> the customer of each of its feeders (a customer named twice has two feeders there)
FEEDER_PLAN = {
    "Kingsbridge Grid Supply Point": ["Redfield Steel Works", "Calder Valley Paper Mill"],
    "Ashworth Primary Substation": ["Parkside Housing Estate", "Marlowe Business Park", "Parkside Housing Estate",
                                    "Saint Aldric Hospital"],
    "Deepdale Substation": ["Redfield Steel Works", "Millford Village", "Redfield Steel Works",
                            "Ashgrove Cement Plant"],
    "Foxley Lane Substation": ["Millford Village", "Redfield Steel Works", "Elmfield Rail Depot"],
    "Elmstead Substation": ["Westbury University Campus", "Oldcastle Town Centre", "Westbury University Campus"],
    "Bramley Heath Substation": ["Castlegate Shopping Centre", "Brightwell Data Centre", "Ravensworth Estate",
                                 "Brightwell Data Centre", "Ravensworth Estate"],
    "Glenmore Road Substation": ["Brightwell Data Centre", "Quayside Retail Park", "Ravensworth Estate"],
    "Coldwater Junction Substation": ["Northbank Water Treatment Works", "Quayside Retail Park"],
    "Hartside Substation": ["Harbour View Estate", "Northbank Water Treatment Works", "Harbour View Estate"],
    "Juniper Wharf Substation": ["Seagate Container Terminal", "Harbour View Estate", "Seagate Container Terminal"],
    "Ivybridge Substation": ["Oldcastle Town Centre", "Calder Valley Paper Mill"],
    "Larkhill Grid Supply Point": ["Pennfield Aluminium Smelter"],
    "Marston Vale Substation": ["Thornbury Farms Cooperative", "Lowther Village"],
    "Northwick Substation": ["Hillcrest Hospital", "Lowther Village", "Ridgeway Industrial Estate"],
    "Oakhurst Substation": ["Ridgeway Industrial Estate", "Brookvale Estate", "Ridgeway Industrial Estate"],
}
# substation -> how its rating relates to the demand it carries: "within", "own" (its own feeders alone exceed it)
# or "via" (exceeded only counting the substations it feeds)
RATING_PLAN = {
    "Kingsbridge Grid Supply Point": "within", "Ashworth Primary Substation": "via", "Deepdale Substation": "within",
    "Foxley Lane Substation": "within", "Elmstead Substation": "within", "Bramley Heath Substation": "within",
    "Glenmore Road Substation": "own", "Coldwater Junction Substation": "via", "Hartside Substation": "within",
    "Juniper Wharf Substation": "own", "Ivybridge Substation": "within", "Larkhill Grid Supply Point": "within",
    "Marston Vale Substation": "within", "Northwick Substation": "via", "Oakhurst Substation": "within",
}
SHARE_SUBSTATION = "Bramley Heath Substation"
RATING_SHARE_SUBSTATION = "Hartside Substation"
# ratings are multiples of 5 MW; that of RATING_SHARE_SUBSTATION is of the form 2**a * 5**b, and so is twice the
# whole demand of the customer-share question
SMOOTH = sorted(2 ** a * 5 ** b for a in range(0, 12) for b in range(0, 8))
RATINGS = list(range(5, 2001, 5))
HEADERS = {"substations": ["substation", "region", "operator", "transformer_rating_mw"],
           "feeds": ["upstream_substation", "downstream_substation", "line_km"],
           "generators": ["generator", "substation", "fuel", "capacity_mw"],
           "feeders": ["feeder_id", "substation", "customer", "customer_class", "demand_mw"],
           "ownership": ["parent_company", "subsidiary"]}


# --- relations, in plain Python --------------------------------------------------------------------------------------
def fed_directly(sub: str) -> list[str]:
    return sorted(d for u, d, _k in FEEDS if u == sub)


def downstream(sub: str) -> list[str]:
    """The substations ``sub`` feeds, directly or through other substations (not ``sub`` itself)."""
    out, todo = set(), [sub]
    while todo:
        for d in fed_directly(todo.pop()):
            if d not in out:
                out.add(d)
                todo.append(d)
    return sorted(out)


def subsidiaries(company: str) -> list[str]:
    out, todo = set(), [company]
    while todo:
        p = todo.pop()
        for parent, sub in OWNERSHIP:
            if parent == p and sub not in out:
                out.add(sub)
                todo.append(sub)
    return sorted(out)


def group_substations(company: str) -> list[str]:
    members = {company, *subsidiaries(company)}
    return sorted(s for s, (_r, o) in SUBSTATIONS.items() if o in members)


def _feeders_at(feeders: list[list], subs) -> list[list]:
    subs = set(subs)
    return [f for f in feeders if f[1] in subs]


def _demand(rows: list[list]) -> Fraction:
    return sum((Fraction(f[4]) for f in rows), Fraction(0))


def served(feeders: list[list], sub: str) -> list[list]:
    """The feeders whose demand ``sub`` carries: its own and those of every substation downstream."""
    return _feeders_at(feeders, [sub, *downstream(sub)])


# --- data ------------------------------------------------------------------------------------------------------------
def generate(seed: int = 47) -> dict[str, list[list]]:
    rng = random.Random(seed)
    feeders, n = [], 100
    for sub, customers in FEEDER_PLAN.items():
        big = sub.endswith("Grid Supply Point")
        for customer in customers:
            n += 1
            demand = rng.randrange(30, 81) * 0.5 if big else rng.randrange(2, 31) * 0.5
            feeders.append([f"FD-{n}", sub, customer, CUSTOMERS[customer], demand])
    # the customer-share question divides by the direct demand of SHARE_SUBSTATION: lower its largest feeder so that
    # twice that demand is of the form 2**a * 5**b and every share of it terminates
    rows = _feeders_at(feeders, [SHARE_SUBSTATION])
    total = _demand(rows)
    largest = max(rows, key=lambda f: f[4])
    target = max(Fraction(v, 2) for v in SMOOTH
                 if Fraction(v, 2) <= total and largest[4] - (total - Fraction(v, 2)) >= 1)
    largest[4] = float(largest[4] - (total - target))
    used: set[int] = set()

    def pick(candidates: list[int]) -> int:
        free = [v for v in candidates if v not in used]
        assert free, "no free rating"
        used.add(free[0])
        return free[0]

    ratings = {}
    for sub in SUBSTATIONS:  # every rating follows from the demand the substation carries, in any order
        carried = _demand(served(feeders, sub))
        own = _demand(_feeders_at(feeders, [sub]))
        plan = RATING_PLAN[sub]
        if plan == "within":
            ratings[sub] = pick([v for v in RATINGS if v > carried * Fraction(11, 10)
                                 and (sub != RATING_SHARE_SUBSTATION or v in SMOOTH)])
        elif plan == "own":
            ratings[sub] = pick(sorted((v for v in RATINGS if v < own * Fraction(19, 20)), reverse=True))
        else:
            inside = [v for v in RATINGS if own < v < carried]
            ratings[sub] = pick(inside[len(inside) // 2:] + inside[:len(inside) // 2])
    return {
        "substations": [[s, r, o, float(ratings[s])] for s, (r, o) in SUBSTATIONS.items()],
        "feeds": [list(f) for f in FEEDS],
        "generators": [[g, s, f, c] for g, (s, f, c) in GENERATORS.items()],
        "feeders": feeders,
        "ownership": [list(o) for o in OWNERSHIP],
    }


def analysis(data: dict[str, list[list]]) -> dict:
    feeders = data["feeders"]
    rating = {s: Fraction(k) for s, _r, _o, k in data["substations"]}
    operator = {s: o for s, _r, o, _k in data["substations"]}
    carried = {s: _demand(served(feeders, s)) for s in SUBSTATIONS}
    own = {s: _demand(_feeders_at(feeders, [s])) for s in SUBSTATIONS}
    gens = defaultdict(list)
    for g, s, f, c in data["generators"]:
        gens[s].append([g, s, f, c])
    return {"feeders": feeders, "rating": rating, "operator": operator, "carried": carried, "own": own,
            "gens": gens}


def check(data: dict[str, list[list]]) -> None:
    """The properties the questions rely on."""
    a = analysis(data)
    rating, carried, own = a["rating"], a["carried"], a["own"]
    for s, plan in RATING_PLAN.items():
        assert carried[s] != rating[s], f"{s}: carried demand equals the rating"
        assert (carried[s] > rating[s]) == (plan != "within"), f"{s}: plan not met"
        assert (own[s] > rating[s]) == (plan == "own"), f"{s}: plan not met on its own feeders"
    assert len(set(rating.values())) == len(rating), "ratings are not distinct"
    assert all(f[4] >= 1 for f in data["feeders"])
    assert len({f[0] for f in data["feeders"]}) == len(data["feeders"])
    names = (list(SUBSTATIONS) + sorted({r for r, _o in SUBSTATIONS.values()}) + COMPANIES + list(GENERATORS)
             + list(CUSTOMERS))
    check_names(names)
    assert {o for _r, o in SUBSTATIONS.values()} <= set(COMPANIES)
    assert all(u in SUBSTATIONS and d in SUBSTATIONS for u, d, _k in FEEDS)
    assert len({d for _u, d, _k in FEEDS}) == len(FEEDS), "a substation is fed by two others"


# --- questions -------------------------------------------------------------------------------------------------------
def questions(data: dict[str, list[list]]) -> list[dict]:
    a = analysis(data)
    feeders, rating, operator, carried, gens = a["feeders"], a["rating"], a["operator"], a["carried"], a["gens"]
    out: list[dict] = []

    def add(qtype: str, template: str, question: str, answer, complexity: int) -> None:
        out.append({"id": f"pg{len(out) + 1:03d}", "type": qtype, "template": template, "question": question,
                    "answer": answer, "complexity": complexity})

    def at(sub: str) -> list[list]:
        return _feeders_at(feeders, [sub])

    def links_below(sub: str) -> int:
        """The feed links the transitive answer depends on."""
        return len(downstream(sub))

    # lookup: one attribute of one named entity
    add("generic", "lookup", "What is the transformer rating of Deepdale Substation, in MW?",
        exact_number(rating["Deepdale Substation"]), 1)
    add("generic", "lookup", "Which company operates Hartside Substation?", [operator["Hartside Substation"]], 1)

    # list: the entities related to a named one
    s = "Coldwater Junction Substation"
    add("generic", "list", f"Which generators are connected to {s}?", sorted(g[0] for g in gens[s]), len(gens[s]))
    s = "Ashworth Primary Substation"
    custs = sorted({f[2] for f in at(s)})
    assert len(custs) < len(at(s))
    add("generic", "list", f"Name the customers that take their supply straight from {s}.", custs, len(at(s)))

    # count, and counts restricted by a second named entity held in an output column
    s = "Bramley Heath Substation"
    add("count", "count", f"How many customer feeders are connected directly to {s}?", len(at(s)), len(at(s)))
    s, c = "Deepdale Substation", "Redfield Steel Works"
    mine = [f for f in at(s) if f[2] == c]
    assert 1 < len(mine) < len(at(s))
    add("count", "restricted_count", f"How many of the feeders at {s} supply {c}?", len(mine), len(mine))
    s, c = "Kingsbridge Grid Supply Point", "Redfield Steel Works"
    mine = [f for f in served(feeders, s) if f[2] == c]
    assert len(mine) > len([f for f in at(s) if f[2] == c])
    add("count", "restricted_count", f"Counting the substations it feeds, how many feeders does {s} serve for {c}?",
        len(mine), len(mine) + links_below(s))

    # totals: every row counts, equal amounts included
    s = "Larkhill Grid Supply Point"
    caps = [g[3] for g in gens[s]]
    assert len(caps) != len(set(caps))
    add("count", "total", f"What is the total generating capacity, in MW, connected to {s}?",
        exact_number(sum((Fraction(x) for x in caps), Fraction(0))), len(caps))
    s = next(x for x in ["Oakhurst Substation", "Hartside Substation", "Deepdale Substation",
                         "Juniper Wharf Substation", "Ashworth Primary Substation", "Northwick Substation",
                         "Foxley Lane Substation"]
             if len({f[4] for f in at(x)}) < len(at(x)))
    add("count", "total", f"How much demand, in MW, do the feeders connected directly to {s} draw altogether?",
        exact_number(_demand(at(s))), len(at(s)))
    s = "Coldwater Junction Substation"
    rows = served(feeders, s)
    assert len({f[4] for f in rows}) < len(rows)
    add("count", "total", f"How much demand does {s} carry in total, including the substations downstream of it?",
        exact_number(carried[s]), len(rows) + links_below(s))

    # shares: of a total of the same rows, and of a limit from another tool
    s = SHARE_SUBSTATION
    by_cust = defaultdict(Fraction)
    for f in at(s):
        by_cust[f[2]] += Fraction(f[4])
    c = "Brightwell Data Centre"
    assert 0 < by_cust[c] < _demand(at(s)) and sum(f[2] == c for f in at(s)) > 1
    add("count", "share", f"What share of the demand connected directly to {s} comes from {c}?",
        exact_number(by_cust[c] / _demand(at(s))), len(at(s)))
    s = RATING_SHARE_SUBSTATION
    assert carried[s] < rating[s]
    add("multi-hop", "share", f"What fraction of its transformer rating does {s} use, counting the demand of the "
        "substations it feeds?", exact_number(carried[s] / rating[s]), len(served(feeders, s)) + links_below(s) + 1)

    # extremes: the largest value's entity, the largest total of a group, the lowest over a transitive set
    s = "Kingsbridge Grid Supply Point"
    top = max(gens[s], key=lambda g: g[3])
    assert sum(g[3] == top[3] for g in gens[s]) == 1
    add("generic", "extreme", f"Which generator connected to {s} has the largest capacity?", [top[0]], len(gens[s]))
    def customer_totals(sub: str) -> dict[str, Fraction]:
        t = defaultdict(Fraction)
        for f in at(sub):
            t[f[2]] += Fraction(f[4])
        return t

    # the customer with the largest total is not the customer of the largest single feeder
    s = next(x for x in ["Ashworth Primary Substation", "Oakhurst Substation", "Deepdale Substation",
                         "Hartside Substation"]
             if sorted(customer_totals(x).values())[-1] != sorted(customer_totals(x).values())[-2]
             and max(customer_totals(x), key=customer_totals(x).get) != max(at(x), key=lambda f: f[4])[2])
    tot = customer_totals(s)
    add("generic", "extreme", f"Which customer draws the most demand in total from the feeders of {s}?",
        [max(tot, key=tot.get)], len(at(s)))
    s = "Kingsbridge Grid Supply Point"
    low = min(downstream(s), key=lambda x: rating[x])
    assert low not in fed_directly(s)
    add("multi-hop", "extreme", f"Among the substations that {s} feeds, directly or indirectly, which one has the "
        "lowest transformer rating?", [low], links_below(s) + len(downstream(s)))

    # lists restricted by a numeric condition
    s = "Kingsbridge Grid Supply Point"
    ans = sorted(g[0] for g in gens[s] if g[3] >= 50)
    assert any(g[3] == 50 for g in gens[s]) and 0 < len(ans) < len(gens[s])
    add("generic", "filtered", f"Which generators at {s} have a capacity of at least 50 MW?", ans, len(gens[s]))
    s = "Kingsbridge Grid Supply Point"
    k = next(x for x in [45, 35, 65, 70] if all(rating[d] != x for d in downstream(s))
             and 0 < sum(rating[d] > x for d in downstream(s)) < len(downstream(s)))
    ans = sorted(d for d in downstream(s) if rating[d] > k)
    assert ans != sorted(d for d in fed_directly(s) if rating[d] > k)
    add("multi-hop", "filtered", f"Which substations downstream of {s}, whether fed directly or through other "
        f"substations, have a transformer rating above {k} MW?", ans, links_below(s) + len(downstream(s)))

    # direct vs transitive along the feed chain and the ownership chain
    s = "Coldwater Junction Substation"
    assert fed_directly(s) != downstream(s)
    add("generic", "direct_vs_transitive", f"Which substations receive their supply directly from {s}?",
        fed_directly(s), len(fed_directly(s)))
    s = "Ashworth Primary Substation"
    assert fed_directly(s) != downstream(s)
    add("generic", "direct_vs_transitive", f"Which substations does {s} feed, directly or through other substations?",
        downstream(s), links_below(s))
    s = "Larkhill Grid Supply Point"
    assert len(fed_directly(s)) != len(downstream(s))
    add("count", "direct_vs_transitive", f"How many substations are eventually fed from {s}?", len(downstream(s)),
        links_below(s))
    co = "Albion Energy Holdings"
    assert subsidiaries(co) != sorted(s for p, s in OWNERSHIP if p == co)
    add("generic", "direct_vs_transitive", f"Which companies does {co} own, directly or through its subsidiaries?",
        subsidiaries(co), len(subsidiaries(co)))
    co = "Albion Energy Holdings"
    assert len(group_substations(co)) != sum(o == co for o in operator.values())
    add("count", "count", f"How many substations are operated by {co} or one of its subsidiaries?",
        len(group_substations(co)), len(subsidiaries(co)) + len(group_substations(co)))

    # comparison with a limit stated in the data, per substation, counting what it feeds
    all_rows = len(feeders) + len(FEEDS) + len(SUBSTATIONS)
    add("multi-hop", "group_limit", "Which substations carry more demand than their transformer rating, counting the "
        "demand of the substations they feed?", sorted(s for s in SUBSTATIONS if carried[s] > rating[s]), all_rows)
    add("multi-hop", "group_limit", "Which substations stay within their transformer rating once the load of every "
        "substation downstream of them is included?", sorted(s for s in SUBSTATIONS if carried[s] <= rating[s]),
        all_rows)
    co = "Coastline Grid Services"
    subs = group_substations(co)
    rows = sum(len(served(feeders, s)) for s in subs)
    add("multi-hop", "group_limit", f"Of the substations run by {co} or its subsidiaries, which ones are overloaded, "
        "i.e. the demand they serve, including the substations they feed, exceeds their transformer rating?",
        sorted(s for s in subs if carried[s] > rating[s]), rows + len(subs) * 2 + len(subsidiaries(co)))
    return out


def write(folder: Path, seed: int = 47) -> None:
    write_generated(folder, generate(seed), check, HEADERS, questions)


if __name__ == "__main__":
    write(Path(__file__).resolve().parent)
