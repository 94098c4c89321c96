"""``replay --verify-engines``: the trace replayed on DuckDB and on another engine (Soufflé by default, or Spark), and
every predicate they disagree on.

Both replays check the recorded hashes as ``replay`` does. Where the engines' final facts differ, the trace's export
is evaluated on both and the predicate's rows compared: a difference only in the last bits of floats, within
:data:`FLOAT_TOLERANCE` relative, is reported as a note (every engine sums floats exactly, so none is expected:
docs/LANGUAGE-NOTES.md); any other is an error naming the predicate.
"""

from __future__ import annotations

from pathlib import Path

from vadaorchestra.agents.replay import ReplayReport, compare_engines, replay
from vadaorchestra.audit.export import export_trace

FLOAT_TOLERANCE = 1e-12


def verify_engines(trace: str | Path, engines: tuple[str, str] = ("duckdb", "souffle"), **kwargs
                   ) -> tuple[list[ReplayReport], list[str], list[str]]:
    """The two replays, the differences between them (errors), and those within the float tolerance (notes)."""
    reports = [replay(trace, engine=e, **kwargs) for e in engines]
    differing = [p for p in sorted(set(reports[0].final) | set(reports[1].final))
                 if reports[0].final.get(p) != reports[1].final.get(p)]
    if not differing:
        return reports, [], []
    close = _within_tolerance(trace, engines, differing, **kwargs)
    errors = [d for d in compare_engines(*reports) if not any(f"predicate {p!r} " in d for p in close)]
    notes = [f"predicate {p!r}: the engines' floats differ in their last bits only (within {FLOAT_TOLERANCE:g} "
             f"relative)" for p in close]
    return reports, errors, notes


def _within_tolerance(trace, engines, preds: list[str], catalog=None, data=None) -> list[str]:
    from vadaorchestra.datalog.api import run

    export = export_trace(trace, catalog=catalog, data=data)
    rows = [run(export.text, data_root=export.data, engine=e, outputs=preds) for e in engines]
    return [p for p in preds if _close(sorted(rows[0].rows(p), key=_key), sorted(rows[1].rows(p), key=_key))]


def _key(row: tuple) -> tuple:
    return tuple((0, v) if not isinstance(v, float) else (1, 0) for v in row) + \
        tuple(v for v in row if isinstance(v, float))


def _close(a: list[tuple], b: list[tuple]) -> bool:
    if len(a) != len(b):
        return False
    for x, y in zip(a, b, strict=True):
        if len(x) != len(y):
            return False
        for u, v in zip(x, y, strict=True):
            if isinstance(u, float) and isinstance(v, float):
                if abs(u - v) > FLOAT_TOLERANCE * max(abs(u), abs(v)):
                    return False
            elif u != v:
                return False
    return True
