"""The Python API of the Datalog layer: parse, validate, run, and materialize.

>>> from vadaorchestra.datalog import parse, run
>>> result = run(parse('edge(1,2). edge(2,3). path(X,Y) :- edge(X,Y). path(X,Z) :- path(X,Y), edge(Y,Z). @output("path").'))
>>> result.rows("path")
[(1, 2), (1, 3), (2, 3)]
"""

from __future__ import annotations

import csv
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vadaorchestra.datalog import ast as A
from vadaorchestra.datalog.engines import ENGINES
from vadaorchestra.datalog.foreach import substitute_params
from vadaorchestra.datalog.parser import parse
from vadaorchestra.datalog.validator import ANNOTATIONS, Analysis, Bind, PredInfo, analyze, resolve_bind
from vadaorchestra.errors import VadaError, ValidationError

if TYPE_CHECKING:
    import duckdb
    import pandas

    from vadaorchestra.datalog.limits import Budget

NULLS_TABLE = "__vo_nulls"


def load(path: str | Path) -> A.Program:
    """Read and parse a program file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise VadaError(f"cannot read {str(p)!r}: {exc.strerror}") from None
    return parse(text, str(path))


def bind_params(program: A.Program, params: Mapping[str, Any]) -> A.Program:
    """Replace every ``$name`` term by a constant (in the AST, never in the text); values are checked against
    the ``@param`` types when the program declares them."""
    declared = {a.args[0].value: a.args[1].value for a in program.annotations("param") if len(a.args) == 3}
    values: dict[str, A.Const] = {}
    for name, value in params.items():
        typ = declared.get(name)
        if declared and typ is None:
            raise ValidationError(f"unknown parameter {name!r}; the program declares: {', '.join(sorted(declared))}")
        values[name] = A.Const(_coerce(name, value, typ))
    return substitute_params(program, lambda p: A.Const(values[p.name].value, p.span) if p.name in values else None)


def _coerce(name: str, value: Any, typ: str | None):
    if typ is None:
        if isinstance(value, (str, int, float, bool)):
            return value
        raise ValidationError(f"parameter {name!r}: unsupported value {value!r}")
    from vadaorchestra.datalog.types import fits

    if isinstance(value, float) and not math.isfinite(value):
        raise ValidationError(f"parameter {name!r} is not a finite number (got {value!r})")
    if not fits(value, typ):
        raise ValidationError(f"parameter {name!r} must be a {typ}, got {value!r}")
    return float(value) if typ == "float" else value


def _binds_of(program: A.Program, data_root: Path | None) -> list[Bind]:
    """The @bind annotations whose files resolve inside the data root (the validator reports the others)."""
    if data_root is None:
        return []
    binds = [resolve_bind(ann, data_root) for ann in program.annotations("bind")
             if len(ann.args) >= 3 and all(isinstance(a.value, str) for a in ann.args)]
    return [b for b in binds if isinstance(b, Bind)]


def database_schemas(con: duckdb.DuckDBPyConnection, names: set[str] | None = None
                     ) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """Types and column names of the tables (and views) in the database's main schema, optionally only ``names``."""
    from vadaorchestra.datalog.engines.duckdb_engine import our_type

    # duckdb_columns(), not information_schema.columns: the same rows (views too), 1.5 ms against 3-9 ms per run;
    # sorted here, not by an ORDER BY: a process's first sort costs DuckDB 3 ms of CPU more (company control)
    rows = sorted(con.execute(
        "SELECT table_name, column_index, column_name, data_type FROM duckdb_columns() "
        "WHERE schema_name = 'main' AND database_name = current_database()").fetchall())
    types: dict[str, list[str]] = {}
    cols: dict[str, list[str]] = {}
    for table, _index, column, dtype in rows:
        if names is not None and table not in names:
            continue
        types.setdefault(table, []).append(our_type(dtype))
        cols.setdefault(table, []).append(column)
    return {k: tuple(v) for k, v in types.items()}, {k: tuple(v) for k, v in cols.items()}


