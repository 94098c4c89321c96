"""Engine benchmark: vadaorchestra's Datalog engine against the same queries hand-written in DuckDB SQL.

For every workload and size the two sides are measured side by side in one run: each measurement is a fresh
subprocess (this script with ``--child``), the two sides alternate, and the median time of ``--reps`` repetitions is
reported with the peak memory (``ru_maxrss`` of the child) and the result cardinality. Inputs are generated once
(seeded) into Parquet files; every child loads them into an in-memory DuckDB database *before* the clock starts, so input
loading is measured by neither side, and then calls either ``vadaorchestra.datalog.run(PROGRAM, database=con)`` or the
hand-written SQL. By default both sides return their rows sorted to Python (what ``run`` does); ``--sink table``
writes the result into a table instead (``run(..., materialize=...)`` against ``CREATE TABLE ... AS``).

When ``souffle`` is on PATH (and ``engine="souffle"`` works) the same program is also run on the Soufflé engine, in
the same alternation: interpreted (``souffle s``), and compiled (``mode="compiled"``): the child runs the program twice
with a fresh binary cache, the first run compiles (``compile s``: the engine's own compile time, reported apart) and
the second hits the cache (``compiled s``). Ratios are to the hand-written DuckDB SQL.

With ``--spark`` (the ``spark`` extra and Java installed) the program also runs on the Spark engine in local mode
(``spark``), and on the same engine without its reduction of jobs per round (``spark naive``: ``lean=False``, an
eager checkpoint and a count apart, a relation recomputed when inserted, every union checkpointed); each child starts
its session and runs a tiny program before the clock starts (the session's start is printed apart), and the rounds
and Spark jobs of the run are reported, with the seconds per round. With ``--spark-master spark://HOST:7077`` (a
standalone cluster, e.g. ``deploy/spark_cluster.py start``) and ``--spark-checkpoint-dir`` (the folder its executors
checkpoint into) the engine is also measured on that cluster (``spark cluster``).

Workloads:
  control  company control (msum recursion) on generated ownership graphs; anchor: an iterative SQL loop driven
           from Python (a recursive CTE cannot aggregate inside the recursion)
  tc       transitive closure of sparse random graphs; anchor: WITH RECURSIVE ... UNION
  loans    union of 1M loans and 1M credit lines, summed per (bank, borrower); anchor: UNION + GROUP BY
  lubm     Soufflé's LUBM example (56 rules, mutual recursion over 20 relations); no hand-written SQL (its row shows
           "—" there): the references are raw Soufflé on the same program and facts, and the result check compares
           with it

Run:  python benchmarks/engine.py [--quick] [--only control,tc,loans,lubm] [--sizes 1000,10000] [--reps 3]
                                  [--sink fetch|table] [--souffle both|interpreted|compiled|none] [--souffle-jobs N]
                                  [--souffle-rounds duckdb|souffle] [--spark]
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import os
import platform
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import duckdb  # noqa: E402
import numpy as np  # noqa: E402

SEED = 20240607
SIDES_LABEL = {"vo": "vadaorchestra", "sql": "DuckDB SQL", "souffle": "souffle interp", "souffle_c": "souffle compiled",
               "raw": "raw souffle", "raw_c": "raw souffle -o", "spark": "spark", "spark_naive": "spark naive",
               "spark_cluster": "spark cluster"}
SPARK_SIDES = ("spark", "spark_naive", "spark_cluster")
SOUFFLE_SIDES = {"interpreted": ("souffle",), "compiled": ("souffle_c",), "both": ("souffle", "souffle_c"), "none": ()}
RAW_SIDES = {"souffle": "raw", "souffle_c": "raw_c"}  # the raw side each engine mode is compared with
RESULT_TABLE = "bench_result"

# ----------------------------------------------------------------------------------------------------------------------
# Programs
# ----------------------------------------------------------------------------------------------------------------------
CONTROL_PROGRAM = """
controlled_shares(X,Y,Y,Q) :- own(X,Y,Q), X <> Y.
controlled_shares(X,Z,Y,Q) :- control(X,Z), own(Z,Y,Q), X <> Z, Z <> Y, X <> Y.
total(X,Y,S) :- controlled_shares(X,Z,Y,Q), S = msum(Q,<Z>).
control(X,Y) :- total(X,Y,S), S > 0.5.
@output("control").
"""

TC_PROGRAM = """
tc(X,Y) :- edge(X,Y).
tc(X,Z) :- tc(X,Y), edge(Y,Z).
@output("tc").
"""

EXPOSURE_PROGRAM = """
part(Bk, B, Id, A) :- loans(Bk, B, Id, A).
part(Bk, B, Id, D) :- credit_lines(Bk, B, Id, L, D).
exposure(Bk, B, T) :- part(Bk, B, Id, A), T = sum(A).
@output("exposure").
"""


# The same programs as Soufflé text for the raw-Soufflé column: ``souffle -F <inputs> -D <out>`` reads each input
# table from ``<table>.facts`` (exported by DuckDB, untimed) and writes ``<output>.csv``. Company control has none:
# Soufflé cannot aggregate inside recursion.
TC_SOUFFLE = """.decl edge(x:number, y:number)
.input edge
.decl tc(x:number, y:number)
.output tc
tc(x, y) :- edge(x, y).
tc(x, z) :- tc(x, y), edge(y, z).
"""

EXPOSURE_SOUFFLE = """.decl loans(bk:symbol, b:symbol, id:number, a:float)
.input loans
.decl credit_lines(bk:symbol, b:symbol, id:number, l:float, d:float)
.input credit_lines
.decl part(bk:symbol, b:symbol, id:number, a:float)
part(bk, b, id, a) :- loans(bk, b, id, a).
part(bk, b, id, d) :- credit_lines(bk, b, id, _, d).
.decl exposure(bk:symbol, b:symbol, t:float)
.output exposure
exposure(bk, b, t) :- part(bk, b, _, _), t = sum a : { part(bk, b, _, a) }.
"""


def _lubm():
    """benchmarks/lubm.py, loaded by path (this script runs from anywhere)."""
    import importlib.util

    if "benchmarks_lubm" not in sys.modules:
        spec = importlib.util.spec_from_file_location("benchmarks_lubm", Path(__file__).resolve().with_name("lubm.py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)
    return sys.modules["benchmarks_lubm"]


def lubm_rules() -> str:
    """LUBM's rules, each base relation read from its table ``lubm_<name>`` (a copy rule per base relation: several
    base relations are also derived, and a table cannot be a predicate that rules define)."""
    lubm = _lubm()
    copies = "".join(f"{p}({', '.join(f'X{i}' for i in range(n))}) :- lubm_{p}({', '.join(f'X{i}' for i in range(n))}).\n"
                     for p, n in lubm.BASE.items())
    return copies + lubm.RULES


def lubm_program() -> str:
    return lubm_rules() + "".join(f'@output("{o}").\n' for o in _lubm().OUTPUTS)


def lubm_souffle() -> str:
    lubm = _lubm()
    rules = lubm_rules()
    arity = dict(lubm.BASE)
    for m in re.finditer(r"([a-z][A-Za-z_]*)\(([^)]*)\)", rules):
        arity.setdefault(m.group(1), m.group(2).count(",") + 1)
    decls = [f".decl {p}({', '.join(f'a{i}:symbol' for i in range(n))})" for p, n in sorted(arity.items())]
    return "\n".join(decls + [f".input lubm_{p}" for p in lubm.BASE] + [f".output {o}" for o in lubm.OUTPUTS]) \
        + "\n" + rules


# ----------------------------------------------------------------------------------------------------------------------
# Input generators: each creates its tables in the connection's main schema and returns a description of the inputs.
# ----------------------------------------------------------------------------------------------------------------------
SHARE_UNIT = 1024  # shares are multiples of 1/1024: exact in binary floating point, so sums compare exactly to 0.5


def company_ownership(n: int, seed: int = SEED) -> tuple[list[tuple[int, int, float]], int]:
    """Ownership edges ``(owner, owned, share)`` over ``n`` companies, and the depth of the generating control tree.

    Company ``y`` is owned by earlier companies only (no cycles), with shares summing to at most 1. Its controlling
    parent is the larger of two uniform draws among earlier companies (biased to recent ones, so control chains are
    about 2·ln(n) deep and the recursion needs that many rounds). The parent either holds a direct majority, or (35%)
    2-3 companies of the parent's group (itself and companies it already controls) each hold less than 1/2 but more
    than 1/2 together, a control only msum finds; 1-2 random minority holders take part of the rest.
    """
    rng = random.Random(seed)
    controlled: list[list[int]] = [[] for _ in range(n)]
    depth = [0] * n
    rows: list[tuple[int, int, float]] = []
    roots = max(2, n // 100)
    for y in range(roots, n):
        owners: dict[int, int] = {}
        parent = max(rng.randrange(y), rng.randrange(y))
        group = [parent, *controlled[parent]]
        if len(group) >= 2 and rng.random() < 0.35:
            k = min(len(group), rng.choice((2, 3)))
            lo, hi = (290, 450) if k == 2 else (180, 300)
            for member in rng.sample(group, k):
                owners[member] = rng.randint(lo, hi)
        else:
            owners[parent] = rng.randint(520, 900)
        controlled[parent].append(y)
        depth[y] = depth[parent] + 1
        rest = SHARE_UNIT - sum(owners.values())
        for _ in range(rng.choice((1, 2, 2))):
            holder = rng.randrange(y)
            if holder in owners or rest < 2:
                continue
            q = rng.randint(1, min(rest - 1, 200))
            owners[holder] = q
            rest -= q
        rows.extend((x, y, q / SHARE_UNIT) for x, q in owners.items())
    return rows, max(depth)


def gen_control(con: duckdb.DuckDBPyConnection, n: int, seed: int = SEED) -> str:
    import pandas as pd

    rows, depth = company_ownership(n, seed)
    df = pd.DataFrame(rows, columns=["owner", "owned", "share"])  # noqa: F841 (read by DuckDB's replacement scan)
    con.execute("CREATE OR REPLACE TABLE own AS SELECT CAST(owner AS BIGINT) AS owner, CAST(owned AS BIGINT) AS owned, "
                "CAST(share AS DOUBLE) AS share FROM df")
    return f"own: {len(rows):,} edges, {n:,} companies, control-tree depth {depth}"


def gen_tc(con: duckdb.DuckDBPyConnection, m: int, seed: int = SEED) -> str:
    """``m`` distinct edges without self-loops over ``m`` nodes (average out-degree 1: near the critical point, the
    closure is tens of times the graph but far from quadratic)."""
    import pandas as pd

    n = m
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n, int(m * 1.3))
    dst = rng.integers(0, n, int(m * 1.3))
    keep = src != dst
    src, dst = src[keep], dst[keep]
    _, first = np.unique(src * n + dst, return_index=True)
    first = np.sort(first)[:m]
    df = pd.DataFrame({"src": src[first], "dst": dst[first]})  # noqa: F841
    con.execute("CREATE OR REPLACE TABLE edge AS SELECT CAST(src AS BIGINT) AS src, CAST(dst AS BIGINT) AS dst FROM df")
    return f"edge: {len(first):,} edges, {n:,} nodes"


def gen_lubm(con: duckdb.DuckDBPyConnection, departments: int, seed: int = SEED) -> str:
    """15 departments: the 103,074 facts of Soufflé's own LUBM case when ``datalog-conformance`` is installed (the
    suite's harvest of it); any other size, or without the package, LUBM-shaped facts from benchmarks/lubm.py."""
    import pandas as pd

    lubm = _lubm()
    source = "generated (benchmarks/lubm.py)"
    facts = None
    if departments == 15:
        try:
            facts, _expected = lubm.conformance_facts()
            source = "Soufflé's LUBM case from datalog-conformance"
        except ImportError:
            source += "; pip install datalog-conformance for Soufflé's own case"
    if facts is None:
        facts = lubm.generate(departments, seed)
    for pred, n in lubm.BASE.items():
        df = pd.DataFrame(facts.get(pred, []), columns=[f"c{i}" for i in range(n)], dtype=object)  # noqa: F841
        con.execute(f"CREATE OR REPLACE TABLE lubm_{pred} AS SELECT "
                    + ", ".join(f"CAST(c{i} AS VARCHAR) AS c{i}" for i in range(n)) + " FROM df")
    total = sum(len(facts.get(p, [])) for p in lubm.BASE)
    return f"{total:,} facts in {len(lubm.BASE)} relations, {departments} departments: {source}"


