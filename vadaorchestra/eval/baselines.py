"""The approaches an evaluation compares, each one honest about what it has.

- ``vadaorchestra``: the four agents over the scenario's MCP server (one in-process server for the whole run; every
  question opens its own MCP session, hence its own workspace). With ``--model`` the LLM policy decides, else the
  deterministic offline policy. The prediction is ``ctx.answer_values`` when the policy sets it, else the answer text
  parsed.
- ``llm-only``: the model alone, no data.
- ``rag`` / ``rag-K``: BM25 (rank_bm25) over the knowledge graph verbalized one triple per sentence; the top K
  sentences (K = 10 by default; 10, 100 and 1000 in the paper) go into the prompt.
- ``llm-mcp``: one AutoGen ``AssistantAgent`` with an ``McpWorkbench`` over the same server and the same tools: no
  planner, no rule synthesis, no verifier.
- ``refactx``: ReFactX (:mod:`vadaorchestra.eval.refactx`): the same verbalized facts as a prefix tree over their
  tokens; the model states facts with decoding constrained to the tree, then answers from them. It needs the local
  llama.cpp model (it reads the model's logits).

The four baselines need a model; without one they stop with ``approach X needs a model: pass --model local, --model CONFIG or --model-path FILE.gguf``
rather than produce an answer of their own.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from string import Template
from typing import Any

import yaml
from pydantic import BaseModel

from vadaorchestra.eval.datasets import Dataset, EvalError
from vadaorchestra.eval.metrics import parse_answer

APPROACHES = ("vadaorchestra", "llm-only", "rag", "llm-mcp", "refactx")
RAG_K = (10, 100, 1000)


@dataclass
class Prediction:
    text: str
    values: list[Any]
    source: str  # "answer_values" (set by the policy) or "text" (parsed from the answer)
    extra: dict[str, Any] = field(default_factory=dict)


@cache
def prompts() -> dict[str, Any]:
    return yaml.safe_load(resources.files("vadaorchestra.eval").joinpath("prompts.yaml").read_text("utf-8"))


def render(section: str, part: str, **values: Any) -> str:
    p = prompts()
    return Template(p[section][part]).substitute(answer_format=p["answer_format"], **values)


def parse_approach(name: str) -> tuple[str, int | None]:
    """``rag-100`` -> ("rag", 100); the other names stand alone."""
    m = re.fullmatch(r"rag(?:[-@:](\d+))?", name)
    if m:
        return "rag", int(m.group(1) or RAG_K[0])
    if name not in APPROACHES:
        raise EvalError(f"unknown approach {name!r}; approaches: {', '.join(APPROACHES)} (rag-K for K facts, "
                        f"e.g. rag-100)")
    return name, None


def _text(content: Any) -> str:
    return content if isinstance(content, str) else json.dumps(content, default=str)


def _usage(result: Any) -> dict[str, int]:
    u = getattr(result, "usage", None)
    return {"prompt_tokens": getattr(u, "prompt_tokens", 0) or 0,
            "completion_tokens": getattr(u, "completion_tokens", 0) or 0}


class Approach:
    """One way of answering; an async context manager holding its resources for the whole run."""

    name = "approach"
    needs_model = False

    def __init__(self, dataset: Dataset, model_client: Any = None):
        if self.needs_model and model_client is None:
            raise EvalError(f"approach {self.name} needs a model: pass --model local, --model CONFIG or --model-path "
                            f"FILE.gguf")
        self.dataset = dataset
        self.model_client = model_client

    async def __aenter__(self) -> Approach:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        return None

    async def answer(self, question: str) -> Prediction:
        raise NotImplementedError


class _Served(Approach):
    """Approaches that reach the scenario's catalog through one in-process MCP server."""

    def __init__(self, dataset: Dataset, model_client: Any = None, *, engine: str = "duckdb"):
        super().__init__(dataset, model_client)
        self.engine = engine
        self._server = None
        self.params = None

    async def __aenter__(self) -> _Served:
        from vadaorchestra.agents.local import LocalServer

        self._server = LocalServer(self.dataset.catalog, self.dataset.data_root, engine=self.engine)
        self.params = self._server.__enter__()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        if self._server is not None:
            self._server.__exit__(*exc)
            self._server = None


class VadaOrchestra(_Served):
    name = "vadaorchestra"

    async def answer(self, question: str) -> Prediction:
        from vadaorchestra.agents import wording
        from vadaorchestra.agents.run import ask

        result = await ask(question, server_params=self.params, engine=self.engine, model_client=self.model_client)
        extra = {"policy": "llm" if self.model_client is not None else "offline", "tool_calls": len(result.calls),
                 "iterations": result.ctx.iteration}
        if isinstance(result.tokens, dict) and self.model_client is not None:
            extra["tokens"] = result.tokens.get("totals")
        extra["verified"] = result.ctx.verified
        if problems := wording.lint(result.answer, result.ctx):  # what keeps the answer from being forwarded
            extra["text_problems"] = problems
        if getattr(result.ctx, "answer_parts", None) is not None:  # a question of several parts: values per part
            extra["parts"] = [list(p) for p in result.ctx.answer_parts]
        if getattr(result.ctx, "answer_yes", None) is not None:  # a yes/no question answered yes or no
            extra["yes"] = result.ctx.answer_yes
        if result.ctx.verified is False:  # "could not answer": no values, whatever the refused answer said
            return Prediction(result.answer, [], "could not answer", extra)
        values = getattr(result.ctx, "answer_values", None)
        if values is not None:
            return Prediction(result.answer, list(values), "answer_values", extra)
        return Prediction(result.answer, parse_answer(result.answer), "text", extra)


