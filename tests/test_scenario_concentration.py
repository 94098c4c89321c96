"""The concentration_risk scenario: deterministic data holding the paper's figures (checked with pandas and an
independent control computation), and the offline team reaching the paper's conclusion on it with a trace shaped like
the paper's Figure 2 that replays."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

import pandas as pd
import pytest

from vadaorchestra.agents.replay import replay
from vadaorchestra.agents.run import ask_sync
from vadaorchestra.agents.trace import read_trace
from vadaorchestra.datalog import parse

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "scenarios" / "concentration_risk"
CATALOG = SCENARIO / "catalog"
QUESTION = "What are Bank Gamma's largest exposures, and do any of them raise concentration-risk concerns?"
GAMMA, SYNTHETIX = "Bank Gamma", "Synthetix Global Fund"
DEEPLOGIC, NEURALLINKER = "DeepLogic Ltd", "NeuralLinker SpA"


def _load(name: str, path: Path):
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


gen = _load("concentration_risk_generate", SCENARIO / "generate.py")


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("cr-data")
    gen.generate(folder, seed=7)
    return folder


@pytest.fixture(scope="module")
def frames(data):
    f = {name: pd.read_csv(data / f"{name}.csv") for name in ("banks", "loans", "credit_lines", "ownership")}
    parts = pd.concat([f["loans"][["bank", "borrower", "amount"]],
                       f["credit_lines"].rename(columns={"drawn": "amount"})[["bank", "borrower", "amount"]]])
    exposure = parts.groupby(["bank", "borrower"], as_index=False)["amount"].sum()
    banks = f["banks"].assign(limit=lambda b: b.capital * b.limit_pct / 100)
    f["exposure"] = exposure.merge(banks, on="bank")
    return f


def control_closure(ownership: pd.DataFrame) -> dict[str, set[str]]:
    """For each owner X, the companies it controls: X's direct shares plus those of the companies it controls,
    summed per company, above 0.5 (a worklist fixpoint, independent of the Datalog engine)."""
    holdings: dict[str, dict[str, float]] = defaultdict(dict)
    for owner, company, share in ownership.itertuples(index=False):
        holdings[owner][company] = share
    out = {}
    for x in holdings:
        acc: dict[str, float] = defaultdict(float)
        controlled: set[str] = set()
        todo = [x]
        while todo:
            z = todo.pop()
            for y, s in holdings.get(z, {}).items():
                if y == x:
                    continue
                acc[y] += s
                if acc[y] > 0.5 and y not in controlled:
                    controlled.add(y)
                    todo.append(y)
        out[x] = controlled
    return out


@pytest.fixture(scope="module")
def ultimate(frames) -> dict[str, list[str]]:
    controllers: dict[str, set[str]] = defaultdict(set)
    for x, ys in control_closure(frames["ownership"]).items():
        for y in ys:
            controllers[y].add(x)
    return {y: sorted(x for x in xs if not controllers.get(x)) for y, xs in controllers.items()}


# --- the data ------------------------------------------------------------------------------------------------------------
def test_the_same_seed_gives_the_same_bytes_and_another_seed_other_data(tmp_path):
    counts = gen.generate(tmp_path / "a", seed=7)
    assert gen.generate(tmp_path / "b", seed=7) == counts
    for name in gen.FILES:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name
    gen.generate(tmp_path / "c", seed=8)
    assert any((tmp_path / "a" / n).read_bytes() != (tmp_path / "c" / n).read_bytes() for n in gen.FILES)
    # the requested companies and banks, plus Bank Nova and the 14 entities of its designed group
    assert counts["companies.csv"] == 5000 + 14 and counts["banks.csv"] == 8 + 1
    assert counts["loans.csv"] > 5000 and counts["ownership.csv"] > 4000


def test_bank_gamma_holds_the_papers_figures(frames):
    banks = frames["banks"].set_index("bank")
    assert banks.loc[GAMMA, "capital"] == 80_000_000 and banks.loc[GAMMA, "limit_pct"] == 25
    exp = frames["exposure"]
    gamma = exp[exp.bank == GAMMA].sort_values("amount", ascending=False)
    assert len(gamma) > 1000  # thousands of counterparties around the example
    amounts = dict(zip(gamma.borrower, gamma.amount, strict=True))
    assert amounts[DEEPLOGIC] == 13_100_000 and amounts[NEURALLINKER] == 11_500_000
    assert amounts[DEEPLOGIC] / 80_000_000 * 100 == pytest.approx(16.375)
    assert amounts[NEURALLINKER] / 80_000_000 * 100 == pytest.approx(14.375)
    # each made of loans and drawn credit lines
    for who in (DEEPLOGIC, NEURALLINKER):
        loans = frames["loans"].query("bank == @GAMMA and borrower == @who")
        lines = frames["credit_lines"].query("bank == @GAMMA and borrower == @who")
        assert len(loans) >= 1 and (lines.drawn > 0).any()
        assert loans.amount.sum() + lines.drawn.sum() == amounts[who]
        assert (lines.drawn <= lines.credit_limit).all()
    top = list(gamma.borrower[:3])
    assert top[:2] == [DEEPLOGIC, NEURALLINKER]
    assert gamma.amount.iloc[2] < 0.75 * 11_500_000  # the third is clearly smaller
    # nobody breaches alone, at any bank
    assert (exp.amount <= exp["limit"]).all()
    assert (frames["credit_lines"].drawn <= frames["credit_lines"].credit_limit).all()


def test_both_are_ultimately_controlled_by_synthetix_and_the_chain_needs_a_sum(frames, ultimate):
    assert ultimate[DEEPLOGIC] == [SYNTHETIX] and ultimate[NEURALLINKER] == [SYNTHETIX]
    own = frames["ownership"]
    assert ((own.owner == SYNTHETIX) & (own.company == "Alpha Corp")).any()
    assert ((own.owner == "Alpha Corp") & (own.company == DEEPLOGIC)).any()
    # NeuralLinker's holder is controlled only jointly: no single shareholder of it holds more than half
    (holder,) = own[(own.company == NEURALLINKER) & (own.share > 0.5)].owner
    assert own[own.company == holder].share.max() <= 0.5
    assert ultimate[holder] == [SYNTHETIX]
    # every controlled company has exactly one ultimate controller
    assert all(len(v) == 1 for v in ultimate.values())


def test_only_the_designed_groups_breach_synthetix_at_bank_gamma_castellan_at_bank_nova(frames, ultimate):
    exp = frames["exposure"].copy()
    exp["group"] = [(ultimate.get(b) or [b])[0] for b in exp.borrower]
    groups = exp.groupby(["bank", "group"], as_index=False).agg(amount=("amount", "sum"), n=("borrower", "count"),
                                                                limit=("limit", "first"))
    over = groups[groups.amount > groups["limit"]]
    assert list(zip(over.bank, over.group, over.amount, strict=True)) == [(GAMMA, SYNTHETIX, 24_600_000),
                                                                          ("Bank Nova", "Castellan Holding", 38_500_000)]
    nova = exp[exp.bank == "Bank Nova"]
    assert (nova.amount < 0.05 * 120_000_000).all()  # every one of them under 5 % of capital
    assert len(nova[nova.group == "Castellan Holding"]) == 12
    assert 24_600_000 / 80_000_000 * 100 == pytest.approx(30.75)
    gamma = groups[groups.bank == GAMMA]
    # some groups with several borrowers stay under the limit, one of them close to it
    assert ((gamma.n >= 2) & (gamma.amount < gamma["limit"])).sum() > 50
    assert gamma[gamma.group != SYNTHETIX].amount.max() > 15_000_000
    # the third largest exposure's group stays under the limit
    third = exp[exp.bank == GAMMA].sort_values("amount", ascending=False).iloc[2]
    assert gamma.set_index("group").loc[third.group, "amount"] < 20_000_000


@pytest.mark.slow
def test_the_control_tools_agree_with_the_independent_computation(data, frames, ultimate):
    """get_ultimate_controller (computed upward from the company only) and get_group_exposure (downward from the
    controller only) give what the whole-graph fixpoint gives, jointly controlled companies included."""
    from vadaorchestra.mcp_server.catalog import Catalog
    from vadaorchestra.mcp_server.workspace import Workspace

    own = frames["ownership"]
    best = own.groupby("company").share.max()
    joint = sorted(c for c in ultimate if best[c] <= 0.5)  # nobody holds more than half: control by a sum
    assert len(joint) >= 20
    uncontrolled = sorted(c for c in set(own.company) if c not in ultimate)
    companies = joint[:10] + sorted(ultimate)[::400] + uncontrolled[::400] + [DEEPLOGIC, NEURALLINKER]
    exp = frames["exposure"]
    gamma = exp[exp.bank == GAMMA].set_index("borrower").amount
    closure = control_closure(own)
    controllers = [SYNTHETIX, "Meridian Capital Partners", ultimate[joint[0]][0]]
    with Workspace(Catalog.load(CATALOG, data)) as ws:
        for c in companies:
            ws.invoke("get_ultimate_controller", {"company": c})
        got = {(f["company"], f["controller"]) for f in ws.top_k("ultimate_controller", 1000)["facts"]}
        for tool in ("get_loans", "get_credit_lines", "get_bank_exposures"):
            ws.invoke(tool, {"bank_name": GAMMA})
        for x in controllers:
            ws.invoke("get_group_exposure", {"bank_name": GAMMA, "controller": x})
        groups = ws.top_k("group_exposure", 1000)["facts"]
    assert got == {(c, x) for c in companies for x in ultimate.get(c, [])}
    for x in controllers:
        members = ({x} | closure[x]) & set(gamma.index)
        assert {f["borrower"]: f["amount"] for f in groups if f["controller"] == x} == {b: gamma[b] for b in members}
    assert sum(f["amount"] for f in groups if f["controller"] == SYNTHETIX) == 24_600_000
    assert sum(f["amount"] for f in groups if f["controller"] == "Meridian Capital Partners") == 18_950_000


# --- the offline run ---------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def gamma_run(data, tmp_path_factory):
    folder = tmp_path_factory.mktemp("cr-run")
    result = ask_sync(QUESTION, catalog=CATALOG, data=data, trace=folder / "trace.dl", report=folder / "report")
    return result, folder


def test_the_offline_run_finds_the_synthetix_breach(gamma_run):
    result, _ = gamma_run
    answer = result.answer
    assert answer.startswith("Bank Gamma's largest exposures are DeepLogic Ltd (13.1M, 16.4 % of capital), "
                             "NeuralLinker SpA (11.5M, 14.4 %)")
    assert "No single borrower exceeds Bank Gamma's large-exposure limit of 20M (25 % of capital)" in answer
    assert "the Synthetix Global Fund group" in answer and "24.6M, 30.8 % of capital" in answer
    assert "through DeepLogic Ltd and NeuralLinker SpA" in answer
    assert "unverified" not in answer and result.verified
    assert "over every borrower" in answer  # the group check covers every borrower
    chosen = {c.tool for c in result.ctx.plan.stages[0].calls + result.ctx.plan.stages[1].calls if c.level == "high"}
    assert chosen == {"get_bank_info", "get_bank_exposures"}


def test_the_trace_has_the_shape_of_the_papers_figure_2(gamma_run):
    _, folder = gamma_run
    text = (folder / "trace.dl").read_text()
    parse(text)
    header, steps = read_trace(text)
    assert header["question"] == QUESTION and header["policy"] == "offline"
    first = steps[:4]
    assert all(s.kind == "LI" for s in first)
    assert {s.tool for s in first} == {"get_bank_info", "get_loans", "get_credit_lines", "get_bank_exposures"}
    assert first[3].tool == "get_bank_exposures" and all(s.params == {"bank_name": GAMMA} for s in first)
    kinds = "".join("I" if s.kind == "LI" else "M" for s in steps)
    assert re.fullmatch(r"I{4}M+I+M+", kinds), kinds
    m1 = [s for s in steps[4:] if s.kind == "LM"][: kinds[4:].index("I")]
    assert any("threshold check" in s.note and "exposure_over_limit" in s.hashes for s in m1)
    assert [s.hashes["exposure_over_limit"][0] for s in m1 if "exposure_over_limit" in s.hashes] == [0]
    # ownership and ultimate controllers of every borrower, set-at-a-time: one call per tool
    every = {"each": "exposure.borrower", "where": {"bank": GAMMA}}
    expanded = [s.tool for s in steps if s.kind == "LI" and s.params.get("company") == every]
    assert sorted(expanded) == ["get_borrower_profile", "get_shareholders", "get_ultimate_controller"]
    assert 'exposure("Bank Gamma", Borrower, _), get_ultimate_controller(Borrower, Controller).' in text
    last = steps[kinds.rindex("I") + 1:]
    assert any("group aggregation" in s.note for s in last)
    checks = [s for s in last if "threshold check" in s.note]
    assert checks and checks[-1].hashes["exposure_by_controller_over_limit"][0] == 1
    assert all(s.hashes for s in steps)


@pytest.mark.slow
def test_bank_novas_breach_by_many_mid_sized_borrowers_is_found_and_its_trace_replays(data, tmp_path):
    run = _load("concentration_risk_run_nova", SCENARIO / "run.py")
    _default, questions = run.load_questions()
    question = questions["many-mid-sized"]["text"]
    result = ask_sync(question, catalog=CATALOG, data=data, trace=tmp_path / "trace.dl")
    assert result.verified, result.answer
    assert "No single borrower exceeds Bank Nova's large-exposure limit of 30M (25 % of capital)" in result.answer
    assert "the Castellan Holding group" in result.answer and "38.5M, 32.1 % of capital" in result.answer
    assert "through 12 borrowers, the largest Castellan Logistics Ltd (4.2M)" in result.answer  # the list summarised
    members = result.ctx.predicates["exposure_by_controller_members"]
    assert members.cardinality == 12 and all(f["amount"] < 6_000_000 for f in members.facts)
    # none of the twelve is among the bank's three largest exposures: a top-k expansion would have missed them
    top = sorted(result.ctx.predicates["exposure"].facts, key=lambda f: -f["amount"])[:3]
    assert not {f["borrower"] for f in top} & {f["borrower"] for f in members.facts}
    report = replay(tmp_path / "trace.dl")
    assert report.ok and report.hashes_checked == report.steps


def test_the_trace_exported_as_one_program_yields_every_recorded_hash_with_nothing_of_ours_running(gamma_run,
                                                                                                  engine, tmp_path):
    from test_export import run_export

    from vadaorchestra.audit.export import export_trace

    _, folder = gamma_run
    export = export_trace(folder / "trace.dl", out=tmp_path / "export.dl")
    (tmp_path / "export.dl").write_text(export.text)
    assert set(export.hashes) >= {"exposure", "ultimate_controller", "exposure_by_controller_over_limit"}
    assert run_export(tmp_path / "export.dl", export.data, engine) == export.hashes


@pytest.mark.slow
def test_the_group_figure_of_the_answer_is_explained_down_to_rows_of_the_data_files(gamma_run):
    from typer.testing import CliRunner

    from vadaorchestra.cli import app

    _, folder = gamma_run
    trace = str(folder / "report" / "trace.dl")
    runner = CliRunner()
    listed = runner.invoke(app, ["explain", trace, "--answer"])
    assert listed.exit_code == 0, listed.output
    assert re.search(r"24\.6M\s+exposure_by_controller_over_limit\(\"Bank Gamma\", \"Synthetix Global Fund\", "
                     r"24600000\.0", listed.output)
    shown = runner.invoke(app, ["explain", trace, "--answer", "24.6M"])
    assert shown.exit_code == 0, shown.output
    text = shown.output
    assert "sum over 2 binding(s) = 24600000.0" in text  # the group sum over the two borrowers
    assert 'exposure("Bank Gamma", "DeepLogic Ltd", 13100000.0)' in text
    assert 'exposure("Bank Gamma", "NeuralLinker SpA", 11500000.0)' in text
    assert "[loans.csv line" in text and "[credit_lines.csv line" in text  # loans and drawn credit lines
    assert 'ownership("Synthetix Global Fund", "Alpha Corp", 0.8)' in text  # the control chain
    tree = json.loads(runner.invoke(app, ["explain", trace, "--answer", "24.6M", "--json"]).output)

    def leaves(node):
        return [node] if not node.get("children") else [x for c in node["children"] for x in leaves(c)]
    ends = leaves(tree)
    assert {n["kind"] for n in ends} <= {"base", "seen", "negation"}
    assert all(n["source"]["file"].endswith(".csv") and n["source"]["line"] > 1 for n in ends if n["kind"] == "base")
    bad = runner.invoke(app, ["explain", trace, 'exposure("Bank Gamma", 3)'])
    assert bad.exit_code == 1 and "has 3 column(s)" in bad.output


@pytest.mark.skipif(not __import__("vadaorchestra.datalog.engines", fromlist=["x"]).souffle_available(),
                    reason="the 'souffle' binary is not on PATH")
@pytest.mark.slow
def test_both_engines_replay_the_trace_to_the_same_facts_and_a_difference_is_named(gamma_run, data, tmp_path):
    import shutil

    from vadaorchestra.agents.replay import compare_engines, replay
    from vadaorchestra.audit.engines import verify_engines

    _, folder = gamma_run
    reports, differences, notes = verify_engines(folder / "trace.dl")
    assert all(r.ok for r in reports) and differences == [] and len(reports[0].final) == 13
    # the data changed between the two replays: one loan of DeepLogic Ltd grows by 1
    changed = tmp_path / "data"
    shutil.copytree(data, changed)
    loans = (changed / "loans.csv").read_text().splitlines()
    i = next(k for k, line in enumerate(loans) if "DeepLogic Ltd" in line and line.startswith("Bank Gamma"))
    head, amount = loans[i].rsplit(",", 1)
    loans[i] = f"{head},{float(amount) + 1:.1f}"
    (changed / "loans.csv").write_text("\n".join(loans) + "\n")
    other = replay(folder / "trace.dl", data=changed, engine="souffle")
    named = " ".join(compare_engines(reports[0], other))
    assert "predicate 'loans' differs between the engines" in named and "'exposure'" in named


def test_the_trace_replays(gamma_run):
    _, folder = gamma_run
    report = replay(folder / "trace.dl")
    assert report.ok, report.mismatches
    assert report.warnings == []


@pytest.mark.slow
def test_the_run_script_prints_the_breach_and_the_replay_command(data, tmp_path, capsys):
    run = _load("concentration_risk_run", SCENARIO / "run.py")
    copy = tmp_path / "data"
    # a copy holding only the files and a marker of the same seed: the script must not regenerate them
    copy.mkdir()
    for name in gen.FILES:
        (copy / name).write_bytes((data / name).read_bytes())
    (copy / run.MARKER).write_text(json.dumps({"seed": 7, "generator": run.generator_version()}))
    assert run.main(["--data", str(copy), "--out", str(tmp_path / "report")]) == 0
    out, err = capsys.readouterr()
    assert "generated" not in err
    assert "the Synthetix Global Fund group" in out and "24.6M, 30.8 % of capital" in out
    assert "data generation excluded" in out and "tokens a model would have been sent" in out
    assert f"vadaorchestra replay {tmp_path / 'report' / 'trace.dl'}" in out
    assert replay(tmp_path / "report" / "trace.dl").ok


@pytest.mark.spark
@pytest.mark.skipif(__import__("vadaorchestra.datalog.engines.spark_engine", fromlist=["x"]).spark_available()
                    is not None, reason="the Spark engine needs the spark extra and Java")
def test_replay_verify_engines_on_spark_gives_duckdbs_13_hashes(gamma_run):
    from typer.testing import CliRunner

    from vadaorchestra.cli import app

    _, folder = gamma_run
    result = CliRunner().invoke(app, ["replay", str(folder / "trace.dl"), "--verify-engines", "--engine", "spark"])
    assert result.exit_code == 0, result.output
    assert "13 steps replayed on spark, 13 hashes identical" in result.output
    assert "both engines derived the same facts for all 13 predicates" in result.output
    same = CliRunner().invoke(app, ["replay", str(folder / "trace.dl"), "--verify-engines", "--engine", "duckdb"])
    assert same.exit_code == 1 and "compares DuckDB with another engine" in same.output
