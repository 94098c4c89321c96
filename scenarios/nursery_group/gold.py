"""Gold answers of the nursery_group questions, computed from the CSV files with pandas alone.

    python gold.py        # (re)writes data/questions.jsonl
"""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

HERE = Path(__file__).parent
DATA = HERE / "data"
TABLES = ("units", "nurseries", "rooms", "staff", "children", "invoices")


def load():
    if not all((DATA / f"{n}.csv").exists() for n in TABLES):
        import generate
        generate.write(HERE)
    return {n: pd.read_csv(DATA / f"{n}.csv") for n in TABLES}


def _unique_top(series: pd.Series, n: int = 1):
    """The n largest entries of series; refuses a tie at the cut."""
    s = series.sort_values(ascending=False)
    assert len(s) > n and s.iloc[n - 1] != s.iloc[n], f"tie at the cut: {s.head(n + 1)}"
    return list(s.index[:n])


def in_period(frame, column, prefix):
    return frame[frame[column].str.startswith(prefix)]


def questions(d):
    units, nur, rooms, staff, kids, inv = (d["units"], d["nurseries"], d["rooms"], d["staff"], d["children"],
                                           d["invoices"])
    qs = []

    def add(qid, qtype, template, text, answer, complexity):
        qs.append({"id": qid, "type": qtype, "template": template, "question": text, "answer": answer,
                   "complexity": int(complexity)})

    # 1 relation, active voice: who runs a nursery
    row = nur[nur.nursery == "Puddleduck Hexham"]
    add("ng01", "relation", "manager_of_unit", "Who manages Puddleduck Hexham?", list(row.manager), 1)

    # 2 relation: the unit one level up
    row = units[units.unit == "Tyne Valley"]
    add("ng02", "relation", "parent_of_unit", "Which region does the Tyne Valley area belong to?",
        list(row.parent_unit), 1)

    # 3 top three over every nursery in a year
    rows = in_period(inv, "month", "2024")
    top = _unique_top(rows.groupby("nursery").fee_gbp.sum(), 3)
    add("ng03", "top_n", "top3_all_entities", "Name the three nurseries that invoiced the most in fees during 2024.",
        top, len(rows))

    # 4 count of people of a kind (a role as a noun)
    rows = staff[(staff.nursery == "Puddleduck Durham") & (staff.role == "apprentice")]
    add("ng04", "count", "count_people_of_role", "How many apprentices does Puddleduck Durham employ?",
        len(rows), len(rows))

    # 5 superlative over a count within one nursery
    rows = kids[kids.nursery == "Puddleduck Hexham"]
    top = _unique_top(rows.groupby("room").size())
    add("ng05", "superlative", "most_within_entity", "Which room at Puddleduck Hexham has the most children enrolled?",
        top, len(rows))

    # 6 count over a year, dated by the start
    rows = in_period(kids[kids.nursery == "Puddleduck Alnwick"], "start_date", "2024")
    add("ng06", "count", "count_year", "How many children started at Puddleduck Alnwick in 2024?", len(rows),
        len(rows))

    # 7 total over a month
    rows = in_period(inv[inv.nursery == "Puddleduck Sunderland"], "month", "2024-03")
    add("ng07", "aggregate", "total_month", "What was the total invoiced in fees at Puddleduck Sunderland for March 2024?",
        round(float(rows.fee_gbp.sum()), 2), len(rows))

    # 8 average over a year
    rows = in_period(inv[inv.nursery == "Puddleduck Morpeth"], "month", "2024")
    add("ng08", "aggregate", "average_year", "What was the average fee per invoice at Puddleduck Morpeth in 2024?",
        round(float(rows.fee_gbp.mean()), 2), len(rows))

    # 9 share of a kind (an age group as a noun)
    rows = kids[kids.nursery == "Puddleduck Hexham"]
    share = 100.0 * (rows.age_group == "toddlers").sum() / len(rows)
    add("ng09", "share", "share_of_kind", "What percentage of the children at Puddleduck Hexham are toddlers?",
        round(float(share), 1), len(rows))

    # 10 yes/no against a limit counted in children
    rows = kids[kids.nursery == "Puddleduck Whitley Bay"]
    places = int(nur[nur.nursery == "Puddleduck Whitley Bay"].registered_places.iloc[0])
    add("ng10", "limit", "count_over_limit",
        "Does Puddleduck Whitley Bay have more children on its roll than its registered places?",
        bool(len(rows) > places), len(rows) + 1)

    # 11 hierarchy: the nurseries under a region (two levels down)
    areas = units[units.parent_unit == "Yorkshire Region"].unit
    under = units[units.parent_unit.isin(areas) & (units.unit_type == "nursery")].unit
    add("ng11", "hierarchy", "things_under_unit", "Which nurseries are in the Yorkshire Region, across all its areas?",
        sorted(under), len(areas) + len(under))

    # 12 two parts: a count and a total over the same month
    rows = in_period(inv[inv.nursery == "Puddleduck Durham"], "month", "2024-05")
    add("ng12", "two_part", "count_and_total",
        "How many children were invoiced at Puddleduck Durham in May 2024, and what did their fees come to in total?",
        {"parts": [int(rows.child.nunique()), round(float(rows.fee_gbp.sum()), 2)]}, len(rows))

    # 13 two parts: two attributes of one person
    row = staff[staff.staff_member == "Hayley Wilkinson"]
    assert len(row) == 1
    add("ng13", "two_part", "two_attributes",
        "Which nursery does Hayley Wilkinson work at, and what is her role there?",
        {"parts": [[row.nursery.iloc[0]], [row.role.iloc[0]]]}, 1)

    # 14 who-question: people in a role
    rows = staff[(staff.nursery == "Puddleduck Alnwick") & (staff.role == "room leader")]
    add("ng14", "who", "people_in_role", "Which members of staff at Puddleduck Alnwick are room leaders?",
        sorted(rows.staff_member), len(rows))

    # 15 total for one child over a year
    rows = in_period(inv[inv.child == "Evie Pryce"], "month", "2024")
    assert len(kids[kids.child == "Evie Pryce"]) == 1
    add("ng15", "aggregate", "total_year_person", "How many funded hours did Evie Pryce use in 2024?",
        round(float(rows.funded_hours.sum()), 2), len(rows))

    # 16 not in the catalog
    add("ng16", "unanswerable", "not_in_catalog", "What Ofsted rating does Puddleduck Hexham hold?", None, 0)
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
