"""Gold answers for the translation_agency questions, computed from the CSV files in data/ with plain Python.

Run `python gold.py` to (re)write data/questions.jsonl.
"""
import csv
import json
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"


def rows(name):
    with open(DATA / name, newline="") as f:
        return list(csv.DictReader(f))


translators = rows("translators.csv")
mentoring = rows("mentoring.csv")
clients = rows("clients.csv")
jobs = rows("jobs.csv")
for t in translators:
    t["rate_eur_per_word"] = float(t["rate_eur_per_word"])
    t["monthly_word_cap"] = int(t["monthly_word_cap"])
for j in jobs:
    j["words"] = int(j["words"])
    j["fee_eur"] = int(j["fee_eur"])

translator = {t["translator"]: t for t in translators}
client = {c["client"]: c for c in clients}


def jobs_of_translator(name):
    return [j for j in jobs if j["translator"] == name]


def jobs_of_client(name):
    return [j for j in jobs if j["client"] == name]


def team(office):
    return [t for t in translators if t["office"] == office]


def mentees(mentor):
    """Translators mentored by `mentor` at any level, with the shortest level."""
    level = {}
    frontier = [mentor]
    depth = 0
    while frontier:
        depth += 1
        nxt = []
        for m in frontier:
            for link in mentoring:
                if link["mentor"] == m and link["translator"] not in level:
                    level[link["translator"]] = depth
                    nxt.append(link["translator"])
        frontier = nxt
    return level


def words_in_month(name, month):
    js = [j for j in jobs_of_translator(name) if j["month"] == month]
    return sum(j["words"] for j in js), len(js)


def pct(part, whole):
    return round(100.0 * part / whole, 1)


questions = []


def q(qid, qtype, template, question, answer, complexity):
    questions.append({"id": qid, "type": qtype, "template": template, "question": question,
                      "answer": answer, "complexity": complexity})


# t01 lookup
q("tra-01", "lookup", "who_of", "Who is the account manager of Halden Pharma?",
  [client["Halden Pharma"]["account_manager"]], 1)

# t02 sum over a client's jobs
js = jobs_of_client("Brightwater Legal")
q("tra-02", "aggregate", "total_fee", "What is the total fee billed to Brightwater Legal?",
  sum(j["fee_eur"] for j in js), len(js))

# t03 superlative over an office's team
tm = team("Lisbon")
best = max(tm, key=lambda t: t["rate_eur_per_word"])
assert sum(1 for t in tm if t["rate_eur_per_word"] == best["rate_eur_per_word"]) == 1
q("tra-03", "superlative", "highest_in_group",
  "Which translator of the Lisbon office charges the highest rate per word?", [best["translator"]], len(tm))

# t04 top-N jobs of a client by words
js = sorted(jobs_of_client("Halden Pharma"), key=lambda j: -j["words"])
assert js[2]["words"] > js[3]["words"]
q("tra-04", "top_n", "top3_by_column", "What are the three longest jobs of Halden Pharma by word count?",
  [j["job_id"] for j in js[:3]], len(js))

# t05 active relation: translators who worked for a client
js = jobs_of_client("Brightwater Legal")
q("tra-05", "relation", "active_list", "Which translators worked for Brightwater Legal?",
  sorted({j["translator"] for j in js}), len(js))

# t06 passive relation: clients served by a translator
js = jobs_of_translator("Mirela Constantin")
q("tra-06", "relation", "passive_list", "Which clients were served by Mirela Constantin?",
  sorted({j["client"] for j in js}), len(js))

# t07 hierarchy: directly
lv = mentees("Ingrid Solberg")
direct = sorted(t for t, l in lv.items() if l == 1)
q("tra-07", "hierarchy", "direct_only", "Whom does Ingrid Solberg mentor directly?", direct, len(direct))

# t08 hierarchy: any level, counted
q("tra-08", "hierarchy", "count_any_level",
  "How many translators are mentored by Ingrid Solberg, directly or indirectly?", len(lv), len(lv))

# t09 kind as a noun, counted
js = jobs_of_translator("Kaito Mori")
legal = [j for j in js if j["subject"] == "legal"]
q("tra-09", "kind", "count_of_kind", "How many legal jobs did Kaito Mori do?", len(legal), len(js))

# t10 threshold over a number column
js = jobs_of_client("Halden Pharma")
big = sorted(j["job_id"] for j in js if j["words"] > 12000)
q("tra-10", "threshold", "above_value", "Which jobs of Halden Pharma had more than 12,000 words?", big, len(js))

# t11 limit yes/no in a month
total, n = words_in_month("Mirela Constantin", "2024-03")
q("tra-11", "limit", "yes_no_month", "Did Mirela Constantin exceed her monthly word cap in March 2024?",
  total > translator["Mirela Constantin"]["monthly_word_cap"], n + 1)

# t12 limit: which translators of an office went over in a month
over = []
used = 0
for t in team("Porto"):
    total, n = words_in_month(t["translator"], "2024-02")
    used += n + 1
    if total > t["monthly_word_cap"]:
        over.append(t["translator"])
q("tra-12", "limit", "which_exceed_month",
  "Which translators of the Porto office went over their monthly word cap in February 2024?", sorted(over), used)

# t13 a month's total
total, n = words_in_month("Kaito Mori", "2024-01")
q("tra-13", "period", "sum_in_month", "How many words did Kaito Mori translate in January 2024?", total, n)

# t14 share of a kind
js = jobs_of_client("Halden Pharma")
medical = [j for j in js if j["subject"] == "medical"]
q("tra-14", "share", "percentage_of_kind", "What percentage of Halden Pharma's jobs were medical jobs?",
  pct(len(medical), len(js)), len(js))

# t15 compound, two independent parts
t = translator["Ana Ribeiro"]
q("tra-15", "compound", "two_lookups", "Which office is Ana Ribeiro based in, and what is her rate per word?",
  {"parts": [[t["office"]], t["rate_eur_per_word"]]}, 1)

# t16 no tool records time spent on a job
q("tra-16", "unanswerable", "no_tool", "How many hours did Kaito Mori spend on job TJ-1027?", None, 0)

with open(DATA / "questions.jsonl", "w") as out:
    for item in questions:
        out.write(json.dumps(item) + "\n")
print(f"wrote {len(questions)} questions to {DATA / 'questions.jsonl'}")