LOAN_BANKS, LOAN_BORROWERS, DUPLICATES = 20, 5_000, 0.01


def gen_loans(con: duckdb.DuckDBPyConnection, n: int, seed: int = SEED) -> str:
    """``n`` loans and ``n`` credit lines over 20 banks × 5,000 borrowers; 1% of the rows of each table are exact
    duplicates of other rows (so set semantics / UNION matters); amounts are whole numbers (exact float sums)."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    dups = int(n * DUPLICATES)

    def table(id_start: int) -> dict[str, np.ndarray]:
        uniq = n - dups
        cols = {"bank": rng.integers(0, LOAN_BANKS, uniq), "borrower": rng.integers(0, LOAN_BORROWERS, uniq),
                "id": np.arange(id_start, id_start + uniq), "amount": rng.integers(1_000, 1_000_000, uniq)}
        cols["drawn"] = np.floor(cols["amount"] * rng.random(uniq))
        pick = rng.integers(0, uniq, dups)
        return {k: np.concatenate([v, v[pick]]) for k, v in cols.items()}

    fmt = ("'bank_' || lpad(CAST(bank AS VARCHAR), 2, '0') AS bank, "
           "'borrower_' || lpad(CAST(borrower AS VARCHAR), 5, '0') AS borrower, CAST(id AS BIGINT) AS id")
    df = pd.DataFrame(table(0))  # noqa: F841
    con.execute(f"CREATE OR REPLACE TABLE loans AS SELECT {fmt}, CAST(amount AS DOUBLE) AS amount FROM df")
    df = pd.DataFrame(table(10 * n))  # noqa: F841
    con.execute(f"CREATE OR REPLACE TABLE credit_lines AS SELECT {fmt}, CAST(amount AS DOUBLE) AS credit_limit, "
                "CAST(drawn AS DOUBLE) AS drawn FROM df")
    return (f"loans: {n:,} rows, credit_lines: {n:,} rows ({dups:,} exact duplicates each; "
            f"{LOAN_BANKS} banks x {LOAN_BORROWERS:,} borrowers)")


# ----------------------------------------------------------------------------------------------------------------------
# Hand-written DuckDB SQL anchors: each runs whatever preparatory statements it needs and returns the SELECT of the
# final result (without ORDER BY).
# ----------------------------------------------------------------------------------------------------------------------
def anchor_control(con: duckdb.DuckDBPyConnection) -> str:
    """Company control as an iterative SQL loop (semi-naive): newly controlled companies extend the controlled shares,
    only the (x, y) groups that received new shares are re-summed (max per contributor z, then sum), and the loop
    stops when no new pair exceeds 1/2. Control only grows, so the pairs found are final."""
    con.execute("CREATE OR REPLACE TEMP TABLE a_cs AS "
                "SELECT DISTINCT owner AS x, owned AS z, owned AS y, share AS q FROM own WHERE owner <> owned")
    con.execute("CREATE OR REPLACE TEMP TABLE a_ctrl AS SELECT x, y FROM "
                "(SELECT x, y, z, max(q) AS q FROM a_cs GROUP BY x, y, z) GROUP BY x, y HAVING sum(q) > 0.5")
    con.execute("CREATE OR REPLACE TEMP TABLE a_delta AS SELECT * FROM a_ctrl")
    while con.execute("SELECT count(*) FROM a_delta").fetchone()[0]:
        # shares held by newly controlled companies; (x, z) is new, so these rows are not in a_cs yet
        con.execute("CREATE OR REPLACE TEMP TABLE a_dcs AS "
                    "SELECT DISTINCT d.x, o.owner AS z, o.owned AS y, o.share AS q FROM a_delta d JOIN own o "
                    "ON o.owner = d.y WHERE d.x <> o.owner AND o.owner <> o.owned AND d.x <> o.owned")
        con.execute("INSERT INTO a_cs SELECT * FROM a_dcs")
        con.execute("CREATE OR REPLACE TEMP TABLE a_delta AS "
                    "SELECT x, y FROM (SELECT c.x, c.y, c.z, max(c.q) AS q FROM a_cs c "
                    "JOIN (SELECT DISTINCT x, y FROM a_dcs) g ON c.x = g.x AND c.y = g.y GROUP BY c.x, c.y, c.z) "
                    "GROUP BY x, y HAVING sum(q) > 0.5 "
                    "EXCEPT SELECT x, y FROM a_ctrl")
        con.execute("INSERT INTO a_ctrl SELECT * FROM a_delta")
    return "SELECT x, y FROM a_ctrl"


def anchor_tc(con: duckdb.DuckDBPyConnection) -> str:
    return ("WITH RECURSIVE tc(x, y) AS (SELECT src, dst FROM edge "
            "UNION SELECT tc.x, e.dst FROM tc JOIN edge e ON tc.y = e.src) SELECT x, y FROM tc")


def anchor_loans(con: duckdb.DuckDBPyConnection) -> str:
    return ("SELECT bank, borrower, sum(amount) AS total FROM "
            "(SELECT bank, borrower, id, amount FROM loans UNION SELECT bank, borrower, id, drawn FROM credit_lines) "
            "GROUP BY bank, borrower")


def cleanup_anchor(con: duckdb.DuckDBPyConnection) -> None:
    for t in ("a_cs", "a_ctrl", "a_delta", "a_dcs"):
        con.execute(f"DROP TABLE IF EXISTS {t}")


@dataclass(frozen=True)
class Workload:
    name: str
    title: str
    sizes: tuple[int, ...]
    unit: str
    generate: Callable[[duckdb.DuckDBPyConnection, int, int], str]
    program: str
    output: str
    anchor: Callable[[duckdb.DuckDBPyConnection], str] | None
    tables: tuple[str, ...]
    anchor_note: str
    souffle: str | None = None  # the program as Soufflé text, for the raw-Soufflé column
    outputs: tuple[str, ...] = ()  # when several: the result is every output's rows, each prefixed by its name


WORKLOADS: dict[str, Workload] = {
    "control": Workload(
        "control", "company control (msum recursion)", (1_000, 10_000, 100_000), "companies", gen_control,
        CONTROL_PROGRAM, "control", anchor_control, ("own",),
        "DuckDB SQL anchor = iterative semi-naive SQL loop driven from Python (a recursive CTE cannot aggregate "
        "inside the recursion): new control -> new controlled shares -> re-sum touched (x,y) groups with max per "
        "contributor -> new control where sum > 0.5, until no change"),
    "tc": Workload(
        "tc", "transitive closure", (10_000, 100_000), "edges", gen_tc, TC_PROGRAM, "tc", anchor_tc, ("edge",),
        "DuckDB SQL anchor = WITH RECURSIVE tc AS (edge UNION tc JOIN edge) (set semantics)", TC_SOUFFLE),
    "loans": Workload(
        "loans", "join + group aggregate (exposure)", (1_000_000,), "loans", gen_loans, EXPOSURE_PROGRAM,
        "exposure", anchor_loans, ("loans", "credit_lines"),
        "DuckDB SQL anchor = SELECT bank, borrower, sum(amount) FROM (loans UNION credit_lines) GROUP BY bank, borrower",
        EXPOSURE_SOUFFLE),
    "lubm": Workload(
        "lubm", "LUBM (Soufflé's example: 56 rules, 30 base relations, 20 outputs)", (15,), "departments", gen_lubm,
        lubm_program(), "person", None, tuple(f"lubm_{p}" for p in _lubm().BASE),
        "no hand-written SQL anchor (mutual recursion over 20 relations): the reference is Soufflé itself on the same "
        "program and facts", lubm_souffle(), _lubm().OUTPUTS),
}


# ----------------------------------------------------------------------------------------------------------------------
# One side of one measurement, in-process (the smoke test calls these directly)
# ----------------------------------------------------------------------------------------------------------------------
def run_vadaorchestra(wl: Workload, con: duckdb.DuckDBPyConnection, sink: str = "fetch", engine: str = "duckdb",
                      engine_options: dict | None = None, deferred: bool = False):
    """Run the workload's program on the tables of ``con``; sorted rows (``fetch``) or the row count (``table``).

    With several outputs and ``deferred``, a function that returns the rows: the clock stops when ``run()`` has
    returned its rows, before they are prefixed with their outputs' names for the result check (54k tuples built
    again, about 10 ms on LUBM, which raw Soufflé's side does after its clock too)."""
    from vadaorchestra.datalog import run

    if wl.outputs and sink == "fetch":  # every output's rows, each prefixed by its name
        result = run(wl.program, database=con, engine=engine, engine_options=engine_options)

        def prefixed() -> list[tuple]:
            return [(o, *r) for o in sorted(wl.outputs) for r in result.rows(o)]

        return prefixed if deferred else prefixed()
    if wl.outputs:  # a table per output
        run(wl.program, database=con, engine=engine, engine_options=engine_options, outputs=[],
            materialize={o: f"{RESULT_TABLE}_{o}" for o in wl.outputs})
        return sum(con.execute(f"SELECT count(*) FROM {RESULT_TABLE}_{o}").fetchone()[0] for o in wl.outputs)
    if sink == "fetch":
        return run(wl.program, database=con, engine=engine, engine_options=engine_options).rows(wl.output)
    run(wl.program, database=con, engine=engine, engine_options=engine_options, outputs=[],
        materialize={wl.output: RESULT_TABLE})
    return con.execute(f"SELECT count(*) FROM {RESULT_TABLE}").fetchone()[0]


