"""AST of the dialect: small frozen dataclasses; source spans never take part in equality."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal as TLiteral

from vadaorchestra.errors import Span

ConstValue = str | int | float | bool

AGGREGATES = frozenset({"sum", "count", "min", "max", "avg", "prod", "msum", "mcount", "mmin", "mmax", "mprod"})
MONOTONIC_AGGREGATES = frozenset({"msum", "mcount", "mmin", "mmax", "mprod"})
COMPARISON_OPS = ("==", "!=", "<>", "<", "<=", ">", ">=", "=")


def _span() -> Span | None:
    return field(default=None, compare=False, repr=False)  # type: ignore[return-value]


# --- terms and expressions -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Var:
    name: str
    span: Span | None = _span()

    @property
    def anonymous(self) -> bool:
        return self.name == "_"


@dataclass(frozen=True, slots=True)
class Const:
    value: ConstValue
    span: Span | None = _span()

    def __eq__(self, other: object) -> bool:
        # 1 == 1.0 == True in Python; constants of different types are different constants here.
        return isinstance(other, Const) and type(self.value) is type(other.value) and self.value == other.value

    def __hash__(self) -> int:
        return hash((type(self.value).__name__, self.value))


@dataclass(frozen=True, slots=True)
class Param:
    """A ``$name`` catalog parameter, replaced by a constant before evaluation."""

    name: str
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class BinOp:
    op: TLiteral["+", "-", "*", "/"]
    left: Expr
    right: Expr
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class Neg:
    operand: Expr
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class Call:
    """A built-in function application, e.g. ``abs(X)`` or ``substring(S,0,3)``."""

    func: str
    args: tuple[Expr, ...]
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class Aggregate:
    """``agg(expr)`` or ``magg(expr, <C1,...,Ck>)``; only allowed as the whole right side of an assignment."""

    func: str
    expr: Expr | None
    contributors: tuple[Var, ...] | None = None
    span: Span | None = _span()

    @property
    def monotonic(self) -> bool:
        return self.func in MONOTONIC_AGGREGATES


Term = Var | Const | Param
Expr = Var | Const | Param | BinOp | Neg | Call


# --- literals and statements ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Atom:
    pred: str
    args: tuple[Term, ...]
    span: Span | None = _span()

    @property
    def arity(self) -> int:
        return len(self.args)


@dataclass(frozen=True, slots=True)
class Negation:
    atom: Atom
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class Comparison:
    op: str
    left: Expr
    right: Expr
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class Assignment:
    """``V = expr`` or ``V = agg(...)``. When ``V`` is bound elsewhere in the body it is a comparison instead."""

    var: Var
    value: Expr | Aggregate
    span: Span | None = _span()


BodyLiteral = Atom | Negation | Comparison | Assignment


@dataclass(frozen=True, slots=True)
class Rule:
    head: tuple[Atom, ...]
    body: tuple[BodyLiteral, ...]
    arrow: str = field(default=":-", compare=False)
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class Fact:
    atom: Atom
    span: Span | None = _span()


class LineIndex:
    """Where each line of a program text starts: turns an offset into a 1-based line and column."""

    __slots__ = ("source", "starts")

    def __init__(self, source: str, starts: Sequence[int]):
        self.source = source
        self.starts = starts

    def position(self, offset: int) -> tuple[int, int]:
        line = bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1

    def span(self, start: int, end: int) -> Span:
        line, column = self.position(start)
        return Span(self.source, line, column, line, column + end - start)


@dataclass(frozen=True, slots=True, eq=False)
class FactBlock:
    """Consecutive plain facts of one predicate and arity, as the parser reads the facts of a large program: their
    values and where each one is in the text, without an object per fact and constant (issue 11: 100,000 inline facts
    must parse and validate in under a second). :meth:`facts` makes the :class:`Fact` objects when one is asked for;
    ``Program.facts`` gives them for every block. Two blocks are equal when they hold the same facts."""

    pred: str
    arity: int
    rows: Sequence[tuple[ConstValue, ...]]
    starts: Sequence[int]  # offset in the text of each fact's predicate name
    ends: Sequence[int]  # offset just after each fact's ')'
    lines: LineIndex = field(compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def span(self) -> Span:
        """The first fact's span."""
        return self.span_of(0)

    def span_of(self, i: int) -> Span:
        return self.lines.span(self.starts[i], self.ends[i])

    def term_span(self, text: str, i: int, j: int) -> Span:
        """The span of argument ``j`` of the ``i``-th fact, found again in the program ``text``."""
        from vadaorchestra.datalog.parser import const_spans  # the parser knows the constants' syntax

        found = const_spans(text, self.starts[i], self.ends[i])
        return self.lines.span(*found[j]) if j < len(found) else self.span_of(i)

    def facts(self) -> list[Fact]:
        return [Fact(Atom(self.pred, tuple(Const(v) for v in row), span), span)
                for row, span in zip(self.rows, map(self.span_of, range(len(self.rows))), strict=True)]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FactBlock):
            return NotImplemented
        typed = lambda rows: [tuple((type(v), v) for v in r) for r in rows]  # noqa: E731 (1 == 1.0 == True)
        return self.pred == other.pred and self.arity == other.arity and typed(self.rows) == typed(other.rows)

    def __hash__(self) -> int:  # consistent with __eq__, and cheap
        return hash((self.pred, self.arity, len(self.rows)))


