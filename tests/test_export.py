"""``trace export``: the trace as one program whose plain evaluation yields every fact set the trace hashed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from vadaorchestra.agents.trace import TraceWriter, invocation_rule
from vadaorchestra.audit.export import export_trace
from vadaorchestra.cli import app
from vadaorchestra.mcp_server.catalog import Catalog
from vadaorchestra.mcp_server.workspace import Workspace

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "catalog"
COUNT = '@output("loan_count"). loan_count(B, N) :- loans(B, X, I, A), N = count().'


def run_export(export_file: Path, data: Path, engine: str = "duckdb") -> dict[str, tuple[int, str]]:
    """``datalog run --hashes`` of the exported file, as a user runs it: predicate -> (facts, sha256)."""
    result = CliRunner().invoke(app, ["datalog", "run", str(export_file), "--data", str(data), "--hashes",
                                      "--engine", engine, "--out", str(export_file.parent / "out")])
    assert result.exit_code == 0, result.output
    out = {}
    for line in result.stdout.splitlines():
        if " sha256:" in line:
            pred, rest = line.split(": ", 1)
            out[pred] = (int(rest.split()[0]), rest.rsplit("sha256:", 1)[1])
    return out


def _trace_by_hand(folder: Path, where: Path = EXAMPLES) -> Path:
    """A trace whose synthesized rule read ``loans`` before a later invocation added to it: get_loans(Bank Gamma),
    the count of loans per bank, get_loans(Bank Delta)."""
    catalog = Catalog.load(where)
    ws = Workspace(catalog, folder / "ws.duckdb")
    spec = catalog.tools["get_loans"]
    writer = TraceWriter(folder / "trace.dl", {"question": "q", "catalog": str(where),
                                               "catalog_hash": catalog.content_hash, "data": str(where)})
    try:
        for i, bank in enumerate(("Bank Gamma", None, "Bank Delta")):
            if bank is None:
                ws.run_program(COUNT)
                writer.manipulation(COUNT, "count of loans per bank",
                                    {"loan_count": (ws.cardinality("loan_count")["cardinality"],
                                                    ws.content_hash("loan_count"))})
                continue
            ws.invoke("get_loans", {"bank_name": bank})
            rule = invocation_rule("get_loans", {"bank_name": bank}, "loans", list(spec.columns), spec.param_columns)
            writer.invocation("get_loans", {"bank_name": bank}, i, rule,
                              {"loans": (ws.cardinality("loans")["cardinality"], ws.content_hash("loans"))})
    finally:
        writer.close()
        ws.close()
    return folder / "trace.dl"


def test_a_rule_that_read_a_predicate_later_steps_extended_sees_the_facts_of_its_step(tmp_path, engine):
    trace = _trace_by_hand(tmp_path)
    export = export_trace(trace, out=tmp_path / "export.dl")
    (tmp_path / "export.dl").write_text(export.text)
    assert "get_loans__li1" in export.text and "get_loans__li3" in export.text  # one tool, two calls: two names
    assert "loans__at2" in export.text  # the count read loans as they were at step 2
    got = run_export(tmp_path / "export.dl", export.data, engine)
    assert got == export.hashes and got["loan_count"][0] == 1 and got["loans"][0] == 8


@pytest.mark.slow
def test_bad_input_is_a_precise_error_and_writes_nothing(tmp_path):
    runner = CliRunner()
    out = tmp_path / "x.dl"
    result = runner.invoke(app, ["trace", "export", str(tmp_path / "missing.dl"), "--out", str(out)])
    assert result.exit_code == 1 and "cannot read trace" in result.output and not out.exists()
    (tmp_path / "junk.dl").write_text("hello\n")
    result = runner.invoke(app, ["trace", "export", str(tmp_path / "junk.dl"), "--out", str(out)])
    assert result.exit_code == 1 and "not a logical trace" in result.output and not out.exists()
    # a catalog whose programs changed since the run: the export would not be the program that ran
    changed = tmp_path / "catalog"
    shutil.copytree(EXAMPLES, changed)
    trace = _trace_by_hand(tmp_path, changed)
    program = changed / "get_loans.dl"
    program.write_text(program.read_text().replace("loans($bank_name, B, Id, A) :-",
                                                   "loans($bank_name, B, Id, A) :- A > 0,"))
    result = runner.invoke(app, ["trace", "export", str(trace), "--out", str(out)])
    assert result.exit_code == 1 and "catalog's programs differ" in result.output and not out.exists()
    result = runner.invoke(app, ["explain", str(trace), 'loans("Bank Gamma", _, _, _)'])
    assert result.exit_code == 1 and "catalog's programs differ" in result.output
    good = _trace_by_hand(tmp_path / "good")
    for fact, message in (('loans("Bank Gamma"', "not a fact"), ("nope(1)", "unknown predicate 'nope'"),
                          ('loans("Bank Omega", _, _, _)', "not derived")):
        result = runner.invoke(app, ["explain", str(good), fact])
        assert result.exit_code == 1 and message in result.output, result.output
    result = runner.invoke(app, ["explain", str(tmp_path / "missing.dl"), "loans(_, _, _, _)"])
    assert result.exit_code == 1 and "cannot read trace" in result.output


@pytest.mark.skipif(not __import__("vadaorchestra.datalog.engines", fromlist=["x"]).souffle_available(),
                    reason="the 'souffle' binary is not on PATH")
@pytest.mark.slow
def test_engines_give_the_same_bits_for_float_sums_of_many_magnitudes(tmp_path):
    """Soufflé once added floats in its own order (a difference in the last bits, reported as a note); float sums now
    run as DuckDB's exact SQL on both engines, so the replays agree bit for bit."""
    import random

    from vadaorchestra.audit.engines import verify_engines

    catalog = tmp_path / "catalog"
    shutil.copytree(EXAMPLES, catalog)
    rng = random.Random(3)
    lines = ["bank,borrower,loan_id,amount"] + [
        f"Bank Gamma,Borrower {i % 40},L{i},{rng.uniform(1, 9) * 10 ** rng.randint(0, 6):.6f}" for i in range(4000)]
    (catalog / "data" / "loans.csv").write_text("\n".join(lines) + "\n")
    ws = Workspace(Catalog.load(catalog), tmp_path / "ws.duckdb")
    spec = ws.catalog.tools["get_loans"]
    total = '@output("total"). total(B, X, T) :- loans(B, X, I, A), T = sum(A).'
    writer = TraceWriter(tmp_path / "trace.dl", {"question": "q", "catalog": str(catalog),
                                                 "catalog_hash": ws.catalog.content_hash, "data": str(catalog)})
    try:
        ws.invoke("get_loans", {"bank_name": "Bank Gamma"})
        rule = invocation_rule("get_loans", {"bank_name": "Bank Gamma"}, "loans", list(spec.columns),
                               spec.param_columns)
        writer.invocation("get_loans", {"bank_name": "Bank Gamma"}, 0, rule,
                          {"loans": (4000, ws.content_hash("loans"))})
        ws.run_program(total)
        writer.manipulation(total, "sum per borrower", {"total": (40, ws.content_hash("total"))})
    finally:
        writer.close()
        ws.close()
    reports, errors, notes = verify_engines(tmp_path / "trace.dl")
    assert errors == [] and notes == [] and reports[0].ok and reports[1].ok, (errors, notes)
