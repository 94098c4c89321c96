"""Analyses of a program that decide what an evaluation may leave out, computed from the analysis (never stored in
it): the predicates nothing kept needs, and the predicates that copy another column for column. The DuckDB engine's
:class:`~vadaorchestra.datalog.engines.duckdb_engine.Run` reads them when it plans (``plan_views``)."""

from __future__ import annotations

from vadaorchestra.datalog import ast as A
from vadaorchestra.datalog.validator import Analysis, RuleInfo


def unused_predicates(analysis: Analysis, kept: set[str]) -> set[str]:
    """The derived predicates that nothing kept (returned, materialized) or checked (a constraint) depends on and
    whose rules cannot fail or number nulls (no computed values, aggregates, existentials, nor conditions on
    expressions): their strata are not run, as Soufflé drops the relations no output needs (LUBM: its base
    relations ``name`` and ``researchInterest``, the largest copies of the run, read by no rule)."""
    rules = [ri for s in analysis.strata for ri in s.rules]

    def pure(ri: RuleInfo) -> bool:
        return (ri.aggregate is None and not ri.existentials and not ri.assignments and not ri.post_assignments
                and all(isinstance(side, A.Var | A.Const) for c in (*ri.conditions, *ri.post_conditions)
                        for side in (c.left, c.right)))

    live = set(kept) | {a.pred for ri in analysis.constraints for a in ri.positives + ri.negations}
    needed: set[int] = set()
    grew = True
    while grew:
        grew = False
        for ri in rules:
            if ri.index in needed or (pure(ri) and not any(h.pred in live for h in ri.rule.head)):
                continue
            needed.add(ri.index)
            live |= {h.pred for h in ri.rule.head} | {a.pred for a in ri.positives + ri.negations}
            grew = True
    return {p for s in analysis.strata if not live.intersection(s.preds) for p in s.preds}


def copied_predicates(analysis: Analysis) -> dict[str, str]:
    """Predicates that one rule copies from another, column for column (LUBM's 30 ``p(X0,X1) :- lubm_p(X0,X1).``,
    and ``work(X) :- course(X).``), without facts: such a predicate is read where it is read as the relation it
    copies (no statement, no copy). It is a set when that one is; a table of the database may hold duplicates,
    which the readers' own DISTINCT, UNION or EXCEPT remove, as they do when they read the table, and which a
    returned copy drops where it is read (``SELECT DISTINCT``: LUBM returns two such copies)."""
    out = {}
    for stratum in analysis.strata:
        if stratum.recursive or len(stratum.rules) != 1 or len(stratum.preds) != 1:
            continue
        (p,), ri = stratum.preds, stratum.rules[0]
        if analysis.facts.get(p) or len(ri.rule.head) != 1 or len(ri.positives) != 1:
            continue
        atom, head = ri.positives[0], ri.rule.head[0]
        if (ri.negations or ri.conditions or ri.post_conditions or ri.assignments or ri.post_assignments
                or ri.aggregate is not None or ri.existentials):
            continue
        names = [t.name for t in atom.args if isinstance(t, A.Var) and not t.anonymous]
        if (len(names) != len(atom.args) or len(set(names)) != len(names) or head.args != atom.args
                or analysis.predicates[p].types != analysis.predicates[atom.pred].types):
            continue
        out[p] = atom.pred
    return out


__all__ = ["copied_predicates", "unused_predicates"]
