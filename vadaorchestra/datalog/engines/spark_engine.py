"""Evaluate analyzed programs with Apache Spark: every stratum as Spark SQL on a ``SparkSession``.

The evaluation is the DuckDB engine's (:class:`~vadaorchestra.datalog.engines.duckdb_engine.Run`: strata in order,
semi-naive rounds for recursion, the chase, aggregates re-summed for the groups that changed), with its relations in
a :class:`SparkStore` instead of DuckDB TEMP tables:

- the SELECTs the engine generates in DuckDB's dialect are rendered for Spark with sqlglot (:func:`render`), where
  the dialects differ: the exact float sum's 128-bit integers become ``DECIMAL(38,0)``, ``error()`` becomes
  ``raise_error()``, an ordered ``product`` a product over the sorted values;
- Spark's ``WITH RECURSIVE`` has bag semantics (``UNION ALL`` only), so a recursion over a cyclic graph would not end:
  every recursive stratum runs the engine's own rounds, driven from Python;
- a relation is a DataFrame registered as a temporary view; each round's new tuples are checkpointed
  (``localCheckpoint``: Spark's views are re-read lazily, and a round's delta must be what it was when computed) and
  counted in the same job; a full relation grows by unions of checkpointed deltas, checkpointed again every
  ``UNION_DEPTH`` rounds so that plans stay small;
- base data is read where it lies: ``@bind`` CSV and Parquet files by Spark's readers, other predicates from the
  DuckDB database's tables (the workspace: small results the agents read) or else from the session catalog's tables;
- outputs are materialized into the DuckDB database (in one transaction, as the other engines do), and with
  ``write_tables`` also as tables of the session catalog.

Exact float sums: a value becomes an integer of 2^-64 units, summed as ``DECIMAL(38,0)``; so a sum (and each value)
must stay below 10^38 / 2^64 ≈ 5.4e18 in magnitude (DuckDB's ``HUGEINT`` allows 9.2e18): beyond it the rule fails
with a located error.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import threading
import warnings
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb

from vadaorchestra.datalog import sql as S
from vadaorchestra.datalog.engines.duckdb_engine import DuckDBEngine, Run
from vadaorchestra.datalog.engines.store import (
    RelationStore,
    bind_label,
    bound_select,
    cast_columns,
    check_bound,
    guarded,
    input_rows,
    named_columns,
    run_prefix,
    to_arrow,
)
from vadaorchestra.datalog.validator import Analysis, Bind, PredInfo
from vadaorchestra.errors import Diagnostic, EngineError, LimitExceeded, VadaError

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

    from vadaorchestra.datalog.limits import Budget

UNION_DEPTH = 8  # deltas a full relation may be a union of before it is checkpointed as one
BROADCAST_ROWS = 1_000_000  # relations of at most this many rows are broadcast to joins (broadcast_hints)
DRIVER_ROWS = 5_000_000  # the most rows of one relation brought to the driver (into the workspace, or returned)
FLOAT_SUM_RANGE_SPARK = ("a float sum reaches 5.4e18 in magnitude: on Spark floats are summed exactly, as DECIMAL(38,0) "
                         "in units of 2^-64, up to that bound")
SPARK_TYPES = {"string": "string", "int": "bigint", "float": "double", "bool": "boolean"}
# Spark names each whole-stage generated class after its stage's number in the plan, and caches compiled classes by
# their source: a pipeline compiled again, and warmed up again by the JIT, for every position it takes. A round's
# anti-join reads a union of one to UNION_DEPTH checkpointed parts, each part a stage of its own, so every depth
# renumbered the stages after it: tc 2k's first run after a warm-up compiled 58 classes, 6 without the number.
CODEGEN_CONF = ("spark.sql.codegen.useIdInClassName", "false")
# Without it a whole-stage pipeline is run through RDD.mapPartitionsWithIndex or zipPartitions with a closure, and
# every call of those cleans the closure: Spark reads the class that declares it from its jar and parses it with ASM
# (SparkPlan's, a large class), then serializes the closure to check it, in every stage of every round's plan. With it
# the pipeline is the same evaluator handed to the RDD as an object, which is not cleaned (tc 10k: the cleaner was a
# fifth of the driver's samples in a profile of the rounds, and its class reading kept the JIT compiling).
EVALUATOR_CONF = ("spark.sql.execution.usePartitionEvaluator", "true")
_SESSION_LOCK = threading.Lock()
_SESSION: SparkSession | None = None  # the session spark_session() started


def spark_available() -> str | None:
    """None when the Spark engine can run here, else why not (pyspark, sqlglot or Java missing)."""
    import importlib.util
    import shutil

    missing = [m for m in ("pyspark", "sqlglot", "pyarrow") if importlib.util.find_spec(m) is None]
    if missing:
        return f"the Spark engine needs {', '.join(missing)}: pip install -e \".[spark]\""
    if not (os.environ.get("JAVA_HOME") or shutil.which("java")):
        return "the Spark engine needs Java 17 or newer (java on PATH or JAVA_HOME)"
    return None


def is_local(master: str) -> bool:
    """Whether a master URL runs the executors inside the driver's JVM (``local``, ``local[4]``, ``local[*]``...)."""
    return master.strip().lower().startswith("local")


def shuffle_partitions(master: str) -> int:
    """The shuffle partitions of a session the engine starts: 4, or in local mode the threads it runs when fewer (one
    task per core in each stage: tc 10k on 2 cores, alternated in one process, 0.34-0.41 s a round with 2 against
    0.37-0.52 s with 4)."""
    m = re.fullmatch(r"local(?:\[(\*|\d+)(?:,\s*\d+)?\])?", master.strip().lower())
    if m is None:
        return 4
    if m.group(1) == "*":
        threads = os.cpu_count() or 1
    else:
        threads = int(m.group(1) or 1)  # local: one thread
    return max(1, min(4, threads))


def checkpoint_dir_setting(given: str | os.PathLike | None = None) -> str | None:
    """The checkpoint folder the engine uses: ``given``, else ``$VADA_SPARK_CHECKPOINT_DIR``, else None."""
    value = given if given is not None else os.environ.get("VADA_SPARK_CHECKPOINT_DIR")
    return str(value) if value not in (None, "") else None


