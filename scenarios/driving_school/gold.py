"""Gold answers for the driving_school questions, computed from the CSV data with pandas.

Nothing here uses vadaorchestra: every answer is read off data/*.csv directly.

    python gold.py        # writes data/questions.jsonl (generating the data first if it is missing)
"""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"


def load() -> dict[str, pd.DataFrame]:
    if not (DATA / "lessons.csv").exists():
        import generate
        generate.write(HERE)
    names = ["units", "instructors", "learners", "lessons", "tests"]
    return {n: pd.read_csv(DATA / f"{n}.csv", keep_default_na=False) for n in names}


def units_under(t, unit: str) -> pd.DataFrame:
    """Every unit below `unit`, however deep (plain breadth-first walk)."""
    units = t["units"]
    found, frontier = [], [unit]
    while frontier:
        children = units[units.parent_unit.isin(frontier)]
        found.append(children)
        frontier = children.unit.tolist()
    return pd.concat(found)


def unique_top(series: pd.Series, n: int) -> list:
    s = series.sort_values(ascending=False)
    assert len(s) > n and s.iloc[n - 1] > s.iloc[n], f"tie at the top {n}: {s.head(n + 1).to_dict()}"
    return s.head(n).index.tolist()


def questions(t):
    units, ins, lrn, les, tst = t["units"], t["instructors"], t["learners"], t["lessons"], t["tests"]
    qs = []

    def q(qid, qtype, template, text, answer, complexity):
        qs.append({"id": qid, "type": qtype, "template": template, "question": text,
                   "answer": answer, "complexity": int(complexity)})

    def lessons_of(name, period=None):
        x = les[les.instructor == name]
        return x if period is None else x[x.lesson_date.str.startswith(period)]

    def tests_at(centre, period=None):
        x = tst[tst.test_centre == centre]
        return x if period is None else x[x.test_date.str.startswith(period)]

    # 1 lookup of one attribute
    r = ins[ins.instructor == "Megan Lusk"]
    q("ds01", "lookup", "attribute_of_entity",
      "What hourly rate does Megan Lusk charge?", float(r.hourly_rate_gbp.iloc[0]), len(r))

    # 2 count of things of a kind
    b = ins[ins.branch == "Redgate"]
    q("ds02", "count", "count_of_kind",
      "How many automatic instructors does the Redgate branch have?",
      int((b.transmission == "automatic").sum()), len(b))

    # 3 count over a year
    x = tests_at("Kingsmead Test Centre", "2024")
    q("ds03", "count", "count_in_period",
      "How many driving tests were taken at Kingsmead Test Centre in 2024?", int(len(x)), len(x))

    # 4 total over a named month
    x = lessons_of("Gavin Hurst", "2024-07")
    q("ds04", "aggregate", "total_in_month",
      "How many hours of lessons did Gavin Hurst teach in July 2024?", float(x.hours.sum()), len(x))

    # 5 average over a year
    x = tests_at("Winslade Test Centre", "2024")
    q("ds05", "aggregate", "average_in_year",
      "What was the average number of minor faults on the tests taken at Winslade Test Centre in 2024?",
      round(float(x.minor_faults.mean()), 2), len(x))

    # 6 superlative within a unit
    b = ins[ins.branch == "Fenwick"].set_index("instructor").hourly_rate_gbp
    q("ds06", "superlative", "max_within_unit",
      "Which instructor at the Fenwick branch has the highest hourly rate?", unique_top(b, 1), len(b))

    # 7 top N over one person's events
    x = lessons_of("Chloe Varley").groupby("learner").size()
    q("ds07", "top_n", "top_n_by_count",
      "Which three learners has Chloe Varley given the most lessons to?", unique_top(x, 3), int(x.sum()))

    # 8 hierarchy: things of a kind under a unit, two levels down
    sub = units_under(t, "Southern Region")
    br = sub[sub.unit_type == "branch"].unit.tolist()
    q("ds08", "hierarchy", "descendants_of_kind",
      "List the branches in the Southern Region.", sorted(br), len(sub))

    # 9 who: a person in a role
    m = units[units.unit == "Harefield"].manager.tolist()
    q("ds09", "who", "role_holder", "Who manages the Harefield branch?", m, 1)

    # 10 who: a person related to a person
    i = lrn[lrn.learner == "Leo Quinn"].instructor.tolist()
    q("ds10", "who", "assigned_person", "Who is Leo Quinn's instructor?", i, 1)

    # 11 yes/no against a monthly limit
    x = lessons_of("Isaac Fenn", "2024-03")
    cap = float(ins[ins.instructor == "Isaac Fenn"].monthly_hours_cap.iloc[0])
    q("ds11", "limit", "monthly_cap_check",
      "Did Isaac Fenn teach more than his monthly hours cap in March 2024?",
      bool(x.hours.sum() > cap), len(x) + 1)

    # 12 percentage / share
    x = tests_at("Hollowell Test Centre", "2024")
    q("ds12", "share", "share_of_result",
      "What percentage of the tests taken at Hollowell Test Centre in 2024 were passes?",
      round(100.0 * float((x.result == "pass").sum()) / len(x), 1), len(x))

    # 13 two parts
    x = lessons_of("Tom Brannigan", "2024-10")
    q("ds13", "multi_part", "count_and_total",
      "How many lessons did Tom Brannigan give in October 2024, and what did they come to in fees?",
      {"parts": [int(len(x)), round(float(x.fee_gbp.sum()), 2)]}, len(x))

    # 14 join of two tools: an instructor's learners, then each learner's tests
    mine = lrn[lrn.instructor == "Sanjay Patel"].learner
    passed = tst[tst.learner.isin(mine) & (tst.result == "pass")].learner.nunique()
    q("ds14", "join", "people_then_events",
      "How many of Sanjay Patel's learners have passed their driving test?",
      int(passed), len(mine) + int(tst.learner.isin(mine).sum()))

    # 15 join through the hierarchy: the branches of an area, then their instructors
    sub = units_under(t, "Tyne Area")
    br = sub[sub.unit_type == "branch"].unit
    n = int(ins.branch.isin(br).sum())
    q("ds15", "join", "unit_then_members",
      "How many instructors work in the Tyne Area?", n, len(sub) + n)

    # 16 the catalog holds nothing to answer this
    q("ds16", "unanswerable", "no_such_data",
      "What make of car does Hannah Okoye use for her lessons?", None, 0)
    return qs


def main() -> None:
    qs = questions(load())
    assert len(qs) == 16 and len({x["id"] for x in qs}) == 16
    with (DATA / "questions.jsonl").open("w") as f:
        for x in qs:
            f.write(json.dumps(x) + "\n")
    print(f"wrote {len(qs)} questions to {DATA / 'questions.jsonl'}")


if __name__ == "__main__":
    main()
