"""Ctrl-C, SIGTERM and the time limit stop `vadaorchestra datalog run` on every engine present: at once, with one line,
exit code 130/143 (1 for the time limit), no traceback, nothing written and no temporary file left (issue 38)."""

from __future__ import annotations

import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

# a join of a 3,000-edge relation with itself seven times: minutes of work on any engine
PROGRAM = '''@bind("e", "csv", "data", "e.csv").
@mapping("e", 0, "a", "string"). @mapping("e", 1, "b", "string").
@output("q").
q(A, G, H) :- e(A, B), e(B, C), e(C, D), e(D, E2), e(E2, F), e(F, G), e(G, H).
'''
ENGINES = ["duckdb", pytest.param("souffle", marks=pytest.mark.skipif(shutil.which("souffle") is None,
                                                                      reason="souffle is not on PATH")),
           pytest.param("spark", marks=[pytest.mark.spark, pytest.mark.skipif(
               __import__("vadaorchestra.datalog.engines.spark_engine", fromlist=["x"]).spark_available() is not None,
               reason="the spark extra or Java is missing")])]


@pytest.fixture(scope="module")
def long_program(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("long")
    rnd = random.Random(1)
    (root / "data").mkdir()
    (root / "data" / "e.csv").write_text("a,b\n" + "".join(f"n{rnd.randrange(300)},n{rnd.randrange(300)}\n"
                                                          for _ in range(3000)))
    (root / "p.dl").write_text(PROGRAM)
    return root


def _ours() -> set[str]:
    return {p.name for p in Path(tempfile.gettempdir()).iterdir()
            if p.name.startswith(("vada-ws-", "vadaorchestra-", ".vada-", "souffle"))}


def _when_caught(proc: subprocess.Popen, signum: int, limit: float = 60) -> None:
    """Wait until the child has installed its handler for `signum` (Linux: the SigCgt mask of /proc/PID/status),
    then a little longer so that the work is under way: a signal sent sooner, on a loaded machine, meets Python's
    default handler and tests the start-up, not the product."""
    status = Path(f"/proc/{proc.pid}/status")
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            caught = int(next(line.split()[1] for line in status.read_text().splitlines()
                              if line.startswith("SigCgt:")), 16)
        except (OSError, StopIteration):
            break                       # not Linux: fall back on the pause below
        if caught >> (signum - 1) & 1:
            break
        time.sleep(0.05)
    time.sleep(2)


def _run(root: Path, engine: str, *extra: str, signum: int | None = None) -> tuple[int, str]:
    args = [sys.executable, "-m", "vadaorchestra.cli", "datalog", "run", str(root / "p.dl"), "--data", str(root),
            "--out", str(root / "out"), "--engine", engine, *extra]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if signum is not None:
        _when_caught(proc, signum)
        proc.send_signal(signum)
    try:
        # the program is minutes of work on any engine: ending within the bound is what "stopped" means here
        # (the house rule: outcomes, never wall-clock comparisons)
        _out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    return proc.returncode, err


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130),
                                              pytest.param(signal.SIGTERM, 143, marks=pytest.mark.slow)])
def test_a_signal_stops_the_run_at_once_and_writes_nothing(long_program, engine, signum, code):
    before = _ours()
    status, err = _run(long_program, engine, signum=signum)
    assert status == code, err
    # one line (the run interrupted; or, while Spark's session still starts, which nothing interrupts, abandoned)
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"stopped ({signal.Signals(signum).name}): ") and "nothing was written" in err, err
    assert not (long_program / "out").exists()
    assert _ours() <= before


@pytest.mark.parametrize("engine", ENGINES)
def test_the_time_limit_stops_the_run_on_every_engine(long_program, engine):
    before = _ours()
    status, err = _run(long_program, engine, "--time-limit", "2")
    # (the run interrupted; or abandoned, while Spark's session still starts)
    assert status == 1 and "time limit exceeded: the" in err and "longer than 2 s" in err, err
    assert "Traceback" not in err
    assert not (long_program / "out").exists()
    assert _ours() <= before


TOOL = '''@tool("paths", "Long paths of the graph, away from a node.").
@param("start", "string", "A node").
@bind("e", "csv", "data", "e.csv").
@mapping("e", 0, "a", "string"). @mapping("e", 1, "b", "string").
@output("q").
@mapping("q", 0, "a", "string"). @mapping("q", 1, "g", "string"). @mapping("q", 2, "h", "string").
q(A, G, H) :- e(A, B), e(B, C), e(C, D), e(D, E2), e(E2, F), e(F, G), e(G, H), A != $start.
'''


def test_a_signal_stops_a_tool_call_of_the_command_line(long_program):
    (long_program / "catalog").mkdir(exist_ok=True)
    (long_program / "catalog" / "paths.dl").write_text(TOOL)
    before = _ours()
    proc = subprocess.Popen([sys.executable, "-m", "vadaorchestra.cli", "call", "paths", "start=n1", "--catalog",
                             str(long_program / "catalog"), "--data", str(long_program)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _when_caught(proc, signal.SIGINT)
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert err.strip() == "stopped (SIGINT): the call of paths was interrupted; nothing was written" and out == ""
    assert _ours() <= before


def test_the_soufflé_only_timeout_option_says_what_replaced_it(long_program):
    status, err = _run(long_program, "duckdb", "--timeout", "5")
    assert status == 1 and "--timeout was replaced by --time-limit (seconds, for every engine)" in err


@pytest.mark.slow
def test_a_signal_stops_a_question_and_removes_its_trace(tmp_path, concentration_data):
    root = Path(__file__).resolve().parents[1] / "scenarios" / "concentration_risk"
    trace = tmp_path / "run" / "trace.dl"
    proc = subprocess.Popen([sys.executable, "-m", "vadaorchestra.cli", "ask", "What are Bank Gamma's largest "
                             "exposures, and do any of them raise concentration-risk concerns?", "--catalog",
                             str(root / "catalog"), "--data", str(concentration_data), "--trace", str(trace)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _when_caught(proc, signal.SIGINT)
    time.sleep(2)
    proc.send_signal(signal.SIGINT)
    try:
        _out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert err.strip().splitlines()[-1].startswith("stopped (SIGINT): ") and "Traceback" not in err
    assert not trace.parent.exists()
