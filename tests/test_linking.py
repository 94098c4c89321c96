"""Entity linking (lookup_values): which base-data columns a tool parameter is joined with, and which of their values
a question names; through the library and through the in-memory MCP client."""

from __future__ import annotations

import json

import pytest
from mcp_helpers import GAMMA, client, err, ok, snapshot

from vadaorchestra.datalog.parser import parse
from vadaorchestra.datalog.printer import format_program
from vadaorchestra.errors import WorkspaceError
from vadaorchestra.mcp_server import linking
from vadaorchestra.mcp_server.catalog import Catalog
from vadaorchestra.mcp_server.linking import (
    MAX_LIMIT,
    Linker,
    ValueIndex,
    column_program,
    linked_columns,
    linker_for,
    numbers_in,
)
from vadaorchestra.mcp_server.server import BUILTIN_TOOLS
from vadaorchestra.mcp_server.workspace import Workspace

COMPANIES = ["Alpha Corp", "Beta Holding", "DeepLogic Ltd", "Helio Power", "NeuralLinker SpA", "Orbit Foods",
             "Quanta Labs"]


def matches(result: dict) -> list[tuple]:
    return [(m["value"], m["exact"]) for m in result["matches"]]


# --- a small catalog of its own ---------------------------------------------------------------------------------------
LOANS = """bank,borrower,loan_id,amount,year
Bank Gamma,DeepLogic Ltd,L1,8000000,2019
Bank Gamma,Orbit Foods,L2,1500000,2021
Bank Delta,Helio Power,L3,6000000,2023
Bank Delta,DeepLogic Ltd,L4,2000000,2023
"""
NAMES = "name\nGamma\nBank Gamma\nGammaray\nAlpha Corp.\nO'Brien & Co\nx') OR name = 'y\n"
LOAN_BOOK = """@bind("loan_book", "csv", "data", "loans.csv").
@mapping("loan_book", 0, "bank", "string"). @mapping("loan_book", 1, "borrower", "string").
@mapping("loan_book", 3, "amount", "float"). @mapping("loan_book", 4, "year", "int").
"""
TOOLS = {
    "loans_of_year": """@tool("loans_of_year", "Loans granted in a year above an amount.").
@param("year", "int", "Year the loan was granted"). @param("min_amount", "float", "Smallest amount").
""" + LOAN_BOOK + """@output("of_year").
of_year(B, Br, A) :- loan_book(B, Br, _, A, $year), A > $min_amount.
""",
    "loans_of_amount": """@tool("loans_of_amount", "Loans of exactly this amount.").
@param("amount", "float", "Amount of the loan").
""" + LOAN_BOOK + """@output("of_amount").
of_amount(B, Br) :- loan_book(B, Br, _, $amount, _).
""",
    "loans_by_equality": """@tool("loans_by_equality", "Loans of a bank, the bank chosen by an equality.").
@param("bank", "string", "Lending bank").
""" + LOAN_BOOK + """@output("by_eq").
by_eq(Br, A) :- loan_book(X, Br, _, A, _), X == $bank.
""",
    "big_loans": """@tool("big_loans", "Loans of more than a threshold.").
@param("threshold", "float", "Smallest amount").
""" + LOAN_BOOK + """@output("big").
big(B, Br, A) :- loan_book(B, Br, _, A, _), A > $threshold.
""",
    "big_loans_of": """@tool("big_loans_of", "Big loans of one borrower.").
@param("borrower", "string", "Borrower").
@output("big_of").
big_of(B, A) :- big(B, $borrower, A).
""",
    "named": """@tool("named", "Whether a name is known.").
@param("name", "string", "A name").
@bind("names", "csv", "data", "names.csv").
@output("known").
known($name) :- names($name).
""",
}


@pytest.fixture
def small(tmp_path) -> Catalog:
    folder = tmp_path / "catalog"
    (folder / "data").mkdir(parents=True)
    (folder / "data" / "loans.csv").write_text(LOANS)
    (folder / "data" / "names.csv").write_text(NAMES)
    for name, text in TOOLS.items():
        (folder / f"{name}.dl").write_text(text)
    return Catalog.load(folder)


# --- which columns --------------------------------------------------------------------------------------------------
def test_each_example_tool_parameter_is_linked_to_the_base_columns_it_is_joined_with(catalog):
    linker = Linker(catalog)
    expected = {
        ("get_bank_exposures", "bank_name"): ["loan_book.bank", "line_book.bank"],
        ("get_loans", "bank_name"): ["loan_book.bank"],
        ("get_credit_lines", "bank_name"): ["line_book.bank"],
        ("get_bank_info", "bank_name"): ["banks.bank"],
        ("get_shareholders", "company"): ["ownership.c1"],
        ("get_ultimate_controller", "company"): ["ownership.c1"],
    }
    assert {(t.name, p.name) for t in catalog for p in t.params} == set(expected)
    for (tool, param), columns in expected.items():
        assert linker.lookup(tool, param)["columns"] == columns, (tool, param)


