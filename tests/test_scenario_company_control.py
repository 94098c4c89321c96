"""The company-control scenario: deterministic graphs, and offline answers equal to independent ground truth."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from vadaorchestra.agents.replay import replay

pytestmark = pytest.mark.slow  # the slow tier: python -m pytest -m slow

HERE = Path(__file__).resolve().parents[1] / "scenarios" / "company_control"


def _run_module():
    spec = importlib.util.spec_from_file_location("test_company_control_run", HERE / "run.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _module(name: str):
    return _run_module() if name == "run" else _run_module()._load(name)  # the scenario's own loader


def test_the_same_seed_gives_the_same_files_and_another_seed_others(tmp_path):
    generate = _module("generate").generate
    generate(tmp_path / "a", 3000, seed=5)
    generate(tmp_path / "b", 3000, seed=5)
    generate(tmp_path / "c", 3000, seed=6)
    for name in ("companies.csv", "ownership.csv"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    assert (tmp_path / "a" / "ownership.csv").read_bytes() != (tmp_path / "c" / "ownership.csv").read_bytes()


def test_ground_truth_follows_control_through_joint_holdings(tmp_path):
    truth = _module("ground_truth")
    (tmp_path / "ownership.csv").write_text("owner,company,share\nA,B,0.6\nA,C,0.3\nB,C,0.3\nC,D,0.9\nE,A,0.2\n")
    owns = truth.read_ownership(tmp_path)
    assert truth.controlled_by(owns, "A") == {"B", "C", "D"}
    assert truth.ultimate_controllers(owns, "D") == {"A"}
    assert truth.ultimate_controllers(owns, "A") == set()


def test_every_offline_answer_equals_the_ground_truth_and_its_trace_replays(tmp_path, capsys):
    code = _module("run").main(["--companies", "2000", "--questions", "2", "--data", str(tmp_path / "root"),
                                "--out", str(tmp_path / "out")])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "6/6 answers equal the ground truth" in out
    traces = sorted((tmp_path / "out").glob("q*/trace.dl"))
    assert len(traces) == 6 and all((t.parent / "index.html").stat().st_size < 2_000_000 for t in traces)
    for trace in traces[:2]:
        assert replay(trace).ok
