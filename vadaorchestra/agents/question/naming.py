"""How a question's words name a catalog's columns and tools, for the offline policy's composers.

A column is named by the words of its name (the later word counting more: English compounds end in their head), by its
head word alone ("the loans" names no loan_days), or by the unit a tool's description gives it ("its weight in
tonnes": "tonnage" names weight_t); a tool by its name and output predicate, or by every word of its text. Columns
read back as prose with their units ("weight_t": "weight in tonnes"). The catalog's declared roles come first where a
role says what a word list would guess.
"""

from __future__ import annotations

import math
import re
import unicodedata
from functools import lru_cache
from typing import Any

from vadaorchestra.agents.context import RunContext
from vadaorchestra.agents.question import frame
from vadaorchestra.agents.question import parse as P
from vadaorchestra.agents.question.frame import column_score, stem, terms, word_match

CAP_WORDS = frozenset(("cap", "capacity", "limit", "threshold", "ceiling", "max", "maximum", "quota", "allowance"))


def cols(spec: dict[str, Any], types: tuple[str, ...] = ("string", "int", "float", "bool")) -> list[str]:
    params = spec.get("parameter_columns", {})
    return [c["name"] for c in spec["schema"] if c["type"] in types and c["name"] not in params]


def numeric(spec: dict[str, Any]) -> list[str]:
    return cols(spec, ("int", "float"))


def param_column(spec: dict[str, Any], param: str) -> str | None:
    return next((c for c, p in spec.get("parameter_columns", {}).items() if p == param), None)


def words_before(question: str, start: int, width: int = 6) -> tuple[str, ...]:
    words = [stem(w) for w in re.findall(r"[a-z]+", question[:start].lower()) if w not in frame.STOPWORDS]
    return tuple(words[-width:])


def words_after(question: str, end: int, width: int = 4) -> tuple[str, ...]:
    words = [stem(w) for w in re.findall(r"[a-z]+", question[end:].lower()) if w not in frame.STOPWORDS]
    return tuple(words[:width])


def seq(text: str) -> tuple[str, ...]:
    """The content words of a text, stemmed, in order."""
    return tuple(stem(w) for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in frame.STOPWORDS)


def best_named(words: tuple[str, ...], columns: list[str]) -> list[str]:
    """The columns most of whose words the text has (then the later word counting more): "billed in total" names
    total_billed rather than a claims column named by a word further on."""
    def fit(c: str) -> tuple[int, int]:
        return sum(1 for t in terms(c) if any(word_match(w, t) for w in words)), column_score(words, c)

    scored = {c: fit(c) for c in columns}
    top = max(scored.values(), default=(0, 0))
    return [c for c in columns if top[0] and scored[c] == top]


def named(words: tuple[str, ...], columns: list[str]) -> list[str]:
    """The columns the words name best (the later word counting more), none when no word names one."""
    return frame.asked_columns(words, columns)


def label_named(words: tuple[str, ...], specs: list[dict[str, Any]], columns: list[str]) -> list[str]:
    """The columns whose @label the words name best ("vehicles": plate, labelled "vehicle"), none when none does."""
    labels = {c: lab for spec in specs for c, lab in (spec.get("labels") or {}).items() if c in columns}
    best = frame.asked_columns(words, list(labels.values()))
    return [c for c, lab in labels.items() if lab in best]


def role_columns(spec: dict[str, Any], *roles: str) -> list[str]:
    return [c for c, r in (spec.get("roles") or {}).items() if r in roles]


def role_of(ctx: RunContext, query: Any, column: str | None) -> str | None:
    """The role a query's tools (its anchor, then its joined tool) declare for ``column``."""
    tools = [query.tool, *([query.join.tool] if query.join else [])]
    return next((r for t in tools if (r := (ctx.tools[t].get("roles") or {}).get(column or "")) is not None), None)


def bound_columns(specs) -> set[str]:
    """The columns the tools declare a limit, a base or a level: numbers in a unit that are no amount of it ("the
    monthly intake cap in m³" is no timber taken in)."""
    return {c for spec in specs for c in role_columns(spec, "limit", "base", "level")}