class LLMOnly(Approach):
    name = "llm-only"
    needs_model = True

    async def _ask(self, system: str, user: str) -> tuple[str, dict[str, int]]:
        from autogen_core.models import SystemMessage, UserMessage

        result = await self.model_client.create([SystemMessage(content=system),
                                                 UserMessage(content=user, source="user")])
        return _text(result.content), _usage(result)

    async def answer(self, question: str) -> Prediction:
        text, usage = await self._ask(render("llm_only", "system"), render("llm_only", "user", question=question))
        return Prediction(text, parse_answer(text), "text", {"tokens": usage})


class RAG(LLMOnly):
    name = "rag"

    def __init__(self, dataset: Dataset, model_client: Any = None, *, k: int = RAG_K[0]):
        super().__init__(dataset, model_client)
        if k < 1:
            raise EvalError(f"rag needs k >= 1, not {k}")
        self.k = k
        self.name = f"rag-{k}"
        self._facts: list[str] = []
        self._bm25 = None

    @staticmethod
    def tokens(text: str) -> list[str]:
        return re.findall(r"\w+", text.lower())

    async def __aenter__(self) -> RAG:
        from rank_bm25 import BM25Okapi

        self._facts = self.dataset.facts()
        self._bm25 = BM25Okapi([self.tokens(f) for f in self._facts])
        return self

    def retrieve(self, question: str) -> list[str]:
        """The k facts BM25 scores highest for the question (ties in fact order)."""
        scores = self._bm25.get_scores(self.tokens(question))
        order = sorted(range(len(self._facts)), key=lambda i: (-scores[i], i))[: self.k]
        return [self._facts[i] for i in order]

    async def answer(self, question: str) -> Prediction:
        facts = self.retrieve(question)
        user = render("rag", "user", k=len(facts), facts="\n".join(facts), question=question)
        text, usage = await self._ask(render("rag", "system"), user)
        return Prediction(text, parse_answer(text), "text", {"tokens": usage, "k": self.k})


class LLMWithMCP(_Served):
    name = "llm-mcp"
    needs_model = True
    max_tool_iterations = 20

    async def answer(self, question: str) -> Prediction:
        from autogen_agentchat.agents import AssistantAgent
        from autogen_ext.tools.mcp import McpWorkbench

        async with McpWorkbench(server_params=self.params) as workbench:
            agent = AssistantAgent("analyst", model_client=self.model_client, workbench=workbench,
                                   system_message=render("llm_mcp", "system"),
                                   max_tool_iterations=self.max_tool_iterations, reflect_on_tool_use=True)
            result = await agent.run(task=question)
        text = result.messages[-1].to_text() if result.messages else ""
        usage = {"prompt_tokens": 0, "completion_tokens": 0}
        calls = 0
        for m in result.messages:
            u = getattr(m, "models_usage", None)
            if u is not None:
                usage["prompt_tokens"] += u.prompt_tokens or 0
                usage["completion_tokens"] += u.completion_tokens or 0
            if type(m).__name__ == "ToolCallRequestEvent":
                calls += len(getattr(m, "content", []) or [])
        return Prediction(text, parse_answer(text), "text", {"tokens": usage, "tool_calls": calls})


class Verdict(BaseModel):
    """The judge's reply: the answer the prediction states, then whether it is the gold one."""

    stated: str
    correct: bool


class Judge:
    """LLM-as-judge: does the predicted answer state the gold answer? True, False, or None when unreadable."""

    def __init__(self, model_client: Any):
        self.model_client = model_client

    async def grade(self, question: str, gold: Any, predicted: str) -> bool | None:
        from autogen_core.models import SystemMessage, UserMessage

        gold_text = "; ".join(map(str, gold)) if isinstance(gold, list) else str(gold)
        from vadaorchestra.agents.models import json_output_for

        # decoded under the verdict's schema where the client can (the local model: a grammar); measured with the
        # 1.5B model on 12 right and 12 wrong answers: asked for the verdict alone, it called 7 right answers wrong
        shape = json_output_for(self.model_client, Verdict)
        result = await self.model_client.create([
            SystemMessage(content=render("judge", "system")),
            UserMessage(content=render("judge", "user", question=question, gold=gold_text,
                                       predicted=predicted or "(no answer)"), source="user")], json_output=shape)
        return read_verdict(_text(result.content))


def read_verdict(reply: str) -> bool | None:
    m = re.search(r"\{.*\}", reply, re.DOTALL)
    if m:
        try:
            value = json.loads(m.group(0)).get("correct")
        except (json.JSONDecodeError, AttributeError):
            value = None
        if isinstance(value, bool):
            return value
    words = re.findall(r"\b(true|false|correct|incorrect)\b", reply.lower())
    if len(set(words)) == 1:
        return words[0] in ("true", "correct")
    return None


def make(approach: str, dataset: Dataset, model_client: Any = None, *, engine: str = "duckdb") -> Approach:
    """The approach called ``approach`` (``rag-K`` included), checked for the model it needs."""
    kind, k = parse_approach(approach)
    match kind:
        case "vadaorchestra":
            return VadaOrchestra(dataset, model_client, engine=engine)
        case "llm-only":
            return LLMOnly(dataset, model_client)
        case "rag":
            return RAG(dataset, model_client, k=k or RAG_K[0])
        case "llm-mcp":
            return LLMWithMCP(dataset, model_client, engine=engine)
        case "refactx":
            from vadaorchestra.eval.refactx import ReFactX  # refactx builds on this module

            return ReFactX(dataset, model_client)
    raise EvalError(f"unknown approach {approach!r}")  # pragma: no cover - parse_approach refused it
