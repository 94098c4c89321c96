"""Why does a fact hold? One derivation tree of it, down to base facts, each with its source.

:class:`Explainer` evaluates a program once on DuckDB, keeping every relation, and for the predicates of recursive
strata the round in which each fact was first derived (its rank). A fact of a rule's head is explained by one
binding of the rule's body that holds in the result; inside a recursive stratum only by body facts of earlier rounds
(for an aggregate in recursion: of its own round or earlier, since the aggregate is taken after the round's plain
rules), so every derivation is well-founded: company control explains ``control(X, Y)`` by the stakes of companies X
controlled before, never by ``control(X, Y)`` itself. Aggregates show their contributions (the first
``max_contributions`` of them, with the count); negated atoms show as "no fact matches …"; a base fact shows its
``@bind`` file and line, an inline fact its line in the program.
"""

from __future__ import annotations

import contextlib
import csv
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb

from vadaorchestra.datalog import ast as A
from vadaorchestra.datalog import sql as S
from vadaorchestra.datalog.engines.duckdb_engine import DuckDBEngine, Run
from vadaorchestra.datalog.printer import format_const, format_statement
from vadaorchestra.datalog.types import fits
from vadaorchestra.datalog.validator import Analysis, RuleInfo
from vadaorchestra.errors import VadaError

if TYPE_CHECKING:
    from vadaorchestra.datalog.limits import Budget

MAX_CONTRIBUTIONS = 10
MAX_NODES = 400


@dataclass
class Node:
    """One fact of a derivation tree."""

    pred: str
    values: tuple
    kind: str  # "rule", "aggregate", "base", "fact", "negation", "seen" (explained above), "cut" (node limit)
    rule: str | None = None
    source: dict[str, Any] | None = None  # base facts: {"file": ..., "line": ...}; inline facts: {"line": ...}
    note: str = ""
    children: list[Node] = field(default_factory=list)

    @property
    def fact(self) -> str:
        return f"{self.pred}({', '.join(_const(v) for v in self.values)})"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"fact": self.fact, "kind": self.kind}
        if self.rule:
            out["rule"] = self.rule
        if self.source:
            out["source"] = self.source
        if self.note:
            out["note"] = self.note
        if self.children:
            out["children"] = [c.to_dict() for c in self.children]
        return out

    def leaves(self) -> list[Node]:
        if not self.children:
            return [self]
        return [leaf for c in self.children for leaf in c.leaves()]

    def render(self) -> str:
        """The tree as indented text, one fact a line, its rule or source under it."""
        lines: list[str] = []

        def walk(node: Node, prefix: str, last: bool, top: bool) -> None:
            branch = "" if top else ("└─ " if last else "├─ ")
            where = ""
            if node.source and "file" in node.source:
                where = f"   [{node.source['file']} line {node.source['line']}]"
            elif node.source:
                where = f"   [program line {node.source['line']}]"
            lines.append(f"{prefix}{branch}{node.fact}{where}")
            inner = prefix + ("" if top else ("   " if last else "│  "))
            if node.rule:
                lines.append(f"{inner}   by {node.rule}")
            if node.note:
                lines.append(f"{inner}   {node.note}")
            for i, child in enumerate(node.children):
                walk(child, inner, i == len(node.children) - 1, False)

        walk(self, "", True, True)
        return "\n".join(lines)


class NotDerived(VadaError):
    """The fact does not hold in the program's result."""


class _RankedRun(Run):
    """An evaluation that keeps, for the predicates of recursive strata, the round each fact first appeared in."""

    use_cte = False  # every round must be seen

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.rank_no = 0
        self.ranked: set[str] = set()

    def round(self, stratum, deltas):
        out = super().round(stratum, deltas)
        if stratum.recursive:
            self.rank_no += 1
            for pred, (n, table) in out.items():
                if not n or table is None:
                    continue
                target = f"main.{S.quote_ident('r_' + pred)}"
                if pred not in self.ranked:
                    self.store.exec(f"CREATE TABLE {target} AS SELECT *, {self.rank_no} AS r FROM {table}")
                    self.ranked.add(pred)
                else:
                    self.store.exec(f"INSERT INTO {target} SELECT *, {self.rank_no} AS r FROM {table}")
        return out


