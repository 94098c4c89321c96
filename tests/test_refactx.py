"""ReFactX: the prefix tree over fact lines, the constrained greedy decoder under scripted scores (only tree paths,
the stop choice, the max_facts bound, no fact twice), the approach end to end on a fake model, its refusal of a
client without logits, and one real decode with llama.cpp when the local model is here."""

from __future__ import annotations

import re
import threading

import anyio
import numpy as np
import pytest

from vadaorchestra.eval.baselines import make, parse_approach, render
from vadaorchestra.eval.datasets import EvalError, resolve
from vadaorchestra.eval.harness import run_label
from vadaorchestra.eval.refactx import (
    ROOT,
    STOP_MARKER,
    PrefixTree,
    ReFactX,
    decode,
    fact_line,
    tokenize_lines,
)

# --- a tiny tokenizer: a token per word with its leading space, per "Fact:"/"ANSWER:", per newline ----------------
VOCAB = ["\n", "Fact:", " Ann", " Bob", " owns", " chairs", " Bolt.", " Cog.", " Dyn.", "ANSWER:", " Zed", " 2",
         "<end>", "Question:", " Who?"]
ID = {w: i for i, w in enumerate(VOCAB)}
FACTS = ["Ann owns Bolt.", "Ann owns Cog.", "Bob owns Cog.", "Bob chairs Dyn."]


def tokenize(text: str) -> list[int]:
    return [ID[w] for w in re.findall(r"\n| ?[^\s]+", text)]


def detokenize(ids) -> str:
    return "".join(VOCAB[i] for i in ids)


LINES = tokenize_lines([fact_line(f) for f in FACTS], tokenize)
STOP = tokenize_lines([STOP_MARKER], tokenize)[0]
PROMPT = tokenize("Question: Who?\n")
END = {ID["<end>"]}


class Scripted:
    """Scores from ``rule(generated words) -> {word: score}``; every other token scores 0. Records what it is fed."""

    def __init__(self, rule):
        self.rule = rule
        self.context: list[int] = []
        self.prompt = 0
        self.feeds: list[list[str]] = []

    def _scores(self) -> np.ndarray:
        scores = np.zeros(len(VOCAB), dtype=np.float32)
        for word, value in self.rule([VOCAB[t] for t in self.context[self.prompt:]]).items():
            scores[ID[word]] = value
        return scores

    def start(self, prompt):
        self.context, self.prompt = list(prompt), len(prompt)
        self.feeds.append([VOCAB[t] for t in prompt])
        return self._scores()

    def feed(self, tokens):
        self.context += list(tokens)
        self.feeds.append([VOCAB[t] for t in tokens])
        return self._scores()


def run(rule, **options):
    source = Scripted(rule)
    decoded = decode(source, PROMPT, PrefixTree(LINES), stop=STOP, end=END, detokenize=detokenize, **options)
    return decoded, source


# --- the tree -----------------------------------------------------------------------------------------------------------
def test_a_fact_line_is_tokenized_after_a_newline_without_the_newline_s_tokens():
    assert LINES[0] == [ID["Fact:"], ID[" Ann"], ID[" owns"], ID[" Bolt."], ID["\n"]]
    assert STOP == [ID["ANSWER:"]]
    assert fact_line("A  b\nc.") == "Fact: A b c.\n"


def test_tokenizing_lines_refuses_a_lead_that_merges_with_the_line():
    def merging(text: str) -> list[int]:  # "\nF" is one token
        return [ord(c) for c in text.replace("\nF", "\x01")]

    with pytest.raises(ValueError, match="does not tokenize apart"):
        tokenize_lines(["Fact"], merging)


def test_the_tree_over_four_facts_has_the_root_and_one_node_per_distinct_prefix():
    tree = PrefixTree(LINES)
    stats = tree.stats()
    assert (stats["facts"], stats["duplicates"], stats["tokens"], stats["nodes"], stats["max_depth"]) == (4, 0, 20, 15, 5)
    assert stats["memory_mib"] >= 0 and stats["build_seconds"] >= 0 and "build_peak_mib" not in stats
    assert len(tree) == 4