def sink_rows(wl: Workload, con: duckdb.DuckDBPyConnection) -> list[tuple]:
    """The rows the ``table`` sink wrote, as the ``fetch`` sink returns them."""
    if wl.outputs:
        return [(o, *r) for o in sorted(wl.outputs)
                for r in con.execute(f"SELECT * FROM {RESULT_TABLE}_{o} ORDER BY ALL").fetchall()]
    return con.execute(f"SELECT * FROM {RESULT_TABLE} ORDER BY ALL").fetchall()


def run_sql(wl: Workload, con: duckdb.DuckDBPyConnection, sink: str = "fetch"):
    """Run the hand-written SQL anchor; sorted rows (``fetch``) or the row count (``table``)."""
    query = wl.anchor(con)
    try:
        if sink == "fetch":
            return con.execute(f"{query} ORDER BY ALL").fetchall()
        con.execute(f"CREATE OR REPLACE TABLE {RESULT_TABLE} AS {query} ORDER BY ALL")
        return con.execute(f"SELECT count(*) FROM {RESULT_TABLE}").fetchone()[0]
    finally:
        cleanup_anchor(con)


SOUFFLE_SQL_TYPES = {"number": "BIGINT", "float": "DOUBLE", "symbol": "VARCHAR", "unsigned": "UBIGINT"}


