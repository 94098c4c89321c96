"""Set-at-a-time invocation (issue 12): a parameter bound to a column runs the tool once per value, in one evaluation.

The defining property: the output equals the union of the per-value calls' outputs, for programs with recursion,
negation, aggregates (stratified and monotonic) and constants; plus the errors of the argument form and the trace's
invocation rule.
"""

from __future__ import annotations

import json
import random

import pytest

from vadaorchestra.agents.plan import Call, Plan, Stage, build_stages, check_plan
from vadaorchestra.agents.trace import invocation_rule
from vadaorchestra.datalog import ast as A
from vadaorchestra.datalog.api import bind_params, parse, run
from vadaorchestra.datalog.foreach import bind_each
from vadaorchestra.errors import VadaError
from vadaorchestra.mcp_server.catalog import Catalog
from vadaorchestra.mcp_server.workspace import Workspace

# company control below one company, as the concentration-risk catalog computes it, plus a count and a negation
CONTROL = """
@param("company", "string", "a company").
@input("own"). @input("wanted").
@output("ultimate").
above(O) :- own(O, $company, _).
above(O) :- above(C), own(O, C, _).
chain(C) :- own(_, C, _), C = $company.
chain(O) :- above(O).
stake(X, Y, Q) :- own(X, Y, Q), chain(Y), X <> Y.
cs(X, Y, Y, Q) :- stake(X, Y, Q).
cs(X, Z, Y, Q) :- control(X, Z), stake(Z, Y, Q), X <> Z, Z <> Y, X <> Y.
total(X, Y, S) :- cs(X, Z, Y, Q), S = msum(Q, <Z>).
control(X, Y) :- total(X, Y, S), S > 0.5.
controlled(Y) :- control(X, Y).
n_above(N) :- above(O), N = count(O).
ultimate($company, X, N) :- control(X, $company), not controlled(X), n_above(N).
ultimate($company, "none", 0) :- wanted($company), not controlled($company).
"""


def _graph(seed: int, n: int = 40) -> list[tuple[str, str, float]]:
    rng = random.Random(seed)
    edges = {}
    for _ in range(n * 2):
        a, b = rng.sample(range(n), 2)
        if a < b:  # owners above companies: a forest-like DAG with joint holdings
            edges[(f"c{a}", f"c{b}")] = round(rng.uniform(0.2, 0.7), 2)
    return [(o, c, s) for (o, c), s in sorted(edges.items())]


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_bound_to_a_column_equals_the_union_of_the_calls_one_per_value(seed):
    own = _graph(seed)
    companies = sorted({c for _, c, _ in own})[:15] + ["nobody"]
    program = parse(CONTROL)
    inputs = {"own": own, "wanted": [(c,) for c in companies]}
    expected = set()
    for c in companies:
        expected |= set(run(program, params={"company": c}, inputs=inputs, outputs=["ultimate"]).tables["ultimate"])
    source = A.Atom("wanted", (A.Var("C"),))
    each = bind_each(program, {"company": "C"}, source, output="ultimate")
    got = set(run(each, inputs=inputs, outputs=["ultimate"]).tables["ultimate"])
    assert got == expected
    assert any(row[1] != "none" for row in got)  # the test data has controllers


def test_an_empty_source_gives_no_facts_like_no_call():
    program = parse(CONTROL)
    each = bind_each(program, {"company": "C"}, A.Atom("src", (A.Var("C"), A.Const("yes"))), output="ultimate")
    inputs = {"own": _graph(1), "wanted": [("c1",)], "src": [("c1", "no")]}
    assert run(each, inputs=inputs, outputs=["ultimate"]).tables["ultimate"] == []


def test_predicates_that_do_not_depend_on_the_parameter_are_computed_once():
    program = parse('@param("p", "string", "x"). @input("e"). @input("s"). @output("o").\n'
                    'reach(X, Y) :- e(X, Y).\nreach(X, Z) :- reach(X, Y), e(Y, Z).\no($p, Y) :- reach($p, Y).')
    each = bind_each(program, {"p": "V"}, A.Atom("s", (A.Var("V"),)), output="o")
    text = {str(r.head[0].pred): len(r.head[0].args) for r in each.rules}
    assert text["reach"] == 2  # unchanged: no key column
    got = run(each, inputs={"e": [("a", "b"), ("b", "c"), ("x", "y")], "s": [("a",), ("x",)]}, outputs=["o"])
    assert sorted(got.tables["o"]) == [("a", "b"), ("a", "c"), ("x", "y")]


