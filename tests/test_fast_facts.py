"""Plain facts are read without lark in large programs (issue 11: 100,000 inline facts took 25-48 s); the program
and the diagnostics must be exactly what lark alone gives."""

from __future__ import annotations

import pytest

from vadaorchestra.datalog import ast as A
from vadaorchestra.datalog import parser as P
from vadaorchestra.datalog import validate
from vadaorchestra.errors import DatalogSyntaxError, ValidationError

TRICKY = '''% a comment with a fact in it: p(1).
p(1, "a, b", -2.5e3, #T). q("x\\"y. % not a comment"). r(-  7).
big(12345678901234567890).
s(X) :-
  p(X, _, _, _).
t(1), t(2).
u("multi") :- q(_).
@output("s").
'''


def lark_only(text: str) -> list:
    return P._Builder("<program>").transform(P._lark().parse(text))


def test_the_fast_path_gives_the_same_statements_in_the_same_order_as_lark():
    text = TRICKY * 30
    parsed = P.parse(text)
    assert text.count("(") > 64  # large enough for the fast path
    assert any(isinstance(s, A.FactBlock) for s in parsed.statements)
    fast = parsed.expanded()
    assert list(fast.statements) == lark_only(text)
    spans = [(s.span.line, s.span.column, s.span.end_column) for s in fast.statements]
    assert spans == [(s.span.line, s.span.column, s.span.end_column) for s in lark_only(text)]


def test_a_syntax_error_after_many_facts_has_the_position_and_message_lark_gives():
    text = "".join(f'e("n{i}", {i}).\n' for i in range(200)) + "bad(X) :- e(X, Y)\nok(1).\n"
    with pytest.raises(DatalogSyntaxError) as fast:
        P.parse(text)
    try:
        P._lark().parse(text)
    except Exception as exc:  # the same error from lark alone
        expected = (exc.line, exc.column)
    assert (fast.value.diagnostics[0].span.line, fast.value.diagnostics[0].span.column) == expected
    unterminated = "".join(f"e({i}).\n" for i in range(100)) + 'e("open).\n'
    with pytest.raises(DatalogSyntaxError, match="unexpected character"):
        P.parse(unterminated)


@pytest.mark.parametrize("const, value", [
    ('"tab\there"', "tab\there"), ('"q\\"uote"', 'q"uote'), ("007", 7), ("- 5", -5), ("-0.5", -0.5),
    ("#T", True), ("#F", False), ("1e3", 1000.0), ("12345678901234567890", 12345678901234567890),
    ('"a, 07"', "a, 07"), ('"%"', "%"), ('"x. y(1)."', "x. y(1)."),
])
def test_values_decoded_in_bulk_are_those_lark_gives(const, value):
    text = "".join(f"e({i}, {const}).\n" for i in range(100))
    parsed = P.parse(text)
    assert [type(s) for s in parsed.statements] == [A.FactBlock]
    rows = parsed.statements[0].rows
    assert all(type(r[1]) is type(value) and r[1] == value for r in rows)
    assert list(parsed.expanded().statements) == lark_only(text)


def test_blocks_split_at_a_new_predicate_or_arity_and_keep_the_order_of_the_text():
    text = "".join(f"a({i}).\n" for i in range(40)) + "a(1, 2).\nr(X) :- a(X).\n" + \
        "".join(f"b({i}). " for i in range(40)) + "a(3).\n"
    parsed = P.parse(text)
    kinds = [(type(s).__name__, getattr(s, "pred", None), len(s) if isinstance(s, A.FactBlock) else None)
             for s in parsed.statements]
    assert kinds == [("FactBlock", "a", 40), ("FactBlock", "a", 1), ("Rule", None, None), ("FactBlock", "b", 40),
                     ("FactBlock", "a", 1)]
    assert list(parsed.expanded().statements) == lark_only(text)


def test_an_escape_the_dialect_refuses_is_reported_where_it_is():
    text = "".join(f'e("n{i}").\n' for i in range(100)) + 'e("bad \\u0041").\n'
    with pytest.raises(DatalogSyntaxError, match="unknown escape") as exc:
        P.parse(text)
    assert exc.value.diagnostics[0].span.line == 101


def test_validation_errors_in_a_block_point_at_the_fact_and_the_constant():
    text = "".join(f"e({i}, \"x\").\n" for i in range(100)) + 'e(5, 7).\n' + 'e("_:n3", "y").\n' + \
        "".join(f"e({i}, 1, 2).\n" for i in range(3)) + '@output("e").\n'
    with pytest.raises(ValidationError) as exc:
        validate(P.parse(text))
    found = {(d.span.line, d.span.column, d.message.split(":")[0]) for d in exc.value.diagnostics}
    assert (101, 6, "type conflict") in found  # the 7 of e(5, 7)
    assert (102, 3, "the string '_") in found  # "_:n3"
    assert any(line == 103 and msg.startswith("arity mismatch") for line, _c, msg in found)