def run_raw(wl: Workload, con: duckdb.DuckDBPyConnection, compiled: bool, jobs: int = 1):
    """Soufflé itself on ``wl.souffle``: the input tables exported as ``.facts`` files and, with ``compiled``, the
    program compiled (``souffle -o``), all untimed; then one timed process, ``souffle -F in -D out prog.dl`` (or the
    binary with ``-F -D``); the output files read back into DuckDB tables. Returns (seconds, compile seconds, sorted
    rows, io seconds): io is the export and the read-back apart, the least data movement a DuckDB-backed engine adds
    to Soufflé's own time."""
    exe = shutil.which("souffle")
    if exe is None:
        raise RuntimeError("souffle is not on PATH")
    with tempfile.TemporaryDirectory(prefix="vo_bench_raw_") as tmp:
        d = Path(tmp)
        (d / "in").mkdir()
        (d / "out").mkdir()
        start = time.perf_counter()
        for t in wl.tables:
            con.execute(f"COPY {t} TO '{d / 'in' / (t + '.facts')}' (FORMAT csv, DELIMITER '\t', HEADER false)")
        io_s = time.perf_counter() - start
        (d / "prog.dl").write_text(wl.souffle, encoding="utf-8")
        compile_s = None
        if compiled:
            start = time.perf_counter()
            subprocess.run([exe, f"-j{jobs}", "-o", str(d / "prog"), str(d / "prog.dl")], check=True,
                           capture_output=True, cwd=d)
            compile_s = time.perf_counter() - start
            cmd = [str(d / "prog"), f"-j{jobs}", "-F", str(d / "in"), "-D", str(d / "out")]
        else:
            cmd = [exe, f"-j{jobs}", "-F", str(d / "in"), "-D", str(d / "out"), str(d / "prog.dl")]
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, cwd=d)
        seconds = time.perf_counter() - start
        decls = {m.group(1): [SOUFFLE_SQL_TYPES[t] for t in re.findall(r":\s*(\w+)", m.group(2))]
                 for m in re.finditer(r"\.decl\s+(\w+)\(([^)]*)\)", wl.souffle)}
        rows: list[tuple] = []
        files = {o: d / "out" / f"{o}.csv" for o in (sorted(wl.outputs) if wl.outputs else (wl.output,))}
        outputs = [o for o, path in files.items() if path.exists() and path.stat().st_size]
        start = time.perf_counter()
        for k, o in enumerate(outputs):
            cols = "{" + ", ".join(f"'c{i}': '{t}'" for i, t in enumerate(decls[o])) + "}"
            con.execute(f"CREATE TEMP TABLE raw_out{k} AS SELECT * FROM read_csv('{files[o]}', "
                        f"columns = {cols}, delim = '\t', header = false, quote = '', escape = '', "
                        "auto_detect = false)")
        io_s += time.perf_counter() - start
        for k, o in enumerate(outputs):
            got = con.execute(f"SELECT * FROM raw_out{k}").fetchall()
            con.execute(f"DROP TABLE raw_out{k}")
            rows += sorted((o, *r) for r in got) if wl.outputs else sorted(got)
    return seconds, compile_s, rows, io_s


def run_side(side: str, wl: Workload, con: duckdb.DuckDBPyConnection, sink: str = "fetch",
             engine_options: dict | None = None, deferred: bool = False):
    """One side's run; with ``deferred`` the engines' rows of several outputs may come as a function to call after
    the clock (:func:`run_vadaorchestra`)."""
    if side == "sql":
        return run_sql(wl, con, sink)
    if side in ("souffle", "souffle_c"):
        return run_vadaorchestra(wl, con, sink, engine="souffle", engine_options=engine_options, deferred=deferred)
    if side in SPARK_SIDES:
        return run_vadaorchestra(wl, con, sink, engine="spark", engine_options=engine_options, deferred=deferred)
    return run_vadaorchestra(wl, con, sink, deferred=deferred)


def digest(rows) -> str:
    h = hashlib.sha1()
    for r in rows:
        h.update(repr(r).encode())
        h.update(b"\n")
    return h.hexdigest()[:12]


# ----------------------------------------------------------------------------------------------------------------------
# Soufflé columns
# ----------------------------------------------------------------------------------------------------------------------
SOUFFLE_COLUMNS = ("souffle s", "souffle/SQL", "compiled s", "compiled/SQL", "compile s", "raw souffle s",
                   "souffle/raw", "raw -o s", "compiled/raw", "raw compile s")


def souffle_columns(summ: dict[str, dict | None], sides: list[str]) -> dict[str, str]:
    """The Soufflé engine's cells for one workload and size, from the summaries of its sides: interpreted seconds,
    compiled seconds (the second run, from the binary cache), the compile time of the first run (the engine's own
    measure of its ``souffle -o`` calls, shown apart from the run), and the ratios to the hand-written DuckDB SQL."""
    sql = summ.get("sql")
    cells: dict[str, str] = {}

    def ratio(x: dict | None) -> str:
        return f"{x['seconds'] / sql['seconds']:.2f}x" if x and sql else "—"

    if "souffle" in sides:
        interp = summ.get("souffle")
        cells["souffle s"] = f"{interp['seconds']:.3f}" if interp else "error"
        cells["souffle/SQL"] = ratio(interp)
    if "souffle_c" in sides:
        comp = summ.get("souffle_c")
        cells["compiled s"] = f"{comp['seconds']:.3f}" if comp else "error"
        cells["compiled/SQL"] = ratio(comp)
        cells["compile s"] = f"{comp['compile_s']:.1f}" if comp else "—"
    for side, raw_side, name, ratio_name in (("souffle", "raw", "raw souffle s", "souffle/raw"),
                                             ("souffle_c", "raw_c", "raw -o s", "compiled/raw")):
        if raw_side in sides:
            raw, ours = summ.get(raw_side), summ.get(side)
            cells[name] = f"{raw['seconds']:.3f}" if raw else "error"
            cells[ratio_name] = f"{ours['seconds'] / raw['seconds']:.2f}x" if raw and ours else "—"
            if raw_side == "raw_c":
                cells["raw compile s"] = f"{raw['compile_s']:.1f}" if raw else "—"
    return cells


def souffle_status() -> tuple[bool, str]:
    """Whether ``engine="souffle"`` can run here: available per the engines module, and a tiny program works."""
    try:
        from vadaorchestra.datalog import run
        from vadaorchestra.datalog.engines import souffle_available

        if not souffle_available():
            return False, "souffle_available() is False"
        rows = run(TC_PROGRAM, inputs={"edge": [(1, 2), (2, 3)]}, engine="souffle").rows("tc")
        if rows != [(1, 2), (1, 3), (2, 3)]:
            return False, f"engine='souffle' returned {rows!r} for a 3-node closure"
        return True, "engine='souffle' works"
    except Exception as exc:  # any failure means: not available for the benchmark
        return False, f"engine='souffle' failed: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"


