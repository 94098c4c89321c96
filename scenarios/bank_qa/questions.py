"""Template questions over the bank KG, with gold answers from :mod:`ground_truth`.

bank_qa (278 questions):
- ``generic`` (lookup, 12 templates x 10): "Which companies does Bank 007 lend to?" -> a list of names;
- ``count`` (11 templates x 8): "How many companies does Bank 007 lend to?" -> a number;
- ``multi-hop`` (5 templates x 14): "Which banks lend to the companies controlled by Person 0042?" -> a list.

bank_plus (120 questions, all ``count``): the borrowers of every bank and the holdings of 20 holders, among them the
stress entities with 1 to 1,000 relations, each phrased two ways.

Every record: ``id, type, template, question, answer, complexity, entity``. ``complexity`` is the number of
entity-relations (KG triples) the answer needs: the values reached by a lookup or a count, and for a multi-hop
question the values of the first hop plus those of every second hop. Entities are sampled with one
``random.Random(seed)`` from sorted candidate lists, so the files are deterministic.
"""

from __future__ import annotations

import json
import random
from typing import Any

LOOKUP: tuple[tuple[str, str], ...] = (
    ("roles", "In which companies does {e} have a role?"),
    ("officers", "Who has a role in {e}?"),
    ("majority", "In which companies does {e} own a majority stake?"),
    ("minority", "In which companies does {e} own a minority stake?"),
    ("shareholders", "Who are the shareholders of {e}?"),
    ("control", "Which companies does {e} control, directly or indirectly?"),
    ("ultimate", "Who ultimately controls {e}?"),
    ("holdings", "In which companies does {e} have holdings?"),
    ("borrowers", "Which companies does {e} lend to?"),
    ("lenders", "Which banks lend to {e}?"),
    ("credit_banks", "Which banks does {e} have a credit line with?"),
    ("guarantors", "Which companies guarantee the loans of {e}?"),
)
COUNT: tuple[tuple[str, str], ...] = (
    ("roles", "In how many companies does {e} have a role?"),
    ("officers", "How many people have a role in {e}?"),
    ("majority", "In how many companies does {e} own a majority stake?"),
    ("minority", "In how many companies does {e} own a minority stake?"),
    ("shareholders", "How many shareholders does {e} have?"),
    ("control", "How many companies does {e} control, directly or indirectly?"),
    ("holdings", "In how many companies does {e} have holdings?"),
    ("borrowers", "How many companies does {e} lend to?"),
    ("lenders", "How many banks lend to {e}?"),
    ("credit_banks", "With how many banks does {e} have a credit line?"),
    ("guarantors", "How many companies guarantee the loans of {e}?"),
)
MULTI_HOP: tuple[tuple[str, str, str], ...] = (
    ("control", "lenders", "Which banks lend to the companies controlled by {e}?"),
    ("majority", "officers", "Who has a role in the companies in which {e} owns a majority stake?"),
    ("borrowers", "ultimate", "Who ultimately controls the companies that {e} lends to?"),
    ("roles", "lenders", "Which banks lend to the companies in which {e} has a role?"),
    ("ultimate", "control", "Which companies are controlled by the ultimate controller of {e}?"),
)
PLUS: tuple[tuple[str, str], ...] = (
    ("borrowers", "How many companies does {e} lend to?"),
    ("borrowers", "How many borrowers does {e} have?"),
    ("holdings", "In how many companies does {e} have holdings?"),
    ("holdings", "How many holdings does {e} have?"),
)
PER_LOOKUP, PER_COUNT, PER_MULTI_HOP = 10, 8, 14
MAX_LIST, MAX_COUNT = 20, 40  # bank_qa keeps answers readable; bank_plus is where the large counts are
PLUS_PLAIN_HOLDERS = 12
STRESS_HOLDINGS = (1, 4, 10, 25, 64, 160, 400, 1000)  # the generator's HOLD_LEVELS


def _sample(rng: random.Random, candidates: list[str], n: int, what: str) -> list[str]:
    if len(candidates) < n:
        raise ValueError(f"template {what!r}: only {len(candidates)} entities fit, {n} needed")
    return rng.sample(candidates, n)


def _record(qtype: str, template: str, text: str, entity: str, answer: Any, complexity: int) -> dict[str, Any]:
    return {"id": "", "type": qtype, "template": template, "question": text.format(e=entity), "answer": answer,
            "complexity": complexity, "entity": entity}


def bank_qa(kg, rng: random.Random) -> list[dict[str, Any]]:
    out = []
    for rel, text in LOOKUP:
        fits = [e for e, vs in sorted(kg.index(rel).items()) if 1 <= len(vs) <= MAX_LIST]
        for e in _sample(rng, fits, PER_LOOKUP, rel):
            out.append(_record("generic", rel, text, e, *kg.answer("generic", rel, e)))
    for rel, text in COUNT:
        fits = [e for e, vs in sorted(kg.index(rel).items()) if 1 <= len(vs) <= MAX_COUNT]
        for e in _sample(rng, fits, PER_COUNT, rel):
            out.append(_record("count", rel, text, e, *kg.answer("count", rel, e)))
    for first, second, text in MULTI_HOP:
        fits = []
        for e in sorted(kg.index(first)):
            answer, _ = kg.chain(first, second, e)
            # a real second hop: not only the entity we started from (the ultimate controller controls it)
            if 1 <= len(answer) <= MAX_LIST and answer != [e]:
                fits.append(e)
        template = f"{first}>{second}"
        for e in _sample(rng, fits, PER_MULTI_HOP, template):
            out.append(_record("multi-hop", template, text, e, *kg.answer("multi-hop", template, e)))
    return out


def bank_plus(kg, rng: random.Random) -> list[dict[str, Any]]:
    banks = sorted(kg.index("borrowers"))
    holders = sorted(kg.index("holdings"))
    counts = {h: len(kg.index("holdings")[h]) for h in holders}
    # one holder per stress level (the first by name), then ordinary ones
    stress = sorted({next(h for h in holders if counts[h] == n) for n in STRESS_HOLDINGS if n in counts.values()})
    plain = _sample(rng, [h for h in holders if h not in stress], PLUS_PLAIN_HOLDERS, "holdings")
    chosen = {"borrowers": banks, "holdings": sorted(set(stress) | set(plain))}
    out = []
    for rel, text in PLUS:
        for e in chosen[rel]:
            out.append(_record("count", rel, text, e, *kg.answer("count", rel, e)))
    return out


def build(kg, seed: int) -> dict[str, list[dict[str, Any]]]:
    """Both question sets, shuffled (so a ``--limit`` run sees every type) and numbered."""
    rng = random.Random(seed * 7919 + 1)
    sets = {"bank_qa": bank_qa(kg, rng), "bank_plus": bank_plus(kg, rng)}
    for name, items in sets.items():
        rng.shuffle(items)
        prefix = "qa" if name == "bank_qa" else "plus"
        for i, item in enumerate(items, 1):
            item["id"] = f"{prefix}-{i:04d}"
    return sets


def jsonl(items: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items)
