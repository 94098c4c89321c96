"""Parts of a year and ranges of months kept to ("in Q2 2025": 66.5 hours for 33.5 when only the year was checked),
and a yes/no answered by a yes/no value ("Is there a video link in X?" answered yes because X's row existed, its
video_link "no"). Both were answered wrong and verified in the twenty-third held-out pair (runs/fresh23:
court_listings); so, once read, was "Which courtrooms at X have a video link?" (every courtroom): a yes/no column
the question's words name keeps the rows. A small catalog of our own, whole runs offline."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from catalogs import ask, write_catalog

from vadaorchestra.agents.question import periods


@pytest.mark.parametrize("text, expected", [
    ("Q2 2025", ("2025-04", "2025-07")),
    ("2025 Q1", ("2025-01", "2025-04")),
    ("the second quarter of 2025", ("2025-04", "2025-07")),
    ("the fourth quarter of 2024", ("2024-10", "2025-01")),
    ("H2 2024", ("2024-07", "2025-01")),
    ("the first half of 2025", ("2025-01", "2025-07")),
    ("between January and June 2025", ("2025-01", "2025-07")),
    ("March to May 2024", ("2024-03", "2024-06")),
    ("from March 2024 to February 2025", ("2024-03", "2025-03")),
    ("January and February 2024", ("2024-01", "2024-03")),
    ("January and March 2024", None),  # two months, not the span between them
    ("the 2024/25 season", None),
    ("March 2024", ("2024-03", "2024-04")),
    ("2024", ("2024", "2025")),
])
def test_a_period_is_a_span_of_iso_prefixes(text, expected):
    assert periods.span(text) == expected


HEARINGS = '''@tool("get_judge_hearings", "Hearings a judge sat: hearing id, courtroom, date and hours sat.").
@param("judge", "string", "Name of the judge").
@bind("hearings", "csv", "data", "hearings.csv").
@mapping("hearings", 0, "hearing_id", "string"). @mapping("hearings", 1, "judge", "string").
@mapping("hearings", 2, "courtroom", "string"). @mapping("hearings", 3, "hearing_date", "string").
@mapping("hearings", 4, "hours", "float").
@output("judge_hearing").
@mapping("judge_hearing", 0, "judge", "string"). @mapping("judge_hearing", 1, "hearing_id", "string").
@mapping("judge_hearing", 2, "courtroom", "string"). @mapping("judge_hearing", 3, "hearing_date", "string").
@mapping("judge_hearing", 4, "hours", "float").
@role("judge_hearing", "hearing_id", "entity"). @role("judge_hearing", "hearing_date", "date").
@role("judge_hearing", "hours", "amount").
judge_hearing($judge, I, C, D, H) :- hearings(I, $judge, C, D, H).
'''
ROOM = '''@tool("get_courtroom_details", "The details of a courtroom: its court centre, public seats and whether it has a video link.").
@param("courtroom", "string", "Name of a courtroom").
@bind("rooms", "csv", "data", "rooms.csv").
@mapping("rooms", 0, "courtroom", "string"). @mapping("rooms", 1, "court_centre", "string").
@mapping("rooms", 2, "seats", "int"). @mapping("rooms", 3, "video_link", "string").
@output("courtroom_info").
@mapping("courtroom_info", 0, "courtroom", "string"). @mapping("courtroom_info", 1, "court_centre", "string").
@mapping("courtroom_info", 2, "seats", "int"). @mapping("courtroom_info", 3, "video_link", "string").
@role("courtroom_info", "courtroom", "entity").
courtroom_info($courtroom, C, S, V) :- rooms($courtroom, C, S, V).
'''
# Nadia Sandoval: 10 + 2.5 hours in Q1 2025, 6 + 4.5 in Q2, 3 in Q3
HEARING_ROWS = """hearing_id,judge,courtroom,hearing_date,hours
H1,Nadia Sandoval,Ashdown Court 1,2025-01-14,10.0
H2,Nadia Sandoval,Ashdown Court 1,2025-03-02,2.5
H3,Nadia Sandoval,Coldwell Court 2,2025-04-20,6.0
H4,Nadia Sandoval,Coldwell Court 2,2025-06-30,4.5
H5,Nadia Sandoval,Coldwell Court 2,2025-07-01,3.0
H6,Omar Reyes,Ashdown Court 1,2025-05-05,7.0
"""
CENTRE = '''@tool("get_centre_courtrooms", "The courtrooms of a court centre, each with its public seats and whether it has a video link.").
@param("court_centre", "string", "Name of a court centre").
@bind("rooms", "csv", "data", "rooms.csv").
@mapping("rooms", 0, "courtroom", "string"). @mapping("rooms", 1, "court_centre", "string").
@mapping("rooms", 2, "seats", "int"). @mapping("rooms", 3, "video_link", "string").
@output("centre_courtroom").
@mapping("centre_courtroom", 0, "court_centre", "string"). @mapping("centre_courtroom", 1, "courtroom", "string").
@mapping("centre_courtroom", 2, "seats", "int"). @mapping("centre_courtroom", 3, "video_link", "string").
@role("centre_courtroom", "courtroom", "entity").
centre_courtroom($court_centre, R, S, V) :- rooms(R, $court_centre, S, V).
'''
# Ashdown: 3 of 4 courtrooms with a video link
ROOM_ROWS = """courtroom,court_centre,seats,video_link
Ashdown Court 1,Ashdown,40,yes
Ashdown Court 2,Ashdown,30,yes
Ashdown Court 3,Ashdown,20,no
Ashdown Court 4,Ashdown,60,yes
Coldwell Court 2,Coldwell,25,no
"""


@pytest.fixture(scope="module")
def courts(tmp_path_factory):
    return write_catalog(tmp_path_factory.mktemp("courts"), {"get_judge_hearings": HEARINGS, "get_courtroom_details": ROOM,
                                                                          "get_centre_courtrooms": CENTRE},
                         {"hearings.csv": HEARING_ROWS, "rooms.csv": ROOM_ROWS})


@pytest.mark.parametrize("question, hours", [
    ("How many hours did Nadia Sandoval sit in Q2 2025?", 10.5),
    ("How many hours did Nadia Sandoval sit between January and June 2025?", 23.0),
])
def test_a_part_of_a_year_is_kept_to(courts, question, hours):
    result = ask(question, courts)
    assert result.verified, result.answer
    assert result.ctx.answer_values == [pytest.approx(hours)], result.answer


@pytest.mark.parametrize("question, yes", [
    ("Is there a video link in Coldwell Court 2?", False),
    ("Does Ashdown Court 1 have a video link?", True),
])
def test_a_yes_or_no_value_is_the_answer(courts, question, yes):
    result = ask(question, courts)
    assert result.verified, result.answer
    assert result.answer.startswith("Yes" if yes else "No"), result.answer


def test_a_yes_resting_on_a_no_is_refused(courts, monkeypatch):
    """The Verifier's own check: a composer that answered from the row's existence is not verified."""
    from vadaorchestra.agents.question import compose, parse

    # the composer no longer reads the value (the Verifier still does)
    monkeypatch.setattr(compose, "P", SimpleNamespace(**{**vars(parse), "truth": lambda value: None}))
    result = ask("Is there a video link in Coldwell Court 2?", courts)
    assert not result.verified and "could not answer" in result.answer, result.answer


@pytest.mark.parametrize("question, expected", [
    ("Which courtrooms at Ashdown have a video link?", ["Ashdown Court 1", "Ashdown Court 2", "Ashdown Court 4"]),
    ("Which courtrooms at Ashdown have no video link?", ["Ashdown Court 3"]),
    ("What percentage of the courtrooms at Ashdown have a video link?", [pytest.approx(0.75)]),
])
def test_a_yes_or_no_column_the_question_names_keeps_the_rows(courts, question, expected):
    result = ask(question, courts)
    assert result.verified, result.answer
    assert result.ctx.answer_values == expected, result.answer


def test_a_yes_or_no_column_left_unkept_is_refused(courts, monkeypatch):
    """The Verifier's own check: a composer that kept no video link lists every courtroom, unverified."""
    from vadaorchestra.agents.question import compose, frame

    monkeypatch.setattr(compose, "frame", SimpleNamespace(**{**vars(frame), "truth_wanted": lambda fr, col: None}))
    result = ask("Which courtrooms at Ashdown have a video link?", courts)
    assert not result.verified and "video link" in result.answer, result.answer
