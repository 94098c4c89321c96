"""The Verifier's checks that are not the plan's: a lint for synthesized rules and the answer's grounding.

- :func:`lint_rules`: an aggregate whose bindings cannot tell two contributions apart merges equal values (set
  semantics): ``t(K, T) :- m(K, _, A), T = sum(A).`` sums the *distinct* amounts of K. The lint asks for a named
  variable that identifies each contribution.
- :func:`check_answer`: every number and every named entity in the answer must be a derived fact of a high-level
  or synthesized predicate the agents retrieved (numbers compared at the precision the answer shows them).
"""

from __future__ import annotations

import math
import re

from vadaorchestra.agents.context import RunContext
from vadaorchestra.datalog import ast as A
from vadaorchestra.datalog.parser import parse
from vadaorchestra.errors import VadaError

_NUMBER = re.compile(r"(?<![\w.])(-?\d[\d,]*(?:\.\d+)?)\s*([MKk%]|million|thousand)?(?![\w])")
_ENTITY = re.compile(r"\b[A-Z][\w&'.-]*(?:\s+(?:[A-Z][\w&'.-]*|of|de|di|and|&))*\s+[A-Z][\w&'.-]*\b|\b[A-Z][a-z]+[A-Z]\w*\b")


def lint_rules(program: str) -> list[str]:
    """Problems of synthesized rules the engine would accept but that likely compute the wrong thing."""
    try:
        prog = parse(program, "<program>")
    except VadaError:
        return []  # the server's validation reports syntax errors with their location
    problems = []
    for rule in prog.rules:
        agg = next((lit for lit in rule.body if isinstance(lit, A.Assignment) and isinstance(lit.value, A.Aggregate)),
                   None)
        # count(X) counts distinct X, which is what counting entities means; sums and means of amounts are the pitfall
        if agg is None or agg.value.func not in ("sum", "mean", "avg", "prod"):
            continue
        if agg.value.contributors:
            continue
        head_vars = {t.name for h in rule.head for t in h.args if isinstance(t, A.Var)} - {agg.var}
        agg_vars = {v.name for v in A.expr_vars(agg.value.expr)} if agg.value.expr is not None else set()
        named = {t.name for lit in rule.body if isinstance(lit, A.Atom) for t in lit.args
                 if isinstance(t, A.Var) and not t.anonymous and not t.name.startswith("_")}
        anonymous = any(isinstance(t, A.Var) and (t.anonymous or t.name.startswith("_"))
                        for lit in rule.body if isinstance(lit, A.Atom) for t in lit.args)
        if anonymous and not (named - head_vars - agg_vars):
            where = f"line {rule.span.line}" if rule.span else "a rule"
            problems.append(f"{where}: {agg.value.func} over bindings of only {sorted(head_vars | agg_vars)} merges "
                            f"equal values (set semantics); name the variable that identifies each contribution "
                            f"instead of '_'")
    return problems


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
    text, question = answer.lower(), ctx.question.lower()
    for s in ctx.synthesized:
        view = ctx.predicates.get(s.output)
        if view is None or not view.facts or not s.purpose.lower().startswith("threshold check"):
            continue
        for fact in view.facts:
            names = [v for v in fact.values() if isinstance(v, str) and v.lower() not in question]
            if names and not any(n.lower() in text for n in names):
                shown = ", ".join(f"{k}={v}" for k, v in fact.items())
                problems.append(f"the answer omits what the threshold check {view.name} found: {shown}")
    return problems


def _known(name: str, strings: set[str], question: str) -> bool:
    n = name.lower()
    return n in strings or n in question or any(n in s for s in strings)


def check_answer(answer: str, ctx: RunContext) -> list[str]:
    """Numbers and entities of the answer that no retrieved fact supports (empty when grounded)."""
    numbers, strings = _facts_values(ctx)
    problems = []
    # digits inside names of the facts or the question ("Company 000042") are part of an entity, not numbers
    masked = answer
    for name in sorted(strings | set(re.findall(r"[A-Z][\w&'.-]*(?:\s+[\w&'.-]+)*\s+\d+", ctx.question)),
                       key=len, reverse=True):
        if len(name) >= 3 and not _NUMBER.fullmatch(name):
            masked = re.sub(re.escape(name), lambda m: "#" * len(m.group(0)), masked, flags=re.I)
    for m in _NUMBER.finditer(masked):
        raw, suffix = m.group(1), m.group(2)
        try:
            shown = float(raw.replace(",", ""))
        except ValueError:
            continue
        decimals = len(raw.split(".")[1]) if "." in raw else 0
        scale = {"M": 1e6, "million": 1e6, "K": 1e3, "k": 1e3, "thousand": 1e3}.get(suffix or "", 1.0)
        tolerance = 0.5 * 10 ** (-decimals) * scale
        target = shown * scale
        if not any(math.isclose(target, v, abs_tol=tolerance + 1e-9) or
                   (suffix == "%" and math.isclose(shown, v, abs_tol=tolerance)) for v in numbers):
            problems.append(f"the number {m.group(0).strip()!r} is not a derived fact")
    lowered = {s.lower() for s in strings}
    question = ctx.question.lower()
    for m in _ENTITY.finditer(answer):
        # a match may run over a sentence's end ("NeuralLinker SpA. These") or join two names ("DeepLogic Ltd and
        # NeuralLinker SpA"): a match that is no fact is checked part by part
        for part in (p.strip(" .") for p in re.split(r"\.\s+", m.group(0))):
            names = [part] if _known(part, lowered, question) else \
                [n.strip() for n in re.split(r"\s+(?:and|&)\s+", part)]
            for name in names:
                if name and _ENTITY.fullmatch(name) and not _known(name, lowered, question):
                    problems.append(f"the entity {name!r} is not in any derived fact")
    return problems
