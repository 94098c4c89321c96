"""The MCP server under faults and hostile load (issue 23): locks, limits, cancellation, hostile arguments.

Every wait is bounded: a call that hangs fails the test at its deadline instead of hanging the suite.
"""

from __future__ import annotations

import functools
import threading
import time

import anyio
import pytest
from mcp import types
from mcp.shared.exceptions import McpError
from mcp_helpers import client, err, ok

from vadaorchestra.datalog.api import bind_params
from vadaorchestra.datalog.engines import souffle_available
from vadaorchestra.datalog.limits import Budget
from vadaorchestra.datalog.parser import parse
from vadaorchestra.errors import Cancelled, DatalogSyntaxError, LimitExceeded, VadaError
from vadaorchestra.mcp_server.server import ReasoningServer
from vadaorchestra.mcp_server.workspace import Workspace

DEADLINE = 20.0  # seconds any single call may take here before the test calls it hung


def run_threads(*calls) -> list[object]:
    """Run each call in its own thread; return what each returned or raised. Fails if one is still running at the
    deadline (a deadlock)."""
    results: list[object] = [None] * len(calls)

    def target(i, fn):
        try:
            results[i] = fn()
        except BaseException as exc:  # noqa: BLE001 - the test inspects it
            results[i] = exc

    threads = [threading.Thread(target=target, args=(i, fn), daemon=True) for i, fn in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(DEADLINE)
    hung = [i for i, t in enumerate(threads) if t.is_alive()]
    assert not hung, f"calls {hung} did not return within {DEADLINE:.0f} s (deadlock)"
    return results


# --- the per-predicate locks --------------------------------------------------------------------------------------------
def test_a_program_whose_heads_differ_only_in_case_is_refused_instead_of_taking_its_lock_twice(catalog):
    with Workspace(catalog) as ws:
        (result,) = run_threads(lambda: ws.run_program("cd(X) :- X = 1.\ncD(X) :- X = 2."))
        assert isinstance(result, VadaError) and "only in letter case" in str(result)
        assert ws.run_program("cd(X) :- X = 3.")["cardinality"] == 1  # the lock was released


def test_concurrent_programs_writing_overlapping_case_variant_names_all_finish(catalog):
    with Workspace(catalog) as ws:
        programs = ["pA(X) :- X = 1. pB(X) :- X = 2.", "pB(X) :- X = 3. pA(X) :- X = 4.",
                    "pa(X) :- X = 5. pb(X) :- X = 6.", "pb(X) :- X = 7. pA(X) :- X = 8."] * 3
        results = run_threads(*[lambda p=p: ws.run_program(p) for p in programs])
        done = [r for r in results if isinstance(r, dict)]
        assert done, results  # the first to take the locks defines the predicates; the others find them taken
        assert all(isinstance(r, dict | VadaError) for r in results), results


@pytest.mark.anyio
async def test_two_sessions_defining_the_same_names_concurrently_each_get_their_own(server):
    async def session(value: int, out: dict):
        async with client(server) as c:
            for name in ("shared", "sHared2", "shared3"):
                await ok(c, "run_program", program=f"{name}(X) :- X = {value}.")
            out[value] = [(await ok(c, "get_top_k", predicate=n))["facts"] for n in ("shared", "sHared2", "shared3")]
            assert "already exists" in await err(c, "run_program", program="sHARED(X) :- X = 0.")

    out: dict[int, list] = {}
    with anyio.fail_after(DEADLINE):
        async with anyio.create_task_group() as tg:
            for v in range(4):
                tg.start_soon(session, v, out)
    assert out == {v: [[{"c0": v}]] * 3 for v in range(4)}


# --- bounded work -------------------------------------------------------------------------------------------------------
FACTS = " ".join(f"c({i})." for i in range(100))  # 100 facts: a 4-way join of them has 10^8 rows
RUNAWAY = {
    "doubling strings": 's("ab"). s(Y) :- s(X), Y = X + X.',
    "runaway recursion": "n(0). n(Y) :- n(X), Y = X + 1.",
    "exploding join": FACTS + " p(A, B, C, D) :- c(A), c(B), c(C), c(D).",
}
LIMIT = 0.5  # seconds per call in these tests


def timed(fn):
    start = time.monotonic()
    (result,) = run_threads(fn)
    return result, time.monotonic() - start


@pytest.mark.parametrize("name", RUNAWAY)
def test_a_runaway_program_ends_with_a_limit_error_naming_its_rule_and_leaves_the_workspace_unchanged(catalog, name):
    with Workspace(catalog, time_limit=LIMIT, memory_limit=128 << 20, max_rounds=10**6) as ws:
        ws.run_program("keep(X) :- X = 1.")
        result, took = timed(lambda: ws.run_program(RUNAWAY[name]))
        assert isinstance(result, LimitExceeded), result
        assert result.limit in ("time", "memory") and "nothing" in str(result)
        assert "rule for" in str(result), str(result)  # the rule that was running
        assert took < LIMIT + 5
        assert set(ws.predicates()) == {"keep"}
        assert ws.run_program("after(X) :- keep(X).")["cardinality"] == 1  # the workspace still serves


def test_a_rule_deriving_more_facts_than_the_row_limit_is_stopped_by_name(catalog):
    with Workspace(catalog, max_rows=1000) as ws:
        with pytest.raises(LimitExceeded) as caught:
            ws.run_program(FACTS + "\npair(A, B) :- c(A), c(B).")
        assert caught.value.limit == "rows"
        assert "'pair' holds 10000 facts, more than the 1000" in str(caught.value)
        assert "<program>:2:1" in str(caught.value)
        assert ws.predicates() == {}


def test_doubling_strings_stop_at_the_memory_limit_when_time_is_left(catalog):
    with Workspace(catalog, time_limit=30, memory_limit=64 << 20, max_rounds=10**6) as ws:
        result, took = timed(lambda: ws.run_program(RUNAWAY["doubling strings"]))
        assert isinstance(result, LimitExceeded) and result.limit == "memory", result
        assert "memory limit exceeded" in str(result) and "rule for s" in str(result)
        assert ws.predicates() == {}


def test_the_memory_limit_is_the_databases_own(catalog):
    with Workspace(catalog, memory_limit=100 << 20) as ws, ws.con.cursor() as cur:
        assert cur.execute("SELECT current_setting('memory_limit')").fetchone()[0] in ("100.0 MiB", "104.8 MB")


def test_a_cancelled_run_program_stops_and_leaves_no_predicate_behind(catalog):
    with Workspace(catalog, time_limit=60) as ws:
        budget = Budget(60)
        threading.Timer(0.3, budget.cancel).start()

        def call():
            with ws.bounded(budget):
                return ws.run_program(RUNAWAY["exploding join"])

        result, took = timed(call)
        assert isinstance(result, Cancelled), result
        assert took < 5
        assert ws.predicates() == {}


def test_closing_a_workspace_cancels_its_running_call(catalog):
    ws = Workspace(catalog, time_limit=60)
    closing = threading.Timer(0.3, ws.remove)
    closing.start()
    result, took = timed(lambda: ws.run_program(RUNAWAY["exploding join"]))
    closing.join(DEADLINE)
    assert isinstance(result, Cancelled), result
    assert took < 10
    assert not ws.path.exists()


@pytest.mark.anyio
async def test_a_limit_reaches_the_client_as_an_error_naming_the_limit_and_the_rule(catalog, tmp_path):
    with ReasoningServer(catalog, workspace_dir=tmp_path, time_limit=LIMIT, max_rows=500) as srv:
        async with client(srv) as c:
            with anyio.fail_after(DEADLINE):
                slow = await err(c, "run_program", program=RUNAWAY["exploding join"])
                rows = await err(c, "run_program", program=FACTS + "\npair(A, B) :- c(A), c(B).")
                card = await err(c, "get_cardinality", predicate="p")
        assert "time limit exceeded" in slow and "rule for p" in slow
        assert "row limit exceeded" in rows and "<program>:2:1" in rows
        assert "unknown predicate 'p'" in card


@pytest.mark.anyio
async def test_a_call_the_client_cancels_is_interrupted_and_commits_nothing(catalog, tmp_path):
    with ReasoningServer(catalog, workspace_dir=tmp_path, time_limit=60) as srv:
        async with client(srv) as c:
            await ok(c, "run_program", program="keep(X) :- X = 1.")
            request_id = c._request_id  # the id the next request gets
            with anyio.fail_after(DEADLINE):
                async with anyio.create_task_group() as tg:
                    async def runaway():
                        with pytest.raises(McpError, match="cancelled"):
                            await c.call_tool("run_program", {"program": RUNAWAY["exploding join"]})

                    tg.start_soon(runaway)
                    await anyio.sleep(0.5)
                    await c.send_notification(types.ClientNotification(types.CancelledNotification(
                        params=types.CancelledNotificationParams(requestId=request_id, reason="test"))))
                start = time.monotonic()
                while srv.sessions.in_flight() and time.monotonic() - start < DEADLINE:
                    await anyio.sleep(0.05)
            assert srv.sessions.in_flight() == 0
            listed = await ok(c, "get_cardinality", predicate="keep")
            assert "unknown predicate 'p'" in await err(c, "get_cardinality", predicate="p")
        assert listed["cardinality"] == 1


@pytest.mark.anyio
async def test_a_call_over_the_bound_of_calls_in_flight_gets_a_quick_server_busy(catalog, tmp_path):
    with ReasoningServer(catalog, workspace_dir=tmp_path, time_limit=3, max_calls=1) as srv:
        async with client(srv) as c, client(srv) as other:
            with anyio.fail_after(DEADLINE):
                async with anyio.create_task_group() as tg:
                    tg.start_soon(functools.partial(c.call_tool, "run_program",
                                                    {"program": RUNAWAY["exploding join"]}))
                    while not srv.sessions.in_flight():
                        await anyio.sleep(0.01)
                    start = time.monotonic()
                    busy = await err(other, "get_cardinality", predicate="x")
                    quick = time.monotonic() - start
                    tg.cancel_scope.cancel()
        assert "server busy" in busy and quick < 2


@pytest.mark.anyio
async def test_health_answers_503_while_a_call_is_stuck_past_its_time_limit(catalog, tmp_path):
    import httpx

    with ReasoningServer(catalog, workspace_dir=tmp_path, time_limit=0.01) as srv:
        app = srv.http_app()
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1") as http:
            assert (await http.get("/health")).status_code == 200
            budget = srv.sessions.admit()
            await anyio.sleep(0.05)
            assert srv.sessions.stuck(grace=0) == 1
            srv.sessions.leave(budget)
            assert (await http.get("/health")).json()["status"] == "ok"


# --- messages -----------------------------------------------------------------------------------------------------------
def test_a_sum_of_500_terms_fails_with_a_located_expression_too_deep_and_one_of_200_runs(catalog):
    deep = "x(1).\ns(Y) :- x(X), Y = " + " + ".join(["X"] * 500) + "."
    with Workspace(catalog) as ws:
        with pytest.raises(DatalogSyntaxError) as caught:
            ws.validate_program(deep)
        assert "<program>:2:15: error: expression too deep" in caught.value.render()
        shallow = "x(1).\ns(Y) :- x(X), Y = " + " + ".join(["X"] * 200) + "."
        assert ws.run_program(shallow)["preview"] == [{"c0": 200}]


@pytest.mark.anyio
async def test_a_deep_expression_reaches_the_client_as_a_located_error(server):
    async with client(server) as c:
        text = await err(c, "run_program", program="s(Y) :- Y = " + " - ".join(["1"] * 1000) + ".")
    assert "expression too deep" in text and "Traceback" not in text and "recursion" not in text


@pytest.mark.parametrize("value", [float("inf"), float("-inf"), float("nan")])
def test_a_threshold_that_is_not_a_finite_number_is_refused_as_such(catalog, value):
    with Workspace(catalog) as ws:
        ws.run_program("amounts(A) :- A = 1.5.")
        with pytest.raises(VadaError, match="threshold_value is not a finite number"):
            ws.top_k("amounts", threshold_attr="c0", threshold_op=">", threshold_value=value)
        with pytest.raises(VadaError, match="filter_value is not a finite number"):
            ws.top_k("amounts", filter_attr="c0", filter_value=value)
        with pytest.raises(VadaError, match="parameter 'min_amount' is not a finite number"):
            bind_params(parse('@param("min_amount", "float", "x"). p($min_amount).'), {"min_amount": value})


@pytest.mark.anyio
async def test_a_non_finite_threshold_sent_over_mcp_is_not_reported_as_merely_missing(server):
    async with client(server) as c:
        await ok(c, "run_program", program="amounts(A) :- A = 1.5.")
        text = await err(c, "get_top_k", predicate="amounts", threshold_attr="c0", threshold_op=">",
                         threshold_value=float("inf"))  # the client's JSON sends it as null
    assert "threshold_value is missing (or was a number that is not finite" in text


# --- lifecycle ----------------------------------------------------------------------------------------------------------
def test_the_start_up_sweep_removes_only_what_no_live_server_holds(tmp_path):
    import subprocess
    import sys

    import duckdb

    from vadaorchestra.mcp_server.server import _own, sweep

    folder, tmp = tmp_path / "ws", tmp_path / "tmp"
    folder.mkdir()
    tmp.mkdir()
    duckdb.connect(str(folder / "session-dead.duckdb")).close()  # a killed server's
    (folder / "session-gone.duckdb.wal").write_text("")  # a WAL whose database is gone
    (folder / "notes.txt").write_text("not ours")
    live = folder / "session-live.duckdb"
    holder = subprocess.Popen([sys.executable, "-c", "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); "
                               "print('open', flush=True); time.sleep(60)", str(live)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "open"
        dead_tmp, live_tmp = tmp / "vada-sessions-dead", tmp / "vada-sessions-live"
        for d in (dead_tmp, live_tmp):
            d.mkdir()
            (d / "session-x.duckdb").write_text("")
        (dead_tmp / ".owner").write_text("")  # nobody holds its lock
        owner = _own(live_tmp)
        try:
            removed = sweep(folder, tmp)
        finally:
            owner.close()
    finally:
        holder.kill()
        holder.wait()
    assert sorted(p.name for p in removed) == ["session-dead.duckdb", "session-gone.duckdb.wal", "vada-sessions-dead"]
    assert sorted(p.name for p in folder.iterdir()) == ["notes.txt", "session-live.duckdb"]
    assert sorted(p.name for p in tmp.iterdir()) == ["vada-sessions-live"]


def test_the_souffle_engine_honours_the_budget_and_its_timeout_killing_the_binary(tmp_path):
    import duckdb

    from vadaorchestra.datalog.api import validate
    from vadaorchestra.datalog.engines.souffle_engine import SouffleEngine

    fake = tmp_path / "souffle"  # a binary that never finishes: what a runaway program looks like from outside
    fake.write_text("#!/bin/sh\nsleep 60\n")
    fake.chmod(0o755)
    con = duckdb.connect()
    text = 'e(1, 2). e(2, 3). p(X, Y) :- e(X, Y). p(X, Z) :- p(X, Y), e(Y, Z). @output("p").'
    analysis = validate(parse(text), connection=con)
    budget = Budget(None)
    threading.Timer(0.3, budget.cancel).start()
    with budget, budget.watch(con):
        result, took = timed(lambda: SouffleEngine(con, souffle=str(fake), budget=budget, fallback=False)
                             .evaluate(analysis, collect=["p"]))
    assert isinstance(result, Cancelled) and "while running Soufflé" in str(result), result
    assert took < 5
    result, took = timed(lambda: SouffleEngine(con, souffle=str(fake), timeout=0.5, fallback=False)
                         .evaluate(analysis, collect=["p"]))
    assert isinstance(result, LimitExceeded) and result.limit == "time", result
    assert took < 5


def souffle_processes() -> list[int]:
    """This process's child processes running the Soufflé binary (each run is its own process group)."""
    import os
    from pathlib import Path

    found = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":\t", 1) for line in status.read_text().splitlines() if ":\t" in line)
        except OSError:
            continue
        if fields.get("PPid", "").strip() == str(os.getpid()) and fields.get("Name", "").strip() == "souffle":
            found.append(int(status.parent.name))
    return found


# A count (no memory to run out of) over 10^12 combinations, which the Soufflé binary evaluates in one program.
SOUFFLE_RUNAWAY = FACTS + " n(N) :- c(A), c(B), c(C), c(D), c(E), c(F), N = count(A)."


@pytest.mark.slow
@pytest.mark.skipif(not souffle_available(), reason="the 'souffle' binary is not on PATH")
def test_the_real_souffle_binary_is_killed_when_its_call_is_cancelled_or_out_of_time_and_nothing_is_kept(catalog):
    with Workspace(catalog, engine="souffle", time_limit=60) as ws:
        budget = Budget(60)
        threading.Timer(1.0, budget.cancel).start()

        def call():
            with ws.bounded(budget):
                return ws.run_program(SOUFFLE_RUNAWAY)

        running = []
        threading.Timer(0.8, lambda: running.extend(souffle_processes())).start()
        cancelled, took = timed(call)
        assert running, "the Soufflé binary was not running the program"
        assert isinstance(cancelled, Cancelled), cancelled
        assert took < 10
        assert souffle_processes() == []
        assert ws.predicates() == {}
    with Workspace(catalog, engine="souffle", time_limit=1.0) as ws:
        limited, took = timed(lambda: ws.run_program(SOUFFLE_RUNAWAY))
        assert isinstance(limited, LimitExceeded) and limited.limit == "time", limited
        assert took < 10
        assert souffle_processes() == []
        assert ws.predicates() == {}


def test_explain_runs_under_the_calls_budget_too(catalog):
    with Workspace(catalog, time_limit=30) as ws:
        ws.run_program(FACTS + "\npair(A, B) :- c(A), c(B).")
        assert ws.explain("pair", [1, 2])["status"] == "ok"
        ws.run_program("later(X) :- X = 1.")  # a write: the next explain evaluates the session again
        budget = Budget(30)
        budget.cancel()
        with pytest.raises(Cancelled), ws.bounded(budget):
            ws.explain("pair", [1, 2])


@pytest.mark.anyio
async def test_programs_over_their_own_bound_get_server_busy_while_other_calls_still_run(catalog, tmp_path):
    with ReasoningServer(catalog, workspace_dir=tmp_path, time_limit=3, max_programs=1) as srv:
        async with client(srv) as c, client(srv) as other:
            with anyio.fail_after(DEADLINE):
                async with anyio.create_task_group() as tg:
                    tg.start_soon(functools.partial(c.call_tool, "run_program",
                                                    {"program": RUNAWAY["exploding join"]}))
                    while not srv.sessions.in_flight():
                        await anyio.sleep(0.01)
                    busy = await err(other, "run_program", program="q(X) :- X = 1.")
                    loans = await ok(other, "get_loans", bank_name="Bank Gamma")
                    tg.cancel_scope.cancel()
        assert "server busy: 1 programs are running" in busy
        assert loans["cardinality"] == 6
