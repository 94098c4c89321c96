"""Analyses of a program that decide what an evaluation may leave out, computed from the analysis (never stored in
it): the predicates nothing kept needs, and the predicates that copy another column for column. The DuckDB engine's
:class:`~vadaorchestra.datalog.engines.duckdb_engine.Run` reads them when it plans (``plan_views``)."""

from __future__ import annotations

from collections.abc import Sequence

from vadaorchestra.datalog import ast as A
from vadaorchestra.datalog.validator import Analysis, RuleInfo, Stratum


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


def aggregate_keys(analysis: Analysis, stratum: Stratum) -> dict[str, tuple[int, ...]]:
    """The aggregates of a recursive ``stratum`` whose relation holds one row per group, each with the head columns
    of its group variables (a key: no two rows agree on them): the head's only rule, no facts, each group variable
    of the head column's own type (a cast could merge two groups). Every relation the rounds read for it holds one
    value per group: the whole relation (the values replaced group by group), a round's changed groups, the query
    that re-sums the touched ones (``Run.inlined``)."""
    out = {}
    for ri in stratum.rules:
        if ri.aggregate is None or len(ri.rule.head) != 1:
            continue
        head = ri.rule.head[0]
        types = analysis.predicates[head.pred].types
        if analysis.facts.get(head.pred) or sum(h.pred == head.pred for r in stratum.rules for h in r.rule.head) != 1:
            continue
        columns = []
        for g in ri.group_vars:
            at = [j for j, t in enumerate(head.args) if isinstance(t, A.Var) and t.name == g]
            if not at or ri.var_types.get(g) != types[at[0]]:
                break
            columns.append(at[0])
        else:
            out[head.pred] = tuple(columns)
    return out


def unique_rows(ri: RuleInfo, head: A.Atom, head_types: Sequence[str], atom_types: Sequence[Sequence[str]],
                keys: Sequence[Sequence[int] | None]) -> bool:
    """Whether plain rule ``ri`` derives each ``head`` tuple from one binding only, so that its SELECT (no DISTINCT,
    :func:`~vadaorchestra.datalog.sql.rule_sql`) has no duplicate: every positive atom reads a relation without
    duplicates whose key columns (``keys[i]``: all columns of a set, the group columns of an aggregate; None: the
    relation may repeat a row) hold constants or variables the head copies at a column of the same type, so that
    the head's tuple fixes the row of each atom (company control: ``control(X,Y) :- total(X,Y,S), S > 0.5.`` reads
    one row per group (X,Y) of ``total``)."""
    at = {}
    for j, t in enumerate(head.args):
        if isinstance(t, A.Var) and not t.anonymous:
            at.setdefault(t.name, j)
    for atom, types, key in zip(ri.positives, atom_types, keys, strict=True):
        if key is None:
            return False
        for j in key:
            t = atom.args[j]
            if isinstance(t, A.Const):
                continue
            if not isinstance(t, A.Var) or t.anonymous or t.name not in at or head_types[at[t.name]] != types[j]:
                return False
    return True


__all__ = ["aggregate_keys", "copied_predicates", "unique_rows", "unused_predicates"]
