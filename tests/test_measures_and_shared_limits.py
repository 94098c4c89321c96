"""A superlative measured by what its words name, a limit per thing and category compared with a sibling tool's
amounts, a second part that says "there", a period restated in the answer, and a share written as a percentage.

The catalog is written here (laboratories, their reagent allowances, their monthly use and their tests), so that
none of it was tuned on a scenario's questions."""

from __future__ import annotations

import pytest

LAB = {
    "get_lab_tests.dl": '''
@tool("get_lab_tests", "The tests run at a laboratory: date, the technician who ran it, the assay and the fee charged in GBP.").
@param("lab", "string", "Name of the laboratory, e.g. North Lab").
@bind("tests", "csv", "data", "tests.csv").
@mapping("tests", 0, "test_id", "string"). @mapping("tests", 1, "date", "string"). @mapping("tests", 2, "lab", "string").
@mapping("tests", 3, "technician", "string"). @mapping("tests", 4, "assay", "string"). @mapping("tests", 5, "fee_gbp", "float").
@output("lab_test").
@mapping("lab_test", 0, "lab", "string"). @mapping("lab_test", 1, "test_id", "string"). @mapping("lab_test", 2, "date", "string").
@mapping("lab_test", 3, "technician", "string"). @mapping("lab_test", 4, "assay", "string"). @mapping("lab_test", 5, "fee_gbp", "float").
@role("lab_test", "test_id", "entity"). @role("lab_test", "date", "date"). @role("lab_test", "assay", "category").
@role("lab_test", "fee_gbp", "amount"). @label("lab_test", "fee_gbp", "fee"). @unit("lab_test", "fee_gbp", "GBP").
lab_test($lab, Id, D, T, A, F) :- tests(Id, D, $lab, T, A, F).
''',
    "get_lab_profile.dl": '''
@tool("get_lab_profile", "Profile of one laboratory: its town, its bench count (work benches) and its monthly test cap.").
@param("lab", "string", "Name of the laboratory, e.g. South Lab").
@bind("labs", "csv", "data", "labs.csv").
@mapping("labs", 0, "lab", "string"). @mapping("labs", 1, "town", "string"). @mapping("labs", 2, "bench_count", "int").
@mapping("labs", 3, "monthly_test_cap", "int").
@output("lab_profile").
@mapping("lab_profile", 0, "lab", "string"). @mapping("lab_profile", 1, "town", "string").
@mapping("lab_profile", 2, "bench_count", "int"). @mapping("lab_profile", 3, "monthly_test_cap", "int").
@role("lab_profile", "lab", "entity"). @label("lab_profile", "bench_count", "bench count").
@unit("lab_profile", "bench_count", "benches"). @role("lab_profile", "monthly_test_cap", "limit").
lab_profile($lab, T, B, C) :- labs($lab, T, B, C).
''',
    "get_lab_technicians.dl": '''
@tool("get_lab_technicians", "The technicians who work at a laboratory, with their grade.").
@param("lab", "string", "Name of the laboratory, e.g. North Lab").
@bind("technicians", "csv", "data", "technicians.csv").
@mapping("technicians", 0, "technician", "string"). @mapping("technicians", 1, "lab", "string").
@mapping("technicians", 2, "grade", "string").
@output("lab_technician").
@mapping("lab_technician", 0, "lab", "string"). @mapping("lab_technician", 1, "technician", "string").
@mapping("lab_technician", 2, "grade", "string").
@role("lab_technician", "technician", "entity"). @role("lab_technician", "grade", "category").
lab_technician($lab, T, G) :- technicians(T, $lab, G).
''',
    "get_reagent_allowances.dl": '''
@tool("get_reagent_allowances", "The monthly reagent allowance of a laboratory: for each reagent, the most (in ml) it may use in one calendar month.").
@param("lab", "string", "Name of the laboratory, e.g. North Lab").
@bind("allowances", "csv", "data", "allowances.csv").
@mapping("allowances", 0, "lab", "string"). @mapping("allowances", 1, "reagent", "string").
@mapping("allowances", 2, "monthly_allowance_ml", "float").
@output("reagent_allowance").
@mapping("reagent_allowance", 0, "lab", "string"). @mapping("reagent_allowance", 1, "reagent", "string").
@mapping("reagent_allowance", 2, "monthly_allowance_ml", "float").
@role("reagent_allowance", "reagent", "category"). @role("reagent_allowance", "monthly_allowance_ml", "limit").
@label("reagent_allowance", "monthly_allowance_ml", "monthly allowance").
@unit("reagent_allowance", "monthly_allowance_ml", "ml").
reagent_allowance($lab, R, A) :- allowances($lab, R, A).
''',
    "get_monthly_reagent_use.dl": '''
@tool("get_monthly_reagent_use", "Total quantity (ml) of each reagent a laboratory used in each calendar month (YYYY-MM).").
@param("lab", "string", "Name of the laboratory, e.g. North Lab").
@bind("reagent_use", "csv", "data", "reagent_use.csv").
@mapping("reagent_use", 0, "lab", "string"). @mapping("reagent_use", 1, "month", "string").
@mapping("reagent_use", 2, "reagent", "string"). @mapping("reagent_use", 3, "quantity_ml", "float").
@output("monthly_reagent_use").
@mapping("monthly_reagent_use", 0, "lab", "string"). @mapping("monthly_reagent_use", 1, "month", "string").
@mapping("monthly_reagent_use", 2, "reagent", "string"). @mapping("monthly_reagent_use", 3, "total_ml", "float").
@role("monthly_reagent_use", "month", "date"). @role("monthly_reagent_use", "reagent", "category").
@role("monthly_reagent_use", "total_ml", "amount"). @label("monthly_reagent_use", "total_ml", "quantity used").
@unit("monthly_reagent_use", "total_ml", "ml").
monthly_reagent_use($lab, M, R, T) :- reagent_use($lab, M, R, Q), T = sum(Q).
''',
    "get_monthly_tests.dl": '''
@tool("get_monthly_tests", "How many tests a laboratory ran in each calendar month (YYYY-MM).").
@param("lab", "string", "Name of the laboratory, e.g. North Lab").
@output("monthly_tests").
@mapping("monthly_tests", 0, "lab", "string"). @mapping("monthly_tests", 1, "month", "string").
@mapping("monthly_tests", 2, "monthly_tests_run", "int").
@role("monthly_tests", "month", "date"). @role("monthly_tests", "monthly_tests_run", "amount").
month_test($lab, M, Id) :- lab_test($lab, Id, D, _, _, _), M = substring(D, 0, 7).
monthly_tests($lab, M, N) :- month_test($lab, M, Id), N = count(Id).
''',
    "get_units_below.dl": '''
@tool("get_units_below", "Every unit (division, site or lab) below a unit of the network, at any depth, with its type; level 1 is directly under it.").
@param("unit", "string", "Name of the unit, e.g. Northern Division").
@bind("units", "csv", "data", "units.csv").
@mapping("units", 0, "unit", "string"). @mapping("units", 1, "unit_type", "string"). @mapping("units", 2, "parent", "string").
@output("unit_below").
@mapping("unit_below", 0, "unit", "string"). @mapping("unit_below", 1, "sub_unit", "string").
@mapping("unit_below", 2, "unit_type", "string"). @mapping("unit_below", 3, "level", "int").
@role("unit_below", "sub_unit", "entity"). @role("unit_below", "unit_type", "category"). @role("unit_below", "level", "level").
below($unit, S, T, 1) :- units(S, T, $unit).
below($unit, S, T, L1) :- below($unit, M, _, L), units(S, T, M), L1 = L + 1.
unit_below($unit, S, T, L) :- below($unit, S, T, L).
''',
}

