"""Gold answers of the cinema_chain questions, computed from the CSV files with pandas alone.

    python gold.py        # (re)writes data/questions.jsonl
"""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

HERE = Path(__file__).parent
DATA = HERE / "data"
TABLES = ("units", "cinemas", "screens", "staff", "films", "screenings")


def load():
    if not all((DATA / f"{n}.csv").exists() for n in TABLES):
        import generate
        generate.write(HERE)
    return {n: pd.read_csv(DATA / f"{n}.csv", dtype={"certificate": str}) for n in TABLES}


def _unique_top(series: pd.Series, n: int = 1):
    """The n largest entries of series; refuses a tie at the cut."""
    s = series.sort_values(ascending=False)
    assert len(s) > n and s.iloc[n - 1] != s.iloc[n], f"tie at the cut: {s.head(n + 1)}"
    return list(s.index[:n])


def in_period(frame, column, prefix):
    return frame[frame[column].str.startswith(prefix)]


def questions(d):
    units, cin, scr, staff, films, sc = (d["units"], d["cinemas"], d["screens"], d["staff"], d["films"],
                                         d["screenings"])
    qs = []

    def add(qid, qtype, template, text, answer, complexity):
        qs.append({"id": qid, "type": qtype, "template": template, "question": text, "answer": answer,
                   "complexity": int(complexity)})

    # 1 relation, passive voice: the unit a person manages
    rows = units[units.manager == "Rachel Osei"]
    assert len(rows) == 1
    add("cc01", "relation", "unit_managed_by_person", "Which area is managed by Rachel Osei?",
        list(rows.unit), 1)

    # 2 relation: the unit a cinema reports to
    rows = units[units.unit == "Lumen Harrogate"]
    add("cc02", "relation", "parent_of_unit", "Which area does Lumen Harrogate report to?",
        list(rows.parent_unit), 1)

    # 3 top three over every cinema in a year
    rows = in_period(sc, "show_date", "2024")
    top = _unique_top(rows.groupby("cinema").tickets_sold.sum(), 3)
    add("cc03", "top_n", "top3_all_entities", "Which three cinemas sold the most tickets in 2024?", top, len(rows))

    # 4 count of things of a kind (a category value as a noun)
    rows = scr[(scr.cinema == "Lumen Manchester") & (scr.screen_format == "IMAX")]
    add("cc04", "count", "count_of_kind", "How many IMAX screens does Lumen Manchester have?", len(rows),
        len(scr[scr.cinema == "Lumen Manchester"]))

    # 5 superlative over an attribute within one cinema
    rows = scr[scr.cinema == "Lumen Sheffield"]
    top = _unique_top(rows.set_index("screen").seats)
    add("cc05", "superlative", "largest_attribute_within_entity",
        "Which screen at Lumen Sheffield has the most seats?", top, len(rows))

    # 6 superlative over a sum within one cinema and one month
    rows = in_period(sc[sc.cinema == "Lumen Leeds"], "show_date", "2024-11")
    top = _unique_top(rows.groupby("film").tickets_sold.sum())
    add("cc06", "superlative", "most_within_entity_month",
        "Which film sold the most tickets at Lumen Leeds in November 2024?", top, len(rows))

    # 7 count over a month
    rows = in_period(sc[sc.cinema == "Lumen Bristol"], "show_date", "2024-10")
    add("cc07", "count", "count_month", "How many screenings were there at Lumen Bristol in October 2024?",
        len(rows), len(rows))

    # 8 total over a month
    rows = in_period(sc[sc.cinema == "Lumen Leeds"], "show_date", "2024-12")
    add("cc08", "aggregate", "total_month", "What were Lumen Leeds' box office takings in December 2024?",
        round(float(rows.box_office_gbp.sum()), 2), len(rows))

    # 9 average over a year
    rows = in_period(sc[sc.cinema == "Lumen York"], "show_date", "2024")
    add("cc09", "aggregate", "average_year",
        "On average, how many tickets did a screening at Lumen York sell in 2024?",
        round(float(rows.tickets_sold.mean()), 2), len(rows))

    # 10 share of a whole, the part restricted by a second entity
    rows = in_period(sc[sc.cinema == "Lumen Leeds"], "show_date", "2024")
    part = rows[rows.film == "The Glass Orchard"]
    assert len(part) > 0
    share = 100.0 * part.box_office_gbp.sum() / rows.box_office_gbp.sum()
    add("cc10", "share", "share_of_entity",
        "What percentage of Lumen Leeds' box office takings in 2024 came from The Glass Orchard?",
        round(float(share), 1), len(rows))

    # 11 yes/no against a monthly limit
    rows = in_period(sc[sc.cinema == "Lumen Brighton"], "show_date", "2024-08")
    cap = int(cin[cin.cinema == "Lumen Brighton"].monthly_comp_allowance.iloc[0])
    add("cc11", "limit", "over_monthly_allowance",
        "Did Lumen Brighton give out more complimentary tickets than its monthly allowance in August 2024?",
        bool(rows.comp_tickets.sum() > cap), len(rows) + 1)

    # 12 hierarchy: the cinemas under a division (two levels down)
    areas = units[units.parent_unit == "North Division"].unit
    cinemas = units[units.parent_unit.isin(areas) & (units.unit_type == "cinema")].unit
    add("cc12", "hierarchy", "things_under_unit", "List all the cinemas under the North Division.",
        sorted(cinemas), len(areas) + len(cinemas))

    # 13 two parts: a count and a total over the same month
    rows = in_period(sc[sc.cinema == "Lumen Cardiff"], "show_date", "2024-03")
    add("cc13", "two_part", "count_and_total",
        "How many screenings did Lumen Cardiff show in March 2024, and how many tickets did they sell altogether?",
        {"parts": [len(rows), int(rows.tickets_sold.sum())]}, len(rows))

    # 14 two parts: two attributes of one film
    row = films[films.film == "The Glass Orchard"]
    add("cc14", "two_part", "two_attributes",
        "What genre is The Glass Orchard, and which distributor releases it?",
        {"parts": [[row.genre.iloc[0]], [row.distributor.iloc[0]]]}, 1)

    # 15 who-question: people in a role
    rows = staff[(staff.cinema == "Lumen Oxford") & (staff.role == "projectionist")]
    add("cc15", "who", "people_in_role", "Who are the projectionists at Lumen Oxford?",
        sorted(rows.staff_member), len(rows))

    # 16 not in the catalog
    add("cc16", "unanswerable", "not_in_catalog", "How many kilos of popcorn did Lumen Leeds sell in 2024?",
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
