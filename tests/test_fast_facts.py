"""Plain facts are read without lark in large programs (issue 11: 100,000 inline facts took 25-48 s); the program
and the diagnostics must be exactly what lark alone gives."""

from __future__ import annotations

import pytest

from vadaorchestra.datalog import parser as P
from vadaorchestra.errors import DatalogSyntaxError

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
    fast = P.parse(text)
    assert text.count("(") > 64  # large enough for the fast path
    assert list(fast.statements) == lark_only(text)
    spans = [(s.span.line, s.span.column) for s in fast.statements]
    assert spans == [(s.span.line, s.span.column) for s in lark_only(text)]


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
