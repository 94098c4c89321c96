"""Gold answers for the food bank questions, computed in plain Python from data/*.csv."""
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
pantries = {r["pantry"]: int(r["monthly_cap_kg"]) for r in read("pantries.csv")}
dists = read("distributions.csv")
donations = read("donations.csv")
donors = {r["donor"]: r for r in read("donors.csv")}
for r in dists + donations:
    r["quantity_kg"] = int(r["quantity_kg"])


def below(unit):
    """[(sub_unit, unit_type, level)] for every unit under `unit`."""
    out, frontier, level = [], [unit], 1
    while frontier:
        nxt = [u for u in units if u["parent"] in frontier]
        out += [(u["unit"], u["unit_type"], level) for u in nxt]
        frontier, level = [u["unit"] for u in nxt], level + 1
    return out


def received(wh):
    return [d for d in donations if d["warehouse"] == wh]


questions = []


def q(qid, qtype, template, question, answer, complexity):
    questions.append({"id": qid, "type": qtype, "template": template, "question": question,
                      "answer": answer, "complexity": complexity})


# 1 simple lookup
q("fb01", "generic", "lookup", "What is the monthly cap of Riverside Pantry?", pantries["Riverside Pantry"], 1)

# 2 count
rows = received("Eastgate Warehouse")
q("fb02", "count", "count", "How many donations did Eastgate Warehouse receive?", len(rows), len(rows))

# 3 total
rows = [d for d in dists if d["pantry"] == "Riverside Pantry"]
q("fb03", "generic", "total", "What is the total quantity distributed by Riverside Pantry?",
  sum(d["quantity_kg"] for d in rows), len(rows))

# 4 directly under
rows = [s for s, t, l in below("Millbrook Warehouse") if l == 1]
q("fb04", "generic", "directly", "Which units are directly under Millbrook Warehouse?", sorted(rows), len(rows))

# 5 anywhere under, restricted by a kind
allb = below("North Region")
rows = [s for s, t, l in allb if t == "pantry"]
q("fb05", "multi-hop", "under_kind", "Which pantries are under North Region?", sorted(rows), len(allb))

# 7 relation, active voice (list)
rows = received("Eastgate Warehouse")
q("fb06", "generic", "relation_active", "Which donors gave to Eastgate Warehouse?",
  sorted({d["donor"] for d in rows}), len(rows))

# 8 relation, passive voice
rows = [d for d in donations if d["donor"] == "Green Valley Farm"]
q("fb07", "generic", "relation_passive", "Which warehouses were supplied by Green Valley Farm?",
  sorted({d["warehouse"] for d in rows}), len(rows))

# 9 "is the X of"
rows = [s for s in staff if s["unit"] == "Riverside Pantry"]
q("fb08", "generic", "role_of", "Who is the coordinator of Riverside Pantry?",
  sorted(s["person"] for s in rows if s["role"] == "coordinator"), len(rows))

# 10 the three largest
rows = sorted(received("Eastgate Warehouse"), key=lambda d: -d["quantity_kg"])
assert rows[2]["quantity_kg"] > rows[3]["quantity_kg"]
q("fb09", "generic", "top_n", "What are the three largest donations to Eastgate Warehouse?",
  sorted(d["donation_id"] for d in rows[:3]), len(rows))

# 11 superlative over a join (units under a region, each pantry's cap)
subs = [s for s, t, l in below("South Region") if t == "pantry"]
best = max(subs, key=lambda p: pantries[p])
assert sorted(pantries[p] for p in subs)[-1] > sorted(pantries[p] for p in subs)[-2]
q("fb10", "multi-hop", "superlative_join", "Which pantry under South Region has the highest monthly cap?", [best],
  len(below("South Region")) + len(subs))

# 12 condition with a number
rows = received("Millbrook Warehouse")
q("fb11", "generic", "condition", "Which donations to Millbrook Warehouse were more than 500 kg?",
  sorted(d["donation_id"] for d in rows if d["quantity_kg"] > 500), len(rows))

# 13 a period
rows = [d for d in dists if d["pantry"] == "Oak Street Pantry" and d["month"] == "2024-02"]
q("fb12", "generic", "period_total", "What quantity did Oak Street Pantry distribute in February 2024?",
  sum(d["quantity_kg"] for d in rows), len(rows))

# 14 limit yes/no
rows = [d for d in dists if d["pantry"] == "Riverside Pantry" and d["month"] == "2024-02"]
q("fb13", "generic", "limit", "Did Riverside Pantry go over its monthly cap in February 2024?",
  sum(d["quantity_kg"] for d in rows) > pantries["Riverside Pantry"], len(rows) + 1)

# 15 two parts joined by "and"
rows = [s for s in staff if s["unit"] == "Quayside Pantry"]
q("fb14", "generic", "two_parts",
  "What is the monthly cap of Quayside Pantry and how many people work at Quayside Pantry?",
  {"parts": [pantries["Quayside Pantry"], len(rows)]}, len(rows) + 1)

# 16, 17 nothing in the catalog answers these
q("fb15", "generic", "unanswerable", "How many refrigerated trucks does Eastgate Warehouse own?", None, 0)
q("fb16", "generic", "unanswerable", "What are the opening hours of Riverside Pantry?", None, 0)

with open(os.path.join(DATA, "questions.jsonl"), "w") as f:
    for item in questions:
        f.write(json.dumps(item) + "\n")
print(f"wrote {len(questions)} questions")