# ----------------------------------------------------------------------------------------------------------------------
# Child process: load inputs, run one side, report time / memory / cardinality as one JSON line
# ----------------------------------------------------------------------------------------------------------------------
def _proc_status_mib(field: str) -> float | None:
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024  # kB
    except OSError:
        pass
    return None


def current_rss_mib() -> float:
    rss = _proc_status_mib("VmRSS")
    return rss if rss is not None else peak_rss_mib()


def peak_rss_mib() -> float:
    """Peak resident memory of this process. On Linux ``ru_maxrss`` of a process started by another one starts at the
    *parent's* high-water mark (the kernel carries it over across fork/exec), so the per-process ``VmHWM`` of
    /proc/self/status is read instead when it exists; ``ru_maxrss`` elsewhere."""
    hwm = _proc_status_mib("VmHWM")
    return hwm if hwm is not None else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def reset_peak_rss() -> bool:
    """Reset the peak to the current resident size (Linux >= 4.0), so that the transient peak of loading the inputs
    does not hide the run's own peak. False when not possible (then the peak includes loading)."""
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def child(spec: dict) -> None:
    import vadaorchestra.datalog  # noqa: F401  (both sides import the same modules before the baseline)

    wl = WORKLOADS[spec["workload"]]
    con = duckdb.connect()
    if spec.get("duckdb_threads"):  # every side's connection alike (the Soufflé engine's too), before the clock
        con.execute(f"SET threads = {int(spec['duckdb_threads'])}")
    for t in wl.tables:  # streamed from Parquet: loading peaks at about the size of the loaded tables
        con.execute(f"CREATE TABLE main.{t} AS SELECT * FROM read_parquet('{Path(spec['data']) / (t + '.parquet')}')")
    gc.collect()
    side = spec["side"]
    if side in ("raw", "raw_c"):
        seconds, compile_s, rows, io_s = run_raw(wl, con, side == "raw_c", spec.get("souffle_jobs", 1))
        extra = {"compile_s": compile_s, "first_s": seconds + compile_s, "compilations": 1} if compile_s else {}
        print(json.dumps({"seconds": seconds, "rows": len(rows), "peak_mib": 0.0, "base_mib": 0.0, "reset": True,
                          "digest": digest(rows), "souffle_only": True, "io_s": io_s, **extra}), flush=True)
        return
    extra: dict = {}
    options: dict | None = None
    cache = None
    has_stats = False
    if side in ("souffle", "souffle_c"):
        import inspect

        from vadaorchestra.datalog.engines.souffle_engine import SouffleEngine

        stats: dict = {}
        options = {"jobs": spec.get("souffle_jobs", 1)}
        params = inspect.signature(SouffleEngine).parameters
        has_stats = "stats" in params  # older engines: no counters
        if "rounds" in params:  # older engines: Soufflé programs ran every stratum's rounds
            options["rounds"] = spec.get("souffle_rounds", "duckdb")
        if has_stats:
            options["stats"] = stats
        if side == "souffle_c":  # a fresh binary cache: the first run compiles, the second hits the cache
            cache = tempfile.TemporaryDirectory(prefix="vo_bench_cache_")
            options |= {"mode": "compiled", "cache_dir": cache.name}
            start = time.perf_counter()
            first = run_side(side, wl, con, spec["sink"], options)
            extra["first_s"] = time.perf_counter() - start
            if has_stats:
                extra["compile_s"] = stats["compile_seconds"]
                extra["compilations"] = stats["compilations"]
            extra["first_digest"] = digest(first if not isinstance(first, int) else sink_rows(wl, con))
            del first
            gc.collect()
            stats.clear()
    if side in SPARK_SIDES:
        from vadaorchestra.datalog import run
        from vadaorchestra.datalog.engines.spark_engine import spark_session

        start = time.perf_counter()
        if side == "spark_cluster":  # the standalone cluster's master, its executors checkpointing into the folder
            session = spark_session(spec["spark_master"], checkpoint_dir=spec.get("spark_checkpoint_dir"))
        else:
            session = spark_session("local[*]")
        run(TC_PROGRAM, inputs={"edge": [(1, 2), (2, 3)]}, engine="spark", engine_options={"spark": session})
        extra["session_s"] = time.perf_counter() - start
        options = {"spark": session, "lean": side != "spark_naive"}
        warm = []
        for _ in range(int(spec.get("spark_warm") or 0)):  # the JVM's steady state: a server's later calls
            start = time.perf_counter()
            run_side(side, wl, con, spec["sink"], options)
            warm.append(round(time.perf_counter() - start, 2))
            gc.collect()
        if warm:
            extra["warm_s"] = warm
        spark_stats: dict = {}
        options["stats"] = spark_stats
    base = current_rss_mib()
    reset = reset_peak_rss()
    start = time.perf_counter()
    result = run_side(side, wl, con, spec["sink"], options, deferred=True)
    seconds = time.perf_counter() - start
    if callable(result):  # several outputs' rows, prefixed with their names for the check after the clock
        result = result()
    peak = peak_rss_mib()
    if has_stats:
        extra["souffle_runs"] = stats["souffle_runs"]
        extra["rounds"] = stats["rounds"]
    if side in SPARK_SIDES:
        extra |= {"rounds": spark_stats["rounds"], "jobs": spark_stats["jobs"], "actions": spark_stats["actions"]}
    elif options is not None:
        extra["souffle_peak_mib"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    if "first_s" in extra and "compile_s" not in extra:  # without the engine's counter: first run - cached run
        extra["compile_s"] = max(0.0, extra["first_s"] - seconds)
        extra["compilations"] = "?"
    if cache is not None:
        cache.cleanup()
    if isinstance(result, int):
        count = result
        result = sink_rows(wl, con)
    else:
        count = len(result)
    print(json.dumps({"seconds": seconds, "rows": count, "peak_mib": peak, "base_mib": base, "reset": reset,
                      "digest": digest(result), **extra}), flush=True)


def measure(side: str, wl: Workload, data: Path, sink: str, timeout: float, souffle_jobs: int = 1,
            souffle_rounds: str = "duckdb", spark_master: str | None = None,
            spark_checkpoint_dir: str | None = None, duckdb_threads: int | None = None, spark_warm: int = 0) -> dict:
    spec = {"workload": wl.name, "side": side, "data": str(data), "sink": sink, "souffle_jobs": souffle_jobs,
            "souffle_rounds": souffle_rounds, "spark_master": spark_master,
            "spark_checkpoint_dir": spark_checkpoint_dir, "duckdb_threads": duckdb_threads, "spark_warm": spark_warm}
    try:
        proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", json.dumps(spec)],
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"timeout after {timeout:.0f} s"}
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr.strip().splitlines() or ["(no output)"])[-1]
        return {"error": f"exit {proc.returncode}: {tail[:200]}"}
    return json.loads(lines[-1])


# ----------------------------------------------------------------------------------------------------------------------
# Parent: generate, alternate, summarize
# ----------------------------------------------------------------------------------------------------------------------
def fmt_size(n: int) -> str:
    return f"{n // 1_000_000}M" if n % 1_000_000 == 0 else f"{n // 1000}k" if n % 1000 == 0 else str(n)


