"""The four agents as a team against a real MCP server in this process, with the offline policy (and scripted
variants of it): plan properties, concurrency, replanning, refusals, limits, retries, the trace and its replay."""

from __future__ import annotations

import csv
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from vadaorchestra.agents import offline
from vadaorchestra.agents.llm import LLMPolicy
from vadaorchestra.agents.offline import OfflinePolicy
from vadaorchestra.agents.pipeline import Settings
from vadaorchestra.agents.plan import Call, check_plan
from vadaorchestra.agents.policy import RuleProposal
from vadaorchestra.agents.replay import replay
from vadaorchestra.agents.run import ask_sync
from vadaorchestra.agents.trace import read_trace
from vadaorchestra.datalog import parse

ROOT = Path(__file__).resolve().parents[1]
CATALOG = ROOT / "examples" / "catalog"
QUESTION = "What are Bank Gamma's largest exposures, and do any of them raise concentration-risk concerns?"


@pytest.fixture(scope="module")
def gamma(tmp_path_factory):
    folder = tmp_path_factory.mktemp("gamma")
    result = ask_sync(QUESTION, catalog=CATALOG, trace=folder / "trace.dl", report=folder / "report")
    return result, folder


def test_the_offline_team_finds_the_group_breach_no_single_check_finds(gamma):
    result, _ = gamma
    assert "No single borrower exceeds Bank Gamma's large-exposure limit of 20M (25 % of capital)" in result.answer
    assert "the Synthetix Global Fund group" in result.answer and "24.6M, 30.8 % of capital" in result.answer
    assert "DeepLogic Ltd (13.1M, 16.4 % of capital)" in result.answer and "NeuralLinker SpA (11.5M, 14.4 %)" in \
        result.answer
    speakers = [m.split(":")[0] for m in result.messages]
    assert {"Planner", "Retriever", "RuleSynthesizer", "Verifier"} <= set(speakers)


def test_every_plan_is_complete_disjoint_ordered_and_predicate_safe(gamma):
    result, _ = gamma
    ctx = result.ctx
    deps = {name: t["dependencies"] for name, t in ctx.tools.items()}
    params = {name: [p["name"] for p in t["parameters"]] for name, t in ctx.tools.items()}
    producers = {t["output_predicate"]: name for name, t in ctx.tools.items()}
    assert check_plan(ctx.plan, deps.__getitem__, params) == []
    assert check_plan(ctx.plan, deps.__getitem__, params, producers, materialized=ctx.predicates) == []
    first = ctx.plan.stages[0]
    assert {c.tool for c in first.calls} == {"get_bank_info", "get_loans", "get_credit_lines"}
    assert {c.tool: c.level for c in first.calls}["get_loans"] == "low"
    assert [c.tool for c in ctx.plan.stages[1].calls] == ["get_bank_exposures"]
    # the same tool with two parameter sets never shares a stage
    for stage in ctx.plan.stages:
        tools = [c.tool for c in stage.calls]
        assert len(tools) == len(set(tools))


def test_replanning_expands_every_borrower_set_at_a_time(gamma):
    result, _ = gamma
    later = [s for s in result.ctx.plan.stages if s.iteration > 0]
    assert later, "replanning added no stage"
    forms = [c.params.get("company") for s in later for c in s.calls]
    assert forms and all(f == {"each": "exposure.borrower", "where": {"bank": "Bank Gamma"}} for f in forms)


def test_the_invocations_of_a_stage_run_concurrently(gamma):
    result, _ = gamma
    ctx = result.ctx
    first = {c.tool for c in ctx.plan.stages[0].calls}
    # the client's records: every call of the first stage started before any of them ended
    records = [r for r in result.calls if r["tool"] in first]
    assert len(records) == 3
    events = [e for e in ctx.events if e["kind"] in ("invoke", "invoked") and e.get("stage", 0) == 0]
    starts = [e["t"] for e in ctx.events if e["kind"] == "invoke" and e["stage"] == 0]
    ends = [e["t"] for e in ctx.events if e["kind"] == "invoked" and any(t in e["call"] for t in first)][:3]
    assert len(starts) == 3 and events
    assert max(starts) < min(ends)


