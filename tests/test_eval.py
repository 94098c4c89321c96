"""The evaluation: the bank KG and its questions (deterministic, gold answers from code independent of the engine),
exact match, the harness end to end with the offline policy, and baselines that refuse to run without a model."""

from __future__ import annotations

import ast
import csv
import importlib.util
import json
import sys
import tempfile
from pathlib import Path

import pytest

from vadaorchestra.eval import EvalError, evaluate, exact_match, parse_answer, run_eval, summarize
from vadaorchestra.eval.baselines import RAG, LLMWithMCP, read_verdict
from vadaorchestra.eval.datasets import resolve
from vadaorchestra.eval.metrics import as_number, bucket, cumulative_accuracy

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "scenarios" / "bank_qa"


def _module(name: str):
    key = f"bank_qa_{name}"
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, SCENARIO / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]


gt = _module("ground_truth")
generate = _module("generate")


@pytest.fixture(scope="module")
def bank():
    return resolve("bank_qa")  # generates the data when missing


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


# --- the generator ----------------------------------------------------------------------------------------------------
@pytest.mark.slow
def test_the_same_seed_gives_byte_identical_files_and_another_seed_does_not(tmp_path):
    generate.write(tmp_path / "a", seed=11)
    generate.write(tmp_path / "b", seed=11)
    generate.write(tmp_path / "c", seed=12)
    a, b, c = _files(tmp_path / "a"), _files(tmp_path / "b"), _files(tmp_path / "c")
    assert set(a) == {f for f, _ in gt.RELATIONS.values()} | {"bank_qa.jsonl", "bank_plus.jsonl"}
    assert a == b
    assert a["lends_to.csv"] != c["lends_to.csv"] and a["bank_qa.jsonl"] != c["bank_qa.jsonl"]


def test_the_kg_has_about_ten_thousand_triples_over_nine_relations(bank):
    kg = gt.KG(bank.data_root / "data")
    assert len(kg.frames) == 9 and all(len(df) for df in kg.frames.values())
    assert 9_000 <= kg.triples() <= 12_000
    assert (kg.frames["owns_minority"]["share_pct"] < 50).all()
    assert (kg.frames["owns_majority"]["share_pct"] >= 50).all()
    names = set(kg.frames["lends_to"]["bank"]) | set(kg.frames["has_role_in"]["person"])
    assert all(n.split()[0] in ("Bank", "Person") for n in names)  # anonymized


def test_the_ground_truth_shares_nothing_with_the_engine():
    tree = ast.parse((SCENARIO / "ground_truth.py").read_text())
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert not any(m.startswith("vadaorchestra") for m in imported)
    assert {m.split(".")[0] for m in imported} <= {"__future__", "collections", "pathlib", "networkx", "pandas"}


# --- ground truth on a hand-made KG -----------------------------------------------------------------------------------
TINY_OWN = [
    ("Person A", "Company B", 60),   # direct control
    ("Person A", "Company D", 70),
    ("Person A", "Company C", 30),   # 30 + B's 25 = 55: control through joint holdings
    ("Company B", "Company C", 25),
    ("Company B", "Company E", 30),  # 30 + D's 25 = 55: control with no direct stake of A at all
    ("Company D", "Company E", 25),
    ("Person A", "Company F", 30),   # 30 + B's 20 = 50: not more than half, no control
    ("Company B", "Company F", 20),
    ("Company X", "Company Y", 60),  # X and Y control each other: neither is an ultimate controller
    ("Company Y", "Company X", 60),
]


def _tiny(folder: Path) -> Path:
    folder.mkdir()
    rows = {"owns_minority": [r for r in TINY_OWN if r[2] < 50], "owns_majority": [r for r in TINY_OWN if r[2] >= 50],
            "lends_to": [("Bank 1", "Company C", 100), ("Bank 2", "Company E", 50), ("Bank 2", "Company F", 70)],
            "has_role_in": [("Person Q", "Company B", "CEO")]}
    for rel, (file, cols) in gt.RELATIONS.items():
        with (folder / file).open("w", newline="") as fh:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(cols)
            w.writerows(rows.get(rel, []))
    return folder