def summarize(runs: list[dict]) -> dict | None:
    ok = [r for r in runs if "error" not in r]
    if not ok:
        return None
    out = {"seconds": statistics.median(r["seconds"] for r in ok), "peak_mib": max(r["peak_mib"] for r in ok),
           "base_mib": max(r["base_mib"] for r in ok), "rows": ok[0]["rows"],
           "digests": {r["digest"] for r in ok} | {r["first_digest"] for r in ok if "first_digest" in r},
           "n": len(ok)}
    for key in ("compile_s", "first_s", "souffle_peak_mib", "souffle_runs", "rounds", "io_s", "jobs", "session_s"):
        if all(key in r for r in ok):
            out[key] = (max if key == "souffle_peak_mib" else statistics.median)(r[key] for r in ok)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="smallest size of each workload only (smoke run)")
    ap.add_argument("--only", help=f"comma-separated workloads among: {', '.join(WORKLOADS)}")
    ap.add_argument("--sizes", help="comma-separated sizes instead of each workload's own (e.g. 1000,10000)")
    ap.add_argument("--reps", type=int, help="repetitions per side (default 3, or 1 with --quick)")
    ap.add_argument("--sink", choices=("fetch", "table"), default="fetch",
                    help="fetch: both sides return sorted rows to Python (default); table: both write a table")
    ap.add_argument("--souffle", choices=tuple(SOUFFLE_SIDES),
                    help="Soufflé engine modes to measure when souffle is available (default both, or interpreted "
                         "with --quick: compiling costs ~10-40 s per program)")
    ap.add_argument("--souffle-jobs", type=int, default=1,
                    help="Soufflé's -j, at compile and run time (default 1, the engine's default: on the layered "
                         "programs of recursive aggregates -j2 was slower on a 2-core machine)")
    ap.add_argument("--duckdb-threads", type=int,
                    help="DuckDB's threads on every side's connection (default: DuckDB's own, all cores); 1 compares "
                         "single-threaded with Soufflé's -j1")
    ap.add_argument("--souffle-rounds", choices=("duckdb", "souffle"), default="duckdb",
                    help="the Soufflé engine's rounds option: who runs the strata that need rounds, such as company "
                         "control's aggregate inside recursion (default duckdb, the engine's default; souffle: "
                         "layered Soufflé programs)")
    ap.add_argument("--spark", action="store_true",
                    help="also measure the Spark engine in local mode, with and without its reduction of jobs per "
                         "round (needs the spark extra and Java)")
    ap.add_argument("--spark-master", default=os.environ.get("VADA_SPARK_MASTER"),
                    help="with --spark, also measure the engine on this master (a standalone cluster: spark://HOST:7077,"
                         " deploy/spark_cluster.py; default $VADA_SPARK_MASTER); local masters are not measured twice")
    ap.add_argument("--spark-checkpoint-dir", default=os.environ.get("VADA_SPARK_CHECKPOINT_DIR"),
                    help="the checkpoint folder the cluster's executors reach (default $VADA_SPARK_CHECKPOINT_DIR)")
    ap.add_argument("--spark-warm", type=int, default=0, metavar="N",
                    help="Spark sides: run the program N times untimed in the same session before the timed run (the "
                         "JVM's steady state, as in a server's later calls; default 0: the timed run is the first)")
    ap.add_argument("--timeout", type=float, default=1800, help="seconds per measurement (default 1800)")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(json.loads(args.child))
        return 0

    names = list(WORKLOADS) if not args.only else [n.strip() for n in args.only.split(",") if n.strip()]
    unknown = [n for n in names if n not in WORKLOADS]
    if unknown:
        ap.error(f"unknown workload(s) {', '.join(unknown)}; choose among {', '.join(WORKLOADS)}")
    try:
        sizes = [int(x) for x in args.sizes.split(",") if x.strip()] if args.sizes else None
    except ValueError:
        ap.error(f"--sizes takes comma-separated integers, got {args.sizes!r}")
    reps = args.reps or (1 if args.quick else 3)

    threads = args.duckdb_threads or duckdb.connect().execute("SELECT current_setting('threads')").fetchone()[0]
    jobs = args.souffle_jobs
    print(f"# vadaorchestra engine benchmark — Python {platform.python_version()}, DuckDB {duckdb.__version__}, "
          f"{os.cpu_count()} CPUs, DuckDB threads {threads}, seed {args.seed}")
    print(f"# {reps} repetition(s) per side, each in a fresh process, sides alternating; time = median, "
          "peak = max over repetitions of the process's peak RSS during the run (VmHWM, reset after loading)")
    print(f"# sink: {args.sink} ({'all sides return sorted rows to Python' if args.sink == 'fetch' else 'all sides write a sorted result table'}); "
          "input loading is not timed on any side")
    ok, why = souffle_status()
    modes = args.souffle or ("interpreted" if args.quick else "both")
    souffle_sides = list(SOUFFLE_SIDES[modes]) if ok else []
    if not ok:
        print(f"souffle: not available ({why})")
    elif not souffle_sides:
        print("souffle: available, not measured (--souffle none)")
    else:
        print(f"souffle: available — {why}; measuring {', '.join(SIDES_LABEL[s] for s in souffle_sides)} with -j{jobs}"
              + f"; strata that need rounds: {args.souffle_rounds} (--souffle-rounds)"
              + ("; compiled: the child runs twice with a fresh binary cache, the first run compiles (compile s), "
                 "the second is timed" if "souffle_c" in souffle_sides else "")
              + "; raw souffle = the same program as Soufflé text run by `souffle` itself on .facts files (exported "
                "untimed; with -o the compile time apart)"
              + ("; compiled mode skipped with --quick (--souffle both to measure it)"
                 if args.quick and not args.souffle else ""))
    spark_sides: list[str] = []
    if args.spark:
        from vadaorchestra.datalog.engines.spark_engine import spark_available

        why_not = spark_available()
        if why_not:
            print(f"spark: not available ({why_not})")
        else:
            import pyspark

            cluster = bool(args.spark_master) and not args.spark_master.startswith("local")
            spark_sides = [s for s in SPARK_SIDES if s != "spark_cluster" or cluster]
            print(f"spark: pyspark {pyspark.__version__}, local[*]; measuring spark and spark naive (no reduction of "
                  "jobs per round)" + (f", and spark cluster on {args.spark_master} (checkpoints in "
                                       f"{args.spark_checkpoint_dir})" if cluster else
                                       " (--spark-master spark://HOST:7077 to add a standalone cluster)")
                  + "; session start and a warm-up program not timed"
                  + (f"; each timed run after {args.spark_warm} untimed run(s) of the same program (--spark-warm)"
                     if args.spark_warm else ""))
    print()

    table: list[dict] = []
    with tempfile.TemporaryDirectory(prefix="vo_bench_") as tmp:
        for name in names:
            wl = WORKLOADS[name]
            sides = ["vo", *(["sql"] if wl.anchor else []), *souffle_sides,
                     *([RAW_SIDES[x] for x in souffle_sides] if wl.souffle else []), *spark_sides]
            print(f"## {wl.name}: {wl.title}")
            print(f"   {wl.anchor_note}")
            failed: dict[str, str] = {}  # Soufflé side -> why larger sizes are skipped
            for size in sizes or (wl.sizes[:1] if args.quick else wl.sizes):
                data = Path(tmp) / f"{wl.name}_{size}"
                data.mkdir()
                t0 = time.perf_counter()
                gen = duckdb.connect()
                inputs = wl.generate(gen, size, args.seed)
                for t in wl.tables:
                    gen.execute(f"COPY {t} TO '{data / (t + '.parquet')}' (FORMAT parquet)")
                gen.close()
                print(f"-- {wl.name} {fmt_size(size)} {wl.unit}: {inputs}  (generated in {time.perf_counter() - t0:.1f} s)",
                      flush=True)
                runs: dict[str, list[dict]] = {s: [] for s in sides}
                for side, reason in failed.items():
                    runs[side].append({"error": f"skipped: {reason} at a smaller size"})
                    print(f"   {SIDES_LABEL[side]:>16}: skipped ({reason} at a smaller size)", flush=True)
                active = [s for s in sides if s not in failed]
                for rep in range(reps):
                    for side in active if rep % 2 == 0 else active[::-1]:
                        r = measure(side, wl, data, args.sink, args.timeout, jobs, args.souffle_rounds,
                                    args.spark_master, args.spark_checkpoint_dir, args.duckdb_threads,
                                    args.spark_warm)
                        runs[side].append(r)
                        print_measurement(rep, side, r)
                summ = {s: summarize(runs[s]) for s in sides}
                for side in souffle_sides + spark_sides:
                    if side not in failed and summ[side] is None:
                        failed[side] = "timed out" if any("timeout" in r.get("error", "") for r in runs[side]) \
                            else "failed"
                agree = check_results(summ, sides)
                row = {"workload": wl.name, "size": f"{fmt_size(size)} {wl.unit}", "inputs": inputs,
                       "vo": summ["vo"], "sql": summ.get("sql"), "agree": agree, "souffle": summ.get("souffle"),
                       "souffle_c": summ.get("souffle_c"), "raw": summ.get("raw"), "raw_c": summ.get("raw_c"),
                       "extra": {**(souffle_columns(summ, sides) if souffle_sides else {}),
                                 **(spark_columns(summ) if spark_sides else {})} or None,
                       "errors": {s: [r["error"] for r in runs[s] if "error" in r] for s in sides}}
                table.append(row)
                vo, sql = summ["vo"], summ.get("sql")
                if vo:
                    print(f"   median: vadaorchestra {vo['seconds']:.3f} s"
                          + (f", DuckDB SQL {sql['seconds']:.3f} s, ratio {vo['seconds'] / sql['seconds']:.2f}x"
                             if sql else "")
                          + "".join(f", {SIDES_LABEL[s]} {summ[s]['seconds']:.3f} s"
                                    + (f" ({summ[s]['seconds'] / sql['seconds']:.2f}x)" if sql else "")
                                    for s in sides[1:] if s != "sql" and summ[s])
                          + (f", compile {summ['souffle_c']['compile_s']:.1f} s" if summ.get("souffle_c") else ""),
                          flush=True)
                if wl.name == "lubm":
                    row["cold"] = cold_inline_run(Path(tmp), size, args.seed, reps)
            print()

    print_table(table, bool(souffle_sides))
    print_targets(table)
    return 0 if all(r["agree"] for r in table) else 1


