"""Gold answers for underground_mine, computed from the CSV files with pandas alone."""
import json
from pathlib import Path
import pandas as pd

HERE = Path(__file__).parent
D = HERE / "data"
sites = pd.read_csv(D / "sites.csv", keep_default_na=False)
crews = pd.read_csv(D / "crews.csv")
ex = pd.read_csv(D / "extraction.csv")
mach = pd.read_csv(D / "machines.csv")
serv = pd.read_csv(D / "services.csv")
ex["month"] = ex.shift_date.str[:7]
S = sites.set_index("site")
C = crews.set_index("crew")
M = mach.set_index("machine")


def below(site):
    out, frontier, lvl = {}, [site], 0
    while frontier:
        lvl += 1
        nxt = sites[sites.parent_site.isin(frontier)].site.tolist()
        for s in nxt:
            out.setdefault(s, lvl)
        frontier = nxt
    return out


def runs_below(site):
    return ex[ex.stope.isin(list(below(site)))]


def unique_top(series, largest=True):
    s = series.sort_values(ascending=not largest)
    assert len(s) < 2 or s.iloc[0] != s.iloc[1], "tie"
    return s.index[0]


def top_n(series, n):
    s = series.sort_values(ascending=False)
    assert len(s) <= n or s.iloc[n - 1] != s.iloc[n], "tie at the cut"
    return sorted(s.index[:n].tolist())


Q = []


def q(i, typ, tpl, text, ans, cx):
    Q.append({"id": f"UM{i:02d}", "type": typ, "template": tpl, "question": text, "answer": ans, "complexity": int(cx)})


st1 = "Copperhead 410-1 Stope"
q(1, "lookup", "lookup_attr", f"What mining method do they use in {st1}?", S.mining_method[st1], 1)

c2 = "Kestrel Crew"
r2 = ex[ex.crew == c2]
q(2, "list", "list_related", f"Which stopes has {c2} worked in?", sorted(r2.stope.unique().tolist()), len(r2))

st3 = "Bellbird 280-1 Stope"
n3 = int((ex.stope == st3).sum())
q(3, "count", "count_rows", f"How many extraction runs have been logged at {st3}?", n3, n3)

st4 = "Wattle Creek 280-3 Stope"
r4 = ex[ex.stope == st4]
q(4, "total", "sum_amount", f"How many tonnes of ore have come out of {st4} in total?", int(r4.ore_tonnes.sum()), len(r4))

r5 = runs_below("Copperhead Mine")
q(5, "extreme", "max_total_by_thing", "Which crew has hauled the most ore out of Copperhead Mine?",
  unique_top(r5.groupby("crew").ore_tonnes.sum()), len(r5))

r6 = runs_below("Tindal Ridge Field")
q(6, "top_n", "top3_total", "What are the three most productive stopes in Tindal Ridge Field by ore tonnage?",
  top_n(r6.groupby("stope").ore_tonnes.sum(), 3), len(r6))

r7 = runs_below("Bellbird Mine")
q(7, "share", "share_of_total", "What percentage of Bellbird Mine's ore was extracted by Brolga Crew?",
  round(100 * r7[r7.crew == "Brolga Crew"].ore_tonnes.sum() / r7.ore_tonnes.sum(), 1), len(r7))

tot = ex.groupby("stope").ore_tonnes.sum()
over = sorted([s for s in tot.index if tot[s] > S.permitted_tonnes[s]])
q(8, "limit", "over_cap", "Which stopes have already extracted more ore than their 2024 permitted tonnage?", over,
  len(ex) + len(tot))

b9 = below("Ironbark Mine")
q(9, "hierarchy", "direct_children", "Which levels sit directly under Ironbark Mine?",
  sorted([s for s, l in b9.items() if l == 1]), sum(1 for l in b9.values() if l == 1))

b10 = below("Tindal Ridge Field")
st10 = [s for s in b10 if S.site_type[s] == "stope"]
q(10, "hierarchy", "any_depth_count_kind",
  "How many stopes are there in Tindal Ridge Field altogether, across all its mines and levels?", len(st10), len(b10))

st11 = "Bellbird 340-2 Stope"
r11 = ex[ex.stope == st11]
q(11, "multi_hop", "join_two_tools", f"Who are the supervisors of the crews that have worked in {st11}?",
  sorted(C.supervisor[r11.crew.unique()].unique().tolist()), len(r11) + r11.crew.nunique())

m12 = "DR-02"
s12 = serv[serv.machine == m12]
q(12, "yes_no", "any_over_cap_yn", f"Has drill {m12} ever gone past its service interval between two services?",
  bool((s12.hours_since_last > M.service_interval_hours[m12]).any()), len(s12) + 1)

m13 = "DR-03"
s13 = serv[serv.machine == m13]
q(13, "two_part", "count_and_sum", f"How many times has {m13} been serviced, and what did those services cost in total?",
  {"parts": [len(s13), round(float(s13.cost_aud.sum()), 2)]}, len(s13))

r14 = runs_below("Copperhead Mine")
r14 = r14[r14.month == "2024-03"]
q(14, "period", "sum_month", "How much ore did Copperhead Mine produce in March 2024?", int(r14.ore_tonnes.sum()), len(r14))

r15 = ex[ex.stope == st11]
q(15, "filter", "numeric_filter", f"Which extraction runs at {st11} had an ore grade above 8 g/t?",
  sorted(r15[r15.grade_gpt > 8].run_id.tolist()), len(r15))

q(16, "unanswerable", "no_tool", "How many litres of diesel did loader LH-04 burn in 2024?", None, 0)

with open(D / "questions.jsonl", "w") as f:
    for x in Q:
        f.write(json.dumps(x) + "\n")
print(len(Q), "questions")
