"""The question frame: what a question asks, built once per run from its parse and read by every agent.

The Planner plans from it, the RuleSynthesizer writes the rules it needs, and the Verifier checks the computation
against it; no other module reads the question's English. The frame is built from spaCy's parse
(:mod:`~vadaorchestra.agents.question.parse`) and the catalog:

- what is asked (:attr:`QuestionFrame.kind`: ``lookup list count total share extreme limit``), the phrase asked for
  (:attr:`QuestionFrame.asks_for`: its lemmas, "claim amount"), how many items (:attr:`QuestionFrame.n`: "the three
  largest");
- every entity the question names, linked from its noun phrases against every string column of the catalog's base
  data (MCP ``find_entities``): a name is an entity; a common noun that is a value of a category column ("districts",
  "class A hotels") is a *kind*, which restricts the answer; a determiner ("a") or a function word links nothing;
- every condition it states ("above 4.0", "more than 5M", "800 tonnes or more"), with the words of its measure;
- the relations it states between its noun phrases ("lend to", "controlled by", "a minority shareholder of"), in
  their logical direction;
- whether it asks for direct relations only or for the whole chain, the single extreme it asks for, a grouping;
- its parts, when it asks two things ("What are X's largest exposures, and do any of them raise concerns?");
- the content words no element of the frame or the catalog places.

The English read here is the language's own (question words, comparisons, superlatives, number words); what a
catalog's columns mean is the catalog's data (names, descriptions, ``@role`` annotations).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

from vadaorchestra.agents.question import parse as P
from vadaorchestra.agents.question.parse import FUNCTION_POS, Parse, Phrase

if TYPE_CHECKING:
    from vadaorchestra.agents.context import RunContext

Kind = Literal["lookup", "list", "count", "total", "share", "extreme", "limit"]
Op = Literal[">", ">=", "<", "<=", "="]

# words of the question that say how to compute, not what about (function words are known by their part of speech)
STOPWORDS = frozenset("""a an and are as at be by can do does for from has have how i in into is it its many much
of on or our over per so than that the their them then there these this those to under was we were what when where
which while who whom whose why will with would you your any all some each get give list show tell me""".split())
OPERATION_WORDS = frozenset("""total sum count number highest lowest largest smallest biggest most least maximum
minimum average mean combined overall top""".split())
SHARE_NOUNS = frozenset("share percentage proportion fraction percent part ratio".split())
TOTAL_WORDS = frozenset("total sum combined combine overall aggregate altogether cumulative".split())
COUNT_NOUNS = frozenset("number count".split())
# what "how many times" counts: occasions, the rows of what was done
OCCASIONS = frozenset(("time", "occasion"))
# nouns of kinds of a thing ("the kinds of material": the materials)
KIND_NOUNS = frozenset("kind type sort variety".split())
# nouns of a portion of a mass ("pieces of pottery", "items of clothing"): the mass's things are meant
PARTITIVES = frozenset("piece item".split())
# the superlatives of a quantity ("the most appointments", "the fewest visits"), not of a measure ("the heaviest")
QUANTITY_SUPERLATIVES = frozenset(("most", "least", "fewest"))
LIMIT_VERBS = frozenset("exceed breach surpass overshoot pass overrun violate outgrow top".split())
LIMIT_NOUNS = frozenset("limit cap threshold capacity budget ceiling allowance quota maximum rating".split())
WITHIN_VERBS = frozenset("stay remain keep keep_within lie".split())
CHAIN_ADVERBS = frozenset("indirectly ultimately eventually transitively downstream upstream anywhere "
                          "recursively".split())
CHAIN_ADJECTIVES = frozenset("indirect ultimate eventual transitive".split())
DIRECT_WORDS = frozenset("directly direct immediately immediate".split())
# verbs of aspect before the verb that says the relation ("ended up buying", "kept using", "began supplying")
ASPECT_VERBS = frozenset("end keep start begin continue stop go happen manage tend".split())
# verbs that say little of their own before an object noun ("holds a role": has one; "takes a stake")
LIGHT_VERBS = frozenset("be have get do make take give include contain hold".split())
# support verbs of an action a noun names ("carry out visits", "perform inspections", "conduct audits"): light when
# their object names a tool (with its particle, for a phrasal one)
SUPPORT_VERBS = {"carry": "out", "perform": None, "conduct": None, "undertake": None}
ANY_LEVEL = frozenset("level depth tier step".split())
_PER_TIME = {"daily": "day", "weekly": "week", "monthly": "month", "yearly": "year", "hourly": "hour"}
# prepositions of a hierarchy, as the words a tool's name says them with ("sit under X": the units below X)
DIRECTIONS = {"under": "below", "beneath": "below", "underneath": "below", "below": "below", "down": "below",
              "above": "above", "over": "above", "up": "above",
              # (all over a named thing: "the plots across X", "throughout X", in the units below it)
              "across": "below", "throughout": "below"}

# prepositions of being inside, a hierarchy's direction only for things of a kind in a named thing
CONTAINING = frozenset({"in", "within", "inside"})


@lru_cache(maxsize=8192)
def stem(word: str) -> str:
    """A word's lemma ("loans": loan, "controls": control); a per-time adjective as its period ("daily": day)."""
    low = word.lower()
    if low in _PER_TIME:
        return _PER_TIME[low]
    return P.noun_lemma(low) if low.isalpha() else low


@lru_cache(maxsize=8192)
def terms(text: str) -> set[str]:
    """Content words of a text or a column name, as lemmas: each word's lemma as a noun, and in a sentence (a tool's
    description) its lemma in context too ("parts fitted to an aircraft": fit)."""
    words = {stem(w) for w in re.findall(r"[a-z0-9]+", text.lower().replace("_", " ")) if w not in STOPWORDS}
    if " " in text.strip():
        words |= {stem(w) for w in P.lemmas(text) if w not in STOPWORDS and w.isalnum()}
    return words


def word_match(a: str, b: str) -> bool:
    """Equal, or one a prefix of the other with a short ending left ("lend"/"lending", "control"/"controller",
    "own"/"owner"), not a compound ("part"/"partnership"): derivation, which a lemmatizer does not undo."""
    if a == b:
        return True
    short, long = sorted((a, b), key=len)
    if not long.startswith(short):
        # a silent final e dropped before a suffix: "tonne"/"tonnage", "lease"/"leasing"; a final y after a
        # consonant written i: "supply"/"supplier", "carry"/"carrier"
        if short.endswith("e") and len(short) >= 5:
            return long.startswith(short[:-1]) and len(long) - len(short) <= 3
        return short.endswith("y") and len(short) >= 5 and short[-2] not in "aeiou" and \
            long.startswith(short[:-1] + "i") and len(long) - len(short) <= 3
    if len(short) >= 4:
        return len(long) - len(short) <= 3
    return len(short) == 3 and long[3:] in ("er", "ers", "ed", "ing")  # "own"/"owner", "buy"/"buyer"


def compound_placed(word: str, vocabulary: set[str]) -> bool:
    """A closed compound whose head is an agent noun ("shareholder": one who holds shares, "bookkeeper"), named by
    a text that has both its verb and its object ("the companies or persons that hold its shares"). The object has
    four letters or more and the agent noun five, so that "partnership" or "carpeter" are not read as compounds."""
    for k in range(4, len(word) - 4):
        obj, head = word[:k], word[k:]
        if not any(word_match(stem(obj), v) for v in vocabulary):
            continue
        for ending in ("er", "or"):
            verb = head[:-len(ending)] if head.endswith(ending) else ""
            if len(verb) >= 3 and any(v in (verb, verb + "e") for v in vocabulary):
                return True
    return False


def share_owners(fr: QuestionFrame) -> set[str]:
    """The entities whose whole a share is of ("What percentage of X's shifts ...": X), by the relations whose source
    says the share's noun."""
    return {r.target_entity for r in fr.relations if r.target_entity and not r.negated
            and set(terms(r.source or "")) & set(fr.share_of)}


def ever(fr: QuestionFrame) -> bool:
    """Whether the question says "ever" ("Has X ever gone past its service interval?"): any one occasion."""
    return fr.parse is not None and any(w.lemma == "ever" for w in fr.parse.words)


def said_of_the_whole(fr: QuestionFrame, text: str) -> bool:
    """Whether a period (or phrase) of a share question is said of the share's whole, not of its part: it hangs,
    through the words above it, from the noun after "percentage of" ("What percentage of the PCNs issued during 2024
    ended up cancelled?": every PCN of 2024 is the whole) before it reaches the clause's verb ("What share of X's
    bookings were in March 2024?": March is the part)."""
    p = fr.parse
    if p is None or not text:
        return False
    w = p.words
    at = fr.question.find(text)
    start = next((t for t in w if t.start <= at < t.end), None) if at >= 0 else None
    # (the noun after "percentage of", or the share noun itself: "What percentage of the inspections at X in 2024 ...",
    # "in 2024" read as the percentage's)
    whole = {t.i for t in w if t.dep == "pobj" and w[t.head].lemma == "of" and
             w[w[t.head].head].lemma in SHARE_NOUNS} | {t.i for t in w if t.lemma in SHARE_NOUNS and t.pos == "NOUN"}
    t, seen = start, 0
    while t is not None and seen < 8:
        if t.i in whole:
            return True
        if t.head == t.i or t.dep == "ROOT":
            return False
        t, seen = w[t.head], seen + 1
    return False


def ranks_things(fr: QuestionFrame) -> bool:
    """Whether the question asks for n things ranked by a total ("the three recycling centres that handled the
    biggest total tonnage"): the numeral is the asked phrase's own, which names things, not a total or a count ("the
    total of the three largest loans" is one number)."""
    asked = fr.parse.phrases[fr.parse.asked] if fr.parse is not None and fr.parse.asked is not None else None
    return bool(asked is not None and fr.n and fr.n > 1 and asked.count == fr.n and fr.ranking and not fr.count
                and asked.lemma not in TOTAL_WORDS | COUNT_NOUNS | SHARE_NOUNS)


def column_score(phrase: tuple[str, ...], column: str) -> int:
    """How well the phrase naming what is asked for names a column: the position (from 1) of the last phrase word the
    column's name has, 0 for none. English compounds end in their head ("claim amount" is an amount), so a later
    word counts more."""
    cols = terms(column)
    return max((i + 1 for i, w in enumerate(phrase) if any(word_match(w, t) for t in cols)), default=0)


def asked_columns(phrase: tuple[str, ...], columns: list[str]) -> list[str]:
    """The columns the phrase names best (none when it names none): by :func:`column_score`, then by how many of the
    phrase's words the column has ("the permitted depth": permitted_depth_m, not current_depth_m)."""
    scores = {c: column_score(phrase, c) for c in columns}
    best = max(scores.values(), default=0)
    top = [c for c in columns if best and scores[c] == best]

    def covered(c: str) -> int:
        return sum(1 for w in phrase if any(word_match(w, t) for t in terms(c)))

    most = max((covered(c) for c in top), default=0)
    top = [c for c in top if covered(c) == most]

    # then the column with the word itself over one with a word derived from it ("traders": trader, not trade_date)
    def same(c: str) -> int:
        return sum(1 for w in phrase if w in terms(c))

    exact = max((same(c) for c in top), default=0)
    return [c for c in top if same(c) == exact]


