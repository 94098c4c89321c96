"""Gold answers for the weather_network questions, computed from data/*.csv in plain Python.

    python gold.py        # (re)writes data/questions.jsonl
"""
from __future__ import annotations

import csv
import json
from collections import Counter, defaultdict
from decimal import Decimal
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"


def rows(name):
    with open(DATA / name, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


offices = rows("offices.csv")
budgets = {r["office"]: Decimal(r["monthly_budget_gbp"]) for r in rows("office_budgets.csv")}
stations = rows("stations.csv")
visits = rows("visits.csv")
summaries = rows("monthly_summaries.csv")
station_by = {s["station"]: s for s in stations}


def in_period(date: str, start: str, end: str) -> bool:
    """start <= date < end, on ISO prefixes (a month '2024-04' or a day)."""
    return start <= date[: len(start)] and date[: len(end)] < end


def office_stations(office):
    return [s for s in stations if s["office"] == office]


def office_visits(office):
    names = {s["station"] for s in office_stations(office)}
    return [v for v in visits if v["station"] in names]


def num(x: Decimal):
    x = x.normalize()
    return int(x) if x == x.to_integral_value() else float(x)


questions = []


def add(qid, qtype, template, question, answer, complexity):
    questions.append({"id": qid, "type": qtype, "template": template, "question": question,
                      "answer": answer, "complexity": complexity})


# 1 lookup: a station's elevation
s = station_by["Pike Moor"]
add("wn01", "lookup", "station_attribute", "What is the elevation of the Pike Moor station?",
    int(s["elevation_m"]), 1)

# 2 lookup: the office that runs a station
s = station_by["Wether Knowe"]
add("wn02", "lookup", "station_office", "Which office runs Wether Knowe?", [s["office"]], 1)

# 3 list: the stations an office runs
ss = office_stations("Kelso Area Office")
add("wn03", "list", "office_stations", "List the stations the Kelso Area Office looks after.",
    sorted(x["station"] for x in ss), len(ss))

# 4 join: technicians who visited the stations of an office (stations -> visits)
vs = office_visits("Dorchester Area Office")
add("wn04", "join", "office_station_technicians",
    "Which technicians have carried out visits to stations run by the Dorchester Area Office?",
    sorted({v["technician"] for v in vs}), len(vs) + len(office_stations("Dorchester Area Office")))

# 5 count over a month
vs = [v for v in visits if v["technician"] == "Alasdair Treharne" and in_period(v["visit_date"], "2024-09", "2024-10")]
add("wn05", "count", "technician_visits_month", "How many visits did Alasdair Treharne make in September 2024?",
    len(vs), len(vs))

# 6 count over a quarter, one kind of visit
vs = [v for v in office_visits("Norwich Area Office")
      if v["visit_type"] == "repair" and in_period(v["visit_date"], "2024-07", "2024-10")]
add("wn06", "count", "office_kind_visits_quarter",
    "How many repair visits were needed at Norwich Area Office stations in Q3 2024?", len(vs),
    len([v for v in office_visits("Norwich Area Office") if in_period(v["visit_date"], "2024-07", "2024-10")]))

# 7 total over a year
ms = [m for m in summaries if m["station"] == "Salt Knowe" and m["month"].startswith("2024")]
add("wn07", "total", "station_rainfall_year", "What was the total rainfall at Salt Knowe in 2024?",
    num(sum(Decimal(m["rainfall_mm"]) for m in ms)), len(ms))

# 8 total over a range of months
vs = [v for v in office_visits("Salisbury Area Office") if in_period(v["visit_date"], "2024-04", "2024-07")]
add("wn08", "total", "office_cost_months",
    "How much did maintenance visits to the Salisbury Area Office's stations cost between April and June 2024?",
    num(sum(Decimal(v["cost_gbp"]) for v in vs)), len(vs))

# 9 average over a year
ms = [m for m in summaries if m["station"] == "Carnwick" and m["month"].startswith("2023")]
avg = sum(Decimal(m["sunshine_hours"]) for m in ms) / len(ms)
assert avg * 100 == (avg * 100).to_integral_value(), avg
add("wn09", "average", "station_sunshine_average", "On average, how many hours of sunshine did Carnwick get per month in 2023?",
    num(avg), len(ms))

# 10 superlative over an office's stations
ss = office_stations("Fenwick Area Office")
top = max(int(x["elevation_m"]) for x in ss)
best = [x["station"] for x in ss if int(x["elevation_m"]) == top]
assert len(best) == 1
add("wn10", "superlative", "office_highest_station",
    "Which of the Fenwick Area Office's stations sits at the highest elevation?", best, len(ss))

# 11 top three by number of visits in a year
vs = [v for v in office_visits("Norwich Area Office") if v["visit_date"].startswith("2024")]
c = Counter(v["station"] for v in vs)
ranked = c.most_common()
assert ranked[2][1] > ranked[3][1], ranked[:5]
add("wn11", "top_n", "office_top_stations_visits",
    "Name the three Norwich Area Office stations that had the most maintenance visits in 2024.",
    sorted(k for k, _ in ranked[:3]), len(vs))

# 12 share of an office's stations of one type
ss = office_stations("Fenwick Area Office")
auto = [x for x in ss if x["station_type"] == "automatic"]
share = Decimal(len(auto) * 100) / Decimal(len(ss))
add("wn12", "share", "office_type_share",
    "What percentage of the stations run by the Fenwick Area Office are automatic?",
    num(share.quantize(Decimal("0.1"))), len(ss))

# 13 limit check in a month: rainfall against the station's flood alert threshold
m = next(m for m in summaries if m["station"] == "Benbeck" and m["month"] == "2024-07")
add("wn13", "limit", "station_flood_threshold_month",
    "Did the rainfall at Benbeck in July 2024 exceed its flood alert threshold?",
    Decimal(m["rainfall_mm"]) > Decimal(station_by["Benbeck"]["flood_alert_mm"]), 2)

# 14 limit check in a month: an office's visit costs against its monthly maintenance budget
vs = [v for v in office_visits("Kelso Area Office") if in_period(v["visit_date"], "2024-10", "2024-11")]
spent = sum(Decimal(v["cost_gbp"]) for v in vs)
add("wn14", "limit", "office_budget_month",
    "Did the Kelso Area Office go over its monthly maintenance budget in October 2024?",
    spent > budgets["Kelso Area Office"], len(vs) + 1)

# 15 chain: every office below a regional office
children = defaultdict(list)
for o in offices:
    children[o["parent_office"]].append(o["office"])


def below(office):
    out = []
    for ch in children.get(office, []):
        out.append(ch)
        out.extend(below(ch))
    return out


bl = below("Northern Regional Office")
add("wn15", "chain", "offices_below",
    "Which offices come under the Northern Regional Office, either directly or through another office?",
    sorted(bl), len(bl))

# 16 two parts: count and total of one station's visits in a year
vs = [v for v in visits if v["station"] == "Whitemore" and v["visit_date"].startswith("2024")]
add("wn16", "two_part", "station_visits_count_and_cost",
    "How many maintenance visits did Whitemore have in 2024, and what did they cost altogether?",
    {"parts": [len(vs), num(sum(Decimal(v["cost_gbp"]) for v in vs))]}, len(vs))


def write() -> None:
    with open(DATA / "questions.jsonl", "w", encoding="utf-8") as fh:
        for q in questions:
            fh.write(json.dumps(q, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    write()
    for q in questions:
        print(q["id"], json.dumps(q["answer"], ensure_ascii=False))
