"""The held-out supply-chain question set for ``vadaorchestra eval supply_chain`` (see ``generate.py``)."""

from __future__ import annotations

from pathlib import Path

from vadaorchestra.eval.datasets import generate_missing, verbalize

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
CATALOG = HERE / "catalog"
DATA_ROOT = HERE
QUESTION_SETS = {"supply_chain": DATA / "questions.jsonl"}
DESCRIPTION = {"supply_chain": "held-out questions over a small catalog of another domain (purchase orders, "
                               "suppliers, owners)"}
SENTENCES = {
    "orders.csv": "{buyer} placed purchase order {order_id} with {supplier} for {amount}.",
    "suppliers.csv": "{supplier} is based in {country} and has the quality rating {rating}.",
    "owners.csv": "{owner} owns {share_pct} % of {supplier}.",
}


def ensure() -> bool:
    return generate_missing(HERE / "generate.py", [DATA / f for f in [*SENTENCES, "questions.jsonl"]], HERE)


def facts() -> list[str]:
    return verbalize(DATA, SENTENCES)
