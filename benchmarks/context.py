"""Bounded context: tokens the LLM policy sends for one question over a catalog whose main predicate holds N facts.

The same scripted replies (an AutoGen ReplayChatCompletionClient) drive the whole team over a real in-process MCP
server at each size; the Retriever explores large predicates with statistics and top-k, so what reaches the model
should not grow with the data. Prints tokens sent per size and their ratio to the smallest.

    python benchmarks/context.py                 # 1,000 and 100,000 facts
    python benchmarks/context.py --sizes 1000 10000
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

TOOL = """\
@tool("get_exposures", "Exposures of a bank towards each borrower: the largest exposures of the bank's book.").
@param("bank_name", "string", "Name of the lending bank").
@bind("book", "csv", "data", "book.csv").
@mapping("book", 0, "bank", "string"). @mapping("book", 1, "borrower", "string"). @mapping("book", 2, "amount", "float").
@output("exposure").
@mapping("exposure", 0, "bank", "string"). @mapping("exposure", 1, "borrower", "string").
@mapping("exposure", 2, "amount", "float").
exposure($bank_name, B, A) :- book($bank_name, B, A).
"""


def make_catalog(folder: Path, facts: int, seed: int = 11) -> None:
    rng = random.Random(seed)
    (folder / "data").mkdir(parents=True)
    (folder / "get_exposures.dl").write_text(TOOL)
    with (folder / "data" / "book.csv").open("w") as fh:
        fh.write("bank,borrower,amount\n")
        for i in range(facts):
            fh.write(f"Bank Gamma,Borrower {i:06d},{round(rng.lognormvariate(12, 1.2), 2)}\n")


def replies() -> list[str]:
    call = {"calls": [{"tool": "get_exposures", "params": [{"name": "bank_name", "value": "Bank Gamma"}]}]}
    rule = {"program": 'big(B, A) :- exposure("Bank Gamma", B, A), A > 1000000.', "purpose": "exposures above 1M",
            "output": "big"}
    return [json.dumps(call),
            json.dumps({"statistics": ["amount", "borrower"], "top_k": [{"order_by": "amount", "k": 10}]}),
            json.dumps({"rules": [rule]}),
            json.dumps({"statistics": ["amount"], "top_k": [{"order_by": "amount", "k": 10}]}),
            json.dumps({"calls": []}),
            json.dumps({"answer": "see the largest exposures."})]


def measure(facts: int) -> dict:
    from autogen_ext.models.replay import ReplayChatCompletionClient

    from vadaorchestra.agents.run import ask_sync

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "catalog"
        make_catalog(folder, facts)
        start = time.perf_counter()
        result = ask_sync("What are Bank Gamma's largest exposures?", catalog=folder,
                          model_client=ReplayChatCompletionClient(replies()))
        elapsed = time.perf_counter() - start
    return {"facts": facts, "sent": result.tokens["totals"]["sent"], "received": result.tokens["totals"]["received"],
            "by_step": {k: v["sent"] for k, v in result.tokens["by_step"].items()}, "seconds": elapsed,
            "answer": result.answer}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1_000, 100_000])
    args = ap.parse_args(argv)
    rows = [measure(n) for n in args.sizes]
    base = rows[0]["sent"]
    print("| facts in the main predicate | tokens sent | tokens received | ratio to smallest | run s |")
    print("|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['facts']:,} | {r['sent']:,} | {r['received']:,} | {r['sent'] / base:.3f}x | {r['seconds']:.2f} |")
    print("tokens sent per step: " + "; ".join(f"{r['facts']:,}: {r['by_step']}" for r in rows))
    worst = max(abs(r["sent"] - base) / base for r in rows)
    print(f"largest difference: {worst:.1%} ({'within' if worst < 0.10 else 'ABOVE'} the 10 % bound)")
    return 0 if worst < 0.10 else 1


if __name__ == "__main__":
    sys.exit(main())
