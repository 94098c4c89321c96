"""Exact float sums give the same bits on every engine, for values drawn on purpose where rounding goes wrong:
negative fractions, ties of the 2^-64 unit, subnormals, ±0, values near the bound (issue 38).

The reference is computed in Python with exact integers: each value as the nearest whole number of 2^-64 units (ties
to even, as DuckDB's cast rounds), summed, and converted back to a double once (ties to even)."""

from __future__ import annotations

import math
import random
import shutil
import struct
from fractions import Fraction

import pytest

from vadaorchestra.datalog.api import run

UNIT = 2 ** 64
LISTS = 1000


def _draw(rnd: random.Random) -> float:
    kind = rnd.randrange(9)
    if kind == 0:
        return -rnd.random()  # a negative fraction: x - floor(x) is 1 + x, which loses bits
    if kind == 1:
        return rnd.choice([-1, 1]) * (rnd.randrange(1, 1 << 20) + 0.5) / UNIT  # a tie of the unit
    if kind == 2:
        return rnd.choice([-1, 1]) * rnd.random() * 2.0 ** -1022 * rnd.choice([1, 2.0 ** -40])  # subnormal
    if kind == 3:
        return rnd.choice([0.0, -0.0])
    if kind == 4:
        return rnd.choice([-1, 1]) * rnd.uniform(1e17, 2e17)  # far from the bound's 9.2e18 even summed
    if kind == 5:
        return rnd.choice([0.1, -0.1, 1e-7, -1e-7, 0.3, -0.3])  # not multiples of 2^-64: rounded to the unit
    if kind == 6:
        return rnd.choice([-1, 1]) * rnd.random() * 1e-18  # a few units
    if kind == 7:
        return round(rnd.uniform(-1e6, 1e6), 2)  # an amount
    return rnd.choice([-1, 1]) * math.ldexp(rnd.random(), rnd.randrange(-70, 40))


def _units(x: float) -> int:
    return round(Fraction(x) * UNIT)  # Python's round: ties to even


def _reference(values: list[float]) -> float:
    return float(sum(_units(v) for v in values)) / UNIT


def _bits(x: float) -> bytes:
    return struct.pack(">d", x + 0.0)  # -0.0 and 0.0 are one sum


@pytest.fixture(scope="module")
def drawn() -> list[list[float]]:
    rnd = random.Random(38)
    return [[_draw(rnd) for _ in range(rnd.randrange(1, 12))] for _ in range(LISTS)]


def _program(lists: list[list[float]]) -> tuple[str, dict]:
    rows = [(k, i, v) for k, values in enumerate(lists) for i, v in enumerate(values)]
    return ('@input("v"). @output("s"). @output("a").\n'
            "s(K, S) :- v(K, I, X), S = sum(X).\n"
            "a(K, A) :- v(K, I, X), A = avg(X).\n"), {"v": rows}


def _sums(engine: str, lists: list[list[float]]) -> tuple[dict[int, float], dict[int, float]]:
    text, inputs = _program(lists)
    result = run(text, inputs=inputs, engine=engine)
    return dict(result.tables["s"]), dict(result.tables["a"])


def test_the_drawn_lists_hold_every_class(drawn):
    flat = [v for values in drawn for v in values]
    assert len(drawn) >= 1000
    assert any(-1 < v < 0 for v in flat) and any(0 < abs(v) < 2.0 ** -1022 for v in flat)
    assert any(math.copysign(1, v) < 0 and v == 0 for v in flat)
    assert any((Fraction(v) * UNIT).denominator == 2 for v in flat)  # ties


def test_duckdb_sums_are_the_exact_reference_bit_for_bit(drawn):
    sums, avgs = _sums("duckdb", drawn)
    wrong = [k for k, values in enumerate(drawn) if _bits(sums[k]) != _bits(_reference(values))]
    assert wrong == [], [(drawn[k], sums[k], _reference(drawn[k])) for k in wrong[:3]]
    assert all(_bits(avgs[k]) == _bits(_reference(values) / len(values)) for k, values in enumerate(drawn))


@pytest.mark.parametrize("engine", [
    pytest.param("souffle", marks=pytest.mark.skipif(shutil.which("souffle") is None, reason="souffle is not on PATH")),
    pytest.param("spark", marks=pytest.mark.spark)])
def test_every_engine_gives_duckdbs_bits(drawn, engine):
    if engine == "spark":
        from vadaorchestra.datalog.engines.spark_engine import spark_available

        if (why := spark_available()) is not None:
            pytest.skip(str(why))
    theirs, ours = _sums(engine, drawn), _sums("duckdb", drawn)
    for got, want in zip(theirs, ours, strict=True):  # the sums, then the averages
        assert {k: _bits(v) for k, v in got.items()} == {k: _bits(v) for k, v in want.items()}
