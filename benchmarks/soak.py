"""Soak test: many concurrent MCP sessions of mixed, cancelled, abandoned and hostile calls against one HTTP server.

Starts ``vadaorchestra serve --transport http`` on a free 127.0.0.1 port (nothing beyond loopback is contacted) with a
fresh workspace folder and small limits, then runs ``--sessions`` concurrent client sessions for ``--seconds``. Each
session loops over random calls:

  tools       get_loans, get_credit_lines, get_bank_exposures for a random bank
  reads       get_cardinality, get_statistics, get_top_k on what the session materialized
  programs    run_program of a new predicate holding the session's own number (its leak probe)
  hostile     runaway recursion, an exploding join, doubling strings, heads differing only in case, a 1 MB string
  cancel      a runaway program cancelled by the client after a random delay (notifications/cancelled)
  disconnect  a runaway program whose client drops the connection without ending the session

and finally reads back every probe it defined. It checks:

  hung        calls that did not answer within the server's time limit plus ``GRACE`` seconds (must be 0)
  leaks       probes holding another session's number (must be 0)
  lost        probes that could not be read back (their session ended under them, or the read hung)
  rss         the server's resident memory after all sessions closed, at most ``RSS_BOUND`` above its warm
              baseline: after a short warm-up step of every kind of call at full concurrency (the one-session
              warm-up before it: "cold")
  leftovers   files in the workspace folder after SIGTERM (must be none)

and prints p50/p95 latency of the answered calls and calls/s. Exit status 1 when a check fails.

Run:  python benchmarks/soak.py [--sessions 32] [--seconds 60] [--time-limit 5] [--steps 1,8,32]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import httpx
from mcp import ClientSession, types
from mcp.client.streamable_http import streamable_http_client

ROOT = Path(__file__).resolve().parents[1]
CATALOG = ROOT / "examples" / "catalog"
BANKS = ("Bank Gamma", "Bank Delta", "Bank Alpha", "Bank Beta")
GRACE = 5.0  # seconds past the time limit after which a call counts as hung
RSS_BOUND = 0.20  # the resident memory after all sessions closed may be this much above the warm baseline
FACTS = " ".join(f"c({i})." for i in range(100))
HOSTILE = {
    "runaway recursion": "n(0). n(Y) :- n(X), Y = X + 1.",
    "exploding join": FACTS + " p(A, B, C, D, E) :- c(A), c(B), c(C), c(D), c(E).",
    "doubling strings": 's("ab"). s(Y) :- s(X), Y = X + X.',
    "case-variant heads": "cd(X) :- X = 1.\ncD(X) :- X = 2.",
    "1 MB string": 'big("' + "x" * (1 << 20) + '").',
}


@dataclass
class Stats:
    latencies: dict[str, list[float]] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    hung: list[str] = field(default_factory=list)
    health: list[float] = field(default_factory=list)  # GET /health latencies: how responsive the event loop is
    leaks: list[str] = field(default_factory=list)  # a probe holding another session's facts
    lost: list[str] = field(default_factory=list)  # a probe that could not be read back (its session ended, a hang)
    calls: int = 0

    def add(self, kind: str, seconds: float, is_error: bool) -> None:
        self.calls += 1
        self.latencies.setdefault(kind, []).append(seconds)
        if is_error:
            self.errors[kind] = self.errors.get(kind, 0) + 1

    def all_latencies(self) -> list[float]:
        return [x for v in self.latencies.values() for x in v]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mib(pid: int, field: str = "VmRSS") -> float:
    """The process's resident memory (``VmHWM``: its peak) in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Server:
    """``vadaorchestra serve --transport http`` on a free loopback port, with its own workspace folder."""

    def __init__(self, folder: Path, time_limit: float, max_calls: int, memory_mib: int):
        self.workspaces = folder / "ws"
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {k: v for k, v in os.environ.items() if k != "VADA_MCP_TOKEN"}
        self.log = open(folder / "server.log", "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "vadaorchestra.cli", "serve", "--catalog", str(CATALOG), "--transport", "http",
             "--host", "127.0.0.1", "--port", str(self.port), "--workspaces", str(self.workspaces),
             "--time-limit", str(time_limit), "--max-calls", str(max_calls), "--memory-limit", str(memory_mib),
             "--max-rows", "1000000", "--max-sessions", "1000"],
            env=env, stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        with httpx.Client(trust_env=False, timeout=5.0) as http:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    raise SystemExit(f"the server exited: {(folder / 'server.log').read_text()}")
                try:
                    if http.get(f"{self.base}/health").status_code == 200:
                        return
                except httpx.TransportError:
                    pass
                time.sleep(0.1)
        raise SystemExit("the server did not become healthy within 60 s")

    def stop(self) -> float:
        """SIGTERM; seconds until the process exited (killed after 30 s)."""
        start = time.monotonic()
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()
        return time.monotonic() - start