def test_the_trace_is_a_program_shaped_like_the_papers_figure(gamma):
    result, folder = gamma
    text = (folder / "trace.dl").read_text()
    parse(text)  # a program in our dialect
    header, steps = read_trace(text)
    assert header["question"] == QUESTION and header["policy"] == "offline"
    assert [s.kind for s in steps[:4]] == ["LI"] * 4
    assert 'exposure("Bank Gamma", Borrower, Amount) :- get_bank_exposures("Bank Gamma", Borrower, Amount).' in text
    kinds = "".join("I" if s.kind == "LI" else "M" for s in steps)
    assert re.fullmatch(r"I{4}M+I+M+", kinds), kinds  # invocations, threshold check, expansion, group check
    assert all(s.hashes for s in steps)
    assert (folder / "report" / "run.json").exists() and (folder / "report" / "plan.svg").read_text().startswith("<svg")


def test_replay_reproduces_every_hash(gamma):
    _, folder = gamma
    report = replay(folder / "trace.dl")
    assert report.ok, report.mismatches
    assert report.hashes_checked == report.steps == 12


def test_replay_of_changed_data_fails_naming_the_predicate(gamma, tmp_path):
    _, folder = gamma
    changed = tmp_path / "catalog"
    shutil.copytree(CATALOG, changed)
    path = changed / "data" / "credit_lines.csv"
    rows = list(csv.reader(path.open()))
    rows[2][4] = "2600000"  # NeuralLinker SpA draws 100k more
    with path.open("w", newline="") as fh:
        csv.writer(fh).writerows(rows)
    report = replay(folder / "trace.dl", catalog=changed)
    assert not report.ok
    assert [m.predicate for m in report.mismatches][:2] == ["credit_lines", "exposure"]
    assert "the data files differ" in report.warnings[0]


# --- scripted policies ------------------------------------------------------------------------------------------------
@dataclass
class Repeating(OfflinePolicy):
    """Replans the same call again, then a new company each time: refusals and the iteration limit."""

    n: int = 0

    async def replan(self, ctx, probe):
        self.n += 1
        return [Call(tool="get_loans", params={"bank_name": "Bank Gamma"}, level="high"),
                Call(tool="get_shareholders", params={"company": f"Company {self.n}"}, level="high")]


@pytest.mark.slow
def test_a_duplicate_invocation_is_refused_and_the_iteration_limit_stops_the_loop(tmp_path):
    result = ask_sync("Bank Gamma's exposures", catalog=CATALOG, trace=tmp_path / "t.dl",
                      policy=Repeating(), settings=Settings(max_iterations=3))
    ctx = result.ctx
    assert "get_loans(bank_name='Bank Gamma')" in ctx.refused
    assert sum(1 for c in result.calls if c["tool"] == "get_loans") == 1
    assert max(s.iteration for s in ctx.plan.stages) == 2
    assert any(e["kind"] == "stop" and e["reason"] == "iteration limit" for e in ctx.events)


@dataclass
class BadRules(OfflinePolicy):
    """Proposes a rule the server refuses, then 'repairs' it into another refused rule."""

    repairs: int = 0

    async def synthesize(self, ctx, probe):
        if self.repairs:
            return []
        return [RuleProposal(program="big(B) :- exposure(_, B, A), A > \"x\".", purpose="bad", output="big")]

    async def repair(self, ctx, proposal, error):
        self.repairs += 1
        assert "type conflict" in error or "not defined" in error
        return RuleProposal(program="big(B) :- exposures(_, B, A).", purpose="bad again", output="big")


def test_a_rule_that_fails_validation_is_retried_then_reported(tmp_path):
    policy = BadRules()
    result = ask_sync("Bank Gamma's exposures", catalog=CATALOG, policy=policy, trace=tmp_path / "t.dl",
                      settings=Settings(max_repairs=2, max_iterations=1))
    failed = result.ctx.failed_rules
    assert len(failed) == 1 and failed[0]["attempts"] == 3 and policy.repairs == 2
    assert "'exposures' is not defined" in failed[0]["error"]
    assert [e["attempt"] for e in result.ctx.events if e["kind"] == "rule_refused"] == [1, 2, 3]
    assert "[LM" not in (tmp_path / "t.dl").read_text()  # nothing refused reaches the trace


