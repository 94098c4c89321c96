"""Gold answers for housing_association, computed from the CSV files with pandas alone."""
import json
from pathlib import Path
import pandas as pd

HERE = Path(__file__).parent
D = HERE / "data"
props = pd.read_csv(D / "properties.csv", keep_default_na=False)
flats = pd.read_csv(D / "flats.csv")
blocks = pd.read_csv(D / "blocks.csv")
tenants = pd.read_csv(D / "tenants.csv")
contr = pd.read_csv(D / "contractors.csv")
rep = pd.read_csv(D / "repairs.csv")
rep["month"] = rep.reported_on.str[:7]
P = props.set_index("property")
F = flats.set_index("flat")
B = blocks.set_index("block")
T = tenants.set_index("tenant")
C = contr.set_index("contractor")


def below(prop):
    out, frontier, lvl = {}, [prop], 0
    while frontier:
        lvl += 1
        nxt = props[props.parent_property.isin(frontier)].property.tolist()
        for s in nxt:
            out.setdefault(s, lvl)
        frontier = nxt
    return out


def repairs_in(prop):
    return rep[rep.flat.isin(list(below(prop)))]


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
    Q.append({"id": f"HA{i:02d}", "type": typ, "template": tpl, "question": text, "answer": ans, "complexity": int(cx)})


f1 = "Flat 7 Linnet House"
q(1, "lookup", "lookup_attr", f"What's the weekly rent on {f1}?", float(F.weekly_rent_gbp[f1]), 1)

c2 = "Brightwater Plumbing"
j2 = rep[rep.contractor == c2]
q(2, "list", "list_related", f"Which flats has {c2} done repair work in?", sorted(j2.flat.unique().tolist()), len(j2))

f3 = "Flat 5 Linnet House"
n3 = int((rep.flat == f3).sum())
assert n3 > 0
q(3, "count", "count_rows", f"How many repair jobs have been logged for {f3}?", n3, n3)

r4 = repairs_in("Linnet House")
q(4, "total", "sum_amount", "How much has been spent on repairs at Linnet House altogether?",
  round(float(r4.cost_gbp.sum()), 2), len(r4))

r5 = repairs_in("Marsh Lane Estate")
q(5, "extreme", "max_total_by_thing", "Which contractor has billed the most for repair work on Marsh Lane Estate?",
  unique_top(r5.groupby("contractor").cost_gbp.sum()), len(r5))

r6 = repairs_in("Calder Valley Region")
q(6, "top_n", "top3_total", "Name the three flats in Calder Valley Region with the highest total repair costs.",
  top_n(r6.groupby("flat").cost_gbp.sum(), 3), len(r6))

r7 = repairs_in("Severnside Region")
q(7, "share", "share_of_total", "What proportion of Severnside Region's repair spending went on damp work?",
  round(100 * r7[r7.trade == "damp"].cost_gbp.sum() / r7.cost_gbp.sum(), 1), len(r7))

rb = rep.assign(block=rep.flat.map(P.parent_property))
spend = rb.groupby("block").cost_gbp.sum()
over = sorted([b for b in spend.index if spend[b] > B.annual_repair_budget_gbp[b]])
q(8, "limit", "over_cap", "Which blocks spent more on repairs in 2024 than their annual repair budget?", over,
  len(rep) + len(blocks))

b9 = below("Marsh Lane Estate")
d9 = sorted([s for s, l in b9.items() if l == 1])
q(9, "hierarchy", "direct_children", "Which blocks are directly part of Marsh Lane Estate?", d9, len(d9))

b10 = below("Calder Valley Region")
f10 = [s for s in b10 if P.property_type[s] == "flat"]
q(10, "hierarchy", "any_depth_count_kind", "How many flats does Calder Valley Region have in total?", len(f10), len(b10))

f11 = "Flat 3 Swift House"
j11 = rep[rep.flat == f11]
q(11, "multi_hop", "join_two_tools", f"In which towns are the contractors that repaired {f11} based?",
  sorted(C.base_town[j11.contractor.unique()].unique().tolist()), len(j11) + j11.contractor.nunique())

t12 = "Kwame Haddad"
fl12 = T.flat[t12]
q(12, "yes_no", "over_cap_yn", f"Is {t12}'s household bigger than the maximum occupancy of the flat they rent?",
  bool(T.household_size[t12] > F.max_occupants[fl12]), 2)

c13 = "Ashby Electrical"
q(13, "two_part", "two_lookups", f"What trade is {c13} on the framework for, and which town is it based in?",
  {"parts": [C.trade[c13], C.base_town[c13]]}, 1)

r14 = repairs_in("Severnside Region")
r14 = r14[r14.month == "2024-09"]
q(14, "period", "count_month", "How many repairs were reported across Severnside Region in September 2024?",
  len(r14), len(r14))

r15 = repairs_in("Marsh Lane Estate")
q(15, "filter", "numeric_filter", "Which repair jobs on Marsh Lane Estate took more than 25 days to complete?",
  sorted(r15[r15.days_to_complete > 25].job_id.tolist()), len(r15))

q(16, "unanswerable", "no_tool", "What energy performance rating does Heron Court have?", None, 0)

with open(D / "questions.jsonl", "w") as f:
    for x in Q:
        f.write(json.dumps(x) + "\n")
print(len(Q), "questions")
