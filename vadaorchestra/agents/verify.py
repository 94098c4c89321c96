"""The Verifier's checks that are not the plan's: a lint for synthesized rules and the answer's grounding.

- :func:`lint_rules`: an aggregate whose bindings cannot tell two contributions apart merges equal values (set
  semantics): ``t(K, T) :- m(K, _, A), T = sum(A).`` sums the *distinct* amounts of K. The lint asks for a named
  variable that identifies each contribution.
- :func:`check_answer`: every number and every named entity in the answer must be a derived fact of a high-level
  or synthesized predicate the agents retrieved (numbers compared at the precision the answer shows them).
"""

from __future__ import annotations

import calendar
import math
import re
from functools import lru_cache
from typing import Any

from vadaorchestra.agents.context import PredicateView, RunContext
from vadaorchestra.agents.question import frame, periods
from vadaorchestra.agents.question import parse as P
from vadaorchestra.agents.question.frame import stem, terms, word_match
from vadaorchestra.agents.question.naming import (
    bound_columns,
    head_named,
    label_named,
    names_unit,
    same_unit,
    says_together,
    seq,
    thing,
    unit_of,
)
from vadaorchestra.agents.wording import LISTED
from vadaorchestra.datalog import ast as A
from vadaorchestra.datalog.lint import merging_aggregates
from vadaorchestra.datalog.parser import parse
from vadaorchestra.errors import VadaError

_NUMBER = re.compile(r"(?<![\w.])(-?\d[\d,]*(?:\.\d+)?)\s*([MKk%]|million|thousand)?(?![\w])")
_ENTITY = re.compile(r"\b[A-Z][\w&'.-]*(?:\s+(?:[A-Z][\w&'.-]*|of|de|di|and|&))*\s+[A-Z][\w&'.-]*\b|\b[A-Z][a-z]+[A-Z]\w*\b")


def lint_rules(program: str) -> list[str]:
    """Problems of synthesized rules the engine would accept but that likely compute the wrong thing (the server's
    validation reports the same, located; checked here first so that a policy can repair without a round trip)."""
    try:
        prog = parse(program, "<program>")
    except VadaError:
        return []  # the server's validation reports syntax errors with their location
    return [f"line {d.span.line}: {d.message}" if d.span else d.message for d in merging_aggregates(prog)]


def _facts_values(ctx: RunContext) -> tuple[list[float], set[str]]:
    numbers: list[float] = []
    strings: set[str] = set()
    for view in ctx.answer_predicates():
        for fact in view.facts:
            for v in fact.values():
                if isinstance(v, bool):
                    continue
                if isinstance(v, (int, float)):
                    numbers.append(float(v))
                elif isinstance(v, str):
                    strings.add(v)
    return numbers, strings


def check_findings(answer: str, ctx: RunContext) -> list[str]:
    """Positive findings of threshold checks that the answer leaves out.

    A synthesized predicate whose purpose is a threshold check and that holds facts found something above a limit:
    an answer that names none of the entities of such a fact (beyond those the question names) omits a breach, and
    a grounded answer that omits one is still wrong.
    """
    problems = []
    text = answer.lower()
    for view, fact, names in findings(ctx):
        if names and not any(n.lower() in text for n in names):
            shown = ", ".join(f"{k}={v}" for k, v in fact.items())
            problems.append(f"the answer omits what the threshold check {view.name} found: {shown}")
    return problems


def findings(ctx: RunContext) -> list[tuple[PredicateView, dict, list[str]]]:
    """Every fact a threshold check found, with the names in it that the question does not already name."""
    out = []
    question = ctx.question.lower()
    for s in ctx.synthesized:
        view = ctx.predicates.get(s.output)
        if view is None or not view.facts or s.kind != "threshold_check":
            continue
        for fact in view.facts:
            out.append((view, fact, [v for v in fact.values() if isinstance(v, str) and v.lower() not in question]))
    return out


def _known(name: str, strings: set[str], question: str) -> bool:
    n = name.lower()
    return n in strings or n in question or any(n in s for s in strings)


def _answer_numbers(answer: str, strings: set[str], question: str):
    """The numbers written in an answer: (match, value meant, value shown, suffix, tolerance of the rounding).

    Digits inside names of the facts or the question ("Company 000042") are part of an entity, not numbers."""
    # the question's own words around its numbers, restated by the answer ("booked in March 2024", "more than £50")
    said = [w.strip(",;:()\"") for w in question.rstrip("?.! ").split()]  # "in March 2024, and ..."
    restated = {" ".join(said[i:i + k]) for k in (2, 3) for i in range(len(said) - k + 1)
                if any(c.isdigit() for c in " ".join(said[i:i + k]))}
    # (each name found in the answer as written, so that overlapping ones are all masked: "stations in Q3" and
    # "Q3 2024" of "... stations in Q3 2024")
    hidden = [False] * len(answer)
    for name in strings | restated | set(re.findall(r"[A-Z][\w&'.-]*(?:\s+[\w&'.-]+)*\s+\d+", question)):
        if len(name) >= 3 and not _NUMBER.fullmatch(name):
            for m in re.finditer(re.escape(name), answer, flags=re.I):
                hidden[m.start():m.end()] = [True] * (m.end() - m.start())
    masked = "".join("#" if h else c for c, h in zip(answer, hidden, strict=True))
    for m in _NUMBER.finditer(masked):
        raw, suffix = m.group(1), m.group(2)
        try:
            shown = float(raw.replace(",", ""))
        except ValueError:
            continue
        decimals = len(raw.split(".")[1]) if "." in raw else 0
        scale = {"M": 1e6, "million": 1e6, "K": 1e3, "k": 1e3, "thousand": 1e3}.get(suffix or "", 1.0)
        yield m, shown * scale, shown, suffix, 0.5 * 10 ** (-decimals) * scale


def _supports(value: float, target: float, shown: float, suffix: str | None, tolerance: float) -> bool:
    """A number shown supports a fact's value at the precision shown; a percentage, a value in percent or a ratio
    (a share of 0.375 written "37.5 %")."""
    return math.isclose(target, value, abs_tol=tolerance + 1e-9) or \
        (suffix == "%" and (math.isclose(shown, value, abs_tol=tolerance)
                            or math.isclose(shown, value * 100, abs_tol=tolerance + 1e-9)))


def check_answer(answer: str, ctx: RunContext) -> list[str]:
    """Numbers and entities of the answer that no retrieved fact supports (empty when grounded)."""
    numbers, strings = _facts_values(ctx)
    numbers += [float(v.cardinality) for v in ctx.predicates.values()]  # how many facts: what coverage statements cite
    numbers += [c.value for c in frame.of(ctx).conditions]  # a condition of the question, restated ("above 4.0")
    numbers += [float(x) for x in strings if re.fullmatch(r"\d+(?:\.\d+)?", x)]  # a name of digits ("route 119")
    # how many things the answer names ("3 banks lend to X: A, B and C"), and how many a long list leaves unnamed
    for values in [ctx.answer_values or [], *(ctx.answer_parts or [])]:
        k = len({str(v) for v in values or []})
        numbers += [float(k)] + ([float(k - LISTED)] if k > LISTED else [])
    problems = []
    for m, target, shown, suffix, tolerance in _answer_numbers(answer, strings, ctx.question):
        if not any(_supports(v, target, shown, suffix, tolerance) for v in numbers):
            problems.append(f"the number {m.group(0).strip()!r} is not a derived fact")
    lowered = {s.lower() for s in strings}
    question = ctx.question.lower()
    vocabulary = _vocabulary(ctx)
    for m in _ENTITY.finditer(answer):
        # a match may run over a sentence's end ("NeuralLinker SpA. These") or join two names ("DeepLogic Ltd and
        # NeuralLinker SpA"): a match that is no fact is checked part by part
        for part in (p.strip(" .") for p in re.split(r"\.\s+", m.group(0))):
            names = [part] if _known(part, lowered, question) else \
                [n.strip() for n in re.split(r"\s+(?:and|&)\s+", part)]
            for name in names:
                name = _unlabelled(re.sub(r"['\u2019]s?$", "", name), lowered, question, vocabulary)  # "X's rate"
                if name and _ENTITY.fullmatch(name) and not _known(name, lowered, question):
                    problems.append(f"the entity {name!r} is not in any derived fact")
    return problems


def _vocabulary(ctx: RunContext) -> set[str]:
    """The words of the catalog (tool names and descriptions, columns, labels) and of the question, in lower case."""
    words = set(re.findall(r"[a-z]+", ctx.question.lower()))
    for spec in ctx.tools.values():
        text = " ".join([spec.get("name", ""), spec.get("description", ""), spec.get("output_predicate", ""),
                         *(c.get("name", "") for c in spec.get("schema", ())),
                         *(spec.get("labels") or {}).values()])
        words |= set(re.findall(r"[a-z]+", text.lower().replace("_", " ")))
    return words


