"""The offline policy's composer for a question of several parts: "What fleet cap does Croydon Depot operate under,
and how many buses does it have allocated?" is two questions about one depot, each answered by its own query.

Each clause the parse found (``QuestionFrame.parts``) is read as a question of its own, its pronouns standing for the
thing the whole question names ("it", "its": Croydon Depot), and composed by :class:`Composer`; the calls of all the
parts run together, the rules of each part are named apart, and the answer gives each part's values in turn
(``ctx.answer_parts``). The Verifier checks each part against its own frame (:func:`as_part`).

A part that refers to another part's answer ("Which store has the most employees, and does *it* exceed its
headcount?"), a part no single query answers, or a part that is a limit check, is not composed: the question is left
to the other strategies, which refuse it by name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from vadaorchestra.agents import wording
from vadaorchestra.agents.context import RunContext
from vadaorchestra.agents.plan import Call
from vadaorchestra.agents.policy import Probe, RuleProposal
from vadaorchestra.agents.question import frame, naming
from vadaorchestra.agents.question import parse as P
from vadaorchestra.agents.question.compose import Composer
from vadaorchestra.agents.question.frame import QuestionFrame

Scores = Callable[[RunContext], tuple[dict[str, float], Callable[[str, str], float]]]


@contextmanager
def as_part(ctx: RunContext, part: QuestionFrame, values: list[Any] | None = None,
            composer: Composer | None = None) -> Iterator[RunContext]:
    """``ctx`` read as the part's question (its text, its frame, and its values when given), restored after; with
    the part's ``composer``, only what its query called and derived is in sight (another part's tools and rules
    are not this part's computation)."""
    saved = ctx.question, ctx.frame, ctx.answer_values, ctx.predicates, ctx.synthesized, ctx.executed
    ctx.question, ctx.frame = part.question, part
    if values is not None:
        ctx.answer_values = values
    if composer is not None and composer.query is not None:
        tools = set(Composer._tools(composer.query))
        mine = composer.rows or "\0"
        ctx.predicates = {k: v for k, v in ctx.predicates.items()
                          if v.tool in tools or k.startswith(mine) or v.origin == "low"}
        ctx.synthesized = [s for s in ctx.synthesized if s.output.startswith(mine)]
        ctx.executed = {k: c for k, c in ctx.executed.items() if c.tool in tools or c.level == "low"}
    try:
        yield ctx
    finally:
        ctx.question, ctx.frame, ctx.answer_values, ctx.predicates, ctx.synthesized, ctx.executed = saved


def _matches(fr: QuestionFrame) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The whole question's linked entities and kinds, as the entity finder gives them."""
    ents = [{"value": e.value, "columns": list(e.columns), "parameters": list(e.parameters), "category": e.kind}
            for e in fr.entities]
    return [m for m in ents if not m["category"]], [m for m in ents if m["category"]]


def _resolved(text: str, named: str, things: bool = False) -> str | None:
    """The part with its pronouns of the third person standing for ``named`` ("does it have": does Croydon Depot
    have; "its cap": Croydon Depot's cap; "work there": work at Croydon Depot); None when it points at a thing by a
    demonstrative ("that strand", "this zone"), which is another part's answer, or by a plural pronoun after a first
    part about things it restricts (``things``: "How many shifts did X book in May, and what did they cost?" — they
    are the May shifts, not all of X's)."""
    doc = P.nlp()(text)
    out, pos = [], 0
    for t in doc:
        if t.lower_ in ("that", "this", "these", "those") and t.dep_ == "det":
            return None
        if things and t.tag_ in ("PRP", "PRP$") and t.morph.get("Number") == ["Plur"]:
            return None
        if t.tag_ in ("PRP", "PRP$") and t.morph.get("Person") == ["3"]:  # it, its, they, his, her, ...
            out.append(text[pos:t.idx])
            out.append(named + ("'s" if t.tag_ == "PRP$" else ""))
            pos = t.idx + len(t.text)
        elif t.lower_ == "there" and t.tag_ == "RB":  # "how many vets work there": at the place named (not "are there")
            out.append(text[pos:t.idx])
            out.append("at " + named)
            pos = t.idx + len(t.text)
    out.append(text[pos:])
    return "".join(out)