def test_the_tree_allows_only_the_tokens_that_continue_a_fact():
    tree = PrefixTree(LINES)
    assert tree.allowed([]) == [ID["Fact:"]]
    assert tree.allowed(tokenize("Fact:")) == [ID[" Ann"], ID[" Bob"]]
    assert tree.allowed(tokenize("Fact: Bob")) == [ID[" owns"], ID[" chairs"]]
    assert tree.allowed(tokenize("Fact: Ann owns")) == [ID[" Bolt."], ID[" Cog."]]
    assert tree.allowed(tokenize("Fact: Ann chairs")) == []  # off the tree
    assert tree.allowed(LINES[3]) == []  # after a complete fact


def test_the_tree_knows_its_complete_facts_and_their_indices():
    tree = PrefixTree(LINES)
    assert [tree.is_fact(line) for line in LINES] == [True] * 4
    assert not tree.is_fact(LINES[0][:-1]) and not tree.is_fact([]) and not tree.is_fact(tokenize("Fact: Zed"))
    assert [int(tree.fact[tree.walk(line)]) for line in LINES] == [0, 1, 2, 3]
    assert [tree.sequence(tree.walk(line)) for line in LINES] == LINES
    assert tree.children(ROOT)[0].tolist() == [ID["Fact:"]]


def test_equal_sequences_are_one_fact_and_a_proper_prefix_is_refused():
    tree = PrefixTree([[5, 6], [5, 7], [5, 6]])
    assert (len(tree), tree.stats()["duplicates"], tree.stats()["nodes"]) == (2, 1, 4)
    assert int(tree.fact[tree.walk([5, 6])]) == 0  # the first of the equal ones
    with pytest.raises(ValueError, match="proper prefix"):
        PrefixTree([[1, 2, 3], [1, 2]])
    with pytest.raises(ValueError, match="empty"):
        PrefixTree([[1], []])


def test_the_tree_traces_its_build_memory_when_asked():
    stats = PrefixTree(LINES * 50, trace_memory=True).stats()
    assert stats["duplicates"] == 196 and stats["build_peak_mib"] > 0


# --- the decoder --------------------------------------------------------------------------------------------------------
def test_only_tree_paths_are_emitted_even_when_the_model_prefers_an_off_tree_token():
    def rule(words):
        if "ANSWER:" in words:  # the free answer: " Zed", then the end of the line
            return {" Zed": 10} if words[-1] == "ANSWER:" else {"\n": 10}
        return {" Zed": 10, " Bob": 2, " chairs": 1, "ANSWER:": 3}

    decoded, source = run(rule)
    assert decoded.facts == (3,) and decoded.stopped == "model"
    assert decoded.fact_tokens == tuple(LINES[3]) and ID[" Zed"] not in decoded.fact_tokens
    assert decoded.text == "Fact: Bob chairs Dyn.\nANSWER: Zed"
    # forced tokens wait for the next choice and go in one batch
    assert source.feeds[1:] == [["Fact:"], [" Bob"], [" chairs", " Dyn.", "\n"], ["ANSWER:"], [" Zed"]]
    assert (decoded.prompt_tokens, decoded.completion_tokens, decoded.forced_tokens) == (3, 8, 3)


def test_after_each_fact_the_model_chooses_another_fact_or_the_stop_marker():
    def rule(words):
        if "ANSWER:" in words:
            return {" 2": 5} if words[-1] == "ANSWER:" else {"<end>": 5}
        return {"Fact:": 1 if words.count("\n") < 2 else 0, "ANSWER:": 0.5, " Ann": 1, " Cog.": 1}

    decoded, _ = run(rule)
    assert decoded.facts == (1, 0) and decoded.stopped == "model"
    assert decoded.text == "Fact: Ann owns Cog.\nFact: Ann owns Bolt.\nANSWER: 2"
    assert decoded.answer_tokens == (ID["ANSWER:"], ID[" 2"])  # the end token is not part of the reply


def test_no_more_than_max_facts_are_stated_and_the_stop_marker_is_then_placed():
    def rule(words):
        if "ANSWER:" in words:
            return {"<end>": 5}
        return {"Fact:": 1, "ANSWER:": -1, " Bob": 1, " owns": 1}

    decoded, _ = run(rule, max_facts=3)
    # ties (" Bolt." against " Cog.") go to the lowest token id
    assert decoded.facts == (2, 3, 0) and decoded.stopped == "max_facts"
    assert decoded.text == "Fact: Bob owns Cog.\nFact: Bob chairs Dyn.\nFact: Ann owns Bolt.\nANSWER:"
    assert decoded.answer_tokens == (ID["ANSWER:"],)


