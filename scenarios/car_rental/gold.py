"""Gold answers for the car rental questions, computed in plain Python from data/*.csv."""
import csv
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")


def read(name):
    with open(os.path.join(DATA, name), newline="") as f:
        return list(csv.DictReader(f))


units = read("units.csv")
staff = read("staff.csv")
vehicles = read("vehicles.csv")
rentals = read("rentals.csv")
for v in vehicles:
    v["daily_rate_gbp"] = int(v["daily_rate_gbp"])
for r in rentals:
    for k in ("km_driven", "km_allowance", "amount_gbp"):
        r[k] = int(r[k])
by_plate = {v["plate"]: v for v in vehicles}


def below(unit):
    """[(sub_unit, unit_type, level)] for every unit under `unit`."""
    out, frontier, level = [], [unit], 1
    while frontier:
        nxt = [u for u in units if u["parent"] in frontier]
        out += [(u["unit"], u["unit_type"], level) for u in nxt]
        frontier, level = [u["unit"] for u in nxt], level + 1
    return out


def fleet(branch):
    return [v for v in vehicles if v["branch"] == branch]


def of_customer(customer):
    return [r for r in rentals if r["customer"] == customer]


questions = []


def q(qid, qtype, template, question, answer, complexity):
    questions.append({"id": qid, "type": qtype, "template": template, "question": question,
                      "answer": answer, "complexity": complexity})


# simple lookup
q("cr01", "generic", "lookup", "What is the daily rate of YR71 KLM?", by_plate["YR71 KLM"]["daily_rate_gbp"], 1)

# count
rows = fleet("Leeds Station")
q("cr02", "count", "count", "How many vehicles does Leeds Station have?", len(rows), len(rows))

# total
rows = of_customer("Harlow Logistics")
q("cr03", "generic", "total", "What is the total amount paid by Harlow Logistics?",
  sum(r["amount_gbp"] for r in rows), len(rows))

# directly under
rows = [s for s, t, l in below("United Kingdom") if l == 1]
q("cr04", "generic", "directly", "Which units are directly under United Kingdom?", sorted(rows), len(rows))

# anywhere under, restricted by a kind
allb = below("United Kingdom")
q("cr05", "multi-hop", "under_kind", "Which branches are under United Kingdom?",
  sorted(s for s, t, l in allb if t == "branch"), len(allb))

# relation, active voice
rows = [r for r in rentals if r["plate"] == "YR71 KLM"]
q("cr06", "generic", "relation_active", "Which customers rented YR71 KLM?", sorted({r["customer"] for r in rows}), len(rows))

# relation, passive voice
rows = of_customer("Northern Film Crew")
q("cr07", "generic", "relation_passive", "Which vehicles were rented by Northern Film Crew?",
  sorted({r["plate"] for r in rows}), len(rows))

# "is the X of"
rows = [s for s in staff if s["unit"] == "Leeds Station"]
q("cr08", "generic", "role_of", "Who is the manager of Leeds Station?",
  sorted(s["person"] for s in rows if s["role"] == "manager"), len(rows))

# the three largest
rows = sorted(of_customer("Harlow Logistics"), key=lambda r: -r["amount_gbp"])
assert rows[2]["amount_gbp"] > rows[3]["amount_gbp"]
q("cr09", "generic", "top_n", "What are the three largest rentals of Harlow Logistics?",
  sorted(r["rental_id"] for r in rows[:3]), len(rows))

# superlative restricted by a kind
rows = fleet("Leeds Station")
vans = sorted((v for v in rows if v["category"] == "van"), key=lambda v: -v["daily_rate_gbp"])
assert vans[0]["daily_rate_gbp"] > vans[1]["daily_rate_gbp"]
q("cr10", "generic", "superlative_kind", "Which van at Leeds Station has the highest daily rate?", [vans[0]["plate"]], len(rows))

# condition with a number
rows = fleet("Manchester Airport")
q("cr11", "generic", "condition", "Which vehicles at Manchester Airport have a daily rate above 60?",
  sorted(v["plate"] for v in rows if v["daily_rate_gbp"] > 60), len(rows))

# a period
rows = [r for r in of_customer("Harlow Logistics") if r["start_date"].startswith("2024-03")]
q("cr12", "count", "period_count", "How many rentals did Harlow Logistics make in March 2024?", len(rows), len(rows))

# limit yes/no
r = next(r for r in rentals if r["rental_id"] == "R1202")
q("cr13", "generic", "limit", "Did rental R1202 stay within its mileage allowance?", r["km_driven"] <= r["km_allowance"], 1)

# two parts joined by "and"
a, b = fleet("York Central"), fleet("Dublin Airport")
q("cr14", "count", "two_parts", "How many vehicles does York Central have and how many vehicles does Dublin Airport have?",
  {"parts": [len(a), len(b)]}, len(a) + len(b))

# nothing in the catalog answers these
q("cr15", "generic", "unanswerable", "What is the fuel level of YR71 KLM?", None, 0)
q("cr16", "generic", "unanswerable", "How many parking spaces does Leeds Station have?", None, 0)

with open(os.path.join(DATA, "questions.jsonl"), "w") as f:
    for item in questions:
        f.write(json.dumps(item) + "\n")
print(f"wrote {len(questions)} questions")
