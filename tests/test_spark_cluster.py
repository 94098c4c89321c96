"""The Spark engine at cluster shape: a standalone cluster's executors run the evaluation (the golden cases, the
property test and Bank Gamma's trace run there too, through conftest's session, when ``VADA_SPARK_CLUSTER`` names the
cluster), a worker killed in the middle of a round, and the settings a cluster needs.

    python deploy/spark_cluster.py start
    VADA_SPARK_CLUSTER=spark://127.0.0.1:7077 python -m pytest -m spark

Without ``VADA_SPARK_CLUSTER`` (or with a cluster that does not answer) the cluster tests are skipped, saying why."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import duckdb
import pytest
from conftest import spark_cluster

from vadaorchestra.datalog import api
from vadaorchestra.datalog.engines.spark_engine import spark_available
from vadaorchestra.errors import EngineError

pytestmark = [pytest.mark.spark, pytest.mark.skipif(spark_available() is not None, reason=str(spark_available()))]
MASTER, WHY = spark_cluster()
on_cluster = pytest.mark.skipif(MASTER is None, reason=WHY)
TC = '@input("e").\ntc(X, Y) :- e(X, Y).\ntc(X, Z) :- tc(X, Y), e(Y, Z).\n@output("tc").\n'
HELPER = Path(__file__).resolve().parents[1] / "deploy" / "spark_cluster.py"


def _helper():
    sys.path.insert(0, str(HELPER.parent))
    import spark_cluster as helper

    return helper


@on_cluster
def test_the_evaluation_runs_on_the_clusters_executors():
    from vadaorchestra.datalog.engines.spark_engine import spark_session

    spark = spark_session()
    assert spark.sparkContext.master == MASTER
    executors = [e for e in spark.sparkContext.statusTracker().getExecutorInfos()]
    assert len(executors) >= 3, executors  # the driver and an executor per worker
    edges = [(i, i + 1) for i in range(12)] + [(12, 0)]
    stats: dict = {}
    result = api.run(TC, inputs={"e": edges}, engine="spark", engine_options={"stats": stats})
    assert len(result.rows("tc")) == 13 * 13
    where = spark.sparkContext._jsc.sc().getCheckpointDir()
    assert where.isDefined()  # the rounds were checkpointed as files there
    # a checkpoint's files are written from the blocks its count computed, not from an eager checkpoint then counted
    # as a DataFrame read back (one job more each): this run took 69 Spark jobs for its 17 checkpoints, now 52
    assert stats["checkpoints"] >= 13 and stats["jobs"] <= 3 * stats["checkpoints"] + 4, stats


def test_a_master_that_is_not_local_without_a_checkpoint_folder_is_refused_before_anything_starts(tmp_path):
    import os

    (tmp_path / "p.dl").write_text('e(1, 2).\ntc(X, Y) :- e(X, Y).\n@output("tc").\n')
    env = {k: v for k, v in os.environ.items() if k != "VADA_SPARK_CHECKPOINT_DIR"}
    env["VADA_SPARK_MASTER"] = "spark://127.0.0.1:1"  # never contacted
    res = subprocess.run([sys.executable, "-m", "vadaorchestra.cli", "datalog", "run", str(tmp_path / "p.dl"),
                          "--engine", "spark", "--out", str(tmp_path / "out")], capture_output=True, text=True,
                         timeout=120, env=env)
    lines = res.stderr.strip().splitlines()
    assert res.returncode == 1 and len(lines) == 1, res.stderr
    assert "spark://127.0.0.1:1 is not local" in lines[0] and "VADA_SPARK_CHECKPOINT_DIR" in lines[0]
    assert not (tmp_path / "out").exists()


def test_an_unusable_checkpoint_folder_is_named(tmp_path):
    from vadaorchestra.datalog.engines.spark_engine import spark_session, use_checkpoint_dir
    from vadaorchestra.errors import VadaError

    spark = spark_session()
    before = spark.sparkContext._jsc.sc().getCheckpointDir()
    (tmp_path / "a-file").write_text("")
    with pytest.raises(VadaError, match="checkpoint folder .*a-file/x is not usable by the executors"):
        use_checkpoint_dir(spark, str(tmp_path / "a-file" / "x"))
    after = spark.sparkContext._jsc.sc().getCheckpointDir()
    assert after.isDefined() == before.isDefined() and (not after.isDefined() or after.get() == before.get())


@on_cluster
def test_a_worker_killed_in_the_middle_of_a_round(tmp_path):
    """Spark retries the lost executor's tasks from the last checkpoint files: the run ends with DuckDB's result; or
    it fails with one located line and the workspace is as it was. Either way the worker is started again after."""
    helper = _helper()
    if not (helper.state_dir() / "pids.json").exists() or not (helper.state_dir() / "cluster.json").exists():
        pytest.skip(f"the cluster was not started by deploy/spark_cluster.py (no process ids in {helper.state_dir()})")
    edges = [(i, i + 1) for i in range(40)] + [(i, i + 7) for i in range(0, 40, 5)]
    want = sorted(api.run(TC, inputs={"e": edges}).rows("tc"))
    from vadaorchestra.datalog.engines.spark_engine import spark_session

    spark = spark_session()
    stats: dict = {}  # the engine counts its checkpoints there as it goes: one per round and a few more
    killed: dict = {}

    def kill_in_a_round():
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and not killed:
            if stats.get("checkpoints", 0) >= 12 and spark.sparkContext.statusTracker().getActiveJobsIds():
                killed["pid"] = helper.kill_worker(1)
                killed["checkpoints"] = stats["checkpoints"]
                return
            time.sleep(0.02)

    con = duckdb.connect()
    thread = threading.Thread(target=kill_in_a_round, daemon=True)
    thread.start()
    outcome: dict = {}
    try:
        try:
            result = api.run(TC, inputs={"e": edges}, database=con, materialize=True, engine="spark",
                             engine_options={"stats": stats})
            outcome["rows"] = sorted(result.rows("tc"))
        except EngineError as exc:
            outcome["error"] = str(exc)
    finally:
        thread.join(timeout=1)
        con_tables = con.execute("SELECT table_name FROM information_schema.tables").fetchall()
        con.close()
        helper.start_worker(1)
    print(f"worker killed during a job after {killed.get('checkpoints')} checkpoints: "
          + ("completed" if "rows" in outcome else f"failed: {outcome.get('error')}"))
    assert killed, "the run ended before a round could be interrupted"
    if "rows" in outcome:
        assert outcome["rows"] == want
        assert ("tc",) in con_tables
    else:
        assert len(outcome["error"].splitlines()) == 1
        assert con_tables == []
