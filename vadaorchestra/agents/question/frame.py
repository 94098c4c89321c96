"""The question frame: what a question asks, computed once per run and read by every agent.

The Planner plans from it, the RuleSynthesizer writes the rules it needs, and the Verifier checks the computation
against it; no other module parses the question. Its parts:

- what is asked (:attr:`QuestionFrame.kind`: ``lookup list count total share extreme limit``, and the flags a
  question can combine: a count *and* a limit check);
- the thing asked about (:attr:`QuestionFrame.asks_for`, the words to match against columns: "claim amount");
- every entity the question names, linked against *every* string column of the catalog's base data (MCP
  ``find_entities``), with the columns it was found in and the tool parameters it can be passed to: an entity with
  no parameter is a filter on a tool's output column;
- every condition it states ("above 4.0", "more than 5M"), as a comparison and a number;
- whether it asks for direct relations only or for the whole chain, the extreme it asks for (max/min), a grouping
  ("by", "per", "through");
- the words it could not place.

The English here (the comparison words, the superlatives) is the fallback of the offline policy; what a catalog's
columns mean is the catalog's own data.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from vadaorchestra.agents.context import RunContext

Kind = Literal["lookup", "list", "count", "total", "share", "extreme", "limit"]
Op = Literal[">", ">=", "<", "<="]

STOPWORDS = frozenset("""a an and are as at be by can do does for from has have how i in into is it its many much
of on or our over per so than that the their them then there these this those to under was we were what when where
which while who whom whose why will with would you your any all some each get give list show tell me raise""".split())
ANALYSIS_WORDS = ("largest", "biggest", "top", "highest", "limit", "risk", "concentration", "concern", "breach",
                  "exceed", "threshold")

# ("the largest number of days" is an extreme of a total, not a count)
_COUNT = re.compile(r"\bhow many\b|(?<!largest )(?<!highest )(?<!greatest )(?<!smallest )(?<!lowest )\bnumber of\b|"
                    r"^\s*count\b", re.I)
_TOTAL = re.compile(r"\b(?:total|sum|how much|combined|add(?:s|ed)? up)\b", re.I)
_SHARE = re.compile(r"\b(?:what|which)\s+(?:share|percentage|proportion|fraction|part)\b|\bshare of\b|"
                    r"\bpercent(?:age)? of\b|\bproportion of\b|\bfraction of\b", re.I)
_SHAREHOLDERS = re.compile(r"\bshareholders?\b", re.I)
_LIST = re.compile(r"\s*(which|who|what|list|name|show)\b", re.I)
# the counted noun, a compound too ("how many customer feeders"), not a verb after it ("how many titles are ...")
_HOW_MANY = re.compile(r"\bhow many\s+(?:of\s+(?:the|its|their|these|those)\s+)?"
                       r"(?:(?:different|distinct|unique|separate|individual)\s+)?([a-z]+(?:\s+(?!(?:are|is|"
                       r"were|was|do|does|did|have|has|had|can|will|would|of|in|at|on|for|from|to|by|with|and|or)\b)"
                       r"[a-z]+s\b)?)", re.I)
_LIMIT = re.compile(
    r"\b(?:exceed\w*|breach\w*|surpass\w*|overshoot\w*|concentration[- ]risk)\b|"
    r"\b(?:above|over|beyond|more than|past)\s+(?:its|their|the|his|her)\s+(?:\w+\s+){0,3}?"
    r"(?:limits?|caps?|thresholds?|capacity|capacities|budgets?|ceilings?|allowances?|quotas?)\b|"
    r"\b(?:more|fewer|less|greater|higher|lower)\s+(?:[\w-]+\s+){1,5}?than\s+(?:its|their|the\s+)?(?!\s*[$€£]?\d)[a-z]|"
    r"\b(?:over|under)-?subscri\w*|\boverbook\w*|"
    r"\bgo(?:es)?\s+over\b|\b(?:stay\w*|remain\w*|kept|keep\w*)?\s*within\s+(?:its|their|the)\b", re.I)
_SUPERLATIVE = {"highest": "max", "largest": "max", "biggest": "max", "most": "max", "heaviest": "max",
                "maximum": "max", "greatest": "max", "lowest": "min", "smallest": "min", "least": "min",
                "fewest": "min", "minimum": "min", "lightest": "min", "cheapest": "min", "longest": "max",
                "shortest": "min"}
_EXTREME = re.compile(r"\b(" + "|".join(_SUPERLATIVE) + r")\b", re.I)
_WHAT_NOUN = re.compile(r"\b(?:which|what|how many|list|name|show|count|give)\s+(.*)", re.I)
_SKIP = frozenset("""is are was were the a an all of different distinct total sum number single largest highest
lowest biggest smallest most least maximum minimum heaviest longest shortest one ones kind kinds type types every each do does did has
have had""".split())
_CONDITION = re.compile(
    r"\b(above|over|more than|greater than|higher than|exceeding|at least|no less than|below|under|less than|"
    r"lower than|fewer than|at most|no more than)\s+(?:a\s+|an\s+)?[$€£]?\s*(-?\d[\d,]*(?:\.\d+)?)\s*"
    r"(%|percent\b|k\b|m\b|million\b|thousand\b|bn\b|billion\b)?|"
    r"\b(after|before)\s+(\d{4})\b()", re.I)  # "published after 2015": a year
_OPS: dict[str, Op] = {"above": ">", "over": ">", "more than": ">", "greater than": ">", "higher than": ">",
                       "exceeding": ">", "at least": ">=", "no less than": ">=", "below": "<", "under": "<",
                       "less than": "<", "lower than": "<", "fewer than": "<", "at most": "<=", "no more than": "<=",
                       "after": ">", "before": "<"}
_SCALES = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6, "bn": 1e9, "billion": 1e9}
_TRANSITIVE = re.compile(r"\bdirectly or indirectly\b|\bindirectly\b|\bultimate(?:ly)?\b|\btransitive(?:ly)?\b|"
                         r"\beventually\b|\b(?:through|via) (?:its|their|other|any|the|intermediate)\b|\bincluding (?:those of )?(?:its|"
                         r"their) sub|\bcounting (?:those of )?(?:its|their) sub|\bat any (?:level|depth)\b|"
                         r"\b(?:any|all|each|one) (?:of )?(?:its|their) sub", re.I)  # "or any of its subgenres"
_COMPOUND = re.compile(r",?\s+and\s+(?:who|whom|whose|which|what|how|where|when|do|does|did|is|are|was|were)\b",
                       re.I)
_NEGATED = r"\b(?:not|rather than|excluding)\b[^,;?.]*"  # a clause the question negates
_DIRECT = re.compile(r"\bdirect(?:ly)?\b|\bimmediate(?:ly)?\b", re.I)
_GROUPING = re.compile(r"\b(?:by|per|for each|for every|grouped by)\s+(?:their\s+|its\s+|the\s+)?([a-z][a-z ]*?)"
                       r"(?=[?,.;]|\s+(?:and|that|which|who|whose|exceed\w*|above|over)\b|$)|"
                       r"\bthrough (?:a |their |its )?common ([a-z]+)", re.I)


# the words of what a question computes, not of what it is about
OPERATION_WORDS = frozenset("""total sum count number highest lowest largest smallest biggest most least maximum
minimum average mean combined overall""".split())
_PER_TIME = {"daily": "day", "weekly": "week", "monthly": "month", "yearly": "year", "hourly": "hour"}


def stem(word: str) -> str:
    if word in _PER_TIME:  # "800 tonnes a day" names daily_capacity_t
        return _PER_TIME[word]
    for suffix in ("ies", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


def terms(text: str) -> set[str]:
    """Content words of a text or a column name, stemmed."""
    return {stem(w) for w in re.findall(r"[a-z0-9]+", text.lower().replace("_", " ")) if w not in STOPWORDS}


def word_match(a: str, b: str) -> bool:
    """Equal, or one a prefix of the other with a short ending left ("lend"/"lending", "control"/"controller",
    "own"/"owner"), not a compound ("part"/"partnership")."""
    if a == b:
        return True
    short, long = sorted((a, b), key=len)
    if not long.startswith(short):
        return False
    if len(short) >= 4:
        return len(long) - len(short) <= 3
    return len(short) == 3 and long[3:] in ("er", "ers", "ed", "ing")  # "own"/"owner", "buy"/"buyer"


def column_score(phrase: tuple[str, ...], column: str) -> int:
    """How well the phrase naming what is asked for names a column: the position (from 1) of the last phrase word the
    column's name has, 0 for none. English compounds end in their head ("claim amount" is an amount), so a later
    word counts more."""
    cols = terms(column)
    return max((i + 1 for i, w in enumerate(phrase) if any(word_match(w, t) for t in cols)), default=0)


def asked_columns(phrase: tuple[str, ...], columns: list[str]) -> list[str]:
    """The columns the phrase names best (none when it names none)."""
    scores = {c: column_score(phrase, c) for c in columns}
    best = max(scores.values(), default=0)
    return [c for c in columns if best and scores[c] == best]


@dataclass(frozen=True, slots=True)
class Entity:
    """A data value the question names: where it was found, and the tool parameters it can be passed to."""

    value: str
    columns: tuple[str, ...] = ()
    parameters: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Condition:
    """A comparison the question states: ``above 4.0`` is ``(">", 4.0)``; a percentage may be meant as a ratio."""

    text: str
    op: Op
    value: float
    percent: bool = False

    def values(self) -> tuple[float, ...]:
        """The numbers a rule may compare with to apply it (a percentage also as a ratio)."""
        return (self.value, self.value / 100) if self.percent else (self.value,)


@dataclass(frozen=True, slots=True)
class QuestionFrame:
    question: str
    count: bool = False
    total: bool = False
    share: bool = False
    listing: bool = False
    analysis: bool = False  # rankings and threshold checks (the offline policy's measure templates)
    limit: bool = False  # is a limit stated in the data passed?
    extreme: Literal["max", "min"] | None = None  # the single highest / lowest
    asks_for: tuple[str, ...] = ()  # the words naming what is asked for, stemmed ("claim", "amount")
    how_many: str | None = None  # the word after "how many", as written ("orders")
    who: bool = False  # "Who ...?", "Which <thing> ...?": the answer names things, not numbers
    entities: tuple[Entity, ...] = ()
    conditions: tuple[Condition, ...] = ()
    direct: bool | None = None  # True: direct relations only; False: the whole chain; None: not said
    grouping: str | None = None
    unplaced: tuple[str, ...] = field(default=(), compare=False)
    # two questions in one ("Which exposures are above 10M, and who controls X?"): no one query answers it
    compound: bool = False

    @property
    def kind(self) -> Kind:
        """The main thing asked, in this order: a limit check, a share, a count, an extreme ("the highest total"
        is an extreme of totals), a total, a list."""
        for flag, kind in ((self.limit, "limit"), (self.share, "share"), (self.count, "count"),
                           (self.extreme, "extreme"), (self.total, "total"), (self.listing, "list")):
            if flag:
                return kind
        return "lookup"

    @property
    def aggregate(self) -> bool:
        """An answer computed over many facts: every entity the question names must restrict that computation."""
        return self.kind in ("count", "total", "share", "extreme", "limit")

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "asks_for": self.asks_for, "extreme": self.extreme, "direct": self.direct,
                "grouping": self.grouping, "entities": [e.value for e in self.entities],
                "filters": [e.value for e in self.entities if not e.parameters],
                "conditions": [c.text for c in self.conditions], "unplaced": list(self.unplaced)}


def _asks_for(question: str) -> tuple[str, ...]:
    """The words right after the question word, up to a name, a verb-like or a function word ("What rating does
    ..." -> rating; "What is the largest single claim amount that ..." -> claim, amount; "Name the procedures
    Willowbrook ..." -> procedure)."""
    # the question word of the main clause: at the start ("For which ..." too), or after a comma ("Among the hubs
    # ..., which one"); not a relative clause ("the companies in which Person 0118 owns ...")
    m = next((m for m in _WHAT_NOUN.finditer(question)
              if re.fullmatch(r"\s*(?:[A-Za-z]+\s+)?|.*[,;:]\s*", question[:m.start()])), None)
    if not m or re.match(r"(?:one|ones)\b", m.group(1), re.I):
        return ()  # "..., which one carries the most credits?": a verb follows, the thing was named before
    phrase: list[str] = []
    for w in re.findall(r"[A-Za-z]+|[^\sA-Za-z]", m.group(1)):
        low = w.lower()
        if not phrase and (low in _SKIP or low in STOPWORDS):
            continue
        if not w.isalpha() or w[0].isupper() or low in _SKIP or low in STOPWORDS or \
                (phrase and re.search(r"(?:ed|ly)$", low)):
            break  # a name, a function word, or a verb or adverb after the noun ("carriers dispatched", "directly")
        phrase.append(stem(low))
    return tuple(phrase)


def _conditions(question: str) -> tuple[Condition, ...]:
    out = []
    for m in _CONDITION.finditer(question):
        if m.group(4):  # "after 2015"
            out.append(Condition(m.group(0).strip(), _OPS[m.group(4).lower()], float(m.group(5)), False))
            continue
        if re.match(r"\s*(?:its|their|the)\b", question[m.end(1):]):
            continue  # "above its limit" is a limit, not a number
        unit = (m.group(3) or "").lower()
        value = float(m.group(2).replace(",", "")) * _SCALES.get(unit, 1.0)
        if math.isfinite(value):
            out.append(Condition(m.group(0).strip(), _OPS[m.group(1).lower()], value, unit in ("%", "percent")))
    return tuple(out)


_COMPARE = re.compile(r"\b(?:exceed\w*|breach\w*|surpass\w*|pass\w*|within|beyond|over|above|more than|under|below)\b"
                      r"(?!\s+(?:a\s+|an\s+)?[$€£]?\s*-?\d)", re.I)


def _names_a_limit(question: str, words: set[str], tools: dict[str, dict[str, Any]] | None) -> bool:
    """The question compares with a column its catalog declares a limit (``@role(..., "limit")``): "stayed within
    their contracted monthly tonnage" over contracted_monthly_t. A number after the comparison is a condition."""
    if not tools or not _COMPARE.search(question):
        return False
    for spec in tools.values():
        for col, role in (spec.get("roles") or {}).items():
            named = [t for t in terms(col) if len(t) >= 4 and any(word_match(t, w) for w in words)]
            if role in ("limit", "limit_ratio") and named:
                return True
    return False


def build(question: str, entities: list[dict[str, Any]] | None = None,
          tools: dict[str, dict[str, Any]] | None = None) -> QuestionFrame:
    """The frame of ``question``; ``entities`` are ``find_entities`` matches (value, columns, parameters), ``tools``
    the catalog as ``list_tools`` gives it (its column roles)."""
    words = terms(question)
    share = bool(_SHARE.search(question)) and not _SHAREHOLDERS.search(question)
    ext = _EXTREME.search(question)
    linked = tuple(Entity(str(e["value"]), tuple(e.get("columns", ())), tuple(e.get("parameters", ())))
                   for e in entities or [] if isinstance(e.get("value"), str))
    noun = _asks_for(question)
    if not noun and linked:  # "Count the Echocardiogram claims ...": the noun after the name the question gives
        unnamed = question
        for e in linked:
            unnamed = re.sub(re.escape(e.value), " ", unnamed, flags=re.I)
        noun = _asks_for(unnamed)
    transitive = _TRANSITIVE.search(re.sub(_NEGATED, " ", question, flags=re.I))  # not "not under one of its ..."
    direct = False if transitive else (True if _DIRECT.search(question) else None)
    # the single highest: "Which patient has the highest ...", "What is the largest single ..."; a plural noun
    # ("What are Bank Gamma's largest exposures") asks for a ranking
    m = _WHAT_NOUN.search(question)
    head = re.findall(r"[a-z]+", m.group(1).lower())[:3] if m else []
    singular = bool(head) and not (head[0] in ("are", "were") or (head[0] not in _SKIP and head[0].endswith("s")
                                                                  and not head[0].endswith("ss")))
    singular = singular or bool(re.match(r"\s*who\s+(?:is|was|has|earns|gets)\b|\s*whose\b", question, re.I))
    # "Which branches kept their number of loans within ...": a measure of the things asked for, not a count
    counts = bool(_COUNT.search(question)) and not (re.match(r"\s*(?:which|who|whose)\b", question, re.I)
                                                    and not re.search(r"\bhow many\b", question, re.I))
    extreme = _SUPERLATIVE[ext.group(1).lower()] if ext and singular and not counts else None
    placed = {w for e in linked for w in terms(e.value)}
    grouping = _GROUPING.search(question)
    return QuestionFrame(
        question=question,
        count=counts,
        total=bool(_TOTAL.search(question)),
        share=share,
        listing=bool(_LIST.match(question)),
        # "Who ...?", "Which ...?", and after a clause: "Among the hubs reachable from X, which one ...?"
        who=bool(re.search(r"(?:^\s*|[,;]\s*)(?:who|whom|whose|which)\b", question, re.I)) and not counts,
        analysis=bool(words & {stem(w) for w in ANALYSIS_WORDS}),
        limit=bool(_LIMIT.search(question)) or _names_a_limit(question, words, tools),
        extreme=extreme,
        asks_for=noun,
        how_many=hm.group(1) if (hm := _HOW_MANY.search(question)) else None,
        entities=linked,
        conditions=_conditions(question),
        direct=direct,
        grouping=(grouping.group(1) or grouping.group(2)).strip() if grouping else None,
        unplaced=tuple(sorted(words - placed)),
        compound=bool(_COMPOUND.search(question)),
    )


def superlative(question: str) -> re.Match[str] | None:
    """Where the question says a superlative ("the heaviest", "the largest"): group 1 is the word."""
    return _EXTREME.search(question)


def naming_text(question: str) -> str:
    """The question without the words that name nothing it asks for: a negated clause ("not under one of its
    subgenres") and how far a chain goes ("counting all of its subgenres", "directly or indirectly")."""
    text = re.sub(_NEGATED, " ", question, flags=re.I)
    return re.sub(_TRANSITIVE.pattern + r"\w*", " ", text, flags=re.I)


def of(ctx: RunContext) -> QuestionFrame:
    """The run's frame (built without entity links when the run did not build one: hand-made contexts)."""
    if ctx.frame is None or ctx.frame.question != ctx.question:
        ctx.frame = build(ctx.question)
    return ctx.frame
