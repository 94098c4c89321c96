"""The run as a page: one self-contained HTML file of the question, the answer, the plan, the logical trace step by
step, the synthesized rules, the tokens, and a proof behind every figure of the answer.

:func:`build_page` reads a trace and the ``run.json`` next to it (when there is one), evaluates the trace's export
once with no model (:class:`~vadaorchestra.datalog.explain.Explainer`), and writes ``index.html``: styles, script
and data inline, no network, a size bounded whatever the data size (at most :data:`PREVIEW` facts per predicate,
at most :data:`PROOF_NODES` facts per proof). Every number and entity of the answer is a button that shows the proof
of the fact it was read from, down to lines of the data files.
"""

from __future__ import annotations

import html
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from vadaorchestra.agents.replay import load_trace
from vadaorchestra.audit.export import export_trace
from vadaorchestra.datalog.explain import Explainer
from vadaorchestra.errors import VadaError

PREVIEW = 8
PROOF_NODES = 120
MAX_TEXT = 4000  # characters of a rule or program shown per step


def build_page(trace: str | Path, out: str | Path | None = None, *, catalog: str | Path | None = None,
               data: str | Path | None = None) -> Path:
    """Write ``index.html`` for the trace into ``out`` (default: the trace's folder); returns its path."""
    trace = Path(trace)
    header, steps, cat, warnings = load_trace(trace, catalog=catalog, data=data)
    record = _record(trace)
    export = export_trace(trace, catalog=catalog, data=data)
    explainer = Explainer(export.text, data_root=export.data, max_contributions=6, max_nodes=PROOF_NODES)
    try:
        page = {
            "question": header.get("question", record.get("question", "")),
            "answer": record.get("answer", ""),
            "status": record.get("status", ""),
            "not_checked": record.get("not_checked", []),
            "checked": record.get("checked", []),
            "readings": record.get("readings", []),
            "policy": header.get("policy", ""),
            "engine": header.get("engine", ""),
            "catalog_hash": header.get("catalog_hash", ""),
            "data_hash": header.get("data_hash", ""),
            "replay": f"vadaorchestra replay {trace.name}",
            "elapsed_s": record.get("elapsed_s"),
            "warnings": warnings,
            "steps": _steps(steps, record, explainer),
            "synthesized": [{"output": s.get("output"), "purpose": s.get("purpose"), "attempts": s.get("attempts"),
                             "program": _cut(s.get("program", ""))} for s in record.get("synthesized", [])],
            "failed": [{"purpose": f.get("purpose", ""), "program": _cut(f.get("program", "")),
                        "error": _cut(f.get("error", ""))} for f in record.get("failed_rules", [])],
            "tokens": record.get("tokens", {}).get("by_step", {}),
        }
        page["figures"], page["proofs"] = _figures(record, explainer)
    finally:
        explainer.close()
    plan = record.get("plan") or _plan_of(steps)
    deps = {t: list(s.deps) for t, s in cat.tools.items()}
    target = Path(out) if out is not None else trace.parent
    target.mkdir(parents=True, exist_ok=True)
    text = _html(page, _plan_svg(plan, deps), _tokens_svg(page["tokens"]))
    fd, tmp = tempfile.mkstemp(prefix=".index-", suffix=".html", dir=target)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.chmod(tmp, 0o644)  # mkstemp makes it private; the page is meant to be read and archived
    final = target / "index.html"
    os.replace(tmp, final)
    return final


# --- the data ---------------------------------------------------------------------------------------------------------
def _record(trace: Path) -> dict[str, Any]:
    path = trace.with_name("run.json")
    if not path.exists():
        return {}
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise VadaError(f"{path}: not a run record: {exc}") from None


def _cut(text: str, n: int = MAX_TEXT) -> str:
    return text if len(text) <= n else text[:n] + f" … ({len(text) - n} more characters)"