DATA = {
    "units.csv": "unit,unit_type,parent\nNorthern Division,division,\nLeeds Site,site,Northern Division\n"
                 "York Site,site,Northern Division\nNorth Lab,lab,Leeds Site\nEast Lab,lab,Leeds Site\n"
                 "Minster Lab,lab,York Site\nDales Lab,lab,Northern Division\nSouth Lab,lab,\n",
    "labs.csv": "lab,town,bench_count,monthly_test_cap\nNorth Lab,Leeds,12,60\nSouth Lab,Exeter,7,30\n",
    "technicians.csv": "technician,lab,grade\nAda Quist,North Lab,senior\nBen Roe,North Lab,junior\n"
                       "Cai Wen,North Lab,junior\nDee Lutz,South Lab,senior\n",
    # Ben runs the most tests (3); Ada the dearest one
    "tests.csv": "test_id,date,lab,technician,assay,fee_gbp\nT1,2024-03-01,North Lab,Ada Quist,elisa,900\n"
                 "T2,2024-03-02,North Lab,Ben Roe,pcr,120\nT3,2024-03-03,North Lab,Ben Roe,pcr,130\n"
                 "T4,2024-03-04,North Lab,Ben Roe,elisa,140\nT5,2024-03-05,North Lab,Cai Wen,pcr,150\n"
                 "T6,2024-03-06,South Lab,Dee Lutz,pcr,100\n",
    "allowances.csv": "lab,reagent,monthly_allowance_ml\nNorth Lab,acetone,50\nNorth Lab,ethanol,80\n"
                      "North Lab,xylene,20\nSouth Lab,acetone,30\nSouth Lab,ethanol,40\n",
    # North Lab in March 2024: acetone 61 > 50, ethanol 70 <= 80, xylene 25 > 20; in February: all within
    "reagent_use.csv": "lab,month,reagent,quantity_ml\nNorth Lab,2024-02,acetone,40\nNorth Lab,2024-02,ethanol,60\n"
                       "North Lab,2024-03,acetone,31\nNorth Lab,2024-03,acetone,30\nNorth Lab,2024-03,ethanol,70\n"
                       "North Lab,2024-03,xylene,25\nSouth Lab,2024-02,acetone,29\nSouth Lab,2024-03,acetone,35\n",
}


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    root = tmp_path_factory.mktemp("lab")
    (root / "catalog").mkdir()
    (root / "data").mkdir()
    for name, text in LAB.items():
        (root / "catalog" / name).write_text(text.lstrip())
    for name, text in DATA.items():
        (root / "data" / name).write_text(text)
    return root


