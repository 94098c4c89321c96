"""Each kind of error gives a located message, exit code 1 from the CLI, and leaves a target database unchanged."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from vadaorchestra.cli import app
from vadaorchestra.datalog import load, run
from vadaorchestra.errors import ConstraintViolation, DatalogSyntaxError, RoundLimitExceeded, VadaError, ValidationError

BASE = 'own("a","b",0.6). own("b","c",0.7).\n@output("reach").\n'

CASES = {
    "syntax error": (BASE + "reach(X,Y) :- own(X,Y,W) W > 0.5.\n", DatalogSyntaxError, "prog.dl:3:26: error: unexpected 'W'"),
    "unsafe variable": (BASE + "reach(X,Z) :- own(X,Y,W).\nreach(X,Y) :- own(X,Y,W), V > 1.\n", ValidationError,
                        "prog.dl:4:27: error: unsafe variable 'V'"),
    "arity mismatch": (BASE + "reach(X,Y) :- own(X,Y).\n", ValidationError, "prog.dl:3:15: error: arity mismatch: 'own'"),
    "unstratifiable cycle": (BASE + "reach(X,Y) :- own(X,Y,W), not back(X,Y).\nback(X,Y) :- reach(Y,X).\n",
                             ValidationError, "unstratifiable program: negation on the recursive cycle"),
    "type conflict": (BASE + 'reach(X,Y) :- own(X,Y,W).\nreach(X,1) :- own(X,Y,W).\n', ValidationError,
                      "prog.dl:4:9: error: type conflict: column 1 of 'reach' gets an int here but is a string"),
    "bind outside the data root": ('@bind("own","csv","..","secret.csv").\n@output("reach").\n'
                                   "reach(X,Y) :- own(X,Y,W).\n", ValidationError,
                                   "prog.dl:1:1: error: @bind path '../secret.csv' leaves the data root"),
    "constraint violation": (BASE + "reach(X,Y) :- own(X,Y,W).\n#F :- own(X,Y,W), W > 0.65.\n", ConstraintViolation,
                             "prog.dl:4:1: error: negative constraint violated: X='b', Y='c', W=0.7"),
    "chase past its round limit": (BASE + "reach(X,Y) :- own(X,Y,W).\nperson(\"p\").\n"
                                   "parent(X,P), person(P) :- person(X).\n", RoundLimitExceeded,
                                   "prog.dl:5:1: error: the chase through existential variables did not terminate"),
}


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    db = tmp_path / "ws.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE reach AS SELECT 'x' AS c0, 'y' AS c1")
    con.close()
    (tmp_path / "data").mkdir()
    (tmp_path / "secret.csv").write_text("a,b,c\n1,2,0.5\n")
    return tmp_path


def snapshot(db: Path) -> dict[str, list[tuple]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        names = [r[0] for r in con.execute("SELECT table_name FROM duckdb_tables() ORDER BY 1").fetchall()]
        return {n: con.execute(f'SELECT * FROM "{n}" ORDER BY ALL').fetchall() for n in names}
    finally:
        con.close()


@pytest.mark.parametrize("kind", list(CASES))
def test_each_error_is_located_and_leaves_the_target_database_unchanged(kind, workspace, engine):
    text, exc_type, expected = CASES[kind]
    path = workspace / "prog.dl"
    path.write_text(text)
    db = workspace / "ws.duckdb"
    before = snapshot(db)
    with pytest.raises(exc_type) as info:
        run(load(path), data_root=workspace / "data", database=db, materialize=True, max_rounds=5, engine=engine)
    rendered = info.value.render()
    assert expected in rendered.replace(str(workspace) + "/", "")
    assert "^" in rendered, "the message shows the source line with a caret"
    assert snapshot(db) == before


@pytest.mark.parametrize("kind", list(CASES))
def test_each_error_exits_1_from_the_cli_and_writes_nothing(kind, workspace, monkeypatch):
    text, _, expected = CASES[kind]
    monkeypatch.chdir(workspace)
    Path("prog.dl").write_text(text)
    result = CliRunner().invoke(app, ["datalog", "run", "prog.dl", "--data", "data", "--out", "out", "--max-rounds", "5"])
    assert result.exit_code == 1
    assert expected in result.output
    assert not Path("out").exists()


def test_a_successful_run_materializes_its_outputs_in_one_step(workspace):
    path = workspace / "prog.dl"
    path.write_text(BASE + "reach(X,Y) :- own(X,Y,W).\nreach(X,Z) :- reach(X,Y), own(Y,Z,W).\n")
    run(load(path), database=workspace / "ws.duckdb", materialize=True)
    assert snapshot(workspace / "ws.duckdb")["reach"] == [("a", "b"), ("a", "c"), ("b", "c")]


def test_check_reports_every_problem_at_once(tmp_path):
    path = tmp_path / "many.dl"
    path.write_text("p(X) :- q(X, Y), not r(Z).\nq(1, \"a\").\nr(1).\ns(X) :- q(X, Y), Y > 3.\nt(X) :- q(X).\n")
    result = CliRunner().invoke(app, ["datalog", "check", str(path)])
    assert result.exit_code == 1
    out = result.output
    assert "many.dl:1:24: error: unsafe variable 'Z'" in out
    assert "many.dl:4:18: error: type conflict: cannot compare a string with an int" in out
    assert "many.dl:5:9: error: arity mismatch: 'q'" in out


def test_run_time_division_by_zero_names_the_rule():
    with pytest.raises(VadaError, match=r"division by zero in rule for r at <program>:1:\d+"):
        run("r(Y) :- n(X), Y = 10 / X. n(0). n(2). @output(\"r\").")


def test_a_synthesized_program_may_not_redefine_an_existing_predicate(workspace):
    before = snapshot(workspace / "ws.duckdb")
    with pytest.raises(ValidationError, match="predicate 'reach' already exists"):
        run('reach("q","r").', database=workspace / "ws.duckdb", materialize={"reach": "reach"}, synthesized=True)
    with pytest.raises(ValidationError, match="@bind is not allowed in a synthesized program"):
        run('@bind("x","csv","d","f.csv"). y(A) :- x(A). @output("y").', database=workspace / "ws.duckdb",
            synthesized=True)
    assert snapshot(workspace / "ws.duckdb") == before


def test_a_synthesized_program_reads_existing_tables_of_the_database(workspace):
    result = run('big(X) :- reach(X, Y). @output("big").', database=workspace / "ws.duckdb", synthesized=True)
    assert result.rows("big") == [("x",)]
