"""The offline policy's composer for the thing one level up, of a kind: "Which area does Lumen Harrogate report to?",
"Which region does the Tyne Valley area belong to?".

The tool called for the named thing gives its own row, with a column holding another thing of the same tool (the
unit it reports to, the unit it belongs to one level up: the column the question's verb names, by its @label or by
what the tool's description says of the verb); the kind asked for is a value of the tool's category column, which
only that other thing's own row holds. So the tool is called for the named thing, then for each value of that column
(the same tool, the same predicate), and one rule keeps the other things whose own row is of the kind:

    up(P) :- unit_info("Lumen Harrogate", _, P, _), unit_info(P, "area", _, _).

When the thing one level up is of another kind ("Which division does Lumen Harrogate report to?", an area above a
cinema), nothing is found and the run says so: the question asks for a thing further up, which this reading does not
follow.
"""

from __future__ import annotations

from typing import Any

from vadaorchestra.agents import wording
from vadaorchestra.agents.context import RunContext
from vadaorchestra.agents.plan import Call
from vadaorchestra.agents.policy import Probe, RuleProposal
from vadaorchestra.agents.question import naming, relations
from vadaorchestra.agents.question.compose import ComposeError
from vadaorchestra.agents.question.frame import QuestionFrame, stem, terms, word_match
from vadaorchestra.datalog.printer import format_const


def _verb(fr: QuestionFrame) -> str | None:
    """The main verb of "Which <kind> does X <verb> <preposition>?" ("report" to, "belong" to): the named thing its
    subject, the thing asked the object of a preposition left at the end; None for any other shape ("Which services
    does X own?", "Which birds live in X?", "Which area is managed by X?")."""
    if fr.parse is None:
        return None
    w = fr.parse.words
    root = next((t for t in w if t.dep == "ROOT"), None)
    if root is None or root.pos != "VERB" or root.lemma in ("be", "have", "do"):
        return None
    # (the preposition the question ends with, its object the fronted "which <kind>" however the parser hung it)
    last = next((t for t in reversed(w) if t.pos != "PUNCT"), None)
    stranded = last is not None and last.head == root.i and last.dep == "prep" and last.i > root.i
    # (the subject the named thing, or a noun it names: "the Tyne Valley area")
    subject = any(t.head == root.i and t.dep == "nsubj" and t.i < root.i and (
        t.entity is not None or any(c.head == t.i and c.entity is not None for c in w)) for t in w)
    return root.lemma if stranded and subject else None


class ParentComposer:
    """One tool read twice: for the named thing, then for the thing its row names one level up, kept to a kind."""

    def __init__(self) -> None:
        self.tool: str | None = None
        self.param = self.value = self.column = self.kind_column = self.kind = None
        self.output: str | None = None
        self.stage = 0

    @property
    def query(self) -> str | None:
        return self.tool

    @staticmethod
    def applies(fr: QuestionFrame) -> bool:
        names = [e for e in fr.entities if not e.kind]
        return fr.kind in ("list", "lookup") and fr.question_word in ("which", "what") and fr.how == "wh" and \
            len(names) == 1 and bool(fr.kinds) and not (fr.count or fr.total or fr.share or fr.limit or fr.compound
                                                         or fr.extreme or fr.ranking or fr.conditions or fr.periods)

    def choose(self, ctx: RunContext) -> list[Call]:
        fr = ctx.frame
        verb = _verb(fr)
        named = next(e for e in fr.entities if not e.kind)
        asked = [e for e in fr.kinds if fr.asked_head and word_match(stem(fr.asked_head), stem(e.value.lower()))]
        if verb is None or len(asked) != 1:
            return []
        kind = asked[0]
        found = []
        for tool, spec in sorted(ctx.tools.items()):
            params = spec["parameters"]
            if len(params) != 1 or f"{tool}.{params[0]['name']}" not in named.parameters:
                continue
            pcol = naming.param_column(spec, params[0]["name"])
            categories = [c for c in naming.role_columns(spec, "category")
                          if any(col.rsplit(".", 1)[-1] == c for col in kind.columns)]
            labels = spec.get("labels") or {}
            ends = relations.verb_ends(spec.get("description", ""), stem(verb))
            up = [c for c in naming.cols(spec, ("string",)) if c not in (pcol, *categories) and (
                any(word_match(stem(verb), t) for t in terms(labels.get(c, ""))) or
                any(word_match(w, t) for w in ends for t in terms(c)))]
            if pcol is not None and len(categories) == 1 and len(up) == 1:
                found.append((tool, params[0]["name"], pcol, up[0], categories[0]))
        if len(found) != 1:
            return []
        self.tool, self.param, _pcol, self.column, self.kind_column = found[0]
        self.value, self.kind = named.value, kind.value
        ctx.event("compose_parent", tool=self.tool, column=self.column, of_kind=self.kind, of=self.value)
        return [Call(tool=self.tool, params={self.param: self.value}, level="high")]

    async def replan(self, ctx: RunContext, probe: Probe) -> list[Call]:
        if self.stage > 0 or self.tool is None:
            return []
        self.stage = 1
        out = ctx.tools[self.tool]["output_predicate"]
        return [Call(tool=self.tool, params={self.param: {"each": f"{out}.{self.column}"}}, level="high")]

    async def synthesize(self, ctx: RunContext, probe: Probe) -> list[RuleProposal]:
        if self.stage != 1 or self.output is not None or self.tool is None:
            return []
        spec = ctx.tools[self.tool]
        out = spec["output_predicate"]
        columns = [c["name"] for c in spec["schema"]]
        pcol = naming.param_column(spec, self.param)

        def atom(fixed: dict[str, str]) -> str:
            return f"{out}({', '.join(fixed.get(c, '_') for c in columns)})"

        self.output = naming.slug(f"{out}_{self.column}_{self.kind}")
        own = atom({pcol: format_const(self.value), self.column: "P"})
        theirs = atom({pcol: "P", self.kind_column: format_const(self.kind)})
        program = (f'@output("{self.output}"). @mapping("{self.output}", 0, "{self.column}", "string").\n'
                   f"{self.output}(P) :- {own}, {theirs}.")
        return [RuleProposal(program=program, output=self.output,
                             purpose=f"the {self.column} of {self.value} whose own {self.kind_column} is {self.kind}")]

    def answer(self, ctx: RunContext) -> str | None:
        view = ctx.predicates.get(self.output or "")
        if view is None:
            return None
        values: list[Any] = sorted({f.get(self.column) for f in view.facts if f.get(self.column)}, key=str)
        if not values:
            raise ComposeError(f"the {naming.prose(self.column, ctx)} of {self.value} is no {self.kind}: the question "
                               f"asks for {wording.article(self.kind)} further up, which one level does not reach")
        ctx.answer_values = values
        return wording.say(ctx, values, column=self.column, tools=[self.tool],
                           fallback=f"{naming.prose(self.column, ctx)} of {self.value}")
