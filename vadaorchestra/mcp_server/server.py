"""The MCP tool surface: one MCP tool per catalog tool, plus discovery, decision support and data manipulation.

Tool bodies are thin: each finds the session's :class:`Workspace` and calls one of its methods in a worker thread.
Library errors become ``isError`` results at one boundary (:func:`_call`), with the located, rendered message.
Every MCP session gets its own workspace (a DuckDB file under the server's workspace folder), removed when the
session ends unless the server keeps workspaces.
"""

from __future__ import annotations

import ctypes
import hmac
import inspect
import os
import shutil
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

import anyio
from mcp.server.fastmcp import Context, FastMCP
from mcp.server.fastmcp.exceptions import ToolError
from mcp.server.streamable_http import MCP_SESSION_ID_HEADER
from mcp.server.transport_security import TransportSecurityMiddleware, TransportSecuritySettings
from mcp.types import ToolAnnotations
from pydantic import Field

from vadaorchestra import __version__
from vadaorchestra.datalog.limits import Budget
from vadaorchestra.errors import Cancelled, VadaError, WorkspaceError
from vadaorchestra.mcp_server.catalog import Catalog, ToolSpec
from vadaorchestra.mcp_server.workspace import CLOSE_WAIT, MAX_K, THRESHOLD_OPS, Workspace

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
# the server's default bounds (serve's options): seconds per call, rows per synthesized predicate, calls running at once
TIME_LIMIT = 60.0
MAX_ROWS = 10_000_000
MAX_CALLS = 16
MAX_SESSIONS = 64
CANCEL_MEMORY = 60.0  # seconds a cancellation waits for its call to be admitted
MAX_PENDING_CANCELS = 10_000
STUCK_GRACE = 10.0  # seconds past its time limit after which a running call counts as stuck (GET /health: 503)


def give_back_memory() -> None:
    """Return the heap memory freed by a closed session to the system. glibc's allocator keeps freed memory in its
    per-thread arenas, and a server whose worker threads each touched a session's database otherwise stays at its
    peak; elsewhere (musl, macOS) this does nothing."""
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass


def mmap_large_blocks(threshold: int = 128 << 10) -> None:
    """Serve allocations of ``threshold`` bytes and more (DuckDB's 256 KiB buffer blocks) with their own memory
    maps, returned to the system when freed. glibc otherwise raises that threshold as large blocks are freed and
    then keeps such blocks in its arenas, fragmented: a server that ran 32 sessions stayed 60-100 % above its
    resident size before them. For a process that is a server (``serve``), not for a library's host process."""
    try:
        ctypes.CDLL(None).mallopt(-3, threshold)  # M_MMAP_THRESHOLD
    except (OSError, AttributeError):
        pass


