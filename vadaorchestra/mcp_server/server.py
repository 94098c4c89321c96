"""The MCP tool surface: one MCP tool per catalog tool, plus discovery, decision support and data manipulation.

Tool bodies are thin: each finds the session's :class:`Workspace` and calls one of its methods in a worker thread.
Library errors become ``isError`` results at one boundary (:func:`_call`), with the located, rendered message.
Every MCP session gets its own workspace (a DuckDB file under the server's workspace folder), removed when the
session ends unless the server keeps workspaces.
"""

from __future__ import annotations

import functools
import hmac
import inspect
import shutil
import tempfile
import threading
import uuid
from collections.abc import Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

import anyio
from mcp.server.fastmcp import Context, FastMCP
from mcp.server.fastmcp.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from vadaorchestra import __version__
from vadaorchestra.errors import VadaError
from vadaorchestra.mcp_server.catalog import Catalog, ToolSpec
from vadaorchestra.mcp_server.workspace import MAX_K, THRESHOLD_OPS, Workspace

PY_TYPES: dict[str, type] = {"string": str, "int": int, "float": float, "bool": bool}
BUILTIN_TOOLS = ("list_tools", "get_dependencies", "get_cardinality", "get_statistics", "get_top_k",
                 "describe_predicate", "validate_program", "run_program", "lookup_values", "find_entities", "explain")
INSTRUCTIONS = """\
Reasoning tools over a Datalog engine. Each catalog tool runs a logic program and materializes its output predicate
in this session's workspace; its result shows the cardinality, schema and a preview. Call list_tools first; a tool
whose dependencies have not run fails with a message naming them (get_dependencies lists them); lookup_values finds
the data values a tool parameter can take that occur in a text (entity linking). Explore large
predicates with get_cardinality, get_statistics and get_top_k instead of reading them whole. Write new rules over the
materialized predicates with validate_program and run_program (they may only define new predicates)."""

Pred = Annotated[str, Field(description="Name of a materialized predicate, e.g. the output predicate of a tool")]
Attr = Annotated[str, Field(description="Attribute (column) name of the predicate, as its schema lists it")]
Program = Annotated[str, Field(description="Rules in the Vadalog dialect, e.g. "
                                           "big(B, A) :- exposure(_, B, A), A > 1000000.")]
EACH_FORM = ('{"each": "predicate.column"} with an optional "where": {"column": value} on that predicate, e.g. '
             '{"each": "exposure.borrower", "where": {"bank": "Bank Gamma"}}')
READ_ONLY = ToolAnnotations(readOnlyHint=True, idempotentHint=True, openWorldHint=False)
WRITES = ToolAnnotations(readOnlyHint=False, destructiveHint=False, openWorldHint=False)


class SessionScope:
    """One MCP session's lifetime: the low-level server enters the lifespan once per session (stdio: the process;
    streamable HTTP: each session; the in-memory client: each connection), so a workspace keyed by this object is
    released exactly when its session ends."""


class Sessions:
    """Workspaces by MCP session: created on a session's first call, removed when the session ends."""

    def __init__(self, catalog: Catalog, folder: Path | None, *, engine: str, preview: int, max_rounds: int,
                 keep: bool, engine_options: dict[str, Any] | None = None):
        self.catalog = catalog
        self._own_folder = folder is None
        self.folder = Path(folder) if folder is not None else Path(tempfile.mkdtemp(prefix="vada-sessions-"))
        self.folder.mkdir(parents=True, exist_ok=True)
        self.options = {"engine": engine, "preview": preview, "max_rounds": max_rounds,
                        "engine_options": dict(engine_options or {})}
        self.keep = keep
        self._by_scope: dict[int, Workspace] = {}
        self._lock = threading.Lock()

    def get(self, scope: Any) -> Workspace:
        with self._lock:
            ws = self._by_scope.get(id(scope))
            if ws is None:
                path = self.folder / f"session-{uuid.uuid4().hex[:12]}.duckdb"
                ws = Workspace(self.catalog, path, **self.options)
                self._by_scope[id(scope)] = ws
            return ws

    def workspaces(self) -> list[Workspace]:
        """The open workspaces, one per live session."""
        with self._lock:
            return list(self._by_scope.values())

    def release(self, scope: Any) -> None:
        """The session ended: close its workspace, and remove it unless keeping workspaces."""
        with self._lock:
            ws = self._by_scope.pop(id(scope), None)
        if ws is not None:
            ws.close() if self.keep else ws.remove()

    def close(self) -> None:
        """Close every workspace; remove them (and the folder, when this object made it) unless keeping them."""
        with self._lock:
            left, self._by_scope = list(self._by_scope.values()), {}
        for ws in left:
            ws.close() if self.keep else ws.remove()
        if self._own_folder and not self.keep:
            shutil.rmtree(self.folder, ignore_errors=True)


