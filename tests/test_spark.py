"""The Spark engine beyond the golden cases and the property test (which run on it through the ``engine`` fixture):
the same bits as DuckDB for float aggregates whatever the order of the rows, the exact sum's range, base data read
where it lies (a Parquet file, a table of the session's catalog), outputs written as catalog tables, a time budget
that cancels the run's jobs, and what the dialect rendering changes. Run with ``python -m pytest -m spark``; skipped,
saying why, without the ``spark`` extra or Java."""

from __future__ import annotations

import math
import random

import duckdb
import pandas as pd
import pytest
from programs import CONTROL, CONTROL_PAIRS, CONTROL_RULES

from vadaorchestra.datalog import api
from vadaorchestra.datalog.engines.spark_engine import spark_available
from vadaorchestra.errors import EngineError, LimitExceeded

pytestmark = [pytest.mark.spark, pytest.mark.skipif(spark_available() is not None, reason=str(spark_available()))]


@pytest.fixture(scope="module")
def spark():
    from vadaorchestra.datalog.engines.spark_engine import spark_session

    return spark_session()


def _bits(rows) -> list[tuple]:
    return sorted(tuple(v.hex() if isinstance(v, float) else v for v in r) for r in rows)


def _run_shuffled(program: str, rows: list[tuple], outputs: list[str], engine: str, seed: int) -> dict[str, list]:
    con = duckdb.connect()
    try:
        frame = pd.DataFrame(random.Random(seed).sample(rows, len(rows)),
                             columns=[f"c{j}" for j in range(len(rows[0]))])
        con.register("frame", frame)
        con.execute(f"CREATE TABLE {program.split(chr(34))[1]} AS SELECT * FROM frame")
        con.unregister("frame")
        result = api.run(program, database=con, outputs=outputs, engine=engine)
        return {p: _bits(result.rows(p)) for p in outputs}
    finally:
        con.close()


def test_float_aggregates_are_duckdbs_bits_whatever_the_order_of_the_rows(spark):
    rng = random.Random(7)
    rows = [(rng.randrange(200), rng.uniform(-1.0, 1.0) * 10.0 ** rng.randint(-4, 6)) for _ in range(20_000)]
    program = ('@input("t").\ns(K, T) :- t(K, X), T = sum(X).\nm(K, M) :- t(K, X), M = avg(X).\n'
               'p(K, P) :- t(K, X), Y = 1.0 + X / 100000000.0, P = prod(Y).\n')
    outputs = ["s", "m", "p"]
    want = _run_shuffled(program, rows, outputs, "duckdb", 0)
    for seed in (1, 2):
        assert _run_shuffled(program, rows, outputs, "spark", seed) == want
    groups: dict[int, list[float]] = {}
    for k, x in rows:
        groups.setdefault(k, []).append(x)
    assert all(float.fromhex(t) == math.fsum(groups[k]) or abs(float.fromhex(t) - math.fsum(groups[k]))
               <= 1e-12 * abs(math.fsum(groups[k])) for k, t in want["s"])


def test_msum_inside_recursion_is_duckdbs_bits(spark):
    rng = random.Random(5)
    own = [(0, m, 0.9) for m in range(1, 21)]
    own += [(m, 1000 + t, rng.uniform(0.01, 0.05)) for m in range(1, 21) for t in range(50)]
    program = '@input("own").\n' + CONTROL_RULES
    want = _run_shuffled(program, own, ["total", "control"], "duckdb", 0)
    assert _run_shuffled(program, own, ["total", "control"], "spark", 3) == want
    assert any(x == 0 and y >= 1000 for x, y in want["control"])


def test_company_control_gives_the_twelve_pairs(spark):
    result = api.run(CONTROL, engine="spark", outputs=["control"])
    assert sorted(result.rows("control")) == CONTROL_PAIRS


def test_a_float_sum_beyond_sparks_exact_range_is_a_located_error(spark):
    program = "t(1, 4.0e18). t(1, 3.0e18).\ns(K, T) :- t(K, X), T = sum(X).\n@output(\"s\").\n"
    with pytest.raises(EngineError, match=r"a float sum reaches 5\.4e18") as info:
        api.run(program, engine="spark")
    assert info.value.diagnostics and info.value.diagnostics[0].span.line == 2
    assert api.run(program.replace("4.0e18", "2.0e18"), engine="spark").rows("s") == [(1, 5.0e18)]