def spark_session(master: str | None = None, conf: Mapping[str, str] | None = None,
                  checkpoint_dir: str | os.PathLike | None = None) -> SparkSession:
    """The process's SparkSession, started on first use: ``master`` (default ``$VADA_SPARK_MASTER`` or ``local[*]``)
    and ``conf`` apply when this call starts it. Small shuffles (:func:`shuffle_partitions`, adaptive execution), no UI, the JVM's
    logging quiet and its own output in :func:`log_path` (named in the error when it does not start).

    On a master that is not local (a standalone cluster, YARN, Kubernetes) the engine checkpoints each round's
    relations as files its executors write and read back after a failure: ``checkpoint_dir`` (default
    ``$VADA_SPARK_CHECKPOINT_DIR``) must be a folder every executor reaches (on one machine any local folder; else a
    shared file system or HDFS). Without one, or when the executors cannot write there, the session is refused (and
    stopped) with an error that says so."""
    conf_extra = conf
    wanted = master or os.environ.get("VADA_SPARK_MASTER") or "local[*]"
    folder = checkpoint_dir_setting(checkpoint_dir)
    if not is_local(wanted) and folder is None:
        raise VadaError(missing_checkpoint_dir(wanted))
    why = spark_available()
    if why is not None:
        raise VadaError(why)
    from pyspark.sql import SparkSession

    global _SESSION
    with _SESSION_LOCK:
        # the active session is the thread's (an MCP tool runs in a worker thread); ours is the process's
        active = SparkSession.getActiveSession() or _SESSION
        if active is not None:
            return active
        from pyspark import SparkConf, SparkContext
        from pyspark.java_gateway import launch_gateway

        if getattr(SparkContext, "_active_spark_context", None) is not None:
            return SparkSession.builder.getOrCreate()  # a context the application started in another thread

        quiet = Path(__file__).with_name("log4j2-quiet.properties")
        conf = (SparkConf().setAppName("vadaorchestra")
                .setMaster(wanted)
                .set("spark.ui.enabled", "false")
                .set("spark.sql.shuffle.partitions", str(shuffle_partitions(wanted)))
                .set("spark.sql.adaptive.enabled", "true")
                # a union of checkpointed frames was planned wrongly with constraint propagation on (issue 26)
                .set("spark.sql.constraintPropagation.enabled", "false")
                .set("spark.sql.session.timeZone", "UTC")
                # one generated class for the same pipeline at any stage of any plan (:data:`CODEGEN_CONF`)
                .set(*CODEGEN_CONF)
                # stages run as evaluator objects, no closure to clean per stage (:data:`EVALUATOR_CONF`)
                .set(*EVALUATOR_CONF)
                .set("spark.ui.showConsoleProgress", "false")
                # a round's checkpoint files are removed once nothing refers to their frames any more
                .set("spark.cleaner.referenceTracking.cleanCheckpoints", "true")
                .set("spark.driver.extraJavaOptions", f"-Dlog4j2.configurationFile={quiet}"))
        for key, value in (conf_extra or {}).items():
            conf = conf.set(key, value)
        # the JVM's own output (its start-up notices, a crash) goes to a file, not into the user's terminal: one known
        # place, the previous session's kept beside it as spark.log.1
        log = _log_file()
        try:
            gateway = launch_gateway(conf, popen_kwargs={"stdout": log, "stderr": log})
        except Exception as exc:  # noqa: BLE001 - pyspark raises several kinds; the JVM's log says why
            raise VadaError(f"the Spark JVM did not start ({exc}); its output is in {log.name}") from None
        finally:
            log.close()
        with warnings.catch_warnings():  # pyspark's notice that it does not yet support pandas 3 in full
            warnings.simplefilter("ignore", FutureWarning)
            context = SparkContext(conf=conf, gateway=gateway)
            _SESSION = SparkSession(context)
        context.setLogLevel("OFF")
        _quiet_python_loggers()
        if folder is not None and not is_local(wanted):
            try:
                use_checkpoint_dir(_SESSION, folder)
            except VadaError:
                _SESSION.stop()
                _SESSION = None
                raise
        return _SESSION


def missing_checkpoint_dir(master: str) -> str:
    return (f"the Spark master {master} is not local: the engine needs a checkpoint folder its executors reach (on one "
            "machine any local folder, else a shared file system or HDFS): set $VADA_SPARK_CHECKPOINT_DIR or "
            "engine_options={'checkpoint_dir': ...}")


_CHECKED_DIRS: dict[tuple[str, str], str] = {}  # (application id, folder given) -> the folder Spark checkpoints into


def use_checkpoint_dir(spark: SparkSession, folder: str) -> str:
    """Make ``folder`` the session's checkpoint folder, once per application, and check that the executors write
    and read there (one small checkpoint job); its URI, else a :class:`VadaError` naming the folder and why."""
    from py4j.protocol import Py4JError
    from pyspark.errors import PySparkException

    sc = spark.sparkContext
    key = (sc.applicationId, folder)
    current = sc._jsc.sc().getCheckpointDir()
    if key in _CHECKED_DIRS and current.isDefined() and current.get() == _CHECKED_DIRS[key]:
        return _CHECKED_DIRS[key]
    local_path = "://" not in folder or folder.startswith("file:")
    try:
        if local_path:  # the driver makes it; executors on other machines must see the same folder
            Path(folder.removeprefix("file:")).expanduser().mkdir(parents=True, exist_ok=True)
        sc.setCheckpointDir(folder)
        probe = spark.range(0, 2, 1, 2).checkpoint(eager=True)
        if probe.count() != 2:
            raise VadaError("the probe read back wrong")
    except (OSError, PySparkException, Py4JError) as exc:
        why = spark_message(exc) if not isinstance(exc, OSError) else str(exc)
        raise VadaError(f"the Spark checkpoint folder {folder} is not usable by the executors: {why}") from None
    where = sc._jsc.sc().getCheckpointDir()
    _CHECKED_DIRS[key] = where.get() if where.isDefined() else folder
    return _CHECKED_DIRS[key]


def _quiet_python_loggers() -> None:
    """pyspark logs every SQL error as a JSON line with the JVM's stack (6-7 KB) before raising it; the engine reports
    the error itself, located, so those loggers are silenced."""
    import logging

    try:
        from pyspark.logger import PySparkLogger
    except ImportError:  # an older pyspark: no such logger
        return
    for name in ("SQLQueryContextLogger", "DataFrameQueryContextLogger"):
        PySparkLogger.getLogger(name).setLevel(logging.CRITICAL + 10)


