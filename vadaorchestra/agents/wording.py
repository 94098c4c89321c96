"""The answer in the question's own words: the question restated as a sentence around what was found.

"How many companies does Bank 014 lend to?" is answered "Bank 014 lends to 22 companies."; "Which banks lend to
Company 0527?" "3 banks lend to Company 0527: Bank 003, Bank 011 and Bank 020."; "What is the hourly rate of the
Glacios 2?" "The hourly rate of the Glacios 2 is 95 GBP.". The sentence is made from the question's parse
(:mod:`vadaorchestra.agents.question.parse`): the question phrase is taken out, the inverted auxiliary put back after
the subject ("does Bank 014 lend" → "Bank 014 lends", the verb inflected by lemminflect), and the answer put where the
question phrase stood (as the subject, after the verb, after a stranded preposition "... lend to", or with a
preposition that led the question "In which companies ..."). A question in no shape read here gets no sentence
(``None``): the caller words the answer from the catalog's labels instead.

Labels and units come from the catalog (:func:`column_label`, :func:`column_unit`): ``@label("pred", "column", "words")``
and ``@unit("pred", "column", "unit")`` annotations of a tool, else the column's name as words and no unit.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from vadaorchestra.agents.question.naming import fmt_number, names_unit

if TYPE_CHECKING:
    from vadaorchestra.agents.context import RunContext
    from vadaorchestra.agents.question.parse import Parse, Word

DO = "do"
LISTED = 12  # values written out in a sentence; the rest are counted ("and 9 more"), all of them on the page
_YEAR = re.compile(r"[12]\d{3}|[A-Z][a-z]+ [12]\d{3}")  # "in 2019", "in March 2024"
_IDENTIFIER = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")


@cache
def _inflect():
    import lemminflect

    return lemminflect


def inflect(lemma: str, tag: str) -> str:
    """``lemma`` in the form of the Penn ``tag`` (VBZ, VBD, VBP, NN, NNS); the lemma itself when unknown."""
    forms = _inflect().getInflection(lemma, tag=tag)
    return forms[0] if forms else lemma


@cache
def _articles():
    import inflect as _engine

    return _engine.engine()


def article(words: str) -> str:
    """A noun phrase with its indefinite article, by how its first word sounds ("an hourly rate", "a unit price")."""
    return _articles().a(words)


def noun_for(n: int | None, words: str) -> str:
    """A counted noun phrase as written ("different courses"), its last word singular when ``n`` is 1."""
    parts = words.split()
    if not parts:
        return words
    if n == 1:
        last = parts[-1]
        lemma = _inflect().getLemma(last.lower(), upos="NOUN")
        if lemma and lemma[0] != last.lower():
            parts[-1] = lemma[0] if last.islower() else lemma[0].capitalize()
    return " ".join(parts)


def plural(words: str) -> str:
    """A noun phrase with its last word plural ("borrower": borrowers)."""
    parts = words.split()
    if not parts:
        return words
    forms = _inflect().getInflection(parts[-1].lower(), tag="NNS")
    if forms and not parts[-1].lower().endswith("s"):
        parts[-1] = forms[0]
    return " ".join(parts)


def join(values: Sequence[str], limit: int = LISTED) -> str:
    """ "A", "A and B", "A, B and C"; past ``limit`` values the rest counted."""
    shown = list(values[:limit])
    if len(values) > limit:
        return ", ".join(shown) + f" and {len(values) - limit} more"
    if len(shown) <= 1:
        return "".join(shown)
    return ", ".join(shown[:-1]) + " and " + shown[-1]


def sentence(text: str) -> str:
    text = text.strip().rstrip(",").strip()  # (an apposition that ended the sentence: "X, the courtroom at Y,")
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


# --- the question restated ----------------------------------------------------------------------------------------
def restate(p: Parse, *, names: Sequence[str] | None = None, value: str | None = None,
            n: int | None = None, number: tuple[str, str | None] | None = None) -> str | None:
    """The declarative sentence of the question ``p`` with the answer where the question phrase stood: ``names``
    (the things found: "Bank 003 and Bank 011 lend to ...", or counted, "3 banks lend to ...: A, B and C"), or
    ``value`` (a number of things for a how-many question, an amount, a name) — ``n`` how many things it is, for
    agreement. None when the question is in no shape read here."""
    w = [t for t in p.words if not (t.pos == "PUNCT" and t.text in "?.!")]
    if not w or any(t.text == ";" for t in w):
        return None
    lead = ""
    comma = next((k for k, t in enumerate(w) if t.text == ","), None)
    if comma is not None and w[0].tag in ("IN", "VBG") and comma + 1 < len(w) and w[comma + 1].text.lower() in \
            _QWORDS:
        lead, w = _text(p, w[:comma]) + ", ", w[comma + 1:]  # "In term 2025-2, what proportion ...?"
    # ", as a fraction," between two commas, naming nothing: left out of the sentence
    commas = [k for k, t in enumerate(w) if t.text == ","]
    if len(commas) == 2 and not any(t.entity or t.pos in ("VERB", "AUX") and t.tag in ("VBZ", "VBP", "VBD")
                                    for t in w[commas[0]:commas[1]]):
        w = w[:commas[0]] + w[commas[1] + 1:]
    # "How many lots end up in X, counting every stage?": the clause restated, what follows the comma kept as written
    comma = next((k for k, t in enumerate(w) if t.text == ","), None)
    rest = ""
    if comma is not None:
        if any(t.pos in ("VERB", "AUX") and t.tag in ("VBZ", "VBP", "VBD", "MD") for t in w[comma + 1:]):
            return None  # another clause: each part is restated on its own
        rest, w = ", " + _text(p, w[comma + 1:]), w[:comma]
        if not w:
            return None
    try:
        if p.form in ("wh", "how many", "how much"):
            out = _wh(p, w, names, value, n, number)
        elif w[0].pos in ("NOUN", "ADJ", "DET") and w[0].text.lower() not in _QWORDS:
            out = _fragment(p, w, names, value, n, number)  # "Number of companies where X is a shareholder?"
        elif p.form == "imperative":
            out = _imperative(p, w, names, value, n, number)
        else:
            return None
    except (IndexError, KeyError):
        return None
    if out is None:
        return None
    if rest:
        head, colon, listed = out.partition(": ")
        out = f"{head}{rest}{colon}{listed}"
    if lead:
        out = lead + out
    entities = {t.entity for t in p.words if t.entity}
    if any(e not in out for e in entities):
        return None
    return sentence(out)


def _text(p: Parse, toks: Sequence[Word]) -> str:
    """Tokens as the question writes them (a name as the data spells it), with the question's own spacing between
    consecutive tokens."""
    out = ""
    prev = None
    for t in toks:
        if prev is not None:
            out += p.text[prev.end:t.start] if t.i == prev.i + 1 else " "
        out += t.entity if t.entity is not None else p.text[t.start:t.end]
        prev = t
    return out


def _lower_first(p: Parse, toks: Sequence[Word]) -> str:
    """A phrase moved from the start of the question: its first word in lower case unless it is a name."""
    s = _text(p, toks)
    first = toks[0] if toks else None
    if first is not None and first.entity is None and first.pos != "PROPN" and first.text[:1].isupper() \
            and not first.text.isupper():
        s = s[0].lower() + s[1:]
    return s


class _Asked:
    """What the question phrase says of the thing asked: its noun as written ("inshore lifeboats"), the words after
    it ("of the Light Microscopy Facility"), and whether it is a bare who/what."""

    def __init__(self, p: Parse, toks: list[Word]):
        self.bare = len(toks) == 1
        self.qword = next((t.text.lower() for t in toks if t.text.lower() in _QWORDS), "")
        words = [t for t in toks if t.text.lower() not in _QWORDS and t.text.lower() not in ("many", "much")]
        # "What number of different courses": the noun counted is after "number of"
        self.counted = any(t.text.lower() == "many" for t in toks)
        if len(words) > 2 and words[0].lemma in ("number", "count") and words[1].lemma == "of":
            words = words[2:]
            self.counted = True
        words = [t for t in words if t.pos != "DET"]
        if len(words) > 2 and words[0].pos == "NUM" and words[1].lemma == "of":  # "Which three of the bikes": three bikes
            words = [words[0], *words[2:]]
        # (a hyphen goes on with the phrase: "wheelchair-accessible vehicles")
        head = next((k for k, t in enumerate(words) if t.pos in ("NOUN", "PROPN") and
                     (k + 1 == len(words) or words[k + 1].pos not in ("NOUN", "PROPN") and words[k + 1].tag != "POS"
                      and words[k + 1].text != "-")), None)
        # a share of what follows "of" agrees with it ("87.5 % of the seats are", "59.4 % of X's rating is")
        self.of_plural = False
        if words and words[0].lemma == "of":  # "How much of X's net assets ...": no noun, a part of what follows
            head = None
            self.after_of = _text(p, [t for t in toks if t.i >= words[0].i])
            self.of_plural = next((t.tag in ("NNS", "NNPS") for t in reversed(toks) if t.pos in ("NOUN", "PROPN")),
                                  False)
        self.noun = _text(p, words[:head + 1]) if head is not None else ""
        # what follows the noun as written, determiners kept ("of the seats of X")
        if head is not None:
            tail = [t for t in toks if t.i > words[head].i]
            self.after_of = _text(p, tail) if tail and tail[0].lemma == "of" else ""
        elif not (words and words[0].lemma == "of"):
            self.after_of = ""
        self.numbered = head is not None and any(t.pos == "NUM" or t.lemma in ("top", "first") for t in words[:head])
        self.after = _text(p, words[head + 1:]) if head is not None and head + 1 < len(words) else ""

    def filler(self, names: Sequence[str] | None, value: str | None, n: int | None,
               number: tuple[str, str | None] | None = None) -> tuple[str, str]:
        """(what stands where the question phrase stood, what follows the sentence)."""
        after = f" {self.after}" if self.after else ""
        if number is not None:  # a quantity: its noun names its unit ("How many hours ..."), else the catalog's unit
            said, unit = number
            if self.qword in ("where", "when") and self.bare and not unit:  # "When did X open?": in 2015
                return f"in {said}", ""
            if self.noun and self.counted:
                return f"{said} {noun_for(n, self.noun)}{after}", ""
            if self.noun and self.qword == "how":  # "How much demand": 80.5 MW of demand
                return (f"{said} {unit} of {self.noun}{after}" if unit else f"{self.noun}{after} of {said}"), ""
            amount = f"{said} {unit}" if unit else said
            if said.endswith("%") and self.after_of:  # "What share of the seats ...": 87.5 % of the seats
                return f"{said} {self.after_of}", ""
            if self.noun and self.qword in ("what", "which"):  # "What total tonnage did X send": a total tonnage of
                return f"{article(self.noun)} of {amount}{after}", ""
            return amount, ""
        if value is not None:
            return value, ""
        names = list(names or [])
        if not names:
            if self.bare or not self.noun:
                return "no one" if self.bare else "nothing", ""
            return f"no {self.noun}{after}", ""
        if self.qword in ("where", "when") and self.bare:
            said = join(names)
            prep = "in" if self.qword == "where" or _YEAR.fullmatch(said) else "on"
            return f"{prep} {said}", ""
        if not self.noun and self.after_of and self.qword == "which" and \
                self.after_of.lower() not in ("of them", "of those", "of these"):  # "Which of X's stations sits ...?"
            return f"{join(names)}, {self.after_of},", ""
        if self.bare or not self.noun or (len(names) <= 2 and not self.after):
            return join(names), ""
        if self.numbered:  # "Which three instruments ...": the three instruments
            return f"the {self.noun}{after}", f": {join(names)}"
        if len(names) == 1:  # "Greystone Court 4, the courtroom at Greystone Crown Court, seats the most people"
            return f"{names[0]}, the {noun_for(1, self.noun)}{after},", ""
        return f"{len(names)} {noun_for(len(names), self.noun)}{after}", f": {join(names)}"


def _wh_span(p: Parse, w: list[Word]) -> tuple[Word | None, int, int] | None:
    """(the preposition leading the question, where the question word is, the index in ``w`` after the question
    phrase): the phrase runs to the first verb."""
    k = 0
    lead = None
    if w[0].tag == "IN" and len(w) > 1 and w[1].text.lower() in _QWORDS:
        lead, k = w[0], 1
    if w[k].text.lower() not in _QWORDS:
        return None
    end = k + 1
    if w[k].text.lower() in ("which", "how", "whose") or (w[k].text.lower() == "what" and len(w) > k + 1 and
                                                           w[k + 1].pos not in ("AUX", "VERB")):
        # (a participle modifying the noun after it is the phrase's: "how many registered beds")
        while end < len(w) and (w[end].pos not in ("AUX", "VERB") or (
                w[end].dep == "amod" and w[end].head > w[end].i)):
            end += 1
    return lead, k, end


def _np_end(w: list[Word], j: int) -> int:
    """The index after the noun phrase starting at ``w[j]``: a name (and its "'s ..."), or determiners, numbers,
    adjectives and nouns up to the noun ("the Glacios 2", "Bank Gamma's largest exposures", "it")."""
    if w[j].pos == "PRON" and w[j].tag != "PRP$":
        return j + 1
    k = j
    seen_noun = False
    while k < len(w):
        t = w[k]
        if seen_noun and k > j and w[k - 1].entity is not None and t.tag != "POS":
            break  # a name ends its phrase unless "'s" follows ("Maria place": place is the verb)
        if t.entity is not None or t.pos in ("PROPN", "NOUN", "NUM"):
            seen_noun = True
        elif t.tag == "POS":
            seen_noun = False
        elif t.pos in ("DET", "ADJ") or t.tag == "PRP$" or (t.pos == "PUNCT" and t.text == "-"):
            if seen_noun:
                break
        else:
            break
        k += 1
    return k if seen_noun else j


def _agree(t: Word, n: int | None) -> str:
    """A present-tense verb (or auxiliary) agreeing with ``n`` things."""
    if n is None or t.tag not in ("VBZ", "VBP"):
        return t.text
    tag = "VBZ" if n == 1 else "VBP"
    if t.tag == tag:
        return t.text
    if t.lemma == "be":
        return "is" if n == 1 else "are"
    return inflect(t.lemma, tag)


def _verb_after(rest: list[Word], e: int) -> int | None:
    """The main verb right after the subject ending at ``e`` (adverbs and "not" between), if one is there."""
    g = e
    while g < len(rest) and (rest[g].pos in ("ADV", "PART") or rest[g].lemma == "not"):
        g += 1
    if g < len(rest) and rest[g].pos in ("VERB", "AUX") and rest[g].tag.startswith("VB"):
        if rest[g].dep == "acl" and any(t.i == rest[g].head for t in rest[:e]):
            return None  # a participle of the subject's noun, not the clause's verb ("the fee paid by X")
        return g
    # the tagger may read a bare verb after a name as a noun ("did X place with Y")
    if g < len(rest) and rest[g].pos == "NOUN" and rest[g].tag == "NN" and (g + 1 == len(rest) or
                                                                          rest[g + 1].pos == "ADP"):
        return g
    return None


def _wh(p: Parse, w: list[Word], names, value, n, number=None) -> str | None:
    span = _wh_span(p, w)
    if span is None:
        return None
    lead, k, j = span
    if j >= len(w):
        return None
    asked = _Asked(p, w[k:j])
    filler, tail = asked.filler(names, value, n, number)
    n_agree = n if value is None or asked.noun else 1
    if number is not None and number[0].endswith("%") and asked.after_of and not asked.noun:
        n_agree = 2 if asked.of_plural else 1
    rest = w[j:]
    head = rest[0]
    if head.lemma == "be" and len(rest) > 1 and rest[1].text.lower() == "there":  # "How many X are there ...?"
        be = _agree(head, n_agree) if head.tag != "VBD" else ("was" if n_agree == 1 else "were")
        return f"there {be} {filler} {_text(p, rest[2:])}".strip() + tail
    inverted = None
    if head.pos in ("AUX", "VERB") and len(rest) > 1 and _starts_np(rest[1]):
        e = _np_end(rest, 1)
        g = _verb_after(rest, e) if 1 < e < len(rest) else None
        verb = next((x for x, t in enumerate(rest) if t.i == head.head and x > 1), None)
        if head.lemma == DO and g is None and verb is not None and head.dep == "aux":
            e, g = verb, verb  # the verb "did" helps, as the parse has it ("did X's crew claim")
        if head.lemma == DO and g is None and 1 < e < len(rest) and rest[e].pos == "NOUN" and rest[e].tag == "NN":
            # after "did X" comes the verb, whatever the tagger says ("did X bill claims for"); unless the noun is
            # the subject of a verb after it ("did the Payments team use": the team is X's, "use" the verb)
            # (a base form, as after "did": not "bill claims for", a plural the tagger took for a verb)
            later = next((x for x in range(e + 1, len(rest)) if rest[x].pos == "VERB" and rest[x].tag in ("VB", "VBP")
                          and rest[e].dep == "nsubj" and rest[e].head == rest[x].i), None)
            e, g = (later, later) if later is not None else (e, e)
        if head.lemma == DO and g is not None:
            inverted = (e, g)
        elif head.lemma != DO and g is not None and rest[g].tag.startswith("VB"):
            inverted = (e, g)  # "has X received", "is X located", "can X borrow"
        elif head.lemma == "be" and (rest[-1].pos == "ADP" or asked.bare or lead is not None):
            inverted = (e, None)  # a copula: "Which kiosks is X the manager of?", "What is the rate of X?"
        elif head.lemma == "be" and g is None and asked.noun and not asked.counted and e > 1 and \
                all(t.pos == "PUNCT" for t in rest[e:]):
            # "What size is plot X?": the size of plot X is 300 m² (not "a size of 300 m² are plot X")
            said = (f"{number[0]} {number[1]}" if number[1] else number[0]) if number is not None else \
                value if value is not None else join(list(names or [])) or "none"
            return f"the {asked.noun} of {_text(p, rest[1:e])} {_agree(head, 1)} {said}{tail}"
    if inverted is not None:
        aux = head
        e, g = inverted
        if g is None:
            if rest[-1].pos == "ADP" and e > 1 and not asked.bare:  # "Which kiosks is X the manager of?"
                return f"{_text(p, rest[1:e])} {_spelt(aux)} {_text(p, rest[e:])} {filler}{tail}"
            subject = _lower_first(p, rest[1:])
            lead_text = f"{lead.text.lower()} " if lead is not None else ""
            return f"{subject} {_spelt(aux)} {lead_text}{filler}{tail}"
        subject = _text(p, rest[1:e])
        verb = rest[g]
        negated = any(t.lemma == "not" for t in rest[e:g])
        after = rest[g + 1:]
        parts = 0
        while parts < len(after) and after[parts].tag == "RP" and not (
                parts + 1 < len(after) and after[parts + 1].pos in ("NOUN", "DET")):  # "carry in total": no particle
            parts += 1
        lemma = verb.lemma if verb.pos != "NOUN" else verb.text.lower()
        if aux.lemma == DO and not negated:
            tag = {"VBD": "VBD", "VBZ": "VBZ"}.get(aux.tag, "VBP")
            verbs = " ".join([*(t.text for t in rest[e:g]), inflect(lemma, tag)])
        else:
            verbs = " ".join([_spelt(aux), *(t.text for t in rest[e:g]), verb.text])
        tail_text = _text(p, after) if after else ""
        # (or an adverb the relations read as a stranded preposition: "does X come under")
        prepositions = {r.tokens[-1] for r in p.relations if r.tokens and len(r.words) > 1}
        stranded = next((x for x, t in enumerate(after) if (t.tag == "IN" or t.i in prepositions) and (
            x + 1 == len(after) or after[x + 1].tag == "IN")), None)
        if lead is not None:
            body = f"{verbs} {tail_text} {lead.text.lower()} {filler}"
        elif stranded is not None:  # "... lend to", "booked for in March 2024"
            body = f"{verbs} {_text(p, after[:stranded + 1])} {filler} {_text(p, after[stranded + 1:])}"
        else:
            moved = _text(p, after[:parts]) if parts else ""
            body = f"{verbs} {moved} {filler} {_text(p, after[parts:]) if after[parts:] else ''}"
        return re.sub(r"\s+", " ", f"{subject} {body}").strip() + tail
    if lead is not None:
        return None
    verb_at = next((x for x, t in enumerate(rest) if t.tag.startswith("VB")), None)
    if verb_at is None or verb_at > 1:
        return None
    out: list[str] = [filler]
    run: list[Word] = []
    for x, t in enumerate(rest):
        if x == verb_at:
            if run:
                out.append(_text(p, run))
                run = []
            out.append(_agree(t, n_agree))
        else:
            run.append(t)
    if run:
        out.append(_text(p, run))
    return " ".join(out) + tail


def _spelt(aux: Word) -> str:
    """An auxiliary written out when the question contracted it ("What's": is; "Who've": have)."""
    return inflect(aux.lemma, aux.tag) if aux.text.startswith("'") else aux.text


_QWORDS = frozenset("which what who whom whose how where when".split())


def _starts_np(t: Word) -> bool:
    return t.entity is not None or t.pos in ("DET", "PROPN", "NOUN", "PRON", "ADJ", "NUM") or t.tag == "PRP$"


def _fragment(p: Parse, w: list[Word], names, value, n, number=None) -> str | None:
    """A question written as a noun phrase: the phrase is the subject, the answer what it is."""
    subject = _lower_first(p, w)
    if number is not None:
        value = f"{number[0]} {number[1]}" if number[1] else number[0]
    if value is None:
        names = list(names or [])
        value = join(names) if names else "none"
    plural = w[0].tag == "NNS" and w[0].lemma not in ("number", "count", "total")
    return f"the {subject} {'are' if plural else 'is'} {value}" if w[0].pos != "DET" else \
        f"{subject} {'are' if plural else 'is'} {value}"


def _imperative(p: Parse, w: list[Word], names, value, n, number=None) -> str | None:
    k = 1
    while k < len(w) and (w[k].pos == "PRON" and w[k].text.lower() in ("me", "us") or w[k].tag == "RP"):
        k += 1  # "Give me ...", "Sum up ..."
    if k >= len(w) or not _starts_np(w[k]):
        return None
    subject = _lower_first(p, w[k:])
    if number is not None:
        value = f"{number[0]} {number[1]}" if number[1] else number[0]
    if value is not None:
        if p.question_word in ("sum", "total", "add", "calculate", "compute") and number is not None:
            return f"{subject} add up to {value}"
        if p.question_word == "count":
            return f"the number of {_text(p, [t for t in w[k:] if not (t.i == w[k].i and t.pos == 'DET')])} is " \
                   f"{value}"
        return f"{subject} is {value}"
    names = list(names or [])
    plural = len(names) != 1
    return f"{subject} {'are' if plural else 'is'} {join(names) if names else 'none'}"


def asked_phrase(p: Parse) -> str:
    """The phrase asked for as the question writes it, with its possessor ("Bank Gamma's largest exposures")."""
    if p.asked is None:
        return ""
    ph = p.phrases[p.asked]
    toks = set(ph.tokens)
    if ph.possessor is not None:
        toks |= set(p.phrases[ph.possessor].tokens)
        toks |= {t.i for t in p.words if t.tag == "POS" and min(toks) <= t.i <= max(toks)}
    words = [t for t in p.words if min(toks) <= t.i <= max(toks) and t.pos != "DET" or t.i in toks and t.pos != "DET"]
    words = [t for t in words if t.text.lower() not in _QWORDS]
    return _text(p, sorted(words, key=lambda t: t.i))


# --- labels and units from the catalog ----------------------------------------------------------------------------
def catalog_notes(ctx: RunContext, pred: str) -> dict[str, Any]:
    """The labels and units a tool declares for its output ``pred``: ``{"labels": {col: words}, "units": {col:
    unit}}`` (from ``list_tools``)."""
    for spec in ctx.tools.values():
        if spec.get("output_predicate") == pred:
            return {"labels": dict(spec.get("labels") or {}), "units": dict(spec.get("units") or {})}
    return {"labels": {}, "units": {}}


def column_label(ctx: RunContext, pred: str | None, column: str) -> str:
    """A column in words: the catalog's label (of ``pred``'s column, or of any tool's column of that name when no
    predicate is given), else its name as words (its one-letter or declared unit dropped)."""
    notes = catalog_notes(ctx, pred) if pred else {"labels": {}, "units": {}}
    if pred is None:
        for spec in ctx.tools.values():
            if column in (spec.get("labels") or {}):
                return spec["labels"][column]
    if column in notes["labels"]:
        return notes["labels"][column]
    parts = column.split("_")
    u = notes["units"].get(column)
    if len(parts) > 1 and (len(parts[-1]) == 1 or (u and parts[-1].lower() == u.lower())):
        parts = parts[:-1]
    return " ".join(parts)


def percent(x: float) -> str:
    """A share as a percentage: one decimal ("30.8 %"), two when one would show it as zero."""
    for digits in (1, 2, 3):
        s = f"{x:.{digits}f}".rstrip("0").rstrip(".")
        if s not in ("0", "-0") or x == 0:
            return f"{s} %"
    return f"{x:.3g} %"


def words_of(text: str) -> str:
    """Identifiers in a text as words ("boat_allowance" → "boat allowance", "get_unit_details" → "unit details")."""
    return _IDENTIFIER.sub(lambda m: re.sub(r"^get ", "", m.group(0).replace("_", " ")), text)


# --- the answer of one query ----------------------------------------------------------------------------------------
def column_unit(ctx: RunContext, column: str, tools: Sequence[str] = ()) -> str | None:
    """The unit the catalog declares for the tool output column a column comes from: the query's tools first, then
    the catalog's; a derived column ("total_amount", "max_rate_gbp", "average_fee_gbp") is its measure's."""
    names = [column, *(column.split("_", 1)[1:] if column.split("_", 1)[0] in ("total", "max", "min", "sum", "average") else [])]
    order = [*tools, *(t for t in ctx.tools if t not in tools)]
    for name in reversed(names):
        for tool in order:
            spec = ctx.tools.get(tool) or {}
            if any(c.get("name") == name for c in spec.get("schema", ())) and (u := (spec.get("units") or {}).get(name)):
                return u
    return None


def shown(ctx: RunContext, value: Any, column: str | None, tools: Sequence[str] = (), with_unit: bool = True) -> str:
    """A value of the answer as written: a number with its unit, a share as a percentage, a name as it is."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    if column in ("share", "share_pct") or (column or "").endswith("_share") or (column or "").startswith("share_of"):
        return percent(value * 100 if column != "share_pct" else value)
    text = fmt_number(value) if abs(value) >= 1e4 or float(value).is_integer() else f"{value:.6g}"
    u = column_unit(ctx, column, tools) if column and with_unit else None
    return f"{text} {u}" if u else text


