"""Refusals of the dev sets and of the twenty-eighth held-out pair, each fixed in general: "When did X open?" and
"Where is X based?" read off what a tool's description says of the verb ("the year it opened", "the country it is
based in"); "How big is X?" refused unless the answer is a number the adjective names; a code with a digit linked
though the tagger takes it for a pronoun ("Who drives T-04?"); a pronoun of a second part standing for the thing the
first part names when that thing is its subject ("Which pontoon is X on, and what is its annual fee?"); a number of
a thing the question names held by another tool's rows, called for every value of its parameter; the things counted
"on" a number column ("How many people are on X's electoral roll?"); the thing one level up, of the kind asked
("Which area does X report to?": the same tool read for X's parent, kept to areas). And the twenty-ninth held-out
pair's answers wrong and verified: "Which vehicles ...?" answered with the vehicles' classes (the catalog labels the
plate "vehicle"), "wheelchair-accessible vehicles" counted without keeping to accessible ones, and a second question
after ", and how many ..." missed when the tagger took the first one's verb for a noun. And the thirtieth's: "How
many members does X have?" read as the membership cap, and a limit per stay compared with a boat's stays summed.
Small catalogs of our own, whole runs offline;
the datasets' questions in the slow tier."""

from __future__ import annotations

from pathlib import Path

import pytest
from catalogs import ask, write_catalog

from vadaorchestra.agents import reading
from vadaorchestra.agents.question import frame, parts, relations

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"

BERTH = '''@tool("get_berth", "A berth of the marina: the pontoon it is on, its length in metres, its annual fee in pounds and the year it opened.").
@param("berth", "string", "Berth code, e.g. B-07").
@bind("berth_table", "csv", "data", "berths.csv").
@mapping("berth_table", 0, "berth", "string"). @mapping("berth_table", 1, "pontoon", "string").
@mapping("berth_table", 2, "length_m", "int"). @mapping("berth_table", 3, "annual_fee_gbp", "int").
@mapping("berth_table", 4, "opened_year", "int"). @mapping("berth_table", 5, "electricity_kwh", "int").
@output("berth_info").
@mapping("berth_info", 0, "berth", "string"). @mapping("berth_info", 1, "pontoon", "string").
@mapping("berth_info", 2, "length_m", "int"). @mapping("berth_info", 3, "annual_fee_gbp", "int").
@mapping("berth_info", 4, "opened_year", "int").
@role("berth_info", "berth", "entity"). @unit("berth_info", "length_m", "m"). @unit("berth_info", "annual_fee_gbp", "GBP").
@label("berth_info", "length_m", "length").
berth_info($berth, P, L, F, Y) :- berth_table($berth, P, L, F, Y, E).
'''
PONTOON = '''@tool("get_pontoon_berths", "The berths along a pontoon, each with its electricity allowance in kWh a year.").
@param("pontoon", "string", "Name of the pontoon, e.g. North Pontoon").
@bind("berth_table", "csv", "data", "berths.csv").
@mapping("berth_table", 0, "berth", "string"). @mapping("berth_table", 1, "pontoon", "string").
@mapping("berth_table", 2, "length_m", "int"). @mapping("berth_table", 3, "annual_fee_gbp", "int").
@mapping("berth_table", 4, "opened_year", "int"). @mapping("berth_table", 5, "electricity_kwh", "int").
@output("pontoon_berth").
@mapping("pontoon_berth", 0, "pontoon", "string"). @mapping("pontoon_berth", 1, "berth", "string").
@mapping("pontoon_berth", 2, "electricity_allowance_kwh", "int").
@role("pontoon_berth", "berth", "entity"). @unit("pontoon_berth", "electricity_allowance_kwh", "kWh").
pontoon_berth($pontoon, B, E) :- berth_table(B, $pontoon, L, F, Y, E).
'''


UNIT = '''@tool("get_unit", "A unit of the chain (a division, an area or a shop): its type and the unit it reports to.").
@param("unit", "string", "Name of the unit").
@bind("unit_table", "csv", "data", "units.csv").
@mapping("unit_table", 0, "unit", "string"). @mapping("unit_table", 1, "unit_type", "string").
@mapping("unit_table", 2, "parent_unit", "string").
@output("unit_info").
@mapping("unit_info", 0, "unit", "string"). @mapping("unit_info", 1, "unit_type", "string").
@mapping("unit_info", 2, "parent_unit", "string").
@role("unit_info", "unit", "entity"). @role("unit_info", "unit_type", "category"). @role("unit_info", "parent_unit", "group").
unit_info($unit, T, P) :- unit_table($unit, T, P).
'''