def test_a_fact_is_never_stated_twice_the_next_best_is_stated_until_none_is_left():
    def rule(words):  # the model would state "Ann owns Bolt." forever
        if "ANSWER:" in words:
            return {" Ann": 5} if words[-1] == "ANSWER:" else {"<end>": 5}
        return {"Fact:": 1, "ANSWER:": -1, " Ann": 1, " Bolt.": 1}

    decoded, _ = run(rule, max_facts=10)
    assert decoded.facts == (0, 1, 2, 3) and decoded.stopped == "exhausted"
    lines = decoded.text.split("\n")
    assert lines == ["Fact: Ann owns Bolt.", "Fact: Ann owns Cog.", "Fact: Bob owns Cog.", "Fact: Bob chairs Dyn.",
                     "ANSWER: Ann"]
    assert len(set(lines)) == len(lines)


def test_the_answer_stops_at_max_answer_tokens_and_keeps_only_its_first_line():
    decoded, _ = run(lambda words: {" Zed": 3} if "ANSWER:" in words else {"ANSWER:": 9}, max_answer_tokens=4)
    assert decoded.answer_tokens == (ID["ANSWER:"],) + (ID[" Zed"],) * 4
    assert decoded.text.endswith("\nANSWER: Zed Zed Zed Zed")

    def blank_first(words):  # "ANSWER:" then a newline before the names: the names' line is the answer
        if "ANSWER:" not in words:
            return {"ANSWER:": 9}
        return {"\n": 5} if words[-1] == "ANSWER:" else ({" Ann": 5} if words[-1] == "\n" else {"\n": 6})

    decoded, _ = run(blank_first)
    assert decoded.text.endswith("ANSWER:\n Ann")


def test_the_decoder_refuses_a_stop_marker_that_starts_a_fact_and_a_zero_bound():
    tree = PrefixTree(LINES)
    with pytest.raises(ValueError, match="also starts a fact"):
        decode(Scripted(lambda w: {}), PROMPT, tree, stop=[ID["Fact:"]], end=END, detokenize=detokenize)
    with pytest.raises(ValueError, match="max_facts"):
        decode(Scripted(lambda w: {}), PROMPT, tree, stop=STOP, end=END, detokenize=detokenize, max_facts=0)


def test_a_cancelled_decode_stops_at_its_next_token():
    with pytest.raises(EvalError, match="cancelled"):
        run(lambda w: {}, cancelled=lambda: True)


# --- the approach -------------------------------------------------------------------------------------------------------
class FakeModel:
    """The LlamaModel surface over the tiny tokenizer and a scripted source."""

    end = END

    def __init__(self, rule):
        self.rule = rule
        self.prompts: list[str] = []

    tokenize = staticmethod(tokenize)
    detokenize = staticmethod(detokenize)

    def chat_prompt(self, system: str, user: str) -> list[int]:
        self.prompts.append(system + "|" + user)
        return PROMPT

    def logits(self):
        return Scripted(self.rule)


class FakeFacts:
    name = "tiny"

    def facts(self) -> list[str]:
        return list(FACTS)


def _fake_local_client():
    from vadaorchestra.agents.models import LocalLlamaClient

    client = LocalLlamaClient.__new__(LocalLlamaClient)  # no GGUF loaded: the approach reaches llama.cpp via .model
    client.lock = threading.Lock()
    client.llm = None
    return client


def test_refactx_answers_from_the_facts_it_stated_and_reports_tokens_and_the_tree():
    def rule(words):
        if "ANSWER:" in words:
            return {" Bob": 5} if words[-1] == "ANSWER:" else {"\n": 5}
        return {" Bob": 1, " chairs": 1, "ANSWER:": 2}

    approach = make("refactx", FakeFacts(), _fake_local_client())
    assert isinstance(approach, ReFactX) and approach.name == "refactx"
    approach.model = FakeModel(rule)

    async def go():
        async with approach:
            return await approach.answer("Who chairs Dyn?")

    pred = anyio.run(go)
    assert pred.text == "Fact: Bob chairs Dyn.\nANSWER: Bob" and pred.values == ["Bob"] and pred.source == "text"
    extra = pred.extra
    assert extra["facts"] == ["Bob chairs Dyn."] and extra["stopped"] == "model"
    assert extra["tokens"] == {"prompt_tokens": 3, "completion_tokens": 8}
    assert (extra["tree"]["nodes"], extra["tree"]["facts"], extra["tree"]["tokens"]) == (15, 4, 20)
    assert "tokenize_seconds" in extra["tree"] and "build_seconds" in extra["tree"]
    system, user = approach.model.prompts[0].split("|")
    assert system == render("refactx", "system", fact_prefix="Fact:") and user == "Question: Who chairs Dyn?"
    assert '"Fact:"' in system and "ANSWER:" in system


