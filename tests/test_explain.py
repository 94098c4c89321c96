"""Why a fact holds: derivation trees that end in base facts, show aggregates' contributions, and stay well-founded
in recursion (company control is explained by control established in earlier rounds, never by itself)."""

from __future__ import annotations

import pytest
from programs import CONTROL, CONTROL_RULES

from vadaorchestra.datalog.explain import Explainer, NotDerived, parse_fact
from vadaorchestra.errors import VadaError

REFERENCE = CONTROL.lstrip()  # its facts on line 1
# 0 holds 0.6 of B and 0.3 of A; A and B hold 0.3 of each other. 0 controls B directly, then A (0.3 + 0.3 through B);
# its final stake in B (0.9) counts A's 0.3, but control of B must not be explained through A
MUTUAL = 'own("0","B",0.6). own("0","A",0.3). own("A","B",0.3). own("B","A",0.3).\n' + CONTROL_RULES


def paths(node, path=()):
    here = path + ((node.pred, node.values),)
    if not node.children:
        yield here
    for child in node.children:
        yield from paths(child, here)


def well_founded(node) -> bool:
    return all(len(p) == len(set(p)) for p in paths(node))


def test_company_control_is_explained_down_to_the_ownership_facts_of_the_program():
    ex = Explainer(REFERENCE)
    node = ex.explain("control", (1, 4))
    assert node.kind == "rule" and well_founded(node)
    leaves = [leaf for leaf in node.leaves() if leaf.kind != "seen"]
    assert {leaf.pred for leaf in leaves} == {"own"}
    assert {leaf.values for leaf in leaves} == {(1, 2, 0.9), (2, 3, 1.0), (3, 4, 0.9)}
    assert all(leaf.source == {"line": 1} for leaf in leaves)


def test_a_cycle_of_holdings_is_explained_by_earlier_rounds_only():
    ex = Explainer(MUTUAL)
    control_b = ex.explain("control", ("0", "B"))
    assert well_founded(control_b)
    assert {leaf.values for leaf in control_b.leaves()} == {("0", "B", 0.6)}  # the direct stake, not through A
    total = control_b.children[0]
    assert total.pred == "total" and total.values == ("0", "B", 0.6)  # the stake as it was when control began
    control_a = ex.explain("control", ("0", "A"))
    assert well_founded(control_a) and "msum over 2 binding(s)" in control_a.children[0].note
    final = ex.explain("total", ("0", "B", 0.9))  # the final stake: both contributions, A's through control of A
    assert well_founded(final) and final.values[2] == pytest.approx(0.9) and "msum over 2 binding(s)" in final.note
    assert "control" in final.render() and "own(\"B\", \"A\", 0.3)" in final.render()


def test_negation_aggregates_and_wildcards():
    ex = Explainer('p(1). p(2). p(3). q(2).\nr(X) :- p(X), not q(X).\nt(N) :- r(X), N = count().\n@output("t").')
    node = ex.explain("t", (None,))
    assert node.values == (2,) and "count over 2 binding(s) = 2" in node.note
    assert [c.pred for c in node.children] == ["r", "r"]
    assert node.children[0].children[1].note == "no fact matches not q(1)"


def test_a_fact_that_does_not_hold_and_bad_facts_are_clear_errors():
    ex = Explainer(REFERENCE)
    with pytest.raises(NotDerived, match=r"not derived: control\(4, 1\) does not hold"):
        ex.explain("control", (4, 1))
    with pytest.raises(VadaError, match="unknown predicate 'nope'"):
        ex.explain("nope", (1,))
    with pytest.raises(VadaError, match="has 2 column"):
        ex.explain("control", (1,))
    with pytest.raises(VadaError, match="is a int"):
        ex.explain("control", ("a", 1))
    assert parse_fact('exposure("Bank Gamma", _, 1.5)') == ("exposure", ("Bank Gamma", None, 1.5))
    with pytest.raises(VadaError, match="not a fact"):
        parse_fact('exposure("Bank Gamma"')
    with pytest.raises(VadaError, match="neither a constant nor _"):
        parse_fact("exposure(X)")
