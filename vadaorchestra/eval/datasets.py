"""Datasets by name: a scenario folder whose ``dataset.yaml`` lists its question sets; one loader reads them all.

A dataset folder holds a generator, a catalog of tool programs and question files, described by ``dataset.yaml``::

    sets:                          # dataset name -> its questions (JSONL: id, type, template, question, answer,
      power_grid:                  #   complexity) and one line saying what they are about
        questions: data/questions.jsonl
        description: held-out questions over ...
    catalog: catalog               # the tool programs (default: catalog)
    data_root: .                   # where their @bind paths resolve (default: the folder)
    generate: generate.py          # optional: its write(folder / generate_into) writes the files below when one is
    generate_into: .               #   missing (default: the folder)
    sentences:                     # optional: each data file's rows as sentences, for the RAG baselines
      data/feeds.csv: "{upstream_substation} feeds {downstream_substation} directly."

The scenarios folder is ``$VADA_SCENARIOS``, else ``./scenarios``, else the one next to the package (a source
checkout).
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import yaml

import vadaorchestra
from vadaorchestra.errors import VadaError

FILE = "dataset.yaml"


class EvalError(VadaError):
    """An evaluation cannot run: unknown dataset, an approach without the model it needs, a bad option."""


@dataclass(frozen=True)
class Dataset:
    name: str
    folder: Path
    questions_path: Path
    catalog: Path
    data_root: Path
    description: str = ""
    sentences: dict[str, str] = field(default_factory=dict)  # data file (relative to the folder) -> sentence

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
        """The knowledge graph as sentences (for the RAG baselines)."""
        if not self.sentences:
            raise EvalError(f"dataset {self.name!r} offers no verbalized facts for retrieval (no 'sentences' in "
                            f"{self.folder / FILE})")
        return verbalize(self.folder, self.sentences)


def scenarios_dir() -> Path:
    here = Path(vadaorchestra.__file__).resolve().parents[1] / "scenarios"
    for candidate in (os.environ.get("VADA_SCENARIOS"), Path.cwd() / "scenarios", here):
        if candidate and Path(candidate).is_dir():
            return Path(candidate)
    raise EvalError("no scenarios folder: run from the repository, or set VADA_SCENARIOS")


def read_spec(path: Path) -> dict[str, Any]:
    """A folder's ``dataset.yaml``, checked: every problem is an EvalError naming the file."""
    try:
        spec = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise EvalError(f"{path}: cannot be read as YAML: {exc}") from None
    if not isinstance(spec, dict) or not isinstance(spec.get("sets"), dict) or not spec["sets"]:
        raise EvalError(f"{path}: needs 'sets', a mapping of dataset names to their questions")
    for name, entry in spec["sets"].items():
        if not isinstance(entry, dict) or not isinstance(entry.get("questions"), str):
            raise EvalError(f"{path}: set {name!r} needs 'questions', the path of its JSONL file")
    unknown = set(spec) - {"sets", "catalog", "data_root", "generate", "generate_into", "sentences"}
    if unknown:
        raise EvalError(f"{path}: unknown key(s) {', '.join(sorted(map(str, unknown)))}")
    if not isinstance(spec.get("sentences", {}), dict):
        raise EvalError(f"{path}: 'sentences' must map data files to sentences")
    return spec


def available() -> dict[str, Path]:
    """Dataset name -> the ``dataset.yaml`` that defines it."""
    out: dict[str, Path] = {}
    for path in sorted(scenarios_dir().glob(f"*/{FILE}")):
        for name in read_spec(path)["sets"]:
            out.setdefault(name, path)
    return out


def ensure(folder: Path, spec: dict[str, Any]) -> bool:
    """Run the folder's generator when a file the spec names is missing; True when it ran."""
    needed = [folder / f for f in spec.get("sentences", {})] + [folder / s["questions"] for s in spec["sets"].values()]
    if "generate" not in spec or all(p.is_file() for p in needed):
        return False
    run_generator(folder / spec["generate"], folder / spec.get("generate_into", "."))
    return True


def resolve(name: str, *, generate: bool = True) -> Dataset:
    """The dataset called ``name`` (``bank-qa`` is ``bank_qa``); its data are generated when missing."""
    key = name.replace("-", "_")
    known = available()
    if key not in known:
        raise EvalError(f"unknown dataset {name!r}; datasets: {', '.join(sorted(known)) or 'none'}")
    folder = known[key].parent
    spec = read_spec(known[key])
    if generate:
        ensure(folder, spec)
    entry = spec["sets"][key]
    path = folder / entry["questions"]
    if not path.is_file():
        raise EvalError(f"dataset {key!r}: {str(path)!r} is missing")
    return Dataset(key, folder, path, folder / spec.get("catalog", "catalog"), folder / spec.get("data_root", "."),
                   str(entry.get("description", "")), dict(spec.get("sentences") or {}))


# --- helpers for a scenario's generate.py -------------------------------------------------------------
def verbalize(folder: Path, sentences: dict[str, str]) -> list[str]:
    """Every row of each CSV file (a path under ``folder``) as its file's sentence (``{column}`` placeholders), in file
    and row order: the facts the RAG baseline retrieves from."""
    import csv

    out = []
    for file, sentence in sentences.items():
        with (Path(folder) / file).open(encoding="utf-8", newline="") as fh:
            out += [sentence.format(**row) for row in csv.DictReader(fh)]
    return out


def run_generator(generator: Path, *args: Any) -> None:
    """Run ``write(*args)`` of a scenario's generator script."""
    spec = importlib.util.spec_from_file_location(f"vada_generate_{generator.parent.name}", generator)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    module.write(*args)


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


def write_generated(folder: Path, data: dict[str, list[list]], check: Any, headers: dict[str, list[str]],
                    questions: Any) -> None:
    """A generated dataset checked (``check(data)``), then written: its tables and ``questions(data)``."""
    check(data)
    write_tables(folder, data, headers, questions(data))


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
