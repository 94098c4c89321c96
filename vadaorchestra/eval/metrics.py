"""Exact match and the summary of an evaluation run.

Exact match is deliberately plain: case-insensitive, whitespace-normalized; a list answer is compared as a set (order
and repetitions do not matter, every gold value must be there and nothing else); a number answer is compared
numerically (``12``, ``12.0`` and ``"12"`` match). An answer text becomes values by :func:`parse_answer`: the part
after the last ``ANSWER:`` if there is one, then one value per ``;`` or line.
"""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Iterable, Sequence
from typing import Any

# complexity buckets for the summary: (label, lowest, highest)
BUCKETS: tuple[tuple[str, int, float], ...] = (
    ("1", 1, 1), ("2-5", 2, 5), ("6-10", 6, 10), ("11-50", 11, 50), ("51-100", 51, 100), ("101-500", 101, 500),
    ("501-1000", 501, 1000), (">1000", 1001, math.inf),
)
_NUMBER = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?|[-+]?\.\d+")
_BULLET = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)])\s+")
_EMPTY = {"", "none", "nothing", "no answer", "n/a", "[]", "no one", "nobody", "no fact answers the question."}


def normalize(value: Any) -> str:
    """Casefolded, whitespace collapsed, surrounding quotes and punctuation removed."""
    text = " ".join(str(value).split()).casefold()
    return text.strip(" \t.,;:!?\"'`*")


def as_number(value: Any) -> float | None:
    """``value`` as a number: an int or float, a text that is one number (``1,000`` and ``12.`` included), or a text
    holding exactly one number that is not zero-padded (``"12 companies"``); else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    text = normalize(value)
    try:
        return float(text.replace(",", ""))
    except ValueError:
        pass
    found = _NUMBER.findall(text)
    # one number in a sentence ("12 companies"); a zero-padded one is a name's id ("Company 0042"), not a count
    if len(found) == 1 and not re.fullmatch(r"[-+]?0\d+", found[0]):
        return float(found[0].replace(",", ""))
    return None


def parse_answer(text: str | None) -> list[str]:
    """The values an answer text gives: after the last ``ANSWER:`` when present, one per ``;`` or line, bullets,
    quotes and trailing full stops removed; the Verifier's ``(unverified: ...)`` note is not a value."""
    if not text:
        return []
    marker = list(re.finditer(r"answer\s*:", text, re.IGNORECASE))
    if marker:
        text = text[marker[-1].end():]
    values = []
    for line in text.splitlines():
        if line.strip().lower().startswith("(unverified"):
            continue
        for part in line.split(";"):
            part = _BULLET.sub("", part).strip().strip("\"'`").rstrip(".").strip()
            if part and normalize(part) not in _EMPTY:
                values.append(part)
    return values


def exact_match(gold: Any, predicted: Sequence[Any] | None, percent: bool = False) -> bool:
    """Does the predicted value list match the gold answer (a number or a list of names)? With ``percent`` (the
    answer writes its share as a percentage: "25 %"), a share of 0.25 matches a gold written in percent (25) too, at
    the gold's precision (2/3 matches 66.7). A gold with decimals is matched at its own precision (8.64 matches 8.6,
    8.66 does not); a whole-number gold only by that number."""
    if predicted is None:
        return False
    predicted = [p for p in predicted if normalize(p) not in _EMPTY]
    if isinstance(gold, (int, float)) and not isinstance(gold, bool):
        if len(predicted) != 1:
            return False
        n = as_number(predicted[0])
        if n is None:
            return False
        # (a gold in percent is matched at its own precision: 66.7 for a share of 2/3 written "66.7 %")
        places = len(repr(float(gold)).split(".")[1]) if "e" not in repr(float(gold)) else 9
        # (and a gold with decimals written at its own precision: a mean of 8.64 matches a gold of 8.6; a whole
        # number gold never matches a fraction, 25.4 is not 25)
        rounded = [round(n, places)] if not float(gold).is_integer() else []
        return any(math.isclose(x, float(gold), rel_tol=1e-9, abs_tol=1e-9)
                   for x in ([n, round(n * 100, places)] if percent else [n]) + rounded)
    if isinstance(gold, (list, tuple)):
        return {normalize(g) for g in gold} == {normalize(p) for p in predicted}
    return len(predicted) == 1 and normalize(predicted[0]) == normalize(gold)