def test_base_data_is_read_where_it_lies_and_outputs_are_written_as_catalog_tables(spark, tmp_path):
    (tmp_path / "lake").mkdir()
    pd.DataFrame({"a": [1, 2, 3], "b": [2, 3, 4]}).to_parquet(tmp_path / "lake" / "edge.parquet")
    spark.createDataFrame([(4, 5)], "x bigint, y bigint").createOrReplaceTempView("extra_edge")
    program = ('@bind("edge", "parquet", "lake", "edge.parquet").\n'
               'link(X, Y) :- edge(X, Y).\nlink(X, Y) :- extra_edge(X, Y).\n'
               'tc(X, Y) :- link(X, Y).\ntc(X, Z) :- tc(X, Y), link(Y, Z).\n@output("tc").\n')
    con = duckdb.connect()
    try:
        result = api.run(program, data_root=tmp_path, database=con, materialize={"tc": "tc_spark_test"},
                         engine="spark", engine_options={"write_tables": True})
        want = sorted((x, y) for x in range(1, 5) for y in range(x + 1, 6))
        assert sorted(result.rows("tc")) == want
        assert sorted(con.execute("SELECT * FROM tc_spark_test").fetchall()) == want  # the workspace's copy
        assert sorted(tuple(r) for r in spark.table("tc_spark_test").collect()) == want  # the catalog's table
        assert [t.name for t in spark.catalog.listTables() if t.name.startswith("__vo")] == []  # no view left
    finally:
        con.close()
        spark.sql("DROP TABLE IF EXISTS tc_spark_test")
        spark.catalog.dropTempView("extra_edge")


def test_an_output_larger_than_the_driver_takes_is_written_by_the_executors_as_parquet(spark, tmp_path):
    program = '@input("e").\ntc(X, Y) :- e(X, Y).\ntc(X, Z) :- tc(X, Y), e(Y, Z).\n@output("tc").\n'
    edges = [(i, i + 1) for i in range(30)]  # 465 pairs
    con = duckdb.connect()
    try:
        with pytest.raises(EngineError, match=r"'tc' holds 465 rows, more than the 100 .*output_dir"):
            api.run(program, inputs={"e": edges}, database=con, materialize=True, outputs=[], engine="spark",
                    engine_options={"driver_rows": 100})
        assert con.execute("SELECT count(*) FROM information_schema.tables").fetchone()[0] == 0
        lake = tmp_path / "lake"
        options = {"driver_rows": 100, "output_dir": str(lake)}
        result = api.run(program, inputs={"e": edges}, database=con, materialize=True, outputs=[], engine="spark",
                         engine_options=options)
        assert result.counts["tc"] == 465 and result.tables == {}
        assert list((lake / "tc").glob("*.parquet")) and not [p for p in lake.iterdir() if p.name.startswith(".")]
        assert con.execute("SELECT table_type FROM information_schema.tables WHERE table_name = 'tc'").fetchone() \
            == ("VIEW",)  # the workspace reads the executors' files, nothing was collected
        assert sorted(con.execute("SELECT * FROM tc").fetchall()) == sorted(
            (i, j) for i in range(30) for j in range(i + 1, 31))
        # again, with a preview: only the rows asked for come back, and the folder is replaced, not added to
        again = api.run(program, inputs={"e": edges[:10]}, database=con, materialize=True, engine="spark", limit=3,
                        engine_options=options)
        assert again.rows("tc") == [(0, 1), (0, 2), (0, 3)] and again.counts["tc"] == 55
        assert con.execute("SELECT count(*) FROM tc").fetchone()[0] == 55
        with pytest.raises(EngineError, match="appending to them is not supported"):
            api.run(program, inputs={"e": edges}, database=con, materialize=True, append=True, outputs=[],
                    engine="spark", engine_options=options)
        assert con.execute("SELECT count(*) FROM tc").fetchone()[0] == 55
    finally:
        con.close()


def test_a_predicate_with_no_data_anywhere_is_a_clear_error(spark):
    with pytest.raises(Exception, match=r"no data for predicate 'nowhere'|nowhere"):
        api.run('p(X) :- nowhere(X).\n@output("p").\n', engine="spark")


def test_a_time_budget_cancels_the_runs_jobs_and_writes_nothing(spark):
    from vadaorchestra.datalog.limits import Budget

    edges = [(i, i + 1) for i in range(3000)]
    program = '@input("e").\ntc(X, Y) :- e(X, Y).\ntc(X, Z) :- tc(X, Y), e(Y, Z).\n@output("tc").\n'
    con = duckdb.connect()
    try:
        with Budget(1.0) as budget, pytest.raises(LimitExceeded):
            api.run(program, inputs={"e": edges}, database=con, materialize=True, engine="spark", budget=budget)
        assert con.execute("SELECT count(*) FROM information_schema.tables WHERE table_name = 'tc'").fetchone()[0] == 0
    finally:
        con.close()


