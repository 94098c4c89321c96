"""Gold answers for scout_association, computed from the CSV files with pandas alone."""
import json
from pathlib import Path
import pandas as pd

HERE = Path(__file__).parent
D = HERE / "data"
units = pd.read_csv(D / "units.csv", keep_default_na=False)
mem = pd.read_csv(D / "members.csv")
bk = pd.read_csv(D / "camp_bookings.csv")
cs = pd.read_csv(D / "campsites.csv")
bk["month"] = bk.start_date.str[:7]
U = units.set_index("unit")


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


Q = []


def q(i, typ, tpl, text, ans, cx):
    Q.append({"id": f"SA{i:02d}", "type": typ, "template": tpl, "question": text, "answer": ans, "complexity": int(cx)})


q(1, "lookup", "lookup_limit", "What's the biggest party Gorsey Bank Camp will accept on a single booking?",
  int(cs.set_index("campsite").max_headcount["Gorsey Bank Camp"]), 1)
m2 = mem.iloc[137].member
q(2, "lookup", "lookup_attr", f"Which section is {m2} a member of?", mem.iloc[137].section, 1)
s3 = "2nd Brackenfield Cubs"
b3 = bk[bk.section == s3]
q(3, "list", "list_related", f"Which campsites has {s3} booked to camp at?", sorted(b3.campsite.unique().tolist()), len(b3))
s4 = "4th Cressing Cubs"
q(4, "count", "count_rows", f"How many young people are on the roll of {s4}?", int((mem.section == s4).sum()),
  int((mem.section == s4).sum()))
b5 = bk[bk.campsite == "Pinewood Hollow"]
q(5, "total", "sum_amount", "How much did Pinewood Hollow take in camp fees altogether, in pounds?", round(float(b5.fee_gbp.sum()), 2), len(b5))
fees = bk.groupby("section").fee_gbp.sum().sort_values(ascending=False)
assert fees.iloc[2] != fees.iloc[3]
q(6, "top_n", "top3_total", "Which three sections spent the most on camp fees overall?", sorted(fees.index[:3].tolist()), len(bk))
s7 = "1st Cressing Scouts"
m7 = mem[mem.section == s7].set_index("member").joined_on
q(7, "extreme", "earliest_date", f"Who has been a member of {s7} the longest?", unique_top(m7, largest=False), len(m7))
q(8, "share", "share_of_total", "What percentage of all camp fees paid across the association went to Heron Lake Campsite?",
  round(100 * bk[bk.campsite == "Heron Lake Campsite"].fee_gbp.sum() / bk.fee_gbp.sum(), 1), len(bk))
roll = mem.groupby("section").size()
over = sorted([s for s in roll.index if roll[s] > U.max_members[s]])
q(9, "limit", "over_cap", "Which sections have more members on their roll than their membership ceiling allows?", over,
  len(mem) + len(roll))
q(10, "hierarchy", "direct_children", "Which scout groups sit directly under Cressing District?",
  sorted([u for u, l in below("Cressing District").items() if l == 1]), 2)
b11 = below("Greater Hollin County")
q(11, "hierarchy", "any_depth_count", "How many units are there beneath Greater Hollin County, counting every level down?",
  len(b11), len(b11))
g12 = "2nd Dunstable Vale Scout Group"
secs = list(below(g12))
b12 = bk[bk.section.isin(secs)]
q(12, "multi_hop", "related_via_hierarchy", f"At which campsites have the sections of {g12} held camps?",
  sorted(b12.campsite.unique().tolist()), len(b12) + len(secs))
site13 = "Gorsey Bank Camp"
b13 = bk[bk.campsite == site13]
cap13 = int(cs.set_index("campsite").max_headcount[site13])
q(13, "yes_no", "any_over_cap_yn", f"Has {site13} ever taken a booking with a bigger headcount than the largest party it accepts?",
  bool((b13.headcount > cap13).any()), len(b13) + 1)
g14 = "1st Cressing Scout Group"
b14 = bk[bk.section.isin(list(below(g14)))]
q(14, "two_part", "count_and_sum", f"Across the sections of {g14}, how many camp bookings were made, and how many nights did they book in total?",
  {"parts": [len(b14), int(b14.nights.sum())]}, len(b14))
b15 = bk[bk.month == "2024-07"]
q(15, "period", "count_month", "How many camp bookings started in July 2024?", len(b15), len(b15))
s16 = "3rd Alderbrook Cubs"
m16 = mem[mem.section == s16]
q(16, "average", "avg_attr", f"What is the average age of the members of {s16}, in years?", round(float(m16.age_years.mean()), 1), len(m16))

with open(D / "questions.jsonl", "w") as f:
    for x in Q:
        f.write(json.dumps(x) + "\n")
print(len(Q), "questions")