FLEET = '''@tool("get_operator_vehicles", "The vehicles licensed to a taxi operator, by registration plate: the vehicle class (saloon, estate or minibus) and whether it is wheelchair accessible.").
@param("operator", "string", "Name of the operator").
@bind("vehicle_table", "csv", "data", "vehicles.csv").
@mapping("vehicle_table", 0, "plate", "string"). @mapping("vehicle_table", 1, "operator", "string").
@mapping("vehicle_table", 2, "vehicle_class", "string"). @mapping("vehicle_table", 3, "wheelchair_accessible", "string").
@output("operator_vehicle").
@mapping("operator_vehicle", 0, "operator", "string"). @mapping("operator_vehicle", 1, "plate", "string").
@mapping("operator_vehicle", 2, "vehicle_class", "string"). @mapping("operator_vehicle", 3, "wheelchair_accessible", "string").
@role("operator_vehicle", "plate", "entity"). @role("operator_vehicle", "vehicle_class", "category").
@label("operator_vehicle", "plate", "vehicle").
operator_vehicle($operator, P, C, W) :- vehicle_table(P, $operator, C, W).
'''


@pytest.fixture(scope="module")
def fleet(tmp_path_factory):
    rows = [("AB12 CDE", "Acme Cabs", "saloon", "no"), ("AB13 CDF", "Acme Cabs", "saloon", "yes"),
            ("AB14 CDG", "Acme Cabs", "minibus", "yes"), ("AB15 CDH", "Acme Cabs", "estate", "yes"),
            ("XY20 ZZZ", "Zed Taxis", "saloon", "no")]
    return write_catalog(tmp_path_factory.mktemp("fleet"), {"get_operator_vehicles": FLEET}, {
        "vehicles.csv": "plate,operator,vehicle_class,wheelchair_accessible\n"
                        + "".join(",".join(r) + "\n" for r in rows)})


CLUB = '''@tool("get_club_profile", "A club's profile: the year it was founded and its membership cap (the most members it may have).").
@param("club", "string", "Name of the club").
@bind("club_table", "csv", "data", "clubs.csv").
@mapping("club_table", 0, "club", "string"). @mapping("club_table", 1, "founded", "int").
@mapping("club_table", 2, "member_cap", "int").
@output("club_profile").
@mapping("club_profile", 0, "club", "string"). @mapping("club_profile", 1, "founded", "int").
@mapping("club_profile", 2, "member_cap", "int").
@role("club_profile", "club", "entity"). @role("club_profile", "member_cap", "limit").
@label("club_profile", "member_cap", "membership cap").
club_profile($club, F, C) :- club_table($club, F, C).
'''
MOORING = '''@tool("get_mooring_details", "A visitor mooring: its maximum stay (the most nights a boat may stay at a time).").
@param("mooring", "string", "Name of the mooring").
@bind("mooring_table", "csv", "data", "moorings.csv").
@mapping("mooring_table", 0, "mooring", "string"). @mapping("mooring_table", 1, "max_stay_nights", "int").
@output("mooring_info").
@mapping("mooring_info", 0, "mooring", "string"). @mapping("mooring_info", 1, "max_stay_nights", "int").
@role("mooring_info", "mooring", "entity"). @role("mooring_info", "max_stay_nights", "limit").
@label("mooring_info", "max_stay_nights", "maximum stay").
mooring_info($mooring, N) :- mooring_table($mooring, N).
'''
STAYS = '''@tool("get_mooring_stays", "The stays boats made at a visitor mooring: the boat and the number of nights it stayed.").
@param("mooring", "string", "Name of the mooring").
@bind("stay_table", "csv", "data", "stays.csv").
@mapping("stay_table", 0, "stay_id", "string"). @mapping("stay_table", 1, "mooring", "string").
@mapping("stay_table", 2, "boat", "string"). @mapping("stay_table", 3, "nights", "int").
@output("stay").
@mapping("stay", 0, "mooring", "string"). @mapping("stay", 1, "stay_id", "string"). @mapping("stay", 2, "boat", "string").
@mapping("stay", 3, "nights", "int").
@role("stay", "stay_id", "entity"). @role("stay", "nights", "amount").
stay($mooring, I, B, N) :- stay_table(I, $mooring, B, N).
'''