def test_a_lint_refuses_an_aggregate_that_merges_equal_amounts():
    from vadaorchestra.agents.verify import lint_rules

    assert lint_rules("t(K, T) :- exposure(K, _, A), T = sum(A).")
    assert lint_rules("t(K, T) :- exposure(K, B, A), T = sum(A).") == []


def test_the_offline_policy_names_no_scenario_tool_or_entity():
    source = Path(offline.__file__).read_text(encoding="utf-8").lower()
    names = set()
    for folder in [CATALOG, *sorted((ROOT / "scenarios").glob("*/catalog"))]:
        for prog in folder.glob("*.dl"):
            text = prog.read_text()
            names |= set(re.findall(r'@tool\("([^"]+)"', text)) | set(re.findall(r'@output\("([^"]+)"', text))
        for data in folder.rglob("*.csv"):
            for row in list(csv.reader(data.open()))[1:200]:
                # entity names: proper nouns of the data (plain lowercase words are vocabulary, not entities)
                names |= {cell for cell in row if len(cell) >= 5 and re.search(r"[A-Z]", cell)}
    found = sorted(n for n in names if re.search(rf"(?<![a-z0-9_]){re.escape(n.lower())}(?![a-z0-9_])", source))
    assert names and found == []


def test_a_scripted_llm_drives_the_whole_team_and_its_trace_replays(tmp_path):
    import json

    from autogen_ext.models.replay import ReplayChatCompletionClient

    def calls(*items):
        return json.dumps({"calls": [{"tool": t, "params": [{"name": k, "value": v} for k, v in p.items()]}
                                     for t, p in items]})

    rule = {"purpose": "exposures above 10M", "predicate": "big",
            "columns": [{"name": "borrower", "var": "B"}, {"name": "amount", "var": "A"}],
            "body": [{"predicate": "exposure", "args": {"bank": '"Bank Gamma"', "borrower": "B", "amount": "A"}}],
            "conditions": [{"left": "A", "op": ">", "right": "10000000"}]}
    client = ReplayChatCompletionClient([
        calls(("get_bank_exposures", {"bank_name": "Bank Gamma"}), ("get_bank_info", {"bank_name": "Bank Gamma"})),
        json.dumps({"rules": [rule]}),
        calls(("get_ultimate_controller", {"company": "DeepLogic Ltd"}),
              ("get_bank_exposures", {"bank_name": "Bank Gamma"})),  # the second one ran already: refused
        json.dumps({"rules": []}),
        calls(),
        json.dumps({"answer": "DeepLogic Ltd (13.1M) is ultimately controlled by Synthetix Global Fund."}),
    ])
    # a question the script answers (the concentration-risk one would need a threshold check: never verified without)
    # and the templates do not compose alone (its second part is about the first part's answer)
    question = "Which of Bank Gamma's exposures are above 10M, and who ultimately controls the largest of them?"
    # every decision asked of the model (lean=False): the script writes a rule of its own and replans
    result = ask_sync(question, catalog=CATALOG, model_client=client, policy=LLMPolicy(client, lean=False),
                      trace=tmp_path / "llm.dl")
    ctx = result.ctx
    assert result.answer == "DeepLogic Ltd (13.1M) is ultimately controlled by Synthetix Global Fund."
    assert [s.iteration for s in ctx.plan.stages] == [0, 0, 1]
    assert ctx.synthesized[0].output == "big" and ctx.predicates["big"].cardinality == 2
    assert set(result.tokens["by_step"]) >= {"select", "synthesize", "replan", "answer"}
    header, steps = read_trace((tmp_path / "llm.dl").read_text())
    assert header["policy"] == "llm" and [s.kind for s in steps].count("LM") == 1
    report = replay(tmp_path / "llm.dl")
    assert report.ok and report.hashes_checked == len(steps)


