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

from vadaorchestra.datalog.limits import Budget

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
            cleanup: Callable[[], Any] | None = None) -> T:
    """``work(budget)`` within ``seconds`` (None: no limit), stopped by SIGINT or SIGTERM; raises :class:`Stopped`
    after a signal (the work's own error otherwise, such as the budget's ``LimitExceeded``)."""
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

    main = threading.current_thread() is threading.main_thread()
    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)} if main else {}
    worker = threading.Thread(target=target, name="vada-work", daemon=True)
    try:
        with budget:
            worker.start()
            while worker.is_alive():
                worker.join(0.05)
                if caught and time.monotonic() - caught[0][1] > GRACE:
                    break  # the work did not stop: leave it
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    if caught:
        if worker.is_alive():
            if cleanup is not None:
                cleanup()
            sys.stderr.write(f"stopped ({signal.Signals(caught[0][0]).name}): the work did not stop within "
                             f"{GRACE:g} s and was abandoned; nothing was written\n")
            sys.stderr.flush()
            os._exit(128 + caught[0][0])
        raise Stopped(caught[0][0])
    if "error" in box:
        raise box["error"]
    return box["result"]


__all__ = ["GRACE", "Stopped", "bounded"]
