"""A period the question names ("in March 2024", "in 2023", "on 12 March 2024") kept by the rules that select rows.

The period's text is spaCy's DATE entity (:mod:`parse`); what span of time it is, and to what precision, is read by
dateutil's parser (the fields the text gives are those that do not change with the parser's default date). A span
becomes a range of ISO prefixes, ``"2024-03" <= D < "2024-04"``, which holds for a column of days ("2024-03-12") and
a column of months ("2024-03") alike, as strings compare; a column of years (an integer) is compared with the year.
A period dateutil does not read ("Q1 2024", "between January and June 2024") is kept by nothing here, and the
Verifier says so.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from dateutil import parser as dateparser

from vadaorchestra.agents.context import PredicateView
from vadaorchestra.datalog.printer import format_const

_ISO = re.compile(r"^(?:19|20)\d\d(?:-\d\d(?:-\d\d)?)?$")


def span(text: str) -> tuple[str, str] | None:
    """``(first, after)``: the ISO prefixes a date of the period starts with at least, and is below: "March 2024" is
    ("2024-03", "2024-04"), "2024" ("2024", "2025"), "12 March 2024" ("2024-03-12", "2024-03-13"); None when the
    text is no single year, month or day."""
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
