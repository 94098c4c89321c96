"""Gold answers for patent_office, computed from the CSV files with pandas alone (never with the engine)."""
import json
from pathlib import Path
import pandas as pd

HERE = Path(__file__).parent
D = HERE / "data"
if not (D / "fees.csv").exists():
    import generate
    generate.write(HERE)
units = pd.read_csv(D / "units.csv", keep_default_na=False)
ex = pd.read_csv(D / "examiners.csv")
apc = pd.read_csv(D / "applicants.csv")
app = pd.read_csv(D / "applications.csv")
fee = pd.read_csv(D / "fees.csv")
EX = ex.set_index("examiner")
AP = apc.set_index("applicant")


def below(unit):
    out, frontier, lvl = {}, [unit], 0
    while frontier:
        lvl += 1
        nxt = units[units.parent_unit.isin(frontier)].unit.tolist()
        for s in nxt:
            out.setdefault(s, lvl)
        frontier = nxt
    return out


def unique_top(series, largest=True):
    s = series.sort_values(ascending=not largest)
    assert len(s) < 2 or s.iloc[0] != s.iloc[1], "tie"
    return s.index[0]


def unique_top_n(series, n):
    s = series.sort_values(ascending=False)
    assert len(s) <= n or s.iloc[n - 1] != s.iloc[n], "tie at the boundary"
    return list(s.index[:n])


def apps_of(applicant):
    return app[app.applicant == applicant]


def fees_of(applicant):
    return fee[fee.application_id.isin(apps_of(applicant).application_id)]


Q = []


def q(i, typ, tpl, text, ans, cx):
    Q.append({"id": f"PO{i:02d}", "type": typ, "template": tpl, "question": text, "answer": ans, "complexity": int(cx)})


# 1 lookup of a profile attribute
q(1, "lookup", "profile_attribute", "Which examining group is Clara Okabe in?", EX.loc["Clara Okabe", "examining_group"], 1)

# 2 list of related things
g2 = ex[ex.examining_group == "Ceramics Group"]
q(2, "list", "related_list", "Who are the examiners in the Ceramics Group?", sorted(g2.examiner), len(g2))

# 3 count
a3 = apps_of("Lumen Semiconductor")
q(3, "count", "count_events", "How many patent applications has Lumen Semiconductor filed with us?", len(a3), len(a3))

# 4 total over a thing's events
f4 = fees_of("Kestrel Dynamics")
q(4, "aggregate", "total_amount", "How much has Kestrel Dynamics paid in fees altogether?",
  round(float(f4.amount_gbp.sum()), 2), len(f4))

# 5 extreme
a5 = apps_of("Kestrel Dynamics").set_index("application_id").claims
q(5, "superlative", "extreme", "Which of Kestrel Dynamics' applications has the most claims?", unique_top(a5), len(a5))

# 6 top-3
pend = app[app.status == "pending"].groupby("examiner").size()
q(6, "superlative", "top_n", "Which three examiners are sitting on the most pending applications right now?",
  unique_top_n(pend, 3), int(pend.sum()))

# 7 share
a7 = apps_of("Aurelia Pharma")
q(7, "share", "percentage", "What percentage of Aurelia Pharma's applications ended up being granted?",
  round(100.0 * (a7.status == "granted").sum() / len(a7), 1), len(a7))

# 8 limit check
over = pend[pend > EX.max_docket.reindex(pend.index)]
q(8, "limit", "over_limit", "Which examiners are carrying more pending applications than their docket limit allows?",
  sorted(over.index), int(pend.sum()) + len(ex))

# 9 direct children in the hierarchy
b9 = below("Engineering Directorate")
q(9, "hierarchy", "direct_children", "Which divisions come directly under the Engineering Directorate?",
  sorted(u for u, l in b9.items() if l == 1), len(b9))

# 10 things at any depth below a unit, of one kind
b10 = below("Electronics Directorate")
g10 = [u for u in b10 if units.set_index("unit").loc[u, "unit_type"] == "group"]
q(10, "hierarchy", "any_depth_count", "How many examining groups are there in the Electronics Directorate altogether?",
  len(g10), len(b10))

# 11 multi-hop: applicant's applications -> their examiners -> the examiners' groups
e11 = sorted(set(a3.examiner))
q(11, "multi-hop", "join_two_tools",
  "Which examining groups do the examiners handling Lumen Semiconductor's applications belong to?",
  sorted(set(EX.loc[e11, "examining_group"])), len(a3) + len(e11))

# 12 yes/no
q(12, "yes_no", "any_event_of_kind", "Has Lumen Semiconductor ever had an application refused?",
  bool((a3.status == "refused").any()), len(a3))

# 13 two-part
a13 = apps_of("Tanaka Optical Works")
q(13, "two_part", "attribute_and_count",
  "Where is Tanaka Optical Works based, and how many applications has it filed?",
  {"parts": [AP.loc["Tanaka Optical Works", "country"], len(a13)]}, 1 + len(a13))

# 14 restricted to a period (a year)
f14 = fees_of("Aurelia Pharma")
f14y = f14[f14.paid_on.str.startswith("2023")]
q(14, "aggregate", "total_in_period", "What did Aurelia Pharma pay in fees during 2023?",
  round(float(f14y.amount_gbp.sum()), 2), len(f14))

# 15 filter with a numeric condition
a15 = a3[a3.claims > 20]
q(15, "filter", "numeric_condition", "Which of Lumen Semiconductor's applications have more than 20 claims?",
  sorted(a15.application_id), len(a3))

# 16 unanswerable: no tool holds salaries
q(16, "unanswerable", "no_tool", "What is Priya Qureshi's annual salary?", None, 0)

assert len(Q) == 16
with open(D / "questions.jsonl", "w") as f:
    for x in Q:
        f.write(json.dumps(x) + "\n")
print(len(Q), "questions")