def test_the_parser_tables_are_cached_and_a_cache_folder_that_cannot_be_made_is_no_error(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    P._lark.cache_clear()
    try:
        assert P.parse("p(1).").statements
        assert list((tmp_path / "cache" / "vadaorchestra").glob("lark-*.cache"))
        P._lark.cache_clear()
        assert P.parse("q(X) :- p(X).").statements  # from the cache
        blocked = tmp_path / "file"
        blocked.write_text("not a folder")
        monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
        P._lark.cache_clear()
        assert P.parse("p(2).").statements
    finally:
        P._lark.cache_clear()


def test_a_fact_inside_a_comment_after_a_run_of_facts_is_no_fact():
    """The whitespace and comments before a fact are taken whole: the regex once backtracked into a comment and
    read the fact written in it."""
    text = "e(1).\n" * 70 + "% a comment: p(1).\ne(2). % and q(2).\n"
    assert P.parse(text).expanded().statements == tuple(lark_only(text))
    assert not [s for s in P.parse(text).expanded().statements if s.atom.pred != "e"]


PLAIN = '''% plain rules and annotations are read without lark too
a(X, Y) :- b(X, _),
   not   c(Y, "s", -3, - 4, 1.5, #T),  % x
   d( X ).
  @output("a"). @bind("p", "csv", -1).
x(1) <- y(Z), ok().
p(X) :- not_x(X), notx(X), not x(X).  e(1, 2).
q(X) :- r(X, "a\\"b").
q(X) :- r(X, Y), X > Y.
w(X), w2(X) :- y(X).
z(X) :- y(X),
  not
  k(X).
f(1, "x"). f(2, "y").
v(X) :- u(X) % trailing
  .
@ output ( "b" , 007, 1e3, #F ) .
t(X, S) :- u(X, Z, Q), S = msum(Q, <Z>), S > 0.5.
t(X, S) :- u(X, Z, Q),S=sum( Q ),S>=-1 , X<>Z, 3 < X, X != "a", X == Y, X<=#T.
c(X, C) :- u(X, Z, _), C = mcount(<Z, X>), D = count(), E = X, 5 = X, _ = X, X = -2.5e3, X=- 4.
m(X) :- u(X), Y = f(X).
m(X) :- u(X), X <-1.
m(X) :- u(X), X < Y + 1.
m(X) :- u(X), X = "a\\"b".
m(X) :- u(X),
  X > 1.
'''


def _nodes(node, out: list) -> list:
    """Every node under ``node`` with its span, but the constants of facts (a block's carry none)."""
    import dataclasses

    if isinstance(node, A.Fact):
        out.append(("Fact", node.span, node.atom.span))
    elif dataclasses.is_dataclass(node):
        out.append((type(node).__name__, node.span))
        for f in dataclasses.fields(node):
            if f.name != "span":
                _nodes(getattr(node, f.name), out)
    elif isinstance(node, (tuple, list)):
        for x in node:
            _nodes(x, out)
    return out


def test_plain_rules_and_annotations_read_without_lark_are_what_lark_gives_spans_included():
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location("lubm_for_parse", Path(__file__).parents[1] / "benchmarks" / "lubm.py")
    lubm = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(lubm)
    for text in (PLAIN * 3, lubm.RULES + "".join(f'@output("{o}").\n' for o in lubm.OUTPUTS)):
        assert text.count("(") > 64
        fast = list(P.parse(text).expanded().statements)
        assert fast == lark_only(text)
        assert _nodes(fast, []) == _nodes(lark_only(text), [])


def test_a_program_of_plain_rules_does_not_load_lark_and_its_errors_are_lark_s(monkeypatch):
    rules = "".join(f"p{i}(X, Y) :- q(X, Z), not r{i}(Z, Y).\n" for i in range(40)) + '@output("p1").\n'
    monkeypatch.setattr(P, "_lark", lambda: (_ for _ in ()).throw(AssertionError("lark was loaded")))
    assert len(P.parse(rules).rules) == 40
    monkeypatch.undo()
    bad = rules + "s(X) :- q(X, Y)\nt(1).\n"
    with pytest.raises(DatalogSyntaxError) as fast:
        P.parse(bad)
    try:
        P._lark().parse(bad)
    except Exception as exc:  # the same error from lark alone
        expected = (exc.line, exc.column)
    assert (fast.value.diagnostics[0].span.line, fast.value.diagnostics[0].span.column) == expected


CONTROL = """
cs(X,Y,Y,Q) :- own(X,Y,Q), X <> Y.
cs(X,Z,Y,Q) :- control(X,Z), own(Z,Y,Q), X <> Z, Z <> Y, X <> Y.
total(X,Y,S) :- cs(X,Z,Y,Q), S = msum(Q,<Z>).
control(X,Y) :- total(X,Y,S), S > 0.5.   % a comment
@output("control").
"""


def test_a_small_program_of_plain_rules_comparisons_and_aggregates_is_read_without_lark(monkeypatch):
    expected = lark_only(CONTROL)
    monkeypatch.setattr(P, "_lark", lambda: (_ for _ in ()).throw(AssertionError("lark was loaded")))
    fast = list(P.parse(CONTROL).statements)
    monkeypatch.undo()
    assert fast == expected
    assert _nodes(fast, []) == _nodes(expected, [])
    # a fact, an expression, an aggregate lark refuses: lark reads the whole small program, as before
    for extra in ("own(1, 2, 0.5).", "m(X) :- u(X), Y = X + 1.", "m(X) :- u(X, Z), S = sum(X, <Z>)."):
        text = CONTROL + extra
        try:
            expected = lark_only(text)
        except Exception:  # lark's own error, which the builder raises as a syntax error
            with pytest.raises(DatalogSyntaxError):
                P.parse(text)
            continue
        assert list(P.parse(text).statements) == expected, extra
