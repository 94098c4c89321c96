"""What the agents know during a run, and how they reach the MCP server.

:class:`ToolClient` is the only door to reasoning: it calls MCP tools through an AutoGen ``McpWorkbench`` (or any
object with the same ``call_tool``/``list_tools``) and turns results into dicts. :class:`RunContext` is the state the
agents share; policies read it and decide.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from vadaorchestra.agents.plan import Call, Plan
from vadaorchestra.errors import VadaError


class ToolCallError(VadaError):
    """An MCP tool answered with an error result; ``message`` is the server's text."""


@dataclass
class CallRecord:
    name: str
    args: dict[str, Any]
    started: float
    ended: float
    ok: bool
    summary: str = ""


class ToolClient:
    """Calls MCP tools and parses their JSON results; records every call (name, arguments, timing)."""

    def __init__(self, workbench: Any):
        self.workbench = workbench
        self.calls: list[CallRecord] = []

    async def call(self, name: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
        args = dict(args or {})
        start = time.perf_counter()
        result = await self.workbench.call_tool(name, args)
        text = "".join(getattr(part, "content", "") for part in result.result if isinstance(getattr(part, "content", None), str))
        ok = not result.is_error
        self.calls.append(CallRecord(name, args, start, time.perf_counter(), ok, text[:200] if not ok else ""))
        if not ok:
            raise ToolCallError(text.removeprefix(f"Error executing tool {name}: ") or f"tool {name} failed")
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            raise ToolCallError(f"tool {name} returned no JSON: {text[:200]!r}") from None


@dataclass
class PredicateView:
    """What the agents have learnt about one materialized predicate (never more than retrieval brought)."""

    name: str
    origin: str  # "high", "low" (tool outputs by level) or "synthesized"
    tool: str | None
    cardinality: int
    schema: list[dict[str, str]]
    param_columns: dict[str, str] = field(default_factory=dict)
    facts: list[dict[str, Any]] = field(default_factory=list)
    complete: bool = False  # facts hold the whole predicate
    statistics: dict[str, dict[str, Any]] = field(default_factory=dict)
    order_by: str | None = None
    each: list[str] = field(default_factory=list)  # "pred.column" a set-at-a-time call took its values from

    @property
    def columns(self) -> list[str]:
        return [c["name"] for c in self.schema]

    def typed(self, *types: str) -> list[str]:
        return [c["name"] for c in self.schema if c["type"] in types]


@dataclass
class Synthesized:
    program: str
    purpose: str
    output: str
    attempts: int = 1
    kind: str = "view"  # what the rules compute (verify.rule_kind): threshold_check, filter, aggregate, ratio, ...


@dataclass
class RunContext:
    """The shared state of a run: the question, the catalog, the plan, what ran and what was learnt."""

    question: str
    tools: dict[str, dict[str, Any]] = field(default_factory=dict)
    catalog_hash: str = ""
    data_hash: str = ""
    plan: Plan = field(default_factory=Plan)
    executed: dict[str, Call] = field(default_factory=dict)
    refused: list[str] = field(default_factory=list)
    predicates: dict[str, PredicateView] = field(default_factory=dict)
    synthesized: list[Synthesized] = field(default_factory=list)
    failed_rules: list[dict[str, Any]] = field(default_factory=list)
    iteration: int = 0
    answer: str | None = None
    answer_values: list[Any] | None = None  # the answer as values (a list, or one count), when the policy gives them
    answer_yes: bool | None = None  # a yes/no question's answer, when the policy gives one
    # a question of several parts: each part's frame, its answer's values and its text (question.parts)
    part_frames: list[Any] = field(default_factory=list)
    answer_parts: list[list[Any] | None] | None = None
    part_answers: list[str] = field(default_factory=list)
    # the values each part's computation found, where the part answers with something else (yes or no: whether the
    # first part restricted to a kind finds any); what the part's checks look at
    part_found: list[list[Any] | None] = field(default_factory=list)
    part_composers: list[Any] = field(default_factory=list)  # the query of each part (what its checks look at)
    draft: str | None = None  # the answer as the rules word it (the offline policy's answer, a model's draft)
    feedback: str | None = None
    frame: Any = None  # the question's QuestionFrame (agents.frame), built once when the run starts
    verified: bool | None = None  # set by the Verifier: False means the run ends with "could not answer: ..."
    problems: list[str] = field(default_factory=list)  # the Verifier's last objections
    checks: list[dict[str, Any]] = field(default_factory=list)  # what the Verifier checked of the question's reading
    reading: int | None = None  # the reading chosen (ask --reading N) when the question can be read several ways
    readings: list[str] = field(default_factory=list)  # the readings found, in the question's words
    events: list[dict[str, Any]] = field(default_factory=list)

    def event(self, kind: str, **data: Any) -> dict[str, Any]:
        e = {"kind": kind, "t": round(time.perf_counter(), 4), **data}
        self.events.append(e)
        return e

    def answer_predicates(self) -> list[PredicateView]:
        """High-level tool outputs and synthesized predicates: what an answer may be built from."""
        return [v for v in self.predicates.values() if v.origin in ("high", "synthesized")]
