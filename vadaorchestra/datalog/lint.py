"""Lints: programs the engine accepts but that most likely compute something else than their writer meant.

:func:`merging_aggregates`: an aggregate ranges over the distinct bindings of its body's variables (the language
contract), and ``_`` binds nothing, so in ``total(D, S) :- payroll(D, _, Sal), S = sum(Sal).`` two employees of one
department with the same salary are one binding and are summed once. The lint asks for a named variable that tells
the contributions apart (``payroll(D, E, Sal)``). ``count``, ``min`` and ``max`` are exempt: counting distinct values
is what counting entities means, and equal values do not change an extreme. Pure: reads the AST only.
"""

from __future__ import annotations

from vadaorchestra.datalog import ast as A
from vadaorchestra.errors import Diagnostic

MERGING = ("sum", "mean", "avg", "prod", "msum", "mprod")


def _anonymous(t: A.Term) -> bool:
    return isinstance(t, A.Var) and (t.anonymous or t.name.startswith("_"))


def merging_aggregates(program: A.Program) -> list[Diagnostic]:
    """One diagnostic, at the aggregate, for each rule whose sum, mean or product merges equal values."""
    out = []
    for rule in program.rules:
        agg = next((lit for lit in rule.body if isinstance(lit, A.Assignment) and isinstance(lit.value, A.Aggregate)),
                   None)
        if agg is None or agg.value.func not in MERGING or agg.value.contributors:
            continue
        atoms = [lit for lit in rule.body if isinstance(lit, A.Atom)]
        if not any(_anonymous(t) for a in atoms for t in a.args):
            continue  # every column of every atom is named: distinct rows are distinct bindings
        head_vars = {t.name for h in rule.head for t in h.args if isinstance(t, A.Var)} - {agg.var.name}
        agg_vars = {v.name for v in A.expr_vars(agg.value.expr)} if agg.value.expr is not None else set()
        named = {t.name for a in atoms for t in a.args if isinstance(t, A.Var) and not _anonymous(t)}
        if named - head_vars - agg_vars:
            continue  # a body variable outside the groups and the value tells contributions apart
        shown = ", ".join(sorted(head_vars | agg_vars))
        out.append(Diagnostic(agg.value.span or agg.span or rule.span,
                              f"{agg.value.func} over the bindings of only ({shown}) merges equal values: an aggregate "
                              f"ranges over distinct bindings and '_' binds nothing, so two rows with the same value "
                              f"count once; name the variable that identifies each row instead of '_'"))
    return out
