"""Datasets by name: a scenario folder whose ``dataset.py`` lists its question sets.

``bank_qa`` and ``bank_plus`` live in ``scenarios/bank_qa``. The scenarios folder is ``$VADA_SCENARIOS``, else
``./scenarios``, else the one next to the package (a source checkout).
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import vadaorchestra
from vadaorchestra.errors import VadaError


class EvalError(VadaError):
    """An evaluation cannot run: unknown dataset, an approach without the model it needs, a bad option."""


@dataclass(frozen=True)
class Dataset:
    name: str
    folder: Path
    questions_path: Path
    catalog: Path
    data_root: Path
    module: ModuleType

    def questions(self, limit: int | None = None) -> list[dict[str, Any]]:
        with self.questions_path.open(encoding="utf-8") as fh:
            items = [json.loads(line) for line in fh if line.strip()]
        return items[:limit] if limit is not None else items

    def sample(self, n: int, seed: int = 0) -> list[dict[str, Any]]:
        """A stratified, seeded sample of ``n`` questions, listed in dataset order.

        Questions are taken in turn from each type, within a type from each template, within a template from each
        complexity bucket (so that a set of count questions still spans 1 to 1,000 entity-relations), at random
        within a bucket. The same ``n`` and ``seed`` give the same questions whatever the approach.
        """
        import random

        from vadaorchestra.eval.metrics import bucket

        items = self.questions()
        if n < 1:
            raise EvalError(f"--sample must be at least 1, not {n}")
        if n >= len(items):
            return items
        rng = random.Random(f"{self.name}:{seed}")
        tree: dict[str, dict[str, dict[str, list[int]]]] = {}
        for i, q in enumerate(items):
            (tree.setdefault(str(q.get("type")), {}).setdefault(str(q.get("template")), {})
             .setdefault(bucket(q.get("complexity")), []).append(i))
        for templates in tree.values():
            for buckets in templates.values():
                for members in buckets.values():
                    rng.shuffle(members)

        def take(node: Any, turn: dict[int, int]) -> int | None:
            """One question from ``node`` (a list of indices, or a dict of sub-nodes taken in turn)."""
            if isinstance(node, list):
                return node.pop() if node else None
            keys = sorted(node)
            start = turn.get(id(node), 0)
            for k in range(len(keys)):
                got = take(node[keys[(start + k) % len(keys)]], turn)
                if got is not None:
                    turn[id(node)] = start + k + 1
                    return got
            return None

        turn: dict[int, int] = {}
        chosen: list[int] = []
        while len(chosen) < n and (got := take(tree, turn)) is not None:
            chosen.append(got)
        return [items[i] for i in sorted(chosen)]

    def facts(self) -> list[str]:
        """The knowledge graph as sentences (for the RAG baseline)."""
        if not hasattr(self.module, "facts"):
            raise EvalError(f"dataset {self.name!r} offers no verbalized facts for retrieval")
        return list(self.module.facts())


def scenarios_dir() -> Path:
    here = Path(vadaorchestra.__file__).resolve().parents[1] / "scenarios"
    for candidate in (os.environ.get("VADA_SCENARIOS"), Path.cwd() / "scenarios", here):
        if candidate and Path(candidate).is_dir():
            return Path(candidate)
    raise EvalError("no scenarios folder: run from the repository, or set VADA_SCENARIOS")


def _load(path: Path) -> ModuleType:
    name = f"vada_dataset_{path.parent.name}"
    if name in sys.modules and getattr(sys.modules[name], "__file__", None) == str(path):
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def available() -> dict[str, Path]:
    """Dataset name -> the ``dataset.py`` that defines it."""
    out = {}
    for path in sorted(scenarios_dir().glob("*/dataset.py")):
        for name in getattr(_load(path), "QUESTION_SETS", {}):
            out.setdefault(name, path)
    return out


def resolve(name: str, *, generate: bool = True) -> Dataset:
    """The dataset called ``name`` (``bank-qa`` is ``bank_qa``); its data are generated when missing."""
    key = name.replace("-", "_")
    known = available()
    if key not in known:
        raise EvalError(f"unknown dataset {name!r}; datasets: {', '.join(sorted(known)) or 'none'}")
    module = _load(known[key])
    if generate and hasattr(module, "ensure"):
        module.ensure()
    path = Path(module.QUESTION_SETS[key])
    if not path.is_file():
        raise EvalError(f"dataset {key!r}: {str(path)!r} is missing")
    return Dataset(key, known[key].parent, path, Path(module.CATALOG), Path(module.DATA_ROOT), module)


# --- helpers for a scenario's dataset.py and generate.py -------------------------------------------------------------
def verbalize(data: Path, sentences: dict[str, str]) -> list[str]:
    """Every row of each CSV file of ``data`` as its file's sentence (``{column}`` placeholders), in file and row
    order: the facts the RAG baseline retrieves from."""
    import csv

    out = []
    for file, sentence in sentences.items():
        with (Path(data) / file).open(encoding="utf-8", newline="") as fh:
            out += [sentence.format(**row) for row in csv.DictReader(fh)]
    return out


def generate_missing(generator: Path, needed: list[Path], *args: Any) -> bool:
    """Run ``write(*args)`` of the generator script when a needed file is missing; True when it ran."""
    if all(Path(p).is_file() for p in needed):
        return False
    spec = importlib.util.spec_from_file_location(f"vada_generate_{generator.parent.name}", generator)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    module.write(*args)
    return True


def exact_number(x: Fraction | float | int) -> float | int:
    """A gold number of a generated question set: an int for counts, else the float of an exact quotient, which must
    be a terminating decimal (so that the float is exactly the quotient exact match compares with)."""
    if isinstance(x, int):
        return x
    x = Fraction(x)
    d = x.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    assert d == 1, f"{x} is not a terminating decimal"
    return float(x)


def check_names(names: list[str]) -> None:
    """Every entity name of a generated catalog's data distinct, and none inside another (entities are found in a
    question as whole names: "Hartside" inside "Hartside Substation" would be found twice)."""
    assert len(set(names)) == len(names), "a name is used twice"
    assert not any(x != y and x.casefold() in y.casefold() for x in names for y in names), "a name inside another"


def write_tables(folder: Path, tables: dict[str, list[list]], headers: dict[str, list[str]],
                 questions: list[dict]) -> None:
    """``folder/data/<name>.csv`` for every table (header first) and ``folder/data/questions.jsonl``."""
    import csv

    (folder / "data").mkdir(parents=True, exist_ok=True)
    for name, rows in tables.items():
        with (folder / "data" / f"{name}.csv").open("w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow(headers[name])
            w.writerows(rows)
    with (folder / "data" / "questions.jsonl").open("w", encoding="utf-8") as fh:
        for q in questions:
            fh.write(json.dumps(q) + "\n")
