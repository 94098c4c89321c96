"""Where one evaluation keeps its relations: the seam between the round strategies and the database that runs them.

A :class:`RelationStore` holds a run's temporary relations (full relations, a round's new tuples, an aggregate's
fresh values), loads base data into it (facts, inputs, ``@bind`` files, tables of the database), answers counts and
queries, and writes the results into the database in one transaction. Every derived relation is made by a SELECT in
the DuckDB dialect that :mod:`vadaorchestra.datalog.sql` generates, through a handful of operations (:meth:`create`,
:meth:`insert`, :meth:`delete`, :meth:`view`, :meth:`rows`): this class runs them in a DuckDB connection as TEMP
tables and views; :class:`~vadaorchestra.datalog.engines.spark_engine.SparkStore` renders the same SELECTs for Spark
SQL and keeps checkpointed DataFrames. Names of relations are quoted identifiers made by :meth:`temp`.

Nothing a store makes outlives :meth:`cleanup`; the database is written only by :meth:`materialize`.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import duckdb

from vadaorchestra.datalog import sql as S
from vadaorchestra.datalog.validator import Bind, PredInfo
from vadaorchestra.errors import Diagnostic, EngineError, LimitExceeded, VadaError

if TYPE_CHECKING:
    from vadaorchestra.datalog.limits import Budget

_RUN_IDS = itertools.count(1)


def run_prefix() -> str:
    """A prefix for the names of one run's relations, unique in this process."""
    return f"__vo{next(_RUN_IDS)}_"


FLOAT_SUM_RANGE = ("a float sum reaches 2^63 (9.2e18) in magnitude: floats are summed exactly, as fixed point with 64 "
                   "fraction bits, up to that bound (docs/LANGUAGE-NOTES.md)")


def guarded(action: Callable[[], Any], budget: Budget | None, text: str | None, label: str, span,
            failures: tuple[type[BaseException], ...], failure: Callable[[Any, str, Any], VadaError]) -> Any:
    """``action()``, checked against the budget first; an exception of ``failures`` becomes the budget's error when
    the budget stopped the call, else ``failure(exc, label, span)`` (a store's own reading of its back end's errors)."""
    if budget is not None:
        budget.check(label, span, text)
    try:
        return action()
    except failures as exc:
        if budget is not None and budget.reason is not None:
            raise budget.error(label, span, text) from None
        raise failure(exc, label, span) from None


def to_arrow(relation: duckdb.DuckDBPyRelation):
    """A DuckDB relation as an Arrow table (``to_arrow_table`` since DuckDB 1.4, ``arrow`` before)."""
    return (getattr(relation, "to_arrow_table", None) or relation.arrow)()


def columns_ddl(info: PredInfo) -> str:
    """The column list of a relation of ``info``'s schema: ``c0 <type>, c1 <type>, …`` (``c_ BOOLEAN`` when nullary)."""
    if info.arity == 0:
        return "c_ BOOLEAN"
    return ", ".join(f"c{i} {S.SQL_TYPES[t]}" for i, t in enumerate(info.types))


