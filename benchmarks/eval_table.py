"""The comparison table of ``benchmarks/eval_local.sh`` (the README's): per dataset and approach, the sample size, exact
match overall and per type, the LLM judge's accuracy, tokens sent and wall time per question (mean, median and the
slowest), model calls and retries, answers wrong and verified, and the failure categories of the misses.

    python benchmarks/eval_table.py runs/local            # markdown on stdout
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

ORDER = ["vadaorchestra", "llm-mcp", "refactx", "llm-only", "rag-10", "rag-100", "rag-1000"]


def _tokens(record: dict) -> tuple[int | None, int | None, int | None]:
    """(sent, model calls, retries) of one question, whatever the approach recorded."""
    t = (record.get("details") or {}).get("tokens") or {}
    sent = t.get("sent", t.get("prompt_tokens"))
    return sent, t.get("calls"), t.get("retries")


def miss_category(record: dict) -> str:
    """Where a miss of the agents went wrong, read off its record (the answer's source and the error)."""
    err = record.get("error") or ""
    if "no tool of the catalog fits" in err:
        return "selection"
    if "timeout" in err:
        return "timeout"
    if "LLMReplyError" in err:
        return "reply"
    if err:
        return "error"
    if record.get("predicted") in (None, []):
        return "no answer values"
    return "answer"


def rows(folder: Path) -> list[dict]:
    out = []
    for summary_path in sorted(folder.glob("**/summary.json")):
        s = json.loads(summary_path.read_text())
        records = [json.loads(line) for line in (summary_path.parent / "records.jsonl").read_text().splitlines()
                   if line.strip()]
        toks = [_tokens(r) for r in records]
        sent = [t[0] for t in toks if t[0] is not None]
        calls = [t[1] for t in toks if t[1] is not None]
        retries = [t[2] for t in toks if t[2] is not None]
        seconds = [r["seconds"] for r in records if r.get("seconds") is not None]
        wrong_verified = sum(1 for r in records if not r.get("em") and (r.get("details") or {}).get("verified"))
        misses: dict[str, int] = {}
        for r in records:
            if not r.get("em"):
                c = miss_category(r)
                misses[c] = misses.get(c, 0) + 1
        out.append({
            "dataset": s["dataset"], "approach": s.get("label", summary_path.parent.name), "n": s["n"], "em": s["em"],
            "judge": s.get("judge"), "wrong_verified": wrong_verified,
            "median": statistics.median(seconds) if seconds else None, "slowest": max(seconds) if seconds else None,
            "by_type": {k: v["em"] for k, v in s["by_type"].items()},
            "by_complexity": {k: (v["em"], v["n"]) for k, v in s["by_complexity"].items()},
            "sent": statistics.fmean(sent) if sent else None,
            "seconds": s["seconds"]["mean"], "calls": sum(calls) if calls else None,
            "retries": sum(retries) if retries else (0 if calls else None),
            "errors": s["errors"], "misses": misses,
        })
    order = {a: i for i, a in enumerate(ORDER)}
    return sorted(out, key=lambda r: (r["dataset"], order.get(r["approach"].split("--")[0], 99), r["approach"]))


def markdown(table: list[dict]) -> str:
    def pct(v: float | None) -> str:
        return "-" if v is None else f"{v:.2f}"

    def sec(v: float | None) -> str:
        return "-" if v is None else f"{v:.1f}"

    lines = ["| dataset | approach | n | EM | judge | EM by type | tokens sent / question | s / question (median, "
             "slowest) | model calls (retries) | wrong and verified | misses |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in table:
        types = ", ".join(f"{k} {pct(v)}" for k, v in r["by_type"].items())
        calls = "-" if r["calls"] is None else f"{r['calls']} ({r['retries']})"
        misses = ", ".join(f"{k} {v}" for k, v in sorted(r["misses"].items())) or "none"
        sent = "-" if r["sent"] is None else f"{r['sent']:,.0f}"
        verified = r["wrong_verified"] if r["approach"].startswith("vadaorchestra") else "-"
        lines.append(f"| {r['dataset']} | {r['approach']} | {r['n']} | {pct(r['em'])} | {pct(r['judge'])} | {types} "
                     f"| {sent} | {sec(r['seconds'])} ({sec(r['median'])}, {sec(r['slowest'])}) | {calls} | "
                     f"{verified} | {misses} |")
    plus = [r for r in table if r["dataset"] == "bank_plus"]
    if plus:
        lines += ["", "| bank_plus approach | " + " | ".join(
            f"{b} (n={n})" for b, (_, n) in plus[0]["by_complexity"].items()) + " |",
            "|---|" + "---|" * len(plus[0]["by_complexity"])]
        for r in plus:
            lines.append(f"| {r['approach']} | " + " | ".join(pct(v) for v, _ in r["by_complexity"].values()) + " |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    folder = Path(argv[0] if argv else "runs/local")
    if not folder.is_dir():
        print(f"error: {folder}: no such folder (benchmarks/eval_local.sh writes its runs there)", file=sys.stderr)
        return 1
    found = rows(folder)
    if not found:
        print(f"error: {folder}: no summary.json under it (an eval run writes one per dataset and approach)",
              file=sys.stderr)
        return 1
    print(markdown(found))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
