"""Run one approach over one dataset: a record per question, a summary, the figures.

``<out>/<run>/records.jsonl`` holds per question ``id, type, template, complexity, question, gold, predicted, em,
judge, seconds, error`` (and the answer text, where the prediction came from, approach details);
``<out>/<run>/summary.json`` the EM (and judge accuracy) overall, per type and per complexity bucket, and timings.
``<run>`` is the approach name, followed by the model config's name when a model answers. The figures in ``<out>``
cover every run found there, so running several approaches into one folder compares them.

A run with a model takes hours, so each finished question is appended to ``<out>/<run>/records.partial.jsonl`` at
once, beside ``run.json`` (what the run is: dataset, approach, judge, engine, timeout, question ids). Run again with
the same settings, the questions recorded there are not asked again; with other settings the partial records are
set aside (``records.partial.jsonl.old``) and the run starts over. The finished run removes both.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from vadaorchestra.errors import VadaError
from vadaorchestra.eval import plots
from vadaorchestra.eval.baselines import Judge, Prediction, make, parse_approach
from vadaorchestra.eval.datasets import EvalError, resolve
from vadaorchestra.eval.metrics import right, summarize

DEFAULT_TIMEOUT = 300.0


def default_out(dataset: str) -> Path:
    return Path("runs") / "eval" / dataset.replace("-", "_")


def run_label(approach: str, model: str | Path | None, model_path: str | Path | None = None) -> str:
    from vadaorchestra.agents.models import describe_client

    kind, k = parse_approach(approach)
    name = f"rag-{k}" if kind == "rag" else kind
    label = describe_client(model, model_path)
    if label is not None:
        return f"{name}--{label}"
    return f"{name}--offline" if kind == "vadaorchestra" else name


def _needs_model(approach: str) -> bool:
    return parse_approach(approach)[0] != "vadaorchestra"


def evaluate(dataset: str, approach: str = "vadaorchestra", model: str | Path | None = None,
             judge: str | Path | None = None, limit: int | None = None, out_dir: str | Path | None = None, *,
             engine: str = "duckdb", timeout: float = DEFAULT_TIMEOUT, model_path: str | Path | None = None,
             sample: int | None = None, seed: int = 0,
             progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Evaluate ``approach`` on ``dataset``; write the records, the summary and the figures; return the summary.

    ``model`` is ``"local"`` or a model config file, ``model_path`` a GGUF file (see
    :func:`vadaorchestra.agents.models.build_client`); ``sample``/``seed`` pick a stratified sample (recorded in the
    summary), ``limit`` the first N questions. Raises :class:`EvalError` before any question runs when the approach
    needs a model and none is given.
    """
    import anyio

    from vadaorchestra.agents.models import build_client

    if limit is not None and limit < 1:
        raise EvalError(f"--limit must be at least 1, not {limit}")
    if limit is not None and sample is not None:
        raise EvalError("give --limit or --sample, not both")
    if _needs_model(approach) and model is None and model_path is None:
        raise EvalError(f"approach {parse_approach(approach)[0]} needs a model: pass --model local, --model CONFIG "
                        f"or --model-path FILE.gguf")
    ds = resolve(dataset)
    out = Path(out_dir) if out_dir is not None else default_out(ds.name)
    label = run_label(approach, model, model_path)
    run_dir = out / label
    questions = ds.sample(sample, seed) if sample is not None else ds.questions(limit)
    say = progress or (lambda _msg: None)
    config = {"dataset": ds.name, "approach": approach, "label": label, "model": str(model_path or model or ""),
              "judge": str(judge or ""), "engine": engine, "timeout": timeout, "ids": [q["id"] for q in questions]}
    done, keep = _resume(run_dir, config, say)
    model_client = build_client(model, model_path)
    judge_client = build_client(judge) if judge is not None else None
    started = time.time()
    records = anyio.run(_run_all, ds, approach, model_client, judge_client, questions, engine, timeout, say, done,
                        keep)
    summary = summarize(records, dataset=ds.name, approach=parse_approach(approach)[0], label=label,
                        model=str(model_path or model) if (model or model_path) else None,
                        judge_model=str(judge) if judge else None, limit=limit, engine=engine,
                        started=round(started, 3),
                        sample={"n": sample, "seed": seed, "ids": [q["id"] for q in questions]} if sample else None)
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "records.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False, default=str) + "\n"
                                                   for r in records), encoding="utf-8")
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    for name in (PARTIAL, RUN_CONFIG):
        (run_dir / name).unlink(missing_ok=True)
    if plots.available():
        figures = [p for p in (plots.accuracy_by_approach(out, ds.name), plots.accuracy_vs_complexity(out, ds.name))
                   if p]
    else:  # (the records and the summary are the result; the figures need the [eval] extra)
        figures = []
        say("figures not drawn: matplotlib is not installed (pip install -e \".[eval]\")")
    summary["files"] = {"records": str(run_dir / "records.jsonl"), "summary": str(run_dir / "summary.json"),
                        "figures": [str(p) for p in figures]}
    return summary


