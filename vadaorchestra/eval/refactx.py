"""The ReFactX baseline (Pozzi et al. 2025): the model states facts it can only state if the graph holds them.

The knowledge graph, verbalized one triple per sentence (the sentences RAG retrieves from), becomes a prefix tree over
the *token ids* of its fact lines. The model's reply is decoded greedily in two parts:

1. Facts. Each line is a path of the tree from its root to a complete fact: at every step the model's next-token
   scores are read only at the tokens the tree allows (argmax over those), so an off-tree token is never emitted,
   however much the model prefers it. After each complete fact the model chooses between the tree's root tokens
   (another fact) and the first token of the stop marker ``ANSWER:``. The first fact is not optional; at most
   ``max_facts`` facts are stated.
2. The answer: after the stop marker (the model's choice, or placed when ``max_facts`` facts are stated or none is
   left), an unconstrained greedy completion over the prompt and the stated facts, up to the end of the ``ANSWER:``
   line (the shared ``answer_format`` asks for that line).

Design choices:

- Fact lines. Every fact is written as the line ``Fact: <sentence>`` ending with ``"\\n"``; the tree holds whole
  lines, so its root is the token of ``Fact`` and the stop choice is "another ``Fact`` line" against ``ANSWER``.
  The newline ends every fact, so no fact is a proper prefix of another (the tree refuses one that is).
- Tokenization in context. BPE merges across characters, so a fact must be tokenized exactly as it will stand in
  the reply: each line is tokenized after the same leading ``"\\n"`` (the chat template's assistant header ends with
  a newline, and each fact line ends with one), whose tokens are then cut off (:func:`tokenize_lines` checks that
  they are a prefix). With Qwen's byte-level BPE a line's final full stop and newline are one token (``".\\n"``),
  which is why the newline is tokenized with the sentence and not appended as a separate token. Checked on bank_qa:
  the assistant header, all 10.9k fact lines and ``ANSWER:`` in one text tokenize as the pieces one by one.
- Duplicates are *excluded*, not a reason to stop: a stated fact is taken out of the tree for the rest of the reply
  (a node stays open while a subtree fact is still unstated), so a model that would repeat a fact states its next
  best one instead, or stops. When every fact is stated the decoder stops (``stopped == "exhausted"``).
- Tokens with a single open child are placed without asking the model (argmax over one token), and fed to llama.cpp
  in one batch at the next choice: most of a fact's tail is forced once its entities are chosen.
- Ties go to the lowest token id, a fact before the stop marker.

:class:`PrefixTree` and :func:`decode` know nothing of llama.cpp (tested with a fake tokenizer and scripted scores);
:class:`LlamaModel` and :class:`LlamaLogits` are the llama.cpp side; :class:`ReFactX` the approach.
"""

from __future__ import annotations

import asyncio
import threading
import time
import tracemalloc
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import numpy as np

from vadaorchestra.eval.baselines import Approach, Prediction, render
from vadaorchestra.eval.datasets import Dataset, EvalError
from vadaorchestra.eval.metrics import parse_answer

ROOT = 0
FACT_PREFIX = "Fact:"
STOP_MARKER = "ANSWER:"
LINE_LEAD = "\n"
MAX_FACTS = 10
MAX_ANSWER_TOKENS = 64

Stopped = Literal["model", "max_facts", "exhausted"]


def fact_line(fact: str) -> str:
    """The line a fact is written as in the reply (one line: newlines inside a fact become spaces)."""
    return f"{FACT_PREFIX} {' '.join(fact.split())}\n"


def tokenize_lines(texts: Sequence[str], tokenize: Callable[[str], list[int]], lead: str = LINE_LEAD) -> list[list[int]]:
    """Each text's token ids as they stand after ``lead``: ``tokenize(lead + text)`` without the tokens of ``lead``.

    Raises ValueError when ``lead`` does not tokenize apart from a text (its tokens are not a prefix of the line's).
    """
    head = tokenize(lead)
    out = []
    for text in texts:
        ids = tokenize(lead + text)
        if ids[: len(head)] != head:
            raise ValueError(f"{lead!r} does not tokenize apart from {text!r}: {ids[: len(head)]} != {head}")
        out.append(ids[len(head):])
    return out


