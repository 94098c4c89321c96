"""Which catalog tools follow each relation the question states, and how many distinct steps the question needs.

A relation of the frame ("the companies that X controls", "the ultimate controller of X", "banks lend to the
companies") is *followed* by the tools whose identity — their name and output predicate, else their description —
has its content words (the verb or relational noun, and the words of an object that names nothing else: "own a
majority stake"). Of those, the tools matching the most of its words. Two relations followed by the same tools are one
step ("the exposure of Bank Gamma to Y"); relations followed by different tools are different steps, and a question
whose relations need two steps is not answered by one tool call ("Which companies are controlled by the ultimate
controller of X?" is the controller, then what it controls).

The composer reads :func:`steps` to decide whether a query needs a join; the Verifier reads it to check that the
computation followed every step, with the tools that were actually called.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from vadaorchestra.agents.question.frame import (
    LIGHT_VERBS,
    LIMIT_NOUNS,
    OPERATION_WORDS,
    STOPWORDS,
    Entity,
    QuestionFrame,
    Relation,
    stem,
    terms,
    word_match,
)
from vadaorchestra.agents.question.naming import parsed, role_columns, says_together

# relation words that say nothing of which tool: light verbs and the prepositions linking a noun to its complement
LIGHT = LIGHT_VERBS | {"there", "with"}


@dataclass(frozen=True)
class Step:
    """One step the question needs: its relations (as written) and the catalog tools that can follow it."""

    relations: tuple[Relation, ...]
    tools: frozenset[str]
    # followed by a column of its tools, not by what a tool is ("the fees to the musicians booked for X": the fee
    # column of the bookings): the tool that follows another step may follow this one too
    attribute: bool = False

    @property
    def text(self) -> str:
        return "; ".join(r.text for r in self.relations)


def content(r: Relation) -> tuple[str, ...]:
    """The words of a relation that can name a tool: not prepositions, light verbs or operation words. A noun's
    relation to its complement ("the ultimate controller of X", "roles in the companies") is named by the noun, unless
    the noun is what is asked ("the companies under ...": the question's thing, not a relation) or the preposition
    only says it has something ("people with roles")."""
    words = r.words
    if r.via in ("noun", "possessive"):
        if r.asked == "source" or "with" in words:
            return ()
    return tuple(w for w in words if len(w) > 2 and w not in STOPWORDS and w not in LIGHT
                 and w not in OPERATION_WORDS)


def identity(spec: Mapping[str, Any]) -> set[str]:
    return terms(spec["name"]) - {"get"} | terms(spec.get("output_predicate", ""))


def named_by(spec: Mapping[str, Any]) -> set[str]:
    """A tool's identity and the names of its output columns (not its parameters'): "operates" is followed by a tool
    whose output has an operator column."""
    params = set(spec.get("parameter_columns") or {})
    return identity(spec) | {t for c in spec.get("schema", []) if c["name"] not in params for t in terms(c["name"])}


def says(spec: Mapping[str, Any], words) -> bool:
    """Whether a tool says one of ``words`` in its name, output, columns or description."""
    return any(word_match(w, x) for w in words for x in named_by(spec) | terms(spec.get("description", "")))


def related_to_entity(fr: QuestionFrame) -> list[tuple[str, tuple[str, ...], set[str]]]:
    """The verbs that relate other things to an entity the question names, with the entity and the words of the
    things related ("the officers who report to X": (X, ("report",), {"officer"})): a tool called for X whose rows are
    X's own (called for an officer, X) must say them."""
    out = []
    for r in fr.relations:
        if r.negated or r.attribute or r.via != "verb" or r.asked is not None or r.source_entity or not r.source:
            continue
        ent = next((e for e in fr.entities if not e.kind and e.parameters and e.value == r.target_entity), None)
        if ent is not None and (words := content(r)):
            out.append((ent.value, words, terms(r.source)))
    return out


def called_for_its_kind(spec: Mapping[str, Any], things: set[str]) -> bool:
    """Whether a tool is called for a thing of the kind ``things`` name (its parameter's column: get_officer_pcns is
    called for an officer), so that its rows are that one thing's, not those of other things related to it."""
    return any(word_match(w, t) for w in things for c in (spec.get("parameter_columns") or {}) for t in terms(c))