@dataclass(frozen=True, slots=True)
class Entity:
    """A data value the question names: where it was found, the tool parameters it can be passed to, and whether it
    is a kind of thing (a category value named by a common noun: "districts") rather than a name."""

    value: str
    columns: tuple[str, ...] = ()
    parameters: tuple[str, ...] = ()
    kind: bool = False
    text: str = ""  # as the question writes it ("districts")


@dataclass(frozen=True, slots=True)
class Condition:
    """A comparison the question states: ``above 4.0`` is ``(">", 4.0)``; a percentage may be meant as a ratio."""

    text: str
    op: Op
    value: float
    percent: bool = False
    measure: tuple[str, ...] = ()  # the lemmas naming what is compared ("rating", "daily handling capacity")

    def values(self) -> tuple[float, ...]:
        """The numbers a rule may compare with to apply it (a percentage also as a ratio)."""
        return (self.value, self.value / 100) if self.percent else (self.value,)


@dataclass(frozen=True, slots=True)
class Relation:
    """A relation the question states between two of its noun phrases, in its logical direction: ``source`` does
    ``words`` to ``target`` ("Company 0042" control "the companies"). Each end is the phrase as written, ``asked``
    marks the end that is asked for, ``entity`` the data value an end names."""

    words: tuple[str, ...]
    source: str | None
    target: str | None
    text: str
    source_entity: str | None = None
    target_entity: str | None = None
    asked: Literal["source", "target"] | None = None
    negated: bool = False
    attribute: bool = False  # the target names a quantity or a property ("have a rating"), not a set of things
    via: str = "verb"  # how it is written: a verb, a predicate noun ("is a shareholder of"), "N of/in M", "X's N"
    head: int = -1  # the token of its verb or noun (two relations read off one word are one)

    def __str__(self) -> str:
        return f"{self.source or '?'} —{' '.join(self.words)}→ {self.target or '?'}"


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
    asks_for: tuple[str, ...] = ()  # the lemmas naming what is asked for ("claim", "amount")
    how_many: str | None = None  # the noun after "how many", as written ("orders")
    who: bool = False  # "Who ...?", "Which <thing> ...?": the answer names things, not numbers
    entities: tuple[Entity, ...] = ()
    conditions: tuple[Condition, ...] = ()
    direct: bool | None = None  # True: direct relations only; False: the whole chain; None: not said
    average: bool = False  # "the average assessment mark", "on average": a mean (a total's kind)
    # what an average is taken per ("on average ... per month", "each month"): the noun's stem, "" when unsaid
    average_per: str = ""
    # the whole chain with the entity's own things: "counting all of its sub-departments", "X or any of its subgenres"
    own: bool = False
    grouping: str | None = None
    unplaced: tuple[str, ...] = field(default=(), compare=False)
    # for each unplaced word, the entities of its clause near it in the parse ("How many credits is X worth?": worth,
    # X): the Verifier places the word when the computation used such an entity
    unplaced_near: tuple[tuple[str, tuple[str, ...]], ...] = field(default=(), compare=False)
    # what the question says an entity is to the things asked: (word, entity) for "the genres whose parent genre is X",
    # "the units that have X as their parent" (X is the parent); the Verifier places the word when the entity was
    # passed to a tool that matches it against data columns the word names (parent_genre)
    entity_is: tuple[tuple[str, str], ...] = field(default=(), compare=False)
    # two questions in one ("Which exposures are above 10M, and who controls X?"): no one query answers it
    compound: bool = False
    # --- read from the parse (issue 34) ---
    n: int | None = None  # how many items are asked for ("the three largest"); 1 for a single extreme
    ranking: Literal["max", "min"] | None = None  # "the largest exposures", "the top 5": an ordering, n items
    relations: tuple[Relation, ...] = ()
    parts: tuple[str, ...] = ()  # the clauses of a question of several parts, as written
    asked_text: str = ""  # the phrase asked for, as written ("the three largest claims")
    asked_head: str = ""  # its head noun's lemma ("claim")
    words: tuple[str, ...] = field(default=(), compare=False)  # the content lemmas in order, names left out
    naming_words: tuple[str, ...] = field(default=(), compare=False)  # the same without negated or chain words
    measure_words: tuple[str, ...] = ()  # what a superlative orders by ("the largest daily capacity": daily, capacity)
    predicate_words: tuple[str, ...] = ()  # the noun after a copula ("are direct prerequisites of X")
    share_of: tuple[str, ...] = ()  # the words after "share of" ("of its credit cap": credit, cap)
    preamble_words: tuple[str, ...] = ()  # before the question word ("Among the hubs reachable from X, which one")
    verb: str | None = None  # the main verb of a who-question ("Who reports to X": report)
    limit_words: tuple[str, ...] = ()  # what a limit question compares with ("their annual loan quota")
    within: bool = False  # "stay within": the things at or under their limit
    limit_at: tuple[int, int] | None = None  # where the comparison with the limit is written (start, end)
    how: str = ""  # how the question asks: wh, how many, how much, imperative, yes-no, other
    question_word: str | None = None  # which, what, who, whose; list, count (an imperative's verb)
    superlative: str | None = None  # the superlative as written ("heaviest", "most")
    read_by: str = "parse"  # "parse", or "parse and model" when a model filled what the parse left open
    directions: tuple[str, ...] = ()  # "below"/"above" when a relation says under/beneath/over ... of a named thing
    tokens: tuple[tuple[str, int, int], ...] = field(default=(), compare=False)  # (lemma, start, end) of content words
    periods: tuple[str, ...] = ()  # the dates the question names ("March 2024"): the computation must keep to them
    parse: Parse | None = field(default=None, compare=False, repr=False)  # what the frame was read from (the answer's wording)

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

    @property
    def kinds(self) -> tuple[Entity, ...]:
        return tuple(e for e in self.entities if e.kind)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "asks_for": self.asks_for, "n": self.n, "extreme": self.extreme,
                "ranking": self.ranking, "direct": self.direct, "grouping": self.grouping, "average_per": self.average_per,
                "entities": [e.value for e in self.entities if not e.kind],
                "kinds": [e.value for e in self.entities if e.kind],
                "filters": [e.value for e in self.entities if not e.parameters],
                "conditions": [c.text for c in self.conditions], "relations": [str(r) for r in self.relations],
                "parts": list(self.parts), "unplaced": list(self.unplaced)}


# --- linking: which data values the question's noun phrases name ------------------------------------------------------
def mentions(question: str, matches: list[dict[str, Any]], kind_matches: list[dict[str, Any]] = (),
             columns: frozenset[str] = frozenset()) -> tuple[list[P.Mention], list[Entity]]:
    """The spans of the question that name data values, and the entities: from ``find_entities`` matches of the
    question (``matches``) and of its lemmas (``kind_matches``: "districts" finds the value "district"). A match
    whose words are all function words ("a" for a rating "A") is no mention; a category value written as a common
    noun is a kind, one written as a name an entity."""
    doc = P.nlp()(question)
    out: list[P.Mention] = []
    found: list[Entity] = []
    taken: list[tuple[int, int]] = []

    def free(a: int, b: int) -> bool:
        return not any(a < y and x < b for x, y in taken)

    def of_a_name(token) -> bool:
        """The kind of a thing the question names, not a restriction ("the Competition strand", "the family
        Poaceae", "the family Fabaceae" read as an apposition)."""
        named = [(mm.start, mm.end) for mm in out if not mm.kind]

        def inside(t) -> bool:
            return any(x <= t.idx < y for x, y in named)

        # (or written right before the name after a determiner, however the parser attached them: "the family
        # Solanaceae"; not after it, "Kilbrannan ferries" being the ferries of Kilbrannan)
        return any(c.dep_ in ("compound", "nmod", "appos") and inside(c) for c in token.children) or (
            token.dep_ in ("compound", "nmod") and inside(token.head)) or (
            0 < token.i < len(doc) - 1 and doc[token.i - 1].dep_ == "det" and inside(doc[token.i + 1]))

    def names_a_column(token) -> bool:
        """A word that, with the noun it modifies, names a column of the catalog ("What power cap is rack X
        contracted for?": power_cap_kw), whatever kind of ticket "power" also is."""
        if token.dep_ not in ("compound", "amod", "nmod") or token.head.i == token.i or token.head.pos_ != "NOUN":
            return False
        phrase = (stem(token.lemma_.lower()), stem(token.head.lemma_.lower()))
        return any(all(any(word_match(w, t) for t in terms(c)) for w in phrase) for c in columns)

    # names first, then kinds (whether a kind is that of a name needs the names)
    for m in sorted((m for m in matches if isinstance(m.get("value"), str)),
                    key=lambda m: (bool(m.get("category")) and not m.get("parameters"), -len(m["value"]))):
        value = m["value"]
        spans = [(x.start(), x.end()) for x in re.finditer(rf"(?<!\w){re.escape(value)}(?!\w)", question, re.I)]
        good = []
        for a, b in spans:
            toks = [t for t in doc if t.idx < b and a < t.idx + len(t.text)]
            # (a code with a digit is no function word, whatever the tagger says: "Who drives T-04?", T-04 a PRON)
            if not toks or all((t.pos_ in FUNCTION_POS and not any(ch.isdigit() for ch in t.text))
                               or not t.text[0].isalnum() for t in toks) or not free(a, b):
                continue
            good.append((a, b, toks))
        if not good:
            continue
        a, b, toks = good[0]
        # a kind: a category value written as a common noun ("industrial customers", not "Hartside Substation")
        # (a word written in lower case is no name, whatever its tag: "tutti contracts")
        named = any(t.text[:1].isupper() and (t.pos_ == "PROPN" or (t.i > 0 and not t.is_sent_start)) for t in toks)
        kind = bool(m.get("category")) and not named and not m.get("parameters")
        if kind and (of_a_name(toks[-1]) or names_a_column(toks[-1])):
            continue
        taken.append((a, b))
        out.append(P.Mention(a, b, value, kind))
        found.append(Entity(value, tuple(m.get("columns", ())), tuple(m.get("parameters", ())), kind,
                            question[a:b]))
        if not kind:  # a name written twice is a name both times ("X's claims to Y use what fraction of Y's cap")
            for a2, b2, _toks in good[1:]:
                if free(a2, b2):
                    taken.append((a2, b2))
                    out.append(P.Mention(a2, b2, value, False))
    # kinds found by their lemma ("districts" names "district")
    lem = [({t.lemma_.lower(), t.lower_} | ({P.noun_lemma(t.text)} if t.pos_ == "NOUN" or t.pos_ == "PROPN" and t.text.islower()
                                   else set()), t.idx, t.idx + len(t.text), t)
           for t in doc]
    def windows(value: str):
        want = value.casefold().replace("_", " ").split()  # ("watch_manager" is named "watch managers")
        for i in range(len(lem) - len(want) + 1):
            window = lem[i:i + len(want)]
            if all(x in w[0] or P.noun_lemma(x) in w[0] for x, w in zip(want, window, strict=True)) and \
                    all(w[3].pos_ in ("NOUN", "ADJ", "PROPN", "VERB") for w in window):
                yield window

    for m in kind_matches:
        value = m.get("value")
        if not isinstance(value, str) or not m.get("category") or any(e.value == value for e in found):
            continue
        for window in windows(value):
            a, b = window[0][1], window[-1][2]
            # a shorter kind placed inside it gives way ("home managers": the role, not the unit type "home"), and
            # is placed again where it stands alone ("the care homes")
            inside = [mm for mm in out if mm.start < b and a < mm.end]
            shorter = bool(inside) and all(mm.kind and a <= mm.start and mm.end <= b and mm.end - mm.start < b - a
                                           for mm in inside)
            if (free(a, b) or shorter) and not of_a_name(window[-1][3]) and not names_a_column(window[-1][3]):
                for mm in inside if shorter else ():
                    out.remove(mm)
                    taken.remove((mm.start, mm.end))
                taken.append((a, b))
                out.append(P.Mention(a, b, value, True))
                found.append(Entity(value, tuple(m.get("columns", ())), tuple(m.get("parameters", ())), True,
                                    question[a:b]))
                for mm in inside if shorter else ():
                    again = next(((w[0][1], w[-1][2]) for w in windows(mm.value) if free(w[0][1], w[-1][2])), None)
                    if again is not None:
                        taken.append(again)
                        out.append(P.Mention(*again, mm.value, True))
                    else:
                        found[:] = [e for e in found if e.value != mm.value]
            break
    order = {id(e): min((mm.start for mm in out if mm.value == e.value), default=0) for e in found}
    found.sort(key=lambda e: order[id(e)])
    return out, found