def body_predicates(program: A.Program) -> set[str]:
    out = set()
    for s in program.statements:
        if isinstance(s, (A.Rule, A.Constraint)):
            for lit in s.body:
                atom = lit.atom if isinstance(lit, A.Negation) else lit
                if isinstance(atom, A.Atom):
                    out.add(atom.pred)
    return out


def validate(
    program: A.Program,
    *,
    data_root: str | Path | None = None,
    connection: duckdb.DuckDBPyConnection | None = None,
    externals: Mapping[str, tuple[str, ...]] | None = None,
    external_columns: Mapping[str, tuple[str, ...]] | None = None,
    synthesized: bool = False,
    allow_params: bool = False,
) -> Analysis:
    """Validate a program (reading the column types of bound files and of the database's tables it uses)."""
    import duckdb

    root = Path(data_root) if data_root is not None else None
    own = connection is None
    con = connection if connection is not None else duckdb.connect()
    try:
        from vadaorchestra.datalog.engines.duckdb_engine import sniff_types

        bind_schemas = {}
        mapped = {(a.args[0].value, a.args[1].value) for a in program.annotations("mapping") if len(a.args) == 4}
        for b in _binds_of(program, root):
            types = sniff_types(con, b)
            if types is not None:
                # keep positions: unmapped columns take the sniffed type, mapped ones their @mapping
                bind_schemas[b.pred] = tuple(None if (b.pred, i) in mapped else t for i, t in enumerate(types))
        ext = dict(externals or {})
        ext_cols = dict(external_columns or {})
        if connection is not None:
            # database tables the program reads; a synthesized program also learns which names are taken
            defined = program.fact_predicates() | {h.pred for r in program.rules for h in r.head}
            wanted = body_predicates(program) | defined if synthesized else body_predicates(program) - defined
            db_types, db_cols = database_schemas(con, wanted)
            for k, v in db_types.items():
                ext.setdefault(k, v)
                ext_cols.setdefault(k, db_cols[k])
        return analyze(program, externals=ext, external_columns=ext_cols, data_root=root,
                       bind_schemas=bind_schemas, synthesized=synthesized,
                       allow_params=allow_params)
    finally:
        if own:
            con.close()


def check(program: A.Program, **kwargs) -> Analysis:
    """Alias of :func:`validate`: raise on any problem, return the analysis otherwise."""
    return validate(program, **kwargs)


@dataclass(frozen=True)
class RunResult:
    """Rows of each collected predicate (sorted), their schemas, and what ran."""

    tables: Mapping[str, list[tuple]]
    schemas: Mapping[str, PredInfo]
    engine: str
    elapsed_ms: float
    analysis: Analysis = field(repr=False)
    counts: Mapping[str, int] = field(default_factory=dict)

    def rows(self, pred: str) -> list[tuple]:
        return self.tables[pred]

    def columns(self, pred: str) -> tuple[str, ...]:
        return self.schemas[pred].columns

    def frame(self, pred: str) -> pandas.DataFrame:
        """One predicate as a pandas DataFrame with the column names of its ``@mapping`` (or ``c0, c1, ...``)."""
        import pandas as pd

        return pd.DataFrame(self.tables[pred], columns=list(self.columns(pred)))

    def __getitem__(self, pred: str) -> pandas.DataFrame:
        return self.frame(pred)

    def write_csv(self, out_dir: str | Path) -> list[Path]:
        """Write ``OUT/<pred>.csv`` for each collected predicate: a header row, then the sorted rows."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        written = []
        for pred, rows in self.tables.items():
            path = out / f"{pred}.csv"
            with path.open("w", newline="", encoding="utf-8") as fh:
                writer = csv.writer(fh, lineterminator="\n")
                writer.writerow(self.columns(pred) if self.schemas[pred].arity else [])
                if "bool" in self.schemas[pred].types:
                    writer.writerows([format_value(v) for v in row] for row in rows)
                else:  # the csv module writes str() of ints and strings and repr() of floats already
                    writer.writerows(rows)
            written.append(path)
        return written


def format_value(value: object) -> str:
    """How a value is written to CSV: floats shortest round-trip, booleans ``true``/``false``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def content_hash(con: duckdb.DuckDBPyConnection, table: str) -> str:
    """sha256 of a table's facts in canonical form: sorted, one per line, tab-separated, values as
    :func:`format_value` writes them (floats as the shortest text that reads back to the same bits). The trace records
    it per predicate; replay, ``trace export`` and ``datalog run --hashes`` compute it the same way."""
    import hashlib

    from vadaorchestra.datalog.sql import quote_ident

    h = hashlib.sha256()
    res = con.execute(f"SELECT * FROM main.{quote_ident(table)} ORDER BY ALL")
    while batch := res.fetchmany(10_000):
        for row in batch:
            h.update(("\t".join(format_value(v) for v in row) + "\n").encode())
    return h.hexdigest()


