"""Gold answers of the hotel_chain questions, computed in plain Python from the CSV files.

Run from anywhere: python gold.py  ->  writes data/questions.jsonl
"""
import csv
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"


def read(name):
    with open(DATA / name, newline="") as f:
        return list(csv.DictReader(f))


units = read("units.csv")
hotels = read("hotels.csv")
staff = read("staff.csv")
jobs = read("maintenance_jobs.csv")
budgets = read("maintenance_budgets.csv")
revenue = read("monthly_revenue.csv")
for h in hotels:
    h["rooms"] = int(h["rooms"])
    h["stars"] = int(h["stars"])
for j in jobs:
    j["cost_eur"] = float(j["cost_eur"])
for b in budgets:
    b["budget_eur"] = float(b["budget_eur"])
for r in revenue:
    r["room_nights"] = int(r["room_nights"])
    r["revenue_eur"] = float(r["revenue_eur"])


def num(x):
    x = round(x, 2)
    return int(x) if x == int(x) else x


def units_below(unit):
    """Every unit anywhere below `unit` (not the unit itself)."""
    out, frontier = [], [unit]
    while frontier:
        nxt = [u["unit"] for u in units if u["parent"] in frontier]
        out += nxt
        frontier = nxt
    return out


def hotels_under(unit, directly=False):
    scope = {unit} if directly else {unit, *units_below(unit)}
    return [h for h in hotels if h["unit"] in scope]


def hotel(name):
    return next(h for h in hotels if h["hotel"] == name)


questions = []


def q(qid, qtype, template, question, answer, complexity):
    questions.append({"id": qid, "type": qtype, "template": template, "question": question,
                      "answer": answer, "complexity": complexity})


# 1. simple lookup
h = hotel("Aurelia Lisbon Riverside")
q("hc01", "lookup", "attribute_of_entity", "How many rooms does Aurelia Lisbon Riverside have?", h["rooms"], 1)

# 2. count, anywhere under a unit (recursive)
hs = hotels_under("Europe Division")
q("hc02", "count", "count_anywhere_under", "How many hotels are there anywhere under the Europe Division?",
  len(hs), len(hs) + len(units_below("Europe Division")))

# 3. directly under a unit
hs = hotels_under("Europe Division", directly=True)
q("hc03", "list", "directly_under", "Which hotels report directly to the Europe Division?",
  sorted(h["hotel"] for h in hs), len(hs))

# 4. total over a period, joining the hotels under a unit with their monthly revenue
hs = {h["hotel"] for h in hotels_under("Alpine Region")}
rows = [r for r in revenue if r["hotel"] in hs and r["month"] == "2024-03"]
q("hc04", "total", "total_under_unit_in_period",
  "What was the total room revenue of the hotels in the Alpine Region in March 2024?",
  num(sum(r["revenue_eur"] for r in rows)), len(rows) + len(hs))

# 5. a kind restricts the answer
hs = [h for h in hotels_under("Iberia Region") if h["hotel_kind"] == "resort"]
q("hc05", "list", "kind_under_unit", "Which resort hotels are under the Iberia Region?",
  sorted(h["hotel"] for h in hs), len(hotels_under("Iberia Region")))

# 6. relation, active voice
u = next(u for u in units if u["unit"] == "Nordic Region")
q("hc06", "lookup", "relation_active", "Who heads the Nordic Region?", [u["head"]], 1)

# 7. relation, passive voice
rows = [s for s in staff if s["person"] == "Lena Fischer" and s["role"] == "general manager"]
q("hc07", "list", "relation_passive", "Which hotels are managed by Lena Fischer?",
  sorted(s["hotel"] for s in rows), len(rows))

# 8. "is the X of"
rows = [s for s in staff if s["hotel"] == "Aurelia Grand Paris" and s["role"] == "chief engineer"]
q("hc08", "lookup", "relation_is_the_x_of", "Who is the chief engineer of Aurelia Grand Paris?",
  [s["person"] for s in rows], 1)

# 9. the three largest
hs = sorted(hotels_under("Americas Division"), key=lambda h: -h["rooms"])
assert hs[2]["rooms"] > hs[3]["rooms"]
q("hc09", "top_n", "three_largest", "What are the three largest hotels of the Americas Division by number of rooms?",
  [h["hotel"] for h in hs[:3]], len(hs))

# 10. superlative
hs = sorted(hotels_under("Caribbean Region"), key=lambda h: h["rooms"])
assert hs[0]["rooms"] < hs[1]["rooms"]
q("hc10", "superlative", "fewest", "Which hotel in the Caribbean Region has the fewest rooms?",
  [hs[0]["hotel"]], len(hs))

# 11. condition with a number
all_am = hotels_under("Americas Division")
hs = [h for h in all_am if h["rooms"] > 250]
q("hc11", "list", "condition_number", "Which hotels under the Americas Division have more than 250 rooms?",
  sorted(h["hotel"] for h in hs), len(all_am))

# 12. a period
rows = [r for r in revenue if r["hotel"] == "Aurelia Oslo Fjord" and r["month"] == "2024-02"]
q("hc12", "lookup", "period", "How many room nights did Aurelia Oslo Fjord sell in February 2024?",
  sum(r["room_nights"] for r in rows), len(rows))

# 13. within / over a limit (yes/no), joining the jobs with the budget
rows = [j for j in jobs if j["hotel"] == "Aurelia Zermatt Lodge" and j["job_date"].startswith("2024")]
b = next(b for b in budgets if b["hotel"] == "Aurelia Zermatt Lodge" and b["year"] == "2024")
q("hc13", "limit", "over_limit",
  "Did the 2024 maintenance jobs of Aurelia Zermatt Lodge go over its maintenance budget?",
  sum(j["cost_eur"] for j in rows) > b["budget_eur"], len(rows) + 1)

# 14. two parts joined by "and"
h = hotel("Aurelia Grand New York")
gm = [s["person"] for s in staff if s["hotel"] == h["hotel"] and s["role"] == "general manager"]
q("hc14", "multi_part", "two_parts", "How many rooms does Aurelia Grand New York have, and who is its general manager?",
  {"parts": [h["rooms"], gm]}, 2)

# 15-16. questions no tool of the catalog can answer
q("hc15", "unanswerable", "no_tool", "What is the average guest review score of Aurelia Barbados Reef?", None, 0)
q("hc16", "unanswerable", "no_tool", "How many parking spaces does Aurelia Boston Harbor have?", None, 0)

with open(DATA / "questions.jsonl", "w") as f:
    for item in questions:
        f.write(json.dumps(item) + "\n")
print(f"wrote {len(questions)} questions to {DATA / 'questions.jsonl'}")
