"""Gold answers of the construction_firm questions, computed in plain Python from the CSV files.

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


projects = read("projects.csv")
wbs = read("wbs.csv")
invoices = read("invoices.csv")
subs = read("subcontractors.csv")
team = read("project_team.csv")
for p in projects:
    p["contract_value_gbp"] = float(p["contract_value_gbp"])
for w in wbs:
    w["budget_gbp"] = float(w["budget_gbp"])
for i in invoices:
    i["amount_gbp"] = float(i["amount_gbp"])


def num(x):
    x = round(x, 2)
    return int(x) if x == int(x) else x


def below(node):
    """Every work item anywhere below `node`, as (item row, level)."""
    out, frontier, level = [], [node], 1
    while frontier:
        nxt = [w for w in wbs if w["parent"] in frontier]
        out += [(w, level) for w in nxt]
        frontier = [w["node"] for w in nxt]
        level += 1
    return out


def invoices_under(node):
    items = {node} | {w["node"] for w, _ in below(node)}
    return [i for i in invoices if i["node"] in items]


def project(name):
    return next(p for p in projects if p["project"] == name)


questions = []


def q(qid, qtype, template, question, answer, complexity):
    questions.append({"id": qid, "type": qtype, "template": template, "question": question,
                      "answer": answer, "complexity": complexity})


# 1. simple lookup
q("cf01", "lookup", "attribute_of_entity", "What is the contract value of Riverside Bridge?",
  num(project("Riverside Bridge")["contract_value_gbp"]), 1)

# 2. count of a kind, anywhere under a project (recursive)
items = below("Riverside Bridge")
tasks = [w for w, _ in items if w["node_type"] == "task"]
q("cf02", "count", "count_kind_anywhere_under", "How many tasks are there anywhere under Riverside Bridge?",
  len(tasks), len(items))

# 3. directly under an item
items = [w for w, lvl in below("Northgate School Structure") if lvl == 1]
q("cf03", "list", "directly_under", "Which packages sit directly under the Northgate School Structure phase?",
  sorted(w["node"] for w in items if w["node_type"] == "package"), len(items))

# 4. total along the chain, joining the breakdown with the invoices
rows = invoices_under("Riverside Bridge Substructure")
q("cf04", "total", "total_anywhere_under", "What is the total amount invoiced under Riverside Bridge Substructure?",
  num(sum(i["amount_gbp"] for i in rows)), len(rows) + len(below("Riverside Bridge Substructure")))

# 5. two kinds restrict the answer (trade and item type)
items = below("Harbour View Apartments")
rows = [w for w, _ in items if w["trade"] == "concrete" and w["node_type"] == "package"]
q("cf05", "list", "kind_under_unit", "Which concrete packages does Harbour View Apartments have?",
  sorted(w["node"] for w in rows), len(items))

# 6. relation, active voice
rows = [t for t in team if t["person"] == "Priya Nair"]
q("cf06", "list", "relation_active", "Which projects does Priya Nair work on?",
  sorted(t["project"] for t in rows), len(rows))

# 7. relation, passive voice
rows = [p for p in projects if p["office"] == "Newcastle Office"]
q("cf07", "list", "relation_passive", "Which projects are run by the Newcastle Office?",
  sorted(p["project"] for p in rows), len(rows))

# 8. "is the X of"
rows = [t for t in team if t["project"] == "Northgate School" and t["role"] == "site manager"]
q("cf08", "lookup", "relation_is_the_x_of", "Who is the site manager of Northgate School?",
  [t["person"] for t in rows], 1)

# 9. the three largest
rows = sorted((p for p in projects if p["office"] == "Manchester Office"), key=lambda p: -p["contract_value_gbp"])
assert rows[2]["contract_value_gbp"] > rows[3]["contract_value_gbp"]
q("cf09", "top_n", "three_largest", "What are the three largest projects of the Manchester Office by contract value?",
  [p["project"] for p in rows[:3]], len(rows))

# 10. superlative
phases = sorted((w for w, lvl in below("Riverside Bridge") if lvl == 1), key=lambda w: -w["budget_gbp"])
assert phases[0]["budget_gbp"] > phases[1]["budget_gbp"]
q("cf10", "superlative", "largest", "Which phase of Riverside Bridge has the largest budget?",
  [phases[0]["node"]], len(phases))

# 11. condition with a number
items = below("Harbour View Apartments")
rows = [w for w, _ in items if w["node_type"] == "package" and w["budget_gbp"] > 1_000_000]
q("cf11", "list", "condition_number",
  "Which packages under Harbour View Apartments have a budget of more than 1,000,000 GBP?",
  sorted(w["node"] for w in rows), len(items))

# 12. a period
rows = [i for i in invoices_under("Harbour View Apartments") if i["invoice_date"].startswith("2024-05")]
q("cf12", "total", "period", "How much was invoiced under Harbour View Apartments in May 2024?",
  num(sum(i["amount_gbp"] for i in rows)), len(rows))

# 13. within / over a limit (yes/no), joining the invoices below an item with the item's budget
rows = invoices_under("Northgate School Structure")
b = next(w for w in wbs if w["node"] == "Northgate School Structure")["budget_gbp"]
q("cf13", "limit", "within_limit", "Did the invoices under Northgate School Structure stay within its budget?",
  sum(i["amount_gbp"] for i in rows) <= b, len(rows) + 1)

# 14. two parts joined by "and"
pm = [t["person"] for t in team if t["project"] == "Harbour View Apartments" and t["role"] == "project manager"]
q("cf14", "multi_part", "two_parts",
  "Who is the project manager of Harbour View Apartments, and what is its contract value?",
  {"parts": [pm, num(project("Harbour View Apartments")["contract_value_gbp"])]}, 2)

# 15-16. questions no tool of the catalog can answer
q("cf15", "unanswerable", "no_tool", "How many site accidents were reported on Riverside Bridge in 2024?", None, 0)
q("cf16", "unanswerable", "no_tool", "How many days of weather delay has Harbour View Apartments had?", None, 0)

with open(DATA / "questions.jsonl", "w") as f:
    for item in questions:
        f.write(json.dumps(item) + "\n")
print(f"wrote {len(questions)} questions to {DATA / 'questions.jsonl'}")
