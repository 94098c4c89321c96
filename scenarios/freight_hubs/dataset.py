"""The held-out freight-hubs question set for ``vadaorchestra eval freight_hubs`` (see ``generate.py``).

A share is scored as a fraction (0 to 1): the gold answer of "What fraction of Meridian Port Holdings' contracted
monthly tonnage was dispatched from Rotterdam Maasvlakte Hub?" is a number such as ``0.429``, and exact match compares
numbers without units, so ``42.9 %`` does not match it. Weights and capacities are tonnes, declared values euros.
"""

from __future__ import annotations

from pathlib import Path

from vadaorchestra.eval.datasets import generate_missing, verbalize

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
CATALOG = HERE / "catalog"
DATA_ROOT = HERE
QUESTION_SETS = {"freight_hubs": DATA / "questions.jsonl"}
DESCRIPTION = {"freight_hubs": "held-out questions over a small catalog of another domain (freight hubs, lanes "
                               "between them, shipments, hub operators and their subsidiaries)"}
SENTENCES = {
    "hubs.csv": "{hub} is a freight hub in {country}, run by {operator}, with a daily handling capacity of "
                "{daily_capacity_t} tonnes.",
    "lanes.csv": "There is a direct lane from {origin_hub} to {destination_hub} with a transit time of {transit_days} "
                 "days.",
    "shipments.csv": "Shipment {shipment_id} of {shipper} was dispatched this month from {origin_hub} to "
                     "{destination_hub} by {carrier}, weighing {weight_t} tonnes with a declared value of "
                     "{declared_value_eur} euros.",
    "operators.csv": "{operator} has a contracted monthly tonnage of {contracted_monthly_t} tonnes for the hubs of its "
                     "group.",
    "subsidiaries.csv": "{subsidiary} is a subsidiary of {parent_operator}.",
}


def ensure() -> bool:
    return generate_missing(HERE / "generate.py", [DATA / f for f in [*SENTENCES, "questions.jsonl"]], HERE)


def facts() -> list[str]:
    return verbalize(DATA, SENTENCES)
