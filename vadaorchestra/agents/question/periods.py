"""A period the question names ("in March 2024", "in 2023", "on 12 March 2024") kept by the rules that select rows.

The period's text is spaCy's DATE entity (:mod:`parse`); what span of time it is, and to what precision, is read by
dateutil's parser (the fields the text gives are those that do not change with the parser's default date). A span
becomes a range of ISO prefixes, ``"2024-03" <= D < "2024-04"``, which holds for a column of days ("2024-03-12") and
a column of months ("2024-03") alike, as strings compare; a column of years (an integer) is compared with the year.
Parts of a year ("Q2 2025", "the second quarter of 2025", "H1 2025", "the first half of 2025") and ranges of months
("between January and June 2024", "March to May 2024", "January and February 2024") are spans too. A period read as
none of these ("the 2024/25 season") is kept by nothing here, and the Verifier says so.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from dateutil import parser as dateparser

from vadaorchestra.agents.context import PredicateView
from vadaorchestra.datalog.printer import format_const

_ISO = re.compile(r"^(?:19|20)\d\d(?:-\d\d(?:-\d\d)?)?$")
_YEAR = re.compile(r"^(?:19|20)\d\d$")
_PART = re.compile(r"^([qh])([1-4])$")  # a number format: "Q2", "H1"
# English, not any domain: ordinal words, the parts of a year in months, the words joining the two ends of a range
ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
PARTS = {"quarter": 3, "q": 3, "half": 6, "h": 6}
RANGE_WORDS = frozenset({"to", "through", "until", "till", "and"})
RANGE_OPENERS = frozenset({"between", "from"})


def span(text: str) -> tuple[str, str] | None:
    """``(first, after)``: the ISO prefixes a date of the period starts with at least, and is below: "March 2024" is
    ("2024-03", "2024-04"), "2024" ("2024", "2025"), "12 March 2024" ("2024-03-12", "2024-03-13"), "Q2 2025"
    ("2025-04", "2025-07"), "March to May 2024" ("2024-03", "2024-06"); None when the text is none of these."""
    words = re.findall(r"[a-z0-9]+", text.lower())
    return _part_of_year(words) or _range(words) or _single(text)


def _part_of_year(words: list[str]) -> tuple[str, str] | None:
    """A quarter or a half of a year: "Q2 2025", "2025 Q2", "the second quarter of 2025", "H1 2025"."""
    years = [int(w) for w in words if _YEAR.match(w)]
    found = None
    for k, w in enumerate(words):
        m = _PART.match(w)
        if m:
            found = (PARTS[m.group(1)], int(m.group(2)))
        elif w in ("quarter", "half") and k and words[k - 1] in ORDINALS:
            found = (PARTS[w], ORDINALS[words[k - 1]])
    if found is None or len(years) != 1 or found[1] * found[0] > 12:
        return None
    size, n = found
    first = (n - 1) * size + 1
    return _month(years[0], first), _month(years[0], first + size)


def months(first: str, after: str) -> set[tuple[str, int]]:
    """The (year, month) pairs of a span of months or days (:func:`span`)."""
    out, (y, m) = set(), (int(first[:4]), int(first[5:7]))
    while _month(y, m) < after[:7] or not out:
        out.add((f"{y:04d}", m))
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return out


def _month(year: int, month: int) -> str:
    """The ISO month ``month`` of ``year`` (13 is January of the next)."""
    year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
    return f"{year:04d}-{month:02d}"


def _range(words: list[str]) -> tuple[str, str] | None:
    """Two dates joined ("between January and June 2024", "March to May 2024", "January and February 2024": the
    year written once, at the end); two ends joined by a bare "and" are one span only when they touch."""
    cuts = [k for k, w in enumerate(words) if w in RANGE_WORDS]
    if len(cuts) != 1:
        return None
    k = cuts[0]
    first, last = [w for w in words[:k] if w not in RANGE_OPENERS], words[k + 1:]
    if not first or not last:
        return None
    year = [w for w in last if _YEAR.match(w)]
    if year and not any(_YEAR.match(w) for w in first):
        first = first + year[-1:]
    a, b = _single(" ".join(first)), _single(" ".join(last))
    if a is None or b is None or len(a[0]) != len(b[0]) or a[0] >= b[1]:
        return None
    if words[k] == "and" and not (words[0] in RANGE_OPENERS or a[1] == b[0]):
        return None  # "January and March 2024": two months, not the span between them
    return a[0], b[1]


def _single(text: str) -> tuple[str, str] | None:
    """One year, month or day, as dateutil reads it."""
    try:
        a = dateparser.parse(text, default=datetime(2000, 1, 1))
        b = dateparser.parse(text, default=datetime(2001, 2, 2))
    except (ValueError, OverflowError):
        return None
    if a.year != b.year:
        return None  # no year ("March"): not a period of the data's calendar
    if a.month != b.month:
        return f"{a.year:04d}", f"{a.year + 1:04d}"
    if a.day != b.day:
        nxt = date(a.year + a.month // 12, a.month % 12 + 1, 1)
        return f"{a.year:04d}-{a.month:02d}", f"{nxt.year:04d}-{nxt.month:02d}"
    day = a.date()
    return day.isoformat(), (day + timedelta(days=1)).isoformat()


def column(view: PredicateView, roles: dict[str, str] | None) -> str | None:
    """The column of ``view`` that dates its rows: one the catalog declares a date, else the one string column whose
    values (those retrieved) are all ISO dates or months."""
    declared = [c for c in view.columns if (roles or {}).get(c) == "date" and c not in view.param_columns]
    if declared:
        return declared[0]
    dated = [c for c in view.typed("string") if c not in view.param_columns and view.facts
             and all(isinstance(f.get(c), str) and _ISO.match(f[c]) for f in view.facts)]
    return dated[0] if len(dated) == 1 else None


def conditions(text: str, variable: str, typ: str) -> list[str] | None:
    """The conditions keeping ``variable`` (a column of type ``typ``) to the period, or None when they cannot."""
    found = span(text)
    if found is None:
        return None
    first, after = found
    if typ == "string":
        return [f"{variable} >= {format_const(first)}", f"{variable} < {format_const(after)}"]
    if typ == "int" and len(first) == 4:  # a column of years
        return [f"{variable} == {int(first)}"]
    return None


def keep(fr, views: list[tuple[PredicateView, dict]], names: dict[tuple[str, str], str],
         consts: dict[tuple[str, str], str]) -> list[str]:
    """The conditions keeping a rule's rows to every period ``fr`` names, each on the first of ``views`` (a view
    with its tool's spec) that has a column dating its rows; ``names`` maps (predicate, column) to the rule's
    variables, ``consts`` the columns the rule fixes. A period no view can keep adds nothing (the Verifier refuses)."""
    out: list[str] = []
    for text in fr.periods:
        for v, spec in views:
            col = column(v, spec.get("roles"))
            if col is None or (v.name, col) in consts or (v.name, col) not in names:
                continue
            typ = next(c["type"] for c in v.schema if c["name"] == col)
            found = conditions(text, names[(v.name, col)], typ)
            if found:
                out += found
                break
    return out
