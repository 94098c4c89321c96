"""Property: on random valid, stratified programs over small facts, every engine agrees with the naive reference
evaluator (tests/reference.py) on every IDB relation.

The generator builds an AST, prints it with ``format_program`` and runs the text. Programs are assembled block by block
in stratum order; each block may read (and negate) only EDB predicates and earlier blocks, plus its own predicates
positively for recursion. Blocks:
- ``plain``: one predicate, a base rule plus up to two more rules that may recurse on it (arity 0..3, may have facts);
- ``tc``: a transitive closure, linear or non-linear, over a binary lower predicate;
- ``mutual``: two mutually recursive predicates, sometimes also a two-headed rule;
- ``agg``: a stratified aggregate (count sum min max avg, or msum mcount mmax mmin with or without contributors
  outside recursion) over 1..2 atoms without ``_``, optional negation/condition/assignment before it, a condition or an
  assignment on the result after it, head constants or repeated group variables;
- ``control``: the company-control shape with msum/mmax/mcount/mmin (with contributors ``<Z>``/``<Z,Q>`` or none)
  inside the recursion, over non-negative int or int/float weights, used only through monotone thresholds.
Elsewhere, rule bodies: 1..3 positive atoms over variables X Y Z W, constants 0..5 and ``_``; an optional negated atom on a lower
predicate; an optional comparison (every operator, ``=`` between bound terms too); an optional assignment ``N = e``
(in a recursive rule only ``N = X + 1, N <= 5`` or ``N = X - 1, N >= 0``, so the domain stays finite).
"""

from __future__ import annotations

import os

import pytest
from conftest import ENGINES
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from reference import evaluate

from vadaorchestra.datalog import run
from vadaorchestra.datalog.ast import (
    Aggregate,
    Annotation,
    Assignment,
    Atom,
    BinOp,
    Comparison,
    Const,
    Fact,
    Neg,
    Negation,
    Program,
    Rule,
    Var,
)
from vadaorchestra.datalog.engines import souffle_available
from vadaorchestra.datalog.engines.spark_engine import spark_available
from vadaorchestra.datalog.printer import format_program

pytestmark = pytest.mark.slow  # the slow tier: python -m pytest -m slow

VARS = ("X", "Y", "Z", "W")
DOM = st.integers(0, 5)
OPS = ("==", "!=", "<>", "<", "<=", ">", ">=")
Pred = tuple[str, int]  # (name, arity)


def term(draw, anonymous: bool = True):
    k = draw(st.integers(0, 9))
    if k == 0:
        return Const(draw(DOM))
    if k == 1 and anonymous:
        return Var("_")
    return Var(draw(st.sampled_from(VARS)))


def atom(draw, pred: Pred, anonymous: bool = True) -> Atom:
    return Atom(pred[0], tuple(term(draw, anonymous) for _ in range(pred[1])))


def bound_vars(lits) -> list[str]:
    return list(dict.fromkeys(t.name for a in lits if isinstance(a, Atom) for t in a.args
                              if isinstance(t, Var) and t.name != "_"))


def extras(draw, bound: list[str], neg: list[Pred], recursive: bool) -> list:
    """Optional assignment, comparison and negated atom over the bound variables (``bound`` is extended)."""
    out: list = []
    if bound and draw(st.booleans()):
        x = Var(draw(st.sampled_from(bound)))
        y = Var(draw(st.sampled_from(bound)))
        if recursive:
            value, guard = draw(st.sampled_from([(BinOp("+", x, Const(1)), Comparison("<=", Var("N"), Const(5))),
                                                 (BinOp("-", x, Const(1)), Comparison(">=", Var("N"), Const(0)))]))
            out += [Assignment(Var("N"), value), guard]
        else:
            out.append(Assignment(Var("N"), draw(st.sampled_from([
                BinOp("+", x, Const(1)), BinOp("-", x, y), BinOp("*", x, y), Neg(x), Const(draw(DOM)),
                BinOp("*", BinOp("+", x, Const(1)), Const(2))]))))
        bound.append("N")
    if bound and draw(st.integers(0, 2)) == 0:
        x = Var(draw(st.sampled_from(bound)))
        right = draw(st.sampled_from([Var(draw(st.sampled_from(bound))), Const(draw(DOM)), BinOp("+", x, Const(1))]))
        out.append(draw(st.sampled_from([
            Comparison(draw(st.sampled_from(OPS)), x, right),
            Comparison("=", Const(draw(DOM)), x),  # '=' between bound terms is a comparison
            Assignment(x, right),                  # 'X = e' with X bound is a comparison too
        ])))
    if neg and bound and draw(st.integers(0, 2)) == 0:
        pred = draw(st.sampled_from(neg))
        args = []
        for _ in range(pred[1]):
            k = draw(st.integers(0, 5))
            args.append(Const(draw(DOM)) if k == 0 else Var("_") if k == 1 else Var(draw(st.sampled_from(bound))))
        out.append(Negation(Atom(pred[0], tuple(args))))
    return out