def _unlabelled(name: str, strings: set[str], question: str, vocabulary: set[str]) -> str:
    """A run of capitalised words read as one name, taken apart at "of" when it is not one: each piece a known name,
    or a capitalised word of the catalog or the question that starts a sentence ("Beat of Upper Kettle Zone: ...",
    "Vega Foods of Delta Balanced Fund"). Empty when every piece is accounted for; the name itself otherwise."""
    if _known(name, strings, question):
        return name
    pieces = re.split(r"\s+of\s+", name)
    if len(pieces) > 1 and all(_known(x, strings, question) or (k == 0 and " " not in x and x.lower() in vocabulary)
                               for k, x in enumerate(pieces)):
        return ""
    return name


def answer_figures(answer: str, ctx: RunContext) -> list[dict]:
    """For each number and each entity of the answer, the fact it was read from: ``{"text", "predicate", "fact"
    (values in schema order), "column"}``. Of the facts holding the value, the one naming most of the entities of the
    figure's sentence is taken, and among those the one of the predicate derived last (a threshold check's fact
    before the aggregate it checks): the fact whose explanation covers the most of what the sentence says."""
    order = {name: i for i, name in enumerate(ctx.predicates)}
    candidates = [(view, fact) for view in ctx.answer_predicates() for fact in view.facts]
    _numbers, strings = _facts_values(ctx)
    # a sentence ends at a full stop before a space or the end, or at a line's end ("13.1M" does not end one)
    sentences = [(m.start(), m.end()) for m in re.finditer(r"(?:[^.!?\n]|[.!?](?!\s|$))+[.!?]?", answer)]

    def sentence(pos: int) -> str:
        return next((answer[a:b] for a, b in sentences if a <= pos < b), answer).lower()

    def best(matches: list[tuple[PredicateView, dict, str]], pos: int, target: float | None = None
             ) -> tuple[PredicateView, dict, str] | None:
        if not matches:
            return None
        here = sentence(pos)

        def score(m: tuple[PredicateView, dict, str]) -> tuple:
            names = [v.lower() for v in m[1].values() if isinstance(v, str)]
            named = sum(1 for v in names if v in here)
            # (and the words of the figure's column the sentence says: "135 hours of sunshine" is the sunshine
            # hours averaged, not a month's rainfall of 135 mm in a fact naming the station)
            said = sum(1 for t in terms(m[2]) if len(t) > 2 and re.search(rf"\b{re.escape(t)}", here))
            off = abs(float(m[1][m[2]]) - target) if target is not None else 0.0
            return named + said, named - len(names), -off, order.get(m[0].name, 0)
        return max(matches, key=score)

    out = []
    for m, target, shown, suffix, tolerance in _answer_numbers(answer, strings, ctx.question):
        found = best([(view, fact, col) for view, fact in candidates for col, v in fact.items()
                      if isinstance(v, int | float) and not isinstance(v, bool)
                      and _supports(float(v), target, shown, suffix, tolerance)], m.start(),
                     shown if suffix == "%" else target)
        if found is not None:
            out.append(_figure(m.group(0).strip(), m.start(), *found))
    for name in sorted(strings, key=len, reverse=True):
        if len(name) < 3:
            continue
        for m in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", answer, re.I):
            pos = m.start()
            if any(f["start"] <= pos < f["start"] + len(f["text"]) or pos <= f["start"] < m.end() for f in out):
                continue
            found = best([(view, fact, col) for view, fact in candidates for col, v in fact.items() if v == name], pos)
            if found is not None:
                out.append(_figure(m.group(0), pos, *found))
    return sorted(out, key=lambda f: f["start"])


def _figure(text: str, start: int, view: PredicateView, fact: dict, column: str) -> dict:
    return {"text": text, "start": start, "predicate": view.name, "column": column,
            "fact": [fact.get(c["name"]) for c in view.schema] if view.schema else list(fact.values())}


# --- does the answer answer the question, and on what does it rest ------------------------------------------------
_ABSENCE = re.compile(r"\b(?:no|none|not any|nothing)\b[^.\n]*\b(?:exceed\w*|breach\w*|above|over|pass\w*)\b", re.I)
_QUALIFIED = re.compile(r"\bchecked for [\d,]+ of [\d,]+|\bnone of those\b|\bamong (?:the|those) [\d,]+", re.I)


@lru_cache(maxsize=256)
def _program(text: str) -> A.Program | None:
    """A synthesized program parsed (once: the checks read the same rules many times; the AST is immutable)."""
    try:
        return parse(text, "<program>")
    except VadaError:
        return None


def partial_predicates(ctx: RunContext) -> dict[str, str]:
    """Predicates computed for only some of the values they range over, with the reason in words.

    A tool output is partial when a later iteration invoked its tool with constants the question does not name (an
    expansion of the top facts: ``get_shareholders("DeepLogic Ltd")``) rather than set-at-a-time over a whole column; a synthesized predicate is
    partial when a rule of its program reads a partial predicate.
    """
    out: dict[str, str] = {}
    later: dict[str, set[str]] = {}
    for stage in ctx.plan.stages:
        for call in stage.calls:
            named = all(isinstance(v, str) and v.lower() in ctx.question.lower() for v in call.params.values())
            if stage.iteration > 0 and call.params and not call.sources and not named:
                later.setdefault(call.tool, set()).update(str(v) for v in call.params.values())
    for view in ctx.predicates.values():
        if view.tool in later:
            out[view.name] = f"{view.name} was computed for {len(later[view.tool])} value(s) only " \
                             f"({', '.join(sorted(later[view.tool])[:5])})"
    for s in ctx.synthesized:
        prog = _program(s.program)
        if prog is None:
            continue
        for rule in prog.rules:
            read = [lit.pred for lit in rule.body if isinstance(lit, A.Atom) and lit.pred in out]
            if read:
                for h in rule.head:
                    out.setdefault(h.pred, f"{h.pred} reads {read[0]}: {out[read[0]]}")
    return out


def check_coverage(answer: str, ctx: RunContext) -> list[str]:
    """An absence claim ("no single borrower exceeds the limit", "no group breaches it") must rest on a threshold
    check that found nothing and was computed over the whole predicate; a claim about a subset must say so
    ("checked for 3 of 2,006 ...")."""
    problems = []
    partial = partial_predicates(ctx)
    empty_checks = [s.output for s in ctx.synthesized if s.kind == "threshold_check"
                    and (v := ctx.predicates.get(s.output)) is not None and v.cardinality == 0]
    for m in _ABSENCE.finditer(answer):
        sentence = m.group(0)
        line = next((ln for ln in answer.splitlines() if sentence in ln), sentence)
        if _QUALIFIED.search(line):
            continue
        if not empty_checks:
            problems.append(f"the answer claims an absence ({sentence.strip()!r}) that no threshold check computed: "
                            f"facts retrieved by top-k cannot show that nothing exceeds a limit")
        elif all(p in partial for p in empty_checks):
            problems.append(f"the answer claims an absence ({sentence.strip()!r}) over a subset: "
                            f"{partial[empty_checks[0]]}; say how many were checked")
    return problems


_NEGATION = re.compile(r"\b(?:no|none|not|nothing|neither|nor|never|cannot|without)\b|n't\b", re.I)
_SENTENCE = re.compile(r"(?<=[.!?;:)])\s+(?=[A-Z])|\n+")  # ")": a model may drop a full stop after a figure
_CLAUSE = re.compile(r",?\s+(?:and|but|while|whereas|although|though|yet)\s+|;\s*|,\s+(?=which\b)", re.I)
BACKED = 0.8  # the share of a denial's words that one sentence of the rules' wording must have


def _content_words(text: str) -> set[str]:
    return {frame.stem(w) for w in re.findall(r"[a-z0-9]+", text.lower().replace("_", " "))
            if w not in frame.STOPWORDS and not _NEGATION.fullmatch(w)}


def check_denials(answer: str, ctx: RunContext) -> list[str]:
    """A denial ("none of these raise concerns", "nothing exceeds") next to a threshold check that found something
    must be one the rules wrote: a sentence of the rules' wording (``ctx.draft``) with the same words ("no single
    borrower exceeds the limit of 20M", said of a check that found nothing, beside a group check that found a
    breach). Measured with the 1.5B local model: "None of these exposures raise concentration-risk concerns.",
    followed by the group breach it had been told to add, passed every other check."""
    found = findings(ctx)
    if not found:
        return []
    backing = [_content_words(s) for s in _SENTENCE.split(ctx.draft or "")]
    problems = []
    clauses = [c for s in _SENTENCE.split(answer) for c in _CLAUSE.split(s)]
    for sentence in clauses:
        if not _NEGATION.search(sentence):
            continue
        words = _content_words(sentence)
        if words and any(len(words & b) >= BACKED * len(words) for b in backing):
            continue
        view, _fact, names = found[0]
        problems.append(f"the answer denies something ({sentence.strip()!r}) that no rule computed, while the "
                        f"threshold check {view.name} found {', '.join(names) or 'facts'}: state what the checks "
                        f"found, in their words")
    return problems


def _words(text: str) -> set[str]:
    return {stem(w) for w in re.findall(r"[a-z]+", text.lower().replace("_", " "))}