def _steps(steps, record: dict[str, Any], explainer: Explainer) -> list[dict[str, Any]]:
    calls = [c for c in record.get("tool_calls", []) if c.get("ok")]
    used: set[int] = set()

    def elapsed(tool: str, args: dict | None) -> float | None:
        for i, c in enumerate(calls):
            if i not in used and c.get("tool") == tool and (args is None or c.get("args") == args):
                used.add(i)
                return c.get("ms")
        return None

    out = []
    for step in steps:
        if step.kind == "LI":
            title = f"stage {step.stage}: {step.tool} {json.dumps(step.params, ensure_ascii=False)}"
            ms = elapsed(step.tool or "", step.params)
            token_step = "select" if step.stage == 0 else "replan"
        else:
            title = step.note or "synthesized rules"
            ms = elapsed("run_program", None)
            token_step = "synthesize"
        out.append({
            "kind": step.kind, "number": step.number, "title": title, "rule": _cut(step.program), "ms": ms,
            "token_step": token_step,
            "predicates": [_preview(explainer, pred, n) for pred, (n, _h) in sorted(step.hashes.items())],
        })
    return out


def _preview(explainer: Explainer, pred: str, n: int) -> dict[str, Any]:
    info = explainer.a.predicates.get(pred)
    rows = [[_json(v) for v in r] for r in explainer.rows(pred, PREVIEW)] if info is not None else []
    return {"name": pred, "facts": n, "columns": list(info.columns) if info else [], "rows": rows}


def _json(value: Any) -> Any:
    return value if isinstance(value, str | int | float | bool) or value is None else str(value)


def _figures(record: dict[str, Any], explainer: Explainer) -> tuple[list[dict], dict[str, Any]]:
    figures, proofs, ids = [], {}, {}
    for f in record.get("figures", []):
        key = json.dumps([f["predicate"], f["fact"]], default=str)
        if key not in ids:
            ids[key] = f"p{len(ids) + 1}"
            try:
                proofs[ids[key]] = explainer.explain(f["predicate"], list(f["fact"])).to_dict()
            except VadaError as exc:  # "not derived" too: the page says why, and shows the rest
                proofs[ids[key]] = {"fact": f"{f['predicate']}(…)", "kind": "absent", "note": str(exc)}
        figures.append({"text": f["text"], "start": f["start"], "predicate": f["predicate"],
                        "column": f["column"], "proof": ids[key]})
    return figures, proofs


def _plan_of(steps) -> list[dict[str, Any]]:
    """The plan as the trace shows it (no run.json): one stage per stage number of its invocations."""
    stages: dict[int, list[dict]] = {}
    for s in steps:
        if s.kind == "LI":
            stages.setdefault(s.stage or 0, []).append({"tool": s.tool, "params": s.params, "level": "?"})
    return [{"stage": k, "iteration": None, "calls": v} for k, v in sorted(stages.items())]


# --- pictures ---------------------------------------------------------------------------------------------------------
BOX_W, BOX_H, GAP_X, GAP_Y, PAD = 230, 50, 60, 14, 28


def _plan_svg(plan: list[dict[str, Any]], deps: dict[str, list[str]]) -> str:
    """Stages as columns, one box per invocation (solid: chosen for the question, high-level; dashed: added as a
    dependency, low-level), an arrow from each call to the calls of later stages that read its output."""
    rows = max((len(s["calls"]) for s in plan), default=1)
    width = max(len(plan), 1) * (BOX_W + GAP_X) + PAD
    height = rows * (BOX_H + GAP_Y) + 2 * PAD + 20
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="plan-title" viewBox="0 0 {width} '
             f'{height}" width="{width}" height="{height}" class="plan">',
             '<title id="plan-title">The plan: stages left to right, arrows from a call to the calls that read its '
             'output</title>',
             '<defs><marker id="arrow" markerWidth="8" markerHeight="8" refX="8" refY="4" orient="auto">'
             '<path d="M0,0 L8,4 L0,8 z"/></marker></defs>']
    pos: dict[int, tuple[int, int, str]] = {}
    k = 0
    for i, stage in enumerate(plan):
        x = PAD + i * (BOX_W + GAP_X)
        it = stage.get("iteration")
        label = f"stage {stage['stage']}" + (f" · replanned (iteration {it})" if it else "")
        parts.append(f'<text x="{x}" y="{PAD - 10}" class="stage" data-stage="{stage["stage"]}">'
                     f'{html.escape(label)}</text>')
        for j, call in enumerate(stage["calls"]):
            y = PAD + j * (BOX_H + GAP_Y)
            level = call.get("level", "?")
            shown = f"{call['tool']}({', '.join(_short(v) for v in call.get('params', {}).values())})"
            parts.append(f'<g class="call {html.escape(level)}"><rect x="{x}" y="{y}" width="{BOX_W}" '
                         f'height="{BOX_H}" rx="5"/><title>{html.escape(shown)}</title>'
                         f'<text x="{x + 8}" y="{y + 19}">{html.escape(_clip(shown, 34))}</text>'
                         f'<text x="{x + 8}" y="{y + 38}" class="level">{html.escape(level)}-level</text></g>')
            pos[k] = (x, y, call["tool"])
            k += 1
    stage_of = []
    for i, stage in enumerate(plan):
        stage_of += [i] * len(stage["calls"])
    for a, (x1, y1, t1) in pos.items():
        for b, (x2, y2, t2) in pos.items():
            if stage_of[a] < stage_of[b] and t1 in deps.get(t2, []):
                parts.append(f'<line x1="{x1 + BOX_W}" y1="{y1 + BOX_H / 2}" x2="{x2}" y2="{y2 + BOX_H / 2}" '
                             f'marker-end="url(#arrow)"/>')
    parts.append("</svg>")
    return "".join(parts)