def thing(spec: dict[str, Any], besides: str | None = None) -> str | None:
    """The column naming the things a tool lists: the one declared an entity, else its first string column."""
    strings = [c for c in cols(spec, ("string",)) if c != besides]
    declared = [c for c in role_columns(spec, "entity") if c in strings]
    return (declared or strings or [None])[0]


def said_with(spec: dict[str, Any], word: str) -> str | None:
    """The string column a tool's description names next to a word of the question ("the manager in charge of it":
    manager, for "Who is in charge of X?"): a column that is neither a parameter's nor a category, named within three
    words of it in the description, the nearest one."""
    params = set(spec.get("parameter_columns", {}))
    roles = spec.get("roles") or {}
    candidates = [c for c in cols(spec, ("string",)) if c not in params and roles.get(c) != "category"]
    text = _description_lemmas(spec.get("description", ""))
    at = [i for i, w in enumerate(text) if word_match(stem(word), w)]
    best = None
    for c in candidates:
        names = [i for i, w in enumerate(text) if any(word_match(x, w) for x in terms(c.split("_")[-1]))]
        d = min((abs(i - j) for i in at for j in names), default=None)
        if d is not None and d <= 3 and (best is None or d < best[0]):
            best = (d, c)
    return best[1] if best else None


@lru_cache(maxsize=1024)
def parsed(description: str):
    """A tool's description parsed by the pipeline, once per process for each text (the readings below share it)."""
    return P.nlp()(description)


@lru_cache(maxsize=1024)
def _description_lemmas(description: str) -> tuple[str, ...]:
    return tuple(stem(t.lemma_.lower()) for t in parsed(description) if t.is_alpha)


@lru_cache(maxsize=1024)
def most_of(description: str) -> tuple[str, ...]:
    """The things a description says a most is of ("the most animals it may hold", "the maximum number of
    employees"): the nouns "most" or "maximum" modifies, or the noun after "maximum number of"."""
    out = []
    for t in parsed(description):
        if t.lemma_.lower() not in ("most", "maximum") or t.dep_ != "amod" or t.head.pos_ != "NOUN":
            continue
        noun = t.head
        if noun.lemma_.lower() == "number":  # "the maximum number of employees"
            noun = next((g for c in noun.children if c.dep_ == "prep" and c.lower_ == "of" for g in c.children
                         if g.dep_ == "pobj" and g.pos_ == "NOUN"), None)
        if noun is not None:
            out.append(stem(noun.lemma_.lower()))
    return tuple(dict.fromkeys(out))


@lru_cache(maxsize=1024)
def _listed(description: str) -> frozenset[str]:
    doc = parsed(description)
    chunks = list(doc.noun_chunks)
    out = set()
    if chunks and chunks[0].start == 0:  # the description starts with what it lists
        out.add(stem(chunks[0].root.lemma_.lower()))
    colon = next((t.i for t in doc if ":" in t.text and t.pos_ == "PUNCT"), None)  # (also "):" as one token)
    for c in chunks:
        if colon is not None and c.start > colon:
            out.add(stem(c.root.lemma_.lower()))
            break
    out |= {stem(c.root.lemma_.lower()) for c in chunks if any(t.lower_ in ("each", "every") for t in c)}
    # (the parser leaves out of its noun chunks a phrase it could not attach: "Direct lanes out of a depot: each
    # depot it has ...", read as a fragment, has no chunk at its start nor at "each depot"; the nouns themselves)
    for start in [0] + ([colon + 1] if colon is not None else []):
        run, last = [], None
        for t in doc[start:]:
            if run and run[-1].pos_ == "NOUN" and t.tag_ == "VBZ":
                # (a plural after a noun the tagger took for a verb: "The cultivation inspections an inspector
                # carried out" is a phrase, its head "inspections"; kept beside the noun before it, which is the
                # head when the verb is one, "The tool lists ...")
                last = P.noun_lemma(t.lower_)
                break
            if t.pos_ not in ("DET", "ADJ", "NOUN", "PROPN") or (t.pos_ == "DET" and run):
                break
            run.append(t)
        if last is not None:
            out.add(stem(last))
        if run and run[-1].pos_ == "NOUN":
            out.add(stem(run[-1].lemma_.lower()))
    out |= {stem(t.lemma_.lower()) for t in doc if t.pos_ == "NOUN" and any(
        c.lower_ in ("each", "every") and c.dep_ == "det" for c in t.children)}
    # what they are called besides ("its borrowers, the companies the bank lends to")
    # (right after it: "its borrowers, the companies ..."; not a phrase the parser hung on a noun far before it)
    out |= {stem(c.root.lemma_.lower()) for c in chunks if c.root.dep_ in ("appos", "conj")
            and stem(c.root.head.lemma_.lower()) in out and 0 < c.start - c.root.head.i <= 3 and c.root.pos_ == "NOUN"}
    return frozenset(w for w in out if w.isalpha() and w not in frame.STOPWORDS)


