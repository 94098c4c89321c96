"""Catalog.load: a folder of tool programs becomes validated tools, or one CatalogError with every located problem.

Each test builds its catalog in ``tmp_path`` from the program texts it states (see :func:`write_catalog`), except the
tests of the example catalog shipped in ``examples/catalog``. Messages are compared with the catalog folder stripped,
so ``a.dl:3:13: error: ...`` reads as it would for a user in that folder.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from vadaorchestra.errors import CatalogError
from vadaorchestra.mcp_server.catalog import Catalog

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "catalog"


def write_catalog(folder: Path, programs: dict[str, str], data: dict[str, str] | None = None) -> Path:
    """Write ``programs`` ({file name: program text}) into ``folder`` and ``data`` ({relative path: CSV text}) under
    it; return the folder."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in programs.items():
        (folder / name).write_text(text, encoding="utf-8")
    for rel, text in (data or {}).items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder


def load_error(folder: Path, data_root: Path | None = None) -> tuple[CatalogError, str]:
    """Load a catalog that must fail; return the error and its rendering with the catalog folder stripped.

    Every problem must be located: each diagnostic has a span in one of the catalog's files."""
    with pytest.raises(CatalogError) as info:
        Catalog.load(folder, data_root)
    exc = info.value
    assert exc.diagnostics, "a problem in a program comes with at least one located diagnostic"
    for d in exc.diagnostics:
        assert d.span is not None, f"unlocated diagnostic: {d.message}"
        assert Path(d.span.source).parent == folder and d.span.line >= 1 and d.span.column >= 1
    return exc, exc.render().replace(f"{folder}/", "")


def errors_of(rendered: str) -> list[str]:
    """The ``file:line:col: error: message`` heads of a rendering, without source lines, carets and notes."""
    return [line for line in rendered.splitlines() if ": error: " in line]


TOOL_A = '@tool("a", "Tool a.").\n@output("out_a").\nout_a("x").\n'


@pytest.fixture(scope="module")
def example() -> Catalog:
    return Catalog.load(EXAMPLE)


# --- the example catalog -------------------------------------------------------------------------------------------

def test_the_example_catalog_loads_its_six_tools(example):
    assert len(example) == 6
    assert sorted(example.tools) == ["get_bank_exposures", "get_bank_info", "get_credit_lines", "get_loans",
                                     "get_shareholders", "get_ultimate_controller"]
    assert [t.name for t in example] == sorted(example.tools)
    assert example.path == EXAMPLE and example.data_root == EXAMPLE, "the data root defaults to the catalog folder"
    assert example.get("get_loans").path == EXAMPLE / "get_loans.dl"


def test_get_bank_exposures_depends_on_the_tools_whose_outputs_it_reads_without_declaring_them(example):
    spec = example.get("get_bank_exposures")
    assert spec.deps == ("get_credit_lines", "get_loans")
    assert {a.name for a in spec.program.annotations()} <= {"tool", "param", "output", "mapping", "label", "unit"}, \
        "the program declares no dependency: it is computed from the predicates it reads"
    assert {t.name: t.deps for t in example if t.name != "get_bank_exposures"} == {
        "get_bank_info": (), "get_credit_lines": (), "get_loans": (), "get_shareholders": (),
        "get_ultimate_controller": ()}


def test_a_tool_schema_is_the_column_names_and_types_its_output_mappings_give(example):
    info = example.get("get_bank_info")
    assert info.output == "bank_info"
    assert info.schema == [{"name": "bank", "type": "string"}, {"name": "capital", "type": "float"},
                           {"name": "limit_pct", "type": "float"}, {"name": "limit_amount", "type": "float"}]
    exposures = example.get("get_bank_exposures")
    assert (exposures.output, exposures.columns, exposures.types) == (
        "exposure", ("bank", "borrower", "amount"), ("string", "string", "float"))
    lines = example.get("get_credit_lines")
    assert lines.columns == ("bank", "borrower", "line_id", "credit_limit", "drawn")
    assert lines.types == ("string", "string", "string", "float", "float")