def _short(v: Any) -> str:
    if isinstance(v, dict) and "each" in v:
        return f"each {v['each']}"
    return str(v)


def _clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def _tokens_svg(by_step: dict[str, dict[str, Any]]) -> str:
    if not by_step:
        return "<p>No model step was recorded.</p>"
    top = max((s.get("sent", 0) for s in by_step.values()), default=1) or 1
    bar_w, row = 360, 26
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="tok-title" '
             f'width="{bar_w + 260}" height="{row * len(by_step) + 10}" class="tokens">',
             '<title id="tok-title">Tokens sent to the model per step</title>']
    for i, (step, s) in enumerate(by_step.items()):
        y = 5 + i * row
        w = max(1, int(bar_w * s.get("sent", 0) / top))
        parts.append(f'<text x="0" y="{y + 16}">{html.escape(step)}</text>'
                     f'<rect x="100" y="{y + 3}" width="{w}" height="16"/>'
                     f'<text x="{110 + w}" y="{y + 16}">{s.get("sent", 0):,} sent, {s.get("received", 0):,} '
                     f'received, {s.get("calls", 0)} call(s)</text>')
    parts.append("</svg>")
    return "".join(parts)


# --- the page ---------------------------------------------------------------------------------------------------------
STYLE = """
:root { color-scheme: light; }
body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; padding: 0 1rem 3rem; max-width: 1240px; color: #111; }
h1 { font-size: 1.35rem; } h2 { font-size: 1.1rem; margin-top: 2rem; border-bottom: 1px solid #999; }
.status { padding: .4rem .75rem; border: 2px solid; } .status.ok { border-color: #1a7f37; }
.status.refused { border-color: #b42318; }
.answer { white-space: pre-wrap; border: 2px solid #111; padding: .75rem; }
.answer button { font: inherit; padding: 0 .15rem; border: 1px solid #111; background: #fff; text-decoration: underline;
  cursor: pointer; }
.answer button[aria-pressed="true"] { background: #111; color: #fff; }
button:focus-visible, summary:focus-visible { outline: 3px solid #000; outline-offset: 2px; }
#proof { border: 2px dashed #111; padding: .5rem .75rem; min-height: 2rem; overflow-x: auto; }
#proof ul { list-style: none; padding-left: 1.2rem; border-left: 1px solid #777; margin: .2rem 0; }
#proof .fact { font-family: ui-monospace, monospace; }
.rule, .note, .src { display: block; font-size: .85em; margin-left: .5rem; }
.src { font-weight: bold; }
pre { white-space: pre-wrap; word-break: break-word; background: #f3f3f3; padding: .5rem; border: 1px solid #ccc; }
table { border-collapse: collapse; font-size: .85em; margin: .3rem 0 .8rem; display: block; overflow-x: auto; }
th, td { border: 1px solid #888; padding: .15rem .4rem; text-align: left; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem; } dl.meta dd { margin: 0; word-break: break-all; }
.plan-wrap, .tok-wrap { overflow-x: auto; }
svg.plan rect { fill: #fff; stroke: #111; stroke-width: 1.5; } svg.plan .low rect { stroke-dasharray: 5 4; }
svg.plan line { stroke: #333; } svg.plan marker path { fill: #333; } svg.plan text { font-size: 12px; }
svg.plan .stage { font-weight: bold; } svg.tokens rect { fill: #444; } svg.tokens text { font-size: 13px; }
details.step { border: 1px solid #999; margin: .3rem 0; padding: .2rem .5rem; }
details.step > summary { cursor: pointer; }
.kind { font-weight: bold; font-family: ui-monospace, monospace; }
@media (max-width: 700px) { body { font-size: 14px; } dl.meta { grid-template-columns: 1fr; } }
"""