REFUSED = "could not answer"


def right(gold: Any, predicted: Sequence[Any] | None, source: str | None = None,
          parts: Sequence[Sequence[Any]] | None = None, yes: bool | None = None, text: str | None = None) -> bool:
    """Is a prediction right? ``gold`` is a value (see :func:`exact_match`); ``None`` for a question no tool of the
    catalog answers, where only "could not answer" is right; or ``{"parts": [gold, ...]}`` for a question of several
    parts, each matched against the value list the prediction gives for that part (``parts``); or ``true``/``false``
    for a yes/no question, matched against the answer's ``yes`` (or a single value "yes"/"no"). Otherwise "could not
    answer" is never right, not even where the gold answer is an empty list. ``text``, the answer's words: a share
    it writes as a percentage ("25 % of the appointments") matches a gold in percent (:func:`exact_match`)."""
    if gold is None:
        return source == REFUSED
    if source == REFUSED:
        return False
    percent = bool(text) and "%" in text
    if isinstance(gold, bool):
        if yes is not None:
            return yes is gold
        return predicted is not None and len(predicted) == 1 and \
            normalize(predicted[0]) in ({"yes", "true"} if gold else {"no", "false"})
    if isinstance(gold, dict) and "parts" in gold:
        return parts is not None and len(parts) == len(gold["parts"]) and all(
            exact_match(g, p, percent) for g, p in zip(gold["parts"], parts, strict=True))
    return exact_match(gold, predicted, percent)


def bucket(complexity: int | None) -> str:
    if complexity is None:
        return "unknown"
    return next(label for label, lo, hi in BUCKETS if lo <= complexity <= hi) if complexity >= 1 else "0"


def _rate(flags: Iterable[Any]) -> float | None:
    flags = [bool(f) for f in flags if f is not None]
    return round(sum(flags) / len(flags), 4) if flags else None


def _group(records: list[dict[str, Any]], key) -> dict[str, dict[str, Any]]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        groups.setdefault(key(r), []).append(r)
    return {k: {"n": len(rs), "em": _rate(r["em"] for r in rs), "judge": _rate(r["judge"] for r in rs)}
            for k, rs in groups.items()}


def summarize(records: list[dict[str, Any]], **header: Any) -> dict[str, Any]:
    """EM (and judge accuracy) overall, per question type and per complexity bucket; timing; errors."""
    seconds = [r["seconds"] for r in records if r.get("seconds") is not None]
    order = {label: i for i, (label, _, _) in enumerate(BUCKETS)}
    by_bucket = _group(records, lambda r: bucket(r.get("complexity")))
    return {
        **header,
        "n": len(records),
        "em": _rate(r["em"] for r in records),
        "judge": _rate(r["judge"] for r in records),
        "by_type": dict(sorted(_group(records, lambda r: r.get("type") or "?").items())),
        "by_complexity": dict(sorted(by_bucket.items(), key=lambda kv: order.get(kv[0], -1))),
        "errors": sum(1 for r in records if r.get("error")),
        # the product's promise: an answer marked verified is right ("could not answer" is honest, this is not)
        "wrong_and_verified": sum(1 for r in records if not r["em"] and (r.get("details") or {}).get("verified")),
        "could_not_answer": sum(1 for r in records if r.get("source") == "could not answer"),
        "seconds": {"total": round(sum(seconds), 3),
                    "mean": round(statistics.fmean(seconds), 3) if seconds else None,
                    "median": round(statistics.median(seconds), 3) if seconds else None,
                    "max": round(max(seconds), 3) if seconds else None},
    }


def cumulative_accuracy(records: list[dict[str, Any]], thresholds: Iterable[int]) -> list[tuple[int, float | None]]:
    """For each threshold t: EM over the questions whose complexity is at most t."""
    rows = sorted((r["complexity"], bool(r["em"])) for r in records if r.get("complexity") is not None)
    out = []
    for t in thresholds:
        flags = [em for c, em in rows if c <= t]
        out.append((t, sum(flags) / len(flags) if flags else None))
    return out
