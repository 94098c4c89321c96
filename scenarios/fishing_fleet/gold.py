"""Gold answers for the fishing-fleet questions, computed from the CSV files with pandas alone.

Writes data/questions.jsonl (one JSON object per line).
"""
import json
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"

vessels = pd.read_csv(DATA / "vessels.csv")
landings = pd.read_csv(DATA / "landings.csv")
inspections = pd.read_csv(DATA / "inspections.csv")
areas = pd.read_csv(DATA / "sea_areas.csv", keep_default_na=False)


def one(df):
    assert len(df) == 1, df
    return df.iloc[0]


def descendants(area):
    """Every sea area below `area`, at any depth, with its level."""
    out, frontier, level = {}, [area], 0
    while frontier:
        level += 1
        children = areas[areas.parent_area.isin(frontier)].area.tolist()
        frontier = [c for c in children if c not in out]
        for c in frontier:
            out[c] = level
    return out


questions = []


def q(type_, template, question, answer, complexity):
    questions.append({"id": f"FF{len(questions) + 1:02d}", "type": type_, "template": template,
                      "question": question, "answer": answer, "complexity": int(complexity)})


# 1 lookup: the skipper of a vessel
row = one(vessels[vessels.vessel == "Good Hope"])
q("lookup", "vessel_skipper", "Who is the skipper of the Good Hope?", row.skipper, 1)

# 2 lookup: engine power of a vessel (kW)
row = one(vessels[vessels.vessel == "Constant Friend"])
q("lookup", "vessel_engine_power", "What engine power is the Constant Friend rated at?", int(row.engine_kw), 1)

# 3 list: vessels whose home port is Kilkeel
fleet = vessels[vessels.home_port == "Kilkeel"]
q("list", "port_fleet", "Which vessels have Kilkeel as their home port?", sorted(fleet.vessel.tolist()), len(fleet))

# 4 count: landings of one vessel at one port
rows = landings[(landings.vessel == "Silver Darling") & (landings.port == "Peterhead")]
q("count", "vessel_landings_at_port", "How many times did the Silver Darling land its catch at Peterhead?",
  int(rows.landing_id.nunique()), len(rows))

# 5 total: first-sale value of all landings at a port (EUR)
rows = landings[landings.port == "Newlyn"]
q("total", "port_value", "What was the total first-sale value of everything landed at Newlyn?",
  int(rows.value_eur.sum()), len(rows))

# 6 top_n: three vessels with the largest haddock landings by weight
rows = landings[landings.species == "haddock"]
per_vessel = rows.groupby("vessel").weight_t.sum().sort_values(ascending=False)
assert per_vessel.iloc[2] > per_vessel.iloc[3]  # no tie at the cut
q("top_n", "species_top_vessels", "Which three vessels landed the most haddock by weight?",
  sorted(per_vessel.index[:3].tolist()), len(rows))

# 7 extreme: most powerful engine among a port's fleet
fleet = vessels[vessels.home_port == "Lerwick"].sort_values("engine_kw", ascending=False)
assert fleet.engine_kw.iloc[0] > fleet.engine_kw.iloc[1]
q("extreme", "port_fleet_max_engine", "Of the boats based in Lerwick, which one has the most powerful engine?",
  fleet.vessel.iloc[0], len(fleet))

# 8 share: one species' share of a vessel's landed weight (percent)
rows = landings[landings.vessel == "Endeavour"]
share = 100 * rows[rows.species == "monkfish"].weight_t.sum() / rows.weight_t.sum()
q("share", "vessel_species_share", "What percentage of the Endeavour's landed weight was monkfish?",
  round(float(share), 1), len(rows))

# 9 limit: vessels whose landed weight exceeds their annual catch quota
landed = landings.groupby("vessel").weight_t.sum()
check = vessels.set_index("vessel").join(landed.rename("landed"))
over = check[check.landed > check.annual_quota_t]
q("limit", "vessels_over_quota", "Which vessels have already landed more than their annual catch quota?",
  sorted(over.index.tolist()), len(landings) + len(vessels))

# 10 hierarchy (direct): sea areas one level below an area
direct = areas[areas.parent_area == "Celtic Seas"]
q("hierarchy_direct", "direct_sub_areas", "Which sea areas sit directly beneath the Celtic Seas?",
  sorted(direct.area.tolist()), len(direct))

# 11 hierarchy (any depth): landed weight from grounds anywhere inside an area
inside = set(descendants("Central North Sea")) | {"Central North Sea"}
rows = landings[landings.ground.isin(inside)]
q("hierarchy_any_depth", "area_weight_all_levels",
  "What total weight of catch was taken in the Central North Sea, counting every ground nested inside it?",
  round(float(rows.weight_t.sum()), 1), len(rows) + len(inside))

# 12 multi_hop: ports where the member vessels of a producer organisation landed
members = vessels[vessels.producer_org == "Mourne Fish Producers Organisation"].vessel
rows = landings[landings.vessel.isin(members)]
q("multi_hop", "org_vessels_landing_ports",
  "At which ports have the vessels of the Mourne Fish Producers Organisation landed catch?",
  sorted(rows.port.unique().tolist()), len(rows) + len(members))

# 13 yes_no: was a vessel ever fined at an inspection
rows = inspections[inspections.vessel == "Girl Pamela"]
q("yes_no", "vessel_fined", "Has the Girl Pamela been fined at any fishery inspection?",
  bool((rows.fine_eur > 0).any()), max(len(rows), 1))

# 14 two_part: number of landings of a vessel and their combined weight
rows = landings[landings.vessel == "Marigold"]
q("two_part", "vessel_landings_count_and_weight",
  "How many landings did the Marigold make, and what was their combined weight in tonnes?",
  {"parts": [int(rows.landing_id.nunique()), round(float(rows.weight_t.sum()), 1)]}, len(rows))

# 15 period: a vessel's landed weight in one month
rows = landings[(landings.vessel == "Endeavour") & landings.landing_date.str.startswith("2024-03")]
q("period", "vessel_month_weight", "How many tonnes did the Endeavour land in March 2024?",
  round(float(rows.weight_t.sum()), 1), len(rows))

# 16 average (own choice): mean landed weight per landing at a port
rows = landings[landings.port == "Fraserburgh"]
q("average", "port_mean_landing_weight", "What is the average landed weight per landing at Fraserburgh?",
  round(float(rows.weight_t.mean()), 2), len(rows))

# every named entity must occur verbatim in the data
names = ["Good Hope", "Constant Friend", "Kilkeel", "Silver Darling", "Peterhead", "Newlyn", "haddock", "Lerwick",
         "Endeavour", "monkfish", "Celtic Seas", "Central North Sea", "Mourne Fish Producers Organisation",
         "Girl Pamela", "Marigold", "Fraserburgh"]
values = set()
for df in (vessels, landings, inspections, areas):
    for col in df.columns:
        if not pd.api.types.is_numeric_dtype(df[col]):
            values |= set(df[col])
assert all(n in values for n in names), [n for n in names if n not in values]
assert len(questions) == 16

with open(DATA / "questions.jsonl", "w") as f:
    for item in questions:
        f.write(json.dumps(item) + "\n")

if __name__ == "__main__":
    for item in questions:
        print(item["id"], item["type"], json.dumps(item["answer"]))
