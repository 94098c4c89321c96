"""The held-out hospital-claims question set for ``vadaorchestra eval hospital_claims`` (see ``generate.py``).

A share of a payer's annual cap is scored as a fraction (0 to 1): exact match compares numbers without units, so
``87.1 %`` does not match ``0.871``. A health system includes its providers directly or through its sub-systems; a
payer's cap for a system covers everything that system includes, and is exceeded only when the total is strictly more.
"""

from __future__ import annotations

from pathlib import Path

from vadaorchestra.eval.datasets import generate_missing, verbalize

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
CATALOG = HERE / "catalog"
DATA_ROOT = HERE
QUESTION_SETS = {"hospital_claims": DATA / "questions.jsonl"}
DESCRIPTION = {"hospital_claims": "held-out questions over a small catalog of another domain (hospital claims, "
                                  "providers, nested health systems, payers' annual caps)"}
SENTENCES = {
    "providers.csv": "{provider} is a provider of {specialty} in {city} that belongs directly to the health system "
                     "{health_system} and has a patient rating of {rating}.",
    "system_parents.csv": "The health system {health_system} is part of the health system {parent_system}.",
    "claims.csv": "{provider} billed claim {claim_id} for patient {patient} to {payer} for {procedure}, "
                  "amount {amount}.",
    "payer_caps.csv": "{payer} reimburses at most {annual_cap} a year for the claims of the providers that the health "
                      "system {health_system} includes, directly or through its sub-systems.",
}


def ensure() -> bool:
    return generate_missing(HERE / "generate.py", [DATA / f for f in [*SENTENCES, "questions.jsonl"]], HERE)


def facts() -> list[str]:
    return verbalize(DATA, SENTENCES)
