"""Gold answers for campaign_finance, computed from the CSV files with pandas alone."""
import json
from pathlib import Path
import pandas as pd

HERE = Path(__file__).parent
D = HERE / "data"
units = pd.read_csv(D / "units.csv", keep_default_na=False)
seats = pd.read_csv(D / "constituencies.csv")
cands = pd.read_csv(D / "candidates.csv")
donors = pd.read_csv(D / "donors.csv")
don = pd.read_csv(D / "donations.csv")
exp = pd.read_csv(D / "expenses.csv")
don["month"] = don.received_on.str[:7]
exp["month"] = exp.incurred_on.str[:7]
S = seats.set_index("constituency")
UT = units.set_index("unit").unit_type


def below(unit):
    out, frontier, lvl = {}, [unit], 0
    while frontier:
        lvl += 1
        nxt = units[units.parent_unit.isin(frontier)].unit.tolist()
        for s in nxt:
            out.setdefault(s, lvl)
        frontier = nxt
    return out


def money(x):
    x = round(float(x), 2)
    return int(x) if x.is_integer() else x


def unique_top(series, largest=True):
    s = series.sort_values(ascending=not largest)
    assert len(s) < 2 or s.iloc[0] != s.iloc[1], "tie"
    return s.index[0]


Q = []


def q(i, typ, tpl, text, ans, cx):
    Q.append({"id": f"CF{i:02d}", "type": typ, "template": tpl, "question": text, "answer": ans, "complexity": int(cx)})


# 1 lookup of a profile attribute
q(1, "lookup", "lookup_attr", "Who is acting as election agent for the Linton Fields campaign?", S.agent["Linton Fields"], 1)

# 2 list of related things
c2 = "Marlow Heath"
x2 = exp[exp.constituency == c2]
q(2, "list", "list_related", f"Which suppliers has the {c2} campaign bought from?", sorted(x2.supplier.unique().tolist()), len(x2))

# 3 count
b3 = "Chalkpit Ward Branch"
n3 = int((don.recipient_unit == b3).sum())
q(3, "count", "count_rows", f"How many donations has {b3} taken in so far?", n3, n3)

# 4 total over a thing's events
c4 = "Kestrel Vale"
x4 = exp[exp.constituency == c4]
q(4, "total", "sum_amount", f"What has the {c4} campaign spent altogether, in pounds?", money(x4.amount_gbp.sum()), len(x4))

# 5 extreme
c5 = "Hadley Moor"
x5 = exp[exp.constituency == c5].groupby("supplier").amount_gbp.sum()
q(5, "extreme", "max_group_total", f"Which supplier has the {c5} campaign spent the most money with?", unique_top(x5), len(exp[exp.constituency == c5]))

# 6 top-3
tot = don.groupby("donor").amount_gbp.sum().sort_values(ascending=False)
assert tot.iloc[2] != tot.iloc[3]
q(6, "top_n", "top3_total", "Who are the party's three biggest donors by total amount given?", sorted(tot.index[:3].tolist()), len(don))

# 7 share / percentage
c7 = "Ashby Downs"
x7 = exp[exp.constituency == c7]
share7 = round(100 * x7[x7.category == "leaflets"].amount_gbp.sum() / x7.amount_gbp.sum(), 1)
q(7, "share", "share_of_category", f"What percentage of the {c7} campaign's spending went on leaflets?", share7, len(x7))

# 8 limit check
spent = exp.groupby("constituency").amount_gbp.sum()
over = sorted([c for c in spent.index if spent[c] > S.spending_limit_gbp[c]])
assert 0 < len(over) < len(spent)
q(8, "limit", "over_cap", "Which constituency campaigns have gone over their spending limit?", over, len(exp) + len(seats))

# 9 direct children
r9 = "Severn Region"
kids = sorted([u for u, lv in below(r9).items() if lv == 1])
q(9, "hierarchy", "direct_children", f"Which constituencies sit directly under the {r9}?", kids, len(kids))

# 10 any depth, one kind
r10 = "Weald Region"
b10 = below(r10)
n10 = sum(1 for u in b10 if UT[u] == "branch")
q(10, "hierarchy", "any_depth_count_kind", f"How many ward branches does the {r10} have in total, across all its constituencies?", n10, len(b10))

# 11 multi-hop: a branch's donations joined with the donors' profiles
b11 = "Castle Ward Branch"
d11 = don[don.recipient_unit == b11].merge(donors, on="donor")
q(11, "multi_hop", "related_filtered_by_kind", f"Which of the donors who gave to {b11} are companies?",
  sorted(d11[d11.donor_type == "company"].donor.unique().tolist()), len(d11) + d11.donor.nunique())

# 12 yes/no
p12, b12 = "Harriet Colborne", "Riverside Ward Branch"
d12 = don[don.donor == p12]
q(12, "yes_no", "ever_related_yn", f"Has {p12} ever given money to {b12}?", bool((d12.recipient_unit == b12).any()), len(d12))

# 13 two-part
b13 = "Millbrook Ward Branch"
d13 = don[don.recipient_unit == b13]
q(13, "two_part", "count_and_sum", f"How many donations did {b13} receive, and what did they come to in total?",
  {"parts": [len(d13), money(d13.amount_gbp.sum())]}, len(d13))

# 14 period
c14 = "Brackwater"
x14 = exp[(exp.constituency == c14) & (exp.month == "2024-05")]
q(14, "period", "sum_month", f"How much did the {c14} campaign spend in May 2024?", money(x14.amount_gbp.sum()), len(x14))

# 15 numeric filter
b15 = "Abbey Ward Branch"
d15 = don[(don.recipient_unit == b15)]
q(15, "filter", "numeric_condition", f"Which donors gave {b15} more than £3,000 in a single donation?",
  sorted(d15[d15.amount_gbp > 3000].donor.unique().tolist()), len(d15))

# 16 unanswerable: no tool holds election results
q(16, "unanswerable", "no_tool", "How many votes did the party's candidate in Kestrel Vale win at the last general election?", None, 0)

with open(D / "questions.jsonl", "w") as f:
    for x in Q:
        f.write(json.dumps(x) + "\n")
print(len(Q), "questions")
