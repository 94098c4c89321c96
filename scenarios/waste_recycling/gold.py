"""Gold answers for waste_recycling, computed from the CSV files with pandas alone."""
import json
from pathlib import Path
import pandas as pd

HERE = Path(__file__).parent
D = HERE / "data"
sites = pd.read_csv(D / "sites.csv", keep_default_na=False)
col = pd.read_csv(D / "collections.csv")
hau = pd.read_csv(D / "hauliers.csv")
col["month"] = col.collected_on.str[:7]


def r1(x):
    return round(float(x), 1)


def below(site):
    out, frontier = {}, [site]
    lvl = 0
    while frontier:
        lvl += 1
        nxt = sites[sites.parent_site.isin(frontier)].site.tolist()
        for s in nxt:
            out.setdefault(s, lvl)
        frontier = nxt
    return out


def unique_top(series, largest=True):
    s = series.sort_values(ascending=not largest)
    assert len(s) < 2 or s.iloc[0] != s.iloc[1], "tie"
    return s.index[0]


tot = col.groupby("centre").tonnes.sum().round(6)
cap = sites.set_index("site").permit_cap_t
Q = []


def q(i, typ, tpl, text, ans, cx):
    Q.append({"id": f"WR{i:02d}", "type": typ, "template": tpl, "question": text, "answer": ans, "complexity": int(cx)})


c1 = "Oakhampstead Recycling Centre"
q(1, "lookup", "lookup_limit", f"What annual permit cap does {c1} operate under, in tonnes?", float(cap[c1]), 1)
q(2, "lookup", "lookup_attr", "Which town is Tidewater Freight based in?",
  hau.set_index("haulier").base_town["Tidewater Freight"], 1)
c3 = "Saltmarsh Recycling Centre"
mats = sorted(col[col.centre == c3].material.unique().tolist())
q(3, "list", "list_categories", f"What kinds of material were picked up from {c3} during the year?", mats,
  int((col.centre == c3).sum()))
h4 = "Cobalt Skips"
q(4, "count", "count_rows", f"How many separate collections did {h4} carry out in 2024?", int((col.haulier == h4).sum()),
  int((col.haulier == h4).sum()))
g = col[col.material == "glass"]
q(5, "total", "sum_category", "Across the whole network, how many tonnes of glass were collected?", r1(g.tonnes.sum()), len(g))
top3 = tot.sort_values(ascending=False)
assert top3.iloc[2] != top3.iloc[3]
q(6, "top_n", "top3_total", "Give me the three recycling centres that handled the biggest total tonnage over the year.",
  sorted(top3.index[:3].tolist()), len(col))
tx = col[col.material == "textiles"].groupby("centre").tonnes.sum()
q(7, "extreme", "min_category", "Of the centres that sent off any textiles at all, which one sent the smallest tonnage of them?",
  unique_top(tx, largest=False), int((col.material == "textiles").sum()))
c8 = "Rushworth Recycling Centre"
sub = col[col.centre == c8]
q(8, "share", "share_category", f"What share of {c8}'s collected tonnage was plastic, as a percentage?",
  round(100 * sub[sub.material == "plastic"].tonnes.sum() / sub.tonnes.sum(), 1), len(sub))
over = sorted([c for c in tot.index if tot[c] > cap[c]])
q(9, "limit", "over_cap", "Which recycling centres took in more tonnage than their permit cap allows?", over, len(col) + len(tot))
q(10, "hierarchy", "direct_children", "Which sites answer directly to the Dunmere District?",
  sorted([s for s, l in below("Dunmere District").items() if l == 1]), 2)
b = below("South Marsh Region")
cents = [s for s in b if sites.set_index("site").site_type[s] == "centre"]
q(11, "hierarchy", "any_depth_count", "How many recycling centres sit somewhere under South Marsh Region, at any level?",
  len(cents), len(b))
dep = "Elmstead Depot B"
cs = [s for s, l in below(dep).items()]
hs = sorted(col[col.centre.isin(cs)].haulier.unique().tolist())
q(12, "multi_hop", "haulier_via_hierarchy", f"Which hauliers collected from the centres that come under {dep}?", hs,
  int(col.centre.isin(cs).sum()))
c13 = "Upwood Recycling Centre"
q(13, "yes_no", "over_cap_yn", f"Did {c13} go over its permit cap this year?", bool(tot[c13] > cap[c13]),
  int((col.centre == c13).sum()) + 1)
c14 = "Kestrel Bay Recycling Centre"
s14 = col[col.centre == c14]
q(14, "two_part", "count_and_sum", f"For {c14}, how many collections were there, and how many tonnes did they add up to?",
  {"parts": [len(s14), r1(s14.tonnes.sum())]}, len(s14))
c15 = "Juniper Cross Recycling Centre"
s15 = col[(col.centre == c15) & (col.month == "2024-03")]
assert len(s15) > 0
q(15, "period", "sum_month", f"How many tonnes were collected at {c15} in March 2024?", r1(s15.tonnes.sum()), len(s15))
# choice: haulier with largest total tonnage moved over hauliers based in ... -> overall
ht = col.groupby("haulier").tonnes.sum()
q(16, "ranking", "max_group_total", "Which haulier shifted the most tonnage in total over the year?", unique_top(ht), len(col))

with open(D / "questions.jsonl", "w") as f:
    for x in Q:
        f.write(json.dumps(x) + "\n")
print(len(Q), "questions")
