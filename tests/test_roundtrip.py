"""Property: ``parse(format_program(p)) == p`` for every program the parser can produce.

The generator builds ASTs in the parser's normal form: a negated numeric constant is the constant ``-3`` (never
``Neg(Const(3))``), ``=`` with a named variable on the left is an :class:`Assignment` (a :class:`Comparison` with op
``=`` has some other left side), aggregates stand alone on the right of an assignment, and function names are not
aggregate names. Names avoid the keyword ``not``.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vadaorchestra.datalog.ast import (
    AGGREGATES,
    COMPARISON_OPS,
    MONOTONIC_AGGREGATES,
    Aggregate,
    Annotation,
    Assignment,
    Atom,
    BinOp,
    Call,
    Comparison,
    Const,
    Constraint,
    Fact,
    Neg,
    Negation,
    Param,
    Program,
    Rule,
    Var,
)
from vadaorchestra.datalog.parser import parse
from vadaorchestra.datalog.printer import format_program
from vadaorchestra.errors import DatalogSyntaxError

idents = st.one_of(
    st.sampled_from(["p", "edge", "own", "ultimateCtrl", "get_bank_info", "notable", "not_x", "nott", "t2"]),
    st.from_regex(r"\A[a-z][A-Za-z0-9_]{0,6}\Z"),
).filter(lambda s: s != "not")
var_names = st.one_of(st.sampled_from(["X", "Y", "Borrower", "_", "_X", "T_1"]), st.from_regex(r"\A[A-Z_][A-Za-z0-9_]{0,5}\Z"))
named_vars = var_names.filter(lambda s: s != "_").map(Var)
variables = var_names.map(Var)
params = st.from_regex(r"\A[A-Za-z_][A-Za-z0-9_]{0,6}\Z").map(Param)
strings = st.one_of(st.text(max_size=12), st.sampled_from(['', 'a"b', "back\\slash", "line\nbreak", "tab\there", '\\"', '"',
                                                           "\\n", "Bank Gamma", "%not a comment", "é ü 中"]))
values = st.one_of(strings, st.integers(), st.integers(-5, 5), st.floats(allow_nan=False, allow_infinity=False),
                   st.sampled_from([0.25, 1.5e6, -0.0, 1e-7, 1e16, -2.5, 5e-324]), st.booleans())
consts = values.map(Const)
terms = st.one_of(variables, consts, params)
func_names = idents.filter(lambda s: s not in AGGREGATES)


def _negatable(e) -> bool:
    """The parser folds ``-<number>`` into a constant, so Neg never wraps a numeric constant."""
    return not (isinstance(e, Const) and isinstance(e.value, (int, float)) and not isinstance(e.value, bool))


exprs = st.recursive(
    terms,
    lambda inner: st.one_of(
        st.builds(BinOp, st.sampled_from(["+", "-", "*", "/"]), inner, inner),
        inner.filter(_negatable).map(Neg),
        st.builds(Call, st.one_of(st.sampled_from(["abs", "round", "concat", "substring", "to_string"]), func_names),
                  st.lists(inner, max_size=3).map(tuple)),
    ),
    max_leaves=8,
)


@st.composite
def aggregates(draw) -> Aggregate:
    func = draw(st.sampled_from(sorted(AGGREGATES)))
    contributors = None
    if func in MONOTONIC_AGGREGATES and draw(st.booleans()):
        contributors = tuple(draw(st.lists(variables, min_size=1, max_size=3)))
    expr = None if func in ("count", "mcount") and draw(st.booleans()) else draw(exprs)
    return Aggregate(func, expr, contributors)


def atoms(args=terms):
    return st.builds(Atom, idents, st.lists(args, max_size=4).map(tuple))


comparisons = st.one_of(
    st.builds(Comparison, st.sampled_from([op for op in COMPARISON_OPS if op != "="]), exprs, exprs),
    # '=' is a comparison only when its left side is not a named variable
    st.builds(Comparison, st.just("="), exprs.filter(lambda e: not (isinstance(e, Var) and e.name != "_")), exprs),
)
literals = st.one_of(
    atoms(),
    atoms().map(Negation),
    comparisons,
    st.builds(Assignment, named_vars, exprs),
    st.builds(Assignment, named_vars, aggregates()),
)
bodies = st.lists(literals, min_size=1, max_size=5).map(tuple)
statements = st.one_of(
    st.builds(Fact, atoms()),
    st.builds(Fact, atoms(consts)),
    st.builds(Rule, st.lists(atoms(), min_size=1, max_size=3).map(tuple), bodies, st.sampled_from([":-", "<-"])),
    st.builds(Constraint, bodies),
    # annotation arguments: negative numbers are left out, see test_negative_number_in_annotation_round_trips
    st.builds(Annotation, idents, st.lists(consts.filter(
        lambda c: isinstance(c.value, (str, bool)) or not str(c.value).startswith("-")), max_size=4).map(tuple)),
)
programs = st.lists(statements, max_size=6).map(lambda s: Program(tuple(s)))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(programs)
def test_parse_inverts_format_program(program):
    text = format_program(program)
    assert parse(text) == program, text


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(programs)
def test_format_program_is_stable(program):
    text = format_program(program)
    assert format_program(parse(text)) == text


HAND_WRITTEN = [
    'own("Alpha Corp","DeepLogic Ltd",0.55).',
    'p("say \\"hi\\"\\n\\tand \\\\ bye", -3, -0.5, 1.5e6, #T, #F).',
    "limit(B,T) :- bank_info(B,Cap,Share), T = Cap * Share.",
    "group_total(C,S) :- exposure(B,X,E), controller(C,X), S = msum(E,<X>).",
    "h(X,Z) <- b(X,Y), c(Y,Z), Z > 3, not d(Z, _), X != Y, X <> Z, Y <= 2, Y >= -1, X == Z, 1 = Y.",
    "a(X), b(Y) :- c(X, Y).",
    "#F :- own(X,X,W).",
    'n(C) :- e(X), C = count(). m(C) :- e(X), C = mcount(<X>). s(S) :- e(X, Y), S = msum(X * -2, <X, Y>).',
    "v(V) :- e(X, Y), V = -(X - (Y - 3)) / (X * (Y + -1.5)) - abs(-X) + substring(to_string(X), 0, round(Y)).",
    "ok() :- e(X), V = -X, W = --X.",
    '@output("exposure"). @mapping("exposure",0,"bank","string"). @bind("p","csv","dir","file.csv"). @x().',
    'part($bank_name, B, Id, A) :- loans($bank_name, B, Id, A), A > $min.',
]


@pytest.mark.parametrize("text", HAND_WRITTEN)
def test_hand_written_programs_round_trip(text):
    program = parse(text)
    assert parse(format_program(program)) == program


def test_negation_and_minus_normal_form():
    rule = parse("h(V) :- e(X), V = -X, W = -(3), Z = X - -2.").rules[0]
    assert rule.body[1] == Assignment(Var("V"), Neg(Var("X")))
    assert rule.body[2] == Assignment(Var("W"), Const(-3))
    assert rule.body[3] == Assignment(Var("Z"), BinOp("-", Var("X"), Const(-2)))


def test_negative_number_in_annotation_round_trips():
    program = Program((Annotation("a", (Const(-3), Const(-0.5))),))
    assert parse(format_program(program)) == program


def test_not_is_a_keyword_and_names_no_predicate():
    for text in ("not(1).", "not(X) :- h(X)."):
        with pytest.raises(DatalogSyntaxError, match="'not' is a keyword"):
            parse(text)
    with pytest.raises(DatalogSyntaxError, match="expected a predicate name"):
        parse("h(X) :- not(X).")