def by_column(r: Relation, tools: Mapping[str, Mapping[str, Any]]) -> bool:
    """Whether a relation's words name output columns of tools and no tool's identity (a quantity or a property of
    the things another relation reaches: "fees to the musicians")."""
    words = content(r)
    if not words or r.via not in ("noun", "possessive"):
        return False
    return not any(word_match(w, x) for spec in tools.values() for w in words for x in identity(spec))


def followers(r: Relation, tools: Mapping[str, Mapping[str, Any]]) -> frozenset[str]:
    """The tools that follow a relation: those whose identity (name and output) has the most of its words; none when
    no tool's identity has one (a word only some descriptions use names no tool)."""
    words = content(r)
    if not words:
        return frozenset()
    scored = {name: sum(1 for w in words if any(word_match(w, x) for x in named_by(spec)))
              for name, spec in tools.items()}
    best = max(scored.values(), default=0)
    return frozenset(n for n, s in scored.items() if s == best) if best else frozenset()


def steps(fr: QuestionFrame, tools: Mapping[str, Mapping[str, Any]]) -> list[Step]:
    """The steps the question's relations need: relations between two of its phrases (not negated, not a property
    such as "have a rating") grouped by the tools that follow them; relations no tool follows are left out (they
    cannot be checked by the catalog's words)."""
    groups: dict[frozenset[str], list[Relation]] = {}
    filters = {e.value for e in fr.entities if not e.parameters}  # values of a column, no tool's parameter
    for r in fr.relations:
        if r.negated or r.attribute or r.source is None or r.target is None:
            continue
        if {r.source_entity, r.target_entity} & filters:
            continue  # "students of the Data Science programme": a filter on the column that holds the value
        if fr.limit and any(w in LIMIT_NOUNS for w in terms(r.target)):
            continue  # "Is X within its cap?": the comparison with the limit, which the threshold check follows
        found = followers(r, tools)
        if found:
            # relations the same tools follow are one step ("the exposure of Bank Gamma to Y", "the demand drawn from
            # the feeders of X")
            groups.setdefault(found, []).append(r)
    # a relation to an entity that a column of another step's only tool holds is a filter on that tool ("securities
    # issued by Orion Energy in Delta Balanced Fund's holdings": the holdings' issuer column), not a step of its own
    only = {next(iter(key)) for key in groups if len(key) == 1}
    held = {e.value: {c.rsplit(".", 1)[-1] for c in e.columns} for e in fr.entities if not e.kind}

    def filtered(key: frozenset[str], rs: list[Relation]) -> bool:
        return all(any(t in only and frozenset({t}) != key and held.get(x or "", set()) & _outputs(tools[t])
                       for t in key for x in (r.source_entity, r.target_entity)) for r in rs)
    return [Step(tuple(rs), key, attribute=all(by_column(r, tools) for r in rs)) for key, rs in groups.items()
            if not filtered(key, rs)]


def _outputs(spec: Mapping[str, Any]) -> set[str]:
    params = set(spec.get("parameter_columns") or {})
    return {c["name"] for c in spec.get("schema", []) if c["name"] not in params}


def _kind_phrase(kind: Entity, fr: QuestionFrame) -> str:
    """The lemmas of the preposition and the kind's words as the question says them ("across the group"), when a
    preposition governs the kind; else ""."""
    if fr.parse is None:
        return ""
    w = fr.parse.words
    at = [x for x in w if x.kind == kind.value]
    if not at or at[-1].head == at[-1].i or w[at[-1].head].pos != "ADP":
        return ""
    prep = w[at[-1].head]
    return " ".join(x.lemma for x in w[prep.i:at[-1].i + 1])


