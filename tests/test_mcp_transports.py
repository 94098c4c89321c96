"""The MCP server over its real transports: `vadaorchestra serve` runs as a subprocess on loopback (stdio, or streamable
HTTP on a free 127.0.0.1 port) and is driven by the MCP SDK's clients, by autogen's McpWorkbench, or by raw JSON-RPC
lines when the test must watch the server process itself.

Every wait polls against a deadline (no fixed sleeps), every server is stopped in a ``finally``, and nothing but
127.0.0.1 is contacted (HTTP clients ignore proxy settings from the environment).
"""

from __future__ import annotations

import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from autogen_ext.tools.mcp import McpWorkbench, StdioServerParams
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import LATEST_PROTOCOL_VERSION

CATALOG = Path(__file__).resolve().parents[1] / "examples" / "catalog"
SERVE = [sys.executable, "-m", "vadaorchestra.cli", "serve", "--catalog", str(CATALOG)]
CATALOG_TOOLS = {"get_bank_exposures", "get_bank_info", "get_credit_lines", "get_loans", "get_shareholders",
                 "get_ultimate_controller"}
BUILTIN_TOOLS = {"list_tools", "get_dependencies", "get_cardinality", "get_statistics", "get_top_k",
                 "describe_predicate", "validate_program", "run_program", "lookup_values", "find_entities", "explain"}
GAMMA = {"bank_name": "Bank Gamma"}
# DeepLogic Ltd owes Bank Gamma loans L1 (8,000,000) and L2 (3,100,000) plus 2,000,000 drawn on credit line C1.
DEEPLOGIC_EXPOSURE = {"bank": "Bank Gamma", "borrower": "DeepLogic Ltd", "amount": 13100000.0}
# Upper bound of any single wait. The normal case takes well under a second per wait; the bound only decides how long
# a broken server may hang a test on a slow, loaded machine before it fails.
DEADLINE = 30.0
HTTP_TIMEOUT = httpx.Timeout(DEADLINE, read=300.0)  # the MCP SDK's default read timeout, for the long-lived GET stream
# The opening request of an MCP session, and the headers of a raw JSON-RPC post, for the tests that speak it by hand
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": LATEST_PROTOCOL_VERSION, "capabilities": {},
                         "clientInfo": {"name": "test_mcp_transports", "version": "0"}}}
ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


# --- helpers ------------------------------------------------------------------------------------------------------------
def run_async(fn, *args) -> Any:
    """Run ``fn(*args)`` on a fresh asyncio loop, failing with TimeoutError if it takes longer than DEADLINE."""

    async def bounded():
        with anyio.fail_after(DEADLINE):
            return await fn(*args)

    return anyio.run(bounded, backend="asyncio")


