"""Evaluation engines: DuckDB (embedded, the reference) and Soufflé (a subprocess, when its binary is on PATH)."""

from __future__ import annotations

import importlib.util
import shutil

from vadaorchestra.errors import VadaError


def souffle_available() -> bool:
    """True when a ``souffle`` binary is on PATH and the Soufflé engine is installed in this package."""
    return shutil.which("souffle") is not None and importlib.util.find_spec(
        "vadaorchestra.datalog.engines.souffle_engine") is not None


def pick_engine(name: str) -> str:
    """Resolve ``auto`` to ``souffle`` or ``duckdb``; refuse ``souffle`` when it cannot run here."""
    if name not in ("duckdb", "souffle", "auto"):
        raise VadaError(f"unknown engine {name!r} (engines: duckdb, souffle, auto)")
    if name == "auto":
        return "souffle" if souffle_available() else "duckdb"
    if name == "souffle" and not souffle_available():
        raise VadaError("the Soufflé engine needs the 'souffle' binary on PATH; use --engine duckdb or auto")
    return name
