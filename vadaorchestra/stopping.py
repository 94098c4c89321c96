"""A command's work bounded in time and stopped by Ctrl-C or SIGTERM, on every engine.

The work runs in a worker thread with a :class:`~vadaorchestra.datalog.limits.Budget`; the main thread waits in short
steps, so that a signal is handled at once even while DuckDB runs one long query in C (which checks no Python signal).
A signal cancels the budget: DuckDB's queries are interrupted, Soufflé's process group is killed, Spark's job group is
cancelled; the work raises :class:`~vadaorchestra.errors.Cancelled` and ends without writing anything (the commands
write their outputs only once the work has returned). One line says what was stopped, and the exit code is 128 + the
signal (130 for SIGINT, 143 for SIGTERM). Work that does not stop within :data:`GRACE` seconds (a native call that
cannot be interrupted) is abandoned: the process exits all the same, after the ``cleanup`` it was given.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from vadaorchestra.datalog.limits import Budget, cancel_all
from vadaorchestra.errors import VadaError

GRACE = 2.0  # seconds the work has to stop after a signal before the process exits without it
T = TypeVar("T")


class Stopped(Exception):
    """The work was stopped by a signal (its number)."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        return 128 + self.signum


def bounded(work: Callable[[Budget], T], *, seconds: float | None = None,
            cleanup: Callable[[], Any] | None = None, everything: bool = False) -> T:
    """``work(budget)`` within ``seconds`` (None: no limit), stopped by SIGINT or SIGTERM; raises :class:`Stopped`
    after a signal (the work's own error otherwise, such as the budget's ``LimitExceeded``). With ``everything`` the
    signal or the time limit cancels every call running in the process (work whose calls run under budgets of their
    own, in an MCP server's threads: replay, ask); the time limit is then reported as such."""
    budget = Budget(seconds)
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["result"] = work(budget)
        except BaseException as exc:  # noqa: BLE001 - handed to the main thread
            box["error"] = exc

    caught: list[tuple[int, float]] = []

    def on_signal(signum: int, _frame: Any) -> None:
        if not caught:
            caught.append((signum, time.monotonic()))
        budget.cancel()
        if everything:
            cancel_all()

    main = threading.current_thread() is threading.main_thread()
    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)} if main else {}
    worker = threading.Thread(target=target, name="vada-work", daemon=True)
    try:
        with budget:
            worker.start()
            spread = False
            while worker.is_alive():
                worker.join(0.05)
                if everything and budget.reason == "time" and not spread:
                    spread = True
                    cancel_all()
                if caught and time.monotonic() - caught[0][1] > GRACE:
                    break  # the work did not stop: leave it
                if seconds is not None and time.monotonic() - budget.created > seconds + GRACE:
                    break  # its time ran out and it did not stop (a Spark session still starting)
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    if worker.is_alive():  # the work did not stop: the process exits without it
        if cleanup is not None:
            cleanup()
        if caught:
            line = f"stopped ({signal.Signals(caught[0][0]).name}): the work did not stop within {GRACE:g} s"
        else:
            line = f"error: time limit exceeded: the work ran longer than {seconds:g} s and did not stop within {GRACE:g} s"
        sys.stderr.write(f"{line}; it was abandoned and nothing was written\n")
        sys.stderr.flush()
        os._exit(128 + caught[0][0] if caught else 1)
    if caught:
        raise Stopped(caught[0][0])
    if "error" in box:
        if everything and budget.reason == "time" and isinstance(box["error"], VadaError):
            raise budget.error() from None  # the calls were cancelled because the command's time ran out
        raise box["error"]
    return box["result"]


__all__ = ["GRACE", "Stopped", "bounded"]
