"""The paper's two figures, from the runs found in an output folder (``<out>/<run>/summary.json`` and
``records.jsonl``): accuracy per approach (Figure 3) and cumulative accuracy against a complexity threshold from 1 to
1,000 on a log axis (Figure 4). matplotlib with the Agg backend: no display needed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from vadaorchestra.eval.metrics import cumulative_accuracy

ACCURACY_PNG = "accuracy_by_approach.png"
COMPLEXITY_PNG = "accuracy_vs_complexity.png"
THRESHOLDS = tuple(sorted({round(10 ** (i / 20)) for i in range(61)}))  # 1 .. 1000, 20 steps a decade


def runs(out_dir: Path) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """(summary, records) of every run under ``out_dir``, by label."""
    found = []
    for path in sorted(Path(out_dir).glob("*/summary.json")):
        summary = json.loads(path.read_text("utf-8"))
        rec_path = path.with_name("records.jsonl")
        records = [json.loads(x) for x in rec_path.read_text("utf-8").splitlines() if x.strip()] \
            if rec_path.is_file() else []
        found.append((summary, records))
    return sorted(found, key=lambda sr: sr[0].get("label", ""))


def available() -> bool:
    """Whether matplotlib is installed (the ``[eval]`` extra), so that the figures can be drawn."""
    import importlib.util

    return importlib.util.find_spec("matplotlib") is not None


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def accuracy_by_approach(out_dir: Path, dataset: str) -> Path | None:
    """Figure 3: per run, a group of bars: EM on all questions, EM per question type, and the LLM-as-judge accuracy
    when a judge graded the run."""
    found = runs(out_dir)
    if not found:
        return None
    plt = _pyplot()
    labels = [f"{s.get('label', '?')}\n(n={s.get('n', 0)})" for s, _ in found]
    types = sorted({t for s, _ in found for t in s.get("by_type", {})})
    series: list[tuple[str, list[float | None]]] = [("EM, all", [s.get("em") for s, _ in found])]
    if len(types) > 1:
        series += [(f"EM, {t}", [s.get("by_type", {}).get(t, {}).get("em") for s, _ in found]) for t in types]
    if any(s.get("judge") is not None for s, _ in found):
        series.append(("LLM-as-judge, all", [s.get("judge") for s, _ in found]))
    width = 0.8 / len(series)
    fig, ax = plt.subplots(figsize=(max(5.5, (0.9 + 0.35 * len(series)) * len(labels) + 2), 4.2))
    for j, (name, values) in enumerate(series):
        xs = [i - 0.4 + width * (j + 0.5) for i in range(len(labels))]
        bars = ax.bar(xs, [v or 0.0 for v in values], width, label=name,
                      hatch="//" if name.startswith("LLM") else None)
        ax.bar_label(bars, labels=["-" if v is None else f"{v:.2f}" for v in values], fontsize=7)
    ax.set_xticks(list(range(len(labels))), labels, rotation=15 if len(labels) > 3 else 0,
                  ha="right" if len(labels) > 3 else "center")
    ax.set_ylim(0, 1.1)
    ax.set_ylabel("accuracy")
    ax.set_title(f"{dataset}: accuracy per approach")
    # outside the axes: inside, it covered the bars of the last run
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7)
    fig.tight_layout()
    path = Path(out_dir) / ACCURACY_PNG
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def accuracy_vs_complexity(out_dir: Path, dataset: str) -> Path | None:
    """Figure 4: for each run, EM over the questions of complexity at most t, for t from 1 to 1,000 (log x)."""
    found = [(s, r) for s, r in runs(out_dir) if any(x.get("complexity") is not None for x in r)]
    if not found:
        return None
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.5, 4))
    styles = ("-", "--", ":", "-.")
    for i, (summary, records) in enumerate(found):
        points = [(t, a) for t, a in cumulative_accuracy(records, THRESHOLDS) if a is not None]
        if points:
            # a line style per run besides its colour: two runs with the same accuracies would hide each other
            n = sum(1 for x in records if x.get("complexity") is not None)
            ax.step([t for t, _ in points], [a for _, a in points], where="post", linestyle=styles[i % len(styles)],
                    linewidth=1.6, label=f"{summary.get('label', '?')} (n={n})")
    from matplotlib.ticker import FixedLocator, ScalarFormatter

    ax.set_xscale("log")
    ax.set_xlim(1, 1000)
    ax.xaxis.set_major_locator(FixedLocator([1, 10, 100, 1000]))
    ax.xaxis.set_major_formatter(ScalarFormatter())
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("complexity threshold (entity-relations needed)")
    ax.set_ylabel("cumulative accuracy (EM)")
    ax.set_title(f"{dataset}: accuracy on questions up to each complexity")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = Path(out_dir) / COMPLEXITY_PNG
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
