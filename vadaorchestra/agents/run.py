"""Ask a question end to end: an MCP server, the four agents in their team, the trace, the report.

>>> result = ask_sync("What are Bank Gamma's largest exposures?", catalog="examples/catalog")  # doctest: +SKIP
>>> print(result.answer)                                                                         # doctest: +SKIP
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vadaorchestra.agents.context import RunContext, ToolClient
from vadaorchestra.agents.offline import OfflinePolicy
from vadaorchestra.agents.pipeline import Pipeline, Settings
from vadaorchestra.agents.trace import TraceWriter


@dataclass
class AskResult:
    answer: str
    ctx: RunContext
    trace_text: str
    trace_path: Path | None
    elapsed_s: float
    messages: list[str] = field(default_factory=list)
    tokens: dict[str, Any] = field(default_factory=dict)
    calls: list[dict[str, Any]] = field(default_factory=list)

    @property
    def verified(self) -> bool:
        """The Verifier accepted the answer; False when the run ended with "could not answer: ..." (exit code 2)."""
        return self.ctx.verified is not False


async def ask(
    question: str,
    *,
    server_params: Any = None,
    catalog: str | Path | None = None,
    data: str | Path | None = None,
    engine: str = "duckdb",
    policy: Any = None,
    model_client: Any = None,
    trace: str | Path | None = None,
    report: str | Path | None = None,
    settings: Settings | None = None,
    progress=None,
) -> AskResult:
    """Answer ``question`` with the agents' team over MCP.

    Either ``server_params`` (any AutoGen MCP server params: stdio, SSE, streamable HTTP; ``catalog``/``data`` then
    only name the server's catalog in the trace, for replay) or ``catalog`` (then a server runs in this process on a
    loopback port). ``policy`` defaults to the LLM policy over ``model_client``
    when one is given, else to the deterministic offline policy.
    """
    from contextlib import ExitStack

    from autogen_ext.tools.mcp import McpWorkbench

    from vadaorchestra.agents.team import build_team

    start = time.perf_counter()
    with ExitStack() as stack:
        header = {"question": question, "engine": engine}
        if server_params is not None and catalog is not None:  # recorded for replay
            header.update(catalog=str(Path(catalog).resolve()), data=str(Path(data or catalog).resolve()))
        if server_params is None:
            if catalog is None:
                raise ValueError("give server_params or a catalog folder")
            from vadaorchestra.agents.local import LocalServer

            local = LocalServer(catalog, data, engine=engine)
            server_params = stack.enter_context(local)
            header.update(catalog=str(local.catalog.path.resolve()), data=str(local.catalog.data_root.resolve()))
        ledger = None
        if policy is None and model_client is not None:
            from vadaorchestra.agents.llm import LLMPolicy
            from vadaorchestra.agents.tokens import TokenLedger

            ledger = TokenLedger()
            policy = LLMPolicy(model_client, ledger)
        policy = policy or OfflinePolicy()
        ledger = ledger or getattr(policy, "ledger", None)  # a model policy given by the caller keeps one too
        header["policy"] = getattr(policy, "name", type(policy).__name__)
        ctx = RunContext(question=question)
        async with McpWorkbench(server_params=server_params) as workbench:
            client = ToolClient(workbench)
            listing = await client.call("list_tools")
            header.update(catalog_hash=listing.get("catalog_hash", ""), data_hash=listing.get("data_hash", ""))
            writer = TraceWriter(trace, header)
            try:
                pipeline = Pipeline(ctx, client, policy, trace=writer, settings=settings, progress=progress)
                team = build_team(pipeline, model_client)
                result = await team.run(task=question)
            finally:
                writer.close()
        messages = [f"{m.source}: {m.to_text()}" for m in result.messages]
    out = AskResult(
        answer=ctx.answer or "", ctx=ctx, trace_text=writer.text, trace_path=writer.path,
        elapsed_s=time.perf_counter() - start, messages=messages,
        tokens=(ledger.to_json() if ledger is not None else _would_send(ctx)),
        calls=[{"tool": c.name, "args": c.args, "ms": round((c.ended - c.started) * 1000, 2), "ok": c.ok}
               for c in client.calls],
    )
    if report is not None:
        from vadaorchestra.agents.report import write_report

        write_report(out, Path(report))
    return out


def _would_send(ctx: RunContext) -> dict[str, Any]:
    """For a policy without a model: the tokens the LLM policy's prompts would have sent, per step."""
    try:
        from vadaorchestra.agents.prompts import render
        from vadaorchestra.agents.tokens import TokenLedger, count_messages
    except ImportError:  # pragma: no cover - the LLM modules ship with the package
        return {}
    ledger = TokenLedger()
    for step in ("select", "retrieval", "synthesize", "replan", "answer"):
        ledger.record(step, "offline", count_messages(render(step, ctx)), 0, "would have been sent")
    return {**ledger.to_json(), "note": "offline policy: tokens the LLM policy's prompts would have sent at the end "
                                        "of the run (no model was called)"}


def ask_sync(question: str, **kwargs) -> AskResult:
    import anyio

    return anyio.run(lambda: ask(question, **kwargs))