class PrefixTree:
    """A trie over token-id sequences, stored as flat int32 arrays (about 28 bytes a node).

    Nodes are numbered in preorder of the sorted sequences, the root is 0. ``first_child[n]:first_child[n+1]`` is the
    slice of ``child_token``/``child_node`` holding node ``n``'s children, in increasing token order; ``fact[n]`` is
    the index (in the input) of the sequence ending at ``n``, or -1; ``leaves[n]`` how many sequences end in ``n``'s
    subtree. Equal sequences are one fact (the first one's index); a sequence that is a proper prefix of another is
    refused (end every sequence with an end-of-fact marker).
    """

    def __init__(self, sequences: Sequence[Sequence[int]], *, trace_memory: bool = False):
        tracing = trace_memory and not tracemalloc.is_tracing()
        if tracing:
            tracemalloc.start()
        started = time.perf_counter()
        try:
            self._build(sequences)
        finally:
            seconds = time.perf_counter() - started
            peak = tracemalloc.get_traced_memory()[1] if tracing else None
            if tracing:
                tracemalloc.stop()
        arrays = (self.parent, self.token, self.fact, self.leaves, self.first_child, self.child_node, self.child_token)
        self._stats: dict[str, Any] = {
            "facts": int(self.leaves[ROOT]), "duplicates": self._duplicates, "tokens": self._tokens,
            "nodes": len(self.parent), "max_depth": self._depth, "build_seconds": round(seconds, 3),
            "memory_mib": round(sum(a.nbytes for a in arrays) / 2**20, 2)}
        if peak is not None:
            self._stats["build_peak_mib"] = round(peak / 2**20, 2)

    def _build(self, sequences: Sequence[Sequence[int]]) -> None:
        keyed = sorted((tuple(int(t) for t in s), i) for i, s in enumerate(sequences))
        parent, token, fact = [-1], [-1], [-1]
        path = [ROOT]  # path[d]: the node at depth d of the previous sequence
        prev: tuple[int, ...] = ()
        prev_index = -1
        duplicates = tokens = depth = 0
        for seq, index in keyed:
            if not seq:
                raise ValueError(f"sequence {index} is empty")
            common = 0
            for a, b in zip(prev, seq, strict=False):
                if a != b:
                    break
                common += 1
            if common == len(seq):  # sorted: equal to the previous one (a proper prefix would sort before it)
                duplicates += 1
                continue
            if prev and common == len(prev):
                raise ValueError(f"sequence {prev_index} is a proper prefix of sequence {index}: end every "
                                 f"sequence with an end-of-fact marker")
            del path[common + 1:]
            for t in seq[common:]:
                parent.append(path[-1])
                token.append(t)
                fact.append(-1)
                path.append(len(parent) - 1)
            fact[path[-1]] = index
            tokens += len(seq)
            depth = max(depth, len(seq))
            prev, prev_index = seq, index
        leaves = [int(f >= 0) for f in fact]
        for node in range(len(parent) - 1, 0, -1):  # preorder: a child's number is above its parent's
            leaves[parent[node]] += leaves[node]
        self.parent = np.array(parent, dtype=np.int32)
        self.token = np.array(token, dtype=np.int32)
        self.fact = np.array(fact, dtype=np.int32)
        self.leaves = np.array(leaves, dtype=np.int32)
        self.child_node = (np.argsort(self.parent[1:], kind="stable") + 1).astype(np.int32)
        self.child_token = self.token[self.child_node]
        self.first_child = np.zeros(len(parent) + 1, dtype=np.int32)
        np.cumsum(np.bincount(self.parent[1:], minlength=len(parent)), out=self.first_child[1:])
        self._duplicates, self._tokens, self._depth = duplicates, tokens, depth

    def __len__(self) -> int:
        return int(self.leaves[ROOT])

    def stats(self) -> dict[str, Any]:
        """facts, duplicates, tokens (over the distinct facts), nodes, max_depth, build_seconds, memory_mib (the
        arrays' bytes) and, when built with ``trace_memory``, build_peak_mib (tracemalloc's peak while building)."""
        return dict(self._stats)

    def children(self, node: int) -> tuple[np.ndarray, np.ndarray]:
        """Node ``node``'s child tokens (increasing) and child nodes."""
        s, e = self.first_child[node], self.first_child[node + 1]
        return self.child_token[s:e], self.child_node[s:e]

    def step(self, node: int, token: int) -> int | None:
        """The child of ``node`` along ``token``, or None."""
        tokens, nodes = self.children(node)
        i = int(np.searchsorted(tokens, token))
        return int(nodes[i]) if i < len(tokens) and tokens[i] == token else None

    def walk(self, prefix: Sequence[int]) -> int | None:
        """The node ``prefix`` leads to from the root, or None when it is no path of the tree."""
        node: int | None = ROOT
        for t in prefix:
            node = self.step(node, t)
            if node is None:
                return None
        return node

    def allowed(self, prefix: Sequence[int]) -> list[int]:
        """The tokens that may follow ``prefix`` (none after a complete fact or off the tree)."""
        node = self.walk(prefix)
        return [] if node is None else self.children(node)[0].tolist()

    def is_fact(self, prefix: Sequence[int]) -> bool:
        """Is ``prefix`` a complete fact of the tree?"""
        node = self.walk(prefix)
        return node is not None and self.fact[node] >= 0

    def sequence(self, node: int) -> list[int]:
        """The tokens from the root to ``node``."""
        out = []
        while node != ROOT:
            out.append(int(self.token[node]))
            node = int(self.parent[node])
        return out[::-1]


