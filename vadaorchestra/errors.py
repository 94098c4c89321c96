"""The one exception root of vadaorchestra and its few subclasses.

Every error a user can cause (a bad program, bad data, a failed constraint) is a :class:`VadaError`. Errors that come
from a place in a program carry :class:`Diagnostic` objects that render as ``file:line:col: error: message`` followed
by the source line and a caret.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Span:
    """A source location: 1-based line and column of the start (and end) of a construct."""

    source: str
    line: int
    column: int
    end_line: int = 0
    end_column: int = 0

    def __str__(self) -> str:
        return f"{self.source}:{self.line}:{self.column}"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem found in a program, with where it is and, optionally, related places."""

    span: Span | None
    message: str
    severity: str = "error"
    notes: tuple[tuple[Span | None, str], ...] = ()

    def render(self, text: str | None = None) -> str:
        """Render as ``file:line:col: error: message`` with the source line and a caret when ``text`` is known."""
        lines = [_render_one(self.span, f"{self.severity}: {self.message}", text)]
        for span, note in self.notes:
            lines.append(_render_one(span, f"note: {note}", text))
        return "\n".join(lines)


def _render_one(span: Span | None, message: str, text: str | None) -> str:
    if span is None:
        return message
    head = f"{span}: {message}"
    if text is None:
        return head
    source_lines = text.splitlines()
    if not 1 <= span.line <= len(source_lines):
        return head
    line = source_lines[span.line - 1].replace("\t", " ")
    caret = " " * (max(span.column, 1) - 1) + "^"
    return f"{head}\n    {line}\n    {caret}"


class VadaError(Exception):
    """Root of every error vadaorchestra raises on purpose."""

    def __init__(self, message: str, diagnostics: list[Diagnostic] | tuple[Diagnostic, ...] = (), text: str | None = None):
        super().__init__(message)
        self.message = message
        self.diagnostics: tuple[Diagnostic, ...] = tuple(diagnostics)
        self.text = text

    def render(self) -> str:
        """All diagnostics rendered with source context, or the plain message when there are none."""
        if not self.diagnostics:
            return f"error: {self.message}"
        return "\n".join(d.render(self.text) for d in self.diagnostics)

    def __str__(self) -> str:
        if self.diagnostics:
            return "\n".join(d.render(None) for d in self.diagnostics)
        return self.message


class DatalogSyntaxError(VadaError):
    """The program text does not parse."""


class ValidationError(VadaError):
    """The program parses but breaks a rule of the language (safety, arity, types, stratification, ...)."""


class CompileError(VadaError):
    """The program is valid but cannot be translated for the chosen engine."""


class EngineError(VadaError):
    """Evaluation failed: bad data, a run-time error in a rule, a violated constraint or an exceeded limit."""


class ConstraintViolation(EngineError):
    """A negative constraint ``#F :- body.`` has solutions; ``witnesses`` lists some of them."""

    def __init__(self, message: str, diagnostics=(), text=None, witnesses: list[dict[str, object]] | None = None):
        super().__init__(message, diagnostics, text)
        self.witnesses = witnesses or []


class LimitExceeded(EngineError):
    """A call ran out of one of its bounds: ``limit`` is ``"time"``, ``"memory"`` or ``"rows"``. Nothing was written."""

    def __init__(self, message: str, diagnostics=(), text=None, *, limit: str):
        super().__init__(message, diagnostics, text)
        self.limit = limit


class Cancelled(EngineError):
    """The call was cancelled (by its client, or because the server shuts down) while it ran. Nothing was written."""


class RoundLimitExceeded(EngineError):
    """A recursive stratum (typically a chase through existential rules) did not reach a fixpoint in time."""


class CatalogError(VadaError):
    """A catalog of tool programs cannot be loaded; diagnostics may come from several files (``sources``)."""

    def __init__(self, message: str, diagnostics=(), sources: dict[str, str] | None = None):
        super().__init__(message, diagnostics)
        self.sources = dict(sources or {})

    def render(self) -> str:
        if not self.diagnostics:
            return f"error: {self.message}"
        def text(span: Span | None) -> str | None:
            return self.sources.get(span.source) if span else None

        lines = []
        for d in self.diagnostics:  # each note shows the line of its own file
            lines.append(_render_one(d.span, f"{d.severity}: {d.message}", text(d.span)))
            lines.extend(_render_one(span, f"note: {note}", text(span)) for span, note in d.notes)
        return "\n".join(lines)


class WorkspaceError(VadaError):
    """A request to the workspace cannot be served: unknown tool, predicate or attribute, a missing dependency, a bad
    argument. Nothing was changed."""
