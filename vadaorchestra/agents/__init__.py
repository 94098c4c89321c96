"""The agents: Planner, Retriever, RuleSynthesizer and Verifier over MCP tools, their policies, the trace, replay.

Public API for apps that embed the team (see the README): :func:`build_team`, :func:`build_agents`,
:class:`Pipeline`, :class:`RunContext`, :class:`ToolClient`, :class:`OfflinePolicy`, :class:`LLMPolicy`,
:func:`ask` / :func:`ask_sync`, :func:`replay`.
"""

from vadaorchestra.agents.context import RunContext, ToolClient
from vadaorchestra.agents.llm import LLMPolicy
from vadaorchestra.agents.offline import OfflinePolicy
from vadaorchestra.agents.pipeline import Pipeline, Settings
from vadaorchestra.agents.replay import replay
from vadaorchestra.agents.run import ask, ask_sync
from vadaorchestra.agents.team import build_agents, build_team

__all__ = ["LLMPolicy", "OfflinePolicy", "Pipeline", "RunContext", "Settings", "ToolClient", "ask", "ask_sync", "build_agents",
           "build_team", "replay"]
