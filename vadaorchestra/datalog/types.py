"""Column types of the dialect and the built-in function signatures shared by the validator and the compilers."""

from __future__ import annotations

import math
from typing import Literal

ColType = Literal["string", "int", "float", "bool"]
TYPES: tuple[ColType, ...] = ("string", "int", "float", "bool")
NUMERIC = frozenset({"int", "float"})


class TypeClash(Exception):
    def __init__(self, a: str, b: str):
        super().__init__(f"{a} vs {b}")
        self.a, self.b = a, b


def join(a: ColType | None, b: ColType | None) -> ColType | None:
    """Least upper bound of two column types: unknown is bottom, ``int`` widens to ``float``; anything else clashes."""
    if a is None:
        return b
    if b is None or a == b:
        return a
    if a in NUMERIC and b in NUMERIC:
        return "float"
    raise TypeClash(a, b)


def type_of_value(value: object) -> ColType:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    return "string"


def fits(value: object, typ: ColType) -> bool:
    """Whether a Python value may stand in a column of ``typ`` (an int fits a float column; a bool fits nothing but
    bool; floats must be finite)."""
    match typ:
        case "string":
            return isinstance(value, str)
        case "int":
            return isinstance(value, int) and not isinstance(value, bool)
        case "float":
            return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
        case "bool":
            return isinstance(value, bool)
    return False


def comparable(a: ColType | None, b: ColType | None) -> bool:
    return a is None or b is None or a == b or (a in NUMERIC and b in NUMERIC)


# name → (allowed argument counts, result type or None meaning "same as the first argument")
FUNCTIONS: dict[str, tuple[tuple[int, ...], ColType | None]] = {
    "abs": ((1,), None),
    "round": ((1, 2), "int"),
    "floor": ((1,), "int"),
    "ceil": ((1,), "int"),
    "concat": ((1, 2, 3, 4, 5, 6, 7, 8), "string"),
    "to_lower": ((1,), "string"),
    "to_upper": ((1,), "string"),
    "substring": ((3,), "string"),
    "string_length": ((1,), "int"),
    "contains": ((2,), "bool"),
    "starts_with": ((2,), "bool"),
    "ends_with": ((2,), "bool"),
    "to_string": ((1,), "string"),
    "to_int": ((1,), "int"),
    "to_float": ((1,), "float"),
}
NUMERIC_FUNCTIONS = frozenset({"abs", "round", "floor", "ceil"})
STRING_FUNCTIONS = frozenset({"to_lower", "to_upper", "substring", "string_length", "contains", "starts_with", "ends_with"})