def test_refactx_with_a_client_that_is_not_llama_cpp_stops_before_any_question():
    from autogen_ext.models.replay import ReplayChatCompletionClient

    ds = resolve("bank_qa")
    with pytest.raises(EvalError, match=r"refactx needs a llama\.cpp model \(--model local or --model-path "
                                        r"FILE\.gguf\).*logits.*ReplayChatCompletionClient"):
        make("refactx", ds, ReplayChatCompletionClient(["ANSWER: 1"]))
    with pytest.raises(EvalError, match="approach refactx needs a model"):
        make("refactx", ds, None)


def test_an_evaluation_of_refactx_on_a_replay_model_stops_before_its_first_question(tmp_path):
    import json

    from vadaorchestra.eval import evaluate

    config = tmp_path / "replay.json"
    config.write_text(json.dumps({"provider": "autogen_ext.models.replay.ReplayChatCompletionClient",
                                  "config": {"chat_completions": ["ANSWER: 1"]}}))
    with pytest.raises(EvalError, match=r"refactx needs a llama\.cpp model"):
        evaluate("bank_qa", "refactx", model=config, limit=1, out_dir=tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_refactx_is_an_approach_by_name_with_its_run_label():
    assert parse_approach("refactx") == ("refactx", None)
    assert run_label("refactx", "local") == "refactx--local"
    assert run_label("refactx", None, "/m/qwen.gguf") == "refactx--qwen"


# --- the real model -----------------------------------------------------------------------------------------------------
def _llama_missing() -> str | None:
    try:
        import llama_cpp  # noqa: F401
    except ImportError:
        return "llama-cpp-python is not installed (pip install -e '.[local]')"
    from vadaorchestra.agents.models import installed_path

    if installed_path() is None:
        return "the local model is not installed (vadaorchestra models install)"
    return None


@pytest.mark.slow
@pytest.mark.skipif(_llama_missing() is not None, reason=_llama_missing() or "")
def test_the_real_model_states_one_of_the_tree_s_facts_under_the_constraint():
    from llama_cpp import Llama

    from vadaorchestra.agents.models import installed_path
    from vadaorchestra.eval.refactx import LlamaModel

    facts = ["Person 0002 has the role CEO in Company 0313.", "Person 0002 has the role Chair in Company 0385.",
             "Person 0007 owns 60% of Company 0313.", "Company 0313 has a credit line from Bank 04.",
             "Bank 04 lends 500000 to Company 0385.", "Person 0011 has the role Auditor in Company 0313."]
    llm = Llama(str(installed_path()), n_ctx=512, n_threads=1, n_threads_batch=1, verbose=False)
    try:
        model = LlamaModel(llm)
        lines = tokenize_lines([fact_line(f) for f in facts], model.tokenize)
        tree = PrefixTree(lines)
        stop = tokenize_lines([STOP_MARKER], model.tokenize)[0]
        prompt = model.chat_prompt(render("refactx", "system", fact_prefix="Fact:"),
                                   render("refactx", "user", question="What is the role of Person 0002 in Company "
                                                                      "0313?"))
        source = model.logits()
        decoded = decode(source, prompt, tree, stop=stop, end=model.end, detokenize=model.detokenize, max_facts=1,
                         max_answer_tokens=12)
        (index,) = decoded.facts
        assert decoded.fact_tokens == tuple(lines[index]) and decoded.stopped == "max_facts"
        assert decoded.text.startswith(f"Fact: {facts[index]}\nANSWER:"), decoded.text
        assert source.reused == 0 and source.evaluated >= len(prompt)
        again = model.logits()  # a second question with the same prompt reuses llama.cpp's KV cache
        again.start(prompt)
        assert again.reused == len(prompt) - 1 and again.evaluated == 1
    finally:
        llm.close()
