"""Validation and analysis: everything an engine needs to know, computed from the program, never stored in it.

:func:`analyze` collects *every* diagnostic of a program before it raises (arity, safety, stratification, types,
annotations, bindings) and otherwise returns an :class:`Analysis`: predicate schemas, strata in evaluation order and
each rule in a normalized form (positive atoms, negations, conditions, ordered assignments, the aggregate, existential
variables and the frontier).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from vadaorchestra.datalog import ast as A
from vadaorchestra.datalog.parser import fact_term_span
from vadaorchestra.datalog.types import FUNCTIONS, NUMERIC, TYPES, ColType, TypeClash, comparable, join, type_of_value
from vadaorchestra.errors import Diagnostic, Span, ValidationError

ANNOTATIONS = {"input": 1, "output": 1, "bind": 4, "mapping": 4, "tool": 2, "param": 3, "role": 3, "label": 3, "unit": 3}
BIND_KINDS = ("csv", "parquet", "duckdb")
NULL_PATTERN = re.compile(r"_:n[0-9]+")


@dataclass(frozen=True, slots=True)
class Bind:
    pred: str
    kind: str
    path: Path
    table: str | None
    span: Span | None


@dataclass(frozen=True, slots=True)
class PredInfo:
    name: str
    arity: int
    types: tuple[ColType, ...]
    columns: tuple[str, ...]
    kind: str  # "idb" (has rules), "facts" (only facts), "bind", "input", "external"


@dataclass(frozen=True, slots=True)
class RuleInfo:
    """A rule in the normalized form the compilers consume."""

    rule: A.Rule
    index: int
    positives: tuple[A.Atom, ...]
    negations: tuple[A.Atom, ...]
    conditions: tuple[A.Comparison, ...]
    assignments: tuple[tuple[str, A.Expr], ...]  # in dependency order, before any aggregation
    aggregate: tuple[str, A.Aggregate] | None
    post_conditions: tuple[A.Comparison, ...]
    post_assignments: tuple[tuple[str, A.Expr], ...]
    group_vars: tuple[str, ...]
    existentials: tuple[str, ...]
    frontier: tuple[str, ...]
    var_types: Mapping[str, ColType | None]

    @property
    def span(self) -> Span | None:
        return self.rule.span

    @property
    def body_vars(self) -> tuple[str, ...]:
        """Variables bound before aggregation, in first-occurrence order (the 'bindings' aggregates range over)."""
        seen: dict[str, None] = {}
        for atom in self.positives:
            for t in atom.args:
                if isinstance(t, A.Var) and not t.anonymous:
                    seen.setdefault(t.name)
        for name, _ in self.assignments:
            seen.setdefault(name)
        return tuple(seen)


@dataclass(frozen=True, slots=True)
class Stratum:
    preds: tuple[str, ...]
    rules: tuple[RuleInfo, ...]
    recursive: bool


@dataclass(frozen=True, slots=True)
class Analysis:
    program: A.Program
    predicates: Mapping[str, PredInfo]
    strata: tuple[Stratum, ...]
    constraints: tuple[RuleInfo, ...]
    facts: Mapping[str, tuple[tuple[object, ...], ...]]
    binds: tuple[Bind, ...]
    outputs: tuple[str, ...]
    inputs: tuple[str, ...]
    tool: tuple[str, str] | None = None
    params: tuple[tuple[str, ColType, str], ...] = ()
    warnings: tuple[Diagnostic, ...] = field(default=())

    @property
    def defined(self) -> frozenset[str]:
        """Predicates the program itself defines (facts or rule heads)."""
        return frozenset(p for p, i in self.predicates.items() if i.kind in ("idb", "facts"))


def analyze(
    program: A.Program,
    *,
    externals: Mapping[str, tuple[ColType, ...]] | None = None,
    external_columns: Mapping[str, tuple[str, ...]] | None = None,
    data_root: str | Path | None = None,
    bind_schemas: Mapping[str, tuple[ColType, ...]] | None = None,
    synthesized: bool = False,
    allow_params: bool = False,
) -> Analysis:
    """Validate ``program`` and compute its analysis, or raise :class:`ValidationError` listing every problem.

    ``externals`` are predicates that exist outside the program (tables of the target database, other tools' outputs)
    with their column types. ``synthesized`` applies the restrictions on rules written at run time: no ``@bind``,
    ``@input``, ``@tool`` or ``@param``, and no rule or fact for a predicate that already exists. ``allow_params`` lets
    ``$name`` terms stand (catalog tool programs before their parameters are bound).
    """
    v = _Validator(program, externals or {}, external_columns or {}, data_root, bind_schemas or {}, synthesized,
                   allow_params)
    for check in (v.annotations, v.definitions, v.arities, v.reserved_strings, v.parameters, v.sources, v.data_types,
                  v.rules, v.aggregate_heads, v.types, v.strata):
        check()  # each pass adds its diagnostics; the first problem does not hide the others
    return v.analysis()


class _Validator:
    def __init__(self, program, externals, external_columns, data_root, bind_schemas, synthesized, allow_params):
        self.p: A.Program = program
        self.externals = dict(externals)
        self.external_columns = dict(external_columns)
        self.data_root = Path(data_root).resolve() if data_root is not None else None
        self.bind_schemas = bind_schemas
        self.synthesized = synthesized
        self.allow_params = allow_params
        self.diags: list[Diagnostic] = []
        self.arity: dict[str, tuple[int, Span | None]] = {}
        self.col_type: dict[tuple[str, int], tuple[ColType, Span | None]] = {}
        self.col_name: dict[tuple[str, int], str] = {}

    def error(self, span: Span | None, message: str, notes=()) -> None:
        d = Diagnostic(span, message, "error", tuple(notes))
        if d not in self.diags:
            self.diags.append(d)

    # --- the passes, in the order analyze() runs them ------------------------------------------------------------
    def annotations(self) -> None:
        """@input, @output, @bind, @mapping, @tool, @param, @role: their shapes, and the files bindings name."""
        self.declared_params: dict[str, tuple[ColType, str, Span | None]] = {}
        self.tool: tuple[str, str] | None = None
        self.failed_binds: set[str] = set()
        self.inputs, self.outputs, self.binds = self._annotations()

    def definitions(self) -> None:
        """Which predicates rules and facts define, and that none of them is base data (or, in a synthesized
        program, an existing predicate)."""
        self.heads: dict[str, list[A.Rule]] = {}
        self.fact_rows: dict[str, list[tuple]] = {}
        for stmt in self.p.statements:
            match stmt:
                case A.Rule(head=head):
                    for h in head:
                        self.heads.setdefault(h.pred, []).append(stmt)
                case A.Fact(atom=atom):
                    self.fact_rows.setdefault(atom.pred, [])
                case A.FactBlock(pred=pred):
                    self.fact_rows.setdefault(pred, [])
        self.bound_preds = {b.pred for b in self.binds}
        for name in list(self.heads) + list(self.fact_rows):
            first = (self.heads.get(name) or [None])[0]
            span = first.span if first else self._fact_span(name)
            if name in self.bound_preds or name in self.inputs:
                self.error(span, f"predicate {name!r} is base data (@bind/@input) and may not be defined by rules or "
                           "facts")
            if self.synthesized and name in self.externals:
                self.error(span, f"predicate {name!r} already exists; a synthesized program may only define new "
                           "predicates")

    def arities(self) -> None:
        """Every predicate used with one arity, bound sources included."""
        self._arities(self.binds)
        self._bound_columns(self.binds)

    def reserved_strings(self) -> None:
        """No string constant that looks like a labelled null."""
        self._reserved_strings()

    def parameters(self) -> None:
        """``$name`` terms: declared with @param (catalog tools), else refused."""
        self._check_params(set())

    def sources(self) -> None:
        """Every predicate read comes from somewhere: a rule, a fact, a binding, an input or an existing predicate."""
        self.external = {n for n in self.externals if n not in self.heads and n not in self.fact_rows}
        known = (set(self.heads) | set(self.fact_rows) | self.bound_preds | set(self.inputs) | self.external
                 | self.failed_binds)
        for lit, span in self._all_body_atoms():
            if lit.pred not in known:
                self.error(span, f"predicate {lit.pred!r} is not defined: no rule, fact, @bind or @input gives it"
                           + (" and it is no existing predicate" if self.externals or self.synthesized else ""))
        for name, span in self.outputs:
            if name not in known:
                self.error(span, f"@output predicate {name!r} is not defined by any rule, fact or binding")

    def data_types(self) -> None:
        """Column types from existing predicates, bound data and facts; the facts' rows."""
        for name, types in self.externals.items():
            for i, t in enumerate(types):
                self._set_col(name, i, t, None, f"existing predicate {name!r}")
        for name, types in self.bind_schemas.items():
            for i, t in enumerate(types):
                self._set_col(name, i, t, None, f"data bound to {name!r}")
        for stmt in self.p.statements:
            if isinstance(stmt, A.FactBlock):
                self._block_types(stmt)
                self.fact_rows[stmt.pred].extend(stmt.rows)
            elif isinstance(stmt, A.Fact):
                row = []
                for i, t in enumerate(stmt.atom.args):
                    if isinstance(t, A.Const):
                        self._set_col(stmt.atom.pred, i, type_of_value(t.value), t.span or (stmt, i))
                        row.append(t.value)
                    elif isinstance(t, A.Param):
                        self._set_col(stmt.atom.pred, i, self._param_type(t.name), t.span or stmt.span)
                        row.append(t)
                    else:
                        self.error(t.span or stmt.span,
                                   f"fact {stmt.atom.pred!r} has variable {t.name!r}; facts must be ground")
                self.fact_rows[stmt.atom.pred].append(tuple(row))

    def rules(self) -> None:
        """Each rule and constraint normalized (safety, assignments in order, the aggregate, existentials)."""
        self.rule_infos = [self._normalize(i, r) for i, r in enumerate(self.p.statements) if isinstance(r, A.Rule)]
        self.constraint_infos = [self._normalize(i, A.Rule((), c.body, span=c.span))
                                 for i, c in enumerate(self.p.statements) if isinstance(c, A.Constraint)]

    def aggregate_heads(self) -> None:
        """A predicate an aggregate defines has no other rule, and its head is well formed."""
        self._check_aggregate_heads(self.rule_infos, self.heads)

    def types(self) -> None:
        """Column and variable types inferred to a fixpoint; clashes reported where they arise."""
        self._infer_types(self.rule_infos + self.constraint_infos)

    def strata(self) -> None:
        """Strata in evaluation order; negation and aggregation through recursion refused (with the cycle)."""
        self.strata_found = self._stratify(self.rule_infos, self.heads)

    # --- the result ---------------------------------------------------------------------------------------------
    def analysis(self) -> Analysis:
        """The analysis the passes computed, or :class:`ValidationError` with every problem they found."""
        p = self.p
        if self.diags:
            raise ValidationError(f"{len(self.diags)} problem(s) in {p.source}", self.diags, p.text)
        predicates: dict[str, PredInfo] = {}
        for name in sorted(set(self.arity) | set(self.externals)):
            n = self.arity[name][0] if name in self.arity else len(self.externals[name])
            types = tuple(self.col_type.get((name, i), ("string", None))[0] for i in range(n))
            cols = tuple(self.col_name.get((name, i)) or (self.external_columns.get(name, ()) + (None,) * n)[i] or f"c{i}"
                         for i in range(n))
            if name in self.heads:
                kind = "idb"
            elif name in self.fact_rows:
                kind = "facts"
            elif name in self.bound_preds:
                kind = "bind"
            elif name in self.inputs:
                kind = "input"
            else:
                kind = "external"
            predicates[name] = PredInfo(name, n, types, cols, kind)
        final_rules = {ri.index: self._finish_types(ri, predicates) for ri in self.rule_infos}
        strata = tuple(Stratum(s.preds, tuple(final_rules[r.index] for r in s.rules), s.recursive)
                       for s in self.strata_found)
        return Analysis(
            program=p,
            predicates=predicates,
            strata=strata,
            constraints=tuple(self._finish_types(ri, predicates) for ri in self.constraint_infos),
            facts={k: tuple(v) for k, v in self.fact_rows.items()},
            binds=tuple(self.binds),
            outputs=tuple(n for n, _ in self.outputs),
            inputs=tuple(self.inputs),
            tool=self.tool,
            params=tuple((n, t, d) for n, (t, d, _) in self.declared_params.items()),
        )

    # --- annotations ------------------------------------------------------------------------------------------------
    def _annotations(self):
        inputs: list[str] = []
        outputs: list[tuple[str, Span | None]] = []
        binds: list[Bind] = []
        for ann in self.p.annotations():
            expected = ANNOTATIONS.get(ann.name)
            if expected is None:
                self.error(ann.span, f"unknown annotation @{ann.name} (known: {', '.join('@' + a for a in ANNOTATIONS)})")
                continue
            if ann.name == "bind" and len(ann.args) == 3:
                pass  # @bind("p","duckdb","file.db") reads table p
            elif len(ann.args) != expected:
                self.error(ann.span, f"@{ann.name} takes {expected} arguments, got {len(ann.args)}")
                continue
            if self.synthesized and ann.name in ("bind", "input", "tool", "param", "role", "label", "unit"):
                self.error(ann.span, f"@{ann.name} is not allowed in a synthesized program: it may only read existing predicates")
                continue
            vals = [a.value for a in ann.args]
            str_positions = {"input": (0,), "output": (0,), "bind": (0, 1, 2, 3), "mapping": (0, 2, 3), "tool": (0, 1),
                             "param": (0, 1, 2), "role": (0, 1, 2), "label": (0, 1, 2),
                             "unit": (0, 1, 2)}[ann.name]
            bad = [i for i in str_positions if i < len(vals) and not isinstance(vals[i], str)]
            if bad or (ann.name == "mapping" and (not isinstance(vals[1], int) or isinstance(vals[1], bool))):
                self.error(ann.span, f"@{ann.name} has an argument of the wrong type (see LANGUAGE.md, Annotations)")
                continue
            match ann.name:
                case "input":
                    inputs.append(vals[0])
                case "output":
                    outputs.append((vals[0], ann.span))
                case "mapping":
                    pred, idx, col, typ = vals
                    if typ not in TYPES:
                        self.error(ann.span, f"unknown type {typ!r} in @mapping (types: {', '.join(TYPES)})")
                        continue
                    if idx < 0:
                        self.error(ann.span, f"column index {idx} in @mapping must be >= 0")
                        continue
                    if (pred, idx) in self.col_name:
                        self.error(ann.span, f"column {idx} of {pred!r} is mapped twice")
                    self.col_name[(pred, idx)] = col
                    self._set_col(pred, idx, typ, ann.span, f"@mapping of {pred!r}")
                case "bind":
                    bind = self._bind(ann, vals)
                    if bind is not None:
                        binds.append(bind)
                case "tool":
                    if self.tool is not None:
                        self.error(ann.span, "only one @tool annotation is allowed per program")
                    self.tool = (vals[0], vals[1])
                case "param":
                    name, typ, desc = vals
                    if typ not in TYPES:
                        self.error(ann.span, f"unknown type {typ!r} for parameter {name!r} (types: {', '.join(TYPES)})")
                        continue
                    if name in self.declared_params:
                        self.error(ann.span, f"parameter {name!r} is declared twice")
                    self.declared_params[name] = (typ, desc, ann.span)
        return inputs, outputs, binds

    def _bind(self, ann: A.Annotation, vals: list) -> Bind | None:
        bind = resolve_bind(ann, self.data_root)
        if isinstance(bind, str):
            self.error(ann.span, bind)
            self.failed_binds.add(vals[0])  # reported once, here; its readers are not 'undefined'
            return None
        return bind

    # --- arities and parameters ------------------------------------------------------------------------------------
    def _all_atoms(self):
        """(predicate, arity, span) of every atom; a block of facts counts once."""
        for stmt in self.p.statements:
            match stmt:
                case A.FactBlock(pred=pred, arity=arity):
                    yield pred, arity, stmt.span
                case A.Fact(atom=atom):
                    yield atom.pred, atom.arity, atom.span or stmt.span
                case A.Rule(head=head, body=body):
                    for h in head:
                        yield h.pred, h.arity, h.span or stmt.span
                    for lit in body:
                        if isinstance(lit, A.Atom):
                            yield lit.pred, lit.arity, lit.span or stmt.span
                        elif isinstance(lit, A.Negation):
                            yield lit.atom.pred, lit.atom.arity, lit.atom.span or lit.span or stmt.span
                case A.Constraint(body=body):
                    for lit in body:
                        if isinstance(lit, A.Atom):
                            yield lit.pred, lit.arity, lit.span or stmt.span
                        elif isinstance(lit, A.Negation):
                            yield lit.atom.pred, lit.atom.arity, lit.atom.span or lit.span or stmt.span

    def _all_body_atoms(self):
        for stmt in self.p.statements:
            if isinstance(stmt, (A.Rule, A.Constraint)):
                for lit in stmt.body:
                    atom = lit.atom if isinstance(lit, A.Negation) else lit
                    if isinstance(atom, A.Atom):
                        yield atom, atom.span or stmt.span

    def _fact_span(self, pred: str) -> Span | None:
        return next((s.span for s in self.p.statements if isinstance(s, A.FactBlock) and s.pred == pred
                     or isinstance(s, A.Fact) and s.atom.pred == pred), None)

    def _arities(self, binds: list[Bind]) -> None:
        lower: dict[str, tuple[str, Span | None]] = {}
        for name, types in self.externals.items():
            self.arity[name] = (len(types), None)
        for pred, arity, span in self._all_atoms():
            key = pred.lower()
            if key in lower and lower[key][0] != pred:
                self.error(span, f"predicate {pred!r} differs from {lower[key][0]!r} only in letter case",
                           [(lower[key][1], f"{lower[key][0]!r} is used here")])
            lower.setdefault(key, (pred, span))
            if pred in self.arity:
                n, first = self.arity[pred]
                if n != arity:
                    where = f"used with {n} argument(s)" + ("" if first else " in the existing data")
                    self.error(span, f"arity mismatch: {pred!r} has {arity} argument(s) here but is {where}",
                               [(first, f"{pred!r} with {n} argument(s)")] if first else [])
            else:
                self.arity[pred] = (arity, span)
        for (pred, idx), _ in list(self.col_type.items()):
            if pred in self.arity and idx >= self.arity[pred][0]:
                self.error(None, f"@mapping column {idx} of {pred!r} is out of range (arity {self.arity[pred][0]})")

    def _bound_columns(self, binds: list[Bind]) -> None:
        """A CSV file whose header has another number of columns than the atoms reading it have arguments is an error
        at its @bind, found when the program is checked rather than when it first runs."""
        for b in binds:
            if b.kind != "csv" or b.pred not in self.arity or not b.path.is_file():
                continue
            header = csv_header(b.path)
            n, first = self.arity[b.pred]
            if header is not None and len(header) != n:
                self.error(b.span, f"{b.path.name!r} has {len(header)} column(s) ({', '.join(header)}) but "
                                   f"{b.pred!r} is read with {n} argument(s)",
                           [(first, f"{b.pred!r} with {n} argument(s)")] if first else [])

    def _reserved_strings(self) -> None:
        """Labelled nulls are the strings ``_:n<number>``; a program may not spell one, so a null equals only itself."""
        unspelled = self.p.text is not None and "_:n" not in self.p.text  # then no block's fact spells one
        for stmt in self.p.statements:
            if isinstance(stmt, A.Annotation):
                continue
            if isinstance(stmt, A.FactBlock):
                if unspelled:
                    continue
                for i, row in enumerate(stmt.rows):
                    for j, v in enumerate(row):
                        if type(v) is str and v[:3] == "_:n" and NULL_PATTERN.fullmatch(v):
                            self._reserved(v, self._fact_term_span(stmt, i, j))
                continue
            for const in _consts_of(stmt):
                if isinstance(const.value, str) and NULL_PATTERN.fullmatch(const.value):
                    where = const.span
                    if where is None and isinstance(stmt, A.Fact):
                        where = self._fact_term_span(stmt, next(i for i, a in enumerate(stmt.atom.args) if a is const))
                    self._reserved(const.value, where or stmt.span)

    def _reserved(self, value: str, where: Span | None) -> None:
        self.error(where, f"the string {value!r} is reserved: labelled nulls are written _:n<number> and a program "
                   "may not spell one")

    def _check_params(self, used: set[str]) -> None:
        for stmt in self.p.statements:
            for term in _params_of(stmt):
                used.add(term.name)
                if not self.allow_params:
                    self.error(term.span, f"parameter ${term.name} is not bound to a value")
                elif term.name not in self.declared_params:
                    self.error(term.span, f"parameter ${term.name} is not declared with @param")
        if self.allow_params:
            for name, (_, _, span) in self.declared_params.items():
                if name not in used:
                    self.error(span, f"parameter {name!r} is declared but never used")

    # --- rules: safety and normal form ----------------------------------------------------------------------------
    def _normalize(self, index: int, rule: A.Rule) -> RuleInfo:
        positives = [lit for lit in rule.body if isinstance(lit, A.Atom)]
        negations = [lit.atom for lit in rule.body if isinstance(lit, A.Negation)]
        atom_bound: set[str] = {t.name for a in positives for t in a.args if isinstance(t, A.Var) and not t.anonymous}
        conditions: list[A.Comparison] = [lit for lit in rule.body if isinstance(lit, A.Comparison)]
        pending = [lit for lit in rule.body if isinstance(lit, A.Assignment)]
        aggregate: tuple[str, A.Aggregate] | None = None
        aggs = [a for a in pending if isinstance(a.value, A.Aggregate)]
        if len(aggs) > 1:
            self.error(aggs[1].span or rule.span, "more than one aggregate in a rule; split it into two rules",
                       [(aggs[0].span, "first aggregate")])
        if aggs:
            agg_lit = aggs[0]
            pending = [a for a in pending if a is not agg_lit and not isinstance(a.value, A.Aggregate)]
            if agg_lit.var.name in atom_bound:
                self.error(agg_lit.span, f"aggregate result {agg_lit.var.name!r} is already bound in the body")
            aggregate = (agg_lit.var.name, agg_lit.value)

        # order assignments: a variable bound by an atom turns 'V = e' into a comparison; so does the aggregate's
        # result, whose 'S = e' literals are conditions checked after aggregation
        agg_names = {a.var.name for a in aggs}
        bound = set(atom_bound)
        ordered: list[tuple[str, A.Expr]] = []
        progress = True
        while pending and progress:
            progress = False
            for lit in list(pending):
                name = lit.var.name
                rhs_vars = {v.name for v in A.expr_vars(lit.value) if not v.anonymous}
                if name in agg_names:
                    continue
                if name in bound:
                    if rhs_vars <= bound:
                        conditions.append(A.Comparison("=", lit.var, lit.value, lit.span))
                        pending.remove(lit)
                        progress = True
                elif rhs_vars <= bound:
                    ordered.append((name, lit.value))
                    bound.add(name)
                    pending.remove(lit)
                    progress = True
        pre_bound = set(bound)

        post_conditions: list[A.Comparison] = []
        post_assignments: list[tuple[str, A.Expr]] = []
        group_vars: list[str] = []
        head_vars = [t.name for h in rule.head for t in h.args if isinstance(t, A.Var)]
        if aggregate is not None:
            agg_var, agg = aggregate
            for v in A.expr_vars(agg):
                if v.anonymous:
                    self.error(v.span or agg.span, "anonymous variable '_' in an aggregate")
                elif v.name not in pre_bound:
                    self.error(v.span or agg.span, f"unsafe variable {v.name!r} in aggregate: bind it in a positive atom")
            if agg_var not in head_vars:
                self.error(agg.span or rule.span, f"aggregate result {agg_var!r} does not appear in the head")
            post_bound = {agg_var}
            # conditions and assignments that read the aggregate result are applied after aggregation
            for cond in list(conditions):
                if {v.name for v in A.expr_vars(cond.left) + A.expr_vars(cond.right)} & {agg_var}:
                    conditions.remove(cond)
                    post_conditions.append(cond)
            progress = True
            while pending and progress:
                progress = False
                for lit in list(pending):
                    rhs = {v.name for v in A.expr_vars(lit.value)}
                    if rhs <= pre_bound | post_bound and (rhs & post_bound or lit.var.name in post_bound):
                        if lit.var.name in pre_bound | post_bound:
                            post_conditions.append(A.Comparison("=", lit.var, lit.value, lit.span))
                        else:
                            post_assignments.append((lit.var.name, lit.value))
                            post_bound.add(lit.var.name)
                        pending.remove(lit)
                        progress = True
            for cond in list(conditions):
                names = {v.name for v in A.expr_vars(cond.left) + A.expr_vars(cond.right)}
                if names & post_bound:
                    conditions.remove(cond)
                    post_conditions.append(cond)
            group_vars = [v for v in dict.fromkeys(head_vars) if v not in post_bound]
            used_after = [v for c in post_conditions for v in A.expr_vars(c.left) + A.expr_vars(c.right)]
            used_after += [v for _, e in post_assignments for v in A.expr_vars(e)]
            for v in used_after:
                if v.name in pre_bound and v.name not in group_vars:
                    self.error(v.span or rule.span, f"variable {v.name!r} is aggregated away by {agg.func!r}; after "
                               "the aggregate only the head's group variables and the result can be used")
            bound = pre_bound | post_bound

        for lit in pending:
            unbound = sorted({v.name for v in A.expr_vars(lit.value)} - bound)
            self.error(lit.span or rule.span, f"unsafe variable(s) {', '.join(map(repr, unbound))} in assignment to "
                       f"{lit.var.name!r}: bind them in a positive atom")
        for cond in conditions + post_conditions:
            for v in A.expr_vars(cond.left) + A.expr_vars(cond.right):
                if v.anonymous:
                    self.error(v.span or cond.span, "anonymous variable '_' in a condition")
                elif v.name not in bound:
                    self.error(v.span or cond.span, f"unsafe variable {v.name!r} in condition: bind it in a positive atom")
        for atom in negations:
            for t in atom.args:
                if isinstance(t, A.Var) and not t.anonymous and t.name not in pre_bound:
                    self.error(t.span or atom.span, f"unsafe variable {t.name!r} in negated atom {atom.pred!r}: "
                               "bind it in a positive atom (use '_' for a don't-care)")
        not_existential = agg_names | {v.name for c in conditions + post_conditions
                                       for v in A.expr_vars(c.left) + A.expr_vars(c.right)}
        not_existential |= {t.name for a in negations for t in a.args if isinstance(t, A.Var)}
        not_existential |= {v.name for lit in pending for v in [lit.var, *A.expr_vars(lit.value)]}
        existentials: list[str] = []
        frontier: list[str] = []
        for h in rule.head:
            for t in h.args:
                if isinstance(t, A.Var):
                    if t.anonymous:
                        self.error(t.span or h.span, f"anonymous variable '_' in the head of {h.pred!r}")
                    elif t.name in bound:
                        if t.name not in frontier:
                            frontier.append(t.name)
                    elif t.name in not_existential:
                        if t.name not in agg_names and not any(d.message.startswith(f"unsafe variable {t.name!r}") for d in self.diags):
                            self.error(t.span or h.span, f"unsafe variable {t.name!r} in the head of {h.pred!r}: "
                                       "bind it in a positive atom")
                    elif t.name not in existentials:
                        existentials.append(t.name)
        if existentials and aggregate is not None:
            self.error(rule.span, f"existential variable(s) {', '.join(existentials)} in a rule with an aggregate")
        for _name, expr in ordered + post_assignments:
            self._check_calls(expr)
        for cond in conditions + post_conditions:
            self._check_calls(cond.left)
            self._check_calls(cond.right)
        if aggregate is not None and aggregate[1].expr is not None:
            self._check_calls(aggregate[1].expr)
        return RuleInfo(rule, index, tuple(positives), tuple(negations), tuple(conditions), tuple(ordered), aggregate,
                        tuple(post_conditions), tuple(post_assignments), tuple(group_vars), tuple(existentials),
                        tuple(frontier), {})

    def _check_calls(self, expr) -> None:
        match expr:
            case A.Call(func=func, args=args, span=span):
                sig = FUNCTIONS.get(func)
                if sig is None:
                    self.error(span, f"unknown function {func!r} (functions: {', '.join(sorted(FUNCTIONS))})")
                elif len(args) not in sig[0]:
                    self.error(span, f"function {func!r} takes {' or '.join(map(str, sig[0][:2]))}"
                               f"{'..' + str(sig[0][-1]) if len(sig[0]) > 2 else ''} argument(s), got {len(args)}")
                for a in args:
                    self._check_calls(a)
            case A.BinOp(left=left, right=right):
                self._check_calls(left)
                self._check_calls(right)
            case A.Neg(operand=operand):
                self._check_calls(operand)

    def _check_aggregate_heads(self, rules: list[RuleInfo], heads: dict[str, list[A.Rule]]) -> None:
        for ri in rules:
            if ri.aggregate is None:
                continue
            if len(ri.rule.head) > 1:
                self.error(ri.span, "a rule with an aggregate must have a single head atom")
            for h in ri.rule.head:
                others = [r for r in heads.get(h.pred, []) if r is not ri.rule]
                if others:
                    self.error(others[0].span, f"predicate {h.pred!r} is defined by an aggregate rule and may have no "
                               "other rule", [(ri.span, "aggregate rule")])

    # --- types --------------------------------------------------------------------------------------------------------
    def _fact_term_span(self, stmt: A.Fact | A.FactBlock, i: int, j: int | None = None) -> Span | None:
        """The span of argument ``i`` of a fact, or of argument ``j`` of the ``i``-th fact of a block."""
        if isinstance(stmt, A.FactBlock):
            return stmt.term_span(self.p.text, i, j or 0) if self.p.text else stmt.span_of(i)
        return fact_term_span(self.p.text or "", stmt, i)

    def _block_types(self, block: A.FactBlock) -> None:
        """Column types from a block's values: one check per distinct value type of a column, at its first fact."""
        for j in range(block.arity):
            kinds = set(map(type, (row[j] for row in block.rows)))
            firsts = sorted(next(i for i, row in enumerate(block.rows) if type(row[j]) is t) for t in kinds)
            for i in firsts:  # each value type at its first fact, in the order of the text
                self._set_col(block.pred, j, type_of_value(block.rows[i][j]), (block, i, j))

    def _set_col(self, pred: str, idx: int, typ: ColType | None, span, origin: str | None = None) -> bool:
        """``span``: a Span, None, or (fact, argument index) / (block, fact index, argument index), whose span is
        found only when it is kept or reported."""
        if typ is None:
            return False
        old = self.col_type.get((pred, idx))
        if old is None:
            self.col_type[(pred, idx)] = (typ, self._fact_term_span(*span) if isinstance(span, tuple) else span)
            return True
        try:
            new = join(old[0], typ)
        except TypeClash:
            span = self._fact_term_span(*span) if isinstance(span, tuple) else span
            self.error(span, f"type conflict: column {idx} of {pred!r} gets {_a(typ)} here but is {_a(old[0])}"
                       + (f" ({origin})" if origin and span is None else ""),
                       [(old[1], f"{old[0]} comes from here")] if old[1] else [])
            return False
        if new != old[0]:
            self.col_type[(pred, idx)] = (new, old[1])
            return True
        return False

    def _param_type(self, name: str) -> ColType | None:
        declared = self.declared_params.get(name)
        return declared[0] if declared else None

    def _expr_type(self, expr, env: dict[str, ColType | None], span: Span | None) -> ColType | None:
        match expr:
            case A.Var(name=name):
                return env.get(name)
            case A.Const(value=value):
                return type_of_value(value)
            case A.Param(name=name):
                return self._param_type(name)
            case A.Neg(operand=operand):
                t = self._expr_type(operand, env, span)
                if t is not None and t not in NUMERIC:
                    self.error(expr.span or span, f"cannot negate {_a(t)}")
                    return None
                return t
            case A.BinOp(op=op, left=left, right=right):
                lt, rt = self._expr_type(left, env, span), self._expr_type(right, env, span)
                if op == "+" and lt == "string" and rt == "string":
                    return "string"
                for t in (lt, rt):
                    if t is not None and t not in NUMERIC:
                        self.error(expr.span or span, f"operator {op!r} cannot take {_a(t)} operand"
                                   + (" (and + joins two strings only)" if op == "+" else ""))
                        return None
                if op == "/":
                    return "float"
                if lt is None or rt is None:
                    return lt or rt if (lt or rt) == "float" else None
                return join(lt, rt)
            case A.Call(func=func, args=args):
                arg_types = [self._expr_type(a, env, span) for a in args]
                sig = FUNCTIONS.get(func)
                if sig is None:
                    return None
                if func in ("abs", "round", "floor", "ceil") and arg_types and arg_types[0] not in (None, *NUMERIC):
                    self.error(expr.span or span, f"function {func!r} needs a number, got {_a(arg_types[0])}")
                if func in ("to_lower", "to_upper", "substring", "string_length", "contains", "starts_with",
                            "ends_with") and arg_types and arg_types[0] not in (None, "string"):
                    self.error(expr.span or span, f"function {func!r} needs a string, got {_a(arg_types[0])}")
                if func == "round" and len(args) == 2:
                    return "float"
                return sig[1] if sig[1] is not None else (arg_types[0] if arg_types else None)
            case A.Aggregate(func=func, expr=inner):
                t = self._expr_type(inner, env, span) if inner is not None else None
                if func in ("count", "mcount"):
                    return "int"
                if func in ("sum", "prod", "avg", "msum", "mprod") and t is not None and t not in NUMERIC:
                    self.error(expr.span or span, f"aggregate {func!r} needs numbers, got {_a(t)}")
                    return None
                return "float" if func == "avg" else t
        return None

    def _rule_env(self, ri: RuleInfo) -> dict[str, ColType | None]:
        env: dict[str, ColType | None] = {}
        for atom in ri.positives:
            for i, t in enumerate(atom.args):
                if isinstance(t, A.Var) and not t.anonymous:
                    col = self.col_type.get((atom.pred, i))
                    if col is None:
                        continue
                    try:
                        env[t.name] = join(env.get(t.name), col[0])
                    except TypeClash:
                        self.error(t.span or atom.span, f"type conflict: variable {t.name!r} is {env[t.name]} "
                                   f"elsewhere in the rule but column {i} of {atom.pred!r} is {col[0]}",
                                   [(col[1], f"{col[0]} comes from here")] if col[1] else [])
        for name, expr in ri.assignments:
            env[name] = self._expr_type(expr, env, ri.span)
        if ri.aggregate is not None:
            env[ri.aggregate[0]] = self._expr_type(ri.aggregate[1], env, ri.span)
        for name, expr in ri.post_assignments:
            env[name] = self._expr_type(expr, env, ri.span)
        for name in ri.existentials:
            env[name] = "string"
        return env

    def _infer_types(self, rules: list[RuleInfo]) -> None:
        for _ in range(4 * (len(self.arity) + 2)):
            changed = False
            n_diags = len(self.diags)
            for ri in rules:
                env = self._rule_env(ri)
                for h in ri.rule.head:
                    for i, t in enumerate(h.args):
                        typ = self._expr_type(t, env, h.span)
                        changed |= self._set_col(h.pred, i, typ, t.span or h.span)
            if not changed or len(self.diags) > n_diags:
                break
        # checks that need the final types
        for ri in rules:
            env = self._rule_env(ri)
            for cond in ri.conditions + ri.post_conditions:
                lt, rt = self._expr_type(cond.left, env, cond.span), self._expr_type(cond.right, env, cond.span)
                if not comparable(lt, rt):
                    self.error(cond.span or ri.span, f"type conflict: cannot compare {_a(lt)} with {_a(rt)}")
            for atom in ri.positives + ri.negations:
                for i, t in enumerate(atom.args):
                    col = self.col_type.get((atom.pred, i))
                    if isinstance(t, A.Const) and col is not None and not comparable(type_of_value(t.value), col[0]):
                        self.error(t.span or atom.span, f"type conflict: constant {t.value!r} is a "
                                   f"{type_of_value(t.value)} but column {i} of {atom.pred!r} is {col[0]}",
                                   [(col[1], f"{col[0]} comes from here")] if col[1] else [])
                    if isinstance(t, A.Param) and col is not None and not comparable(self._param_type(t.name), col[0]):
                        self.error(t.span or atom.span, f"type conflict: parameter ${t.name} is "
                                   f"{_a(self._param_type(t.name))} but column {i} of {atom.pred!r} is {col[0]}",
                                   [(col[1], f"{col[0]} comes from here")] if col[1] else [])
                    if isinstance(t, A.Var) and col is not None and not comparable(env.get(t.name), col[0]):
                        self.error(t.span or atom.span, f"type conflict: {t.name!r} is {_a(env.get(t.name))} but column "
                                   f"{i} of {atom.pred!r} is {col[0]}")

    def _finish_types(self, ri: RuleInfo, predicates: Mapping[str, PredInfo]) -> RuleInfo:
        return replace(ri, var_types=self._rule_env(ri))

    # --- stratification -----------------------------------------------------------------------------------------------
    def _stratify(self, rules: list[RuleInfo], heads: dict[str, list[A.Rule]]) -> list[Stratum]:
        idb = list(dict.fromkeys(h.pred for ri in rules for h in ri.rule.head))
        edges: dict[str, dict[str, tuple[bool, Span | None]]] = {p: {} for p in idb}
        for ri in rules:
            stratified_agg = ri.aggregate is not None and not ri.aggregate[1].monotonic
            head_preds = [h.pred for h in ri.rule.head]
            for h in head_preds:
                for other in head_preds:
                    if other != h:
                        edges[h].setdefault(other, (False, ri.span))
                for atom in ri.positives:
                    if atom.pred in edges:
                        neg, span = edges[h].get(atom.pred, (False, atom.span))
                        edges[h][atom.pred] = (neg or stratified_agg, atom.span if stratified_agg else span)
                for atom in ri.negations:
                    if atom.pred in edges:
                        edges[h][atom.pred] = (True, atom.span)
        sccs = _tarjan(idb, {p: list(e) for p, e in edges.items()})
        strata = []
        for scc in sccs:
            members = set(scc)
            recursive = len(scc) > 1 or scc[0] in edges[scc[0]]
            for p in scc:
                for q, (neg, span) in edges[p].items():
                    if neg and q in members:
                        cycle = _cycle(p, q, members, edges)
                        what = "negation" if any(
                            isinstance(lit, A.Negation) and lit.atom.pred == q for r in heads.get(p, []) for lit in r.body
                        ) else "a non-monotonic aggregate"
                        self.error(span, f"unstratifiable program: {what} on the recursive cycle {' -> '.join(cycle)}"
                                   + (" (use a monotonic aggregate such as msum inside recursion)" if "aggregate" in what else ""))
            srules = tuple(ri for ri in rules if any(h.pred in members for h in ri.rule.head))
            strata.append(Stratum(tuple(scc), srules, recursive))
        return strata


def csv_header(path: Path) -> list[str] | None:
    """The column names of a CSV file's header line (its delimiter sniffed as DuckDB does); None when unreadable."""
    try:
        with path.open(newline="", encoding="utf-8") as fh:
            line = fh.readline()
    except (OSError, UnicodeDecodeError):
        return None  # the engine says why when it reads the file
    if not line.strip():
        return None
    try:
        dialect = csv.Sniffer().sniff(line, delimiters=",;\t|")
    except csv.Error:
        dialect = csv.excel
    return next(csv.reader([line], dialect))


def resolve_bind(ann: A.Annotation, data_root: Path | None) -> Bind | str:
    """The source a ``@bind`` annotation names, resolved under the data root, or the message saying why it cannot be.

    ``@bind("p","csv"|"parquet",DIR,FILE)`` or ``@bind("p","duckdb",DBFILE[,TABLE])``; arguments are strings.
    """
    vals = [a.value for a in ann.args]
    pred, kind = vals[0], vals[1]
    if kind not in BIND_KINDS:
        return f"unknown @bind kind {kind!r} (kinds: {', '.join(BIND_KINDS)})"
    if kind == "duckdb":
        rel, table = vals[2], (vals[3] if len(vals) > 3 else pred)
    else:
        if len(vals) < 4:
            return f"@bind of kind {kind!r} takes a directory and a file name"
        rel, table = str(Path(vals[2]) / vals[3]), None
    if data_root is None:
        path = Path(rel)
        if path.is_absolute() or ".." in path.parts:
            return f"@bind path {rel!r} must be relative to the data root and may not leave it"
        return Bind(pred, kind, path, table, ann.span)
    root = data_root.resolve()
    path = (root / rel).resolve()
    if not path.is_relative_to(root):
        return f"@bind path {rel!r} leaves the data root {str(root)!r}"
    if not path.exists():
        return f"@bind file {rel!r} does not exist under the data root {str(root)!r}"
    return Bind(pred, kind, path, table, ann.span)


def _a(typ: str | None) -> str:
    """'an int', 'a string' — types named with their article in messages."""
    return f"an {typ}" if typ == "int" else f"a {typ}"


def _params_of(stmt: A.Statement):
    return _terms_of(stmt, A.Param)


def _consts_of(stmt: A.Statement):
    return _terms_of(stmt, A.Const)


def _terms_of(stmt: A.Statement, kind: type):
    if isinstance(stmt, A.FactBlock):  # constants only, looked at by the callers themselves
        return []
    if isinstance(stmt, A.Fact):  # most statements of a large program: no walk (issue 11)
        return [a for a in stmt.atom.args if isinstance(a, kind)]

    def walk(node):
        match node:
            case A.Param() | A.Const() | A.Var():
                if isinstance(node, kind):
                    yield node
            case A.BinOp(left=left, right=right):
                yield from walk(left)
                yield from walk(right)
            case A.Neg(operand=operand):
                yield from walk(operand)
            case A.Call(args=args):
                for a in args:
                    yield from walk(a)
            case A.Aggregate(expr=inner):
                if inner is not None:
                    yield from walk(inner)
            case A.Atom(args=args):
                for a in args:
                    yield from walk(a)
            case A.Negation(atom=atom):
                yield from walk(atom)
            case A.Comparison(left=left, right=right):
                yield from walk(left)
                yield from walk(right)
            case A.Assignment(value=value):
                yield from walk(value)

    def statement():
        match stmt:
            case A.Rule(head=head, body=body):
                for n in head + body:
                    yield from walk(n)
            case A.Constraint(body=body):
                for n in body:
                    yield from walk(n)

    return statement()


def _tarjan(nodes: list[str], succ: dict[str, list[str]]) -> list[list[str]]:
    """Strongly connected components in dependency order (a component comes after those it reads)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0

    def visit(v: str) -> None:
        nonlocal counter
        # iterative Tarjan to survive deep dependency chains
        work = [(v, iter(succ.get(v, ())))]
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        while work:
            node, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(succ.get(w, ()))))
                    advanced = True
                    break
                if w in on_stack:
                    low[node] = min(low[node], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                order = {n: i for i, n in enumerate(nodes)}
                out.append(sorted(comp, key=order.__getitem__))

    for n in nodes:
        if n not in index:
            visit(n)
    return out


def _cycle(p: str, q: str, members: set[str], edges) -> list[str]:
    """A path p <- q <- ... <- p inside an SCC, written in reading order q -> ... -> p -> q."""
    # breadth-first search from q back to p along dependency edges
    prev: dict[str, str | None] = {q: None}
    frontier = [q]
    while frontier and p not in prev:
        nxt = []
        for n in frontier:
            for m in edges.get(n, {}):
                if m in members and m not in prev:
                    prev[m] = n
                    nxt.append(m)
        frontier = nxt
    path = [p]
    while prev.get(path[-1]) is not None:
        path.append(prev[path[-1]])
    return [p, *reversed(path)] if path[-1] == q else [p, q, p]