def say(ctx: RunContext, values: Sequence[Any], *, column: str | None, tools: Sequence[str] = (),
        count: bool = False, fallback: str = "") -> str:
    """The answer of one question (or one part) as a sentence restating it; ``fallback`` (what was computed, in
    words) with the values when the question is in no shape :func:`restate` reads."""
    from vadaorchestra.agents.question import frame

    fr = frame.of(ctx)
    p = fr.parse
    numbers = [v for v in values if isinstance(v, int | float) and not isinstance(v, bool)]
    text: str | None = None
    if p is not None:
        if count and len(values) == 1 and numbers:
            n = int(numbers[0])
            text = restate(p, number=(f"{n:,}", None), n=n)
        elif len(values) == 1 and numbers:
            v = numbers[0]
            said = shown(ctx, v, column, tools, with_unit=False)
            u = column_unit(ctx, column, tools) if column and "%" not in said else None
            text = restate(p, number=(said, u), n=1 if v == 1 else 2)
            bare = restate(p, number=(said, None), n=1 if v == 1 else 2) if u and _named_by_noun(fr.question, u) \
                else None
            if bare is not None and _named_by_noun(bare, u):
                text = bare  # "the combined length in kilometres ... is 13.9" (when the sentence still says it)
        elif values and len(numbers) == len(values):
            text = restate(p, value=join([shown(ctx, v, column, tools) for v in values]), n=len(values))
        else:
            text = restate(p, names=[str(v) for v in values], n=len(values))
    if text is not None:
        return text
    written = [shown(ctx, v, column, tools) for v in values]
    what = words_of(fallback).strip() or "found"
    return sentence(f"{what}: {join(written, limit=len(written)) if written else 'none'}")


