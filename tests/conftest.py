"""Shared fixtures: every engine test runs on each engine; Soufflé and Spark are skipped with a visible reason when
absent (Spark needs the ``spark`` extra and Java: ``pip install -e ".[spark]"``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from vadaorchestra.datalog.engines import souffle_available
from vadaorchestra.datalog.engines.spark_engine import spark_available
from vadaorchestra.mcp_server.catalog import Catalog
from vadaorchestra.mcp_server.server import ReasoningServer

EXAMPLE_CATALOG = Path(__file__).resolve().parents[1] / "examples" / "catalog"

ENGINES = [
    "duckdb",
    pytest.param("souffle", marks=pytest.mark.skipif(not souffle_available(),
                                                     reason="the 'souffle' binary is not on PATH (or its engine is not built)")),
    pytest.param("spark", marks=[pytest.mark.spark,
                                 pytest.mark.skipif(spark_available() is not None, reason=str(spark_available()))]),
]


@pytest.fixture(params=ENGINES)
def engine(request) -> str:
    """Name of the engine under test."""
    return request.param


# --- the MCP server over the example catalog ---------------------------------------------------------------------
@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.load(EXAMPLE_CATALOG)


@pytest.fixture
def server(catalog, tmp_path):
    srv = ReasoningServer(catalog, workspace_dir=tmp_path / "ws")
    yield srv
    srv.close()


@pytest.fixture(scope="session")
def concentration_data(tmp_path_factory) -> Path:
    """The concentration-risk scenario's data (seed 7), generated once per test session: a clean checkout has none."""
    import importlib.util
    import sys

    root = Path(__file__).resolve().parents[1] / "scenarios" / "concentration_risk"
    spec = importlib.util.spec_from_file_location("concentration_risk_generate_for_tests", root / "generate.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    folder = tmp_path_factory.mktemp("concentration-data")
    module.generate(folder, seed=7)
    return folder


# --- the suite leaves no temporary workspace or engine file behind ---------------------------------------------------
_LEFT = ("vada-ws-", "vadaorchestra-")


def _ours() -> set[str]:
    import tempfile

    return {p.name for p in Path(tempfile.gettempdir()).iterdir() if p.name.startswith(_LEFT)}


def pytest_sessionstart(session) -> None:
    session.config._vada_temp = _ours()


def pytest_sessionfinish(session, exitstatus) -> None:
    before = getattr(session.config, "_vada_temp", None)
    if before is None:
        return
    left = sorted(_ours() - before)
    if left:
        session.config.get_terminal_writer().line(
            f"the suite left {len(left)} temporary entries behind: {', '.join(left[:5])}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


# --- the Spark tests on a standalone cluster ------------------------------------------------------------------------
# With VADA_SPARK_CLUSTER=spark://HOST:PORT (a cluster `python deploy/spark_cluster.py start` made, or any other), the
# process's Spark session is started on that master, before the first Spark test: the golden cases, the property
# test, Bank Gamma's trace and every other Spark test that runs in this process then run on the cluster's executors
# (the checkpoint folder: $VADA_SPARK_CHECKPOINT_DIR, else the one deploy/spark_cluster.py made). A test that runs the
# engine in a subprocess keeps local[*]: a second application would wait for the cores the first one holds.
def spark_cluster() -> tuple[str | None, str]:
    """The cluster's master URL and None, or None and why the cluster tests do not run."""
    import os

    master = os.environ.get("VADA_SPARK_CLUSTER")
    if not master:
        return None, ("no Spark cluster given: start one with `python deploy/spark_cluster.py start` and set "
                      "VADA_SPARK_CLUSTER=spark://127.0.0.1:7077")
    if spark_available() is not None:
        return None, str(spark_available())
    import socket
    from urllib.parse import urlparse

    url = urlparse(master)
    try:
        socket.create_connection((url.hostname, url.port or 7077), timeout=3).close()
    except OSError as exc:
        return None, f"the Spark cluster {master} does not answer ({exc})"
    return master, ""


def cluster_checkpoint_dir() -> str:
    import os
    import sys

    if os.environ.get("VADA_SPARK_CHECKPOINT_DIR"):
        return os.environ["VADA_SPARK_CHECKPOINT_DIR"]
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "deploy"))
    import spark_cluster as helper

    return str(helper.state_dir() / "checkpoints")


def pytest_runtest_setup(item) -> None:
    if item.get_closest_marker("spark") is None:
        return
    master, _why = spark_cluster()
    if master is None:
        return
    from vadaorchestra.datalog.engines import spark_engine

    if spark_engine._SESSION is None:
        spark_engine.spark_session(master, checkpoint_dir=cluster_checkpoint_dir())


def pytest_report_header(config) -> str | None:
    master, why = spark_cluster()
    return f"spark tests: on the cluster {master}" if master else None
