"""Gold answers of the park_rangers set, computed with pandas from the CSV files (independently of the catalog).

python gold.py   writes data/questions.jsonl
"""
import json
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"

areas = pd.read_csv(DATA / "areas.csv")
links = pd.read_csv(DATA / "area_links.csv")
rangers = pd.read_csv(DATA / "rangers.csv")
trails = pd.read_csv(DATA / "trails.csv")
zones = pd.read_csv(DATA / "wilderness_zones.csv")
permits = pd.read_csv(DATA / "permits.csv")

area_type = dict(zip(areas.area, areas.area_type))


def below(area):
    """Every area under `area` with its level (1: directly under it), breadth first."""
    out, frontier, level = {}, [area], 0
    while frontier:
        level += 1
        children = links[links.parent_area.isin(frontier)].area.tolist()
        frontier = [c for c in children if c not in out]
        for c in frontier:
            out[c] = level
    return out


def above(area):
    out, cur, level = {}, area, 0
    while True:
        parents = links[links.area == cur].parent_area.tolist()
        if not parents:
            return out
        assert len(parents) == 1
        level += 1
        cur = parents[0]
        out[cur] = level


def led(ranger, kind):
    rows = areas[(areas.lead_ranger == ranger) & (areas.area_type == kind)]
    return sorted(rows.area), len(areas[areas.lead_ranger == ranger])


def zone_use(zone):
    p = permits[permits.zone == zone]
    quota = int(zones.loc[zones.zone == zone, "season_quota"].iloc[0])
    return len(p), int(p.party_size.sum()), quota


questions = []


def q(qid, type_, template, question, answer, complexity):
    questions.append({"id": qid, "type": type_, "template": template, "question": question,
                      "answer": answer, "complexity": int(complexity)})


# 1-3: one relation (lead ranger of an area), three voices; the kind (beat) matters.
a, n = led("Rosa Delgado", "beat")
q("pr01", "generic", "relation_active", "Which patrol beats does Rosa Delgado lead?", a, n)
a, n = led("Ethan Brooks", "beat")
q("pr02", "generic", "relation_passive", "Which patrol beats are led by Ethan Brooks?", a, n)
a, n = led("Tom Kowalski", "beat")
q("pr03", "generic", "relation_possessive", "Which beats is Tom Kowalski the lead ranger of?", a, n)

# 4: two hops: areas Liam O'Connor leads -> their trails (his station has no trails of its own).
liam = areas[areas.lead_ranger == "Liam O'Connor"].area
t = trails[trails.beat.isin(liam)]
q("pr04", "multi-hop", "relation_join", "Which trails run through the beats that Liam O'Connor leads?",
  sorted(t.trail), len(liam) + len(t))

# 5: direct children of one kind (North District also holds a beat directly; its stations hold beats).
sub = below("North District")
a = sorted(x for x, lvl in sub.items() if lvl == 1 and area_type[x] == "station")
q("pr05", "generic", "kind_direct", "Which ranger stations report directly to the North District?", a,
  sum(1 for lvl in sub.values() if lvl == 1))

# 6-7: counts of one kind anywhere below a node.
sub = below("South District")
q("pr06", "count", "kind_count_chain", "How many patrol beats lie anywhere within the South District?",
  sum(1 for x in sub if area_type[x] == "beat"), len(sub))
sub = below("Cascade Ridge National Park")
q("pr07", "count", "kind_count_chain", "How many ranger stations does Cascade Ridge National Park have?",
  sum(1 for x in sub if area_type[x] == "station"), len(sub))

# 8: up the chain to the district.
up = above("Willow Marsh Beat")
q("pr08", "generic", "ultimately", "Which district is Willow Marsh Beat part of?",
  sorted(x for x in up if area_type[x] == "district"), len(up))

# 9: top three by length within one beat.
t = trails[trails.beat == "Elk Meadow Beat"]
top = t.sort_values("length_km", ascending=False)
assert top.length_km.iloc[2] > top.length_km.iloc[3]
q("pr09", "generic", "top_n", "What are the three longest trails in the Elk Meadow Beat?",
  sorted(top.trail.iloc[:3]), len(t))

# 10: a total over one beat.
t = trails[trails.beat == "Fern Gully Beat"]
q("pr10", "count", "total", "What is the combined length in kilometres of all the trails in the Fern Gully Beat?",
  round(float(t.length_km.sum()), 2), len(t))

# 11: a count over one station.
r = rangers[rangers.station == "Lakeshore Station"]
q("pr11", "count", "count", "How many rangers are posted at Lakeshore Station?", len(r), len(r))

# 12: a condition on a number within one beat.
t = trails[trails.beat == "Elk Meadow Beat"]
q("pr12", "generic", "condition", "Which trails in the Elk Meadow Beat climb more than 300 metres?",
  sorted(t[t.elevation_gain_m > 300].trail), len(t))

# 13-14: yes/no limit checks against the quota stored in the data.
n, hikers, quota = zone_use("Kettle Basin Zone")
q("pr13", "multi-hop", "limit_yes_no",
  "Has the Kettle Basin Zone admitted more hikers this season than its season quota allows?", hikers > quota, n + 1)
n, hikers, quota = zone_use("Coyote Wash Zone")
q("pr14", "multi-hop", "limit_yes_no", "Has the Coyote Wash Zone gone over its season quota?", hikers > quota, n + 1)

# 15: two parts: the leader of the largest party, then the zone's quota check.
p = permits[permits.zone == "Upper Kettle Zone"].sort_values("party_size", ascending=False)
assert p.party_size.iloc[0] > p.party_size.iloc[1]
n, hikers, quota = zone_use("Upper Kettle Zone")
q("pr15", "multi-hop", "two_part",
  "Who led the largest party into the Upper Kettle Zone, and is that zone over its season quota?",
  {"parts": [[p.trip_leader.iloc[0]], hikers > quota]}, n + 1)

# 16: a count of permits for one zone.
n, hikers, quota = zone_use("Moraine Lakes Zone")
q("pr16", "count", "count", "How many wilderness permits were issued for the Moraine Lakes Zone?", n, n)

# 17-18: data the catalog does not hold.
q("pr17", "generic", "no_tool", "What is the annual operating budget of Glacier Outpost?", None, 0)
q("pr18", "generic", "no_tool", "How many black bear sightings were reported in the Redrock Beat this summer?",
  None, 0)

with open(DATA / "questions.jsonl", "w") as f:
    for item in questions:
        f.write(json.dumps(item) + "\n")
print(f"wrote {len(questions)} questions to {DATA / 'questions.jsonl'}")
