"""LUBM (Soufflé's example program: 56 rules, 30 base relations) on a small generated university, its facts inline:
both engines give what Soufflé itself gives on the same facts as ``.facts`` files, and what the reference evaluator
gives (issue 11; the full 103k-fact case is timed by benchmarks/engine.py --only lubm)."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from reference import evaluate

from vadaorchestra.datalog import parse, run

LUBM = Path(__file__).resolve().parents[1] / "benchmarks" / "lubm.py"
SOUFFLE = shutil.which("souffle")


@pytest.fixture(scope="module")
def lubm():
    spec = importlib.util.spec_from_file_location("benchmarks_lubm", LUBM)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def university(lubm):
    facts = lubm.generate(departments=1, seed=7)
    return facts, lubm.program_text(facts)


@pytest.fixture(scope="module")
def souffle_rows(lubm, university, tmp_path_factory):
    if SOUFFLE is None:
        pytest.skip("the 'souffle' binary is not on PATH")
    d = tmp_path_factory.mktemp("lubm")
    lubm.write_facts(d / "facts", university[0])
    (d / "lubm.dl").write_text(lubm.souffle_text(), encoding="utf-8")
    (d / "out").mkdir()
    subprocess.run([SOUFFLE, "-F", str(d / "facts"), "-D", str(d / "out"), str(d / "lubm.dl")], check=True,
                   capture_output=True, timeout=120)
    return lubm.read_outputs(d / "out")


def test_the_generated_university_has_the_shape_of_the_suites_case(lubm, university):
    facts, text = university
    assert set(facts) == set(lubm.BASE)
    assert all(len(r) == lubm.BASE[p] for p, rows in facts.items() for r in rows)
    assert 5_000 < sum(map(len, facts.values())) < 9_000  # about 6,900 facts a department
    assert text.count("\n") > 5_000


def test_both_engines_give_what_souffle_gives(engine, lubm, university, souffle_rows):
    result = run(university[1], engine=engine)
    for pred in lubm.OUTPUTS:
        assert set(result.rows(pred)) == souffle_rows[pred], pred
    assert len(souffle_rows["person"]) > 500 and souffle_rows["chair"]


@pytest.mark.slow
def test_the_duckdb_engine_gives_what_the_reference_evaluator_gives(lubm, university):
    expected = evaluate(parse(university[1]))
    result = run(university[1])
    for pred in lubm.OUTPUTS:
        assert set(result.rows(pred)) == expected.get(pred, set()), pred
    assert expected["employee"] and expected["teachingAssistant"] and expected["subOrganizationOf"]
