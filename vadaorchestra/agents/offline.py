"""The offline policy: deterministic decisions from the catalog's own words and the data, with no model.

Generic over catalogs — it knows tool *shapes*, never tool or entity names:
- one query (:mod:`vadaorchestra.agents.question.compose`): most lookups, lists, counts, totals, extremes and shares are a
  tool called for the question's entity, perhaps joined with a tool called for each value of one of its columns,
  restricted by the other entities, the conditions and "directly", then aggregated; a limit passed by groups
  gathered along a chain of tools is :mod:`vadaorchestra.agents.question.limits`. The strategies below answer the rest;
- selection: lexical overlap of the question with each tool's name, description and schema (IDF-weighted, light
  stemming, prefix matches); a tool is chosen only if every parameter links to a value present in the data
  (``lookup_values``);
- retrieval: statistics on the numeric attributes, then the top facts by the first one;
- synthesis, from rule templates: the share of each measure in a reference amount and a threshold check against a
  limit (a numeric attribute named like limit/threshold/cap of a predicate sharing the measure's parameter column);
  group aggregation along a functional relation found by expansion, and the same check on the groups;
- replanning: the top entities of the measure are expanded through every tool whose parameter links to them;
- the answer: sentences built from the facts of high-level and synthesized predicates only.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from vadaorchestra.agents import wording
from vadaorchestra.agents.context import PredicateView, RunContext
from vadaorchestra.agents.plan import Call
from vadaorchestra.agents.policy import Probe, Retrieval, RuleProposal, TopK
from vadaorchestra.agents.question import frame
from vadaorchestra.agents.question.compose import Composer
from vadaorchestra.agents.question.frame import OPERATION_WORDS, terms
from vadaorchestra.agents.question.frame import word_match as _match
from vadaorchestra.agents.question.limits import LimitComposer
from vadaorchestra.agents.question.naming import mappings, var
from vadaorchestra.agents.question.naming import slug as naming_slug
from vadaorchestra.agents.question.parent import ParentComposer
from vadaorchestra.agents.question.parts import PartsComposer

LIMIT_WORDS = ("limit", "threshold", "cap", "ceiling", "max")
RATIO_WORDS = ("pct", "percent", "percentage", "ratio", "rate", "share")
BASE_WORDS = ("capital", "equity", "base", "total", "budget", "size", "assets", "aum")


def _answer_column(ctx: RunContext, columns: list[str], others: list[str] | None = None) -> str | None:
    """Of a predicate's non-parameter string columns (or its ``others``, numbers), the one the question asks for
    (else the first string column)."""
    named = frame.asked_columns(frame.of(ctx).asks_for, [*columns, *(others or [])])
    return named[0] if named else columns[0] if columns else None


def _window(ctx: RunContext, value: str, width: int = 4) -> set[str] | None:
    """Content words within ``width`` words of where ``value`` stands in the question."""
    fr = frame.of(ctx)
    i = fr.question.lower().find(value.lower())
    if i < 0:
        return None
    return set(frame.before(fr, i, width)) | set(frame.after(fr, i + len(value), width))


def question_words(ctx: RunContext, besides: str | None = None) -> set[str]:
    """The question's content words (lemmas), the words of the names it gives included (``besides`` one of them)."""
    fr = frame.of(ctx)
    return set(fr.words) | {w for e in fr.entities if e.value != besides for w in terms(e.value)} | set(fr.directions)


def _overlap(words: set[str], tool: dict[str, Any]) -> float:
    text = terms(" ".join([tool["name"], tool["description"], tool["output_predicate"]]))
    name = terms(tool["name"])
    return sum(2.0 if any(_match(w, x) for x in name) else 1.0 for w in words if any(_match(w, x) for x in text))


def _tokens(column: str) -> set[str]:
    return set(re.findall(r"[a-z]+", column.lower()))


@dataclass
class Measure:
    view: PredicateView
    key: str | None  # parameter column shared with the reference
    entity: str
    amount: str
    rows: bool = False  # several facts per entity (a security per row): the amount is summed per entity first


@dataclass
class Reference:
    view: PredicateView
    key: str
    limit: str
    base: str | None
    ratio: bool = False  # the limit is a ratio of the base (0.10), not an amount


