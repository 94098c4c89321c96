"""Gold answers of the dairy co-operative questions, computed in plain Python from the CSV files.

    python gold.py            # prints id, answer and complexity of every question
    python gold.py --write    # writes them into data/questions.jsonl (answer and complexity fields)
"""
import csv
import json
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"


def read(name):
    with open(DATA / name, newline="") as f:
        return list(csv.DictReader(f))


areas = read("areas.csv")
farms = read("farms.csv")
collections = read("collections.csv")
quotas = {r["farm"]: int(r["monthly_quota_litres"]) for r in read("quotas.csv")}
tankers = {r["tanker"]: r for r in read("tankers.csv")}
farm = {r["farm"]: r for r in farms}
children = defaultdict(list)
for a in areas:
    if a["parent_area"]:
        children[a["parent_area"]].append(a["area"])


def areas_under(area):
    """The area itself and every area below it, at any depth."""
    seen, todo = [area], [area]
    while todo:
        for c in children[todo.pop()]:
            seen.append(c)
            todo.append(c)
    return seen


def farms_in(area, direct_only=False):
    scope = {area} if direct_only else set(areas_under(area))
    return [f for f in farms if f["area"] in scope]


def monthly(name, month):
    rows = [c for c in collections if c["farm"] == name and c["date"][:7] == month]
    return sum(int(c["litres"]) for c in rows), rows


def names(rows, key="farm"):
    return sorted({r[key] for r in rows})


gold = {}

# q01 lookup: herd size of one farm
gold["q01"] = (int(farm["Bracken Hill Farm"]["herd_size"]), 1)

# q02 list: farms attached to one zone
rows = farms_in("Coombe Valley Zone")
gold["q02"] = (names(rows), len(rows))

# q03 count: farms of a region through every district and zone
rows = farms_in("Southern Region")
gold["q03"] = (len(rows), len(rows))

# q04 total: litres collected by one tanker
rows = [c for c in collections if c["tanker"] == "T-03"]
gold["q04"] = (sum(int(c["litres"]) for c in rows), len(rows))

# q05 extreme: largest herd in a district (its zones included)
rows = farms_in("Fenmoor District")
gold["q05"] = ([max(rows, key=lambda r: int(r["herd_size"]))["farm"]], len(rows))

# q06 top-N: three largest herds of a region
rows = farms_in("Northern Region")
top = sorted(rows, key=lambda r: -int(r["herd_size"]))
assert int(top[2]["herd_size"]) > int(top[3]["herd_size"])
gold["q06"] = ([r["farm"] for r in top[:3]], len(rows))

# q07 share: percentage of a farm's litres collected by one tanker
rows = [c for c in collections if c["farm"] == "Linton Farm"]
part = sum(int(c["litres"]) for c in rows if c["tanker"] == "T-06")
whole = sum(int(c["litres"]) for c in rows)
gold["q07"] = (round(100 * part / whole, 1), len(rows))

# q08 relation, active: farms a tanker collected from
rows = [c for c in collections if c["tanker"] == "T-04"]
gold["q08"] = (names(rows), len(rows))

# q09 relation, passive: tankers that collected a farm's milk
rows = [c for c in collections if c["farm"] == "Sedge Farm"]
gold["q09"] = (names(rows, "tanker"), len(rows))

# q10 kind: organic farms of a region
rows = farms_in("Southern Region")
gold["q10"] = (names([r for r in rows if r["farming_system"] == "organic"]), len(rows))

# q11 period: litres one farm supplied in March 2024
total, rows = monthly("Hollin Farm", "2024-03")
gold["q11"] = (total, len(rows))

# q12 limit: farms whose March 2024 supply exceeded their monthly quota
over, n = [], 0
for f in farms:
    total, rows = monthly(f["farm"], "2024-03")
    n += len(rows) + 1
    if total > quotas[f["farm"]]:
        over.append(f["farm"])
gold["q12"] = (sorted(over), n)

# q13 yes/no: did one farm exceed its quota in January 2024?
total, rows = monthly("Brook Meadow Farm", "2024-01")
gold["q13"] = (total > quotas["Brook Meadow Farm"], len(rows) + 1)

# q14 two parts: driver of a tanker, and its capacity
t = tankers["T-04"]
gold["q14"] = ({"parts": [[t["driver"]], int(t["capacity_litres"])]}, 1)

# q15 direct vs whole hierarchy: farms attached to the district itself, not to one of its zones
rows = farms_in("Fenmoor District", direct_only=True)
gold["q15"] = (names(rows), len(farms_in("Fenmoor District")))

# q16 not answerable: the catalog holds no milk prices or payments
gold["q16"] = (None, 0)


if __name__ == "__main__":
    qfile = DATA / "questions.jsonl"
    if "--write" in sys.argv:
        qs = [json.loads(line) for line in qfile.read_text().splitlines() if line.strip()]
        for q in qs:
            q["answer"], q["complexity"] = gold[q["id"]]
        qfile.write_text("".join(json.dumps(q, ensure_ascii=False) + "\n" for q in qs))
    for k, (answer, complexity) in gold.items():
        print(k, json.dumps(answer), complexity)
