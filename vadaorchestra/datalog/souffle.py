"""Compile normalized rules (:class:`~vadaorchestra.datalog.validator.RuleInfo`) to Soufflé program text.

Pure and deterministic: the same analysis and the same requests give the same text. The engine
(:mod:`vadaorchestra.datalog.engines.souffle_engine`) decides which relations a program reads (full relations, deltas)
and what it does with the results; this module only writes Soufflé.

Conventions:

- every relation of ours is ``r_<pred>`` (or a name the engine chooses), every variable ``v<Name>``: no user name
  can collide with a Soufflé keyword or functor;
- types: ``string`` → ``symbol``, ``int`` → ``number``, ``float`` → ``float``, ``bool`` → ``number`` (0/1);
- every ``.input``/``.output`` is a tab-separated file with RFC 4180 quoting of symbols (values may contain tabs,
  newlines and quotes); see :func:`encode_facts` and :func:`decode_output` for the exact formats;
- string constants are written with Soufflé escapes (:func:`souffle_string`), so no value can leave its literal;
- floats never use exponents (``to_float("1e+16")`` instead), as Soufflé's lexer rejects them;
- ``/`` is true division on floats; a zero divisor is recorded in the error relation ``vo_err`` (one row per
  failing rule), which the engine turns into a run-time error naming the rule;
- an aggregate ranges over the *distinct bindings* of the rule's body: the bindings go to an auxiliary relation
  first, the groups to another, and the aggregate reads the bindings relation;
- bool-valued functions (``contains``, ``starts_with``, ``ends_with``) and ``floor``/``ceil``/``round`` become
  case splits: one clause per combination of outcomes, each guarded by Soufflé constraints;
- a recursive stratum with aggregates, which Soufflé refuses (an aggregate inside recursion), is unrolled by
  :func:`compile_layers` into a fixed number of rounds per program, each round a layer of non-recursive relations.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from vadaorchestra.datalog import ast as A
from vadaorchestra.datalog.sql import rule_label
from vadaorchestra.datalog.types import FUNCTIONS, ColType, type_of_value
from vadaorchestra.datalog.validator import Analysis, RuleInfo, Stratum
from vadaorchestra.errors import CompileError, Span

SOUFFLE_TYPES: dict[str, str] = {"string": "symbol", "int": "number", "float": "float", "bool": "number"}
IO_OPTIONS = 'IO=file, delimiter="\\t", rfc4180=true'
PLAIN_IO_OPTIONS = 'IO=file, delimiter="\\t"'  # fields verbatim up to the next tab: no symbol may hold \t \n \r
ERROR_RELATION = "vo_err"
_AGG = {"sum": "sum", "msum": "sum", "count": "count", "mcount": "count", "min": "min", "mmin": "min",
        "max": "max", "mmax": "max", "avg": "mean"}
_MAX_CASES = 64


# --- literals -----------------------------------------------------------------------------------------------------------
def souffle_string(value: str) -> str:
    """A Soufflé string literal: quotes, backslashes and control characters escaped (the lexer knows
    ``\\" \\\\ \\n \\t \\r \\a \\b \\f \\v``); other characters stand for themselves."""
    if "\x00" in value:
        raise CompileError(f"string constant {value!r} contains a NUL character, which Soufflé cannot store")
    out = []
    for ch in value:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch in _CONTROL:
            out.append(_CONTROL[ch])
        elif ord(ch) < 32 or ord(ch) == 127:
            raise CompileError(f"string constant {value!r} contains the control character {ch!r}, which has no "
                               "escape in Soufflé")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


_CONTROL = {"\n": "\\n", "\t": "\\t", "\r": "\\r", "\a": "\\a", "\b": "\\b", "\f": "\\f", "\v": "\\v"}


def souffle_float(value: float) -> str:
    if not math.isfinite(value):
        raise CompileError(f"float constant {value!r} is not finite")
    text = repr(float(value))
    if re.fullmatch(r"-?\d+\.\d+", text):
        return f"({text})" if text.startswith("-") else text
    return f'to_float("{text}")'


def souffle_literal(value: object, typ: ColType | None = None) -> str:
    """A Soufflé constant for a value, converted to the column type when one is given."""
    own = type_of_value(value)
    if own == "bool":
        return "1" if value else "0"
    if own == "int":
        if not -(2**63) <= int(value) < 2**63:  # type: ignore[arg-type]
            raise CompileError(f"integer constant {value} does not fit in 64 bits")
        if typ == "float":
            return souffle_float(float(value))  # type: ignore[arg-type]
        return f"({value})" if int(value) < 0 else str(value)  # type: ignore[arg-type]
    if own == "float":
        return souffle_float(value)  # type: ignore[arg-type]
    return souffle_string(str(value))


def relation_name(pred: str) -> str:
    return "r_" + pred


def var_name(name: str) -> str:
    return "v" + name


def decl_text(rel: str, types: Sequence[ColType]) -> str:
    cols = ", ".join(f"c{i}:{SOUFFLE_TYPES[t]}" for i, t in enumerate(types))
    return f".decl {rel}({cols})"


# --- expressions ------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Case:
    """One alternative of an expression: the Soufflé constraints under which it holds and its text and type."""

    guards: tuple[str, ...]
    text: str
    typ: ColType | None


def _combine(parts: Sequence[list[Case]]) -> list[tuple[tuple[str, ...], list[Case]]]:
    out = []
    for combo in itertools.product(*parts):
        guards = tuple(g for c in combo for g in c.guards)
        out.append((guards, list(combo)))
    return out


def _as_float(c: Case) -> str:
    return c.text if c.typ == "float" else f"to_float({c.text})"


class _Rule:
    """Expression and body compilation for one rule; collects division guards."""

    def __init__(self, ri: RuleInfo, label: str):
        self.ri = ri
        self.label = label
        self.env: dict[str, str] = {}
        self.types: dict[str, ColType | None] = {}
        self.divisors: list[Case] = []  # divisor cases (as float text) that must not be zero
        self.converts = False  # parses a string as a number (a run-time error when it is none)

    def var(self, name: str) -> Case:
        if name not in self.env:
            raise CompileError(f"variable {name!r} is not bound ({self.label})")
        return Case((), self.env[name], self.types.get(name))

    def expr(self, expr) -> list[Case]:
        match expr:
            case A.Var(name=name):
                return [self.var(name)]
            case A.Const(value=value):
                return [Case((), souffle_literal(value), type_of_value(value))]
            case A.Param(name=name):
                raise CompileError(f"parameter ${name} is not bound to a value ({self.label})")
            case A.Neg(operand=operand):
                return [Case(c.guards, f"(-{c.text})", c.typ) for c in self.expr(operand)]
            case A.BinOp(op=op, left=left, right=right):
                out = []
                for guards, (a, b) in _combine([self.expr(left), self.expr(right)]):
                    if op == "+" and "string" in (a.typ, b.typ):
                        out.append(Case(guards, f"cat({a.text}, {b.text})", "string"))
                    elif op == "/":
                        d = Case(guards, _as_float(b), "float")
                        self.divisors.append(d)
                        out.append(Case(guards, f"({_as_float(a)} / {d.text})", "float"))
                    elif "float" in (a.typ, b.typ):
                        out.append(Case(guards, f"({_as_float(a)} {op} {_as_float(b)})", "float"))
                    else:
                        out.append(Case(guards, f"({a.text} {op} {b.text})", a.typ or b.typ))
                return out
            case A.Call(func=func, args=args):
                return self.call(func, args)
        raise CompileError(f"cannot compile expression {expr!r} for Soufflé ({self.label})")

    def call(self, func: str, args: Sequence) -> list[Case]:
        out: list[Case] = []
        for guards, cs in _combine([self.expr(a) for a in args]):
            out.extend(self._call1(func, guards, cs))
        if len(out) > _MAX_CASES:
            raise CompileError(f"expression too complex for Soufflé (more than {_MAX_CASES} cases) ({self.label})")
        return out

    def _call1(self, func: str, g: tuple[str, ...], c: list[Case]) -> list[Case]:
        t0 = c[0].typ if c else None
        s = [x.text for x in c]
        match func:
            case "abs":
                zero = "0.0" if t0 == "float" else "0"
                return [Case(g, f"max({s[0]}, {zero} - {s[0]})", t0)]
            case "floor" | "ceil" | "round" if len(c) == 1 and t0 != "float":
                return [Case(g, s[0], "int")]
            case "floor" | "ceil":
                t = f"to_number({s[0]})"
                tf = f"to_float({t})"
                if func == "floor":  # truncation rounds negatives up
                    return [Case(g + (f"{s[0]} >= {tf}",), t, "int"), Case(g + (f"{s[0]} < {tf}",), f"({t} - 1)", "int")]
                return [Case(g + (f"{s[0]} <= {tf}",), t, "int"), Case(g + (f"{s[0]} > {tf}",), f"({t} + 1)", "int")]
            case "round" if len(c) == 1:
                # half away from zero: trunc(x + 0.5) for x >= 0, trunc(x - 0.5) below
                return [Case(g + (f"{s[0]} >= 0.0",), f"to_number({s[0]} + 0.5)", "int"),
                        Case(g + (f"{s[0]} < 0.0",), f"to_number({s[0]} - 0.5)", "int")]
            case "round":
                raise CompileError(f"round(X, D) is not supported by the Soufflé engine ({self.label})")
            case "concat":
                return [Case(g, "cat(" + ", ".join(self._to_string(x) for x in c) + ")", "string")]
            case "to_lower" | "to_upper":
                raise CompileError(f"{func}() has no Soufflé counterpart ({self.label}); use the DuckDB engine")
            case "substring":
                return [Case(g, f"substr({s[0]}, {s[1]}, {s[2]})", "string")]
            case "string_length":
                return [Case(g, f"strlen({s[0]})", "int")]
            case "contains":
                return [Case(g + (f"contains({s[1]}, {s[0]})",), "1", "bool"),
                        Case(g + (f"!contains({s[1]}, {s[0]})",), "0", "bool")]
            case "starts_with":
                pre = f"substr({s[0]}, 0, strlen({s[1]}))"
                return [Case(g + (f"strlen({s[1]}) <= strlen({s[0]})", f"{pre} = {s[1]}"), "1", "bool"),
                        Case(g + (f"strlen({s[1]}) > strlen({s[0]})",), "0", "bool"),
                        Case(g + (f"strlen({s[1]}) <= strlen({s[0]})", f"{pre} != {s[1]}"), "0", "bool")]
            case "ends_with":
                suf = f"substr({s[0]}, strlen({s[0]}) - strlen({s[1]}), strlen({s[1]}))"
                return [Case(g + (f"strlen({s[1]}) <= strlen({s[0]})", f"{suf} = {s[1]}"), "1", "bool"),
                        Case(g + (f"strlen({s[1]}) > strlen({s[0]})",), "0", "bool"),
                        Case(g + (f"strlen({s[1]}) <= strlen({s[0]})", f"{suf} != {s[1]}"), "0", "bool")]
            case "to_string":
                return [Case(g, self._to_string(c[0]), "string")]
            case "to_int":
                if t0 == "string":
                    self.converts = True
                    return [Case(g, f"to_number(to_float({s[0]}))", "int")]
                if t0 == "float":
                    return [Case(g, f"to_number({s[0]})", "int")]
                return [Case(g, s[0], "int")]
            case "to_float":
                self.converts = self.converts or t0 == "string"
                return [Case(g, s[0] if t0 == "float" else f"to_float({s[0]})", "float")]
        raise CompileError(f"function {func!r} is not supported by the Soufflé engine ({self.label})")

    def _to_string(self, c: Case) -> str:
        match c.typ:
            case "string":
                return c.text
            case "bool":
                return f'substr("#F#T", 2 * {c.text}, 2)'
            case "int":
                return f"to_string({c.text})"
        raise CompileError(f"to_string of {'a float' if c.typ == 'float' else 'this value'} is not supported by the "
                           f"Soufflé engine (its number format differs from DuckDB's) ({self.label})")

    def condition(self, cond: A.Comparison) -> list[tuple[str, ...]]:
        op = {"==": "=", "=": "=", "!=": "!=", "<>": "!="}.get(cond.op, cond.op)
        out = []
        for guards, (a, b) in _combine([self.expr(cond.left), self.expr(cond.right)]):
            if "float" in (a.typ, b.typ) and a.typ != b.typ:
                out.append(guards + (f"{_as_float(a)} {op} {_as_float(b)}",))
            else:
                out.append(guards + (f"{a.text} {op} {b.text}",))
        return out


@dataclass
class Body:
    """The clause bodies (alternatives) of a rule's bindings and what each variable is called."""

    cases: list[tuple[str, ...]]
    env: dict[str, str]
    types: dict[str, ColType | None]
    guards: list[tuple[str, ...]]  # bodies under which a divisor is zero


@dataclass
class SouffleProgram:
    text: str
    inputs: dict[str, tuple[ColType, ...]]
    outputs: dict[str, tuple[ColType, ...]]
    errors: tuple[tuple[str, Span | None], ...]  # index in vo_err → (rule label, span)
    conversions: tuple[tuple[str, Span | None], ...]  # rules that parse strings as numbers
    lines: dict[int, tuple[str, Span | None]]  # program line → (rule label, span)
    clean: bool = True  # no string constant holds a tab, newline or carriage return

    def text_for(self, plain: Collection[str]) -> str:
        """The program with the relations in ``plain`` read or written as plain TSV (Soufflé reads a field up to
        the next tab, verbatim, and writes a symbol as it is), the others with ``rfc4180`` quoting. Plain IO is much
        faster in Soufflé (LUBM's 103k facts and 54k results: 0.35 s -> 0.22 s), but only right when no symbol
        holds a tab, newline or carriage return. Lines and their numbers do not change."""
        text = self.text
        for rel in plain:
            for kind, ext in ((".input", "facts"), (".output", "csv")):
                text = text.replace(f'{kind} {rel}({IO_OPTIONS}, filename="{rel}.{ext}")',
                                    f'{kind} {rel}({PLAIN_IO_OPTIONS}, filename="{rel}.{ext}")')
        return text


@dataclass
class ProgramBuilder:
    """Collects declarations, I/O and clauses; :meth:`render` writes the program."""

    analysis: Analysis
    decls: dict[str, tuple[ColType, ...]] = field(default_factory=dict)
    inputs: dict[str, tuple[ColType, ...]] = field(default_factory=dict)
    outputs: dict[str, tuple[ColType, ...]] = field(default_factory=dict)
    clauses: list[tuple[str, str, Span | None]] = field(default_factory=list)
    errors: list[tuple[str, Span | None]] = field(default_factory=list)
    conversions: list[tuple[str, Span | None]] = field(default_factory=list)
    counter: int = 0

    # --- relations ----------------------------------------------------------------------------------------------------
    def decl(self, rel: str, types: Sequence[ColType]) -> str:
        types = tuple(types)
        if self.decls.setdefault(rel, types) != types:
            raise CompileError(f"relation {rel} declared with two schemas")
        return rel

    def input(self, rel: str, types: Sequence[ColType]) -> str:
        self.decl(rel, types)
        self.inputs[rel] = tuple(types)
        return rel

    def output(self, rel: str, types: Sequence[ColType]) -> str:
        self.decl(rel, types)
        self.outputs[rel] = tuple(types)
        return rel

    def fresh(self, base: str) -> str:
        self.counter += 1
        return f"{base}_{self.counter}"

    def clause(self, text: str, label: str = "", span: Span | None = None) -> None:
        self.clauses.append((text, label, span))

    def copy(self, dst: str, src: str, arity: int) -> None:
        vs = ", ".join(f"x{i}" for i in range(arity))
        self.clause(f"{dst}({vs}) :- {src}({vs}).")

    # --- rule bodies --------------------------------------------------------------------------------------------------
    def body(self, ri: RuleInfo, pos_rels: Sequence[str], neg_rels: Sequence[str],
             guard: Sequence[str] = ()) -> tuple[Body, _Rule]:
        """The rule's body over the given relations; ``guard`` literals (atoms of the engine's own relations) come
        first in every clause."""
        label = rule_label(ri)
        rc = _Rule(ri, label)
        preds = self.analysis.predicates
        lits: list[str] = list(guard)
        fresh = itertools.count(1)
        for atom, rel in zip(ri.positives, pos_rels, strict=True):
            types = preds[atom.pred].types
            args = []
            for t, col in zip(atom.args, types, strict=True):
                match t:
                    case A.Var(anonymous=True):
                        args.append("_")
                    case A.Var(name=name) if name not in rc.env:
                        rc.env[name] = var_name(name)
                        rc.types[name] = col
                        args.append(var_name(name))
                    case A.Var(name=name):
                        have = rc.types[name]
                        if SOUFFLE_TYPES[have or "string"] == SOUFFLE_TYPES[col]:
                            args.append(rc.env[name])
                        else:  # an int column joined with a float column
                            other = f"vx_{next(fresh)}"
                            args.append(other)
                            a, b = Case((), rc.env[name], have), Case((), other, col)
                            lits.append(f"{_as_float(a)} = {_as_float(b)}")
                    case A.Const(value=value):
                        args.append(_const_for(value, col, label))
                    case A.Param(name=name):
                        raise CompileError(f"parameter ${name} is not bound to a value ({label})")
            lits.append(f"{rel}({', '.join(args)})")
        cases: list[tuple[str, ...]] = [tuple(lits)]
        for name, expr in ri.assignments:
            new_cases = []
            vals = rc.expr(expr)
            typ = vals[0].typ
            for c in vals:
                if c.typ != typ:
                    raise CompileError(f"assignment to {name!r} has cases of different types ({label})")
            for base in cases:
                for c in vals:
                    new_cases.append(base + c.guards + (f"{var_name(name)} = {c.text}",))
            cases = new_cases
            rc.env[name] = var_name(name)
            rc.types[name] = typ
        for k, (atom, rel) in enumerate(zip(ri.negations, neg_rels, strict=True)):
            types = preds[atom.pred].types
            args = []
            for t, col in zip(atom.args, types, strict=True):
                match t:
                    case A.Var(anonymous=True):
                        args.append("_")
                    case A.Var(name=name):
                        c = rc.var(name)
                        if col == "float" and c.typ != "float":
                            args.append(_as_float(c))
                        elif col == "int" and c.typ == "float":
                            # an int column never equals a float with a fraction
                            args.append(f"vneg{k}_{name}")
                            cases = [b + (f"to_float(vneg{k}_{name}) = {c.text}",) for b in cases]
                        else:
                            args.append(c.text)
                    case A.Const(value=value):
                        args.append(_const_for(value, col, label))
            if any(a.startswith("vneg") for a in args):
                raise CompileError(f"negated atom {atom.pred!r} compares an int column with a float ({label})")
            cases = [b + (f"!{rel}({', '.join(args)})",) for b in cases]
        # a division is checked on the bindings that pass every condition not depending on a division (as DuckDB
        # filters before it computes): the zero binding of 'R = X / Y, Y != 0' is never divided
        tainted = {name for name, expr in ri.assignments if A.has_division(expr)}
        for name, expr in ri.assignments:
            if {v.name for v in A.expr_vars(expr)} & tainted:
                tainted.add(name)
        plain_cases = list(cases)
        for cond in ri.conditions:
            alts = rc.condition(cond)
            cases = [b + a for b in cases for a in alts]
            if not (A.has_division(cond.left) or A.has_division(cond.right)) and not (
                    {v.name for v in A.expr_vars(cond.left) + A.expr_vars(cond.right)} & tainted):
                plain_cases = [b + a for b in plain_cases for a in alts]
        if len(cases) > _MAX_CASES:
            raise CompileError(f"rule too complex for Soufflé (more than {_MAX_CASES} cases) ({label})")
        guards = [b + d.guards + (f"{d.text} = 0.0",) for d in rc.divisors for b in plain_cases]
        if rc.converts:
            self.conversions.append((label, ri.span))
        return Body(cases, dict(rc.env), dict(rc.types), guards), rc

    def _error_clauses(self, guards: Sequence[tuple[str, ...]], label: str, span: Span | None) -> None:
        if not guards:
            return
        self.output(ERROR_RELATION, ("int",))
        idx = len(self.errors)
        self.errors.append((label, span))
        for g in guards:
            self.clause(f"{ERROR_RELATION}({idx}) :- {', '.join(g) or 'true'}.", label, span)

    def _head_args(self, atom: A.Atom, types: Sequence[ColType], env: Mapping[str, str],
                   vtypes: Mapping[str, ColType | None], label: str) -> str:
        out = []
        for t, col in zip(atom.args, types, strict=True):
            match t:
                case A.Var(name=name):
                    if name not in env:
                        raise CompileError(f"head variable {name!r} is not bound ({label})")
                    c = Case((), env[name], vtypes.get(name))
                    if col == "float" and c.typ != "float":
                        out.append(_as_float(c))
                    elif col == "int" and c.typ == "float":
                        raise CompileError(f"a float reaches int column of {atom.pred!r} ({label})")
                    else:
                        out.append(c.text)
                case A.Const(value=value):
                    out.append(_const_for(value, col, label))
                case _:
                    raise CompileError(f"parameter in head of {atom.pred!r} is not bound ({label})")
        return ", ".join(out)

    # --- rules --------------------------------------------------------------------------------------------------------
    def rule(self, ri: RuleInfo, heads: Sequence[tuple[A.Atom, str]], pos_rels: Sequence[str],
             neg_rels: Sequence[str], guard: Sequence[str] = ()) -> None:
        """Clauses deriving each head atom (to the given relation) of a rule without aggregate or existentials."""
        label = rule_label(ri)
        if ri.existentials:
            raise CompileError(f"existential rules are run by the engine, not compiled ({label})")
        if ri.aggregate is not None:
            raise CompileError(f"use ProgramBuilder.aggregate for aggregate rules ({label})")
        body, _ = self.body(ri, pos_rels, neg_rels, guard)
        self._error_clauses(body.guards, label, ri.span)
        for atom, rel in heads:
            types = self.analysis.predicates[atom.pred].types
            args = self._head_args(atom, types, body.env, body.types, label)
            for case in body.cases:
                self.clause(f"{rel}({args}) :- {', '.join(case) or 'true'}.", label, ri.span)

    def bindings(self, ri: RuleInfo, rel: str, names: Sequence[str], pos_rels: Sequence[str],
                 neg_rels: Sequence[str], guard: Sequence[str] = ()) -> tuple[ColType, ...]:
        """Clauses for ``rel(names...)``: the distinct bindings of the rule's body projected on ``names``."""
        label = rule_label(ri)
        body, _ = self.body(ri, pos_rels, neg_rels, guard)
        types = tuple(body.types.get(n) or "string" for n in names)
        self.decl(rel, types)
        self._error_clauses(body.guards, label, ri.span)
        args = ", ".join(body.env[n] for n in names)
        for case in body.cases:
            self.clause(f"{rel}({args}) :- {', '.join(case) or 'true'}.", label, ri.span)
        return types

    def aggregate(self, ri: RuleInfo, head_rel: str, pos_rels: Sequence[str], neg_rels: Sequence[str],
                  guard: Sequence[str] = (), more_pos: Sequence[Sequence[str]] = ()) -> None:
        """Clauses computing an aggregate rule's head into ``head_rel`` (over the distinct bindings of its body;
        only when the ``guard`` literals hold). ``more_pos``: other relations for the body atoms whose bindings
        count too (the body ranges over the union of the alternatives)."""
        assert ri.aggregate is not None
        label, span = rule_label(ri), ri.span
        var, agg = ri.aggregate
        if agg.func in ("prod", "mprod"):
            raise CompileError(f"aggregate {agg.func!r} has no Soufflé counterpart ({label}); use the DuckDB engine")
        names = list(ri.body_vars)
        k = self.fresh("agg")
        # 1. bindings, with the aggregated value as an extra column
        b_rel = f"{k}_b"
        first: tuple[Body, _Rule] | None = None
        vtype: ColType | None = None
        for alt in [pos_rels, *more_pos]:
            body, rc = self.body(ri, alt, neg_rels, guard)
            first = first or (body, rc)
            self._error_clauses(body.guards, label, span)
            value_cases: list[Case] = []
            if agg.expr is not None and agg.func not in ("count", "mcount"):
                n_div = len(rc.divisors)
                value_cases = rc.expr(agg.expr)
                self._error_clauses([b + d.guards + (f"{d.text} = 0.0",) for d in rc.divisors[n_div:]
                                     for b in body.cases], label, span)
            vtype = value_cases[0].typ if value_cases else None
            if agg.func == "avg":
                vtype = "float"
            col_types = [body.types.get(n) or "string" for n in names] + ([vtype] if vtype else [])
            self.decl(b_rel, col_types)  # type: ignore[arg-type]
            b_args = [body.env[n] for n in names]
            for case in body.cases:
                if value_cases:
                    for vc in value_cases:
                        text = _as_float(vc) if agg.func == "avg" else vc.text
                        self.clause(f"{b_rel}({', '.join(b_args + ['vagg_e'])}) :- {', '.join(case + vc.guards)}, "
                                    f"vagg_e = {text}.", label, span)
                else:
                    self.clause(f"{b_rel}({', '.join(b_args) or ''}) :- {', '.join(case) or 'true'}.", label, span)
        assert first is not None
        body, rc = first
        b_args = [body.env[n] for n in names]
        groups = list(ri.group_vars)
        gtypes = [body.types.get(g) or "string" for g in groups]
        g_rel = self.decl(f"{k}_g", gtypes)  # type: ignore[arg-type]
        g_args = ", ".join(body.env[g] for g in groups)
        all_b = ", ".join(b_args + (["_"] if vtype else []))
        self.clause(f"{g_rel}({g_args}) :- {b_rel}({all_b}).", label, span)

        def pattern(keep: Sequence[str], value: str | None) -> str:
            args = [body.env[n] if n in keep else "_" for n in names]
            if vtype:
                args.append(value or "_")
            return f"{b_rel}({', '.join(args)})"

        func = _AGG[agg.func]
        rtype: ColType = "int" if func == "count" else (vtype or "int")
        r_rel = self.decl(f"{k}_r", gtypes + [rtype])  # type: ignore[list-item]
        rv = var_name(var)
        if agg.contributors is not None:
            if vtype == "string":
                raise CompileError(f"{agg.func} over strings with contributors is not supported by the Soufflé "
                                   f"engine ({label})")
            keys = list(dict.fromkeys(groups + [c.name for c in agg.contributors]))
            ktypes = [body.types.get(n) or "string" for n in keys]
            kg_rel = self.decl(f"{k}_k", ktypes)  # type: ignore[arg-type]
            k_args = ", ".join(body.env[n] for n in keys)
            self.clause(f"{kg_rel}({k_args}) :- {b_rel}({all_b}).", label, span)
            if vtype:
                per = "max" if agg.func in ("msum", "mcount", "mmax") else "min"
                c_rel = self.decl(f"{k}_c", ktypes + [vtype])  # type: ignore[list-item]
                self.clause(f"{c_rel}({k_args}, ve) :- {kg_rel}({k_args}), ve = {per} vx : {{ {pattern(keys, 'vx')} }}.",
                            label, span)
            else:
                c_rel = kg_rel
            c_pat = ", ".join([body.env[n] if n in groups else "_" for n in keys] + (["ve"] if vtype else []))
            if func == "count":
                agg_text = f"count : {{ {c_rel}({c_pat}) }}"
            else:
                agg_text = f"{func} ve : {{ {c_rel}({c_pat}) }}"
            self.clause(f"{r_rel}({', '.join([body.env[g] for g in groups] + [rv])}) :- {g_rel}({g_args}), "
                        f"{rv} = {agg_text}.", label, span)
        elif vtype == "string" and func in ("min", "max"):
            # Soufflé's min/max take numbers only: the extreme string is the one no other string beats
            v_rel = self.decl(f"{k}_v", gtypes + ["string"])  # type: ignore[list-item]
            n_rel = self.decl(f"{k}_n", gtypes + ["string"])  # type: ignore[list-item]
            gv = [body.env[g] for g in groups]
            self.clause(f"{v_rel}({', '.join(gv + ['ve'])}) :- {pattern(groups, 've')}.", label, span)
            op = ">" if func == "min" else "<"
            self.clause(f"{n_rel}({', '.join(gv + ['ve'])}) :- {v_rel}({', '.join(gv + ['ve'])}), "
                        f"{v_rel}({', '.join(gv + ['vo'])}), ve {op} vo.", label, span)
            self.clause(f"{r_rel}({', '.join(gv + [rv])}) :- {v_rel}({', '.join(gv + [rv])}), "
                        f"!{n_rel}({', '.join(gv + [rv])}).", label, span)
        else:
            agg_text = f"count : {{ {pattern(groups, None)} }}" if func == "count" else \
                f"{func} ve : {{ {pattern(groups, 've')} }}"
            self.clause(f"{r_rel}({', '.join([body.env[g] for g in groups] + [rv])}) :- {g_rel}({g_args}), "
                        f"{rv} = {agg_text}.", label, span)
        # 3. post-aggregate assignments and conditions, head
        post = _Rule(ri, label)
        post.env = {g: body.env[g] for g in groups} | {var: rv}
        post.types = {g: body.types.get(g) for g in groups} | {var: rtype}
        cases: list[tuple[str, ...]] = [(f"{r_rel}({', '.join([body.env[g] for g in groups] + [rv])})",)]
        for name, expr in ri.post_assignments:
            vals = post.expr(expr)
            cases = [b + c.guards + (f"{var_name(name)} = {c.text}",) for b in cases for c in vals]
            post.env[name] = var_name(name)
            post.types[name] = vals[0].typ
        plain = list(cases)
        n_div = len(post.divisors)
        for cond in ri.post_conditions:
            alts = post.condition(cond)
            cases = [b + a for b in cases for a in alts]
        self._error_clauses([b + d.guards + (f"{d.text} = 0.0",) for d in post.divisors[:n_div] for b in plain]
                            + [b + d.guards + (f"{d.text} = 0.0",) for d in post.divisors[n_div:] for b in plain],
                            label, span)
        if rc.converts or post.converts:
            self.conversions.append((label, span))
        atom = ri.rule.head[0]
        args = self._head_args(atom, self.analysis.predicates[atom.pred].types, post.env, post.types, label)
        for case in cases:
            self.clause(f"{head_rel}({args}) :- {', '.join(case)}.", label, span)

    # --- output -------------------------------------------------------------------------------------------------------
    def render(self) -> SouffleProgram:
        lines: list[str] = ["// generated by vadaorchestra.datalog.souffle"]
        line_map: dict[int, tuple[str, Span | None]] = {}
        for rel, types in self.decls.items():
            lines.append(decl_text(rel, types))
            if rel in self.inputs:
                lines.append(f'.input {rel}({IO_OPTIONS}, filename="{rel}.facts")')
            if rel in self.outputs:
                lines.append(f'.output {rel}({IO_OPTIONS}, filename="{rel}.csv")')
        last_label = None
        for text, label, span in self.clauses:
            if label and label != last_label:
                lines.append(f"// {label}".replace("\n", " "))
            last_label = label
            lines.append(text)
            if label:
                line_map[len(lines)] = (label, span)
        # a string constant's escapes (souffle_string): a "\\t" may also be an escaped backslash before a t, which
        # only costs plain IO
        clean = not any(esc in text for text, _, _ in self.clauses for esc in ("\\t", "\\n", "\\r"))
        return SouffleProgram("\n".join(lines) + "\n", dict(self.inputs), dict(self.outputs), tuple(self.errors),
                              tuple(dict.fromkeys(self.conversions)), line_map, clean)




def _const_for(value: object, col: ColType, label: str) -> str:
    if col == "bool" and not isinstance(value, bool):
        raise CompileError(f"constant {value!r} in a bool column ({label})")
    return souffle_literal(value, col)


# --- whole strata ---------------------------------------------------------------------------------------------------
def needs_runner(stratum: Stratum) -> bool:
    """True when Soufflé cannot evaluate the stratum by itself: existential rules (the restricted chase and its
    nulls), an aggregate inside recursion (recomputed each round by the engine), or recursion through computed
    values (``c(N) :- c(M), N = M + 1.`` may never end: the engine's rounds enforce ``max_rounds``)."""
    return any(ri.existentials for ri in stratum.rules) or (
        stratum.recursive and any(ri.aggregate is not None or ri.assignments for ri in stratum.rules))


def compile_strata(analysis: Analysis, strata: Sequence[Stratum], *, seeded: Sequence[str] = (),
                   outputs: Sequence[str] | None = None) -> SouffleProgram:
    """One Soufflé program evaluating ``strata`` (none of which :func:`needs_runner`): every predicate they read
    but do not define is an input ``r_<pred>``; every predicate they define (or only those in ``outputs``) is an
    output ``r_<pred>``. Predicates in ``seeded`` (defined here but with facts) also read their current rows from the
    input ``s_<pred>``."""
    b = ProgramBuilder(analysis)
    preds = analysis.predicates
    defined = [p for s in strata for p in s.preds]
    for s in strata:
        if needs_runner(s):
            raise CompileError(f"stratum {', '.join(s.preds)} needs the engine's help (existentials or an "
                               "aggregate in recursion)")
    read = []
    for s in strata:
        for ri in s.rules:
            read += [a.pred for a in ri.positives + ri.negations]
    for p in dict.fromkeys(read):
        if p not in defined:
            b.input(relation_name(p), preds[p].types)
    for p in defined:
        if outputs is None or p in outputs:
            b.output(relation_name(p), preds[p].types)
        else:
            b.decl(relation_name(p), preds[p].types)
    for p in seeded:
        if p in defined:
            b.input("s_" + p, preds[p].types)
            b.copy(relation_name(p), "s_" + p, preds[p].arity)
    for s in strata:
        for ri in s.rules:
            pos = [relation_name(a.pred) for a in ri.positives]
            neg = [relation_name(a.pred) for a in ri.negations]
            if ri.aggregate is not None:
                b.aggregate(ri, relation_name(ri.rule.head[0].pred), pos, neg)
            else:
                b.rule(ri, [(h, relation_name(h.pred)) for h in ri.rule.head], pos, neg)
    return b.render()


FIRST_RELATION = "vo_first"
COUNT_RELATION = "vo_cnt"


def layerable(analysis: Analysis, stratum: Stratum) -> bool:
    """True when :func:`compile_layers` can run the recursive stratum: no existential rule, and every aggregate
    head is defined by its aggregate rule alone (no other rule, no facts), as the engine replaces it each round."""
    if not stratum.recursive or any(ri.existentials for ri in stratum.rules):
        return False
    heads = [h.pred for ri in stratum.rules for h in ri.rule.head]
    return all(heads.count(ri.rule.head[0].pred) == 1 and not analysis.facts.get(ri.rule.head[0].pred)
               for ri in stratum.rules if ri.aggregate is not None)


@dataclass(frozen=True)
class LayerPlan:
    """How the engine applies the outputs of :func:`compile_layers` to the relations of the stratum."""

    grow: dict[str, tuple[str, ...]]  # pred → relations of its tuples new in this program (added to the relation)
    replace: dict[str, str]  # pred → its whole new value (aggregates recomputed in full)
    # pred → (new values, recomputed groups, group columns); the groups are the new values' own group columns when
    # both are the same relation (no condition after the aggregate: every recomputed group has its tuple)
    override: dict[str, tuple[str, str, tuple[int, ...]]]
    deltas: dict[str, str]  # pred → the last layer's new tuples (the next program's d0_<pred>)
    computed: dict[str, str]  # aggregate head → nullary relation: its last layer recomputed it (next ch0_<pred>)


def compile_layers(analysis: Analysis, stratum: Stratum, layers: int) -> tuple[SouffleProgram, LayerPlan]:
    """``layers`` rounds of a recursive stratum in one program, each layer doing exactly what one round of the
    DuckDB engine does (so both give the same rows, also for aggregates inside recursion, which Soufflé refuses).

    The relations are not copied from layer to layer: a plain predicate is its input ``f0_<p>`` plus the new tuples
    of each layer ``d<j>_<p>`` (or, when a rule joins it with another atom of the stratum, plus the new tuples of
    this program ``n<i>_<p>``, accumulated); the head of an aggregate recomputed per group is ``f0_<h>`` without the
    groups recomputed in this program, plus their values ``o<i>_<h>`` (the groups are those of ``o<i>_<h>``; with a
    condition after the aggregate, which can drop a group's tuple, they are accumulated in ``g<i>_<h>``). Layer ``i``:

    1. the plain rules, semi-naively: one clause per recursive body atom reading the previous layer's new tuples
       ``d<i-1>_<p>`` there and the previous full relations elsewhere; rules without a recursive atom only in the
       first round (guarded by the input ``vo_first()``); ``d<i>_<p>`` = derived minus the full relation;
    2. then each aggregate in rule order, when the first round or a body predicate had new tuples in the previous
       layer (``ch<i>_<h>()``), else kept. When its body reads no other aggregate's head, only the groups with
       bindings it has not seen are recomputed (``t<i>_<h>``: bindings using a tuple derived since its last
       computation); otherwise it is recomputed in full (``f<i>_<h>``). Its new tuples are those the previous
       value lacks.

    Inputs: ``f0_<p>`` and ``d0_<p>`` per predicate of the stratum (the first round passes the full relations as
    both), ``vo_first`` (one row in the first round), ``ch0_<h>`` per aggregate recomputed per group (whether the
    previous program's last layer recomputed it), ``r_<q>`` per predicate of lower strata. Outputs: see
    :class:`LayerPlan`, and ``vo_cnt(layer, k, n)``: the number of new tuples of the stratum's k-th predicate in
    each layer (the engine stops at the first layer without any and counts the rounds).
    """
    if not layerable(analysis, stratum):
        raise CompileError(f"stratum {', '.join(stratum.preds)} cannot be run in layers")
    b = ProgramBuilder(analysis)
    preds = list(stratum.preds)
    infos = analysis.predicates
    aggs = [ri for ri in stratum.rules if ri.aggregate is not None]
    agg_heads = [ri.rule.head[0].pred for ri in aggs]
    plain_preds = [p for p in preds if p not in agg_heads]
    groups = {ri.rule.head[0].pred: cols for ri in aggs
              if (cols := _group_columns(analysis, ri, agg_heads)) is not None}
    whole = [h for h in agg_heads if h not in groups]  # recomputed in full, copied per layer
    exact = {ri.rule.head[0].pred for ri in aggs if ri.rule.head[0].pred in groups and not ri.post_conditions}

    def xs(p: str) -> str:
        return ", ".join(f"x{i}" for i in range(infos[p].arity))

    def any_args(p: str) -> str:
        return ", ".join("_" for _ in range(infos[p].arity))

    def lower(p: str) -> str:
        rel = relation_name(p)
        if rel not in b.inputs:
            b.input(rel, infos[p].types)
        return rel

    # a per-group aggregate's head is read as a whole only by rules joining it with another atom of the stratum
    # and by aggregates recomputed in full: then its full value is materialized per layer (u<i>_<h>)
    materialize = {a.pred for ri in stratum.rules for a in ri.positives if a.pred in groups and (
        ri.aggregate is not None or sum(x.pred in stratum.preds for x in ri.positives) > 1)}
    # a plain predicate that no rule joins with another atom of the stratum is read as a whole only by aggregates
    # (one alternative per layer: f0 and every d<j>); the others accumulate this program's new tuples in n<i>_<p>
    accumulate = {a.pred for ri in stratum.rules for a in ri.positives if a.pred in plain_preds
                  and sum(x.pred in stratum.preds for x in ri.positives) > 1}

    def full(p: str, i: int) -> list[str]:
        """The relations whose union is the full relation of ``p`` after layer ``i``."""
        if i == 0:
            return [f"f0_{p}"]
        if p in plain_preds:
            return [f"f0_{p}", f"n{i}_{p}"] if p in accumulate else [f"f0_{p}", *(f"d{j}_{p}" for j in range(1, i + 1))]
        if p in groups:
            return [f"u{i}_{p}"]
        return [f"f{i}_{p}"]

    def alternatives(ri: RuleInfo, choice: Sequence[list[str]]) -> list[list[str]]:
        combos = [list(c) for c in itertools.product(*choice)]
        if len(combos) > _MAX_CASES:
            raise CompileError(f"rule too complex for Soufflé layers (more than {_MAX_CASES} cases) "
                               f"({rule_label(ri)})")
        return combos

    for p in preds:
        b.input(f"f0_{p}", infos[p].types)
        b.input(f"d0_{p}", infos[p].types)
    b.input(FIRST_RELATION, ())
    for h in groups:
        b.input(f"ch0_{h}", ())
    for i in range(1, layers + 1):
        for p in preds:
            b.decl(f"d{i}_{p}", infos[p].types)
        for p in plain_preds:
            b.decl(f"c{i}_{p}", infos[p].types)
            if p in accumulate:
                b.decl(f"n{i}_{p}", infos[p].types)
        # 1. plain rules (semi-naive), their new tuples
        for ri in stratum.rules:
            if ri.aggregate is not None:
                continue
            heads = [(h, f"c{i}_{h.pred}") for h in ri.rule.head]
            negs = [lower(a.pred) for a in ri.negations]
            rec = [k for k, a in enumerate(ri.positives) if a.pred in stratum.preds]
            if not rec:
                if i == 1:
                    b.rule(ri, heads, [lower(a.pred) for a in ri.positives], negs, guard=(f"{FIRST_RELATION}()",))
                continue
            for k in rec:
                choice = [[f"d{i - 1}_{a.pred}"] if m == k else full(a.pred, i - 1) if a.pred in stratum.preds
                          else [lower(a.pred)] for m, a in enumerate(ri.positives)]
                for pos in alternatives(ri, choice):
                    b.rule(ri, heads, pos, negs)
        for p in plain_preds:
            x = xs(p)
            old = "".join(f", !{r}({x})" for r in full(p, i - 1))
            b.clause(f"d{i}_{p}({x}) :- c{i}_{p}({x}){old}.")
            if p in accumulate:
                if i > 1:
                    b.clause(f"n{i}_{p}({x}) :- n{i - 1}_{p}({x}).")
                b.clause(f"n{i}_{p}({x}) :- d{i}_{p}({x}).")
        # 2. aggregates, in rule order, each reading the relations as they are when it runs
        done: set[str] = set()
        for ri in aggs:
            h = ri.rule.head[0].pred
            x = xs(h)
            changed = b.decl(f"ch{i}_{h}", ())
            if i == 1:
                b.clause(f"{changed}() :- {FIRST_RELATION}().")
            in_stratum = list(dict.fromkeys(a.pred for a in ri.positives if a.pred in stratum.preds))
            for q in in_stratum:
                b.clause(f"{changed}() :- d{i - 1}_{q}({any_args(q)}).")
            fresh = b.decl(f"a{i}_{h}", infos[h].types)
            choice = [full(a.pred, i if a.pred in plain_preds or a.pred in done else i - 1)
                      if a.pred in stratum.preds else [lower(a.pred)] for a in ri.positives]
            current = alternatives(ri, choice)
            negs = [lower(a.pred) for a in ri.negations]
            if h not in groups:  # recomputed over the whole relations
                b.decl(f"f{i}_{h}", infos[h].types)
                b.aggregate(ri, fresh, current[0], negs, guard=(f"{changed}()",), more_pos=current[1:])
                b.clause(f"f{i}_{h}({x}) :- {fresh}({x}).")
                b.clause(f"f{i}_{h}({x}) :- f{i - 1}_{h}({x}), !{changed}().")
                b.clause(f"d{i}_{h}({x}) :- {fresh}({x}), !f{i - 1}_{h}({x}).")
                done.add(h)
                continue
            # only the groups with body bindings the last computation did not see: those using a tuple derived
            # since (this layer's new tuples, and the previous layer's when it skipped the aggregate)
            cols = groups[h]
            touched = b.decl(f"t{i}_{h}", [t for t, _ in cols])
            if i == 1:
                for pos in current:
                    b.bindings(ri, touched, ri.group_vars, pos, negs, guard=(f"{FIRST_RELATION}()",))
            for k, a in enumerate(ri.positives):
                if a.pred in stratum.preds:
                    for delta, guard in ((f"d{i}_{a.pred}", ()), (f"d{i - 1}_{a.pred}", (f"!ch{i - 1}_{h}()",))):
                        for pos in alternatives(ri, choice[:k] + [[delta]] + choice[k + 1:]):
                            b.bindings(ri, touched, ri.group_vars, pos, negs, guard=(f"{changed}()", *guard))
            b.aggregate(ri, fresh, current[0], negs, more_pos=current[1:],
                        guard=(f"{touched}({', '.join(var_name(g) for g in ri.group_vars)})",))
            gx = ", ".join(f"x{c}" for _, c in cols)
            b.decl(f"o{i}_{h}", infos[h].types)
            b.clause(f"o{i}_{h}({x}) :- {fresh}({x}).")
            if i > 1:
                b.clause(f"o{i}_{h}({x}) :- o{i - 1}_{h}({x}), !{touched}({gx}).")
            # the groups recomputed in this program: o's group columns when every recomputed group has its tuple
            # there (no condition after the aggregate), else accumulated in g<i>
            keys = {c for _, c in cols}
            grel, gargs = ("o", ", ".join(f"x{c}" if c in keys else "_" for c in range(infos[h].arity))) \
                if h in exact else ("g", gx)
            if h not in exact:
                b.decl(f"g{i}_{h}", [t for t, _ in cols])
                if i > 1:
                    b.clause(f"g{i}_{h}({gx}) :- g{i - 1}_{h}({gx}).")
                b.clause(f"g{i}_{h}({gx}) :- {touched}({gx}).")
            if i == 1:
                b.clause(f"d{i}_{h}({x}) :- {fresh}({x}), !f0_{h}({x}).")
            else:
                b.clause(f"d{i}_{h}({x}) :- {fresh}({x}), !o{i - 1}_{h}({x}), !f0_{h}({x}).")
                b.clause(f"d{i}_{h}({x}) :- {fresh}({x}), !o{i - 1}_{h}({x}), {grel}{i - 1}_{h}({gargs}).")
            if h in materialize:
                b.decl(f"u{i}_{h}", infos[h].types)
                b.clause(f"u{i}_{h}({x}) :- o{i}_{h}({x}).")
                b.clause(f"u{i}_{h}({x}) :- f0_{h}({x}), !{grel}{i}_{h}({gargs}).")
            done.add(h)
        b.decl(COUNT_RELATION, ("int", "int", "int"))
        for k, p in enumerate(preds):
            b.clause(f"{COUNT_RELATION}({i}, {k}, n) :- n = count : {{ d{i}_{p}({any_args(p)}) }}.")
    n = layers
    grow = {p: (f"n{n}_{p}",) if p in accumulate else tuple(f"d{j}_{p}" for j in range(1, n + 1)) for p in plain_preds}
    for p in preds:
        b.output(f"d{n}_{p}", infos[p].types)
    for p in plain_preds:
        for rel in grow[p]:
            b.output(rel, infos[p].types)
    for h in whole:
        b.output(f"f{n}_{h}", infos[h].types)
    for h, cols in groups.items():
        b.output(f"o{n}_{h}", infos[h].types)
        if h not in exact:
            b.output(f"g{n}_{h}", [t for t, _ in cols])
        b.output(f"ch{n}_{h}", ())
    b.output(COUNT_RELATION, ("int", "int", "int"))
    plan = LayerPlan(grow=grow, replace={h: f"f{n}_{h}" for h in whole},
                     override={h: (f"o{n}_{h}", f"o{n}_{h}" if h in exact else f"g{n}_{h}", tuple(c for _, c in cols))
                               for h, cols in groups.items()},
                     deltas={p: f"d{n}_{p}" for p in preds}, computed={h: f"ch{n}_{h}" for h in groups})
    return b.render(), plan


def _group_columns(analysis: Analysis, ri: RuleInfo, agg_heads: Sequence[str]) -> list[tuple[ColType, int]] | None:
    """For an aggregate recomputed only for the groups that changed: per group variable, its type in the body and
    the head column holding it. None when that cannot be done: a body atom reads a relation the stratum replaces
    each round (another aggregate's head: its tuples can disappear), or a head column's type differs from the
    variable's (an int stored in a float column)."""
    if any(a.pred in agg_heads for a in ri.positives):
        return None
    probe = ProgramBuilder(analysis)
    try:
        types = probe.bindings(ri, "t", ri.group_vars, [f"x{k}" for k in range(len(ri.positives))],
                               [f"y{k}" for k in range(len(ri.negations))])
    except CompileError:
        return None
    head = ri.rule.head[0]
    head_types = analysis.predicates[head.pred].types
    cols = []
    for g, t in zip(ri.group_vars, types, strict=True):
        pos = next((j for j, arg in enumerate(head.args) if isinstance(arg, A.Var) and arg.name == g), None)
        if pos is None or SOUFFLE_TYPES[head_types[pos]] != SOUFFLE_TYPES[t]:
            return None
        cols.append((t, pos))
    return cols


def compile_analysis(analysis: Analysis) -> str:
    """The whole program as one Soufflé text (inputs: base data; outputs: every defined predicate), for programs
    whose strata need no runner help. Used for inspection and the golden tests."""
    seeded = [p for p in analysis.facts if analysis.predicates[p].kind == "idb"]
    return compile_strata(analysis, analysis.strata, seeded=seeded).text


__all__ = ["COUNT_RELATION", "ERROR_RELATION", "FIRST_RELATION", "FUNCTIONS", "LayerPlan", "ProgramBuilder",
           "SouffleProgram",
           "compile_analysis", "compile_layers", "compile_strata", "layerable", "needs_runner", "relation_name", "souffle_float", "souffle_literal", "souffle_string"]
