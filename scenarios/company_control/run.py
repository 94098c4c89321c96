"""The company-control scenario: generate an ownership graph (10k companies by default, up to 100k), ask control
questions with the offline policy, and check every answer against ground truth computed without the engine.

    vadaorchestra run company-control [--companies 100000] [--questions 3] [--seed 3]

Each question leaves OUT/qN/: trace.dl, run.json, plan.svg and the report page index.html.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
import time
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"company_control_{name}", HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="vadaorchestra run company-control", description=__doc__.splitlines()[0])
    ap.add_argument("--companies", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--questions", type=int, default=2, help="companies asked about per question template")
    ap.add_argument("--data", type=Path, default=None, help="data root (default: scenarios/company_control/run-N)")
    ap.add_argument("--out", type=Path, default=Path("company-control-report"))
    from vadaorchestra.agents.models import add_model_options, build_client

    add_model_options(ap)
    args = ap.parse_args(argv)
    client = build_client(args.model, args.model_path)

    import anyio

    from vadaorchestra.agents.local import LocalServer
    from vadaorchestra.agents.run import ask

    generate, truth = _load("generate"), _load("ground_truth")
    root = args.data or HERE / f"data-{args.companies}-{args.seed}"
    if not (root / "data" / "ownership.csv").exists():
        t = time.perf_counter()
        counts = generate.generate(root / "data", args.companies, args.seed)
        print(f"generated {counts} in {time.perf_counter() - t:.2f} s", file=sys.stderr)
    owns = truth.read_ownership(root / "data")
    rng = random.Random(args.seed)
    parents = sorted(o for o, held in owns.items() if any(s > 0.5 for s in held.values()))
    children = sorted({c for held in owns.values() for c, s in held.items() if s > 0.5})
    templates = yaml.safe_load((HERE / "questions.yaml").read_text())
    asked = []
    for t in templates:
        pool = children if t["kind"] == "ultimate" else parents
        for company in rng.sample(pool, min(args.questions, len(pool))):
            asked.append((t["kind"], t["template"].format(company=company), company))

    async def run_all():
        results = []
        with LocalServer(HERE / "catalog", root) as params:
            for i, (kind, question, company) in enumerate(asked):
                t = time.perf_counter()
                folder = args.out / f"q{i + 1}"  # trace.dl, run.json, plan.svg, and the page index.html
                r = await ask(question, server_params=params, catalog=HERE / "catalog", data=root,
                              trace=folder / "trace.dl", report=folder, model_client=client)
                results.append((kind, question, company, r, time.perf_counter() - t))
        return results

    ok = 0
    print(f"{len(owns):,} owners, {sum(len(h) for h in owns.values()):,} ownership links; "
          f"{len(asked)} questions with " + (f"the model {args.model_path or args.model}" if client else "the offline policy"))
    for kind, question, company, r, secs in anyio.run(run_all):
        if kind == "ultimate":
            gold: object = sorted(truth.ultimate_controllers(owns, company))
        elif kind == "controls":
            gold = sorted(truth.controlled_by(owns, company))
        else:
            gold = [len(truth.controlled_by(owns, company))]
        got = r.ctx.answer_values
        got_n = sorted(got) if kind != "count" else [int(v) for v in (got or [])]
        good = got_n == gold
        ok += good
        print(f"{'ok ' if good else 'BAD'} {secs:5.2f} s  {question}\n      answer: {r.answer.splitlines()[0]}"
              + ("" if good else f"\n      expected: {gold}"))
    from vadaorchestra.audit.page import build_page

    pages = [build_page(args.out / f"q{i + 1}" / "trace.dl") for i in range(len(asked))]
    print(f"{ok}/{len(asked)} answers equal the ground truth; traces and report pages in {args.out}/q*/ "
          f"(pages of {min(p.stat().st_size for p in pages):,} to {max(p.stat().st_size for p in pages):,} bytes)")
    return 0 if ok == len(asked) else 1


if __name__ == "__main__":
    raise SystemExit(main())