def test_a_parameter_passed_to_dependencies_is_followed_into_their_programs(catalog):
    cols = linked_columns(catalog, "get_bank_exposures", "bank_name")
    assert [(c.tool, c.pred, c.index, c.arity) for c in cols] == [("get_loans", "loan_book", 0, 4),
                                                                  ("get_credit_lines", "line_book", 0, 5)]
    # through recursive local rules: control(X, $company) <- total <- controlled_shares <- ownership(_, Y, _)
    (own,) = linked_columns(catalog, "get_ultimate_controller", "company")
    assert (own.pred, own.index, own.arity) == ("ownership", 1, 3)


def test_a_dependency_output_column_drawn_from_a_variable_is_traced_to_its_base_column(small):
    (col,) = linked_columns(small, "big_loans_of", "borrower")
    assert (col.tool, col.pred, col.index) == ("big_loans", "loan_book", 1)
    out = Linker(small).lookup("big_loans_of", "borrower", "big loans of deeplogic ltd?")
    assert out["columns"] == ["loan_book.borrower"] and matches(out) == [("DeepLogic Ltd", True)]


def test_a_parameter_equated_with_a_joined_variable_is_linked_to_that_column(small):
    out = Linker(small).lookup("loans_by_equality", "bank", "loans of bank delta")
    assert out["columns"] == ["loan_book.bank"] and matches(out) == [("Bank Delta", True)]


def test_a_parameter_only_compared_is_linked_to_no_column_and_says_so(small):
    linker = Linker(small)
    for tool, param in (("big_loans", "threshold"), ("loans_of_year", "min_amount")):
        out = linker.lookup(tool, param, "loans above 2,000,000")
        assert out["columns"] == [] and out["matches"] == [] and out["candidates"] == 0, out
        assert "not matched against any column" in out["note"]
    assert linker.reads == 0


def test_the_values_are_read_by_a_small_ast_program_with_the_same_bind_and_mapping(catalog):
    (loans,) = linked_columns(catalog, "get_loans", "bank_name")
    program = column_program(loans)
    assert format_program(program) == (
        '@bind("loan_book", "csv", "data", "loans.csv").\n'
        '@mapping("loan_book", 0, "bank", "string").\n'
        '@mapping("loan_book", 3, "amount", "float").\n'
        "vo_values(X) :- loan_book(X, _, _, _).\n"
        "vo_values_rows(N) :- loan_book(V0, V1, V2, V3), N = count(V0).\n"
        '@output("vo_values").\n'
        '@output("vo_values_rows").\n')
    assert parse(format_program(program)) == program


# --- matching --------------------------------------------------------------------------------------------------------
def test_values_named_in_a_question_are_exact_matches(catalog):
    linker = Linker(catalog)
    exp = linker.lookup("get_bank_exposures", "bank_name", "What are Bank Gamma's largest exposures?")
    assert matches(exp) == [("Bank Gamma", True)] and exp["candidates"] == 2 and exp["type"] == "string"
    assert "note" not in exp
    ctrl = linker.lookup("get_ultimate_controller", "company", "is deeplogic ltd controlled?")
    assert matches(ctrl) == [("DeepLogic Ltd", True)] and ctrl["candidates"] == len(COMPANIES)
    both = linker.lookup("get_loans", "bank_name", "Compare  BANK DELTA with\tbank gamma.")
    assert matches(both) == [("Bank Delta", True), ("Bank Gamma", True)]


def test_whole_words_only_and_the_longest_value_first(small):
    linker = Linker(small)
    assert matches(linker.lookup("named", "name", "What about Bank Gamma's name?")) == [("Bank Gamma", True),
                                                                                       ("Gamma", True)]
    assert matches(linker.lookup("named", "name", "Gammaray, then gamma")) == [("Gammaray", True), ("Gamma", True)]
    assert matches(linker.lookup("named", "name", "is alpha corp. known")) == [("Alpha Corp.", True)]
    assert matches(linker.lookup("named", "name", "ask o'brien & co")) == [("O'Brien & Co", True)]
    quoted = linker.lookup("named", "name", "is x') OR name = 'y a name?")
    assert matches(quoted) == [("x') OR name = 'y", True)]


