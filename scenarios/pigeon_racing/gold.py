"""Gold answers for pigeon_racing, computed from the CSV files with pandas alone."""
import json
from pathlib import Path
import pandas as pd

HERE = Path(__file__).parent
D = HERE / "data"
units = pd.read_csv(D / "units.csv", keep_default_na=False)
lofts = pd.read_csv(D / "lofts.csv")
pig = pd.read_csv(D / "pigeons.csv")
races = pd.read_csv(D / "races.csv")
ent = pd.read_csv(D / "race_entries.csv")
ent["month"] = ent.race_date.str[:7]
L = lofts.set_index("loft")


def below(unit):
    out, frontier, lvl = {}, [unit], 0
    while frontier:
        lvl += 1
        nxt = units[units.parent_unit.isin(frontier)].unit.tolist()
        for s in nxt:
            out.setdefault(s, lvl)
        frontier = nxt
    return out


def num(x):
    x = float(x)
    return int(x) if x.is_integer() else round(x, 2)


def unique_top(series, largest=True):
    s = series.sort_values(ascending=not largest)
    assert len(s) < 2 or s.iloc[0] != s.iloc[1], "tie"
    return s.index[0]


Q = []


def q(i, typ, tpl, text, ans, cx):
    Q.append({"id": f"PR{i:02d}", "type": typ, "template": tpl, "question": text, "answer": ans, "complexity": int(cx)})


# 1 lookup of a profile attribute
q(1, "lookup", "lookup_attr", "Which fancier keeps the birds at Sandpit Loft?", L.fancier["Sandpit Loft"], 1)

# 2 list of related things
p2 = "Blue Arrow"
e2 = ent[ent.pigeon == p2]
q(2, "list", "list_related", f"Which races has {p2} been entered in?", sorted(e2.race.unique().tolist()), len(e2))

# 3 count
l3 = "Windpump Loft"
n3 = int((pig.loft == l3).sum())
q(3, "count", "count_rows", f"How many pigeons are housed at {l3} at the moment?", n3, n3)

# 4 total over a thing's events
l4 = "Old Forge Loft"
e4 = ent[ent.loft == l4]
q(4, "total", "sum_amount", f"How much prize money did the birds of {l4} win over the whole season, in pounds?",
  num(e4.prize_gbp.sum()), len(e4))

# 5 extreme
r5 = "Darlington Cup"
e5 = ent[ent.race == r5].set_index("pigeon").velocity_mpm
q(5, "extreme", "max_amount", f"Which bird clocked the fastest velocity in the {r5}?", unique_top(e5), len(e5))

# 6 top-3
tot = ent.groupby("loft").prize_gbp.sum().sort_values(ascending=False)
assert tot.iloc[2] != tot.iloc[3]
q(6, "top_n", "top3_total", "Name the three lofts that collected the most prize money this season.",
  sorted(tot.index[:3].tolist()), len(ent))

# 7 share / percentage
c7 = "Thetford Premier Club"
l7 = [u for u, lv in below(c7).items()]
e7 = ent[ent.loft.isin(l7)]
share7 = round(100 * e7[e7.loft == "Priory Loft"].prize_gbp.sum() / e7.prize_gbp.sum(), 1)
q(7, "share", "share_of_group", f"What percentage of the prize money won by lofts of the {c7} went to Priory Loft?",
  share7, len(e7))

# 8 limit check
roll = pig.groupby("loft").size()
over = sorted([l for l in roll.index if roll[l] > L.max_birds[l]])
assert over
q(8, "limit", "over_cap", "Which lofts are housing more birds than their licensed capacity?", over, len(pig) + len(lofts))

# 9 direct children
r9 = "Breckland Region"
kids = sorted([u for u, lv in below(r9).items() if lv == 1])
q(9, "hierarchy", "direct_children", f"Which clubs come directly under {r9}?", kids, len(kids))

# 10 any depth, one kind
r10 = "Broadland Region"
b10 = below(r10)
n10 = sum(1 for u in b10 if units.set_index("unit").unit_type[u] == "loft")
q(10, "hierarchy", "any_depth_count_kind", f"How many lofts are there anywhere beneath the {r10}?", n10, len(b10))

# 11 multi-hop: race winner -> its loft -> the loft's fancier
r11 = "Bourges National"
w11 = ent[(ent.race == r11) & (ent.position == 1)]
assert len(w11) == 1
q(11, "multi_hop", "winner_loft_fancier", f"Which fancier keeps the pigeon that won the {r11}?",
  L.fancier[w11.loft.iloc[0]], len(ent[ent.race == r11]) + 1)

# 12 yes/no
p12 = "Silver Ranger"
e12 = ent[ent.pigeon == p12]
q(12, "yes_no", "ever_won_yn", f"Has {p12} ever won a race outright?", bool((e12.position == 1).any()), len(e12))

# 13 two-part
l13 = "Market Cross Loft"
n13 = int((pig.loft == l13).sum())
q(13, "two_part", "count_and_limit", f"How many birds does {l13} have, and what is the most it is licensed to house?",
  {"parts": [n13, int(L.max_birds[l13])]}, n13 + 1)

# 14 period
l14 = "Sandpit Loft"
e14 = ent[(ent.loft == l14) & (ent.month == "2024-07")]
assert e14.prize_gbp.sum() > 0
q(14, "period", "sum_month", f"What did {l14} win in prize money in July 2024?", num(e14.prize_gbp.sum()), len(e14))

# 15 numeric filter
r15 = races[races.distance_km > 450]
q(15, "filter", "numeric_condition", "Which races this season were flown over more than 450 km?",
  sorted(r15.race.tolist()), len(races))

# 16 unanswerable: no tool holds feed costs
q(16, "unanswerable", "no_tool", "How much did Millstone Loft spend on corn and grit last year?", None, 0)

with open(D / "questions.jsonl", "w") as f:
    for x in Q:
        f.write(json.dumps(x) + "\n")
print(len(Q), "questions")
