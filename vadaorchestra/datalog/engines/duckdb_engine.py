"""Bottom-up evaluation of an analyzed program inside a DuckDB connection.

Every intermediate relation is a TEMP table of the connection; the target database is written only at the very end,
in one transaction, and only when evaluation succeeded — an error of any kind leaves it as it was.
Recursive strata are evaluated semi-naively; rules with monotonic aggregates are recomputed from the full relations
each round (their value per group at the fixpoint is what remains); existential rules follow the restricted chase.
"""

from __future__ import annotations

import functools
import itertools
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import duckdb

from vadaorchestra.datalog import ast as A
from vadaorchestra.datalog import sql as S
from vadaorchestra.datalog.validator import Analysis, Bind, PredInfo, RuleInfo, Stratum
from vadaorchestra.errors import (
    Cancelled,
    ConstraintViolation,
    Diagnostic,
    EngineError,
    LimitExceeded,
    RoundLimitExceeded,
    VadaError,
)

if TYPE_CHECKING:
    from vadaorchestra.datalog.limits import Budget

_RUN_IDS = itertools.count(1)
DUCKDB_TYPE_MAP = {
    "VARCHAR": "string", "BOOLEAN": "bool", "DOUBLE": "float", "FLOAT": "float", "REAL": "float",
    "BIGINT": "int", "INTEGER": "int", "SMALLINT": "int", "TINYINT": "int", "HUGEINT": "int", "UBIGINT": "int",
    "UINTEGER": "int", "USMALLINT": "int", "UTINYINT": "int",
}


def our_type(duckdb_type: str) -> str:
    """Map a DuckDB column type to the dialect's column type (decimals are floats, anything else is a string)."""
    t = duckdb_type.upper()
    if t.startswith("DECIMAL"):
        return "float"
    return DUCKDB_TYPE_MAP.get(t, "string")


class Evaluation(NamedTuple):
    rows: dict[str, list[tuple]]
    counts: dict[str, int]
    next_null: int


class DuckDBEngine:
    """Evaluate analyzed programs on a DuckDB connection (an in-memory or file database)."""

    name = "duckdb"

    def __init__(self, connection: duckdb.DuckDBPyConnection, *, max_rounds: int = 1000, max_witnesses: int = 10,
                 progress: Callable[[str], None] | None = None, budget: Budget | None = None,
                 max_rows: int | None = None):
        """``budget``: the call's time and cancellation (checked before each statement; its interrupts end a running
        one); ``max_rows``: the most facts a derived predicate may hold (checked after each round)."""
        self.con = connection
        self.max_rounds = max_rounds
        self.budget = budget
        self.max_rows = max_rows
        self.max_witnesses = max_witnesses
        self.progress = progress or (lambda _msg: None)

    # ------------------------------------------------------------------------------------------------------------
    def evaluate(
        self,
        analysis: Analysis,
        *,
        inputs: Mapping[str, Sequence[tuple]] | None = None,
        collect: Sequence[str] = (),
        materialize: Mapping[str, str] | None = None,
        null_start: int = 1,
        limit: int | None = None,
        append: bool = False,
    ) -> Evaluation:
        """Evaluate the program; return the sorted rows of each collected predicate (at most ``limit`` of each), the
        cardinality of each collected or materialized predicate, and the next free null number.

        ``materialize`` maps predicates to table names written into the connection's database when (and only when)
        the whole evaluation succeeds; with ``append`` the rows are added to an existing table (set semantics: rows it
        already holds are not added twice) instead of replacing it.
        """
        run = self.new_run(analysis, inputs or {}, null_start)
        run.prepare(set(collect) | set(materialize or {}))
        try:
            run.load()
            run.run_strata()
            run.check_constraints()
            rows = {p: run.fetch(p, limit) for p in collect}
            counts = {p: run.cardinality(p) for p in dict.fromkeys([*collect, *(materialize or {})])}
            if materialize:
                run.materialize(materialize, append)
            return Evaluation(rows, counts, run.next_null)
        finally:
            run.cleanup()

    def new_run(self, analysis: Analysis, inputs, null_start: int) -> _Run:
        """The per-evaluation state; engines built on this one return their own subclass."""
        return _Run(self, analysis, inputs, null_start)