def run(
    program: A.Program | str,
    *,
    data_root: str | Path | None = None,
    inputs: Mapping[str, Sequence[tuple]] | None = None,
    database: str | Path | duckdb.DuckDBPyConnection | None = None,
    params: Mapping[str, Any] | None = None,
    outputs: Sequence[str] | None = None,
    materialize: bool | Mapping[str, str] = False,
    engine: str = "duckdb",
    max_rounds: int = 1000,
    synthesized: bool = False,
    limit: int | None = None,
    append: bool = False,
    engine_options: Mapping[str, Any] | None = None,
    budget: Budget | None = None,
    max_rows: int | None = None,
) -> RunResult:
    """Evaluate a program and return its output predicates.

    - ``data_root``: where ``@bind`` paths resolve (they may not leave it).
    - ``inputs``: rows for ``@input`` predicates, e.g. ``{"own": [(1, 2, 0.9)]}``.
    - ``database``: a DuckDB file path or connection whose tables the program may read; results are written into
      it only with ``materialize`` (``True``: each output predicate as a table of the same name; or a mapping
      predicate → table name), in one transaction after the whole evaluation succeeded.
      With ``append`` the rows are added to the existing tables (set semantics) instead of replacing them.
    - ``outputs``: predicates to return (default: the ``@output`` ones); ``limit`` caps the rows returned of each
      (``RunResult.counts`` has the full cardinalities).
    - ``engine_options``: for the Soufflé engine ``mode`` (``interpreted`` or ``compiled``, binaries cached by
      program hash), ``timeout`` (seconds), ``memory_limit`` (bytes), ``jobs``, ``rounds`` (who runs the strata
      that need rounds, such as an aggregate inside recursion: ``duckdb``, the default, or ``souffle``), ``layers``
      (with ``rounds="souffle"``, rounds of a recursive stratum with aggregates per Soufflé program), ``stats`` (a
      dict the engine adds its counters to); for the Spark engine ``spark`` (a SparkSession), ``master``,
      ``checkpoint_dir`` (required on a master that is not local), ``output_dir`` (materialized outputs written
      by the executors as Parquet, the database given views of them), ``driver_rows``, ``write_tables``
      (materialized outputs also as tables of the session catalog) and ``stats``. An engine ignores
      the options of the others (DuckDB all of them).
    - ``budget``: the call's time limit and cancellation (:class:`~vadaorchestra.datalog.limits.Budget`, which must
      also watch ``database`` to interrupt its queries); ``max_rows``: the most facts a predicate the program defines
      may hold. Either one exceeded raises :class:`~vadaorchestra.errors.LimitExceeded` and writes nothing.
    """
    import duckdb

    if isinstance(program, str):
        program = parse(program)
    if params:
        program = bind_params(program, params)
    if engine not in ENGINES:
        raise VadaError(f"unknown engine {engine!r} (engines: {', '.join(ENGINES)})")
    if engine != "duckdb":
        from vadaorchestra.datalog.engines import pick_engine

        engine = pick_engine(engine)
    own = not isinstance(database, duckdb.DuckDBPyConnection)
    con = duckdb.connect(str(database) if database is not None else ":memory:") if own else database
    try:
        start = time.perf_counter()
        externals = {k: tuple(_infer_input_types(v)) for k, v in (inputs or {}).items()
                     if k in body_predicates(program)}
        external_columns: dict[str, tuple[str, ...]] = {}
        options = dict(engine_options or {})
        # the session catalog's tables the program reads (the database's come first); a rule written at run time
        # reads the workspace only. The Spark session starts only once the program is valid (seconds), unless the
        # program reads tables of its catalog, whose types the validation needs.
        defined = program.fact_predicates() | {h.pred for r in program.rules for h in r.head}
        from_catalog = set() if engine != "spark" or synthesized else \
            body_predicates(program) - defined - set(externals) - set(database_schemas(con)[0])
        if from_catalog:
            try:  # an error besides the catalog's predicates is reported before the session starts
                validate(program, data_root=data_root, connection=con, synthesized=synthesized, externals=externals)
            except ValidationError as exc:
                if not all("is not defined" in d.message for d in exc.diagnostics):
                    raise
            from vadaorchestra.datalog.engines.spark_engine import catalog_schemas, spark_session

            options["spark"] = options.get("spark") or spark_session(options.pop("master", None),
                                                                     checkpoint_dir=options.get("checkpoint_dir"))
            spark_types, external_columns = catalog_schemas(options["spark"], from_catalog)
            externals.update(spark_types)
        analysis = validate(program, data_root=data_root, connection=con, synthesized=synthesized,
                            externals=externals, external_columns=external_columns)
        if engine == "spark" and not options.get("spark"):
            from vadaorchestra.datalog.engines.spark_engine import spark_session

            options["spark"] = spark_session(options.pop("master", None), checkpoint_dir=options.get("checkpoint_dir"))
        wanted = list(outputs if outputs is not None else analysis.outputs)
        for pred in wanted:
            if pred not in analysis.predicates:
                raise VadaError(f"unknown output predicate {pred!r}")
        targets: dict[str, str] = {}
        if materialize:
            targets = {p: p for p in analysis.outputs} if materialize is True else dict(materialize)
        if engine == "souffle":
            from vadaorchestra.datalog.engines.souffle_engine import SouffleEngine

            runner = SouffleEngine(con, max_rounds=max_rounds, budget=budget, max_rows=max_rows,
                                   **dict(engine_options or {}))
        elif engine == "spark":
            from vadaorchestra.datalog.engines.spark_engine import SparkEngine

            runner = SparkEngine(con, max_rounds=max_rounds, budget=budget, max_rows=max_rows,
                                 **{k: v for k, v in options.items() if k in SparkEngine.OPTIONS})
        else:
            from vadaorchestra.datalog.engines.duckdb_engine import DuckDBEngine

            runner = DuckDBEngine(con, max_rounds=max_rounds, budget=budget, max_rows=max_rows)
        null_start = _next_null(con) if targets else 1
        tables, counts, next_null = runner.evaluate(analysis, inputs=inputs, collect=wanted, materialize=targets,
                                                    null_start=null_start, limit=limit, append=append)
        if targets and next_null != null_start:
            con.execute(f"CREATE OR REPLACE TABLE main.{NULLS_TABLE} AS SELECT {int(next_null)}::BIGINT AS next")
        elapsed = (time.perf_counter() - start) * 1000
        return RunResult(tables, {p: analysis.predicates[p] for p in counts}, engine, elapsed, analysis, counts)
    finally:
        if own:
            con.close()


def _next_null(con: duckdb.DuckDBPyConnection) -> int:
    import duckdb

    try:
        return int(con.execute(f"SELECT next FROM main.{NULLS_TABLE}").fetchone()[0])
    except duckdb.Error:  # no counter yet
        return 1


def _infer_input_types(rows: Sequence[tuple]) -> list[str]:
    from vadaorchestra.datalog.types import join, type_of_value

    types: list[str | None] = []
    for r in rows:
        if not types:
            types = [None] * len(r)
        for i, v in enumerate(r[: len(types)]):
            types[i] = join(types[i], type_of_value(v))
    return [t or "string" for t in types]


__all__ = ["ANNOTATIONS", "RunResult", "bind_params", "check", "load", "parse", "run", "validate"]
