"""``trace export``: a logical trace as one self-contained program in our dialect.

The program is what :class:`~vadaorchestra.mcp_server.lineage.ProgramWriter` writes for the trace's steps (every
invoked tool program bound and renamed per invocation, the invocation rules as recorded, the synthesized rules),
under a header naming the data folder and every predicate's last recorded hash. ``vadaorchestra datalog run EXPORT
--data DATA --hashes`` then evaluates the trace over the data with no server, no workspace and no model, and prints
hashes equal to the recorded ones: the paper's claim taken literally, evaluating the trace over the data yields the
same facts.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from vadaorchestra.agents.replay import load_trace
from vadaorchestra.errors import VadaError
from vadaorchestra.mcp_server.lineage import ProgramWriter


@dataclass
class Export:
    text: str
    data: Path  # the data root the program's @bind paths resolve under
    hashes: dict[str, tuple[int, str]] = field(default_factory=dict)  # pred -> the trace's last (facts, sha256)
    warnings: list[str] = field(default_factory=list)


def export_trace(trace: str | Path, *, catalog: str | Path | None = None, data: str | Path | None = None,
                 out: str | Path | None = None) -> Export:
    """The trace as one program. ``out`` (where the text will be written) only decides how the run command in the
    header names the data folder. Raises :class:`VadaError` for a trace that cannot be read, a catalog that no longer
    has a tool the trace invoked, or a program that no longer binds."""
    trace_path = Path(trace)
    header, steps, cat, warnings = load_trace(trace_path, catalog=catalog, data=data)
    if header.get("catalog_hash") and header["catalog_hash"] != cat.content_hash:
        raise VadaError(f"{trace_path}: the catalog's programs differ from the ones the trace was recorded with: "
                        f"an export would not be the program that ran")
    hashes: dict[str, tuple[int, str]] = {}
    for step in steps:
        hashes.update(step.hashes)
    try:
        body = ProgramWriter(cat, steps).program(sorted(hashes))
    except VadaError as exc:
        raise VadaError(f"{trace_path}: {exc}") from None
    root = cat.data_root.resolve()
    where = Path(out).resolve().parent if out is not None else Path.cwd()
    shown = os.path.relpath(root, where)
    lines = [
        "% vadaorchestra trace export: the logical trace as one program (no server, no workspace, no model)",
        f"% trace: {trace_path}",
        *(f"% {k}: {header[k]}" for k in ("question", "catalog_hash", "data_hash") if k in header),
        f"% data: {shown} (relative to this file's folder)" if out is not None else f"% data: {root}",
        "% run: vadaorchestra datalog run THIS_FILE --data DATA --hashes",
        "% every predicate below ends with the facts of its last hash in the trace:",
        *(f"% = {p} {n} facts sha256:{h}" for p, (n, h) in sorted(hashes.items())),
        "",
        body,
    ]
    return Export("\n".join(lines).rstrip() + "\n", root, hashes, warnings)


