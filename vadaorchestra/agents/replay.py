"""Replay: re-execute a logical trace with no LLM, through the MCP tools, and compare every recorded hash."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from vadaorchestra.agents.trace import Step, read_trace
from vadaorchestra.errors import VadaError

if TYPE_CHECKING:
    from vadaorchestra.mcp_server.catalog import Catalog


@dataclass
class Mismatch:
    step: int
    predicate: str | None
    message: str


@dataclass
class ReplayReport:
    steps: int = 0
    hashes_checked: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    engine: str = ""
    final: dict[str, tuple[int, str]] = field(default_factory=dict)  # pred -> its replayed (facts, sha256) at the end

    @property
    def ok(self) -> bool:
        return not self.mismatches


class ReplayMismatch(VadaError):
    """A replayed step failed or derived other facts than the trace recorded."""


def _path(value: str | Path | None, base: Path) -> Path | None:
    if value is None:
        return None
    p = Path(value)
    return p if p.is_absolute() else (base / p)


async def replay_async(trace: str | Path, *, catalog: str | Path | None = None, data: str | Path | None = None,
                       engine: str | None = None) -> ReplayReport:
    """Re-run every step of the trace on a fresh workspace; collect each step whose hashes differ."""
    from mcp.shared.memory import create_connected_server_and_client_session

    from vadaorchestra.mcp_server.server import ReasoningServer

    header, steps, cat, warnings = load_trace(Path(trace), catalog=catalog, data=data)
    engine = engine or header.get("engine") or "duckdb"
    report = ReplayReport(steps=len(steps), warnings=warnings, engine=engine)
    server = ReasoningServer(cat, engine=engine, preview=1)
    try:
        async with create_connected_server_and_client_session(server.mcp) as client:
            for step in steps:
                if step.kind == "LI":
                    res = await client.call_tool(step.tool or "", step.params)
                else:
                    res = await client.call_tool("run_program", {"program": step.program})
                if res.isError:
                    report.mismatches.append(Mismatch(step.number, None, f"step {step.number} failed: "
                                                      f"{res.content[0].text if res.content else 'error'}"))
                    continue
                for pred, (n, digest) in sorted(step.hashes.items()):
                    report.hashes_checked += 1
                    d = await client.call_tool("describe_predicate", {"predicate": pred})
                    got = json.loads(d.content[0].text) if not d.isError else {}
                    report.final[pred] = (got.get("cardinality", -1), str(got.get("content_hash")))
                    if got.get("content_hash") != digest:
                        report.mismatches.append(Mismatch(
                            step.number, pred, f"step {step.number}: predicate {pred!r} differs: recorded {n} facts "
                            f"sha256:{digest[:12]}…, replayed {got.get('cardinality', '?')} facts "
                            f"sha256:{str(got.get('content_hash'))[:12]}…"))
    finally:
        server.close()
    return report


def compare_engines(first: ReplayReport, second: ReplayReport) -> list[str]:
    """Every predicate whose facts at the end of the two replays differ, in words."""
    out = []
    for pred in sorted(set(first.final) | set(second.final)):
        a, b = first.final.get(pred), second.final.get(pred)
        if a != b:
            def shown(r: ReplayReport, v: tuple[int, str] | None) -> str:
                return f"{r.engine}: " + (f"{v[0]} facts sha256:{v[1][:12]}…" if v else "absent")
            out.append(f"predicate {pred!r} differs between the engines ({shown(first, a)}; {shown(second, b)})")
    return out


def load_trace(trace_path: Path, *, catalog: str | Path | None = None, data: str | Path | None = None
               ) -> tuple[dict[str, str], list[Step], Catalog, list[str]]:
    """The header and steps of a trace, the catalog it names (or ``catalog``) over its data (or ``data``), and a
    warning for each of them whose content hash differs from the recorded one."""
    from vadaorchestra.mcp_server.catalog import Catalog

    try:
        text = trace_path.read_text(encoding="utf-8")
    except OSError as exc:
        raise VadaError(f"cannot read trace {str(trace_path)!r}: {exc.strerror}") from None
    try:
        header, steps = read_trace(text)
    except (ValueError, KeyError) as exc:
        raise VadaError(f"{trace_path}: not a logical trace: {exc}") from None
    if not steps and "catalog" not in header:
        raise VadaError(f"{trace_path}: not a logical trace (no header, no steps)")
    base = trace_path.parent
    cat_dir = _path(catalog, Path.cwd()) or _path(header.get("catalog"), base)
    if cat_dir is None:
        raise VadaError("the trace names no catalog; pass --catalog")
    if data is not None:
        data_dir = _path(data, Path.cwd())
    elif catalog is not None and header.get("data") == header.get("catalog"):
        data_dir = None  # the data lived in the catalog folder: follow the catalog given instead
    else:
        data_dir = _path(header.get("data"), base)
    cat = Catalog.load(cat_dir, data_dir)
    warnings = []
    if header.get("catalog_hash") and header["catalog_hash"] != cat.content_hash:
        warnings.append("the catalog's programs differ from the ones the trace was recorded with")
    if header.get("data_hash") and header["data_hash"] != cat.data_hash:
        warnings.append("the data files differ from the ones the trace was recorded with")
    return header, steps, cat, warnings


def replay(trace: str | Path, **kwargs) -> ReplayReport:
    """Synchronous :func:`replay_async`."""
    import anyio

    return anyio.run(lambda: replay_async(trace, **kwargs))