# --- decoding ---------------------------------------------------------------------------------------------------------
class LogitsSource(Protocol):
    """A model's next-token scores over one growing context."""

    def start(self, prompt: Sequence[int]) -> np.ndarray:
        """Make ``prompt`` the context; the scores of the token after it (a 1-D array over the vocabulary)."""
        ...

    def feed(self, tokens: Sequence[int]) -> np.ndarray:
        """Append ``tokens`` to the context; the scores of the token after them."""
        ...


class DecodeCancelled(EvalError):
    """The question's time ran out while decoding."""


@dataclass(frozen=True, slots=True)
class Decoded:
    facts: tuple[int, ...]  # the tree's fact indices, in the order stated
    fact_tokens: tuple[int, ...]  # the fact lines
    answer_tokens: tuple[int, ...]  # the stop marker and the free completion (no end-of-generation token)
    text: str  # the fact lines and the ANSWER line
    stopped: Stopped  # who ended the facts: the model, the max_facts bound, or no fact left
    prompt_tokens: int
    forced_tokens: int  # placed without a choice: a single open child, the stop marker

    @property
    def completion_tokens(self) -> int:
        return len(self.fact_tokens) + len(self.answer_tokens)


def decode(source: LogitsSource, prompt: Sequence[int], tree: PrefixTree, *, stop: Sequence[int],
           end: Container[int], detokenize: Callable[[Sequence[int]], str], max_facts: int = MAX_FACTS,
           max_answer_tokens: int = MAX_ANSWER_TOKENS, cancelled: Callable[[], bool] | None = None) -> Decoded:
    """Greedy ReFactX decoding after ``prompt``: fact lines constrained to ``tree``, then the stop marker ``stop``
    and a free completion up to the end of its line (or a token in ``end``, or ``max_answer_tokens``)."""
    if max_facts < 1:
        raise ValueError(f"max_facts must be at least 1, not {max_facts}")
    if not stop:
        raise ValueError("the stop marker has no tokens")
    if len(tree) == 0:
        raise ValueError("the prefix tree holds no facts")
    if tree.step(ROOT, stop[0]) is not None:
        raise ValueError(f"the stop marker's first token {stop[0]} also starts a fact")
    remaining = tree.leaves.copy()  # unstated facts under each node
    scores = source.start(list(prompt))
    pending: list[int] = []  # placed, not yet fed to the model
    facts: list[int] = []
    emitted: list[int] = []
    forced = 0

    def check() -> None:
        if cancelled is not None and cancelled():
            raise DecodeCancelled("decoding cancelled")

    def best(candidates: np.ndarray) -> int:
        nonlocal scores
        if pending:
            scores = source.feed(pending)
            pending.clear()
        return int(candidates[int(np.argmax(scores[candidates]))])

    node, path = ROOT, [ROOT]
    stopped: Stopped | None = None
    while stopped is None:
        check()
        tokens, nodes = tree.children(node)
        open_ = remaining[nodes] > 0
        tokens, nodes = tokens[open_], nodes[open_]
        boundary = node == ROOT and bool(facts)
        candidates = np.append(tokens, np.int32(stop[0])) if boundary else tokens
        if len(candidates) == 1:
            choice = int(candidates[0])
            forced += 1
        else:
            choice = best(candidates)
        if boundary and choice == stop[0]:
            stopped = "model"
            break
        node = int(nodes[int(np.searchsorted(tokens, choice))])
        emitted.append(choice)
        pending.append(choice)
        path.append(node)
        if tree.fact[node] >= 0:
            facts.append(int(tree.fact[node]))
            remaining[path] -= 1
            node, path = ROOT, [ROOT]
            if len(facts) >= max_facts:
                stopped = "max_facts"
            elif remaining[ROOT] == 0:
                stopped = "exhausted"

    answer = list(stop)
    forced += len(stop) - (stopped == "model")
    pending.extend(stop)
    for _ in range(max_answer_tokens):
        check()
        scores = source.feed(pending)
        token = int(np.argmax(scores))
        if token in end:
            break
        answer.append(token)
        pending = [token]
        if "\n" in detokenize(answer[len(stop):]).lstrip():  # the ANSWER line is complete
            break
    return Decoded(tuple(facts), tuple(emitted), tuple(answer),
                   detokenize(emitted) + _answer_line(detokenize(answer), detokenize(stop)), stopped, len(prompt),
                   forced)