def test_a_tool_describes_itself_as_the_model_reads_it_in_list_tools(example):
    assert example.get("get_loans").describe() == {
        "name": "get_loans",
        "description": "Loans a bank has granted: borrower, loan id and amount.",
        "parameters": [{"name": "bank_name", "type": "string", "description": "Name of the lending bank"}],
        "output_predicate": "loans",
        "schema": [{"name": "bank", "type": "string"}, {"name": "borrower", "type": "string"},
                   {"name": "loan_id", "type": "string"}, {"name": "amount", "type": "float"}],
        "parameter_columns": {"bank": "bank_name"},
        "parameter_inputs": {"bank_name": ["bank"]},  # the data column the parameter is matched against
        "dependencies": [],
        "recursive": False,
        "follows_chain": False,
        "roles": {},
    }
    assert example.get("get_bank_exposures").describe()["dependencies"] == ["get_credit_lines", "get_loans"]
    assert example.get("get_ultimate_controller").describe()["recursive"] is True


def test_a_tool_reading_a_recursive_tools_output_follows_the_chain_too():
    """get_group_hubs joins the hubs with get_operator_group's members, found through every level of subsidiaries:
    its program is not recursive, its facts cover the whole chain (the agents read "follows_chain")."""
    scenario = Path(__file__).parents[1] / "scenarios" / "freight_hubs"
    cat = Catalog.load(scenario / "catalog", scenario)
    hubs, group, lanes = (cat.get(t).describe() for t in ("get_group_hubs", "get_operator_group", "get_lanes"))
    assert (hubs["recursive"], hubs["follows_chain"]) == (False, True)
    assert (group["recursive"], group["follows_chain"]) == (True, True)
    assert (lanes["recursive"], lanes["follows_chain"]) == (False, False)


def test_the_example_parameters_keep_their_declared_types_and_descriptions(example):
    assert [(p.name, p.type, p.description) for p in example.get("get_bank_exposures").params] == [
        ("bank_name", "string", "Name of the lending bank, e.g. Bank Gamma")]
    assert [(p.name, p.type, p.description) for p in example.get("get_ultimate_controller").params] == [
        ("company", "string", "Name of the company")]


def test_parameters_of_every_type_are_listed_in_declaration_order(tmp_path):
    folder = write_catalog(tmp_path / "catalog", {"a.dl": (
        '@tool("a", "Tool a.").\n'
        '@param("name", "string", "A name.").\n'
        '@param("count", "int", "How many.").\n'
        '@param("rate", "float", "A rate.").\n'
        '@param("flag", "bool", "A switch.").\n'
        '@output("out_a").\n'
        '@mapping("out_a", 0, "name", "string"). @mapping("out_a", 1, "count", "int").\n'
        '@mapping("out_a", 2, "rate", "float"). @mapping("out_a", 3, "flag", "bool").\n'
        'out_a($name, $count, $rate, $flag).\n')})
    spec = Catalog.load(folder).get("a")
    assert [(p.name, p.type, p.description) for p in spec.params] == [
        ("name", "string", "A name."), ("count", "int", "How many."), ("rate", "float", "A rate."),
        ("flag", "bool", "A switch.")]


def test_base_predicates_are_the_ones_the_programs_bind_to_data(example):
    assert {t.name: t.base for t in example} == {
        "get_bank_exposures": (), "get_bank_info": ("banks",), "get_credit_lines": ("line_book",),
        "get_loans": ("loan_book",), "get_shareholders": ("ownership",), "get_ultimate_controller": ("ownership",)}
    assert example.base_predicates == {"banks", "line_book", "loan_book", "ownership"}


def test_the_closure_of_a_tool_lists_its_dependencies_first(example):
    assert example.closure("get_bank_exposures") == ["get_credit_lines", "get_loans", "get_bank_exposures"]
    assert example.closure("get_loans") == ["get_loans"]


def test_the_closure_of_a_chain_of_tools_is_transitive_and_lists_each_tool_once(tmp_path):
    folder = write_catalog(tmp_path / "catalog", {
        "a.dl": TOOL_A,
        "b.dl": '@tool("b", "Tool b.").\n@output("out_b").\nout_b(X) :- out_a(X).\n',
        "c.dl": '@tool("c", "Tool c.").\n@output("out_c").\nout_c(X) :- out_b(X), not out_a(X).\n',
    })
    catalog = Catalog.load(folder)
    assert [(t.name, t.deps) for t in catalog] == [("a", ()), ("b", ("a",)), ("c", ("a", "b"))]
    assert catalog.closure("c") == ["a", "b", "c"]


