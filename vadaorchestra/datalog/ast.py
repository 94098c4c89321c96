"""AST of the dialect: small frozen dataclasses; source spans never take part in equality."""

from __future__ import annotations

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


Statement = Rule | Fact | Constraint | Annotation


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
        return [s for s in self.statements if isinstance(s, Fact)]

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