def test_a_program_that_never_uses_the_parameter_is_refused():
    program = parse('@param("p", "string", "x"). @input("s"). @output("o").\no(1) :- s(_).')
    with pytest.raises(VadaError, match="uses no parameter"):
        bind_each(program, {"p": "V"}, A.Atom("s", (A.Var("V"),)), output="o")


# --- the workspace and the catalog tools ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def workspace(concentration_catalog):
    ws = Workspace(concentration_catalog, preview=3)
    for tool in ("get_loans", "get_credit_lines", "get_bank_exposures", "get_bank_info"):
        ws.invoke(tool, {"bank_name": "Bank Gamma"})
    yield ws
    ws.remove()


def _rows(ws: Workspace, pred: str) -> set[tuple]:
    return set(ws.con.execute(f"SELECT * FROM {pred}").fetchall())


def test_a_catalog_tool_runs_for_every_borrower_of_one_bank_in_one_call(workspace, concentration_catalog):
    res = workspace.invoke("get_ultimate_controller",
                           {"company": {"each": "exposure.borrower", "where": {"bank": "Bank Gamma"}}})
    assert res["bound_values"] == workspace.con.execute(
        "SELECT count(DISTINCT borrower) FROM exposure WHERE bank = 'Bank Gamma'").fetchone()[0]
    got = _rows(workspace, "ultimate_controller")
    assert ("DeepLogic Ltd", "Synthetix Global Fund") in got and ("NeuralLinker SpA", "Synthetix Global Fund") in got
    # the same facts as calls one by one, on a sample of the borrowers
    borrowers = sorted(r[0] for r in workspace.con.execute("SELECT DISTINCT borrower FROM exposure").fetchall())
    spec = concentration_catalog.get("get_ultimate_controller")
    for b in [*random.Random(0).sample(borrowers, 12), "DeepLogic Ltd"]:
        one = run(spec.program, params={"company": b}, data_root=concentration_catalog.data_root,
                  database=workspace.con, outputs=["ultimate_controller"]).tables["ultimate_controller"]
        assert set(one) == {r for r in got if r[0] == b}, b
    assert workspace.log[-1].params == {"company": {"each": "exposure.borrower", "where": {"bank": "Bank Gamma"}}}


@pytest.mark.parametrize(("params", "message"), [
    ({"company": {"each": "exposure"}}, "must be {\"each\": \"predicate.column\"}"),
    ({"company": {"each": "exposure.borrower", "limit": 3}}, "must be {\"each\""),
    ({"company": {"each": "nothing.borrower"}}, "'nothing', which is not a materialized predicate"),
    ({"company": {"each": "exposure.amount"}}, "is a string, but exposure.amount is a float"),
    ({"company": {"each": "exposure.lender"}}, "unknown column 'lender' of predicate 'exposure'"),
    ({"company": {"each": "exposure.borrower", "where": {"bank": 3}}}, "where['bank'] must be a string"),
    ({"company": {"each": "exposure.borrower", "where": {"borrower": "x"}}}, "both bound by \"each\""),
    ({"company": {"each": "exposure.borrower", "where": "Bank Gamma"}}, "must map columns to values"),
])
def test_bad_argument_forms_are_refused_with_the_reason_and_change_nothing(workspace, params, message):
    before = len(workspace.log), workspace.predicates()
    with pytest.raises(VadaError) as err:
        workspace.invoke("get_shareholders", params)
    assert message in str(err.value)
    assert (len(workspace.log), workspace.predicates()) == before


def test_the_argument_form_cannot_inject_sql(workspace):
    evil = "Bank Gamma') ; DROP TABLE exposure; --"
    res = workspace.invoke("get_borrower_profile", {"company": {"each": "exposure.borrower", "where": {"bank": evil}}})
    assert res["bound_values"] == 0 and res["facts"] == 0
    assert "exposure" in workspace.predicates()
    with pytest.raises(VadaError):
        workspace.invoke("get_borrower_profile", {"company": {"each": 'exposure.borrower"; DROP TABLE loans; --'}})
    assert "loans" in workspace.predicates()