PARTIAL = "records.partial.jsonl"
RUN_CONFIG = "run.json"


def _resume(run_dir: Path, config: dict[str, Any], say: Callable[[str], None]
            ) -> tuple[dict[str, dict[str, Any]], Callable[[dict[str, Any]], None]]:
    """The records an interrupted run with the same ``config`` left in ``run_dir``, by question id, and the function
    that appends a finished question's record.

    A partial file of another configuration is renamed out of the way; a line that is not a whole record (the run
    was killed while writing it) ends what is read. Nothing is written before the first record: a run refused
    before its first question (no model, a model the approach cannot use) leaves no folder behind.
    """
    partial, cfg_path = run_dir / PARTIAL, run_dir / RUN_CONFIG
    done: dict[str, dict[str, Any]] = {}
    try:
        same = json.loads(cfg_path.read_text(encoding="utf-8")) == config
    except (OSError, ValueError):
        same = False
    if same and partial.exists():
        for line in partial.read_text(encoding="utf-8").splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                break
            if record.get("id") in config["ids"]:
                done[record["id"]] = record
        # rewrite the file with the whole records only, so a torn last line does not stay in the middle
        partial.write_text("".join(json.dumps(r, ensure_ascii=False, default=str) + "\n" for r in done.values()),
                           encoding="utf-8")
        if done:
            say(f"resuming: {len(done)} of {len(config['ids'])} questions already recorded in {partial}")
    elif partial.exists():
        partial.replace(partial.with_name(PARTIAL + ".old"))
        say(f"{partial} was recorded with other settings: set aside as {PARTIAL}.old, starting over")

    started = [same and partial.exists()]

    def keep(record: dict[str, Any]) -> None:
        if not started[0]:
            run_dir.mkdir(parents=True, exist_ok=True)
            cfg_path.write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
            partial.write_text("", encoding="utf-8")
            started[0] = True
        with partial.open("a", encoding="utf-8") as f:
            f.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")

    return done, keep


async def _run_all(ds, approach: str, model_client: Any, judge_client: Any, questions: list[dict[str, Any]],
                   engine: str, timeout: float, say: Callable[[str], None],
                   done: dict[str, dict[str, Any]] | None = None,
                   keep: Callable[[dict[str, Any]], None] | None = None) -> list[dict[str, Any]]:
    import anyio

    records = []
    done = done or {}
    grader = Judge(judge_client) if judge_client is not None else None
    try:
        async with make(approach, ds, model_client, engine=engine) as runner:
            for i, q in enumerate(questions, 1):
                if q["id"] in done:
                    records.append(done[q["id"]])
                    continue
                start = time.perf_counter()
                pred: Prediction | None = None
                error = None
                try:
                    with anyio.fail_after(timeout):
                        pred = await runner.answer(q["question"])
                except TimeoutError:
                    error = f"timeout after {timeout:g} s"
                except Exception as exc:  # noqa: BLE001 - one question's failure is its record, not the run's end
                    error = f"{type(exc).__name__}: {getattr(exc, 'message', None) or exc}"
                seconds = time.perf_counter() - start
                em = right(q["answer"], pred.values if pred else None, pred.source if pred else None,
                           (pred.extra or {}).get("parts") if pred else None,
                           (pred.extra or {}).get("yes") if pred else None, pred.text if pred else None)
                verdict = None
                if grader is not None:
                    try:
                        verdict = await grader.grade(q["question"], q["answer"], pred.text if pred else "")
                    except Exception as exc:  # noqa: BLE001 - a judge failure leaves the verdict unknown
                        error = (error + "; " if error else "") + f"judge: {type(exc).__name__}: {exc}"
                records.append({
                    "id": q["id"], "type": q.get("type"), "template": q.get("template"),
                    "complexity": q.get("complexity"), "question": q["question"], "gold": q["answer"],
                    "predicted": pred.values if pred else None, "em": em, "judge": verdict,
                    "seconds": round(seconds, 3), "error": error,
                    "answer_text": pred.text if pred else None, "source": pred.source if pred else None,
                    **({"details": pred.extra} if pred and pred.extra else {}),
                })
                if keep is not None:
                    keep(records[-1])
                mark = "ok " if em else ("ERR" if error else "-- ")
                say(f"[{i}/{len(questions)}] {mark} {q['id']} {q.get('type', ''):<9} {seconds:6.2f}s  {q['question']}"
                    + (f"  ({error})" if error else ""))
    finally:
        for client in (model_client, judge_client):
            close = getattr(client, "close", None)
            if close is not None:
                await close()
    return records


