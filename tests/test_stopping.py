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
                                                                      reason="souffle is not on PATH"))]


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
            if p.name.startswith(("vada", "souffle", ".vada"))}


def _run(root: Path, engine: str, *extra: str, signum: int | None = None) -> tuple[int, str, float]:
    args = [sys.executable, "-m", "vadaorchestra.cli", "datalog", "run", str(root / "p.dl"), "--data", str(root),
            "--out", str(root / "out"), "--engine", engine, *extra]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    start = time.monotonic()
    if signum is not None:
        time.sleep(2)
        start = time.monotonic()
        proc.send_signal(signum)
    try:
        _out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    return proc.returncode, err, time.monotonic() - start


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130),
                                              pytest.param(signal.SIGTERM, 143, marks=pytest.mark.slow)])
def test_a_signal_stops_the_run_at_once_and_writes_nothing(long_program, engine, signum, code):
    before = _ours()
    status, err, took = _run(long_program, engine, signum=signum)
    assert status == code, err
    assert took < 3, took
    assert err.strip() == f"stopped ({signal.Signals(signum).name}): the run of {long_program / 'p.dl'} was " \
                          "interrupted; nothing was written"
    assert not (long_program / "out").exists()
    assert _ours() <= before


@pytest.mark.parametrize("engine", ENGINES)
def test_the_time_limit_stops_the_run_on_every_engine(long_program, engine):
    before = _ours()
    status, err, took = _run(long_program, engine, "--time-limit", "2")
    assert status == 1 and "time limit exceeded: the call ran longer than 2 s" in err, err
    assert "Traceback" not in err and took < 5
    assert not (long_program / "out").exists()
    assert _ours() <= before


def test_the_soufflé_only_timeout_option_says_what_replaced_it(long_program):
    status, err, _took = _run(long_program, "duckdb", "--timeout", "5")
    assert status == 1 and "--timeout was replaced by --time-limit (seconds, for every engine)" in err
