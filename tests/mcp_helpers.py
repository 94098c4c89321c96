"""Helpers for tests that talk to the MCP server through the SDK's in-memory client session."""

from __future__ import annotations

import json
from contextlib import asynccontextmanager
from pathlib import Path

from mcp.shared.memory import create_connected_server_and_client_session

from vadaorchestra.mcp_server.server import ReasoningServer

CATALOG = Path(__file__).resolve().parents[1] / "examples" / "catalog"
GAMMA = {"bank_name": "Bank Gamma"}


@asynccontextmanager
async def client(server: ReasoningServer):
    async with create_connected_server_and_client_session(server.mcp) as c:
        yield c


async def ok(c, name: str, **args) -> dict:
    res = await c.call_tool(name, args)
    assert not res.isError, res.content[0].text
    assert json.loads(res.content[0].text) == res.structuredContent
    return res.structuredContent


async def err(c, name: str, **args) -> str:
    res = await c.call_tool(name, args)
    assert res.isError, f"{name}({args}) succeeded: {res.structuredContent}"
    return res.content[0].text


def snapshot(server: ReasoningServer) -> dict:
    """Every table of every open workspace with all its rows: what 'unchanged' means."""
    out = {}
    for ws in server.sessions.workspaces():
        cur = ws.con.cursor()
        names = [r[0] for r in cur.execute("SELECT table_name FROM duckdb_tables() WHERE NOT temporary").fetchall()]
        out[str(ws.path)] = {n: cur.execute(f'SELECT * FROM "{n}" ORDER BY ALL').fetchall() for n in sorted(names)}
        cur.close()
    return out