def default_memory_limit(max_calls: int = MAX_CALLS) -> int:
    """Bytes of DuckDB memory per session: half of the machine's memory shared by the calls that may run at once."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        total = 8 << 30
    return max(64 << 20, total // 2 // max(1, max_calls))


class SessionScope:
    """One MCP session's lifetime: the low-level server enters the lifespan once per session (stdio: the process;
    streamable HTTP: each session; the in-memory client: each connection), so a workspace keyed by this object is
    released exactly when its session ends."""


class Sessions:
    """Workspaces by MCP session: created on a session's first call, removed when the session ends."""

    def __init__(self, catalog: Catalog, folder: Path | None, *, engine: str, preview: int, max_rounds: int,
                 keep: bool, engine_options: dict[str, Any] | None = None, time_limit: float | None = TIME_LIMIT,
                 memory_limit: int | None = None, max_rows: int | None = MAX_ROWS, max_calls: int = MAX_CALLS,
                 max_programs: int | None = None):
        self.catalog = catalog
        self._own_folder = folder is None
        self.folder = Path(folder) if folder is not None else Path(tempfile.mkdtemp(prefix=SESSIONS_PREFIX))
        self.folder.mkdir(parents=True, exist_ok=True)
        self._owner = _own(self.folder) if self._own_folder else None
        if not keep:
            sweep(self.folder, Path(tempfile.gettempdir()))
        self.options = {"engine": engine, "preview": preview, "max_rounds": max_rounds,
                        "engine_options": dict(engine_options or {}), "time_limit": time_limit,
                        "memory_limit": memory_limit, "max_rows": max_rows}
        self.keep = keep
        self.max_calls = max_calls
        self.max_programs = max_programs if max_programs is not None else max_calls
        self._programs: set[Budget] = set()
        self._by_scope: dict[int, Workspace] = {}
        self._lock = threading.Lock()
        self._running: dict[Budget, float] = {}  # the calls in flight and when each started
        self._by_request: dict[Budget, tuple[str, str]] = {}  # an HTTP call's (session id, request id)
        self._cancelled: dict[tuple[str, str], float] = {}  # cancellations that arrived before their call, and when
        self.local_session: str | None = None  # the key of the one session over stdio (its calls carry no HTTP id)

    def admit(self, program: bool = False, request: tuple[str, str] | None = None) -> Budget:
        """A budget for one more call, or a quick "server busy" error when ``max_calls`` calls are running (or, for
        a call running rules a client wrote, ``max_programs`` of those: they may burn all their time on the CPU).
        ``request``: the HTTP call's (session id, request id), by which :meth:`cancel_request` finds it."""
        with self._lock:
            if len(self._running) >= self.max_calls:
                raise WorkspaceError(f"server busy: {len(self._running)} calls are running, the most it runs at once; "
                                     "try again in a few seconds")
            if program and len(self._programs) >= self.max_programs:
                raise WorkspaceError(f"server busy: {len(self._programs)} programs are running, the most it runs at "
                                     "once; try again in a few seconds")
            budget = Budget(self.options["time_limit"])
            self._running[budget] = time.monotonic()
            if program:
                self._programs.add(budget)
            if request is not None:
                self._by_request[budget] = request
                if self._cancelled.pop(request, None) is not None:
                    budget.cancel()  # its cancellation overtook it
            return budget

    def leave(self, budget: Budget) -> None:
        with self._lock:
            self._running.pop(budget, None)
            self._programs.discard(budget)
            self._by_request.pop(budget, None)

    def cancel_request(self, session_id: str, request_id: str) -> bool:
        """Cancel the HTTP call ``request_id`` of session ``session_id`` (its client cancelled it or dropped its
        connection); one not admitted yet is cancelled on admission, if it comes within a minute. Whether it ran.

        The SDK cancels a request itself only once its handler has started, and drops the cancellation of one
        still queued (under load, a cancelled runaway program then ran to its time limit): this does not."""
        key = (session_id, str(request_id))
        with self._lock:
            budget = next((b for b, k in self._by_request.items() if k == key), None)
            if budget is None:
                now = time.monotonic()
                for stale in [k for k, at in self._cancelled.items() if now - at > CANCEL_MEMORY]:
                    del self._cancelled[stale]
                if len(self._cancelled) < MAX_PENDING_CANCELS:
                    self._cancelled[key] = now
        if budget is not None:
            budget.cancel()
        return budget is not None

    def stuck(self, grace: float = STUCK_GRACE) -> int:
        """How many calls have run longer than their time limit plus ``grace`` seconds (they should have ended)."""
        limit = self.options["time_limit"]
        if limit is None:
            return 0
        now = time.monotonic()
        with self._lock:
            return sum(1 for started in self._running.values() if now - started > limit + grace)

    def in_flight(self) -> int:
        with self._lock:
            return len(self._running)

    def interrupt(self) -> None:
        """Cancel every running call (the server is shutting down): their queries stop and roll back."""
        with self._lock:
            running = list(self._running)
        for budget in running:
            budget.cancel()

    def get(self, scope: Any) -> Workspace:
        """The session's workspace, made on its first call (outside the lock: opening a database file may take a
        while under load, and the lock also guards admitting calls, which the event loop does)."""
        with self._lock:
            ws = self._by_scope.get(id(scope))
        if ws is not None:
            return ws
        path = self.folder / f"session-{uuid.uuid4().hex[:12]}.duckdb"
        _LIVE.add(str(path))
        made = Workspace(self.catalog, path, **self.options)
        with self._lock:
            ws = self._by_scope.setdefault(id(scope), made)
        if ws is not made:  # two first calls of one session at once: keep one workspace
            made.remove()
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
            give_back_memory()

    def close(self) -> None:
        """Close every workspace; remove them (and the folder, when this object made it) unless keeping them."""
        with self._lock:
            left, self._by_scope = list(self._by_scope.values()), {}
        for ws in left:
            ws.close() if self.keep else ws.remove()
        if self._own_folder and not self.keep:
            shutil.rmtree(self.folder, ignore_errors=True)
        if self._owner is not None:
            self._owner.close()
            self._owner = None


LOOPBACK_HOSTS = ["127.0.0.1:*", "localhost:*", "[::1]:*"]


def transport_security(allowed_hosts: list[str]) -> TransportSecuritySettings:
    """DNS-rebinding protection, whatever interface the server binds: requests whose Host header is not loopback's
    or one of ``allowed_hosts``, or whose Origin is not one of theirs, get 421/403 from the SDK."""
    hosts = LOOPBACK_HOSTS + [h for h in allowed_hosts if h not in LOOPBACK_HOSTS]
    origins = [f"{scheme}://{h}" for h in hosts for scheme in ("http", "https")]
    return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins)