def log_path() -> Path:
    """Where the Spark JVM's output goes: ``$VADA_SPARK_LOG``, else ``spark.log`` in the cache folder
    (``$XDG_CACHE_HOME/vadaorchestra``, else ``~/.cache/vadaorchestra``)."""
    if os.environ.get("VADA_SPARK_LOG"):
        return Path(os.environ["VADA_SPARK_LOG"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "vadaorchestra" / "spark.log"


def _log_file():
    path = log_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        path.replace(path.with_name(path.name + ".1"))  # rotated: the last two sessions' logs, never more
    return path.open("wb")


# --- DuckDB's dialect rendered for Spark ------------------------------------------------------------------------------
@functools.lru_cache(maxsize=4096)
def render(select: str) -> str:
    """A statement of the engine (DuckDB's dialect) in Spark SQL."""
    import sqlglot
    from sqlglot import exp

    def fix(node: exp.Expression) -> exp.Expression:
        if isinstance(node, exp.Cast) and node.to.this == exp.DataType.Type.INT128:
            scaled = node.this.unnest()
            if isinstance(scaled, exp.Mul) and scaled.expression.name == _SCALE:
                return sqlglot.parse_one(exact_units(scaled.this.sql("spark")), read="spark")
            return exp.Cast(this=node.this, to=exp.DataType.build("DECIMAL(38, 0)"))
        if isinstance(node, exp.Anonymous):
            name = str(node.this).lower()
            if name == "error":
                return exp.Anonymous(this="raise_error", expressions=node.expressions)
            if name == "suffix":
                return exp.Anonymous(this="endswith", expressions=node.expressions)
            if name == "product":  # product(x ORDER BY x): the values multiplied in sorted order
                arg = node.expressions[0]
                value = arg.this if isinstance(arg, exp.Order) else arg
                return sqlglot.parse_one(f"aggregate(array_sort(collect_list({value.sql('spark')})), CAST(1 AS DOUBLE), "
                                         "(acc, y) -> acc * y)", read="spark")
        return node

    tree = sqlglot.parse_one(select, read="duckdb")
    return tree.transform(fix).sql(dialect="spark")


def broadcast_hints(select: str, sizes: Mapping[str, int], most: int,
                    in_place: Callable[[str], bool] = lambda _name: False) -> str:
    """``select`` (Spark SQL) with join hints in each SELECT: ``BROADCAST`` for the relations it reads whose size is
    known and at most ``most`` rows (planned without adaptive execution, a join of a checkpointed frame would
    otherwise shuffle every input, the whole relation too, every round); ``SHUFFLE_HASH`` for a relation that is the
    right side of an ``ANTI JOIN`` (the check of a round's candidates against the whole relation) and that
    ``in_place(name)`` says is hash-partitioned on all its columns: only the candidates move to its partitions, the
    relation stays where it is (broadcast, it would be sent whole to every executor every round); ``MERGE`` instead
    when it holds more than ``most`` rows (or an unknown number): a sort-merge join spills where a hash table of
    each partition of a relation of millions of rows could exhaust an executor's memory."""
    import sqlglot
    from sqlglot import exp

    tree = sqlglot.parse_one(select, read="spark")
    for node in tree.find_all(exp.Select):
        if node.args.get("hint") is not None:  # a join static_joins planned
            continue
        sources = [node.args["from_"].this] if node.args.get("from_") else []
        joins = node.args.get("joins") or []
        sources += [j.this for j in joins]
        kept = {id(j.this) for j in joins if (j.args.get("kind") or "").upper() == "ANTI"
                and isinstance(j.this, exp.Table) and in_place(j.this.name)}
        big = {i for i in kept if next(t for t in sources if id(t) == i).name not in sizes
               or sizes[next(t for t in sources if id(t) == i).name] > most}
        hints = []
        small = [t.alias_or_name for t in sources if isinstance(t, exp.Table) and id(t) not in kept
                 and sizes.get(t.name, most + 1) <= most]
        if small:
            hints.append(exp.Anonymous(this="BROADCAST", expressions=[exp.to_identifier(a) for a in small]))
        for hint, which in (("SHUFFLE_HASH", kept - big), ("MERGE", big)):
            if which:
                hints.append(exp.Anonymous(this=hint, expressions=[
                    exp.to_identifier(t.alias_or_name) for t in sources if id(t) in which]))
        if hints:
            node.set("hint", exp.Hint(expressions=hints))
    return tree.sql(dialect="spark")


@functools.lru_cache(maxsize=4096)
def _hint_targets(select: str) -> tuple[frozenset[str], frozenset[str]]:
    """The relations ``select`` (Spark SQL) reads, and those it reads as the right side of an ``ANTI JOIN``: what
    :func:`broadcast_hints` decides on."""
    import sqlglot
    from sqlglot import exp

    tree = sqlglot.parse_one(select, read="spark")
    tables = frozenset(t.name for t in tree.find_all(exp.Table))
    anti = frozenset(j.this.name for j in tree.find_all(exp.Join) if (j.args.get("kind") or "").upper() == "ANTI"
                     and isinstance(j.this, exp.Table))
    return tables, anti


@functools.lru_cache(maxsize=4096)
def _hinted(select: str, small: frozenset[str], in_place: frozenset[str], static: frozenset[str] = frozenset()) -> str:
    """:func:`broadcast_hints` for the relations of ``small`` (at most ``BROADCAST_ROWS`` rows; the others more, or
    not known) and those of ``in_place`` (hash-partitioned on all their columns), after :func:`static_joins` for those
    of ``static``: from the third round on a round's statements are the texts of the round before last, with the same
    decisions, and are not parsed again."""
    if static:
        select = static_joins(select, static)[0]
    return broadcast_hints(select, dict.fromkeys(small, 0), BROADCAST_ROWS, in_place.__contains__)


def partitioned_name(table: str, keys: Sequence[str]) -> str:
    """The view of relation ``table``'s rows hash-partitioned on columns ``keys`` and sorted on them in each partition
    (:func:`static_joins`)."""
    return f"{table}__by_{'_'.join(keys)}"


@functools.lru_cache(maxsize=4096)
def static_joins(select: str, static: frozenset[str]) -> tuple[str, tuple[tuple[str, tuple[str, ...]], ...]]:
    """``select`` (Spark SQL) with each join of two relations, one of ``static`` (the same rows every time this text
    ran: a relation of an earlier stratum read by a recursive round) and one not (a round's delta), equated on columns
    of both, reading instead the static relation's copy hash-partitioned and sorted on its columns of the join
    (:func:`partitioned_name`) with a ``MERGE`` hint; and the copies it reads, as (relation, columns) pairs.

    Broadcast, the static relation was collected to the driver, hashed and sent to the executors again in every round,
    a Spark job of its own each time (tc 10k: one of a round's two jobs); so the copy is made once, and each round
    shuffles only its delta to the copy's partitions and merges it with them in place."""
    import sqlglot
    from sqlglot import exp

    tree = sqlglot.parse_one(select, read="spark")
    copies: dict[tuple[str, tuple[str, ...]], None] = {}
    for node in tree.find_all(exp.Select):
        if not node.args.get("from_"):
            continue
        joins = node.args.get("joins") or []
        sources = [node.args["from_"].this, *(j.this for j in joins)]
        if len(sources) != 2 or not all(isinstance(s, exp.Table) for s in sources) or any(
                (j.args.get("kind") or "").upper() in ("ANTI", "SEMI") or j.args.get("side") for j in joins):
            continue
        fixed = [s for s in sources if s.name in static]
        if len(fixed) != 1:
            continue
        table = fixed[0]
        other = next(s for s in sources if s is not table)
        conditions = [node.args["where"].this] if node.args.get("where") else []
        conditions += [j.args["on"] for j in joins if j.args.get("on")]
        keys: list[str] = []
        for condition in conditions:
            for eq in condition.flatten() if isinstance(condition, exp.And) else [condition]:
                if not (isinstance(eq, exp.EQ) and isinstance(eq.this, exp.Column)
                        and isinstance(eq.expression, exp.Column)):
                    continue
                sides = {eq.this.table: eq.this.name, eq.expression.table: eq.expression.name}
                if set(sides) == {table.alias_or_name, other.alias_or_name}:
                    column = sides[table.alias_or_name]
                    if column not in keys:
                        keys.append(column)
        if not keys:
            continue
        copies[(table.name, tuple(keys))] = None
        alias = table.alias_or_name
        table.set("this", exp.to_identifier(partitioned_name(table.name, keys), quoted=True))
        if not table.alias:
            table.set("alias", exp.TableAlias(this=exp.to_identifier(alias, quoted=True)))
        node.set("hint", exp.Hint(expressions=[exp.Anonymous(this="MERGE", expressions=[exp.to_identifier(alias)])]))
    return tree.sql(dialect="spark"), tuple(copies)


_SCALE = "18446744073709551616.0"  # 2^64, as sql._EXACT_SUM writes it


def exact_units(x: str) -> str:
    """``x`` (a double) as the exact integer number of 2^-64 units, a DECIMAL(38,0), rounded to the nearest unit with
    ties to even: what DuckDB's ``CAST(x * 2^64 AS HUGEINT)`` gives. Spark converts a double to a decimal through its
    shortest decimal string (100 * 2^64 becomes 1844674407370955200000, not …161600), so the magnitude is cut into
    pieces each exact as a BIGINT: the whole part, then two 32-bit parts of the fraction (a non-negative double's whole
    or fractional part, or its product with a power of two, is exact; for a negative one ``x - FLOOR(x)`` is ``1 + x``,
    which is not), the last one rounded with ``BROUND`` (ties to even; ``ROUND`` rounds them away from zero); the sign
    is applied to the whole."""
    a = f"ABS({x})"
    frac = f"({a} - FLOOR({a}))"
    hi = f"({frac} * 4294967296.0D)"
    lo = f"(({hi} - FLOOR({hi})) * 4294967296.0D)"
    d = "DECIMAL(38, 0)"
    return (f"(CAST(SIGN({x}) AS {d}) * (CAST(FLOOR({a}) AS {d}) * CAST(18446744073709551616 AS {d}) + "
            f"CAST(FLOOR({hi}) AS {d}) * CAST(4294967296 AS {d}) + CAST(BROUND({lo}) AS {d})))")


def _name(table: str) -> str:
    """A quoted relation name (as :meth:`RelationStore.temp` makes them) as Spark's view name."""
    return table[1:-1].replace('""', '"') if table.startswith('"') else table


@contextlib.contextmanager
def _without_adaptive(spark: SparkSession, apply: bool = True):
    """Plans made inside are made without adaptive execution (the session's setting restored after)."""
    if not apply:
        yield
        return
    key = "spark.sql.adaptive.enabled"
    before = spark.conf.get(key)
    spark.conf.set(key, "false")
    try:
        yield
    finally:
        spark.conf.set(key, before)


def _scanned_rdd(frame: DataFrame):
    """The RDD of internal rows a checkpointed ``frame`` scans (its plan is one ``LogicalRDD``), else the RDD of its
    executed plan (another Spark version)."""
    with contextlib.suppress(Exception):
        plan = frame._jdf.logicalPlan()
        if plan.getClass().getSimpleName() == "LogicalRDD":
            return plan.rdd()
    return frame._jdf.queryExecution().toRdd()


class _JobGroup:
    """What a tripped budget interrupts: the Spark jobs of one run (``interrupt()``, as a DuckDB connection has)."""

    def __init__(self, spark: SparkSession, group: str):
        self.spark = spark
        self.group = group

    def interrupt(self) -> None:
        self.spark.sparkContext.cancelJobGroup(self.group)


class SparkStore:
    """A run's relations as checkpointed DataFrames of a SparkSession, registered as temporary views; the same
    operations as :class:`~vadaorchestra.datalog.engines.store.RelationStore`, whose DuckDB connection (``home``)
    keeps the database the program reads tables from and writes its results to."""

    recursive_union = False  # Spark's WITH RECURSIVE is UNION ALL only: linear recursion runs rounds too
    inline_deltas = False  # every relation a round reads is a checkpointed frame

    def __init__(self, spark: SparkSession, home: RelationStore, *, write_tables: bool = False,
                 stats: dict | None = None, lean: bool = True, reliable: bool = False, output_dir: str | None = None,
                 driver_rows: int | None = DRIVER_ROWS):
        self.spark = spark
        # reliable: each checkpoint written as files in the session's checkpoint folder (a cluster: an executor lost
        # mid-run costs a recomputation from the last files, not the run); else kept in the executors' memory
        self.reliable = reliable
        self.output_dir = output_dir
        self.driver_rows = driver_rows
        self.partitions = int(spark.conf.get("spark.sql.shuffle.partitions"))
        self.in_place: dict[str, bool] = {}  # view name -> hash-partitioned on all its columns (checked once)
        self.view_meta: dict[str, Any] = {}  # view name -> the catalog's description of it (replace_view)
        self.registrations = 0
        self.generation: dict[str, int] = {}  # view name -> the number of its registration among the run's
        self.last_read: dict[str, dict[str, int | None]] = {}  # statement -> its relations' generations when it last ran
        self.copies: dict[str, set[str]] = {}  # relation -> its partitioned copies (partitioned_copy)
        # lean=False: the straightforward store the job counts are measured against (benchmarks/engine.py): an eager
        # checkpoint and a count apart (two jobs), a whole relation computed again when inserted, and every union
        # checkpointed at once
        self.lean = lean
        self.union_depth = UNION_DEPTH if lean else 1
        self.home = home
        self.budget: Budget | None = home.budget
        self.text = home.text
        self.prefix = run_prefix()
        self.frames: dict[str, DataFrame] = {}
        self.sizes: dict[str, int] = {}  # rows of the frames whose count is known
        self.depth: dict[str, int] = {}  # checkpointed parts a frame is a union of
        self.write_tables = write_tables
        self.stats = stats if stats is not None else {}
        for key in ("jobs", "actions", "checkpoints", "statements"):
            self.stats.setdefault(key, 0)
        self.group = f"vadaorchestra-{self.prefix}"
        spark.sparkContext.setJobGroup(self.group, "vadaorchestra evaluation", interruptOnCancel=True)
        self._watch = contextlib.ExitStack()
        if self.budget is not None:
            self._watch.enter_context(self.budget.watch(_JobGroup(spark, self.group)))

    # --- plumbing ---------------------------------------------------------------------------------------------------
    def guard(self, action: Callable[[], Any], label: str = "", span=None) -> Any:
        """Run a Spark call; its failure becomes an :class:`EngineError` naming ``label`` (or the budget's error)."""
        from py4j.protocol import Py4JError
        from pyspark.errors import PySparkException

        return guarded(action, self.budget, self.text, label, span, (PySparkException, Py4JError),
                       lambda exc, lbl, sp: self.error(lbl, sp, spark_message(exc)))

    def error(self, label: str, span, msg: str) -> EngineError:
        return self.home.error(label, span, msg)

    def out_of_memory(self, label: str, span) -> LimitExceeded:
        text = f"memory limit exceeded while {label or 'evaluating'} on Spark; nothing was written"
        return LimitExceeded(text, [Diagnostic(span, text)] if span else [], self.text, limit="memory")

    def sql(self, select: str, label: str = "", span=None) -> DataFrame:
        self.stats["statements"] += 1
        text = render(select)
        if self.lean:
            tables, anti = _hint_targets(text)
            static = self.unchanged(text, tables - anti)
            if static:
                for table, keys in static_joins(text, static)[1]:
                    self.partitioned_copy(table, keys, label, span)
            sizes = {_name(t): n for t, n in self.sizes.items()}
            small = frozenset(t for t in tables if sizes.get(t, BROADCAST_ROWS + 1) <= BROADCAST_ROWS)
            text = _hinted(text, small, frozenset(t for t in anti if self.partitioned(t)), static)
        return self.guard(lambda: self.spark.sql(text), label, span)

    def unchanged(self, text: str, tables: frozenset[str]) -> frozenset[str]:
        """The relations among ``tables`` that statement ``text`` read the last time it ran, still registered as
        they were then: what a recursive stratum's rounds read of earlier strata (a round's statements are the texts
        of the round before last; its delta and the relations it adds to are registered anew every round)."""
        now = {t: self.generation.get(t) for t in tables}
        last = self.last_read.get(text)
        self.last_read[text] = now
        if last is None:
            return frozenset()
        return frozenset(t for t, g in now.items() if g is not None and last.get(t) == g)

    def partitioned_copy(self, table: str, keys: Sequence[str], label: str = "", span=None) -> None:
        """The rows of view ``table`` hash-partitioned on columns ``keys`` (as a shuffle partitions them) and sorted on
        them in each partition, checkpointed and registered as :func:`partitioned_name`, once while ``table`` stays
        registered as it is (:meth:`register` drops the copy when it changes)."""
        copy = S.quote_ident(partitioned_name(table, keys))
        if copy in self.frames:
            return
        source = next(k for k in self.frames if _name(k) == table)
        frame = self.frames[source].repartition(self.partitions, *keys).sortWithinPartitions(*keys)
        kept, n = self.keep(frame, label, span)
        self.register(copy, kept, n)
        self.copies.setdefault(source, set()).add(copy)

    def keep(self, frame: DataFrame, label: str = "", span=None) -> tuple[DataFrame, int]:
        """``frame`` computed once, checkpointed and counted in one job (two with reliable checkpoints: the second
        writes the files from the blocks the first kept).

        The checkpointed frame keeps the partitioning of the plan that made it (a round's new tuples come out of
        the distinct and the anti-join hash-partitioned on all their columns), so a whole relation that grows by
        unions of such deltas stays partitioned and the next round's anti-join moves only the candidates. Two
        things would lose it: adaptive execution (its plan reports no partitioning), so the plan is made without
        it; and a checkpoint that keeps its input's column ids (a union of two frames sharing ids renames one and
        drops its partitioning), so the frame is checkpointed under fresh column names and renamed back."""
        cols = frame.columns

        def run() -> tuple[DataFrame, int]:  # a lazy checkpoint may still run the plan's constant parts
            fresh = frame.toDF(*[f"_k{i}" for i in range(len(cols))])
            with _without_adaptive(self.spark, self.lean):
                kept = (fresh.checkpoint if self.reliable else fresh.localCheckpoint)(eager=not self.lean)
            if not self.lean:  # the naive store: an eager checkpoint, then a DataFrame count
                return kept.toDF(*cols), kept.count()
            # the rows of the checkpointed RDD counted as an RDD: one job that computes the frame, checkpoints it and
            # counts each partition's rows (a DataFrame's count adds a shuffle to one partition, which adaptive
            # execution runs as a job of its own); the RDD the checkpointed frame scans, not the RDD of a plan made
            # for it (its planning, codegen included, was a few per cent of the driver's time)
            rdd = _scanned_rdd(kept)
            if not self.reliable:
                return kept.toDF(*cols), rdd.count()
            # the blocks kept in the executors as the count computes them, for the job that writes the files right
            # after it (within the count's call) to read, then let go: later rounds read the files, as an executor
            # that replaces a lost one does. An eager checkpoint and a DataFrame count read back took 3-4 jobs.
            rdd.persist(self.spark.sparkContext._jvm.org.apache.spark.storage.StorageLevel.MEMORY_AND_DISK())
            try:
                return kept.toDF(*cols), rdd.count()
            finally:
                rdd.unpersist(False)

        kept, n = self.guard(run, label, span)
        self.stats["actions"] += 1 if self.lean else 2
        self.stats["checkpoints"] += 1
        return kept, n

    def partitioned(self, name: str) -> bool:
        """Whether the relation registered as view ``name`` is hash-partitioned on all its columns, in as many
        partitions as a shuffle makes (so an anti-join on all columns leaves it in place)."""
        if name not in self.in_place:
            self.in_place[name] = False
            frame = self.frames.get(S.quote_ident(name))
            if frame is not None:
                with contextlib.suppress(Exception):
                    part = frame._jdf.queryExecution().executedPlan().outputPartitioning()
                    if part.getClass().getSimpleName() == "HashPartitioning":
                        exprs = part.expressions()
                        names = [exprs.apply(i).toString().split("#")[0] for i in range(exprs.size())]
                        self.in_place[name] = names == frame.columns and part.numPartitions() == self.partitions
        return self.in_place[name]

    def register(self, table: str, frame: DataFrame, size: int | None, depth: int = 1) -> None:
        name = _name(table)
        for copy in self.copies.pop(table, ()):  # partitioned copies of what it held (partitioned_copy)
            self.drop(copy)
        self.registrations += 1
        self.generation[name] = self.registrations
        if not (self.lean and self.replace_view(name, frame)):
            frame.createOrReplaceTempView(name)
            if self.lean:
                self.remember_view(name)
        self.in_place.pop(_name(table), None)
        self.frames[table] = frame
        self.depth[table] = depth
        if size is None:
            self.sizes.pop(table, None)
        else:
            self.sizes[table] = size

    def remember_view(self, name: str) -> None:
        """Keep the description Spark made for temporary view ``name`` (its name and schema, not its plan), for
        :meth:`replace_view`."""
        with contextlib.suppress(Exception):
            self.view_meta[name] = self._catalog().getRawTempView(name).get().tableMeta()

    def replace_view(self, name: str, frame: DataFrame) -> bool:
        """Register ``frame`` as temporary view ``name`` straight in the session's catalog, as
        ``createOrReplaceTempView`` would (the same description: a view that stores the frame's analyzed plan), when
        a view of that name and schema was registered before; False when not done (the caller registers it the
        public way). ``createOrReplaceTempView`` runs a command through a whole query execution, 9-12 ms each time
        on this machine; a semi-naive round registers two views (its delta, the relation's union), and the catalog
        takes one in a fraction of a millisecond."""
        meta = self.view_meta.get(name)
        if meta is None:
            return False
        try:
            plan = frame._jdf.queryExecution().analyzed()
            if not meta.schema().equals(plan.schema()):
                return False
            jvm = self.spark._jvm
            view = jvm.org.apache.spark.sql.catalyst.catalog.TemporaryViewRelation(meta, jvm.scala.Some(plan))
            self._catalog().createTempView(name, view, True)
        except Exception:  # noqa: BLE001 - an internal API of another Spark version: the public way
            self.view_meta.pop(name, None)
            return False
        return True

    def _catalog(self):
        return self.spark._jsparkSession.sessionState().catalog()

    def temp(self, base: str) -> str:
        return S.quote_ident(self.prefix + base)

    def made(self, table: str) -> bool:
        return table in self.frames

    # --- derived relations ------------------------------------------------------------------------------------------
    def create(self, table: str, select: str, label: str = "", span=None, *, replace: bool = False) -> int:
        frame, n = self.keep(self.sql(select, label, span), label, span)
        self.register(table, frame, n)
        return n

    def create_empty(self, table: str, info: PredInfo) -> str:
        self.register(table, self.spark.createDataFrame([], schema(info)), 0)
        return table

    def create_table(self, name: str, info: PredInfo) -> str:
        return self.create_empty(self.temp(name), info)

    def insert(self, table: str, select: str, label: str = "", span=None) -> int:
        source = re.fullmatch(r'SELECT \* FROM ("(?:[^"]|"")+")', select)
        if self.lean and source and source.group(1) in self.frames:  # a whole relation: no job to compute it again
            frame, n = self.frames[source.group(1)], self.count(source.group(1))
        else:
            frame, n = self.keep(self.sql(select, label, span), label, span)
        if n == 0:
            return 0
        old = self.frames[table]
        if self.sizes.get(table) == 0:
            self.register(table, frame, n)
            return n
        depth = self.depth.get(table, 1) + 1
        union = old.union(frame)
        size = self.sizes[table] + n if table in self.sizes else None
        if depth > self.union_depth:
            union, size = self.keep(union, label, span)
            depth = 1
        self.register(table, union, size, depth)
        return n

    def delete(self, table: str, alias: str, condition: str, label: str = "", span=None) -> None:
        frame, n = self.keep(self.sql(f"SELECT * FROM {table} AS {alias} WHERE NOT ({condition})", label, span),
                             label, span)
        self.register(table, frame, n)

    def replace_rows(self, table: str, source: str, label: str = "", span=None) -> None:
        self.register(table, self.frames[source], self.sizes.get(source), self.depth.get(source, 1))

    def view(self, table: str, select: str, label: str = "", span=None) -> str:
        self.register(table, self.sql(select, label, span), None)
        return table

    def rows(self, select: str, label: str = "", span=None) -> list[tuple]:
        frame = self.sql(select, label, span)
        self.stats["actions"] += 1
        return [tuple(r) for r in self.guard(frame.collect, label, span)]

    def value(self, select: str, label: str = "", span=None) -> Any:
        return self.rows(select, label, span)[0][0]

    def count(self, table: str) -> int:
        if table not in self.sizes:
            self.stats["actions"] += 1
            self.sizes[table] = self.guard(self.frames[table].count)
        return self.sizes[table]

    def begin(self) -> None:
        """Nothing: Spark's relations are views and checkpoints, which :meth:`cleanup` drops (DuckDB's
        :meth:`RelationStore.begin` rolls its relations back at once)."""

    def fetch(self, table: str, limit: int | None = None) -> list[tuple]:
        if limit is None or self.driver_rows is not None and limit > self.driver_rows:
            self.check_driver_rows(table, "returned")
        tail = "" if limit is None else f" LIMIT {int(limit)}"
        return self.rows(f"SELECT * FROM {table} ORDER BY ALL{tail}")

    def check_driver_rows(self, table: str, what: str, pred: str | None = None) -> None:
        """Refuse, before anything is collected, a relation of more rows than the driver takes (``driver_rows``)."""
        if self.driver_rows is None:
            return
        n = self.count(table)
        if n > self.driver_rows:
            name = pred or _name(table).removeprefix(self.prefix)
            raise EngineError(f"{name!r} holds {n:,} rows, more than the {self.driver_rows:,} the Spark driver takes "
                              f"({what}); nothing was written: have the executors write it as Parquet (engine_options "
                              "output_dir or $VADA_SPARK_OUTPUT_DIR, with outputs=[] or a limit on the rows returned), "
                              "or raise driver_rows")

    def drop(self, table: str) -> None:
        for copy in self.copies.pop(table, ()):
            self.drop(copy)
        self.generation.pop(_name(table), None)
        if self.frames.pop(table, None) is not None:
            self.spark.catalog.dropTempView(_name(table))
        self.sizes.pop(table, None)
        self.depth.pop(table, None)

    def retire(self, table: str) -> None:
        """Dropping a frame costs no job here: a retired table is dropped at once."""
        self.drop(table)

    def cleanup(self) -> None:
        # the jobs Spark ran for this run's actions (an action may take several: adaptive execution plans a shuffle's
        # stages as jobs of their own), as its status tracker counts them (it keeps the last spark.ui.retainedJobs)
        with contextlib.suppress(Exception):
            self.stats["jobs"] += len(self.spark.sparkContext.statusTracker().getJobIdsForGroup(self.group))
        for table in list(self.frames):
            with contextlib.suppress(Exception):
                self.drop(table)
        self.frames.clear()
        if self.reliable:  # the run's checkpoint files go once the driver's JVM has let go of their frames
            with contextlib.suppress(Exception):
                self.spark.sparkContext._jvm.System.gc()
        self._watch.close()
        self.home.cleanup()

    # --- base data --------------------------------------------------------------------------------------------------
    def from_rows(self, info: PredInfo, rows: Sequence[tuple]) -> DataFrame:
        convert = [float if t == "float" else int if t == "int" else bool if t == "bool" else str for t in info.types]
        data = [tuple(f(v) for f, v in zip(convert, r, strict=True)) for r in rows] if info.arity else [(True,)] * min(
            1, len(rows))
        return self.spark.createDataFrame(data, schema(info))

    def insert_rows(self, table: str, info: PredInfo, rows: Sequence[tuple]) -> None:
        frame, n = self.keep(self.from_rows(info, rows).distinct(), f"loading rows of {info.name!r}")
        if self.sizes.get(table) == 0:
            self.register(table, frame, n)
        else:
            self.register(table, self.frames[table].union(frame).distinct(), None)

    def load_input(self, name: str, info: PredInfo, rows: Sequence[tuple]) -> str:
        rows = input_rows(name, info, rows)
        table = self.create_table(name, info)
        if rows:
            self.insert_rows(table, info, rows)
        return table

    def load_table(self, name: str, info: PredInfo) -> str:
        """From the DuckDB database's table of that name (the workspace), else the session catalog's table."""
        table = self.temp(name)
        columns = self.home.database_columns()
        if name in columns:
            cols = columns[name]
            if len(cols) != info.arity:
                raise EngineError(f"table {name!r} has {len(cols)} columns but the program uses {info.arity}")
            arrow = self.home.arrow(f"SELECT {cast_columns(cols, info)} FROM main.{S.quote_ident(name)}",
                                    f"reading table {name!r}")
            frame, n = self.keep(self.guard(lambda: self.spark.createDataFrame(arrow), f"reading table {name!r}"),
                                 f"reading table {name!r}")
            self.register(table, frame, n)
            return table
        if not self.guard(lambda: self.spark.catalog.tableExists(name)):
            raise EngineError(f"no data for predicate {name!r}: it is neither bound with @bind nor a table of the "
                              "database or of the Spark session's catalog")
        source = self.spark.table(name)
        if len(source.columns) != info.arity:
            raise EngineError(f"table {name!r} has {len(source.columns)} columns but the program uses {info.arity}")
        raw = self.temp(name + "_src")  # registered, so that cleanup drops its view too
        self.register(raw, source, None)
        self.view(table, f"SELECT {cast_columns(source.columns, info)} FROM {raw}", f"reading table {name!r}")
        return table

    def load_bind(self, bind: Bind, info: PredInfo) -> str:
        label = bind_label(bind)
        path = str(bind.path)
        match bind.kind:
            case "csv":
                source = self.guard(lambda: self.spark.read.option("header", True).csv(path), label, bind.span)
            case "parquet":
                source = self.guard(lambda: self.spark.read.parquet(path), label, bind.span)
            case "duckdb":  # a DuckDB file: read through DuckDB, handed over as Arrow
                db = duckdb.connect(path, read_only=True)
                try:
                    arrow = to_arrow(db.sql(f"SELECT * FROM main.{S.quote_ident(bind.table or bind.pred)}"))
                    source = self.guard(lambda: self.spark.createDataFrame(arrow), label, bind.span)
                except duckdb.Error as exc:
                    raise self.error(label, bind.span, str(exc).split("\n")[0]) from None
                finally:
                    db.close()
            case _:
                raise EngineError(f"unknown @bind kind {bind.kind!r}")
        raw = self.temp(bind.pred + "_file")
        self.register(raw, source, None)
        table = self.temp(bind.pred)
        self.create(table, bound_select(source.columns, info, raw, bind, self.text), label, bind.span)
        self.drop(raw)
        check_bound(self, table, info, bind)
        return table

    # --- results ----------------------------------------------------------------------------------------------------
    def materialize(self, targets: Mapping[str, tuple[str, PredInfo]], append: bool = False) -> None:
        """The relations brought into the DuckDB database (one transaction, as the other engines write), and with
        ``write_tables`` saved as tables of the session catalog too. With ``output_dir`` the executors write them as
        Parquet instead and the database gets a view of each (:meth:`write_parquet`): nothing is collected."""
        if self.output_dir is not None:
            self.write_parquet(targets, append)
        else:
            for source, info in targets.values():
                self.check_driver_rows(source, "materialized into the workspace", info.name)
            self.collect_into_home(targets, append)
        if self.write_tables:
            for table, (source, info) in targets.items():
                frame = self.sql(f"SELECT {named_columns(info)} FROM {source}")
                self.guard(lambda f=frame, t=table: f.write.mode("append" if append else "overwrite").saveAsTable(t),
                           f"materializing {info.name!r}")

    def collect_into_home(self, targets: Mapping[str, tuple[str, PredInfo]], append: bool) -> None:
        moved: dict[str, tuple[str, PredInfo]] = {}
        for table, (source, info) in targets.items():
            arrow = self.guard(self.sql(f"SELECT * FROM {source}").toArrow, f"materializing {info.name!r}")
            local = self.home.temp(f"{info.name}_from_spark")
            self.home.con.register(_name(local) + "_arrow", arrow)
            self.home.create(local, f"SELECT * FROM {S.quote_ident(_name(local) + '_arrow')}")
            self.home.con.unregister(_name(local) + "_arrow")
            moved[table] = (local, info)
        self.home.materialize(moved, append)

    def write_parquet(self, targets: Mapping[str, tuple[str, PredInfo]], append: bool) -> None:
        """Each relation written by the executors as Parquet into ``output_dir/<table>/``, and the database given a
        view of that name over the files: all or nothing. The files go to a staging folder first; only when every
        relation is written are they moved into place (an older folder of the same name set aside until the views
        are committed, and put back if they are not)."""
        import shutil

        if append:
            raise EngineError("outputs written as Parquet (output_dir) replace the folder of each table; appending to "
                              "them is not supported: leave output_dir unset to append into the workspace's tables")
        if "://" in self.output_dir and not self.output_dir.startswith("file:"):
            raise EngineError(f"output_dir {self.output_dir!r}: the workspace reads the Parquet it is given from a "
                              "folder of this machine or a shared file system mounted here (a path, or file:)")
        out = Path(self.output_dir.removeprefix("file:")).expanduser().resolve()
        staging = out / f".staging-{self.prefix.strip('_')}"
        moved: list[tuple[Path, Path | None]] = []  # (final folder, older one set aside)
        try:
            out.mkdir(parents=True, exist_ok=True)
            for table, (source, info) in targets.items():
                frame = self.sql(f"SELECT {named_columns(info)} FROM {source}")
                self.guard(lambda f=frame, t=table: f.write.mode("errorifexists").parquet(str(staging / t)),
                           f"writing {info.name!r} as Parquet into {out}")
            for table in targets:
                final = out / table
                old = None
                if final.exists():
                    old = out / f".old-{self.prefix.strip('_')}-{table}"
                    final.replace(old)
                moved.append((final, old))
                (staging / table).replace(final)
            self.home.exec("BEGIN TRANSACTION")
            try:
                for table, (_source, info) in targets.items():
                    files = S.sql_string(str(out / table / "*.parquet"))
                    if self.home.rows("SELECT 1 FROM duckdb_tables() WHERE database_name = current_database() AND "
                                      f"schema_name = 'main' AND table_name = {S.sql_string(table)}"):
                        self.home.exec(f"DROP TABLE main.{S.quote_ident(table)}", f"materializing {info.name!r}")
                    self.home.exec(f"CREATE OR REPLACE VIEW main.{S.quote_ident(table)} AS SELECT * FROM "
                                   f"read_parquet({files})", f"materializing {info.name!r}")
                self.home.exec("COMMIT")
            except BaseException:
                with contextlib.suppress(duckdb.Error):
                    self.home.con.execute("ROLLBACK")
                raise
            if self.budget is not None:
                self.budget.committed()
        except BaseException as exc:
            for final, old in reversed(moved):  # the folders as they were
                shutil.rmtree(final, ignore_errors=True)
                if old is not None:
                    old.replace(final)
            moved.clear()
            if isinstance(exc, OSError):
                raise EngineError(f"writing the outputs as Parquet into {out}: {exc}") from None
            raise
        finally:
            shutil.rmtree(staging, ignore_errors=True)
            for _final, old in moved:
                if old is not None:
                    shutil.rmtree(old, ignore_errors=True)


_SPARK_OUR_TYPES = {"tinyint": "int", "smallint": "int", "int": "int", "bigint": "int", "float": "float",
                    "double": "float", "boolean": "bool"}


def catalog_schemas(spark: SparkSession, names: set[str]) -> tuple[dict[str, tuple[str, ...]],
                                                                   dict[str, tuple[str, ...]]]:
    """Types and column names of the tables (and temporary views) of the session's catalog among ``names``, as
    :func:`vadaorchestra.datalog.api.database_schemas` gives them for the DuckDB database."""
    types: dict[str, tuple[str, ...]] = {}
    cols: dict[str, tuple[str, ...]] = {}
    for name in sorted(names):
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) or not spark.catalog.tableExists(name):
            continue
        fields = spark.table(name).schema.fields
        types[name] = tuple("float" if f.dataType.simpleString().startswith("decimal")
                            else _SPARK_OUR_TYPES.get(f.dataType.simpleString(), "string") for f in fields)
        cols[name] = tuple(f.name for f in fields)
    return types, cols


def schema(info: PredInfo) -> str:
    """A Spark schema string for a relation of ``info``'s columns ``c0…`` (``c_ boolean`` when nullary)."""
    if info.arity == 0:
        return "c_ boolean"
    return ", ".join(f"c{i} {SPARK_TYPES[t]}" for i, t in enumerate(info.types))


_CONDITION = re.compile(r"\[([A-Z_.]+)\]\s*(.*)", re.S)


def spark_message(exc: BaseException) -> str:
    """The first line of a Spark error, without its error class and SQL state; a raised ``error()`` as its text; the
    exact float sum's overflow as its range."""
    text = str(exc).strip()
    java = getattr(exc, "java_exception", None)
    if java is not None and text.startswith("An error occurred while calling"):
        # a JVM error py4j did not convert (an OutOfMemoryError, a lost executor): its own first line, and its cause's
        with contextlib.suppress(Exception):
            first = str(java.toString()).split("\n")[0]
            cause = java.getCause()
            text = first + (f" (caused by {str(cause.toString()).splitlines()[0]})" if cause is not None else "")
    m = _CONDITION.search(text)
    condition, message = (m.group(1), m.group(2)) if m else ("", text)
    message = message.split("\n")[0]
    message = re.sub(r"\s*SQLSTATE: \w+\.?\s*$", "", message).strip()
    if condition == "USER_RAISED_EXCEPTION":
        return message
    if "DECIMAL" in text and ("OUT_OF_RANGE" in condition or "OVERFLOW" in condition):
        return FLOAT_SUM_RANGE_SPARK
    return f"{message} ({condition})" if condition else message


class SparkEngine(DuckDBEngine):
    """Evaluate analyzed programs on Spark; same contract as :meth:`DuckDBEngine.evaluate`.

    ``connection``: the DuckDB database the program reads tables from and writes results into;
    ``spark``: a SparkSession (default: :func:`spark_session`, ``local[*]`` or ``$VADA_SPARK_MASTER``);
    ``write_tables``: also save materialized outputs as tables of the session catalog;
    ``stats``: a dict the engine adds its counters to: ``rounds`` (semi-naive), ``statements`` (SQL), ``actions``
    (the Spark actions it started: counts and collects), ``checkpoints`` and ``jobs`` (what Spark ran for them);
    ``lean=False``: the straightforward store the reduction of jobs is measured against (benchmarks/engine.py);
    ``checkpoint_dir``: the folder the executors checkpoint into on a master that is not local (default
    ``$VADA_SPARK_CHECKPOINT_DIR``; required there, checked with one small job);
    ``output_dir``: materialized outputs written by the executors as Parquet, ``output_dir/<table>/``, the database
    given a view of each (default ``$VADA_SPARK_OUTPUT_DIR``; without it outputs are collected into the database);
    ``driver_rows``: the most rows of one relation collected to the driver (into the database or returned; default
    5M, None: no bound): a larger one is refused, before anything is collected, naming ``output_dir``.
    """

    name = "spark"
    # what api.run passes on from engine_options
    OPTIONS = ("spark", "master", "write_tables", "stats", "lean", "checkpoint_dir", "output_dir", "driver_rows")

    def __init__(self, connection: duckdb.DuckDBPyConnection, *, max_rounds: int = 1000, max_witnesses: int = 10,
                 progress: Callable[[str], None] | None = None, budget: Budget | None = None,
                 max_rows: int | None = None, spark: SparkSession | None = None, master: str | None = None,
                 write_tables: bool = False, stats: dict | None = None, lean: bool = True,
                 checkpoint_dir: str | os.PathLike | None = None, output_dir: str | os.PathLike | None = None,
                 driver_rows: int | None = DRIVER_ROWS):
        super().__init__(connection, max_rounds=max_rounds, max_witnesses=max_witnesses, progress=progress,
                         budget=budget, max_rows=max_rows)
        self.spark = spark if spark is not None else spark_session(master, checkpoint_dir=checkpoint_dir)
        # on a master that is not local, every checkpoint is a file the executors write in a folder they all reach
        self.reliable = not is_local(self.spark.sparkContext.master)
        if self.reliable:
            folder = checkpoint_dir_setting(checkpoint_dir)
            if folder is not None:
                use_checkpoint_dir(self.spark, folder)
            elif not self.spark.sparkContext._jsc.sc().getCheckpointDir().isDefined():
                raise EngineError(missing_checkpoint_dir(self.spark.sparkContext.master))
        out = output_dir if output_dir is not None else os.environ.get("VADA_SPARK_OUTPUT_DIR") or None
        self.output_dir = str(out) if out is not None else None
        self.driver_rows = driver_rows
        self.write_tables = write_tables
        self.stats = stats if stats is not None else {}
        self.stats.setdefault("rounds", 0)
        self.lean = lean

    def new_store(self, analysis: Analysis) -> SparkStore:  # type: ignore[override]
        home = super().new_store(analysis)
        return SparkStore(self.spark, home, write_tables=self.write_tables, stats=self.stats, lean=self.lean,
                          reliable=self.reliable, output_dir=self.output_dir, driver_rows=self.driver_rows)

    def new_run(self, analysis: Analysis, inputs, null_start: int) -> Run:
        self._run = super().new_run(analysis, inputs, null_start)
        return self._run

    def evaluate(self, analysis: Analysis, *args, **kwargs):
        """:meth:`DuckDBEngine.evaluate` on Spark; ``stats["rounds"]`` adds the run's semi-naive rounds."""
        self._run: Run | None = None
        try:
            return super().evaluate(analysis, *args, **kwargs)
        finally:
            if self._run is not None:
                self.stats["rounds"] += self._run.round_no


__all__ = ["SparkEngine", "SparkStore", "catalog_schemas", "checkpoint_dir_setting", "is_local", "render",
           "spark_available", "spark_session", "use_checkpoint_dir"]