def affirm(p: Parse | None, yes: bool) -> str | None:
    """A yes/no question answered as a sentence: "Is X over its quota?" → "Yes, X is over its quota." / "No, X is not
    over its quota."; None when it is in no such shape."""
    if p is None or p.form != "yes-no":
        return None
    w = [t for t in p.words if not (t.pos == "PUNCT" and t.text in "?.!")]
    if len(w) < 3 or w[0].pos not in ("AUX", "VERB") or not _starts_np(w[1]):
        return None
    aux = w[0]
    if aux.lemma == DO:  # the subject runs to the verb ("Did the March bookings of X go over ...?")
        e = next((k for k in range(2, len(w)) if w[k].pos == "VERB" and w[k].tag in ("VB", "VBP")), len(w))
    else:
        e = _np_end(w, 1)
        while e + 1 < len(w) and w[e].lemma in ("of", "in", "at") and _starts_np(w[e + 1]):
            e = max(e + 1, _np_end(w, e + 1))  # "Is the total of X's loans ..."
    if e <= 1 or e >= len(w) or any(t.pos == "PUNCT" and t.text in ",;" for t in w):
        return None
    subject, rest = _text(p, w[1:e]), _text(p, w[e:])
    said = f"{_spelt(aux).lower()}{'' if yes else ' not'}"
    if aux.lemma == DO and yes:
        g = _verb_after(w, e)
        if g is None:
            return None
        tag = {"VBD": "VBD", "VBZ": "VBZ"}.get(aux.tag, "VBP")
        lemma = w[g].lemma if w[g].pos != "NOUN" else w[g].text.lower()
        before = _text(p, w[e:g])
        rest = " ".join(x for x in (before, inflect(lemma, tag), _text(p, w[g + 1:])) if x)
        said = ""
    entities = {t.entity for t in p.words if t.entity}
    out = re.sub(r"\s+", " ", f"{'Yes' if yes else 'No'}, {subject} {said} {rest}").strip()
    return None if any(e not in out for e in entities) else sentence(out)