def says_together(specs, words) -> bool:
    """Whether a tool's description says the words one after the other ("recycling centre" in "a site of the network
    (authority, region, district, depot or recycling centre)"): the catalog's own name for a kind of thing."""
    want = tuple(stem(w.lower()) for w in words)
    return bool(want) and any(want == lemmas[i:i + len(want)]
                              for spec in specs for lemmas in [_description_lemmas(spec.get("description", ""))]
                              for i in range(len(lemmas)))


def listed(spec: dict[str, Any]) -> frozenset[str]:
    """What a tool's description says it lists, read by the parser: the first noun phrase ("Guarantors of a
    company"), the first after a colon ("...: the companies that guarantee its loans") and those after "each" or
    "every" ("for each feeder its id"); not the thing it is called for ("a company", "a substation")."""
    return _listed(spec.get("description", ""))


def tool_name(spec: dict[str, Any]) -> set[str]:
    return terms(spec["name"]) | terms(spec["output_predicate"])


def tool_words(spec: dict[str, Any]) -> set[str]:
    """The words of a tool: its name, description, output and columns."""
    return terms(" ".join([spec["name"], spec["description"], spec["output_predicate"],
                           *(c["name"] for c in spec["schema"])]))


def last_word_named(column: str, words) -> bool:
    """Whether one of ``words`` names the last word of a column's name ("booked_hours": hours; "loan_days": days,
    its unit, not the loans), when that word is one (not a code such as "gbp2")."""
    last = column.split("_")[-1]
    return last.isalpha() and any(word_match(stem(last), w) for w in words)


def _units(ctx: RunContext | None) -> set[str]:
    """The units the catalog speaks of: declared (``@unit``), or written "in <unit>" in a tool's description."""
    specs = list(ctx.tools.values()) if ctx else []
    return {w.lower() for spec in specs for w in re.findall(r"\bin\s+([A-Za-z]+)", spec["description"])} | \
        {u.lower() for spec in specs for u in (spec.get("units") or {}).values() if u.isalpha()}


def column_unit(column: str, ctx: RunContext) -> str | None:
    """The unit a number column is in: the one the catalog declares for it, else its name's last word when the
    catalog speaks of it as a unit ("loan_days": the loan period "in days")."""
    for spec in ctx.tools.values():
        if (unit := (spec.get("units") or {}).get(column)):
            return unit
    last = column.lower().split("_")[-1]
    return last if len(last) > 1 and last.isalpha() and any(u.startswith(last) for u in _units(ctx)) else None