def aggregates(ctx: RunContext) -> list[tuple[str, str, str, list[str], set[str]]]:
    """Every synthesized aggregate as (function, the predicate it reads, the aggregated column, the other
    non-parameter columns of that predicate, the words of the tool that produced it)."""
    out = []
    for s in ctx.synthesized:
        prog = _program(s.program)
        if prog is None:
            continue
        for rule in prog.rules:
            agg = next((lit for lit in rule.body if isinstance(lit, A.Assignment)
                        and isinstance(lit.value, A.Aggregate)), None)
            if agg is None:
                continue
            names = {v.name for v in A.expr_vars(agg.value.expr)} if agg.value.expr is not None else set()
            found = False
            for lit in rule.body:
                if not isinstance(lit, A.Atom):
                    continue
                view = ctx.predicates.get(lit.pred)
                cols = view.columns if view is not None else []
                for i, t in enumerate(lit.args):
                    if isinstance(t, A.Var) and t.name in names and i < len(cols):
                        others = [c for c in cols if c != cols[i] and c not in view.param_columns]
                        # a synthesized predicate's name is no description: only a tool's words speak of what it holds
                        # (those of the tools it was derived from, for a synthesized one)
                        words = set()
                        for pred in _derived_from(ctx, lit.pred):
                            tool = ctx.tools.get((ctx.predicates.get(pred) or view).tool or "") or {}
                            if tool:
                                words |= _words(pred) | _words(tool.get("name", "")) | \
                                    _words(tool.get("description", ""))
                        out.append((agg.value.func, lit.pred, cols[i], others, words))
                        found = True
            if not found:
                out.append((agg.value.func, rule.head[0].pred, "", [], set()))
    return out


def _counts_the_noun(noun: set[str], column: str, others: list[str], words: set[str], head: str | None = None,
                     measures: frozenset[str] = frozenset()) -> bool:
    """A count answers "how many X" when it counts the column named like X; or, when no column of its predicate is,
    when the predicate's tool speaks of X (guarantors: "the companies that guarantee its loans") and the column
    counted holds things, not ``measures`` (columns the catalog declares dates, amounts, kinds, levels or limits:
    "How many copies were sold?" over sales per period is no count of the periods). Of a compound ("customer
    feeders") the column named by its last word, when one is."""
    def named(col: str) -> bool:
        return any(word_match(n, w) for n in noun for w in _words(col))

    if head and any(word_match(head, w) for c in [column, *others] if c for w in _words(c)):
        return any(word_match(head, w) for w in _words(column or ""))

    if not column or named(column):
        return True
    if any(named(c) for c in others) or column in measures:
        return False
    return any(word_match(n, w) for n in noun for w in words)


def _derived_from(ctx: RunContext, pred: str) -> set[str]:
    """``pred`` and every predicate the synthesized rules derived it from."""
    read, todo = set(), [pred]
    rules = [r for s in ctx.synthesized for r in _rules(s.program)]
    while todo:
        p = todo.pop()
        if p in read:
            continue
        read.add(p)
        todo += [lit.pred for r in rules if any(h.pred == p for h in r.head) for lit in r.body
                 if isinstance(lit, A.Atom)]
    return read


def derivation_constants(ctx: RunContext, pred: str) -> set[str]:
    """The constants a predicate's derivation rests on (lowercased): the parameters of the tool calls whose outputs
    it was derived from (following set-at-a-time calls to their sources) and the constants of the synthesized rules
    that derived it."""
    preds = _derived_from(ctx, pred)
    views = {v.tool: v.name for v in ctx.predicates.values() if v.tool}
    grown = True
    while grown:
        grown = False
        for call in ctx.executed.values():
            if views.get(call.tool) not in preds:
                continue
            for value in call.params.values():
                if isinstance(value, dict) and isinstance(value.get("each"), str):
                    for p in _derived_from(ctx, value["each"].split(".")[0]) - preds:
                        preds.add(p)
                        grown = True
    out: set[str] = set()
    for call in ctx.executed.values():
        if views.get(call.tool) in preds:
            out |= _call_constants(call)
    for s in ctx.synthesized:
        for rule in _rules(s.program):
            if not any(h.pred in preds for h in rule.head):
                continue
            for lit in rule.body:
                args = lit.args if isinstance(lit, A.Atom) else lit.atom.args if isinstance(lit, A.Negation) else ()
                out |= {str(t.value).lower() for t in args if isinstance(t, A.Const)}
                if isinstance(lit, A.Comparison):
                    out |= {str(e.value).lower() for e in (lit.left, lit.right) if isinstance(e, A.Const)}
    return out


def _passes_over(ctx: RunContext, noun: set[str], pred: str, column: str) -> bool:
    """Whether a count over ``pred`` leaves out a column named like the noun that the facts it counts were derived
    from ("Count the hubs …" counted as the countries of the reachable hubs, reachable_hub.hub left behind)."""
    read = _derived_from(ctx, pred)
    named = [c for q in read if (v := ctx.predicates.get(q)) is not None for c in v.columns
             if c not in v.param_columns and frame.asked_columns(tuple(noun), [c])]
    return bool(named) and not frame.asked_columns(tuple(noun), [column])


def _call_constants(call) -> set[str]:
    """The values a call was made with, lower-cased: its parameters, or the ``where`` constants of a set-at-a-time
    call's ``{"each": ..., "where": ...}``."""
    out: set[str] = set()
    for v in call.params.values():
        if isinstance(v, dict):
            out |= {str(x).lower() for x in (v.get("where") or {}).values()}
        else:
            out.add(str(v).lower())
    return out


def used_constants(ctx: RunContext) -> set[str]:
    used: set[str] = set()
    for call in ctx.executed.values():
        used |= _call_constants(call)
    for s in ctx.synthesized:
        prog = _program(s.program)
        for rule in prog.rules if prog is not None else []:
            for lit in rule.body:
                args = lit.args if isinstance(lit, A.Atom) else lit.atom.args if isinstance(lit, A.Negation) else ()
                used |= {str(t.value).lower() for t in args if isinstance(t, A.Const)}
                if isinstance(lit, A.Comparison | A.Assignment):
                    exprs = (lit.left, lit.right) if isinstance(lit, A.Comparison) else (lit.value,)
                    used |= {str(e.value).lower() for e in exprs if isinstance(e, A.Const)}
    return used


