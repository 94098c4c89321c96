"""A kind inside a longer kind ("home managers": the staff role, not the unit type "home"), a plural pronoun after a
first part about things ("How many shifts did X book in May 2024, and what did they cost?": the May shifts, not X),
and a limit read as it is ("How many registered beds does X have?"). Each was answered wrong and verified, or refused,
in the twenty-fourth held-out pair (runs/fresh24: care_homes). A small catalog of our own, whole runs offline."""

from __future__ import annotations

import pytest
from catalogs import ask, write_catalog

BELOW = '''@tool("get_units_below", "Every unit under a unit of the group (its areas and care homes), directly or indirectly, with its unit type.").
@param("unit", "string", "Name of a region or an area").
@bind("units", "csv", "data", "units.csv").
@mapping("units", 0, "unit", "string"). @mapping("units", 1, "unit_type", "string"). @mapping("units", 2, "parent", "string").
@output("unit_below").
@mapping("unit_below", 0, "unit", "string"). @mapping("unit_below", 1, "sub_unit", "string").
@mapping("unit_below", 2, "sub_unit_type", "string").
@role("unit_below", "sub_unit", "entity"). @role("unit_below", "sub_unit_type", "category").
below($unit, S, T) :- units(S, T, $unit).
below($unit, S, T) :- below($unit, M, T0), units(S, T, M).
unit_below($unit, S, T) :- below($unit, S, T).
'''
STAFF = '''@tool("get_home_staff", "The staff employed at a care home, each with their job (home manager, registered nurse or care assistant).").
@param("home", "string", "Name of the care home").
@bind("staff", "csv", "data", "staff.csv").
@mapping("staff", 0, "person", "string"). @mapping("staff", 1, "home", "string"). @mapping("staff", 2, "role", "string").
@output("staff_member").
@mapping("staff_member", 0, "home", "string"). @mapping("staff_member", 1, "person", "string").
@mapping("staff_member", 2, "role", "string").
@role("staff_member", "person", "entity"). @role("staff_member", "role", "category").
staff_member($home, P, R) :- staff(P, $home, R).
'''
SHIFTS = '''@tool("get_agency_shifts", "Agency shifts a care home booked: shift id, date and cost in pounds.").
@param("home", "string", "Name of the care home").
@bind("shifts", "csv", "data", "shifts.csv").
@mapping("shifts", 0, "shift_id", "string"). @mapping("shifts", 1, "home", "string"). @mapping("shifts", 2, "shift_date", "string").
@mapping("shifts", 3, "cost_gbp", "float").
@output("agency_shift").
@mapping("agency_shift", 0, "home", "string"). @mapping("agency_shift", 1, "shift_id", "string").
@mapping("agency_shift", 2, "shift_date", "string"). @mapping("agency_shift", 3, "cost_gbp", "float").
@role("agency_shift", "shift_id", "entity"). @role("agency_shift", "shift_date", "date").
@role("agency_shift", "cost_gbp", "amount"). @unit("agency_shift", "cost_gbp", "GBP").
agency_shift($home, I, D, C) :- shifts(I, $home, D, C).
'''
HOME = '''@tool("get_home", "A care home: its town and the number of beds it is registered for (the most residents it may accommodate).").
@param("home", "string", "Name of the care home").
@bind("homes", "csv", "data", "homes.csv").
@mapping("homes", 0, "home", "string"). @mapping("homes", 1, "town", "string"). @mapping("homes", 2, "registered_beds", "int").
@output("home_info").
@mapping("home_info", 0, "home", "string"). @mapping("home_info", 1, "town", "string").
@mapping("home_info", 2, "registered_beds", "int").
@role("home_info", "home", "entity"). @role("home_info", "registered_beds", "limit").
@label("home_info", "registered_beds", "registered beds").
home_info($home, T, B) :- homes($home, T, B).
'''
# twelve homes in two areas and a region, three staff each (the kinds repeat over many rows, as in a real catalog)
HOMES = [f"{name} {kind}" for name in ("Oak", "Elm", "Ash", "Yew") for kind in ("Court", "House", "Lodge")]
AREA = {h: ("Downs Area" if i < 4 else "Weald Area" if i < 8 else "South Region") for i, h in enumerate(HOMES)}
FILES = {
    "units.csv": "unit,unit_type,parent\nSouth Region,region,\nDowns Area,area,South Region\nWeald Area,area,South Region\n"
                 + "".join(f"{h},home,{AREA[h]}\n" for h in HOMES),
    "staff.csv": "person,home,role\n" + "".join(f"{role.split()[-1].title()} {h.split()[0]}{h.split()[1][0]},{h},{role}\n"
                                               for h in HOMES for role in ("home manager", "registered nurse",
                                                                           "care assistant")),
    # Oak Court: two shifts in May 2024 (150 + 210.5), one in April (99)
    "shifts.csv": "shift_id,home,shift_date,cost_gbp\nS1,Oak Court,2024-05-03,150.0\nS2,Oak Court,2024-05-19,210.5\n"
                  "S3,Oak Court,2024-04-30,99.0\nS4,Elm House,2024-05-02,120.0\n",
    "homes.csv": "home,town,registered_beds\n" + "".join(f"{h},Lewes,{40 + i}\n" for i, h in enumerate(HOMES)),
}


@pytest.fixture(scope="module")
def homes(tmp_path_factory):
    return write_catalog(tmp_path_factory.mktemp("homes"), {"get_units_below": BELOW, "get_home_staff": STAFF,
                                                            "get_agency_shifts": SHIFTS, "get_home": HOME}, FILES)


def test_a_kind_inside_a_longer_kind_gives_way(homes):
    result = ask("Who are the home managers of the care homes in the Downs Area?", homes)
    assert result.verified, result.answer
    expected = sorted(f"Manager {h.split()[0]}{h.split()[1][0]}" for h in HOMES if AREA[h] == "Downs Area")
    assert sorted(result.ctx.answer_values) == expected, result.answer


def test_they_after_a_count_of_things_are_those_things(homes):
    result = ask("How many agency shifts did Oak Court book in May 2024, and what did they cost altogether?", homes)
    assert result.verified, result.answer
    assert "2 agency shifts" in result.answer and "360.5" in result.answer, result.answer


def test_a_limit_asked_by_its_name_is_read(homes):
    result = ask("How many registered beds does Oak Court have?", homes)
    assert result.verified, result.answer
    assert result.ctx.answer_values == [40] and "40 registered beds" in result.answer, result.answer