class BearerToken:
    """ASGI middleware: refuse HTTP requests without the expected bearer token (the health check excepted)."""

    def __init__(self, app, token: str):
        self.app = app
        self.expected = f"Bearer {token}".encode()

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope.get("path") != "/health":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(given, self.expected):
                await send({"type": "http.response.start", "status": 401,
                            "headers": [(b"content-type", b"text/plain"), (b"www-authenticate", b"Bearer")]})
                await send({"type": "http.response.body", "body": b"missing or wrong bearer token\n"})
                return
        await self.app(scope, receive, send)


async def _call(sessions: Sessions, ctx: Context, method: Callable[..., Any], *args: Any) -> Any:
    """Run a workspace method in a worker thread; library errors become ``isError`` results."""
    ws = sessions.get(ctx.request_context.lifespan_context)
    try:
        return await anyio.to_thread.run_sync(functools.partial(method, ws, *args))
    except VadaError as exc:
        raise ToolError(exc.render()) from None


class ReasoningServer:
    """A FastMCP server exposing a catalog, and the per-session workspaces behind it.

    ``.mcp`` is the FastMCP object (``.mcp.run("stdio")``, ``.mcp.streamable_http_app()``, or the in-memory client
    session of the SDK's tests); :meth:`close` removes the workspaces that are left when serving ends.
    """

    def __init__(
        self,
        catalog: Catalog,
        *,
        engine: str = "duckdb",
        preview: int = 20,
        max_rounds: int = 1000,
        workspace_dir: str | Path | None = None,
        keep_workspaces: bool = False,
        name: str = "vadaorchestra",
        host: str = "127.0.0.1",
        port: int = 8000,
        engine_options: dict[str, Any] | None = None,
    ):
        clash = sorted(set(catalog.tools) & set(BUILTIN_TOOLS))
        if clash:
            raise VadaError(f"catalog tool name(s) {', '.join(map(repr, clash))} clash with the server's built-in tools")
        self.catalog = catalog
        self.sessions = Sessions(catalog, Path(workspace_dir) if workspace_dir else None, engine=engine,
                                 preview=preview, max_rounds=max_rounds, keep=keep_workspaces,
                                 engine_options=engine_options)
        sessions = self.sessions

        @asynccontextmanager
        async def session_scope(_server: FastMCP):
            scope = SessionScope()
            try:
                yield scope
            finally:
                sessions.release(scope)

        self.mcp = FastMCP(name, instructions=INSTRUCTIONS, host=host, port=port, log_level="WARNING",
                           lifespan=session_scope)
        self.mcp._mcp_server.version = __version__  # FastMCP takes no version: it would report the SDK's own
        for spec in catalog:
            self.mcp.add_tool(_catalog_tool(self.sessions, spec), name=spec.name, description=_tool_doc(spec),
                              annotations=WRITES, structured_output=True)
        _builtin_tools(self.mcp, self.sessions)

    def close(self) -> None:
        self.sessions.close()

    def http_app(self, token: str | None = None):
        """The streamable-HTTP ASGI app (MCP at ``/mcp``, ``GET /health``); with ``token``, every request but the
        health check needs ``Authorization: Bearer <token>``."""
        from starlette.responses import JSONResponse

        from vadaorchestra.mcp_server.disconnects import quiet_disconnects

        quiet_disconnects()

        @self.mcp.custom_route("/health", methods=["GET"])
        async def health(_request):
            return JSONResponse({"status": "ok", "tools": len(self.catalog)})

        app = self.mcp.streamable_http_app()
        return BearerToken(app, token) if token else app

    def __enter__(self) -> ReasoningServer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _tool_doc(spec: ToolSpec) -> str:
    cols = ", ".join(f"{c} ({t})" for c, t in zip(spec.columns, spec.types, strict=True))
    deps = f" Needs the outputs of: {', '.join(spec.deps)} (call them first)." if spec.deps else ""
    return (f"{spec.description}\n\nMaterializes predicate {spec.output}({cols}) in the workspace, adding to what "
            f"earlier calls put there.{deps}{_EACH_DOC if spec.params else ''}")


_EACH_DOC = (" Set-at-a-time: give a parameter as " + EACH_FORM + " and the tool runs once for every value of that "
             "column (one call and one evaluation, not one call per value); its output holds the facts of all of them.")