def _points_back(first: QuestionFrame, rest: str, named: str | None = None) -> bool:
    """Whether a pronoun of the later parts may stand for what the first part finds: any pronoun after a which- or
    superlative question ("Which store has the most employees, and does it exceed its headcount?"); after "Who ...?"
    (someone), a personal pronoun, not "it" or "its" ("Who leads Glamorgan District, and how many stations does it
    have?": the district); after "Which X ...?" about a person the question names, not "he" or "her" ("Which section
    does Jonas Berg play in, and what is his cap?": Jonas Berg's)."""
    pronouns = [t for t in P.nlp()(rest) if t.tag_ in ("PRP", "PRP$")]
    w = first.parse.words if first.parse is not None else []
    root = next((t for t in w if t.dep == "ROOT"), None)
    # (a copula with its preposition left at the end: "Which deanery is X in": X is in it, whatever the parser took
    # for the subject)
    stranded = root is not None and root.lemma == "be" and any(
        t.head == root.i and t.dep == "prep" and not any(g.head == t.i for g in w) for t in w)
    subjects = ("nsubj", "nsubjpass")
    # (a singular pronoun only: "them" after "Which vessels does X operate" is the vessels)
    singular = all(t.morph.get("Number") != ["Plur"] for t in pronouns)
    if pronouns and singular and not first.extreme and first.ranking is None and any(
            t.entity is not None and (stranded or t.dep in subjects and t.head == root.i) for t in w) and (
            stranded or not any(t.dep in ("nsubj", "nsubjpass") and t.entity is None for t in w)):
        # the thing the question names is the first part's subject ("Which deanery is X in, and how many people are
        # on its electoral roll?": X's), not the thing asked
        return False
    if first.question_word in ("who", "whom") and not first.extreme:
        return any(t.lower_ not in ("it", "its") for t in pronouns)
    if pronouns and named is not None and not first.extreme and \
            all(t.morph.get("Gender") in (["Masc"], ["Fem"]) for t in pronouns) and \
            any(e.label_ == "PERSON" and e.text in named for e in P.nlp()(first.question).ents):
        return False
    return bool(pronouns)


# the words of a follow-up part that asks whether the first part's things are of a kind, beside the kind itself
_EXISTS_WORDS = {"be", "any", "of", "them", "they", "one", "a", "an", "the", "some", "also", "actually", "?", ",", "."}


def _one_kind(doc, text: str, kinds: list[dict[str, Any]]) -> str | None:
    """The one kind a follow-up part names (by its value or a word of it), None when it names none or several."""
    said = [k for k in kinds if k["value"].lower() in text.lower() or any(
        frame.word_match(frame.stem(t.lemma_.lower()), w) for t in doc for w in frame.terms(k["value"]))]
    return said[0]["value"] if len(said) == 1 else None


def _beyond(tokens, kind: str, also: frozenset[str] = frozenset()) -> list:
    """The words of a follow-up part beyond those asking about the first part's things and the kind itself."""
    # (the kind as written, too: "upheld", whose lemma "uphold" is no form of the value 'upheld')
    return [t for t in tokens if t.lemma_.lower() not in _EXISTS_WORDS | also and
            not any(frame.word_match(frame.stem(x), w) for x in (t.lemma_.lower(), t.lower_) for w in frame.terms(kind))]


def _with_kind(first: QuestionFrame, kind: str) -> str | None:
    """The first part with the kind put before its asked noun ("Which freighter vessels are based at X"), None when
    the asked phrase's head is no noun."""
    head = first.parse.words[first.parse.phrases[first.parse.asked].head]
    if head.pos not in ("NOUN", "PROPN"):
        return None
    q = first.question
    return f"{q[:head.start]}{kind.replace('_', ' ')} {q[head.start:]}"


def _kind_of_them(first: QuestionFrame, text: str, kinds: list[dict[str, Any]]) -> str | None:
    """A follow-up part that asks whether any of the first part's things is of a kind ("Which vessels are based at
    Ardcastle, and is any of them a freighter?") read as the first part restricted to the kind ("Which freighter
    vessels are based at Ardcastle"): its answer is yes when that finds something. None for any other part: one
    with words beyond the kind, or a first part whose asked noun the kind cannot be put before."""
    doc = P.nlp()(text)
    if not len(doc) or doc[0].pos_ != "AUX" or doc[0].lemma_ != "be" or \
            not any(t.lower_ in ("them", "they") for t in doc):
        return None
    kind = _one_kind(doc, text, kinds)
    if kind is None:
        return None
    parse = first.parse
    # (not after a ranking or an extreme: "the three largest ..., and is any of them a freighter?" asks about the
    # three found, not for the three largest freighters)
    if _beyond(doc, kind) or parse is None or parse.asked is None or not first.who and not first.listing or \
            first.extreme or first.ranking is not None or first.n is not None:
        return None
    return _with_kind(first, kind)


def _count_of_them(first: QuestionFrame, text: str, kinds: list[dict[str, Any]]) -> str | None:
    """A follow-up part that counts the first part's things of a kind ("How many participants has X enrolled, and how
    many of them have withdrawn?") read as the first part restricted to the kind ("How many withdrawn participants
    has X enrolled"). None for any other part."""
    doc = P.nlp()(text)
    if [t.lower_ for t in doc][:4] != ["how", "many", "of", "them"] or not first.count or first.parse is None or \
            first.parse.asked is None:
        return None
    kind = _one_kind(doc, text, kinds)
    if kind is None or _beyond(doc[4:], kind, frozenset({"have", "do", "already", "so", "far"})):
        return None
    return _with_kind(first, kind)


