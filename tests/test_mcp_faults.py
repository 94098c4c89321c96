"""The MCP server under faults and hostile load (issue 23): locks, limits, cancellation, hostile arguments.

Every wait is bounded: a call that hangs fails the test at its deadline instead of hanging the suite.
"""

from __future__ import annotations

import threading

import anyio
import pytest
from mcp_helpers import client, err, ok

from vadaorchestra.errors import VadaError
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
