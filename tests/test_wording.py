"""Answers an analyst can forward: the question restated around what was found, in the catalog's labels and units."""

from __future__ import annotations

from pathlib import Path

import pytest

from vadaorchestra.agents import wording
from vadaorchestra.agents.question import parse as P
from vadaorchestra.errors import VadaError

ROOT = Path(__file__).resolve().parents[1]


def read(question: str, *names: str):
    """The parse of ``question`` with each of ``names`` standing as a data value, as the entity finder links them."""
    return P.read(question, [P.Mention(question.index(n), question.index(n) + len(n), n) for n in names])


@pytest.mark.parametrize(("question", "names", "answer", "expected"), [
    ("How many companies does Bank 014 lend to?", ["Bank 014"], {"number": ("22", None), "n": 22},
     "Bank 014 lends to 22 companies."),
    ("Which banks lend to Company 0527?", ["Company 0527"], {"names": ["Bank 003", "Bank 011", "Bank 020"]},
     "3 banks lend to Company 0527: Bank 003, Bank 011 and Bank 020."),
    ("Which bank lends to Company 0527?", ["Company 0527"], {"names": ["Bank 003"], "n": 1},
     "Bank 003 lends to Company 0527."),
    ("In which companies does Bank 003 have holdings?", ["Bank 003"], {"names": ["Company 0267"], "n": 1},
     "Bank 003 has holdings in Company 0267."),
    ("Which kiosks is Owen Gallagher the manager of?", ["Owen Gallagher"], {"names": ["A", "B", "C"]},
     "Owen Gallagher is the manager of 3 kiosks: A, B and C."),
    ("What is the hourly rate of the Glacios 2?", ["Glacios 2"], {"number": ("95", "GBP"), "n": 2},
     "The hourly rate of the Glacios 2 is 95 GBP."),
    ("How many orders did Acme Motors place with Emerald Plastics?", ["Acme Motors", "Emerald Plastics"],
     {"number": ("1", None), "n": 1}, "Acme Motors placed 1 order with Emerald Plastics."),
    ("How many hours was the Titan Krios G4 booked for in March 2024?", ["Titan Krios G4"],
     {"number": ("144", "hours"), "n": 2}, "The Titan Krios G4 was booked for 144 hours in March 2024."),
    ("Tell me the district where Hollins Bay Library is located.", ["Hollins Bay Library"],
     {"names": ["Harbourside District"], "n": 1},
     "The district where Hollins Bay Library is located is Harbourside District."),
    ("How many research groups are there anywhere under the School of Life Sciences?", ["School of Life Sciences"],
     {"number": ("4", None), "n": 4}, "There are 4 research groups anywhere under the School of Life Sciences."),
    ("Which three Nanofabrication Facility instruments have the highest hourly rate?",
     ["Nanofabrication Facility"], {"names": ["A", "B", "C"]},
     "The three Nanofabrication Facility instruments have the highest hourly rate: A, B and C."),
    ("How many harvest lots end up in Grande Réserve Rouge, counting every stage of its blending?",
     ["Grande Réserve Rouge"], {"number": ("18", None), "n": 18},
     "18 harvest lots end up in Grande Réserve Rouge, counting every stage of its blending."),
    ("Which employees does Maria Rossi manage?", ["Maria Rossi"], {"names": [], "n": 0},
     "Maria Rossi manages no employees."),
    ("Where is Emerald Plastics based?", ["Emerald Plastics"], {"names": ["Japan"], "n": 1},
     "Emerald Plastics is based in Japan."),
    ("What number of different shippers sent freight out of Antwerp Scheldt Terminal?", ["Antwerp Scheldt Terminal"],
     {"number": ("5", None), "n": 5}, "5 different shippers sent freight out of Antwerp Scheldt Terminal."),
    ("How much demand does Coldwater Junction Substation carry in total, including the substations downstream of it?",
     ["Coldwater Junction Substation"], {"number": ("80.5", "MW"), "n": 2},
     "Coldwater Junction Substation carries 80.5 MW of demand in total, including the substations downstream of it."),
    ("Counting the substations it feeds, how many feeders does Kingsbridge Grid Supply Point serve for Redfield Steel "
     "Works?", ["Kingsbridge Grid Supply Point", "Redfield Steel Works"], {"number": ("4", None), "n": 4},
     "Counting the substations it feeds, Kingsbridge Grid Supply Point serves 4 feeders for Redfield Steel Works."),
    ("In term 2025-2, what proportion of the seats of Quantum Mechanics was filled?", ["Quantum Mechanics"],
     {"number": ("87.5 %", None), "n": 2}, "In term 2025-2, 87.5 % of the seats of Quantum Mechanics was filled."),
    ("Which patients did Northgate Family Clinic bill claims for?", ["Northgate Family Clinic"],
     {"names": ["A", "B", "C"]}, "Northgate Family Clinic billed claims for 3 patients: A, B and C."),
    ("Which of the Fenwick Area Office's stations sits at the highest elevation?", ["Fenwick Area Office"],
     {"names": ["Salt Hill"], "n": 1},
     "Salt Hill, of the Fenwick Area Office's stations, sits at the highest elevation."),
    ("Which of them recorded the most rain?", [], {"names": ["Salt Hill"], "n": 1}, "Salt Hill recorded the most rain."),
    # a participle of the subject's noun is not the clause's verb ("is ... paid" is no passive here)
    ("What is the average weekly fee paid by the residents of Ivy House?", ["Ivy House"],
     {"number": ("1326.43", "GBP"), "n": 2}, "The average weekly fee paid by the residents of Ivy House is 1326.43 GBP."),
    # the article as the noun sounds, not as it is spelt
    ("What hourly rate does Megan Lusk charge?", ["Megan Lusk"], {"number": ("52", "GBP"), "n": 2},
     "Megan Lusk charges an hourly rate of 52 GBP."),
    ("What unit price does Emerald Plastics charge?", ["Emerald Plastics"], {"number": ("4", "GBP"), "n": 2},
     "Emerald Plastics charges a unit price of 4 GBP."),
])
def test_the_question_is_restated_around_what_was_found(question, names, answer, expected):
    p = read(question, *names)
    kw = dict(answer)
    kw.setdefault("n", len(kw.get("names") or []))
    assert wording.restate(p, **kw) == expected