def refusal(problems: Sequence[str], answer: str = "") -> str:
    """ "could not answer: <why, in words>", then the same with the catalog's identifiers (``details:``) when they
    differ, then the answer that was refused."""
    said = "; ".join(problems)
    out = f"could not answer: {words_of(said)}"
    if words_of(said) != said:
        out += f"\ndetails: {said}"
    if answer:
        out += f"\n(the refused answer was: {' '.join(answer.split())})"
    return out


def plain(ctx: RunContext, text: str) -> str:
    """A model's answer with the catalog's identifiers it wrote (a column, a tool, a predicate: ``limit_amount``) put
    in words (the column's label), recorded as an event; names of the data and the question's own words are kept."""
    names: dict[str, str] = {}
    for spec in ctx.tools.values():
        names[spec.get("name", "")] = words_of(spec.get("name", ""))
        names[spec.get("output_predicate", "")] = words_of(spec.get("output_predicate", ""))
        for c in spec.get("schema", ()):
            names[c["name"]] = column_label(ctx, spec.get("output_predicate"), c["name"])
    for view in ctx.predicates.values():
        names.setdefault(view.name, words_of(view.name))
        for c in view.columns:
            names.setdefault(c, column_label(ctx, None, c))
    found = [m.group(0) for m in _IDENTIFIER.finditer(text) if m.group(0) in names
             and m.group(0) not in ctx.question]
    if not found:
        return text
    ctx.event("answer_identifiers", identifiers=sorted(set(found)))
    return _IDENTIFIER.sub(lambda m: names[m.group(0)] if m.group(0) in found else m.group(0), text)