def cold_inline_run(tmp: Path, departments: int, seed: int, reps: int) -> dict:
    """``vadaorchestra datalog run`` of the LUBM program with its facts inline, each time a fresh process (imports,
    parse, validate, evaluate, CSV outputs): the wall time, median of ``reps``."""
    lubm = _lubm()
    facts = None
    if departments == 15:
        try:
            facts = lubm.conformance_facts()[0]
        except ImportError:
            pass
    facts = facts if facts is not None else lubm.generate(departments, seed)
    program = tmp / f"lubm_{departments}.dl"
    program.write_text(lubm.program_text(facts), encoding="utf-8")
    times = []
    for rep in range(reps):
        out = tmp / f"lubm_out_{rep}"
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "vadaorchestra.cli", "datalog", "run", str(program), "--out",
                               str(out)], capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        if proc.returncode != 0:
            print(f"   cold datalog run: ERROR {proc.stderr.strip().splitlines()[-1:]}")
            return {"error": proc.stderr[-300:]}
    size = program.stat().st_size
    median = statistics.median(times)
    print(f"   cold `vadaorchestra datalog run` of the program with its {sum(map(len, facts.values())):,} facts inline "
          f"({size / 1e6:.1f} MB): {median:.2f} s wall (median of {reps}: "
          f"{', '.join(f'{t:.2f}' for t in times)})", flush=True)
    return {"seconds": median, "bytes": size}


SPARK_COLUMNS = ("spark s", "spark/SQL", "rounds", "jobs", "s/round", "naive s", "naive jobs", "naive s/round",
                 "naive/spark", "cluster s", "cluster jobs", "cluster s/round", "cluster/spark")


def spark_columns(summ: dict[str, dict | None]) -> dict[str, str]:
    """The Spark engine's cells: seconds, the ratio to the hand-written SQL, the rounds and jobs of the run, seconds
    per round; the same without the reduction of jobs per round, and its time over the lean engine's."""
    sql, lean, naive = summ.get("sql"), summ.get("spark"), summ.get("spark_naive")
    cluster = summ.get("spark_cluster")
    cells: dict[str, str] = {}
    for prefix, x in (("", lean), ("naive ", naive), *((("cluster ", cluster),) if "spark_cluster" in summ else ())):
        cells[f"{prefix or 'spark '}s"] = f"{x['seconds']:.2f}" if x else "error"
        cells[f"{prefix}jobs"] = f"{x['jobs']:.0f}" if x and "jobs" in x else "—"
        cells[f"{prefix}s/round"] = (f"{x['seconds'] / x['rounds']:.2f}" if x and x.get("rounds") else "—")
    cells["spark/SQL"] = f"{lean['seconds'] / sql['seconds']:.0f}x" if lean and sql else "—"
    cells["rounds"] = f"{lean['rounds']:.0f}" if lean and "rounds" in lean else "—"
    cells["naive/spark"] = f"{naive['seconds'] / lean['seconds']:.2f}x" if lean and naive else "—"
    if "spark_cluster" in summ:
        cells["cluster/spark"] = f"{cluster['seconds'] / lean['seconds']:.2f}x" if lean and cluster else "—"
    return cells


def print_measurement(rep: int, side: str, r: dict) -> None:
    if "error" in r:
        print(f"   rep {rep + 1} {SIDES_LABEL[side]:>16}: ERROR {r['error']}", flush=True)
        return
    notes = []
    if "jobs" in r:
        notes.append(f"{r['rounds']} rounds, {r['actions']} Spark actions, {r['jobs']} jobs; session start and warm-up {r['session_s']:.1f} s, "
                     "not timed; the JVM's memory is not in the peak")
        if r.get("warm_s"):
            notes.append(f"timed after {len(r['warm_s'])} untimed run(s) of the same program in the same session: "
                         + ", ".join(f"{s:.2f}" for s in r["warm_s"]) + " s")
    if "souffle_runs" in r:
        notes.append(f"{r['souffle_runs']} Soufflé runs, {r['rounds']} rounds run by the engine")
    if "compile_s" in r:
        notes.append(f"first run {r['first_s']:.3f} s with {r['compilations']} compilation(s) taking "
                     f"{r['compile_s']:.1f} s")
    elif "souffle_peak_mib" in r:
        notes.append(f"Soufflé processes' peak {r['souffle_peak_mib']:.0f} MiB")
    more = f"  ({'; '.join(notes)})" if notes else ""
    if r.get("souffle_only"):
        io = f"; + {r['io_s']:.3f} s exporting the inputs and reading the outputs into DuckDB" if "io_s" in r else ""
        print(f"   rep {rep + 1} {SIDES_LABEL[side]:>16}: {r['seconds']:8.3f} s  (the souffle process alone{io})  "
              f"rows {r['rows']:,}  digest {r['digest']}" + more, flush=True)
        return
    print(f"   rep {rep + 1} {SIDES_LABEL[side]:>16}: {r['seconds']:8.3f} s  "
          f"peak {r['peak_mib']:7.0f} MiB (before the run: {r['base_mib']:.0f})  "
          f"rows {r['rows']:,}  digest {r['digest']}"
          + ("" if r.get("reset") else "  (peak could not be reset: includes loading)") + more, flush=True)


