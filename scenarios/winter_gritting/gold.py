"""Gold answers of the winter_gritting questions, computed in plain Python from the generated CSV files.

Writes data/questions.jsonl (one JSON object a line: id, type, template, question, answer, complexity).
Nothing of the engine is used: the CSV files are read with the csv module and every answer is computed here.

    python gold.py                # generates missing data first, then writes data/questions.jsonl
"""
from __future__ import annotations

import csv
import json
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
import generate  # noqa: E402  (the seeded generator of this folder)


def read(name: str) -> list[dict]:
    with (HERE / "data" / name).open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def main() -> None:
    generate.write(HERE)
    depots = {r["depot"]: r for r in read("depots.csv")}
    allowance = {r["depot"]: float(r["monthly_allowance_t"]) for r in read("salt_allowances.csv")}
    routes = {r["route"]: r for r in read("routes.csv")}
    vehicles = {r["vehicle"]: r for r in read("vehicles.csv")}
    staff = {r["employee"]: r for r in read("staff.csv")}
    runs = read("runs.csv")
    for r in runs:
        r["salt"] = float(r["salt_t"])

    def routes_of(depot):
        return [r for r in routes.values() if r["depot"] == depot]

    def runs_of_depot(depot, month=None):
        return [r for r in runs if routes[r["route"]]["depot"] == depot and (month is None or r["run_date"].startswith(month))]

    def reports(manager):
        """Everyone below MANAGER, with the level (1: direct report)."""
        out, frontier, level = {}, [manager], 1
        while frontier:
            nxt = [e for e, s in staff.items() if s["line_manager"] in frontier and e not in out]
            for e in nxt:
                out[e] = level
            frontier, level = nxt, level + 1
        return out

    def top(values: dict, n: int):
        """The n keys with the highest values; refuses a tie at the cut."""
        ordered = sorted(values.items(), key=lambda kv: -kv[1])
        assert len(ordered) > n - 1
        if len(ordered) > n:
            assert ordered[n - 1][1] != ordered[n][1], f"tie at the cut: {ordered[:n + 1]}"
        return [k for k, _ in ordered[:n]]

    qs: list[dict] = []

    def q(type_, template, question, answer, complexity):
        qs.append({"id": f"wg{len(qs) + 1:02d}", "type": type_, "template": template, "question": question,
                   "answer": answer, "complexity": complexity})

    # 1. a relation in the passive: the routes gritted from a depot
    rs = routes_of("Saltcombe Depot")
    q("lookup", "relation_passive", "Which routes are gritted from Saltcombe Depot?",
      sorted(r["route"] for r in rs), len(rs))

    # 2. who manages a depot
    q("lookup", "relation_active", "Who manages Kelby Depot?", [depots["Kelby Depot"]["manager"]], 1)

    # 3. the whole chain below a manager
    below = reports("Megan Hussain")
    q("multi-hop", "chain_all", "Who reports to Megan Hussain, directly or indirectly?", sorted(below), len(below))

    # 4. "managed by", first level only, a kind (drivers)
    direct = [e for e, lvl in reports("Karen Atkinson").items() if lvl == 1 and staff[e]["job_role"] == "driver"]
    q("multi-hop", "chain_direct_kind", "Which drivers are managed directly by Karen Atkinson?", sorted(direct), len(direct))

    # 5. the three longest routes of a depot
    rs = routes_of("Thornbury Depot")
    q("ranking", "top_n", "What are the three longest routes gritted from Thornbury Depot?",
      sorted(top({r["route"]: float(r["length_km"]) for r in rs}, 3)), len(rs))

    # 6. a sum over a named month, for a vehicle
    vr = [r for r in runs if r["vehicle"] == "Basil Salty" and r["run_date"].startswith("2025-01")]
    q("aggregate", "sum_month", "How much salt did Basil Salty spread in January 2025?",
      round(sum(r["salt"] for r in vr), 1), len(vr))

    # 7. a count over a named month, for a driver
    dr = [r for r in runs if r["driver"] == "Rachel Hussain" and r["run_date"].startswith("2025-01")]
    q("count", "count_month", "How many gritting runs did Rachel Hussain carry out in January 2025?", len(dr), len(dr))

    # 8. an average over a named month, for a route
    rr = [r for r in runs if r["route"] == "Kelby Bypass" and r["run_date"].startswith("2024-12")]
    q("aggregate", "average_month",
      "What was the average amount of salt spread per run on the Kelby Bypass in December 2024?",
      round(sum(r["salt"] for r in rr) / len(rr), 2), len(rr))

    # 9. a share of a kind
    rs = routes_of("Saltcombe Depot")
    prim = [r for r in rs if r["route_type"] == "primary"]
    q("share", "share_kind", "What percentage of Saltcombe Depot's routes are primary routes?",
      round(100.0 * len(prim) / len(rs), 1), len(rs))

    # 10. a limit, per month: over
    jan = runs_of_depot("Thornbury Depot", "2025-01")
    q("limit", "limit_over_month",
      "Did Thornbury Depot's gritting runs go over its monthly salt allowance in January 2025?",
      sum(r["salt"] for r in jan) > allowance["Thornbury Depot"], len(jan) + 1)

    # 11. a limit, per month: kept within?
    jan = runs_of_depot("Ashby Moor Depot", "2025-01")
    q("limit", "limit_within_month",
      "Did Ashby Moor Depot keep within its monthly salt allowance in January 2025?",
      sum(r["salt"] for r in jan) <= allowance["Ashby Moor Depot"], len(jan) + 1)

    # 12. two parts: a count of a kind, and a column of the depot
    tractors = [v for v in vehicles.values() if v["depot"] == "Harwick Depot" and v["vehicle_type"] == "tractor"]
    q("multi-part", "count_kind_and_lookup",
      "How many tractors are based at Harwick Depot, and what is the capacity of its salt barn?",
      {"parts": [len(tractors), float(depots["Harwick Depot"]["salt_barn_capacity_t"])]}, len(tractors) + 1)

    # 13. two parts: the reverse relation, then a count over a named month
    feb = [r for r in runs if r["route"] == "Rudston Link" and r["run_date"].startswith("2025-02")]
    q("multi-part", "relation_and_count_month",
      "Which depot grits the Rudston Link, and how many runs were made on it in February 2025?",
      {"parts": [[routes["Rudston Link"]["depot"]], len(feb)]}, len(feb) + 1)

    # 14. the highest total over a named month, among a depot's vehicles
    totals: dict[str, float] = defaultdict(float)
    jan = runs_of_depot("Kelby Depot", "2025-01")
    for r in jan:
        totals[r["vehicle"]] += r["salt"]
    q("ranking", "top_1_month", "Which vehicle of Kelby Depot spread the most salt in January 2025?",
      top(dict(totals), 1), len(jan))

    # 15-16. nothing in the catalog holds fuel or road temperatures
    q("unanswerable", "no_tool", "How much diesel did Gritzilla use in January 2025?", None, 0)
    q("unanswerable", "no_tool",
      "What was the road surface temperature on Moorside Round on the night of 15 January 2025?", None, 0)

    assert len(qs) == 16
    with (HERE / "data" / "questions.jsonl").open("w", encoding="utf-8") as f:
        for item in qs:
            f.write(json.dumps(item, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
