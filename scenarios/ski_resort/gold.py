"""Gold answers for the ski_resort set, computed in plain Python from the CSV files.

Run `python gold.py` to (re)write data/questions.jsonl.
"""
import csv
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"


def rows(name):
    with open(DATA / name, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


areas = rows("areas.csv")
lifts = rows("lifts.csv")
pistes = rows("pistes.csv")
snowmaking = rows("snowmaking.csv")
allowances = rows("water_allowances.csv")
patrol = rows("patrollers.csv")


def areas_within(area):
    """{sub_area: (area_type, level)} for every area below `area`, shortest level."""
    out, frontier, level = {}, [area], 0
    while frontier:
        level += 1
        nxt = []
        for p in frontier:
            for a in areas:
                if a["parent_area"] == p and a["area"] not in out:
                    out[a["area"]] = (a["area_type"], level)
                    nxt.append(a["area"])
        frontier = nxt
    return out


def area_pistes(area):
    return [p for p in pistes if p["area"] == area]


def snow_rows(area, month):
    names = {p["piste"] for p in area_pistes(area)}
    return [s for s in snowmaking if s["piste"] in names and s["month"] == month]


def water_used(area, month):
    return sum(float(s["water_m3"]) for s in snow_rows(area, month))


def allowance(area):
    return float(next(a["monthly_water_allowance_m3"] for a in allowances if a["area"] == area))


def num(x):
    x = round(x, 6)
    return int(x) if x == int(x) else x


Q = []


def q(type_, template, question, answer, complexity):
    Q.append({"id": f"sk{len(Q) + 1:02d}", "type": type_, "template": template,
              "question": question, "answer": answer, "complexity": complexity})


# 1. a kind, one level down
w = areas_within("Vallon des Praz")
q("hierarchy", "direct_kind", "Which sectors make up the Vallon des Praz?",
  sorted(a for a, (t, l) in w.items() if t == "sector" and l == 1), len(w))

# 2. the whole chain
w = areas_within("Vallon du Loup")
q("hierarchy", "whole_chain", "Which areas lie within the Vallon du Loup, directly or indirectly?", sorted(w), len(w))

# 3. passive voice
p = [r for r in pistes if r["lift"] == "Grand Roc Gondola"]
q("lookup", "passive", "Which pistes are served by the Grand Roc Gondola?", sorted(r["piste"] for r in p), len(p))

# 4. active voice
p = [r for r in pistes if r["lift"] == "Lac Blanc"]
q("lookup", "active", "Which pistes does the Lac Blanc chairlift serve?", sorted(r["piste"] for r in p), len(p))

# 5. X of Y, one value
l = next(r for r in lifts if r["lift"] == "Tête Blanche Express")
q("lookup", "of_value", "What is the hourly capacity of the Tête Blanche Express?", int(l["hourly_capacity"]), 1)

# 6. count of a kind
p = area_pistes("Grand Roc")
q("count", "kind_count", "How many black pistes are there in Grand Roc?",
  sum(1 for r in p if r["difficulty"] == "black"), len(p))

# 7. total over a kind
p = area_pistes("Les Praz")
q("total", "kind_total", "What is the total length of the blue pistes in Les Praz?",
  num(sum(float(r["length_m"]) for r in p if r["difficulty"] == "blue")), len(p))

# 8. the three largest
p = sorted(area_pistes("Col du Loup"), key=lambda r: -int(r["length_m"]))
assert int(p[2]["length_m"]) > int(p[3]["length_m"]), "tie at rank 3"
q("ranking", "top_n", "What are the three longest pistes in Col du Loup?", sorted(r["piste"] for r in p[:3]), len(p))

# 9. yes/no limit: stays within
r9 = snow_rows("Grand Roc", "2023-12")
q("limit", "within_limit",
  "Did Grand Roc's snowmaking in December 2023 stay within its monthly water allowance?",
  water_used("Grand Roc", "2023-12") <= allowance("Grand Roc"), len(r9) + 1)

# 10. yes/no limit: goes over
r10 = snow_rows("Les Chalets", "2023-11")
q("limit", "exceeds_limit",
  "Did Les Chalets use more water for snowmaking in November 2023 than its monthly allowance?",
  water_used("Les Chalets", "2023-11") > allowance("Les Chalets"), len(r10) + 1)

# 11. Y's X
l = [r for r in lifts if r["area"] == "Les Chalets"]
q("lookup", "possessive_list", "What are Les Chalets' lifts?", sorted(r["lift"] for r in l), len(l))

# 12. two parts: count, then a kind among them
l = [r for r in lifts if r["area"] == "Plan Joyeux"]
q("compound", "count_and_kind", "How many lifts does Plan Joyeux have, and which of them are draglifts?",
  {"parts": [len(l), sorted(r["lift"] for r in l if r["lift_type"] == "draglift")]}, len(l))

# 13. two parts: a kind list and a kind count
t = [r for r in patrol if r["area"] == "Grand Roc"]
q("compound", "kind_and_count",
  "Which team leaders are based in Grand Roc, and how many dog handlers work there?",
  {"parts": [sorted(r["patroller"] for r in t if r["role"] == "team_leader"),
             sum(1 for r in t if r["role"] == "dog_handler")]}, len(t))

# 14. multi-hop: the areas of a valley, then the pistes of each
w = areas_within("Vallon du Loup")
p = [r for r in pistes if r["area"] in w or r["area"] == "Vallon du Loup"]
q("multi-hop", "count_across_hierarchy",
  "How many pistes are there in the Vallon du Loup, counting all of its sectors?", len(p), len(w) + len(p))

# 15-16. nothing in the catalog answers these
q("unanswerable", "no_tool", "How much does an adult day pass cost at Valmont Ski Domain?", None, 0)
q("unanswerable", "no_tool", "How many centimetres of fresh snow fell on Tête Blanche on 17 February 2024?", None, 0)

assert len(Q) == 16
with open(DATA / "questions.jsonl", "w", encoding="utf-8") as f:
    for item in Q:
        f.write(json.dumps(item, ensure_ascii=False) + "\n")
print(f"wrote {len(Q)} questions to {DATA / 'questions.jsonl'}")
