"""Gold answers for the satellite_ops questions, computed from the CSV files in data/ with plain Python.

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


satellites = rows("satellites.csv")
links = rows("relay_links.csv")
stations = rows("stations.csv")
passes = rows("passes.csv")
for s in satellites:
    s["mass_kg"] = int(s["mass_kg"])
    s["monthly_quota_gb"] = int(s["monthly_quota_gb"])
    s["launch_year"] = int(s["launch_year"])
for p in passes:
    p["volume_gb"] = int(p["volume_gb"])
for s in stations:
    s["antennas"] = int(s["antennas"])

sat = {s["satellite"]: s for s in satellites}
station = {s["station"]: s for s in stations}


def fleet(operator):
    return [s for s in satellites if s["operator"] == operator]


def relay_clients(relay):
    """Satellites routing through `relay`, with the shortest level at which they reach it."""
    level = {}
    frontier = [relay]
    depth = 0
    while frontier:
        depth += 1
        nxt = []
        for r in frontier:
            for link in links:
                if link["relay"] == r and link["satellite"] not in level:
                    level[link["satellite"]] = depth
                    nxt.append(link["satellite"])
        frontier = nxt
    return level


def monthly(satellite, month):
    ps = [p for p in passes if p["satellite"] == satellite and p["pass_date"].startswith(month)]
    return sum(p["volume_gb"] for p in ps), len(ps)


def pct(part, whole):
    return round(100.0 * part / whole, 1)


questions = []


def q(qid, qtype, template, question, answer, complexity):
    questions.append({"id": qid, "type": qtype, "template": template, "question": question,
                      "answer": answer, "complexity": complexity})


# s01 lookup
q("sat-01", "lookup", "operator_of", "Who operates Bluefin 3?", [sat["Bluefin 3"]["operator"]], 1)

# s02 sum over a fleet
f = fleet("Aurora Earthworks")
q("sat-02", "aggregate", "total_of_fleet",
  "What is the total launch mass of the satellites operated by Aurora Earthworks?",
  sum(s["mass_kg"] for s in f), len(f))

# s03 superlative
f = fleet("Kestrel Aerospace")
heaviest = max(f, key=lambda s: s["mass_kg"])
assert sum(1 for s in f if s["mass_kg"] == heaviest["mass_kg"]) == 1
q("sat-03", "superlative", "highest_in_fleet",
  "Which satellite of Kestrel Aerospace has the largest launch mass?", [heaviest["satellite"]], len(f))

# s04 top-N: satellites by total data downlinked at a station
per_sat = defaultdict(int)
at = [p for p in passes if p["station"] == "Halvard Station"]
for p in at:
    per_sat[p["satellite"]] += p["volume_gb"]
ranked = sorted(per_sat.items(), key=lambda kv: -kv[1])
assert ranked[2][1] > ranked[3][1]
q("sat-04", "top_n", "top3_sum_per_thing",
  "Which three satellites sent the most data to Halvard Station?", [k for k, _ in ranked[:3]], len(at))

# s05 passive relation
f = fleet("Aurora Earthworks")
q("sat-05", "relation", "passive_list", "Which satellites are operated by Aurora Earthworks?",
  sorted(s["satellite"] for s in f), len(f))

# s06 hierarchy: directly
lv = relay_clients("Meridian Relay Prime")
direct = sorted(s for s, l in lv.items() if l == 1)
q("sat-06", "hierarchy", "direct_only",
  "Which satellites hand their data directly to Meridian Relay Prime?", direct, len(direct))

# s07 hierarchy: at any level, counted
q("sat-07", "hierarchy", "count_any_level",
  "How many satellites route their data through Meridian Relay Prime, directly or indirectly?",
  len(lv), len(lv))

# s08 "of" phrase lookup of a limit
q("sat-08", "lookup", "of_phrase", "What is the monthly downlink quota of Cirrus 2?",
  sat["Cirrus 2"]["monthly_quota_gb"], 1)

# s09 kind as a noun, counted
f = fleet("Meridian Orbital")
weather = [s for s in f if s["mission_type"] == "weather"]
q("sat-09", "kind", "count_of_kind", "How many weather satellites does Meridian Orbital operate?",
  len(weather), len(f))

# s10 threshold over a number column
f = fleet("Nordlys Space")
heavy = sorted(s["satellite"] for s in f if s["mass_kg"] > 400)
q("sat-10", "threshold", "above_value",
  "Which satellites of Nordlys Space have a launch mass above 400 kg?", heavy, len(f))

# s11 limit yes/no in a month
total, n = monthly("Aster 2", "2024-03")
q("sat-11", "limit", "yes_no_month",
  "Did Aster 2 exceed its monthly downlink quota in March 2024?",
  total > sat["Aster 2"]["monthly_quota_gb"], n + 1)

# s12 limit: which satellites of a fleet went over in a month
f = fleet("Meridian Orbital")
over = []
rows_used = 0
for s in f:
    total, n = monthly(s["satellite"], "2024-02")
    rows_used += n + 1
    if total > s["monthly_quota_gb"]:
        over.append(s["satellite"])
q("sat-12", "limit", "which_exceed_month",
  "Which Meridian Orbital satellites went over their monthly downlink quota in February 2024?",
  sorted(over), rows_used)

# s13 a month's total
total, n = monthly("Lumen 1", "2024-01")
q("sat-13", "period", "sum_in_month", "How much data did Lumen 1 downlink in January 2024?", total, n)

# s14 share of a kind
f = fleet("Nordlys Space")
imaging = [s for s in f if s["mission_type"] == "imaging"]
q("sat-14", "share", "percentage_of_kind",
  "What percentage of Nordlys Space's satellites are imaging satellites?", pct(len(imaging), len(f)), len(f))

# s15 compound, two independent parts
st = station["Awarua Point"]
q("sat-15", "compound", "two_lookups",
  "In which country is Awarua Point, and how many antennas does it have?",
  {"parts": [[st["country"]], st["antennas"]]}, 1)

# s16 nothing in the catalog holds launch costs
q("sat-16", "unanswerable", "no_tool", "How much did the launch of Bluefin 3 cost?", None, 0)

with open(DATA / "questions.jsonl", "w") as out:
    for item in questions:
        out.write(json.dumps(item) + "\n")
print(f"wrote {len(questions)} questions to {DATA / 'questions.jsonl'}")