# English, not any domain: words that say a thing is not there ("no video link", "without a shed", "lacks one")
NEGATIONS = frozenset({"no", "not", "without", "lack", "never", "none", "neither", "nor"})


def truth_wanted(fr: QuestionFrame, column: str) -> bool | str | None:
    """Whether the question keeps to the rows whose yes/no ``column`` says yes (True) or no (False), when its words
    name the column ("Which courtrooms at X have a video link?": video_link yes; "not allowed a shed": shed_allowed
    no); None when they do not name it or ask for its value ("Is there a video link in X?"); "unclear" when a word of
    negation stands in the question and the parse does not say it is the column's ("lacks a video link")."""
    if fr.parse is None:
        return None
    own = [t for t in terms(column) if t not in STOPWORDS]
    w = fr.parse.words
    naming = [x for x in w if x.content and x.entity is None and any(word_match(stem(x.lemma), t) for t in own)]
    if not own or not all(any(word_match(stem(x.lemma), t) for x in naming) for t in own):
        return None
    # (by the asked phrase's head: "wheelchair-accessible vehicles" asks for vehicles, kept to accessible ones)
    if fr.asks_for and asked_columns(fr.asks_for[-1:], [column]):
        return None  # its value is what is asked
    if any(x.i in fr.parse.negated for x in naming):
        return False
    # "no video link": the naming noun's determiner; "without a video link": the preposition it hangs on
    if any(c.lemma in ("no", "without") for x in naming for c in w if c.i in (x.head,) or c.head == x.i):
        return False
    return "unclear" if any(x.lemma in NEGATIONS or x.dep == "neg" for x in w) else True


def verb_said(fr: QuestionFrame) -> str | None:
    """The question's verb when it says what is done ("Who operates X?"): not a function word, not a word of a kind
    it names ("Who are the watch managers of X?", where the parser's verb is "watch")."""
    if not fr.verb or fr.verb in STOPWORDS or any(word_match(fr.verb, w) for e in fr.kinds for w in terms(e.value)):
        return None
    return fr.verb


def what_done(fr: QuestionFrame) -> str | None:
    """The verb whose object "what" is ("What does X sell?": sell), not a light verb or the copula."""
    if fr.parse is None:
        return None
    w = fr.parse.words
    what = next((t for t in w if t.lemma == "what" and t.dep in ("dobj", "obj")), None)
    if what is None or what.head == what.i:
        return None
    verb = w[what.head]
    if verb.pos != "VERB" or verb.lemma in LIGHT_VERBS or verb.lemma in ("be", "do", "have"):
        return None
    return verb.lemma


def when_where_done(fr: QuestionFrame) -> str | None:
    """The verb of a "When"/"Where" question ("When did X open?": open; "Where is X based?": base), not a light
    verb or the copula; None for any other question."""
    if fr.parse is None or fr.how != "wh" or fr.question_word not in ("when", "where"):
        return None
    w = fr.parse.words
    root = next((t for t in w if t.dep == "ROOT"), None)
    # (a root "do" helps, whatever the tagger took it for: "When did X open?", open an adjective)
    done = root is not None and any(t.head == root.i and t.dep == "aux" and t.lemma == "do" for t in w)
    if root is None or not (root.pos == "VERB" or done and root.pos in ("ADJ", "NOUN")) or \
            root.lemma in LIGHT_VERBS or root.lemma in ("be", "do", "have"):
        return None
    return root.lemma


def lemma_text(question: str) -> str:
    """The question's nouns and adjectives as lemmas, for finding the kinds it names ("districts": district)."""
    words = []
    for t in P.nlp()(question):
        if t.pos_ in ("NOUN", "ADJ", "PROPN"):
            words.append(t.lemma_)
            # read as a plural too: the tagger takes "cuvées" for singular, and a lower-case "catamarans" after
            # "List the" for a proper noun (which it does not lemmatize)
            if (t.pos_ == "NOUN" or t.pos_ == "PROPN" and t.text.islower()) and \
                    P.noun_lemma(t.text) != t.lemma_.lower():
                words.append(P.noun_lemma(t.text))
    return " ".join(words)


def plural_text(question: str) -> str:
    """The question's singular nouns as plurals, for the kinds the data writes in the plural, named as a modifier
    ("wasp callouts": the pest "wasps"); looked up apart from :func:`lemma_text`, whose matches they would crowd."""
    return " ".join(plural for t in P.nlp()(question) if t.pos_ == "NOUN" and t.tag_ == "NN"
                    and (plural := P.noun_plural(t.lemma_.lower())) != t.lower_)


# --- the frame ------------------------------------------------------------------------------------------------------
def build(question: str, entities: list[dict[str, Any]] | None = None,
          tools: dict[str, dict[str, Any]] | None = None, kinds: list[dict[str, Any]] | None = None) -> QuestionFrame:
    """The frame of ``question``; ``entities`` are ``find_entities`` matches of the question (value, columns,
    parameters, category), ``kinds`` those of its lemmas (:func:`lemma_text`), ``tools`` the catalog as
    ``list_tools`` gives it (its column roles and descriptions)."""
    # (and the tools' names: "parish share" is what get_parish_share gives, not a share of the kind "parish")
    columns = frozenset(c["name"] for spec in (tools or {}).values() for c in spec.get("schema", [])) | frozenset(
        name for spec in (tools or {}).values() for name in (spec.get("name"), spec.get("output_predicate")) if name)
    spans, linked = mentions(question, entities or [], kinds or [], columns)
    return _Framer(P.read(question, spans), tuple(linked), tools or {}).frame()


