"""One tool called outside any agent (``vadaorchestra call TOOL k=v …``): its dependencies first, in a fresh
workspace, with the parameters each of them takes out of the ones given; then every fact of its output."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from vadaorchestra.datalog.sql import quote_ident
from vadaorchestra.errors import VadaError
from vadaorchestra.mcp_server.catalog import Catalog, ToolParam
from vadaorchestra.mcp_server.workspace import Workspace

if TYPE_CHECKING:
    from vadaorchestra.datalog.limits import Budget


@dataclass(frozen=True, slots=True)
class ToolCall:
    tool: str
    output: str
    columns: tuple[str, ...]
    rows: list[tuple]
    ran: list[tuple[str, dict[str, Any], int]]  # (tool, params, facts) in run order, dependencies first


def parse_assignments(words: Sequence[str]) -> dict[str, str]:
    """``["bank_name=Bank Gamma", "k=3"]`` -> ``{"bank_name": "Bank Gamma", "k": "3"}``."""
    out: dict[str, str] = {}
    for word in words:
        name, eq, value = word.partition("=")
        if not eq or not name.strip():
            raise VadaError(f"parameter {word!r} is not NAME=VALUE")
        if name.strip() in out:
            raise VadaError(f"parameter {name.strip()!r} is given twice")
        out[name.strip()] = value
    return out


def convert(tool: str, param: ToolParam, text: str) -> Any:
    """A parameter's text as its declared type."""
    try:
        match param.type:
            case "int":
                return int(text)
            case "float":
                return float(text)
            case "bool":
                if text.lower() not in ("true", "false", "1", "0", "yes", "no"):
                    raise ValueError(text)
                return text.lower() in ("true", "1", "yes")
            case _:
                return text
    except ValueError:
        raise VadaError(f"tool {tool!r}: parameter {param.name!r} is {param.type}, not {text!r}") from None


def call_tool(catalog: Catalog, tool: str, given: Mapping[str, str], *, engine: str = "duckdb",
              budget: Budget | None = None, memory_limit: int | None = None) -> ToolCall:
    """Run ``tool`` and its dependencies (each with the parameters of ``given`` it declares) and return its facts;
    all of it one call under ``budget`` (its time limit and cancellation), with ``memory_limit`` bytes of DuckDB
    memory."""
    order = catalog.closure(catalog.get(tool).name)
    declared = {p.name for name in order for p in catalog.get(name).params}
    unknown = sorted(set(given) - declared)
    missing = sorted({p.name for name in order for p in catalog.get(name).params} - set(given))
    if unknown or missing:
        takes = ", ".join(f"{p.name}: {p.type}" for p in _params(catalog, order)) or "no parameters"
        problems = [f"unknown parameter {n!r}" for n in unknown] + [f"missing parameter {n!r}" for n in missing]
        raise VadaError(f"tool {tool!r}: {'; '.join(problems)}. With its dependencies "
                        f"({', '.join(order[:-1]) or 'none'}) it takes {takes}")
    ws = Workspace(catalog, engine=engine, memory_limit=memory_limit,
                   time_limit=budget.seconds if budget is not None else None)
    try:
        with ws.bounded(budget) if budget is not None else contextlib.nullcontext():
            ran = []
            for name in order:
                spec = catalog.get(name)
                params = {p.name: convert(name, p, given[p.name]) for p in spec.params}
                result = ws.invoke(name, params)
                ran.append((name, params, result["facts"]))
            spec = catalog.get(tool)
            cols = ", ".join(quote_ident(c) for c in spec.columns)
            rows = ws.con.execute(f"SELECT {cols} FROM main.{quote_ident(spec.output)} ORDER BY ALL").fetchall()
            return ToolCall(spec.name, spec.output, spec.columns, rows, ran)
    finally:
        ws.remove()


def _params(catalog: Catalog, order: list[str]) -> list[ToolParam]:
    seen: dict[str, ToolParam] = {}
    for name in order:
        for p in catalog.get(name).params:
            seen.setdefault(p.name, p)
    return list(seen.values())
