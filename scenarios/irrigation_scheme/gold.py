"""Gold answers for the irrigation_scheme questions, computed from data/*.csv with pandas alone.

Writes data/questions.jsonl. Run generate.py first.
"""
import json
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"

channels = pd.read_csv(DATA / "channels.csv", keep_default_na=False)
farms = pd.read_csv(DATA / "farms.csv", keep_default_na=False)
deliveries = pd.read_csv(DATA / "deliveries.csv", keep_default_na=False)


def r1(x):
    return round(float(x), 1)


def one(frame, what):
    assert len(frame) == 1, (what, len(frame))
    return frame.iloc[0]


def exists(col, frame, value):
    assert value in set(frame[col]), (col, value)
    return value


def downstream(channel):
    """{channel: level} for every channel below `channel` (level 1: takes off it directly)."""
    out, frontier, level = {}, [channel], 0
    while frontier:
        level += 1
        nxt = list(channels[channels.parent_channel.isin(frontier)].channel)
        for c in nxt:
            out.setdefault(c, level)
        frontier = nxt
    return out


questions = []


def q(qid, qtype, template, text, answer, complexity):
    if isinstance(answer, list):
        answer = sorted(answer)
    questions.append({"id": qid, "type": qtype, "template": template, "question": text, "answer": answer,
                      "complexity": int(complexity)})


# IR01 lookup: a farm's annual allocation
farm = exists("farm", farms, "Tuckerbil Plains")
row = one(farms[farms.farm == farm], farm)
q("IR01", "lookup", "farm_allocation", f"What's the annual water allocation for {farm}?",
  r1(row.annual_allocation_ml), 1)

# IR02 lookup: the channel a farm's offtake is on
farm = exists("farm", farms, "Widgelli Farm")
q("IR02", "lookup", "farm_channel", f"Which channel does {farm} take its water from?",
  one(farms[farms.farm == farm], farm).channel, 1)

# IR03 list: farms whose offtake is directly on a lateral
ch = exists("channel", channels, "Lateral M1")
sel = farms[farms.channel == ch]
q("IR03", "list", "channel_farms", f"Which farms have their offtake directly on {ch}?", list(sel.farm), len(sel))

# IR04 count: farms of an owner
owner = exists("owner", farms, "McAlister Pastoral Co")
sel = farms[farms.owner == owner]
q("IR04", "count", "owner_farm_count", f"How many farms does {owner} own across the scheme?", len(sel), len(sel))

# IR05 total: water delivered to a farm over the year
farm = exists("farm", deliveries, "Stony Vale")
sel = deliveries[deliveries.farm == farm]
q("IR05", "total", "farm_total_volume",
  f"How many megalitres in total have been delivered to {farm} this water year?", r1(sel.volume_ml.sum()), len(sel))

# IR06 top_n: an owner's three largest farms by irrigated area
owner = exists("owner", farms, "McAlister Pastoral Co")
sel = farms[farms.owner == owner].sort_values("area_ha", ascending=False)
assert sel.area_ha.iloc[2] > sel.area_ha.iloc[3], "tie at third place"
q("IR06", "top_n", "owner_top_area", f"Name {owner}'s three biggest farms by irrigated area.",
  list(sel.farm.iloc[:3]), len(sel))

# IR07 extreme: smallest allocation among the farms on a sublateral
ch = exists("channel", channels, "Sublateral M2A")
sel = farms[farms.channel == ch].sort_values("annual_allocation_ml")
assert sel.annual_allocation_ml.iloc[0] < sel.annual_allocation_ml.iloc[1]
q("IR07", "extreme", "channel_min_allocation",
  f"Of the farms drawing from {ch}, which one has the smallest annual allocation?", sel.farm.iloc[0], len(sel))

# IR08 share: percentage of a farm's delivered water that went to one crop
farm = exists("farm", deliveries, "Hanwood Park")
sel = deliveries[deliveries.farm == farm]
crop = exists("crop", sel, "pasture")
share = 100.0 * sel[sel.crop == crop].volume_ml.sum() / sel.volume_ml.sum()
q("IR08", "share", "farm_crop_share",
  f"What percentage of the water delivered to {farm} this year was ordered for {crop}?", r1(share), len(sel))

# IR09 limit: an owner's farms that have taken more than their annual allocation
owner = exists("owner", farms, "Kelly Agriculture Pty Ltd")
own = farms[farms.owner == owner]
used = deliveries.groupby("farm").volume_ml.sum()
over = [f for f, cap in zip(own.farm, own.annual_allocation_ml) if used.get(f, 0.0) > cap]
q("IR09", "limit", "owner_over_allocation",
  f"Which of {owner}'s farms have drawn more water than their annual allocation?", over,
  len(own) + len(deliveries[deliveries.farm.isin(own.farm)]))

# IR10 hierarchy (direct): channels taking off a branch directly
ch = exists("channel", channels, "Murrami Branch")
sel = channels[channels.parent_channel == ch]
q("IR10", "hierarchy_direct", "direct_offtakes", f"Which channels take off directly from the {ch}?",
  list(sel.channel), len(sel))

# IR11 hierarchy (any depth): every channel downstream of a lateral
ch = exists("channel", channels, "Lateral M3")
below = downstream(ch)
assert max(below.values()) >= 2
q("IR11", "hierarchy_any_depth", "all_downstream",
  f"List every channel downstream of {ch}, however many levels down.", list(below), len(below))

# IR12 multi_hop: owners of the farms drawing from a sublateral
ch = exists("channel", channels, "Sublateral Y1A")
sel = farms[farms.channel == ch]
q("IR12", "multi_hop", "channel_farm_owners", f"Who owns the farms that draw water from {ch}?",
  sorted(set(sel.owner)), len(sel))

# IR13 yes_no: did a farm order any water for a crop
farm = exists("farm", deliveries, "Benerembah Flats")
sel = deliveries[deliveries.farm == farm]
q("IR13", "yes_no", "farm_crop_any", f"Did {farm} order any water for wheat in 2024?",
  bool((sel.crop == "wheat").any()), len(sel))

# IR14 two_part: capacity of a sublateral and the channel that feeds it
ch = exists("channel", channels, "Sublateral B1B")
row = one(channels[channels.channel == ch], ch)
q("IR14", "two_part", "capacity_and_parent",
  f"What is the design capacity of {ch}, and which channel feeds it?",
  {"parts": [r1(row.capacity_ml_day), row.parent_channel]}, 2)

# IR15 period: water delivered to a farm in one month
farm = exists("farm", deliveries, "Lakeview Station")
sel = deliveries[(deliveries.farm == farm) & deliveries.date.str.startswith("2024-03")]
assert len(sel) >= 2
q("IR15", "period", "farm_month_volume", f"How much water went to {farm} in March 2024?",
  r1(sel.volume_ml.sum()), len(sel))

# IR16 filter (own choice): an owner's farms above an area threshold (one farm sits exactly on it)
owner = exists("owner", farms, "Sergi Holdings")
own = farms[farms.owner == owner]
assert (own.area_ha == 400).any()
q("IR16", "filter", "owner_area_above",
  f"Which farms owned by {owner} irrigate more than 400 hectares?", list(own[own.area_ha > 400].farm), len(own))

with open(DATA / "questions.jsonl", "w") as fh:
    for item in questions:
        fh.write(json.dumps(item) + "\n")
print(f"wrote {len(questions)} questions to {DATA / 'questions.jsonl'}")