def _catalog_tool(sessions: Sessions, spec: ToolSpec) -> Callable[..., Any]:
    """An async function whose signature is the tool's flat, typed parameters (what FastMCP turns into a schema)."""
    tool_name = spec.name

    async def invoke(vo_context__: Context, **params: Any) -> dict[str, Any]:
        return await _call(sessions, vo_context__, Workspace.invoke, tool_name, params)

    parameters = [inspect.Parameter("vo_context__", inspect.Parameter.KEYWORD_ONLY, annotation=Context)]
    annotations: dict[str, Any] = {"vo_context__": Context, "return": dict[str, Any]}
    for p in spec.params:
        scalar = Annotated[PY_TYPES[p.type], Field(strict=p.type != "float")]
        typ = Annotated[scalar | dict[str, Any], Field(description=f"{p.description}; or, to run the tool for every "
                                                                   f"row of a predicate, {EACH_FORM}")]
        parameters.append(inspect.Parameter(p.name, inspect.Parameter.KEYWORD_ONLY, annotation=typ))
        annotations[p.name] = typ
    invoke.__signature__ = inspect.Signature(parameters, return_annotation=dict[str, Any])  # type: ignore[attr-defined]
    invoke.__annotations__ = annotations
    invoke.__name__ = tool_name
    return invoke


