"""Gold answers of the taxi_licensing questions, computed in plain Python from the generated CSV files.

Writes data/questions.jsonl (one JSON object a line: id, type, template, question, answer, complexity).
Nothing of the engine is used: the CSV files are read with the csv module and every answer is computed here.

    python gold.py                # generates missing data first, then writes data/questions.jsonl
"""
from __future__ import annotations

import csv
import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
import generate  # noqa: E402  (the seeded generator of this folder)


def read(name: str) -> list[dict]:
    with (HERE / "data" / name).open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def main() -> None:
    generate.write(HERE)
    operators = {r["operator"]: r for r in read("operators.csv")}
    vehicles = read("vehicles.csv")
    drivers = {r["driver"]: r for r in read("drivers.csv")}
    inspections = read("inspections.csv")
    complaints = read("complaints.csv")

    def vehicles_of(op):
        return [v for v in vehicles if v["operator"] == op]

    def inspections_of(op, period=""):
        plates = {v["plate"] for v in vehicles_of(op)}
        return [i for i in inspections if i["plate"] in plates and i["inspection_date"].startswith(period)]

    def complaints_of_operator(op, period=""):
        return [c for c in complaints
                if drivers[c["driver"]]["operator"] == op and c["complaint_date"].startswith(period)]

    def complaints_of_driver(driver, period=""):
        return [c for c in complaints if c["driver"] == driver and c["complaint_date"].startswith(period)]

    def top(values: dict, n: int):
        """The n keys with the highest values; refuses a tie at the cut."""
        ordered = sorted(values.items(), key=lambda kv: -kv[1])
        if len(ordered) > n:
            assert ordered[n - 1][1] != ordered[n][1], f"tie at the cut: {ordered[:n + 1]}"
        return [k for k, _ in ordered[:n]]

    qs: list[dict] = []

    def q(type_, template, question, answer, complexity):
        qs.append({"id": f"tx{len(qs) + 1:02d}", "type": type_, "template": template, "question": question,
                   "answer": answer, "complexity": complexity})

    # 1. a relation in the passive: the vehicles licensed to an operator
    vs = vehicles_of("Kingsway Executive")
    q("lookup", "relation_passive", "Which vehicles are licensed to Kingsway Executive?",
      sorted(v["plate"] for v in vs), len(vs))

    # 2. who holds an operator's licence
    q("lookup", "relation_active", "Who holds the operator licence of Station Cabs?",
      [operators["Station Cabs"]["licence_holder"]], 1)

    # 3. the reverse relation: the operator a driver drives for
    q("lookup", "relation_reverse", "Which operator does Hollie Nowicki drive for?",
      [drivers["Hollie Nowicki"]["operator"]], 1)

    # 4. a yes/no column as a condition, counted
    vs = vehicles_of("Riverside Private Hire")
    q("count", "count_flag", "How many wheelchair-accessible vehicles does Riverside Private Hire run?",
      sum(v["wheelchair_accessible"] == "yes" for v in vs), len(vs))

    # 5. a kind (a vehicle class as a noun), counted
    vs = vehicles_of("Northgate Taxis")
    q("count", "count_kind", "How many saloons are licensed to Northgate Taxis?",
      sum(v["vehicle_class"] == "saloon" for v in vs), len(vs))

    # 6. a sum over a named month
    ins = inspections_of("Castle Cars", "2025-03")
    q("aggregate", "sum_month", "What did the inspections of Castle Cars' vehicles cost in total in March 2025?",
      round(sum(float(i["fee_gbp"]) for i in ins), 2), len(ins))

    # 7. a count over a named month, for an inspector
    ins = [i for i in inspections if i["inspector"] == "Siobhan Kelly" and i["inspection_date"].startswith("2025-02")]
    q("count", "count_month", "How many inspections did Siobhan Kelly carry out in February 2025?", len(ins), len(ins))

    # 8. an average over a named year
    ins = inspections_of("Bluebird Cars", "2024")
    q("aggregate", "average_period", "What was the average inspection fee paid for Bluebird Cars' vehicles in 2024?",
      round(sum(float(i["fee_gbp"]) for i in ins) / len(ins), 2), len(ins))

    # 9. the three drivers of an operator with the most complaints
    cs = complaints_of_operator("Riverside Private Hire")
    q("ranking", "top_n_count",
      "Which three drivers of Riverside Private Hire have had the most complaints made against them?",
      sorted(top(Counter(c["driver"] for c in cs), 3)), len(cs))

    # 10. a share with a condition
    cs = complaints_of_operator("Northgate Taxis")
    upheld = [c for c in cs if c["outcome"] == "upheld"]
    q("share", "share_condition", "What percentage of the complaints against Northgate Taxis drivers were upheld?",
      round(100.0 * len(upheld) / len(cs), 1), len(cs))

    # 11. a limit in whole things: vehicles against the fleet cap
    vs = vehicles_of("Castle Cars")
    q("limit", "limit_count", "Does Castle Cars license more vehicles than its fleet cap allows?",
      len(vs) > int(operators["Castle Cars"]["fleet_cap"]), len(vs) + 1)

    # 12. a limit in points: the penalty points of a driver's complaints against the limit of the licence
    cs = complaints_of_driver("Kerry Grimshaw")
    q("limit", "limit_sum", "Has Kerry Grimshaw collected more penalty points than the limit on her licence allows?",
      sum(int(c["penalty_points"]) for c in cs) > int(drivers["Kerry Grimshaw"]["points_limit"]), len(cs) + 1)

    # 13. two parts: a count, and how many of them meet a condition
    cs = complaints_of_driver("Jade Moran")
    q("multi-part", "count_and_count_condition",
      "How many complaints have been made against Jade Moran, and how many of them were upheld?",
      {"parts": [len(cs), sum(c["outcome"] == "upheld" for c in cs)]}, len(cs))

    # 14. a kind as a modifier, counted over a named year, through the operator's drivers
    cs = complaints_of_operator("Castle Cars", "2024")
    q("count", "count_kind_period", "How many overcharging complaints were made against Castle Cars drivers in 2024?",
      sum(c["complaint_type"] == "overcharging" for c in cs), len(cs))

    # 15-16. nothing in the catalog holds journeys or fares
    q("unanswerable", "no_tool", "How many passengers did Castle Cars carry in March 2025?", None, 0)
    q("unanswerable", "no_tool", "What fare per mile does Station Cabs charge?", None, 0)

    assert len(qs) == 16
    with (HERE / "data" / "questions.jsonl").open("w", encoding="utf-8") as f:
        for item in qs:
            f.write(json.dumps(item, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
