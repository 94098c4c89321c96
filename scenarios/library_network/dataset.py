"""The held-out library-network question set for ``vadaorchestra eval library_network`` (see ``generate.py``).

A share is scored as a fraction (0 to 1): the gold answer of "What fraction of its annual loan quota has Bellmont
Square Library used up with this year's loans?" is a number such as ``0.78125``, and exact match compares numbers
without units, so ``78.125 %`` does not match it. Loan lengths are days; a branch's annual loan quota is a number of
loans, exceeded only when the branch issued strictly more loans this year.
"""

from __future__ import annotations

from pathlib import Path

from vadaorchestra.eval.datasets import generate_missing, verbalize

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
CATALOG = HERE / "catalog"
DATA_ROOT = HERE
QUESTION_SETS = {"library_network": DATA / "questions.jsonl"}
DESCRIPTION = {"library_network": "held-out questions over a small catalog of another domain (a city library "
                                  "network: branches and their loan quotas, titles in a nested genre hierarchy, "
                                  "copies held per branch, members' loans)"}
SENTENCES = {
    "branches.csv": "{branch} is a branch of the city library network in {district}, with an annual loan quota of "
                    "{annual_loan_quota} loans.",
    "genre_parents.csv": "The genre {genre} is a subgenre of {parent_genre}.",
    "titles.csv": "{title} is a book by {author}, published in {publication_year} and filed under the genre "
                  "{genre}.",
    "holdings.csv": "{branch} holds {copies} copies of {title}.",
    "loans.csv": "Loan {loan_id}: {member} borrowed {title} from {branch} this year for {loan_days} days.",
}


def ensure() -> bool:
    return generate_missing(HERE / "generate.py", [DATA / f for f in [*SENTENCES, "questions.jsonl"]], HERE)


def facts() -> list[str]:
    return verbalize(DATA, SENTENCES)
