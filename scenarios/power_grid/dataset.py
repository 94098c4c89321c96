"""The held-out power-grid question set for ``vadaorchestra eval power_grid`` (see ``generate.py``).

A share is scored as a fraction (0 to 1): the gold answer of "What fraction of its transformer rating does Hartside
Substation use, counting the demand of the substations it feeds?" is a number such as ``0.59375``, and exact match
compares numbers without units, so ``59.375 %`` does not match it. Power is in MW. A substation carries the demand of
its own feeders and of every substation downstream of it, and exceeds its transformer rating only when that demand is
strictly more than the rating.
"""

from __future__ import annotations

from pathlib import Path

from vadaorchestra.eval.datasets import generate_missing, verbalize

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
CATALOG = HERE / "catalog"
DATA_ROOT = HERE
QUESTION_SETS = {"power_grid": DATA / "questions.jsonl"}
DESCRIPTION = {"power_grid": "held-out questions over a small catalog of another domain (an electricity grid: "
                             "substations feeding substations, generators, customer feeders and their demand, "
                             "transformer ratings, grid operators and their parent companies)"}
SENTENCES = {
    "substations.csv": "{substation} is a substation in {region}, operated by {operator}, with a transformer rating "
                       "of {transformer_rating_mw} MW.",
    "feeds.csv": "{upstream_substation} feeds {downstream_substation} directly over a {line_km} km line.",
    "generators.csv": "{generator} is a {fuel} generator of {capacity_mw} MW connected to {substation}.",
    "feeders.csv": "Feeder {feeder_id} at {substation} supplies {customer} ({customer_class}) with a demand of "
                   "{demand_mw} MW.",
    "ownership.csv": "{subsidiary} is a subsidiary of {parent_company}.",
}


def ensure() -> bool:
    return generate_missing(HERE / "generate.py", [DATA / f for f in [*SENTENCES, "questions.jsonl"]], HERE)


def facts() -> list[str]:
    return verbalize(DATA, SENTENCES)
