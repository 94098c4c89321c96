"""Gold answers of the ferry_lines questions, computed from the CSV files with plain Python.

Run: python gold.py   (writes data/questions.jsonl)
"""
import csv
import json
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"


def rows(name):
    with open(DATA / name, newline="") as f:
        return list(csv.DictReader(f))


vessels = rows("vessels.csv")
routes = rows("routes.csv")
traffic = rows("route_traffic.csv")
for v in vessels:
    v["passenger_capacity"] = int(v["passenger_capacity"])
    v["car_spaces"] = int(v["car_spaces"])
for r in routes:
    r["crossing_minutes"] = int(r["crossing_minutes"])
    r["licensed_sailings"] = int(r["licensed_sailings"])
for t in traffic:
    for k in ("sailings", "passengers", "vehicles"):
        t[k] = int(t[k])

vessel = {v["vessel"]: v for v in vessels}
route = {r["route"]: r for r in routes}


def fleet(port):
    return [v for v in vessels if v["home_port"] == port]


def routes_from(port):
    return [r for r in routes if r["from_port"] == port]


def month_rows(rname, month=None):
    return [t for t in traffic if t["route"] == rname and (month is None or t["month"] == month)]


def reachable(port):
    """Fewest crossings from port to every other port, routes running both ways (breadth-first)."""
    links = defaultdict(set)
    for r in routes:
        links[r["from_port"]].add(r["to_port"])
        links[r["to_port"]].add(r["from_port"])
    dist = {port: 0}
    frontier = [port]
    while frontier:
        nxt = []
        for p in frontier:
            for q in sorted(links[p]):
                if q not in dist:
                    dist[q] = dist[p] + 1
                    nxt.append(q)
        frontier = nxt
    return {p: d for p, d in dist.items() if p != port}


def over_licence(rname, month):
    t = month_rows(rname, month)
    return bool(t) and t[0]["sailings"] > route[rname]["licensed_sailings"]


questions = []


def q(qid, qtype, template, question, answer, complexity):
    questions.append({"id": qid, "type": qtype, "template": template, "question": question,
                      "answer": answer, "complexity": complexity})


# 1 lookup (who)
q("ferry-01", "lookup", "who_attribute", "Who is the master of the MV Corran Star?",
  [vessel["MV Corran Star"]["master"]], 1)
# 2 lookup, "of" phrase
q("ferry-02", "lookup", "attribute_of", "What is the passenger capacity of HSC Swift Tern?",
  vessel["HSC Swift Tern"]["passenger_capacity"], 1)
# 3 count of a kind (vessel_type used as a noun)
f = fleet("Port Ellan")
q("ferry-03", "count", "count_kind", "How many catamarans are based at Port Ellan?",
  sum(1 for v in f if v["vessel_type"] == "catamaran"), len(f))
# 4 sum in a named month
t = month_rows("Sound of Carra", "2024-07")
q("ferry-04", "sum", "sum_month", "How many passengers did the Sound of Carra carry in July 2024?",
  sum(x["passengers"] for x in t), len(t))
# 5 sum over every month
t = month_rows("Western Isles Freight")
q("ferry-05", "sum", "sum_total", "How many vehicles did the Western Isles Freight carry altogether?",
  sum(x["vehicles"] for x in t), len(t))
# 6 superlative
f = fleet("Kilbrannan")
best = max(f, key=lambda v: v["passenger_capacity"])
assert sum(1 for v in f if v["passenger_capacity"] == best["passenger_capacity"]) == 1
q("ferry-06", "superlative", "max_in_group", "Which vessel based at Kilbrannan has the largest passenger capacity?",
  [best["vessel"]], len(f))
# 7 top three
rs = sorted(routes_from("Port Ellan"), key=lambda r: -r["crossing_minutes"])
assert rs[2]["crossing_minutes"] > rs[3]["crossing_minutes"]
q("ferry-07", "top_n", "top3", "What are the three routes from Port Ellan with the longest crossing times?",
  [r["route"] for r in rs[:3]], len(rs))
# 8 passive relation
rs = [r for r in routes if r["vessel"] == "MV Ronan Mor"]
q("ferry-08", "relation", "passive", "Which routes are served by MV Ronan Mor?", [r["route"] for r in rs], len(rs))
# 9 active relation
q("ferry-09", "relation", "active", "Which vessel operates the Lismore Passage?",
  [route["Lismore Passage"]["vessel"]], 1)
# 10 chain, direct only
reach = reachable("Kilbrannan")
q("ferry-10", "chain", "chain_direct", "Which ports can be reached directly from Kilbrannan?",
  sorted(p for p, d in reach.items() if d == 1), len(routes))
# 11 chain, the whole chain
reach = reachable("Port Ellan")
q("ferry-11", "chain", "chain_count",
  "How many ports can be reached from Port Ellan, including journeys with a change of ferry?",
  len(reach), len(routes))
# 12 limit, yes/no, in a month
q("ferry-12", "limit", "limit_yes_no", "Did the Sound of Carra exceed its licensed monthly sailings in June 2024?",
  over_licence("Sound of Carra", "2024-06"), 2)
# 13 limit over every route, in a month
over = sorted(r["route"] for r in routes if over_licence(r["route"], "2024-07"))
q("ferry-13", "limit", "limit_which", "Which routes made more sailings than their licence allows in July 2024?",
  over, 2 * len(routes))
# 14 share of a kind
f = fleet("Kilbrannan")
q("ferry-14", "share", "share_kind", "What percentage of the vessels based at Kilbrannan are ferries?",
  round(100.0 * sum(1 for v in f if v["vessel_type"] == "ferry") / len(f), 1), len(f))
# 15 two parts
f = fleet("Ardcastle")
q("ferry-15", "compound", "list_and_any", "Which vessels are based at Ardcastle, and is any of them a freighter?",
  {"parts": [[v["vessel"] for v in f], any(v["vessel_type"] == "freighter" for v in f)]}, len(f))
# 16 nothing in the catalog holds fuel
q("ferry-16", "unanswerable", "no_tool", "How much fuel did HSC Kittiwake burn in June 2024?", None, 0)

assert len(questions) == 16
with open(DATA / "questions.jsonl", "w") as out:
    for item in questions:
        out.write(json.dumps(item) + "\n")
for item in questions:
    print(item["id"], "|", item["question"], "|", json.dumps(item["answer"]))
