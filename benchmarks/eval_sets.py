"""Every named dataset with the agents, one after the other, and one table: right, refused ("could not answer"),
wrong and verified, wrong and not verified, seconds per question. The issue-34 figure, before and after a change
(offline by default; ``--model local --sample 3 --seed 1`` for a seeded sample with the local model):

    python benchmarks/eval_sets.py --out runs/before bank_qa_reworded power_grid ...   # or --all, --reworded
    python benchmarks/eval_sets.py --table runs/before                                 # the table again

Records are kept under OUT/<dataset>/ as ``vadaorchestra eval`` writes them (an interrupted run resumes).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def row(summary: dict, records: list[dict]) -> dict:
    n = len(records)
    right = sum(1 for r in records if r["em"])
    refused = sum(1 for r in records if not r["em"] and r.get("source") == "could not answer")
    wrong_verified = sum(1 for r in records if not r["em"] and (r.get("details") or {}).get("verified"))
    return {"dataset": summary["dataset"], "n": n, "right": right, "refused": refused,
            "wrong_verified": wrong_verified, "wrong_other": n - right - refused - wrong_verified,
            "seconds": (summary.get("seconds") or {}).get("mean")}


def table(out: Path) -> str:
    rows = []
    for path in sorted(out.glob("*/*/summary.json")):
        summary = json.loads(path.read_text())
        records = [json.loads(line) for line in (path.parent / "records.jsonl").read_text().splitlines() if line]
        rows.append(row(summary, records))
    lines = ["| dataset | n | right | refused | wrong and verified | wrong, not verified | s / question |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['dataset']} | {r['n']} | {r['right']} ({r['right'] / max(r['n'], 1):.2f}) | {r['refused']} "
                     f"| {r['wrong_verified']} | {r['wrong_other']} | {r['seconds']} |")
    total = {k: sum(r[k] for r in rows) for k in ("n", "right", "refused", "wrong_verified", "wrong_other")}
    if rows:
        lines.append(f"| all | {total['n']} | {total['right']} ({total['right'] / max(total['n'], 1):.2f}) | "
                     f"{total['refused']} | {total['wrong_verified']} | {total['wrong_other']} | |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from vadaorchestra.eval import evaluate
    from vadaorchestra.eval.datasets import available

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("datasets", nargs="*")
    ap.add_argument("--out", type=Path, default=Path("runs/offline"))
    ap.add_argument("--all", action="store_true", help="every dataset the scenarios folder has")
    ap.add_argument("--reworded", action="store_true", help="every *_reworded dataset")
    ap.add_argument("--table", type=Path, help="print the table of a finished run folder and stop")
    ap.add_argument("--model", help="a model for the agents ('local', or a config file); offline without it")
    ap.add_argument("--sample", type=int, help="a stratified, seeded sample of N questions of each dataset")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    if args.table:
        print(table(args.table))
        return 0
    names = list(args.datasets)
    if args.all:
        names += [n for n in available() if n not in names]
    if args.reworded:
        names += [n for n in available() if n.endswith("_reworded") and n not in names]
    if not names:
        ap.error("name datasets, or --all / --reworded")
    for name in names:
        print(f"== {name}", flush=True)
        evaluate(name, model=args.model, sample=args.sample, seed=args.seed, out_dir=args.out / name,
                 progress=lambda m: print(m, flush=True))
    print(table(args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
