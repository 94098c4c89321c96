"""The decisions behind the agents, as one interface with two implementations (offline rules, an LLM).

Every method receives the shared :class:`RunContext` and a :class:`Probe` (read-only MCP calls a policy may make
while deciding: entity lookup, statistics); none of them writes to the workspace — the agents do that.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field

from vadaorchestra.agents.context import PredicateView, RunContext, ToolClient
from vadaorchestra.agents.plan import Call


class RuleProposal(BaseModel):
    """Rules to run with run_program, and why."""

    program: str = Field(description="Rules in the Vadalog dialect; only new predicates may be defined")
    purpose: str = Field(description="One line: what the rules compute and why the question needs it")
    output: str = Field(description="The predicate that holds the result")
    spec: dict[str, Any] | None = Field(default=None, description="The structured rule this program was written "
                                        "from, when a policy proposes rules as objects")
    kind: Literal["threshold_check", "filter", "aggregate", "ratio", "join", "view"] | None = Field(
        default=None, description="What the rules compute; read from the rules themselves when not given")
    problem: str | None = Field(default=None, description="Why the spec could not be written as a program (the "
                                "pipeline treats it as a refusal and asks for a repair)")


class TopK(BaseModel):
    order_by: str | None = None
    descending: bool = True
    k: int = 10
    filter_attr: str | None = None
    filter_value: str | int | float | bool | None = None
    threshold_attr: str | None = None
    threshold_op: str | None = None
    threshold_value: float | None = None


class Retrieval(BaseModel):
    """For a predicate above the cardinality threshold: which attributes get statistics, then which top-k calls."""

    statistics: list[str] = Field(default_factory=list)
    top_k: list[TopK] = Field(default_factory=list)


@dataclass
class Probe:
    """Read-only MCP calls available to a policy while it decides."""

    client: ToolClient
    _lookups: dict[tuple[str, str, str], list[dict[str, Any]]] = field(default_factory=dict)

    async def lookup(self, tool: str, param: str, text: str, limit: int = 10) -> list[dict[str, Any]]:
        """Data values of the columns a tool parameter is compared with that occur in ``text`` (exact first)."""
        key = (tool, param, text)
        if key not in self._lookups:
            res = await self.client.call("lookup_values", {"tool": tool, "parameter": param, "text": text,
                                                           "limit": limit})
            self._lookups[key] = res.get("matches", [])
        return self._lookups[key]

    async def matching(self, pred: str, attribute: str, value: Any) -> int:
        """How many facts of ``pred`` have ``attribute`` equal to ``value``."""
        res = await self.client.call("get_top_k", {"predicate": pred, "k": 1, "filter_attr": attribute,
                                                   "filter_value": value})
        return int(res.get("matching", 0))

    async def statistics(self, pred: str, attribute: str) -> dict[str, Any]:
        return await self.client.call("get_statistics", {"predicate": pred, "attribute": attribute})


class Policy(Protocol):
    """What the Planner, Retriever, RuleSynthesizer and Verifier ask of a decision maker."""

    name: str

    async def select(self, ctx: RunContext, probe: Probe) -> list[Call]:
        """Tools relevant to the question, with parameters extracted from it (high-level calls)."""

    async def retrieval(self, ctx: RunContext, view: PredicateView, probe: Probe) -> Retrieval:
        """Statistics attributes and top-k queries for a predicate above the cardinality threshold."""

    async def synthesize(self, ctx: RunContext, probe: Probe) -> list[RuleProposal]:
        """New rules the question needs now (joins, aggregates, threshold checks); empty when none."""

    async def repair(self, ctx: RunContext, proposal: RuleProposal, error: str) -> RuleProposal | None:
        """A corrected proposal after the server refused it (or None to give up)."""

    async def replan(self, ctx: RunContext, probe: Probe) -> list[Call]:
        """Further invocations (appended as new stages), or none when the question can be answered."""

    async def answer(self, ctx: RunContext) -> str:
        """The final answer, from high-level and synthesized predicates only (``ctx.feedback`` says what the
        Verifier refused last time)."""