def head_named(words: tuple[str, ...], columns: list[str], ctx: RunContext | None = None) -> list[str]:
    """The columns whose head word the words name: "loans" names no loan_days. The head is the last word of the
    name, not a unit the catalog declares (``@unit``) or the tools' descriptions give ("demand_mw": "its demand in
    MW")."""
    units = _units(ctx)

    def head(c: str) -> str:
        parts = c.lower().split("_")
        declared = column_unit(c, ctx) if ctx is not None else None
        # (a suffix that is the unit the catalog declares for the column, however written: volume_m3 in "m³")
        while len(parts) > 1 and (len(parts[-1]) == 1 or any(u.startswith(parts[-1]) for u in units)
                                  or (declared and same_unit(parts[-1], declared))):
            parts.pop()
        return stem(parts[-1])

    def heads(c: str) -> set[str]:  # (and the verb of an irregular form: "spent_gbp" is the spending)
        return {head(c)} | ({v} if (v := P.irregular_verb(head(c))) else set())
    return [c for c in columns if any(word_match(w, h) for w in words for h in heads(c))]


@lru_cache(maxsize=1)
def _unit_registry():
    import logging

    import pint  # (the units of measurement and their names: "ML" and "megalitres" are one unit)

    logging.getLogger("pint").setLevel(logging.ERROR)  # ("Parsing Gbps yield multiple results": not the user's)
    return pint.UnitRegistry()


@lru_cache(maxsize=4096)
def unit_of(text: str):
    """The unit a word, words or a symbol name, by pint's registry ("ML", "megalitres", "megaliters": megaliter;
    "ha", "hectares": hectare; "m³", "m3", "cubic metres": meter ** 3); None when they name none. Symbols are
    case-sensitive ("ML" is no "ml")."""
    text = re.sub(r"(?<=[A-Za-z])([23])$", r"**\1", (text or "").strip())  # "m3": m**3
    if not re.fullmatch(r"[A-Za-z][A-Za-z ]*(\*\*[23]|[²³])?", text) or len(text) > 40:
        return None
    try:
        unit = _unit_registry().parse_units(text)
    except Exception:  # pint raises its own errors, and others on odd input: none names a unit
        return None
    return None if unit.dimensionless else unit


@lru_cache(maxsize=256)
def currency(unit: str) -> frozenset[str] | None:
    """The symbols and English names of a currency the catalog declares by its ISO code ("GBP": £, pound, pounds;
    "USD": $, US$, dollar, dollars), from the CLDR as Babel ships it; None when ``unit`` is no currency code."""
    from babel import numbers

    code = unit.strip().upper()
    if len(code) != 3 or code not in numbers.list_currencies():
        return None
    symbols = {numbers.get_currency_symbol(code, locale=loc) for loc in ("en", "en_GB", "en_US")}
    names = {numbers.get_currency_name(code, count=n, locale="en").lower().split()[-1] for n in (1, 2)}
    return frozenset({*symbols, *names, code.lower()})


def same_unit(word: str, unit: str) -> bool:
    """Whether words of the question ("megalitres", "cubic metres", "kilowatt hours", "£", "pounds") name the unit
    the catalog declares ("ML", "m³", "kWh", "GBP"): one dimension, and one of each is one of the other; a currency
    by its symbol or its name (a pound in GBP is no weight)."""
    if not word or not unit:
        return False
    money = currency(unit)
    if money is not None:
        return word.lower() in money
    if len(word) < 2:
        return False
    if word.lower() == unit.lower():
        return True
    a, b = unit_of(unit), unit_of(word)
    if a is None or b is None or a.dimensionality != b.dimensionality:
        return False
    try:
        return abs((1 * b).to(a).magnitude - 1) < 1e-9
    except Exception:  # (offset units and the like: not one unit)
        return False


def names_unit(words, unit: str) -> bool:
    """Whether a word of ``words``, or two in a row ("cubic metres"), names ``unit`` (:func:`same_unit`)."""
    words = list(words)
    return any(same_unit(w, unit) for w in words) or any(
        same_unit(f"{a} {b}", unit) for a, b in zip(words, words[1:], strict=False))


