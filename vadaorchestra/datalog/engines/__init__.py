"""Evaluation engines: DuckDB (embedded, the reference), Soufflé (a subprocess, when its binary is on PATH) and Spark
(Spark SQL on a SparkSession, with the ``spark`` extra and Java)."""

from __future__ import annotations

import importlib.util
import shutil

from vadaorchestra.errors import VadaError

ENGINES = ("duckdb", "souffle", "spark", "auto")


def souffle_available() -> bool:
    """True when a ``souffle`` binary is on PATH and the Soufflé engine is installed in this package."""
    return shutil.which("souffle") is not None and importlib.util.find_spec(
        "vadaorchestra.datalog.engines.souffle_engine") is not None


def pick_engine(name: str) -> str:
    """Resolve ``auto`` to ``souffle`` or ``duckdb``; refuse ``souffle`` or ``spark`` when it cannot run here."""
    if name not in ENGINES:
        raise VadaError(f"unknown engine {name!r} (engines: {', '.join(ENGINES)})")
    if name == "auto":
        return "souffle" if souffle_available() else "duckdb"
    if name == "souffle" and not souffle_available():
        raise VadaError("the Soufflé engine needs the 'souffle' binary on PATH; use --engine duckdb or auto")
    if name == "spark":
        from vadaorchestra.datalog.engines.spark_engine import spark_available

        why = spark_available()
        if why is not None:
            raise VadaError(f"{why}; or use --engine duckdb")
    return name