def test_control_follows_joint_holdings_and_not_a_bare_half(tmp_path):
    kg = gt.KG(_tiny(tmp_path / "kg"))
    assert kg.lookup("control", "Person A") == (["Company B", "Company C", "Company D", "Company E"], 4)
    assert kg.lookup("control", "Company B") == ([], 0)
    assert ("Person A", "Company F") not in gt.control_pairs(TINY_OWN)
    assert kg.lookup("ultimate", "Company E") == (["Person A"], 1)
    assert kg.lookup("control", "Company X") == (["Company Y"], 1)
    assert kg.lookup("ultimate", "Company Y") == ([], 0)  # its only controller is itself controlled
    assert kg.answer("multi-hop", "control>lenders", "Person A") == (["Bank 1", "Bank 2"], 6)
    assert kg.answer("count", "lenders", "Company C") == (1, 1)
    assert kg.answer("multi-hop", "majority>officers", "Person A") == (["Person Q"], 3)


def test_the_engines_control_tools_agree_with_the_ground_truth(tmp_path):
    from vadaorchestra.mcp_server.catalog import Catalog
    from vadaorchestra.mcp_server.workspace import Workspace

    root = tmp_path / "root"
    root.mkdir()
    _tiny(root / "data")
    ws = Workspace(Catalog.load(SCENARIO / "catalog", root), tmp_path / "ws.duckdb")
    try:
        kg = gt.KG(root / "data")
        for who in ("Person A", "Company B", "Company X"):
            ws.invoke("get_controlled_companies", {"controller": who})
        got = sorted(tuple(f.values()) for f in ws.top_k("controlled_company", 100)["facts"])
        assert got == sorted((x, y) for x in ("Person A", "Company B", "Company X") for y in kg.control.get(x, []))
        for company in ("Company E", "Company Y"):
            ws.invoke("get_ultimate_controller", {"company": company})
        facts = ws.top_k("ultimate_controller", 100)["facts"]
        assert [(f["company"], f["ultimate_controller"]) for f in facts] == [("Company E", "Person A")]
    finally:
        ws.remove()


def test_the_derived_relations_on_file_are_the_ground_truths(bank):
    kg = gt.KG(bank.data_root / "data")
    on_file = set(kg.frames["controls"].itertuples(index=False, name=None))
    assert on_file == {(x, y) for x, ys in kg.control.items() for y in ys}
    ult = set(kg.frames["ultimately_controls"].itertuples(index=False, name=None))
    assert ult == {(x, y) for y, xs in kg.ultimate_of.items() for x in xs}


# --- the questions ----------------------------------------------------------------------------------------------------
def test_bank_qa_has_278_questions_of_three_types_with_gold_from_the_ground_truth(bank):
    items = bank.questions()
    assert len(items) == 278 and len({q["id"] for q in items}) == 278
    assert {t: sum(q["type"] == t for q in items) for t in ("generic", "count", "multi-hop")} == \
        {"generic": 120, "count": 88, "multi-hop": 70}
    kg = gt.KG(bank.data_root / "data")
    for q in items:
        assert set(q) >= {"id", "type", "question", "answer", "complexity"}
        assert kg.answer(q["type"], q["template"], q["entity"]) == (q["answer"], q["complexity"])
        assert isinstance(q["answer"], int if q["type"] == "count" else list) and q["entity"] in q["question"]


def test_bank_plus_counts_need_from_one_to_a_thousand_entity_relations():
    items = resolve("bank_plus").questions()
    assert all(q["type"] == "count" and q["answer"] == q["complexity"] for q in items)
    complexities = {q["complexity"] for q in items}
    assert min(complexities) == 1 and max(complexities) == 1000
    assert len([c for c in complexities if c > 100]) >= 5


@pytest.mark.slow
def test_every_question_names_an_entity_its_tools_link_to(bank):
    from vadaorchestra.mcp_server.catalog import Catalog
    from vadaorchestra.mcp_server.workspace import Workspace

    tool = {"roles": "get_roles", "officers": "get_company_roles", "majority": "get_majority_stakes",
            "minority": "get_minority_stakes", "shareholders": "get_shareholders",
            "control": "get_controlled_companies", "ultimate": "get_ultimate_controller", "holdings": "get_holdings",
            "borrowers": "get_bank_lending", "lenders": "get_lenders", "credit_banks": "get_credit_lines",
            "guarantors": "get_guarantors"}
    catalog = Catalog.load(bank.catalog, bank.data_root)
    with tempfile.TemporaryDirectory() as tmp:
        ws = Workspace(catalog, Path(tmp) / "ws.duckdb")
        seen = set()
        for q in bank.questions():
            first = q["template"].split(">")[0]
            if first in seen:
                continue
            seen.add(first)
            name = tool[first]
            param = catalog.get(name).params[0].name
            matches = ws.lookup_values(name, param, q["question"])["matches"]
            assert matches[0] == {"value": q["entity"], "exact": True}, (q["question"], name)
        ws.remove()
    assert seen == set(tool)


