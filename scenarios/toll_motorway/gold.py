"""Gold answers for toll_motorway, computed from the CSV files with pandas alone (never with the engine)."""
import json
from pathlib import Path
import pandas as pd

HERE = Path(__file__).parent
D = HERE / "data"
if not (D / "trips.csv").exists():
    import generate
    generate.write(HERE)
sites = pd.read_csv(D / "sites.csv", keep_default_na=False)
plz = pd.read_csv(D / "plazas.csv")
acc = pd.read_csv(D / "accounts.csv")
trips = pd.read_csv(D / "trips.csv")
works = pd.read_csv(D / "works.csv")
PL = plz.set_index("plaza")
AC = acc.set_index("account")
ST = sites.set_index("site")


def below(site):
    out, frontier, lvl = {}, [site], 0
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


def unique_top_n(series, n):
    s = series.sort_values(ascending=False)
    assert len(s) <= n or s.iloc[n - 1] != s.iloc[n], "tie at the boundary"
    return list(s.index[:n])


Q = []


def q(i, typ, tpl, text, ans, cx):
    Q.append({"id": f"TM{i:02d}", "type": typ, "template": tpl, "question": text, "answer": ans, "complexity": int(cx)})


# 1 lookup of a profile attribute
q(1, "lookup", "profile_attribute", "How many toll lanes does the Kelford Bridge plaza have?",
  int(PL.loc["Kelford Bridge", "lanes"]), 1)

# 2 list of related things
t2 = trips[trips.account == "Brennan Haulage"]
q(2, "list", "related_list", "Which plazas has Brennan Haulage driven through?", sorted(set(t2.plaza)), len(t2))

# 3 count
t3 = trips[trips.account == "Joanna Pike"]
q(3, "count", "count_events", "How many trips has Joanna Pike made on our roads?", len(t3), len(t3))

# 4 total over a thing's events
q(4, "aggregate", "total_amount", "What's the total Brennan Haulage has paid in tolls so far?",
  round(float(t2.toll_gbp.sum()), 2), len(t2))

# 5 extreme over every contractor
c5 = works.groupby("contractor").cost_gbp.sum()
q(5, "superlative", "extreme", "Which contractor has billed us the most for maintenance work across the whole network?",
  unique_top(c5), len(works))

# 6 top-3
t6 = trips[trips.plaza == "Stanway"]
s6 = t6.groupby("account").toll_gbp.sum()
q(6, "superlative", "top_n", "Which three accounts have spent the most on tolls at Stanway?", unique_top_n(s6, 3), len(t6))

# 7 share
t7 = trips[trips.plaza == "Ashby Gate"]
q(7, "share", "percentage", "What share of the tolls collected at Ashby Gate came from lorries?",
  round(100.0 * t7[t7.vehicle_class == "lorry"].toll_gbp.sum() / t7.toll_gbp.sum(), 1), len(t7))

# 8 limit check in a named month
t8 = trips[trips.trip_date.str.startswith("2024-05")]
s8 = t8.groupby("account").toll_gbp.sum()
over = s8[s8 > AC.monthly_cap_gbp.reindex(s8.index)]
q(8, "limit", "over_limit_in_month", "Which accounts went over their monthly spending cap in May 2024?",
  sorted(over.index), len(t8) + len(acc))

# 9 direct children in the hierarchy
b9 = below("Northern Tollway")
q(9, "hierarchy", "direct_children", "What comes directly under the Northern Tollway?",
  sorted(s for s, l in b9.items() if l == 1), len(b9))

# 10 things at any depth below a unit, of one kind
b10 = below("Coastal Tollway")
p10 = [s for s in b10 if ST.loc[s, "site_type"] == "plaza"]
q(10, "hierarchy", "any_depth_count", "How many toll plazas are there on the Coastal Tollway?", len(p10), len(b10))

# 11 multi-hop: a plaza's trips -> the accounts' types
t11 = trips[trips.plaza == "Saltmarsh Point"]
a11 = sorted(set(t11.account))
q(11, "multi-hop", "join_two_tools", "Which haulier accounts have used the Saltmarsh Point plaza?",
  sorted(a for a in a11 if AC.loc[a, "account_type"] == "haulier"), len(t11) + len(a11))

# 12 yes/no
q(12, "yes_no", "any_event_at", "Has Brennan Haulage ever gone through Redlynch?",
  bool((t2.plaza == "Redlynch").any()), len(t2))

# 13 two-part
q(13, "two_part", "two_attributes", "When did Ashby Gate open, and how many lanes does it have?",
  {"parts": [int(PL.loc["Ashby Gate", "opened_year"]), int(PL.loc["Ashby Gate", "lanes"])]}, 1)

# 14 restricted to a period (a month)
t14 = t3[t3.trip_date.str.startswith("2024-04")]
q(14, "aggregate", "total_in_period", "How much did Joanna Pike spend on tolls in April 2024?",
  round(float(t14.toll_gbp.sum()), 2), len(t3))

# 15 filter with a numeric condition
w15 = works[works.contractor == "Corby Roadcare"]
q(15, "filter", "numeric_condition", "Which of Corby Roadcare's jobs cost more than £20,000?",
  sorted(w15[w15.cost_gbp > 20000].work_id), len(w15))

# 16 unanswerable: no tool holds speed limits
q(16, "unanswerable", "no_tool", "What is the speed limit on the Ridgeway Section?", None, 0)

assert len(Q) == 16
with open(D / "questions.jsonl", "w") as f:
    for x in Q:
        f.write(json.dumps(x) + "\n")
print(len(Q), "questions")
