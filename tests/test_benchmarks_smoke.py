"""The engine benchmark's SQL anchors compute what the Datalog programs compute (toy sizes, a few seconds)."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "engine.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("benchmarks_engine", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve annotations through sys.modules
    spec.loader.exec_module(module)
    return module


def _both(bench, name: str, size: int):
    wl = bench.WORKLOADS[name]
    con = duckdb.connect()
    wl.generate(con, size, bench.SEED)
    ours = bench.run_vadaorchestra(wl, con)
    anchor = bench.run_sql(wl, con)
    return con, ours, anchor


def test_company_control_anchor_equals_vadaorchestra(bench):
    con, ours, anchor = _both(bench, "control", 200)
    assert len(ours) == len(anchor) > 0
    assert ours == anchor
    # recursion and msum matter: control is strictly more than the closure of direct majority stakes
    majority = {(x, y) for x, y in con.execute("SELECT owner, owned FROM own WHERE share > 0.5").fetchall()}
    closure = set(majority)
    while True:
        more = {(x, z) for x, y in closure for y2, z in majority if y == y2} - closure
        if not more:
            break
        closure |= more
    assert closure < set(ours)
    assert any(len({y for x, y in majority if x == a}) < len({y for x, y in closure if x == a}) for a, _ in majority)
    # the SQL loop left no temporary tables behind, and the table sink counts the same rows
    wl = bench.WORKLOADS["control"]
    assert bench.run_sql(wl, con, sink="table") == bench.run_vadaorchestra(wl, con, sink="table") == len(ours)


def test_exposure_anchor_equals_vadaorchestra(bench):
    con, ours, anchor = _both(bench, "loans", 2_000)
    assert len(ours) == len(anchor) > 0
    assert ours == anchor
    # the 1% duplicated rows are counted once
    total = con.execute("SELECT sum(amount) FROM (SELECT DISTINCT * FROM loans)").fetchone()[0] + con.execute(
        "SELECT sum(drawn) FROM (SELECT DISTINCT * FROM credit_lines)").fetchone()[0]
    assert sum(r[2] for r in ours) == total


def test_transitive_closure_anchor_equals_vadaorchestra(bench):
    _, ours, anchor = _both(bench, "tc", 500)
    assert len(ours) == len(anchor) > 500
    assert ours == anchor


def test_the_lubm_workload_over_tables_gives_what_the_inline_program_gives(bench):
    """The benchmark's LUBM reads its base relations from tables (copy rules); the inline-facts program of
    benchmarks/lubm.py must give the same rows, and the raw-Soufflé side the same again when souffle is here."""
    wl = bench.WORKLOADS["lubm"]
    con = duckdb.connect()
    bench.gen_lubm(con, 1)
    ours = bench.run_vadaorchestra(wl, con)
    lubm = bench._lubm()
    from vadaorchestra.datalog import run

    inline = run(lubm.program_text(lubm.generate(1, bench.SEED)))
    assert ours == [(o, *r) for o in sorted(lubm.OUTPUTS) for r in inline.rows(o)]
    assert len(ours) > 3_000
    if shutil.which("souffle"):
        _seconds, _compile, raw, _io = bench.run_raw(wl, con, compiled=False)
        assert raw == ours


@pytest.mark.slow
def test_server_benchmark_runs_and_prints_ratios():
    """The MCP server benchmark runs end to end at toy size: table header, ratios, every result check agrees."""
    script = BENCH.with_name("server.py")
    proc = subprocess.run([sys.executable, str(script), "--quick", "--facts", "20000", "--reps", "2"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "| operation | facts | MCP ms | direct ms | ratio |" in proc.stdout
    assert re.search(r"\| get_top_k [^|]* \| 20,000 \| [\d.]+ \| [\d.]+ \| \d+\.\d\dx \|", proc.stdout), proc.stdout
    assert "MISMATCH" not in proc.stdout


@pytest.mark.slow
def test_the_context_benchmark_shows_tokens_sent_independent_of_the_data_size():
    """Same scripted replies over 200 and 20,000 facts: the tokens sent stay within the 10 % bound."""
    script = BENCH.with_name("context.py")
    proc = subprocess.run([sys.executable, str(script), "--sizes", "200", "20000"],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "| 20,000 |" in proc.stdout and "within the 10 % bound" in proc.stdout
