"""A tiny naive bottom-up evaluator over the AST: the oracle of the property tests (LANGUAGE.md, Semantics/Aggregation).

Deliberately slow and simple, and independent of the engines: it shares nothing with ``vadaorchestra.datalog`` but the
AST classes. Covered: facts, positive and negated atoms (``_`` matches anything), comparisons, assignments with
``+ - * /`` and unary minus (``V = e`` with ``V`` already bound is a comparison), stratified aggregates
``sum count min max avg`` over the distinct bindings of the named body variables, and monotonic aggregates
``msum mcount mmax mmin`` (with or without contributors), recomputed each round inside recursion with the group's old
tuple replaced. Set semantics throughout; no existentials, parameters or function calls.
"""

from __future__ import annotations

import operator
from collections import defaultdict

from vadaorchestra.datalog.ast import (
    Aggregate,
    Assignment,
    Atom,
    BinOp,
    Comparison,
    Const,
    Neg,
    Negation,
    Program,
    Rule,
    Var,
)

CMP = {"==": operator.eq, "=": operator.eq, "!=": operator.ne, "<>": operator.ne, "<": operator.lt,
       "<=": operator.le, ">": operator.gt, ">=": operator.ge}
ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}
Env = dict[str, object]


def evaluate(program: Program) -> dict[str, set[tuple]]:
    """Every predicate's set of tuples after evaluating ``program`` stratum by stratum."""
    db: dict[str, set[tuple]] = defaultdict(set)
    for fact in program.facts:
        db[fact.atom.pred].add(tuple(t.value for t in fact.atom.args))
    for stratum in strata(program.rules):
        rules = [r for r in program.rules if r.head[0].pred in stratum]
        while True:  # naive fixpoint: apply every rule of the stratum until nothing changes
            before = {p: frozenset(db[p]) for p in stratum}
            for rule in rules:
                apply(rule, db)
            if all(db[p] == before[p] for p in stratum):
                break
    return dict(db)


# --- stratification ---------------------------------------------------------------------------------------------------

def body_atoms(rule: Rule) -> list[tuple[Atom, bool]]:
    """(atom, is_negative_edge): negated atoms, and every atom of a rule with a stratified aggregate, are negative."""
    agg = aggregate_of(rule)
    stratified = agg is not None and not agg[1].monotonic
    out = []
    for lit in rule.body:
        if isinstance(lit, Atom):
            out.append((lit, stratified))
        elif isinstance(lit, Negation):
            out.append((lit.atom, True))
    return out


def strata(rules: list[Rule]) -> list[set[str]]:
    """SCCs of the predicate dependency graph in dependency order; raises if negation lies on a cycle."""
    idb = {h.pred for r in rules for h in r.head}
    deps: dict[str, set[str]] = {p: set() for p in idb}
    negative: set[tuple[str, str]] = set()
    for r in rules:
        for h in r.head:
            deps[h.pred] |= {o.pred for o in r.head if o.pred != h.pred}  # heads of one rule share a stratum
            for atom, neg in body_atoms(r):
                if atom.pred in idb:
                    deps[h.pred].add(atom.pred)
                    if neg:
                        negative.add((h.pred, atom.pred))

    def reach(p: str) -> set[str]:
        seen, todo = set(), [p]
        while todo:
            for q in deps[todo.pop()] - seen:
                seen.add(q)
                todo.append(q)
        return seen

    reaches = {p: reach(p) for p in idb}
    sccs = {frozenset({p} | {q for q in reaches[p] if p in reaches[q]}) for p in idb}
    ordered: list[set[str]] = []
    while sccs:
        ready = next(s for s in sccs if all(d in s or any(d in o for o in ordered) for p in s for d in deps[p]))
        if any(h in ready and b in ready for h, b in negative):
            raise ValueError(f"not stratified: {sorted(ready)}")
        ordered.append(set(ready))
        sccs.remove(ready)
    return ordered


# --- rule application -------------------------------------------------------------------------------------------------

def aggregate_of(rule: Rule) -> tuple[Assignment, Aggregate] | None:
    for lit in rule.body:
        if isinstance(lit, Assignment) and isinstance(lit.value, Aggregate):
            return lit, lit.value
    return None


def names(node) -> set[str]:
    """Named (non-anonymous) variables of an expression, atom or literal."""
    match node:
        case Var(name=n):
            return set() if n == "_" else {n}
        case BinOp(left=left, right=right) | Comparison(left=left, right=right):
            return names(left) | names(right)
        case Neg(operand=x):
            return names(x)
        case Atom(args=args):
            return set().union(*(names(a) for a in args))
        case Negation(atom=a):
            return names(a)
        case Assignment(var=v, value=x):
            return names(v) | names(x)
        case Aggregate(expr=x, contributors=cs):
            return (names(x) if x is not None else set()) | {c.name for c in cs or ()}
    return set()


