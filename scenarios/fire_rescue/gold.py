"""Gold answers for the fire_rescue set, computed in plain Python from the CSV files.

Run `python gold.py` to (re)write data/questions.jsonl.
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


units = rows("units.csv")
stations = rows("stations.csv")
appliances = rows("appliances.csv")
firefighters = rows("firefighters.csv")
overtime = rows("overtime.csv")
incidents = rows("incidents.csv")


def units_under(unit):
    """{sub_unit: (unit_type, level)} for every unit below `unit`, shortest level."""
    out, frontier, level = {}, [unit], 0
    while frontier:
        level += 1
        nxt = []
        for p in frontier:
            for u in units:
                if u["parent_unit"] == p and u["unit"] not in out:
                    out[u["unit"]] = (u["unit_type"], level)
                    nxt.append(u["unit"])
        frontier = nxt
    return out


def crew(station):
    return [f for f in firefighters if f["station"] == station]


def station_of(person):
    return next(f["station"] for f in firefighters if f["firefighter"] == person)


def overtime_rows(station, month):
    return [o for o in overtime if station_of(o["firefighter"]) == station and o["month"] == month]


def overtime_total(station, month):
    return sum(float(o["hours"]) for o in overtime_rows(station, month))


def cap(station):
    return float(next(s["monthly_overtime_cap_hours"] for s in stations if s["station"] == station))


def num(x):
    x = round(x, 6)
    return int(x) if x == int(x) else x


Q = []


def q(type_, template, question, answer, complexity):
    Q.append({"id": f"fr{len(Q) + 1:02d}", "type": type_, "template": template,
              "question": question, "answer": answer, "complexity": complexity})


# 1. kind inside a hierarchy (all levels)
under = units_under("North Area")
q("hierarchy", "kind_within", "Which stations are in the North Area?",
  sorted(u for u, (t, l) in under.items() if t == "station"), len(under))

# 2. active voice, one level down
under = units_under("South Area")
q("hierarchy", "direct_children", "Which districts does the South Area contain?",
  sorted(u for u, (t, l) in under.items() if t == "district" and l == 1), len(under))

# 3. Y's X
a = [r for r in appliances if r["station"] == "Kelbrook"]
q("lookup", "possessive_list", "What are Kelbrook's appliances?", sorted(r["appliance"] for r in a), len(a))

# 4. count of a kind
a = [r for r in appliances if r["station"] == "Tynecross Central"]
q("count", "kind_count", "How many pumps are based at Tynecross Central?",
  sum(1 for r in a if r["appliance_type"] == "pump"), len(a))

# 5. passive voice with a kind
i = [r for r in incidents if r["station"] == "Saltcote"]
q("lookup", "passive_kind", "Which road collisions were attended by Saltcote?",
  sorted(r["incident"] for r in i if r["incident_type"] == "road_collision"), len(i))

# 6. X of Y with a kind (rank)
c = crew("Tynecross Central")
q("lookup", "of_kind", "Who are the watch managers of Tynecross Central?",
  sorted(r["firefighter"] for r in c if r["rank"] == "watch_manager"), len(c))

# 7. the three largest
i = sorted((r for r in incidents if r["station"] == "Saltcote"), key=lambda r: -float(r["response_minutes"]))
assert float(i[2]["response_minutes"]) > float(i[3]["response_minutes"]), "tie at rank 3"
q("ranking", "top_n", "Which three incidents attended by Saltcote had the longest response times?",
  sorted(r["incident"] for r in i[:3]), len(i))

# 8. total in one month
r8 = overtime_rows("Calderbank", "2024-02")
q("total", "total_in_period", "How many overtime hours did Calderbank's crew claim in February 2024?",
  num(overtime_total("Calderbank", "2024-02")), len(r8))

# 9. yes/no limit (goes over)
r9 = overtime_rows("Harrowgate", "2024-02")
q("limit", "exceeds_cap", "Did Harrowgate's overtime in February 2024 go over its monthly overtime cap?",
  overtime_total("Harrowgate", "2024-02") > cap("Harrowgate"), len(r9) + 1)

# 10. yes/no limit (does not)
r10 = overtime_rows("Kelbrook", "2024-01")
q("limit", "exceeds_cap", "Did Kelbrook exceed its monthly overtime cap in January 2024?",
  overtime_total("Kelbrook", "2024-01") > cap("Kelbrook"), len(r10) + 1)

# 11. count, active voice
i = [r for r in incidents if r["station"] == "Tynecross Central"]
q("count", "count_active", "How many incidents did Tynecross Central respond to?", len(i), len(i))

# 12. two parts: count and a kind among them
c = crew("Marshfield")
q("compound", "count_and_kind", "How many people are posted at Marshfield, and which of them are crew managers?",
  {"parts": [len(c), sorted(r["firefighter"] for r in c if r["rank"] == "crew_manager")]}, len(c))

# 13. two parts: a limit lookup and a total
r13 = overtime_rows("Ripley Cross", "2024-03")
q("compound", "limit_and_total",
  "What is Ripley Cross's monthly overtime cap, and how many overtime hours were claimed there in March 2024?",
  {"parts": [num(cap("Ripley Cross")), num(overtime_total("Ripley Cross", "2024-03"))]}, len(r13) + 1)

# 14. multi-hop: hierarchy, then the appliances of each station, restricted to a kind
under = units_under("South Area")
sts = [u for u, (t, l) in under.items() if t == "station"]
a = [r for r in appliances if r["station"] in sts]
q("multi-hop", "kind_across_hierarchy", "Which tankers are based at stations in the South Area?",
  sorted(r["appliance"] for r in a if r["appliance_type"] == "tanker"), len(under) + len(a))

# 15-16. nothing in the catalog answers these
q("unanswerable", "no_tool", "What is Priya Desai's annual salary?", None, 0)
q("unanswerable", "no_tool", "Which fire hydrants in Calder District failed their last inspection?", None, 0)

assert len(Q) == 16
with open(DATA / "questions.jsonl", "w") as f:
    for item in Q:
        f.write(json.dumps(item) + "\n")
print(f"wrote {len(Q)} questions to {DATA / 'questions.jsonl'}")