# --- what an answer an analyst can forward does not contain -------------------------------------------------------
_DOUBLED = re.compile(r"\b([A-Za-z]+)\s+\1\b", re.I)
_FRACTION = re.compile(r"(?<![\w.])(-?0\.\d+)(?![\w.%])")


def prose(answer: str) -> str:
    """The part of an answer a reader is meant to read: a refusal's reason, without its details and the answer it
    refused."""
    lines = []
    for line in answer.splitlines():
        if line.startswith(("details:", "(the refused answer was:")):
            continue
        lines.append(line)
    return "\n".join(lines)


def lint(answer: str, ctx: RunContext) -> list[str]:
    """What keeps an answer from being forwarded as it is: an identifier (``limit_amount``), a doubled word ("total
    total"), a share written as a fraction (0.16375), an amount without the unit its catalog declares. Words and names
    of the question and the data are not counted against it."""
    from vadaorchestra.agents import verify

    text = prose(answer)
    question = ctx.question
    names = {str(v) for view in ctx.answer_predicates() for f in view.facts for v in f.values() if isinstance(v, str)}
    problems = []
    for m in _IDENTIFIER.finditer(text):
        if m.group(0) not in question and not any(m.group(0) in n for n in names):
            problems.append(f"identifier {m.group(0)!r}")
    for m in _DOUBLED.finditer(text):
        if m.group(0).lower() not in question.lower() and not any(m.group(0) in n for n in names):
            problems.append(f"doubled word {m.group(0)!r}")
    shares = {round(float(f[c]), 9) for view in ctx.answer_predicates() for f in view.facts for c in f
              if isinstance(f[c], float) and ("share" in c or "ratio" in c) and 0 < abs(f[c]) < 1}
    for m in _FRACTION.finditer(text):
        if round(float(m.group(1)), 9) in shares or any(abs(float(m.group(1)) - s) < 5e-4 for s in shares):
            problems.append(f"share written as a fraction {m.group(1)!r}")
    units = {(spec.get("output_predicate"), col): u for spec in ctx.tools.values()
             for col, u in (spec.get("units") or {}).items()}
    # numbers that are no amounts: how many things the answer names or counts, names made of digits ("route 17")
    counts = {float(len(v or [])) for v in [ctx.answer_values, *(ctx.answer_parts or [])]}
    counts |= {float(v) for vs in [ctx.answer_values or [], *(ctx.answer_parts or [])] for v in vs or []
               if isinstance(v, int) and not isinstance(v, bool)}
    # numbers a column without a unit holds too (a limit of 90 sailings, where a crossing also takes 90 min): which
    # of the two the figure is, the text says, not the value
    def unitless(c: str) -> bool:
        return not any(col == c or c.endswith(f"_{col}") for (_p, col) in units)

    plain = {float(f[c]) for view in ctx.answer_predicates() for f in view.facts for c in f
             if isinstance(f[c], int | float) and not isinstance(f[c], bool) and unitless(c)}
    if units and not answer.startswith("could not answer"):
        for fig in verify.answer_figures(text, ctx):
            u = units.get((fig["predicate"], fig["column"])) or next(
                (u for (p, c), u in units.items() if c == fig["column"] or fig["column"].endswith(f"_{c}")), None)
            number = fig["text"].rstrip(",")
            if u is None or not any(ch.isdigit() for ch in number) or number in names:
                continue
            try:
                if float(number.replace(",", "")) in counts | plain:
                    continue
            except ValueError:
                pass
            around = text[max(0, fig["start"] - len(u) - 2):fig["start"] + len(fig["text"]) + len(u) + 2]
            if u.lower() not in around.lower() and not _named_by_noun(question, u):
                problems.append(f"amount {fig['text'].rstrip(',')!r} without its unit {u!r}")
    return problems


def _named_by_noun(question: str, unit: str) -> bool:
    """ "How many hours ...": the question's noun is the unit, and the restated answer says it (written out in full
    for an abbreviated unit: "build minutes" for "min")."""
    tail = r"[a-z]*" if unit.isalpha() else ""
    if re.search(rf"(?<!\w){re.escape(unit)}{tail}(?!\w)", question, re.I) is not None:
        return True
    return names_unit(re.findall(r"[A-Za-z]{2,}", question), unit)
