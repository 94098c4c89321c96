"""Gold answers for the city_buses set, computed with pandas from data/*.csv; writes data/questions.jsonl."""
import json
from pathlib import Path
import pandas as pd

D = Path(__file__).parent / "data"
units = pd.read_csv(D / "units.csv")
links = pd.read_csv(D / "unit_links.csv")
depots = pd.read_csv(D / "depots.csv")
buses = pd.read_csv(D / "buses.csv")
routes = pd.read_csv(D / "routes.csv", dtype={"route": str})
board = pd.read_csv(D / "boardings.csv", dtype={"route": str})
utype = dict(zip(units.unit, units.unit_type))


def below(u):
    out, frontier = {}, [u]
    lvl = 0
    while frontier:
        lvl += 1
        nxt = list(links[links.parent_unit.isin(frontier)].unit)
        for n in nxt:
            out.setdefault(n, lvl)
        frontier = nxt
    return out


def managed(m, kind):
    return sorted(units[(units.manager == m) & (units.unit_type == kind)].unit)


def fleet(d):
    return buses[buses.depot == d]


qs = []


def q(template, typ, question, answer, complexity):
    qs.append({"id": f"cb{len(qs)+1:03d}", "type": typ, "template": template, "question": question,
               "answer": answer, "complexity": int(complexity)})


a = managed("Marcus Bell", "depot")
q("relation_active", "generic", "Which depots does Marcus Bell manage?", a, len(a))
a = managed("Tom Kowalski", "outstation")
q("relation_passive", "generic", "Which outstations are managed by Tom Kowalski?", a, len(a))
a = managed("Kieran Doyle", "depot")
q("relation_possessive", "generic", "Which depots is Kieran Doyle the manager of?", a, len(a))
ds = managed("Kieran Doyle", "depot")
r = routes[routes.depot.isin(ds)]
q("relation_join", "multi-hop", "Which routes are run out of the depots Kieran Doyle is in charge of?",
  sorted(r.route), len(ds) + len(r))
b = below("South Division")
a = sorted(u for u, l in b.items() if l == 1 and utype[u] == "depot")
q("kind_direct", "generic", "Which depots sit directly under the South Division?", a, len(a))
b = below("Metro Network")
a = sorted(u for u in b if utype[u] == "outstation")
q("kind_count_chain", "count", "How many outstations does the Metro Network have at any level below it?", len(a), len(b))
r = routes[routes.depot == "Brixton Depot"].sort_values("length_km", ascending=False)
q("top_n", "generic", "Which three Brixton Depot routes are the longest end to end?", sorted(r.route.head(3)), len(r))
f = fleet("Edgware Depot")
q("total", "count", "What is the combined seating capacity of the buses allocated to Edgware Depot?", int(f.seats.sum()), len(f))
f = fleet("Tottenham Hale Depot")
q("count", "count", "How many buses are allocated to Tottenham Hale Depot?", len(f), len(f))
f = fleet("Holloway Depot")
cap = int(depots.set_index("depot").fleet_cap["Holloway Depot"])
q("limit_check", "yes/no", "Does Holloway Depot have more buses allocated than its fleet cap allows?", bool(len(f) > cap), len(f) + 1)
f = fleet("Bromley Depot")
cap = int(depots.set_index("depot").fleet_cap["Bromley Depot"])
q("limit_check", "yes/no", "Is the number of buses at Bromley Depot within its fleet cap?", bool(len(f) <= cap), len(f) + 1)
f = fleet("Croydon Depot")
cap = int(depots.set_index("depot").fleet_cap["Croydon Depot"])
q("two_part", "multi-part", "What fleet cap does Croydon Depot operate under, and how many buses does it currently have allocated?",
  {"parts": [cap, len(f)]}, len(f) + 1)
x = board[board.route == "142"]
q("total", "count", "How many passenger boardings were recorded on route 142 between January and June 2024?", int(x.boardings.sum()), len(x))
f = fleet("Holloway Depot")
a = sorted(f[f.seats > 80].fleet_no)
q("condition", "generic", "Which buses at Holloway Depot have more than 80 seats?", a, len(f))
a = sorted(units[units.unit == "Mill Hill Outstation"].manager)
q("lookup", "generic", "Who is in charge of the Mill Hill Outstation?", a, 1)
q("unanswerable", "unanswerable", "What was the average fuel consumption of the Brixton Depot buses last winter?", None, 0)

with open(D / "questions.jsonl", "w") as fh:
    for x in qs:
        fh.write(json.dumps(x) + "\n")
print(len(qs))
