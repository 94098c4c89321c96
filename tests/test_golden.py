"""Golden tests of the Datalog layer: every folder under ``tests/golden/`` is one case, run on every engine.

Layout of a case ``tests/golden/<case>/``:

- ``program.dl``: the program. When its first line is ``% max_rounds: N`` the run uses ``max_rounds=N``.
- ``expected/<pred>.csv``: one file per ``@output`` predicate, byte for byte as ``RunResult.write_csv`` writes it
  (header of ``@mapping`` names else ``c0,c1,...``; sorted rows; floats as Python ``repr``; ``true``/``false``);
  the run must write exactly these files, no more. *Or* ``expected.err``: the run must raise a ``VadaError`` whose
  ``render()`` contains every non-blank line of the file as a substring (lines are not stripped, so a caret line
  keeps its leading spaces).
- ``data/`` (optional): the data root for ``@bind`` (small committed files; ``make_data.py`` regenerates binary ones).
- ``XFAIL`` (optional): the reason the case is known to fail (a suspected engine bug); the case is then a strict
  xfail. A line ``engines: duckdb, souffle`` limits the xfail to those engines (default: every engine).

Paths: the test changes into ``tests/golden`` and loads ``<case>/program.dl``, so diagnostics read
``<case>/program.dl:line:col`` wherever pytest is started from. ``data_root`` is passed as an absolute path.

Every expectation was derived by hand from LANGUAGE.md, not copied from an engine's output.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path

import pytest

from vadaorchestra.datalog import load, run
from vadaorchestra.errors import VadaError

GOLDEN = Path(__file__).parent / "golden"
MAX_ROUNDS = re.compile(r"%\s*max_rounds:\s*(\d+)")


def _cases() -> list[Path]:
    return sorted(p for p in GOLDEN.iterdir() if p.is_dir() and (p / "program.dl").exists())


def _xfail(folder: Path, engine: str) -> str | None:
    """The reason from ``XFAIL`` when the case is expected to fail on ``engine``, else None."""
    path = folder / "XFAIL"
    if not path.exists():
        return None
    reason, engines = [], None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip().lower().startswith("engines:"):
            engines = {e.strip() for e in line.split(":", 1)[1].split(",") if e.strip()}
        elif line.strip():
            reason.append(line.strip())
    if engines is not None and engine not in engines:
        return None
    return " ".join(reason) or "known failure"


def _max_rounds(program_text: str) -> dict[str, int]:
    first = program_text.splitlines()[0] if program_text else ""
    m = MAX_ROUNDS.fullmatch(first.strip())
    return {"max_rounds": int(m.group(1))} if m else {}


def _diff(expected: str, actual: str, name: str) -> str:
    return "".join(difflib.unified_diff(expected.splitlines(keepends=True), actual.splitlines(keepends=True),
                                        f"expected/{name}", f"actual/{name}"))


def test_golden_cases_exist():
    assert len(_cases()) >= 30


@pytest.mark.parametrize("case", [c.name for c in _cases()])
def test_case_has_exactly_one_kind_of_expectation(case):
    folder = GOLDEN / case
    has_csv = (folder / "expected").is_dir() and any((folder / "expected").glob("*.csv"))
    has_err = (folder / "expected.err").is_file()
    assert has_csv != has_err, f"{case}: needs either expected/*.csv or expected.err (not both)"
    if has_err:
        assert [line for line in (folder / "expected.err").read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.mark.parametrize("case", [c.name for c in _cases()])
def test_golden(case, engine, tmp_path, monkeypatch, request):
    folder = GOLDEN / case
    reason = _xfail(folder, engine)
    if reason is not None:
        request.applymarker(pytest.mark.xfail(reason=reason, strict=True))
    monkeypatch.chdir(GOLDEN)
    rel = f"{case}/program.dl"
    text = (folder / "program.dl").read_text(encoding="utf-8")
    data = folder / "data"
    kwargs = {"data_root": data.resolve() if data.is_dir() else None, "engine": engine, **_max_rounds(text)}
    err_file = folder / "expected.err"

    if err_file.exists():
        wanted = [line for line in err_file.read_text(encoding="utf-8").splitlines() if line.strip()]
        with pytest.raises(VadaError) as info:
            run(load(rel), **kwargs)
        rendered = info.value.render()
        missing = [line for line in wanted if line not in rendered]
        assert not missing, f"missing from the rendered error:\n{missing}\n--- rendered ---\n{rendered}"
        return

    try:
        result = run(load(rel), **kwargs)
    except VadaError as exc:
        pytest.fail(f"unexpected error:\n{exc.render()}")
    out = tmp_path / "out"
    result.write_csv(out)
    expected_dir = folder / "expected"
    expected_files = sorted(p.name for p in expected_dir.glob("*.csv"))
    actual_files = sorted(p.name for p in out.glob("*.csv"))
    assert actual_files == expected_files, "the outputs written differ from expected/"
    problems = []
    for name in expected_files:
        exp = (expected_dir / name).read_bytes()
        act = (out / name).read_bytes()
        if exp != act:
            problems.append(_diff(exp.decode("utf-8"), act.decode("utf-8"), name) or f"{name}: bytes differ")
    assert not problems, "\n".join(problems)