class RelationStore:
    """A run's relations as TEMP tables and views of a DuckDB connection.

    ``budget``: the call's time and cancellation, checked before each statement (its interrupts end a running one);
    ``text``: the program's text, for the location of errors.
    """

    recursive_union = True  # WITH RECURSIVE … UNION has set semantics here, so a linear recursion runs as one query
    inline_deltas = True  # a round's delta may be a parenthesized query that the next round reads where a table would be

    def __init__(self, con: duckdb.DuckDBPyConnection, *, budget: Budget | None = None, text: str | None = None):
        self.con = con
        self.budget = budget
        self.text = text
        self.prefix = run_prefix()
        self.created: dict[str, str] = {}  # name -> kind (TABLE, VIEW) of what cleanup drops, in creation order
        self.retired: set[str] = set()  # tables kept for the next create of their name to replace (retire)
        self.attached: list[str] = []
        self.db_columns: dict[str, list[str]] | None = None  # main schema tables and views -> columns, read once
        self.scratch = False  # the run's statements are in one transaction that cleanup rolls back (begin)

    # --- plumbing ---------------------------------------------------------------------------------------------------
    def exec(self, sql: str, label: str = "", span=None, params=None):
        """Run one statement; a failure becomes an :class:`EngineError` (or the budget's error) naming ``label``."""
        return self.guard(lambda: self.con.execute(sql, params) if params is not None else self.con.execute(sql),
                          label, span)

    def arrow(self, select: str, label: str = "", span=None):
        """The rows of ``select`` as an Arrow table (``to_arrow_table`` since DuckDB 1.4, ``arrow`` before)."""
        return self.guard(lambda: to_arrow(self.con.sql(select)), label, span)

    def guard(self, action: Callable[[], Any], label: str = "", span=None) -> Any:
        """Run a DuckDB call; its failure becomes an :class:`EngineError` (or the budget's error) naming ``label``."""
        return guarded(action, self.budget, self.text, label, span, (duckdb.Error,), self.failure)

    def failure(self, exc: Exception, label: str, span) -> VadaError:
        """What a DuckDB error in the statement of ``label`` is, in the user's terms."""
        if isinstance(exc, duckdb.InterruptException):
            text = f"{label}: interrupted" if label else "interrupted"
            return EngineError(text, [Diagnostic(span, text)] if span else [], self.text)
        if isinstance(exc, duckdb.OutOfMemoryException):
            return self.out_of_memory(label, span)
        msg = str(exc).split("\n")[0]
        for prefix in ("Invalid Input Error: ", "Conversion Error: ", "Out of Range Error: "):
            msg = msg.replace(prefix, "")
        if "INT128" in msg or "HUGEINT" in msg:  # the exact float sum of sql._EXACT_SUM ran out of range
            msg = FLOAT_SUM_RANGE
        return self.error(label, span, msg)

    def error(self, label: str, span, msg: str) -> EngineError:
        text = f"{label}: {msg}" if label and label not in msg else msg
        return EngineError(text, [Diagnostic(span, text)] if span else [], self.text)

    def out_of_memory(self, label: str, span) -> LimitExceeded:
        self.rollback()  # the failed statement ended the transaction: nothing more runs in it
        try:
            limit = self.con.execute("SELECT current_setting('memory_limit')").fetchone()[0]
        except duckdb.Error:
            limit = "?"
        where = f" while evaluating the {label}" if label.startswith("rule") else f" while {label}" if label else ""
        text = f"memory limit exceeded: the call needed more than the database's {limit}{where}; nothing was written"
        return LimitExceeded(text, [Diagnostic(span, text)] if span else [], self.text, limit="memory")

    def temp(self, base: str) -> str:
        """The quoted name of this run's relation ``base`` (no two runs share one)."""
        return S.quote_ident(self.prefix + base)

    def made(self, table: str) -> bool:
        """Whether this run holds relation ``table`` now."""
        return table in self.created

    # --- derived relations ------------------------------------------------------------------------------------------
    def create(self, table: str, select: str, label: str = "", span=None, *, replace: bool = False) -> int:
        """Make relation ``table`` hold the rows of ``select`` (replacing one of that name with ``replace``); the
        number of rows."""
        verb = "CREATE OR REPLACE TEMP TABLE" if replace or table in self.retired else "CREATE TEMP TABLE"
        n = self.exec(f"{verb} {table} AS {select}", label, span).fetchone()[0]
        self.created[table] = "TABLE"
        self.retired.discard(table)
        return n

    def create_empty(self, table: str, info: PredInfo) -> str:
        """An empty relation of ``info``'s schema named ``table``."""
        verb = "CREATE OR REPLACE TEMP TABLE" if table in self.retired else "CREATE TEMP TABLE"
        self.exec(f"{verb} {table} ({columns_ddl(info)})")
        self.created[table] = "TABLE"
        self.retired.discard(table)
        return table

    def retire(self, table: str) -> None:
        """Forget table ``table`` (:meth:`made` is false) but keep it for the next :meth:`create` of that name to
        replace: a round's delta tables take turns in two names, and CREATE OR REPLACE drops the old one without a
        statement of its own (company control: 46 DROP statements, 5% of the run); :meth:`cleanup` drops the rest."""
        if self.created.pop(table, None) is not None:
            self.retired.add(table)

    def create_table(self, name: str, info: PredInfo) -> str:
        """An empty relation of ``info``'s schema named after ``name``; its quoted name."""
        return self.create_empty(self.temp(name), info)

    def insert(self, table: str, select: str, label: str = "", span=None) -> int:
        """Add the rows of ``select`` to ``table`` (as they are: the caller leaves out what it holds); how many."""
        return self.exec(f"INSERT INTO {table} {select}", label, span).fetchone()[0]

    def delete(self, table: str, alias: str, condition: str, label: str = "", span=None) -> None:
        """Remove the rows of ``table`` (called ``alias`` in ``condition``) for which ``condition`` holds."""
        self.exec(f"DELETE FROM {table} AS {alias} WHERE {condition}", label, span)

    def replace_rows(self, table: str, source: str, label: str = "", span=None) -> None:
        """Make ``table`` hold exactly the rows of relation ``source``."""
        self.exec(f"DELETE FROM {table}", label, span)
        self.exec(f"INSERT INTO {table} SELECT * FROM {source}", label, span)

    def view(self, table: str, select: str, label: str = "", span=None) -> str:
        """A relation computed by ``select`` whenever it is read (never stored); what to read it by.

        Here the parenthesized query itself, which the statements that read it inline, as DuckDB inlines a view: no
        catalog entry to create and drop, two statements fewer (LUBM reads 30 tables of the database so); ``table``
        is the name a store that registers its views would give it."""
        return f"({select})"

    def rows(self, select: str, label: str = "", span=None) -> list[tuple]:
        return self.exec(select, label, span).fetchall()

    def value(self, select: str, label: str = "", span=None) -> Any:
        """The first column of the first row of ``select``."""
        return self.exec(select, label, span).fetchone()[0]

    def count(self, table: str) -> int:
        return self.con.execute(f"SELECT count(*) FROM {table}").fetchone()[0]

    def fetch(self, table: str, limit: int | None = None) -> list[tuple]:
        """The rows of ``table``, sorted, at most ``limit``."""
        tail = "" if limit is None else f" LIMIT {int(limit)}"
        return self.con.execute(f"SELECT * FROM {table} ORDER BY ALL{tail}").fetchall()

    def drop(self, table: str) -> None:
        """Drop a relation of this run now (cleanup then has nothing left to do for it)."""
        self.con.execute(f"DROP {self.created.get(table, 'TABLE')} IF EXISTS {table}")
        self.created.pop(table, None)
        self.retired.discard(table)

    def begin(self) -> None:
        """Run what follows, up to :meth:`cleanup`, in one transaction that cleanup rolls back: every relation of the
        run goes with it in one statement, without a DROP each (LUBM: 25 of its 77 statements), and no statement
        commits on its own (40 CREATE TEMP TABLE ... AS and their drops: 43 ms, 35 ms so). Not when the connection
        is in a transaction already (its own: nothing of the run may end it), nor when the run writes results
        (:meth:`materialize` commits its own)."""
        try:
            self.con.execute("BEGIN TRANSACTION")
        except duckdb.TransactionException:
            return
        self.scratch = True

    def rollback(self) -> None:
        """End :meth:`begin`'s transaction, and with it every relation made since."""
        if not self.scratch:
            return
        self.scratch = False
        try:
            self.con.execute("ROLLBACK")
        except duckdb.Error:  # interrupted: closing the connection rolls the transaction back
            return
        self.created.clear()
        self.retired.clear()
        self.attached.clear()  # attached in the transaction: detached by its rollback

    def cleanup(self) -> None:
        self.rollback()
        self.created |= dict.fromkeys(self.retired, "TABLE")
        self.retired.clear()
        for name, kind in reversed(list(self.created.items())):
            try:
                self.con.execute(f"DROP {kind} IF EXISTS {name}")
            except duckdb.Error:
                pass
        self.created.clear()
        for alias in self.attached:
            try:
                self.con.execute(f"DETACH {alias}")
            except duckdb.Error:
                pass
        self.attached.clear()

    # --- base data --------------------------------------------------------------------------------------------------
    def insert_rows(self, table: str, info: PredInfo, rows: Sequence[tuple]) -> None:
        """Add Python rows (facts, inputs) to ``table``, without duplicates."""
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

    def load_input(self, name: str, info: PredInfo, rows: Sequence[tuple]) -> str:
        """An ``@input`` predicate's rows, given by the caller."""
        rows = input_rows(name, info, rows)
        table = self.create_table(name, info)
        if rows:
            self.insert_rows(table, info, rows)
        return table

    def database_columns(self) -> dict[str, list[str]]:
        """Every table and view of the database's main schema with its columns, read in one query, once."""
        if self.db_columns is None:
            self.db_columns = {}
            for table, _index, column in sorted(self.con.execute(  # sorted here: see api.database_schemas
                    "SELECT table_name, column_index, column_name FROM duckdb_columns() WHERE schema_name = 'main' "
                    "AND database_name = current_database()").fetchall()):
                self.db_columns.setdefault(table, []).append(column)
        return self.db_columns

    def load_table(self, name: str, info: PredInfo) -> str:
        """A predicate the program reads from the database's table of the same name (a view of it, cast)."""
        columns = self.database_columns()
        if name not in columns:
            raise EngineError(f"no data for predicate {name!r}: it is neither bound with @bind nor a table of the "
                              "database")
        cols = columns[name]
        if len(cols) != info.arity:
            raise EngineError(f"table {name!r} has {len(cols)} columns but the program uses {info.arity}")
        return self.view(self.temp(name), f"SELECT {cast_columns(cols, info)} FROM main.{S.quote_ident(name)}")

    def load_bind(self, bind: Bind, info: PredInfo) -> str:
        """A predicate bound with ``@bind`` to a CSV or Parquet file or a DuckDB database's table."""
        path = S.sql_string(str(bind.path))
        label = bind_label(bind)
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
        table = self.temp(bind.pred)
        self.create(table, bound_select(cols, info, source, bind, self.text), label, bind.span)
        check_bound(self, table, info, bind)
        return table

    # --- results ----------------------------------------------------------------------------------------------------
    def materialize(self, targets: Mapping[str, tuple[str, PredInfo]], append: bool = False) -> None:
        """Write relations into tables of the database's main schema, all or none: ``targets`` maps a table name to
        the relation and the schema of the predicate it holds. With ``append`` rows are added (set semantics)."""
        self.exec("BEGIN TRANSACTION")
        try:
            for table, (source, info) in targets.items():
                self.write_table(table, f"SELECT {named_columns(info)} FROM {source}", info, append)
            self.exec("COMMIT")
            if self.budget is not None:
                self.budget.committed()
        except BaseException:
            try:
                self.con.execute("ROLLBACK")
            except duckdb.Error:  # interrupted too: closing the connection rolls the transaction back
                pass
            raise

    def write_table(self, table: str, select: str, info: PredInfo, append: bool) -> None:
        what = f"materializing {info.name!r}"
        target = f"main.{S.quote_ident(table)}"
        if append:
            self.exec(f"CREATE TABLE IF NOT EXISTS {target} AS {select} LIMIT 0", what)
            self.exec(f"INSERT INTO {target} SELECT * FROM ({select} EXCEPT SELECT * FROM {target}) ORDER BY ALL", what)
        else:
            self.exec(f"CREATE OR REPLACE TABLE {target} AS {select} ORDER BY ALL", what)


