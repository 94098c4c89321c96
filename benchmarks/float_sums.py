"""What deterministic float sums cost: the engine with its exact sums, the engine with DuckDB's plain (parallel,
order-dependent) ``sum``, and the hand-written SQL, alternated in one process on the same tables.

    python benchmarks/float_sums.py                       # loans 1M and control 10k, 5 repetitions
    python benchmarks/float_sums.py --only control --size 100000 --reps 1

Prints each side's median wall time and the ratios; the workloads, inputs and SQL anchors are engine.py's.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import duckdb

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine as bench  # noqa: E402

from vadaorchestra.datalog import sql as S  # noqa: E402


def plain_sums():
    """The engine as it was before issue 10: DuckDB's own sum/avg over floats."""
    saved = dict(S._FLOAT_AGG)
    for key in ("sum", "msum", "avg"):
        S._FLOAT_AGG.pop(key)
    return saved


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="loans,control")
    ap.add_argument("--size", type=int, help="one size for every workload (default: loans 1M, control 10k)")
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args(argv)
    defaults = {"loans": 1_000_000, "control": 10_000, "tc": 100_000}
    for name in args.only.split(","):
        wl = bench.WORKLOADS[name]
        n = args.size or defaults[name]
        con = duckdb.connect()
        described = wl.generate(con, n)
        times: dict[str, list[float]] = {"exact": [], "plain": [], "sql": []}
        results = {}
        for rep in range(args.reps):
            order = ["exact", "plain", "sql"] if rep % 2 == 0 else ["sql", "plain", "exact"]
            for side in order:
                saved = plain_sums() if side == "plain" else None
                try:
                    start = time.perf_counter()
                    rows = bench.run_side("sql" if side == "sql" else "vo", wl, con)
                    times[side].append(time.perf_counter() - start)
                finally:
                    if saved is not None:
                        S._FLOAT_AGG.clear()
                        S._FLOAT_AGG.update(saved)
                results[side] = bench.digest(rows)
        med = {k: statistics.median(v) for k, v in times.items()}
        same = "same rows" if len(set(results.values())) == 1 else f"rows differ: {results}"
        print(f"{name} ({described}): exact {med['exact']:.3f} s, plain {med['plain']:.3f} s, "
              f"SQL {med['sql']:.3f} s; exact/plain {med['exact'] / med['plain']:.2f}x, "
              f"exact/SQL {med['exact'] / med['sql']:.2f}x, plain/SQL {med['plain'] / med['sql']:.2f}x "
              f"({args.reps} reps, medians; {same})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