def restricts(kind: Entity, fr: QuestionFrame, tools: Mapping[str, Mapping[str, Any]]) -> bool:
    """Whether a kind the question names must restrict a computation that calls ``tools``: always when it modifies
    what is asked ("B1 engineers", "industrial customers"); when it is the thing asked ("Which parts ...", "How many
    districts ..."), unless a tool called is named for that kind of thing (get_installed_parts lists parts only,
    while a chain of assets lists districts among other assets; get_parcel_deliveries, whose output has a lot
    column, lists harvest lots). A tool whose own output has the column holding the kind lists several kinds,
    whatever its names (get_blend_components lists lots and reserves beside blends)."""
    holding = {c.rsplit(".", 1)[-1] for c in kind.columns}
    # a kind a called tool's description says with the words the question says it with: the tool's own scope, not a
    # restriction ("How many spots did X buy across the group?" with "Every spot an advertiser bought across the
    # group")
    said = _kind_phrase(kind, fr)
    if said and any(said in " ".join(t.lemma_.lower() for t in parsed(spec.get("description", "")))
                    for spec in tools.values()):
        return False
    if not fr.asks_for or not any(word_match(fr.asked_head, w) for w in terms(kind.value)):
        # (unless the kind's word is part of what a called tool calls its things, "Sea areas that lie inside a sea
        # area" for "Which sea areas sit directly beneath X?", where 'sea' is also a type of area)
        if len(fr.asks_for) > 1 and any(word_match(w, t) for w in fr.asks_for for t in terms(kind.value)) and \
                says_together(tools.values(), fr.asks_for):
            return False
        # (or a tool's output has a column named for the kind, holding things of it by name: "the campsites the
        # sections of X held camps at", where the group's camps name each booking's section)
        return not any(c["type"] == "string" and c["name"] not in holding and terms(kind.value) <= terms(c["name"])
                       and (spec.get("roles") or {}).get(c["name"]) != "category"
                       and c["name"] not in (spec.get("parameter_columns") or {})
                       for spec in tools.values() for c in spec.get("schema", []))

    def holds(spec: Mapping[str, Any]) -> bool:
        # the column itself, one named like it ("sub_imprint_type" for "imprint_type"), or one the tool declares a
        # category: get_imprints_within lists series beside imprints
        return any(c["name"] in holding or any(terms(h) <= terms(c["name"]) for h in holding)
                   for c in spec.get("schema", [])) or "category" in (spec.get("roles") or {}).values()

    return not any(any(word_match(w, x) for w in terms(kind.value) for x in named_by(spec)) and not holds(spec)
                   for spec in tools.values())


def assign(needed: list[Step], called: list[str]) -> list[Step]:
    """The steps no distinct called tool follows (a bipartite matching of steps to called tools; a step of a column
    is followed by any called tool that has it); empty when the calls follow every step."""
    columns = [s for s in needed if s.attribute]
    needed = [s for s in needed if not s.attribute]
    match: dict[str, int] = {}

    def augment(i: int, seen: set[str]) -> bool:
        for tool in sorted(needed[i].tools):
            if tool in called and tool not in seen:
                seen.add(tool)
                if tool not in match or augment(match[tool], seen):
                    match[tool] = i
                    return True
        return False

    matched = {i for i in range(len(needed)) if augment(i, set())}
    return [s for i, s in enumerate(needed) if i not in matched] + [s for s in columns if not s.tools & set(called)]


def _verbs_of(description: str, word: str, pos: tuple[str, ...]) -> list:
    """The tokens of a tool's description that are the verb ``word`` (by lemma), of the parts of speech ``pos``."""
    return [v for v in parsed(description) if v.pos_ in pos and word_match(stem(v.lemma_.lower()), word)]


@lru_cache(maxsize=512)
def described_roles(description: str, word: str) -> tuple[bool, bool]:
    """Whether a tool's description says the thing it is called for ("it") does ``word`` (its subject: "the parent
    association it reports to") and whether it has it done to it ("they report to it"), by the description's parse."""
    source = target = False
    for v in _verbs_of(description, word, ("VERB", "AUX")):
        subjects = {c.lower_ for c in v.children if c.dep_ in ("nsubj", "nsubjpass")}
        objects = {c.lower_ for c in v.children if c.dep_ == "dobj"} | {
            g.lower_ for c in v.children if c.dep_ in ("prep", "dative") for g in c.children if g.dep_ == "pobj"}
        source = source or ("it" in subjects and "they" not in subjects)
        target = target or "it" in objects
    return source, target


