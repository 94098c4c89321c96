"""Gold answers of the software_registry questions, computed from the CSV files in data/ (plain Python, no engine).

Run it from anywhere: it rewrites data/questions.jsonl.
"""
import csv
import json
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"


def read(name):
    with open(DATA / name, newline="") as f:
        return list(csv.DictReader(f))


teams = {r["team"]: r for r in read("teams.csv")}
packages = read("packages.csv")
package = {r["package"]: r for r in packages}
dependencies = read("dependencies.csv")
builds = read("builds.csv")
issues = read("issues.csv")
members = read("members.csv")


def owned_by(team):
    return [r for r in packages if r["team"] == team]


def reach(start, edges):
    """{node: shortest level} reached from start along edges (a dict of lists)."""
    level, frontier, depth = {}, [start], 0
    while frontier:
        depth += 1
        nxt = []
        for n in frontier:
            for m in edges[n]:
                if m not in level and m != start:
                    level[m] = depth
                    nxt.append(m)
        frontier = nxt
    return level


forward, backward = defaultdict(list), defaultdict(list)
for r in dependencies:
    forward[r["package"]].append(r["depends_on"])
    backward[r["depends_on"]].append(r["package"])


def unique_top(items, key, n):
    ordered = sorted(items, key=key, reverse=True)
    if len(ordered) > n:
        assert key(ordered[n - 1]) != key(ordered[n]), "tie at the cut"
    return ordered[:n]


questions = []


def q(qid, qtype, template, question, answer, complexity):
    questions.append({"id": qid, "type": qtype, "template": template, "question": question,
                      "answer": answer, "complexity": complexity})


# 1 lookup, "of" phrase
q("sw01", "lookup", "lead_of_team", "Who is the lead of the Identity team?", [teams["Identity"]["lead"]], 1)

# 2 relation, passive voice
rows = owned_by("Search")
q("sw02", "relation", "packages_owned_by", "Which packages are owned by the Search team?",
  [r["package"] for r in rows], len(rows))

# 3 a kind (package kind) as a noun
rows = owned_by("Checkout")
q("sw03", "kind", "kind_owned_by_team", "Which services does the Checkout team own?",
  [r["package"] for r in rows if r["kind"] == "service"], len(rows))

# 4 count of a kind (role)
rows = [r for r in members if r["team"] == "Mobile"]
q("sw04", "count", "count_kind_of_team", "How many testers does the Mobile team have?",
  sum(1 for r in rows if r["role"] == "tester"), len(rows))

# 5 chain, directly
lv = reach("checkout-api", forward)
q("sw05", "hierarchy", "dependencies_direct", "Which packages does checkout-api depend on directly?",
  sorted(p for p, l in lv.items() if l == 1), len(lv))

# 6 chain, every level, counted
lv = reach("payments-gateway", forward)
q("sw06", "hierarchy", "dependencies_any_level_count",
  "How many packages does payments-gateway depend on, directly or indirectly?", len(lv), len(lv))

# 7 reverse chain, every level
lv = reach("query-parser", backward)
q("sw07", "hierarchy", "dependents_any_level",
  "Which packages depend on query-parser, directly or through other packages?", sorted(lv), len(lv))

# 8 count with two kinds (status and severity)
rows = [r for r in issues if r["package"] == "ledger-core"]
q("sw08", "count", "count_two_kinds", "How many open major issues does ledger-core have?",
  sum(1 for r in rows if r["status"] == "open" and r["severity"] == "major"), len(rows))

# 9 share, in percent
rows = [r for r in issues if r["package"] == "spellcheck-plugin"]
share = 100 * sum(1 for r in rows if r["status"] == "open") / len(rows)
q("sw09", "share", "share_open_issues", "What percentage of spellcheck-plugin's issues are still open?",
  round(share, 1), len(rows))

# 10 sum in a month
names = {r["package"] for r in owned_by("Payments")}
rows = [r for r in builds if r["package"] in names and r["month"] == "2024-03"]
q("sw10", "aggregate", "sum_in_month", "How many build minutes did the Payments team use in March 2024?",
  sum(int(r["build_minutes"]) for r in rows), len(rows))

# 11 limit in a month, yes/no
names = {r["package"] for r in owned_by("Data Platform")}
rows = [r for r in builds if r["package"] in names and r["month"] == "2024-04"]
used = sum(int(r["build_minutes"]) for r in rows)
q("sw11", "limit", "monthly_limit_yesno",
  "Did the Data Platform team exceed its monthly build quota in April 2024?",
  used > int(teams["Data Platform"]["monthly_build_quota"]), len(rows) + 1)

# 12 superlative
rows = owned_by("Identity")
top = unique_top(rows, lambda r: int(r["lines_of_code"]), 1)
q("sw12", "superlative", "package_most_code", "Which package of the Identity team has the most lines of code?",
  [r["package"] for r in top], len(rows))

# 13 top-n over a count per package (two tools)
rows = owned_by("Payments")
count = Counter(r["package"] for r in issues)
top = unique_top(rows, lambda r: count[r["package"]], 3)
q("sw13", "superlative", "top_n_issue_count", "Which three packages of the Payments team have the most issues?",
  [r["package"] for r in top], len(rows) + sum(count[r["package"]] for r in rows))

# 14 threshold
rows = owned_by("Search")
q("sw14", "threshold", "packages_above_value",
  "Which packages of the Search team have more than 20,000 lines of code?",
  [r["package"] for r in rows if int(r["lines_of_code"]) > 20000], len(rows))

# 15 two parts
p = package["search-indexer"]
q("sw15", "compound", "language_and_owner",
  "What language is search-indexer written in, and which team owns it?",
  {"parts": [[p["language"]], [p["team"]]]}, 1)

# 16 nothing in the catalog holds costs
q("sw16", "unanswerable", "no_tool_hosting_cost",
  "How much does the Payments team spend on cloud hosting each month?", None, 0)

assert len(questions) == 16 and len({x["id"] for x in questions}) == 16
with open(DATA / "questions.jsonl", "w") as f:
    for x in questions:
        f.write(json.dumps(x) + "\n")
print(f"wrote {len(questions)} questions to {DATA / 'questions.jsonl'}")