@dataclass
class OfflinePolicy:
    name: str = "offline"
    top_entities: int = 3
    threshold: float = 0.4  # a tool is selected when its score is at least this share of the best score
    proposed: set[str] = field(default_factory=set)
    expanded: set[str] = field(default_factory=set)
    checks: dict[str, str] = field(default_factory=dict)  # measure predicate -> its over-limit predicate
    ranked: list[str] = field(default_factory=list)  # selected tools, best score first
    candidates: list[str] = field(default_factory=list)  # tools whose words match the question, best first
    chain: Call | None = None  # the first hop of a two-hop question
    focus: tuple[str, str, str] | None = None  # (predicate, column, what it is) of a focused question's answer
    hops: dict[str, str] = field(default_factory=dict)  # second-hop tool -> its parameter, once planned
    # one query over the tools' outputs, when one answers (a group-limit check: LimitComposer)
    composer: Composer | LimitComposer | PartsComposer | ParentComposer = field(default_factory=Composer)

    # --- selection -------------------------------------------------------------------------------------------------
    async def select(self, ctx: RunContext, probe: Probe) -> list[Call]:
        q = question_words(ctx)
        docs = {name: terms(" ".join([name, t["description"], t["output_predicate"]]
                                     + [c["name"] for c in t["schema"]])) for name, t in ctx.tools.items()}
        names = {name: terms(name) | terms(t["output_predicate"]) for name, t in ctx.tools.items()}
        n = len(docs)

        def idf(w: str) -> float:
            # floored: a word every tool has still counts a little (in a one-tool catalog every word is such a word)
            return max(0.01, math.log((n + 1) / (1 + sum(1 for d in docs.values() if any(_match(w, x) for x in d)))))

        def score(name: str, q: set[str] = q) -> float:
            """IDF of the question's words found in the tool's text, a word of its name or output counting twice,
            scaled by how much of the name the question covers."""
            raw = sum(idf(w) * (2 if any(_match(w, x) for x in names[name]) else 1)
                      for w in q if any(_match(w, x) for x in docs[name]))
            covered = sum(1 for x in names[name] if any(_match(w, x) for w in q)) / max(1, len(names[name]))
            return raw * (0.5 + 0.5 * covered)

        scores = {name: score(name) for name in docs}
        best = max(scores.values(), default=0.0)
        # the composer weighs tools by the words that say what the question is about, not what it computes with
        # them ("What total amount ..." is a sum, not a question about a tool of totals)
        about = q - OPERATION_WORDS
        calls = []
        self.candidates = [name for name in sorted(scores, key=lambda k: (-scores[k], k))
                           if best > 0 and scores[name] >= self.threshold * best]
        for name in self.candidates:
            params = await self._link_all(ctx, probe, name, ctx.question)
            if params is not None:
                calls.append(Call(tool=name, params=params, level="high"))
                self.ranked.append(name)
        if not calls and best == 0:
            # no tool's words are the question's ("Who works in Research?"): the tools its entities are parameters of;
            # not when a tool's words are there but its parameter has no value ("Who owns the suppliers that Acme
            # Motors buys from?": the owners' tool is the one meant, not the orders' tool Acme Motors links to)
            fr = frame.of(ctx)
            named = sorted({p.split(".", 1)[0] for e in fr.entities for p in e.parameters} & set(ctx.tools))

            def names_things(tool: str) -> bool:  # an output column of strings besides the parameters'
                spec = ctx.tools[tool]
                return any(c["type"] == "string" and c["name"] not in spec.get("parameter_columns", {})
                           for c in spec["schema"])

            if fr.who:  # "Who works in Research?": a tool whose output names things, not one of amounts only
                named = [t for t in named if names_things(t)]
            for name in named:
                params = await self._link_all(ctx, probe, name, ctx.question)
                if params is not None:
                    calls.append(Call(tool=name, params=params, level="high"))
                    self.ranked.append(name)
        if calls and not frame.of(ctx).analysis:
            first = self._first_hop(ctx, calls)
            outer = self._outer_tools(ctx, first, docs) if first is not None else []
            if outer:
                # a question about the results of another question: ask the inner one first, the outer one after
                self.chain = first
                self.candidates = outer + [t for t in self.candidates if t not in outer]
                calls, self.ranked = [first], [first.tool]
        about_scores = {name: score(name, about) for name in docs}
        def joined_score(anchor: str, tool: str) -> float:  # the words the anchor's text does not have
            return score(tool, {w for w in about if not any(_match(w, x) for x in docs[anchor])})

        def scores_of(part: RunContext) -> tuple[dict[str, float], Callable[[str, str], float]]:
            words = question_words(part) - OPERATION_WORDS
            return ({name: score(name, words) for name in docs},
                    lambda anchor, tool: score(tool, {w for w in words if not any(_match(w, x) for x in docs[anchor])}))

        if PartsComposer.applies(frame.of(ctx)) and (composed := (parts := PartsComposer()).choose(ctx, scores_of)):
            # a question of several parts, each answered by a query of its own
            self.composer, self.chain = parts, None
            calls, self.ranked = composed, [c.tool for c in composed]
        elif ParentComposer.applies(frame.of(ctx)) and (composed := (parent := ParentComposer()).choose(ctx)):
            # the thing one level up, of the kind asked: the same tool read for it ("Which area does X report to?")
            self.composer, self.chain = parent, None
            calls, self.ranked = composed, [c.tool for c in composed]
        elif Composer.applies(frame.of(ctx)) and (
                (composed := self.composer.choose(ctx, about_scores, joined_score)) or (
                    self.composer.query is not None and self.composer.query.every is not None
                    and (composed := await self.composer.every_calls(probe)))):
            # one query answers it, joining a second tool when the question's words ask for it (or the anchor called
            # for each value of its parameter, when the question names no thing)
            self.chain = None
            calls, self.ranked = composed, [c.tool for c in composed]
        elif LimitComposer.applies(frame.of(ctx)) and (composed := await (limiter := LimitComposer()).choose(
                ctx, about_scores, probe)):
            # a limit passed by groups gathered along a chain of tools (two hops are not enough for it)
            self.composer, self.chain = limiter, None
            calls, self.ranked = composed, [c.tool for c in composed]
        ctx.event("select", scores={k: round(v, 3) for k, v in scores.items() if v > 0},
                  chosen=[str(c) for c in calls], chain=str(self.chain) if self.chain else None,
                  composed=self.composer.query is not None)
        return calls

    def _outer_tools(self, ctx: RunContext, first: Call, docs: dict[str, set[str]]) -> list[str]:
        """Tools the question's words away from the entity ask for, beyond what the first hop's name says.

        Only distinctive words count (found in at most a third of the tools): 'Which suppliers ship to the plants
        managed by X' leaves 'supplier', 'ship' outside the entity's phrase, naming a shipping tool; 'Which firms
        audit the accounts of X' leaves only 'firm', a word nearly every tool uses."""
        value = next(iter(first.params.values()), None)
        window = _window(ctx, str(value)) if value is not None else None
        if window is None:
            return []
        first_name = terms(first.tool) | terms(ctx.tools[first.tool]["output_predicate"])
        rest = question_words(ctx, besides=str(value))  # the entity's own words name nothing
        outer = {w for w in rest - window
                 if not any(_match(w, x) for x in first_name)
                 and sum(1 for d in docs.values() if any(_match(w, x) for x in d)) <= max(1, len(docs) // 3)}
        if not outer:
            return []
        ranked = sorted(((_overlap(outer, ctx.tools[t]), t) for t in ctx.tools if t != first.tool), reverse=True)
        return [t for sc, t in ranked if sc > 0]

    def _first_hop(self, ctx: RunContext, calls: list[Call]) -> Call | None:
        """The linked call whose tool best matches the words right around the entity it was linked to."""
        best: tuple[float, Call] | None = None
        for call in calls:
            for value in call.params.values():
                window = _window(ctx, str(value))
                if window is None:
                    continue
                sc = _overlap(window, ctx.tools[call.tool])
                if best is None or sc > best[0]:
                    best = (sc, call)
        return best[1] if best and best[0] > 0 else None

    async def _link_all(self, ctx: RunContext, probe: Probe, tool: str, text: str) -> dict[str, Any] | None:
        params = {}
        for p in ctx.tools[tool]["parameters"]:
            matches = [m for m in await probe.lookup(tool, p["name"], text) if m.get("exact")]
            if not matches:
                return None
            params[p["name"]] = matches[0]["value"]
        return params

    # --- retrieval -------------------------------------------------------------------------------------------------
    async def retrieval(self, ctx: RunContext, view: PredicateView, probe: Probe) -> Retrieval:
        numeric = [c for c in view.typed("int", "float") if c not in view.param_columns]
        strings = [c for c in view.typed("string") if c not in view.param_columns]
        stats = numeric[:2] + strings[:1]
        k = min(view.cardinality, 1000) if frame.of(ctx).listing else 10
        top = [TopK(order_by=numeric[0], k=k)] if numeric else [TopK(k=k)]
        return Retrieval(statistics=stats, top_k=top)

    # --- shapes found in the retrieved predicates -------------------------------------------------------------------
    def _measures(self, ctx: RunContext) -> list[Measure]:
        out = []
        for v in ctx.predicates.values():
            if v.origin != "high" or v.cardinality < 2 or v.each:  # not an expansion of another measure
                continue
            ents = [c for c in v.typed("string") if c not in v.param_columns]
            nums = [c for c in v.typed("int", "float") if c not in v.param_columns]
            key = next(iter(v.param_columns), None)
            if len(ents) == 1 and len(nums) == 1:
                out.append(Measure(v, key, ents[0], nums[0]))
            elif len(ents) > 1 and len(nums) == 1:
                # the entity the question asks about ("Which issuers exceed ..."), its amounts summed over the rows
                named = frame.asked_columns(frame.of(ctx).asks_for, ents)
                if len(named) == 1:
                    out.append(Measure(v, key, named[0], nums[0], rows=True))
        return sorted(out, key=lambda m: -m.view.cardinality)

    def _reference(self, ctx: RunContext, m: Measure) -> Reference | None:
        for v in ctx.predicates.values():
            if v.origin != "high" or v is m.view or m.key is None or m.key not in v.param_columns:
                continue
            if v.param_columns[m.key] != m.view.param_columns[m.key]:
                continue
            nums = v.typed("int", "float")
            roles = {r: c for c, r in ((ctx.tools.get(v.tool or "") or {}).get("roles") or {}).items() if c in nums}
            if "limit" in roles:  # declared by the catalog: no word list needed
                return Reference(v, m.key, roles["limit"], roles.get("base"))
            if "limit_ratio" in roles and "base" in roles:
                return Reference(v, m.key, roles["limit_ratio"], roles["base"], ratio=True)
            limits = [c for c in nums if _tokens(c) & set(LIMIT_WORDS)]
            # an amount to compare with, not a percentage of something
            limit = next((c for c in limits if not _tokens(c) & set(RATIO_WORDS)), None)
            base = next((c for c in nums if c != limit and _tokens(c) & set(BASE_WORDS)), None)
            if limit is None and base is not None:
                # a limit given as a ratio of the base (max_issuer_share 0.10 of net_assets)
                ratio = next((c for c in limits if c != base and _tokens(c) & set(RATIO_WORDS)), None)
                if ratio is not None and not _tokens(ratio) & {"pct", "percent", "percentage"}:
                    return Reference(v, m.key, ratio, base, ratio=True)
            if limit is None:
                continue
            return Reference(v, m.key, limit, base)
        return None

    @staticmethod
    def _atom(view: PredicateView, names: dict[str, str]) -> str:
        return f"{view.name}({', '.join(names.get(c, '_') for c in view.columns)})"

    def _check(self, source: str, cols: list[tuple[str, str, str]], key: str, amount_var: str,
               ref: Reference, out_base: str) -> list[RuleProposal]:
        """The share of each amount in the reference base (or limit), then the facts above the limit."""
        taken = {v for _, v, _ in cols}
        lim, base = var(ref.limit, taken), var(ref.base, taken) if ref.base else None
        ref_atom = self._atom(ref.view, {ref.key: key, ref.limit: lim, **({ref.base: base} if ref.base else {})})
        head_vars = [v for _, v, _ in cols]
        share = f"{out_base}_share"
        over = f"{out_base}_over_limit"
        denominator = base or lim
        maps = mappings(share, cols)
        n = len(cols)
        maps += (f' @mapping("{share}", {n}, "{ref.limit}", "float").'
                 f' @mapping("{share}", {n + 1}, "share_pct", "float").')
        limit_expr = ""
        if ref.ratio:  # the limit amount is the ratio times the base
            ratio, lim = lim, var(f"{ref.limit}_amount", taken)
            limit_expr = f"{lim} = {ratio} * {base}, "
            maps = maps.replace(f'"{ref.limit}", "float")', f'"{ref.limit}_amount", "float")')
        share_rule = (f'{share}({", ".join(head_vars)}, {lim}, Pct) :- {source}({", ".join(head_vars)}), '
                      f'{ref_atom}, {limit_expr}Pct = {amount_var} / {denominator} * 100.')
        maps_over = maps.replace(f'"{share}"', f'"{over}"')
        over_rule = (f'{over}({", ".join(head_vars)}, {lim}, Pct) :- {share}({", ".join(head_vars)}, {lim}, Pct), '
                     f'{amount_var} > {lim}.')
        return [
            RuleProposal(program=f'@output("{share}"). {maps}\n{share_rule}', output=share,
                         purpose=f"share of each {cols[-1][0]} of {source} in the {ref.base or ref.limit} "
                                 f"of {ref.view.name}"),
            RuleProposal(program=f'@output("{over}"). {maps_over}\n{over_rule}', output=over,
                         purpose=f"threshold check: {source} above the {ref.limit} of {ref.view.name}"),
        ]

    # --- synthesis -------------------------------------------------------------------------------------------------
    async def synthesize(self, ctx: RunContext, probe: Probe) -> list[RuleProposal]:
        if self.composer.query is not None:
            return await self.composer.synthesize(ctx, probe)
        if self.chain is not None:
            return self._join(ctx)
        focused = await self._focused(ctx, probe)
        if focused is not None:
            return focused
        fr = frame.of(ctx)
        out: list[RuleProposal] = self._counts(ctx) if fr.count else \
            self._totals(ctx) if fr.total and not fr.share and not fr.analysis else []
        for m in (self._measures(ctx) if frame.of(ctx).analysis else []):
            ref = self._reference(ctx, m)
            if ref is None:
                continue
            taken: set[str] = set()
            k, e, a = var(m.key, taken), var(m.entity, taken), var(m.amount, taken)
            m_atom = self._atom(m.view, {m.key: k, m.entity: e, m.amount: a})
            cols = [(m.key, k, "string"), (m.entity, e, "string"), (m.amount, a, "float")]
            if f"check:{m.view.name}" not in self.proposed:
                self.proposed.add(f"check:{m.view.name}")
                # a view of the measure with exactly the three columns, which keeps the templates below simple
                base = m.view.name
                if len(m.view.columns) != 3 or m.view.columns != [m.key, m.entity, m.amount]:
                    base = f"{m.view.name}_by_{m.entity}"
                    maps = mappings(base, cols)
                    if m.rows:  # every row named, so the sum ranges over the rows (equal amounts both count)
                        row_taken = {k, e, a}
                        every = {c: var(c, row_taken) for c in m.view.columns}
                        every.update({m.key: k, m.entity: e, m.amount: var("row_" + m.amount, row_taken)})
                        body = (f"{self._atom(m.view, every)}, {a} = sum({every[m.amount]})")
                        what = f"{m.amount} summed per {m.entity} of {m.view.name}"
                    else:
                        body, what = m_atom, f"{m.amount} per {m.entity} of {m.view.name}"
                    out.append(RuleProposal(program=f'@output("{base}"). {maps}\n{base}({k}, {e}, {a}) :- {body}.',
                                            output=base, purpose=what))
                out += self._check(base, cols, k, a, ref, m.view.name)
                self.checks[m.view.name] = base
            for g in self._groupings(ctx, m):
                tag = f"group:{m.view.name}:{g[0].name}"
                if tag in self.proposed:
                    continue
                self.proposed.add(tag)
                gview, p_col, q_col = g
                taken = {k, e, a}
                grp, total = var(q_col, taken), var("total_" + m.amount, taken)
                name = f"{m.view.name}_by_{q_col}"
                g_atom = self._atom(gview, {p_col: e, q_col: grp})
                gcols = [(m.key, k, "string"), (q_col, grp, "string"), (m.amount, total, "float")]
                maps = mappings(name, gcols)
                out.append(RuleProposal(
                    program=f'@output("{name}"). {maps}\n{name}({k}, {grp}, {total}) :- {m_atom}, {g_atom}, '
                            f'{total} = sum({a}).',
                    output=name, purpose=f"group aggregation: {m.amount} of {m.view.name} summed per {q_col} "
                                         f"of {gview.name}"))
                out += self._check(name, gcols, k, total, ref, name)
                members = f"{name}_members"
                mcols = [(m.key, k, "string"), (q_col, grp, "string"), (m.entity, e, "string"), (m.amount, a, "float")]
                maps = mappings(members, mcols)
                out.append(RuleProposal(
                    program=f'@output("{members}"). {maps}\n{members}({k}, {grp}, {e}, {a}) :- '
                            f'{name}_over_limit({k}, {grp}, _, _, _), {m_atom}, {g_atom}.',
                    output=members, purpose=f"members of the groups above the limit: each {m.entity} of {m.view.name} "
                                            f"in a group of {name}_over_limit"))
        return out

    async def _focused(self, ctx: RunContext, probe: Probe) -> list[RuleProposal] | None:
        """A question about one entity *and* a second one in another column of its tool's output ("How many orders
        did Acme Motors place with Emerald Plastics?", "What share of Aurora Growth Fund's net assets is invested in
        Orion Energy?"): filter on the second entity, then count the asked thing, sum the asked measure, or divide
        that sum by the reference's base amount."""
        fr = frame.of(ctx)
        if "focused" in self.proposed or fr.analysis:
            return None
        count, share, total = fr.count, fr.share, fr.total
        if not (count or share or total):
            return None
        # every value the question names, a parameter's or an output column's ("... for patient Sofia Marchetti"),
        # longest first
        entities = sorted((e.value for e in fr.entities), key=len, reverse=True)
        bound = {str(v).lower() for c in ctx.executed.values() for v in c.params.values() if not isinstance(v, dict)}
        for v in [v for v in ctx.predicates.values() if v.origin == "high" and not v.each and v.param_columns]:
            for e in (e for e in entities if e.lower() not in bound):
                for col in (c for c in v.typed("string") if c not in v.param_columns):
                    if await probe.matching(v.name, col, e) == 0:
                        continue
                    self.proposed.add("focused")
                    return self._focus_rules(ctx, v, col, e, count=count, share=share)
        return None

    async def _focus_expansion(self, ctx: RunContext, probe: Probe) -> list[Call] | None:
        """A focused question whose second entity is in none of the outputs yet, or an analysis question with no
        measure to check: the other tools that take the value the question bound (the fund, the buyer), so that one
        of their outputs can hold it. None when not such a question."""
        if "focused" in self.proposed or "focus_expansion" in self.proposed:
            return None
        fr = frame.of(ctx)
        if fr.analysis:
            if self._measures(ctx):  # an analysis question with its measure at hand: the templates go on
                return None
        elif not (fr.count or fr.share or fr.total):
            return None
        self.proposed.add("focus_expansion")
        bound = {str(v): v for c in ctx.executed.values() for v in c.params.values() if isinstance(v, str)}
        calls = []
        for tool, spec in ctx.tools.items():
            if any(c.tool == tool for c in ctx.executed.values()) or len(spec["parameters"]) != 1:
                continue
            param = spec["parameters"][0]["name"]
            for value in bound:
                hits = await probe.lookup(tool, param, value)
                if any(h.get("exact") and str(h["value"]).lower() == value.lower() for h in hits):
                    calls.append(Call(tool=tool, params={param: bound[value]}, level="high"))
                    break
        return calls or None

    def _focus_rules(self, ctx: RunContext, v: PredicateView, col: str, entity: str, *, count: bool,
                     share: bool) -> list[RuleProposal]:
        from vadaorchestra.datalog.printer import format_const

        taken: set[str] = set()
        names = {c: var(c, taken) for c in v.columns}
        names[col] = format_const(entity)
        key = next(iter(v.param_columns))
        atom = self._atom(v, names)
        slug = naming_slug(entity)
        nums = [c for c in v.typed("int", "float") if c not in v.param_columns]
        words = question_words(ctx)
        if count:
            counted = _answer_column(ctx, [c for c in v.typed("string") if c not in v.param_columns
                                                    and c != col]) or v.columns[-1]
            name = f"{v.name}_{slug}_count"
            program = (f'@output("{name}"). @mapping("{name}", 0, "{key}", "string"). '
                       f'@mapping("{name}", 1, "{counted}_count", "int").\n'
                       f'{name}({names[key]}, N) :- {atom}, N = count({names[counted]}).')
            self.focus = (name, f"{counted}_count", f"{counted} values of {v.name} with {col} {entity}")
            return [RuleProposal(program=program, output=name,
                                 purpose=f"counting: {counted} of {v.name} with {col} = {entity}")]
        if not nums:
            return []
        measure = next((c for c in nums if terms(c) & words), nums[0])
        name = f"{v.name}_{slug}_total"
        total = var("total", taken)
        program = (f'@output("{name}"). @mapping("{name}", 0, "{key}", "string"). '
                   f'@mapping("{name}", 1, "total_{measure}", "float").\n'
                   f'{name}({names[key]}, {total}) :- {atom}, {total} = sum({names[measure]}).')
        out = [RuleProposal(program=program, output=name,
                            purpose=f"sum: {measure} of {v.name} with {col} = {entity}")]
        self.focus = (name, f"total_{measure}", f"total {measure} of {v.name} with {col} {entity}")
        if share:
            ref = next(((r, c) for r in ctx.predicates.values() if r.origin == "high" and r is not v
                        and key in r.param_columns for c in r.typed("int", "float")
                        if c not in r.param_columns and (terms(c) & words or _tokens(c) & set(BASE_WORDS))), None)
            if ref is None:
                return out
            r, base = ref
            rn = {c: var(c, taken) for c in r.columns}
            rn[key] = names[key]
            share_name = f"{name}_share"
            program = (f'@output("{share_name}"). @mapping("{share_name}", 0, "{key}", "string"). '
                       f'@mapping("{share_name}", 1, "share_of_{base}", "float").\n'
                       f'{share_name}({names[key]}, S) :- {name}({names[key]}, {total}), {self._atom(r, rn)}, '
                       f'S = {total} / {rn[base]}.')
            out.append(RuleProposal(program=program, output=share_name,
                                    purpose=f"share: {name} divided by the {base} of {r.name}"))
            self.focus = (share_name, f"share_of_{base}", f"share of the {base} of {r.name}: {measure} of {v.name} "
                                                          f"with {col} {entity}")
        return out

    def _counts(self, ctx: RunContext) -> list[RuleProposal]:
        """Counting: the number of distinct values of the first non-parameter column per parameter value."""
        out = []
        for v in ctx.predicates.values():
            tag = f"count:{v.name}"
            if v.origin != "high" or not v.param_columns or tag in self.proposed:
                continue
            key = next(iter(v.param_columns))
            counted = _answer_column(ctx, [c for c in v.typed("string") if c not in v.param_columns])
            if counted is None:
                continue
            self.proposed.add(tag)
            taken: set[str] = set()
            k, x, n = var(key, taken), var(counted, taken), var("n_" + counted, taken)
            name = f"{v.name}_count"
            out.append(RuleProposal(
                program=f'@output("{name}"). @mapping("{name}", 0, "{key}", "string"). '
                        f'@mapping("{name}", 1, "{counted}_count", "int").\n'
                        f'{name}({k}, {n}) :- {self._atom(v, {key: k, counted: x})}, {n} = count({x}).',
                output=name, purpose=f"counting: distinct {counted} values of {v.name} per {key}"))
        return out

    def _totals(self, ctx: RunContext) -> list[RuleProposal]:
        """A total: the sum, per parameter value, of the number column the question's noun phrase names ("the total
        amount billed": amount), looked for in the chosen tools' outputs first, then in their dependencies'; else of
        the one column a question word names, or the only number column of a chosen output. Every column of the row
        is named, so equal amounts all count."""
        if "total" in self.proposed:
            return []
        words = question_words(ctx)
        views = sorted((v for v in ctx.predicates.values() if v.origin in ("high", "low") and v.param_columns),
                       key=lambda v: v.origin != "high")

        def numbers(v: PredicateView) -> list[str]:
            return [c for c in v.typed("int", "float") if c not in v.param_columns]

        def worded(v: PredicateView) -> list[str]:
            return [c for c in numbers(v) if any(_match(w, t) for w in words for t in terms(c))]

        high = [v for v in views if v.origin == "high"]
        choice = next(((v, cols[0]) for v in views if (cols := frame.asked_columns(frame.of(ctx).asks_for,
                                                                                     numbers(v)))), None)
        choice = choice or next(((v, cols[0]) for v in high if len(cols := worded(v)) == 1), None)
        if choice is None and not any(worded(v) for v in high):
            choice = next(((v, numbers(v)[0]) for v in high if len(numbers(v)) == 1), None)
        if choice is None:
            return []
        self.proposed.add("total")
        v, amount = choice
        key = next(iter(v.param_columns))
        taken: set[str] = set()
        row = {c: var(c, taken) for c in v.columns}
        total = var("total_" + amount, taken)
        name = f"{v.name}_{amount}_total"
        return [RuleProposal(
            program=f'@output("{name}"). @mapping("{name}", 0, "{key}", "string"). '
                    f'@mapping("{name}", 1, "total_{amount}", "float").\n'
                    f'{name}({row[key]}, {total}) :- {self._atom(v, row)}, {total} = sum({row[amount]}).',
            output=name, purpose=f"total: {amount} of {v.name} summed per {key}")]

    def _groupings(self, ctx: RunContext, m: Measure) -> list[tuple[PredicateView, str, str]]:
        """Relations entity -> group read whole, functional, with some group having two or more entities."""
        entities = {f.get(m.entity) for f in m.view.facts}
        found = []
        for v in ctx.predicates.values():
            if v.origin != "high" or v is m.view or not v.param_columns:
                continue
            p_col = next(iter(v.param_columns))
            others = [c for c in v.typed("string") if c != p_col]
            if len(others) != 1 or v.typed("int", "float"):
                continue
            q_col = others[0]
            if f"{m.view.name}.{m.entity}" in v.each:
                # computed for every entity of the measure (set-at-a-time): a group of two or more shows in the
                # statistics of the group column
                most = (v.statistics.get(q_col) or {}).get("most_frequent") or []
                if v.complete or any(x.get("count", 0) > 1 for x in most):
                    found.append((v, p_col, q_col))
                continue
            if not v.complete:
                continue
            groups: dict[Any, set[Any]] = {}
            mapping: dict[Any, set[Any]] = {}
            for f in v.facts:
                mapping.setdefault(f[p_col], set()).add(f[q_col])
                groups.setdefault(f[q_col], set()).add(f[p_col])
            functional = all(len(s) == 1 for s in mapping.values())
            if functional and set(mapping) & entities and any(len(s) > 1 for s in groups.values()):
                found.append((v, p_col, q_col))
        return found

    async def repair(self, ctx: RunContext, proposal: RuleProposal, error: str) -> RuleProposal | None:
        return None  # templates are valid by construction; a refusal is reported, not guessed around

    # --- replanning -------------------------------------------------------------------------------------------------
    async def replan(self, ctx: RunContext, probe: Probe) -> list[Call]:
        """Expand the measure's entities through every tool whose parameter links to them: one set-at-a-time call per
        tool over the whole entity column (not the top few), so a group check sees every entity."""
        if self.composer.query is not None:
            return await self.composer.replan(ctx, probe)
        if self.chain is not None:
            return await self._second_hop(ctx, probe)
        if (extra := await self._focus_expansion(ctx, probe)) is not None:
            return extra
        calls: list[Call] = []
        used = {c.tool for c in ctx.executed.values() if c.level == "high"}
        for m in (self._measures(ctx) if frame.of(ctx).analysis else [])[:1]:
            if m.view.name in self.expanded:
                continue
            self.expanded.add(m.view.name)
            top = sorted((f for f in m.view.facts if isinstance(f.get(m.amount), (int, float))),
                         key=lambda f: -f[m.amount])[:1]
            form: dict[str, Any] = {"each": f"{m.view.name}.{m.entity}"}
            keys = {json.dumps(c.params.get(m.view.param_columns[m.key])) for c in ctx.executed.values()
                    if m.key and c.tool == m.view.tool}
            if len(keys) == 1 and isinstance(key := json.loads(keys.pop()), str | int | float | bool):
                form["where"] = {m.key: key}
            for fact in top:
                for tool, spec in ctx.tools.items():
                    if tool in used or len(spec["parameters"]) != 1 or spec["parameters"][0]["type"] != "string":
                        continue
                    param = spec["parameters"][0]["name"]
                    hits = await probe.lookup(tool, param, fact[m.entity])
                    if any(h.get("exact") and str(h["value"]).lower() == str(fact[m.entity]).lower() for h in hits):
                        calls.append(Call(tool=tool, params={param: form}, level="high"))
        return calls

    # --- the answer -------------------------------------------------------------------------------------------------
    async def answer(self, ctx: RunContext) -> str:
        """The answer as rules word it from the facts; kept as ``ctx.draft``, the wording a denial must rest on."""
        ctx.draft = self._answer(ctx)
        return ctx.draft

    def _answer(self, ctx: RunContext) -> str:
        lines: list[str] = []
        preds = ctx.predicates
        if self.composer.query is not None and (text := self.composer.answer(ctx)) is not None:
            return text
        if self.chain is not None:
            return self._chain_answer(ctx)
        if self.focus is not None:
            return self._focus_answer(ctx)
        for m in (self._measures(ctx) if frame.of(ctx).analysis else [])[:1]:
            lines += self._measure_answer(ctx, m)
        if frame.of(ctx).count:
            rank = {t: i for i, t in enumerate(self.ranked)}

            def source_rank(view: PredicateView) -> int:  # the count over the best-matching tool's output first
                src = preds.get(view.name.removesuffix("_count"))
                return rank.get(src.tool if src and src.tool else "", len(rank))

            counts = sorted((v for v in preds.values() if v.origin == "synthesized" and v.name.endswith("_count")
                             and v.facts), key=source_rank)
            for v in counts:
                values = [f[v.columns[1]] for f in v.facts]
                lines.insert(0, self._said(ctx, v, count=True))
                ctx.answer_values = values[:1] if len(values) == 1 else values
                break
            else:
                if not preds or all(v.origin != "high" for v in preds.values()):
                    lines.append("No fact answers the question.")
        elif frame.of(ctx).total and not frame.of(ctx).share:
            for v in (v for v in preds.values() if v.origin == "synthesized" and v.name.endswith("_total") and v.facts):
                lines.append(self._said(ctx, v))
                ctx.answer_values = [f[v.columns[1]] for f in v.facts]
                break
        if not lines:
            values: list[Any] = []
            rank = {t: i for i, t in enumerate(self.ranked)}
            views = sorted(ctx.answer_predicates(), key=lambda v: rank.get(v.tool or "", len(rank)))
            for i, v in enumerate(views):
                strings = [c for c in v.typed("string") if c not in v.param_columns]
                col = _answer_column(ctx, strings, [c for c in v.typed("int", "float") if c not in v.param_columns])
                cols = [col] if col else [c for c in v.columns if c not in v.param_columns]
                keys = sorted({str(f[c]) for f in v.facts for c in v.param_columns})
                of = f" of {wording.join(keys)}" if keys else ""
                if len(cols) == 1:
                    found = sorted({f[cols[0]] for f in v.facts}, key=str)
                    label = wording.column_label(ctx, v.name, cols[0])
                    if i == 0:  # the values of the best-matching tool are the answer; the others are context
                        values = found
                        lines.append(wording.say(ctx, found, column=cols[0], tools=[v.tool] if v.tool else [],
                                                 fallback=f"{label}{of}"))
                    else:
                        shown = [wording.shown(ctx, x, cols[0], [v.tool] if v.tool else []) for x in found]
                        lines.append(wording.sentence(f"{label}{of}: {wording.join(shown, limit=len(shown))}"
                                                      if found else f"no {label}{of}"))
                else:
                    what = wording.words_of(v.name.replace("_", " "))
                    shown = "; ".join(", ".join(f"{wording.column_label(ctx, v.name, k)} "
                                                f"{wording.shown(ctx, val, k, [v.tool] if v.tool else [])}"
                                                for k, val in f.items() if k not in v.param_columns) for f in v.facts)
                    lines.append(wording.sentence(f"{what}{of}: {shown}" if shown else f"no {what}{of}"))
            ctx.answer_values = values
        return "\n".join(lines) if lines else "No fact answers the question."

    @staticmethod
    def _said(ctx: RunContext, v: PredicateView, count: bool = False, col: str | None = None,
              what: str | None = None) -> str:
        """A value per key of a predicate (its first column; the value its second column, or ``col``) as a sentence
        restating the question when there is one key, else "<what>: <key>: <value>; ..."."""
        col = col or v.columns[1]
        key = v.columns[0]
        what = what or wording.column_label(ctx, None, col)
        values = [f[col] for f in v.facts]
        if len(values) == 1:
            return wording.say(ctx, values, column=col, count=count, fallback=f"{what} of {v.facts[0][key]}")
        return wording.sentence(f"{what}: " + "; ".join(
            f"{f[key]}: {wording.shown(ctx, f[col], col)}" for f in v.facts))

    def _measure_answer(self, ctx: RunContext, m: Measure) -> list[str]:
        """The largest amounts of the measure, each with its share of the reference base, then what the threshold
        checks found, in sentences whose words are the question's and the catalog's labels."""
        preds = ctx.predicates
        fr = frame.of(ctx)
        base = self.checks.get(m.view.name)
        share = preds.get(f"{m.view.name}_share") if base else None
        key_value = next((f.get(m.key) for f in m.view.facts if m.key), None)
        source = share if share is not None and share.facts else m.view
        top = sorted(source.facts, key=lambda f: -(f.get(m.amount) or 0))[: self.top_entities]
        ref = self._reference(ctx, m) if base else None
        base_label = wording.column_label(ctx, ref.view.name, ref.base) if ref is not None and ref.base else ""
        of_base = f" of {base_label}" if base_label else ""
        tools = [m.view.tool] if m.view.tool else []

        def amount(value: Any) -> str:
            return wording.shown(ctx, value, m.amount, tools)

        items = []
        for k, f in enumerate(top):
            pct = f", {wording.percent(f['share_pct'])}{of_base if k == 0 else ''}" if "share_pct" in f else ""
            items.append(f"{f[m.entity]} ({amount(f[m.amount])}{pct})")
        label = wording.column_label(ctx, m.view.name, m.amount)
        entities = wording.noun_for(2, wording.plural(wording.column_label(ctx, m.view.name, m.entity)))
        who = f" of {key_value}" if key_value else ""
        asked = wording.asked_phrase(fr.parse) if fr.parse is not None else ""
        if asked and fr.asked_head and any(frame.word_match(fr.asked_head, t) for t in terms(f"{label} {m.view.name}")):
            subject = asked  # "<the bank>'s largest exposures": the question's own words
        else:
            subject = f"by {label}, the largest {entities}{who}"
        lines = [wording.sentence(f"{subject} {'are' if len(items) != 1 else 'is'} {wording.join(items)}")]
        over = preds.get(f"{m.view.name}_over_limit") if base else None
        if fr.listing:  # "Which issuers exceed ...?", "Which issuer has the largest ...?"
            if fr.limit and over is not None:
                ctx.answer_values = sorted({f[m.entity] for f in over.facts}, key=str)
            elif top and "max" in (fr.extreme, fr.ranking):
                ctx.answer_values = [top[0][m.entity]]
        if over is None:
            return lines
        limit_col = next((c for c in over.columns if c not in (m.key, m.entity, m.amount, "share_pct")), None)
        limit = next((f.get(limit_col) for f in (share.facts if share else []) if limit_col), None)
        lim_label = wording.column_label(ctx, ref.view.name if ref else None, limit_col or "limit")
        whose = f"{key_value}'s " if key_value else "the "
        lim = f" of {amount(limit)}" if isinstance(limit, int | float) else ""
        ratio = self._limit_ratio(ctx, ref, limit)
        entity = wording.column_label(ctx, m.view.name, m.entity)
        if over.cardinality == 0:
            said = f"no single {entity} exceeds {whose}{lim_label}{lim}{ratio}"
        else:
            found = [f"{f[m.entity]} ({amount(f[m.amount])}, {wording.percent(f['share_pct'])}{of_base})"
                     for f in over.facts]
            verb = "exceeds" if len(found) == 1 else "exceed"
            said = f"{wording.join(found, limit=len(found))} {verb} {whose}{lim_label}{lim}{ratio}"
        groups = []
        for name, view in preds.items():
            if not name.startswith(f"{m.view.name}_by_") or not name.endswith("_over_limit"):
                continue
            group_col = view.columns[1] if len(view.columns) > 1 else "group"
            group_pred = name.removesuffix("_over_limit")
            members = self._members(ctx, m, group_col, group_pred)
            coverage = self._coverage(ctx, m, group_col)
            group_label = "by " + wording.column_label(ctx, None, group_col)
            if view.cardinality == 0:
                groups.append(f"no group of {wording.plural(entity)} ({group_label}{coverage}) exceeds it either"
                              if "checked" not in coverage else
                              f"none of those groups ({group_label}{coverage}) exceeds it")
                continue
            for f in view.facts:
                g = f[group_col]
                via = sorted(members.get(g, []))
                through = f", through {wording.join(via, limit=len(via))}" if via else ""
                if len(via) > 4:  # a long list summarised: how many, the largest three (all of them on the page)
                    listed = set(via)
                    amounts = {f2[m.entity]: f2[m.amount] for f2 in m.view.facts if f2.get(m.entity) in listed}
                    largest = sorted(via, key=lambda x: (-(amounts.get(x) or 0), str(x)))[:3]
                    through = (f", through {len(via)} {wording.plural(entity)}, the largest "
                               + wording.join([f"{x} ({amount(amounts[x])})" if x in amounts else str(x)
                                               for x in largest]))
                groups.append(f"the {g} group ({group_label}{coverage}) does: {amount(f[view.columns[2]])}, "
                              f"{wording.percent(f['share_pct'])}{of_base}{through}")
        lines.append(wording.sentence("; ".join([said, *groups])))
        return lines

    def _limit_ratio(self, ctx: RunContext, ref: Reference | None, limit: Any) -> str:
        """ " (25 % of capital)": the limit as a share of the base, when the reference gives both."""
        if ref is None or not ref.base or not isinstance(limit, int | float):
            return ""
        bases = [f.get(ref.base) for f in ref.view.facts if isinstance(f.get(ref.base), int | float)]
        if len(set(bases)) != 1 or not bases[0]:
            return ""
        pct = limit / bases[0] * 100
        shown = wording.percent(pct)
        nums = [v for f in ref.view.facts for v in f.values() if isinstance(v, int | float) and not isinstance(v, bool)]
        if not any(abs(v - pct) < 0.05 for v in nums):
            return ""  # the Verifier grounds every figure: a ratio no fact holds is not written
        return f" ({shown} of {wording.column_label(ctx, ref.view.name, ref.base)})"

    def _focus_answer(self, ctx: RunContext) -> str:
        name, col, what = self.focus
        view = ctx.predicates.get(name)
        if view is None or not view.facts:
            ctx.answer_values = [0] if col.endswith("_count") else []
            return wording.sentence(f"{wording.words_of(what)}: none")
        ctx.answer_values = [f[col] for f in view.facts]
        return self._said(ctx, view, count=col.endswith("_count"), col=col, what=wording.words_of(what))

    # --- two-hop questions ------------------------------------------------------------------------------------------
    def _hop_view(self, ctx: RunContext, tool: str) -> PredicateView | None:
        return next((v for v in ctx.predicates.values() if v.tool == tool), None)

    async def _second_hop(self, ctx: RunContext, probe: Probe, fan_out: int = 30) -> list[Call]:
        """Invoke the outer tool once per value of the inner one's output that its parameter links to."""
        if self.hops:
            return []
        first = self._hop_view(ctx, self.chain.tool)
        if first is None or not first.facts:
            return []
        for tool in self.candidates:
            spec = ctx.tools[tool]
            if tool == self.chain.tool or len(spec["parameters"]) != 1 or spec["parameters"][0]["type"] != "string":
                continue
            param = spec["parameters"][0]["name"]
            for col in [c for c in first.typed("string") if c not in first.param_columns]:
                values = sorted({f[col] for f in first.facts}, key=str)[:fan_out]
                linked = []
                for value in values:
                    hits = await probe.lookup(tool, param, str(value))
                    if any(h.get("exact") and str(h["value"]).lower() == str(value).lower() for h in hits):
                        linked.append(value)
                if linked:
                    self.hops = {"tool": tool, "param": param, "via": col}
                    return [Call(tool=tool, params={param: v}, level="high") for v in linked]
        return []

    def _join(self, ctx: RunContext) -> list[RuleProposal]:
        """answer(E, X) :- inner(E, Y, ...), outer(Y, X, ...): the outer tool's answers for the inner one's results."""
        if not self.hops or "join" in self.proposed:
            return []
        first, second = self._hop_view(ctx, self.chain.tool), self._hop_view(ctx, self.hops["tool"])
        if first is None or second is None or not first.param_columns or not second.param_columns:
            return []
        self.proposed.add("join")
        out_col = _answer_column(ctx, [c for c in second.typed("string") if c not in second.param_columns])
        if out_col is None:
            return []
        taken: set[str] = set()
        e, y, x = var("entity", taken), var(self.hops["via"], taken), var(out_col, taken)
        a = self._atom(first, {next(iter(first.param_columns)): e, self.hops["via"]: y})
        b = self._atom(second, {next(iter(second.param_columns)): y, out_col: x})
        name = f"{second.name}_of_{first.name}"
        program = (f'@output("{name}"). @mapping("{name}", 0, "{next(iter(first.param_columns))}", "string"). '
                   f'@mapping("{name}", 1, "{out_col}", "string").\n{name}({e}, {x}) :- {a}, {b}.')
        if frame.of(ctx).count:
            count = f"{name}_count"
            program += (f'\n@output("{count}"). @mapping("{count}", 0, "{next(iter(first.param_columns))}", '
                        f'"string"). @mapping("{count}", 1, "{out_col}_count", "int").\n'
                        f'{count}({e}, N) :- {name}({e}, {x}), N = count({x}).')
            return [RuleProposal(program=program.replace(f'@output("{name}"). ', "", 1), output=count,
                                 purpose=f"two hops, counted: {out_col} of {second.name} for the {self.hops['via']} "
                                         f"values of {first.name}")]
        return [RuleProposal(program=program, output=name,
                             purpose=f"two hops: {out_col} of {second.name} for the {self.hops['via']} values of "
                                     f"{first.name}")]

    def _chain_answer(self, ctx: RunContext) -> str:
        views = [v for v in ctx.predicates.values() if v.origin == "synthesized" and "_of_" in v.name]
        if not views:
            ctx.answer_values = []
            return f"No fact answers the question ({wording.words_of(self.chain.tool)} gave nothing to follow)."
        v = views[-1]
        col = v.columns[1]
        entity = next(iter(self.chain.params.values()))
        found = sorted({f[col] for f in v.facts if str(f[v.columns[0]]) == str(entity)}, key=str)
        label = wording.column_label(ctx, None, col)
        if v.name.endswith("_count"):
            ctx.answer_values = found[:1]
            return wording.say(ctx, found[:1], column=col, count=True, fallback=f"{label} for {entity}")
        ctx.answer_values = found
        return wording.say(ctx, found, column=col, fallback=f"{label} for {entity}")

    def _coverage(self, ctx: RunContext, m: Measure, group_col: str) -> str:
        """How many of the measure's entities the group relation was computed for, in words."""
        n = m.view.cardinality
        for v in ctx.predicates.values():
            if v.origin == "high" and group_col in v.columns and v.param_columns and v is not m.view:
                entity = wording.column_label(ctx, m.view.name, m.entity)
                if f"{m.view.name}.{m.entity}" in v.each:
                    return f", over every {entity}"  # in words: no count for a model to drop
                p = next(iter(v.param_columns.values()))
                k = len({c.params.get(p) for c in ctx.executed.values() if c.tool == v.tool})
                return f", checked for {k:,} of {n:,} {wording.plural(entity)}"
        return ""

    def _members(self, ctx: RunContext, m: Measure, group_col: str, group_pred: str = "") -> dict[Any, list[Any]]:
        out: dict[Any, list[Any]] = {}
        found = ctx.predicates.get(f"{group_pred}_members")
        if found is not None and found.facts:
            for f in found.facts:
                out.setdefault(f[group_col], []).append(f[m.entity])
            return out
        for v in ctx.predicates.values():
            if v.origin == "high" and group_col in v.columns and v.param_columns:
                p_col = next(iter(v.param_columns))
                for f in v.facts:
                    out.setdefault(f[group_col], []).append(f[p_col])
        return out
