"""Question-answering evaluation: datasets from the scenarios, the approaches (VADAOrchestra and the paper's
baselines), exact match and LLM-as-judge, per-question records, summaries and the paper's figures.

>>> summary = evaluate("bank_qa", "vadaorchestra", limit=5, out_dir="runs/eval/bank_qa")  # doctest: +SKIP
"""

from vadaorchestra.eval.datasets import EvalError, resolve
from vadaorchestra.eval.harness import evaluate, format_summary, main, run_eval
from vadaorchestra.eval.metrics import exact_match, parse_answer, summarize

__all__ = ["EvalError", "evaluate", "exact_match", "format_summary", "main", "parse_answer", "resolve", "run_eval",
           "summarize"]