# --- exact match ------------------------------------------------------------------------------------------------------
def test_list_answers_match_as_sets_whatever_the_case_order_and_spacing():
    gold = ["Company 0001", "Bank 002"]
    assert exact_match(gold, ["bank  002", "COMPANY 0001"])
    assert exact_match(gold, ["Bank 002", "Company 0001", "bank 002"])
    assert not exact_match(gold, ["Company 0001"])
    assert not exact_match(gold, ["Company 0001", "Bank 002", "Bank 003"])
    assert not exact_match(gold, None)
    assert exact_match([], []) and exact_match([], ["none"])


def test_numbers_match_numerically():
    assert exact_match(12, ["12"]) and exact_match(12, [12]) and exact_match(12, ["12.0"]) and exact_match(1000, ["1,000"])
    assert exact_match(3, ["3 companies."])
    assert not exact_match(3, ["4"]) and not exact_match(3, ["3", "4"]) and not exact_match(3, [])
    assert not exact_match(42, ["Company 0042"])  # a name's id is not a count
    assert as_number(True) is None


def test_a_gold_with_decimals_is_matched_at_its_own_precision_and_a_whole_number_exactly():
    assert exact_match(8.6, ["8.64"]) and exact_match(8.6, [8.6]) and exact_match(12.35, [12.349])
    assert not exact_match(8.6, ["8.66"]) and not exact_match(8.6, ["8.5"])
    assert not exact_match(25, ["25.4"]) and not exact_match(25.0, [24.6])


def test_answer_texts_become_values():
    assert parse_answer("Let me see.\nANSWER: Company 0001; Bank 002.") == ["Company 0001", "Bank 002"]
    assert parse_answer("- Company 0001\n- Company 0002\n(unverified: something)") == ["Company 0001", "Company 0002"]
    assert parse_answer("answer: none") == [] and parse_answer("") == [] and parse_answer(None) == []
    assert read_verdict('{"correct": true}') is True and read_verdict("Incorrect.") is False
    assert read_verdict("no idea") is None


@pytest.mark.anyio
async def test_the_judge_decodes_its_verdict_under_a_schema_where_the_client_can():
    from autogen_ext.models.replay import ReplayChatCompletionClient

    from vadaorchestra.eval.baselines import Judge, Verdict

    info = {"vision": False, "function_calling": False, "json_output": True, "family": "unknown",
            "structured_output": True}
    client = ReplayChatCompletionClient(['{"stated": "Company 0106", "correct": true}'], model_info=info)
    assert await Judge(client).grade("Which companies?", ["Company 0106"], "company: Company 0106.") is True
    call = client.create_calls[0]
    assert call["json_output"] is Verdict and "Gold answer: Company 0106" in call["messages"][1].content
    plain = ReplayChatCompletionClient(["Incorrect."])  # no JSON support: the verdict is read from the text
    assert await Judge(plain).grade("How many?", 3, "2") is False and plain.create_calls[0]["json_output"] is None


def test_summaries_group_by_type_and_complexity():
    records = [{"type": "count", "complexity": 1, "em": True, "judge": None, "seconds": 1.0, "error": None},
               {"type": "count", "complexity": 700, "em": False, "judge": None, "seconds": 3.0, "error": "x"},
               {"type": "generic", "complexity": 3, "em": True, "judge": None, "seconds": 2.0, "error": None}]
    s = summarize(records, dataset="d")
    assert s["n"] == 3 and s["em"] == pytest.approx(2 / 3, abs=1e-4) and s["judge"] is None and s["errors"] == 1
    assert s["by_type"]["count"] == {"n": 2, "em": 0.5, "judge": None}
    assert list(s["by_complexity"]) == ["1", "2-5", "501-1000"] and bucket(1000) == "501-1000"
    assert s["seconds"]["mean"] == 2.0
    assert cumulative_accuracy(records, [1, 10, 1000]) == [(1, 1.0), (10, 1.0), (1000, pytest.approx(2 / 3))]