class _RankingEngine(DuckDBEngine):
    def new_run(self, analysis: Analysis, inputs, null_start: int) -> Run:
        return _RankedRun(self, analysis, inputs, null_start)


class Explainer:
    """Derivation trees of the facts of one evaluated program (see the module docstring)."""

    def __init__(self, program: A.Program | str, *, data_root: str | Path | None = None,
                 max_contributions: int = MAX_CONTRIBUTIONS, max_nodes: int = MAX_NODES,
                 max_rounds: int = 1000, budget: Budget | None = None, memory_limit: int | None = None) -> None:
        """``budget`` bounds the evaluation (its time, its cancellation; watch :attr:`con` to bound the queries of
        :meth:`explain` too), ``memory_limit`` (bytes) is the in-memory database's."""
        from vadaorchestra.datalog.api import parse

        if isinstance(program, str):
            program = parse(program)
        self.con = duckdb.connect()
        try:
            if memory_limit is not None:
                self.con.execute(f"SET memory_limit = '{max(1, memory_limit >> 20)}MiB'")
            with budget.watch(self.con) if budget is not None else contextlib.nullcontext():
                self._evaluate(program, data_root, max_rounds, budget)
        except duckdb.Error:  # a statement outside the engine's (validation reads the catalog) was interrupted
            self.con.close()
            if budget is None or budget.reason is None:
                raise
            raise budget.error("evaluating the session for explain") from None
        except BaseException:
            self.con.close()
            raise
        self.max_contributions = max_contributions
        self.max_nodes = max_nodes
        self.stratum_of = {p: i for i, s in enumerate(self.a.strata) for p in s.preds}
        self.recursive = {p for s in self.a.strata if s.recursive for p in s.preds}
        self.rules = {p: [ri for s in self.a.strata for ri in s.rules if any(h.pred == p for h in ri.rule.head)]
                      for p in self.a.predicates}
        self._rows: dict[Path, list[tuple[int, tuple]]] = {}

    def _evaluate(self, program: A.Program, data_root, max_rounds: int, budget: Budget | None) -> None:
        from vadaorchestra.datalog.api import validate

        self.a = validate(program, data_root=data_root, connection=self.con)
        run = _RankingEngine(self.con, max_rounds=max_rounds, budget=budget).new_run(self.a, {}, 1)
        assert isinstance(run, _RankedRun)
        run.prepare(set(self.a.predicates))
        try:
            run.load()
            run.run_strata()
            for pred, table in run.tables.items():
                run.store.exec(f"CREATE TABLE main.{self._table(pred)} AS SELECT * FROM {table}")
        finally:
            run.cleanup()
        self.ranked = run.ranked
        for pred in self.ranked:  # every version a fact had (an aggregate's value before the last round, too)
            cols = ", ".join(f"c{i}" for i in range(self.a.predicates[pred].arity))
            self.con.execute(f"CREATE VIEW main.{self._table(pred, True)} AS SELECT * FROM main.{self._table(pred)} "
                             f"UNION SELECT {cols} FROM main.{S.quote_ident('r_' + pred)}")

    def close(self) -> None:
        self.con.close()

    # --- the public entry ---------------------------------------------------------------------------------------
    def explain(self, pred: str, values: Sequence[Any]) -> Node:
        """One derivation tree of ``pred(values)``; ``None`` in ``values`` matches any value (the first fact that
        matches is explained). Raises :class:`VadaError` for an unknown predicate or a wrong number or type of
        values, :class:`NotDerived` for a fact that does not hold."""
        info = self.a.predicates.get(pred)
        if info is None:
            known = ", ".join(sorted(p for p in self.a.predicates if not re.match(r"li\d+_|.*__(?:li|at)\d+$", p)))
            raise VadaError(f"unknown predicate {pred!r}; predicates: {known}")
        if len(values) != info.arity:
            raise VadaError(f"{pred} has {info.arity} column(s) ({', '.join(info.columns)}), got {len(values)} "
                            f"value(s)")
        for v, t, c in zip(values, info.types, info.columns, strict=True):
            if v is not None and not fits(v, t):
                raise VadaError(f"{pred}: column {c!r} is a {t}, got {v!r}")
        fact = self._find(pred, tuple(values), None, strict=False)
        if fact is None:
            shown = f"{pred}({', '.join('_' if v is None else _const(v) for v in values)})"
            raise NotDerived(f"not derived: {shown} does not hold (no fact of {pred!r} matches)")
        self._count = 0
        self._seen: set[tuple[str, tuple]] = set()
        return self._node(pred, fact)

    # --- derivations --------------------------------------------------------------------------------------------
    def _node(self, pred: str, fact: tuple) -> Node:
        key = (pred, fact)
        if key in self._seen:
            return Node(pred, fact, "seen", note="(explained above)")
        self._count += 1
        if self._count > self.max_nodes:
            return Node(pred, fact, "cut", note=f"(not expanded: the tree's limit of {self.max_nodes} facts)")
        self._seen.add(key)
        info = self.a.predicates[pred]
        if info.kind == "bind":
            return Node(pred, fact, "base", source=self._source(pred, fact))
        if fact in {tuple(f) for f in self.a.facts.get(pred, ())}:
            return Node(pred, fact, "fact", source=self._fact_line(pred, fact))
        rank = self._rank(pred, fact)
        for ri in self.rules.get(pred, ()):
            node = self._by_rule(ri, pred, fact, rank)
            if node is not None:
                return node
        return Node(pred, fact, "fact", note="(no rule derives it here: read from the database)")

    def _by_rule(self, ri: RuleInfo, pred: str, fact: tuple, rank: int | None) -> Node | None:
        head = next(h for h in ri.rule.head if h.pred == pred)
        bound: dict[str, Any] = {}
        for term, value in zip(head.args, fact, strict=True):
            match term:
                case A.Const(value=c) if not _equal(c, value):
                    return None
                case A.Var(name=name) if not term.anonymous:
                    if name in bound and not _equal(bound[name], value):
                        return None
                    bound[name] = value
        text = format_statement(ri.rule)
        same = self.a.strata[self.stratum_of[pred]].preds if pred in self.recursive else ()
        if ri.aggregate is not None:
            return self._aggregate(ri, pred, fact, bound, text, rank, same)
        wheres = [(n, v) for n, v in bound.items() if n in ri.body_vars]
        for binding in self._bindings(ri, wheres, distinct=False):
            facts = self._body_facts(ri, binding, rank, same, strict=True)
            if facts is None:
                continue
            node = Node(pred, fact, "rule", rule=text)
            node.children = [self._node(p, f) for p, f in facts] + self._negations(ri, binding)
            return node
        return None

    def _aggregate(self, ri: RuleInfo, pred: str, fact: tuple, bound: dict[str, Any], text: str,
                   rank: int | None, same: Sequence[str]) -> Node | None:
        var, agg = ri.aggregate
        wheres = [(g, bound[g]) for g in ri.group_vars if g in bound]
        contributions = []
        for binding in self._bindings(ri, wheres, distinct=True):
            facts = self._body_facts(ri, binding, rank, same, strict=False)
            if facts is not None:
                contributions.append((binding, facts))
        if not contributions:
            return None
        node = Node(pred, fact, "aggregate", rule=text)
        shown = contributions[: self.max_contributions]
        value = bound.get(var)
        node.note = (f"{agg.func} over {len(contributions)} binding(s)"
                     + (f" = {_const(value)}" if value is not None else "")
                     + (f"; the first {len(shown)} shown" if len(shown) < len(contributions) else ""))
        for binding, facts in shown:
            node.children += [self._node(p, f) for p, f in facts] + self._negations(ri, binding)
        return node

    def _bindings(self, ri: RuleInfo, wheres: list[tuple[str, Any]], *, distinct: bool):
        tables = [f"main.{self._table(a.pred, True)}" for a in ri.positives]
        negs = [f"main.{self._table(a.pred)}" for a in ri.negations]
        body, _env = S.bindings_sql(ri, tables, negs, distinct=distinct)
        cond = " AND ".join(f"b.{S.quote_ident('v_' + n)} = ?" for n, _ in wheres)
        sql = f"SELECT * FROM ({body}) AS b" + (f" WHERE {cond}" if cond else "") + " ORDER BY ALL"
        names = list(ri.body_vars)
        res = self.con.execute(sql, [v for _, v in wheres])
        while batch := res.fetchmany(1000):
            for row in batch:
                yield dict(zip(names, row, strict=False))

    def _body_facts(self, ri: RuleInfo, binding: dict[str, Any], rank: int | None, same: Sequence[str], *,
                    strict: bool) -> list[tuple[str, tuple]] | None:
        """The body facts of one binding (a wildcard column matched to a fact of the relation), or None when a fact
        of the same recursive stratum was derived too late to support this one."""
        out = []
        for atom in ri.positives:
            pattern = tuple(binding.get(t.name) if isinstance(t, A.Var) and not t.anonymous
                            else (t.value if isinstance(t, A.Const) else None) for t in atom.args)
            limit = None
            if rank is not None and atom.pred in same:
                limit = rank - 1 if strict else rank
            found = self._find(atom.pred, pattern, limit, strict=True)
            if found is None:
                return None
            out.append((atom.pred, found))
        return out

    def _negations(self, ri: RuleInfo, binding: dict[str, Any]) -> list[Node]:
        out = []
        for atom in ri.negations:
            values = tuple(binding.get(t.name) if isinstance(t, A.Var) and not t.anonymous
                           else (t.value if isinstance(t, A.Const) else None) for t in atom.args)
            shown = f"not {atom.pred}({', '.join('_' if v is None else _const(v) for v in values)})"
            out.append(Node(atom.pred, values, "negation", note=f"no fact matches {shown}"))
        return out

    def rows(self, pred: str, limit: int) -> list[tuple]:
        """The first ``limit`` facts of ``pred`` at the fixpoint, sorted."""
        return [tuple(r) for r in
                self.con.execute(f"SELECT * FROM main.{self._table(pred)} ORDER BY ALL LIMIT {int(limit)}").fetchall()]

    # --- lookups ------------------------------------------------------------------------------------------------
    def _table(self, pred: str, versions: bool = False) -> str:
        """The relation of ``pred`` at the fixpoint, or with ``versions`` every fact it held in some round."""
        return S.quote_ident(("a_" if versions and pred in self.ranked else "x_") + pred)

    def _find(self, pred: str, pattern: tuple, rank_limit: int | None, *, strict: bool) -> tuple | None:
        """A fact of ``pred`` matching ``pattern`` (None: any value; floats within 1e-9 relative unless ``strict``),
        of rank at most ``rank_limit`` when given."""
        conds, params = [], []
        info = self.a.predicates[pred]
        for i, v in enumerate(pattern):
            if v is None:
                continue
            if not strict and info.types[i] == "float" and isinstance(v, int | float) and not isinstance(v, bool):
                conds.append(f"abs(t.c{i} - ?) <= 1e-9 * greatest(abs(t.c{i}), abs(?))")
                params += [float(v), float(v)]
            else:
                conds.append(f"t.c{i} = ?")
                params.append(v)
        source = f"main.{self._table(pred, rank_limit is not None)} AS t"
        if rank_limit is not None and pred in self.ranked:
            cols = " AND ".join(f"r.c{i} = t.c{i}" for i in range(info.arity)) or "TRUE"
            ranks = f"main.{S.quote_ident('r_' + pred)}"
            conds.append(f"(EXISTS (SELECT 1 FROM {ranks} AS r WHERE {cols} AND r.r <= {int(rank_limit)}) "
                         f"OR NOT EXISTS (SELECT 1 FROM {ranks} AS r WHERE {cols}))")
        sql = f"SELECT t.* FROM {source}" + (f" WHERE {' AND '.join(conds)}" if conds else "") + " ORDER BY ALL LIMIT 1"
        row = self.con.execute(sql, params).fetchone()
        return tuple(row) if row is not None else None

    def _rank(self, pred: str, fact: tuple) -> int | None:
        if pred not in self.ranked:
            return None
        cols = " AND ".join(f"c{i} = ?" for i in range(len(fact))) or "TRUE"
        row = self.con.execute(f"SELECT min(r) FROM main.{S.quote_ident('r_' + pred)} WHERE {cols}",
                               list(fact)).fetchone()
        return row[0] if row and row[0] is not None else None

    def _source(self, pred: str, fact: tuple) -> dict[str, Any]:
        bind = next(b for b in self.a.binds if b.pred == pred)
        out: dict[str, Any] = {"file": bind.path.name}
        if bind.kind != "csv":
            return out
        types = self.a.predicates[pred].types
        if bind.path not in self._rows:
            with bind.path.open(newline="", encoding="utf-8") as fh:
                reader = csv.reader(fh)
                next(reader, None)
                self._rows[bind.path] = [(n, tuple(r)) for n, r in enumerate(reader, start=2)]
        for line, row in self._rows[bind.path]:
            if len(row) == len(fact) and all(_cell(c, t) == v for c, t, v in zip(row, types, fact, strict=True)):
                out["line"] = line
                out["row"] = list(row)
                return out
        return out

    def _fact_line(self, pred: str, fact: tuple) -> dict[str, Any] | None:
        for s in self.a.program.statements:
            if isinstance(s, A.FactBlock) and s.pred == pred:
                i = next((i for i, row in enumerate(s.rows) if row == fact), None)
                if i is not None:
                    return {"line": s.span_of(i).line}
            elif isinstance(s, A.Fact) and s.atom.pred == pred and s.span is not None \
                    and tuple(a.value for a in s.atom.args) == fact:
                return {"line": s.span.line}
        return None