def head(draw, pred: Pred, bound: list[str]) -> Atom:
    return Atom(pred[0], tuple(Var(draw(st.sampled_from(bound))) if bound and draw(st.integers(0, 7)) else Const(draw(DOM))
                               for _ in range(pred[1])))


def pick(draw, lower: list[Pred]) -> Pred:
    """A lower predicate; an EDB one (never empty) half of the time."""
    edb = [p for p in lower if p[0].startswith("e")]
    return draw(st.sampled_from(edb if draw(st.booleans()) else lower))


def rule(draw, heads: list[Pred], lower: list[Pred], rec: list[Pred], recursive: bool) -> Rule:
    """A rule over ``lower`` (and ``rec``, the predicates of its own block: at least one of them if ``recursive``)."""
    n = draw(st.sampled_from([1, 1, 2, 2, 3]))
    preds = [draw(st.sampled_from(rec))] if recursive else []
    preds += [draw(st.sampled_from(rec)) if recursive and draw(st.integers(0, 3)) == 0 else pick(draw, lower)
              for _ in range(n - len(preds))]
    body = [atom(draw, p) for p in preds]
    bound = bound_vars(body)
    body += extras(draw, bound, lower, recursive)
    return Rule(tuple(head(draw, h, bound) for h in heads), tuple(draw(st.permutations(body))))


def plain_block(draw, k: int, lower: list[Pred]) -> tuple[list, list[Pred]]:
    pred = (f"p{k}", draw(st.sampled_from([0, 1, 1, 2, 2, 2, 3])))
    stmts: list = [rule(draw, [pred], lower, [pred], False)]
    stmts += [rule(draw, [pred], lower, [pred], draw(st.booleans())) for _ in range(draw(st.integers(0, 2)))]
    facts = draw(st.sets(st.tuples(*[DOM] * pred[1]), max_size=2)) if draw(st.integers(0, 3)) == 0 else set()
    stmts += [Fact(Atom(pred[0], tuple(map(Const, row)))) for row in sorted(facts)]
    return stmts, [pred]


def tc_block(draw, k: int, lower: list[Pred]) -> tuple[list, list[Pred]]:
    binary = [p for p in lower if p[1] == 2]
    t = f"t{k}"
    base, step = draw(st.sampled_from(binary)), draw(st.sampled_from(binary))
    x, y, z = Var("X"), Var("Y"), Var("Z")
    recursive_body = draw(st.sampled_from([
        (Atom(t, (x, y)), Atom(step[0], (y, z))),   # right-linear
        (Atom(step[0], (x, y)), Atom(t, (y, z))),   # left-linear
        (Atom(t, (x, y)), Atom(t, (y, z))),         # non-linear
    ]))
    extra = [Comparison("!=", x, z)] if draw(st.booleans()) else []
    return [Rule((Atom(t, (x, y)),), (Atom(base[0], (x, y)),)),
            Rule((Atom(t, (x, z)),), tuple(draw(st.permutations([*recursive_body, *extra]))))], [(t, 2)]


def mutual_block(draw, k: int, lower: list[Pred]) -> tuple[list, list[Pred]]:
    p, q = (f"m{k}", draw(st.integers(1, 3))), (f"n{k}", draw(st.integers(1, 3)))
    rec = [p, q]

    # a base rule, then p reads q and q reads p (the first body atom of a recursive rule is from its list)
    stmts = [rule(draw, [p], lower, rec, False), rule(draw, [p], lower, [q], True), rule(draw, [q], lower, [p], True)]
    if draw(st.booleans()):
        stmts.append(rule(draw, [q], lower, rec, draw(st.booleans())))
    if draw(st.booleans()):
        stmts.append(rule(draw, [p, q], lower, rec, draw(st.booleans())))  # a two-headed rule
    return stmts, rec