def test_without_a_whole_word_occurrence_the_closest_values_are_proposed_not_exact(catalog):
    linker = Linker(catalog)
    gama = linker.lookup("get_bank_exposures", "bank_name", "exposures of bank gama")
    assert matches(gama)[0] == ("Bank Gamma", False) and all(not m["exact"] for m in gama["matches"])
    assert "closest" in gama["note"]
    deep = linker.lookup("get_ultimate_controller", "company", "Who controls Deep Logic?", limit=1)
    assert matches(deep) == [("DeepLogic Ltd", False)]
    none = linker.lookup("get_ultimate_controller", "company", "zzz qqq")
    assert none["matches"] == [] and "none is close" in none["note"]


def test_empty_text_browses_the_first_values_in_sorted_order(catalog):
    linker = Linker(catalog)
    out = linker.lookup("get_shareholders", "company", "", limit=3)
    assert [m["value"] for m in out["matches"]] == COMPANIES[:3] and out["candidates"] == len(COMPANIES)
    assert [m["value"] for m in linker.lookup("get_shareholders", "company", "  ")["matches"]] == COMPANIES


def test_numbers_in_the_text_are_matched_against_a_numeric_parameter(small):
    linker = Linker(small)
    year = linker.lookup("loans_of_year", "year", "Which loans were granted in 2021?")
    assert year["type"] == "int" and year["columns"] == ["loan_book.year"]
    assert matches(year) == [(2021, True)] and year["candidates"] == 3
    near = linker.lookup("loans_of_year", "year", "loans of 2022", limit=2)
    assert matches(near) == [(2021, False), (2023, False)]
    amount = linker.lookup("loans_of_amount", "amount", "the loan of $1,500,000 to Orbit")
    assert matches(amount) == [(1500000.0, True)]
    assert matches(linker.lookup("loans_of_amount", "amount", "a 6 million loan")) == [(6000000.0, True)]
    words = linker.lookup("loans_of_year", "year", "loans of last year")
    assert words["matches"] == [] and words["note"] == "no number in the text"
    assert [m["value"] for m in linker.lookup("loans_of_year", "year")["matches"]] == [2019, 2021, 2023]


def test_numbers_are_read_with_separators_and_scales():
    assert numbers_in("L1 costs 8,000,000 or 2.5m, year 2021; -3 and 1e3") == [8e6, 2.5e6, 2.5, 2021, -3, 1000]
    assert numbers_in("no digits here, nor in x2") == []


# --- errors, caching, the workspace ---------------------------------------------------------------------------------
def test_bad_arguments_raise_errors_naming_the_valid_choices(catalog):
    linker = Linker(catalog)
    cases = [
        (("get_nothing", "bank_name"), {}, "get_bank_exposures"),
        (("get_loans", "bank"), {}, "bank_name (string)"),
        (("get_loans", "bank_name"), {"limit": 0}, f"from 1 to {MAX_LIMIT}"),
        (("get_loans", "bank_name"), {"limit": MAX_LIMIT + 1}, f"from 1 to {MAX_LIMIT}"),
        (("get_loans", "bank_name"), {"limit": True}, "limit"),
        (("get_loans", "bank_name"), {"text": 5}, "text must be a string"),
        (("get_loans", "bank_name"), {"text": "x" * 5000}, "too long"),
    ]
    for args, kwargs, expected in cases:
        with pytest.raises(WorkspaceError) as info:
            linker.lookup(*args, **kwargs)
        assert expected in info.value.message, (args, kwargs, info.value.message)


def test_columns_and_values_are_computed_once_per_catalog(catalog, monkeypatch):
    linker = linker_for(catalog)
    assert linker_for(catalog) is linker
    linker.lookup("get_shareholders", "company", "Alpha Corp")
    reads = linker.reads
    calls = []
    monkeypatch.setattr(linking, "run", lambda *a, **k: calls.append(a))
    for tool in ("get_shareholders", "get_ultimate_controller"):  # one bound file, one scan
        assert matches(linker.lookup(tool, "company", "Beta Holding"))[0] == ("Beta Holding", True)
    assert calls == [] and linker.reads == reads


@pytest.mark.slow
def test_a_hundred_thousand_values_are_scanned_once_and_then_matched_from_the_index(tmp_path):
    folder = tmp_path / "big"
    (folder / "data").mkdir(parents=True)
    rows = [f"Company {i:06d} {'Holding' if i % 2 else 'Ltd'}" for i in range(100_000)]
    (folder / "data" / "firms.csv").write_text("name\n" + "\n".join(rows) + "\n")
    (folder / "firm.dl").write_text('@tool("firm", "A firm."). @param("name", "string", "Firm name").\n'
                                    '@bind("firms", "csv", "data", "firms.csv"). @output("firm").\n'
                                    "firm($name) :- firms($name).\n")
    linker = Linker(Catalog.load(folder))
    first = linker.lookup("firm", "name", "What does company 004242 ltd own?")
    assert matches(first) == [("Company 004242 Ltd", True)] and first["candidates"] == 100_000
    for i in range(20):
        out = linker.lookup("firm", "name", f"Is Company {2 * i:06d} Ltd or company {2 * i + 1:06d} holding bigger?")
        assert [m["exact"] for m in out["matches"]] == [True, True]
    fuzzy = linker.lookup("firm", "name", "What does Compnay 004242 Ltd own?", limit=3)
    assert matches(fuzzy)[0] == ("Company 004242 Ltd", False)
    assert matches(linker.lookup("firm", "name", "What does Compnay 004243 Ltd own?", limit=3))[0][1] is False
    assert linker.reads == 1  # one scan of the file; everything after comes from the index


