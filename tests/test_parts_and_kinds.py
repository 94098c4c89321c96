"""Questions of several parts answered part by part, and the readings behind three answers once wrong and verified
on a catalog a helper wrote (a who-question answered with a kind of thing, a noun lemmatized out of the catalog's
words, a when-question answered with an unrelated column). Whole runs, offline, on a small depot catalog of our own."""

from __future__ import annotations

import pytest
from catalogs import ask

from vadaorchestra.agents.question.parse import noun_lemma

UNITS = '''% the units of a bus network
@tool("get_unit_details", "Details of a unit of the bus network: its unit_type (depot or outstation) and the manager in charge of it.").
@param("unit_name", "string", "Name of the unit").
@bind("unit_table", "csv", "data", "units.csv").
@mapping("unit_table", 0, "unit", "string"). @mapping("unit_table", 1, "unit_type", "string").
@mapping("unit_table", 2, "manager", "string").
@output("unit_detail").
@mapping("unit_detail", 0, "unit", "string"). @mapping("unit_detail", 1, "unit_type", "string").
@mapping("unit_detail", 2, "manager", "string").
@role("unit_detail", "unit", "entity"). @role("unit_detail", "unit_type", "category").
unit_detail($unit_name, T, M) :- unit_table($unit_name, T, M).
'''
FLEET = '''% the buses of a depot
@tool("get_depot_fleet", "Fleet of a depot: every bus allocated there, by fleet number, with its number of seats.").
@param("depot_name", "string", "Name of the depot").
@bind("bus_table", "csv", "data", "buses.csv").
@mapping("bus_table", 0, "fleet_no", "string"). @mapping("bus_table", 1, "depot", "string").
@mapping("bus_table", 2, "seats", "int").
@output("depot_bus").
@mapping("depot_bus", 0, "depot", "string"). @mapping("depot_bus", 1, "fleet_no", "string").
@mapping("depot_bus", 2, "seats", "int").
@role("depot_bus", "fleet_no", "entity"). @role("depot_bus", "seats", "amount").
depot_bus($depot_name, B, S) :- bus_table(B, $depot_name, S).
'''
PROFILE = '''% a depot's profile
@tool("get_depot_profile", "Profile of a depot: the year it opened and its fleet cap (the most buses that may be allocated to it).").
@param("depot_name", "string", "Name of the depot").
@bind("depot_table", "csv", "data", "depots.csv").
@mapping("depot_table", 0, "depot", "string"). @mapping("depot_table", 1, "opened_year", "int").
@mapping("depot_table", 2, "fleet_cap", "int").
@output("depot_profile").
@mapping("depot_profile", 0, "depot", "string"). @mapping("depot_profile", 1, "opened_year", "int").
@mapping("depot_profile", 2, "fleet_cap", "int").
@role("depot_profile", "depot", "entity"). @role("depot_profile", "fleet_cap", "limit").
depot_profile($depot_name, Y, C) :- depot_table($depot_name, Y, C).
'''


@pytest.fixture(scope="module")
def depots(tmp_path_factory):
    root = tmp_path_factory.mktemp("depots")
    (root / "catalog").mkdir()
    for name, text in (("get_unit_details", UNITS), ("get_depot_fleet", FLEET), ("get_depot_profile", PROFILE)):
        (root / "catalog" / f"{name}.dl").write_text(text)
    (root / "data").mkdir()
    (root / "data" / "units.csv").write_text("unit,unit_type,manager\nCroydon Depot,depot,Ruth Adeyemi\n"
                                             "Mill Hill Outstation,outstation,Tom Kowalski\n")
    buses = [("CD101", "Croydon Depot", 62), ("CD102", "Croydon Depot", 62), ("CD103", "Croydon Depot", 45),
             ("MH201", "Mill Hill Outstation", 45)]
    (root / "data" / "buses.csv").write_text("fleet_no,depot,seats\n" + "".join(f"{a},{b},{c}\n" for a, b, c in buses))
    (root / "data" / "depots.csv").write_text("depot,opened_year,fleet_cap\nCroydon Depot,1961,2\n"
                                              "Mill Hill Outstation,1990,4\n")
    return root


def test_a_noun_keeps_its_lemma_when_it_is_a_singular_already():
    # the rule lemmatizer, told nothing of number, reads every noun as a plural ("bus": "bu")
    assert [noun_lemma(w) for w in ("bus", "buses", "status", "holdings", "companies")] == \
        ["bus", "bus", "status", "holding", "company"]


def test_how_many_buses_counts_the_buses(depots):
    result = ask("How many buses are allocated to Croydon Depot?", depots)
    assert result.verified and result.ctx.answer_values == [3]


def test_who_is_in_charge_answers_with_the_column_the_description_names_with_it(depots):
    result = ask("Who is in charge of the Mill Hill Outstation?", depots)
    assert result.verified and result.ctx.answer_values == ["Tom Kowalski"]


