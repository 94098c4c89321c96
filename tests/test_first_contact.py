"""A new user's first hour (issue 24): each stumble of it, as a behaviour of the CLI, the server or a script."""

from __future__ import annotations

import json
import logging
import re
import shutil
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
import typer
from typer.testing import CliRunner

import vadaorchestra
from vadaorchestra.cli import app

ROOT = Path(__file__).resolve().parents[1]
CATALOG = ROOT / "examples" / "catalog"
runner = CliRunner()


def flat(text: str) -> str:
    """Help and usage errors as one line of words, without the boxes and line breaks the terminal width adds."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


def cli(*args: str):
    return runner.invoke(app, list(args), catch_exceptions=False)


# --- versions -----------------------------------------------------------------------------------------------------------
def test_version_prints_the_package_version():
    result = cli("--version")
    assert result.exit_code == 0
    assert result.output.strip() == f"vadaorchestra {vadaorchestra.__version__}"


def test_the_package_version_is_the_installed_distribution_version():
    from importlib.metadata import version

    assert version("vadaorchestra") == vadaorchestra.__version__


@pytest.mark.anyio
async def test_the_mcp_server_reports_the_package_version_not_the_sdks(server):
    from mcp.shared.memory import create_connected_server_and_client_session

    async with create_connected_server_and_client_session(server.mcp._mcp_server) as session:
        info = (await session.initialize()).serverInfo
    assert (info.name, info.version) == ("vadaorchestra", vadaorchestra.__version__)


# --- a client that disconnects ------------------------------------------------------------------------------------------
def _log_closed_stream(logger: logging.Logger) -> None:
    try:
        raise anyio.ClosedResourceError
    except anyio.ClosedResourceError:
        logger.exception("Error in standalone SSE writer")


def test_a_client_disconnect_logs_no_traceback(caplog):
    from vadaorchestra.mcp_server.disconnects import quiet_disconnects

    quiet_disconnects()
    logger = logging.getLogger("mcp.server.streamable_http")
    with caplog.at_level(logging.WARNING, logger="mcp.server.streamable_http"):
        _log_closed_stream(logger)
    assert caplog.records == []
    with caplog.at_level(logging.DEBUG, logger="mcp.server.streamable_http"):
        _log_closed_stream(logger)
    assert [(r.levelname, r.exc_info) for r in caplog.records] == [("DEBUG", None)]
    assert "client disconnected (ClosedResourceError)" in caplog.records[0].getMessage()


def test_other_errors_of_the_transport_keep_their_traceback(caplog):
    from vadaorchestra.mcp_server.disconnects import quiet_disconnects

    quiet_disconnects()
    logger = logging.getLogger("mcp.server.streamable_http")
    with caplog.at_level(logging.WARNING, logger="mcp.server.streamable_http"):
        try:
            raise ValueError("boom")
        except ValueError:
            logger.exception("Error in message router")
    assert [(r.levelname, r.exc_info[0]) for r in caplog.records] == [("ERROR", ValueError)]


# --- help ---------------------------------------------------------------------------------------------------------------
def _commands():
    stack = [("vadaorchestra", typer.main.get_command(app))]
    while stack:
        name, cmd = stack.pop()
        yield name, cmd
        stack.extend((f"{name} {n}", c) for n, c in getattr(cmd, "commands", {}).items())


def test_no_help_text_has_brackets_that_the_help_renderer_would_swallow():
    # typer renders help with rich markup: "needs the [local] extra" was shown as "needs the  extra"
    for name, cmd in _commands():
        for text in [cmd.help or ""] + [getattr(p, "help", None) or "" for p in cmd.params]:
            assert not re.search(r"\[[a-z/][^\]]*\]", text), f"{name}: {text!r}"


def test_run_scenario_help_shows_the_scripts_options():
    result = cli("run", "concentration-risk", "--help")
    assert result.exit_code == 0
    assert "--question" in result.output and "--out" in result.output


def test_run_without_a_scenario_lists_the_scenarios():
    result = cli("run", "--help")
    assert result.exit_code == 0
    assert "concentration-risk" in result.output and "company-control" in result.output


def test_eval_help_lists_every_dataset_of_the_registry():
    from vadaorchestra.eval.datasets import available

    text = flat(cli("eval", "--help").output)
    names = list(available())
    assert len(names) >= 4
    for name in names:
        assert name in text, name


# --- the report folder of each question ---------------------------------------------------------------------------------
def _concentration_script():
    import importlib.util

    spec = importlib.util.spec_from_file_location("first_contact_concentration_run",
                                                  ROOT / "scenarios" / "concentration_risk" / "run.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_each_question_of_the_scenario_gets_its_own_report_folder():
    run = _concentration_script()
    default_id, questions = run.load_questions()
    folders = {run.report_folder(q, default_id, questions) for q in questions}
    assert len(folders) == len(questions)
    assert run.report_folder(default_id, default_id, questions) == Path("concentration-risk-report")
    assert run.report_folder("many-mid-sized", default_id, questions) != Path("concentration-risk-report")
    assert run.report_folder("Who owns Bank Nova?", default_id, questions) not in folders


# --- engines ------------------------------------------------------------------------------------------------------------
def test_an_unknown_engine_is_one_usage_error(tmp_path):
    result = runner.invoke(app, ["replay", str(tmp_path / "t.dl"), "--engine", "duckb"])
    assert result.exit_code == 2
    assert flat(result.output).count("duckb") == 1 and "engines: duckdb, souffle, spark, auto" in flat(result.output)


def test_replay_on_souffle_without_souffle_is_one_line(tmp_path):
    from vadaorchestra.datalog.engines import souffle_available

    if souffle_available():
        pytest.skip("Soufflé is installed here: the message is about its absence")
    trace = tmp_path / "trace.dl"
    trace.write_text("% not read: the engine is checked first\n")
    result = runner.invoke(app, ["replay", str(trace), "--engine", "souffle"])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        "error: the Soufflé engine needs the 'souffle' binary on PATH; use --engine duckdb or auto"]


# --- benchmarks/eval_table.py -------------------------------------------------------------------------------------------
def test_eval_table_on_a_missing_folder_fails_saying_so(tmp_path):
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "eval_table.py"), str(tmp_path / "nothing")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert "no such folder" in result.stderr and result.stdout == ""


# --- ask ----------------------------------------------------------------------------------------------------------------
def test_ask_without_trace_writes_into_a_run_folder_and_json_says_where(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["ask", "What are Bank Gamma's largest exposures?", "--catalog", str(CATALOG),
                                 "--json"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["verified"] is True and "DeepLogic Ltd" in record["answer"]
    [trace] = record["trace"]
    assert Path(trace).parts[:2] == ("runs", "ask") and (tmp_path / trace).is_file()
    assert not (tmp_path / "trace.dl").exists()


# --- checking a catalog -------------------------------------------------------------------------------------------------
def test_check_of_a_tool_that_reads_another_tools_output():
    result = cli("datalog", "check", str(CATALOG / "get_bank_exposures.dl"), "--tool", "--data", str(CATALOG))
    assert result.exit_code == 0, result.output
    assert "after get_credit_lines, get_loans" in result.output


def test_check_of_a_tool_is_not_failed_by_a_broken_file_it_does_not_read(tmp_path):
    shutil.copytree(CATALOG, tmp_path / "catalog")
    (tmp_path / "catalog" / "broken.dl").write_text("p(X) :- q(X).\n", encoding="utf-8")
    result = cli("datalog", "check", str(tmp_path / "catalog" / "get_loans.dl"), "--tool")
    assert result.exit_code == 0, result.output
    assert "ok on its own" in result.output and "catalog check" in result.output


def _catalog_with_a_wide_atom(tmp_path: Path) -> Path:
    folder = tmp_path / "catalog"
    shutil.copytree(CATALOG, folder)
    program = folder / "get_loans.dl"
    text = program.read_text(encoding="utf-8")
    assert ":- loan_book($bank_name, B, Id, A)." in text
    program.write_text(text.replace(":- loan_book($bank_name, B, Id, A).", ":- loan_book($bank_name, B, Id, A, _)."),
                       encoding="utf-8")
    return folder


def test_catalog_check_passes_the_example_catalog():
    result = cli("catalog", "check", str(CATALOG))
    assert result.exit_code == 0, result.output
    assert "ok (6 tools, 4 bound data files" in result.output


def test_catalog_check_locates_an_atom_wider_than_its_csv_file(tmp_path):
    folder = _catalog_with_a_wide_atom(tmp_path)
    result = runner.invoke(app, ["catalog", "check", str(folder)])
    assert result.exit_code == 1
    assert (f"{folder / 'get_loans.dl'}:3:1: error: 'loans.csv' has 4 column(s) (bank, borrower, loan_id, amount) "
            f"but 'loan_book' is read with 5 argument(s)") in result.output
    assert "Traceback" not in result.output


def test_checking_a_tool_reports_its_dependencys_csv_mismatch(tmp_path):
    folder = _catalog_with_a_wide_atom(tmp_path)
    result = runner.invoke(app, ["datalog", "check", str(folder / "get_bank_exposures.dl"), "--tool"])
    assert result.exit_code == 1
    assert "get_loans.dl:3:1: error: 'loans.csv' has 4 column(s)" in result.output


# --- calling one tool ---------------------------------------------------------------------------------------------------
def test_call_runs_a_tool_after_its_dependencies_and_prints_its_facts():
    result = runner.invoke(app, ["call", "get_bank_exposures", "bank_name=Bank Gamma", "--catalog", str(CATALOG)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "bank,borrower,amount"
    assert "Bank Gamma,DeepLogic Ltd,13100000.0" in lines
    assert "get_loans(bank_name='Bank Gamma') -> 6 facts" in result.stderr


def test_call_names_the_missing_parameter():
    result = runner.invoke(app, ["call", "get_bank_exposures", "--catalog", str(CATALOG)])
    assert result.exit_code == 1
    assert "missing parameter 'bank_name'" in result.output and "Traceback" not in result.output