def test_rendering_turns_duckdbs_dialect_into_sparks():
    from vadaorchestra.datalog.engines.spark_engine import render

    assert render("SELECT error('boom') FROM t") == "SELECT RAISE_ERROR('boom') FROM t"
    assert render("SELECT suffix(a, 'x') FROM t") == "SELECT ENDSWITH(a, 'x') FROM t"
    assert "ARRAY_SORT(COLLECT_LIST(a))" in render("SELECT product(a ORDER BY a) FROM t")
    exact = render("SELECT CAST(a * 18446744073709551616.0 AS HUGEINT) FROM t")
    assert "INT128" not in exact and "HUGEINT" not in exact and "DECIMAL(38, 0)" in exact


def test_a_rule_written_at_run_time_cannot_read_the_session_catalog(spark):
    from vadaorchestra.errors import ValidationError

    spark.createDataFrame([("secret",)], "s string").createOrReplaceTempView("lake_secret")
    try:
        program = 'leak(S) :- lake_secret(S).\n@output("leak").\n'
        assert api.run(program, engine="spark").rows("leak") == [("secret",)]  # a catalog tool may read it
        with pytest.raises(ValidationError, match="lake_secret"):
            api.run(program, engine="spark", synthesized=True)
    finally:
        spark.catalog.dropTempView("lake_secret")


@pytest.mark.anyio
async def test_the_mcp_server_runs_its_tools_and_synthesized_rules_on_spark(spark, catalog, tmp_path):
    from mcp_helpers import GAMMA, client, ok
    from test_mcp_server import CHECK

    from vadaorchestra.mcp_server.server import ReasoningServer

    server = ReasoningServer(catalog, workspace_dir=tmp_path / "ws", engine="spark")
    try:
        async with client(server) as c:
            for tool in ("get_loans", "get_credit_lines", "get_bank_exposures", "get_bank_info"):
                out = await ok(c, tool, **GAMMA)
            ran = await ok(c, "run_program", program=CHECK)
            card = await ok(c, "get_cardinality", predicate="large")
    finally:
        server.close()
    assert out["engine"] == "spark"
    assert ran["cardinality"] == 2 and card["cardinality"] == 2  # the small results, kept in the workspace
    assert {f["c0"]: round(f["c2"], 3) for f in ran["preview"]} == {"DeepLogic Ltd": 16.375, "NeuralLinker SpA": 14.375}


RUNTIME_ERRORS = {
    "cast": ('@bind("t", "csv", "data", "t.csv").\n@mapping("t", 0, "a", "string"). @mapping("t", 1, "b", "int").\n'
             '@output("q").\nq(X, S) :- t(X, B), S = B * 2.\n', "a,b\nx,1\ny,zz\n"),
    "overflow": ('@bind("t", "csv", "data", "t.csv").\n@mapping("t", 0, "a", "string"). @mapping("t", 1, "b", "int").\n'
                 '@output("q").\nq(X, S) :- t(X, B), S = B * 9223372036854775807.\n', "a,b\nx,1\ny,3\n"),
}


@pytest.mark.parametrize("case", sorted(RUNTIME_ERRORS))
def test_a_runtime_error_prints_only_the_located_error(tmp_path, case):
    """(pyspark once logged a 6-7 KB JSON line with the JVM's stack before the engine's own located error)"""
    import subprocess
    import sys

    program, data = RUNTIME_ERRORS[case]
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "t.csv").write_text(data)
    (tmp_path / "p.dl").write_text(program)
    res = subprocess.run([sys.executable, "-m", "vadaorchestra.cli", "datalog", "run", str(tmp_path / "p.dl"),
                          "--data", str(tmp_path), "--engine", "spark", "--out", str(tmp_path / "out")],
                         capture_output=True, text=True, timeout=300)
    lines = res.stderr.strip().splitlines()
    assert res.returncode == 1 and len(lines) == 3, res.stderr
    assert lines[0].startswith(f"{tmp_path / 'p.dl'}:") and ": error: " in lines[0]
    assert not (tmp_path / "out").exists()


def test_a_program_that_is_not_valid_fails_before_the_spark_session_starts():
    import subprocess
    import sys

    code = ("from vadaorchestra.datalog import api\n"
            "import vadaorchestra.datalog.engines.spark_engine as se\n"
            "try:\n"
            "    api.run('@input(\"e\"). @output(\"q\").\\nq(X) :- e(X, Y), Y > \"a\", Y > 3.\\n', engine='spark',\n"
            "            inputs={'e': [(1, 2)]})\n"
            "except Exception as exc:\n"
            "    print(type(exc).__name__, se._SESSION is None)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300).stdout
    assert out.strip() == "ValidationError True", out
