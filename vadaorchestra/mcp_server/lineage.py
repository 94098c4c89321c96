"""A run as one program: the catalog programs it invoked, bound and renamed per invocation, and its synthesized rules.

:class:`ProgramWriter` turns the steps of a run (a trace's, or a workspace's log) into the statements of one program
in our dialect whose plain evaluation yields the facts the run derived. Each invocation contributes its tool's
program with the parameters bound (a set-at-a-time call as :func:`~vadaorchestra.datalog.foreach.bind_each` binds
it), the predicates it defines renamed per invocation (``li9_above``), its output named after the tool
(``get_loans``, or ``get_loans__li2`` for a tool called more than once), then the invocation rule that puts the
tool's facts into the run's predicate (the recorded one, else a plain copy). Base data keep their ``@bind``
declarations, once each. A step that read a predicate that later invocations extend reads a copy of it as it was
then (``loans__at3``), so one fixpoint gives every step's facts.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any, Protocol

from vadaorchestra.datalog import ast as A
from vadaorchestra.datalog.api import bind_params, body_predicates, parse
from vadaorchestra.datalog.foreach import bind_each, each_forms, each_source
from vadaorchestra.datalog.printer import format_statement
from vadaorchestra.errors import VadaError
from vadaorchestra.mcp_server.catalog import Catalog, ToolSpec


@dataclass
class LogStep:
    """A :class:`RunStep` of a workspace's log."""

    kind: str
    number: int
    tool: str | None
    params: dict[str, Any]
    program: str
    note: str


_SELF = "__vo_each_self"  # the source of a set-at-a-time call over the tool's own output, renamed per step

# annotations whose first argument names a predicate; @tool and @param describe a catalog program and are dropped
_PRED_ANNOTATIONS = ("bind", "mapping", "output", "input")


class RunStep(Protocol):
    """What the writer reads of a step (``agents.trace.Step`` has it): an invocation (``LI``: tool, params, and the
    recorded invocation rule in ``program`` or "") or a synthesized program (``LM``: ``program``, ``note``)."""

    kind: str
    number: int
    tool: str | None
    params: dict[str, Any]
    program: str
    note: str