# --- plan and trace -----------------------------------------------------------------------------------------------
def test_the_invocation_rule_joins_with_the_source():
    rule = invocation_rule("get_ultimate_controller",
                           {"company": {"each": "exposure.borrower", "where": {"bank": "Bank Gamma"}}},
                           "ultimate_controller", ["company", "controller"], {"company": "company"},
                           {"exposure": ["bank", "borrower", "amount"]})
    assert rule == ('ultimate_controller(Borrower, Controller) :- exposure("Bank Gamma", Borrower, _), '
                    'get_ultimate_controller(Borrower, Controller).')
    parse(rule)
    # an output column named like the source's: the variables stay apart
    rule = invocation_rule("t", {"p": {"each": "s.borrower"}}, "o", ["p", "borrower"], {"p": "p"}, {"s": ["borrower"]})
    assert rule == "o(Borrower, Borrower_) :- s(Borrower), t(Borrower, Borrower_)."


def test_the_producer_of_the_bound_predicate_runs_first():
    deps = {"exp": [], "ctrl": []}.__getitem__
    each = Call(tool="ctrl", params={"company": {"each": "exposure.borrower"}})
    first = Call(tool="exp", params={"bank": "G"})
    stages = build_stages([each, first], deps, producers={"exposure": "exp"})
    assert [[c.tool for c in s.calls] for s in stages] == [["exp"], ["ctrl"]]
    assert check_plan(Plan(stages=stages), deps, producers={"exposure": "exp"}) == []
    wrong = Plan(stages=[Stage(index=0, calls=[each]), Stage(index=1, calls=[first])])
    assert any("dependency ordering" in p for p in check_plan(wrong, deps, producers={"exposure": "exp"}))
    orphan = Plan(stages=[Stage(index=0, calls=[each])])
    assert any("no earlier step materializes" in p for p in check_plan(orphan, deps, producers={}))
    assert str(each) == "ctrl(company=each exposure.borrower)"
    assert json.loads(each.key[len("ctrl"):]) == each.params


def test_bind_params_still_binds_constants():
    prog = bind_params(parse('@param("p", "int", "x"). o(X) :- X = $p + 1.'), {"p": 2})
    assert run(prog, outputs=["o"]).tables["o"] == [(3,)]


@pytest.fixture(scope="module")
def concentration_catalog(concentration_data):
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "scenarios" / "concentration_risk"
    return Catalog.load(root / "catalog", concentration_data)


def test_each_over_the_tools_own_output_with_a_parameter_in_a_fact_equals_the_calls_and_replays():
    """get_operator_group's program starts from a fact, ``member($operator_name).``, and is called for each member
    of a group it computed itself (each member's own group): the rows it had before the call are the source, the
    output is the union of the calls one by one, and the run as one program (what a replay evaluates) agrees."""
    from pathlib import Path

    from vadaorchestra.mcp_server.lineage import LogStep, ProgramWriter

    scenario = Path(__file__).parents[1] / "scenarios" / "freight_hubs"
    cat = Catalog.load(scenario / "catalog", scenario)
    ws = Workspace(cat)
    try:
        ws.invoke("get_operator_group", {"operator_name": "Meridian Port Holdings"})
        members = sorted(r[0] for r in ws.con.execute("SELECT member_operator FROM operator_group").fetchall())
        assert len(members) > 1
        res = ws.invoke("get_operator_group", {"operator_name": {
            "each": "operator_group.member_operator", "where": {"operator": "Meridian Port Holdings"}}})
        assert res["bound_values"] == len(members)
        got = _rows(ws, "operator_group")
        expected = set()
        for m in members:
            expected |= set(run(cat.get("get_operator_group").program, params={"operator_name": m},
                                data_root=cat.data_root, outputs=["operator_group"]).tables["operator_group"])
        assert got == expected and {r[0] for r in got} == set(members)
        assert not [n for n in ws.predicates() if n.startswith("__vo")]  # the copied source is gone
        steps = [LogStep("LI", inv.seq, inv.name, dict(inv.params), inv.text or "", "") for inv in ws.log]
        text = ProgramWriter(cat, steps).program(["operator_group"])
        replayed = run(text, data_root=cat.data_root, outputs=["operator_group"]).tables["operator_group"]
        assert set(replayed) == got
    finally:
        ws.remove()
