"""Compile normalized rules (:class:`~vadaorchestra.datalog.validator.RuleInfo`) to DuckDB SQL text.

Pure functions: the engine decides which table each atom reads (full relation or delta) and passes a mapping; every
value reaches SQL as an escaped literal, so no constant can break out of its quotes. Column ``i`` of every relation the
compiled SQL reads is named ``c{i}``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from vadaorchestra.datalog import ast as A
from vadaorchestra.datalog.types import FUNCTIONS, ColType, type_of_value
from vadaorchestra.datalog.validator import RuleInfo
from vadaorchestra.errors import CompileError

SQL_TYPES: dict[str, str] = {"string": "VARCHAR", "int": "BIGINT", "float": "DOUBLE", "bool": "BOOLEAN"}


def quote_ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def sql_string(value: str) -> str:
    if "\x00" in value:
        raise CompileError(f"string constant {value!r} contains a NUL character, which DuckDB cannot store")
    return "'" + value.replace("'", "''") + "'"


def sql_literal(value: object, typ: ColType | None = None) -> str:
    """An SQL literal for a constant, cast to the column type when one is given."""
    if isinstance(value, bool):
        text = "TRUE" if value else "FALSE"
    elif isinstance(value, int):
        text = f"CAST({value} AS BIGINT)" if -(2**63) <= value < 2**63 else None
        if text is None:
            raise CompileError(f"integer constant {value} does not fit in 64 bits")
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise CompileError(f"float constant {value!r} is not finite")
        text = f"CAST({value!r} AS DOUBLE)"
    else:
        text = sql_string(str(value))
    if typ is not None and typ != type_of_value(value):
        return f"CAST({text} AS {SQL_TYPES[typ]})"
    return text


class _Env:
    """Variable → SQL expression bindings for one rule, plus the rule label used in run-time error messages."""

    def __init__(self, ri: RuleInfo, label: str):
        self.ri = ri
        self.label = label
        self.sql: dict[str, str] = {}
        self.types: Mapping[str, ColType | None] = ri.var_types

    def type_of(self, expr) -> ColType | None:
        match expr:
            case A.Var(name=name):
                return self.types.get(name)
            case A.Const(value=value):
                return type_of_value(value)
            case A.Neg(operand=operand):
                return self.type_of(operand)
            case A.BinOp(op=op, left=left, right=right):
                lt, rt = self.type_of(left), self.type_of(right)
                if op == "+" and "string" in (lt, rt):
                    return "string"
                if op == "/" or "float" in (lt, rt):
                    return "float"
                return "int" if lt == rt == "int" else lt or rt
            case A.Call(func=func, args=args):
                if func == "round" and len(args) == 2:
                    return "float"
                result = FUNCTIONS[func][1]
                return result if result is not None else self.type_of(args[0])
        return None

    def expr(self, expr) -> str:
        match expr:
            case A.Var(name=name):
                if name not in self.sql:
                    raise CompileError(f"variable {name!r} is not bound ({self.label})")
                return self.sql[name]
            case A.Const(value=value):
                return sql_literal(value)
            case A.Param(name=name):
                raise CompileError(f"parameter ${name} is not bound to a value ({self.label})")
            case A.Neg(operand=operand):
                return f"(-{self.expr(operand)})"
            case A.BinOp(op=op, left=left, right=right):
                a, b = self.expr(left), self.expr(right)
                if op == "+" and self.type_of(expr) == "string":
                    return f"({a} || {b})"
                if op == "/":
                    msg = sql_string(f"division by zero in {self.label}")
                    return f"(CASE WHEN ({b}) = 0 THEN error({msg}) ELSE CAST({a} AS DOUBLE) / ({b}) END)"
                return f"({a} {op} {b})"
            case A.Call(func=func, args=args):
                return self._call(func, args)
        raise CompileError(f"cannot compile expression {expr!r} ({self.label})")

    def _call(self, func: str, args: Sequence) -> str:
        s = [self.expr(a) for a in args]
        t0 = self.type_of(args[0]) if args else None
        match func:
            case "abs":
                return f"abs({s[0]})"
            case "round":
                if len(s) == 2:
                    return f"round(CAST({s[0]} AS DOUBLE), CAST({s[1]} AS INTEGER))"
                return f"CAST(round(CAST({s[0]} AS DOUBLE)) AS BIGINT)"
            case "floor" | "ceil":
                return f"CAST({func}(CAST({s[0]} AS DOUBLE)) AS BIGINT)"
            case "concat":
                return "(" + " || ".join(self._to_string(a, x) for a, x in zip(args, s, strict=True)) + ")"
            case "to_lower":
                return f"lower({s[0]})"
            case "to_upper":
                return f"upper({s[0]})"
            case "substring":
                return f"substring({s[0]}, CAST({s[1]} AS BIGINT) + 1, CAST({s[2]} AS BIGINT))"
            case "string_length":
                return f"CAST(length({s[0]}) AS BIGINT)"
            case "contains":
                return f"contains({s[0]}, {s[1]})"
            case "starts_with":
                return f"starts_with({s[0]}, {s[1]})"
            case "ends_with":
                return f"suffix({s[0]}, {s[1]})"
            case "to_string":
                return self._to_string(args[0], s[0])
            case "to_int":
                if t0 == "float":
                    return f"CAST(trunc({s[0]}) AS BIGINT)"
                if t0 == "string":
                    return f"CAST(trunc(CAST({s[0]} AS DOUBLE)) AS BIGINT)"
                return f"CAST({s[0]} AS BIGINT)"
            case "to_float":
                return f"CAST({s[0]} AS DOUBLE)"
        raise CompileError(f"unknown function {func!r} ({self.label})")

    def _to_string(self, arg, sql: str) -> str:
        if self.type_of(arg) == "bool":
            return f"(CASE WHEN {sql} THEN '#T' ELSE '#F' END)"
        return f"CAST({sql} AS VARCHAR)"

    def condition(self, cond: A.Comparison) -> str:
        op = {"==": "=", "=": "=", "!=": "<>", "<>": "<>"}.get(cond.op, cond.op)
        return f"({self.expr(cond.left)} {op} {self.expr(cond.right)})"


def rule_label(ri: RuleInfo) -> str:
    head = ", ".join(h.pred for h in ri.rule.head) or "#F"
    where = f" at {ri.span}" if ri.span is not None else ""
    return f"rule for {head}{where}"


def bindings_sql(ri: RuleInfo, tables: Sequence[str], negation_tables: Sequence[str], *, distinct: bool = True) -> tuple[str, _Env]:
    """``SELECT [DISTINCT] <every body variable AS "v_Name"> FROM <atoms> WHERE <joins, constants, conditions>``.

    ``tables[i]`` is the SQL relation the i-th positive atom reads; ``negation_tables[j]`` the j-th negated atom's.
    Conditions after an aggregate are not applied here.
    """
    env = _Env(ri, rule_label(ri))
    froms: list[str] = []
    wheres: list[str] = []
    for i, (atom, table) in enumerate(zip(ri.positives, tables, strict=True)):
        alias = f"t{i}"
        froms.append(f"{table} AS {alias}")
        for j, term in enumerate(atom.args):
            col = f"{alias}.c{j}"
            match term:
                case A.Var(anonymous=True):
                    pass
                case A.Var(name=name):
                    if name in env.sql:
                        wheres.append(f"{env.sql[name]} = {col}")
                    else:
                        env.sql[name] = col
                case A.Const(value=value):
                    wheres.append(f"{col} = {sql_literal(value)}")
                case A.Param(name=name):
                    raise CompileError(f"parameter ${name} is not bound to a value ({env.label})")
    for name, expr in ri.assignments:
        env.sql[name] = env.expr(expr)
    for cond in ri.conditions:
        wheres.append(env.condition(cond))
    for k, (atom, table) in enumerate(zip(ri.negations, negation_tables, strict=True)):
        alias = f"n{k}"
        conds = []
        for j, term in enumerate(atom.args):
            match term:
                case A.Var(anonymous=True):
                    pass
                case A.Var(name=name):
                    conds.append(f"{alias}.c{j} = {env.sql[name]}")
                case A.Const(value=value):
                    conds.append(f"{alias}.c{j} = {sql_literal(value)}")
        where = " AND ".join(conds) or "TRUE"
        wheres.append(f"NOT EXISTS (SELECT 1 FROM {table} AS {alias} WHERE {where})")
    names = list(ri.body_vars)
    select = ", ".join(f"{env.sql[n]} AS {quote_ident('v_' + n)}" for n in names) or "TRUE AS v__"
    sql = f"SELECT {'DISTINCT ' if distinct else ''}{select}"
    if froms:
        sql += " FROM " + ", ".join(froms)
    if wheres:
        sql += " WHERE " + " AND ".join(wheres)
    return sql, env


def needs_distinct(ri: RuleInfo, set_preds: frozenset[str] | set[str]) -> bool:
    """False when the join already yields distinct bindings: every atom reads a relation known to be a set
    (``set_preds``) and every column is a named variable or a constant, so each binding determines the atom tuples it
    came from and no projection can merge two of them."""
    return any(a.pred not in set_preds or any(isinstance(t, A.Var) and t.anonymous for t in a.args)
               for a in ri.positives)


def new_tuples_sql(select: str, full: str, arity: int, *, distinct: bool = True) -> str:
    """The distinct tuples of ``select`` that ``full`` does not hold yet. An explicit ANTI JOIN: DuckDB then hashes
    the new tuples and probes them with a scan of ``full`` (RIGHT_ANTI), where NOT EXISTS becomes a null-aware MARK
    join hashing all of ``full`` (company control's check of 40k new pairs against 813k: 64 ms -> 22 ms; EXCEPT:
    53 ms). No column holds NULL, so the two agree. ``distinct=False`` when ``select`` has no duplicate already."""
    cols = [f"c{i}" for i in range(arity)] or ["c_"]
    match = " AND ".join(f"f.{c} = n.{c}" for c in cols)
    source = f"SELECT DISTINCT * FROM ({select})" if distinct else select
    return f"SELECT * FROM ({source}) AS n ANTI JOIN {full} AS f ON {match}"


def head_projection(ri: RuleInfo, atom: A.Atom, env_sql: Mapping[str, str], types: Sequence[ColType]) -> str:
    cols = []
    for i, term in enumerate(atom.args):
        match term:
            case A.Var(name=name):
                expr = env_sql[name]
            case A.Const(value=value):
                expr = sql_literal(value)
            case _:
                raise CompileError(f"parameter in head of {atom.pred!r} is not bound ({rule_label(ri)})")
        cols.append(f"CAST({expr} AS {SQL_TYPES[types[i]]}) AS c{i}")
    return ", ".join(cols) or "TRUE AS c_"


def rule_sql(ri: RuleInfo, head: A.Atom, head_types: Sequence[ColType], tables: Sequence[str],
             negation_tables: Sequence[str]) -> str:
    """SELECT computing the head tuples of a rule without aggregate or existential variables."""
    body, env = bindings_sql(ri, tables, negation_tables, distinct=False)
    outer = {n: quote_ident("v_" + n) for n in ri.body_vars}
    return f"SELECT {head_projection(ri, head, outer, head_types)} FROM ({body}) AS b"


_AGG_SQL = {"sum": "sum", "msum": "sum", "min": "min", "mmin": "min", "max": "max", "mmax": "max", "avg": "avg",
            "prod": "product", "mprod": "product"}
# Float sums are exact, hence the same bits whatever the thread count and the order of the rows: DuckDB's parallel
# ``sum(DOUBLE)`` adds partial sums in the order threads finish (5 distinct outputs in 6 runs measured, issue 10).
# Each value becomes a binary fixed-point integer with 64 fraction bits (x * 2^64 rounded, exact for every value that
# is a multiple of 2^-64: all amounts, all shares of 1/1024), the integers are summed exactly as HUGEINT, and the sum
# is converted back once. A value or sum of magnitude 2^63 (9.2e18) or more fails the rule with a located error. Sorting the
# values before a compensated sum (fsum ORDER BY) was the first design: exact enough, but it took 1.7x the time on
# the 1M-loans workload and 1.3-1.7x on company control (benchmarks/README.md). Products keep a fixed order: sorted.
_SCALE = "18446744073709551616.0"  # 2^64
_X = "(CAST({v} AS DOUBLE) + CAST(0 AS DOUBLE))"
_EXACT_SUM = f"(CAST(sum(CAST({_X} * {_SCALE} AS HUGEINT)) AS DOUBLE) / {_SCALE})"
_FLOAT_AGG = {
    "sum": _EXACT_SUM,
    "msum": _EXACT_SUM,
    "avg": f"({_EXACT_SUM} / count(*))",
    "prod": f"product({_X} ORDER BY {_X})",
    "mprod": f"product({_X} ORDER BY {_X})",
}


FLOAT_AGGREGATES = frozenset(_FLOAT_AGG)  # the aggregates of floats computed exactly (or in a fixed order) here


def aggregate_sql(ri: RuleInfo, head_types: Sequence[ColType], tables: Sequence[str],
                  negation_tables: Sequence[str], *, distinct: bool = True, groups_in: str | None = None) -> str:
    """SELECT computing an aggregate rule's head: aggregate over the distinct bindings (or per contributor tuple).

    ``distinct=False`` is allowed only when :func:`needs_distinct` says the bindings are distinct already.
    ``groups_in``: a relation with columns ``g0..gk`` (the group variables in order): only those groups."""
    assert ri.aggregate is not None
    var, agg = ri.aggregate
    body, env = bindings_sql(ri, tables, negation_tables, distinct=distinct)
    if groups_in is not None:
        on = " AND ".join(f"b0.{quote_ident('v_' + g)} = t0.g{i}" for i, g in enumerate(ri.group_vars))
        body = f"SELECT b0.* FROM ({body}) AS b0 SEMI JOIN {groups_in} AS t0 ON {on}"
    inner = _Env(ri, env.label)
    inner.sql = {n: quote_ident("v_" + n) for n in ri.body_vars}
    groups = [quote_ident("v_" + g) for g in ri.group_vars]
    value = "1" if agg.expr is None else inner.expr(agg.expr)
    agg_type = ri.var_types.get(var) or "float"
    if agg.contributors is not None:
        contributors = [quote_ident("v_" + c.name) for c in agg.contributors or ()]
        per = "max" if agg.func in ("msum", "mcount", "mmax") else "min"
        inner_group = ", ".join(groups + contributors) or "()"
        inner_select = ", ".join(groups + [f"{per}({value}) AS __e"])
        source = f"(SELECT {inner_select} FROM ({body}) AS b GROUP BY {inner_group}) AS b2"
        value = "__e"
    else:
        source = f"({body}) AS b"
    if agg.func in ("count", "mcount"):
        agg_expr = "count(*)"
    elif agg.func in _FLOAT_AGG and agg_type == "float":
        agg_expr = _FLOAT_AGG[agg.func].replace("{v}", value)
    else:
        agg_expr = f"{_AGG_SQL[agg.func]}({value})"
    agg_expr = f"CAST({agg_expr} AS {SQL_TYPES[agg_type]})"
    group_select = ", ".join(groups + [f"{agg_expr} AS {quote_ident('v_' + var)}"])
    # without groups an empty input still gives one row (of NULLs), which HAVING drops; with groups every group has
    # a row, and the filter was one more expression per group for nothing (company control: each round's re-sum)
    group_by = f" GROUP BY {', '.join(groups)}" if groups else " HAVING count(*) > 0"
    aggregated = f"SELECT {group_select} FROM {source}{group_by}"
    post = _Env(ri, env.label)
    post.sql = {n: quote_ident("v_" + n) for n in [*ri.group_vars, var]}
    for name, expr in ri.post_assignments:
        post.sql[name] = post.expr(expr)
    wheres = [post.condition(c) for c in ri.post_conditions]
    sql = f"SELECT {head_projection(ri, ri.rule.head[0], post.sql, head_types)} FROM ({aggregated}) AS g"
    if wheres:
        sql += " WHERE " + " AND ".join(wheres)
    return sql


def existential_candidates_sql(ri: RuleInfo, body_sql: str, head_tables: Sequence[str]) -> str:
    """Frontier bindings of an existential rule for which no existing head facts satisfy the head (restricted chase).

    ``body_sql`` is the rule's bindings query; the result has columns ``f0..fk`` in frontier order.
    """
    frontier = list(ri.frontier)
    cols = ", ".join(f"{quote_ident('v_' + v)} AS f{i}" for i, v in enumerate(frontier)) or "TRUE AS f_"
    # the head atoms joined, with frontier positions tied to the candidate and existentials tied across atoms
    froms, wheres = [], []
    exist_col: dict[str, str] = {}
    for k, (atom, table) in enumerate(zip(ri.rule.head, head_tables, strict=True)):
        alias = f"h{k}"
        froms.append(f"{table} AS {alias}")
        for j, term in enumerate(atom.args):
            col = f"{alias}.c{j}"
            match term:
                case A.Var(name=name) if name in ri.frontier:
                    wheres.append(f"{col} = cand.f{frontier.index(name)}")
                case A.Var(name=name):
                    if name in exist_col:
                        wheres.append(f"{col} = {exist_col[name]}")
                    else:
                        exist_col[name] = col
                case A.Const(value=value):
                    wheres.append(f"{col} = {sql_literal(value)}")
    check = f"SELECT 1 FROM {', '.join(froms)}" + (f" WHERE {' AND '.join(wheres)}" if wheres else "")
    return f"SELECT DISTINCT * FROM (SELECT {cols} FROM ({body_sql}) AS b) AS cand WHERE NOT EXISTS ({check})"


def existential_head_sql(ri: RuleInfo, atom: A.Atom, head_types: Sequence[ColType], nulls_table: str) -> str:
    """Project a head atom from the table of new frontier bindings with their fresh nulls (columns f*, e*)."""
    env = {v: f"f{i}" for i, v in enumerate(ri.frontier)}
    env.update({v: f"e{i}" for i, v in enumerate(ri.existentials)})
    return f"SELECT {head_projection(ri, atom, env, head_types)} FROM {nulls_table}"