def check_question(answer: str, ctx: RunContext, linked: list[str] | None = None) -> list[str]:
    """Does the answer answer *this* question, as its frame (:mod:`vadaorchestra.agents.question.frame`) reads it.

    Every entity the question names (``linked``, else the frame's) is used by the computation, as a parameter or a
    filter; for a count, total, share, extreme or limit, naming it in the answer is not enough. "How many X" rests on
    a count of X, a total on a sum, a share on a ratio; each condition the question states is applied by a rule; a
    list or a lookup gives values of the column the question asks for; "directly" does not rest on a chain followed
    through every level, nor "directly or indirectly" on one level only; a limit question rests on a threshold check
    against the data; "the highest" is one value, the top of an ordering."""
    fr = frame.of(ctx)
    problems = []
    text = answer.lower()
    used = used_constants(ctx)
    named = {e.value: e for e in fr.entities}
    for value in dict.fromkeys([*(linked or []), *named]):
        v = str(value).lower()
        if v in used:
            continue
        entity = named.get(value)
        if entity is not None and entity.kind:
            continue  # a kind of thing: the reading checks say when it must restrict the computation
        must_use = fr.aggregate or (entity is not None and not entity.parameters)
        if v not in text:
            problems.append(f"the question names {value!r}, which the computation never used (as a parameter or a "
                            f"filter) and the answer does not mention")
        elif must_use:
            problems.append(f"the question names {value!r}, which the computation never used (as a parameter or a "
                            f"filter): naming it in the answer does not restrict what was computed")
    aggs = aggregates(ctx)
    noun_text = fr.how_many or (" ".join(fr.asks_for) if fr.count and fr.asks_for else None)
    if noun_text and fr.asks_for and stem(noun_text.split()[-1].lower()) in frame.PARTITIVES:
        noun_text = " ".join(fr.asks_for)  # "how many pieces of pottery": the pottery counted
    def names_the_unit(unit: str) -> bool:  # the noun names a unit the catalog declares ("how many cows": in cows)
        return bool(set(_words(unit)) & set(_words(noun_text))) or names_unit(re.findall(r"[A-Za-z]+", noun_text),
                                                                             unit)

    def named_by_noun(types: tuple[str, ...]) -> list[str]:
        # by its name, or by the unit the catalog declares for it ("how many cows": herd_size, in cows)
        def unit(v, c: str) -> str:
            return str(((ctx.tools.get(v.tool) or {}).get("units") or {}).get(c, ""))
        return [c for v in ctx.predicates.values() if v.tool is not None for c in v.typed(*types)
                if c not in v.param_columns and noun_text and (frame.asked_columns(tuple(_words(noun_text)), [c])
                                                               or names_the_unit(unit(v, c)))]

    # "how many credits" where only a number column is named so: a quantity, summed ("how many issuers" counts the
    # issuer column, whatever number column, such as max_issuer_share, shares the word)
    # (a quantity, not a limit, a base or a level named so: "how many cubic metres" is no sum of a cap in m³)
    capped = bound_columns(ctx.tools.values())
    # (a thing column named only by a modifier is not what is counted: "how many parking spaces" sums the spaces,
    # whatever "parking" says of the car_park column)
    noun_words = re.findall(r"[a-z]+", noun_text.lower()) if noun_text else []
    head_word = stem(noun_words[-1]) if noun_words else None
    strings_named = [c for c in named_by_noun(("string",))
                     if not head_word or any(word_match(head_word, t) for t in terms(c))]
    units_of = {c: str(u) for spec in ctx.tools.values() for c, u in (spec.get("units") or {}).items()}
    # (and a number column named by the head, or by its unit: not "charge_gbp" for "how many penalty charge notices")
    numeric = [c for c in named_by_noun(("int", "float")) if c not in capped and (
        not head_word or any(word_match(head_word, t) for t in terms(c)) or
        (c in units_of and names_the_unit(units_of[c])))] if not strings_named else []
    # (a limit named so, read as it is: "how many registered beds does X have?" is X's registered_beds, no count;
    # a sum of it over one row is that row's value)
    # (by its head: "members" is no member_cap, the most members a club may have)
    read = [c for c in named_by_noun(("int", "float")) if c in capped and noun_words and
            head_named((stem(noun_words[-1]),), [c], ctx)] if not numeric else []
    one_row = all(a[0] in ("sum", "msum") and a[2] in read and len(getattr(ctx.predicates.get(a[1]), "facts", ())) <= 1
                  for a in aggs)
    # "How many people are on X's electoral roll?": the things counted are on a number column the relation's other
    # end names, every word of it (by name or @label), read from the one row of the tool called for X
    held = {w for r in fr.relations if noun_words and r.source and r.target and r.target != r.target_entity
            and _words(r.source) & {stem(x) for x in noun_words} for w in _words(r.target)} - frame.STOPWORDS
    labels = {c: lab for spec in ctx.tools.values() for c, lab in (spec.get("labels") or {}).items()}
    # (the row of the thing the question names: the only row of the tool called for it, or the one row that names it)
    names = {e.value.lower() for e in fr.entities if not e.kind}

    def own_row(view) -> dict | None:
        rows = view.facts if len(view.facts) == 1 else [
            f for f in view.facts if any(str(v).lower() in names for v in f.values())]
        return rows[0] if len(rows) == 1 else None
    on = [(row, c) for view in ctx.predicates.values() if held and view.tool is not None and view.complete
          and (row := own_row(view)) is not None
          for c in view.typed("int", "float") if c not in capped and all(
              any(word_match(w, t) for t in _words(c) | _words(labels.get(c, ""))) for w in held)]
    if noun_text and read and one_row and any(_same(f.get(c), v) for v in ctx.answer_values or []
                                              for view in ctx.predicates.values() if view.tool is not None
                                              for c in read for f in view.facts):
        pass
    elif noun_text and on and ctx.answer_values and all(
            any(_same(row.get(c), v) for row, c in on) for v in ctx.answer_values):
        pass
    elif noun_text and numeric:
        # "how many credits": a quantity held in a number column is summed, not counted
        # (on average: a mean of it, "On average, how many hours of sunshine did X get per month?")
        funcs, what = (("avg",), "mean") if fr.average else (("sum", "msum"), "sum")
        if not any(a[0] in funcs and a[2] in numeric for a in aggs):
            problems.append(f"the question asks how many {noun_text}, a quantity of the column "
                            f"{numeric[0]}, and no {what} of it was computed")
    elif noun_text:
        noun = _words(noun_text)
        seq = re.findall(r"[a-z]+", noun_text.lower())
        head = stem(seq[-1]) if len(seq) > 1 else None  # "customer feeders": feeders
        counts = [a for a in aggs if a[0] in ("count", "mcount")]
        measures = frozenset(c for spec in ctx.tools.values() for c, r in (spec.get("roles") or {}).items()
                             if r in ("date", "amount", "category", "level", "limit", "base"))
        # a kind counted ("How many smartphones"): the things of the tool restricted to it (device_type =
        # 'smartphone'), counted by a column that holds things
        used = used_constants(ctx)
        kinds = {w for e in fr.kinds if e.value.lower() in used for w in _words(e.value)}
        # (or the kind with the words the catalog calls it by: "recycling centres" of a site type 'centre', the
        # descriptions saying "recycling centre")
        called = set(noun) <= kinds or (len(seq) > 1 and stem(seq[-1]) in kinds
                                        and says_together(ctx.tools.values(), seq))
        counted_kind = bool(noun) and called and any(col and col not in measures for _f, _p, col, _o, _w in counts)
        # "how many people": a column whose values are people's names (the pipeline's named entities)
        # (not names that end in what the column is called: "Coldharbour Deanery" in the deanery column is a deanery,
        # whatever the tagger takes it for)
        people = bool(noun) and set(noun) <= P.PEOPLE and any(
            col and pred in ctx.predicates and P.names_people(values := [f.get(col) for f in ctx.predicates[pred].facts])
            and not any(isinstance(v, str) and v.split() and any(word_match(stem(v.split()[-1]), t) for t in _words(col))
                        for v in values)
            for _f, pred, col, _o, _w in counts)
        # "how many times did X land its catch at Y": the occasions are the rows, counted by the column the catalog
        # declares their identity (each landing's id)
        ids = {c for spec in ctx.tools.values() for c, r in (spec.get("roles") or {}).items() if r == "entity"}
        occasions = bool(noun) and set(noun) <= frame.OCCASIONS and any(col in ids for _f, _p, col, _o, _w in counts)
        labelled = {c for spec in ctx.tools.values() for c, lab in (spec.get("labels") or {}).items()
                    if noun and all(any(word_match(n, w) for w in _words(lab)) for n in noun)}
        # (or labelled with the noun's head, its other words a yes/no column the rules keep to a truth value:
        # "wheelchair-accessible vehicles", plate labelled "vehicle" where wheelchair_accessible is "yes")
        truths = {c for c in used if P.truth(c) is not None}
        modifiers = set(noun) - ({head} if head else set(noun))
        kept = bool(truths) and bool(modifiers) and all(any(
            word_match(m, t) for spec in ctx.tools.values() for c in (spec.get("roles") or {}) | {
                x["name"]: None for x in spec.get("schema", [])} for t in _words(c)) for m in modifiers)
        if head and kept:
            labelled |= {c for spec in ctx.tools.values() for c, lab in (spec.get("labels") or {}).items()
                         if _words(lab) == {head}}
        if not counts:
            problems.append(f"the question asks how many {noun_text}, and no count was computed")
        elif any(col in labelled for _f, _p, col, _o, _w in counts):
            pass  # a column whose @label says every word of the noun: pcn_ref, "penalty charge notice"
        elif not counted_kind and not people and not occasions and not any(_counts_the_noun(noun, col, others, words, head, measures)
                     and not _passes_over(ctx, noun, pred, col) for _f, pred, col, others, words in counts):
            problems.append(f"the question asks how many {noun_text}, but the count computed counts something "
                            f"else ({', '.join(f'{col} in {p}' for _f, p, col, _o, _w in counts)})")
    elif fr.total and not fr.share:
        # (an average rests on a mean of what is asked: "the average assessment mark")
        what, funcs = ("an average", ("avg",)) if fr.average else ("a total", ("sum", "msum"))
        sums = [a for a in aggs if a[0] in funcs]
        asked = [c for v in ctx.predicates.values() if v.tool is not None for c in v.typed("int", "float")
                 if c not in v.param_columns and fr.asks_for and frame.asked_columns(fr.asks_for, [c])]
        if not sums:
            problems.append(f"the question asks for {what}, and no {'mean' if fr.average else 'sum'} was computed")
        elif asked and not any(a[2] in asked for a in sums):
            problems.append(f"the question asks for {what} of {' '.join(fr.asks_for)}, and the aggregate computed is "
                            f"of something else ({', '.join(f'{a[2]} in {a[1]}' for a in sums)})")
    if fr.share and not any(_divides(_rules(s.program)) for s in ctx.synthesized):
        problems.append("the question asks for a share, and no ratio was computed")
    elif fr.share:
        problems += _whole_of(ctx, fr) + _counted_against(ctx)
    return problems + check_frame(ctx, aggs)


_MONTHS = {m.lower(): k for k, m in enumerate(calendar.month_name) if m}
_YEAR_MONTH = re.compile(r"^((?:19|20)\d\d)-(\d\d)(?:-\d\d)?$")