def format_summary(summary: dict[str, Any]) -> str:
    """The summary as a small text table."""

    def pct(v: float | None) -> str:
        return "   -  " if v is None else f"{100 * v:5.1f}%"

    s = summary["seconds"]
    lines = [f"{summary['dataset']} / {summary['label']}: {summary['n']} questions, EM {pct(summary['em']).strip()}, "
             f"judge {pct(summary['judge']).strip()}, {summary['errors']} errors, "
             f"{summary.get('wrong_and_verified', 0)} wrong and verified, "
             f"{summary.get('could_not_answer', 0)} could not answer, "
             f"{s['mean'] if s['mean'] is not None else '-'} s/question (median {s['median']}, total {s['total']})",
             f"  {'type':<12}{'n':>5}  {'EM':>6}  {'judge':>6}"]
    for name, g in summary["by_type"].items():
        lines.append(f"  {name:<12}{g['n']:>5}  {pct(g['em'])}  {pct(g['judge'])}")
    lines.append(f"  {'complexity':<12}{'n':>5}  {'EM':>6}  {'judge':>6}")
    for name, g in summary["by_complexity"].items():
        lines.append(f"  {name:<12}{g['n']:>5}  {pct(g['em'])}  {pct(g['judge'])}")
    for f in summary.get("files", {}).get("figures", []):
        lines.append(f"  figure: {f}")
    return "\n".join(lines)


def run_eval(dataset: str, approach: str = "vadaorchestra", model: str | Path | None = None,
             judge: str | Path | None = None, limit: int | None = None, out: Path | None = None, *,
             engine: str = "duckdb", timeout: float = DEFAULT_TIMEOUT, quiet: bool = False,
             model_path: Path | None = None, sample: int | None = None, seed: int = 0) -> int:
    """The ``vadaorchestra eval`` command: progress per question, then the summary table; 0, or 1 with the reason
    on stderr."""
    def say(msg: str) -> None:
        if not quiet:
            print(msg, flush=True)

    try:
        summary = evaluate(dataset, approach, model, judge, limit, out, engine=engine, timeout=timeout,
                           model_path=model_path, sample=sample, seed=seed, progress=say)
    except VadaError as exc:
        print(exc.render(), file=sys.stderr)
        return 1
    print(format_summary(summary))
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m vadaorchestra.eval DATASET [--approach A] [--model CONFIG] [--judge CONFIG] [--limit N] [--out DIR]``"""
    import argparse

    ap = argparse.ArgumentParser(prog="vadaorchestra eval", description="Evaluate an approach on a QA dataset "
                                 "(exact match, LLM-as-judge with --judge), with per-question records and figures.")
    ap.add_argument("dataset", help="bank_qa or bank_plus (or another scenario's question set)")
    ap.add_argument("--approach", default="vadaorchestra",
                    help="vadaorchestra, llm-only, rag (rag-10, rag-100, rag-1000), llm-mcp, "
                    "refactx (a llama.cpp model)")
    ap.add_argument("--model", default=None, help="'local', or a model config (JSON/YAML) of the answering model")
    ap.add_argument("--model-path", type=Path, default=None, help="a GGUF file for llama.cpp")
    ap.add_argument("--judge", default=None, help="'local' or a model config of the judge (else no judge)")
    ap.add_argument("--limit", type=int, default=None, help="only the first N questions")
    ap.add_argument("--sample", type=int, default=None, help="a stratified sample of N questions")
    ap.add_argument("--seed", type=int, default=0, help="seed of the sample")
    ap.add_argument("--out", type=Path, default=None, help="output folder (default runs/eval/DATASET)")
    ap.add_argument("--engine", default="duckdb", help="duckdb, souffle, spark or auto")
    ap.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per question")
    ap.add_argument("--quiet", action="store_true", help="no line per question")
    a = ap.parse_args(argv)
    return run_eval(a.dataset, a.approach, a.model, a.judge, a.limit, a.out, engine=a.engine, timeout=a.timeout,
                    quiet=a.quiet, model_path=a.model_path, sample=a.sample, seed=a.seed)