def _answer_line(text: str, marker: str) -> str:
    """``text`` up to the end of its first line with content after ``marker`` (trailing blanks removed)."""
    head = marker if text.startswith(marker) else ""
    body = text[len(head):]
    content = body.lstrip()
    return (head + body[: len(body) - len(content)] + content.split("\n", 1)[0]).rstrip()


# --- llama.cpp --------------------------------------------------------------------------------------------------------
class LlamaLogits:
    """A :class:`LogitsSource` over a ``llama_cpp.Llama``: ``llm.eval`` and the last row of logits, keeping the
    KV cache of the prefix the new prompt shares with llama.cpp's context. Not thread-safe: hold the client's lock."""

    def __init__(self, llm: Any):
        self.llm = llm
        self.n_vocab = llm.n_vocab()
        self.reused = 0  # prompt tokens kept from the previous context by the last start()
        self.evaluated = 0  # tokens evaluated since this source was made

    def start(self, prompt: Sequence[int]) -> np.ndarray:
        if not prompt:
            raise ValueError("empty prompt")
        llm = self.llm
        past = llm.input_ids[: llm.n_tokens].tolist()
        keep = min(llm.longest_token_prefix(past, list(prompt)), len(prompt) - 1)  # evaluate one at least: logits
        if keep == 0:
            llm.reset()
        else:
            llm.n_tokens = keep  # eval drops the KV cache from here on
        self.reused = keep
        return self.feed(prompt[keep:])

    def feed(self, tokens: Sequence[int]) -> np.ndarray:
        import llama_cpp

        llm = self.llm
        if llm.n_tokens + len(tokens) > llm.n_ctx():
            raise EvalError(f"the model's context of {llm.n_ctx()} tokens is full")
        llm.eval(list(tokens))
        self.evaluated += len(tokens)
        # llm.scores holds rows only with logits_all=True; the context's last logits are there either way
        row = llama_cpp.llama_get_logits_ith(llm.ctx, -1)
        return np.ctypeslib.as_array(row, shape=(self.n_vocab,)).copy()