class ProgramWriter:
    """See the module docstring; :meth:`invocation` and :meth:`synthesized` give one step's lines each."""

    def __init__(self, cat: Catalog, steps: list[RunStep]) -> None:
        self.cat = cat
        self.steps = steps
        self.calls = Counter(s.tool for s in steps if s.kind == "LI")
        self.schemas: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
        self.base: dict[str, list[A.Annotation]] = {}  # base predicate -> its @bind and @mapping annotations
        self.outputs: set[str] = set()
        self.taken = {t for t in cat.tools} | {s.output for s in cat.tools.values()}
        # the steps that add facts to each workspace predicate (a tool's output, written by its invocations)
        self.writes: dict[str, list[int]] = {}
        for step in steps:
            if step.kind == "LI" and step.tool in cat.tools:
                self.writes.setdefault(cat.tools[step.tool].output, []).append(step.number)
        self.invocation_rules: dict[str, list[A.Statement]] = {}  # pred -> its invocation rules so far
        self.programs: dict[int, A.Program] = {}  # each step's text, parsed once
        for step in steps:
            if step.program:
                try:
                    self.taken |= {h.pred for r in self._parsed(step).rules for h in r.head}
                    self.taken |= self._parsed(step).fact_predicates()
                except VadaError:
                    pass  # reported when the step is written

    def _parsed(self, step: RunStep) -> A.Program:
        if step.number not in self.programs:
            self.programs[step.number] = parse(step.program)
        return self.programs[step.number]

    def program(self, outputs: list[str] = ()) -> str:
        """Every step's lines, the base data's declarations first, then ``@output`` for ``outputs`` (the
        predicates the run recorded) that no synthesized program declares already."""
        blocks = []
        for step in self.steps:
            try:
                blocks.append(self.invocation(step) if step.kind == "LI" else self.synthesized(step))
            except VadaError as exc:
                raise VadaError(f"step {step.number} ({step.tool or step.note or 'synthesized rules'}): {exc}") \
                    from None
        declared = [f'@output("{p}").' for p in outputs if p not in self.outputs]
        return "\n".join([*self.base_lines(), *blocks, *(["% the predicates the run recorded", *declared]
                                                          if declared else [])]).rstrip() + "\n"

    # --- one invocation -----------------------------------------------------------------------------------------------
    def invocation(self, step: RunStep) -> str:
        spec = self.cat.tools.get(step.tool or "")
        if spec is None:
            raise VadaError(f"the catalog has no tool {step.tool!r} (tools: {', '.join(self.cat.tools)})")
        program = self._bound(spec, step.params)
        defined = {h.pred for r in program.rules for h in r.head} | program.fact_predicates()
        rename = {p: self._fresh(f"li{step.number}_{p}") for p in defined if p != spec.output}
        rename[spec.output] = step.tool if self.calls[step.tool] == 1 else self._fresh(f"{step.tool}__li{step.number}")
        for pred in spec.base:
            rename.update(self._base(spec, pred, step.number))
        kept = [s for s in program.statements
                if not (isinstance(s, A.Annotation) and (s.name in ("tool", "param", "output")
                                                         or (s.name in ("bind", "mapping")
                                                             and s.args[0].value in spec.base)))]
        reads = body_predicates(program) - defined - set(spec.base)
        reads.discard(spec.output)
        snapshots, earlier = self._snapshots(reads, step.number)
        if _SELF in reads:  # the tool's output as it was before this call: its invocation rules so far
            snapshots[_SELF] = new = self._fresh(f"{spec.output}__at{step.number}")
            earlier += [f"% {spec.output} as step {step.number} read it (the step adds to it)",
                        *(format_statement(_renamed_head(r, spec.output, new))
                          for r in self.invocation_rules.get(spec.output, []))]
        rename.update(snapshots)
        body = [format_statement(_renamed(s, rename)) for s in kept]
        rules = list(self._parsed(step).statements) if step.program else [_copy_rule(spec)]
        renamed_rules = [_renamed(r, {step.tool: rename[spec.output], **snapshots}) for r in rules]
        self.invocation_rules.setdefault(spec.output, []).extend(renamed_rules)
        recorded = bool(step.program) and renamed_rules == rules
        rule = step.program.strip() if recorded else "\n".join(map(format_statement, renamed_rules))
        self.schemas[spec.output] = (spec.columns, spec.types)
        shown = json.dumps(step.params, ensure_ascii=False)
        return "\n".join([*earlier, f"% [LI {step.number}] {step.tool} {shown}: its program, bound and renamed",
                          *body, f"% [LI {step.number}] the invocation rule" + (", as recorded" if recorded else ""), rule, ""])

    def _snapshots(self, reads: set[str], number: int) -> tuple[dict[str, str], list[str]]:
        """Step ``number`` read the facts a workspace predicate had then: where later invocations add to it, the
        step reads a copy of its invocation rules so far (``exposure__at7``), so the one fixpoint yields the facts
        the trace recorded for the step (not those of the predicate's final state)."""
        rename, lines = {}, []
        for pred in sorted(reads):
            if not any(w > number for w in self.writes.get(pred, ())) or pred not in self.invocation_rules:
                continue
            rename[pred] = new = self._fresh(f"{pred}__at{number}")
            lines.append(f"% {pred} as step {number} read it (later steps add to it)")
            lines += [format_statement(_renamed_head(r, pred, new)) for r in self.invocation_rules[pred]]
        return rename, lines

    def _bound(self, spec: ToolSpec, given: dict[str, Any]) -> A.Program:
        consts = {k: v for k, v in given.items() if not isinstance(v, dict)}
        program = bind_params(spec.program, consts)
        for_each, where = each_forms(spec.name, given)
        if not for_each:
            return program
        pred = next(iter(for_each.values())).split(".")[0]
        if pred not in self.schemas:
            raise VadaError(f"\"each\" reads {pred!r}, which no earlier invocation of the trace wrote")
        cols, types = self.schemas[pred]
        source, each = each_source(spec.name, {p.name: p.type for p in spec.params}, pred, cols, types, for_each,
                                   where)
        if pred == spec.output:  # "each" over the tool's own output: as it was before the call (see invocation)
            source = A.Atom(_SELF, source.args, source.span)
        return bind_each(program, each, source, output=spec.output)

    def _base(self, spec: ToolSpec, pred: str, number: int) -> dict[str, str]:
        """The base predicate's declarations, kept once; one bound differently by another tool is renamed."""
        decl = [s for s in spec.program.annotations() if s.name in ("bind", "mapping") and s.args[0].value == pred]
        known = self.base.get(pred)
        if known is None:
            self.base[pred] = decl
            return {}
        if known == decl:
            return {}
        new = self._fresh(f"li{number}_{pred}")
        self.base[new] = [_renamed(s, {pred: new}) for s in decl]
        return {pred: new}

    def base_lines(self) -> list[str]:
        if not self.base:
            return []
        return ["% base data, bound once", *(format_statement(s) for decl in self.base.values() for s in decl), ""]

    # --- one synthesized program --------------------------------------------------------------------------------------
    def synthesized(self, step: RunStep) -> str:
        program = self._parsed(step)
        reads = body_predicates(program)
        snapshots, earlier = self._snapshots(reads, step.number)
        text = step.program.strip()
        if snapshots:
            text = "\n".join(format_statement(_renamed(s, snapshots)) for s in program.statements)
        for s in program.annotations("output"):
            self.outputs.add(str(s.args[0].value))
        columns: dict[str, dict[int, tuple[str, str]]] = {}
        for s in program.annotations("mapping"):
            pred, i, name, typ = (a.value for a in s.args)
            columns.setdefault(str(pred), {})[int(i)] = (str(name), str(typ))
        for pred, cols in columns.items():  # what a later set-at-a-time call over a synthesized predicate reads
            ordered = [cols[i] for i in sorted(cols)]
            self.schemas[pred] = (tuple(c for c, _ in ordered), tuple(t for _, t in ordered))
        return "\n".join([*earlier, f"% [LM {step.number}] {step.note}", text, ""])

    def _fresh(self, name: str) -> str:
        while name in self.taken:
            name += "_"
        self.taken.add(name)
        return name


