"""``vadaorchestra run concentration-risk``: the paper's running example, end to end.

Generates the scenario's data into ``scenarios/concentration_risk/data/`` when it is absent (or on ``--regenerate``,
or when the seed or the generator differ from the ones the data were made with), asks a question of
``questions.yaml`` (the paper's by default) over the scenario's catalog — decided by the deterministic offline policy,
or by a model with ``--model local`` / ``--model CONFIG`` / ``--model-path FILE.gguf`` — and prints the answer, the
time the run took (data generation excluded), the tokens sent (or that a model would have been sent), the trace and
the command that replays it.

    vadaorchestra run concentration-risk [--seed N] [--regenerate] [--out DIR] [--question ID|TEXT] [--data DIR]
                                         [--model local|CONFIG] [--model-path FILE.gguf]
                                         [--engine duckdb|souffle|spark|auto]
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CATALOG = HERE / "catalog"
DATA = HERE / "data"
QUESTIONS = HERE / "questions.yaml"
REPORT = "concentration-risk-report"
MARKER = "generated.json"  # how the data folder was generated (not bound by any tool: not in the data hash)


def _generator():
    """The sibling ``generate`` module, loaded by path (this script is itself loaded by path by the CLI)."""
    name = "concentration_risk_generate"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, HERE / "generate.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # before running it: its dataclasses look their module up
        spec.loader.exec_module(module)
    return sys.modules[name]


def generator_version() -> str:
    """A digest of generate.py: data made by another version of it are made again."""
    return hashlib.sha256((HERE / "generate.py").read_bytes()).hexdigest()[:16]


def load_questions(path: Path = QUESTIONS) -> tuple[str, dict[str, dict[str, Any]]]:
    import yaml

    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    return doc["default"], doc["questions"]


def ensure_data(data: Path, seed: int, regenerate: bool, log=print) -> dict[str, Any]:
    """Generate the data into ``data`` unless it is there already, generated with ``seed`` by this generator."""
    marker = data / MARKER
    info: dict[str, Any] = {}
    if marker.is_file():
        try:
            info = json.loads(marker.read_text(encoding="utf-8"))
        except json.JSONDecodeError:
            info = {}
    gen = _generator()
    version = generator_version()
    present = all((data / f).is_file() for f in gen.FILES)
    if present and not regenerate and info.get("seed") == seed and info.get("generator") == version:
        return info
    start = time.perf_counter()
    rows = gen.generate(data, seed=seed)
    info = {"seed": seed, "generator": version, "rows": rows, "generated_s": round(time.perf_counter() - start, 3)}
    marker.write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
    log(f"generated {data} (seed {seed}) in {info['generated_s']:.2f} s: "
        + ", ".join(f"{f} {n} rows" for f, n in rows.items()))
    return info


def _tokens_line(tokens: dict[str, Any], model: bool) -> str:
    what = "tokens sent to the model" if model else "tokens a model would have been sent"
    if not tokens:
        return f"{what}: not counted (no token module)"
    totals = tokens.get("totals", {})
    steps = tokens.get("by_step", {})
    per = ", ".join(f"{s} {v.get('sent', 0)}" for s, v in steps.items())
    line = f"{what}: {totals.get('sent', '?')} ({per})"
    if model:
        line += f"; received {totals.get('received', '?')}; {totals.get('calls', '?')} model calls"
    return line + (f" — {tokens['note']}" if tokens.get("note") else "")


def report_folder(question: str, default_id: str, questions: dict[str, Any]) -> Path:
    """The default report folder of a question: each question its own, so that one run does not overwrite another's
    report (the README's `explain` steps read the paper question's)."""
    if question == default_id:
        return Path(REPORT)
    if question in questions:
        return Path(f"{REPORT}-{question}")
    return Path(f"{REPORT}-{hashlib.sha256(question.encode()).hexdigest()[:8]}")


def parser() -> argparse.ArgumentParser:
    """The script's options (what ``vadaorchestra run concentration-risk`` passes on)."""
    default_id, questions = load_questions()
    ap = argparse.ArgumentParser(prog="vadaorchestra run concentration-risk",
                                 description="The paper's running example: Bank Gamma's concentration risk, answered by "
                                             "the offline policy over generated data.")
    ap.add_argument("--seed", type=int, default=7, help="seed of the data generator (default 7)")
    ap.add_argument("--regenerate", action="store_true", help="generate the data again even if present")
    ap.add_argument("--out", type=Path, default=None,
                    help="report folder: trace.dl, run.json, plan.svg, index.html (default: one per question, "
                         f"./{REPORT} for the paper's, ./{REPORT}-ID for another of questions.yaml, "
                         f"./{REPORT}-<hash> for a question's text)")
    ap.add_argument("--question", default=default_id,
                    help=f"a question id of questions.yaml ({', '.join(questions)}) or the text of a question")
    ap.add_argument("--data", type=Path, default=DATA, help=f"data folder (default {DATA})")
    from vadaorchestra.datalog.engines import ENGINES

    ap.add_argument("--engine", default="duckdb", choices=ENGINES,
                    help="the engine the MCP server runs the tools on (default duckdb; the trace replays on any)")
    from vadaorchestra.agents.models import add_model_options

    add_model_options(ap)
    return ap


def main(argv: list[str] | None = None) -> int:
    default_id, questions = load_questions()
    args = parser().parse_args(argv)

    from vadaorchestra.agents.models import build_client
    from vadaorchestra.agents.run import ask_sync
    from vadaorchestra.datalog.engines import pick_engine
    from vadaorchestra.errors import VadaError

    try:
        engine = pick_engine(args.engine)
    except VadaError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1

    question = questions[args.question]["text"] if args.question in questions else args.question
    ensure_data(args.data, args.seed, args.regenerate, log=lambda m: print(m, file=sys.stderr))
    out = args.out or report_folder(args.question, default_id, questions)
    trace = out / "trace.dl"
    print(f"question: {question}", file=sys.stderr)
    start = time.perf_counter()
    client = build_client(args.model, args.model_path)
    if client is not None:
        print(f"model: {args.model_path or args.model} (loaded in {time.perf_counter() - start:.1f} s)",
              file=sys.stderr)
    result = ask_sync(question, catalog=CATALOG, data=args.data, trace=trace, report=out, model_client=client,
                      engine=engine, progress=lambda msg: print(f"• {msg}", file=sys.stderr, flush=True))
    elapsed = time.perf_counter() - start
    print(result.answer)
    print(f"run: {elapsed:.2f} s wall (data generation excluded), {len(result.ctx.plan.stages)} stages, "
          f"{len(result.calls)} tool calls, {len(result.ctx.synthesized)} synthesized rule sets")
    print(_tokens_line(result.tokens, client is not None))
    print(f"trace: {trace}")
    print(f"replay: vadaorchestra replay {trace}")
    from vadaorchestra.audit.page import build_page

    try:
        page = build_page(trace)
        print(f"report page: {page} ({page.stat().st_size:,} bytes)")
    except VadaError as exc:
        print(f"warning: no report page: {exc}", file=sys.stderr)
    return 0 if result.verified else 2


if __name__ == "__main__":
    sys.exit(main())