def _total_of_them(first: QuestionFrame, text: str, tools: dict | None = None,
                   numbers: list[str] = ()) -> QuestionFrame | None:
    """A follow-up part that totals a measure of the first part's things ("Which objects did we lend to X, and what
    did the loan fees for them come to in total?"): the first part's frame asking for the total of the measure it
    names. None for any other part: one naming an entity or a number of its own, or after a first part that is no
    plain list."""
    rest = frame.build(text, None, tools)  # (the catalog's number columns: "what did they come to in fees?")
    doc = P.nlp()(text)
    # (or the rows a first part counts, all of the entity's: "How many times has X been serviced, and what did those
    # services cost in total?"; not rows it restricts, which "those" would have to keep to)
    # (or kept to a period as the first part is: "How many shifts did X book in May 2024, and what did they cost?"
    # totals the May shifts, the frame below keeping the first part's period)
    counted = first.count and not (first.conditions or first.kinds or first.n is not None)
    # (a quantity in a unit of measure, totalled: "how many minutes did they last altogether?"; not things, "how many
    # launches did they make in total", which a count answers)
    quantity = rest.count and rest.total and rest.how_many and naming.unit_of(rest.how_many.split()[-1]) is not None
    # (or a number column of the first part's rows the counted noun names: "how many tickets did they sell?", the
    # tickets_sold of those screenings)
    held = rest.count and bool(rest.how_many) and bool(naming.head_named(naming.seq(rest.how_many)[-1:], list(numbers)))
    quantity = quantity or held
    if not (rest.total or held) or rest.share or (rest.count and not quantity) or rest.conditions or rest.periods or \
            not any(t.lower_ in ("them", "they", "their", "those") for t in doc) or \
            not (first.who or first.listing or counted) or first.extreme or first.ranking is not None or \
            first.n is not None or (first.count and not counted) or first.total or first.limit or first.parse is None:
        return None
    # the measure: the nouns of the follow-up, not its pronouns, the things pointed back at ("those services") nor
    # the words of a total; else its verb ("what did those services cost": the cost)
    measure = tuple(frame.stem(t.lemma_.lower()) for t in doc if t.pos_ == "NOUN"
                    and frame.stem(t.lemma_.lower()) not in frame.TOTAL_WORDS | frame.OPERATION_WORDS
                    and not any(c.dep_ == "det" and c.lower_ in ("those", "these") for c in t.children))
    if not measure:
        measure = tuple(frame.stem(t.lemma_.lower()) for t in doc if t.dep_ == "ROOT" and t.pos_ == "VERB"
                        and t.lemma_.lower() not in frame.LIGHT_VERBS | frame.STOPWORDS)
    if not measure or any(t.ent_type_ for t in doc if t.pos_ == "PROPN"):
        return None
    # (its words with the measure's, which may be a unit: "minutes" names duration_min, in min)
    return replace(first, total=True, count=False, listing=False, who=False, asks_for=measure,
                   asked_head=measure[-1], how_many=None, compound=False, parts=(), question=first.question,
                   words=tuple(dict.fromkeys(first.words + measure)))


@dataclass
class _Part:
    frame: QuestionFrame
    composer: Composer
    text: str | None = None  # its answer
    exists: str | None = None  # a yes/no part read as whether the restricted first part finds anything: as written
    counted: str | None = None  # "how many of them have withdrawn?" read as the first part restricted: as written
    totalled: bool = False  # "what did the loan fees for them come to in total?": the first part's rows totalled


