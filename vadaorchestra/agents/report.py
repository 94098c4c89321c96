"""The report folder of a run: the trace, a JSON record, and a picture of the plan (stages left to right, an arrow
from each call to the calls that read its output)."""

from __future__ import annotations

import json
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

from vadaorchestra.agents.verify import answer_figures

if TYPE_CHECKING:
    from vadaorchestra.agents.run import AskResult

BOX_W, BOX_H, GAP_X, GAP_Y, PAD = 250, 44, 70, 18, 30


def write_report(result: AskResult, folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    ctx = result.ctx
    trace = folder / "trace.dl"
    trace.write_text(result.trace_text, encoding="utf-8")
    record = {
        "question": ctx.question,
        "answer": result.answer,
        # verified, or could not answer with what was not covered: the first thing a reader needs
        "status": "verified" if result.verified else "could not answer",
        "not_checked": [] if result.verified else list(ctx.problems),
        "frame": ctx.frame.to_json() if ctx.frame is not None else None,
        # what the Verifier checked of the question's reading (relations, direction, items, kinds, parts, words),
        # each with its outcome; "verified" means each of these held
        "checked": [{"check": c["check"], "ok": c["ok"], "problems": c["problems"]} for c in ctx.checks],
        "read_by": getattr(ctx.frame, "read_by", "parse"),
        "readings": ctx.readings,
        "reading": ctx.reading,
        "elapsed_s": round(result.elapsed_s, 3),
        "catalog_hash": ctx.catalog_hash,
        "data_hash": ctx.data_hash,
        "plan": [{"stage": s.index, "iteration": s.iteration,
                  "calls": [{"tool": c.tool, "params": c.params, "level": c.level} for c in s.calls]}
                 for s in ctx.plan.stages],
        "refused_duplicates": ctx.refused,
        "synthesized": [{"purpose": s.purpose, "kind": s.kind, "output": s.output, "attempts": s.attempts,
                         "program": s.program}
                        for s in ctx.synthesized],
        "failed_rules": ctx.failed_rules,
        "predicates": {n: {"origin": v.origin, "tool": v.tool, "cardinality": v.cardinality,
                           "retrieved_facts": len(v.facts), "complete": v.complete}
                       for n, v in ctx.predicates.items()},
        # each number and entity of a verified answer with the fact it was read from: `vadaorchestra explain
        # TRACE --answer` lists them, and explains any of them
        "figures": answer_figures(result.answer, ctx) if result.verified else [],
        "tool_calls": result.calls,
        "tokens": result.tokens,
        "messages": result.messages,
        "events": ctx.events,
    }
    run_json = folder / "run.json"
    run_json.write_text(json.dumps(record, indent=2, default=str), encoding="utf-8")
    svg = folder / "plan.svg"
    svg.write_text(plan_svg(result), encoding="utf-8")
    return [trace, run_json, svg]


def plan_svg(result: AskResult) -> str:
    """The dependency DAG of the executed plan with its stages as columns."""
    ctx = result.ctx
    stages = ctx.plan.stages
    pos: dict[str, tuple[float, float]] = {}
    height = max((len(s.calls) for s in stages), default=1) * (BOX_H + GAP_Y) + 2 * PAD + 30
    width = max(len(stages), 1) * (BOX_W + GAP_X) + 2 * PAD
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="sans-serif" font-size="12">',
             '<defs><marker id="a" markerWidth="8" markerHeight="8" refX="8" refY="4" orient="auto">'
             '<path d="M0,0 L8,4 L0,8 z" fill="#555"/></marker></defs>']
    for i, stage in enumerate(stages):
        x = PAD + i * (BOX_W + GAP_X)
        parts.append(f'<text x="{x}" y="{PAD - 8}" font-weight="bold">stage {stage.index} '
                     f'(iteration {stage.iteration})</text>')
        for j, call in enumerate(stage.calls):
            y = PAD + j * (BOX_H + GAP_Y)
            pos[call.key] = (x, y)
            fill = "#dbe9ff" if call.level == "high" else "#eeeeee"
            label = escape(str(call))
            short = label if len(label) <= 40 else label[:38] + "…"
            parts.append(f'<rect x="{x}" y="{y}" width="{BOX_W}" height="{BOX_H}" rx="6" fill="{fill}" '
                         f'stroke="#333"><title>{label}</title></rect>')
            parts.append(f'<text x="{x + 8}" y="{y + 18}">{short}</text>')
            parts.append(f'<text x="{x + 8}" y="{y + 35}" fill="#555">{call.level}-level</text>')
    tools = ctx.tools
    for stage in stages:
        for call in stage.calls:
            deps = tools.get(call.tool, {}).get("dependencies", [])
            for other in (c for s in stages if s.index < stage.index for c in s.calls):
                if other.tool in deps and other.key in pos:
                    (x1, y1), (x2, y2) = pos[other.key], pos[call.key]
                    parts.append(f'<line x1="{x1 + BOX_W}" y1="{y1 + BOX_H / 2}" x2="{x2}" y2="{y2 + BOX_H / 2}" '
                                 f'stroke="#555" marker-end="url(#a)"/>')
    parts.append(f'<text x="{PAD}" y="{height - 10}" fill="#555">blue: chosen for the question; grey: added as '
                 f'dependencies; {len(ctx.synthesized)} synthesized rule set(s) after the stages</text>')
    parts.append("</svg>")
    return "\n".join(parts)