def test_producer_names_the_tool_that_outputs_a_predicate_and_none_for_other_predicates(example):
    assert example.producer("loans").name == "get_loans"
    assert example.producer("exposure").name == "get_bank_exposures"
    assert example.producer("loan_book") is None, "base data has no producer"
    assert example.producer("part") is None, "an intermediate predicate of a program has no producer"


def test_the_content_hash_is_the_same_for_two_loads_and_for_a_copy_of_the_catalog(tmp_path):
    copy = tmp_path / "catalog"
    shutil.copytree(EXAMPLE, copy)
    first, second = Catalog.load(EXAMPLE).content_hash, Catalog.load(EXAMPLE).content_hash
    assert first == second
    assert len(first) == 64 and int(first, 16) >= 0
    assert Catalog.load(copy).content_hash == first, "the hash pins the programs, not where they lie"


def test_the_content_hash_changes_when_a_program_text_changes(tmp_path):
    copy = tmp_path / "catalog"
    shutil.copytree(EXAMPLE, copy)
    before = Catalog.load(copy).content_hash
    path = copy / "get_loans.dl"
    path.write_text(path.read_text() + "% a comment is part of the program text\n")
    after = Catalog.load(copy).content_hash
    assert after != before
    path.write_text(path.read_text().replace("% a comment is part of the program text\n", ""))
    assert Catalog.load(copy).content_hash == before


# --- where programs and data are found ---------------------------------------------------------------------------

def test_programs_with_the_vada_suffix_load_too(tmp_path):
    folder = write_catalog(tmp_path / "catalog", {
        "a.dl": TOOL_A,
        "b.vada": '@tool("b", "Tool b.").\n@output("out_b").\nout_b(X) :- out_a(X).\n',
    })
    catalog = Catalog.load(folder)
    assert sorted(catalog.tools) == ["a", "b"]
    assert catalog.get("b").path == folder / "b.vada" and catalog.get("b").deps == ("a",)


def test_files_that_are_not_tool_programs_are_ignored(tmp_path):
    folder = write_catalog(tmp_path / "catalog", {
        "a.dl": TOOL_A,
        "README.md": "# Tools\nnot a program(",
        "notes.txt": "broken(",
        "a.dl.bak": '@tool("a", "An old copy.").\n',
        "b.DL": "broken(",
    }, {"data/rows.csv": "x\n1\n"})
    (folder / "folder.dl").mkdir()
    catalog = Catalog.load(folder)
    assert sorted(catalog.tools) == ["a"]


def test_bind_paths_resolve_under_a_separate_data_root(tmp_path):
    folder = write_catalog(tmp_path / "catalog", {"a.dl": (
        '@tool("a", "Tool a.").\n'
        '@bind("rows", "csv", "tables", "rows.csv").\n'
        '@output("out_a").\n'
        'out_a(X) :- rows(X, N).\n')})
    root = write_catalog(tmp_path / "data", {}, {"tables/rows.csv": "name,n\nx,1\n"})
    catalog = Catalog.load(folder, root)
    assert catalog.data_root == root
    assert catalog.get("a").base == ("rows",)
    _, rendered = load_error(folder)  # the catalog folder itself holds no tables/rows.csv
    assert "a.dl:2:1: error: @bind file 'tables/rows.csv' does not exist under the data root" in rendered


# --- every problem, located, of every file at once -----------------------------------------------------------------

def test_problems_of_all_files_are_reported_at_once_a_syntax_error_in_one_and_an_unknown_predicate_in_another(
        tmp_path):
    folder = write_catalog(tmp_path / "catalog", {
        "a.dl": '@tool("a", "Tool a.").\n@output("out_a").\nout_a(X) :- out_b(X) X > 1.\n',
        "b.dl": '@tool("b", "Tool b.").\n@output("out_b").\nout_b(X) :- nowhere(X).\n',
        "c.dl": '@tool("c", "Tool c.").\n@output("out_c").\nout_c("fine").\n',
    })
    exc, rendered = load_error(folder)
    assert errors_of(rendered) == [
        "a.dl:3:22: error: unexpected 'X'; expected '!=', ')', '*', '+', ',', '-', '.', '/', ':-', '<', '<=', '<>', "
        "'=', '==', '>', '>='",
        "b.dl:3:13: error: predicate 'nowhere' is not defined: no rule, fact, @bind or @input gives it",
    ]
    assert "    out_a(X) :- out_b(X) X > 1.\n                         ^" in rendered
    assert "    out_b(X) :- nowhere(X).\n                ^" in rendered
    assert exc.message.startswith("2 problem(s) in 2 tool program(s) of ")