async def timed_call(session: ClientSession, stats: Stats, kind: str, tool: str, args: dict[str, Any],
                     limit: float) -> types.CallToolResult | None:
    start = time.monotonic()
    try:
        with anyio.fail_after(limit + GRACE):
            result = await session.call_tool(tool, args)
    except TimeoutError:
        stats.hung.append(f"{kind}: {tool} did not answer within {limit + GRACE:g} s")
        return None
    except Exception as exc:  # noqa: BLE001 - a protocol error is an answer too (e.g. a cancelled request)
        stats.add(kind, time.monotonic() - start, True)
        if "cancel" not in str(exc).lower():
            stats.errors[f"{kind} ({type(exc).__name__}: {str(exc)[:60]})"] = 1
        return None
    stats.add(kind, time.monotonic() - start, result.isError)
    return result


async def cancel_after(session: ClientSession, delay: float, stats: Stats, limit: float) -> None:
    """A runaway call the client cancels after ``delay`` seconds."""
    request_id = session._request_id  # noqa: SLF001 - the id the next request gets
    async with anyio.create_task_group() as tg:
        tg.start_soon(timed_call, session, stats, "cancel", "run_program", {"program": HOSTILE["exploding join"]},
                      limit)
        await anyio.sleep(delay)
        await session.send_notification(types.ClientNotification(types.CancelledNotification(
            params=types.CancelledNotificationParams(requestId=request_id, reason="soak"))))