def _keeps_to(ctx: RunContext, fr: frame.QuestionFrame, period: str, within: set[str] | None = None) -> bool:
    """Whether the computation keeps to a period the question names ("in March 2024", "in Q2 2025", "between January
    and June 2024"): a tool it called is about it (its description names the period), or a rule compares with, or a
    call passes, a value of one of its months ("2024-03"), or every date of the tools' facts lies in it (the data has
    no other), or it is a condition of the question or a value it names. A period read as no span of months (a
    season, "fiscal 2024") is kept only by a tool about it: a year alone does not keep it. ``within``: only the rules
    deriving these predicates count (a share's whole)."""
    if any(period.lower() in c.text.lower() for c in fr.conditions) or \
            any(period.lower() in e.value.lower() for e in fr.entities):
        return True
    years = set(re.findall(r"\b(?:19|20)\d\d\b", period))
    found = periods.span(period)
    words = set(re.findall(r"[a-z]+|\d+", period.lower())) - {"the", "of", "in", "on", "during"} - \
        periods.RANGE_WORDS - periods.RANGE_OPENERS
    if found is not None and len(found[0]) >= 7:  # months (a day keeps to its month here)
        held = periods.months(*found)
    elif found is not None:
        held = None  # a year
    elif words <= years | set(_MONTHS):
        # the months the question names with the year ("over January and March 2024": both)
        named = {_MONTHS[w] for w in re.findall(r"[a-z]+", fr.question.lower()) if w in _MONTHS}
        held = {(y, m) for y in years for m in named} or None
    else:
        held = set()  # unread ("Q5 2025", "the 2024/25 season"): only a tool about it keeps to it

    def says(text: str) -> bool:
        return words <= set(re.findall(r"[a-z]+|\d+", text.lower()))

    def inside(date: str) -> bool:
        m = _YEAR_MONTH.match(date)
        return bool(m) and ((m.group(1), int(m.group(2))) in held if held is not None else m.group(1) in years)

    tools = {c.tool for c in ctx.executed.values()}
    if any(says(ctx.tools.get(t, {}).get("description", "")) for t in tools):
        return True
    if held == set() or not years:
        return False
    texts = [" ".join(re.findall(r'"[^"]*"|\b\d[\d.-]*\b', s.program)) for s in ctx.synthesized
             if within is None or s.output in within]
    texts += [str(v) for c in ctx.executed.values() for v in c.params.values()]
    for text in texts:
        if any(inside(x) for x in re.findall(r"[\d-]+", text)) or \
                (held is None and years & set(re.findall(r"\d+", text))):
            return True
    dated = [f[c] for v in ctx.predicates.values() if v.tool in tools for f in v.facts for c in v.columns
             if isinstance(f.get(c), str) and _YEAR_MONTH.match(f[c])]
    return bool(dated) and all(inside(d) for d in dated)


def _truths_unkept(ctx: RunContext, fr: frame.QuestionFrame) -> list[str]:
    """A yes/no column of the tools' rows that the question's words name ("Which courtrooms at X have a video
    link?") is kept to by a rule comparing it with a yes (or a no, when the question negates it)."""
    used = used_constants(ctx)
    tools = {c.tool for c in ctx.executed.values()}
    out = []
    for v in ctx.predicates.values():
        if v.origin == "synthesized" or v.tool not in tools:
            continue
        for col in v.typed("string"):
            held = {f.get(col) for f in v.facts}
            if col in v.param_columns or not held or any(P.truth(x) is None for x in held):
                continue
            wanted = frame.truth_wanted(fr, col)
            if wanted == "unclear":
                out.append(f"the question names {col.replace('_', ' ')}, a yes or no of each fact, with a word of "
                           f"negation the reading does not place")
            elif wanted is not None and not any(P.truth(x) is wanted for x in used):
                out.append(f"not checked: the question keeps to the facts whose {col.replace('_', ' ')} is "
                           f"{'yes' if wanted else 'no'}, and no step of the computation restricts to them")
    return list(dict.fromkeys(out))


def check_frame(ctx: RunContext, aggs: list | None = None) -> list[str]:
    """The parts of the frame beyond entities and aggregates: conditions, the column asked for, direct or
    transitive, limits, extremes. Each part the computation does not cover is a problem (``not checked: ...``).
    ``aggs``: the run's :func:`_aggregates`, when the caller has them."""
    fr = frame.of(ctx)
    aggs = aggregates(ctx) if aggs is None else aggs
    problems = []
    constants = _compared_constants(ctx)
    for cond in fr.conditions:
        if not any(math.isclose(c, v, rel_tol=1e-9, abs_tol=1e-9) for c in constants for v in cond.values()):
            problems.append(f"not checked: the question's condition {cond.text!r} is applied by no rule")
        problems += _unit_unlike(ctx, fr, cond)
    for period in fr.periods:
        if not _keeps_to(ctx, fr, period):
            problems.append(f"not checked: the question names the period {period!r}, and no step of the computation "
                            f"keeps to it (no tool of the computation is about it, no rule or call restricts to it)")
    problems += _averaged(ctx, fr, aggs)
    kinds = {s.kind for s in ctx.synthesized}
    if fr.limit and "threshold_check" not in kinds:
        problems.append("not checked: the question asks whether a limit is passed, and no threshold check compared "
                        "the amounts with a limit read from the data")
    tools = [ctx.tools.get(c.tool, {}) for c in ctx.executed.values() if c.level == "high"]
    recursive = [t.get("follows_chain", t.get("recursive")) for t in tools]
    if fr.direct is True and recursive and all(recursive) and not _keeps_first_level(ctx, fr):
        problems.append("not checked: the question asks for direct relations only, and "
                        f"{', '.join(sorted({t['name'] for t in tools}))} follows the chain through every level "
                        "(no rule kept the first level)")
    if fr.direct is False and None not in recursive and not _rests_on_a_chain(ctx, aggs):
        problems.append("not checked: the question asks for relations through every level, and the answer rests on "
                        "nothing that follows the chain (no recursive tool or rule)")
    problems += _own_left_out(ctx, fr) + _repeated_amounts(ctx) + _truths_unkept(ctx, fr)
    if fr.how == "yes-no" and not fr.compound and ctx.answer_yes is None and ctx.answer_parts is None and \
            not re.match(r"\s*(yes|no)\b", ctx.answer or "", re.I):
        # "Does X have any cross-connects with Y?" answered with X's and Y's lists: no yes or no was computed
        problems.append("the question asks yes or no, and the answer says neither (no step decides it)")
    truths = {P.truth(v) for v in ctx.answer_values or []}
    if fr.how == "yes-no" and ctx.answer_yes is not None and truths and None not in truths and \
            truths != {ctx.answer_yes}:
        # "Is there a video link in X?" answered yes because X's row exists, its video_link "no"
        problems.append(f"the answer says {'yes' if ctx.answer_yes else 'no'}, and the values it rests on say "
                        f"{' and '.join(sorted('yes' if t else 'no' for t in truths))}")
    values = ctx.answer_values
    if values and all(v is None or (isinstance(v, str) and not v.strip()) for v in values):
        # "Who is X's account manager?" read off an empty column of X's row: the data holds nothing to answer with
        problems.append("the answer's value is empty: the row found holds nothing in the column read")
    if values and fr.who and all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        problems.append(f"the question asks who, and the answer gives only numbers ({', '.join(map(str, values[:3]))})")
    elif values and fr.question_word in ("who", "whom") and all(
            isinstance(v, str) and re.fullmatch(r"\d{4}-\d\d(-\d\d)?([ T][\d:.]+)?", v.strip()) for v in values):
        # "Who made up the officiating team for match M093?" answered with the match's date
        problems.append(f"the question asks who, and the answer gives only dates ({', '.join(map(str, values[:3]))})")
    if values == [] and fr.count and not fr.limit:  # (a limit's answer lists what passes it: none)
        problems.append("the question asks how many, and the count computed has no value (no rows were counted)")
    asked = fr.parse.phrases[fr.parse.asked] if fr.parse is not None and fr.parse.asked is not None else None
    if values and len(values) > 1 and fr.kind in ("lookup", "list") and asked is not None and not asked.plural \
            and asked.det in ("what", "which") and all(isinstance(v, int | float) and not isinstance(v, bool)
                                                      for v in values):
        # "What quantity did X distribute in February?" answered with each batch's quantity
        problems.append(f"the question asks for one {asked.text.split(' ', 1)[-1]}, and the answer gives "
                        f"{len(values)} numbers")
    if values and fr.count and not fr.limit and not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        problems.append(f"the question asks how many, and the answer gives no number ({', '.join(map(str, values[:3]))})")
    if values is not None and fr.kind in ("lookup", "list", "extreme") and not (fr.who and fr.extreme):
        # ("Which hub has the largest daily capacity?" names the measure, and asks for the thing at its top)
        problems += _asked_column(ctx, fr, values)
    if values and fr.kind == "list":
        # "Which subsidiaries does X own?" answered with X among them: whether the thing asked about counts as one of
        # its own relations is the tool's convention, not something the question says
        # a tool's fact relating a parameter's value to itself (operator_group: Continental -> Continental)
        itself = [v for v in values if isinstance(v, str) and any(
            str(f.get(p)).lower() == v.lower() and any(str(x).lower() == v.lower() for c, x in f.items()
                                                       if c not in view.param_columns)
            for view in ctx.answer_predicates() if view.tool for f in view.facts for p in view.param_columns)]
        # or the very thing the question names, related to nothing else ("Who sits on the Documentary Jury?"
        # answered with juries; not "the companies controlled by the ultimate controller of X", which X may be)
        itself = itself or [v for v in values if len(fr.relations) <= 1 and isinstance(v, str) and any(
            not e.kind and e.value.lower() == v.lower() for e in fr.entities)]
        if itself:
            problems.append(f"not checked: the answer lists {itself[0]!r}, the entity the question asks about, among "
                            f"its own {' '.join(fr.asks_for) or 'results'}")
    if fr.extreme:
        single = f"the question asks for the single {'highest' if fr.extreme == 'max' else 'lowest'} one"
        if values is None:
            problems.append(f"{single}, and the answer names no single value")
        elif len(values) != 1:
            problems.append(f"{single}, and the answer gives {len(values)} values")
        elif not _is_extreme(ctx, values[0], fr.extreme) and not any(a[0] in (fr.extreme, "m" + fr.extreme)
                                                                       for a in aggs):
            problems.append(f"not checked: {values[0]!r} is not the {fr.extreme} of any ordering computed over the "
                            f"whole relation")
        else:
            problems += _over_repeated_rows(ctx, fr, values[0], aggs) + _ordered_unsaid(ctx, fr, aggs)
    return problems