SESSIONS_PREFIX = "vada-sessions-"
OWNER = ".owner"  # in a server's own temporary folder, locked (flock) while the server lives
_LIVE: set[str] = set()  # workspace files this process made (DuckDB does not lock a file against its own process)


def _own(folder: Path):
    """Lock the owner file of a folder the server made, for its lifetime: the next servers leave the folder alone."""
    import fcntl

    fh = open(folder / OWNER, "w")  # noqa: SIM115 - held open (and locked) until the sessions close
    fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return fh


def sweep(folder: Path, tmp: Path | None = None) -> list[Path]:
    """Remove the workspace files in ``folder`` that no live server holds (DuckDB locks an open database file), and
    the temporary session folders under ``tmp`` whose server died (their owner file is not locked); return what
    was removed. What a server killed with SIGKILL left behind goes at the next start."""
    import fcntl

    import duckdb

    removed: list[Path] = []
    for db in sorted(folder.glob("session-*.duckdb")):
        if str(db) in _LIVE:
            continue
        try:
            duckdb.connect(str(db)).close()  # fails while another process has it open
        except duckdb.Error as exc:
            if "lock" in str(exc).lower():
                continue
        removed.append(db)
        db.unlink(missing_ok=True)
    for stray in [*folder.glob("session-*.duckdb.wal"), *folder.glob("session-*.duckdb.tmp")]:
        db = stray.with_suffix("")
        if not db.exists():
            removed.append(stray)
            shutil.rmtree(stray, ignore_errors=True) if stray.is_dir() else stray.unlink(missing_ok=True)
    for other in sorted(tmp.glob(SESSIONS_PREFIX + "*")) if tmp is not None else []:
        if other == folder or not (other / OWNER).exists():
            continue
        try:
            with open(other / OWNER) as fh:
                fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            continue  # its server lives
        removed.append(other)
        shutil.rmtree(other, ignore_errors=True)
    return removed


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


PROGRAMS = (Workspace.run_program, Workspace.explain)  # the calls that evaluate rules a client wrote