def test_a_who_question_answered_with_a_kind_of_thing_is_refused(depots):
    # no column is named with "runs": the unit's type is what a plain lookup would give
    result = ask("Who runs the Mill Hill Outstation?", depots)
    assert not result.verified and result.ctx.answer_values is None


def test_a_when_question_that_picks_out_no_value_is_refused(depots):
    result = ask("When does the service contract of Croydon Depot expire?", depots)
    assert not result.verified, result.answer


def test_a_when_question_is_answered_with_what_the_description_says_of_its_verb(depots):
    # "the year it opened": the profile's opened_year, the one value the question asks for
    result = ask("When did Croydon Depot open?", depots)
    assert result.verified and result.ctx.answer_values == [1961], result.answer
    assert "in 1961" in result.answer


def test_a_question_of_two_parts_is_answered_part_by_part(depots):
    result = ask("What fleet cap does Croydon Depot operate under, and how many buses does it have?", depots)
    assert result.verified, result.answer
    assert result.ctx.answer_parts == [[2], [3]]
    assert [c["part"] for c in result.ctx.checks][:1] == [1] and {c["part"] for c in result.ctx.checks} == {1, 2}
    # each part named apart in the trace: two selections of their own
    outputs = [s.output for s in result.ctx.synthesized]
    assert any("part1" in o for o in outputs) and any("part2" in o for o in outputs)


def test_a_part_about_another_parts_answer_is_not_composed(depots):
    # "it" is the depot the first part finds: the parts are not independent, and no part is answered alone
    result = ask("Which depot has the most buses, and is it over its fleet cap?", depots)
    assert result.ctx.answer_parts is None


def test_a_count_within_a_cap_is_a_yes_no_answer(depots):
    over = ask("Is the number of buses at Croydon Depot within its fleet cap?", depots)
    assert over.verified and over.ctx.answer_values == ["Croydon Depot"], over.answer  # 3 buses, cap 2
    within = ask("Is the number of buses at Mill Hill Outstation within its fleet cap?", depots)
    assert within.verified and within.ctx.answer_values == [], within.answer  # 1 bus, cap 4


def test_who_leads_and_how_many_is_answered_part_by_part(depots):
    # "it" after a who-question is the thing the question names (someone leads it), not the one the first part finds
    result = ask("Who is in charge of Croydon Depot, and how many buses does it have?", depots)
    assert result.verified and result.ctx.answer_parts == [["Ruth Adeyemi"], [3]], result.answer


def test_a_part_the_answer_does_not_give_is_refused(depots):
    # ("Which boats does X have, and how many launches ...?" was answered with the count alone, verified)
    from vadaorchestra.agents.context import PredicateView, RunContext
    from vadaorchestra.agents.question.frame import build
    from vadaorchestra.agents.reading import _parts

    q = "Which buses does Croydon Depot have, and how many seats do they have in total?"
    tools = {"get_depot_fleet": {"name": "get_depot_fleet", "output_predicate": "depot_bus",
                                 "description": "Fleet of a depot: every bus allocated there."}}
    ctx = RunContext(question=q, tools=tools)
    ctx.frame = build(q, [{"value": "Croydon Depot", "columns": ["depot_bus.depot"],
                           "parameters": ["get_depot_fleet.depot_name"], "category": False}], tools)
    ctx.predicates["depot_bus"] = PredicateView("depot_bus", "high", "get_depot_fleet", 2,
                                                [{"name": "depot", "type": "string"}, {"name": "bus", "type": "string"},
                                                 {"name": "seats", "type": "int"}], {"depot": "depot_name"},
                                                [{"depot": "Croydon Depot", "bus": "CD101", "seats": 62},
                                                 {"depot": "Croydon Depot", "bus": "CD102", "seats": 62}])
    ctx.answer = "total seats for Croydon Depot: 124."
    assert any("'Which buses does Croydon Depot have'" in p for p in _parts(ctx.frame, ctx))
    ctx.answer = "buses CD101, CD102; total seats: 124."
    assert not any("Which buses" in p for p in _parts(ctx.frame, ctx))


def test_the_column_naming_more_of_the_asked_words_is_the_one_asked():
    from vadaorchestra.agents.question.frame import asked_columns

    # ("What is the permitted depth of Trench 3?" was answered with the current depth, verified)
    assert asked_columns(("permit", "depth"), ["current_depth_m", "permitted_depth_m"]) == ["permitted_depth_m"]
    assert asked_columns(("depth",), ["current_depth_m", "permitted_depth_m"]) == ["current_depth_m",
                                                                                  "permitted_depth_m"]


def test_a_phrase_naming_nothing_is_not_placed_by_the_entity_it_is_of(depots):
    # ("How much did the geophysical survey of X cost?" was answered with X's total cost, verified)
    result = ask("How many seats did the annual roadworthiness inspection of Croydon Depot cover?", depots)
    assert not result.verified and result.ctx.answer_values is None, result.answer