def test_a_question_in_no_shape_it_reads_gets_no_sentence_and_a_name_is_never_dropped():
    assert wording.restate(read("Bank Gamma exposures?", "Bank Gamma"), names=["x"], n=1) is None
    # two clauses: each part is restated on its own
    assert wording.restate(read("Which banks lend to Company 0527, and who controls it?", "Company 0527"),
                           names=["Bank 003"], n=1) is None


@pytest.mark.parametrize(("question", "yes", "expected"), [
    ("Is Upper Kettle Zone over its season quota?", False, "No, Upper Kettle Zone is not over its season quota."),
    ("Does Research exceed its budget?", True, "Yes, Research exceeds its budget."),
    ("Does Research exceed its budget?", False, "No, Research does not exceed its budget."),
    ("Did the March 2024 bookings of the Zeiss LSM 980 go over its monthly hour cap?", True,
     "Yes, the March 2024 bookings of the Zeiss LSM 980 went over its monthly hour cap."),
])
def test_a_yes_no_question_is_answered_as_a_sentence(question, yes, expected):
    names = [n for n in ("Upper Kettle Zone", "Research", "Zeiss LSM 980") if n in question]
    assert wording.affirm(read(question, *names), yes) == expected


def test_shares_are_percentages_with_one_decimal_and_identifiers_become_words():
    assert wording.percent(30.75) == "30.8 %" and wording.percent(9.0) == "9 %" and wording.percent(0.04) == "0.04 %"
    assert wording.words_of("no column of boat_allowance; get_unit_details did not run") == \
        "no column of boat allowance; unit details did not run"
    refused = wording.refusal(["no column of boat_allowance holds it"], "x")
    assert refused.splitlines() == ["could not answer: no column of boat allowance holds it",
                                    "details: no column of boat_allowance holds it", "(the refused answer was: x)"]
    assert wording.prose(refused) == "could not answer: no column of boat allowance holds it"


def test_an_answer_says_its_amount_with_the_unit_the_catalog_declares_and_the_lint_sees_when_it_does_not():
    from vadaorchestra.agents.run import ask_sync
    from vadaorchestra.eval import resolve

    ds = resolve("lab_equipment")
    result = ask_sync("What is the hourly rate of the Glacios 2?", catalog=ds.catalog, data=ds.data_root)
    assert result.verified and result.answer == "The hourly rate of the Glacios 2 is 95 GBP."
    assert wording.lint(result.answer, result.ctx) == []
    problems = wording.lint("The hourly_rate of the Glacios 2 is is 95, 0.25 of the total.", result.ctx)
    assert "identifier 'hourly_rate'" in problems and "doubled word 'is is'" in problems
    assert "amount '95' without its unit 'GBP'" in problems


def test_an_average_of_an_amount_says_the_amounts_unit():
    from vadaorchestra.agents.run import ask_sync
    from vadaorchestra.eval import resolve

    ds = resolve("care_homes")
    result = ask_sync("What is the average weekly fee paid by the residents of Ivy House?", catalog=ds.catalog,
                      data=ds.data_root)
    assert result.verified
    assert result.answer == "The average weekly fee paid by the residents of Ivy House is 1326.43 GBP."
    assert wording.lint(result.answer, result.ctx) == []


def test_labels_and_units_are_checked_where_the_catalog_declares_them(tmp_path):
    from vadaorchestra.mcp_server.catalog import Catalog

    (tmp_path / "x.dl").write_text(
        '@tool("get_x", "X of a thing.").\n@param("thing", "string", "A thing").\n@output("x").\n'
        '@mapping("x", 0, "thing", "string"). @mapping("x", 1, "amount", "float").\n'
        '@unit("x", "amout", "EUR"). @label("y", "amount", "the amount").\nx($thing, 1.0).\n')
    with pytest.raises(VadaError) as err:
        Catalog.load(tmp_path)
    text = str(err.value)
    assert "x.dl:5:1: error: 'x' has no column 'amout' (columns: thing, amount)" in text
    assert "x.dl:5:29: error: @label names 'y'" in text
    (tmp_path / "x.dl").write_text(
        '@tool("get_x", "X of a thing.").\n@param("thing", "string", "A thing").\n@output("x").\n'
        '@mapping("x", 0, "thing", "string"). @mapping("x", 1, "amount", "float").\n'
        '@unit("x", "amount", "EUR"). @label("x", "amount", "the amount paid").\nx($thing, 1.0).\n')
    spec = Catalog.load(tmp_path).tools["get_x"].describe()
    assert spec["units"] == {"amount": "EUR"} and spec["labels"] == {"amount": "the amount paid"}
