"""The held-out supply-chain question set for ``vadaorchestra eval supply_chain`` (see ``generate.py``)."""

from __future__ import annotations

import csv
import importlib.util
import sys
from pathlib import Path

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
    if all((DATA / f).is_file() for f in [*SENTENCES, "questions.jsonl"]):
        return False
    spec = importlib.util.spec_from_file_location("supply_chain_generate", HERE / "generate.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    module.write(HERE)
    return True


def facts() -> list[str]:
    out = []
    for file, sentence in SENTENCES.items():
        with (DATA / file).open(encoding="utf-8", newline="") as fh:
            out += [sentence.format(**row) for row in csv.DictReader(fh)]
    return out
