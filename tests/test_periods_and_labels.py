"""A period the question names is kept by the rules that select rows, on the column dating them."""

from __future__ import annotations

import pytest

from vadaorchestra.agents.question import periods


@pytest.mark.parametrize("text, expected", [
    ("March 2024", ("2024-03", "2024-04")),
    ("December 2023", ("2023-12", "2024-01")),
    ("2024", ("2024", "2025")),
    ("12 March 2024", ("2024-03-12", "2024-03-13")),
    ("February 29, 2024", ("2024-02-29", "2024-03-01")),
    ("Q1 2024", ("2024-01", "2024-04")),  # a quarter (tests/test_quarters_and_truths.py has more)
    ("between January and June 2024", ("2024-01", "2024-07")),
    ("March", None),  # no year
])
def test_a_period_is_a_range_of_iso_prefixes(text, expected):
    assert periods.span(text) == expected


def test_the_range_holds_for_days_and_months_and_a_column_of_years_compares_the_year():
    assert periods.conditions("March 2024", "D", "string") == ['D >= "2024-03"', 'D < "2024-04"']
    assert periods.conditions("2023", "Y", "int") == ["Y == 2023"]
    assert periods.conditions("March 2024", "Y", "int") is None  # a month against a column of years: not kept
    from vadaorchestra.datalog.api import run
    for engine in ("duckdb",):
        out = run('p("2024-03-12"). p("2024-04-01"). p("2024-03"). p("2024-02-29"). p("2024-04").\n'
                  '@output("q"). q(X) :- p(X), ' + ", ".join(periods.conditions("March 2024", "X", "string")) + ".",
                  engine=engine)
        assert sorted(out.tables["q"]) == [("2024-03",), ("2024-03-12",)]


@pytest.mark.parametrize("question, expected, answer", [
    # a count kept to a month of a column of days (before: every rental counted, and refused)
    ("How many rentals did Harlow Logistics make in March 2024?", [2], "Harlow Logistics made 2 rentals in March 2024."),
    # a list of the column the catalog labels as the thing asked ("vehicle" for plate)
    ("Which vehicles were rented by Harlow Logistics in January 2024?", None, None),
])
def test_a_named_month_is_kept_and_a_labelled_column_answers(question, expected, answer):
    from vadaorchestra.agents.run import ask_sync
    from vadaorchestra.eval import resolve

    ds = resolve("car_rental")
    result = ask_sync(question, catalog=ds.catalog, data=ds.data_root)
    assert result.verified, result.answer
    program = "\n".join(s.program for s in result.ctx.synthesized)
    assert '>= "2024-0' in program and '< "2024-0' in program
    if expected is not None:
        assert result.ctx.answer_values == expected and result.answer == answer
    else:
        rentals = [r for r in (ds.data_root / "data" / "rentals.csv").read_text().splitlines()[1:]
                   if ",Harlow Logistics,2024-01-" in r]
        assert sorted(result.ctx.answer_values) == sorted({r.split(",")[1] for r in rentals})


def test_a_limit_in_a_named_month_compares_that_month_and_one_quantity_asked_is_not_answered_with_several():
    from vadaorchestra.agents.run import ask_sync
    from vadaorchestra.eval import resolve

    ds = resolve("food_bank")
    over = ask_sync("Did Riverside Pantry go over its monthly cap in February 2024?", catalog=ds.catalog,
                    data=ds.data_root)
    assert over.verified and over.ctx.answer_yes is True
    assert over.answer.startswith("Yes, Riverside Pantry went over its monthly cap in February 2024.")
    one = ask_sync("What quantity did Oak Street Pantry distribute in February 2024?", catalog=ds.catalog,
                   data=ds.data_root)
    assert not one.verified and "the question asks for one quantity, and the answer gives 3 numbers" in one.answer


def test_a_kind_asked_by_a_column_named_for_it_and_a_second_question_after_and_are_answered():
    from vadaorchestra.agents.question.parse import read
    from vadaorchestra.agents.run import ask_sync
    from vadaorchestra.eval import resolve

    # spaCy attaches "and how many people work at X" to "cap" as a relative clause; it is a question of its own
    p = read("What is the monthly cap of Quayside Pantry and how many people work at Quayside Pantry?")
    assert len(p.clauses) == 2 and p.words[p.clauses[1][0]].text == "and"
    ds = resolve("food_bank")
    two = ask_sync("What is the monthly cap of Quayside Pantry and how many people work at Quayside Pantry?",
                   catalog=ds.catalog, data=ds.data_root)
    assert two.verified and two.answer == "The monthly cap of Quayside Pantry is 1400 kg.\n3 people work at Quayside Pantry."
    # "warehouses" is a unit type too; the donations' warehouse column names them, so no unit type is demanded
    supplied = ask_sync("Which warehouses were supplied by Green Valley Farm?", catalog=ds.catalog, data=ds.data_root)
    donations = [r.split(",") for r in (ds.data_root / "data" / "donations.csv").read_text().splitlines()[1:]]
    assert supplied.verified
    assert supplied.ctx.answer_values == sorted({r[2] for r in donations if r[1] == "Green Valley Farm"})


def test_a_tool_of_monthly_totals_next_to_a_monthly_cap_is_compared_month_by_month():
    import csv
    from collections import Counter

    from vadaorchestra.agents.run import ask_sync
    from vadaorchestra.eval import resolve

    ds = resolve("food_bank")
    totals: Counter = Counter()
    with open(ds.data_root / "data" / "distributions.csv", newline="") as f:
        for r in csv.DictReader(f):
            totals[(r["pantry"], r["month"])] += int(r["quantity_kg"])
    with open(ds.data_root / "data" / "pantries.csv", newline="") as f:
        cap = {r["pantry"]: int(r["monthly_cap_kg"]) for r in csv.DictReader(f)}
    over = sorted({p for (p, _m), t in totals.items() if t > cap[p]})
    # (their sums over the three months would put every pantry over its cap)
    assert 0 < len(over) < len(cap)
    result = ask_sync("Which pantries went over their monthly cap?", catalog=ds.catalog, data=ds.data_root)
    assert result.verified and result.ctx.answer_values == over
    assert "Riverside Pantry in 2024-02: 2015 kg against a limit of 1800 kg" in result.answer


def test_a_category_value_written_as_an_identifier_is_a_kind_and_its_words_are_no_verb():
    from vadaorchestra.agents.question import frame
    from vadaorchestra.mcp_server.linking import normalize

    assert normalize("Watch_Manager  of X") == "watch manager of x"
    question = "Who are the watch managers of Tynecross Central?"
    kinds = [{"value": "watch_manager", "category": True, "columns": ["firefighters.rank"], "parameters": []}]
    names = [{"value": "Tynecross Central", "category": False, "columns": ["stations.station"],
              "parameters": ["get_station_crew.station"]}]
    fr = frame.build(question, names, kinds=kinds)
    assert [e.value for e in fr.kinds] == ["watch_manager"]
    assert frame.verb_said(fr) is None  # the parser's verb "watch" is a word of the kind, not what is done