def unit_named(words: tuple[str, ...], ctx: RunContext, tools: list[str], columns: list[str]) -> list[str]:
    """The columns named by the unit the catalog declares for them (``@unit``) or a tool's description gives them
    ("its weight in tonnes": "tonnage" names weight_t); a unit written out ("megalitres") names its symbol ("ML")."""
    found = []
    for tool in tools:
        declared = ctx.tools[tool].get("units") or {}
        found += [c for c in columns if c in declared and c not in found and (
            (declared[c].isalpha() and any(word_match(w, stem(declared[c].lower())) for w in words))
            or names_unit(words, declared[c]))]
        for m in re.finditer(r"((?:[a-z]+\s+){0,2}[a-z]+)\s+in\s+([a-z]+)", ctx.tools[tool]["description"].lower()):
            hits = [c for c in named(seq(m.group(1)), columns) if c not in found]
            if len(hits) == 1 and any(word_match(w, stem(m.group(2))) for w in words):
                found += hits
    return found


def prose(column: str, ctx: RunContext | None = None) -> str:
    """A column's name as words; a one-letter unit as a tool's description says it ("weight_t": "weight in tonnes"
    where the description has "its weight in tonnes", "contracted_monthly_t": "contracted monthly tonnage"), else
    without it."""
    parts = column.split("_")
    if len(parts) >= 2 and ctx is not None and any(
            str((spec.get("units") or {}).get(column, "")).lower() == parts[-1].lower() for spec in ctx.tools.values()):
        return " ".join(parts[:-1])  # "loan_fee_gbp" in GBP: "loan fee" (the value is written with its unit)
    if len(parts) < 2 or len(parts[-1]) != 1:
        return " ".join(parts)
    words = " ".join(parts[:-1])
    for spec in (ctx.tools.values() if ctx is not None else ()):
        m = re.search(rf"\b{re.escape(words)}\s+((?:in\s+)?{parts[-1]}[a-z]+)", spec["description"], re.I)
        if m:
            return f"{words} {m.group(1).lower()}"
    return words


def prose_total(column: str, ctx: RunContext | None = None) -> str:
    """ "total amount", "total billed" (not "total total billed")."""
    return prose(column, ctx) if "total" in terms(column) else f"total {prose(column, ctx)}"


def follows_chain(spec: dict[str, Any]) -> bool:
    """The tool follows a chain through every level (its program is recursive, or it reads a tool's that is)."""
    return bool(spec.get("follows_chain", spec.get("recursive")))


def catalog_numbers(ctx: RunContext) -> list[str]:
    return list(dict.fromkeys(c for spec in ctx.tools.values() for c in numeric(spec)))


def mappings(pred: str, cols: list[tuple[str, str, str]]) -> str:
    """``@mapping`` annotations of ``pred`` for (column, variable, type) triples, in order."""
    return " ".join(f'@mapping("{pred}", {i}, "{c}", "{t}").' for i, (c, _, t) in enumerate(cols))


def slug(text: str, limit: int | None = None) -> str:
    """A part of a predicate name made of ``text``: ASCII letters, digits and underscores only ("GAEC des Trois
    Chênes": gaec_des_trois_chenes), as the rule language's identifiers are."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "_", ascii_text.lower()).strip("_")[:limit]


def var(col: str, taken: set[str]) -> str:
    """A fresh rule variable named after a column (a name starting with a digit gets a leading V)."""
    base = re.sub(r"[^A-Za-z0-9]", "", col.title().replace("_", "")) or "V"
    if not base[0].isalpha():
        base = "V" + base
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}{n}"
    taken.add(name)
    return name


def fmt_number(x: float) -> str:
    """Amounts as 13.1M / 250K / 42; what the Verifier reads back at the precision shown."""
    if isinstance(x, float) and not math.isfinite(x):
        return str(x)
    ax = abs(x)
    if ax >= 1e6:
        return f"{x / 1e6:.2f}".rstrip("0").rstrip(".") + "M"
    if ax >= 1e4:
        return f"{x / 1e3:.1f}".rstrip("0").rstrip(".") + "K"
    if float(x).is_integer():
        return f"{int(x)}"
    return f"{x:.3f}".rstrip("0").rstrip(".")


def fmt_pct(x: float) -> str:
    return f"{x:.3f}".rstrip("0").rstrip(".") + " %"
