"""What ``vadaorchestra eval`` needs to know about this scenario (the contract of a scenario's ``dataset.py``).

- ``QUESTION_SETS``: dataset name -> its JSONL file (records: id, type, template, question, answer, complexity);
- ``CATALOG`` and ``DATA_ROOT``: the tool programs and the folder their ``@bind`` paths resolve under;
- :func:`ensure`: generate the data when a file is missing;
- :func:`facts`: the knowledge graph verbalized, one sentence per triple (what the RAG baseline retrieves from).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
CATALOG = HERE / "catalog"
DATA_ROOT = HERE
QUESTION_SETS = {"bank_qa": DATA / "bank_qa.jsonl", "bank_plus": DATA / "bank_plus.jsonl"}
DESCRIPTION = {
    "bank_qa": "278 template questions (generic lookup, count, multi-hop) over a ~10k-triple banking knowledge graph",
    "bank_plus": "count questions needing 1 to 1,000 entity-relations each (complexity recorded per question)",
}

# relation -> sentence; fields by the CSV header
SENTENCES = {
    "has_role_in.csv": "{person} has the role {role} in {company}.",
    "owns_minority.csv": "{owner} owns a minority stake of {share_pct} % in {company}.",
    "owns_majority.csv": "{owner} owns a majority stake of {share_pct} % in {company}.",
    "controls.csv": "{controller} controls {company}.",
    "ultimately_controls.csv": "{controller} ultimately controls {company}.",
    "has_holdings_in.csv": "{holder} has holdings in {company} worth {value}.",
    "lends_to.csv": "{bank} lends {amount} to {borrower}.",
    "has_credit_line_with.csv": "{company} has a credit line with {bank} with a limit of {credit_limit}.",
    "guarantees.csv": "{guarantor} guarantees the loans of {company} for {amount}.",
}


def _generator():
    spec = importlib.util.spec_from_file_location("bank_qa_generate", HERE / "generate.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def ensure() -> bool:
    """Generate the knowledge graph and the questions (default seed) unless every file is there; True if generated."""
    needed = [DATA / f for f in SENTENCES] + list(QUESTION_SETS.values())
    if all(p.is_file() for p in needed):
        return False
    _generator().write(DATA)
    return True


def facts() -> list[str]:
    """Every triple of the knowledge graph as a sentence, in file and row order."""
    from vadaorchestra.eval.datasets import verbalize

    return verbalize(DATA, SENTENCES)