def test_an_unknown_predicate_in_a_body_is_reported_where_it_is_read(tmp_path):
    folder = write_catalog(tmp_path / "catalog", {"a.dl": (
        '@tool("a", "Tool a.").\n@output("out_a").\nhelper("x").\nout_a(X) :- helper(X), not missing(X).\n')})
    _, rendered = load_error(folder)
    assert errors_of(rendered) == [
        "a.dl:4:28: error: predicate 'missing' is not defined: no rule, fact, @bind or @input gives it"]


def test_a_tool_that_depends_on_a_broken_tool_reports_only_the_broken_tools_problem(tmp_path):
    folder = write_catalog(tmp_path / "catalog", {
        "a.dl": '@tool("a", "Tool a.").\n@output("out_a").\nout_a(X) :- nowhere(X).\n',
        "b.dl": '@tool("b", "Tool b.").\n@output("out_b").\nout_b(X) :- out_a(X).\n',
    })
    _, rendered = load_error(folder)
    assert errors_of(rendered) == [
        "a.dl:3:13: error: predicate 'nowhere' is not defined: no rule, fact, @bind or @input gives it"]


def test_a_tool_reading_another_tools_output_is_checked_against_that_outputs_arity(tmp_path):
    folder = write_catalog(tmp_path / "catalog", {
        "a.dl": '@tool("a", "Tool a.").\n@output("out_a").\nout_a("x", "y").\n',
        "b.dl": '@tool("b", "Tool b.").\n@output("out_b").\nout_b(X) :- out_a(X).\n',
    })
    _, rendered = load_error(folder)
    [error] = errors_of(rendered)
    assert error.startswith("b.dl:3:13: error: arity mismatch: 'out_a' has 1 argument(s) here but is used with 2")


def test_a_tool_reading_another_tools_output_is_checked_against_that_outputs_types(tmp_path):
    folder = write_catalog(tmp_path / "catalog", {
        "a.dl": '@tool("a", "Tool a.").\n@output("out_a").\nout_a("x").\n',
        "b.dl": '@tool("b", "Tool b.").\n@output("out_b").\nout_b(X) :- out_a(X), X > 1.\n',
    })
    _, rendered = load_error(folder)
    assert errors_of(rendered) == ["b.dl:3:23: error: type conflict: cannot compare a string with an int"]


def test_a_program_without_a_tool_annotation_is_reported_at_its_first_line(tmp_path):
    folder = write_catalog(tmp_path / "catalog", {"a.dl": '@output("out_a").\nout_a("x").\n'})
    _, rendered = load_error(folder)
    assert errors_of(rendered) == ['a.dl:1:1: error: a tool program needs a @tool("name", "description") annotation']


def test_a_program_with_two_tool_annotations_is_reported_at_the_second(tmp_path):
    folder = write_catalog(tmp_path / "catalog", {
        "a.dl": '@tool("a", "Tool a.").\n@tool("b", "Tool b.").\n@output("out_a").\nout_a("x").\n'})
    _, rendered = load_error(folder)
    assert errors_of(rendered) == ["a.dl:2:1: error: only one @tool annotation is allowed per program"]


def test_a_program_without_an_output_annotation_is_reported_at_its_first_line(tmp_path):
    folder = write_catalog(tmp_path / "catalog", {"a.dl": '@tool("a", "Tool a.").\nout_a("x").\n'})
    _, rendered = load_error(folder)
    assert errors_of(rendered) == [
        'a.dl:1:1: error: a tool program needs exactly one @output("pred") annotation: the predicate the tool returns']


def test_a_program_with_two_output_annotations_is_reported_at_the_second(tmp_path):
    folder = write_catalog(tmp_path / "catalog", {
        "a.dl": '@tool("a", "Tool a.").\n@output("out_a").\n@output("other").\nout_a("x").\nother("y").\n'})
    _, rendered = load_error(folder)
    assert errors_of(rendered) == [
        'a.dl:3:1: error: a tool program needs exactly one @output("pred") annotation: the predicate the tool returns']


