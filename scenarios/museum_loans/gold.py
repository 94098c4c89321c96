"""Gold answers of the museum_loans questions, computed from the CSV files with pandas alone.

Run from anywhere: `python gold.py` writes data/questions.jsonl next to it. Nothing of vadaorchestra is used.
"""
import json
from pathlib import Path

import pandas as pd

HERE = Path(__file__).parent
DATA = HERE / "data"

objects = pd.read_csv(DATA / "objects.csv")
departments = pd.read_csv(DATA / "departments.csv", keep_default_na=False)
institutions = pd.read_csv(DATA / "institutions.csv")
exhibitions = pd.read_csv(DATA / "exhibitions.csv")
loans = pd.read_csv(DATA / "loans.csv")

# every loan with its object's value and the institution hosting the exhibition
full = loans.merge(objects[["object", "insurance_value_gbp", "department"]], on="object") \
            .merge(exhibitions[["exhibition", "host_institution", "indemnity_limit_gbp"]], on="exhibition")
assert len(full) == len(loans)


def num(x):
    x = float(x)
    return int(x) if x.is_integer() else round(x, 2)


def children(dept):
    return sorted(departments.loc[departments.parent_department == dept, "department"])


def descendants(dept):
    out, todo = [], children(dept)
    while todo:
        d = todo.pop()
        out.append(d)
        todo.extend(children(d))
    return out


questions = []


def q(qid, qtype, template, question, answer, complexity):
    questions.append({"id": f"ml{qid:02d}", "type": qtype, "template": template, "question": question,
                      "answer": answer, "complexity": int(complexity)})


# 1 lookup of a number
row = objects[objects.object == "The Harbour at Dieppe"]
assert len(row) == 1
q(1, "lookup", "object_value", "What is the insurance value of The Harbour at Dieppe?",
  num(row.insurance_value_gbp.iloc[0]), 1)

# 2 lookup of a person
row = institutions[institutions.institution == "Kamogawa Museum of Craft"]
q(2, "lookup", "institution_registrar", "Who is the registrar at the Kamogawa Museum of Craft?",
  row.registrar.iloc[0], 1)

# 3 list: objects the department holds itself (Japanese Art has no sub-departments)
assert children("Japanese Art") == []
rows = objects[objects.department == "Japanese Art"]
q(3, "list", "department_objects", "Which objects does the Japanese Art department hold?",
  sorted(rows.object), len(rows))

# 4 count
rows = full[full.host_institution == "Liffey Gallery"]
assert rows.object.is_unique
q(4, "count", "institution_loan_count", "How many of our objects has the Liffey Gallery borrowed?",
  len(rows), len(rows))

# 5 total insurance value lent to one exhibition
rows = full[full.exhibition == "Light on the Water"]
q(5, "total", "exhibition_insured_total",
  "What's the total insurance value of everything we lent to Light on the Water?",
  num(rows.insurance_value_gbp.sum()), len(rows))

# 6 total fees paid by one institution
rows = full[full.host_institution == "Museum Het Spaarne"]
assert rows.exhibition.nunique() > 1
q(6, "total", "institution_fees", "How much has Museum Het Spaarne paid us in loan fees?",
  num(rows.loan_fee_gbp.sum()), len(rows))

# 7 top three by value within one department (no sub-departments, no ties at the cut)
assert children("Dutch and Flemish Paintings") == []
rows = objects[objects.department == "Dutch and Flemish Paintings"].sort_values("insurance_value_gbp", ascending=False)
assert rows.insurance_value_gbp.iloc[2] > rows.insurance_value_gbp.iloc[3]
q(7, "top_n", "department_top3_value", "What are the three most valuable objects in Dutch and Flemish Paintings?",
  list(rows.object.iloc[:3]), len(rows))

# 8 extreme: the institution with the most objects on loan (count of loans per host institution)
counts = full.groupby("host_institution").size().sort_values(ascending=False)
assert counts.iloc[0] > counts.iloc[1]
q(8, "extreme", "most_objects_borrowed", "Which institution has borrowed the most objects from us?",
  counts.index[0], len(full))

# 9 share of an exhibition's indemnity limit taken up by the insurance values of our loans
rows = full[full.exhibition == "Threads of Empire"]
limit = exhibitions.loc[exhibitions.exhibition == "Threads of Empire", "indemnity_limit_gbp"].iloc[0]
share = 100 * rows.insurance_value_gbp.sum() / limit
q(9, "share", "indemnity_share",
  "What share of the Threads of Empire indemnity limit do our loans take up?",
  round(share, 1), len(rows) + 1)

# 10 limit check over every exhibition
totals = full.groupby("exhibition").agg(total=("insurance_value_gbp", "sum"), limit=("indemnity_limit_gbp", "first"))
over = totals[totals.total > totals.limit]
q(10, "limit", "exhibitions_over_indemnity",
  "Which exhibitions have more insurance value on loan from us than their indemnity limit?",
  sorted(over.index), len(full) + len(exhibitions))

# 11 hierarchy, first level only
kids = children("Fine Art")
q(11, "hierarchy", "direct_sub_departments", "Which departments sit directly under Fine Art?", kids, len(kids))

# 12 hierarchy at any depth: objects of World Cultures and of every department beneath it
scope = ["World Cultures"] + descendants("World Cultures")
rows = objects[objects.department.isin(scope)]
q(12, "hierarchy", "holdings_any_depth",
  "How many objects does World Cultures hold, counting all of its sub-departments?",
  len(rows), len(rows) + len(scope) - 1)

# 13 two hops: the registrars of the institutions that borrowed one object
rows = full[full.object == "Portrait of a Young Man in Black"]
regs = institutions[institutions.institution.isin(rows.host_institution)]
q(13, "multi_hop", "registrars_of_borrowers",
  "Who are the registrars of the institutions that have borrowed Portrait of a Young Man in Black?",
  sorted(regs.registrar), len(rows) + len(regs))

# 14 yes/no: does one exhibition stay within its indemnity limit
rows = full[full.exhibition == "Northern Light"]
limit = exhibitions.loc[exhibitions.exhibition == "Northern Light", "indemnity_limit_gbp"].iloc[0]
q(14, "yes_no", "within_indemnity",
  "Does the insurance value of our loans to Northern Light stay within its indemnity limit?",
  bool(rows.insurance_value_gbp.sum() <= limit), len(rows) + 1)

# 15 two parts: the objects lent to an exhibition, and their fees in total
rows = full[full.exhibition == "Sea and Sky"]
q(15, "two_part", "exhibition_objects_and_fees",
  "Which objects did we lend to Sea and Sky, and what did the loan fees for them come to in total?",
  {"parts": [sorted(rows.object), num(rows.loan_fee_gbp.sum())]}, len(rows))

# 16 a month: objects dispatched to one institution in April 2024
rows = full[(full.host_institution == "Musee de la Saone") & full.dispatch_date.str.startswith("2024-04")]
assert len(rows) < (full.host_institution == "Musee de la Saone").sum()   # the month matters
q(16, "period", "dispatches_in_month",
  "How many objects did we dispatch to the Musee de la Saone in April 2024?", len(rows), len(rows))

assert len(questions) == 16
with open(DATA / "questions.jsonl", "w") as f:
    for item in questions:
        f.write(json.dumps(item) + "\n")
print(f"wrote {len(questions)} questions to {DATA / 'questions.jsonl'}")