def _averaged(ctx: RunContext, fr: frame.QuestionFrame, aggs: list) -> list[str]:
    """An average rests on a mean (or a ratio); one "per month" on a mean over rows that are one per month: a column
    of the averaged rows named by the word, each value once."""
    if not fr.average or fr.share:
        return []
    means = [a for a in aggs if a[0] == "avg"]
    if not means and not any(_divides(_rules(s.program)) for s in ctx.synthesized):
        return ["the question asks an average, and no step of the computation averages (no mean, no ratio)"]
    if not fr.average_per:
        return []
    for _f, pred, _col, _others, _words in means:
        view = ctx.predicates.get(pred)
        named = [c for c in (view.columns if view else []) if any(word_match(fr.average_per, t) for t in terms(c))]
        keys = [tuple(f.get(c) for c in named[:1]) for f in view.facts] if view is not None else []
        if not named or len(set(keys)) != len(keys):
            return [f"the question asks an average per {fr.average_per}, and the mean was taken over {pred}'s rows, "
                    f"which are not one per {fr.average_per}"]
    return []


def _over_repeated_rows(ctx: RunContext, fr: frame.QuestionFrame, value: object, aggs: list) -> list[str]:
    """An extreme taken over rows in which the thing answered has several rows ("which centre sent the smallest
    tonnage of textiles", ordered over single collections): the thing's measure is its rows' total or one of its
    rows, which the question does not say; unless its words name the rows themselves ("the largest payment", "the
    longest on a single loan": a payment, a loan is a row)."""
    for func, pred, _col, _others, _words in aggs:
        view = ctx.predicates.get(pred)
        if func not in ("min", "max", "mmin", "mmax") or view is None:
            continue
        names = terms(view.name) | {t for p in _derived_from(ctx, pred)
                                    for t in terms((ctx.tools.get((ctx.predicates.get(p) or view).tool or "") or {})
                                                   .get("output_predicate", ""))}
        for c in (c for c in view.typed("string") if c not in view.param_columns):
            held = [f.get(c) for f in view.facts]
            # (the rows by their names, not by the thing answered: "orchard_harvest" rows are no orchards)
            rows = {t for t in names if not any(word_match(t, x) for x in terms(c))}
            if any(word_match(w, t) for w in (*fr.measure_words, *fr.words) for t in rows):
                continue  # (or "on a single loan": the question speaks of the rows)
            if any(_same(x, value) for x in held) and len({str(x).lower() for x in held}) < len(held):
                most = fr.superlative or ("highest" if fr.extreme == "max" else "lowest")
                return [f"the question asks which {c.replace('_', ' ')} has the {most} "
                        f"{' '.join(fr.measure_words) or 'value'}, and the {fr.extreme} was taken over {pred}'s "
                        f"rows, where a {c.replace('_', ' ')} has several: its total or one of its rows, the question "
                        f"does not say which"]
    return []


def _ordered_unsaid(ctx: RunContext, fr: frame.QuestionFrame, aggs: list) -> list[str]:
    """An extreme ordered by a number column no word of the question says, where a word says another number column of
    the same rows ("For which match did X have to travel the furthest?" ordered by the match fee, the travel distance
    beside it). A column is said by its name or its label's last word, not by a unit or a modifier ("match fee")."""
    labels = {c: lab for spec in ctx.tools.values() for c, lab in (spec.get("labels") or {}).items()}
    units = {c: u for spec in ctx.tools.values() for c, u in (spec.get("units") or {}).items()}

    def said(c: str) -> bool:
        unit = units.get(c, "")
        own = {t for t in terms(c) if not (unit and (t == unit.lower() or same_unit(t, unit)))}
        head = seq(labels.get(c, ""))  # (the label's last word, as compose reads it)
        return any(word_match(w, t) for w in fr.words for t in own | ({head[-1]} if head else set()))

    for func, pred, col, _others, _words in aggs:
        view = ctx.predicates.get(pred)
        if func not in ("min", "max", "mmin", "mmax") or view is None or not col or said(col):
            continue
        other = [c for c in view.typed("int", "float") if c != col and c not in view.param_columns and said(c)]
        if other:
            return [f"the question's {fr.superlative or func} orders by {col}, which no word of it says, while "
                    f"{other[0]} of the same rows is said"]
    return []


def _same(a: object, b: object) -> bool:
    if isinstance(a, int | float) and isinstance(b, int | float) and not isinstance(a, bool):
        return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-9)
    return str(a).lower() == str(b).lower()


def _asked_column(ctx: RunContext, fr: frame.QuestionFrame, values: list) -> list[str]:
    """A list or a lookup answers with values of the column the question asks for, when a predicate has one."""
    # (not when what is asked is a kind the computation keeps to: "the watch managers" are the firefighters of rank
    # watch_manager, whatever column a word of the phrase names)
    used = used_constants(ctx)
    if any(e.value.lower() in used and fr.asks_for and all(any(frame.word_match(w, t) for t in frame.terms(e.value))
                                                           for w in fr.asks_for) for e in fr.kinds):
        return []
    views = ctx.answer_predicates()
    columns = list(dict.fromkeys(c for v in views for c in v.columns if c not in v.param_columns))
    best = frame.asked_columns(fr.asks_for, columns)
    asked = [(v, c) for v in views for c in v.columns if c in best and c not in v.param_columns]
    # the catalog's output columns, not a parameter's
    catalog = list(dict.fromkeys(c["name"] for spec in ctx.tools.values() for c in spec.get("schema", [])
                                 if c["name"] not in (spec.get("parameter_columns") or {})))
    if not asked and values and fr.asks_for:
        # no column of the answer is named so, and the catalog labels one that is ("the biggest party X will accept":
        # max_headcount, labelled "largest party", not the fee of its bookings)
        labelled = label_named(fr.asks_for, list(ctx.tools.values()), catalog)
        if labelled and not any(c in labelled for v in views for c in v.columns):
            return [f"the question asks for {' '.join(fr.asks_for)}, which the catalog labels {labelled[0]}, and the "
                    f"answer gives values of no such column"]
    if not asked and values and fr.asks_for and not frame.asked_columns(fr.asks_for, catalog):
        # no column of the catalog is named so, and a tool's description names the things it lists so ("the
        # programmes (shows) on a station's schedule"): the answer gives those things, not a value of another
        # column ("What shows are on X's schedule?" answered with X's city)
        # (things, not amounts: "the biggest party X will accept" is a number its label names; and not things of
        # another tool, "Which scout groups sit under X?" answered with the units under X)
        head = fr.asks_for[-1]
        listing = {name: spec for name, spec in ctx.tools.items()
                   if any(frame.word_match(head, t) for t in frame.terms(spec.get("description", "")))}
        # the things the listing tools list (any of them: a view of one listing tool may hold the thing another
        # lists, "KX19 YPR" the plate of a customer's rentals and the vehicle get_vehicle lists), and any answer
        # view's declared entities
        things = {(spec.get("output_predicate"), thing(spec)) for spec in listing.values()}
        listed = {(v.name, c) for v in views if v.tool in ctx.tools for c, r in (
            ctx.tools[v.tool].get("roles") or {}).items() if r == "entity" and c not in v.param_columns}
        strings = [x for x in values if isinstance(x, str)]
        if listing and strings and not any(_same(f.get(c), value) for value in strings for v in views
                                           for pred, c in things | listed
                                           if v.tool in listing or v.name == pred or (v.name, c) in listed
                                           for f in v.facts):
            return [f"the question asks for {' '.join(fr.asks_for)}, which {', '.join(sorted(listing))} lists, and "
                    f"the answer gives {values[0]!r}, none of the things it lists"]
    if not asked or not values:
        return []
    # a column of the answer's rows the catalog labels with just the asked words, which the answer's column is not
    # ("Which vehicles ...": plate, labelled "vehicle", not vehicle_class; things, not an amount summed from it)
    labelled_so = [c for v in views for c in v.columns if c not in v.param_columns and all(
        isinstance(x, str) for x in values) and any(
        seq(lab) and set(seq(lab)) == set(fr.asks_for) for spec in ctx.tools.values()
        for col, lab in (spec.get("labels") or {}).items() if col == c)]
    if labelled_so:
        if all(any(_same(f.get(c), value) for v in views for c in labelled_so for f in v.facts) for value in values):
            return []
        return [f"the question asks for {' '.join(fr.asks_for)}, which the catalog labels {labelled_so[0]}, and the "
                f"answer gives values of another column"]
    # a column of the catalog named by the asked phrase's head, which the answer's columns are not ("the monthly
    # hours cap": monthly_hours_cap of the profile, not total_hours of the monthly hours)
    better = [c for c in frame.asked_columns(fr.asks_for, catalog)
              if frame.column_score(fr.asks_for, c) > frame.column_score(fr.asks_for, best[0])]
    if better:
        return [f"the question asks for {' '.join(fr.asks_for)}, and the answer gives values of {asked[0][1]}, while "
                f"{better[0]} of the catalog is named by it"]
    for value in values:
        if not any(_same(f.get(c), value) for v, c in asked for f in v.facts):
            found = sorted({c for v in views for f in v.facts for c, x in f.items() if _same(x, value)})
            return [f"the question asks for {' '.join(fr.asks_for)}, and the answer gives {value!r}"
                    + (f", a value of {', '.join(found)}" if found else "") + f", not of {asked[0][1]}"]
    return []