@pytest.mark.slow
def test_the_lean_policy_answers_the_concentration_question_in_three_model_calls(tmp_path):
    """Issue 25: which tools, which menu rules, the draft's wording; the rules do the rest (measured with the local
    model: 3 calls and 88 s, against 14 calls and 1,097 s when every decision went to the model)."""
    import json

    from autogen_ext.models.replay import ReplayChatCompletionClient

    answer = ("Bank Gamma's largest exposures are DeepLogic Ltd: 13.1M (16.375 %) and NeuralLinker SpA: 11.5M "
              "(14.375 %). Synthetix Global Fund (through DeepLogic Ltd, NeuralLinker SpA) totals 24.6M = 30.75 %, "
              "above the limit_amount of 20M: a breach.")
    client = ReplayChatCompletionClient([
        json.dumps({"use": ["c1", "c2"], "calls": []}),
        json.dumps({"use": ["r1", "r2"]}),
        json.dumps({"answer": answer, "values": None}),
    ])
    question = "What are Bank Gamma's largest exposures, and do any of them raise concentration-risk concerns?"
    result = ask_sync(question, catalog=CATALOG, model_client=client, trace=tmp_path / "lean.dl")
    # the model wrote a column's identifier: the answer says it in the catalog's label, and the run records it
    assert result.ctx.verified and result.answer == answer.replace("limit_amount", "large-exposure limit")
    assert any(e["kind"] == "answer_identifiers" and e["identifiers"] == ["limit_amount"] for e in result.ctx.events)
    assert list(result.tokens["by_step"]) == ["select", "choose", "phrase"]
    assert "exposure_by_controller_over_limit" in result.ctx.predicates  # the group check ran without a call
    phrase = client.create_calls[2]["messages"][1].content
    assert "MUST STATE:\nNo single borrower exceeds" in phrase and "the Synthetix Global Fund group" in phrase
    assert replay(tmp_path / "lean.dl").ok


@pytest.mark.slow
def test_a_denial_the_rules_did_not_write_is_refused_beside_a_breach(tmp_path):
    import json

    from autogen_ext.models.replay import ReplayChatCompletionClient

    denial = ("None of these exposures raise concentration-risk concerns. Synthetix Global Fund totals 24.6M, above "
              "the limit_amount of 20M.")
    client = ReplayChatCompletionClient([json.dumps({"use": ["c1", "c2"], "calls": []}), json.dumps({"use": ["r1", "r2"]}),
                                         json.dumps({"answer": denial, "values": None}),
                                         json.dumps({"answer": denial, "values": None})])
    result = ask_sync("What are Bank Gamma's largest exposures, and do any of them raise concentration-risk "
                      "concerns?", catalog=CATALOG, model_client=client, trace=tmp_path / "lean.dl")
    assert result.ctx.verified is False and result.answer.startswith("could not answer")
    assert "denies something ('None of these exposures raise concentration-risk concerns.')" in result.answer


def test_an_answer_that_omits_a_breach_a_check_found_is_refused_even_if_grounded():
    from vadaorchestra.agents.context import PredicateView, RunContext, Synthesized
    from vadaorchestra.agents.verify import check_findings

    ctx = RunContext(question="Do any of Bank Gamma's exposures raise concentration-risk concerns?")
    ctx.synthesized.append(Synthesized("...", "threshold check: exposure_by_controller above the limit", "over", kind="threshold_check"))
    ctx.predicates["over"] = PredicateView("over", "synthesized", None, 1, [], complete=True, facts=[
        {"bank": "Bank Gamma", "controller": "Synthetix Global Fund", "total": 24.6e6}])
    [problem] = check_findings("No single borrower of Bank Gamma exceeds the limit of 20M.", ctx)
    assert "omits what the threshold check over found" in problem and "Synthetix Global Fund" in problem
    assert check_findings("Synthetix Global Fund's group totals 24.6M, above the limit.", ctx) == []
    ctx.predicates["over"].facts = []  # a check that found nothing asks for nothing
    assert check_findings("No single borrower exceeds the limit.", ctx) == []