def _builtin_tools(mcp: FastMCP, sessions: Sessions) -> None:
    catalog = sessions.catalog

    @mcp.tool(annotations=READ_ONLY, structured_output=True)
    def list_tools() -> dict[str, Any]:
        """The reasoning tools of the catalog: name, description, typed parameters, output predicate, output schema
        (column names and types), the output columns that hold a parameter's value, and the tools whose outputs each
        one reads; plus content hashes of the catalog and of its data files."""
        return {"tools": [t.describe() for t in catalog], "catalog_hash": catalog.content_hash,
                "data_hash": catalog.data_hash}

    @mcp.tool(annotations=READ_ONLY, structured_output=True)
    def get_dependencies(tool: Annotated[str, Field(description="Name of a catalog tool")]) -> dict[str, Any]:
        """The tools whose output predicates this tool's program reads (direct dependencies), and all of them
        transitively in an order that can be run."""
        try:
            spec = catalog.get(tool)
            order = catalog.closure(tool)
        except VadaError as exc:
            raise ToolError(exc.render()) from None
        return {"tool": spec.name, "dependencies": list(spec.deps), "run_order": order[:-1]}

    @mcp.tool(annotations=READ_ONLY, structured_output=True)
    async def lookup_values(
        tool: Annotated[str, Field(description="Name of a catalog tool, e.g. get_bank_exposures")],
        parameter: Annotated[str, Field(description="Name of one of that tool's parameters, e.g. bank_name")],
        ctx: Context,
        text: Annotated[str, Field(description="The question or phrase naming the value, e.g. \"What are Bank "
                                               "Gamma's largest exposures?\"; empty to list values")] = "",
        limit: Annotated[int, Field(description="How many matches to return (1 to 100)", strict=True)] = 10,
    ) -> dict[str, Any]:
        """Find the exact value to pass as a tool parameter: the values of the data columns the parameter is matched
        against that the text names. Values occurring in the text as whole words (case-insensitively, longest first)
        come with "exact": true; when none occurs, the most similar values come with "exact": false (check them
        before use). For int and float parameters the numbers written in the text are matched. With empty text, the
        first values in sorted order. "columns" names the data columns searched and "candidates" counts their
        distinct values; a parameter matched against no column (only compared, as in X > $min) gets no matches and
        any value of its type is accepted. Reads no workspace and changes nothing."""
        return await _call(sessions, ctx, Workspace.lookup_values, tool, parameter, text, limit)

    @mcp.tool(annotations=READ_ONLY, structured_output=True)
    async def find_entities(
        text: Annotated[str, Field(description="The question, e.g. \"How many orders did Acme Motors place with "
                                               "Emerald Plastics?\"")],
        ctx: Context,
        limit: Annotated[int, Field(description="How many values to return (1 to 100)", strict=True)] = 20,
    ) -> dict[str, Any]:
        """Every value of the base data's string columns that the text names as whole words (case-insensitively;
        a value inside a longer one is left out), in the order the text names them. Each match lists the data
        columns holding it and the tool parameters it can be passed to ("tool.parameter"): a value with no parameter
        is a filter on a tool's output column, not an argument. Reads no workspace and changes nothing."""
        return await _call(sessions, ctx, Workspace.find_entities, text, limit)

    @mcp.tool(annotations=READ_ONLY, structured_output=True)
    async def get_cardinality(predicate: Pred, ctx: Context) -> dict[str, Any]:
        """Number of facts of a materialized predicate, with its schema."""
        return await _call(sessions, ctx, Workspace.cardinality, predicate)

    @mcp.tool(annotations=READ_ONLY, structured_output=True)
    async def get_statistics(predicate: Pred, attribute: Attr, ctx: Context) -> dict[str, Any]:
        """Statistics of one attribute of a materialized predicate: count, distinct values, nulls, min and max; for
        numbers also the mean and quantiles (p5 p25 p50 p75 p95); for strings the most frequent values."""
        return await _call(sessions, ctx, Workspace.statistics, predicate, attribute)

    @mcp.tool(annotations=READ_ONLY, structured_output=True)
    async def get_top_k(
        predicate: Pred,
        ctx: Context,
        k: Annotated[int, Field(description=f"How many facts to return (1 to {MAX_K})", strict=True)] = 10,
        order_by: Annotated[str | None, Field(description="Attribute to order by (default: all columns)")] = None,
        descending: Annotated[bool, Field(description="Largest first (default) or smallest first")] = True,
        filter_attr: Annotated[str | None, Field(description="Keep only facts whose attribute equals filter_value")] = None,
        filter_value: Annotated[str | int | float | bool | None, Field(description="Value filter_attr must equal")] = None,
        threshold_attr: Annotated[str | None, Field(description="Numeric attribute compared with threshold_value")] = None,
        threshold_op: Annotated[str | None, Field(description=f"One of {' '.join(THRESHOLD_OPS)}")] = None,
        threshold_value: Annotated[float | None, Field(description="Number threshold_attr is compared with")] = None,
    ) -> dict[str, Any]:
        """The top k facts of a materialized predicate ordered by an attribute, optionally filtered by an equality
        and a numeric threshold; also how many facts match in all."""
        return await _call(sessions, ctx, Workspace.top_k, predicate, k, order_by, descending, filter_attr, filter_value,
                           threshold_attr, threshold_op, threshold_value)

    @mcp.tool(annotations=READ_ONLY, structured_output=True)
    async def describe_predicate(predicate: Pred, ctx: Context) -> dict[str, Any]:
        """Schema, cardinality, origin (which tool invocations or synthesized program produced it), first facts and a
        content hash (sha256 of the sorted facts) of a materialized predicate."""
        return await _call(sessions, ctx, Workspace.describe, predicate)

    @mcp.tool(annotations=READ_ONLY, structured_output=True)
    async def explain(
        predicate: Pred,
        fact: Annotated[list[str | int | float | bool | None], Field(
            description="The fact's values, one per column of the predicate in schema order; null matches any value "
                        "(the first matching fact is explained)")],
        ctx: Context,
        max_contributions: Annotated[int, Field(description="Contributions shown per aggregate (1 to 100)",
                                                strict=True)] = 10,
    ) -> dict[str, Any]:
        """Why a fact holds: one derivation tree of it, down to base facts, each with its data file and line. Each
        node names the rule that derived it; an aggregate shows its contributing facts (the first
        max_contributions, with their count); a negated atom shows as "no fact matches"; recursion (company
        control) is explained only by facts derived earlier. A fact that does not hold gets status "not derived"."""
        if not 1 <= max_contributions <= 100:
            raise ToolError("max_contributions must be between 1 and 100")
        return await _call(sessions, ctx, Workspace.explain, predicate, fact, max_contributions)

    @mcp.tool(annotations=READ_ONLY, structured_output=True)
    async def validate_program(program: Program, ctx: Context) -> dict[str, Any]:
        """Check rules written at run time without running them: syntax, safety, types, stratification, and that
        they read only materialized predicates and define only new ones (no @bind, @input, @tool or @param).
        Errors give line:column and a caret."""
        return await _call(sessions, ctx, Workspace.validate_program, program)

    @mcp.tool(annotations=WRITES, structured_output=True)
    async def run_program(program: Program, ctx: Context) -> dict[str, Any]:
        """Validate, then run rules written at run time over the materialized predicates (joins, aggregates such as
        T = sum(A), threshold checks). Every predicate the program defines is materialized; the result shows the
        @output predicate (or the last rule's head). Only new predicates may be defined."""
        return await _call(sessions, ctx, Workspace.run_program, program)