def test_a_program_without_tool_and_output_reports_both(tmp_path):
    folder = write_catalog(tmp_path / "catalog", {"a.dl": 'out_a("x").\n'})
    _, rendered = load_error(folder)
    assert errors_of(rendered) == [
        'a.dl:1:1: error: a tool program needs a @tool("name", "description") annotation',
        'a.dl:1:1: error: a tool program needs exactly one @output("pred") annotation: the predicate the tool returns']


def test_an_output_annotation_without_a_predicate_is_reported_at_the_output(tmp_path):
    folder = write_catalog(tmp_path / "catalog", {"a.dl": '@tool("a", "Tool a.").\n@output().\nout_a("x").\n'})
    _, rendered = load_error(folder)
    [error] = errors_of(rendered)
    assert error.startswith("a.dl:2:1: error: ") and "@output" in error and "@tool" not in error


def test_a_program_without_a_tool_annotation_still_has_its_other_problems_reported(tmp_path):
    folder = write_catalog(tmp_path / "catalog", {"a.dl": '@output("out_a").\nout_a(X) :- nowhere(X).\n'})
    _, rendered = load_error(folder)
    assert errors_of(rendered) == [
        'a.dl:1:1: error: a tool program needs a @tool("name", "description") annotation',
        "a.dl:2:13: error: predicate 'nowhere' is not defined: no rule, fact, @bind or @input gives it"]


@pytest.mark.parametrize("name", ["bad name", "1st", "get-loans", ""])
def test_a_tool_name_that_is_not_an_identifier_is_reported_at_the_tool_annotation(tmp_path, name):
    folder = write_catalog(tmp_path / "catalog", {"a.dl": f'@tool("{name}", "Tool.").\n@output("out_a").\nout_a("x").\n'})
    _, rendered = load_error(folder)
    assert errors_of(rendered) == [
        f"a.dl:1:1: error: tool name {name!r} must be an identifier (letters, digits, underscores)"]


def test_two_files_with_the_same_tool_name_are_reported_with_the_first_definition(tmp_path):
    folder = write_catalog(tmp_path / "catalog", {
        "a.dl": '@tool("t", "First.").\n@output("out_a").\nout_a("x").\n',
        "b.dl": '% the same name again\n@tool("t", "Second.").\n@output("out_b").\nout_b("x").\n',
    })
    exc, rendered = load_error(folder)
    assert errors_of(rendered) == ["b.dl:2:1: error: tool 't' is defined twice"]
    assert "a.dl:1:1: note: first defined here" in rendered
    [diag] = exc.diagnostics
    assert [Path(span.source).name for span, _ in diag.notes] == ["a.dl"]


def test_a_note_in_another_file_shows_the_source_line_of_that_file(tmp_path):
    folder = write_catalog(tmp_path / "catalog", {
        "a.dl": '@tool("t", "First.").\n@output("out_a").\nout_a("x").\n',
        "b.dl": '% the same name again\n@tool("t", "Second.").\n@output("out_b").\nout_b("x").\n',
    })
    _, rendered = load_error(folder)
    assert 'a.dl:1:1: note: first defined here\n    @tool("t", "First.").\n    ^' in rendered


def test_two_tools_with_the_same_output_predicate_are_reported_at_the_second_output(tmp_path):
    folder = write_catalog(tmp_path / "catalog", {
        "a.dl": '@tool("a", "Tool a.").\n@output("out").\nout("x").\n',
        "b.dl": '@tool("b", "Tool b.").\n\n@output("out").\nout("y").\n',
    })
    exc, rendered = load_error(folder)
    assert errors_of(rendered) == ["b.dl:3:1: error: output predicate 'out' of tool 'b' is already the output of tool 'a'"]
    assert "a.dl:2:1: note: that output" in rendered


def test_a_predicate_that_is_base_data_in_one_tool_and_the_output_of_another_is_reported_at_the_bind(tmp_path):
    folder = write_catalog(tmp_path / "catalog", {
        "a.dl": TOOL_A,
        "b.dl": ('@tool("b", "Tool b.").\n@bind("out_a", "csv", "data", "a.csv").\n@output("out_b").\n'
                 'out_b(X) :- out_a(X).\n'),
    }, {"data/a.csv": "x\nv\n"})
    _, rendered = load_error(folder)
    assert errors_of(rendered) == [
        "b.dl:2:1: error: predicate 'out_a' is bound to data here but is the output of tool 'a'; a predicate is "
        "either base data or a tool's output"]