def server_env(**extra: str) -> dict[str, str]:
    """The test's environment for a server subprocess, without a token the developer may have exported."""
    env = {k: v for k, v in os.environ.items() if k != "VADA_MCP_TOKEN"}
    env.update(extra)
    return env


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stop(proc: subprocess.Popen) -> None:
    """Terminate the process if it still runs, and kill it if it does not go within the deadline."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=DEADLINE)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def start_http_server(cwd: Path, options: list[str], env: dict[str, str]) -> tuple[subprocess.Popen, str]:
    """Start ``serve --transport http`` on a free loopback port and return it once GET /health answers 200.

    The port is probed by binding port 0, so another process may take it before the server binds it; a server that
    exits before it is healthy is retried on a new port, twice.
    """
    log_path = cwd / "http-server.log"
    for _attempt in range(3):
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        with open(log_path, "ab") as log:
            proc = subprocess.Popen([*SERVE, "--transport", "http", "--host", "127.0.0.1", "--port", str(port), *options],
                                    cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        try:
            if wait_healthy(proc, base):
                return proc, base
        except BaseException:
            stop(proc)
            raise
    pytest.fail(f"the HTTP server exited before answering /health, three times; its log:\n{log_path.read_text()}")


def wait_healthy(proc: subprocess.Popen, base: str) -> bool:
    """Poll GET /health until it answers 200 (True) or the process exits (False); fail at the deadline."""
    deadline = time.monotonic() + DEADLINE
    with httpx.Client(trust_env=False, timeout=5.0) as client:
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                return False
            try:
                if client.get(f"{base}/health").status_code == 200:
                    return True
            except httpx.TransportError:
                pass
            time.sleep(0.05)
    pytest.fail(f"{base}/health did not answer 200 within {DEADLINE:.0f} s")


@contextmanager
def http_server(cwd: Path, *options: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """A healthy streamable-HTTP server for the block; yields its base URL."""
    proc, base = start_http_server(cwd, list(options), env if env is not None else server_env())
    try:
        yield base
    finally:
        stop(proc)


async def list_and_call_over_http(url: str, headers: dict[str, str] | None = None,
                                  terminate_on_close: bool = True) -> tuple[set[str], Any]:
    """Open an MCP session at ``url``, list the tools and call get_loans for Bank Gamma."""
    async with (
        httpx.AsyncClient(headers=headers, timeout=HTTP_TIMEOUT, trust_env=False) as http,
        streamable_http_client(url, http_client=http, terminate_on_close=terminate_on_close) as (read, write, _),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        tools = await session.list_tools()
        result = await session.call_tool("get_loans", GAMMA)
    return {t.name for t in tools.tools}, result


def borrowers(result) -> set[str]:
    return {row["borrower"] for row in result.structuredContent["preview"]}


def has_refs(schema: Any) -> bool:
    """Whether a JSON schema uses $defs or $ref anywhere (a client that reads only ``properties`` would break)."""
    text = json.dumps(schema)
    return "$defs" in text or "$ref" in text


class RawStdio:
    """A stdio MCP client speaking JSON-RPC lines to a server subprocess it owns, so the test can watch the process."""

    def __init__(self, options: list[str], env: dict[str, str], log: Path):
        with open(log, "wb") as err:
            self.proc = subprocess.Popen([*SERVE, *options], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=err)
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.next_id = 0

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, message: dict[str, Any]) -> None:
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n")
        self.proc.stdin.flush()

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        deadline = time.monotonic() + DEADLINE
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                pytest.fail(f"no answer to {method} within {DEADLINE:.0f} s")
            if line is None:
                pytest.fail(f"the server closed stdout before answering {method}")
            message = json.loads(line)
            if message.get("id") == self.next_id:  # skip notifications the server may send first
                return message

    def initialize(self) -> None:
        answer = self.request("initialize", INITIALIZE["params"])
        assert "result" in answer, answer
        self.send({"method": "notifications/initialized"})

    def disconnect(self) -> float:
        """Close the server's stdin, as an MCP stdio client does to end the session; seconds until the process exited
        by itself (it is not signalled; the test fails at the deadline)."""
        start = time.monotonic()
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=DEADLINE)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the stdio server did not exit within {DEADLINE:.0f} s of its client disconnecting")
        return time.monotonic() - start

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            if not stream.closed:
                stream.close()


# --- stdio --------------------------------------------------------------------------------------------------------------
def test_stdio_server_lists_catalog_and_builtin_tools_and_chains_loans_credit_lines_into_exposures(tmp_path):
    async def scenario():
        params = StdioServerParameters(command=sys.executable, args=SERVE[1:], cwd=str(tmp_path))
        with open(tmp_path / "stdio-server.log", "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
                init = await session.initialize()
                tools = (await session.list_tools()).tools
                calls = [await session.call_tool(name, GAMMA)
                         for name in ("get_loans", "get_credit_lines", "get_bank_exposures")]
        return init, tools, calls

    init, tools, (loans, lines, exposures) = run_async(scenario)
    assert init.serverInfo.name == "vadaorchestra"
    names = [t.name for t in tools]
    assert len(names) == len(CATALOG_TOOLS | BUILTIN_TOOLS)
    assert set(names) == CATALOG_TOOLS | BUILTIN_TOOLS
    assert not [t.name for t in tools if has_refs(t.inputSchema)]
    schema = next(t.inputSchema for t in tools if t.name == "get_bank_exposures")
    assert schema["required"] == ["bank_name"] and schema["properties"]["bank_name"]["anyOf"][0] == {"type": "string"}
    for result in (loans, lines, exposures):
        assert not result.isError, result.content
    assert loans.structuredContent["output_predicate"] == "loans"
    assert lines.structuredContent["output_predicate"] == "credit_lines"
    assert exposures.structuredContent["output_predicate"] == "exposure"
    assert DEEPLOGIC_EXPOSURE in exposures.structuredContent["preview"]


# --- streamable HTTP ----------------------------------------------------------------------------------------------------
def test_http_server_answers_health_and_serves_the_tools_at_mcp(tmp_path):
    with http_server(tmp_path) as base:
        health = httpx.get(f"{base}/health", trust_env=False, timeout=5.0)
        assert health.status_code == 200
        assert health.json() == {"status": "ok", "tools": 6}
        names, loans = run_async(list_and_call_over_http, f"{base}/mcp")
    assert names == CATALOG_TOOLS | BUILTIN_TOOLS
    assert not loans.isError, loans.content
    assert "DeepLogic Ltd" in borrowers(loans)


@pytest.mark.parametrize("given", ["--token option", pytest.param("VADA_MCP_TOKEN env", marks=pytest.mark.slow)])
def test_http_server_with_a_token_refuses_mcp_requests_without_it_but_not_the_health_check(tmp_path, given):
    if given == "--token option":
        options, env = ["--token", "secret"], server_env()
    else:
        options, env = [], server_env(VADA_MCP_TOKEN="secret")
    with http_server(tmp_path, *options, env=env) as base, httpx.Client(trust_env=False, timeout=5.0) as client:
        assert client.get(f"{base}/health").status_code == 200
        refused = client.post(f"{base}/mcp", json=INITIALIZE, headers=ACCEPT)
        assert refused.status_code == 401
        assert refused.headers["www-authenticate"] == "Bearer"
        wrong = client.post(f"{base}/mcp", json=INITIALIZE, headers={**ACCEPT, "Authorization": "Bearer wrong"})
        assert wrong.status_code == 401
        names, loans = run_async(list_and_call_over_http, f"{base}/mcp", {"Authorization": "Bearer secret"})
    assert names == CATALOG_TOOLS | BUILTIN_TOOLS
    assert not loans.isError, loans.content
    assert "DeepLogic Ltd" in borrowers(loans)
    warned = "visible in the process list" in (tmp_path / "http-server.log").read_text()
    assert warned == (given == "--token option")  # the environment variable is the recommended way


@pytest.mark.slow
def test_http_session_workspace_is_removed_once_the_client_ends_the_session(tmp_path):
    workspaces = tmp_path / "ws"
    proc, base = start_http_server(tmp_path, ["--workspaces", str(workspaces)], server_env())
    try:
        seen: list[str] = []

        async def session_that_looks_at_its_workspace():
            async with (
                httpx.AsyncClient(timeout=HTTP_TIMEOUT, trust_env=False) as http,
                streamable_http_client(f"{base}/mcp", http_client=http) as (read, write, _),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                assert not (await session.call_tool("get_loans", GAMMA)).isError
                seen.extend(p.name for p in workspaces.glob("*.duckdb"))

        run_async(session_that_looks_at_its_workspace)  # ends with DELETE /mcp (terminate_on_close)
        assert len(seen) == 1
        deadline = time.monotonic() + DEADLINE
        while list(workspaces.glob("*.duckdb*")) and time.monotonic() < deadline:  # removed when the session is freed
            time.sleep(0.05)
        assert list(workspaces.glob("*.duckdb*")) == []
        assert proc.poll() is None  # the server is still serving
    finally:
        stop(proc)


# --- autogen McpWorkbench -----------------------------------------------------------------------------------------------
def workbench() -> McpWorkbench:
    return McpWorkbench(server_params=StdioServerParams(command=sys.executable, args=SERVE[1:],
                                                        read_timeout_seconds=DEADLINE))


def test_mcp_workbench_lists_every_tool_with_a_flat_parameters_schema_and_runs_get_loans():
    async def scenario():
        async with workbench() as wb:
            return await wb.list_tools(), await wb.call_tool("get_loans", GAMMA)

    tools, loans = run_async(scenario)
    assert {t["name"] for t in tools} == CATALOG_TOOLS | BUILTIN_TOOLS
    assert not [t["name"] for t in tools if has_refs(t["parameters"])]
    exposures = next(t for t in tools if t["name"] == "get_bank_exposures")
    assert exposures["parameters"]["properties"]["bank_name"]["anyOf"][0] == {"type": "string"}
    assert not loans.is_error, loans.to_text()
    assert "DeepLogic Ltd" in loans.to_text()


@pytest.mark.slow
def test_mcp_workbench_reports_a_tool_called_before_its_dependencies_as_an_error_naming_them():
    async def scenario():
        async with workbench() as wb:
            return await wb.call_tool("get_bank_exposures", GAMMA)

    premature = run_async(scenario)
    assert premature.is_error
    text = premature.to_text()
    assert "get_loans" in text or "get_credit_lines" in text, text


# --- server process lifecycle -------------------------------------------------------------------------------------------
@pytest.mark.slow
def test_stdio_server_exits_by_itself_after_its_client_disconnects_and_removes_the_session_workspace(tmp_path):
    workspaces = tmp_path / "ws"
    client = RawStdio(["--workspaces", str(workspaces)], server_env(), tmp_path / "stdio-server.log")
    try:
        client.initialize()
        answer = client.request("tools/call", {"name": "get_loans", "arguments": GAMMA})
        assert not answer["result"].get("isError"), answer
        assert len(list(workspaces.glob("session-*.duckdb"))) == 1  # the session's workspace exists while it runs
        client.disconnect()
        assert client.proc.returncode == 0, (tmp_path / "stdio-server.log").read_text()
    finally:
        client.kill()
    assert list(workspaces.glob("*.duckdb*")) == []  # no database, no WAL


@pytest.mark.slow
def test_stdio_server_without_a_workspaces_option_removes_the_temporary_folder_it_made(tmp_path):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    client = RawStdio([], server_env(TMPDIR=str(tmp)), tmp_path / "stdio-server.log")
    try:
        client.initialize()
        answer = client.request("tools/call", {"name": "get_loans", "arguments": GAMMA})
        assert not answer["result"].get("isError"), answer
        assert len(list(tmp.glob("vada-sessions-*/session-*.duckdb"))) == 1
        client.disconnect()
        assert client.proc.returncode == 0, (tmp_path / "stdio-server.log").read_text()
    finally:
        client.kill()
    assert list(tmp.glob("vada-sessions-*")) == []


@pytest.mark.slow
def test_http_server_stopped_with_sigterm_removes_the_workspaces_of_sessions_still_open(tmp_path):
    workspaces = tmp_path / "ws"
    proc, base = start_http_server(tmp_path, ["--workspaces", str(workspaces)], server_env())
    try:
        _, loans = run_async(list_and_call_over_http, f"{base}/mcp", None, False)  # leaves its session open
        if loans.isError or len(list(workspaces.glob("session-*.duckdb"))) != 1:
            pytest.fail(f"the session did not make its workspace: {loans.content}")
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=DEADLINE)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the HTTP server did not stop within {DEADLINE:.0f} s of SIGTERM")
    finally:
        stop(proc)
    assert sorted(p.name for p in workspaces.iterdir()) == []


# --- safe defaults and a clean lifecycle (issue 23) ---------------------------------------------------------------------
def refused(options: list[str], env: dict[str, str | None]) -> str:
    """Run serve in process with ``options``: it must exit with status 1 before serving. Returns what it printed."""
    from typer.testing import CliRunner

    from vadaorchestra.cli import app

    done = CliRunner().invoke(app, ["serve", "--catalog", str(CATALOG), "--transport", "http", "--port",
                                    str(free_port()), *options], env=env)
    assert done.exit_code == 1, done.output
    return done.output


@pytest.mark.parametrize("given", ["--token option", "VADA_MCP_TOKEN env", "blank VADA_MCP_TOKEN env"])
def test_an_empty_token_is_refused_at_start_instead_of_turning_authentication_off(given):
    options, env = {"--token option": (["--token", ""], {"VADA_MCP_TOKEN": None}),
                    "VADA_MCP_TOKEN env": ([], {"VADA_MCP_TOKEN": ""}),
                    "blank VADA_MCP_TOKEN env": ([], {"VADA_MCP_TOKEN": "  "})}[given]
    assert "the bearer token is empty" in refused(options, env)


@pytest.mark.slow
def test_a_host_beyond_loopback_without_a_token_is_refused_unless_insecure_and_checks_the_host_header(tmp_path):
    # 127.0.0.2 is not one of loopback's names, as 0.0.0.0 is not, but the test still contacts nothing beyond loopback
    for host in ("0.0.0.0", "127.0.0.2"):
        assert "set VADA_MCP_TOKEN, or pass --insecure" in refused(["--host", host], {"VADA_MCP_TOKEN": None})
    port = free_port()
    log = tmp_path / "insecure.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([*SERVE, "--transport", "http", "--host", "127.0.0.2", "--port", str(port),
                                 "--insecure"], env=server_env(), stdin=subprocess.DEVNULL, stdout=out,
                                stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.2:{port}"
        if not wait_healthy(proc, base):
            pytest.fail(f"the server did not start: {log.read_text()}")
        with httpx.Client(trust_env=False, timeout=5.0) as http:
            foreign = http.post(f"{base}/mcp", json=INITIALIZE, headers={**ACCEPT, "Host": "evil.example:80"})
            origin = http.post(f"{base}/mcp", json=INITIALIZE, headers={**ACCEPT, "Origin": "http://evil.example"})
            own = http.post(f"{base}/mcp", json=INITIALIZE, headers=ACCEPT)
        assert foreign.status_code == 421
        assert origin.status_code == 403
        assert own.status_code == 200
    finally:
        stop(proc)


SLOW = " ".join(f"c({i})." for i in range(100)) + " p(A, B, C, D, E) :- c(A), c(B), c(C), c(D), c(E)."


def call_in_background(url: str, tool: str, args: dict[str, Any]) -> threading.Thread:
    """Call a tool over HTTP in a daemon thread (its outcome is not looked at: the server goes away under it)."""

    async def scenario():
        async with (
            httpx.AsyncClient(timeout=HTTP_TIMEOUT, trust_env=False) as http,
            streamable_http_client(url, http_client=http) as (read, write, _),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            await session.call_tool(tool, args)

    def target():
        try:
            anyio.run(scenario)
        except BaseException:  # noqa: BLE001 - the server was stopped under it, as the test means to
            pass

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread


@pytest.mark.slow
def test_sigterm_during_a_long_query_stops_the_server_within_seconds_leaving_no_workspace(tmp_path):
    workspaces = tmp_path / "ws"
    proc, base = start_http_server(tmp_path, ["--workspaces", str(workspaces), "--time-limit", "60"], server_env())
    try:
        call_in_background(f"{base}/mcp", "run_program", {"program": SLOW})
        deadline = time.monotonic() + DEADLINE
        while not list(workspaces.glob("session-*.duckdb")) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(1.0)  # the query is running
        start = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=DEADLINE)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the HTTP server did not stop within {DEADLINE:.0f} s of SIGTERM")
        took = time.monotonic() - start
    finally:
        stop(proc)
    assert took < 5 + 2, f"{took:.1f} s"  # within the issue's 5 s, with slack for a loaded machine
    assert [p.name for p in workspaces.iterdir()] == []


@pytest.mark.slow
def test_a_restart_after_sigkill_removes_the_dead_servers_workspace_files(tmp_path):
    workspaces = tmp_path / "ws"
    proc, base = start_http_server(tmp_path, ["--workspaces", str(workspaces)], server_env())
    try:
        _, loans = run_async(list_and_call_over_http, f"{base}/mcp", None, False)
        assert not loans.isError and list(workspaces.glob("session-*.duckdb"))
    finally:
        proc.kill()
        proc.wait()
    assert list(workspaces.glob("session-*.duckdb"))  # the dead server's
    with http_server(tmp_path, "--workspaces", str(workspaces)):
        left = [p.name for p in workspaces.iterdir()]
    assert left == []


@pytest.mark.slow
def test_stdio_server_stopped_with_sigterm_during_a_long_query_exits_within_seconds_leaving_no_workspace(tmp_path):
    workspaces = tmp_path / "ws"
    client = RawStdio(["--workspaces", str(workspaces), "--time-limit", "60"], server_env(), tmp_path / "stdio.log")
    try:
        client.initialize()
        client.send({"id": 99, "method": "tools/call", "params": {"name": "run_program", "arguments": {"program": SLOW}}})
        deadline = time.monotonic() + DEADLINE
        while not list(workspaces.glob("session-*.duckdb")) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(1.0)  # the query is running
        start = time.monotonic()
        client.proc.send_signal(signal.SIGTERM)
        try:
            client.proc.wait(timeout=DEADLINE)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the stdio server did not stop within {DEADLINE:.0f} s of SIGTERM")
        took = time.monotonic() - start
    finally:
        client.kill()
    assert took < 5 + 2, f"{took:.1f} s"
    assert list(workspaces.iterdir()) == []


@pytest.mark.slow
def test_an_abandoned_http_session_expires_after_the_idle_timeout_and_sessions_over_the_bound_get_503(tmp_path):
    workspaces = tmp_path / "ws"
    proc, base = start_http_server(tmp_path, ["--workspaces", str(workspaces), "--idle-timeout", "1",
                                              "--max-sessions", "1"], server_env())
    try:
        _, loans = run_async(list_and_call_over_http, f"{base}/mcp", None, False)  # never ends its session
        assert not loans.isError and len(list(workspaces.glob("session-*.duckdb"))) == 1
        with httpx.Client(trust_env=False, timeout=5.0) as http:
            over = http.post(f"{base}/mcp", json=INITIALIZE, headers=ACCEPT)  # the abandoned session still counts
        deadline = time.monotonic() + DEADLINE
        while list(workspaces.glob("session-*.duckdb*")) and time.monotonic() < deadline:
            time.sleep(0.1)
        expired = list(workspaces.glob("session-*.duckdb*")) == []
        _, again = run_async(list_and_call_over_http, f"{base}/mcp")
    finally:
        stop(proc)
    assert over.status_code == 503
    assert expired
    assert not again.isError


def raw_session(http: httpx.Client, url: str) -> dict[str, str]:
    """Open an MCP session with raw JSON-RPC posts; the headers that later posts of the session carry."""
    headers = dict(ACCEPT)
    opened = http.post(url, json=INITIALIZE, headers=headers)
    assert opened.status_code == 200, opened.text
    headers.update({"mcp-session-id": opened.headers["mcp-session-id"], "mcp-protocol-version": LATEST_PROTOCOL_VERSION})
    http.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=headers)
    return headers


def raw_call(http: httpx.Client, url: str, headers: dict[str, str], number: int, tool: str, args: dict) -> dict:
    """One tools/call over raw JSON-RPC; its result (read from the SSE stream or the JSON body)."""
    response = http.post(url, headers=headers, json={"jsonrpc": "2.0", "id": number, "method": "tools/call",
                                                     "params": {"name": tool, "arguments": args}})
    for line in response.text.splitlines():
        if line.startswith("data:") and line[5:].strip():
            message = json.loads(line[5:])
            if message.get("id") == number:
                return message["result"]
    raise AssertionError(f"no answer to request {number}: {response.text[:300]}")


# Ends only at its time limit: a count (no memory to run out of) over 10^12 combinations.
LONG = " ".join(f"c({i})." for i in range(100)) + " n(N) :- c(A), c(B), c(C), c(D), c(E), c(F), N = count(A)."


def test_a_call_whose_client_drops_the_connection_is_cancelled_at_once_and_commits_nothing(tmp_path):
    # One program at a time and 60 s per call: while the dropped call still ran, every other program would be "busy".
    proc, base = start_http_server(tmp_path, ["--time-limit", "60", "--max-programs", "1"], server_env())
    url = f"{base}/mcp"
    try:
        with httpx.Client(trust_env=False, timeout=DEADLINE) as http:
            headers = raw_session(http, url)
            call = {"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                    "params": {"name": "run_program", "arguments": {"program": LONG}}}
            with httpx.Client(trust_env=False, timeout=DEADLINE) as doomed:  # its own connection, closed below
                with doomed.stream("POST", url, json=call, headers=headers) as response:
                    assert response.status_code == 200
                    time.sleep(1.0)  # the query is running
            dropped = time.monotonic()
            while True:  # the program slot frees as soon as the dropped call has rolled back
                result = raw_call(http, url, headers, 8, "run_program", {"program": "q(X) :- X = 1."})
                if not result["isError"] or time.monotonic() - dropped > DEADLINE:
                    break
                assert "server busy" in result["content"][0]["text"], result
                time.sleep(0.2)
            freed = time.monotonic() - dropped
            described = raw_call(http, url, headers, 9, "describe_predicate", {"predicate": "n"})
    finally:
        stop(proc)
    assert not result["isError"], result
    assert freed < DEADLINE < 60, f"{freed:.1f} s"  # not the 60 s time limit
    assert described["isError"] and "'n'" in described["content"][0]["text"], described


@pytest.mark.slow
def test_http_cancellations_stop_the_call_even_when_sent_before_it_and_the_session_survives(tmp_path):
    proc, base = start_http_server(tmp_path, ["--time-limit", "60"], server_env())
    url = f"{base}/mcp"

    def cancel(http: httpx.Client, headers: dict[str, str], number: int) -> int:
        note = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": number, "reason": "t"}}
        return http.post(url, json=note, headers=headers).status_code

    try:
        with httpx.Client(trust_env=False, timeout=DEADLINE) as http:
            headers = raw_session(http, url)
            # A cancellation that overtakes its request (the SDK drops it: no handler has started yet).
            assert cancel(http, headers, 21) == 202
            early = raw_call(http, url, headers, 21, "run_program", {"program": "q(X) :- X = 1."})
            # A cancellation of a running call: its query stops, and the session answers the next call.
            answers: dict[str, Any] = {}

            def long_call():
                with httpx.Client(trust_env=False, timeout=DEADLINE) as own:
                    answers["long"] = raw_call(own, url, headers, 22, "run_program", {"program": LONG})

            start = time.monotonic()
            caller = threading.Thread(target=long_call, daemon=True)
            caller.start()
            time.sleep(1.0)
            assert cancel(http, headers, 22) == 202
            caller.join(DEADLINE)
            took = time.monotonic() - start
            after = raw_call(http, url, headers, 23, "get_cardinality", {"predicate": "n"})
            loans = raw_call(http, url, headers, 24, "get_loans", GAMMA)
    finally:
        stop(proc)
    assert early["isError"] and "cancel" in early["content"][0]["text"].lower(), early
    assert "long" in answers and answers["long"]["isError"], answers
    assert "cancel" in answers["long"]["content"][0]["text"].lower(), answers
    assert took < DEADLINE < 60
    assert after["isError"] and "'n'" in after["content"][0]["text"], after  # nothing of the cancelled call is kept
    assert not loans["isError"], loans


@pytest.mark.slow
def test_stdio_cancellations_stop_the_call_even_when_sent_before_it_and_the_session_survives(tmp_path):
    client = RawStdio(["--time-limit", "60"], server_env(), tmp_path / "stdio.log")
    try:
        client.initialize()
        client.send({"method": "notifications/cancelled", "params": {"requestId": client.next_id + 1}})
        early = client.request("tools/call", {"name": "run_program", "arguments": {"program": "q(X) :- X = 1."}})
        threading.Timer(1.0, lambda: client.send({"method": "notifications/cancelled",
                                                  "params": {"requestId": client.next_id}})).start()
        start = time.monotonic()
        long = client.request("tools/call", {"name": "run_program", "arguments": {"program": LONG}})
        took = time.monotonic() - start
        after = client.request("tools/call", {"name": "describe_predicate", "arguments": {"predicate": "q"}})
    finally:
        client.kill()
    assert early["result"]["isError"] and "cancel" in early["result"]["content"][0]["text"].lower(), early
    assert long["result"]["isError"] and "cancel" in long["result"]["content"][0]["text"].lower(), long
    assert took < DEADLINE < 60
    assert after["result"]["isError"] and "'q'" in after["result"]["content"][0]["text"], after