def _is_extreme(ctx: RunContext, value: object, direction: str) -> bool:
    """``value`` (or the fact naming it) holds the max/min of a numeric column of a predicate read whole, or the top
    of one explored in that column's descending order."""
    for view in ctx.answer_predicates():
        nums = [c for c in view.typed("int", "float") if c not in view.param_columns]
        for col in nums:
            col_values = [f[col] for f in view.facts if isinstance(f.get(col), int | float)]
            if not col_values:
                continue
            ordered = view.complete or (direction == "max" and view.order_by == col)
            if not ordered:
                continue
            best = max(col_values) if direction == "max" else min(col_values)
            for f in view.facts:
                if f.get(col) == best and any(_same(x, value) for x in f.values()):
                    return True
    return False


def _unit_unlike(ctx: RunContext, fr: frame.QuestionFrame, cond: frame.Condition) -> list[str]:
    """A condition written in a unit ("over 2 g/cm3", "more than £200") compared with a column the catalog declares
    in another unit the words do not name (a weight in g, a duration in s)."""
    units = {c: u for spec in ctx.tools.values() for c, u in (spec.get("units") or {}).items()}
    at = fr.question.find(cond.text)
    # (the two words after its number as written, inside the condition's text or after it, and a symbol before it)
    number = re.search(r"\d[\d,.]*", cond.text)
    tail = (cond.text[number.end():] if number else "") + " " + (fr.question[at + len(cond.text):] if at >= 0 else "")
    written = [w for w in (x.strip("?.,;:!()").lower() for x in tail.split()[:2]) if w and w not in frame.STOPWORDS]
    written += re.findall(r"[^\w\s%.,'-]+", cond.text)
    # (words that name a unit: "kg", "pounds", "g/cm3", "cubic metres"; not "spots")
    if not any(unit_of(w) is not None or w in units.values() for w in written) and \
            not any(names_unit(written, u) for u in set(units.values())):
        return []
    out = []
    for s in ctx.synthesized:
        for rule in _rules(s.program):
            for lit in rule.body:
                if not isinstance(lit, A.Comparison):
                    continue
                pair = [(a, b) for a, b in ((lit.left, lit.right), (lit.right, lit.left)) if isinstance(a, A.Var)
                        and isinstance(b, A.Const) and isinstance(b.value, int | float)
                        and any(math.isclose(float(b.value), v, rel_tol=1e-9) for v in cond.values())]
                for var, _const in pair:
                    for atom in (x for x in rule.body if isinstance(x, A.Atom)):
                        view = ctx.predicates.get(atom.pred)
                        for k, arg in enumerate(atom.args):
                            if view is None or not isinstance(arg, A.Var) or arg.name != var.name or \
                                    k >= len(view.columns):
                                continue
                            unit = units.get(view.columns[k])
                            if unit and not names_unit(written, unit) and unit.lower() not in written:
                                out.append(f"the question's condition {cond.text!r} is written in "
                                           f"{' '.join(written)}, and the rule compares it with "
                                           f"{view.columns[k]}, in {unit}")
    return list(dict.fromkeys(out))


def _compared_constants(ctx: RunContext) -> list[float]:
    """Numbers the computation compared with: constants of synthesized rules' comparisons, numeric parameters."""
    out: list[float] = []
    for call in ctx.executed.values():
        out += [float(v) for v in call.params.values() if isinstance(v, int | float) and not isinstance(v, bool)]
    for s in ctx.synthesized:
        prog = _program(s.program)
        for rule in prog.rules if prog is not None else []:
            for lit in rule.body:
                if isinstance(lit, A.Comparison):
                    out += [float(e.value) for e in (lit.left, lit.right) if isinstance(e, A.Const)
                            and isinstance(e.value, int | float) and not isinstance(e.value, bool)]
    return out


def _repeated_amounts(ctx: RunContext) -> list[str]:
    """A sum that adds one thing's value once for each of many rows joined to it: the trial's target enrolment
    summed over a site's adverse events, where a profile tool (one row per value of its parameter) gave the amount
    and another tool's rows repeat its key within a group summed. Checked on the facts, when both are whole."""
    rules = [r for s in ctx.synthesized for r in _rules(s.program)]
    problems = []
    for rule in rules:
        agg = next((lit for lit in rule.body if isinstance(lit, A.Assignment) and isinstance(lit.value, A.Aggregate)
                    and lit.value.func in ("sum", "msum") and lit.value.expr is not None), None)
        if agg is None:
            continue
        summed = {v.name for v in A.expr_vars(agg.value.expr)}
        group = {t.name for h in rule.head for t in h.args if isinstance(t, A.Var)} - {agg.var.name}
        for rows in (lit for lit in rule.body if isinstance(lit, A.Atom)):
            view = ctx.predicates.get(rows.pred)
            pos = [i for i, t in enumerate(rows.args) if isinstance(t, A.Var) and t.name in summed]
            if view is None or not _whole(view) or len(pos) != 1 or view.tool is not None:
                continue
            gpos = [i for i, t in enumerate(rows.args) if isinstance(t, A.Var) and t.name in group]
            for made in (r for r in rules if r.head[0].pred == rows.pred):
                head = made.head[0].args
                var = head[pos[0]] if pos[0] < len(head) else None
                for src in (lit for lit in made.body if isinstance(lit, A.Atom)):
                    sview = ctx.predicates.get(src.pred)
                    at = next((i for i, t in enumerate(src.args) if isinstance(var, A.Var) and isinstance(t, A.Var)
                               and t.name == var.name), None)
                    if at is None or sview is None or sview.tool is None or not _whole(sview):
                        continue
                    keys = [src.args[i] for i, c in enumerate(sview.columns) if c in sview.param_columns]
                    if not keys or not all(isinstance(k, A.Var) for k in keys):
                        continue
                    kcols = [c for c in sview.columns if c in sview.param_columns]
                    if len({tuple(f.get(c) for c in kcols) for f in sview.facts}) != len(sview.facts):
                        continue  # not one row per key: not a profile
                    kpos = [next((i for i, t in enumerate(head) if isinstance(t, A.Var) and t.name == k.name), None)
                            for k in keys]
                    if None in kpos or len(view.facts) < 2:
                        continue
                    cols = view.columns
                    seen: dict[tuple, int] = {}
                    for f in view.facts:
                        at = tuple(f.get(cols[i]) for i in gpos if i < len(cols)) + \
                            tuple(f.get(cols[i]) for i in kpos if i < len(cols))
                        seen[at] = seen.get(at, 0) + 1
                    worst = max(seen.values(), default=0)
                    if worst > 1:
                        problems.append(f"not checked: the sum adds {src.pred}'s {sview.columns[at]} "
                                        f"(one value per {', '.join(kcols)}) once for each of up to {worst} rows of "
                                        f"{rows.pred} that share it")
    return list(dict.fromkeys(problems))


def _whole(view: PredicateView) -> bool:
    return view.complete or len(view.facts) == view.cardinality


def _whole_of(ctx: RunContext, fr: frame.QuestionFrame) -> list[str]:
    """"What percentage of the Endeavour's landed weight was monkfish?": the whole is the Endeavour's landings, so the
    divisor's derivation rests on the Endeavour (not all the monkfish landed, with the Endeavour's part of them); and
    on a period said of the whole ("the PCNs issued during 2024")."""
    owners = frame.share_owners(fr)
    divisors = [pred for atoms, _n, d in _divisions(ctx) for pred in _holding(atoms, d)]
    if not divisors:
        return []
    problems = []
    # a period said of the whole ("the PCNs issued during 2024") keeps the whole's rows too, not only the part's
    for period in (t for t in fr.periods if frame.said_of_the_whole(fr, t)):
        if not any(_keeps_to(ctx, fr, period, _derived_from(ctx, d)) for d in divisors):
            problems.append(f"the question takes a share of the {' '.join(fr.share_of) or 'things'} of {period}, and "
                            f"the whole it was divided by does not keep to {period}")
    for owner in sorted(owners):
        if not any(owner.lower() in derivation_constants(ctx, d) for d in divisors):
            problems.append(f"the question takes a share of {owner}'s {' '.join(fr.share_of)}, and the whole it was "
                            f"divided by is not restricted to {owner}")
    return problems


