""""How many people ...?" counts the things a tool lists only when they are people: the column's values are read by
the English pipeline's named entities (people's names), whatever the catalog calls the column (researcher,
firefighter, employee). A tool whose things are not people is not counted as people, and the run says so. Whole runs,
offline, on a small lab catalog of our own."""

from __future__ import annotations

import pytest
from catalogs import ask

MEMBERS = '''% the researchers of a lab
@tool("get_lab_members", "Researchers working in a lab, with their position.").
@param("lab", "string", "Name of the lab").
@bind("members", "csv", "data", "members.csv").
@mapping("members", 0, "researcher", "string"). @mapping("members", 1, "lab", "string").
@mapping("members", 2, "position", "string").
@output("lab_member").
@mapping("lab_member", 0, "lab", "string"). @mapping("lab_member", 1, "researcher", "string").
@mapping("lab_member", 2, "position", "string").
@role("lab_member", "researcher", "entity"). @role("lab_member", "position", "category").
lab_member($lab, R, P) :- members(R, $lab, P).
'''
ROOMS = '''% the rooms of a lab
@tool("get_lab_rooms", "Rooms of a lab building, with their floor.").
@param("lab", "string", "Name of the lab").
@bind("rooms", "csv", "data", "rooms.csv").
@mapping("rooms", 0, "room", "string"). @mapping("rooms", 1, "lab", "string"). @mapping("rooms", 2, "floor", "int").
@output("lab_room").
@mapping("lab_room", 0, "lab", "string"). @mapping("lab_room", 1, "room", "string"). @mapping("lab_room", 2, "floor", "int").
@role("lab_room", "room", "entity").
lab_room($lab, R, F) :- rooms(R, $lab, F).
'''


def _catalog(root, tools):
    (root / "catalog").mkdir()
    for name, text in tools:
        (root / "catalog" / f"{name}.dl").write_text(text)
    (root / "data").mkdir()
    (root / "data" / "members.csv").write_text(
        "researcher,lab,position\nSofia Lind,Lindqvist Lab,postdoc\nRuth Adeyemi,Lindqvist Lab,professor\n"
        "Bernard Fabre,Lindqvist Lab,student\nTom Kowalski,Okafor Lab,student\n")
    (root / "data" / "rooms.csv").write_text("room,lab,floor\nB1.04,Lindqvist Lab,1\nB1.05,Lindqvist Lab,1\n"
                                             "C2.10,Okafor Lab,2\n")
    return root


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    return _catalog(tmp_path_factory.mktemp("lab"), [("get_lab_members", MEMBERS), ("get_lab_rooms", ROOMS)])


@pytest.fixture(scope="module")
def rooms_only(tmp_path_factory):
    return _catalog(tmp_path_factory.mktemp("rooms"), [("get_lab_rooms", ROOMS)])


def test_how_many_people_counts_a_column_of_peoples_names(lab):
    result = ask("How many people are in the Lindqvist Lab?", lab)
    assert result.verified and result.ctx.answer_values == [3], result.answer


def test_things_that_are_not_people_are_not_counted_as_people(rooms_only):
    result = ask("How many people are in the Lindqvist Lab?", rooms_only)
    assert not result.verified and result.ctx.answer_values is None, result.answer
    assert "people" in result.answer, result.answer
