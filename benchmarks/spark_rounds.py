"""What each semi-naive round of the Spark engine moves: bytes and rows shuffled per round, from Spark's own metrics,
against the round's delta and the whole relation.

    python benchmarks/spark_rounds.py [--sizes 10000,100000] [--master URL] [--checkpoint-dir DIR] [--rounds-shown 12]

Runs transitive closure (benchmarks/engine.py's program and generator: ``m`` edges over ``m`` nodes) on the Spark
engine, with the driver's web UI on, each Spark action of the engine described with its round (``round N``). After
the run, Spark's REST API (``/api/v1/applications/<id>/jobs`` and ``/stages``, the driver UI's status store) gives
every stage's ``shuffleWriteBytes``, ``shuffleReadBytes`` and ``shuffleWriteRecords``; they are summed per round
(each stage once) and printed beside the round's new facts (the delta) and the accumulated relation, in rows and
in Spark's row size (``UnsafeRow``: 8 bytes of null bits + 8 per bigint column = 24 bytes for tc's pairs).
Broadcasts are not shuffles: the rows a round broadcasts are counted apart (the ``number of output rows`` of each
``BroadcastExchange`` in the SQL executions of the round, ``/api/v1/applications/<id>/sql``).

``--master`` (default ``$VADA_SPARK_MASTER`` or ``local[*]``) and ``--checkpoint-dir`` (default
``$VADA_SPARK_CHECKPOINT_DIR``) as the engine takes them. The script labels rounds by wrapping two methods of the
engine (``Run.round``, ``SparkStore.guard``), so it measures older checkouts too (``PYTHONPATH=<checkout>``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import duckdb  # noqa: E402

ROW_BYTES = 24  # an UnsafeRow of two bigints: one 8-byte word of null bits, then 8 bytes per column


def _engine_module():
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_engine", Path(__file__).with_name("engine.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def instrument() -> dict:
    """Wrap the engine so that every Spark action is described with its round and every delta's size is recorded."""
    from vadaorchestra.datalog.engines import duckdb_engine, spark_engine

    state: dict = {"round": 0, "deltas": []}
    round_of = duckdb_engine.Run.round

    def round_(self, stratum, deltas):
        if stratum.recursive:
            state["round"] = self.round_no + 1
        out = round_of(self, stratum, deltas)
        if stratum.recursive:
            for pred, (n, _t) in out.items():
                state["deltas"].append((state["round"], pred, n, self.store.count(self.tables[pred])))
        return out

    guard = spark_engine.SparkStore.guard

    def guard_(self, action, label="", span=None):
        self.spark.sparkContext.setJobDescription(f"round {state['round']}")
        return guard(self, action, label, span)

    duckdb_engine.Run.round = round_
    spark_engine.SparkStore.guard = guard_
    return state


def rest(url: str, path: str):
    with urllib.request.urlopen(f"{url}/api/v1/applications/{path}", timeout=30) as r:
        return json.loads(r.read())


def shuffled_per_round(spark, jobs_before: int) -> dict[int, dict[str, int]]:
    """Per round label: the shuffle bytes written and read and the rows written, summed over the stages of the jobs
    described ``round N`` (each stage once; a skipped stage ran nothing)."""
    url = spark.sparkContext.uiWebUrl
    app = spark.sparkContext.applicationId
    # the status store is fed by the listener bus: wait until the job count is stable
    last = -1
    for _ in range(60):
        jobs = rest(url, f"{app}/jobs")
        if len(jobs) == last and all(j["status"] != "RUNNING" for j in jobs):
            break
        last = len(jobs)
        time.sleep(0.5)
    stages = {s["stageId"]: s for s in rest(url, f"{app}/stages?status=complete")}
    out: dict[int, dict[str, int]] = {}
    # rows broadcast: the "number of output rows" of each BroadcastExchange of the SQL executions of a round
    executions = rest(url, f"{app}/sql?details=true&planDescription=false&offset=0&length=1000000")
    for e in executions:
        desc = e.get("description") or ""
        if not desc.startswith("round ") or not any(j >= jobs_before for j in
                                                   e.get("successJobIds", []) + e.get("failedJobIds", [])):
            continue
        cell = out.setdefault(int(desc.split()[1]), {"write": 0, "read": 0, "records": 0, "jobs": 0, "broadcast": 0})
        for node in e.get("nodes", []):
            if node.get("nodeName") == "BroadcastExchange":
                for metric in node.get("metrics", []):
                    if metric["name"] == "number of output rows":
                        cell["broadcast"] += int(metric["value"].replace(",", ""))
    seen: set[int] = set()
    for job in jobs:
        if job["jobId"] < jobs_before:
            continue
        desc = job.get("description") or ""
        if not desc.startswith("round "):
            continue
        n = int(desc.split()[1])
        cell = out.setdefault(n, {"write": 0, "read": 0, "records": 0, "jobs": 0, "broadcast": 0})
        cell["jobs"] += 1
        for sid in job["stageIds"]:
            if sid in seen or sid not in stages:
                continue
            seen.add(sid)
            s = stages[sid]
            cell["write"] += s.get("shuffleWriteBytes", 0)
            cell["read"] += s.get("shuffleReadBytes", 0)
            cell["records"] += s.get("shuffleWriteRecords", 0)
    return out


