"""MCP calls from the host against a running vadaorchestra server (used by deploy/container-check).

    python deploy/mcp_probe.py URL TOKEN VERSION

Checks that a request without the token is refused, that the server names itself with the package's VERSION, lists
the tools, calls a catalog tool and a built-in tool, and prints one line per call; exit 1 on the first failure.
"""

from __future__ import annotations

import json
import sys

import anyio
import httpx
from mcp import ClientSession
from mcp.client.streamable_http import streamablehttp_client


class ProbeFailed(Exception):
    pass


async def _call(session: ClientSession, tool: str, args: dict) -> dict:
    result = await session.call_tool(tool, args)
    if result.isError or result.structuredContent is None:
        raise ProbeFailed(f"{tool}: {' '.join(getattr(c, 'text', '') for c in result.content)[:300]}")
    return result.structuredContent


async def probe(url: str, token: str, version: str) -> list[str]:
    done: list[str] = []
    async with httpx.AsyncClient(trust_env=False) as plain:
        refused = await plain.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
    if refused.status_code != 401:
        raise ProbeFailed(f"a request without the token got HTTP {refused.status_code}, not 401")
    done.append("POST /mcp without the token: 401")
    async with streamablehttp_client(url, headers={"Authorization": f"Bearer {token}"}) as (read, write, _):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            if (init.serverInfo.name, init.serverInfo.version) != ("vadaorchestra", version):
                raise ProbeFailed(f"server says it is {init.serverInfo.name} {init.serverInfo.version}, "
                                 f"not vadaorchestra {version}")
            done.append(f"initialize: {init.serverInfo.name} {init.serverInfo.version}")
            tools = {t.name for t in (await session.list_tools()).tools}
            if "get_bank_exposures" not in tools:
                raise ProbeFailed(f"list_tools: no get_bank_exposures in {sorted(tools)}")
            done.append(f"list_tools: {len(tools)} tools")
            for dependency in ("get_loans", "get_credit_lines"):
                body = await _call(session, dependency, {"bank_name": "Bank Gamma"})
                done.append(f"{dependency}(Bank Gamma): {body['cardinality']} facts")
            body = await _call(session, "get_bank_exposures", {"bank_name": "Bank Gamma"})
            if body.get("cardinality", 0) < 1:
                raise ProbeFailed(f"get_bank_exposures: no facts: {json.dumps(body)[:300]}")
            done.append(f"get_bank_exposures(Bank Gamma): {body['cardinality']} facts")
            body = await _call(session, "get_top_k", {"predicate": "exposure", "k": 1, "order_by": "amount"})
            done.append(f"get_top_k(exposure, 1, amount): {json.dumps(body.get('facts', body))[:120]}")
    return done


def _leaves(group: BaseExceptionGroup) -> list:
    return [leaf for exc in group.exceptions
            for leaf in (_leaves(exc) if isinstance(exc, BaseExceptionGroup) else [exc])]


def main() -> int:
    url, token, version = sys.argv[1:4]
    failed: list[ProbeFailed] = []
    try:
        done = anyio.run(probe, url, token, version)
    except* ProbeFailed as group:
        failed.extend(_leaves(group))
    for exc in failed:
        print(f"  mcp: FAILED: {exc}", file=sys.stderr)
    if failed:
        return 1
    for line in done:
        print(f"  mcp: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
