"""AST → text. ``parse(format_program(p)) == p`` for every program ``p`` (a tested property)."""

from __future__ import annotations

import math

from vadaorchestra.datalog import ast as A

_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}
_ESCAPE = str.maketrans({'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t"})


def format_const(value: A.ConstValue) -> str:
    """A constant as source text: strings quoted and escaped, floats always with a decimal point or exponent."""
    if isinstance(value, bool):
        return "#T" if value else "#F"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"cannot write non-finite float {value!r} as a constant")
        text = repr(value)
        if "e" in text:
            mantissa, exponent = text.split("e")
            if "." not in mantissa:
                mantissa += ".0"
            text = f"{mantissa}e{exponent}"
        return text
    return '"' + value.translate(_ESCAPE) + '"'


def format_expr(expr: A.Expr | A.Aggregate, parent: int = 0) -> str:
    match expr:
        case A.Var(name=name):
            return name
        case A.Param(name=name):
            return f"${name}"
        case A.Const(value=value):
            text = format_const(value)
            return f"({text})" if text.startswith("-") and parent > 0 else text
        case A.Neg(operand=operand):
            inner = format_expr(operand, 3)
            return f"-{inner}" if parent == 0 else f"(-{inner})"
        case A.BinOp(op=op, left=left, right=right):
            prec = _PRECEDENCE[op]
            text = f"{format_expr(left, prec)} {op} {format_expr(right, prec + 1)}"
            return f"({text})" if prec < parent else text
        case A.Call(func=func, args=args):
            return f"{func}({', '.join(format_expr(a) for a in args)})"
        case A.Aggregate(func=func, expr=inner, contributors=contributors):
            parts = [] if inner is None else [format_expr(inner)]
            if contributors is not None:
                parts.append("<" + ", ".join(v.name for v in contributors) + ">")
            return f"{func}({', '.join(parts)})"
    raise TypeError(f"not an expression: {expr!r}")


def format_atom(atom: A.Atom) -> str:
    return f"{atom.pred}({', '.join(format_expr(a) for a in atom.args)})"


def format_literal(lit: A.BodyLiteral) -> str:
    match lit:
        case A.Atom():
            return format_atom(lit)
        case A.Negation(atom=atom):
            return f"not {format_atom(atom)}"
        case A.Comparison(op=op, left=left, right=right):
            return f"{format_expr(left)} {op} {format_expr(right)}"
        case A.Assignment(var=var, value=value):
            return f"{var.name} = {format_expr(value)}"
    raise TypeError(f"not a literal: {lit!r}")


def format_statement(stmt: A.Statement) -> str:
    match stmt:
        case A.Fact(atom=atom):
            return f"{format_atom(atom)}."
        case A.FactBlock(pred=pred, rows=rows):
            return "\n".join(f"{pred}({', '.join(map(format_const, row))})." for row in rows)
        case A.Rule(head=head, body=body):
            return f"{', '.join(format_atom(h) for h in head)} :- {', '.join(format_literal(b) for b in body)}."
        case A.Constraint(body=body):
            return f"#F :- {', '.join(format_literal(b) for b in body)}."
        case A.Annotation(name=name, args=args):
            return f"@{name}({', '.join(format_const(a.value) for a in args)})."
    raise TypeError(f"not a statement: {stmt!r}")


def format_program(program: A.Program) -> str:
    """The whole program, one statement per line."""
    return "".join(format_statement(s) + "\n" for s in program.statements)