class LlamaModel:
    """What ReFactX needs of a ``llama_cpp.Llama``: text <-> tokens, the chat prompt, the end-of-generation tokens
    and a logits source."""

    def __init__(self, llm: Any):
        import llama_cpp

        self.llm = llm
        vocab = llama_cpp.llama_model_get_vocab(llm.model)
        self.end = frozenset(t for t in range(llm.n_vocab()) if llama_cpp.llama_vocab_is_eog(vocab, t))

    def tokenize(self, text: str) -> list[int]:
        """Plain text (no special tokens, no BOS)."""
        return self.llm.tokenize(text.encode("utf-8"), add_bos=False, special=False)

    def detokenize(self, tokens: Sequence[int]) -> str:
        return self.llm.detokenize(list(tokens)).decode("utf-8", errors="replace")

    def _piece(self, token: int) -> str:
        return self.llm.detokenize([token], special=True).decode("utf-8", errors="replace") if token >= 0 else ""

    def chat_prompt(self, system: str, user: str) -> list[int]:
        """The prompt's tokens through the GGUF's chat template (as ``create_chat_completion`` renders it), ending
        with the assistant's header; ChatML when the file has no template."""
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        template = (self.llm.metadata or {}).get("tokenizer.chat_template")
        if template:
            from llama_cpp.llama_chat_format import Jinja2ChatFormatter

            formatted = Jinja2ChatFormatter(template, eos_token=self._piece(self.llm.token_eos()),
                                            bos_token=self._piece(self.llm.token_bos()))(messages=messages)
            text, add_bos = formatted.prompt, not formatted.added_special
        else:
            text = "".join(f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n" for m in messages)
            text, add_bos = text + "<|im_start|>assistant\n", True
        return self.llm.tokenize(text.encode("utf-8"), add_bos=add_bos, special=True)

    def logits(self) -> LogitsSource:
        return LlamaLogits(self.llm)


# --- the approach -----------------------------------------------------------------------------------------------------
class ReFactX(Approach):
    """ReFactX over the local llama.cpp model: the tree is built once per run from ``dataset.facts()``."""

    name = "refactx"
    needs_model = True

    def __init__(self, dataset: Dataset, model_client: Any = None, *, max_facts: int = MAX_FACTS,
                 max_answer_tokens: int = MAX_ANSWER_TOKENS):
        super().__init__(dataset, model_client)
        from vadaorchestra.agents.models import LocalLlamaClient

        if not isinstance(model_client, LocalLlamaClient):
            raise EvalError(f"approach refactx needs a llama.cpp model (--model local or --model-path FILE.gguf): "
                            f"it constrains decoding with the model's logits, which a "
                            f"{type(model_client).__name__} does not give")
        if max_facts < 1:
            raise EvalError(f"refactx needs max_facts >= 1, not {max_facts}")
        self.max_facts = max_facts
        self.max_answer_tokens = max_answer_tokens
        self._lock: threading.Lock = model_client.lock  # every llama.cpp call of the client holds it
        self.model: Any = None  # a LlamaModel, made in __aenter__
        self.tree: PrefixTree | None = None
        self.tree_stats: dict[str, Any] = {}
        self._facts: list[str] = []
        self._stop: list[int] = []

    async def __aenter__(self) -> ReFactX:
        facts = self.dataset.facts()

        def build() -> None:
            with self._lock:
                if self.model is None:
                    self.model = LlamaModel(self.model_client.llm)
                started = time.perf_counter()
                lines = tokenize_lines([fact_line(f) for f in facts], self.model.tokenize)
                self._stop = tokenize_lines([STOP_MARKER], self.model.tokenize)[0]
            seconds = time.perf_counter() - started
            self.tree = PrefixTree(lines)
            self._facts = facts
            self.tree_stats = {**self.tree.stats(), "tokenize_seconds": round(seconds, 3)}

        await asyncio.get_running_loop().run_in_executor(None, build)
        return self

    async def answer(self, question: str) -> Prediction:
        if self.tree is None:
            raise EvalError("refactx answers inside 'async with' (its tree is built on entry)")
        system = render("refactx", "system", fact_prefix=FACT_PREFIX)
        user = render("refactx", "user", question=question)
        cancel = threading.Event()

        def run() -> tuple[Decoded, int]:
            with self._lock:
                source = self.model.logits()
                decoded = decode(source, self.model.chat_prompt(system, user), self.tree, stop=self._stop,
                                 end=self.model.end, detokenize=self.model.detokenize, max_facts=self.max_facts,
                                 max_answer_tokens=self.max_answer_tokens, cancelled=cancel.is_set)
                return decoded, getattr(source, "reused", 0)

        try:
            decoded, reused = await asyncio.get_running_loop().run_in_executor(None, run)
        except BaseException:
            cancel.set()  # the thread stops at its next token instead of holding the lock to the end
            raise
        extra = {"tokens": {"prompt_tokens": decoded.prompt_tokens, "completion_tokens": decoded.completion_tokens},
                 "facts": [self._facts[i] for i in decoded.facts], "stopped": decoded.stopped,
                 "fact_tokens": len(decoded.fact_tokens), "forced_tokens": decoded.forced_tokens,
                 "reused_prompt_tokens": reused, "tree": self.tree_stats}
        return Prediction(decoded.text, parse_answer(decoded.text), "text", extra)