class PartsComposer:
    """One :class:`Composer` per part of the question."""

    def __init__(self) -> None:
        self.parts: list[_Part] = []

    @property
    def query(self):
        return self.parts[0].composer.query if self.parts else None

    @staticmethod
    def applies(fr: QuestionFrame) -> bool:
        return fr.compound and len(fr.parts) >= 2 and not fr.limit

    def choose(self, ctx: RunContext, scores_of: Scores) -> list[Call]:
        """The calls of every part's query; none when a part finds no query of its own."""
        whole = frame.of(ctx)
        ents, kinds = _matches(whole)
        named = next((e.text or e.value for e in whole.entities if not e.kind), None)
        parts: list[_Part] = []
        calls: dict[str, Call] = {}
        for i, text in enumerate(whole.parts):
            exists = of_them = None
            built = None
            if i > 0 and parts and (kind_of := _kind_of_them(parts[0].frame, text, kinds)) is not None:
                exists, text = text, kind_of
            elif i > 0 and parts and (counted := _count_of_them(parts[0].frame, text, kinds)) is not None:
                of_them, text = text, counted
            elif i > 0 and parts and (totalled := _total_of_them(parts[0].frame, text, ctx.tools, naming.numeric(
                    ctx.tools[parts[0].composer.query.tool]) if parts[0].composer.query else [])) is not None:
                built = totalled
            elif not any((e.text or e.value).lower() in text.lower() for e in whole.entities if not e.kind):
                first = parts[0].frame if parts else None
                # (a plural pronoun after a first part about things it restricts: those things, which the named
                # entity standing for them would not keep to; "which of them" after all of X's things is X's)
                things = first is not None and (first.count or first.kind == "list") and first.parse is not None \
                    and first.parse.asked is not None and first.parse.phrases[first.parse.asked].plural \
                    and bool(first.periods or first.conditions)
                text = _resolved(text, named, things) if named is not None and i > 0 else None
                if text is None:
                    return []
            part = built or frame.build(text, ents, ctx.tools, kinds)
            if i == 0 and (part.who or part.extreme) and _points_back(part, " ".join(whole.parts[1:]), named) and \
                    _kind_of_them(part, " ".join(whole.parts[1:]), kinds) is None and \
                    not (len(whole.parts) == 2 and _total_of_them(part, whole.parts[1], ctx.tools) is not None):
                return []  # what the first part finds is what the next one is about ("Which store ..., and does it")
            if part.compound or part.limit or not Composer.applies(part):
                ctx.event("compose_parts", refused=text, kind=part.kind, compound=part.compound, limit=part.limit)
                return []
            composer = Composer()
            composer.tag = f"part{i + 1}"
            composer.exists = exists is not None
            if built is not None and parts[0].composer.query is not None:
                composer.only = {parts[0].composer.query.tool}  # the first part's rows, totalled
            with as_part(ctx, part):
                about, joined = scores_of(ctx)
                chosen = composer.choose(ctx, about, joined)
            if not chosen:
                ctx.event("compose_parts", refused=text, reason="no query")
                return []
            calls.update({c.key: c for c in chosen})
            parts.append(_Part(part, composer, exists=exists, counted=of_them, totalled=built is not None))
        self.parts = parts
        ctx.event("compose_parts", parts=[p.frame.question for p in parts])
        return list(calls.values())

    async def replan(self, ctx: RunContext, probe: Probe) -> list[Call]:
        out: list[Call] = []
        for p in self.parts:
            with as_part(ctx, p.frame):
                out += await p.composer.replan(ctx, probe)
        return out

    async def synthesize(self, ctx: RunContext, probe: Probe) -> list[RuleProposal]:
        out: list[RuleProposal] = []
        for p in self.parts:
            with as_part(ctx, p.frame):
                out += await p.composer.synthesize(ctx, probe)
        return out

    def answer(self, ctx: RunContext) -> str | None:
        """Each part's answer in turn; ``ctx.answer_parts`` their values, ``ctx.part_answers`` their texts."""
        texts, values, computed = [], [], []
        for p in self.parts:
            with as_part(ctx, p.frame, composer=p.composer):
                p.text = p.composer.answer(ctx)
                found = ctx.answer_values
            if p.text is None:
                return None
            computed.append(found)
            if p.exists is not None:  # "is any of them a freighter?": yes when the restricted part finds some
                yes = bool(found)
                shown = wording.join([str(v) for v in found]) if found else "none of them"
                p.text = wording.sentence(f"{'Yes' if yes else 'No'} ({p.exists.rstrip('?')}): {shown}")
                found = [yes]
            elif p.counted is not None and len(found or []) == 1 and isinstance(found[0], int | float):
                # "how many of them have withdrawn?": "6 of them have withdrawn."
                n = found[0]
                shown = str(int(n)) if float(n).is_integer() else str(n)
                rest = p.counted.strip().rstrip("?").split(None, 2)[2]  # after "how many"
                p.text = wording.sentence(f"{shown} {rest}")
            elif p.totalled and len(found or []) == 1 and p.composer.query is not None:
                # "... and what did the loan fees for them come to in total?": "Total loan fee for them: 8,600 GBP."
                col = (p.composer.answer_column or "").removeprefix("total_")
                q = p.composer.query
                tools = [q.tool] + ([q.join.tool] if q.join else [])
                p.text = wording.sentence(f"{naming.prose_total(col, ctx)} for them: "
                                          f"{wording.shown(ctx, found[0], col, tools)}")
            texts.append(p.text)
            values.append(found)
        ctx.answer_parts = values
        ctx.part_found = computed
        ctx.part_frames = [p.frame for p in self.parts]
        ctx.part_composers = [p.composer for p in self.parts]
        ctx.part_answers = texts
        ctx.answer_values = None
        return "\n".join(texts)
