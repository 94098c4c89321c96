"""Bounded work: a time budget that interrupts the DuckDB queries of an evaluation, and cancellation.

A :class:`Budget` is made per call (an MCP tool call, a ``run_program``). The connections (cursors) the call evaluates
on are registered with :meth:`Budget.watch`; when the time runs out or the call is cancelled, every one of them is
interrupted (DuckDB's ``interrupt()``), again every few milliseconds until the call ends, so that a query started
after the first interrupt stops too. The engine checks the budget before each statement, which also keeps a tripped
call from committing. Memory is bounded by DuckDB's own ``memory_limit`` on the database, and the rows a derived
relation may hold by the engine's ``max_rows``; both report a :class:`~vadaorchestra.errors.LimitExceeded`.
"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Literal

from vadaorchestra.errors import Cancelled, Diagnostic, EngineError, LimitExceeded, Span

REPEAT = 0.05  # seconds between interrupts once a budget has tripped
_ARMED: weakref.WeakSet[Budget] = weakref.WeakSet()  # the budgets of the calls running in this process
_ARMED_LOCK = threading.Lock()


def cancel_all() -> None:
    """Cancel every call running in this process (a command stopped by Ctrl-C, whatever server thread runs them)."""
    with _ARMED_LOCK:
        running = list(_ARMED)
    for budget in running:
        budget.cancel()


class Budget:
    """The time one call may take, and its cancellation; see the module docstring.

    The clock runs from the budget's creation, so that a call that waited for a worker thread has that much less
    time; ``with budget:`` arms it and stops it (and the interrupts) when the block ends; :meth:`cancel` may be
    called from any thread.
    """

    def __init__(self, seconds: float | None = None):
        self.seconds = seconds
        self.created = time.monotonic()
        self.reason: Literal["time", "cancelled"] | None = None
        self._targets: list[Any] = []
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._timer: threading.Timer | None = None
        self._committed = False

    def __enter__(self) -> Budget:
        with _ARMED_LOCK:
            _ARMED.add(self)
        if self.seconds is not None:
            left = max(0.0, self.seconds - (time.monotonic() - self.created))
            self._timer = threading.Timer(left, self.trip, ("time",))
            self._timer.daemon = True
            self._timer.start()
        return self

    def __exit__(self, *exc) -> None:
        self.finish()

    def finish(self) -> None:
        """The call ended: stop the clock and the interrupts."""
        self._done.set()
        with _ARMED_LOCK:
            _ARMED.discard(self)
        if self._timer is not None:
            self._timer.cancel()

    @property
    def finished(self) -> bool:
        return self._done.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the call ends; False if it did not within ``timeout`` seconds."""
        return self._done.wait(timeout)

    @contextmanager
    def watch(self, connection: Any) -> Iterator[Any]:
        """Interrupt ``connection`` (a DuckDB connection or cursor) when the budget trips, while the block runs."""
        with self._lock:
            self._targets.append(connection)
            tripped = self.reason is not None
        if tripped:
            connection.interrupt()
        try:
            yield connection
        finally:
            with self._lock:
                self._targets.remove(connection)

    def cancel(self) -> None:
        """Cancel the call: interrupt its queries; it ends with :class:`~vadaorchestra.errors.Cancelled`."""
        self.trip("cancelled")

    def committed(self) -> None:
        """The call's results are committed: from now on nothing interrupts it (what is written stays written, and
        the call reports it), even if its time runs out before it returns."""
        with self._lock:
            self._committed = True
            self.reason = None

    def trip(self, reason: Literal["time", "cancelled"]) -> None:
        with self._lock:
            if self.reason is not None or self._committed or self._done.is_set():
                return
            self.reason = reason
        threading.Thread(target=self._interrupt, name="vada-budget", daemon=True).start()

    def _interrupt(self) -> None:
        while True:
            with self._lock:
                if self._committed:
                    return
                for con in self._targets:
                    try:
                        con.interrupt()
                    except Exception:  # noqa: BLE001 - a connection closed meanwhile has nothing left to interrupt
                        pass
            if self._done.wait(REPEAT):
                return

    def check(self, label: str = "", span: Span | None = None, text: str | None = None) -> None:
        """Raise the budget's error if it has tripped (before a statement: a tripped call does no more work)."""
        if self.reason is not None:
            raise self.error(label, span, text)

    def error(self, label: str = "", span: Span | None = None, text: str | None = None) -> EngineError:
        """The error of a tripped budget, naming the rule that was running (``label``) when known."""
        where = f" while evaluating the {label}" if label.startswith("rule") else f" while {label}" if label else ""
        if self.reason == "cancelled":
            message = f"the call was cancelled{where}; nothing it computed was kept"
            return Cancelled(message, [Diagnostic(span, message)] if span else [], text)
        message = f"time limit exceeded: the call ran longer than {self.seconds:g} s{where}; nothing it computed was kept"
        return LimitExceeded(message, [Diagnostic(span, message)] if span else [], text, limit="time")


__all__ = ["Budget", "cancel_all"]
