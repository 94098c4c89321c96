"""Gold answers for the bike_share questions, computed from data/*.csv in plain Python.

    python gold.py        # (re)writes data/questions.jsonl
"""
from __future__ import annotations

import csv
import json
from collections import defaultdict
from decimal import Decimal
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"


def rows(name):
    with open(DATA / name, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


zones = rows("zones.csv")
stations = rows("stations.csv")
bikes = rows("bikes.csv")
members = rows("members.csv")
plans = {p["plan"]: p for p in rows("plans.csv")}
trips = rows("trips.csv")
repairs = rows("repairs.csv")
station_by = {s["station"]: s for s in stations}
bike_by = {b["bike_id"]: b for b in bikes}
member_by = {m["member"]: m for m in members}


def in_period(date: str, start: str, end: str) -> bool:
    """start <= date < end, on ISO prefixes (a month '2024-04' or a day)."""
    return start <= date[: len(start)] and date[: len(end)] < end


def num(x: Decimal):
    x = Decimal(x).normalize()
    return int(x) if x == x.to_integral_value() else float(x)


questions = []


def add(qid, qtype, template, question, answer, complexity):
    questions.append({"id": qid, "type": qtype, "template": template, "question": question,
                      "answer": answer, "complexity": complexity})


# 1 lookup: a station's docks
add("bs01", "lookup", "station_docks", "How many docks does Glasshouse Basin have?",
    int(station_by["Glasshouse Basin"]["docks"]), 1)

# 2 lookup: the neighbourhood a station stands in
add("bs02", "lookup", "station_neighbourhood", "Which neighbourhood is the Lido Terrace docking station in?",
    [station_by["Lido Terrace"]["zone"]], 1)

# 3 list: the stations of a neighbourhood
ss = [s["station"] for s in stations if s["zone"] == "Harbour Quarter"]
add("bs03", "list", "zone_stations", "What docking stations are there in Harbour Quarter?", sorted(ss), len(ss))

# 4 join: workshops that repaired the bikes based at a station (station bikes -> bike repairs)
bs = {b["bike_id"] for b in bikes if b["home_station"] == "Brewery Street"}
rs = [r for r in repairs if r["bike_id"] in bs]
add("bs04", "join", "station_bike_workshops", "Which workshops have repaired bikes based at Brewery Street?",
    sorted({r["workshop"] for r in rs}), len(bs) + len(rs))

# 5 count over a month
ts = [t for t in trips if t["member"] == "Tomasz Farouk" and in_period(t["start_date"], "2024-04", "2024-05")]
add("bs05", "count", "member_trips_month", "How many trips did Tomasz Farouk take in April 2024?", len(ts), len(ts))

# 6 count over a quarter
ts = [t for t in trips if t["start_station"] == "Chapel Place" and in_period(t["start_date"], "2024-04", "2024-07")]
add("bs06", "count", "station_trips_quarter",
    "How many journeys started from Chapel Place in the second quarter of 2024?", len(ts), len(ts))

# 7 total over a year
ts = [t for t in trips if t["member"] == "Zara Qureshi" and t["start_date"].startswith("2024")]
add("bs07", "total", "member_fares_year", "How much did Zara Qureshi pay in fares in 2024?",
    num(sum(Decimal(t["fare_gbp"]) for t in ts)), len(ts))

# 8 total over a range of months
rs = [r for r in repairs if r["workshop"] == "Bridgefoot Depot" and in_period(r["repair_date"], "2024-01", "2024-04")]
add("bs08", "total", "workshop_cost_months",
    "What was the total cost of the repairs carried out at Bridgefoot Depot from January to March 2024?",
    num(sum(Decimal(r["cost_gbp"]) for r in rs)), len(rs))

# 9 average
ts = [t for t in trips if t["start_station"] == "Salisbury Terrace"]
avg = Decimal(sum(int(t["duration_min"]) for t in ts)) / len(ts)
assert avg * 100 == (avg * 100).to_integral_value(), avg
add("bs09", "average", "station_trip_duration_average",
    "What is the average length, in minutes, of trips that start at Salisbury Terrace?", num(avg), len(ts))

# 10 superlative over a neighbourhood's stations
ss = [s for s in stations if s["zone"] == "Barbican"]
top = max(int(s["docks"]) for s in ss)
best = [s["station"] for s in ss if int(s["docks"]) == top]
assert len(best) == 1
add("bs10", "superlative", "zone_largest_station", "Which station in Barbican has the most docks?", best, len(ss))

# 11 top three bikes of a station by repair cost
bs = {b["bike_id"] for b in bikes if b["home_station"] == "Cooper Street"}
cost = defaultdict(Decimal)
n = 0
for r in repairs:
    if r["bike_id"] in bs:
        cost[r["bike_id"]] += Decimal(r["cost_gbp"])
        n += 1
ranked = sorted(cost.items(), key=lambda kv: -kv[1])
assert ranked[2][1] > ranked[3][1]
add("bs11", "top_n", "station_top_bikes_repair_cost",
    "Which three of the bikes based at Cooper Street have cost the most to repair?",
    sorted(k for k, _ in ranked[:3]), len(bs) + n)

# 12 share of a station's bikes of one type
bs = [b for b in bikes if b["home_station"] == "Pinfold Place"]
e = [b for b in bs if b["bike_type"] == "electric"]
share = (Decimal(len(e) * 100) / len(bs)).quantize(Decimal("0.1"))
add("bs12", "share", "station_type_share", "What proportion of the bikes based at Pinfold Place are electric?",
    num(share), len(bs))

# 13 limit in a month: e-bike minutes against the plan's monthly allowance
m = member_by["Hollie Dobson"]
used = sum(int(t["duration_min"]) for t in trips
           if t["member"] == "Hollie Dobson" and t["month"] == "2024-04" and bike_by[t["bike_id"]]["bike_type"] == "electric")
allow = int(plans[m["plan"]]["ebike_minutes_included"])
add("bs13", "limit", "member_ebike_allowance_month",
    "Did Hollie Dobson go over her monthly e-bike minutes allowance in April 2024?", used > allow,
    len([t for t in trips if t["member"] == "Hollie Dobson" and t["month"] == "2024-04"]) + 2)

# 14 limit: bikes based at a station against its docks
bs = [b for b in bikes if b["home_station"] == "Victoria Yard"]
add("bs14", "limit", "station_bikes_over_docks",
    "Are there more bikes based at Victoria Yard than it has docks?",
    len(bs) > int(station_by["Victoria Yard"]["docks"]), len(bs) + 1)

# 15 chain: stations anywhere inside a district
children = defaultdict(list)
for z in zones:
    children[z["parent_zone"]].append(z["zone"])


def inside(zone):
    out = []
    for ch in children.get(zone, []):
        out.append(ch)
        out.extend(inside(ch))
    return out


area = set(inside("Riverside")) | {"Riverside"}
ss = [s for s in stations if s["zone"] in area]
add("bs15", "chain", "district_station_count",
    "How many docking stations are there in Riverside, counting all of its wards and neighbourhoods?",
    len(ss), len(ss) + len(area))

# 16 two parts: count and total minutes of a member's trips in a month
ts = [t for t in trips if t["member"] == "Olumide Aalto" and in_period(t["start_date"], "2024-06", "2024-07")]
add("bs16", "two_part", "member_trips_count_and_minutes",
    "How many trips did Olumide Aalto make in June 2024, and how many minutes did they last altogether?",
    {"parts": [len(ts), sum(int(t["duration_min"]) for t in ts)]}, len(ts))


def write() -> None:
    with open(DATA / "questions.jsonl", "w", encoding="utf-8") as fh:
        for q in questions:
            fh.write(json.dumps(q, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    write()
    for q in questions:
        print(q["id"], json.dumps(q["answer"], ensure_ascii=False))