async def _call(sessions: Sessions, ctx: Context, method: Callable[..., Any], *args: Any) -> Any:
    """Run a workspace method in a worker thread under the call's budget; library errors become ``isError`` results.

    A call the client cancels (or whose session ends) has its queries interrupted; the worker rolls back, and the
    cancellation completes once it has (at most a few seconds), so that nothing the call computed is committed and
    the session's workspace is not removed under a running query."""
    scope = ctx.request_context.lifespan_context
    http = ctx.request_context.request  # the HTTP request carrying the call (None over stdio)
    session_id = http.headers.get(MCP_SESSION_ID_HEADER) if http is not None else sessions.local_session
    try:
        budget = sessions.admit(program=method in PROGRAMS,
                                request=(session_id, str(ctx.request_id)) if session_id else None)
    except VadaError as exc:
        raise ToolError(exc.render()) from None
    started = threading.Event()

    def work() -> Any:
        started.set()
        try:
            if budget.reason is not None:
                raise Cancelled("the call was cancelled before it started")
            ws = sessions.get(scope)  # opening a database file is blocking I/O: not on the event loop
            with ws.bounded(budget):
                return method(ws, *args)
        finally:
            budget.finish()

    try:
        return await anyio.to_thread.run_sync(work, abandon_on_cancel=True)
    except anyio.get_cancelled_exc_class():
        budget.cancel()
        if not started.is_set():
            budget.finish()
        with anyio.CancelScope(shield=True):
            deadline = time.monotonic() + CLOSE_WAIT
            while started.is_set() and not budget.finished and time.monotonic() < deadline:
                await anyio.sleep(0.02)
        raise
    except VadaError as exc:
        raise ToolError(exc.render()) from None
    finally:
        sessions.leave(budget)


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
        time_limit: float | None = TIME_LIMIT,
        memory_limit: int | None = None,
        max_rows: int | None = MAX_ROWS,
        max_calls: int = MAX_CALLS,
        max_programs: int | None = None,
        max_sessions: int = MAX_SESSIONS,
        session_idle_timeout: float | None = 1800.0,
        allowed_hosts: list[str] | None = None,
    ):
        """``time_limit`` (seconds), ``memory_limit`` (bytes of DuckDB memory per session; default: half the
        machine's memory shared by ``max_calls``) and ``max_rows`` (facts per predicate a synthesized program
        defines) bound each call; ``max_calls`` calls run at once, of which ``max_programs`` (default: all of them)
        run_program or explain calls, and ``max_sessions`` HTTP sessions are open at once (more get
        "server busy"); an HTTP session idle for ``session_idle_timeout`` seconds is closed.
        ``allowed_hosts``: the Host header values (``host:port``, ``*`` for any port) the HTTP app accepts besides
        loopback's, with their ``http(s)://`` origins (DNS-rebinding protection; loopback's alone by default)."""
        clash = sorted(set(catalog.tools) & set(BUILTIN_TOOLS))
        if clash:
            raise VadaError(f"catalog tool name(s) {', '.join(map(repr, clash))} clash with the server's built-in tools")
        self.catalog = catalog
        if memory_limit is None:
            memory_limit = default_memory_limit(max_calls)
        self.sessions = Sessions(catalog, Path(workspace_dir) if workspace_dir else None, engine=engine,
                                 preview=preview, max_rounds=max_rounds, keep=keep_workspaces,
                                 engine_options=engine_options, time_limit=time_limit, memory_limit=memory_limit,
                                 max_rows=max_rows, max_calls=max_calls, max_programs=max_programs)
        sessions = self.sessions

        @asynccontextmanager
        async def session_scope(_server: FastMCP):
            scope = SessionScope()
            try:
                yield scope
            finally:  # closing waits for the session's interrupted calls: never on the event loop, never cancelled
                with anyio.CancelScope(shield=True):
                    await anyio.to_thread.run_sync(sessions.release, scope)

        self.mcp = FastMCP(name, instructions=INSTRUCTIONS, host=host, port=port, log_level="WARNING",
                           lifespan=session_scope, max_sessions=max_sessions,
                           session_idle_timeout=session_idle_timeout,
                           transport_security=transport_security(allowed_hosts or []))
        self.mcp._mcp_server.version = __version__  # FastMCP takes no version: it would report the SDK's own
        for spec in catalog:
            self.mcp.add_tool(_catalog_tool(self.sessions, spec), name=spec.name, description=_tool_doc(spec),
                              annotations=WRITES, structured_output=True)
        _builtin_tools(self.mcp, self.sessions)

    def close(self) -> None:
        self.sessions.close()

    def run_stdio(self) -> None:
        """Serve one client over stdin and stdout. Its cancellations go to the call's budget, not to the SDK (see
        :class:`~vadaorchestra.mcp_server.disconnects.CancelOnDisconnect` for why)."""
        anyio.run(self._run_stdio)

    async def _run_stdio(self) -> None:
        from mcp.server.stdio import stdio_server

        from vadaorchestra.mcp_server.disconnects import relay_cancellations

        self.sessions.local_session = "stdio"
        lowlevel = self.mcp._mcp_server  # what FastMCP.run("stdio") runs, with the relay in between
        async with stdio_server() as (read, write), anyio.create_task_group() as tg:
            relay, relayed = anyio.create_memory_object_stream(0)
            tg.start_soon(relay_cancellations, read, relay, self.sessions.local_session, self.sessions.cancel_request)
            await lowlevel.run(relayed, write, lowlevel.create_initialization_options())
            tg.cancel_scope.cancel()

    def http_app(self, token: str | None = None):
        """The streamable-HTTP ASGI app (MCP at ``/mcp``, ``GET /health``); with ``token``, every request but the
        health check needs ``Authorization: Bearer <token>``."""
        from starlette.responses import JSONResponse

        from vadaorchestra.mcp_server.disconnects import CancelOnDisconnect, quiet_disconnects

        quiet_disconnects()

        @self.mcp.custom_route("/health", methods=["GET"])
        async def health(_request):
            stuck = self.sessions.stuck()
            body = {"status": "stuck" if stuck else "ok", "tools": len(self.catalog)}
            if stuck:  # a call past its time limit and grace: the server cannot be trusted to answer
                body.update(calls_in_flight=self.sessions.in_flight(), calls_stuck=stuck)
            return JSONResponse(body, status_code=503 if stuck else 200)

        app = CancelOnDisconnect(self.mcp.streamable_http_app(), self.mcp.settings.streamable_http_path,
                                 self.sessions.cancel_request,
                                 TransportSecurityMiddleware(self.mcp.settings.transport_security))
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
        scalar = (Annotated[float, Field(allow_inf_nan=False)] if p.type == "float"
                  else Annotated[PY_TYPES[p.type], Field(strict=True)])
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
        threshold_value: Annotated[float | None, Field(description="Number threshold_attr is compared with",
                                                       allow_inf_nan=False)] = None,
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
