"""Gold answers of the pest_control questions, computed from the CSV files with pandas alone.

    python gold.py        # (re)writes data/questions.jsonl
"""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

HERE = Path(__file__).parent
DATA = HERE / "data"


def load():
    if not (DATA / "callouts.csv").exists():
        import generate
        generate.write(HERE)
    return {n: pd.read_csv(DATA / f"{n}.csv") for n in ("offices", "technicians", "clients", "callouts")}


def _unique_top(series: pd.Series, n: int = 1):
    """The n largest entries of series; refuses a tie at the cut."""
    s = series.sort_values(ascending=False)
    assert len(s) > n and s.iloc[n - 1] != s.iloc[n], f"tie at the cut: {s.head(n + 1)}"
    return list(s.index[:n])


def in_period(frame, column, prefix):
    return frame[frame[column].str.startswith(prefix)]


def questions(d):
    off, tech, cli, co = d["offices"], d["technicians"], d["clients"], d["callouts"]
    qs = []

    def add(qid, qtype, template, text, answer, complexity):
        qs.append({"id": qid, "type": qtype, "template": template, "question": text, "answer": answer,
                   "complexity": int(complexity)})

    # 1 direct lookup of one attribute
    row = off[off.office == "Harrogate"]
    add("pc01", "lookup", "attribute_of_entity", "What year did the Harrogate branch open?",
        int(row.opened_year.iloc[0]), 1)

    # 2 direct lookup of a text attribute
    row = tech[tech.technician == "Lewis Barker"]
    add("pc02", "lookup", "attribute_of_person", "What's the registration of the van Lewis Barker drives?",
        [row.van_registration.iloc[0]], 1)

    # 3 count of things of a kind over a year
    rows = in_period(co[(co.branch == "York") & (co.pest == "wasps")], "visit_date", "2024")
    add("pc03", "count", "count_kind_period", "How many wasp callouts did the York branch attend in 2024?",
        len(rows), len(rows))

    # 4 total over a named month
    rows = in_period(co[co.branch == "Leeds"], "visit_date", "2024-03")
    add("pc04", "aggregate", "total_month",
        "What did the Leeds branch charge in total for callouts in March 2024?",
        round(float(rows.charge_gbp.sum()), 2), len(rows))

    # 5 average over a year
    rows = in_period(co[co.branch == "Nottingham"], "visit_date", "2024")
    add("pc05", "aggregate", "average_year",
        "What was the average charge per callout at the Nottingham branch in 2024?",
        round(float(rows.charge_gbp.mean()), 2), len(rows))

    # 6 superlative within a branch
    rows = in_period(co[co.branch == "Bradford"], "visit_date", "2024")
    top = _unique_top(rows.groupby("technician").size())
    add("pc06", "superlative", "most_within_entity",
        "Which technician at the Bradford branch attended the most callouts in 2024?", top, len(rows))

    # 7 top N over every branch
    rows = in_period(co, "visit_date", "2024")
    top = _unique_top(rows.groupby("branch").charge_gbp.sum(), 3)
    add("pc07", "top_n", "top3_all_entities", "Which three branches charged the most for callouts in 2024?",
        top, len(rows))

    # 8 hierarchy: the branches under a region (two levels down)
    districts = off[off.parent_office == "Northern Region"].office
    branches = off[off.parent_office.isin(districts) & (off.office_type == "branch")].office
    add("pc08", "hierarchy", "things_under_unit", "Which branches come under the Northern Region?",
        sorted(branches), len(districts) + len(branches))

    # 9 hierarchy then a count over a month
    wessex = off[(off.parent_office == "Wessex") & (off.office_type == "branch")].office
    rows = in_period(co[co.branch.isin(wessex)], "visit_date", "2024-06")
    add("pc09", "hierarchy", "count_under_unit_month",
        "How many callouts did the branches in the Wessex district attend in June 2024?",
        len(rows), len(rows) + len(wessex))

    # 10 who-question about a person in a role
    who = tech[(tech.branch == "Harrogate") & (tech.role == "branch manager")].technician
    assert len(who) == 1
    add("pc10", "who", "person_in_role", "Who is the branch manager at Harrogate?", list(who), 1)

    # 11 count of people of a kind
    rows = tech[(tech.branch == "Leicester") & (tech.role == "trainee")]
    add("pc11", "count", "count_people_of_role", "How many trainees work at the Leicester branch?",
        len(rows), len(rows))

    # 12 yes/no against a monthly limit
    rows = in_period(co[co.technician == "Priya Nair"], "visit_date", "2024-05")
    cap = float(tech[tech.technician == "Priya Nair"].monthly_hours_cap.iloc[0])
    add("pc12", "limit", "over_monthly_cap",
        "Did Priya Nair work more than her monthly hours cap in May 2024?",
        bool(rows.hours.sum() > cap), len(rows) + 1)

    # 13 percentage
    rows = in_period(co[co.branch == "Leeds"], "visit_date", "2024")
    share = 100.0 * (rows.pest == "rats").sum() / len(rows)
    add("pc13", "share", "share_of_kind",
        "What percentage of the Leeds branch's callouts in 2024 were for rats?", round(share, 1), len(rows))

    # 14 two parts
    rows = in_period(co[co.branch == "Salisbury"], "visit_date", "2024")
    add("pc14", "two_part", "count_and_total",
        "How many callouts did the Salisbury branch attend in 2024, and how much did it charge for them in total?",
        {"parts": [len(rows), round(float(rows.charge_gbp.sum()), 2)]}, len(rows))

    # 15 join of two tools: the branch's clients (their kind) with its callouts
    homes = cli[(cli.branch == "Wolverhampton") & (cli.client_type == "school")]
    rows = in_period(co[(co.branch == "Wolverhampton") & (co.pest == "bedbugs") & co.client.isin(homes.client)],
                     "visit_date", "2024")
    answer = sorted(rows.client.unique())
    assert answer and len(answer) < len(homes), (answer, list(homes.client))
    add("pc15", "join", "kind_of_client_with_event",
        "Which of the Wolverhampton branch's school clients had a bedbug callout in 2024?",
        answer, len(rows) + len(homes))

    # 16 not in the catalog
    add("pc16", "unanswerable", "not_in_catalog", "How much rodenticide did the Leeds branch use in 2024?",
        None, 0)
    return qs


def main():
    qs = questions(load())
    assert len(qs) == 16 and len({q["id"] for q in qs}) == 16
    with open(DATA / "questions.jsonl", "w") as fh:
        for q in qs:
            fh.write(json.dumps(q) + "\n")
    for q in qs:
        print(q["id"], q["question"], "->", q["answer"])


if __name__ == "__main__":
    main()