CYCLE_OF_TWO = {
    "a.dl": '@tool("a", "Tool a.").\n@output("out_a").\nout_a(X) :- out_b(X).\n',
    "b.dl": '@tool("b", "Tool b.").\n@output("out_b").\nout_b(X) :- out_a(X).\n',
}
CYCLE_OF_THREE = {
    "a.dl": '@tool("a", "Tool a.").\n@output("out_a").\nout_a(X) :- out_b(X).\n',
    "b.dl": '@tool("b", "Tool b.").\n@output("out_b").\nout_b(X) :- out_c(X).\n',
    "c.dl": '@tool("c", "Tool c.").\n@output("out_c").\nout_c(X) :- out_a(X).\n',
}


def test_a_dependency_cycle_of_two_tools_is_reported_once_and_names_the_cycle(tmp_path):
    _, rendered = load_error(write_catalog(tmp_path / "catalog", CYCLE_OF_TWO))
    assert errors_of(rendered) == ["b.dl:3:13: error: dependency cycle between tools: a -> b -> a"]


def test_a_dependency_cycle_of_three_tools_is_reported_once_and_names_the_cycle(tmp_path):
    _, rendered = load_error(write_catalog(tmp_path / "catalog", CYCLE_OF_THREE))
    assert errors_of(rendered) == ["c.dl:3:13: error: dependency cycle between tools: a -> b -> c -> a"]


def test_a_dependency_cycle_is_reported_with_both_reading_sites(tmp_path):
    exc, _ = load_error(write_catalog(tmp_path / "catalog", CYCLE_OF_TWO))
    [diag] = exc.diagnostics
    sites = {f"{Path(s.source).name}:{s.line}:{s.column}" for s in [diag.span] + [span for span, _ in diag.notes]}
    assert sites == {"a.dl:3:13", "b.dl:3:13"}


def test_a_dependency_cycle_of_three_tools_is_reported_with_every_reading_site(tmp_path):
    exc, _ = load_error(write_catalog(tmp_path / "catalog", CYCLE_OF_THREE))
    [diag] = exc.diagnostics
    sites = {f"{Path(s.source).name}:{s.line}:{s.column}" for s in [diag.span] + [span for span, _ in diag.notes]}
    assert sites == {"a.dl:3:13", "b.dl:3:13", "c.dl:3:13"}


def test_a_declared_but_unused_parameter_is_reported_at_its_declaration(tmp_path):
    folder = write_catalog(tmp_path / "catalog", {"a.dl": (
        '@tool("a", "Tool a.").\n@param("used", "string", "Used.").\n@param("spare", "int", "Never used.").\n'
        '@output("out_a").\nout_a($used).\n')})
    _, rendered = load_error(folder)
    assert errors_of(rendered) == ["a.dl:3:1: error: parameter 'spare' is declared but never used"]


def test_a_parameter_used_but_not_declared_is_reported_where_it_is_used(tmp_path):
    folder = write_catalog(tmp_path / "catalog", {"a.dl": (
        '@tool("a", "Tool a.").\n@param("known", "string", "Declared.").\n@output("out_a").\n'
        'out_a($known, $unknown).\n')})
    _, rendered = load_error(folder)
    assert errors_of(rendered) == ["a.dl:4:15: error: parameter $unknown is not declared with @param"]


def test_a_parameter_used_but_not_declared_is_reported_when_the_program_declares_no_parameter(tmp_path):
    folder = write_catalog(tmp_path / "catalog", {"a.dl": '@tool("a", "Tool a.").\n@output("out_a").\nout_a($p).\n'})
    _, rendered = load_error(folder)
    assert errors_of(rendered) == ["a.dl:3:7: error: parameter $p is not declared with @param"]


def test_an_unmapped_output_column_filled_by_a_typed_parameter_has_the_parameters_type(tmp_path):
    folder = write_catalog(tmp_path / "catalog", {"a.dl": (
        '@tool("a", "Tool a.").\n@param("n", "int", "A count.").\n@output("out_a").\nout_a($n).\n')})
    assert Catalog.load(folder).get("a").types == ("int",)


