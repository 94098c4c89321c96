"""Computes the gold answer of every question from the CSV files and writes data/questions.jsonl."""
import json
from pathlib import Path

import pandas as pd

HERE = Path(__file__).parent
D = HERE / "data"
units = pd.read_csv(D / "units.csv", keep_default_na=False)
stations = pd.read_csv(D / "stations.csv")
progs = pd.read_csv(D / "programmes.csv")
presenters = pd.read_csv(D / "presenters.csv")
advertisers = pd.read_csv(D / "advertisers.csv")
spots = pd.read_csv(D / "ad_spots.csv").merge(progs[["programme", "station"]], on="programme", how="left")
complaints = pd.read_csv(D / "complaints.csv")
assert spots.station.notna().all()


def below(unit):
    out, frontier, level = [], [unit], 0
    while frontier:
        level += 1
        kids = units[units.parent_unit.isin(frontier)]
        out += [(u, t, level) for u, t in zip(kids.unit, kids.unit_type)]
        frontier = list(kids.unit)
    return out


Q = []


def q(qid, typ, template, question, answer, complexity):
    if isinstance(answer, list):
        answer = sorted(answer)
    Q.append({"id": qid, "type": typ, "template": template, "question": question, "answer": answer,
              "complexity": int(complexity)})


# lookup
r = stations[stations.station == "Harbourline FM"]
assert len(r) == 1
q("RN01", "lookup", "attr_of_entity", "What frequency does Harbourline FM broadcast on?",
  float(r.frequency_mhz.iloc[0]), 1)

# list
x = progs[progs.station == "Coastline FM"]
q("RN02", "list", "related_entities", "What shows are on Coastline FM's schedule?", list(x.programme), len(x))

# count
x = spots[spots.advertiser == "Pelham Building Society"]
q("RN03", "count", "count_rows", "How many ad spots did Pelham Building Society buy across the group?", len(x), len(x))

# total
x = spots[spots.advertiser == "Tarrant Motors"]
q("RN04", "total", "sum_amount", "How much has Tarrant Motors spent on airtime with us in total?",
  int(x.price_gbp.sum()), len(x))

# extreme: the advertiser of the single most expensive spot on a station
x = spots[spots.station == "Valley Sound"].sort_values("price_gbp", ascending=False)
assert x.price_gbp.iloc[0] > x.price_gbp.iloc[1]
q("RN05", "extreme", "argmax_row", "Which advertiser paid the most for a single spot on Valley Sound?",
  str(x.advertiser.iloc[0]), len(x))

# top_n: advertisers by total spend on a station
x = spots[spots.station == "Coastline FM"]
t = x.groupby("advertiser").price_gbp.sum().sort_values(ascending=False)
assert t.iloc[2] > t.iloc[3]
q("RN06", "top_n", "top_by_sum", "Who were Coastline FM's three biggest advertisers by spend?", list(t.index[:3]),
  len(x))

# filter
x = spots[spots.advertiser == "Brightwater Energy"]
f = x[x.price_gbp > 200]
q("RN07", "filter", "filter_numeric", "Which of Brightwater Energy's spots cost more than £200?", list(f.spot_id),
  len(x))

# multi_hop: station -> programmes -> presenters -> agents
ps = progs[progs.station == "Harbourline FM"]
x = presenters[presenters.presenter.isin(ps.presenter)]
q("RN08", "multi_hop", "two_hop_list", "Which agents look after the presenters of Harbourline FM's shows?",
  sorted(set(x.agent)), len(ps) + len(x))

# hierarchy: stations at any depth below a network
b = below("Skyline Gold Network")
q("RN09", "hierarchy", "chain_count_kind", "How many stations does the Skyline Gold Network have across its regions?",
  len([u for u, t, l in b if t == "station"]), len(b))

# hierarchy: stations directly under a network, not through a region
b = below("Skyline Hits Network")
q("RN10", "hierarchy", "chain_direct_kind",
  "Which stations report directly to the Skyline Hits Network rather than through one of its regions?",
  [u for u, t, l in b if t == "station" and l == 1], len(b))

# limit: total spend against the campaign budget
x = spots[spots.advertiser == "Northway Rail"]
budget = int(advertisers.loc[advertisers.advertiser == "Northway Rail", "campaign_budget_gbp"].iloc[0])
q("RN11", "limit", "sum_vs_limit", "Has Northway Rail spent more than its campaign budget?",
  bool(x.price_gbp.sum() > budget), len(x) + 1)

# period
x = spots[(spots.station == "Coastline FM") & spots.air_date.str.startswith("2024-02")]
q("RN12", "period", "sum_in_month", "What did Coastline FM take in ad revenue in February 2024?",
  int(x.price_gbp.sum()), len(x))

# share
x = spots[spots.station == "Valley Sound"]
part = x[x.advertiser == "Brightwater Energy"].price_gbp.sum()
q("RN13", "share", "share_of_sum", "What percentage of Valley Sound's ad revenue came from Brightwater Energy?",
  round(100.0 * part / x.price_gbp.sum(), 1), len(x))

# two_part
x = complaints[complaints.programme == "Late Lines"]
q("RN14", "two_part", "count_and_filtered_count",
  "How many complaints has Late Lines had, and how many of them were upheld?",
  {"parts": [len(x), int((x.outcome == "upheld").sum())]}, len(x))

# yes_no
x = spots[spots.advertiser == "Brightwater Energy"]
q("RN15", "yes_no", "exists_related", "Has Brightwater Energy ever bought a spot on Metro Talk?",
  bool((x.station == "Metro Talk").any()), len(x))

# unanswerable: transmitter power is not held anywhere
q("RN16", "unanswerable", "not_in_catalog", "What's Coastline FM's transmitter power in kilowatts?", None, 0)

assert len(Q) == 16
with open(D / "questions.jsonl", "w") as f:
    for row in Q:
        f.write(json.dumps(row) + "\n")
print(f"wrote {len(Q)} questions to {D / 'questions.jsonl'}")