def _cell(text: str, typ: str) -> Any:
    try:
        match typ:
            case "float":
                return float(text)
            case "int":
                return int(text)
            case "bool":
                return text.strip().lower() in ("true", "1", "t")
    except ValueError:
        return None
    return text


def _equal(a: Any, b: Any) -> bool:
    """Equal values of one column: a bool is never equal to the number 1 or 0."""
    return a == b and isinstance(a, bool) == isinstance(b, bool)


def _const(value: Any) -> str:
    if value is None:
        return "_"
    try:
        return format_const(value)
    except (TypeError, ValueError):
        return str(value)


def parse_fact(text: str) -> tuple[str, tuple]:
    """``pred("a", 1.5, _)`` as (pred, values), ``_`` as None. Raises :class:`VadaError` saying what is wrong."""
    from vadaorchestra.datalog.api import parse

    src = text.strip().removesuffix(".")
    hint = 'write it as pred("text", 1.5, _)'
    try:
        stmt = parse(f"explain__(1) :- {src}.").statements[0]  # read as a body atom: "_" is allowed there
    except VadaError as exc:
        raise VadaError(f"not a fact: {text!r} ({hint}): {str(exc).splitlines()[0]}") from None
    if not isinstance(stmt, A.Rule) or len(stmt.body) != 1 or not isinstance(stmt.body[0], A.Atom):
        raise VadaError(f"not a fact: {text!r} ({hint})")
    values = []
    for t in stmt.body[0].args:
        if isinstance(t, A.Const):
            values.append(t.value)
        elif isinstance(t, A.Var) and t.anonymous:
            values.append(None)
        else:
            raise VadaError(f"not a fact: {text!r}: {getattr(t, 'name', t)} is neither a constant nor _ ({hint})")
    return stmt.body[0].pred, tuple(values)
