"""Gold answers of the beekeeping_assoc questions, computed from the CSV files in data/ (plain Python, no engine).

Run it from anywhere: it rewrites data/questions.jsonl.
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


apiaries = read("apiaries.csv")
colonies = read("colonies.csv")
harvests = read("harvests.csv")
members = read("members.csv")

apiary = {r["apiary"]: r for r in apiaries}


def colonies_at(a):
    return [r for r in colonies if r["apiary"] == a]


def descendants(root):
    """{colony: level}, the shortest number of splits from root."""
    children = defaultdict(list)
    for r in colonies:
        if r["split_from"]:
            children[r["split_from"]].append(r["colony"])
    level, frontier, depth = {}, [root], 0
    while frontier:
        depth += 1
        nxt = []
        for c in frontier:
            for d in children[c]:
                if d not in level:
                    level[d] = depth
                    nxt.append(d)
        frontier = nxt
    return level


def unique_top(rows, key, n):
    ordered = sorted(rows, key=key, reverse=True)
    if len(ordered) > n:
        assert key(ordered[n - 1]) != key(ordered[n]), "tie at the cut"
    return ordered[:n]


questions = []


def q(qid, qtype, template, question, answer, complexity):
    questions.append({"id": qid, "type": qtype, "template": template, "question": question,
                      "answer": answer, "complexity": complexity})


# 1 lookup: the keeper of an apiary
q("bk01", "lookup", "keeper_of_apiary", "Who keeps Hollybush Apiary?",
  [apiary["Hollybush Apiary"]["keeper"]], 1)

# 2 total over a year
rows = [r for r in harvests if r["apiary"] == "Barcombe Apiary" and r["month"].startswith("2024")]
q("bk02", "aggregate", "sum_in_year", "How much honey did Barcombe Apiary produce in 2024?",
  round(sum(float(r["honey_kg"]) for r in rows), 1), len(rows))

# 3 one month, passive
rows = [r for r in harvests if r["apiary"] == "Forest Row Apiary" and r["month"] == "2024-07"]
q("bk03", "aggregate", "sum_in_month", "How much honey was harvested at Forest Row Apiary in July 2024?",
  round(sum(float(r["honey_kg"]) for r in rows), 1), len(rows))

# 4 superlative
rows = [r for r in members if r["branch"] == "Cuckmere Branch"]
top = unique_top(rows, lambda r: int(r["hives_owned"]), 1)
q("bk04", "superlative", "member_most_hives", "Which member of the Cuckmere Branch owns the most hives?",
  [r["member"] for r in top], len(rows))

# 5 top-n
rows = colonies_at("Hollybush Apiary")
top = unique_top(rows, lambda r: float(r["mite_drop"]), 3)
q("bk05", "superlative", "top_n_mite_drop",
  "Which three colonies at Hollybush Apiary have the highest daily mite drop?",
  [r["colony"] for r in top], len(rows))

# 6 relation, active voice
rows = [r for r in apiaries if r["keeper"] == "Tom Adebayo"]
q("bk06", "relation", "apiaries_keeper_keeps", "Which apiaries does Tom Adebayo keep?",
  [r["apiary"] for r in rows], len(rows))

# 7 relation, passive voice
rows = [r for r in apiaries if r["keeper"] == "Fiona Gaskell"]
q("bk07", "relation", "apiaries_kept_by", "Which apiaries are kept by Fiona Gaskell?",
  [r["apiary"] for r in rows], len(rows))

# 8 a kind (status value) as a noun
rows = [r for r in members if r["branch"] == "Rother Valley Branch"]
q("bk08", "kind", "kind_members_of_branch", "Who are the mentors of the Rother Valley Branch?",
  [r["member"] for r in rows if r["status"] == "mentor"], len(rows))

# 9 count of a kind
rows = [r for r in members if r["branch"] == "Cuckmere Branch"]
q("bk09", "count", "count_kind_of_branch", "How many beginners does the Cuckmere Branch have?",
  sum(1 for r in rows if r["status"] == "beginner"), len(rows))

# 10 chain, directly
lv = descendants("Marigold")
q("bk10", "hierarchy", "split_directly", "Which colonies were split directly from Marigold?",
  sorted(c for c, l in lv.items() if l == 1), len(lv))

# 11 chain, every level, counted
lv = descendants("Bramble")
q("bk11", "hierarchy", "descendants_any_level_count",
  "How many colonies descend from Bramble, directly or indirectly?", len(lv), len(lv))

# 12 threshold
rows = colonies_at("Etchingham Apiary")
q("bk12", "threshold", "colonies_above_value",
  "Which colonies at Etchingham Apiary have a daily mite drop above 10?",
  [r["colony"] for r in rows if float(r["mite_drop"]) > 10], len(rows))

# 13 limit, yes/no
rows = colonies_at("Nutley Allotments Apiary")
q("bk13", "limit", "count_over_limit_yesno",
  "Does Nutley Allotments Apiary hold more colonies than its hive limit?",
  len(rows) > int(apiary["Nutley Allotments Apiary"]["hive_limit"]), len(rows) + 1)

# 14 share of a kind, in percent
rows = colonies_at("Litlington Apiary")
share = 100 * sum(1 for r in rows if r["breed"] == "buckfast") / len(rows)
q("bk14", "share", "share_of_kind", "What percentage of the colonies at Litlington Apiary are Buckfast?",
  round(share, 1), len(rows))

# 15 two parts
rows = colonies_at("Seaford Town Hall Apiary")
q("bk15", "compound", "keeper_and_count",
  "Who keeps Seaford Town Hall Apiary, and how many colonies does it have?",
  {"parts": [[apiary["Seaford Town Hall Apiary"]["keeper"]], len(rows)]}, len(rows) + 1)

# 16 nothing in the catalog holds spending
q("bk16", "unanswerable", "no_tool_spending",
  "How much did the Cuckmere Branch spend on sugar for winter feeding?", None, 0)

assert len(questions) == 16 and len({x["id"] for x in questions}) == 16
with open(DATA / "questions.jsonl", "w") as f:
    for x in questions:
        f.write(json.dumps(x) + "\n")
print(f"wrote {len(questions)} questions to {DATA / 'questions.jsonl'}")
