"""Shared fixtures: every engine test runs on each engine; Soufflé is skipped with a visible reason when absent."""

from __future__ import annotations

import pytest

from vadaorchestra.datalog.engines import souffle_available

ENGINES = [
    "duckdb",
    pytest.param("souffle", marks=pytest.mark.skipif(not souffle_available(),
                                                     reason="the 'souffle' binary is not on PATH (or its engine is not built)")),
]


@pytest.fixture(params=ENGINES)
def engine(request) -> str:
    """Name of the engine under test."""
    return request.param