def measure(size: int, master: str | None, checkpoint_dir: str | None, shown: int) -> dict:
    from vadaorchestra.datalog import api
    from vadaorchestra.datalog.engines import spark_engine

    bench = _engine_module()
    state = instrument()
    conf = {"spark.ui.enabled": "true", "spark.ui.port": "4050", "spark.ui.retainedJobs": "100000",
            "spark.ui.retainedStages": "100000", "spark.sql.ui.retainedExecutions": "100000"}
    kwargs = {"conf": conf}
    if checkpoint_dir and "checkpoint_dir" in spark_engine.spark_session.__code__.co_varnames:
        kwargs["checkpoint_dir"] = checkpoint_dir
    spark = spark_engine.spark_session(master, **kwargs)
    warm = api.run(bench.TC_PROGRAM, inputs={"edge": [(1, 2), (2, 3)]}, engine="spark",
                   engine_options={"spark": spark})
    assert len(warm.rows("tc")) == 3
    con = duckdb.connect()
    inputs = bench.gen_tc(con, size)
    jobs_before = len(rest(spark.sparkContext.uiWebUrl, f"{spark.sparkContext.applicationId}/jobs"))
    state["round"] = 0
    state["deltas"].clear()
    stats: dict = {}
    start = time.perf_counter()
    result = api.run(bench.TC_PROGRAM, database=con, engine="spark", outputs=[], materialize={"tc": "tc"},
                     engine_options={"spark": spark, "stats": stats})
    seconds = time.perf_counter() - start
    rows = con.execute("SELECT count(*) FROM tc").fetchone()[0]
    del result
    per_round = shuffled_per_round(spark, jobs_before)
    return {"size": size, "inputs": inputs, "seconds": seconds, "rows": rows, "stats": stats,
            "deltas": list(state["deltas"]), "shuffled": per_round, "master": spark.sparkContext.master,
            "shown": shown}


def report(m: dict) -> None:
    deltas = {r: (n, full) for r, _p, n, full in m["deltas"]}
    rounds = max(deltas) if deltas else 0
    print(f"## tc {m['size']:,} edges on {m['master']}: {m['inputs']}; {m['rows']:,} facts, {rounds} rounds, "
          f"{m['seconds']:.1f} s ({m['seconds'] / max(1, rounds):.3f} s / round), {m['stats'].get('jobs', '?')} jobs")
    print("| round | delta rows | relation rows | rows shuffled | shuffle write | shuffle read | rows broadcast | "
          "delta (24 B/row) | relation (24 B/row) | shuffled / delta | shuffled / relation |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    shown = sorted(deltas)
    if len(shown) > m["shown"]:
        step = max(1, len(shown) // m["shown"])
        shown = sorted(set(shown[::step]) | {shown[0], shown[1], shown[-1]})
    ratios_delta, ratios_full = [], []
    for r in sorted(deltas):
        n, full = deltas[r]
        s = m["shuffled"].get(r, {"write": 0, "read": 0, "records": 0, "broadcast": 0})
        moved = s["write"]
        if n:
            ratios_delta.append(moved / (n * ROW_BYTES))
        ratios_full.append(moved / (full * ROW_BYTES) if full else 0)
        if r in shown:
            print(f"| {r} | {n:,} | {full:,} | {s['records']:,} | {_b(s['write'])} | {_b(s['read'])} | "
                  f"{s['broadcast']:,} | {_b(n * ROW_BYTES)} | {_b(full * ROW_BYTES)} | "
                  f"{moved / (n * ROW_BYTES):.2f} | {moved / (full * ROW_BYTES) if full else 0:.3f} |"
                  if n else
                  f"| {r} | 0 | {full:,} | {s['records']:,} | {_b(s['write'])} | {_b(s['read'])} | "
                  f"{s['broadcast']:,} | 0 | "
                  f"{_b(full * ROW_BYTES)} | — | {moved / (full * ROW_BYTES) if full else 0:.3f} |")
    total = sum(s["write"] for s in m["shuffled"].values())
    broadcast = sum(s["broadcast"] for s in m["shuffled"].values())
    print(f"all rounds: {_b(total)} shuffled (written), {broadcast:,} rows broadcast; median shuffled / delta {statistics.median(ratios_delta):.2f}, "
          f"median shuffled / relation {statistics.median(ratios_full):.3f}")
    print()


def _b(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if abs(n) < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return str(n)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--master", default=os.environ.get("VADA_SPARK_MASTER"))
    ap.add_argument("--checkpoint-dir", default=os.environ.get("VADA_SPARK_CHECKPOINT_DIR"))
    ap.add_argument("--rounds-shown", type=int, default=12)
    ap.add_argument("--json", help="also write the measurements to this file")
    args = ap.parse_args(argv)
    results = []
    for size in [int(x) for x in args.sizes.split(",")]:
        m = measure(size, args.master, args.checkpoint_dir, args.rounds_shown)
        report(m)
        results.append(m)
    if args.json:
        Path(args.json).write_text(json.dumps(results, default=str, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
