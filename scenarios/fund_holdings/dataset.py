"""The held-out fund-holdings question set for ``vadaorchestra eval fund_holdings`` (see ``generate.py``).

A share of a fund's net assets is scored as a fraction (0 to 1), the unit of the fund's ``max_issuer_share``: the
gold answer of "What share of Aurora Growth Fund's net assets is invested in Orion Energy?" is ``0.02125``, and exact
match compares numbers without units, so ``2.125 %`` does not match it.
"""

from __future__ import annotations

from pathlib import Path

from vadaorchestra.eval.datasets import generate_missing, verbalize

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
CATALOG = HERE / "catalog"
DATA_ROOT = HERE
QUESTION_SETS = {"fund_holdings": DATA / "questions.jsonl"}
DESCRIPTION = {"fund_holdings": "held-out questions over a small catalog of another domain (investment funds, their "
                                "holdings of securities, issuers, parent companies)"}
SENTENCES = {
    "funds.csv": "{fund} has total net assets of {net_assets} and may invest at most a ratio of {max_issuer_share} "
                 "of its net assets in one issuer.",
    "holdings.csv": "{fund} holds security {security_id} issued by {issuer} with a market value of {market_value}.",
    "issuers.csv": "{issuer} is an issuer in the {sector} sector based in {country}.",
    "parents.csv": "{parent} is a parent of {issuer} and holds {share_pct} % of its shares.",
}


def ensure() -> bool:
    return generate_missing(HERE / "generate.py", [DATA / f for f in [*SENTENCES, "questions.jsonl"]], HERE)


def facts() -> list[str]:
    return verbalize(DATA, SENTENCES)