SCRIPT = r"""
(function () {
  var data = JSON.parse(document.getElementById('run-data').textContent);
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in (attrs || {})) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  // the answer, every figure a button
  var box = document.getElementById('answer'), text = data.answer, at = 0;
  var figs = data.figures.slice().sort(function (a, b) { return a.start - b.start; });
  figs.forEach(function (f, i) {
    if (f.start < at || text.substr(f.start, f.text.length) !== f.text) return;
    box.appendChild(document.createTextNode(text.slice(at, f.start)));
    var b = el('button', {type: 'button', 'aria-pressed': 'false', 'data-proof': f.proof, 'data-figure': String(i),
                          'aria-controls': 'proof', title: f.predicate + ' (' + f.column + ')'}, f.text);
    b.addEventListener('click', function () { show(f, b); });
    box.appendChild(b);
    at = f.start + f.text.length;
  });
  box.appendChild(document.createTextNode(text.slice(at)));
  function tree(node) {
    var li = el('li');
    li.appendChild(el('span', {'class': 'fact'}, node.fact));
    if (node.source && node.source.file) li.appendChild(el('span', {'class': 'src'},
      'row of ' + node.source.file + ', line ' + node.source.line));
    else if (node.source) li.appendChild(el('span', {'class': 'src'}, 'fact of the program, line ' + node.source.line));
    if (node.rule) li.appendChild(el('span', {'class': 'rule'}, 'by ' + node.rule));
    if (node.note) li.appendChild(el('span', {'class': 'note'}, node.note));
    if (node.children && node.children.length) {
      var ul = el('ul');
      node.children.forEach(function (c) { ul.appendChild(tree(c)); });
      li.appendChild(ul);
    }
    return li;
  }
  function show(f, button) {
    document.querySelectorAll('#answer button').forEach(function (b) { b.setAttribute('aria-pressed', 'false'); });
    button.setAttribute('aria-pressed', 'true');
    var panel = document.getElementById('proof');
    panel.textContent = '';
    panel.appendChild(el('p', {}, '"' + f.text + '" was read from the column ' + f.column + ' of this fact; why it holds:'));
    var ul = el('ul', {'class': 'proof-tree'});
    ul.appendChild(tree(data.proofs[f.proof]));
    panel.appendChild(ul);
    panel.focus();
  }
})();
"""


