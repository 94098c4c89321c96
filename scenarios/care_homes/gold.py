"""Gold answers for the care_homes questions, computed from the generated CSV files in plain Python (nothing of
vadaorchestra). Run `python gold.py` to (re)generate the data if missing and write data/questions.jsonl.
"""
from __future__ import annotations

import csv
import json
import os
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")


def load(name: str) -> list[dict]:
    with open(os.path.join(DATA, name), newline="") as fh:
        return list(csv.DictReader(fh))


def ensure_data() -> None:
    if not os.path.exists(os.path.join(DATA, "units.csv")):
        import generate
        generate.write(HERE)


def in_period(date: str, start: str, end: str) -> bool:
    """start <= date < end on ISO strings (months or days)."""
    return start <= date < end


def questions() -> list[dict]:
    units = load("units.csv")
    homes = {r["home"]: r for r in load("homes.csv")}
    residents = load("residents.csv")
    staff = load("staff.csv")
    shifts = load("agency_shifts.csv")
    budgets = {r["home"]: int(r["monthly_agency_budget_gbp"]) for r in load("agency_budgets.csv")}
    incidents = load("incidents.csv")

    children = defaultdict(list)
    for u in units:
        children[u["parent"]].append(u)

    def below(unit: str) -> list[dict]:
        out, todo = [], [unit]
        while todo:
            cur = todo.pop()
            for c in children[cur]:
                out.append(c)
                todo.append(c["unit"])
        return out

    qs: list[dict] = []

    def add(qid, qtype, template, question, answer, complexity):
        qs.append({"id": qid, "type": qtype, "template": template, "question": question, "answer": answer,
                   "complexity": complexity})

    # 1 lookup: a resident's home
    who = "Maurice Cartwright"
    rows = [r for r in residents if r["resident"] == who]
    assert len(rows) == 1
    add("ch01", "lookup", "home_of_resident", f"Which home does {who} live in?", [rows[0]["home"]], 1)

    # 2 list: the homes an agency supplied
    ag = "Northern Care Bank"
    rows = [s for s in shifts if s["agency"] == ag]
    add("ch02", "list", "homes_of_agency", f"Which of our homes has {ag} supplied staff to?",
        sorted({s["home"] for s in rows}), len(rows))

    # 3 join: the managers of the homes of an area (chain tool, then each home's staff)
    area = "Downs Area"
    hs = {u["unit"] for u in below(area) if u["unit_type"] == "home"}
    rows = [s for s in staff if s["home"] in hs and s["role"] == "home manager"]
    assert len(rows) == len(hs)
    add("ch03", "join", "managers_of_area_homes", f"Who are the home managers of the care homes in the {area}?",
        sorted(s["person"] for s in rows), len(hs) + len(rows))

    # 4 count over a month
    h = "Nightjar Lodge"
    rows = [i for i in incidents if i["home"] == h and i["incident_type"] == "fall"
            and in_period(i["incident_date"], "2024-03", "2024-04")]
    add("ch04", "count", "incidents_in_month", f"How many falls were recorded at {h} in March 2024?", len(rows),
        len(rows))

    # 5 count over a quarter
    h = "Silverbirch Court"
    rows = [r for r in residents if r["home"] == h and in_period(r["admitted_date"], "2024-07", "2024-10")]
    add("ch05", "count", "admissions_in_quarter", f"How many residents were admitted to {h} in Q3 2024?",
        len(rows), len(rows))

    # 6 total over a month
    h = "Wisteria House"
    rows = [s for s in shifts if s["home"] == h and in_period(s["shift_date"], "2024-02", "2024-03")]
    add("ch06", "total", "agency_spend_in_month", f"How much did {h} spend on agency staff in February 2024?",
        sum(int(s["cost_gbp"]) for s in rows), len(rows))

    # 7 average
    h = "Ivy House"
    rows = [r for r in residents if r["home"] == h]
    avg = sum(int(r["weekly_fee_gbp"]) for r in rows) / len(rows)
    add("ch07", "average", "average_weekly_fee", f"What is the average weekly fee paid by the residents of {h}?",
        round(avg, 2), len(rows))

    # 8 top 3 over every home
    cnt = Counter(i["home"] for i in incidents if i["incident_type"] == "fall" and i["incident_date"][:4] == "2024")
    ranked = cnt.most_common()
    assert ranked[2][1] > ranked[3][1]
    add("ch08", "superlative", "top3_homes_by_falls", "Which three homes recorded the most falls in 2024?",
        [r[0] for r in ranked[:3]], sum(cnt.values()))

    # 9 superlative within one home: the agency with the most hours
    h = "Yew Tree Court"
    hrs = defaultdict(int)
    rows = [s for s in shifts if s["home"] == h and s["shift_date"][:4] == "2024"]
    for s in rows:
        hrs[s["agency"]] += int(s["hours"])
    ranked = sorted(hrs.items(), key=lambda kv: -kv[1])
    assert ranked[0][1] > ranked[1][1]
    add("ch09", "superlative", "agency_with_most_hours", f"Which agency supplied the most hours to {h} in 2024?",
        [ranked[0][0]], len(rows))

    # 10 share of residents by funding
    h = "Foxglove Manor"
    rows = [r for r in residents if r["home"] == h]
    la = [r for r in rows if r["funding"] == "local authority"]
    add("ch10", "share", "funding_share",
        f"What percentage of the residents at {h} are funded by the local authority?",
        round(100 * len(la) / len(rows), 1), len(rows))

    # 11 share of incidents by type
    h = "The Elms"
    rows = [i for i in incidents if i["home"] == h and i["incident_date"][:4] == "2024"]
    med = [i for i in rows if i["incident_type"] == "medication error"]
    add("ch11", "share", "incident_type_share",
        f"What share of the incidents recorded at {h} in 2024 were medication errors?",
        round(100 * len(med) / len(rows), 1), len(rows))

    # 12 limit: over the budget in a month (yes)
    h = "Silverbirch Court"
    rows = [s for s in shifts if s["home"] == h and in_period(s["shift_date"], "2024-09", "2024-10")]
    spent = sum(int(s["cost_gbp"]) for s in rows)
    add("ch12", "limit", "agency_over_budget_month",
        f"Did {h} go over its monthly agency budget in September 2024?", spent > budgets[h], len(rows) + 1)

    # 13 limit: within the budget in a month (asked the other way round; the answer is no)
    h = "Rosebank Lodge"
    rows = [s for s in shifts if s["home"] == h and in_period(s["shift_date"], "2024-04", "2024-05")]
    spent = sum(int(s["cost_gbp"]) for s in rows)
    add("ch13", "limit", "agency_within_budget_month",
        f"Did {h} stay within its monthly agency budget in April 2024?", spent <= budgets[h], len(rows) + 1)

    # 14 chain: every home under a region, directly or through its areas
    reg = "Central Region"
    sub = below(reg)
    add("ch14", "chain", "homes_under_region",
        f"Which care homes does the {reg} cover, either directly or through its areas?",
        sorted(u["unit"] for u in sub if u["unit_type"] == "home"), len(sub))

    # 15 two parts: manager and registered beds
    h = "Kingfisher House"
    mgr = [s["person"] for s in staff if s["home"] == h and s["role"] == "home manager"]
    assert len(mgr) == 1
    add("ch15", "two_part", "manager_and_beds",
        f"Who is the home manager at {h}, and how many registered beds does it have?",
        {"parts": [mgr, int(homes[h]["registered_beds"])]}, 2)

    # 16 two parts: count and total cost of agency shifts in a month
    h = "Oakfield Court"
    rows = [s for s in shifts if s["home"] == h and in_period(s["shift_date"], "2024-05", "2024-06")]
    add("ch16", "two_part", "shifts_count_and_cost",
        f"How many agency shifts did {h} book in May 2024, and what did they cost altogether?",
        {"parts": [len(rows), sum(int(s["cost_gbp"]) for s in rows)]}, len(rows))

    return qs


def main() -> None:
    ensure_data()
    qs = questions()
    with open(os.path.join(DATA, "questions.jsonl"), "w") as fh:
        for q in qs:
            fh.write(json.dumps(q) + "\n")
    print(f"wrote {len(qs)} questions to data/questions.jsonl")


if __name__ == "__main__":
    main()