@pytest.fixture(scope="module")
def canal(tmp_path_factory):
    stays = [("S1", "Jericho", "Wren", 3), ("S2", "Jericho", "Wren", 4), ("S3", "Jericho", "Otter", 9)]
    return write_catalog(tmp_path_factory.mktemp("canal"), {
        "get_club_profile": CLUB, "get_mooring_details": MOORING, "get_mooring_stays": STAYS}, {
        "clubs.csv": "club,founded,member_cap\nHebden Rooks,1952,36\n",
        "moorings.csv": "mooring,max_stay_nights\nJericho,5\n",
        "stays.csv": "stay_id,mooring,boat,nights\n" + "".join(",".join(map(str, r)) + "\n" for r in stays)})


def test_how_many_members_is_no_membership_cap(canal):
    result = ask("How many members does Hebden Rooks have?", canal)
    assert not result.verified and result.ctx.answer_values != [36], result.answer


def test_a_limit_per_occasion_is_not_compared_with_the_occasions_summed(canal):
    # Wren's two stays (3 and 4 nights) are each within the 5 nights; summed they pass it
    result = ask("Which boats stayed at Jericho for more nights than its maximum stay?", canal)
    assert not (result.verified and "Wren" in (result.ctx.answer_values or [])), result.answer


@pytest.fixture(scope="module")
def chain(tmp_path_factory):
    return write_catalog(tmp_path_factory.mktemp("chain"), {"get_unit": UNIT}, {
        "units.csv": "unit,unit_type,parent_unit\nNorth Division,division,Head Office\nDales Area,area,North Division\n"
                     "Ripon Shop,shop,Dales Area\nSkipton Shop,shop,Dales Area\n"})


@pytest.fixture(scope="module")
def marina(tmp_path_factory):
    rows = [("B-07", "North Pontoon", 12, 2400, 1998, 900), ("B-08", "North Pontoon", 15, 3100, 2004, 1200),
            ("C-01", "South Pontoon", 9, 1700, 2011, 600)]
    return write_catalog(tmp_path_factory.mktemp("marina"), {"get_berth": BERTH, "get_pontoon_berths": PONTOON},
                         {"berths.csv": "berth,pontoon,length_m,annual_fee_gbp,opened_year,electricity_kwh\n"
                                        + "".join(",".join(map(str, r)) + "\n" for r in rows)})


def test_a_verb_is_read_off_what_the_description_relates_it_to():
    assert relations.verb_ends("A supplier: its rating and the country it is based in.", "base") == {"country"}
    assert relations.verb_ends("A plaza: how many lanes it has and the year it opened.", "open") == {"year"}
    assert relations.verb_ends("A plaza: how many lanes it has.", "open") == frozenset()


def test_the_verb_of_a_when_or_where_question():
    assert frame.when_where_done(frame.build("When did Ashby Gate open?")) == "open"
    assert frame.when_where_done(frame.build("Where is Tanaka Optical Works based?")) == "base"
    assert frame.when_where_done(frame.build("What is the capacity of Hall 2?")) is None


def test_how_with_an_adjective_asks_a_degree():
    assert reading._how_adjective(frame.build("How big is plot CH-B05?")) == "big"
    assert reading._how_adjective(frame.build("How many plots does the field have?")) is None
    assert reading._how_adjective(frame.build("How much rent does plot CH-B05 cost?")) is None


def test_a_code_with_a_digit_is_linked_whatever_its_tag():
    found = [{"value": "T-04", "columns": ["tankers.tanker"], "parameters": ["get_tanker.tanker"]}]
    assert [e.value for e in frame.build("Who drives T-04?", found, {}).entities] == ["T-04"]


def test_a_pronoun_after_a_part_whose_subject_is_the_named_thing_stands_for_it():
    found = [{"value": "St Mary's", "columns": ["parishes.parish"], "parameters": ["get_parish.parish"]}]
    first = frame.build("Which deanery is St Mary's in", found, {})
    assert not parts._points_back(first, "how many people are on its electoral roll?", "St Mary's")
    extreme = frame.build("Which depot has the most buses", [], {})
    assert parts._points_back(extreme, "is it over its fleet cap?", None)


def test_the_things_asked_are_the_column_the_catalog_labels_with_their_noun(fleet):
    result = ask("Which vehicles are licensed to Acme Cabs?", fleet)
    assert result.verified and result.ctx.answer_values == ["AB12 CDE", "AB13 CDF", "AB14 CDG", "AB15 CDH"], \
        result.answer


def test_a_yes_no_modifier_of_the_things_counted_keeps_to_them(fleet):
    result = ask("How many wheelchair-accessible vehicles does Acme Cabs run?", fleet)
    assert result.verified and result.ctx.answer_values == [3], result.answer
    assert "3 wheelchair-accessible vehicles" in result.answer