BIND_OUTSIDE = ('@tool("a", "Tool a.").\n@bind("secret", "csv", "..", "secret.csv").\n@output("out_a").\n'
                'out_a(X) :- secret(X).\n')


def test_a_bind_outside_the_data_root_is_reported_at_the_bind(tmp_path):
    (tmp_path / "secret.csv").write_text("x\nv\n")  # exists, but outside the catalog folder
    folder = write_catalog(tmp_path / "catalog", {"a.dl": BIND_OUTSIDE})
    _, rendered = load_error(folder)
    assert f"a.dl:2:1: error: @bind path '../secret.csv' leaves the data root {str(folder)!r}" in errors_of(rendered)


def test_a_bind_outside_a_separate_data_root_is_reported_at_the_bind(tmp_path):
    (tmp_path / "secret.csv").write_text("x\nv\n")
    root = write_catalog(tmp_path / "data", {})
    folder = write_catalog(tmp_path / "catalog", {"a.dl": BIND_OUTSIDE})
    _, rendered = load_error(folder, root)
    assert f"a.dl:2:1: error: @bind path '../secret.csv' leaves the data root {str(root)!r}" in errors_of(rendered)


@pytest.mark.parametrize("bind", ['"..", "secret.csv"', '"data", "absent.csv"'], ids=["outside", "absent"])
def test_a_rejected_bind_is_reported_once_and_not_again_as_an_undefined_predicate(tmp_path, bind):
    (tmp_path / "secret.csv").write_text("x\nv\n")
    folder = write_catalog(tmp_path / "catalog", {"a.dl": BIND_OUTSIDE.replace('"..", "secret.csv"', bind)})
    _, rendered = load_error(folder)
    errors = errors_of(rendered)
    assert len(errors) == 1, errors
    assert errors[0].startswith("a.dl:2:1: error: @bind ")


def test_an_unreadable_program_is_reported_together_with_the_other_files_problems(tmp_path):
    folder = write_catalog(tmp_path / "catalog", {
        "a.dl": '@tool("a", "Tool a.").\n@output("out_a").\nout_a(X) :- nowhere(X).\n'})
    (folder / "b.dl").write_bytes(b"\xff\xfe not utf-8")
    _, rendered = load_error(folder)
    errors = sorted(errors_of(rendered))
    assert len(errors) == 2
    assert errors[0] == "a.dl:3:13: error: predicate 'nowhere' is not defined: no rule, fact, @bind or @input gives it"
    assert errors[1].startswith("b.dl:1:1: error: cannot read tool program: 'utf-8' codec can't decode byte 0xff")


# --- the folder itself ---------------------------------------------------------------------------------------------

def test_an_empty_catalog_folder_is_reported(tmp_path):
    folder = tmp_path / "catalog"
    folder.mkdir()
    with pytest.raises(CatalogError) as info:
        Catalog.load(folder)
    assert info.value.render() == f"error: catalog folder {str(folder)!r} holds no tool programs (.dl, .vada)"


def test_a_folder_with_only_non_program_files_is_reported_as_holding_no_tool_programs(tmp_path):
    folder = write_catalog(tmp_path / "catalog", {"README.md": "# Tools\n", "a.txt": TOOL_A})
    with pytest.raises(CatalogError, match=r"holds no tool programs \(\.dl, \.vada\)"):
        Catalog.load(folder)


def test_a_missing_catalog_folder_is_reported(tmp_path):
    with pytest.raises(CatalogError) as info:
        Catalog.load(tmp_path / "nowhere")
    assert info.value.render() == f"error: catalog folder {str(tmp_path / 'nowhere')!r} does not exist"


def test_a_catalog_path_that_is_a_file_is_reported_as_not_a_folder(tmp_path):
    path = write_catalog(tmp_path / "catalog", {"a.dl": TOOL_A}) / "a.dl"
    with pytest.raises(CatalogError) as info:
        Catalog.load(path)
    assert "does not exist" not in info.value.message and "not a folder" in info.value.message


def test_a_missing_data_root_is_reported(tmp_path):
    folder = write_catalog(tmp_path / "catalog", {"a.dl": TOOL_A})
    with pytest.raises(CatalogError) as info:
        Catalog.load(folder, tmp_path / "no_data")
    assert info.value.render() == f"error: data root {str(tmp_path / 'no_data')!r} does not exist"