def _divisions(ctx: RunContext) -> list[tuple[list[A.Atom], str | None, str]]:
    """Every division by a variable in the synthesized rules ("R = N / D"): the rule's atoms, the numerator's name
    (None when it is no variable) and the divisor's."""
    out = []
    for s in ctx.synthesized:
        for rule in _rules(s.program):
            atoms = [a for a in rule.body if isinstance(a, A.Atom)]
            out += [(atoms, lit.value.left.name if isinstance(lit.value.left, A.Var) else None, lit.value.right.name)
                    for lit in rule.body if isinstance(lit, A.Assignment) and isinstance(lit.value, A.BinOp)
                    and lit.value.op == "/" and isinstance(lit.value.right, A.Var)]
    return out


def _holding(atoms: list[A.Atom], name: str) -> list[str]:
    """The predicates of the atoms that hold the variable ``name``."""
    return [a.pred for a in atoms if any(isinstance(t, A.Var) and t.name == name for t in a.args)]


def _counted_against(ctx: RunContext) -> list[str]:
    """A share whose part counts rows and whose whole is a whole number of things read from the data ("What
    percentage of X's target enrolment has been reached?": the enrolments counted against target_enrolment): the
    rows counted are those things, by the whole's last word or its unit (not X's sites counted against it)."""
    by_output = {s.output: s for s in ctx.synthesized}

    def defining(pred: str | None) -> A.Rule | None:
        s = by_output.get(pred or "")
        return next(iter(_rules(s.program)), None) if s is not None else None

    problems = []
    for atoms, n, d in _divisions(ctx):
        num, den = (defining(next(iter(_holding(atoms, v)), None)) if v else None for v in (n, d))
        if num is None or den is None or not any(
                isinstance(x, A.Assignment) and isinstance(x.value, A.Aggregate)
                and x.value.func in ("count", "mcount") for x in num.body):
            continue
        counted = [a.pred for a in num.body if isinstance(a, A.Atom)]
        # the whole: the head's value read from a tool's whole-number column
        head = next((t.name for t in den.head[0].args if isinstance(t, A.Var)), None)
        whole = next(((view, view.columns[i]) for a in den.body if isinstance(a, A.Atom)
                      for view in [ctx.predicates.get(a.pred)] if view is not None and view.tool
                      for i, t in enumerate(a.args) if isinstance(t, A.Var) and t.name == head
                      and i < len(view.columns) and view.columns[i] in view.typed("int")), None)
        if whole is None:
            continue
        view, col = whole
        # (a whole the catalog declares in things: "participants"; a seat capacity or a loan quota with no
        # unit is filled by rows of another name, the enrolments, the loans)
        unit = str(((ctx.tools.get(view.tool) or {}).get("units") or {}).get(col, ""))
        if not unit or unit_of(unit) is not None:
            continue  # (no unit, or a physical one: not a number of things)
        things = {stem(col.split("_")[-1])} | terms(unit)
        # (the rows: what their predicates and tools are named for)
        rows = {t for p in counted for q in _derived_from(ctx, p) | {p}
                for spec in [ctx.tools.get((ctx.predicates.get(q) or view).tool or "") or {}]
                for t in terms(q) | terms(spec.get("name", ""))}
        if not any(word_match(w, t) for w in things for t in rows):
            problems.append(f"the share counts rows of {', '.join(counted)} against {col}, a number of "
                            f"{' or '.join(sorted(things))}, which those rows are not")
    return list(dict.fromkeys(problems))


def _own_left_out(ctx: RunContext, fr: frame.QuestionFrame) -> list[str]:
    """"How many objects does X hold, counting all of its sub-departments?": a tool called for each thing of a chain
    followed from X must be called for X itself too, or X's own things are left out."""
    if not fr.own:
        return []
    chains = {v.name for v in ctx.predicates.values() if _follows_chain(ctx.tools.get(v.tool or "") or {})}
    calls = [c for c in ctx.executed.values() if c.level == "high"]
    problems = []
    for c in calls:
        for p, form in c.params.items():
            if not (isinstance(form, dict) and "each" in form and form["each"].split(".")[0] in chains):
                continue
            # (an entity the tool takes itself: a department, whose objects the tool lists; not a health system
            # whose chain of providers holds its own)
            own = [e for e in fr.entities if not e.kind and f"{c.tool}.{p}" in e.parameters]
            for e in own:
                if not any(o.tool == c.tool and str(o.params.get(p)).lower() == str(e.value).lower() for o in calls):
                    problems.append(f"not checked: the question counts {e.value}'s own things in with those of its "
                                    f"chain, and {c.tool} was called only for the chain's things")
    return problems


def _rests_on_a_chain(ctx: RunContext, aggs: list) -> bool:
    """The answer's aggregates read, or its values come from, a recursive tool's output or a recursive rule."""
    chains = {v.name for v in ctx.predicates.values() if _follows_chain(ctx.tools.get(v.tool or "") or {})}
    chains |= {s.output for s in ctx.synthesized if _recursive_program(s.program)}
    for s in ctx.synthesized:  # what reads a chain carries it
        prog = _program(s.program)
        if prog is not None and any(isinstance(lit, A.Atom) and lit.pred in chains for r in prog.rules
                                    for lit in r.body):
            chains |= {h.pred for r in prog.rules for h in r.head} | {s.output}
    if aggs:
        return any(p in chains for _f, p, _c, _o, _w in aggs)
    values = ctx.answer_values
    if not values:
        return bool(chains)
    return any(_same(x, v) for view in ctx.answer_predicates() if view.name in chains for f in view.facts
               for x in f.values() for v in values)


def _rules(text: str) -> list[A.Rule]:
    prog = _program(text)
    return list(prog.rules) if prog is not None else []


def _divides(rules: list[A.Rule]) -> bool:
    """Whether a rule computes a value by a division (a share, a ratio), inside an aggregate too."""
    return any(isinstance(lit, A.Assignment) and A.has_division(lit.value.expr if isinstance(lit.value, A.Aggregate)
                                                                else lit.value)
               for r in rules for lit in r.body)


def _recursive_program(text: str) -> bool:
    prog = _program(text)
    return prog is not None and A.is_recursive(prog)


def _keeps_first_level(ctx: RunContext, fr: frame.QuestionFrame) -> bool:
    """Whether a rule keeps only the first level of a chain-following tool's output: a level column (declared, or
    named like one) equal to 1, or an output column (not a parameter's) equal to the entity the question names (the
    titles filed under the genre itself)."""
    entities = {e.value.lower() for e in fr.entities}
    for s in ctx.synthesized:
        for rule in _rules(s.program):
            for atom in (lit for lit in rule.body if isinstance(lit, A.Atom)):
                view = ctx.predicates.get(atom.pred)
                if view is None or not _follows_chain(ctx.tools.get(view.tool or "") or {}):
                    continue
                roles = (ctx.tools.get(view.tool or "") or {}).get("roles") or {}
                for col, term in zip(view.columns, atom.args, strict=False):
                    if not isinstance(term, A.Const) or col in view.param_columns:
                        continue
                    level = roles.get(col) == "level" or bool(_words(col) & {"level", "depth", "hop", "step"})
                    if (level and term.value == 1) or str(term.value).lower() in entities:
                        return True
    return False


def _follows_chain(spec: dict[str, Any]) -> bool:
    return bool(spec.get("follows_chain", spec.get("recursive")))


def rule_kind(program: str, output: str) -> str:
    """What the rules defining ``output`` compute, read from the rules themselves: ``threshold_check`` (an amount
    compared with another value of the data, such as a limit), ``filter`` (compared with a constant), ``aggregate``,
    ``ratio``, ``join`` or ``view``."""
    rules = [r for r in _rules(program) if any(h.pred == output for h in r.head)]
    comparisons = [lit for r in rules for lit in r.body if isinstance(lit, A.Comparison) and lit.op in ("<", "<=", ">",
                                                                                                          ">=")]
    if any(isinstance(c.left, A.Var) and isinstance(c.right, A.Var) for c in comparisons):
        return "threshold_check"
    if any(isinstance(lit, A.Assignment) and isinstance(lit.value, A.Aggregate) for r in rules for lit in r.body):
        return "aggregate"
    if _divides(rules):
        return "ratio"
    constants = any(isinstance(t, A.Const) for r in rules for lit in r.body if isinstance(lit, A.Atom)
                    for t in lit.args)
    if comparisons or constants or any(isinstance(lit, A.Comparison) for r in rules for lit in r.body):
        return "filter"
    if any(sum(isinstance(lit, A.Atom) for lit in r.body) > 1 for r in rules):
        return "join"
    return "view"