class _Run:
    def __init__(self, engine: DuckDBEngine, analysis: Analysis, inputs, null_start: int):
        self.engine = engine
        self.con = engine.con
        self.a = analysis
        self.inputs = inputs
        self.prefix = f"__vo{next(_RUN_IDS)}_"
        self.tables: dict[str, str] = {}
        self.created: dict[str, str] = {}  # name -> kind (TABLE, VIEW) of what cleanup drops, in creation order
        self.next_null = null_start
        self.attached: list[str] = []
        self.round_no = 0
        self.db_columns: dict[str, list[str]] | None = None  # main schema tables and views -> columns, read once
        self.views: set[str] = set()
        self.sets: set[str] = set()
        self.kept: set[str] = set()

    def prepare(self, kept: set[str]) -> None:
        """Plan the evaluation before anything is loaded; ``kept`` are the predicates returned or materialized."""
        self.kept = set(kept)
        self.plan_views(kept)

    def run_strata(self) -> None:
        for stratum in self.a.strata:
            try:
                self.stratum(stratum)
            except (duckdb.InterruptException, LimitExceeded, Cancelled) as exc:
                # stopped in a statement that names no rule (a count, a copy of a round's delta): name the stratum's
                budget = self.engine.budget
                if isinstance(exc, VadaError) and exc.diagnostics:
                    raise
                ri = stratum.rules[0]
                label = S.rule_label(ri) if len(stratum.rules) == 1 else f"rules for {', '.join(stratum.preds)}"
                if isinstance(exc, LimitExceeded) and exc.limit == "memory":
                    raise self.out_of_memory(label, ri.span) from None
                if budget is None or budget.reason is None:
                    raise
                raise budget.error(label, ri.span, self.a.program.text) from None

    def plan_views(self, kept: set[str]) -> None:
        """Decide which relations are sets and which intermediates can stay views.

        A predicate of a non-recursive stratum without facts or existential rules, read by exactly one body atom of
        a non-recursive rule and not returned, is computed inside its reader's query (a TEMP VIEW) instead of being
        stored: the 'part' of a join + aggregate then costs what the hand-written query costs.
        """
        reads: dict[str, list[RuleInfo]] = {}
        recursive_rules = {ri.index for s in self.a.strata if s.recursive for ri in s.rules}
        for ri in [r for s in self.a.strata for r in s.rules] + list(self.a.constraints):
            for atom in ri.positives + ri.negations:
                reads.setdefault(atom.pred, []).append(ri)
        for stratum in self.a.strata:
            if stratum.recursive or len(stratum.preds) != 1:
                continue
            (p,) = stratum.preds
            readers = reads.get(p, [])
            if (p not in kept and not self.a.facts.get(p) and len(readers) == 1
                    and readers[0].index not in recursive_rules and readers[0] not in self.a.constraints
                    and not any(ri.existentials for ri in stratum.rules)):
                self.views.add(p)
        self.sets = self.set_relations()

    def set_relations(self) -> set[str]:
        """The predicates whose relations hold no duplicate: database tables are read through plain views and may
        hold duplicates; everything loaded or derived here is a set."""
        return {p for p, i in self.a.predicates.items() if i.kind not in ("input", "external") or p in self.inputs}

    # --- plumbing ---------------------------------------------------------------------------------------------------
    def exec(self, sql: str, label: str = "", span=None, params=None):
        budget = self.engine.budget
        if budget is not None:
            budget.check(label, span, self.a.program.text)
        try:
            return self.con.execute(sql, params) if params is not None else self.con.execute(sql)
        except duckdb.InterruptException:
            if budget is not None and budget.reason is not None:
                raise budget.error(label, span, self.a.program.text) from None
            text = f"{label}: interrupted" if label else "interrupted"
            raise EngineError(text, [Diagnostic(span, text)] if span else [], self.a.program.text) from None
        except duckdb.OutOfMemoryException:
            raise self.out_of_memory(label, span) from None
        except duckdb.Error as exc:
            msg = str(exc).split("\n")[0]
            for prefix in ("Invalid Input Error: ", "Conversion Error: ", "Out of Range Error: "):
                msg = msg.replace(prefix, "")
            if "INT128" in msg or "HUGEINT" in msg:  # the exact float sum of sql._EXACT_SUM ran out of range
                msg = ("a float sum reaches 2^63 (9.2e18) in magnitude: floats are summed exactly, as fixed point "
                       "with 64 fraction bits, up to that bound (docs/LANGUAGE-NOTES.md)")
            text = f"{label}: {msg}" if label and label not in msg else msg
            raise EngineError(text, [Diagnostic(span, text)] if span else [], self.a.program.text) from None

    def out_of_memory(self, label: str, span) -> LimitExceeded:
        try:
            limit = self.con.execute("SELECT current_setting('memory_limit')").fetchone()[0]
        except duckdb.Error:
            limit = "?"
        where = f" while evaluating the {label}" if label.startswith("rule") else f" while {label}" if label else ""
        text = f"memory limit exceeded: the call needed more than the database's {limit}{where}; nothing was written"
        return LimitExceeded(text, [Diagnostic(span, text)] if span else [], self.a.program.text, limit="memory")

    def check_rows(self, stratum: Stratum) -> None:
        """Fail when a predicate of the stratum holds more facts than the engine's ``max_rows``."""
        cap = self.engine.max_rows
        if cap is None:
            return
        for p in stratum.preds:
            if p in self.views or p not in self.tables:
                continue
            n = self.count(self.tables[p])
            if n > cap:
                ri = next(r for r in stratum.rules if any(h.pred == p for h in r.rule.head))
                text = (f"row limit exceeded: {p!r} holds {n} facts, more than the {cap} a predicate may hold, "
                        f"derived by the {S.rule_label(ri)}; nothing was written")
                raise LimitExceeded(text, [Diagnostic(ri.span, text)], self.a.program.text, limit="rows")

    def temp(self, base: str) -> str:
        return S.quote_ident(self.prefix + base)

    def count(self, table: str) -> int:
        return self.con.execute(f"SELECT count(*) FROM {table}").fetchone()[0]

    def drop(self, table: str) -> None:
        """Drop a TEMP table of this run now (cleanup then has nothing left to do for it)."""
        self.con.execute(f"DROP TABLE IF EXISTS {table}")
        self.created.pop(table, None)

    def columns_ddl(self, info: PredInfo) -> str:
        if info.arity == 0:
            return "c_ BOOLEAN"
        return ", ".join(f"c{i} {S.SQL_TYPES[t]}" for i, t in enumerate(info.types))

    def create_table(self, name: str, info: PredInfo) -> str:
        table = self.temp(name)
        self.exec(f"CREATE TEMP TABLE {table} ({self.columns_ddl(info)})")
        self.created[table] = "TABLE"
        return table

    def cleanup(self) -> None:
        for name, kind in reversed(list(self.created.items())):
            try:
                self.con.execute(f"DROP {kind} IF EXISTS {name}")
            except duckdb.Error:
                pass
        for alias in self.attached:
            try:
                self.con.execute(f"DETACH {alias}")
            except duckdb.Error:
                pass

    # --- loading ----------------------------------------------------------------------------------------------------
    def load(self) -> None:
        binds = {b.pred: b for b in self.a.binds}
        for name, info in self.a.predicates.items():
            if info.kind == "bind":
                self.tables[name] = self.load_bind(binds[name], info)
            elif info.kind in ("input", "external"):
                self.tables[name] = self.load_external(name, info)
            else:
                self.tables[name] = self.create_table(name, info)
                rows = self.a.facts.get(name, ())
                if rows:
                    self.insert_rows(self.tables[name], info, rows)

    def insert_rows(self, table: str, info: PredInfo, rows: Sequence[tuple]) -> None:
        if info.arity == 0:
            self.exec(f"INSERT INTO {table} VALUES (TRUE)")
            return
        if 20 < len(rows) <= 250_000 and "pandas" not in sys.modules:
            # as one list per column, unnested by DuckDB: no pandas to import (0.6 s of a cold `datalog run`), no
            # SQL text to parse (17 relations of LUBM, 8 to 1,000 rows: 0.23 s as VALUES, 0.02 s this way);
            # beyond this size a DataFrame is faster (1M numeric rows: 0.9 s against 2.1 s)
            columns = [[r[i] for r in rows] for i in range(info.arity)]
            cols = ", ".join(f"unnest(${i + 1}::{S.SQL_TYPES[t]}[]) AS c{i}" for i, t in enumerate(info.types))
            self.exec(f"INSERT INTO {table} SELECT DISTINCT * FROM (SELECT {cols})", f"loading rows of {table}",
                      params=columns)
            return
        if len(rows) > 1000:  # large inputs travel as a DataFrame, not as SQL text
            import pandas as pd

            frame = pd.DataFrame(rows, columns=[f"c{i}" for i in range(info.arity)])
            name = f"{self.prefix}rows"
            self.con.register(name, frame)
            try:
                casts = ", ".join(f"CAST(c{i} AS {S.SQL_TYPES[t]})" for i, t in enumerate(info.types))
                self.exec(f"INSERT INTO {table} SELECT DISTINCT {casts} FROM {S.quote_ident(name)}",
                          f"loading rows of {table}")
            finally:
                self.con.unregister(name)
            return
        values = ", ".join("(" + ", ".join(S.sql_literal(v, t) for v, t in zip(r, info.types, strict=True)) + ")"
                           for r in rows)
        self.exec(f"INSERT INTO {table} SELECT DISTINCT * FROM (VALUES {values})")

    def load_external(self, name: str, info: PredInfo) -> str:
        if name in self.inputs:
            table = self.create_table(name, info)
            rows = [tuple(r) for r in self.inputs[name]]
            bad = [r for r in rows if len(r) != info.arity]
            if bad:
                raise EngineError(f"input rows for {name!r} must have {info.arity} values, got {bad[0]!r}")
            if rows:
                self.insert_rows(table, info, rows)
            return table
        if self.db_columns is None:  # every table and view of the database's main schema, in one query
            self.db_columns = {}
            for table, column in self.con.execute(
                    "SELECT table_name, column_name FROM duckdb_columns() WHERE schema_name = 'main' "
                    "AND database_name = current_database() ORDER BY table_name, column_index").fetchall():
                self.db_columns.setdefault(table, []).append(column)
        if name not in self.db_columns:
            raise EngineError(f"no data for predicate {name!r}: it is neither bound with @bind nor a table of the "
                              "database")
        cols = self.db_columns[name]
        if len(cols) != info.arity:
            raise EngineError(f"table {name!r} has {len(cols)} columns but the program uses {info.arity}")
        view = self.temp(name)
        select = ", ".join(f"CAST({S.quote_ident(c)} AS {S.SQL_TYPES[t]}) AS c{i}"
                           for i, (c, t) in enumerate(zip(cols, info.types, strict=True))) or "TRUE AS c_"
        self.exec(f"CREATE TEMP VIEW {view} AS SELECT {select} FROM main.{S.quote_ident(name)}")
        self.created[view] = "VIEW"
        return view

    def load_bind(self, bind: Bind, info: PredInfo) -> str:
        path = S.sql_string(str(bind.path))
        label = f"@bind of {bind.pred!r} ({bind.path.name})"
        match bind.kind:
            case "csv":
                source = f"read_csv({path}, header = true, all_varchar = true)"
            case "parquet":
                source = f"read_parquet({path})"
            case "duckdb":
                alias = S.quote_ident(self.prefix + "db" + str(len(self.attached)))
                self.exec(f"ATTACH {path} AS {alias} (READ_ONLY)", label, bind.span)
                self.attached.append(alias)
                source = f"{alias}.main.{S.quote_ident(bind.table or bind.pred)}"
            case _:
                raise EngineError(f"unknown @bind kind {bind.kind!r}")
        cols = [r[0] for r in self.exec(f"DESCRIBE SELECT * FROM {source}", label, bind.span).fetchall()]
        if len(cols) != info.arity:
            text = f"{label}: the source has {len(cols)} column(s) but {bind.pred!r} has {info.arity}"
            raise EngineError(text, [Diagnostic(bind.span, text)], self.a.program.text)
        exprs = []
        for i, (c, t) in enumerate(zip(cols, info.types, strict=True)):
            col = S.quote_ident(c)
            if t == "string":
                exprs.append(f"COALESCE(CAST({col} AS VARCHAR), '') AS c{i}")
            else:
                exprs.append(f"CAST({col} AS {S.SQL_TYPES[t]}) AS c{i}")
        table = self.temp(bind.pred)
        self.exec(f"CREATE TEMP TABLE {table} AS SELECT DISTINCT {', '.join(exprs)} FROM {source}", label, bind.span)
        self.created[table] = "TABLE"
        nulls = " OR ".join(f"c{i} IS NULL" for i in range(info.arity))
        if nulls and self.con.execute(f"SELECT count(*) FROM {table} WHERE {nulls}").fetchone()[0]:
            text = f"{label}: empty value in a {'/'.join(sorted(set(info.types) - {'string'}))} column"
            raise EngineError(text, [Diagnostic(bind.span, text)], self.a.program.text)
        return table

    # --- strata -----------------------------------------------------------------------------------------------------
    use_cte = True  # linear recursion as one WITH RECURSIVE query (off where every round must be seen: explain)

    def stratum(self, stratum: Stratum) -> None:
        self.engine.progress(f"stratum {', '.join(stratum.preds)}" + (" (recursive)" if stratum.recursive else ""))
        if not stratum.recursive:
            self.round(stratum, None)
            self.check_rows(stratum)
            return
        if self.use_cte and self.linear_cte(stratum):
            self.check_rows(stratum)
            return
        deltas = self.round(stratum, None)
        rounds = 0
        while any(n for n, _ in deltas.values()):
            self.check_rows(stratum)
            rounds += 1
            if rounds > self.engine.max_rounds:
                self.drop_deltas(deltas)
                raise self.round_limit(stratum, deltas)
            new = self.round(stratum, deltas)
            self.drop_deltas(deltas)
            deltas = new
        self.drop_deltas(deltas)
        self.check_rows(stratum)

    def linear_cte(self, stratum: Stratum) -> bool:
        """One predicate defined by plain rules that read it at most once each and compute no new values (transitive
        closure, reachability): DuckDB's own recursive CTE (UNION: set semantics, so it terminates) computes the same
        fixpoint as the semi-naive rounds, in one query. False (nothing done) for any other stratum."""
        if len(stratum.preds) != 1:
            return False
        (p,) = stratum.preds
        for ri in stratum.rules:
            if (ri.aggregate is not None or ri.existentials or ri.assignments or len(ri.rule.head) != 1
                    or any(a.pred == p for a in ri.negations) or sum(a.pred == p for a in ri.positives) > 1):
                return False
        info = self.a.predicates[p]
        full = self.tables[p]
        rec = S.quote_ident(self.prefix + p + "_rec")
        base, step = [f"SELECT * FROM {full}"], []
        for ri in stratum.rules:
            tables, negs = self.rule_tables(ri, None, None)
            recursive = [k for k, a in enumerate(ri.positives) if a.pred == p]
            for k in recursive:
                tables[k] = rec
            (base if not recursive else step).append(S.rule_sql(ri, ri.rule.head[0], info.types, tables, negs))
        if not step:
            return False
        cols = ", ".join(f"c{i}" for i in range(info.arity)) or "c_"
        union = " UNION ".join(f"({q})" for q in base)
        steps = " UNION ALL ".join(f"({q})" for q in step)
        label = f"rules for {p!r}" if len(stratum.rules) > 1 else S.rule_label(stratum.rules[0])
        self.exec(f"INSERT INTO {full} WITH RECURSIVE {rec}({cols}) AS (SELECT * FROM ({union}) "
                  f"UNION SELECT * FROM ({steps})) SELECT * FROM {rec} EXCEPT SELECT * FROM {full}", label,
                  stratum.rules[0].span if len(stratum.rules) == 1 else None)
        return True

    def drop_deltas(self, deltas) -> None:
        for _, table in deltas.values():
            if table:
                self.drop(table)

    def round_limit(self, stratum: Stratum, deltas) -> RoundLimitExceeded:
        active = [ri for ri in stratum.rules if any(deltas.get(h.pred, (0, None))[0] for h in ri.rule.head)]
        # with existential rules in the cycle the chase is what does not terminate; name one of them
        culprit = next((ri for ri in stratum.rules if ri.existentials), active[0] if active else stratum.rules[0])
        kind = "the chase through existential variables" if culprit.existentials else "recursion"
        text = (f"{kind} did not terminate within {self.engine.max_rounds} rounds; "
                f"{S.rule_label(culprit)} still derives new facts")
        return RoundLimitExceeded(text, [Diagnostic(culprit.span, text)], self.a.program.text)

    def rule_tables(self, ri: RuleInfo, deltas, occurrence: int | None) -> tuple[list[str], list[str]]:
        tables = [self.tables[a.pred] for a in ri.positives]
        if occurrence is not None:
            tables[occurrence] = deltas[ri.positives[occurrence].pred][1]
        return tables, [self.tables[a.pred] for a in ri.negations]

    def variants(self, ri: RuleInfo, stratum: Stratum, deltas):
        """Table assignments for one rule: all full relations in the first round, then one per recursive occurrence
        that reads the previous round's delta (semi-naive)."""
        for tables, negs, _k in self.occurrences(ri, stratum, deltas):
            yield tables, negs

    def occurrences(self, ri: RuleInfo, stratum: Stratum, deltas):
        """:meth:`variants` with the index of the positive atom that reads a delta (None in the first round)."""
        if deltas is None:
            yield *self.rule_tables(ri, deltas, None), None
            return
        for k, atom in enumerate(ri.positives):
            if atom.pred in stratum.preds and deltas.get(atom.pred, (0, None))[0]:
                yield *self.rule_tables(ri, deltas, k), k

    def always_new(self, ri: RuleInfo, head: A.Atom, k: int, stratum: Stratum) -> bool:
        """Whether every tuple ``head`` gets from a new tuple of positive atom ``k`` is new, with no need to check.

        So when the head copies every variable of that atom (the atom's tuple is a function of the head's), the
        atom's relation only grows (no aggregate defines it), and nothing else can give the head's relation that
        tuple: no facts, and every other rule's head is disjoint from this one (a different constant at a column,
        or a repeated variable at two columns this rule keeps apart with <> or !=). Then this rule derived the
        tuple before only from the same atom tuple, which was not there yet (company control: controlled_shares'
        check against the whole relation was a quarter of the run)."""
        atom = ri.positives[k]
        if any(isinstance(t, A.Var) and t.anonymous for t in atom.args) or ri.existentials:
            return False
        head_vars = {t.name for t in head.args if isinstance(t, A.Var)}
        if not {t.name for t in atom.args if isinstance(t, A.Var)} <= head_vars:
            return False
        if atom.pred in self.aggregated or self.a.facts.get(head.pred):  # an aggregate's tuples are replaced
            return False
        others = [(r, h) for r in stratum.rules for h in r.rule.head if h.pred == head.pred and h is not head]
        return all(not r.existentials and _disjoint(ri, head, r, h) for r, h in others)

    @functools.cached_property
    def aggregated(self) -> frozenset[str]:
        """The predicates aggregate rules define (their tuples are replaced, not only added)."""
        return frozenset(r.rule.head[0].pred for st in self.a.strata for r in st.rules if r.aggregate is not None)

    def round(self, stratum: Stratum, deltas) -> dict[str, tuple[int, str | None]]:
        """One round of a stratum. Non-recursive strata insert straight into their relations; recursive ones also
        return, per predicate, the count and table of the tuples that are new in this round (the next delta)."""
        preds = list(stratum.preds)
        infos = self.a.predicates
        plain = [ri for ri in stratum.rules if ri.aggregate is None and not ri.existentials]
        selects: dict[str, list[tuple[str, RuleInfo, bool]]] = {p: [] for p in preds}  # (sql, rule, unchecked)
        for ri in plain:
            for tables, negs, k in self.occurrences(ri, stratum, deltas):
                for head in ri.rule.head:
                    fresh = k is not None and stratum.recursive and self.always_new(ri, head, k, stratum)
                    selects[head.pred].append((S.rule_sql(ri, head, infos[head.pred].types, tables, negs), ri, fresh))
        new: dict[str, str] | None = None
        sizes: dict[str, int] = {}  # rows of each new table, as the statement that filled it reports them
        if stratum.recursive:
            self.round_no += 1
            new = {p: self.temp(f"{p}_new{self.round_no}") for p in preds}
        for p in preds:
            full = self.tables[p]
            parts = selects[p]
            rules = list({ri.index: ri for _, ri, _k in parts}.values())
            label, span = (S.rule_label(rules[0]), rules[0].span) if len(rules) == 1 else (f"rules for {p!r}", None)
            union = " UNION ".join(f"({sql})" for sql, _, _k in parts)
            if new is not None:
                if parts:  # the parts that can repeat a tuple, checked against the relation in one anti-join
                    checked = [sql for sql, _, fresh in parts if not fresh]
                    queries = [f"(SELECT DISTINCT * FROM ({sql}))" for sql, _, fresh in parts if fresh]
                    if checked:
                        union_checked = " UNION ".join(f"({q})" for q in checked)
                        queries.append(f"({S.new_tuples_sql(union_checked, full, infos[p].arity)})")
                    sizes[p] = self.exec(f"CREATE TEMP TABLE {new[p]} AS {' UNION '.join(queries)}", label,
                                         span).fetchone()[0]
                    self.created[new[p]] = "TABLE"
                else:  # no table until a chase or an aggregate adds to it: most rounds of a long cycle add nothing
                    sizes[p] = 0  # to most of its predicates (company control: 2 of 3 in every round)
            elif parts:
                distinct = "" if len(parts) > 1 else "DISTINCT "  # UNION already removes duplicates
                if p in self.views:
                    self.tables[p] = self.temp(p + "_view")
                    self.exec(f"CREATE TEMP VIEW {self.tables[p]} AS SELECT {distinct}* FROM ({union})", label, span)
                    self.created[self.tables[p]] = "VIEW"
                elif self.a.facts.get(p):
                    self.exec(f"INSERT INTO {full} ({union}) EXCEPT (SELECT * FROM {full})", label, span)
                else:
                    self.exec(f"INSERT INTO {full} SELECT {distinct}* FROM ({union})", label, span)
        return self.finish_round(stratum, deltas, new, {p for p in preds if selects[p]}, sizes)

    def finish_round(self, stratum: Stratum, deltas, new: dict[str, str] | None, derived: set[str],
                     sizes: Mapping[str, int] | None = None) -> dict[str, tuple[int, str | None]]:
        """After the plain rules of a round: add their new tuples, then run the chase, then the aggregates.
        ``sizes``: the rows of the new tables the plain rules filled (the others are counted)."""
        if new is not None:
            for p in stratum.preds:
                if p in derived:
                    self.exec(f"INSERT INTO {self.tables[p]} SELECT * FROM {new[p]}")
        for ri in stratum.rules:
            if ri.existentials:
                self.chase(ri, stratum, deltas, new)
        aggregated: dict[str, int] = {}
        for ri in stratum.rules:
            if ri.aggregate is not None:
                n = self.aggregate(ri, stratum, deltas, new)
                if n is not None:
                    aggregated[ri.rule.head[0].pred] = n
        if new is None:
            return {}
        rewritten = {h.pred for ri in stratum.rules if ri.existentials or ri.aggregate is not None for h in ri.rule.head}
        known = {p: n for p, n in (sizes or {}).items() if p not in rewritten} | aggregated
        made = {p: new[p] if new[p] in self.created else None for p in stratum.preds}
        return {p: (known[p] if p in known else self.count(made[p]) if made[p] else 0, made[p])
                for p in stratum.preds}

    def ensure_new(self, new: dict[str, str], pred: str) -> str:
        """This round's table of ``pred``'s new tuples, created empty when nothing has made it yet."""
        if new[pred] not in self.created:
            self.exec(f"CREATE TEMP TABLE {new[pred]} ({self.columns_ddl(self.a.predicates[pred])})")
            self.created[new[pred]] = "TABLE"
        return new[pred]

    @functools.cached_property
    def transient(self) -> frozenset[str]:
        """Aggregates in recursion whose values only their own stratum's next round reads, each reader through that
        one atom alone: not returned, no facts, no other rule for the head, read by no rule of another stratum or
        constraint, and every reader's only atom of the stratum. After the first round such a reader sees only the
        aggregate's delta, never its whole relation; so the relation is not kept, and the re-summed values of the
        touched groups are the delta as they are, unchanged ones included (a reader derives again what it has, and
        its own check drops it), with no diff against the old values and no rewrite of the stored ones (company
        control: total's diff, DELETE and INSERT were a third of the run at 100k companies). The readers must be
        plain rules: an aggregate or a chase step reads the whole relations of its body."""
        out = set()
        rules = [ri for st in self.a.strata for ri in st.rules]
        for stratum in self.a.strata:
            if not stratum.recursive:
                continue
            for ri in stratum.rules:
                head = ri.rule.head[0].pred if ri.aggregate is not None else None
                if head is None or head in self.kept or self.a.facts.get(head):
                    continue
                if sum(h.pred == head for r in stratum.rules for h in r.rule.head) != 1:
                    continue
                readers = [r for r in [*rules, *self.a.constraints] if any(a.pred == head for a in r.positives + r.negations)]
                # an aggregate or a chase step reads its body's whole relations: only plain rules may read the delta
                if all(r in stratum.rules and r.aggregate is None and not r.existentials
                       and not any(a.pred == head for a in r.negations)
                       and [a.pred for a in r.positives if a.pred in stratum.preds] == [head] for r in readers):
                    out.add(head)
        return frozenset(out)

    def aggregate(self, ri: RuleInfo, stratum: Stratum, deltas, new: dict[str, str] | None) -> int | None:
        """Compute an aggregate rule (inside recursion, its round's delta into ``new``); the delta's size when the
        statement that filled it tells it, else None."""
        head = ri.rule.head[0].pred
        info = self.a.predicates[head]
        if deltas is not None and not any(deltas.get(a.pred, (0, None))[0] for a in ri.positives):
            return None
        tables, negs = self.rule_tables(ri, None, None)
        # inside recursion after the first round: re-sum only the groups whose inputs changed, replace only what changed
        transient = new is not None and head in self.transient
        touched = (self.touched_groups(ri, stratum, deltas, inline=transient)
                   if new is not None and deltas is not None else None)
        select = S.aggregate_sql(ri, info.types, tables, negs, distinct=S.needs_distinct(ri, self.sets),
                                 groups_in=touched[0] if touched else None)
        full = self.tables[head]
        label = S.rule_label(ri)
        if transient:  # its one rule: nothing else made this round's table
            assert new is not None
            n = self.exec(f"CREATE TEMP TABLE {new[head]} AS {select}", label, ri.span).fetchone()[0]
            self.created[new[head]] = "TABLE"
            return n
        if new is None:
            if head in self.views:
                self.tables[head] = self.temp(head + "_view")
                self.exec(f"CREATE TEMP VIEW {self.tables[head]} AS {select}", label, ri.span)
                self.created[self.tables[head]] = "VIEW"
            elif self.a.facts.get(head):
                self.exec(f"INSERT INTO {full} ({select}) EXCEPT (SELECT * FROM {full})", label, ri.span)
            else:
                self.exec(f"INSERT INTO {full} {select}", label, ri.span)
            return None
        fresh = self.temp(f"{head}_agg")
        self.exec(f"CREATE OR REPLACE TEMP TABLE {fresh} AS {select}", label, ri.span)
        self.created[fresh] = "TABLE"
        if touched is not None:
            table, columns = touched
            self.replace_groups(head, fresh, new, columns, table)
            self.drop(table)
        else:
            self.replace_aggregate(head, fresh, new)
        return None

    def touched_groups(self, ri: RuleInfo, stratum: Stratum, deltas, inline: bool = False
                       ) -> tuple[str, list[int]] | None:
        """The groups of an aggregate in recursion that the last round's new facts fall into (a table with columns
        ``g0..gk``, or with ``inline`` the parenthesized query of one, to read once), and the head columns holding
        the group variables; None when a group variable is not a plain head column (then every group is
        recomputed)."""
        head = ri.rule.head[0]
        columns = []
        for g in ri.group_vars:
            at = [j for j, t in enumerate(head.args) if isinstance(t, A.Var) and t.name == g]
            if not at:
                return None
            columns.append(at[0])
        if not columns:
            return None
        parts = []
        for k, atom in enumerate(ri.positives):
            if deltas.get(atom.pred, (0, None))[0]:
                tables, negs = self.rule_tables(ri, deltas, k)
                body, _env = S.bindings_sql(ri, tables, negs, distinct=False)
                cols = ", ".join(f"b.{S.quote_ident('v_' + g)} AS g{i}" for i, g in enumerate(ri.group_vars))
                parts.append(f"SELECT DISTINCT {cols} FROM ({body}) AS b")
        if not parts:
            return None
        if inline:  # read once: a subquery, not a table
            return f"({' UNION '.join(parts)})", columns
        table = self.temp(f"{head.pred}_touched")
        self.exec(f"CREATE OR REPLACE TEMP TABLE {table} AS {' UNION '.join(parts)}", S.rule_label(ri), ri.span)
        self.created[table] = "TABLE"
        return table, columns

    def replace_groups(self, head: str, fresh: str, new: dict[str, str], columns: list[int], touched: str) -> None:
        """``fresh`` holds the recomputed values of the ``touched`` groups: its rows not in ``head`` are the round's
        delta and replace the old value of their group. Drops ``fresh``."""
        full = self.tables[head]
        on = " AND ".join(f"f.c{j} = t.g{i}" for i, j in enumerate(columns))
        changed = self.exec(f"INSERT INTO {self.ensure_new(new, head)} SELECT * FROM {fresh} EXCEPT "
                            f"SELECT f.* FROM {full} AS f SEMI JOIN {touched} AS t ON {on}").fetchone()[0]
        if changed:
            same = " AND ".join(f"n.c{j} = f.c{j}" for j in columns)
            self.exec(f"DELETE FROM {full} AS f WHERE EXISTS (SELECT 1 FROM {new[head]} AS n WHERE {same})")
            self.exec(f"INSERT INTO {full} SELECT * FROM {new[head]}")
        self.drop(fresh)

    def replace_aggregate(self, head: str, fresh: str, new: dict[str, str] | None) -> None:
        """Make ``fresh`` (this round's aggregate values) the content of ``head``; inside recursion (``new`` given)
        its new rows are the round's delta, and a value that changed replaces the old one. Drops ``fresh``."""
        full = self.tables[head]
        if new is None:
            self.exec(f"INSERT INTO {full} SELECT * FROM {fresh} EXCEPT SELECT * FROM {full}")
        else:
            self.exec(f"INSERT INTO {self.ensure_new(new, head)} SELECT * FROM {fresh} EXCEPT SELECT * FROM {full}")
            if self.count(new[head]) or self.con.execute(
                    f"SELECT count(*) FROM (SELECT * FROM {full} EXCEPT SELECT * FROM {fresh})").fetchone()[0]:
                self.exec(f"DELETE FROM {full}")
                self.exec(f"INSERT INTO {full} SELECT * FROM {fresh}")
        self.drop(fresh)

    def chase(self, ri: RuleInfo, stratum: Stratum, deltas, new: dict[str, str] | None) -> None:
        """One restricted-chase step of an existential rule: fresh nulls for frontier bindings not yet satisfied."""
        bodies = [S.bindings_sql(ri, t, n)[0] for t, n in self.variants(ri, stratum, deltas)]
        if not bodies:
            return
        self.chase_from_body(ri, " UNION ".join(f"({b})" for b in bodies), new)

    def chase_from_body(self, ri: RuleInfo, body: str, new: dict[str, str] | None) -> None:
        """Give fresh nulls to the frontier bindings of ``body`` (columns ``"v_<Var>"``) that no head facts satisfy
        yet, numbered in frontier order, and add the head facts (also to this round's ``new`` tables)."""
        label = S.rule_label(ri)
        cand = self.temp("chase")
        head_tables = [self.tables[h.pred] for h in ri.rule.head]
        self.exec(f"CREATE OR REPLACE TEMP TABLE {cand} AS {S.existential_candidates_sql(ri, body, head_tables)}",
                  label, ri.span)
        self.created[cand] = "TABLE"
        n = self.count(cand)
        if n == 0:
            return
        m = len(ri.existentials)
        order = ", ".join(f"f{i}" for i in range(len(ri.frontier))) or "1"
        nulls = ", ".join(
            f"'_:n' || CAST({self.next_null} + (row_number() OVER (ORDER BY {order}) - 1) * {m} + {i} AS VARCHAR) AS e{i}"
            for i in range(m))
        with_nulls = self.temp("chase_nulls")
        self.exec(f"CREATE OR REPLACE TEMP TABLE {with_nulls} AS SELECT *, {nulls} FROM {cand}", label, ri.span)
        self.created[with_nulls] = "TABLE"
        self.next_null += n * m
        for head in ri.rule.head:
            info = self.a.predicates[head.pred]
            select = S.existential_head_sql(ri, head, info.types, with_nulls)
            if new is not None:
                self.exec(f"INSERT INTO {self.ensure_new(new, head.pred)} ({select}) "
                          f"EXCEPT (SELECT * FROM {self.tables[head.pred]})",
                          label, ri.span)
            self.exec(f"INSERT INTO {self.tables[head.pred]} ({select}) EXCEPT (SELECT * FROM {self.tables[head.pred]})",
                      label, ri.span)

    # --- constraints, results ---------------------------------------------------------------------------------------
    def check_constraints(self) -> None:
        for ri in self.a.constraints:
            tables, negs = self.rule_tables(ri, None, None)
            body, _ = S.bindings_sql(ri, tables, negs)
            names = [n for n in ri.body_vars if not n.startswith("_")]
            limit = self.engine.max_witnesses
            rows = self.exec(f"SELECT * FROM ({body}) ORDER BY ALL LIMIT {limit + 1}", S.rule_label(ri), ri.span).fetchall()
            if rows:
                witnesses = [dict(zip(ri.body_vars, r, strict=False)) for r in rows[:limit]]
                shown = "; ".join(", ".join(f"{k}={v!r}" for k, v in w.items() if k in names) for w in witnesses[:3])
                more = " (and more)" if len(rows) > 3 else ""
                text = f"negative constraint violated: {shown}{more}"
                raise ConstraintViolation(text, [Diagnostic(ri.span, text)], self.a.program.text, witnesses)

    def fetch(self, pred: str, limit: int | None = None) -> list[tuple]:
        info = self.a.predicates[pred]
        if info.arity == 0:
            return [()] * min(1, self.count(self.tables[pred]), 1 if limit is None else limit)
        tail = "" if limit is None else f" LIMIT {int(limit)}"
        return self.con.execute(f"SELECT * FROM {self.tables[pred]} ORDER BY ALL{tail}").fetchall()

    def cardinality(self, pred: str) -> int:
        n = self.count(self.tables[pred])
        return min(n, 1) if self.a.predicates[pred].arity == 0 else n

    def materialize(self, targets: Mapping[str, str], append: bool = False) -> None:
        self.exec("BEGIN TRANSACTION")
        try:
            for pred, table in targets.items():
                info = self.a.predicates[pred]
                cols = ", ".join(f"c{i} AS {S.quote_ident(c)}" for i, c in enumerate(info.columns)) or "c_"
                target = f"main.{S.quote_ident(table)}"
                select = f"SELECT {cols} FROM {self.tables[pred]}"
                if append:
                    self.exec(f"CREATE TABLE IF NOT EXISTS {target} AS {select} LIMIT 0", f"materializing {pred!r}")
                    self.exec(f"INSERT INTO {target} SELECT * FROM ({select} EXCEPT SELECT * FROM {target}) "
                              "ORDER BY ALL", f"materializing {pred!r}")
                    continue
                self.exec(f"CREATE OR REPLACE TABLE {target} AS {select} ORDER BY ALL", f"materializing {pred!r}")
            self.exec("COMMIT")
            if self.engine.budget is not None:
                self.engine.budget.committed()
        except BaseException:
            try:
                self.con.execute("ROLLBACK")
            except duckdb.Error:  # interrupted too: closing the connection rolls the transaction back
                pass
            raise