def input_rows(name: str, info: PredInfo, rows: Sequence[tuple]) -> list[tuple]:
    """The caller's rows of ``@input`` predicate ``name`` as tuples, each of ``info``'s arity (else the error)."""
    rows = [tuple(r) for r in rows]
    bad = [r for r in rows if len(r) != info.arity]
    if bad:
        raise EngineError(f"input rows for {name!r} must have {info.arity} values, got {bad[0]!r}")
    return rows


def bind_label(bind: Bind) -> str:
    return f"@bind of {bind.pred!r} ({bind.path.name})"


def check_bound(store, table: str, info: PredInfo, bind: Bind) -> None:
    """A bound file's empty value in a column that is not a string is an error (not a NULL); ``store`` holds
    ``table``."""
    nulls = " OR ".join(f"c{i} IS NULL" for i in range(info.arity))
    if nulls and store.value(f"SELECT count(*) FROM {table} WHERE {nulls}"):
        text = f"{bind_label(bind)}: empty value in a {'/'.join(sorted(set(info.types) - {'string'}))} column"
        raise EngineError(text, [Diagnostic(bind.span, text)], store.text)


def cast_columns(cols: Sequence[str], info: PredInfo) -> str:
    """``CAST("<col>" AS <type>) AS c<i>``, … : a table's columns as the relation of ``info``'s schema."""
    return ", ".join(f"CAST({S.quote_ident(c)} AS {S.SQL_TYPES[t]}) AS c{i}"
                     for i, (c, t) in enumerate(zip(cols, info.types, strict=True))) or "TRUE AS c_"