# --- the harness ------------------------------------------------------------------------------------------------------
@pytest.mark.slow
def test_an_offline_evaluation_writes_records_a_summary_and_both_figures(tmp_path, bank):
    lines = []
    summary = evaluate("bank_qa", "vadaorchestra", limit=5, out_dir=tmp_path, progress=lines.append)
    run = tmp_path / "vadaorchestra--offline"
    records = [json.loads(x) for x in (run / "records.jsonl").read_text().splitlines()]
    assert len(records) == 5 == summary["n"] == len(lines)
    for r, q in zip(records, bank.questions(5), strict=True):
        assert set(r) >= {"id", "type", "complexity", "question", "gold", "predicted", "em", "judge", "seconds", "error"}
        assert r["id"] == q["id"] and r["gold"] == q["answer"] and r["judge"] is None
        assert r["em"] == exact_match(q["answer"], r["predicted"])
    on_disk = json.loads((run / "summary.json").read_text())
    assert on_disk["n"] == 5 and on_disk["approach"] == "vadaorchestra" and set(on_disk["by_type"]) <= \
        {"generic", "count", "multi-hop"}
    for png in ("accuracy_by_approach.png", "accuracy_vs_complexity.png"):
        assert (tmp_path / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_an_evaluation_without_matplotlib_keeps_its_records_and_says_why_there_are_no_figures(tmp_path, monkeypatch):
    # (the [local] extra alone has no matplotlib: the run's records are its result, the figures an extra)
    from vadaorchestra.eval import plots

    monkeypatch.setattr(plots, "available", lambda: False)
    lines = []
    summary = evaluate("cinema_chain", "vadaorchestra", limit=1, out_dir=tmp_path, progress=lines.append)
    assert (tmp_path / "vadaorchestra--offline" / "records.jsonl").is_file() and summary["n"] == 1
    assert summary["files"]["figures"] == [] and any("matplotlib is not installed" in x for x in lines)


class _Stop(Exception):
    pass


@pytest.mark.slow
def test_an_interrupted_evaluation_resumes_where_it_stopped(tmp_path, bank):
    run = tmp_path / "vadaorchestra--offline"

    def stop_after_two(msg, seen=[]):  # noqa: B006 - the list counts the calls of this one run
        seen.append(msg)
        if len(seen) == 2:
            raise _Stop

    with pytest.raises(_Stop):
        evaluate("bank_qa", "vadaorchestra", limit=4, out_dir=tmp_path, progress=stop_after_two)
    assert not (run / "records.jsonl").exists()
    kept = (run / "records.partial.jsonl").read_text().splitlines()
    assert len(kept) == 2
    # a run killed while writing leaves a torn line: it ends what is read, and is not kept
    (run / "records.partial.jsonl").write_text("\n".join(kept) + "\n" + kept[1][:20])
    lines = []
    summary = evaluate("bank_qa", "vadaorchestra", limit=4, out_dir=tmp_path, progress=lines.append)
    assert lines[0].startswith("resuming: 2 of 4 questions")
    assert [x.split()[0] for x in lines[1:]] == ["[3/4]", "[4/4]"]
    records = [json.loads(x) for x in (run / "records.jsonl").read_text().splitlines()]
    assert [r["id"] for r in records] == [q["id"] for q in bank.questions(4)]
    assert records[:2] == [json.loads(x) for x in kept] and summary["n"] == 4
    assert not (run / "records.partial.jsonl").exists() and not (run / "run.json").exists()


@pytest.mark.slow
def test_partial_records_of_other_settings_are_set_aside(tmp_path):
    run = tmp_path / "vadaorchestra--offline"
    with pytest.raises(_Stop):
        evaluate("bank_qa", "vadaorchestra", limit=3, out_dir=tmp_path, progress=lambda _m: (_ for _ in ()).throw(_Stop))
    lines = []
    evaluate("bank_qa", "vadaorchestra", limit=2, out_dir=tmp_path, progress=lines.append)
    assert "set aside" in lines[0] and len(lines) == 3
    assert len((run / "records.partial.jsonl.old").read_text().splitlines()) == 1


@pytest.mark.parametrize("approach", ["llm-only", "rag", "rag-1000", "llm-mcp"])
def test_a_baseline_without_a_model_says_so_plainly(tmp_path, capsys, approach):
    name = approach.split("-1")[0]
    with pytest.raises(EvalError, match=f"approach {name} needs a model: pass --model local, --model CONFIG"):
        evaluate("bank_qa", approach, limit=1, out_dir=tmp_path)
    assert run_eval("bank_qa", approach, None, None, 1, tmp_path) == 1
    assert f"approach {name} needs a model: pass --model local, --model CONFIG" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


def test_unknown_datasets_and_approaches_are_refused(tmp_path):
    with pytest.raises(EvalError, match="unknown dataset 'nope'; datasets: .*bank_plus, bank_plus_reworded, bank_qa, "):
        evaluate("nope", out_dir=tmp_path)
    with pytest.raises(EvalError, match="unknown approach 'magic'"):
        evaluate("bank_qa", "magic", model=tmp_path / "m.json", out_dir=tmp_path)


@pytest.mark.slow
def test_rag_retrieves_the_facts_of_the_entity_and_answers_on_a_replay_model(tmp_path, bank):
    config = tmp_path / "replay.json"
    q = next(q for q in bank.questions() if q["type"] == "count")
    config.write_text(json.dumps({"provider": "autogen_ext.models.replay.ReplayChatCompletionClient",
                                  "config": {"chat_completions": [f"Counting.\nANSWER: {q['answer']}"]}}))
    rag = RAG(bank, object(), k=10)
    import anyio

    anyio.run(rag.__aenter__)
    facts = rag.retrieve(q["question"])
    assert len(facts) == 10 and q["entity"] in facts[0]
    summary = evaluate("bank_qa", "rag-10", model=config, limit=1, out_dir=tmp_path / "out")
    assert summary["label"] == "rag-10--replay" and summary["n"] == 1
    assert summary["em"] == (1.0 if bank.questions(1)[0]["answer"] == q["answer"] else 0.0)


def test_llm_with_mcp_calls_the_catalogs_tools_through_one_assistant(bank):
    import anyio
    from autogen_core import FunctionCall
    from autogen_core.models import CreateResult, RequestUsage
    from autogen_ext.models.replay import ReplayChatCompletionClient

    q = next(q for q in bank.questions() if q["template"] == "roles" and q["type"] == "generic")
    call = CreateResult(finish_reason="function_calls", usage=RequestUsage(prompt_tokens=0, completion_tokens=0),
                        cached=False, content=[FunctionCall(id="1", name="get_roles",
                                                            arguments=json.dumps({"person": q["entity"]}))])
    client = ReplayChatCompletionClient([call, "ANSWER: " + "; ".join(q["answer"])],
                                        model_info={"function_calling": True, "vision": False,
                                                    "json_output": False, "family": "unknown",
                                                    "structured_output": False})

    async def go():
        async with LLMWithMCP(bank, client) as approach:
            return await approach.answer(q["question"])

    pred = anyio.run(go)
    assert pred.extra["tool_calls"] == 1 and exact_match(q["answer"], pred.values)


@pytest.mark.slow
def test_a_sample_is_stratified_seeded_the_same_for_every_approach_and_recorded(tmp_path, bank):
    from collections import Counter

    from vadaorchestra.eval.datasets import resolve

    ds = resolve("bank_qa")
    sample = ds.sample(12, seed=3)
    assert sample == ds.sample(12, seed=3) and sample != ds.sample(12, seed=4)
    assert Counter(q["type"] for q in sample) == {"generic": 4, "count": 4, "multi-hop": 4}
    assert len({(q["type"], q["template"]) for q in sample}) == 12  # one question per template, in each type
    plus = resolve("bank_plus").sample(8, seed=0)
    assert len({q["complexity"] for q in plus}) >= 6  # spread over the complexity range
    summary = evaluate("bank_qa", "vadaorchestra", sample=3, seed=3, out_dir=tmp_path)
    assert summary["sample"] == {"n": 3, "seed": 3, "ids": [q["id"] for q in ds.sample(3, seed=3)]}
    with pytest.raises(EvalError, match="not both"):
        evaluate("bank_qa", "vadaorchestra", sample=3, limit=2, out_dir=tmp_path)


@pytest.mark.skipif(not __import__("vadaorchestra.datalog.engines", fromlist=["x"]).souffle_available(),
                    reason="the 'souffle' binary is not on PATH")
@pytest.mark.slow
def test_a_multi_hop_trace_replays_with_the_same_facts_on_both_engines(tmp_path):
    from vadaorchestra.agents.run import ask_sync
    from vadaorchestra.audit.engines import verify_engines

    root = tmp_path / "root"
    root.mkdir()
    _tiny(root / "data")
    question = "Which banks lend to the companies controlled by Person A?"
    result = ask_sync(question, catalog=SCENARIO / "catalog", data=root, trace=tmp_path / "trace.dl")
    assert result.verified and "Bank 1" in result.answer and "Bank 2" in result.answer, result.answer
    reports, differences, notes = verify_engines(tmp_path / "trace.dl")
    assert [r.engine for r in reports] == ["duckdb", "souffle"] and all(r.ok for r in reports)
    assert differences == [] and reports[0].final and reports[0].final == reports[1].final


def test_a_question_no_tool_answers_is_right_only_when_refused():
    from vadaorchestra.eval.metrics import right

    assert right(None, [], "could not answer")
    assert not right(None, ["Company 0001"], "answer_values")
    assert not right(["Company 0001"], [], "could not answer")
    assert not right([], [], "could not answer")


def test_a_question_of_two_parts_is_right_only_when_each_part_is():
    from vadaorchestra.eval.metrics import right

    gold = {"parts": [["DeepLogic Ltd", "NeuralLinker SpA"], ["Synthetix Global Fund"]]}
    assert right(gold, [], "answer_values", [["NeuralLinker SpA", "DeepLogic Ltd"], ["Synthetix Global Fund"]])
    assert not right(gold, ["DeepLogic Ltd", "NeuralLinker SpA"], "answer_values", None)  # half of it answered
    assert not right(gold, [], "answer_values", [["DeepLogic Ltd", "NeuralLinker SpA"], []])


def test_every_dataset_folder_is_read_by_the_one_loader(tmp_path, monkeypatch):
    from vadaorchestra.eval.datasets import available, resolve

    folder = tmp_path / "scenarios" / "tiny"
    (folder / "catalog").mkdir(parents=True)
    (folder / "generate.py").write_text(
        "from pathlib import Path\n"
        "def write(folder: Path) -> None:\n"
        "    (folder / 'data').mkdir(exist_ok=True)\n"
        "    (folder / 'data' / 't.csv').write_text('a,b\\nx,1\\n')\n"
        "    (folder / 'data' / 'q.jsonl').write_text('{\"id\": \"t1\", \"question\": \"Q?\", \"answer\": 1}\\n')\n")
    (folder / "dataset.yaml").write_text(
        "sets:\n  tiny:\n    questions: data/q.jsonl\n    description: one question\n"
        "generate: generate.py\nsentences:\n  data/t.csv: '{a} has {b}.'\n")
    monkeypatch.setenv("VADA_SCENARIOS", str(tmp_path / "scenarios"))
    assert list(available()) == ["tiny"]
    ds = resolve("tiny")  # generated on first use
    assert [q["id"] for q in ds.questions()] == ["t1"] and ds.facts() == ["x has 1."]
    assert ds.catalog == folder / "catalog" and ds.data_root == folder
    (folder / "dataset.yaml").write_text("sets: {tiny: {}}\n")
    with pytest.raises(EvalError, match=r"dataset.yaml: set 'tiny' needs 'questions'"):
        resolve("tiny")


def test_a_yes_no_question_is_right_when_the_answer_says_the_same_yes_or_no():
    from vadaorchestra.eval.metrics import right

    # the offline policy's yes/no: the things over the limit as values, the answer's yes beside them
    assert right(True, ["Leeds Briggate"], "answer_values", yes=True)
    assert not right(True, ["Leeds Briggate"], "answer_values", yes=False)
    assert right(False, [], "answer_values", yes=False)
    assert not right(False, [], "answer_values")  # no yes/no given: an empty list is no "no"
    assert right(False, ["No"], "answer_values") and not right(True, ["No"], "answer_values")
    assert not right(True, [], "could not answer", yes=True)