@lru_cache(maxsize=4096)
def verb_uses(description: str, word: str) -> tuple[frozenset[str], ...]:
    """What a tool's description says the verb ``word`` is done to, by its parse: for each use, its objects ("the
    prize money it won", "prize money won": money; "the customers it supplies": customer); pronouns say nothing."""
    out = []
    for v in _verbs_of(description, word, ("VERB",)):
        subject = any(c.dep_ in ("nsubj", "nsubjpass") for c in v.children)
        stranded = any(c.dep_ == "prep" and not any(g.dep_ == "pobj" for g in c.children) for c in v.children)
        # the noun a clause describes is its object when the clause has a subject of its own ("the money it won") or
        # is a participle ("money won"), its subject otherwise ("the entries that won"), a preposition's when one is
        # left at the end ("the loft it flew for")
        nouns = [v.head] if not stranded and (v.dep_ == "acl" or (v.dep_ == "relcl" and subject)) else []
        nouns += [c for c in v.children if c.dep_ in ("nsubjpass", "dobj")]
        words = frozenset(stem(n.lemma_.lower()) for n in nouns if n.pos_ in ("NOUN", "PROPN"))
        if words:
            out.append(words)
    return tuple(out)


@lru_cache(maxsize=1024)
def verb_ends(description: str, word: str) -> frozenset[str]:
    """The nouns a tool's description relates the verb ``word`` to, through its object or a preposition left at
    the end of a clause describing them ("the year it opened": year; "the country it is based in": country); the
    time or place a "When"/"Where" question with that verb asks for."""
    out = {w for u in verb_uses(description, word) for w in u}
    for v in _verbs_of(description, word, ("VERB",)):
        stranded = any(c.dep_ == "prep" and not any(g.dep_ == "pobj" for g in c.children) for c in v.children)
        # (the noun right before the clause, which a clause without a relative pronoun follows, whatever noun the
        # parser hung it on: "its rating and the country it is based in")
        before = v.doc[v.left_edge.i - 1] if v.left_edge.i > 0 else None
        if stranded and v.dep_ == "relcl" and before is not None and before.pos_ in ("NOUN", "PROPN"):
            out.add(stem(before.lemma_.lower()))
    return frozenset(out)


def said_of_other_things(r: Relation, ends: set[str], tools: Mapping[str, Mapping[str, Any]]
                         ) -> tuple[str, set[str]] | None:
    """The verb of ``r`` (with its object, no preposition) when the catalog's descriptions say it only of other
    objects than the relation's ends (``ends``, their words): "the pigeon that won the Bourges National" where the
    catalog says "the prize money it won", so winning is of prize money there, and the race's entries (its tool's
    relation) are no pigeons that won it: (the verb, the objects the catalog gives it). None when the catalog does
    not use the verb with an object, or uses it of one of the ends."""
    # (a verb and its object, not a preposition's: "spent with a supplier" says nothing the catalog's "the total it
    # has spent" does not)
    # (both ends said: "pieces were found" says nothing of what found them)
    for w in content(r) if r.via == "verb" and len(r.words) == 1 and r.source and r.target else ():
        uses = [u for spec in tools.values() for u in verb_uses(spec.get("description", ""), w)]
        if uses and not any(word_match(x, e) for u in uses for x in u for e in ends):
            return w, set().union(*uses)
    return None


def reversed_by_description(fr: QuestionFrame, tools: Mapping[str, Mapping[str, Any]]
                            ) -> list[tuple[Relation, str, str]]:
    """The relations between what is asked and a named entity that every tool whose description states them states
    the other way round ("Which associations report to X?" where the tool gives "the parent association it reports
    to", X being the one it is called for): (relation, one such tool, the relation's word)."""
    out = []
    for r in fr.relations:
        receives = r.asked == "source" and bool(r.target_entity)  # "Which associations report to X": X receives
        does = r.asked == "target" and bool(r.source_entity)  # "Which association does X report to": X does
        if r.negated or not (receives or does):
            continue
        for w in content(r):
            # (only a tool about the thing it is called for, whose declared entity is its parameter: there "it" is
            # that thing; in "Customer feeders connected to a substation: ..., the customer it supplies" it is each
            # feeder listed)
            said = [(t, *described_roles(spec.get("description", ""), w)) for t, spec in sorted(tools.items())
                    if _about_its_parameter(spec)]
            said = [(t, src, tgt) for t, src, tgt in said if src or tgt]
            if said and all((src and not tgt) if receives else (tgt and not src) for _t, src, tgt in said):
                out.append((r, said[0][0], w))
                break
    return out


def _about_its_parameter(spec: Mapping[str, Any]) -> bool:
    entities = set(role_columns(spec, "entity"))
    return bool(entities) and entities <= set(spec.get("parameter_columns") or {})
