"""A short soak (benchmarks/soak.py): concurrent sessions of mixed, cancelled, abandoned and hostile calls against a
real HTTP server on loopback. No call hangs, no session sees another's facts, nothing is left after SIGTERM."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # the slow tier: python -m pytest -m slow

SOAK = Path(__file__).resolve().parents[1] / "benchmarks" / "soak.py"


def load_soak():
    spec = importlib.util.spec_from_file_location("benchmarks_soak", SOAK)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve annotations through sys.modules
    spec.loader.exec_module(module)
    return module


def test_a_short_soak_of_hostile_concurrent_sessions_hangs_no_call_leaks_nothing_and_leaves_no_file():
    soak = load_soak()
    verdict = soak.soak(sessions=6, seconds=2.0, time_limit=1.0, steps=[6], seed=23, settle=0.0)
    (step,) = verdict["steps"]
    assert step["calls"] > 6, step  # the sessions did work
    assert verdict["hung"] == 0, step
    assert verdict["leaks"] == 0, step
    assert verdict["leftovers"] == []
    assert verdict["sigterm_exit_s"] < 10
