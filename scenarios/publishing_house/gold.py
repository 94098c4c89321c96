"""Gold answers for the publishing_house questions, computed in plain Python from the CSV files.

Run `python gold.py` to (re)write data/questions.jsonl.
"""
import csv
import json
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"


def read(name):
    with open(DATA / name, newline="") as f:
        return list(csv.DictReader(f))


imprints = read("imprints.csv")
authors = read("authors.csv")
titles = read("titles.csv")
sales = read("sales.csv")
budgets = read("budgets.csv")

unit = {u["imprint"]: u for u in imprints}
children = defaultdict(list)
for u in imprints:
    if u["parent"]:
        children[u["parent"]].append(u["imprint"])
author = {a["author"]: a for a in authors}
title = {t["title"]: t for t in titles}
budget = {b["imprint"]: float(b["advance_budget"]) for b in budgets}


def within(name):
    """Every unit below `name`, at any depth."""
    out, todo = [], list(children[name])
    while todo:
        x = todo.pop()
        out.append(x)
        todo.extend(children[x])
    return out


def titles_of(imprint):
    return [t for t in titles if t["imprint"] == imprint]


def sold(name):
    return sum(int(s["units_sold"]) for s in sales if s["title"] == name)


def sales_rows(name):
    return [s for s in sales if s["title"] == name]


def advances(imprint):
    return sum(float(t["advance"]) for t in titles_of(imprint))


questions = []


def q(type_, template, question, answer, complexity):
    questions.append({"id": f"ph{len(questions) + 1:02d}", "type": type_, "template": template,
                      "question": question, "answer": answer, "complexity": complexity})


# 1. lookup, "X of Y"
q("lookup", "attribute_of_entity", "Who is the publisher of Blackthorn Books?",
  [unit["Blackthorn Books"]["publisher"]], 1)

# 2. kind (unit type) over the hierarchy
fiction = within("Harrowgate Fiction")
q("list", "kind_within", "Which imprints are part of Harrowgate Fiction?",
  sorted(x for x in fiction if unit[x]["imprint_type"] == "imprint"), len(fiction))

# 3. multi-hop over the hierarchy: titles of a division, all its imprints and series
nonfiction = within("Harrowgate Nonfiction")
nf_titles = [t for x in nonfiction for t in titles_of(x)]
q("multi_hop", "count_over_hierarchy",
  "How many titles has Harrowgate Nonfiction published across all its imprints and series?",
  len(nf_titles), len(nonfiction) + len(nf_titles))

# 4. passive voice
q("list", "passive_relation", "Which titles were published by Quayside Books?",
  sorted(t["title"] for t in titles_of("Quayside Books")), len(titles_of("Quayside Books")))

# 5. kind (format)
q("list", "kind_of_entity", "Which hardbacks did Lantern Press publish?",
  sorted(t["title"] for t in titles_of("Lantern Press") if t["format"] == "hardback"), len(titles_of("Lantern Press")))

# 6. possessive "Y's X"
q("lookup", "possessive", "Who is Tomasz Wierzbicki's agent?", [author["Tomasz Wierzbicki"]["agent"]], 1)

# 7. count with a kind (genre)
q("count", "kind_count", "How many fantasy titles does Blackthorn Books have?",
  sum(1 for t in titles_of("Blackthorn Books") if t["genre"] == "fantasy"), len(titles_of("Blackthorn Books")))

# 8. total, passive
q("total", "sum_of_entity", "How many copies of The Salt Road were sold altogether?",
  sold("The Salt Road"), len(sales_rows("The Salt Road")))

# 9. top n
kestrel = sorted(titles_of("Kestrel Editions"), key=lambda t: -sold(t["title"]))
assert sold(kestrel[2]["title"]) > sold(kestrel[3]["title"])  # no tie at the cut
q("list", "top_n", "What are the three best-selling titles of Kestrel Editions?",
  [t["title"] for t in kestrel[:3]], sum(len(sales_rows(t["title"])) for t in kestrel))

# 10. limit, "go over"
q("yes_no", "limit_exceeded", "Did Blackthorn Books go over its advance budget?",
  advances("Blackthorn Books") > budget["Blackthorn Books"], len(titles_of("Blackthorn Books")) + 1)

# 11. limit, "within"
q("yes_no", "limit_within", "Is Quayside Books within its advance budget?",
  advances("Quayside Books") <= budget["Quayside Books"], len(titles_of("Quayside Books")) + 1)

# 12. two parts: lookup + count
q("compound", "lookup_and_count", "Who is the publisher of Kestrel Editions, and how many titles does it have?",
  {"parts": [[unit["Kestrel Editions"]["publisher"]], len(titles_of("Kestrel Editions"))]},
  1 + len(titles_of("Kestrel Editions")))

# 13. two parts: a limit value + a total
q("compound", "limit_and_total",
  "What is Meridian House's advance budget, and how much has it paid out in advances?",
  {"parts": [budget["Meridian House"], advances("Meridian House")]}, 1 + len(titles_of("Meridian House")))

# 14. multi-hop: title -> author -> agent
q("multi_hop", "attribute_of_related", "Which agent represents the author of Cold Harbour?",
  [author[title["Cold Harbour"]["author"]]["agent"]], 2)

# 15-16. nothing in the catalog holds these
q("unanswerable", "missing_data", "How many pages does The Long Field have?", None, 0)
q("unanswerable", "missing_data", "What royalty rate does Mara Quill earn on her ebooks?", None, 0)

assert len(questions) == 16, len(questions)
with open(DATA / "questions.jsonl", "w") as f:
    for x in questions:
        f.write(json.dumps(x) + "\n")
print(f"wrote {len(questions)} questions to {DATA / 'questions.jsonl'}")