def _ask(lab, question):
    from vadaorchestra.agents.run import ask_sync

    return ask_sync(question, catalog=lab / "catalog", data=lab)


def test_the_most_things_counts_the_rows_per_thing_and_a_measure_no_word_names_is_refused(lab, monkeypatch):
    question = "Which technician ran the most tests at North Lab?"
    result = _ask(lab, question)
    assert result.verified and result.ctx.answer_values == ["Ben Roe"], result.answer
    assert any("count(" in s.program for s in result.ctx.synthesized)
    # the computation of before (the highest fee, a column no word of the question names) is refused by name
    from vadaorchestra.agents.question.compose import Composer

    monkeypatch.setattr(Composer, "_rows_measured", staticmethod(lambda *a: False))
    # (and the composer's measure forced to the fee, which it no longer takes when the words name another tool's
    # column: the Verifier's check is what is tested)
    monkeypatch.setattr(Composer, "_measure",
                        staticmethod(lambda fr, nums, *a, **k: "fee_gbp" if "fee_gbp" in nums else None))
    result = _ask(lab, question)
    assert not result.verified and "measures 'test'" in result.answer and "fee_gbp" in result.answer, result.answer


@pytest.mark.parametrize("question, yes, values", [
    # the allowance per reagent next to the use per reagent and month (a sibling tool called for the same lab)
    ("Which reagents did North Lab use beyond its monthly allowance in March 2024?", None, ["acetone", "xylene"]),
    ("Did North Lab use more acetone in March 2024 than its monthly allowance permits?", True, ["North Lab"]),
    pytest.param("Did North Lab use more ethanol in March 2024 than its monthly allowance permits?", False, [],
                 marks=pytest.mark.slow),
    # no word names the amounts: those the catalog declares in the allowance's unit
    ("Did South Lab keep within its acetone allowance in February 2024?", True, []),
    pytest.param("Did South Lab keep within its acetone allowance in March 2024?", False, ["South Lab"],
                 marks=pytest.mark.slow),
])
def test_a_limit_per_category_is_compared_with_the_same_category_of_a_sibling_tool(lab, question, yes, values):
    result = _ask(lab, question)
    assert result.verified, result.answer
    assert sorted(result.ctx.answer_values) == values, result.answer
    if yes is not None:
        assert result.ctx.answer_yes is yes, result.answer
    program = "\n".join(s.program for s in result.ctx.synthesized)
    assert '"2024-0' in program  # the month named is kept


def test_a_second_part_that_says_there_is_about_the_place_named_and_its_period_is_no_number_to_check(lab):
    result = _ask(lab, "What is the bench count of North Lab, and how many technicians work there?")
    assert result.verified and result.ctx.answer_parts == [[12], [3]], result.answer
    result = _ask(lab, "How much acetone did North Lab use in March 2024, and what is its monthly acetone allowance?")
    assert result.verified, result.answer
    assert "2024" in result.answer and "61" in result.answer and "50" in result.answer