def named_columns(info: PredInfo) -> str:
    """``c0 AS "<column name>"``, … : a relation's columns under the predicate's column names."""
    return ", ".join(f"c{i} AS {S.quote_ident(c)}" for i, c in enumerate(info.columns)) or "c_"


def bound_select(cols: Sequence[str], info: PredInfo, source: str, bind: Bind, text: str | None) -> str:
    """The distinct rows of a bound ``source`` with columns ``cols``, cast to ``info``'s types (an empty string
    stays a string; an empty number is caught by :func:`check_bound`)."""
    if len(cols) != info.arity:
        msg = f"{bind_label(bind)}: the source has {len(cols)} column(s) but {bind.pred!r} has {info.arity}"
        raise EngineError(msg, [Diagnostic(bind.span, msg)], text)
    exprs = []
    for i, (c, t) in enumerate(zip(cols, info.types, strict=True)):
        col = S.quote_ident(c)
        if t == "string":
            exprs.append(f"COALESCE(CAST({col} AS VARCHAR), '') AS c{i}")
        else:
            exprs.append(f"CAST({col} AS {S.SQL_TYPES[t]}) AS c{i}")
    return f"SELECT DISTINCT {', '.join(exprs)} FROM {source}"


__all__ = ["FLOAT_SUM_RANGE", "RelationStore", "bind_label", "bound_select", "cast_columns", "check_bound",
           "columns_ddl", "guarded", "input_rows", "named_columns", "run_prefix", "to_arrow"]