def test_a_second_question_after_a_comma_and_a_question_word_is_a_part_of_its_own():
    q = "Which depot grits the Rudston Link, and how many runs were made on it in February 2025?"
    found = [{"value": "Rudston Link", "columns": ["routes.route"], "parameters": ["get_route_runs.route"]}]
    assert len(frame.build(q, found, {}).parts) == 2


def test_how_big_is_refused_when_no_column_says_big(marina):
    result = ask("How big is berth B-07?", marina)
    assert not result.verified and "big" in result.answer, result.answer


def test_what_size_asked_with_the_copula_is_worded_as_the_thing_of_the_named_one(marina):
    result = ask("What length is berth B-07?", marina)
    assert result.verified and result.ctx.answer_values == [12], result.answer
    assert result.answer.startswith("The length of berth B-07 is 12"), result.answer


def test_a_number_of_a_named_thing_held_by_another_tools_rows(marina):
    # B-07 is no pontoon: the pontoons' berths are read for every pontoon and kept to B-07
    result = ask("What is the electricity allowance of berth B-07?", marina)
    assert result.verified and result.ctx.answer_values == [900], result.answer


def test_the_second_part_of_a_question_about_the_thing_the_first_names(marina):
    result = ask("Which pontoon is berth C-01 on, and what is its annual fee?", marina)
    assert result.verified and result.ctx.answer_parts == [["South Pontoon"], [1700]], result.answer


def test_the_thing_one_level_up_of_the_kind_asked(chain):
    result = ask("Which area does Ripon Shop report to?", chain)
    assert result.verified and result.ctx.answer_values == ["Dales Area"], result.answer
    # its own row says it: the rule reads the shop's row and the area's, one predicate read twice
    assert any("area" in s.program and s.program.count("unit_info(") == 2 for s in result.ctx.synthesized)


def test_a_kind_further_up_than_one_level_is_refused_by_name(chain):
    result = ask("Which division does Ripon Shop report to?", chain)
    assert not result.verified and "no division" in result.answer, result.answer


@pytest.mark.slow
@pytest.mark.parametrize(("dataset", "question", "expected"), [
    ("cinema_chain", "Which area does Lumen Harrogate report to?", ["Yorkshire Area"]),
    ("nursery_group", "Which region does the Tyne Valley area belong to?", ["North East Region"]),
    ("cinema_chain", "What percentage of Lumen Leeds' box office takings in 2024 came from The Glass Orchard?",
     [pytest.approx(0.05, abs=0.005)]),
    ("nursery_group", "Name the three nurseries that invoiced the most in fees during 2024.",
     ["Puddleduck Consett", "Puddleduck Corbridge", "Puddleduck Sunderland"]),
    ("care_homes", "Which three homes recorded the most falls in 2024?", ["Meadowview", "Nightjar Lodge", "Primrose Bank"]),
    ("diocese_parishes", "Which three parishes held the most funerals in 2024?",
     ["All Saints Upwick", "St Edmund's Hexley", "St Edmund's Yarrowby"]),
    ("film_festival", "Who sits on the Documentary Jury?",
     ["Adaeze Obi", "Elif Yilmaz", "Rosalind Achterberg", "Tariq Hassan"]),
    ("ski_resort", "What is the hourly capacity of the Tête Blanche Express?", [3000]),
    ("diocese_parishes", "How many people are on St Margaret's Netherby's electoral roll?", [65]),
])
def test_dev_refusals_now_answered_and_verified(dataset, question, expected):
    result = ask(question, SCENARIOS / dataset)
    assert result.verified and sorted(result.ctx.answer_values) == sorted(expected), result.answer


@pytest.mark.slow
@pytest.mark.parametrize(("dataset", "question", "expected"), [
    ("patent_office", "Where is Tanaka Optical Works based, and how many applications has it filed?", [["Japan"], [8]]),
    ("toll_motorway", "When did Ashby Gate open, and how many lanes does it have?", [[2015], [9]]),
    ("radio_network", "How many complaints has Late Lines had, and how many of them were upheld?", [[5], [1]]),
    ("diocese_parishes", "Which deanery is St Margaret's Netherby in, and how many people are on its electoral roll?",
     [["Coldharbour Deanery"], [65]]),
])
def test_two_part_refusals_now_answered_part_by_part(dataset, question, expected):
    result = ask(question, SCENARIOS / dataset)
    assert result.verified and result.ctx.answer_parts == expected, result.answer
