"""Right or honest on any catalog (issue 22): rules that merge equal values are refused wherever they come from, and
every question ends answered or "could not answer", never in a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vadaorchestra.agents import wording
from vadaorchestra.errors import ValidationError
from vadaorchestra.mcp_server.workspace import Workspace


@pytest.fixture
def bank_gamma(catalog, tmp_path) -> Workspace:
    ws = Workspace(catalog, tmp_path / "ws.duckdb")
    for tool in ("get_loans", "get_credit_lines", "get_bank_exposures"):
        ws.invoke(tool, {"bank_name": "Bank Gamma"})
    yield ws
    ws.close()


def test_run_program_refuses_a_sum_that_merges_equal_values_and_leaves_the_workspace_unchanged(bank_gamma):
    before = bank_gamma.predicates()
    with pytest.raises(ValidationError) as err:
        bank_gamma.run_program("total(K, T) :- exposure(K, _, A), T = sum(A).")
    [diag] = err.value.diagnostics
    assert (diag.span.line, diag.span.column) == (1, 39)
    assert "merges equal values" in diag.message and "instead of '_'" in diag.message
    assert bank_gamma.predicates() == before


PAYROLL = 'payroll("Sales", "Ann", 100.0). payroll("Sales", "Bob", 100.0). payroll("Sales", "Cy", 40.0).\n'


def test_a_sum_over_rows_with_equal_values_is_refused_until_each_row_is_named(bank_gamma):
    with pytest.raises(ValidationError, match="merges equal values"):
        bank_gamma.run_program(PAYROLL + "total(D, S) :- payroll(D, _, Sal), S = sum(Sal).")
    res = bank_gamma.run_program(PAYROLL + "total(D, S) :- payroll(D, E, Sal), S = sum(Sal).")
    assert res["cardinality"] == 1
    assert bank_gamma.con.execute("SELECT * FROM total").fetchall() == [("Sales", 240.0)]


# --- every question ends answered or "could not answer" -----------------------------------------------------------
ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "scenarios"
ODD = [
    "What colour is the sky on Mars?",
    "Tell me a joke.",
    "?",
    "How many unicorns are there?",
    'Which "); DROP TABLE x; -- values exist?',
    "Quelle est la capitale de la France ?",
    "Which of them is the highest, and by how much does it exceed the limit?",
    "x" * 3000,
]


def _one_tool_catalog(folder: Path) -> Path:
    (folder / "data").mkdir(parents=True)
    (folder / "data" / "staff.csv").write_text(
        "employee,department,salary\nAda Moreau,Research,120000\nBen Okoro,Research,95000\n"
        "Cleo Varga,Sales,95000\nDev Anand,Sales,80000\n", encoding="utf-8")
    (folder / "get_staff.dl").write_text(
        '@tool("get_staff", "Employees of a department with their salary.").\n'
        '@param("department", "string", "Name of the department").\n'
        '@bind("staff", "csv", "data", "staff.csv").\n'
        '@mapping("staff", 0, "employee", "string"). @mapping("staff", 1, "department", "string").\n'
        '@mapping("staff", 2, "salary", "float").\n'
        '@output("employee_of").\n'
        '@mapping("employee_of", 0, "department", "string"). @mapping("employee_of", 1, "employee", "string").\n'
        '@mapping("employee_of", 2, "salary", "float").\n'
        'employee_of($department, E, S) :- staff(E, $department, S).\n', encoding="utf-8")
    return folder


def _empty_data_catalog(folder: Path) -> Path:
    _one_tool_catalog(folder)
    (folder / "data" / "staff.csv").write_text("employee,department,salary\n", encoding="utf-8")
    return folder


def _questions(dataset: str, n: int) -> list[str]:
    lines = (SCENARIOS / dataset / "data" / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["question"] for line in lines[:n]]


def _ask_all(catalog: Path, data: Path | None, questions: list[str]) -> list:
    import anyio

    from vadaorchestra.agents.local import LocalServer
    from vadaorchestra.agents.run import ask

    async def go():
        out = []
        with LocalServer(catalog, data) as params:
            for q in questions:
                out.append(await ask(q, server_params=params))
        return out

    return anyio.run(go)


@pytest.mark.slow
def test_fifty_varied_questions_over_five_catalogs_end_answered_or_could_not_answer(tmp_path):
    runs = [
        (ROOT / "examples" / "catalog", None,
         ["What are Bank Gamma's largest exposures, and do any of them raise concentration-risk concerns?",
          "Who ultimately controls DeepLogic Ltd?", "How many loans has Bank Gamma granted?",
          "What is the capital of Bank Gamma?", *ODD[:4]]),
        (SCENARIOS / "hospital_claims" / "catalog", SCENARIOS / "hospital_claims",
         _questions("hospital_claims", 34)[::3] + ODD[4:6]),
        (SCENARIOS / "freight_hubs" / "catalog", SCENARIOS / "freight_hubs",
         _questions("freight_hubs", 29)[::3] + ODD[6:]),
        (SCENARIOS / "course_enrolments" / "catalog", SCENARIOS / "course_enrolments",
         _questions("course_enrolments", 31)[::4]),
        (_one_tool_catalog(tmp_path / "one"), None,
         ["Who works in Research?", "How many employees does Sales have?", "What is the total salary of Research?",
          "Which employee of Sales earns the most?", "Who works in Marketing?", ODD[0]]),
        (_empty_data_catalog(tmp_path / "empty"), None, ["Who works in Research?", "How many employees are there?"]),
    ]
    asked = 0
    for catalog, data, questions in runs:
        for q, result in zip(questions, _ask_all(catalog, data, questions), strict=True):
            asked += 1
            assert result.answer, q
            assert "Traceback" not in result.answer and "internal error" not in result.answer, (q, result.answer)
            if result.ctx.verified is False:
                assert result.answer.startswith("could not answer: "), (q, result.answer)
    assert asked >= 50


def test_ask_on_the_command_line_exits_2_with_could_not_answer_and_writes_the_trace(tmp_path):
    from typer.testing import CliRunner

    from vadaorchestra.cli import app

    trace = tmp_path / "trace.dl"
    res = CliRunner().invoke(app, ["ask", "What colour is the sky on Mars?", "--catalog",
                                   str(ROOT / "examples" / "catalog"), "--trace", str(trace)])
    assert res.exit_code == 2, res.output
    assert "could not answer: no tool of the catalog fits the question" in res.output
    assert "Traceback" not in res.output and trace.is_file()


def test_find_entities_links_values_of_output_columns_that_no_parameter_takes(tmp_path):
    from vadaorchestra.mcp_server.catalog import Catalog

    ws = Workspace(Catalog.load(SCENARIOS / "hospital_claims" / "catalog", SCENARIOS / "hospital_claims"),
                   tmp_path / "ws.duckdb")
    found = ws.find_entities("How many claims did Northgate Family Clinic bill for patient Sofia Marchetti?")
    matches = {m["value"]: m for m in found["matches"]}
    assert list(matches) == ["Northgate Family Clinic", "Sofia Marchetti"]
    assert "get_provider_claims.provider" in matches["Northgate Family Clinic"]["parameters"]
    assert matches["Sofia Marchetti"] == {"value": "Sofia Marchetti", "columns": ["claims.patient"], "parameters": [],
                                          "category": False}  # a name, not a kind of thing
    ws.close()


def test_the_frame_reads_what_is_asked_the_conditions_and_the_chain():
    from vadaorchestra.agents.question.frame import build

    f = build("Which providers of Crestline Health Partners, directly or through its sub-systems, have a rating "
              "above 4.0?")
    assert (f.kind, f.asks_for, f.direct) == ("list", ("provider",), False)
    assert [(c.op, c.value) for c in f.conditions] == [(">", 4.0)]
    f = build("What is the largest single claim amount that Rosewood Maternity Hospital billed?")
    assert (f.kind, f.extreme, f.asks_for) == ("extreme", "max", ("claim", "amount"))
    assert build("Which providers belong directly to Crestline Health Partners?").direct is True
    assert build("Which issuers exceed the fund's issuer limit?").kind == "limit"
    assert build("What are Bank Gamma's largest exposures?").extreme is None  # a ranking, not the single largest
    assert build("How many orders above 5M did Acme Motors place?").conditions[0].value == 5_000_000
    # after a clause, "which" still asks for a thing; "the highest total" is an extreme of totals
    f = build("Among the hubs reachable from Prague Rudna Terminal, which one has the largest daily capacity?")
    assert f.who and f.kind == "extreme"
    assert build("Which patient has the highest total amount billed by Bayside?").kind == "extreme"
    # two quantities of the data compared ("more enrolments than seats") is a limit check, not a list
    assert build("Which courses had more enrolments in term 2025-2 than seats?").kind == "limit"
    assert build("Which providers billed more than 50,000?").kind == "list"
    # the noun after a name the question gives
    f = build("Count the Echocardiogram claims billed by Willowbrook.", [{"value": "Echocardiogram"}])
    assert f.asks_for == ("claim",)


@pytest.mark.parametrize(("question", "expected"), [
    # (from the library and grid sets' first contact: each of these read wrong and an answer was verified)
    ("Which member kept a book the longest on a single loan from Hollins Bay Library?", {"extreme": "max"}),
    ("What was the shortest loan, in days, recorded at Dunmore Community Library?",
     {"extreme": "min", "asks_for": ("loan",)}),
    ("Whose loans from Bellmont Square Library add up to the largest number of days?",
     {"who": True, "count": False, "total": True, "extreme": "max"}),
    ("How many of the loans at Eastbrook Public Library were for Empire of Distant Suns?", {"how_many": "loans"}),
    ("How many customer feeders are connected directly to Bramley Heath Substation?",
     {"how_many": "customer feeders", "direct": True}),
    ("How many titles are catalogued under Crime and Mystery?", {"how_many": "titles"}),
    ("Which books in Speculative Fiction or any of its subgenres were published after 2015?", {"direct": False}),
    ("How many titles are catalogued under Crime and Mystery, counting all of its subgenres?", {"direct": False}),
    ("Which titles are filed directly under Speculative Fiction itself, not under one of its subgenres?",
     {"direct": True}),
    ("Which library branches kept their number of loans within their yearly quota?", {"count": False, "who": True}),
])
def test_the_frame_reads_generic_english_it_misread_on_first_contact(question, expected):
    from vadaorchestra.agents.question.frame import build

    f = build(question)
    assert {k: getattr(f, k) for k in expected} == expected


def test_a_year_after_or_before_is_a_condition():
    from vadaorchestra.agents.question.frame import build

    assert [(c.op, c.value) for c in build("Which books were published after 2015?").conditions] == [(">", 2015.0)]
    assert [(c.op, c.value) for c in build("Which books came out before 1990?").conditions] == [("<", 1990.0)]


# the exact matches of every dataset, offline, as measured (runs/n52g; the fresh pairs after their fixes): the offline
# policy is deterministic, so fewer is a regression; none may be wrong and verified, the promise the product makes
# (irrigation_scheme 14 -> 13 in session 50: IR07, "which one has the smallest annual allocation?", had been answered
# with the farm of the smallest area, the right farm by luck; the Verifier now refuses an extreme ordered by an amount
# no word of the question names; back to 14 in session 51, ordered by annual_allocation_ml, the farms' allocations
# joined once the channel's own profile, holding nothing to join, was set aside for the farms along it)
DATASET_EM = {"airline_maintenance": 15, "archaeology_dig": 13, "bank_plus": 120, "bank_plus_reworded": 8,
              "bank_qa": 278, "bank_qa_reworded": 16, "car_rental": 16, "city_buses": 16, "construction_firm": 15,
              "container_port": 13, "course_enrolments": 29, "course_enrolments_reworded": 14, "film_festival": 15,
              "fire_rescue": 15, "food_bank": 15, "football_league": 16, "freight_hubs": 28,
              "freight_hubs_reworded": 14, "fund_holdings": 37, "fund_holdings_reworded": 13, "hospital_claims": 33,
              "hospital_claims_reworded": 13, "hotel_chain": 15, "lab_equipment": 16, "library_network": 21,
              "library_network_reworded": 11, "lifeboat_service": 11, "park_rangers": 15, "power_grid": 23,
              "power_grid_reworded": 13, "publishing_house": 14, "retail_chain": 17, "ski_resort": 15,
              "supply_chain": 22, "supply_chain_reworded": 12, "wine_cooperative": 14, "zoo_enclosures": 14,
              "vet_network": 16, "orchestra_season": 14, "dairy_coop": 14, "telecom_accounts": 14, "ferry_lines": 16,
              "seed_bank": 16, "beekeeping_assoc": 16, "software_registry": 16, "satellite_ops": 16,
              "translation_agency": 16, "museum_loans": 16, "clinical_trials": 15, "irrigation_scheme": 14,
              "referee_federation": 13, "forestry_estate": 16, "colo_datacentre": 14, "fishing_fleet": 13,
              "blood_service": 15, "waste_recycling": 15, "scout_association": 14, "patent_office": 14,
              "toll_motorway": 10, "underground_mine": 13, "housing_association": 12, "pigeon_racing": 12,
              "campaign_finance": 13, "leisure_pools": 15, "radio_network": 9, "court_listings": 14,
              "allotment_plots": 14, "care_homes": 15, "diocese_parishes": 10,
              "weather_network": 16, "bike_share": 16, "parking_enforcement": 16, "driving_school": 15,
              "pest_control": 15, "street_markets": 14, "cinema_chain": 16, "nursery_group": 16,
              "winter_gritting": 15, "taxi_licensing": 14, "chess_federation": 15, "canal_navigation": 14,
              "recording_studios": 14, "mountain_huts": 14}


@pytest.mark.slow
@pytest.mark.parametrize("dataset", sorted(DATASET_EM))
def test_no_answer_of_a_dataset_is_wrong_and_verified(dataset, tmp_path):
    from vadaorchestra.eval import evaluate

    summary = evaluate(dataset, "vadaorchestra", out_dir=tmp_path)
    assert summary["errors"] == 0
    assert summary["wrong_and_verified"] == 0, summary
    assert round(summary["em"] * summary["n"]) >= DATASET_EM[dataset], summary
    # every answer can be forwarded as it is: no identifier, doubled word, share as a fraction or amount without its
    # declared unit (wording.lint, recorded per question by the harness)
    records = [json.loads(line) for line in next(tmp_path.rglob("records.jsonl")).read_text().splitlines()]
    texts = [(r["question"], r["answer_text"], r["details"]["text_problems"]) for r in records
             if (r.get("details") or {}).get("text_problems")]
    assert texts == []


def test_every_dataset_has_its_floor():
    from vadaorchestra.eval.datasets import available

    assert sorted(DATASET_EM) == sorted(available())


@pytest.mark.parametrize(("dataset", "index"), [
    ("bank_qa", 5), ("hospital_claims", 21), pytest.param("freight_hubs", 12, marks=pytest.mark.slow),
    ("power_grid", 17), ("retail_chain", 4), pytest.param("football_league", 11, marks=pytest.mark.slow),
    pytest.param("airline_maintenance", 13, marks=pytest.mark.slow), ("translation_agency", 10)])
def test_a_question_of_each_kind_is_answered_right_offline(dataset, index):
    """The fast tier's sample of the datasets: two relations followed by two tools, a count restricted by a value, a
    total, "directly" over a chain, a kind under a unit, the top five, a limit in the rows themselves, a month's
    amount beside a monthly cap in the same rows (once summed over every month's row, verified) (the whole sets run
    in the slow tier)."""
    from vadaorchestra.agents.run import ask_sync
    from vadaorchestra.eval import resolve
    from vadaorchestra.eval.metrics import right

    ds = resolve(dataset)
    q = ds.questions()[index]
    result = ask_sync(q["question"], catalog=ds.catalog, data=ds.data_root)
    assert result.verified and right(q["answer"], result.ctx.answer_values, yes=result.ctx.answer_yes), \
        (q, result.answer)
    assert wording.lint(result.answer, result.ctx) == [], result.answer


# --- column roles and the README's worked catalog ------------------------------------------------------------------
STAFF = ROOT / "examples" / "staff"


def test_the_staff_catalog_declares_roles_that_list_tools_shows():
    from vadaorchestra.mcp_server.catalog import Catalog

    catalog = Catalog.load(STAFF / "catalog", STAFF)
    assert catalog.get("get_department_budget").describe()["roles"] == {"budget": "limit"}
    assert catalog.get("get_department_staff").describe()["roles"] == {"employee": "entity", "salary": "amount"}
    assert catalog.get("get_reports").describe()["recursive"] is True


def test_a_wrong_role_gets_a_located_error_and_datalog_check_of_a_folder_reports_it(tmp_path):
    import shutil

    from typer.testing import CliRunner

    from vadaorchestra.cli import app

    folder = tmp_path / "catalog"
    shutil.copytree(STAFF / "catalog", folder)
    path = folder / "get_department_budget.dl"
    path.write_text(path.read_text(encoding="utf-8").replace('"budget", "limit")', '"budget", "ceiling")')
                    + '@role("department_budget", "head", "entity").\n', encoding="utf-8")
    res = CliRunner().invoke(app, ["datalog", "check", str(folder), "--data", str(STAFF)])
    assert res.exit_code == 1
    assert "get_department_budget.dl:8:1: error: unknown role 'ceiling' (roles: entity, amount, base, limit" in res.output
    assert ("get_department_budget.dl:10:1: error: 'department_budget' has no column 'head' (columns: department, "
            "budget)") in res.output
    ok = CliRunner().invoke(app, ["datalog", "check", str(STAFF / "catalog"), "--data", str(STAFF)])
    assert ok.exit_code == 0 and "roles: budget: limit" in ok.output


@pytest.mark.parametrize(("question", "values"), [
    ("Who works in Research?", ["Ada Moreau", "Ben Okoro", "Cleo Varga", "Dev Anand"]),
    ("How many employees does Research have?", [4]),
    ("What is the total salary of Research?", [490000.0]),  # two equal salaries of 95,000, both counted
    ("Who is the highest-paid employee of Sales?", ["Elena Ruiz"]),
    ("What is the budget of Operations?", [200000.0]),
    ("Who reports to Ada Moreau, directly or indirectly?", ["Ben Okoro", "Cleo Varga", "Dev Anand", "Elena Ruiz",
                                                           "Farid Haddad", "Grace Lindqvist", "Hugo Brandt",
                                                           "Ines Carvalho"]),
    ("Who reports directly to Ben Okoro?", ["Cleo Varga", "Dev Anand"]),  # level 1 of the chain
    ("Which employees of Research earn more than 100,000?", ["Ada Moreau", "Dev Anand"]),
    # a yes/no check of one sum against the limit: the things over it (490K against 450K), or none
    ("Does the total salary of Research exceed its budget?", ["Research"]),
    ("Does the total salary of Operations exceed its budget?", []),
    # what no column holds ends honestly
    ("Does the total bonus of Research exceed its budget?", None),
])
def test_the_worked_catalog_of_the_readme_answers_or_says_it_could_not(question, values):
    from vadaorchestra.agents.run import ask_sync

    result = ask_sync(question, catalog=STAFF / "catalog", data=STAFF)
    if values is None:
        assert result.ctx.verified is False and result.answer.startswith("could not answer: "), result.answer
    else:
        assert result.ctx.verified is not False and result.ctx.answer_values == values, result.answer


def test_run_json_and_the_page_say_first_whether_the_answer_was_verified(tmp_path):
    from vadaorchestra.agents.report import write_report
    from vadaorchestra.agents.run import ask_sync
    from vadaorchestra.audit.page import build_page

    for question, status in [("What is the total salary of Research?", "verified"),
                             ("Does the total bonus of Research exceed its budget?", "could not answer")]:
        folder = tmp_path / status.replace(" ", "-")
        result = ask_sync(question, catalog=STAFF / "catalog", data=STAFF, trace=folder / "t.dl")
        write_report(result, folder)
        record = json.loads((folder / "run.json").read_text(encoding="utf-8"))
        assert record["status"] == status and record["frame"]["entities"] == ["Research"]
        html = build_page(folder / "trace.dl").read_text(encoding="utf-8")
        if status == "verified":
            assert record["not_checked"] == [] and '<p class="status ok" role="status"><b>Verified</b></p>' in html
            # "verified" lists what was checked of the question's reading
            assert [c["check"] for c in record["checked"] if c["ok"]] == ["relations", "predicate", "steps",
                                                                          "entities", "direction", "items", "measure",
                                                                          "limit measure", "kinds", "parts", "words"]
            assert "Checked against the question: relations ✓, predicate ✓, steps ✓, entities ✓, direction ✓" in html
        else:
            assert record["not_checked"] == ["the question asks for a total, and no sum was computed",
                                             "the question asks yes or no, and the answer says neither (no step "
                                             "decides it)"]
            assert ('<p class="status refused" role="status"><b>Could not answer</b><br>the question asks for a '
                    'total') in html