class _Framer:
    """The frame's parts, each read off the parse by one method; :meth:`frame` lists them in order."""

    def __init__(self, p: Parse, linked: tuple[Entity, ...], tools: dict[str, dict[str, Any]]):
        self.p = p
        self.linked = linked
        self.tools = tools
        self.w = p.words
        self.asked: Phrase | None = p.phrases[p.asked] if p.asked is not None else None
        self.negated = set(p.negated)
        self._check_tokens: set[int] = set()  # the words a limit named by the catalog was read from

    def frame(self) -> QuestionFrame:
        p = self.p
        count, how_many, counted = self._count()
        asked = counted or self.asked
        amount = self._what_amount() if asked is None and not count else None
        asked = asked or amount
        share = self._share()
        average = not share and self._average()
        total = self._total(share) or average or amount is not None
        extreme, ranking, n = self._extreme(count, asked)
        limit, limit_words, within = self._limit()
        at = self._limit_token
        direct = self._direct()
        words = tuple(stem(w.lemma) for w in self.w if w.content and w.entity is None and w.kind is None
                      and stem(w.lemma) not in STOPWORDS)
        chain = self._chain_tokens()
        light = self._light()
        naming = tuple(stem(w.lemma) for w in self.w if w.content and w.entity is None and w.i not in self.negated
                       and w.i not in chain and w.i not in light and stem(w.lemma) not in STOPWORDS)
        tokens = tuple((stem(w.lemma), w.start, w.end) for w in self.w if w.content and w.entity is None
                       and stem(w.lemma) not in STOPWORDS)
        qword = p.question_word
        # "Who ...?", "Which X ...?" (opening the question, or a clause after a comma): the answer names things
        opening = next((t for t in self.w if t.pos != "PUNCT"), None)
        who = (qword in ("who", "whom", "whose") or (qword == "which" and opening is not None and opening.lemma ==
                                                     "which") or self._wh_after_clause()) and not count
        asks_for = self._asks_for(asked)
        relations = self._relations()
        parts = self._parts()
        return QuestionFrame(
            question=p.text, count=count, total=total, share=share,
            # (a yes/no question about things rather than a named one, "Is any vessel based at X a freighter?",
            # "Are there freighters at X?": whether the list of them has anything in it)
            listing=p.form in ("wh", "imperative") and qword not in ("how many", "how much") or (
                p.form == "yes-no" and asked is not None and asked.entity is None and not limit and not count
                and not total and not share and extreme is None),
            analysis=limit or ranking is not None or extreme is not None, limit=limit, extreme=extreme,
            asks_for=asks_for,
            how_many=how_many, who=who, entities=self._restricting(chain), conditions=self._conditions(n),
            direct=direct, own=direct is False and self._own(), average=average,
            average_per=self._average_per() if average else "",
            grouping=self._grouping(), unplaced=self._unplaced(), compound=len(parts) > 1, n=n, ranking=ranking,
            unplaced_near=self._near(), entity_is=self._entity_is(),
            relations=relations, parts=parts, asked_text=asked.text if asked else "", words=words,
            asked_head=stem(asked.lemma) if asked is not None and asked.entity is None else "",
            naming_words=naming, measure_words=self._measure_words(), predicate_words=self._predicate_words(),
            share_of=self._share_of(), preamble_words=self._preamble(), verb=self._verb(),
            limit_words=limit_words, within=within, limit_at=(at.start, at.end) if at is not None else None, how=p.form, question_word=qword,
            directions=self._directions(), superlative=self._superlative(), tokens=tokens, periods=p.periods, parse=p)

    def _directions(self) -> tuple[str, ...]:
        """"below"/"above": a preposition of a hierarchy whose object is a named thing ("the units under X": below
        X), or whose object is the thing asked and whose subject is named ("Which circuit does X come under?": the
        circuit is above X)."""
        p = self.p
        out = {DIRECTIONS[t.lemma] for t in self.w if t.lemma in DIRECTIONS and t.pos == "ADP"
               and any(x.head == t.i and x.entity for x in self.w)}
        # things of a kind in a named thing ("the fields in the Southfold District"): below it
        if self.asked is not None and self.w[self.asked.head].kind is not None and any(
                t.lemma in CONTAINING and t.pos == "ADP" and any(x.head == t.i and x.entity for x in self.w)
                for t in self.w):
            out.add("below")
        for r in p.relations:
            if r.words and r.words[-1] in DIRECTIONS and r.target is not None and r.target == p.asked and \
                    r.source is not None and p.phrases[r.source].entity is not None:
                out.add("above" if DIRECTIONS[r.words[-1]] == "below" else "below")
        return tuple(sorted(out))

    def _restricting(self, chain: set[int]) -> tuple[Entity, ...]:
        """The linked values, without a kind named only in the words that say how far a chain goes ("counting those
        in all of its districts": the districts are passed through, not what is counted) or as the type of a thing
        the question names."""
        # (nor one that is the type of a thing it names: "the Brass family", "the Pennine district")
        typed = {t.i for t in self.w if t.kind and any(x.head == t.i and x.dep in ("compound", "appos") and x.entity
                                                      for x in self.w)}
        # nor one thing named by its kind ("Which parts of the orchestra ...": the one orchestra, a singular after
        # "the" and "of", not things of a kind)
        # (not a modifier the parser took for the phrase's end: "the total weight of the bone finds", "finds" read
        # as a verb)
        typed |= {t.i for t in self.w if t.kind and t.tag == "NN" and t.dep == "pobj" and self.w[t.head].lemma == "of"
                  and any(x.head == t.i and x.dep == "det" and x.lemma == "the" for x in self.w)
                  # (nor one a clause picks out: "the district that Barmouth belongs to")
                  and not any(x.head == t.i and x.dep in ("relcl", "acl", "prep") for x in self.w)
                  and not (t.i + 1 < len(self.w) and (self.w[t.i + 1].pos in ("NOUN", "PROPN")
                                                      or self.w[t.i + 1].tag == "VBZ"))}
        # nor one the question sets aside ("directly under X rather than in one of its tribes")
        aside = chain | typed | set(self.negated)
        chained = {self.w[i].kind for i in aside if self.w[i].kind}
        elsewhere = {t.kind for t in self.w if t.kind and t.i not in aside}
        return tuple(e for e in self.linked if not (e.kind and e.value in chained - elsewhere))

    # --- what is asked --------------------------------------------------------------------------------------------
    def _count(self) -> tuple[bool, str | None, Phrase | None]:
        """Whether a number of things is asked ("how many X", "the number of X", "Count the X"), the counted noun as
        written, and its phrase."""
        p, w = self.p, self.w
        if p.form == "how many":
            ph = self.asked
            if ph is None:  # "How many of the loans ..."
                many = next((t for t in w if t.lemma == "many"), None)
                of = next((t for t in w if many is not None and t.head == many.i and t.lemma == "of"), None)
                obj = next((t for t in w if of is not None and t.head == of.i), None)
                k = p.phrase_of(obj.i) if obj is not None else None
                ph = p.phrases[k] if k is not None else None
            text = None
            if ph is not None:
                text = self._counted(ph)
            return True, text or None, ph
        # "the number of X", "the count of X" asked for (not "kept their number of loans within ..."); not "the
        # largest number of days" (an extreme of a total)
        for ph in p.phrases:
            if ph.lemma in COUNT_NOUNS and ph.superlative is None and self._asked_phrase(ph):
                inner = self._of_object(ph)
                # (not "the bench count of North Lab": a thing named is no set to count, the count is its column)
                if inner is not None and inner.entity is None:
                    return True, self._counted(inner), inner
        if p.form == "imperative" and p.question_word == "count":
            return True, self._counted(self.asked) if self.asked else None, self.asked
        first = next((t for t in self.w if t.content), None)
        if first is not None and first.lemma in COUNT_NOUNS and (k := p.phrase_of(first.i)) is not None:
            inner = self._of_object(p.phrases[k])  # "Number of suppliers X buys from?"
            if inner is not None:
                return True, self._counted(inner), inner
        return False, None, None

    def _counted(self, ph: Phrase) -> str | None:
        """The counted noun as written, without determiners, "many", "different" or the names in it ("the
        Echocardiogram claims": claims)."""
        return " ".join(self.w[t].text for t in ph.tokens if self.w[t].pos not in FUNCTION_POS and self.w[t].pos !=
                        "NUM" and self.w[t].lemma not in ("many", "different", "distinct", "unique", "separate",
                                                          "individual", "total") and self.w[t].entity is None
                        and (self.w[t].kind is None or t == ph.head)) or None

    def _asked_phrase(self, ph: Phrase) -> bool:
        """The phrase is what is asked: the question's, the imperative's object ("Give me the count of X"), or the
        subject of "what is" ("What is the number of X")."""
        if ph is self.asked:
            return True
        head = self.w[ph.head]
        root = self.w[head.head]
        if self.p.form == "imperative" and head.dep in ("dobj", "obj", "attr", "npadvmod") and root.dep == "ROOT":
            return True
        return head.dep in ("nsubj", "attr") and root.lemma == "be" and any(
            t.lemma in ("what", "which") and t.head == root.i for t in self.w)

    def _of_object(self, ph: Phrase) -> Phrase | None:
        for t in self.w:
            if t.head == ph.head and t.lemma == "of" and t.dep == "prep":
                obj = next((x for x in self.w if x.head == t.i and x.dep in ("pobj",)), None)
                if obj is not None and (k := self.p.phrase_of(obj.i)) is not None:
                    return self.p.phrases[k]
        return None

    def _share(self) -> bool:
        """A part of a whole asked for: "what share/fraction/percentage of", "as a fraction" ("part" only when it is
        what is asked: "which health system is X part of" is a relation)."""
        for ph in self.p.phrases:
            if ph.lemma not in SHARE_NOUNS or ph.plural:
                continue
            head = self.w[ph.head]
            if self._asked_phrase(ph) or (self.w[head.head].lemma == "as" and ph.lemma != "part") or (
                    ph.lemma != "part" and any(t.lemma in ("what", "which") and t.head == ph.head for t in self.w)):
                return True
            if ph.lemma != "part" and self._of_object(ph) is not None:  # "accounts for the largest share of X"
                return True
        return any(t.lemma in ("percent", "percentage") and t.dep != "compound" for t in self.w) and \
            self.p.form != "imperative"

    def _average(self) -> bool:
        """"What is X's average assessment mark?", "the mean fee", "How many km does X travel on average?"."""
        for t in self.w:
            if t.i in self.negated:
                continue
            if t.lemma in ("average", "mean") and t.pos == "ADJ" or (
                    t.lemma in ("average", "mean") and t.dep in ("amod", "compound") and self.w[t.head].pos == "NOUN"):
                return True
            if t.lemma == "average" and t.i > 0 and self.w[t.i - 1].lemma == "on":
                return True
        return False

    def _average_per(self) -> str:
        """The noun an average is per: "per month", "each month", "every week" (a time or a thing, not a grouping
        by a named column: "by sector")."""
        for t in self.w:
            if t.lemma == "per" and t.dep == "prep":
                obj = next((x for x in self.w if x.head == t.i and x.dep == "pobj"), None)
                if obj is not None and obj.entity is None:
                    return stem(obj.lemma)
            if t.lemma in ("each", "every") and t.dep == "det" and self.w[t.head].dep == "npadvmod":
                return stem(self.w[t.head].lemma)
        return ""

    def _total(self, share: bool) -> bool:
        if self.p.form == "how much" and not share:
            return True
        if self.p.question_word in ("sum", "total"):
            return True
        for t in self.w:
            if t.lemma in TOTAL_WORDS and t.i not in self.negated:
                return True
            if t.lemma == "add" and any(x.head == t.i and x.lemma == "up" for x in self.w):
                return True
        return False

    def _extreme(self, count: bool, asked: Phrase | None) -> tuple[str | None, str | None, int | None]:
        """(the single extreme, a ranking, the number of items asked). "the largest single claim" is one;
        "the largest exposures", "the three largest claims", "the top 5" are a ranking of n (None: not said)."""
        sup = next(((ph, ph.superlative) for ph in self.p.phrases if ph.superlative), None)
        word = None
        if sup is None:
            adv = next((t for t in self.w if (t.tag in ("RBS", "JJS") or t.lemma in QUANTITY_SUPERLATIVES)
                        and not (t.i > 0 and self.w[t.i - 1].lemma == "at")), None)  # not "at least 5"
            if adv is None:
                return None, None, None
            word = adv.lemma
            ph = asked
        else:
            ph, word = sup
        direction = "min" if word in P.DOWNWARD or word in ("least", "fewest", "bottom") else "max"
        if count and not (ph is not None and ph.lemma in COUNT_NOUNS):
            return None, None, None
        n = (ph.count if ph is not None else None) or (asked.count if asked is not None else None) or \
            self._which_n_of()
        single = any(t.lemma == "single" and t.dep == "amod" for t in self.w) or self.p.question_word == "whose"
        plural = asked.plural if asked is not None else False
        if ph is not None and ph is not asked and asked is not None:
            plural = asked.plural
        if plural and self._one_of():
            plural = False  # "Which of X's stations sits at the highest elevation?": one of them
        # a quantity asked with its superlative ("What were the fewest grade points ...") is one value
        quantity = ph is asked and asked is not None and self.p.form not in ("imperative",) and \
            self.p.question_word in ("what", None) and self._numeric_column(asked)
        # "Which patient has the highest total", "Who earns the most": one thing, unless asked in the plural
        if (n is None or n == 1) and (single or not plural or quantity):
            if quantity or not (asked is not None and asked.plural and ph is asked):
                return direction, None, 1
        return None, direction, n

    def _what_amount(self) -> Phrase | None:
        """"What did X pay in fees during 2023?", "What did X take in ad revenue?": "what" is the object of a verb
        that an amount follows ("in fees", the object after the particle "in"), a number column of the catalog; the
        question asks the amount's total."""
        w = self.w
        what = next((t for t in w if t.lemma == "what" and t.dep == "dobj" and t.i == 0), None)
        if what is None:
            # "What did they come to in fees?": "what" the object of a preposition the verb leaves at its end
            # (however the parser attached "what": to the preposition, or to the auxiliary)
            root = next((t for t in w if t.dep == "ROOT" and t.pos == "VERB"), None)
            stranded = root is not None and any(
                x.head == root.i and x.dep == "prep" and x.i > root.i and not any(y.head == x.i and y.i for y in w)
                for x in w)
            what = replace(w[0], head=root.i) if stranded and w[0].lemma == "what" else None
        if what is None or w[what.head].pos != "VERB":
            return None
        verb = what.head
        nouns = [x for x in w if x.pos == "NOUN" and x.entity is None and (
            (x.dep == "pobj" and w[x.head].lemma == "in" and w[x.head].head == verb) or
            (x.dep == "dobj" and x.head == verb and any(y.head == verb and y.dep == "prt" and y.lemma == "in"
                                                       for y in w)))]
        for x in nouns:
            k = self.p.phrase_of(x.i)
            if k is not None and (self._numeric_column(self.p.phrases[k]) or self._numeric_label(self.p.phrases[k])):
                return self.p.phrases[k]
        return None

    def _numeric_label(self, ph: Phrase) -> bool:
        """The phrase's head names a number column by the catalog's @label ("fees": amount_gbp, labelled "fee")."""
        head = stem(ph.lemma)
        return any(c["type"] in ("int", "float") and (label := (spec.get("labels") or {}).get(c["name"])) and
                   word_match(head, stem(label.split()[-1].lower()))
                   for spec in self.tools.values() for c in spec.get("schema", []))

    def _which_n_of(self) -> int | None:
        """"Which three of the bikes ...": the number of things asked, said before "of"."""
        for t in self.w:
            if t.pos == "NUM" and t.text.lower() in P.NUMBER_WORDS and t.i > 0 and \
                    self.w[t.i - 1].text.lower() == "which" and any(x.head == t.i and x.lemma == "of" for x in self.w):
                return P.NUMBER_WORDS[t.text.lower()]
        return None

    def _one_of(self) -> bool:
        """The question word picks one of a plural ("Which of X's stations sits ...", "Which of them recorded ..."):
        its verb is not plural (a present plural, "Which of them have ...", may mean several)."""
        wh = next((t for t in self.w if t.tag in ("WDT", "WP") and t.text.lower() in ("which", "who")), None)
        if wh is None or not any(t.head == wh.i and t.lemma == "of" for t in self.w):
            return False
        verb = self.w[wh.head] if 0 <= wh.head < len(self.w) else None
        return verb is not None and verb.tag != "VBP" and verb.text.lower() not in ("are", "were")

    def _numeric_column(self, ph: Phrase) -> bool:
        """The phrase names a number column of the catalog ("grade points": grade_points)."""
        mine = tuple(stem(x) for x in ph.words)
        return any(asked_columns(mine, [c["name"]]) and c["type"] in ("int", "float") and
                   any(word_match(mine[-1], t) for t in terms(c["name"]))
                   for spec in self.tools.values() for c in spec.get("schema", []))

    def _asks_for(self, asked: Phrase | None) -> tuple[str, ...]:
        if asked is None or asked.lemma in ("one", "ones"):
            return ()
        names = {x for e in self.linked if not e.kind for x in (e.value, e.value.lower())}
        # (a compound the parser read as one word, "cross_connect" for "cross-connects": its words)
        words = [y for x in asked.words for y in x.split("_") if y]
        # (a count noun that heads a compound with no "of" is a name: "the case number", a column)
        named_number = asked.lemma in COUNT_NOUNS and len(words) > 1 and self._of_object(asked) is None
        words = [x for x in words if x not in ("many", "much", "different", "distinct", "unique", "single",
                                                     "top", "bottom", "combine")
                 and (x not in COUNT_NOUNS or named_number) and x not in TOTAL_WORDS and x not in names]
        if asked.lemma in COUNT_NOUNS or asked.lemma in TOTAL_WORDS:  # "the number of X", "the sum of X"
            inner = self._of_object(asked)
            if inner is not None and inner.entity is None:  # (not "the bench count of North Lab")
                words = list(inner.words)
        elif asked.lemma in PARTITIVES:  # "How many pieces of pottery were found at X?": the pottery finds
            inner = self._of_object(asked)
            if inner is not None and inner.entity is None:
                words = list(inner.words)
        elif asked.lemma in KIND_NOUNS and asked.plural:
            # "What kinds of material were picked up at X?": the materials, kinds of them ("types of vehicle": the
            # vehicle type, a column named by both); not "What type of asset is X?", X's own type
            inner = self._of_object(asked)
            if inner is not None and inner.entity is None:
                words = [*inner.words, asked.lemma]
        # the verb the asked things do ("Which companies guarantee the loans of X": the guarantors), when no column
        # of the catalog is named by the noun itself ("Which engineers worked on X": engineers, not work orders)
        columns = [c["name"] for spec in self.tools.values() for c in spec.get("schema", [])
                   if c["name"] not in (spec.get("parameter_columns") or {})]
        # (an imperative's verb that is the asked phrase's noun here is no stop word: "What shows are on X?")
        noun = asked.lemma if self.w[asked.head].pos == "NOUN" and asked.lemma in P.IMPERATIVES else None
        words = [x for x in words if x not in STOPWORDS or x == noun]
        if (columns and asked_columns(tuple(stem(x) for x in words), columns)) or asked.kind is not None or \
                any(self.w[t].kind for t in asked.tokens):
            return tuple(stem(x) for x in words if not x.isdigit())
        done = [stem(r.words[0]) for r in self.p.relations if r.source is not None and self.p.phrases[r.source] is
                asked and self.w[r.tokens[0]].pos == "VERB" and r.words[0] not in (
                    "have", "be", "get", "do", "count", "include", *LIMIT_VERBS, *WITHIN_VERBS)
                and [x.i for x in self.w if x.head == r.tokens[0] and x.dep == "nsubj"] == [asked.head]]
        return tuple(stem(x) for x in words if not x.isdigit()) + tuple(done[:1])

    def _wh_after_clause(self) -> bool:
        """"Among the hubs reachable from X, which one has ...": a question word after a comma."""
        return any(t.lemma in ("which", "who") and t.i > 0 and self.w[t.i - 1].text in (",", ";") for t in self.w)

    # --- numbers ----------------------------------------------------------------------------------------------------
    def _conditions(self, n: int | None) -> tuple[Condition, ...]:
        out = []
        for num in self.p.numbers:
            if num.op is None or any(t in self.negated for t in num.tokens):
                continue
            if n is not None and num.value == n and num.op is None:
                continue
            text = self._condition_text(num)
            out.append(Condition(text, num.op, num.value, num.percent, tuple(stem(x) for x in num.measure
                                                                             if x not in ("more", "less"))))
        return tuple(out)

    def _condition_text(self, num: P.Number) -> str:
        """The comparison and its number as written ("above 4.0", "more than 5M", "800 tonnes or more")."""
        first = min(num.tokens)
        last = max(num.tokens)
        k = first
        while k > 0 and (self.w[k - 1].lemma in P.UP_COMPARE | P.DOWN_COMPARE | {"than", "at", "least", "most",
                                                                                 "no", "exceed", "equal", "to",
                                                                                 "exactly", "up", "a", "an"}
                         or self.w[k - 1].text in ("$", "€", "£")):
            k -= 1
        j = last
        while j + 1 < len(self.w) and self.w[j + 1].lemma in ("or", "more", "less", "above", "below", "fewer",
                                                              "over", "under", "%", "percent"):
            j += 1
        while self.w[k].lemma in ("a", "an", "to") and k < first:
            k += 1
        return self.p.text[self.w[k].start:self.w[j].end]

    # --- limits -----------------------------------------------------------------------------------------------------
    def _limit(self) -> tuple[bool, tuple[str, ...], bool]:
        """Whether a limit stated in the data is passed or kept: "exceed their capacity", "above its limit", "stay
        within their quota", "more enrolments than seats", "over-exposed", or the words of a tool whose output has a
        limit ("raise concentration-risk concerns" where a tool's limit is "for concentration risk")."""
        w = self.w
        numbers = {t for num in self.p.numbers for t in num.tokens}
        self._limit_token = None
        found = self._limit_found(w, numbers)
        if found is not None:
            t, words, within = found
            self._limit_token = t
            # the comparison and what it compares with say the check ("than their annual loan quota allows")
            self._check_tokens |= set(self._below(t.head if t.dep == "mark" else t.i)) | {t.i}
            return True, words, within
        return self._limit_by_catalog(), (), False

    def _limit_found(self, w, numbers):
        """The token comparing with a limit, the limit's words, and whether "within" is asked; None when none."""
        for t in w:
            if t.i in self.negated:
                continue
            objs = [x for x in w if x.head == t.i and x.dep in ("dobj", "pobj", "attr", "obj")]
            named = [x for x in objs if x.i not in numbers and x.pos in ("NOUN", "PROPN")]
            # ("pass" and "top" pass a limit only when their object names one: not "passed their driving test")
            if t.lemma in LIMIT_VERBS and t.pos == "VERB" and named and (
                    t.lemma not in ("pass", "top") or self._names_limit(named[0].i)):
                return t, self._phrase_words(named[0].i), False
            if t.pos == "VERB" and named and self._names_limit(named[0].i) and any(
                    x.head == t.i and x.dep == "prt" and x.lemma in ("over", "above", "beyond", "past") for x in w):
                # a phrasal verb whose particle passes the limit its object names ("have gone over their quota")
                return t, self._phrase_words(named[0].i), False
            # (not the range of a sum: "summed over all loans", "over every month")
            ranged = t.lemma == "over" and (w[t.head].lemma in ("sum", "total", "add", "average", "aggregate", "count")
                                            or t.i + 1 < len(w) and w[t.i + 1].lemma in ("all", "every", "each"))
            if t.lemma in ("above", "over", "beyond", "past", "under", "below") and named and not ranged and \
                    self._names_limit(named[0].i):
                within = t.lemma in ("within", "under", "below")
                return t, self._phrase_words(named[0].i), within
            if t.lemma == "than":
                # "more enrolments than seats", "more loans than their quota allows" ("than" marks a clause)
                below = [x for x in self._below(t.head if t.dep == "mark" else t.i) if x != t.i]
                nouns = [self.w[x] for x in below if self.w[x].pos in ("NOUN", "PROPN") and x not in numbers]
                # a number first is a condition ("more than 300 metres"); after the limit, a period ("than their
                # monthly cap in March 2024")
                if nouns and not any(x in numbers and x < nouns[0].i for x in below):
                    return t, self._phrase_words(nouns[0].i), False
            if t.lemma == "within" and named and (self.w[t.head].lemma in WITHIN_VERBS or
                                                  self._names_limit(named[0].i)):
                return t, self._phrase_words(named[0].i), True  # not "within X's group": a scope
            if t.text.lower().startswith("over") and len(t.text) > 5 and t.pos in ("VERB", "ADJ") and \
                    t.lemma not in ("overall", "overview", "overseas", "overnight", "oversee"):
                return t, (), False  # over-exposed, overbooked, oversubscribed
        # "go over their allowance"
        for t in w:
            if t.lemma == "go" and any(x.head == t.i and x.lemma == "over" for x in w):
                over = next(x for x in w if x.head == t.i and x.lemma == "over")
                obj = next((x for x in w if x.head == over.i and x.dep == "pobj"), None)
                if obj is not None and obj.i not in numbers:
                    return over, self._phrase_words(obj.i), False
        return None

    def _below(self, i: int) -> list[int]:
        out, todo = [], [i]
        while todo:
            n = todo.pop()
            out.append(n)
            todo += [x.i for x in self.w if x.head == n and x.i != n]
        return sorted(out)

    def _names_limit(self, i: int) -> bool:
        words = self._phrase_words(i)
        if any(x in LIMIT_NOUNS for x in words):
            return True
        for spec in self.tools.values():
            for col, role in (spec.get("roles") or {}).items():
                if role in ("limit", "limit_ratio") and any(word_match(x, t) for x in words for t in terms(col)
                                                            if len(t) >= 4):
                    return True
        return False

    def _limit_by_catalog(self) -> bool:
        """In a yes/no question, two or more words of one noun phrase (not a name) that a tool with a limit column
        has in its description: "do any of them raise concentration-risk concerns?" where get_bank_info's limit is
        "for concentration risk"."""
        yes_no = [(a, b) for a, b in self.p.clauses if self._yes_no(a, b)]
        for ph in self.p.phrases:
            if ph.entity is not None or ph.kind is not None or ph is self.asked or \
                    not any(a <= ph.head < b for a, b in yes_no):
                continue
            mine = {stem(x) for x in ph.words if x not in STOPWORDS}
            if len(mine) < 2:
                continue
            for spec in self.tools.values():
                roles = spec.get("roles") or {}
                named = any(terms(c["name"]) & LIMIT_NOUNS for c in spec.get("schema", []))  # limit_amount
                if not any(r in ("limit", "limit_ratio") for r in roles.values()) and not named:
                    continue
                described = terms(spec.get("description", ""))
                if len({x for x in mine if any(word_match(x, d) for d in described)}) >= 2:
                    # the phrase and the verb that asks about it ("raise ... concerns") say the check
                    self._check_tokens = set(ph.tokens) | {self.w[ph.head].head}
                    return True
        return False

    def _yes_no(self, a: int, b: int) -> bool:
        """The clause of tokens a..b asks yes or no ("do any of them ...", "Is X over-exposed ...")."""
        toks = [t for t in self.w[a:b] if t.text not in (",", ";") and t.lemma not in ("and", "but", "so")]
        return bool(toks) and toks[0].pos == "AUX" and toks[0].lemma in ("be", "do", "have", "can", "will")

    # --- chains -----------------------------------------------------------------------------------------------------
    def _chain_tokens(self) -> set[int]:
        """The words saying how far a chain goes: "directly or indirectly", "ultimately", "through its sub-systems",
        "or any of its subgenres", "counting all of its subgenres", "at any level"."""
        out: set[int] = set()
        w = self.w
        for t in w:
            low = t.lemma
            if low in CHAIN_ADVERBS or low in CHAIN_ADJECTIVES or low in DIRECT_WORDS:
                out.add(t.i)
            if low in DIRECT_WORDS and any(x.head == t.i and x.dep == "cc" and x.lemma == "or" for x in w):
                # "either directly or by way of a satellite": the other way is the chain's
                for x in w:
                    if x.head == t.i and x.dep in ("conj", "cc", "preconj"):
                        out |= {x.i, *self._below(x.i)}
            if low in ("through", "via"):
                obj, between = self._through(t)
                if obj is not None:
                    out |= {t.i, obj.i, *between} | {x.i for x in w if x.head == obj.i}
            if self._sub(t):
                # "or any of its subgenres", "including its sub-systems", "counting all of its subgenres"
                out |= {t.i} | {x.i for x in w if x.head == t.i}
            if self._whichever(t):
                # "whichever hall it is in": any of the things between, at any level
                out |= {t.i, t.head} | {x.i for x in w if x.i > t.head and x.i <= t.head + 4 and x.pos in (
                    "PRON", "AUX", "ADP")}
            if low in ANY_LEVEL and self._any_level(t):
                out |= {t.i} | {x.i for x in w if x.head == t.i} | {x.i for x in w if x.lemma == "however"
                                                                    and 0 <= t.i - x.i <= 2}
            if t.pos == "NOUN" and t.tag in ("NNS", "NNPS") and self._all_of_its(t):
                # "counting those in all of its districts": every part of the entity, at every level
                out |= {t.i, t.head, w[t.head].head} | {x.i for x in w if x.head == t.i}
            elif t.pos == "NOUN" and t.tag in ("NNS", "NNPS") and self._all_its(t):
                # "counting all its districts and blocks"
                out |= set(self._below(t.i))
            if low == "include" and t.tag == "VBG" and t.i not in self.negated and t.dep in ("prep", "advcl") and \
                    w[t.i - 1].text == ",":
                # ", including journeys with a change of ferry": what the answer takes in besides, not a
                # restriction (nor a thing the question names: "including Low Brass" is one)
                below = [x for x in self._below(t.i) if x != t.i]
                if below and not any(w[x].entity for x in below):
                    out |= {t.i, *below}
        return out

    def _through(self, t: P.Word) -> tuple[P.Word | None, tuple[int, ...]]:
        """The things a chain goes through ("through other substations", "via its sub-systems", "through one of its
        zones"), and the words between; None when "through" says something else ("through the year")."""
        w = self.w
        obj = next((x for x in w if x.head == t.i and x.dep == "pobj"), None)
        between: tuple[int, ...] = ()
        if obj is not None and obj.lemma in ("one", "any", "some", "each"):  # "one of its zones": the zones
            of = next((x for x in w if x.head == obj.i and x.lemma == "of"), None)
            inner = next((x for x in w if of is not None and x.head == of.i and x.dep == "pobj"), None)
            if inner is not None:
                obj, between = inner, (obj.i, of.i)
        if obj is not None and (obj.tag in ("NNS", "NNPS") or any(
                x.head == obj.i and x.lemma in ("other", "another", "any", "intermediate", "its", "their", "a", "one")
                for x in w)):
            return obj, between
        return None, ()

    def _any_level(self, t: P.Word) -> bool:
        """"at any level", "every step", "however many levels down": a level word said of every level."""
        w = self.w
        return any(x.head == t.i and x.lemma in ("any", "every", "all") for x in w) or (
            t.i >= 2 and w[t.i - 1].lemma == "many" and w[t.i - 2].lemma == "however")

    def _aspect(self) -> set[int]:
        """A verb of aspect before the verb of the relation ("ended up buying", "kept using", "went on to sign"), and
        its particle: it says when or how, not what."""
        w = self.w
        out: set[int] = set()
        for t in w:
            if t.pos == "VERB" and t.lemma in ASPECT_VERBS and any(x.head == t.i and x.dep == "xcomp" for x in w):
                out |= {t.i} | {x.i for x in w if x.head == t.i and x.dep == "prt"}
        return out

    def _whichever(self, t: P.Word) -> bool:
        """"whichever hall it is in", "whatever district they sit in": the thing between, any one of them."""
        return t.lemma in ("whichever", "whatever") and t.dep == "det" and self.w[t.head].pos == "NOUN"

    def _all_its(self, t: P.Word) -> bool:
        """"all its districts", "across all its imprints and series", "across its regions": the entity's parts, all of
        them, said without "of" — parts being kinds of unit the catalog holds (a category value), not its records
        ("over all its enrolments" is the entity's own enrolments, one level)."""
        w = self.w
        # (or all over them: "across its regions", "throughout their districts")
        return (t.kind is not None or any(x.head == t.i and x.dep == "conj" and x.kind for x in w)) and any(
            x.head == t.i and x.lemma in ("its", "their") and x.dep == "poss" for x in w) and (any(
                x.head == t.i and x.lemma == "all" and x.dep in ("predet", "det") for x in w)
                or (t.head != t.i and w[t.head].lemma in ("across", "throughout")))

    def _all_of_its(self, t: P.Word) -> bool:
        """"all of its districts", "every one of their depots": the things of the entity's own, all of them."""
        w = self.w
        of = w[t.head]
        owned = any(x.head == t.i and x.lemma in ("its", "their") for x in w)
        return owned and of.lemma == "of" and of.head != of.i and w[of.head].lemma in ("all", "every", "each", "any")

    def _inclusion(self) -> bool:
        """"Counting the substations it feeds", "including the substations downstream of it": a clause that adds to
        the entity's own things those of the things related to it — the whole chain. Its object is a noun phrase with
        a relative clause or a complement about the entity ("it", "its", "their")."""
        w = self.w
        for t in w:
            if t.lemma not in ("count", "include") or t.tag not in ("VBG", "VBN") or t.i in self.negated:
                continue
            objs = [x for x in w if x.head == t.i and x.dep in ("dobj", "pobj", "nsubjpass")]
            for o in objs:
                # the things related to the entity by a verb ("the substations it feeds"), not its own parts
                # ("every course of its departments": one level, the faculty's own)
                if any(w[x].dep in ("relcl", "acl") and w[x].pos == "VERB" and any(
                        w[y].lemma in ("it", "they", "which", "that") for y in self._below(x))
                       for x in self._below(o.i)):
                    return True
        return False

    def _own(self) -> bool:
        """The entity's own things with those of its parts at every level: its parts said in a clause that adds them
        ("counting all of its sub-departments", "including its subgenres") or after the entity and "or"/"and" ("World
        Cultures or any of its sub-departments"), or the things related to it counted in ("counting the substations
        it feeds"); not "the sub-departments of X" nor "X's sub-departments", which leave X's own out."""
        w = self.w
        for t in w:
            if t.i in self.negated or not (self._sub(t) or (
                    t.pos == "NOUN" and t.tag in ("NNS", "NNPS") and (self._all_of_its(t) or self._all_its(t)))):
                continue
            # the entity's parts ("its", "X's"), not the parts of each thing asked ("which operators ..., once the
            # hubs of their own subsidiaries are included")
            noun = w[t.i + 2] if t.lemma == "sub" and t.i + 2 < len(w) and w[t.i + 1].text == "-" else t
            if any(x.head in (t.i, noun.i) and x.dep == "poss" and x.lemma not in ("its",) and not x.entity
                   for x in w):
                continue
            x = t
            for _ in range(6):  # up the tree to the clause the parts are said in
                if x.lemma in ("count", "include") and x.tag in ("VBG", "VBN"):
                    return True
                if x.dep == "conj" and w[x.head].entity:
                    return True
                if x.head == x.i:
                    break
                x = w[x.head]
        return self._inclusion()

    def _sub(self, t: P.Word) -> bool:
        """"its subgenres", "their sub-systems", "any of its subsidiaries": the parts of a thing's own kind, which
        say the whole chain (not "the substations": a word that merely begins with sub-)."""
        w = self.w
        hyphen = t.lemma == "sub" and t.i + 2 < len(w) and w[t.i + 1].text == "-"
        noun = w[t.i + 2] if hyphen else t
        if not (hyphen or (t.lemma.startswith("sub") and len(t.lemma) > 5 and t.pos == "NOUN")):
            return False
        owned = any(x.head == noun.i and x.lemma in ("its", "their", "his", "her") for x in w)
        return owned or hyphen

    def _direct(self) -> bool | None:
        w = self.w
        chain = [t for t in w if t.i not in self.negated and (
            t.lemma in CHAIN_ADVERBS or t.lemma in CHAIN_ADJECTIVES)]
        # (or "all of its wards and neighbourhoods": kinds of unit the catalog holds, not the entity's records)
        subs = [t for t in w if t.i not in self.negated and (self._sub(t) or (
            t.pos == "NOUN" and t.tag in ("NNS", "NNPS") and (self._all_its(t) or (self._all_of_its(t) and (
                t.kind is not None or any(x.head == t.i and x.dep == "conj" and x.kind for x in w))))))]
        # (not "directly rather than through one of its zones": the chain said as what is not asked)
        through = [t for t in w if t.i not in self.negated and t.lemma in ("through", "via") and
                   self._through(t)[0] is not None and not (t.i >= 2 and w[t.i - 1].lemma == "than"
                                                            and w[t.i - 2].lemma == "rather")]
        levels = [t for t in w if (t.lemma in ANY_LEVEL and self._any_level(t)) or self._whichever(t)]
        # "either directly or through another site", "directly or by way of one of its hubs": "directly" as one of
        # two ways, not the only one
        alternative = [t for t in w if t.lemma in DIRECT_WORDS and any(
            x.head == t.i and x.dep == "cc" and x.lemma == "or" for x in w) and any(
            x.head == t.i and x.dep == "conj" and x.lemma not in DIRECT_WORDS for x in w)]
        if chain or subs or through or levels or alternative or self._inclusion():
            return False
        if any(t.lemma in DIRECT_WORDS for t in w):
            return True
        return None

    # --- relations, parts -------------------------------------------------------------------------------------------
    def _relations(self) -> tuple[Relation, ...]:
        p = self.p
        chain = self._chain_tokens()
        out = []
        for r in p.relations:
            if p.form == "imperative" and r.source is None and any(
                    self.w[t].lemma == p.question_word and self.w[t].i == min(
                        x.i for x in self.w if x.content) for t in r.tokens):
                continue  # "List the X": the imperative is how the question asks, not a relation
            src = p.phrases[r.source] if r.source is not None else None
            tgt = p.phrases[r.target] if r.target is not None else None
            if src is not None and src is tgt:
                continue
            if tgt is not None and tgt.head in chain and tgt.entity is None:
                continue  # "the lines of all its sub-accounts": how far the chain goes, which a chain tool follows
            asked = "source" if r.source is not None and r.source == p.asked else \
                "target" if r.target is not None and r.target == p.asked else None
            # a light verb's property ("have a rating", "carry a part"), not a relation between things
            attribute = r.via == "verb" and bool(r.words) and r.words[0] in ("have", "be", "get", "carry") and \
                tgt is not None and tgt.entity is None and tgt.kind is None and tgt is not self.asked
            negated = r.negated or any(t in self.negated for t in r.tokens)
            def entity(ph: Phrase | None) -> str | None:  # its own name, or its possessor's ("X's holdings")
                if ph is None:
                    return None
                return ph.entity or (p.phrases[ph.possessor].entity if ph.possessor is not None else None)

            out.append(Relation(tuple(stem(x) for x in r.words if x), src.text if src else None,
                                tgt.text if tgt else None, r.text, entity(src), entity(tgt), asked, negated,
                                attribute, r.via, r.tokens[0] if r.tokens else -1))
        return tuple(out)

    def _parts(self) -> tuple[str, ...]:
        p = self.p
        if len(p.clauses) < 2:
            return ()
        texts = []
        for a, b in p.clauses:
            toks = [t for t in self.w[a:b] if t.text not in (",", ";", ":") and t.lemma not in ("and", "but")]
            if toks:
                texts.append(p.text[toks[0].start:toks[-1].end].strip())
        return tuple(texts)

    # --- the words the composers read -----------------------------------------------------------------------------
    def _phrase_words(self, i: int) -> tuple[str, ...]:
        k = self.p.phrase_of(i)
        return tuple(stem(x) for x in self.p.phrases[k].words) if k is not None else (stem(self.w[i].lemma),)

    def _measure_words(self) -> tuple[str, ...]:
        for ph in self.p.phrases:
            if ph.superlative:
                return tuple(stem(x) for x in ph.words if x not in ("single", "top", "bottom"))
        adv = next((t for t in self.w if t.tag in ("RBS", "JJS") and not (t.i > 0 and self.w[t.i - 1].lemma == "at")),
                   None)
        verb = self.w[adv.head] if adv is not None and adv.head != adv.i else None
        if adv is not None and adv.dep == "dobj" and verb is not None and verb.pos == "VERB" and \
                verb.lemma not in LIGHT_VERBS:
            # "have cost the most to repair", "earns the most": the superlative is the verb's object, and the verb
            # names the measure (with the nouns after it: "spent the most money")
            return (stem(verb.lemma), *(stem(self.w[t].lemma) for t in range(adv.i + 1, min(adv.i + 4, len(self.w)))
                                        if self.w[t].pos == "NOUN" and self.w[t].entity is None))
        if adv is not None:  # "kept a book the longest": the verb's object
            return tuple(stem(self.w[t].lemma) for t in range(adv.i + 1, min(adv.i + 4, len(self.w)))
                         if self.w[t].content and self.w[t].entity is None)
        return ()

    def _superlative(self) -> str | None:
        t = next((t for t in self.w if (t.tag in ("JJS", "RBS") or t.lemma in QUANTITY_SUPERLATIVES)
                  and not (t.i > 0 and self.w[t.i - 1].lemma == "at")), None)
        return t.text.lower() if t is not None else None

    def _predicate_words(self) -> tuple[str, ...]:
        """The noun after "is/are" ("Which courses are direct prerequisites of X": prerequisite)."""
        for t in self.w:
            if t.lemma == "be" and t.pos == "AUX":
                attr = next((x for x in self.w if x.head == t.i and x.dep == "attr" and x.pos == "NOUN"), None)
                if attr is not None:
                    return (stem(attr.lemma),)
        return ()

    def _share_of(self) -> tuple[str, ...]:
        for ph in self.p.phrases:
            if ph.lemma in SHARE_NOUNS:
                inner = self._of_object(ph)
                if inner is not None and inner.entity is None:
                    return tuple(stem(x) for x in inner.words)
                if inner is not None and inner.entity is not None and (
                        rest := [x for x in inner.words if x != inner.entity]):
                    return tuple(stem(x) for x in rest)  # "the share of the Zea mays accessions": the accessions
                if inner is not None and inner.entity is not None:
                    # "the share of X's capital": the possessed phrase
                    nxt = next((q for q in self.p.phrases if q.possessor is not None and
                                self.p.phrases[q.possessor] is inner), None)
                    if nxt is not None:
                        return tuple(stem(x) for x in nxt.words)
        # "How much of X's annual loan quota, as a fraction, ...": the whole is what "how much" is of
        much = next((t for t in self.w if t.lemma == "much" and t.i > 0 and self.w[t.i - 1].lemma == "how"), None)
        of = next((t for t in self.w if much is not None and t.head == much.i and t.lemma == "of"), None)
        obj = next((x for x in self.w if of is not None and x.head == of.i and x.dep == "pobj"), None)
        if obj is not None and (k := self.p.phrase_of(obj.i)) is not None and \
                any(ph.lemma in SHARE_NOUNS and self.w[self.w[ph.head].head].lemma == "as" for ph in self.p.phrases):
            inner = self.p.phrases[k]
            return tuple(stem(x) for x in inner.words if x != inner.entity)
        return ()

    def _preamble(self) -> tuple[str, ...]:
        cut = next((t.i for t in self.w if t.lemma in ("which", "who", "whom") and t.i > 0), None)
        if cut is None:
            return ()
        return tuple(stem(t.lemma) for t in self.w[:cut] if t.content and t.entity is None)

    def _verb(self) -> str | None:
        who = next((t for t in self.w if t.lemma in ("who", "whom")), None)
        if who is None:
            return None
        head = self.w[who.head]
        if head.pos == "VERB" and head.i in self._light():
            return "have"  # "Who holds a role in ...": has one (the role names the relation, as in "Who has a role")
        if head.pos == "VERB":
            return head.lemma
        # (not a name: "Who is X's agent?" asks for the agent)
        nxt = next((t for t in self.w[who.i + 1:] if t.content and t.entity is None), None)
        while nxt is not None and nxt.dep == "compound" and nxt.head != nxt.i:
            nxt = self.w[nxt.head]  # the compound's head: "Who is X's account manager?" asks for the manager
        return stem(nxt.lemma) if nxt is not None else None

    def _grouping(self) -> str | None:
        for t in self.w:
            if t.lemma in ("by", "per") and t.dep == "prep" and self.w[t.head].pos != "VERB":
                obj = next((x for x in self.w if x.head == t.i and x.dep == "pobj"), None)
                if obj is not None and obj.entity is None:
                    return " ".join(self.p.phrases[k].words) if (k := self.p.phrase_of(obj.i)) is not None \
                        else obj.lemma
            if t.lemma in ("each", "every") and t.i > 0 and self.w[t.i - 1].lemma == "for":
                return self.w[t.head].lemma
            if t.lemma == "common" and self.w[t.head].pos == "NOUN":
                return self.w[t.head].lemma
        return None

    def _unplaced(self) -> tuple[str, ...]:
        """Content words (lemmas) of the question that name no entity, kind, column, tool, operation or comparison:
        each one the frame cannot place. A light object of a relation the catalog names ("lend money to") is part of
        that relation; the words of a condition ("800 tonnes") are placed with it."""
        if not self.tools:
            return ()
        vocabulary: set[str] = set()
        for spec in self.tools.values():
            vocabulary |= terms(spec.get("name", "")) | terms(spec.get("description", "")) | \
                terms(spec.get("output_predicate", ""))
            for c in spec.get("schema", []):
                vocabulary |= terms(c["name"])
            for par in spec.get("parameters", []):
                vocabulary |= terms(par["name"]) | terms(par.get("description", ""))
        grammar = (STOPWORDS | OPERATION_WORDS | SHARE_NOUNS | TOTAL_WORDS | COUNT_NOUNS | KIND_NOUNS | PARTITIVES |
                   LIMIT_VERBS |
                   WITHIN_VERBS | CHAIN_ADVERBS | CHAIN_ADJECTIVES | DIRECT_WORDS | ANY_LEVEL | LIMIT_NOUNS |
                   P.IMPERATIVES | P.QUESTION_WORDS | P.UP_COMPARE | P.DOWN_COMPARE | P.DOWNWARD |
                   set(P.NUMBER_WORDS) | {"single", "many", "much", "different", "distinct", "unique", "separate",
                                          "individual", "other", "each",
                                          "every", "whole", "overall", "itself", "themselves", "own", "one", "ones",
                                          "include", "including", "count", "counting", "add", "together", "both",
                                          "altogether", "also", "too", "any", "either", "allow", "permit",
                                          # possession said the other way round ("the instruments that belong to
                                          # X": X's instruments), and the present state the data are
                                          "belong", "currently", "presently", "now", "far", "yet",
                                          # (a part inside another, however deep: "every ground nested inside it")
                                          "nest", "nested"})
        conditions = {t for num in self.p.numbers for t in range(min(num.tokens) - 3, max(num.tokens) + 3)}
        # (and a unit written with a slash after it: "8 g/t", "90 km/h")
        conditions |= {t.i + 1 for t in self.w if t.text == "/" and t.i - 1 in conditions and t.i + 1 < len(self.w)}
        placed_verbs = {r.tokens[0] for r in self.p.relations if r.tokens and any(
            word_match(stem(x), v) for x in r.words for v in vocabulary)}
        out = []
        for t in self.w:
            if not t.content or t.entity is not None or t.kind is not None or t.pos in ("NUM",) or t.stop:
                continue
            lemma = stem(t.lemma)
            if "_" in t.lemma and all(any(word_match(stem(x), v) for v in vocabulary) for x in t.lemma.split("_") if x):
                continue  # a compound read as one word ("cross_connect"), each of its words the catalog's
            if lemma in grammar or t.lemma in grammar or t.tag in ("JJS", "RBS", "JJR", "RBR") or \
                    any(word_match(lemma, v) for v in vocabulary) or compound_placed(lemma, vocabulary) or \
                    t.i in conditions or t.i in self.negated or \
                    t.i in self._check_tokens:
                continue
            if t.dep in ("dobj", "npadvmod") and t.head in placed_verbs:
                continue  # "lend money to": the verb is the relation
            if t.lemma in LIGHT_VERBS and any(self.w[c].tag in ("JJS", "RBS") and self.w[c].head == t.i
                                              for c in range(len(self.w))):
                continue  # "took the longest to resolve", "has the most": the superlative says what is measured
            if t.lemma in SUPPORT_VERBS and t.i in self._light():
                continue  # "carried out visits": the visits (a tool's) name the action
            if self.asked is not None and t.dep == "conj" and t.head == self.asked.head:
                continue  # "Which companies or people own ...": one of the things asked
            if t.pos in ("VERB", "ADJ") and self._measures(t, vocabulary):
                continue  # "the demand the feeders draw", "accounts for the largest share", "the cap X sets"
            if t.lemma.startswith("sub") or t.i in self._chain_tokens():
                continue
            if self.asked is not None and P.role_of(self.w, t.i) == self.asked.head:
                continue  # "Who is acting as election agent for X?": the agent is what is asked
            if t.i in self._aspect():
                continue  # "Which sawmills ended up buying ...": the buying is the relation
            if t.lemma == "right" and t.i + 1 < len(self.w) and self.w[t.i + 1].lemma == "now":
                continue  # "right now": the present state the data are
            before = [x.lemma for x in self.w[max(0, t.i - 2):t.i]]
            if (t.lemma, before) == ("moment", ["at", "the"]) or (t.lemma == "present" and before[-1:] == ["at"]):
                continue  # "at the moment", "at present": the same
            if lemma in OCCASIONS and self.p.form == "how many":
                continue  # "how many times": the rows counted (the Verifier reads the column counted)
            if lemma in P.PEOPLE and self.p.form == "how many":
                continue  # "how many people": placed by a count of people's names (the Verifier reads the values)
            out.append((t.i, lemma))
        # a generic head noun whose modifiers name something ("the lowest grade-point value": grade points) is placed
        # with them; an unplaced modifier ("red cars") is not
        # (modifiers that name a column, a parameter or a tool: a word of a description names no thing, "the service
        # contract" is not placed by "its service schedule")
        names: set[str] = set()
        for spec in self.tools.values():
            names |= terms(spec.get("name", "")) | terms(spec.get("output_predicate", ""))
            names |= {x for c in spec.get("schema", []) for x in terms(c["name"])}
            names |= {x for par in spec.get("parameters", []) for x in terms(par["name"])}
        left = []
        for i, lemma in out:
            k = self.p.phrase_of(i)
            ph = self.p.phrases[k] if k is not None else None
            mods = [x for x in ph.tokens if x != i and self.w[x].content and self.w[x].pos != "NUM"] if ph else []
            if ph is not None and ph.head == i and mods and all(x not in {j for j, _ in out} for x in mods) and \
                    all(self.w[x].entity is not None or self.w[x].kind is not None or self.w[x].lemma in grammar or
                        self.w[x].tag in ("JJS", "RBS", "JJR", "RBR") or
                        any(word_match(stem(self.w[x].lemma), v) for v in names) for x in mods):
                continue
            left.append((i, lemma))
        self._unplaced_tokens = left
        return tuple(sorted({lemma for _, lemma in left}))

    def _measures(self, t: P.Word, vocabulary: set[str]) -> bool:
        """A verb (or adjective) that relates a thing to a quantity the catalog names, to a share or to a limit: its
        object, or the noun it qualifies, is such a phrase ("draw demand", "fill seats", "account for a share", "the
        annual cap the plan sets"). A verb relating two things ("complain about feeders") is not."""
        around = [x for x in self.w if x.head == t.i and x.dep in ("dobj", "pobj", "attr", "nsubj", "nsubjpass")]
        around += [g for x in self.w if x.head == t.i and x.dep in ("prep", "agent") for g in self.w if g.head == x.i]
        if t.dep in ("relcl", "acl", "amod"):
            around.append(self.w[t.head])
        for x in around:
            k = self.p.phrase_of(x.i)
            words = self.p.phrases[k].words if k is not None else (x.lemma,)
            stems = {stem(v) for v in words}
            if stems & (SHARE_NOUNS | LIMIT_NOUNS) or self._names_limit(x.i):
                return True
            if any(word_match(v, c) for v in stems for spec in self.tools.values() for col in spec.get("schema", [])
                   if col["type"] in ("int", "float") for c in terms(col["name"])):
                return True
        return False

    def _verb_partner(self, i: int) -> tuple[str, ...]:
        """The entities a verb relates the noun ``i`` to: the noun is its subject or object, or the verb qualifies
        the noun, and the entity is another argument of the verb (directly or through a preposition)."""
        w = self.w
        verbs = [w[i].head] if w[i].dep in ("nsubj", "nsubjpass", "dobj") and w[w[i].head].pos == "VERB" else []
        verbs += [x.i for x in w if x.head == i and x.dep in ("acl", "relcl") and x.pos == "VERB"]
        found = set()
        for v in verbs:
            args = [x for x in w if x.head == v and x.i != i]
            args += [g for x in args if x.dep in ("prep", "agent") for g in w if g.head == x.i]
            found |= {x.entity for x in args if x.entity}
        return tuple(sorted(found))

    def _light(self) -> set[int]:
        """A light verb whose object is a common noun naming a tool of the catalog ("Who holds a role in ...":
        the roles' tool; "hold" names no tool of holdings here): the noun names the relation, not the verb."""
        w = self.w
        names = {t for spec in self.tools.values() for t in terms(spec.get("name", "")) - {"get"}}
        return {t.i for t in w if t.pos == "VERB" and (t.lemma in LIGHT_VERBS or (t.lemma in SUPPORT_VERBS and (
            SUPPORT_VERBS[t.lemma] is None or any(x.head == t.i and x.lemma == SUPPORT_VERBS[t.lemma] for x in w))))
            and any(
            x.head == t.i and x.dep == "dobj" and x.pos == "NOUN" and x.entity is None and x.kind is None
            and any(word_match(stem(x.lemma), n) for n in names) for x in w)}

    def _entity_is(self) -> tuple[tuple[str, str], ...]:
        """(word, entity): "whose parent genre is X", "their parent is X" (the noun, its compounds, and the entity
        after a copula); "have X as their parent" (the noun after "as", the entity the object of "have")."""
        w = self.w
        out = []
        for t in w:
            if t.pos != "NOUN" or not any(x.head == t.i and x.dep == "poss" and x.lemma in ("whose", "its", "their")
                                          for x in w):
                continue
            nouns = [t] + [x for x in w if x.head == t.i and x.dep == "compound" and x.pos == "NOUN"]
            ents: list[str] = []
            if t.dep == "nsubj" and w[t.head].lemma == "be":
                ents = [x.entity for x in w if x.head == t.head and x.dep == "attr" and x.entity]
            elif t.dep == "pobj" and w[t.head].lemma == "as":
                as_ = w[t.head]
                have = w[as_.head] if w[as_.head].lemma == "have" else w[w[as_.head].head] \
                    if w[w[as_.head].head].lemma == "have" else None
                ents = [x.entity for x in w if have is not None and x.head == have.i and x.dep == "dobj" and x.entity]
            out += [(stem(n.lemma), e) for n in nouns for e in ents]
        return tuple(dict.fromkeys(out))

    def _near(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """For each unplaced word, the entities within two steps of it in the dependency tree."""
        out = []
        for i, lemma in getattr(self, "_unplaced_tokens", []):
            if self.w[i].pos not in ("VERB", "ADJ", "ADV", "AUX"):
                # a noun is placed with an entity only as an argument of a verb whose other argument the entity is
                # ("the shippers whose loads left X", "all loads leaving X": the rows of the tool called for X); the
                # thing asked is placed by the catalog alone ("How many workers does Research have?")
                if self.asked is not None and i == self.asked.head:
                    continue
                ents = self._verb_partner(i)
                if ents:
                    out.append((lemma, ents))
                continue
            if self.w[i].pos == "ADV" and self.w[i].dep == "advmod" and self.w[self.w[i].head].pos == "VERB":
                continue  # how a thing was done ("won a race outright"): a condition no entity places
            near = {i}
            for _ in range(3):
                near |= {self.w[x].head for x in near} | {x.i for x in self.w if x.head in near}
            ents = tuple(sorted({self.w[x].entity for x in near if self.w[x].entity}))
            out.append((lemma, ents))
        return tuple(out)


def incomplete(fr: QuestionFrame) -> bool:
    """The parse left the question open: a word it could not place, or nothing asked for that it could find."""
    return bool(fr.unplaced) or (not fr.asks_for and not fr.who and not fr.limit and fr.how != "yes-no")


def with_reading(fr: QuestionFrame, reading: Any) -> QuestionFrame:
    """The frame with what a model read where the parse left it open (a :class:`FrameReading`): what is asked, as
    which column, how many items, how far a chain goes; a word the model says names a column or tool is placed. The
    entities, conditions and relations stay the parse's."""
    from dataclasses import replace

    asks = reading.asks
    column = reading.column
    words = tuple(stem(w) for w in re.findall(r"[a-z0-9]+", column.lower())) if column else fr.asks_for
    named = {w for w, target in dict(reading.words).items() if target and target != "none"}
    chain = {"direct": True, "whole chain": False}.get(reading.chain, fr.direct)
    return replace(
        fr, count=asks == "count", total=asks == "total", share=asks == "share", limit=asks == "limit" or fr.limit,
        extreme={"highest": "max", "lowest": "min"}.get(asks) if not reading.items or reading.items == 1 else None,
        ranking={"highest": "max", "lowest": "min"}.get(asks) if reading.items and reading.items > 1 else fr.ranking,
        n=reading.items or fr.n, listing=asks in ("list", "lookup") or fr.listing, asks_for=words or fr.asks_for,
        asked_head=words[-1] if words else fr.asked_head, direct=chain,
        how_many=column.replace("_", " ") if asks == "count" and column else fr.how_many,
        unplaced=tuple(w for w in fr.unplaced if w not in named), read_by="parse and model")


def before(fr: QuestionFrame, position: int, width: int = 6) -> tuple[str, ...]:
    """The content words (lemmas) before a character position of the question, the nearest last."""
    return tuple(w for w, _a, b in fr.tokens if b <= position)[-width:]


def after(fr: QuestionFrame, position: int, width: int = 4) -> tuple[str, ...]:
    """The content words (lemmas) after a character position of the question."""
    return tuple(w for w, a, _b in fr.tokens if a >= position)[:width]


def of(ctx: RunContext) -> QuestionFrame:
    """The run's frame (built without entity links when the run did not build one: hand-made contexts)."""
    if ctx.frame is None or ctx.frame.question != ctx.question:
        ctx.frame = build(ctx.question)
    return ctx.frame