def _disjoint(r1: RuleInfo, h1: A.Atom, r2: RuleInfo, h2: A.Atom) -> bool:
    """No tuple can be both an ``h1`` of rule ``r1`` and an ``h2`` of rule ``r2``: at some column both have different
    constants, or one has the same term at two columns the other's rule keeps apart (``A <> B``, ``A != B``)."""
    if len(h1.args) != len(h2.args):
        return True
    for a, b in zip(h1.args, h2.args, strict=True):
        if isinstance(a, A.Const) and isinstance(b, A.Const) and a != b:
            return True

    def apart(r: RuleInfo, h: A.Atom, i: int, j: int) -> bool:
        x, y = h.args[i], h.args[j]
        if isinstance(x, A.Const) and isinstance(y, A.Const):
            return x != y
        if not (isinstance(x, A.Var) and isinstance(y, A.Var)):
            return False
        return any(c.op in ("<>", "!=") and isinstance(c.left, A.Var) and isinstance(c.right, A.Var)
                   and {c.left.name, c.right.name} == {x.name, y.name} for c in r.conditions)

    n = len(h1.args)
    for i in range(n):
        for j in range(i + 1, n):
            for (ra, ha), hb in (((r1, h1), h2), ((r2, h2), h1)):
                x, y = hb.args[i], hb.args[j]
                if x == y and not (isinstance(x, A.Var) and x.anonymous) and apart(ra, ha, i, j):
                    return True
    return False


def sniff_types(con: duckdb.DuckDBPyConnection, bind: Bind) -> tuple[str, ...] | None:
    """Column types DuckDB detects for a bound source (used when @mapping does not give them all)."""
    path = S.sql_string(str(bind.path))
    try:
        match bind.kind:
            case "csv":
                rows = con.execute(f"DESCRIBE SELECT * FROM read_csv({path}, header = true)").fetchall()
            case "parquet":
                rows = con.execute(f"DESCRIBE SELECT * FROM read_parquet({path})").fetchall()
            case "duckdb":
                db = duckdb.connect(str(bind.path), read_only=True)
                try:
                    rows = db.execute(f"DESCRIBE main.{S.quote_ident(bind.table or bind.pred)}").fetchall()
                finally:
                    db.close()
            case _:
                return None
    except duckdb.Error:
        return None
    return tuple(our_type(r[1]) for r in rows)


def is_path_inside(path: Path, root: Path) -> bool:
    return path.resolve().is_relative_to(root.resolve())


__all__ = ["DuckDBEngine", "Evaluation", "our_type", "sniff_types", "A"]