def ev(expr, env: Env):
    match expr:
        case Var(name=n):
            return env[n]
        case Const(value=v):
            return v
        case Neg(operand=x):
            return -ev(x, env)
        case BinOp(op=op, left=left, right=right):
            return ARITH[op](ev(left, env), ev(right, env))
    raise NotImplementedError(f"reference evaluator: {expr!r}")


def match(atom: Atom, row: tuple, env: Env) -> Env | None:
    """``env`` extended so that ``atom`` matches ``row``, or None."""
    env = dict(env)
    for term, value in zip(atom.args, row, strict=True):
        if isinstance(term, Const):
            if term != Const(value):
                return None
        elif term.name == "_":
            continue
        elif term.name in env:
            if env[term.name] != value:
                return None
        else:
            env[term.name] = value
    return env


def solve(lits, db, envs: list[Env]) -> list[Env]:
    """Bindings satisfying ``lits``: positive atoms first, then each other literal as soon as its inputs are bound."""
    for atom in [x for x in lits if isinstance(x, Atom)]:
        envs = [e2 for e in envs for row in db.get(atom.pred, ()) if (e2 := match(atom, row, e)) is not None]
    out = []
    for env in envs:
        env, todo = dict(env), [x for x in lits if not isinstance(x, Atom)]
        while todo and env is not None:
            lit = next(x for x in todo if names(x.value if isinstance(x, Assignment) else x) <= env.keys())
            todo.remove(lit)
            if isinstance(lit, Assignment):
                value = ev(lit.value, env)
                if lit.var.name not in env:
                    env[lit.var.name] = value
                elif env[lit.var.name] != value:
                    env = None
            elif isinstance(lit, Comparison):
                env = env if CMP[lit.op](ev(lit.left, env), ev(lit.right, env)) else None
            elif any(match(lit.atom, row, env) is not None for row in db.get(lit.atom.pred, ())):
                env = None
        if env is not None:
            out.append(env)
    return out


def instantiate(atom: Atom, env: Env) -> tuple:
    return tuple(env[t.name] if isinstance(t, Var) else t.value for t in atom.args)


def apply(rule: Rule, db) -> None:
    agg = aggregate_of(rule)
    if agg is None:
        for env in solve(rule.body, db, [{}]):
            for head in rule.head:
                db[head.pred].add(instantiate(head, env))
        return
    lit, aggregate = agg
    result = lit.var.name
    # literals reading the result (directly or through assignments) apply after aggregation
    after: set[str] = {result}
    atom_vars = set().union(*(names(x) for x in rule.body if isinstance(x, Atom)))
    post = []
    for x in rule.body:
        if x is not lit and not isinstance(x, (Atom, Negation)) and names(x.value if isinstance(x, Assignment) else x) & after:
            post.append(x)
            if isinstance(x, Assignment) and x.var.name not in atom_vars:
                after.add(x.var.name)
    pre = [x for x in rule.body if x is not lit and x not in post]
    head = rule.head[0]
    group_vars = sorted({t.name for t in head.args if isinstance(t, Var)} - after)
    body_vars = sorted(set().union(*(names(x) for x in pre)))
    bindings = {tuple(env[v] for v in body_vars) for env in solve(pre, db, [{}])}  # distinct bindings
    groups: dict[tuple, list[Env]] = defaultdict(list)
    for b in bindings:
        env = dict(zip(body_vars, b, strict=True))
        groups[tuple(env[g] for g in group_vars)].append(env)
    fresh = set()
    for key, envs in groups.items():
        env = dict(zip(group_vars, key, strict=True))
        env[result] = compute(aggregate, envs)
        for env2 in solve(post, db, [env]):
            fresh.add(instantiate(head, env2))
    if aggregate.monotonic:  # the group's tuple is replaced by its current value
        positions = [i for i, t in enumerate(head.args) if isinstance(t, Var) and t.name in after]

        def group(row: tuple) -> tuple:
            return tuple(v for i, v in enumerate(row) if i not in positions)

        keys = {group(r) for r in fresh}
        db[head.pred] = {r for r in db[head.pred] if group(r) not in keys} | fresh
    else:
        db[head.pred] |= fresh


def compute(agg: Aggregate, envs: list[Env]):
    func = agg.func
    values = [1 if agg.expr is None else ev(agg.expr, env) for env in envs]
    if agg.contributors is not None:  # each contributor tuple once, with its largest (smallest for mmin) value
        best: dict[tuple, object] = {}
        pick = min if func == "mmin" else max
        for env, v in zip(envs, values, strict=True):
            c = tuple(env[x.name] for x in agg.contributors)
            best[c] = pick(best[c], v) if c in best else v
        values = list(best.values())
    if func in ("count", "mcount"):
        return len(values)
    if func in ("sum", "msum"):
        return sum(values)
    if func in ("min", "mmin"):
        return min(values)
    if func in ("max", "mmax"):
        return max(values)
    if func == "avg":
        return sum(values) / len(values)
    raise NotImplementedError(f"reference evaluator: aggregate {func}")