def test_a_share_written_as_a_percentage_matches_a_gold_in_percent_and_only_then():
    from vadaorchestra.eval.metrics import right

    assert right(25.0, [0.25], "answer_values", text="25 % of the appointments were for cats.")
    assert right(0.25, [0.25], "answer_values", text="25 % of the appointments were for cats.")
    assert not right(25.0, [0.25], "answer_values", text="A quarter of the appointments were for cats.")
    assert not right(25.0, [0.3], "answer_values", text="30 % of the appointments were for cats.")


def test_a_kind_in_the_words_that_say_how_far_the_chain_goes_restricts_nothing(lab):
    # the sites are passed through, the labs counted at every level (before: refused, "site" demanded as a filter)
    result = _ask(lab, "How many labs does the Northern Division have, counting those in all of its sites?")
    assert result.verified and result.ctx.answer_values == [4], result.answer


def test_a_property_is_read_from_the_column_its_head_word_names_not_from_a_tool_named_like_its_modifiers(lab):
    # get_monthly_tests is named by "monthly tests"; the cap is the profile's monthly_test_cap
    result = _ask(lab, "What is the monthly tests cap of North Lab?")
    assert result.verified and result.ctx.answer_values == [60], result.answer


def test_a_step_followed_by_a_column_is_followed_by_the_tool_of_another_step():
    from vadaorchestra.agents.question.relations import Step, assign

    booked = Step((), frozenset({"get_concert_bookings", "get_musician_bookings"}))
    fees = Step((), frozenset({"get_concert_bookings", "get_musician_profile"}), attribute=True)
    assert assign([booked, fees], ["get_concert_bookings"]) == []
    assert assign([booked, fees], ["get_musician_profile"]) == [booked]
    assert assign([booked, Step((), fees.tools)], ["get_concert_bookings"]) != []  # two steps of what tools are


@pytest.mark.parametrize("question, back", [
    ("Which section does Jonas Berg play in, and what is his monthly cap?", False),  # his: Jonas Berg's
    ("Which clinic handled the most cases, and what is its cap?", True),  # its: the clinic found
])
def test_a_gendered_pronoun_after_a_question_about_a_person_named_is_that_person(question, back):
    from vadaorchestra.agents.question import frame
    from vadaorchestra.agents.question.parts import _points_back

    whole = frame.build(question)
    first = frame.build(whole.parts[0])
    assert _points_back(first, " ".join(whole.parts[1:]), "Jonas Berg" if "Jonas" in question else None) is back


def test_a_value_inside_a_longer_one_is_linked_where_it_is_written_alone(lab):
    from vadaorchestra.mcp_server.catalog import Catalog
    from vadaorchestra.mcp_server.linking import Linker

    linker = Linker(Catalog.load(lab / "catalog", data_root=lab))

    def values(text):
        return sorted(m["value"] for m in linker.entities(text)["matches"])

    assert values("Which labs of the Leeds Site are in Leeds?") == ["Leeds", "Leeds Site"]
    assert values("Which labs does the Leeds Site have?") == ["Leeds Site"]


def test_a_category_value_written_in_lower_case_is_a_kind_whatever_its_tag():
    from vadaorchestra.agents.question import frame

    kinds = [{"value": "tutti", "category": True, "columns": ["musicians.contract"], "parameters": []}]
    names = [{"value": "Cellos", "category": False, "columns": ["musicians.section"],
              "parameters": ["get_section_players.section"]}]
    fr = frame.build("What share of the Cellos are on tutti contracts?", names + kinds)
    assert [e.value for e in fr.kinds] == ["tutti"]  # spaCy tags "tutti" a proper noun
    # the type of a thing the question names restricts nothing ("the Brass family")
    kinds = [{"value": "family", "category": True, "columns": ["sections.section_type"], "parameters": []}]
    names = [{"value": "Brass", "category": False, "columns": ["sections.section"],
              "parameters": ["get_section_players.section"]}]
    fr = frame.build("How many players are there in the Brass family?", names + kinds)
    assert [e.value for e in fr.entities] == ["Brass"]


def test_a_percent_gold_is_matched_at_its_own_precision():
    from vadaorchestra.eval.metrics import right

    assert right(66.7, [2 / 3], "answer_values", text="66.7 % of the tickets were about billing.")
    assert not right(66.7, [2 / 3], "answer_values", text="Two thirds of the tickets were about billing.")
    assert not right(66.6, [2 / 3], "answer_values", text="66.7 % of the tickets were about billing.")
