"""Set-at-a-time parameters: a program run once for every row of a source predicate, as one evaluation.

``bind_each(program, each, source)`` turns the ``$name`` parameters of ``each`` into variables bound by the rows of
``source`` (an atom over a materialized predicate, e.g. ``exposure("Bank Gamma", Borrower, _)``). Every predicate
whose facts depend on a bound parameter gets the parameters' values as leading key columns, so the program computes,
in one evaluation, the union of what it computes for each row separately: recursion, negation and aggregates stay per
key (a group of an aggregate includes the key; ``not p(X)`` becomes ``not p(K, X)``). The output predicate keeps its
schema: ``out(X) :- out_each(K, X).`` collects every key's facts.

A rule of a keyed predicate that reads no keyed predicate gets the source atom in its body, so an empty source
yields no facts, as zero calls would. Predicates that depend on no bound parameter are left as they are (computed
once, not once per key).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from vadaorchestra.datalog import ast as A
from vadaorchestra.datalog.types import fits
from vadaorchestra.errors import VadaError, ValidationError


def substitute_params(program: A.Program, replace) -> A.Program:
    """The program with every ``$name`` term for which ``replace(param)`` returns a term replaced by that term."""

    def term(t):
        if isinstance(t, A.Param) and (new := replace(t)) is not None:
            return new
        return t

    def expr(e):
        match e:
            case A.Param():
                return term(e)
            case A.BinOp(op=op, left=left, right=right, span=span):
                return A.BinOp(op, expr(left), expr(right), span)
            case A.Neg(operand=operand, span=span):
                return A.Neg(expr(operand), span)
            case A.Call(func=func, args=args, span=span):
                return A.Call(func, tuple(expr(a) for a in args), span)
            case A.Aggregate(func=func, expr=inner, contributors=c, span=span):
                return A.Aggregate(func, None if inner is None else expr(inner), c, span)
        return e

    def atom(a: A.Atom) -> A.Atom:
        return A.Atom(a.pred, tuple(term(t) for t in a.args), a.span)

    def literal(lit):
        match lit:
            case A.Atom():
                return atom(lit)
            case A.Negation(atom=at, span=span):
                return A.Negation(atom(at), span)
            case A.Comparison(op=op, left=left, right=right, span=span):
                return A.Comparison(op, expr(left), expr(right), span)
            case A.Assignment(var=var, value=value, span=span):
                return A.Assignment(var, expr(value), span)
        return lit

    out = []
    for s in program.statements:
        match s:
            case A.Fact(atom=at, span=span):
                out.append(A.Fact(atom(at), span))
            case A.Rule(head=head, body=body, arrow=arrow, span=span):
                out.append(A.Rule(tuple(atom(h) for h in head), tuple(literal(b) for b in body), arrow, span))
            case A.Constraint(body=body, span=span):
                out.append(A.Constraint(tuple(literal(b) for b in body), span))
            case _:
                out.append(s)
    return A.Program(tuple(out), program.source, program.text)


def _mentions(stmt: A.Statement, names: set[str]) -> bool:
    found = False

    def probe(p: A.Param):
        nonlocal found
        found = found or p.name in names
        return None

    substitute_params(A.Program((stmt,)), probe)
    return found


def _atoms(body) -> list[A.Atom]:
    return [lit if isinstance(lit, A.Atom) else lit.atom for lit in body if isinstance(lit, A.Atom | A.Negation)]


def bind_each(program: A.Program, each: Mapping[str, str], source: A.Atom, *, output: str) -> A.Program:
    """Bind the parameters ``each`` (parameter -> variable of ``source``) to the rows of ``source``.

    ``output`` is the predicate whose facts the caller wants (its schema is kept). Other parameters must have been
    bound to constants already.
    """
    if any(isinstance(s, A.FactBlock) for s in program.statements):  # keyed facts become rules, one by one
        program = program.expanded()
    src_vars = {a.name for a in source.args if isinstance(a, A.Var) and not a.anonymous}
    missing = sorted(v for v in each.values() if v not in src_vars)
    if missing:
        raise ValidationError(f"the source atom binds no variable {', '.join(missing)}")
    names = set(each)
    keys = list(dict.fromkeys(each.values()))  # one key column per distinct source variable
    defined = {s.atom.pred for s in program.statements if isinstance(s, A.Fact)}
    defined |= {h.pred for s in program.statements if isinstance(s, A.Rule) for h in s.head}
    taken = defined | {a.pred for s in program.statements if isinstance(s, A.Rule | A.Constraint)
                       for a in _atoms(s.body)} | {source.pred}

    def fresh(base: str) -> str:
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base}_{n}"
        taken.add(name)
        return name

    # the keyed predicates: the output, and every predicate whose rules mention a bound parameter or read a keyed one
    keyed: set[str] = {output}
    changed = True
    while changed:
        changed = False
        for s in program.statements:
            if isinstance(s, A.Rule) and not {h.pred for h in s.head} <= keyed:
                if _mentions(s, names) or any(a.pred in keyed for a in _atoms(s.body)):
                    keyed |= {h.pred for h in s.head}
                    changed = True
            elif isinstance(s, A.Fact) and s.atom.pred not in keyed and _mentions(s, names):
                keyed.add(s.atom.pred)  # "member($operator_name).": one fact per key
                changed = True
    if not any(_mentions(s, names) for s in program.statements):
        raise ValidationError(f"the program uses no parameter {', '.join(sorted(names))}")
    inner_output = fresh(f"{output}_each")
    src_pred = fresh("each_source")
    used = {v.name for s in program.statements if isinstance(s, A.Rule | A.Constraint | A.Fact)
            for v in _vars(s)}
    key_vars = {k: A.Var(_fresh_var(f"Each{i}", used)) for i, k in enumerate(keys)}
    bound = substitute_params(program, lambda p: key_vars[each[p.name]] if p.name in names else None)
    key_terms = tuple(key_vars[k] for k in keys)

    def rename(pred: str) -> str:
        return inner_output if pred == output else pred

    def keyed_atom(a: A.Atom) -> A.Atom:
        if a.pred not in keyed:
            return a
        return A.Atom(rename(a.pred), key_terms + a.args, a.span)

    def keyed_body(body) -> tuple:
        out = []
        for lit in body:
            if isinstance(lit, A.Atom):
                out.append(keyed_atom(lit))
            elif isinstance(lit, A.Negation):
                out.append(A.Negation(keyed_atom(lit.atom), lit.span))
            else:
                out.append(lit)
        if not any(isinstance(lit, A.Atom) and lit.pred in keyed for lit in body):
            out.insert(0, A.Atom(src_pred, key_terms))
        return tuple(out)

    statements: list[A.Statement] = []
    for s in bound.statements:
        match s:
            case A.Rule(head=head, body=body, arrow=arrow, span=span) if any(h.pred in keyed for h in head):
                statements.append(A.Rule(tuple(keyed_atom(h) for h in head), keyed_body(body), arrow, span))
            case A.Fact(atom=at, span=span) if at.pred in keyed:
                statements.append(A.Rule((keyed_atom(at),), (A.Atom(src_pred, key_terms),), ":-", span))
            case A.Constraint(body=body, span=span):
                statements.append(A.Constraint(keyed_body(body) if any(a.pred in keyed for a in _atoms(body))
                                               else body, span))
            case A.Annotation(name="mapping", args=args, span=span) if args and args[0].value in keyed - {output}:
                statements.append(A.Annotation("mapping", (args[0], A.Const(int(args[1].value) + len(keys)),
                                                           *args[2:]), span))
            case _:
                statements.append(s)
    src_args = tuple(key_vars.get(a.name, a) if isinstance(a, A.Var) else a for a in source.args)
    statements.append(A.Rule((A.Atom(src_pred, key_terms),), (A.Atom(source.pred, src_args, source.span),)))
    out_vars = tuple(A.Var(_fresh_var(f"Out{i}", used)) for i in range(_arity(program, output)))
    statements.append(A.Rule((A.Atom(output, out_vars),), (A.Atom(inner_output, key_terms + out_vars),)))
    return A.Program(tuple(statements), program.source, program.text)


def _arity(program: A.Program, pred: str) -> int:
    for s in program.statements:
        if isinstance(s, A.Rule):
            for h in s.head:
                if h.pred == pred:
                    return h.arity
        elif isinstance(s, A.Fact) and s.atom.pred == pred:
            return s.atom.arity
    raise ValidationError(f"the program defines no predicate {pred!r}")


def _vars(stmt) -> list[A.Var]:
    match stmt:
        case A.Fact(atom=at):
            return A.literal_vars(at)
        case A.Rule(head=head, body=body):
            return [v for h in head for v in A.literal_vars(h)] + [v for b in body for v in A.literal_vars(b)]
        case A.Constraint(body=body):
            return [v for b in body for v in A.literal_vars(b)]
    return []


def _fresh_var(base: str, used: set[str]) -> str:
    name = base
    while name in used:
        name += "_"
    used.add(name)
    return name


def each_source(tool: str, param_types: Mapping[str, str], pred: str, cols: Sequence[str], types: Sequence[str],
                for_each: Mapping[str, str], where: Mapping[str, A.ConstValue]) -> tuple[A.Atom, dict[str, str]]:
    """The source atom of a set-at-a-time call (``exposure("Bank Gamma", C1_Borrower, _)``) over ``pred`` with
    columns ``cols`` of ``types``, and the variable of each parameter of ``for_each`` (``{param: "pred.column"}``);
    ``where`` values become typed constants. Every name is checked (:class:`VadaError` saying which is wrong)."""
    def column(col: str) -> int:
        if isinstance(col, str) and col in cols:
            return list(cols).index(col)
        raise VadaError(f"unknown column {col!r} of predicate {pred!r}; its attributes: {', '.join(cols)}")

    terms: list[A.Term] = [A.Var("_")] * len(cols)
    each = {}
    for name, ref in for_each.items():
        i = column(ref.split(".")[1])
        want = param_types[name]
        if not (types[i] == want or (want == "float" and types[i] == "int")):
            raise VadaError(f"tool {tool!r}: parameter {name!r} is a {want}, but {ref} is a {types[i]}")
        var = f"C{i}_" + "".join(ch for ch in cols[i].title() if ch.isalnum())
        terms[i], each[name] = A.Var(var), var
    for col, value in where.items():
        i = column(col)
        if isinstance(terms[i], A.Var) and not terms[i].anonymous:
            raise VadaError(f"tool {tool!r}: column {col!r} of {pred!r} is both bound by \"each\" and filtered by "
                            f"\"where\"")
        if not fits(value, types[i]):
            kind = "number" if types[i] == "float" else types[i]
            raise VadaError(f"tool {tool!r}: where[{col!r}] must be a {kind} here, got {value!r}")
        terms[i] = A.Const(value)
    return A.Atom(pred, tuple(terms)), each


def each_forms(tool: str, given: Mapping[str, object]) -> tuple[dict[str, str], dict[str, A.ConstValue]]:
    """Of a call's parameters, those given as ``{"each": "pred.column", "where": {...}}``: ``{param: "pred.column"}``
    and the one ``where`` they share, checked (:class:`VadaError` saying what is wrong). Constant values are skipped."""
    for_each: dict[str, str] = {}
    where: dict[str, A.ConstValue] = {}
    for name, form in given.items():
        if not isinstance(form, Mapping):
            continue
        extra = sorted(set(form) - {"each", "where"})
        ref = form.get("each")
        if extra or not isinstance(ref, str) or ref.count(".") != 1 or not all(ref.split(".")):
            raise VadaError(f"tool {tool!r}: parameter {name!r} given as an object must be "
                            f'{{"each": "predicate.column"}} with an optional "where": {{"column": value}}, '
                            f"got {dict(form)!r}")
        w = form.get("where") or {}
        if not isinstance(w, Mapping) or not all(isinstance(v, str | int | float | bool) for v in w.values()):
            raise VadaError(f"tool {tool!r}: \"where\" of parameter {name!r} must map columns to values, got {w!r}")
        for col, value in w.items():
            if col in where and where[col] != value:
                raise VadaError(f"tool {tool!r}: the \"where\" of two parameters disagree on {col!r}")
            where[col] = value
        for_each[name] = ref
    return for_each, where