def _renamed(stmt: A.Statement, rename: dict[str, str]) -> A.Statement:
    def atom(a: A.Atom) -> A.Atom:
        return A.Atom(rename.get(a.pred, a.pred), a.args, a.span)

    def literal(lit: A.BodyLiteral) -> A.BodyLiteral:
        match lit:
            case A.Atom():
                return atom(lit)
            case A.Negation(atom=at, span=span):
                return A.Negation(atom(at), span)
        return lit

    match stmt:
        case A.Rule(head=head, body=body, arrow=arrow, span=span):
            return A.Rule(tuple(atom(h) for h in head), tuple(literal(b) for b in body), arrow, span)
        case A.Fact(atom=at, span=span):
            return A.Fact(atom(at), span)
        case A.FactBlock(pred=pred) if pred in rename:
            return replace(stmt, pred=rename[pred])
        case A.Constraint(body=body, span=span):
            return A.Constraint(tuple(literal(b) for b in body), span)
        case A.Annotation(name=name, args=args, span=span) if name in _PRED_ANNOTATIONS and args:
            first = str(args[0].value)
            return A.Annotation(name, (A.Const(rename.get(first, first)), *args[1:]), span)
    return stmt


def _renamed_head(stmt: A.Statement, pred: str, new: str) -> A.Statement:
    assert isinstance(stmt, A.Rule)
    return A.Rule(tuple(A.Atom(new if h.pred == pred else h.pred, h.args, h.span) for h in stmt.head), stmt.body,
                  stmt.arrow, stmt.span)


def _copy_rule(spec: ToolSpec) -> A.Rule:
    """``out(V0, ..) :- tool(V0, ..).``: the invocation rule of a step that recorded none (a workspace's log)."""
    args = tuple(A.Var(f"V{i}") for i in range(len(spec.columns)))
    return A.Rule((A.Atom(spec.output, args),), (A.Atom(spec.name, args),))
