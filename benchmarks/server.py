"""MCP server benchmark: the decision-support tools through the MCP protocol against the same DuckDB queries.

A temporary catalog holds two tool programs: ``get_exposures`` materializes ``exposure(bank, borrower, amount)`` from a
generated Parquet file (``--facts`` rows, seeded: 10 banks with skewed sizes, about ``facts / 5`` borrowers, log-normal
amounts), and ``get_bank_limits(min_capital)`` returns the 10 rows of a tiny CSV (per-call overhead of a catalog tool).
A :class:`ReasoningServer` serves the catalog; the SDK's in-memory client session calls it (JSON-RPC over memory
streams, the full MCP request path without a network).

The big tool is invoked once and timed. Then, for every operation, three sides are measured side by side in one run,
alternating, ``--reps`` times after one untimed warm-up call each; the table reports medians:

  MCP        ``await client.call_tool(...)``: the client's wall time (request and result validation, the server's
             argument validation, the hop to a worker thread, the Workspace method, the JSON result)
  Workspace  the same Workspace method called in process (schema lookup, argument checks, queries, JSON-ready dict)
  direct     the data queries that method issues, verbatim, on a cursor of the workspace's own DuckDB connection
             (for the tool calls: hand-written SQL doing what the engine does: read, DISTINCT, insert with set
             semantics, count, preview)

ratio = MCP / direct. Targets at 1M facts: get_top_k median < 50 ms, get_statistics median < 200 ms (PASS/MISS).

Run:  python benchmarks/server.py [--quick] [--facts 1000000] [--reps 15] [--seed N]
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import anyio  # noqa: E402
import duckdb  # noqa: E402
import numpy as np  # noqa: E402

SEED = 20240607
BANKS = 10
TOP_K_MS, STATISTICS_MS, TARGET_FACTS = 50.0, 200.0, 1_000_000
SIDES = ("mcp", "ws", "direct")

EXPOSURES_TOOL = """\
% Every exposure of the generated book: one fact per (bank, borrower, amount) row of facts.parquet.
@tool("get_exposures", "All exposures of the book: bank, borrower and amount.").
@bind("book", "parquet", "data", "facts.parquet").
@mapping("book", 0, "bank", "string"). @mapping("book", 1, "borrower", "string").
@mapping("book", 2, "amount", "float").
@output("exposure").
@mapping("exposure", 0, "bank", "string"). @mapping("exposure", 1, "borrower", "string").
@mapping("exposure", 2, "amount", "float").
exposure(Bk, B, A) :- book(Bk, B, A).
"""

LIMITS_TOOL = """\
% A handful of facts from a tiny CSV: the per-call overhead of a catalog tool.
@tool("get_bank_limits", "Capital and large-exposure limit of the banks with at least min_capital capital.").
@param("min_capital", "float", "Smallest capital of the banks to return").
@bind("banks", "csv", "data", "banks.csv").
@mapping("banks", 0, "bank", "string"). @mapping("banks", 1, "capital", "float").
@mapping("banks", 2, "limit_pct", "float").
@output("bank_limits").
@mapping("bank_limits", 0, "bank", "string"). @mapping("bank_limits", 1, "capital", "float").
@mapping("bank_limits", 2, "limit_pct", "float"). @mapping("bank_limits", 3, "limit_amount", "float").
bank_limits(B, C, P, L) :- banks(B, C, P), C >= $min_capital, L = C * P / 100.
"""


# ----------------------------------------------------------------------------------------------------------------------
# Inputs
# ----------------------------------------------------------------------------------------------------------------------
def generate(root: Path, facts: int, seed: int) -> str:
    """Write ``ROOT/data/facts.parquet`` (``facts`` distinct rows) and ``ROOT/data/banks.csv``; describe them."""
    import pandas as pd

    data = root / "data"
    data.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    borrowers = max(1, facts // 5)
    weights = 1 / np.arange(1, BANKS + 1)
    extra = facts // 50 + 100  # rows to spare: the rare exact duplicates are dropped, then the first `facts` kept
    df = pd.DataFrame({  # noqa: F841 (read by DuckDB's replacement scan)
        "bank": rng.choice(BANKS, facts + extra, p=weights / weights.sum()),
        "borrower": rng.integers(0, borrowers, facts + extra),
        "amount": np.round(rng.lognormal(11, 1.2, facts + extra), 2),
        "pos": np.arange(facts + extra),
    })
    con = duckdb.connect()
    try:
        con.execute(
            "CREATE TABLE book AS SELECT 'bank_' || lpad(CAST(bank AS VARCHAR), 2, '0') AS bank, "
            "'borrower_' || lpad(CAST(borrower AS VARCHAR), 7, '0') AS borrower, CAST(amount AS DOUBLE) AS amount, "
            "min(pos) AS pos FROM df GROUP BY ALL")
        path = str(data / "facts.parquet").replace("'", "''")
        con.execute(f"COPY (SELECT bank, borrower, amount FROM book ORDER BY pos LIMIT {int(facts)}) TO '{path}' "
                    "(FORMAT parquet)")
        n, banks, people = con.execute(
            f"SELECT count(*), count(DISTINCT bank), count(DISTINCT borrower) FROM read_parquet('{path}')").fetchone()
    finally:
        con.close()
    with (data / "banks.csv").open("w", encoding="utf-8") as fh:
        fh.write("bank,capital,limit_pct\n")
        for i in range(BANKS):
            fh.write(f"bank_{i:02d},{(i + 1) * 10_000_000},25\n")
    return (f"facts.parquet: {n:,} distinct rows (bank, borrower, amount), {banks} banks, {people:,} borrowers; "
            f"banks.csv: {BANKS} rows")


def write_catalog(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "get_exposures.dl").write_text(EXPOSURES_TOOL, encoding="utf-8")
    (folder / "get_bank_limits.dl").write_text(LIMITS_TOOL, encoding="utf-8")


# ----------------------------------------------------------------------------------------------------------------------
# The direct side: the queries of the Workspace methods, verbatim (see vadaorchestra/mcp_server/workspace.py)
# ----------------------------------------------------------------------------------------------------------------------
def direct_top_k(cur, k: int, order: str, cond: str = "", args: list | None = None) -> dict:
    args = args or []
    matching = cur.execute(f'SELECT count(*) FROM main."exposure"{cond}', args).fetchone()[0]
    rows = cur.execute(f'SELECT * FROM main."exposure"{cond} ORDER BY {order} LIMIT {k}', args).fetchall()
    total = cur.execute('SELECT count(*) FROM main."exposure"').fetchone()[0]
    return {"matching": matching, "rows": rows, "cardinality": total}


def direct_statistics_float(cur) -> dict:
    n, distinct, nulls, lo, hi, mean, quant = cur.execute(
        'SELECT count(*), count(DISTINCT "amount"), count(*) - count("amount"), min("amount"), max("amount"), '
        'avg("amount"), quantile_cont("amount", [0.05, 0.25, 0.5, 0.75, 0.95]) FROM main."exposure"').fetchone()
    return {"count": n, "distinct": distinct, "min": lo, "max": hi, "mean": mean, "quantiles": quant}


def direct_statistics_string(cur) -> dict:
    n, distinct, nulls, lo, hi = cur.execute(
        'SELECT count(*), count(DISTINCT "borrower"), count(*) - count("borrower") + '
        "count(*) FILTER (WHERE \"borrower\" LIKE '\\_:n%' ESCAPE '\\'), min(\"borrower\"), max(\"borrower\") "
        'FROM main."exposure"').fetchone()
    top = cur.execute('SELECT "borrower", count(*) AS n FROM main."exposure" WHERE "borrower" IS NOT NULL GROUP BY ALL '
                      'ORDER BY n DESC, "borrower" LIMIT 5').fetchall()
    return {"count": n, "distinct": distinct, "min": lo, "max": hi, "top": top}


def direct_cardinality(cur) -> dict:
    return {"cardinality": cur.execute('SELECT count(*) FROM main."exposure"').fetchone()[0]}


def _sql_path(path: Path) -> str:
    return "'" + str(path).replace("'", "''") + "'"


def direct_load(cur, query: str, target: str, preview: int = 20) -> dict:
    """What a tool call does, by hand: compute the output from the bound file as a set (``query``), count it, fetch a
    preview, and add it (set semantics) to a table of the workspace in one transaction."""
    cur.execute(f"CREATE OR REPLACE TEMP TABLE bench_out AS {query}")
    n = cur.execute("SELECT count(*) FROM bench_out").fetchone()[0]
    rows = cur.execute(f"SELECT * FROM bench_out ORDER BY ALL LIMIT {int(preview)}").fetchall()
    cur.execute("BEGIN TRANSACTION")
    cur.execute(f"CREATE TABLE IF NOT EXISTS main.{target} AS SELECT * FROM bench_out LIMIT 0")
    cur.execute(f"INSERT INTO main.{target} SELECT * FROM (SELECT * FROM bench_out EXCEPT SELECT * FROM main.{target}) "
                "ORDER BY ALL")
    cur.execute("COMMIT")
    total = cur.execute(f"SELECT count(*) FROM main.{target}").fetchone()[0]
    cur.execute("DROP TABLE bench_out")
    return {"facts": n, "cardinality": total, "rows": rows}


# Tables the direct side writes into the workspace's database: the "__vo" prefix hides them from the predicates the
# server lists, and the benchmark drops them at the end.
DIRECT_EXPOSURE, DIRECT_LIMITS = "__vo_bench_exposure", "__vo_bench_limits"


def direct_exposures(cur, data: Path) -> dict:
    return direct_load(cur, "SELECT DISTINCT COALESCE(CAST(bank AS VARCHAR), '') AS bank, COALESCE(CAST(borrower AS "
                            "VARCHAR), '') AS borrower, CAST(amount AS DOUBLE) AS amount FROM "
                            f"read_parquet({_sql_path(data / 'facts.parquet')})", DIRECT_EXPOSURE)


def direct_limits(cur, data: Path, min_capital: float) -> dict:
    return direct_load(cur, "SELECT DISTINCT bank, capital, limit_pct, capital * limit_pct / 100 AS limit_amount FROM "
                            "(SELECT COALESCE(CAST(bank AS VARCHAR), '') AS bank, CAST(capital AS DOUBLE) AS capital, "
                            "CAST(limit_pct AS DOUBLE) AS limit_pct FROM "
                            f"read_csv({_sql_path(data / 'banks.csv')}, header = true, all_varchar = true)) "
                            f"WHERE capital >= {float(min_capital)!r}", DIRECT_LIMITS)


# ----------------------------------------------------------------------------------------------------------------------
# Result checks: the three sides must agree on what they computed
# ----------------------------------------------------------------------------------------------------------------------
def _close(a: Any, b: Any) -> bool:
    return a == b or (isinstance(a, float) and isinstance(b, float) and math.isclose(a, b, rel_tol=1e-9))


def check_top_k(out: dict, d: dict) -> bool:
    cols = [c["name"] for c in out["schema"]]
    return (out["matching"] == d["matching"] and out["cardinality"] == d["cardinality"]
            and [tuple(f[c] for c in cols) for f in out["facts"]] == d["rows"])


def check_statistics_float(out: dict, d: dict) -> bool:
    return (out["count"] == d["count"] and out["distinct"] == d["distinct"] and out["min"] == d["min"]
            and out["max"] == d["max"] and _close(out["mean"], d["mean"])
            and all(_close(out["quantiles"][f"p{round(q * 100)}"], v)
                    for q, v in zip((0.05, 0.25, 0.5, 0.75, 0.95), d["quantiles"], strict=True)))


def check_statistics_string(out: dict, d: dict) -> bool:
    return (out["count"] == d["count"] and out["distinct"] == d["distinct"] and out["min"] == d["min"]
            and out["max"] == d["max"] and [(m["value"], m["count"]) for m in out["most_frequent"]] == d["top"])


def check_cardinality(out: dict, d: dict) -> bool:
    return out["cardinality"] == d["cardinality"]


def check_tool(out: dict, d: dict) -> bool:
    cols = [c["name"] for c in out["schema"]]
    return (out["facts"] == d["facts"] and out["cardinality"] == d["cardinality"]
            and [tuple(f[c] for c in cols) for f in out["preview"]] == d["rows"])


# ----------------------------------------------------------------------------------------------------------------------
# Operations
# ----------------------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Operation:
    label: str
    tool: str  # MCP tool name
    arguments: dict[str, Any]
    workspace: Callable[[Any], dict]  # ws -> result
    direct: Callable[[Any], dict]  # cursor -> result
    check: Callable[[dict, dict], bool]
    predicate: str
    target: float | None = None  # ms, for the median via MCP


def operations(data: Path, threshold: float) -> list[Operation]:
    top = {"predicate": "exposure", "k": 10, "order_by": "amount"}
    filtered = {**top, "filter_attr": "bank", "filter_value": "bank_03", "threshold_attr": "amount",
                "threshold_op": ">=", "threshold_value": threshold}
    order = '"amount" DESC, "bank", "borrower"'
    return [
        Operation("get_top_k k=10 order_by=amount", "get_top_k", top,
                  lambda ws: ws.top_k("exposure", 10, "amount"),
                  lambda cur: direct_top_k(cur, 10, order), check_top_k, "exposure", TOP_K_MS),
        Operation(f"get_top_k k=10 order_by=amount bank=bank_03 amount>={threshold:g}", "get_top_k", filtered,
                  lambda ws: ws.top_k("exposure", 10, "amount", True, "bank", "bank_03", "amount", ">=", threshold),
                  lambda cur: direct_top_k(cur, 10, order, ' WHERE "bank" = $1 AND "amount" >= $2',
                                           ["bank_03", threshold]),
                  check_top_k, "exposure", TOP_K_MS),
        Operation("get_statistics amount (float)", "get_statistics", {"predicate": "exposure", "attribute": "amount"},
                  lambda ws: ws.statistics("exposure", "amount"), direct_statistics_float, check_statistics_float,
                  "exposure", STATISTICS_MS),
        Operation("get_statistics borrower (string)", "get_statistics",
                  {"predicate": "exposure", "attribute": "borrower"},
                  lambda ws: ws.statistics("exposure", "borrower"), direct_statistics_string, check_statistics_string,
                  "exposure", STATISTICS_MS),
        Operation("get_cardinality", "get_cardinality", {"predicate": "exposure"},
                  lambda ws: ws.cardinality("exposure"), direct_cardinality, check_cardinality, "exposure"),
        Operation("get_bank_limits (tiny catalog tool)", "get_bank_limits", {"min_capital": 0.0},
                  lambda ws: ws.invoke("get_bank_limits", {"min_capital": 0.0}),
                  lambda cur: direct_limits(cur, data, 0.0), check_tool, "bank_limits"),
    ]


# ----------------------------------------------------------------------------------------------------------------------
# Measuring
# ----------------------------------------------------------------------------------------------------------------------
async def call(client, tool: str, arguments: dict[str, Any]) -> tuple[float, dict]:
    start = time.perf_counter()
    res = await client.call_tool(tool, arguments)
    ms = (time.perf_counter() - start) * 1000
    if res.isError:
        text = " ".join(getattr(c, "text", "") for c in res.content)
        raise RuntimeError(f"{tool} failed: {text}")
    return ms, res.structuredContent


def timed(fn: Callable[[], dict]) -> tuple[float, dict]:
    start = time.perf_counter()
    out = fn()
    return (time.perf_counter() - start) * 1000, out


def fmt_size(n: int) -> str:
    return f"{n // 1_000_000}M" if n % 1_000_000 == 0 else f"{n // 1000}k" if n % 1000 == 0 else f"{n:,}"


def ms(x: float) -> str:
    return f"{x:.1f}" if x >= 10 else f"{x:.2f}"


async def bench(args, tmp: Path) -> int:
    from mcp.shared.memory import create_connected_server_and_client_session

    from vadaorchestra.mcp_server.catalog import Catalog
    from vadaorchestra.mcp_server.server import ReasoningServer

    t0 = time.perf_counter()
    inputs = generate(tmp, args.facts, args.seed)
    write_catalog(tmp / "catalog")
    print(f"inputs: {inputs}  (generated in {time.perf_counter() - t0:.1f} s)", flush=True)
    catalog = Catalog.load(tmp / "catalog", tmp)
    server = ReasoningServer(catalog, workspace_dir=tmp / "sessions")
    data = tmp / "data"
    rows: list[dict] = []
    ok = True
    try:
        async with create_connected_server_and_client_session(server.mcp) as client:
            await client.list_tools()  # the client caches the output schemas it validates results against

            # --- the big tool, once ---------------------------------------------------------------------------------
            load_ms, out = await call(client, "get_exposures", {})
            workspaces = server.sessions.workspaces()  # the session's Workspace
            assert len(workspaces) == 1, workspaces
            ws = workspaces[0]
            cur = ws.con.cursor()
            try:
                direct_ms, d = timed(lambda: direct_exposures(cur, data))
                agree = check_tool(out, d)
                ok &= agree
                facts = out["cardinality"]
                print(f"get_exposures: {facts:,} facts materialized in {load_ms / 1000:.2f} s via MCP "
                      f"(server-side elapsed_ms {out['elapsed_ms'] / 1000:.2f} s); by hand in SQL "
                      f"{direct_ms / 1000:.2f} s; ratio {load_ms / direct_ms:.2f}x; "
                      f"result check: {'agree' if agree else 'MISMATCH'}", flush=True)
                rows.append({"label": "get_exposures (1 call, not repeated)", "facts": facts, "mcp": load_ms,
                             "ws": None, "direct": direct_ms, "agree": agree, "target": None})
                threshold = float(round(cur.execute(
                    'SELECT quantile_disc("amount", 0.9) FROM main."exposure"').fetchone()[0]))
                print(f"\n{args.reps} repetitions per side after one warm-up call each; sides alternate "
                      f"(MCP, Workspace, direct, then rotated)", flush=True)

                # --- the repeated operations ------------------------------------------------------------------------
                for op in operations(data, threshold):
                    runners = {
                        "mcp": lambda op=op: call(client, op.tool, op.arguments),
                        "ws": lambda op=op: timed(lambda: op.workspace(ws)),
                        "direct": lambda op=op: timed(lambda: op.direct(cur)),
                    }
                    times: dict[str, list[float]] = {s: [] for s in SIDES}
                    results: dict[str, dict] = {}

                    async def one(side: str, runners=runners) -> tuple[float, dict]:
                        run = runners[side]
                        return await run() if side == "mcp" else run()

                    for side in SIDES:  # warm-up
                        results[side] = (await one(side))[1]
                    for rep in range(args.reps):
                        for side in SIDES[rep % 3:] + SIDES[:rep % 3]:
                            t, results[side] = await one(side)
                            times[side].append(t)
                    agree = op.check(results["mcp"], results["direct"]) and op.check(results["ws"], results["direct"])
                    ok &= agree
                    med = {s: statistics.median(times[s]) for s in SIDES}
                    n = results["mcp"].get("cardinality", results["mcp"].get("count"))
                    print(f"-- {op.label}: MCP {ms(med['mcp'])} ms (min {ms(min(times['mcp']))}, max "
                          f"{ms(max(times['mcp']))}), Workspace {ms(med['ws'])} ms, direct {ms(med['direct'])} ms "
                          f"(min {ms(min(times['direct']))}); result check: {'agree' if agree else 'MISMATCH'}",
                          flush=True)
                    rows.append({"label": op.label, "facts": n, **med, "agree": agree, "target": op.target})
                cur.execute(f"DROP TABLE IF EXISTS main.{DIRECT_EXPOSURE}")
                cur.execute(f"DROP TABLE IF EXISTS main.{DIRECT_LIMITS}")
            finally:
                cur.close()
    finally:
        server.close()

    print_table(rows)
    print_targets(rows, args.facts)
    return 0 if ok else 1


def print_table(rows: list[dict]) -> None:
    head = ["operation", "facts", "MCP ms", "direct ms", "ratio", "Workspace ms", "result"]
    print()
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join("---" for _ in head) + "|")
    for r in rows:
        cells = [r["label"], f"{r['facts']:,}", ms(r["mcp"]), ms(r["direct"]), f"{r['mcp'] / r['direct']:.2f}x",
                 ms(r["ws"]) if r["ws"] is not None else "—", "agree" if r["agree"] else "MISMATCH"]
        print("| " + " | ".join(cells) + " |")
    print("\nMCP = median client wall time of call_tool over the in-memory transport; direct = median of the same "
          "queries on a cursor of the workspace's connection; ratio = MCP / direct; Workspace = median of the "
          "Workspace method called in process (no MCP). get_exposures is one call of each, not a median.")


def print_targets(rows: list[dict], facts: int) -> None:
    print()
    note = "" if facts == TARGET_FACTS else f"  [measured at {fmt_size(facts)} facts; the target is set for 1M]"
    for r in rows:
        if r["target"] is not None:
            verdict = "PASS" if r["mcp"] < r["target"] else "MISS"
            print(f"target: {r['label']}: median via MCP < {r['target']:.0f} ms at 1M facts: {verdict} "
                  f"({ms(r['mcp'])} ms){note}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--facts", type=int, help="facts of the big predicate (default 1,000,000; 100,000 with --quick)")
    ap.add_argument("--reps", type=int, help="timed repetitions per operation and side (default 15; 5 with --quick)")
    ap.add_argument("--quick", action="store_true", help="100k facts and 5 repetitions (smoke run)")
    ap.add_argument("--seed", type=int, default=SEED)
    args = ap.parse_args(argv)
    args.facts = args.facts or (100_000 if args.quick else TARGET_FACTS)
    args.reps = args.reps or (5 if args.quick else 15)
    if args.facts < 100 or args.reps < 1:
        ap.error("--facts must be at least 100 and --reps at least 1")

    threads = duckdb.connect().execute("SELECT current_setting('threads')").fetchone()[0]
    print(f"# vadaorchestra MCP server benchmark — Python {platform.python_version()}, DuckDB {duckdb.__version__}, "
          f"mcp {version('mcp')}, {os.cpu_count()} CPUs, DuckDB threads {threads}, seed {args.seed}")
    print(f"# {fmt_size(args.facts)} facts, {args.reps} repetitions; in-memory MCP client session "
          "(mcp.shared.memory), one session and workspace")
    with tempfile.TemporaryDirectory(prefix="vo_bench_server_") as tmp:
        return anyio.run(bench, args, Path(tmp))


if __name__ == "__main__":
    sys.exit(main())