def agg_block(draw, k: int, lower: list[Pred]) -> tuple[list, list[Pred], bool]:
    body = [atom(draw, pick(draw, lower), anonymous=False) for _ in range(draw(st.sampled_from([1, 1, 2])))]
    bound = bound_vars(body)
    if not bound:
        body.append(Atom(lower[0][0], tuple(Var(v) for v in VARS[: lower[0][1]])))
        bound = bound_vars(body)
    body += extras(draw, bound, lower, False)
    groups = draw(st.lists(st.sampled_from(bound), unique=True, max_size=min(2, len(bound))))
    func = draw(st.sampled_from(["count", "sum", "min", "max", "avg", "msum", "mcount", "mmax", "mmin"]))
    x, y = Var(draw(st.sampled_from(bound))), Var(draw(st.sampled_from(bound)))
    expr = draw(st.sampled_from([x, x, BinOp("+", x, y), BinOp("*", x, Const(2))]))
    contributors = None
    if func in ("count", "mcount") and draw(st.booleans()):
        expr = None
    if func in ("msum", "mcount", "mmax", "mmin") and draw(st.integers(0, 3)):
        contributors = tuple(map(Var, draw(st.lists(st.sampled_from(bound), unique=True, min_size=1, max_size=2))))
    if expr is None and contributors is None and func == "mcount":
        expr = x
    body.append(Assignment(Var("V"), Aggregate(func, expr, contributors)))
    args = [Var(g) for g in groups]
    args.insert(draw(st.integers(0, len(groups))), Var("V"))
    if draw(st.integers(0, 3)) == 0:  # after the aggregate: a condition on the result (and maybe a group variable)
        other = draw(st.sampled_from([Const(draw(st.integers(0, 6))), *map(Var, groups)]))
        body.append(Comparison(draw(st.sampled_from(OPS)), Var("V"), other))
    if func != "avg" and draw(st.integers(0, 3)) == 0:  # after the aggregate: an assignment from the result
        body.append(Assignment(Var("R"), BinOp(draw(st.sampled_from(["+", "*", "-"])), Var("V"),
                                                draw(st.sampled_from([Const(2), *map(Var, groups)])))))
        args.append(Var("R"))
    if draw(st.integers(0, 4)) == 0:  # a constant or a repeated group variable in the head
        args.insert(draw(st.integers(0, len(args))), draw(st.sampled_from([Const(draw(DOM)), *map(Var, groups)])))
    pred = (f"a{k}", len(args))
    return [Rule((Atom(pred[0], tuple(args)),), tuple(draw(st.permutations(body))))], [pred], func == "avg"


def control_block(draw, k: int, lower: list[Pred]) -> tuple[list, list[Pred]]:
    """The company-control shape with a monotonic aggregate inside the recursion: msum, mmax, mcount grow and
    ``ctl`` tests ``S > T``; mmin shrinks and ``ctl`` tests ``S < T``. Weights are non-negative; sometimes they
    include exact binary fractions, so the column widens to float."""
    w, cs, tot, ctl = f"w{k}", f"cs{k}", f"tot{k}", f"ctl{k}"
    weights = st.sampled_from([0, 1, 2, 3, 0.5, 0.25, 1.5]) if draw(st.booleans()) else DOM
    rows = draw(st.sets(st.tuples(DOM, DOM, weights), min_size=1, max_size=10))
    x, y, z, q, s = (Var(n) for n in ("X", "Y", "Z", "Q", "S"))

    def maybe(*conds):
        return [c for c in conds if draw(st.booleans())]

    func = draw(st.sampled_from(["msum", "msum", "mmax", "mcount", "mmin"]))
    contributors = draw(st.sampled_from([(z,), (z,), (z, q), None]))
    agg = Aggregate(func, None if func == "mcount" and contributors else q, contributors)
    up = func != "mmin"
    threshold = Const(draw(st.integers(1, 6)) if up else draw(st.integers(0, 3)))
    unary = [p for p in lower if p[1] == 1]
    neg = [Negation(Atom(draw(st.sampled_from(unary))[0], (draw(st.sampled_from([x, y, z])),)))] if unary else []
    stmts: list = [Fact(Atom(w, tuple(map(Const, r)))) for r in sorted(rows)]
    stmts += [
        Rule((Atom(cs, (x, y, y, q)),), (Atom(w, (x, y, q)), *maybe(Comparison("<>", x, y)))),
        Rule((Atom(cs, (x, z, y, q)),), (Atom(ctl, (x, z)), Atom(w, (z, y, q)), *maybe(*neg),
                                         *maybe(Comparison("<>", x, z), Comparison("!=", z, y), Comparison("<>", x, y)))),
        Rule((Atom(tot, (x, y, s)),), (Atom(cs, (x, z, y, q)), Assignment(s, agg),
                                       *maybe(Comparison(">=" if up else "<=", s, Const(1 if up else 4))))),
        Rule((Atom(ctl, (x, y)),), (Atom(tot, (x, y, s)),
                                    Comparison(draw(st.sampled_from([">", ">="] if up else ["<", "<="])), s, threshold))),
    ]
    return stmts, [(cs, 4), (tot, 3), (ctl, 2)]