def check_results(summ: dict[str, dict | None], sides: list[str]) -> bool:
    """Every side that ran returns the same rows as the hand-written SQL (count and digest, every repetition)."""
    ref_side = next((s for s in ("sql", "raw", "raw_c") if s in sides and summ.get(s)), None)
    ref = summ[ref_side] if ref_side else None
    if ref_side is None and not any(s in sides for s in ("sql", "raw", "raw_c")):
        print("   result check: none (no hand-written SQL, and raw Soufflé not measured)")
        return True
    if not ref or len(ref["digests"]) != 1:
        print(f"   result check: no {'DuckDB SQL or raw Soufflé' if ref_side is None else SIDES_LABEL[ref_side]} "
              "result to compare with")
        return False
    agree = True
    for side in sides:
        x = summ[side]
        if side == ref_side:
            continue
        if x is None:
            agree = agree and side != "vo"  # a Soufflé side that failed is reported as an error, not a mismatch
            continue
        same = x["rows"] == ref["rows"] and x["digests"] == ref["digests"]
        agree = agree and same
        print(f"   result check: {SIDES_LABEL[side]} {'==' if same else 'MISMATCH with'} {SIDES_LABEL[ref_side]} "
              f"({x['rows']:,} vs {ref['rows']:,} rows)")
    return agree


def print_table(table: list[dict], souffle_ok: bool) -> None:
    extra_cols = [c for c in SOUFFLE_COLUMNS + SPARK_COLUMNS if any(c in (r["extra"] or {}) for r in table)]
    head = ["workload", "size", "inputs", "result rows", "vadaorchestra s", "DuckDB SQL s", "ratio",
            "peak MiB", *extra_cols]
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join("---" for _ in head) + "|")
    for r in table:
        vo, sql = r["vo"], r["sql"]
        rows = f"{vo['rows']:,}" if vo else f"{sql['rows']:,}" if sql else "—"
        if not r["agree"]:
            rows += " (MISMATCH)"
        cells = [r["workload"], r["size"], r["inputs"], rows,
                 f"{vo['seconds']:.3f}" if vo else "error",
                 f"{sql['seconds']:.3f}" if sql else "error" if r["workload"] != "lubm" else "—",
                 f"{vo['seconds'] / sql['seconds']:.2f}x" if vo and sql else "—",
                 " / ".join(f"{x['peak_mib']:.0f}" if x else "—" for x in (vo, sql))
                 + f" (base {max(x['base_mib'] for x in (vo, sql) if x):.0f})" if vo or sql else "—"]
        cells += [(r["extra"] or {}).get(k, "—") for k in extra_cols]
        print("| " + " | ".join(cells) + " |")
    print("\npeak MiB = vadaorchestra / DuckDB SQL: peak resident memory of the measuring process during the run, max over "
          "the repetitions (process total: Python, DuckDB, the loaded inputs and the result); base = its resident size "
          "after imports and input loading, before the clock starts (the run's own memory is peak - base)")
    if souffle_ok:
        print("souffle s = Soufflé engine, interpreted; compiled s = compiled mode, second run (binary from the cache); "
              "compile s = the first run's compilation time (Soufflé's -o, C++ included), not in compiled s; "
              "x/SQL = ratio to the hand-written DuckDB SQL; raw souffle s = `souffle -F -D` on the same program as "
              "Soufflé text and .facts inputs (the process alone), raw -o s = its compiled binary (raw compile s = "
              "`souffle -o`, apart); souffle/raw and compiled/raw = the engine's time over Soufflé's own")
    if any("spark s" in (r["extra"] or {}) for r in table):
        print("spark s = the Spark engine in local mode (session started and warmed up before the clock); rounds = "
              "its semi-naive rounds; jobs = the Spark jobs it ran (Spark's status tracker); s/round = spark s / rounds; naive = the same "
              "engine with lean=False (two jobs per checkpoint, relations recomputed when inserted, every union "
              "checkpointed); naive/spark = the time the reduction of jobs saves; cluster = the same engine on the "
              "standalone cluster given by --spark-master (its executors write each checkpoint as files)")
    errors = [(r["workload"], r["size"], s, e) for r in table for s, es in r["errors"].items() for e in es]
    for w, size, s, e in errors:
        print(f"error: {w} {size} {SIDES_LABEL[s]}: {e}")


def print_targets(table: list[dict]) -> None:
    def target(what: str, ok: bool, measured: str) -> None:
        print(f"target: {what}: {'PASS' if ok else 'FAIL'} ({measured})")

    def ratio(r: dict, side: str, ref: str, bound: float, what: str) -> None:
        x = r[side]["seconds"] / r[ref]["seconds"]
        target(what, x <= bound, f"{x:.2f}x")

    print()
    for r in table:
        if r["workload"] == "control" and r["size"].startswith("100k") and r["vo"]:
            peak = r["vo"]["peak_mib"]
            target("company control 100k peak memory < 4096 MiB", peak < 4096, f"{peak:.0f} MiB")
        if r["workload"] == "control" and r["vo"] and r["sql"] and r["size"][:4] in ("10k ", "100k"):
            # (issue 37: 1.1x at 10k on a quiet machine; 1.5x the older bound kept at 100k)
            bound = 1.1 if r["size"].startswith("10k ") else 1.5
            ratio(r, "vo", "sql", bound, f"company control {r['size']} within {bound}x of the hand-written SQL loop")
            if r["size"].startswith("100k") and r.get("souffle"):
                t, d = r["souffle"]["seconds"], r["vo"]["seconds"]
                target("company control 100k on Soufflé no slower than on DuckDB", t <= d, f"{t:.2f} s vs {d:.2f} s")
        if r["workload"] == "tc" and r["size"].startswith("100k") and r["vo"] and r["sql"]:
            ratio(r, "vo", "sql", 1.1, "tc 100k edges within 1.1x of the recursive CTE")
        if r["workload"] == "lubm" and r["vo"] and r.get("raw"):
            ratio(r, "vo", "raw", 1.5, f"lubm {r['size']}, this engine within 1.5x of {SIDES_LABEL['raw']} "
                                       f"(interpreted, the same facts)")
        for mode, raw in (("souffle", "raw"), ("souffle_c", "raw_c")):
            if r["workload"] in ("tc", "lubm") and (r["workload"] == "lubm" or r["size"].startswith("100k")) \
                    and r.get(mode) and r.get(raw):
                ratio(r, mode, raw, 1.3, f"{r['workload']} {r['size']}, Soufflé engine ({SIDES_LABEL[mode]}) within "
                                         f"1.3x of {SIDES_LABEL[raw]}")
                if "io_s" in r[raw]:  # not a target: the engine against Soufflé plus the least data movement
                    t, base = r[mode]["seconds"], r[raw]["seconds"] + r[raw]["io_s"]
                    print(f"info: {r['workload']} {r['size']}, Soufflé engine ({SIDES_LABEL[mode]}) over "
                          f"{SIDES_LABEL[raw]} plus its inputs exported from DuckDB and outputs read back by hand "
                          f"({base:.3f} s): {t / base:.2f}x")
        if r.get("cold") and "seconds" in r["cold"]:
            t = r["cold"]["seconds"]
            target(f"lubm {r['size']}, facts inline, cold `datalog run` under 3 s", t < 3, f"{t:.2f} s")
        if r["workload"] == "loans" and r["size"].startswith("1M") and r["vo"] and r["sql"]:
            ratio(r, "vo", "sql", 1.3, "1M join + aggregate within 1.3x of hand-written SQL")

if __name__ == "__main__":
    sys.exit(main())
