"""The four AutoGen agents and their team.

Each agent is a ``BaseChatAgent`` whose turn runs one step of the :class:`Pipeline` (planning and dispatch for the
Planner, targeted retrieval for the Retriever, rules for the RuleSynthesizer, checks for the Verifier) and answers
with a one-line summary. The team is a ``SelectorGroupChat`` whose ``selector_func`` follows the pipeline, so routing
is deterministic and the model client is never asked to pick a speaker.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from autogen_agentchat.agents import BaseChatAgent
from autogen_agentchat.base import Response
from autogen_agentchat.conditions import MaxMessageTermination, TextMentionTermination
from autogen_agentchat.messages import BaseChatMessage, TextMessage
from autogen_agentchat.teams import SelectorGroupChat
from autogen_core import CancellationToken

from vadaorchestra.agents.pipeline import AGENTS, Pipeline

DESCRIPTIONS = {
    "Planner": "Discovers the tools, selects those relevant to the question with their parameters, resolves "
               "dependencies into verified stages, dispatches each stage's invocations concurrently, replans, and "
               "writes the answer.",
    "Retriever": "After each stage, reads small predicates whole and explores large ones with statistics and top-k.",
    "RuleSynthesizer": "Writes rules the question needs (joins, aggregates, threshold checks), has them validated by "
                       "the server, retries on errors, and runs them.",
    "Verifier": "Checks each plan for completeness, disjointness, dependency order and predicate safety, lints "
                "synthesized rules, and checks that every number and entity of the answer is a derived fact.",
}
DONE = "TERMINATE"


class PipelineAgent(BaseChatAgent):
    """One of the four agents: its turn is the pipeline step that belongs to it."""

    def __init__(self, name: str, pipeline: Pipeline):
        super().__init__(name, DESCRIPTIONS[name])
        self._pipeline = pipeline

    @property
    def produced_message_types(self) -> Sequence[type[BaseChatMessage]]:
        return (TextMessage,)

    async def on_messages(self, messages: Sequence[BaseChatMessage], cancellation_token: CancellationToken
                          ) -> Response:
        p = self._pipeline
        if not p.ctx.question:
            p.ctx.question = next((m.to_text() for m in messages if isinstance(m, TextMessage)), "")
        if p.next_agent != self.name:
            raise RuntimeError(f"{self.name} spoke out of turn (the pipeline waits for {p.next_agent})")
        text = await p.step()
        if p.done:
            text = f"{p.ctx.answer}\n{DONE}"
        return Response(chat_message=TextMessage(content=text, source=self.name))

    async def on_reset(self, cancellation_token: CancellationToken) -> None:
        return None


def build_agents(pipeline: Pipeline) -> list[PipelineAgent]:
    """The Planner, Retriever, RuleSynthesizer and Verifier over one pipeline (usable one by one in an app)."""
    return [PipelineAgent(name, pipeline) for name in AGENTS]


def build_team(pipeline: Pipeline, model_client: Any = None, *, max_messages: int = 500) -> SelectorGroupChat:
    """The four agents in a ``SelectorGroupChat`` routed by the pipeline; ends when the Verifier accepts the answer.

    ``model_client`` is only there because the group chat requires one; with the deterministic selector it is never
    called (a replay client is used when none is given).
    """
    if model_client is None:
        from autogen_ext.models.replay import ReplayChatCompletionClient

        model_client = ReplayChatCompletionClient(["Planner"])

    def selector(_messages) -> str | None:
        return pipeline.next_agent

    return SelectorGroupChat(
        build_agents(pipeline),
        model_client=model_client,
        selector_func=selector,
        allow_repeated_speaker=True,
        termination_condition=TextMentionTermination(DONE) | MaxMessageTermination(max_messages),
    )