async def one_session(url: str, number: int, until: float, stats: Stats, limit: float, rng: random.Random,
                      hostile: bool) -> None:
    probes: list[str] = []
    async with (
        httpx.AsyncClient(timeout=httpx.Timeout(30.0, read=300.0), trust_env=False) as http,
        streamable_http_client(url, http_client=http) as (read, write, _),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        bank = rng.choice(BANKS)
        for tool in ("get_loans", "get_credit_lines", "get_bank_exposures"):
            await timed_call(session, stats, "tools", tool, {"bank_name": bank}, limit)
        while time.monotonic() < until:
            roll = rng.random()
            if roll < 0.25:
                tool = rng.choice(("get_loans", "get_credit_lines", "get_bank_exposures"))
                await timed_call(session, stats, "tools", tool, {"bank_name": rng.choice(BANKS)}, limit)
            elif roll < 0.55:
                call = rng.choice([("get_cardinality", {"predicate": "exposure"}),
                                   ("get_statistics", {"predicate": "exposure", "attribute": "amount"}),
                                   ("get_top_k", {"predicate": "exposure", "k": 5, "order_by": "amount"})])
                await timed_call(session, stats, "reads", *call, limit)
            elif roll < 0.75:
                name = f"probe{len(probes)}"
                result = await timed_call(session, stats, "programs", "run_program",
                                          {"program": f"{name}(S) :- S = {number}."}, limit)
                if result is not None and not result.isError:
                    probes.append(name)
            elif not hostile:
                continue
            elif roll < 0.88:
                kind = rng.choice(list(HOSTILE))
                await timed_call(session, stats, "hostile", "run_program", {"program": HOSTILE[kind]}, limit)
            elif roll < 0.95:
                await cancel_after(session, rng.uniform(0.05, 1.0), stats, limit)
            else:
                break  # an abrupt disconnect: see below
        for name in probes:
            for _attempt in range(20):  # a "server busy" answer is retried: the probe is still there
                result = await timed_call(session, stats, "reads", "get_top_k", {"predicate": name}, limit)
                if result is None or not result.isError or "server busy" not in result.content[0].text:
                    break
                await anyio.sleep(0.5)
            if result is None or result.isError:
                stats.lost.append(f"session {number}: probe {name} could not be read back")
            elif result.structuredContent["facts"] != [{"c0": number}]:
                stats.leaks.append(f"session {number}: {name} holds {json.dumps(result.structuredContent['facts'])}")


async def abandoned_session(url: str, stats: Stats, limit: float) -> None:
    """A client that starts a runaway call and drops its connection without ending the session."""
    http = httpx.AsyncClient(timeout=httpx.Timeout(30.0, read=300.0), trust_env=False)
    try:
        with anyio.move_on_after(0.5):
            async with (
                streamable_http_client(url, http_client=http, terminate_on_close=False) as (read, write, _),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                await session.call_tool("run_program", {"program": HOSTILE["exploding join"]})
    finally:
        await http.aclose()
    stats.calls += 1


async def run_step(url: str, sessions: int, seconds: float, limit: float, seed: int, hostile: bool) -> Stats:
    stats = Stats()
    until = time.monotonic() + seconds
    rng = random.Random(seed)

    async def worker(slot: int) -> None:
        n = 0
        while time.monotonic() < until:
            number = slot * 100_000 + n
            n += 1
            own = random.Random(rng.random())
            try:
                if hostile and own.random() < 0.1:
                    await abandoned_session(url, stats, limit)
                else:
                    await one_session(url, number, until, stats, limit, own, hostile)
            except Exception as exc:  # noqa: BLE001 - a session the server refused (busy) or dropped: counted
                stats.errors[f"session ({type(exc).__name__}: {str(exc)[:80]})"] = (
                    stats.errors.get(f"session ({type(exc).__name__}: {str(exc)[:80]})", 0) + 1)

    async def probe_health() -> None:
        async with httpx.AsyncClient(timeout=30.0, trust_env=False) as http:
            while time.monotonic() < until:
                start = time.monotonic()
                try:
                    await http.get(url.removesuffix("/mcp") + "/health")
                except httpx.TransportError as exc:  # counted, not fatal: the step goes on
                    key = f"health ({type(exc).__name__}: {str(exc)[:60]})"
                    stats.errors[key] = stats.errors.get(key, 0) + 1
                stats.health.append(time.monotonic() - start)
                await anyio.sleep(0.5)

    async with anyio.create_task_group() as tg:
        tg.start_soon(probe_health)
        for slot in range(sessions):
            tg.start_soon(worker, slot)
    return stats


def report(label: str, stats: Stats, seconds: float) -> dict[str, Any]:
    lat = stats.all_latencies()
    row = {"step": label, "calls": stats.calls, "calls_per_s": round(stats.calls / seconds, 1),
           "p50_ms": round(percentile(lat, 0.5) * 1000, 1), "p95_ms": round(percentile(lat, 0.95) * 1000, 1),
           "hung": len(stats.hung), "leaks": len(stats.leaks), "lost": len(stats.lost),
           "health_p95_ms": round(percentile(stats.health, 0.95) * 1000, 1),
           "health_max_ms": round(max(stats.health, default=float("nan")) * 1000, 1),
           "by_kind": {k: {"n": len(v), "p50_ms": round(statistics.median(v) * 1000, 1),
                           "p95_ms": round(percentile(v, 0.95) * 1000, 1), "errors": stats.errors.get(k, 0)}
                       for k, v in sorted(stats.latencies.items())}}
    print(json.dumps(row), flush=True)
    for line in stats.hung[:10] + stats.leaks[:10] + stats.lost[:5]:
        print("  ", line, flush=True)
    other = {k: v for k, v in stats.errors.items() if k not in stats.latencies}
    if other:
        print("   other errors:", json.dumps(other)[:600], flush=True)
    return row


def wait_for_sessions(server: Server, seconds: float = 30.0) -> None:
    """Until the server released every session (they end as their clients end them; abandoned ones on shutdown)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and list(server.workspaces.glob("session-*.duckdb")):
        time.sleep(0.2)


def soak(sessions: int, seconds: float, time_limit: float, steps: list[int], seed: int = 7,
         memory_mib: int = 256, max_calls: int = 16, keep_log: str | None = None, settle: float = 5.0
         ) -> dict[str, Any]:
    """Run the soak; returns the verdict (see the module docstring). ``settle``: seconds to wait after the sessions
    closed before reading the RSS (the allocator gives memory back with some delay)."""
    with tempfile.TemporaryDirectory(prefix="vada-soak-") as tmp:
        server = Server(Path(tmp), time_limit, max_calls=max_calls, memory_mib=memory_mib)
        url = f"{server.base}/mcp"
        try:
            anyio.run(run_step, url, 1, min(2.0, seconds / 2), time_limit, seed, False)  # warm-up
            time.sleep(0.5)
            cold = rss_mib(server.proc.pid)
            # Warm: every kind of call has run at full concurrency once (code paths, caches, the allocator's arenas)
            anyio.run(run_step, url, sessions, min(10.0, seconds / 2), time_limit, seed - 1, True)
            wait_for_sessions(server)
            time.sleep(settle)
            baseline = rss_mib(server.proc.pid)
            rows = []
            for n in steps:
                stats = anyio.run(run_step, url, n, seconds, time_limit, seed + n, n == sessions)
                rows.append(report(f"{n} sessions{' (hostile)' if n == sessions else ''}", stats, seconds))
            wait_for_sessions(server)
            time.sleep(settle)
            after = rss_mib(server.proc.pid)
            peak = rss_mib(server.proc.pid, "VmHWM")
            open_left = len(list(server.workspaces.glob("session-*.duckdb")))
        finally:
            took = server.stop()
        leftovers = sorted(p.name for p in server.workspaces.iterdir()) if server.workspaces.exists() else []
        log = (Path(tmp) / "server.log").read_text(errors="replace")
        if keep_log is not None:
            Path(keep_log).write_text(log)
        if "Traceback" in log:
            print("server log (tail):\n" + "\n".join(log.splitlines()[-40:]), flush=True)
    verdict = {"hung": sum(r["hung"] for r in rows), "leaks": sum(r["leaks"] for r in rows),
               "lost": sum(r["lost"] for r in rows),
               "rss_cold_mib": round(cold, 1), "rss_baseline_mib": round(baseline, 1), "rss_after_mib": round(after, 1),
               "rss_growth": round(after / baseline - 1, 3), "rss_peak_mib": round(peak, 1), "workspaces_open_after_clients_ended": open_left,
               "sigterm_exit_s": round(took, 2), "leftovers": leftovers, "steps": rows}
    print(json.dumps({k: v for k, v in verdict.items() if k != "steps"}), flush=True)
    return verdict


def main() -> None:
    logging.getLogger("mcp.client").setLevel(logging.CRITICAL)  # abandoned sessions log their closed streams
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=32, help="concurrent sessions of the hostile step")
    parser.add_argument("--seconds", type=float, default=60.0, help="duration of each step")
    parser.add_argument("--time-limit", type=float, default=5.0, help="the server's --time-limit")
    parser.add_argument("--steps", default="1,8,32", help="session counts to measure, comma-separated; the one "
                                                          "equal to --sessions also sends hostile calls")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--max-calls", type=int, default=16, help="the server's --max-calls (its default: 16)")
    parser.add_argument("--log", help="copy the server's log here")
    args = parser.parse_args()
    steps = [int(s) for s in args.steps.split(",") if s]
    verdict = soak(args.sessions, args.seconds, args.time_limit, steps, args.seed, max_calls=args.max_calls,
                   keep_log=args.log)
    failed = verdict["hung"] or verdict["leaks"] or verdict["leftovers"] or verdict["rss_growth"] > RSS_BOUND
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