@dataclass(frozen=True, slots=True)
class Constraint:
    """A negative constraint ``#F :- body.``"""

    body: tuple[BodyLiteral, ...]
    span: Span | None = _span()


@dataclass(frozen=True, slots=True)
class Annotation:
    name: str
    args: tuple[Const, ...]
    span: Span | None = _span()


Statement = Rule | Fact | FactBlock | Constraint | Annotation


@dataclass(frozen=True, slots=True)
class Program:
    statements: tuple[Statement, ...]
    source: str = field(default="<program>", compare=False)
    text: str | None = field(default=None, compare=False, repr=False)

    @property
    def rules(self) -> list[Rule]:
        return [s for s in self.statements if isinstance(s, Rule)]

    @property
    def facts(self) -> list[Fact]:
        """Every fact, those of :class:`FactBlock` statements made one by one (costly for a large block)."""
        return [f for s in self.statements for f in (s.facts() if isinstance(s, FactBlock) else
                                                     [s] if isinstance(s, Fact) else [])]

    def fact_predicates(self) -> set[str]:
        """The predicates the program gives facts of (cheap, also for large blocks)."""
        return {s.pred if isinstance(s, FactBlock) else s.atom.pred for s in self.statements
                if isinstance(s, Fact | FactBlock)}

    def expanded(self) -> Program:
        """The same program with every :class:`FactBlock` as its :class:`Fact` statements."""
        return Program(tuple(f for s in self.statements for f in (s.facts() if isinstance(s, FactBlock) else [s])),
                       self.source, self.text)

    @property
    def constraints(self) -> list[Constraint]:
        return [s for s in self.statements if isinstance(s, Constraint)]

    def annotations(self, name: str | None = None) -> list[Annotation]:
        return [s for s in self.statements if isinstance(s, Annotation) and (name is None or s.name == name)]


# --- small traversals -------------------------------------------------------------------------------------------------


def expr_vars(expr: Expr | Aggregate | None) -> list[Var]:
    """Variables of an expression (with repetition, in order)."""
    match expr:
        case None | Const() | Param():
            return []
        case Var():
            return [expr]
        case BinOp(left=left, right=right):
            return expr_vars(left) + expr_vars(right)
        case Neg(operand=operand):
            return expr_vars(operand)
        case Call(args=args):
            return [v for a in args for v in expr_vars(a)]
        case Aggregate(expr=inner, contributors=contributors):
            return expr_vars(inner) + list(contributors or ())
    raise TypeError(f"not an expression: {expr!r}")


def literal_vars(lit: BodyLiteral) -> list[Var]:
    match lit:
        case Atom(args=args):
            return [a for a in args if isinstance(a, Var)]
        case Negation(atom=atom):
            return literal_vars(atom)
        case Comparison(left=left, right=right):
            return expr_vars(left) + expr_vars(right)
        case Assignment(var=var, value=value):
            return [var, *expr_vars(value)]
    raise TypeError(f"not a literal: {lit!r}")


def is_recursive(program: Program) -> bool:
    """Whether a rule of the program defines a predicate through itself, directly or through other rules."""
    edges: dict[str, set[str]] = {}
    for rule in program.rules:
        body = {(lit.atom if isinstance(lit, Negation) else lit).pred for lit in rule.body
                if isinstance(lit, Atom | Negation)}
        for h in rule.head:
            edges.setdefault(h.pred, set()).update(body)

    def reaches(start: str) -> bool:
        seen, todo = set(), list(edges.get(start, ()))
        while todo:
            p = todo.pop()
            if p == start:
                return True
            if p not in seen:
                seen.add(p)
                todo += edges.get(p, ())
        return False

    return any(reaches(p) for p in edges)


def has_division(expr: Expr | None) -> bool:
    """Whether an expression divides (anywhere inside, function arguments included)."""
    match expr:
        case BinOp(op=op, left=left, right=right):
            return op == "/" or has_division(left) or has_division(right)
        case Neg(operand=operand):
            return has_division(operand)
        case Call(args=args):
            return any(has_division(a) for a in args)
    return False