def test_a_value_index_keeps_every_case_variant_of_a_name():
    index = ValueIndex(["Bank Gamma", "BANK GAMMA", "Bank Delta"])
    assert index.exact("bank gamma?") == ["BANK GAMMA", "Bank Gamma"]
    assert len(index) == 3 and index.browse(2) == ["BANK GAMMA", "Bank Delta"]


def test_lookups_read_no_workspace_and_leave_it_unchanged(catalog, tmp_path):
    ws = Workspace(catalog, tmp_path / "ws.duckdb")
    try:
        ws.invoke("get_loans", GAMMA)
        before = ws.predicates(), ws.content_hash("loans"), list(ws.log)
        out = ws.lookup_values("get_bank_exposures", "bank_name", "exposures of Bank Delta")
        assert matches(out) == [("Bank Delta", True)]
        with pytest.raises(WorkspaceError):
            ws.lookup_values("get_loans", "nothing")
        assert (ws.predicates(), ws.content_hash("loans"), list(ws.log)) == before
    finally:
        ws.remove()


# --- through MCP ------------------------------------------------------------------------------------------------------
@pytest.mark.anyio
async def test_lookup_values_is_a_read_only_builtin_tool_with_a_flat_schema(server):
    async with client(server) as c:
        tools = {t.name: t for t in (await c.list_tools()).tools}
    assert "lookup_values" in BUILTIN_TOOLS and len(tools) == len(server.catalog) + len(BUILTIN_TOOLS)
    tool = tools["lookup_values"]
    assert tool.annotations.readOnlyHint is True
    assert tool.inputSchema["required"] == ["tool", "parameter"]
    assert set(tool.inputSchema["properties"]) == {"tool", "parameter", "text", "limit"}
    assert "exact" in tool.description and "$ref" not in json.dumps(tool.inputSchema)


@pytest.mark.anyio
async def test_a_question_is_linked_through_the_mcp_client_and_the_value_works_as_the_parameter(server):
    async with client(server) as c:
        out = await ok(c, "lookup_values", tool="get_bank_exposures", parameter="bank_name",
                       text="What are Bank Gamma's largest exposures?")
        assert out["status"] == "ok" and out["tool"] == "get_bank_exposures" and out["parameter"] == "bank_name"
        assert out["columns"] == ["loan_book.bank", "line_book.bank"]
        assert out["matches"] == [{"value": "Bank Gamma", "exact": True}] and out["candidates"] == 2
        bank = out["matches"][0]["value"]
        for tool in ("get_loans", "get_credit_lines", "get_bank_exposures"):
            result = await ok(c, tool, bank_name=bank)
        assert result["cardinality"] == 4


@pytest.mark.anyio
async def test_bad_lookups_are_error_results_and_change_no_workspace(server):
    async with client(server) as c:
        for tool in ("get_loans", "get_credit_lines", "get_bank_exposures"):
            await ok(c, tool, **GAMMA)
        before = snapshot(server)
        cases = [
            ({"tool": "get_nothing", "parameter": "x"}, "unknown tool 'get_nothing'", "get_loans"),
            ({"tool": "get_loans", "parameter": "company"}, "no parameter 'company'", "bank_name"),
            ({"tool": "get_loans", "parameter": "bank_name", "limit": 0}, "limit must be", "100"),
            ({"tool": "get_loans", "parameter": "bank_name", "limit": 500}, "limit must be", "100"),
            ({"tool": "get_loans", "parameter": "bank_name", "limit": "ten"}, "limit", "limit"),
            ({"tool": "get_loans"}, "parameter", "parameter"),
        ]
        for args, expected, names in cases:
            text = await err(c, "lookup_values", **args)
            assert expected in text and names in text, (args, text)
            assert snapshot(server) == before, args
        await ok(c, "lookup_values", tool="get_shareholders", parameter="company", text="'); DROP TABLE loans; --")
        await ok(c, "lookup_values", tool="get_loans", parameter="bank_name")
        assert snapshot(server) == before
        assert (await ok(c, "get_cardinality", predicate="loans"))["cardinality"] == 6