@st.composite
def programs(draw) -> tuple[Program, list[str]]:
    """A random valid stratified program and its IDB predicates (all declared @output)."""
    stmts: list = []
    lower: list[Pred] = []
    for i in range(draw(st.integers(2, 3))):
        pred = (f"e{i}", 2 if i == 0 else draw(st.integers(1, 3)))
        rows = draw(st.sets(st.tuples(*[DOM] * pred[1]), min_size=1, max_size=8))
        stmts += [Fact(Atom(pred[0], tuple(map(Const, r)))) for r in sorted(rows)]
        lower.append(pred)
    idb: list[Pred] = []
    for k in range(draw(st.integers(2, 5))):
        kind = draw(st.sampled_from(["plain", "plain", "tc", "mutual", "agg", "agg", "control"]))
        if kind == "agg":
            new, preds, terminal = agg_block(draw, k, lower)
        else:
            new, preds = {"plain": plain_block, "tc": tc_block, "mutual": mutual_block,
                          "control": control_block}[kind](draw, k, lower)
            terminal = False
        stmts += new
        idb += preds
        if not terminal:  # float-valued (avg) relations are only outputs, so every column stays an int
            lower += preds
    stmts += [Annotation("output", (Const(p),)) for p, _ in idb]
    return Program(tuple(stmts)), [p for p, _ in idb]


def normalize(rows) -> set[tuple]:
    return {tuple(round(v, 9) if isinstance(v, float) else v for v in r) for r in rows}


def check(program: Program, outputs: list[str], engine: str, engine_options: dict | None = None) -> None:
    text = format_program(program)
    note(text)
    expected = evaluate(program)
    result = run(text, engine=engine, engine_options=engine_options)
    for pred in outputs:
        rows = result.rows(pred)
        assert len(rows) == len(set(rows)), f"duplicate tuples in {pred}\n{text}"
        assert normalize(rows) == normalize(expected.get(pred, set())), f"{pred} differs\n{text}"


@pytest.mark.parametrize("engine", [e for e in ENGINES if getattr(e, "values", (e,))[0] != "spark"])
@settings(max_examples=int(os.environ.get("VO_PROPERTY_EXAMPLES", "150")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_engine_agrees_with_reference(engine, case):
    """Set VO_PROPERTY_EXAMPLES to run more examples (the default, 150, takes about 15 s per engine)."""
    check(*case, engine)


@pytest.mark.spark
@pytest.mark.skipif(spark_available() is not None, reason=str(spark_available()))
@settings(max_examples=int(os.environ.get("VO_SPARK_PROPERTY_EXAMPLES", "40")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_spark_agrees_with_reference(case):
    """Spark runs a few jobs per stratum and round (about 0.5 s each in local mode), so 40 examples by default
    (VO_SPARK_PROPERTY_EXAMPLES for more)."""
    check(*case, "spark")


@pytest.mark.skipif(not souffle_available(), reason="the 'souffle' binary is not on PATH (or its engine is not built)")
@settings(max_examples=int(os.environ.get("VO_PROPERTY_EXAMPLES", "150")) // 2, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(programs())
def test_souffle_programs_running_the_rounds_agree_with_reference(case):
    """The Soufflé engine with ``rounds="souffle"``: the strata that need rounds (aggregates or computed values inside
    recursion, the ``control`` blocks) run as layered Soufflé programs, 2 rounds each so that their state crosses
    program boundaries, instead of the DuckDB engine's rounds of the default."""
    check(*case, "souffle", {"rounds": "souffle", "layers": 2})


def test_reference_evaluator_runs_company_control():
    from test_smoke import CONTROL

    from vadaorchestra.datalog import parse

    assert len(evaluate(parse(CONTROL))["control"]) == 12