def _html(page: dict[str, Any], plan_svg: str, tokens_svg: str) -> str:
    e = html.escape
    steps = []
    for s in page["steps"]:
        preds = []
        for p in s["predicates"]:
            head = "".join(f"<th scope=col>{e(c)}</th>" for c in p["columns"])
            body = "".join("<tr>" + "".join(f"<td>{e(str(v))}</td>" for v in r) + "</tr>" for r in p["rows"])
            shown = f"the first {len(p['rows'])} of {p['facts']:,}" if p["facts"] > len(p["rows"]) else "all"
            preds.append(f"<p>{e(p['name'])}: {p['facts']:,} facts after this step ({shown} shown)</p>"
                         f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
        ms = f" · {s['ms']:,.0f} ms" if isinstance(s["ms"], int | float) else ""
        decided = page["tokens"].get(s["token_step"])
        if decided:
            verb = "would have sent (offline: no model called)" if page["policy"] == "offline" else "sent"
            ms += f" · decided in step {s['token_step']}, whose prompts {verb} {decided.get('sent', 0):,} tokens"
        kind = "invocation" if s["kind"] == "LI" else "synthesized rules"
        steps.append(f'<details class="step" data-step="{s["number"]}"><summary><span class="kind">'
                     f'[{s["kind"]} {s["number"]}]</span> {e(kind)}: {e(s["title"])}{ms}</summary>'
                     f'<pre>{e(s["rule"])}</pre>{"".join(preds)}</details>')
    synth = "".join(f"<li><b>{e(str(x['output']))}</b>: {e(str(x['purpose']))} (attempts: {x['attempts']})"
                    f"<pre>{e(x['program'])}</pre></li>" for x in page["synthesized"]) or "<li>none</li>"
    failed = "".join(f"<li>{e(x['purpose'])}: refused with <q>{e(x['error'])}</q><pre>{e(x['program'])}</pre></li>"
                     for x in page["failed"])
    meta = [("policy", page["policy"]), ("engine", page["engine"]), ("catalog hash", page["catalog_hash"]),
            ("data hash", page["data_hash"]), ("replay with no model", page["replay"])]
    if page.get("elapsed_s") is not None:
        meta.append(("run time", f"{page['elapsed_s']:.1f} s"))
    meta_html = "".join(f"<dt>{e(k)}</dt><dd><code>{e(str(v))}</code></dd>" for k, v in meta)
    warn = "".join(f"<p role=note>warning: {e(w)}</p>" for w in page["warnings"])
    status = page.get("status") or ""
    status_html = (f'<p class="status {"ok" if status == "verified" else "refused"}" role="status"><b>'
                   f'{"Verified" if status == "verified" else "Could not answer"}</b>'
                   + "".join(f"<br>{e(str(p))}" for p in page.get("not_checked") or []) + "</p>"
                   if status else "")
    checked = page.get("checked") or []
    if checked:  # what "verified" rests on: each check of the question's reading, with its outcome
        status_html += ('<p class="checked">Checked against the question: ' + ", ".join(
            f'{e(c["check"])} {"✓" if c["ok"] else "✗"}' for c in checked) + "</p>")
    if page.get("readings"):
        status_html += ("<p>Readings of the question: " + "; ".join(
            f"{i}) {e(t)}" for i, t in enumerate(page["readings"], 1)) + "</p>")
    data = json.dumps({"answer": page["answer"], "figures": page["figures"], "proofs": page["proofs"]},
                      ensure_ascii=False, default=str).replace("</", "<\\/")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>vadaorchestra run: {e(page['question'])}</title><style>{STYLE}</style></head>
<body><header><h1>{e(page['question'])}</h1>{warn}</header>
<main>
<section aria-labelledby="h-answer"><h2 id="h-answer">Answer</h2>
{status_html}
<p>Each number and name is a button: it shows the fact it was read from and why that fact holds.</p>
<div id="answer" class="answer"></div>
<h3>Proof</h3><div id="proof" tabindex="-1" aria-live="polite">Choose a figure of the answer.</div></section>
<section aria-labelledby="h-run"><h2 id="h-run">The run</h2><dl class="meta">{meta_html}</dl></section>
<section aria-labelledby="h-plan"><h2 id="h-plan">Plan</h2>
<p>Solid boxes: tools chosen for the question (high-level); dashed: added as dependencies (low-level).</p>
<div class="plan-wrap">{plan_svg}</div></section>
<section aria-labelledby="h-trace"><h2 id="h-trace">Logical trace ({len(page['steps'])} steps)</h2>
<p>LI: a tool invocation; LM: rules synthesized at run time. Open a step for its rule and a preview of its facts.</p>
{''.join(steps)}</section>
<section aria-labelledby="h-synth"><h2 id="h-synth">Synthesized rules</h2><ol>{synth}</ol>
{'<h3>Refused, then repaired or dropped</h3><ol>' + failed + '</ol>' if failed else ''}</section>
<section aria-labelledby="h-tok"><h2 id="h-tok">Tokens per step</h2><div class="tok-wrap">{tokens_svg}</div></section>
</main>
<script type="application/json" id="run-data">{data}</script>
<script>{SCRIPT}</script>
</body></html>
"""
