"""The offline policy's composer: a question frame turned into one query over the tools' outputs.

Many questions are one conjunctive query and at most one aggregate: a tool called for the entity the question is
about (the *anchor*), perhaps joined with a tool called for every value of one of its output columns (the providers'
profiles, the reachable hubs' capacities), restricted by the other entities the question names (each on the output
column that holds it), by the conditions it states ("a rating above 4.0") and by "directly" (the first level of a
chain), then counted, summed, or ordered to its highest or lowest value. The composer chooses the anchor, the join and
the columns from the frame and the catalog's schemas alone — the words of the question against the columns' names,
the catalog's declared roles, the values in the data — and writes the rules; it knows no catalog.

A query is built only when every part of the frame finds its column; otherwise the policy's other strategies answer
(or the Verifier says what was not covered).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from vadaorchestra.agents import wording
from vadaorchestra.agents.context import PredicateView, RunContext
from vadaorchestra.agents.plan import Call
from vadaorchestra.agents.policy import Probe, RuleProposal
from vadaorchestra.agents.question import frame, naming, periods, relations
from vadaorchestra.agents.question import parse as P
from vadaorchestra.agents.question.frame import SHARE_NOUNS, QuestionFrame, column_score, stem, terms, word_match
from vadaorchestra.agents.question.naming import CAP_WORDS
from vadaorchestra.datalog.printer import format_const
from vadaorchestra.errors import VadaError

LEVEL_WORDS = ("level", "depth", "step", "hop", "distance", "degree")  # fallback for catalogs without a "level" role
# the measure a superlative adjective orders by, when the question names no column ("the heaviest shipment")
MEASURE_OF = {"heaviest": "weight", "lightest": "weight", "longest": "length", "shortest": "length", "oldest": "age",
              "youngest": "age", "cheapest": "price", "priciest": "price", "fastest": "speed", "slowest": "speed",
              "busiest": "volume", "richest": "wealth", "tallest": "height", "largest": "size", "biggest": "size"}


@dataclass(frozen=True)
class Join:
    """A tool called for every value of one of the anchor's output columns."""

    tool: str
    param: str
    column: str  # the anchor's output column the parameter takes its values from
    key: str  # the joined tool's output column that holds the parameter


@dataclass
class Query:
    tool: str
    params: dict[str, Any]
    join: Join | None
    filters: dict[str, str] = field(default_factory=dict)  # entity -> the output column it may be in
    score: float = 0.0
    asked: str | None = None  # the column answering "which X" when no column is named X (the tool says what X is)
    ref: tuple[str, dict[str, Any], str] | None = None  # a share's denominator: (tool, its parameters, its column)
    numerator: str | None = None  # a share's summed column (None: its rows are counted)
    guessed: bool = False  # the asked column is the tool's first, its description naming the asked thing
    choices: tuple[str, ...] = ()  # the columns a guessed asked column was chosen among
    said: bool = False  # the question names the joined tool and asks for its column
    # the parameter the anchor is called with for each of its values in the data, when the question names no thing
    # and ranks the parameter's own things ("Which support agent has handled the most tickets?")
    every: str | None = None
    people: bool = False  # "how many people": the asked column holds people's names (checked on its values)


# "Which branches ...", "Which support agent has handled the most tickets?": with no thing named, the anchor is called
# for each value of its parameter in the data, at most this many
MAX_EVERY = 50


class ComposeError(VadaError):
    """The query chosen for the question does not fit the data after all: the run ends with "could not answer"."""


def _doers(verb: str) -> set[str]:
    """The nouns naming the doer of a verb ("keep": keeper; "hold": holder; "supervise": supervisor)."""
    return {verb + "er", verb + "r", verb + "or", verb[:-1] + "or"} if verb else set()


def _joined(ctx: RunContext) -> set[str]:
    """The tools called for the values of another tool's rows ("each")."""
    return {c.tool for c in ctx.executed.values() if any(isinstance(v, dict) for v in c.params.values())}


class Composer:
    """Chooses the query at selection, writes its rules at synthesis, phrases the answer."""

    def __init__(self) -> None:
        self.exists = False  # the query answers whether anything is found (a part "is any of them a freighter?")
        self.query: Query | None = None
        self.done = False
        self.output: str | None = None  # the predicate whose column holds the answer
        self.answer_column: str | None = None
        self.what = ""
        self.joined = False  # the joined tool was asked for (or could not be)
        self.alternatives: list[Query] = []
        self.joined_score: Callable[[str, str], float] = lambda _anchor, _tool: 0.0
        self.deferred: list[tuple[str, str, str]] = []  # conditions on a total per thing: (column, op, constant)
        self.rows: str | None = None  # the selection the aggregate reads
        self.chosen_column: str | None = None  # the asked column a reading chose (ask --reading N)
        self.only: set[str] | None = None  # the tools its anchor may be (a part about the first part's rows)
        self.tag = ""  # names this query's rules apart from another's (a part of the question: "part2")
        self.fallbacks: list[Query] = []  # queries of other tools, best first (see _switch)
        self.other_anchors: list[Query] = []  # joins from other tools, best first (see _link_join)
        self.set_aside: set[str] = set()  # anchors whose rows held nothing to join (their calls were the entity's)
        self.switched = False  # the query changed at synthesis: its tool is called at the next replan

    # --- which questions ------------------------------------------------------------------------------------------
    @staticmethod
    def applies(fr: QuestionFrame) -> bool:
        """Questions one query answers: lookups, lists, counts, totals, extremes and shares; not limits or
        rankings (the policy's measure templates)."""
        ranked = fr.ranking is not None and fr.n is not None and fr.n > 1  # "the three largest ..."
        if fr.limit or (fr.analysis and not fr.extreme and not ranked) or fr.compound:
            return False
        if fr.share and fr.who:
            return False  # "Which issuer accounts for the largest share of X": the shares ranked, not one share
        return fr.kind in ("lookup", "list", "count", "total", "extreme", "share")

    # --- selection ----------------------------------------------------------------------------------------------------
    def choose(self, ctx: RunContext, scores: dict[str, float],
               joined_score: Callable[[str, str], float] | None = None) -> list[Call]:
        """The best query; ``scores`` weigh each tool by the question's words, ``joined_score(anchor, tool)`` a
        joined tool by the words the anchor's own text does not have."""
        self.joined_score = joined_score or (lambda _anchor, tool: scores.get(tool, 0.0))
        fr = frame.of(ctx)
        found: list[Query] = []
        words = set(fr.naming_words) - frame.OPERATION_WORDS - {w for e in fr.entities for w in terms(e.value)}
        for tool, spec in sorted(ctx.tools.items()):
            if self.only is not None and tool not in self.only:
                continue
            bindings = list(self._bindings(fr, tool, spec))
            if not bindings and (every := self._every(fr, spec, ctx.tools)) is not None:
                q = self._cover(ctx, fr, tool, {}, set(), None, scores, every=every)
                found += [q] if q is not None else []
            for params, bound in bindings:
                alone = self._cover(ctx, fr, tool, params, bound, None, scores)
                found += [alone] if alone is not None else []
                unsaid = {w for w in words if not any(word_match(w, x) for x in naming.tool_words(spec))}
                # (by its name: what a tool is, not every word its description uses)
                deps = set(spec.get("dependencies", ()))
                # (a tool of every thing is read whole, joined with nothing: its rows are the answer's)
                for join in self._joins(ctx, tool, spec) if spec["parameters"] else ():
                    # a join only when the question needs it: the anchor alone does not cover the frame (or covers
                    # what is asked only by a guess), or the question says what the joined tool does and the
                    # anchor's text does not ("Which banks lend to the companies controlled by X")
                    said = any(word_match(w, x) for w in unsaid for x in naming.tool_name(ctx.tools[join.tool]) - {"get"})
                    if join.tool in deps or not (alone is None or alone.guessed or said):
                        continue
                    q = self._cover(ctx, fr, tool, params, bound, join, scores)
                    if q is not None and not (alone is not None and alone.guessed and q.guessed):
                        # the question names what the joined tool is ("controlled companies", "lenders") and the
                        # anchor's name does not
                        # (a chain said from its start: the anchor's own name is in the question too)
                        # — when what is asked for is the joined tool's ("Which banks ...": the lenders' banks)
                        named = {w for w in words if not any(word_match(w, x) for x in naming.tool_name(spec))}
                        jcols = naming.cols(ctx.tools[join.tool])
                        phrase = self._phrase(fr, naming.cols(spec) + jcols)
                        from_join = q.asked in jcols or (bool(phrase) and bool(naming.named(phrase, jcols))
                                                         and not naming.named(phrase, naming.cols(spec)))
                        if from_join and fr.kind in ("list", "lookup", "count", "extreme") and \
                                any(word_match(w, x) for w in named for x in naming.tool_name(ctx.tools[join.tool])) and \
                                any(word_match(w, x) for w in words for x in naming.tool_name(spec) - {"get"}):
                            q.score, q.said = q.score + 4, True
                        found.append(q)
        ctx.event("compose_candidates", queries=[{"tool": q.tool, "join": q.join.tool if q.join else None,
                                                  "score": round(q.score, 3), "asked": q.asked}
                                                 for q in sorted(found, key=lambda q: -q.score)[:8]])
        # a verb relating other things to a named entity ("the officers who report to X") is said by the tool called
        # for X, where one says it (X's line of supervision, not X's own notices)
        for value, words, things in relations.related_to_entity(fr):
            saying = [q for q in found if value not in q.params.values() or relations.says(ctx.tools[q.tool], words)
                      or not relations.called_for_its_kind(ctx.tools[q.tool], things)]
            if any(value in q.params.values() for q in saying):
                found = saying
        need = relations.steps(fr, ctx.tools)
        if len(need) >= 2:
            # the question states relations that different tools follow ("the companies controlled by the ultimate
            # controller of X"): only a query calling a tool for each of them answers it
            found = [q for q in found if not relations.assign(need, self._tools(q))]
        elif any(q.join is None and not q.guessed for q in found):
            # one tool answers it alone: a join must be one the question says ("Which banks lend to the companies
            # controlled by X"), not one whose words merely add up ("shippers that sent freight out of X" is the
            # shipments of X, not the shipments of the hubs its lanes reach)
            found = [q for q in found if q.join is None or q.said]
        # a tool whose description states a relation of the question the other way round ("the parent association
        # it reports to", for "Which associations report to X?") is no reading of it
        found = [q for q in found if q.join is not None
                 or not relations.reversed_by_description(fr, {q.tool: ctx.tools[q.tool]})]
        if fr.periods:
            # "How much water went to X in March 2024?": a tool whose rows are dated (the deliveries), not a year's
            # total without dates (the water use), when one is among the readings
            def dated(q: Query) -> bool:
                specs = [ctx.tools[q.tool]] + ([ctx.tools[q.join.tool]] if q.join else [])
                return any("date" in (sp.get("roles") or {}).values() or any(
                    {"date", "month", "day"} & set(c.split("_")) for c in naming.cols(sp)) for sp in specs) or any(
                    str(v) in fr.periods for v in q.params.values())
            found = [q for q in found if dated(q)] or found
        wide = sorted(found, key=lambda q: -q.score)  # (for the fallbacks: see below)
        found = self._head_named(ctx, fr, found)
        if fr.direct is False:
            # "X's smartphones, counting the lines of all its sub-accounts": a tool that follows the chain from X
            # itself and lists the thing asked, not a join from the chain's rows to the same thing (X's sub-accounts'
            # lines, without X's own)
            # (what a query gives is its asked column, else the column the asked words name among its own: "How many
            # objects does X hold, counting all of its sub-departments?" counts a holdings tool's objects over X's
            # whole chain, where the sub-departments joined to it would leave X's own out)
            def gives(q: Query) -> str | None:
                if q.asked:
                    return q.asked
                mine = naming.cols(ctx.tools[q.join.tool if q.join else q.tool])
                phrase = self._phrase(fr, mine)
                return next(iter(naming.named(phrase, mine)), None) if phrase else None

            alone = {gives(q) for q in found if q.join is None and naming.follows_chain(ctx.tools[q.tool])} - {None}
            found = [q for q in found if q.join is None or not naming.follows_chain(ctx.tools[q.tool])
                     or gives(q) not in alone]
        found.sort(key=lambda q: -q.score)
        best = self._reading(ctx, fr, found)
        self.query = best
        if best is None:
            return []
        # the same anchor call with the other joins, in case the best one's column is not found in the data
        self.alternatives = [q for q in found[1:] if q.tool == best.tool and q.params == best.params]
        # and queries of other tools alone, in case a kind the question names is not among the best one's rows
        # ("Which stations belong to X?": X's own profile holds X's type, the areas within X hold the stations)
        # (a tool the asked phrase's head does not name a column of too: "the depots reachable by a direct lane out
        # of X", the lanes' destinations, when the reachable depots cannot tell the first level)
        self.fallbacks = [q for q in [*found[1:], *(q for q in wide if q not in found)]
                          if q.tool != best.tool and q.join is None and q.ref is None]
        self.other_anchors = [q for q in found[1:] if q.tool != best.tool and q.join is not None and q.ref is None
                              and q.every is None]
        ctx.event("compose", tool=best.tool, params=best.params, join=best.join and best.join.__dict__,
                  filters=best.filters, score=round(best.score, 3))
        if best.every is not None:
            return []  # the values are looked up first (every_calls)
        calls = [Call(tool=best.tool, params=best.params, level="high")]
        if best.ref is not None and best.ref[0] != best.tool:
            calls.append(Call(tool=best.ref[0], params=best.ref[1], level="high"))
        return calls

    @staticmethod
    def _head_named(ctx: RunContext, fr: QuestionFrame, found: list[Query]) -> list[Query]:
        """A lookup or a list of a thing's property: the queries whose tools have the column the asked phrase names
        by its head, when one has it ("the monthly hours cap of X": X's profile, with monthly_hours_cap; not the
        monthly hours, whose total_hours the phrase names by "hours" only)."""
        if fr.kind not in ("list", "lookup") or fr.who or len(fr.asks_for) < 2:
            return found

        def top(tools: list[str]) -> int:
            return max((column_score(fr.asks_for, c["name"]) for t in tools for c in ctx.tools[t]["schema"]
                        if c["name"] not in (ctx.tools[t].get("parameter_columns") or {})), default=0)

        best = top(list(ctx.tools))
        kept = [q for q in found if top(Composer._tools(q)) == best]
        return kept or found

    def _reading(self, ctx: RunContext, fr: QuestionFrame, found: list[Query]) -> Query | None:
        """The best query, when the question reads one way only. Two queries as good as each other (two tools fit a
        relation), or a thing asked that several columns of the tool could be (the parts as serial numbers or as
        components), are readings: the run lists them in the question's words and stops, unless one was chosen
        (``ask --reading N``)."""
        if not found:
            return None
        best = found[0]
        if fr.kind not in ("list", "lookup"):
            return best  # which column a count, a total or an extreme reads is the composer's, from the measure
        readings: list[tuple[Query, str | None]] = []
        for q in found:
            if abs(q.score - best.score) > 1e-9:
                break
            if q.guessed:
                continue  # a guess (no column named as the question names the thing) is no reading of the words
            for col in ([q.asked] if q.asked else self._asked_named(ctx, fr, q)):
                if all(c != col for _r, c in readings):
                    readings.append((q, col))
        # (not the column holding the kind the asked noun is: "What blocks sit directly under X?" asks for the
        # units of type block, not for the type itself)
        kinds = {c.rsplit(".", 1)[-1] for e in fr.kinds if fr.asked_head and any(
            word_match(fr.asked_head, w) for w in terms(e.value)) for c in e.columns}
        if len(readings) >= 2 and kinds and any(col not in kinds for _q, col in readings):
            readings = [(q, col) for q, col in readings if col not in kinds]
            if len(readings) == 1:
                best, best.asked = readings[0][0], readings[0][1]
        # (the things a tool lists, not their kinds, when the noun names both alike: "Which three of the bikes ...":
        # bike_id, declared the entity, not bike_type, declared a category)
        roles = [naming.role_of(ctx, q, col) for q, col in readings]
        if len(readings) >= 2 and "entity" in roles and "category" in roles:
            readings = [r for r, role in zip(readings, roles, strict=True) if role != "category"]
            if len(readings) == 1:
                best, best.asked = readings[0][0], readings[0][1]
        if len(readings) < 2:
            return best
        ctx.readings = [self._say(ctx, fr, q, col) for q, col in readings]
        chosen = getattr(ctx, "reading", None)
        if chosen is None:
            listed = "; ".join(f"{i}) {text}" for i, text in enumerate(ctx.readings, 1))
            raise ComposeError(f"the question can be read in {len(readings)} ways: {listed}; ask it again choosing "
                               f"one (ask ... --reading N)")
        if not 1 <= chosen <= len(readings):
            listed = "; ".join(f"{i}) {text}" for i, text in enumerate(ctx.readings, 1))
            raise ComposeError(f"there is no reading {chosen}: the question has {len(readings)} ({listed})")
        q, col = readings[chosen - 1]
        q.asked, q.guessed, self.chosen_column = col, False, col
        ctx.event("reading", chosen=chosen, reading=ctx.readings[chosen - 1])
        return q

    def _asked_named(self, ctx: RunContext, fr: QuestionFrame, q: Query) -> list[str]:
        """The columns the question's words name as the thing asked, equally well, in the query's tools (things
        for a question that asks which or who, numbers for an amount)."""
        types = ("string",) if fr.who or (fr.listing and not (fr.extreme or fr.total)) else ("string", "int", "float")
        cols = naming.cols(ctx.tools[q.tool], types) + (naming.cols(ctx.tools[q.join.tool], types) if q.join else [])
        phrase = self._phrase(fr, cols)
        named = naming.named(phrase, cols) if phrase else []
        # a column whose head word the noun is ("aircraft", not "aircraft_type") reads it better
        return naming.head_named(phrase, named, ctx) or named

    @staticmethod
    def _say(ctx: RunContext, fr: QuestionFrame, q: Query, col: str | None) -> str:
        """A reading in the question's and the catalog's words: the thing asked as a column, from a tool."""
        what = fr.asked_text or " ".join(fr.asks_for) or "the answer"
        source = ctx.tools[q.tool]["description"].split(":")[0].split(".")[0].strip().rstrip(",")
        if q.join is not None:
            source += ", then " + ctx.tools[q.join.tool]["description"].split(":")[0].split(".")[0].strip().lower()
        return f"{what} as the {naming.prose(col, ctx)} in {source.lower()}" if col else f"{what} from {source.lower()}"

    @staticmethod
    def _tools(q: Query) -> list[str]:
        return [q.tool] + ([q.join.tool] if q.join else []) + ([q.ref[0]] if q.ref else [])

    async def every_calls(self, probe: Probe) -> list[Call]:
        """The anchor called for each value of its parameter in the data (:attr:`Query.every`); none, and no query,
        when it has none or more than :data:`MAX_EVERY`."""
        q = self.query
        assert q is not None and q.every is not None
        values = [m["value"] for m in await probe.lookup(q.tool, q.every, "", limit=MAX_EVERY + 1)
                  if m["value"] not in (None, "")]
        if not values or len(values) > MAX_EVERY:
            self.query = None
            return []
        return [Call(tool=q.tool, params={q.every: v}, level="high") for v in values]

    @staticmethod
    def _every(fr: QuestionFrame, spec: dict[str, Any], tools: dict[str, dict[str, Any]] | None = None) -> str | None:
        """The parameter to call the tool with for each of its values: the question names no thing, ranks things
        ("Which support agent has handled the most tickets?", "Which three accounts opened the most tickets?") and
        what it asks for is the parameter's own column."""
        params = spec["parameters"]
        if len(params) != 1 or params[0]["type"] != "string":
            return None
        # (a name the question gives keeps the things by a column of the tool's own, never by its parameter: "Which
        # Birmingham hospital has the biggest quarterly allocation?", every hospital's city)
        names = [e for e in fr.entities if not e.kind]
        outputs = set(naming.cols(spec)) - {naming.param_column(spec, params[0]["name"])}
        pcol = naming.param_column(spec, params[0]["name"])
        if names and not fr.who and fr.kind in ("lookup", "list") and fr.asks_for and not fr.compound and \
                pcol is not None and all(f"{spec['name']}.{params[0]['name']}" not in e.parameters and any(
                    c.rsplit(".", 1)[-1] in outputs for c in e.columns) for e in names) and \
                naming.named(fr.asks_for, naming.numeric(spec)) and not any(
                    naming.named(fr.asks_for, naming.numeric(ospec)) for other, ospec in (tools or {}).items()
                    for e in names for p in ospec["parameters"] if f"{other}.{p['name']}" in e.parameters):
            # (not when a tool the thing is passed to holds such a number: "What were X's box office takings in
            # December 2024?", X's own monthly summary)
            # "What is the hourly capacity of the Tête Blanche Express?": a number of the tool's own rows for a thing
            # the question names, which is a value of its output, not of its parameter (the lifts of every area,
            # kept to that lift)
            return params[0]["name"]
        if any(f"{spec['name']}.{params[0]['name']}" in e.parameters or e.parameters or
               not any(c.rsplit(".", 1)[-1] in outputs for c in e.columns) for e in names):
            return None
        if fr.count and fr.asks_for and pcol is not None and not fr.compound:
            # "How many camp bookings started in July 2024?": the things of every value, counted once each (a
            # count of distinct things, which the same thing listed for two values does not change; never a sum)
            things = [c for c in naming.role_columns(spec, "entity") if c != pcol]
            return params[0]["name"] if things and naming.named(fr.asks_for, things) else None
        # (or an imperative naming the things: "Name the three nurseries that invoiced the most in fees")
        if not ((fr.who or fr.listing and fr.how == "imperative") and (fr.extreme or (fr.ranking and fr.n))) or \
                not fr.asks_for:
            return None
        return params[0]["name"] if pcol is not None and naming.named(fr.asks_for, [pcol]) else None

    @staticmethod
    def _bindings(fr: QuestionFrame, tool: str, spec: dict[str, Any]):
        """Every way the question's entities fill the tool's parameters (each parameter a different entity)."""
        params = spec["parameters"]
        if not params:
            # a tool of every thing ("For every recycling centre: its tonnage and permit cap"): called as it is,
            # the question's entities kept by the columns holding them
            yield {}, set()
            return
        if any(p["type"] != "string" for p in params):
            return
        options = [[e.value for e in fr.entities if f"{tool}.{p['name']}" in e.parameters] for p in params]
        for values in itertools.product(*options):
            if len(set(values)) == len(values):
                yield {p["name"]: v for p, v in zip(params, values, strict=True)}, set(values)

    @staticmethod
    def _joins(ctx: RunContext, tool: str, spec: dict[str, Any]) -> list[Join]:
        out = []
        # (never a column of kinds: "zone_type" holds "ward", no zone's name; nor, for a tool that follows a chain,
        # the thing it was called for: its things are the ones along the chain)
        kinds = set(naming.role_columns(spec, "category"))
        own = set((spec.get("parameter_columns") or {}).values()) if naming.follows_chain(spec) else set()
        strings = [c for c in naming.cols(spec, ("string",)) if c not in kinds and c not in own]
        for other, ospec in sorted(ctx.tools.items()):
            if other == tool or len(ospec["parameters"]) != 1 or ospec["parameters"][0]["type"] != "string":
                continue
            param = ospec["parameters"][0]["name"]
            key = naming.param_column(ospec, param)
            if key is None:
                continue
            key_terms = terms(key)
            named = [col for col in strings
                     if col == key or (key_terms and all(any(word_match(k, t) for t in terms(col)) for k in key_terms))]
            # the column is named like the parameter's ("hub" and "hub"); else it is found in the data once the
            # anchor has run: the one whose values are the parameter's ("prerequisite" holds course titles)
            out += [Join(other, param, col, key) for col in named] or ([Join(other, param, "", key)] if strings else [])
        return out

    def _cover(self, ctx: RunContext, fr: QuestionFrame, tool: str, params: dict[str, Any], bound: set[str],
               join: Join | None, scores: dict[str, float], every: str | None = None) -> Query | None:
        """The query if every part of the frame finds a column in it, scored by how well the words name them (with
        ``every``, the tool called for each value of that parameter: its column is one of the answer's)."""
        spec = ctx.tools[tool]
        cols = naming.cols(spec)
        nums = naming.numeric(spec)
        strings = naming.cols(spec, ("string",))
        labelled_as = self._labels(ctx, [tool] + ([join.tool] if join else []))  # (the catalog's @labels)
        if every is not None:
            pcol = naming.param_column(spec, every)
            cols, strings = [pcol, *cols], [pcol, *strings]
        if join is not None:
            jspec = ctx.tools[join.tool]
            cols += [c for c in naming.cols(jspec) if c not in cols]
            nums += [c for c in naming.numeric(jspec) if c not in nums]
            strings += [c for c in naming.cols(jspec, ("string",)) if c not in strings]
            if join.key not in cols:  # the anchor's join column holds the joined tool's key values ("course")
                cols.append(join.key)
                strings.append(join.key)
        fit = 0.0
        people = False
        # the thing asked about
        phrase = self._phrase(fr, cols)
        by_name = bool(phrase) and bool(naming.named(phrase, cols))
        asked, guessed, choices = None, False, ()
        kind = next((e for e in fr.kinds if fr.asked_head and any(word_match(fr.asked_head, w)
                                                                   for w in terms(e.value))), None)
        # (the phrase may be the kind itself, whatever column one of its words names: "the watch managers" of a
        # rank watch_manager are firefighters, not watches)
        named_cols = naming.named(phrase, cols) if phrase else []
        if phrase and kind is not None and (not named_cols or all(
                any(word_match(w, t) for t in terms(kind.value)) for w in phrase)
                and not any(terms(kind.value) <= terms(c) for c in named_cols)):
            # "Which assemblies sit under X": a kind of thing the tool lists, kept by its category column
            thing = naming.thing(ctx.tools[join.tool] if join is not None else spec,
                                 besides=join.key if join is not None else None)
            if thing is not None:
                asked, phrase = thing, ()
                fit += 1
        if phrase:
            named = naming.named(phrase, cols)
            specs = [spec] + ([ctx.tools[join.tool]] if join else [])
            # (a label that says the whole phrase before a column one of its words names: "penalty charge notices",
            # the label of pcn_ref, not charge_gbp labelled "charge")
            by_label = naming.label_named(phrase, specs, cols)
            # (or a label that is just the phrase, or its head noun: "vehicles", "wheelchair-accessible vehicles",
            # plate labelled "vehicle", not vehicle_class)
            whole = [c for c in by_label if c in labelled_as and (len(phrase) > 1 and all(
                any(word_match(w, t) for t in terms(labelled_as[c][0])) for w in phrase) or
                set(naming.seq(labelled_as[c][0])) in (set(phrase), set(phrase[-1:])))]
            labelled = whole or ([] if named else by_label)
            if labelled:  # the catalog's @label names the column so ("vehicle" for plate)
                named, asked = labelled[:1], labelled[0]
                fit += 1
            head_said = bool(named) and any(word_match(phrase[-1], t) for t in terms(named[0])
                                            | terms(labelled_as.get(named[0], ("", False))[0]))
            if named and fr.count and len(phrase) > 1 and not head_said and \
                    (any(word_match(phrase[-1], w) for w in naming.listed(spec)) or naming.says_together([spec], phrase)) \
                    and (thing := naming.thing(spec)):
                # "How many assessment reports has X received?": the reports the tool lists, counted, not the column
                # a modifier names (the assessment mark)
                named, asked = [thing], thing
            # (an amount in the unit, not a limit, base or level in it: "how many cubic metres has X taken in" is
            # no monthly intake cap in m³)
            capped = naming.bound_columns([spec] + ([ctx.tools[join.tool]] if join else []))
            united = [] if named or not fr.count else \
                naming.unit_named(phrase, ctx, [tool] + ([join.tool] if join else []), [c for c in nums if c not in capped])
            if united:  # "how many cows": the number column the catalog declares in cows (herd_size)
                named, asked = united[:1], united[0]
                fit += 1
            # "How many people are on X's electoral roll?": the things counted are on (in, under) a number column
            # the relation's other end names, by its name or @label (electoral_roll, "electoral roll"), which holds
            # how many there are
            held = tuple(w for r in fr.relations if not named and fr.count and r.source and r.target and
                         set(naming.seq(r.source)) & set(phrase) and r.target != r.target_entity
                         for w in naming.seq(r.target))
            rolled = [c for c in naming.label_named(held, specs, nums) + naming.named(held, nums)
                      if c not in capped and all(any(word_match(w, t) for t in terms(c) | terms(
                          labelled_as.get(c, ("", False))[0])) for w in held)] if held else []
            if rolled:
                named, asked = rolled[:1], rolled[0]
                fit += 1
            sub = [c for c in cols if any(t == "sub" + phrase[-1] for t in terms(c))] if not named else []
            if sub:  # "Which genres sit beneath X?": the subgenres (a subgenre is a genre)
                named, asked = sub[:1], sub[0]
                fit += 1
            if not named:
                # a compound agent noun the tool's description says in words ("shareholders": "the companies or
                # persons that hold its shares"): the things that tool lists (the joined tool's, when it is that)
                for sp, besides in ([(ctx.tools[join.tool], join.key)] if join is not None else []) + [(spec, None)]:
                    if frame.compound_placed(phrase[-1], terms(sp.get("description", ""))) and \
                            (thing := naming.thing(sp, besides=besides)) is not None:
                        named, asked = [thing], thing
                        fit += 1
                        break
            if not named:
                # no column is named so, but the tool says what its things are ("its borrowers, the companies the
                # bank lends to"): its first string column
                terms(spec["description"]) | terms(tool)
                own = naming.cols(spec, ("string",))
                # (when the description says it lists such things: "Guarantors of a company: the companies that
                # guarantee its loans"; not the feeders of a substation for "substations")
                # (by the phrase's last word, the doer's verb when one was added, or by its head noun: "Which parts
                # of the orchestra sit directly under Brass" where the tool lists "every part of the orchestra below")
                if own and any(word_match(phrase[-1], w) or fr.asked_head and word_match(fr.asked_head, w)
                               for w in naming.listed(spec)):
                    named, asked, guessed = own[:1], own[0], True
                    # the columns it may be, but not one another word of the question names ("How many people have
                    # a role in X": the people, not the roles)
                    others = tuple(w for w in fr.words if w not in phrase)
                    choices = tuple(c for c in own if c == own[0] or not naming.named(others, [c]))
                    fit -= 0.5  # a guess: a join that names the column does better
            if not named and fr.count and set(phrase) <= frame.OCCASIONS and \
                    (thing := next(iter(naming.role_columns(ctx.tools[join.tool] if join else spec, "entity")), None)):
                # "How many times did X land its catch at Y?": the rows, counted by their declared identity
                named, asked = [thing], thing
            if not named and phrase[-1] in P.PEOPLE and (thing := naming.thing(spec)) is not None:
                # "How many people work at X?" where the tool says nothing of people: the things it lists, if they
                # are people (their values are read at synthesis: people's names, or no answer)
                named, asked, people = [thing], thing, True
            if named:
                fit += max(column_score(phrase, c) for c in named)
            elif fr.who or fr.kind in ("list", "count", "lookup"):
                return None
        elif fr.who and fr.kind in ("list", "lookup") and fr.predicate_words and any(
                naming.named(fr.predicate_words, naming.cols(sp, ("string",))) for t, sp in ctx.tools.items()
                if t != tool):
            return None  # "Who is the publisher of X?": another tool has the column the noun names
        elif fr.who and fr.extreme and (before := self._named_before(fr, strings)):
            asked = before  # "Among the courses needed before X, which one carries the most credits?"
        elif fr.who and join is not None and self._verb_fits(ctx, fr, join.tool, strict=True) and \
                (thing := naming.thing(ctx.tools[join.tool], besides=join.key)):
            asked = thing  # "Who owns the suppliers X buys from?": the owners the joined tool lists
            fit += 1
        elif fr.who and frame.verb_said(fr) and (said := naming.said_with(spec, fr.verb)):
            asked = said  # "Who is in charge of X?": the column the description names with it ("the manager in charge")
            fit += 1
            if _doers(fr.verb or "") & terms(said):
                fit += 1  # the doer of the verb by name ("Who keeps X?": the keeper, not the colonies kept there)
        elif fr.who and fr.verb and (doer := next((c for c in strings if _doers(fr.verb) & (
                terms(c) | terms(labelled_as.get(c, ("", False))[0]))), None)):
            asked = doer  # "Who holds the tenancy on X?": the column named or labelled its doer ("plot holder")
            fit += 1
        elif fr.question_word == "what" and not fr.asks_for and (verb := frame.what_done(fr)) and (
                done_to := [c for c in strings if any(word_match(w, t) for u in relations.verb_uses(
                    spec.get("description", ""), verb) for w in u for t in terms(c))]):
            asked = done_to[0]  # "What does X sell?": the column the description names as what it sells ("the goods
            fit += 1            # it sells": goods)
        elif fr.who and (thing := naming.thing(spec)) and self._verb_fits(ctx, fr, tool):
            asked = thing  # "Who reports to X?": the things the tool lists
        elif asked is None and (verb := frame.when_where_done(fr)) and (ends := [
                c for sp in [spec] + ([ctx.tools[join.tool]] if join else []) if (
                    said := relations.verb_ends(sp.get("description", ""), stem(verb)))
                for c in naming.cols(sp) if c in cols and any(word_match(w, t) for w in said for t in terms(c))]):
            asked = ends[0]  # "When did X open?", "Where is X based?": the column the description says the verb of
            fit += 2         # ("the year it opened", "the country it is based in")
        elif fr.question_word == "when" and asked is None and (dated := self._when(fr, [spec] + (
                [ctx.tools[join.tool]] if join else []), cols)):
            asked = dated  # "When did X's contract with us start?": the date the question's words name
            fit += 1
        elif fr.kind in ("list", "lookup") and asked is None:  # (not a kind of the things it lists: "List the
            return None                                          # freighters based at X", "Are there freighters ...")
        ref = numerator = None
        if fr.kind == "share":
            found = self._share(ctx, fr, tool, spec, params, bound, join)
            if found is None:
                return None
            ref, numerator = found
            fit += 2 if ref else 1
            if ref is not None and ref[0] != tool:
                # the reference tool's entities ("of Meridian's tonnage"); one the question names twice restricts
                # the part too ("the claims billed to Meridian ... what fraction of Meridian's cap")
                twice = {v for v in ref[1].values() if isinstance(v, str) and v not in bound
                         and fr.question.lower().count(v.lower()) > 1}
                bound = bound | (set(ref[1].values()) - twice)
        # the entities not bound: each a value of an output column (looked up in the data at synthesis)
        filters = {}
        tools = {tool: spec} | ({join.tool: ctx.tools[join.tool]} if join else {})
        for e in fr.entities:
            if e.value in bound or any(e.value.lower() in b.lower() for b in bound):
                continue
            if e.kind and not relations.restricts(e, fr, tools):
                continue  # "Which parts are fitted to X": the tool lists parts only
            if e.kind and fr.asked_head and any(word_match(fr.asked_head, w) for w in terms(e.value)) and any(
                    terms(e.value) == terms(c) for c in named_cols):
                # "Which courtroom at X seats the most?": the courtroom column holds courtrooms, a kind (a column
                # named the kind and nothing more; imprint_type holds kinds, not imprints)
                continue
            if e.kind and every is not None and fr.asked_head and word_match(fr.asked_head, e.value.lower()) and \
                    any(word_match(fr.asked_head, t) for t in terms(cols[0])):
                continue  # "Which three homes recorded the most falls?": the tool called for every home
            labels = [c.rsplit(".", 1)[-1] for c in e.columns]
            where = [c for c in strings if any(c == lab or terms(c) & terms(lab) for lab in labels)]
            if e.kind and not any(c in labels for c in strings):
                # no column holding the kind itself: not one merely named like it ("Which section does X play in":
                # the section column of X's profile, which holds sections' names, not the kind 'section')
                where = [c for c in where if not (fr.asked_head and word_match(fr.asked_head, c))]
            if not where and e.kind and by_name and fr.asked_head and \
                    any(word_match(fr.asked_head, w) for w in terms(e.value)):
                continue  # "Which warehouses were supplied by X": no kind column, a column named for them holds them
            if not where and e.kind and not (fr.who and any(lab in naming.cols(sp) for sp in ctx.tools.values()
                                                            for lab in labels)):
                # a column the tool declares a category, whatever it is called (item_type holding the films'
                # formats): the data say at synthesis whether it holds the kind (not for a who-question when another
                # tool's output has the very column holding it: "Who are the home managers ...?" asks for the staff
                # of that role, not for units of a type)
                where = [c for sp in tools.values() for c in naming.role_columns(sp, "category") if c in strings]
            if not where:
                return None
            filters[e.value] = where[0]
            fit += 1
        # the conditions: a number column each
        for cond in fr.conditions:
            named = self._condition_columns(fr, cond, nums) or self._condition_unit(ctx, fr, cond, nums)
            if not named and (len(nums) != 1 or self._names_a_column(ctx, fr, cond)):
                return None
            fit += 1
        # an extreme or a total: the measure ordered or summed
        if fr.extreme or fr.total or (fr.ranking and fr.n):
            floats = {c["name"] for sp in [spec] + ([ctx.tools[join.tool]] if join else []) for c in sp["schema"]
                      if c["type"] == "float"}
            amounts = naming.role_columns(spec, "amount") + (naming.role_columns(ctx.tools[join.tool], "amount") if join else [])
            if self._rows_measured(fr, nums, [spec] + ([ctx.tools[join.tool]] if join else [])):
                fit += 1  # "the most appointments": the rows counted per thing
            else:
                measure = self._measure(fr, nums, floats, amounts, naming.catalog_numbers(ctx), self._things(ctx),
                                        labels=labelled_as)
                if not measure:
                    return None
                fit += 1 + column_score(fr.asks_for, measure)  # "total amount": amount rather than total_billed
        # direct or transitive
        recursive = naming.follows_chain(spec) or bool(join and naming.follows_chain(ctx.tools[join.tool]))
        if fr.direct is False and not recursive:
            return None
        if fr.direct is False and naming.follows_chain(spec):
            fit += 2  # the chain followed from the entity the question names, not joined on afterwards
        if fr.direct is None and recursive:
            fit -= 0.125  # a tie-breaker: nothing said of a chain, the plain reading ("the feeders of X")
        if fr.direct is True and naming.follows_chain(spec) and not (self._level(spec) or strings):
            return None
        # the question's words choose the tool first (as in selection), the parts of the frame covered next
        top = max(scores.values(), default=0.0) or 1.0
        # a joined tool counts with its words ("Which banks lend to the companies controlled by X": the control
        # tool's words and the lenders' both), less a join's cost
        score = 10 * (scores.get(tool, 0.0) + (self.joined_score(tool, join.tool) if join else 0.0)) / top + 2 * fit \
            - ((5 if join.column else 9) if join else 0.0)
        if fr.question_word in ("who", "whom") and fr.verb and asked and fr.verb not in frame.STOPWORDS and any(
                word_match(stem(fr.verb), t) and t != stem(fr.verb) for t in terms(asked)):
            score += 6  # "Who owns the farms that ...?": the owner column, the doer the verb names
        return Query(tool, params, join, filters, score, asked, ref, numerator, guessed, choices=choices, every=every,
                     people=people)

    @staticmethod
    def _when(fr: QuestionFrame, specs: list[dict[str, Any]], cols: list[str]) -> str | None:
        """The column a "when" question asks for: one the catalog declares a date, named by the question's words
        (contract_start for "When did X's contract start?"), or the only one."""
        dated = [c for sp in specs for c in naming.role_columns(sp, "date") if c in cols]
        named = naming.best_named(fr.words, dated) or (dated if len(dated) == 1 else [])
        return named[0] if named else None

    @staticmethod
    def _phrase(fr: QuestionFrame, columns: list[str]) -> tuple[str, ...]:
        """The words naming what is asked for: after "how many", else the asked phrase; when these name no column,
        the noun after the verb ("Which courses are direct prerequisites of X": prerequisites)."""
        phrase = naming.seq(fr.how_many) if fr.how_many else fr.asks_for
        if phrase and naming.named(phrase, columns):
            return phrase
        if fr.predicate_words and naming.named(fr.predicate_words, columns):
            return fr.predicate_words
        return phrase

    def _share(self, ctx: RunContext, fr: QuestionFrame, tool: str, spec: dict[str, Any], params: dict[str, Any],
               bound: set[str], join: Join | None):
        """A share's denominator and numerator, or None when the question's words do not fix them.

        The denominator is a number column named by the words after "share of" / "fraction of" ("of its credit cap",
        "of the seats of X"), of a tool called for the same entity (the anchor itself, or another tool); else the
        same aggregate without the question's restrictions ("the enrolments in X": all of them), which needs those
        words to name the anchor's rows. The numerator sums the number column the question's other words name; with
        none named, a capacity counted in whole things (an int column) is compared with the rows counted, an amount
        with the anchor's amount (declared, or its only float column)."""
        # "Cascade Value Fund" names no column (its words, where the question says them only inside a name: "the
        # tests taken at Hollowell Test Centre" says "tests" of the tests)
        spans = [(m.start(), m.end()) for e in fr.entities if not e.kind
                 for m in re.finditer(re.escape(e.text or e.value), fr.question)]
        named_words = {w for e in fr.entities for w in terms(e.value)} - {
            w for w, a, _b in fr.tokens if not any(x <= a < y for x, y in spans)}
        noun = tuple(w for w in fr.share_of if w not in named_words)
        own_nums = naming.numeric(spec) + ([c for c in naming.numeric(ctx.tools[join.tool])] if join else [])
        ref = None
        # the noun names the anchor's rows ("the loans issued by X"): the whole is the rows, not a cap
        rows = terms(tool) | terms(spec["output_predicate"])
        rows_named = any(word_match(w, t) for w in noun[:2] for t in rows)
        # (not another tool's count of the same things when the noun's head names the anchor's rows: "What percentage
        # of X's callouts were for rats?" is X's callouts counted, not a column of callouts per month; "its annual
        # loan quota" is a cap of loans, another tool's)
        rows_headed = bool(noun) and any(word_match(noun[-1], t) for t in rows)
        # (or the noun's head names a measure of the anchor's own rows, which the question restricts: "What percentage
        # of X's box office takings in 2024 came from film F?" is the takings of X's screenings of F over those of all
        # its screenings, not another tool's takings per month)
        restricted = bool({e.value for e in fr.entities} - bound) or bool(fr.conditions) or \
            any(frame.truth_wanted(fr, c) is not None for c in naming.cols(spec, ("string",)))
        owners = frame.share_owners(fr)
        own_whole = not owners or bool(owners & bound)
        capped = set(naming.role_columns(spec, "limit", "base"))
        own = [c for c in own_nums if c not in capped and not terms(c) & CAP_WORDS]
        labels = spec.get("labels") or {}
        measure = naming.head_named(noun[-1:], own, ctx) or [
            c for c in own if (lab := naming.seq(labels.get(c, ""))) and word_match(noun[-1], lab[-1])] if noun else []
        if restricted and own_whole and len(measure) == 1:
            return None, measure[0]
        for other, ospec in sorted(ctx.tools.items()):
            # another tool's parameters filled by the question's entities ("of Meridian's contracted tonnage")
            if other != tool and rows_headed:
                continue
            if other != tool and not all(p["name"] in params or any(
                    f"{other}.{p['name']}" in e.parameters for e in fr.entities) for p in ospec["parameters"]):
                continue
            # named by its head ("the loans" is no loan_days), or a cap by what it caps ("the seats": seat_capacity;
            # not "the loans" when these are the anchor's rows: annual_loan_quota)
            named = naming.named(noun, naming.numeric(ospec)) if noun else []
            # (or named by its head alone, however the rest of its name reads: "spending" names spent_gbp, an
            # irregular form, before a cap of spending anywhere)
            # (by the noun's own head: "its credit cap" names no credits)
            heads = [c for c in naming.head_named(noun[-1:], naming.numeric(ospec), ctx)
                     if c not in naming.bound_columns([ospec])] if noun else []
            by_head = naming.head_named(noun, named, ctx)
            named = by_head or heads or [c for c in named if terms(c) & CAP_WORDS and not rows_named]
            if named:
                oparams = params if other == tool else {
                    p["name"]: params.get(p["name"]) or next(
                        e.value for e in sorted(fr.entities, key=lambda e: e.value not in bound)
                        if f"{other}.{p['name']}" in e.parameters) for p in ospec["parameters"]}
                score = len(noun) + 1 if not by_head and named == heads else column_score(noun, named[0])
                if ref is None or score > ref[3]:
                    ref = (other, oparams, named[0], score)
        # (or a yes/no column of the rows the question's words name: "What percentage of the plots in X are
        # allowed a shed?")
        restricted = bool({e.value for e in fr.entities} - bound - set(ref[1].values() if ref else ())) \
            or bool(fr.conditions) or any(frame.truth_wanted(fr, c) is not None for c in naming.cols(spec, ("string",)))
        # (a whole that is the same aggregate without the question's restrictions is its owner's — "What percentage
        # of X's shifts were for plums?": X's shifts — only from a tool called for the owner, not one called for the
        # part's kind, the plum shifts of every orchard: own_whole above)
        if restricted and noun and ref is None and not own_whole:
            return None
        if restricted and noun and (ref is None or ref[0] == tool):
            # the noun names a measure of the anchor's rows, not a cap ("the tonnage dispatched from X", its weight
            # in tonnes): the restricted sum of it over the same sum without the restrictions
            measure = naming.head_named(noun, own, ctx) or naming.unit_named(noun, ctx, [tool] + ([join.tool] if join else []), own)
            if measure:
                return None, measure[0]
        rest = [c for c in own_nums if ref is None or c != ref[2]]
        words = tuple(w for w in fr.words if w not in noun)
        # what the reference limits names the part ("credit cap": credits); else the question's other words
        limited = tuple(w for w in naming.seq(ref[2].replace("_", " ")) if w not in CAP_WORDS) if ref else ()
        numerator = (naming.best_named(limited, rest) or naming.best_named(words, rest) or [None])[0]
        rtype = next(c["type"] for c in ctx.tools[ref[0]]["schema"] if c["name"] == ref[2]) if ref else None
        if rtype == "int" and numerator is not None and not naming.last_word_named(numerator, limited + words):
            # a whole number of things ("its annual loan quota"): the loans counted, not their days (a quantity in
            # a unit, "the loan period in days", by its last word, the unit: no count of loans)
            numerator = None
        if ref is not None:
            elsewhere = [c for c in naming.catalog_numbers(ctx) if c not in rest and c != ref[2]]
            if numerator is None and limited and naming.best_named(limited, elsewhere):
                return None  # the part is another tool's column ("credit cap": the courses' credits)
            if numerator is None:
                if rtype != "int":  # an amount: the anchor's amount
                    floats = [c for c in rest if any(x["name"] == c and x["type"] == "float"
                                                     for x in spec["schema"])]
                    amounts = [c for c in naming.role_columns(spec, "amount") if c in rest]
                    numerator = (amounts or (floats if len(floats) == 1 else [None]))[0]
                    if numerator is None:
                        return None
            return (ref[0], ref[1], ref[2]), numerator
        # no denominator column: the same aggregate over every row, which the share's noun must name (or the share
        # is of the very thing the anchor is called for: "What share of the Cellos are on tutti contracts?", the
        # section's players)
        whole = not noun and any(r.words and r.words[0] in SHARE_NOUNS and r.target_entity in bound
                                 for r in fr.relations)
        if not whole and (not noun or not rows_named):
            return None
        if not restricted or not own_whole:
            return None  # nothing restricts the numerator, or the whole is not the owner's
        return None, numerator

    @staticmethod
    def _things(ctx: RunContext) -> frozenset[str]:
        """What the catalog's tools list, by their names ("issues": get_package_issues)."""
        return frozenset(t for spec in ctx.tools.values() for t in relations.identity(spec))

    @staticmethod
    def _named_before(fr: QuestionFrame, strings: list[str]) -> str | None:
        """The string column the words before "which"/"who" name ("Among the hubs reachable from X, which one")."""
        if not fr.preamble_words:
            return None
        named = naming.best_named(fr.preamble_words, strings)
        return named[0] if named else None

    @staticmethod
    def _rows_measured(fr: QuestionFrame, nums: list[str], specs: list[dict[str, Any]],
                       strings: list[str] = ()) -> bool | str:
        """Whether a superlative measures the rows themselves ("Which vet handled the most appointments": the
        appointments counted per vet), not a number column: its words name the things a tool lists (by the tool's
        name or its output) and no number column; or a string column of the rows, whose values are counted
        ("Which institution has borrowed the most objects?": the objects of its loans), which is returned."""
        words = fr.measure_words
        # (a quantity's determiner, "the most appointments", "the fewest visits"; not "the highest-paid player")
        # (things asked, "Which ...", or named by an imperative: "Name the three stations that had the most visits")
        if not ((fr.who or fr.how == "imperative") and (fr.extreme or fr.ranking and fr.n)
                and fr.superlative in frame.QUANTITY_SUPERLATIVES
                and words) or fr.total or \
                naming.named(words, nums) or word_match(words[-1], fr.asked_head):
            return False
        # (by the tool's name, its output's, or the things its description says it lists: "The cultivation
        # inspections an inspector carried out", whatever its name calls them)
        things = {t for sp in specs for t in terms(sp["name"]) | terms(sp["output_predicate"]) | naming.listed(sp)}
        if any(word_match(words[-1], t) for t in things):
            return True
        # (or a kind of them, held in a column of theirs: "Which homes recorded the most falls?", the incidents whose
        # type is 'fall', counted per home)
        if any(any(word_match(words[-1], t) for t in terms(e.value)) and
               any(c.rsplit(".", 1)[-1] in naming.cols(sp) for c in e.columns for sp in specs) for e in fr.kinds):
            return True
        named = naming.named(words, list(strings))
        return named[0] if named else False

    @staticmethod
    def _verb_fits(ctx: RunContext, fr: QuestionFrame, tool: str, strict: bool = False) -> bool:
        """"Who <verb> ...": the verb is the tool's, or no tool's ("Who reports to X?" with get_reports; not "Who
        owns the suppliers X buys from?" with the purchases' tool, when an owners' tool says "own")."""
        if not fr.verb or fr.verb in frame.STOPWORDS:
            return True
        verb = stem(fr.verb)  # "Who reports to X" -> report; "Who has a role in ..." -> role

        def says(name: str) -> bool:
            spec = ctx.tools[name]
            return any(word_match(verb, w) for w in terms(name) | terms(spec["description"]))

        # (another tool saying it counts when the question's entities can be passed to it: "Who sits on the
        # Documentary Jury?" is not read off the tool of "juries a person sits on", which takes a person)
        # (or to things the question names by its parameter's words, which a join reaches: "Who owns the suppliers X
        # buys from?", the suppliers' owners)
        def callable_for(name: str) -> bool:
            params = ctx.tools[name]["parameters"]
            return not params or any(f"{name}.{p['name']}" in e.parameters for e in fr.entities for p in params) or \
                any(word_match(w, t) for p in params for t in terms(p["name"]) - {"name", "id", "code"}
                    for w in fr.words)
        return says(tool) or (not strict and not any(says(t) and callable_for(t) for t in ctx.tools if t != tool))

    @staticmethod
    def _names_a_column(ctx: RunContext, fr: QuestionFrame, cond: frame.Condition) -> bool:
        """Whether the words of a condition name a number column of any tool (then the only number column at
        hand is not the one meant: "carry more than 6 credits" over a chain whose only number is its steps)."""
        return bool(Composer._condition_columns(fr, cond, naming.catalog_numbers(ctx)))

    @staticmethod
    def _condition_columns(fr: QuestionFrame, cond: frame.Condition, columns: list[str]) -> list[str]:
        """The columns a condition compares: named by its measure in the parse ("a rating above 4.0": rating), else
        by the words before or after it."""
        i = fr.question.find(cond.text)
        return (naming.named(cond.measure, columns) if cond.measure else []) or \
            naming.named(frame.before(fr, i), columns) or naming.named(frame.after(fr, i + len(cond.text)), columns)

    @staticmethod
    def _condition_unit(ctx: RunContext, fr: QuestionFrame, cond: frame.Condition, columns: list[str]) -> list[str]:
        """The columns in the unit written after a condition's number ("more than 400 hectares": the area in ha),
        when the condition's words name no number column of the catalog ("rated above 45 megawatts" is the rating,
        not any demand in MW)."""
        if Composer._names_a_column(ctx, fr, cond):
            return []
        i = fr.question.find(cond.text)
        words = frame.after(fr, i + len(cond.text), 2) if i >= 0 else ()
        # (or a symbol written before the number: "more than £200")
        words = (*words, *re.findall(r"[^\w\s%.,'-]+", cond.text))
        return [c for c in columns if (u := naming.column_unit(c, ctx)) and naming.names_unit(words, u)]

    @staticmethod
    def _level(spec: dict[str, Any]) -> str | None:
        """The output column giving how many steps along the chain a fact is (1: direct)."""
        declared = naming.role_columns(spec, "level")
        if declared:
            return declared[0]
        return next((c for c in naming.cols(spec, ("int",)) if terms(c) & set(LEVEL_WORDS)), None)

    @staticmethod
    def _labels(ctx: RunContext, tools: list[str]) -> dict[str, tuple[str, bool]]:
        """The catalog's @labels of the tools' columns (column -> (label, whether the column is a limit, a base or a
        level: no measure a superlative orders by, "the most tonnage" is no licensed tonnage))."""
        bounds = naming.bound_columns(ctx.tools[t] for t in tools)
        return {c: (lab, c in bounds) for t in tools for c, lab in (ctx.tools[t].get("labels") or {}).items()}

    @staticmethod
    def _measure(fr: QuestionFrame, nums: list[str], floats: set[str], amounts: list[str],
                 elsewhere: list[str] = (), things: frozenset[str] = frozenset(),
                 labels: dict[str, tuple[str, bool]] | None = None, units: list[str] = ()) -> str | None:
        """The number column a total sums or an extreme orders by: named by the asked phrase, by the words after the
        superlative, by the adjective's measure ("heaviest": weight), by the question's words ("how much": an
        amount, a float), by a declared amount role, or the only one."""
        # the words of the superlative's own phrase first ("the three accessions with the largest seed counts":
        # the seed count, not the vault's capacity in accessions)
        labels = {c: lb for c, lb in (labels or {}).items() if c in nums}

        def labelled(words: tuple[str, ...], head: bool = False) -> list[str]:
            # named by the catalog's @label ("tonnage picked"); by the label's last word for the thing asked ("the
            # biggest party": "largest party", a limit itself; not "which match", a "match fee"); a superlative's
            # words name no limit, base or level
            pool = {c: lab for c, (lab, bound) in labels.items() if head or not bound}
            best = frame.asked_columns(words, list(pool.values())) if words else []
            return [c for c, lab in pool.items() if lab in best
                    and (not head or word_match(words[-1], naming.seq(lab)[-1] if naming.seq(lab) else ""))]

        ranked = bool(fr.ranking and fr.superlative and fr.measure_words and not fr.extreme)
        found = (naming.named(fr.measure_words, nums) or labelled(fr.measure_words)) if ranked else []
        if (ranked or fr.extreme) and not found and fr.superlative and fr.measure_words and \
                not naming.named(fr.measure_words, nums) and not labelled(fr.measure_words) and \
                naming.named(fr.measure_words, [c for c in elsewhere if c not in nums]):
            return None  # the measure is another tool's column ("the smallest annual allocation", not the area)
        if ranked and not found and fr.superlative in frame.QUANTITY_SUPERLATIVES and \
                any(word_match(w, t) for w in fr.measure_words for t in things):
            # "the three packages with the most issues": things a tool lists, counted where they are listed, never
            # read off this tool's only number column (the lines of code)
            return None
        # (or by the catalog's @label: "the biggest party X accepts" is max_headcount, labelled "largest party")
        found = found or naming.named(fr.asks_for, nums) or labelled(fr.asks_for, head=True)
        if not found and fr.extreme and fr.superlative:
            found = naming.named(fr.measure_words, nums) or labelled(fr.measure_words)
            if not found and fr.superlative in MEASURE_OF:
                found = naming.named((MEASURE_OF[fr.superlative],), nums)
        if not found:
            # named by its unit ("the average length, in minutes": duration_min, in min; not the fare, an amount)
            by_unit = [c for c in units if c in nums]
            found = by_unit if len(by_unit) == 1 else []
        if not found:
            # "how much": an amount, not a count of things
            pool = [c for c in nums if c in floats] if fr.how == "how much" else nums
            named = naming.best_named(fr.words, pool)
            found = named if len(named) == 1 else []
        if not found:
            # the only number column at hand, unless the question names another one of the catalog (``elsewhere``)
            only = len(nums) == 1 and not naming.best_named(fr.words, [c for c in elsewhere if c not in nums])
            found = [c for c in amounts if c in nums] or (nums if only else [])
        return found[0] if found else None

    # --- replanning: the joined tool ----------------------------------------------------------------------------------
    def _switch(self, ctx: RunContext) -> bool:
        """Take the next query of another tool (its tool not called yet); False when there is none."""
        called = {c.tool for c in ctx.executed.values()}
        nxt = next((q for q in self.fallbacks if q.tool not in called), None)
        if nxt is None:
            return False
        ctx.event("compose_switch", tool=nxt.tool, instead_of=self.query.tool if self.query else None)
        self.fallbacks = [q for q in self.fallbacks if q is not nxt]
        self.query, self.alternatives, self.done, self.switched = nxt, [], False, True
        return True

    async def replan(self, ctx: RunContext, probe: Probe) -> list[Call]:
        if self.switched and self.query is not None:
            self.switched = False
            if self.query.every is not None:  # (a tool of every thing: called for each value, looked up first)
                return await self.every_calls(probe)
            return [Call(tool=self.query.tool, params=self.query.params, level="high")]
        q = self.query
        # (the joined tool is called once, for the anchor's values; a call of it already made, for the question's
        # entity, holds the rows it needs, unless it was an anchor set aside, whose rows are the entity's own)
        called = {c.tool for c in ctx.executed.values()} - self.set_aside
        if q is None or q.join is None or self.joined or q.join.tool in _joined(ctx) | called:
            return []
        self.joined = True
        view = next((v for v in ctx.predicates.values() if v.tool == q.tool), None)
        if view is None or view.cardinality == 0 or not q.join.column:
            return []
        where = {c: q.params[p] for c, p in ctx.tools[q.tool].get("parameter_columns", {}).items()
                 if p in q.params and c != q.join.column}
        form: dict[str, Any] = {"each": f"{view.name}.{q.join.column}"}
        if where:
            form["where"] = where
        calls = [Call(tool=q.join.tool, params={q.join.param: form}, level="high")]
        if self._own(ctx, q):
            # "How many objects does X hold, counting all of its sub-departments?": X's own objects too
            calls.append(Call(tool=q.join.tool, params={q.join.param: next(iter(q.params.values()))}, level="high"))
        return calls

    @staticmethod
    def _own(ctx: RunContext, q: Query) -> bool:
        """The question counts the entity's own things in with those of the chain joined from it, and the joined
        tool takes the entity itself (a department's objects; not a health system's claims, where the chain lists
        the system's providers, its own among them)."""
        fr = frame.of(ctx)
        if not (fr.own and q.join is not None and q.join.column and q.params
                and naming.follows_chain(ctx.tools[q.tool])):
            return False
        value = next(iter(q.params.values()))
        return any(e.value == value and f"{q.join.tool}.{q.join.param}" in e.parameters for e in fr.entities)

    async def _link_join(self, ctx: RunContext, probe: Probe, view: PredicateView) -> bool:
        """The anchor's output column whose values are the joined tool's parameter values (a few looked up); True
        when the query switched to another anchor instead (called at the next replan)."""
        for q in [self.query, *self.alternatives]:
            if q is None or q.join is None:
                continue
            if q.join.column:
                self.query = q
                return False
            # (its own columns first; then, for a share, the one holding the value it was called for, the same
            # thing passed on: "How much of X's loan quota have its loans used up?", X's profile joined to X's loans)
            strings = view.typed("string")
            same = frame.of(ctx).kind == "share" and q is self.query
            for col in [c for c in strings if c not in view.param_columns] + \
                    [c for c in strings if same and c in view.param_columns]:
                # a few values looked up: one the parameter takes exactly is enough (not every company has an
                # ultimate controller in the data)
                sample = sorted({str(f[col]) for f in view.facts if f.get(col) is not None})[:8]
                hits = [any(h.get("exact") and str(h["value"]).lower() == x.lower()
                            for h in await probe.lookup(q.join.tool, q.join.param, x)) for x in sample]
                if any(hits):
                    q.join = Join(q.join.tool, q.join.param, col, q.join.key)
                    self.query = q
                    ctx.event("compose_join", tool=q.join.tool, column=col)
                    return False
        # another anchor for a join, when none of this one's columns holds values the joined tools take ("the
        # branches in the Wessex district": Wessex's own profile holds its type and parent, the offices under it
        # hold the branches)
        called = {c.tool for c in ctx.executed.values()}
        # (not one whose joined tool has run for the values of another tool's rows already)
        nxt = next((q for q in self.other_anchors if q.tool not in called and q.join.tool not in _joined(ctx)), None)
        if nxt is not None:
            ctx.event("compose_switch", tool=nxt.tool, instead_of=view.tool, why="no column to join")
            self.set_aside.add(view.tool)
            self.other_anchors = [q for q in self.other_anchors if q.tool != nxt.tool]
            self.alternatives = [q for q in self.other_anchors if q.tool == nxt.tool and q.params == nxt.params]
            self.query, self.done, self.switched = nxt, False, True
            return True
        raise ComposeError(f"the question needs {view.name} joined with another tool's output, and no column of "
                           f"{view.name} holds values any such tool takes")

    # --- synthesis ---------------------------------------------------------------------------------------------------
    async def synthesize(self, ctx: RunContext, probe: Probe) -> list[RuleProposal]:
        """The rules of the query, once its tools have run; :class:`ComposeError` when the data do not fit it after
        all (a filter value in no column, no first level to keep, no column for what is asked)."""
        q = self.query
        if q is None or self.done:
            return []
        anchor = next((v for v in ctx.predicates.values() if v.tool == q.tool), None)
        # (the joined tool's rows once it ran for the anchor's values: not those of a call for the entity alone, an
        # anchor set aside)
        joined = next((v for v in ctx.predicates.values() if q.join and v.tool == q.join.tool
                       and (v.each or v.tool not in self.set_aside)), None)
        if anchor is not None and q.join is not None and not q.join.column and not self.joined and \
                await self._link_join(ctx, probe, anchor):
            return []  # another anchor: called at the next replan
        if anchor is None or (q.join is not None and joined is None and anchor.cardinality > 0 and not self.joined):
            return []  # waiting for the joined tool
        if q.join is not None and not q.join.column:
            raise ComposeError(f"no column of {anchor.name} holds values of {q.join.tool}'s parameter {q.join.param}")
        if q.join is not None and joined is None:
            if anchor.cardinality > 0:
                raise ComposeError(f"{q.join.tool} was to be called for the values of {anchor.name}.{q.join.column}, "
                                   f"and was not")
            q.join = None  # nothing to join: no anchor facts
        self.done = True
        fr = frame.of(ctx)
        if q.people and q.asked and anchor.facts and not P.names_people([f.get(q.asked) for f in anchor.facts]):
            if self._switch(ctx):
                return []  # another tool's things may be people (the next query is called first, then composed)
            raise ComposeError(f"the question asks about people, and the {naming.prose(q.asked, ctx)} values of "
                               f"{anchor.name} are not people's names")
        taken: set[str] = set()
        names: dict[tuple[str, str], str] = {}
        head: list[tuple[str, str, str]] = []  # (column, variable, type)
        views = [anchor] + ([joined] if joined is not None else [])
        for v in views:
            for c in v.schema:
                var = naming.var(c["name"], taken)
                names[(v.name, c["name"])] = var
                if (v is anchor and c["name"] in v.param_columns and q.every is None) or \
                        (v is joined and c["name"] == q.join.key):
                    continue
                label = c["name"] if all(c["name"] != h[0] for h in head) else f"{v.name}_{c['name']}"
                head.append((label, var, c["type"]))
        if joined is not None:
            names[(joined.name, q.join.key)] = names[(anchor.name, q.join.column)]
            if all(h[0] != q.join.key for h in head):  # the anchor's column holds the joined tool's key values
                head.append((q.join.key, names[(anchor.name, q.join.column)], "string"))
        consts: dict[tuple[str, str], str] = {}
        restricting: set[tuple[str, str]] = set()  # the constants of the question's other entities
        for col, param in anchor.param_columns.items():
            if param in q.params:
                consts[(anchor.name, col)] = format_const(q.params[param])
        conditions: list[str] = []
        # the other entities: on the column that holds them in the data
        for value in q.filters:
            spot = None
            for v in views:
                for col in (c for c in v.typed("string") if c not in v.param_columns):
                    if (v.name, col) not in consts and await probe.matching(v.name, col, value) > 0:
                        spot = (v.name, col)
                        break
                if spot:
                    break
            kind = next((e for e in fr.kinds if e.value == value), None)
            if spot is None and kind is not None and self._switch(ctx):
                return []  # the next query's tool is called first (replan), then composed
            named = kind or next((e for e in fr.entities if e.value == value and fr.how == "yes-no"), None)
            if spot is None and named is not None and (fr.how == "yes-no" or self.exists):
                # a kind none of the rows is of, and no other query to try, when the question asks whether there are
                # any ("Is any vessel based at X a freighter?" where none is): the column that holds kinds of that
                # name in the data, when the output has it by name (no rows kept: "no"); a list or a lookup with no
                # row of the kind is refused (the district of "the district that X belongs to" is not X)
                # (so too a name the data holds in that column elsewhere: "Has X ever carried out a harvest in Y?",
                # none of Y's harvests being X's)
                labels = {c.rsplit(".", 1)[-1] for c in named.columns}
                spot = next(((v.name, col) for v in views for col in v.typed("string")
                             if col in labels and col not in v.param_columns and (v.name, col) not in consts), None)
            if spot is None:
                raise ComposeError(f"the question names {value!r}, and no output column of "
                                   f"{', '.join(v.name for v in views)} holds it")
            consts[spot] = format_const(value)
            restricting.add(spot)
        # the conditions
        for cond in fr.conditions:
            nums = [(v, c) for v in views for c in v.typed("int", "float") if c not in v.param_columns]
            labels = [c for _v, c in nums]
            named = self._condition_columns(fr, cond, labels) or self._condition_unit(ctx, fr, cond, labels) or \
                (labels if len(labels) == 1 and not self._names_a_column(ctx, fr, cond) else [])
            if not named:
                raise ComposeError(f"the condition {cond.text!r} names no number column of "
                                   f"{', '.join(v.name for v in views)}")
            v, col = next((v, c) for v, c in nums if c == named[0])
            value = cond.value
            if cond.percent:  # a percentage against a ratio column (0.25) or a percent column (25)
                top = max((f.get(col) for f in v.facts if isinstance(f.get(col), int | float)), default=None)
                if top is not None and top <= 1:
                    value = cond.value / 100
            if fr.total and fr.who and fr.kind == "total":
                # "Which providers have billed more than 50,000 in total?": the condition is on each one's total
                self.deferred.append((col, cond.op, format_const(value)))
                continue
            conditions.append(f"{names[(v.name, col)]} {cond.op} {format_const(value)}")
        # a period it names ("in March 2024"): on the column dating the rows
        conditions += periods.keep(fr, [(v, ctx.tools.get(v.tool or "", {})) for v in views], names, consts)
        # a yes/no column its words name ("Which courtrooms at X have a video link?": video_link yes)
        kept: list[str] = []
        for v in views:
            for col in v.typed("string"):
                held = sorted({f.get(col) for f in v.facts}, key=str)
                if col in v.param_columns or (v.name, col) in consts or (v.name, col) not in names or not held or \
                        any(P.truth(x) is None for x in held):
                    continue
                wanted = frame.truth_wanted(fr, col)
                if wanted == "unclear":
                    raise ComposeError(f"the question names {naming.prose(col, ctx)}, a yes or no of each fact, and "
                                       f"does not say plainly which of the two it keeps to")
                if wanted is not None:
                    value = next((x for x in held if P.truth(x) is wanted), None)
                    value = value if value is not None else P.spelt_truth(wanted, held[0])
                    consts[(v.name, col)] = format_const(value)
                    restricting.add((v.name, col))  # (a share's whole is every row, whatever the column says)
                    kept.append(f"{naming.prose(col, ctx)} {value}")
        # directly: the first level of a chain
        if fr.direct is True and naming.follows_chain(ctx.tools[q.tool]):
            level = self._level(ctx.tools[q.tool])
            if level is not None:
                consts[(anchor.name, level)] = "1"
            else:
                # a column holding the anchor's own value for its first level ("member_of" = the system asked about)
                own, entity = None, next(iter(q.params.values()))
                for c in anchor.typed("string"):
                    if c not in anchor.param_columns and (anchor.name, c) not in consts and \
                            await probe.matching(anchor.name, c, entity) > 0:
                        own = c
                        break
                if own is None and self._switch(ctx):
                    # another tool's things, read without a chain ("the hubs reachable by a direct lane out of X":
                    # the lanes out of X, when the reachable hubs do not say which are one lane away)
                    return []
                if own is None:
                    raise ComposeError(f"the question asks for direct relations only, and no column of {anchor.name} "
                                       f"tells the first level of the chain")
                consts[(anchor.name, own)] = format_const(next(iter(q.params.values())))

        # a chain's things leave out the thing the question asks about ("the subsidiaries X owns, directly or
        # through others", "every channel downstream of X": X is none of them), unless it is counted in ("X and all
        # its units")
        if fr.kind == "list" and not fr.own and q.params and naming.follows_chain(ctx.tools[q.tool]):
            # (on the column of the things the tool lists, when the words asked name that one: not the column of
            # the blend each component goes into, which holds X for the first level)
            strings = [c for c in anchor.typed("string") if c not in anchor.param_columns]
            thing = naming.thing(ctx.tools[q.tool])
            asked = (naming.named(fr.asks_for, strings) if fr.asks_for else []) or [thing]
            entity = str(next(iter(q.params.values())))
            if thing in strings and asked[:1] == [thing] and (anchor.name, thing) not in consts and \
                    any(str(f.get(thing)) == entity for f in anchor.facts):
                conditions.append(f"{names[(anchor.name, thing)]} != {format_const(entity)}")

        def atom(v: PredicateView) -> str:
            return f"{v.name}({', '.join(consts.get((v.name, c), names[(v.name, c)]) for c in v.columns)})"

        slug = naming.slug("_".join(str(x) for x in q.params.values()), 40)
        rows = f"{anchor.name}_{slug}{'_' + self.tag if self.tag else ''}_selected"
        self.rows = rows
        every = [h for h in head if h[1] not in {names[k] for k in consts if k not in restricting}]
        fixed = {names[k] for k in consts}
        head = [h for h in head if h[1] not in fixed]
        body = ", ".join([atom(v) for v in views] + conditions)
        maps = naming.mappings(rows, head)
        program = f'@output("{rows}"). {maps}\n{rows}({", ".join(v for _c, v, _t in head)}) :- {body}.'
        if joined is not None and self._own(ctx, q):
            program += "\n" + self._own_rule(ctx, q, anchor, joined, rows, head, names, consts, conditions)
        # in words: "for Crestline Health Partners, with Harbor Valley Health, above 4.0, directly"
        what = ", ".join(filter(None, ["for " + " and ".join(str(v) for v in q.params.values()),
                                       "with " + " and ".join(q.filters) if q.filters else "", *kept,
                                       *(c.text for c in fr.conditions), *("in " + p for p in fr.periods),
                                       "directly" if fr.direct is True and naming.follows_chain(ctx.tools[q.tool]) else ""]))
        out = [RuleProposal(program=program, output=rows, purpose=f"selection: {anchor.name}"
                            + (f" joined with {joined.name}" if joined is not None else "") + f" for {what}")]
        if fr.kind == "share":
            def unrestricted(v: PredicateView) -> str:
                return f"{v.name}({', '.join(consts.get((v.name, c), names[(v.name, c)]) if (v.name, c) not in restricting else names[(v.name, c)] for c in v.columns)})"  # noqa: E501

            # (the periods said of the whole keep it too: "the PCNs issued during 2024" are the whole's rows)
            whole_periods = tuple(t for t in fr.periods if frame.said_of_the_whole(fr, t))
            kept_whole = periods.keep(replace(fr, periods=whole_periods),
                                      [(v, ctx.tools.get(v.tool or "", {})) for v in views], names, consts) \
                if whole_periods else []
            out += self._share_rules(ctx, fr, rows, head, every, [unrestricted(v) for v in views] + kept_whole, what)
        else:
            out += self._aggregate(ctx, fr, rows, head, what)
        if self.output is None:
            raise ComposeError(f"no column of {', '.join(v.name for v in views)} is the "
                               f"{' '.join(fr.asks_for) or 'thing'} the question asks for")
        return out

    def _own_rule(self, ctx: RunContext, q: Query, anchor: PredicateView, joined: PredicateView, rows: str,
                  head: list[tuple[str, str, str]], names: dict[tuple[str, str], str],
                  consts: dict[tuple[str, str], str], conditions: list[str]) -> str:
        """The selection's rows of the entity itself, beside those of its chain: the joined tool's rows for the
        entity, at level 0 of the chain; :class:`ComposeError` when a column of the chain's rows has no value for the
        entity itself (it cannot be counted in without inventing one)."""
        entity = format_const(next(iter(q.params.values())))
        level = self._level(ctx.tools[q.tool])
        fixed: dict[str, str] = {names[(anchor.name, q.join.column)]: entity}
        for c in anchor.columns:
            var = names[(anchor.name, c)]
            if (anchor.name, c) in consts or c in anchor.param_columns or var in fixed:
                continue
            if c != level:
                raise ComposeError(f"the question counts {entity}'s own rows in, and {anchor.name}.{c} has no value "
                                   f"for {entity} itself")
            fixed[var] = "0"
        if any(names[(anchor.name, c)] in fixed and (anchor.name, c) in consts for c in anchor.columns):
            raise ComposeError(f"the question counts {entity}'s own rows in, and {anchor.name} is restricted")
        atom = f"{joined.name}({', '.join(entity if c == q.join.key else consts.get((joined.name, c), names[(joined.name, c)]) for c in joined.columns)})"  # noqa: E501
        # (a condition on the chain's own columns has no value for the entity itself)
        if any(v in fixed for cond in conditions for v in re.findall(r"\b[A-Z][A-Za-z0-9_]*\b", cond)):
            raise ComposeError(f"the question counts {entity}'s own rows in, and a condition is on the chain's rows")
        terms_ = [fixed.get(v, v) for _c, v, _t in head]
        return f"{rows}({', '.join(terms_)}) :- {', '.join([atom] + conditions)}."

    def _share_rules(self, ctx: RunContext, fr: QuestionFrame, rows: str, head: list[tuple[str, str, str]],
                     every: list[tuple[str, str, str]], unrestricted: list[str], what: str) -> list[RuleProposal]:
        """numerator / denominator: the selection's sum (or its rows counted) over the reference column, or over the
        same aggregate without the question's restrictions."""
        q = self.query
        var = {c: v for c, v, _t in head}
        num, den, share = f"{rows}_part", f"{rows}_whole", f"{rows}_share"
        agg = f"sum({var[q.numerator]})" if q.numerator in var else "count()"
        out = [RuleProposal(program=f'@output("{num}"). @mapping("{num}", 0, "part", "float").\n'
                                    f'{num}(V) :- {rows}({", ".join(v for _c, v, _t in head)}), V = {agg}.',
                            output=num, purpose=f"share: the part, {agg.split('(')[0]} over {rows}")]
        if q.ref is not None:
            tool, params, column = q.ref
            view = next((v for v in ctx.predicates.values() if v.tool == tool), None)
            if view is None:
                raise ComposeError(f"{tool}, which holds the share's reference {column}, did not run")
            rows_of = [f for f in view.facts
                       if all(str(f.get(c)) == str(params.get(p)) for c, p in view.param_columns.items())]
            # a thing the question names besides the parameters picks the reference's row ("Evergreen's annual cap
            # for Granite Peak Health": the payer's cap row of that health system)
            picked: dict[str, Any] = {}
            for e in fr.entities:
                if e.kind or e.value in params.values():
                    continue
                cols = [c for c in view.typed("string") if c not in view.param_columns and c not in picked
                        and any(str(f.get(c)) == e.value for f in rows_of)]
                if len(cols) == 1:
                    picked[cols[0]] = e.value
                    rows_of = [f for f in rows_of if str(f.get(cols[0])) == e.value]
            values = {f.get(column) for f in rows_of}
            if len(values) != 1 or not view.complete:
                raise ComposeError(f"the share's reference {column} of {view.name} is not one value "
                                   f"({len(values)} found)")
            args = ", ".join(format_const(params[view.param_columns[c]]) if c in view.param_columns else
                             format_const(picked[c]) if c in picked else
                             "V" if c == column else "_" for c in view.columns)
            out.append(RuleProposal(program=f'@output("{den}"). @mapping("{den}", 0, "{column}", "float").\n'
                                            f'{den}(V) :- {view.name}({args}).',
                                    output=den, purpose=f"share: the whole, the {column} of {view.name}"))
            whole = naming.prose(column, ctx)
        else:
            vars_every = ", ".join(v for _c, v, _t in every)
            whole_rows = f"{rows}_all"
            agg_all = f"sum({var[q.numerator]})" if q.numerator in var else "count()"
            maps = naming.mappings(whole_rows, every)
            out.append(RuleProposal(program=f'@output("{whole_rows}"). {maps}\n'
                                            f'{whole_rows}({vars_every}) :- {", ".join(unrestricted)}.',
                                    output=whole_rows, purpose=f"share: every row of {rows}'s tools, unrestricted"))
            out.append(RuleProposal(program=f'@output("{den}"). @mapping("{den}", 0, "whole", "float").\n'
                                            f'{den}(V) :- {whole_rows}({vars_every}), V = {agg_all}.',
                                    output=den, purpose=f"share: the whole, {agg_all.split('(')[0]} over all rows"))
            whole = "all of them"
        out.append(RuleProposal(program=f'@output("{share}"). @mapping("{share}", 0, "share", "float").\n'
                                        f'{share}(R) :- {num}(N), {den}(D), D != 0, R = N / D.',
                                output=share, purpose="share: the part divided by the whole", kind="ratio"))
        self.output, self.answer_column = share, "share"
        part = naming.prose_total(q.numerator, ctx) if q.numerator else f"number of {naming.prose(ctx.tools[q.tool]['output_predicate'], ctx)} facts"
        self.what = f"share of {whole} ({part} {what})"
        return out

    def _one_row_per(self, ctx: RunContext, per: str) -> bool:
        """An average "per month" is the mean over the rows when the rows are one per month: the query's tool has a
        column named so with one row per value (for each value of its parameters). Nothing said: the rows."""
        if not per:
            return True
        view = next((v for v in ctx.predicates.values() if v.tool == self.query.tool), None)
        if view is None:
            return False
        named = [c for c in view.columns if c not in view.param_columns and any(word_match(per, t) for t in terms(c))]
        # ("the average charge per callout" over a branch's callouts: callout_id has as many distinct values as
        # there are rows, by the workspace's statistics of the whole predicate)
        if named and (view.statistics.get(named[0]) or {}).get("distinct") == view.cardinality > 0:
            return True
        if not view.complete:
            return False
        keys = [tuple(f.get(c) for c in [*view.param_columns, *named[:1]]) for f in view.facts]
        return bool(named) and len(set(keys)) == len(keys)

    def _aggregate(self, ctx: RunContext, fr: QuestionFrame, rows: str, head: list[tuple[str, str, str]],
                   what: str) -> list[RuleProposal]:
        columns = [c for c, _v, _t in head]
        var = {c: v for c, v, _t in head}
        nums = [c for c, _v, t in head if t in ("int", "float")]
        strings = [c for c, _v, t in head if t == "string"]
        phrase = self._phrase(fr, columns)

        def row(only: set[str] | None = None) -> str:
            return f"{rows}({', '.join(var[c] if only is None or c in only else '_' for c in columns)})"

        def one(name: str, col: str, typ: str, body: str, purpose: str, kind: str = "aggregate") -> RuleProposal:
            return RuleProposal(program=f'@output("{name}"). @mapping("{name}", 0, "{col}", "{typ}").\n'
                                        f'{name}(V) :- {body}.', output=name, purpose=purpose, kind=kind)

        # (the column the query resolved first: a kind's things, "the watch managers" being firefighters, whatever
        # column a word of the phrase names)
        asked = ([self.chosen_column] if self.chosen_column in columns else []) or \
            ([self.query.asked] if self.query.asked in columns else []) or \
            (naming.named(phrase, columns) if phrase else [])
        floats = {c for c, _v, t in head if t == "float"}
        q = self.query
        amounts = [c for spec in [ctx.tools[q.tool]] + ([ctx.tools[q.join.tool]] if q.join else [])
                   for c in naming.role_columns(spec, "amount")]
        if fr.kind == "count":
            # "how many cubic metres": the column declared in that unit, summed (not one whose name has "m3" in it)
            # (an amount, not a limit or a base in that unit: "the monthly intake cap in m³" is no timber taken in)
            capped = naming.bound_columns(ctx.tools[t] for t in self._tools(q))
            by_unit = naming.unit_named(naming.seq(fr.how_many), ctx, self._tools(q),
                                        [c for c in nums if c not in capped]) if fr.how_many else []
            head = naming.seq(fr.how_many)[-1:] if fr.how_many else ()
            if head and any(word_match(head[0], t) for c in strings for t in terms(c)):
                by_unit = []  # "how many docking stations": the stations counted, not the docks (a unit) summed
            # (a limit only when the noun names its head: "how many registered beds" is registered_beds, "how many
            # members" no member_cap)
            counted = by_unit[:1] or [c for c in asked if c in strings] or [
                c for c in asked if c not in capped or (fr.how_many and naming.head_named(
                    naming.seq(fr.how_many)[-1:], [c], ctx))]
            if not counted:
                return []
            c = counted[0]
            self.output, self.answer_column = f"{rows}_count", f"{c}_count"
            if c in nums and fr.average:  # "On average, how many hours of sunshine per month": a mean
                if not self._one_row_per(ctx, fr.average_per):
                    return []
                self.output, self.answer_column = f"{rows}_average", f"average_{c}"
                self.what = f"average {naming.prose(c, ctx)} {what}"
                return [one(self.output, self.answer_column, "float", f"{row()}, V = avg({var[c]})",
                            f"average: {c} of {rows} averaged over its rows")]
            if c in nums:  # "how many credits": a quantity, summed over the rows
                self.answer_column = f"total_{c}"
                return [one(self.output, self.answer_column, "float", f"{row()}, V = sum({var[c]})",
                            f"total: {c} of {rows} summed")]
            self.what = f"number of {naming.prose(c, ctx)} values {what}"
            return [one(self.output, self.answer_column, "int", f"{row({c})}, V = count({var[c]})",
                        f"counting: distinct {c} of {rows}")]
        if fr.kind == "total" and frame.ranks_things(fr):
            return self._top(ctx, fr, rows, head, asked, what)  # "the three centres with the biggest total tonnage"
        if fr.kind == "total" and fr.who and self.deferred:
            # the things whose total passes the condition
            target = next((c for c in asked if c in strings), None)
            measure = self.deferred[0][0]
            if target is None or measure not in var or any(d[0] != measure for d in self.deferred):
                return []
            per, passed = f"{rows}_{measure}_per_{target}", f"{rows}_{target}_by_total_{measure}"
            checks = ", ".join(f"T {op} {value}" for _c, op, value in self.deferred)
            self.output, self.answer_column = passed, target
            self.what = f"{naming.prose(target, ctx)} {what} ({naming.prose_total(measure, ctx)})"
            return [RuleProposal(
                program=f'@output("{per}"). @mapping("{per}", 0, "{target}", "string"). '
                        f'@mapping("{per}", 1, "total_{measure}", "float").\n'
                        f'{per}({var[target]}, T) :- {row()}, T = sum({var[measure]}).',
                output=per, purpose=f"total: {measure} of {rows} summed per {target}"),
                RuleProposal(
                program=f'@output("{passed}"). @mapping("{passed}", 0, "{target}", "string"). '
                        f'@mapping("{passed}", 1, "total_{measure}", "float").\n'
                        f'{passed}({var[target]}, T) :- {per}({var[target]}, T), {checks}.',
                output=passed, purpose=f"filter: each {target}'s total {measure} against the question's condition",
                kind="filter")]
        if fr.kind == "total":
            measure = self._measure(fr, nums, floats, amounts, naming.catalog_numbers(ctx),
                                    labels=self._labels(ctx, self._tools(q)),
                                    units=naming.unit_named(fr.words, ctx, self._tools(q), nums))
            if measure is None:
                return []
            if fr.average:  # "the average assessment mark": the mean over the rows
                if not self._one_row_per(ctx, fr.average_per):
                    return []
                self.output, self.answer_column = f"{rows}_average", f"average_{measure}"
                self.what = f"average {naming.prose(measure, ctx)} {what}"
                return [one(self.output, self.answer_column, "float", f"{row()}, V = avg({var[measure]})",
                            f"average: {measure} of {rows} averaged over its rows")]
            self.output, self.answer_column = f"{rows}_total", f"total_{measure}"
            self.what = f"{naming.prose_total(measure, ctx)} {what}"
            return [one(self.output, self.answer_column, "float", f"{row()}, V = sum({var[measure]})",
                        f"total: {measure} of {rows} summed over its rows")]
        if fr.ranking and fr.n and fr.n > 1 and fr.kind in ("list", "lookup"):
            return self._top(ctx, fr, rows, head, asked, what)
        if fr.kind == "extreme":
            func = fr.extreme or "max"
            target = asked[0] if asked else None
            if not fr.who and any(c in nums for c in asked):
                target = next(c for c in asked if c in nums)  # "What was the shortest loan": its days, not its id
            if fr.who and target not in strings:
                # "Among the hubs reachable from X, which one has the largest capacity?": the thing, not the number
                target = self._named_before(fr, strings) or (q.asked if q.asked in strings else None)
                if target is None:
                    return []
            specs = [ctx.tools[q.tool]] + ([ctx.tools[q.join.tool]] if q.join else [])
            if target in strings and (measured := self._rows_measured(fr, nums, specs,
                                                                      [c for c in strings if c != target])):
                counted = var[measured] if isinstance(measured, str) else None
                return self._most_rows(ctx, fr, rows, row, target, var[target], func, what, counted)
            if target in nums or (target is None and nums):
                measure = target or self._measure(fr, nums, floats, amounts, naming.catalog_numbers(ctx),
                                                  labels=self._labels(ctx, self._tools(q)))
                if measure is None:
                    return []
                self.output, self.answer_column = f"{rows}_{func}", f"{func}_{measure}"
                self.what = f"{'highest' if func == 'max' else 'lowest'} {naming.prose(measure, ctx)} {what}"
                return [one(self.output, self.answer_column, "float", f"{row({measure})}, V = {func}({var[measure]})",
                            f"{func} of {measure} over {rows}")]
            measure = self._measure(fr, nums, floats, amounts, naming.catalog_numbers(ctx),
                                    labels=self._labels(ctx, self._tools(q)))
            if target is None or measure is None:
                return []
            best = f"{rows}_{func}_{measure}"
            arg = f"{rows}_{func}_{target}"
            self.output, self.answer_column = arg, target
            word = "highest" if func == "max" else "lowest"
            # "the highest total amount billed", "the vessel that landed the most haddock": summed per value first
            summed = fr.total or fr.superlative in frame.QUANTITY_SUPERLATIVES
            if summed:
                per = f"{rows}_{measure}_per_{target}"
                rules = [RuleProposal(
                    program=f'@output("{per}"). @mapping("{per}", 0, "{target}", "string"). '
                            f'@mapping("{per}", 1, "total_{measure}", "float").\n'
                            f'{per}({var[target]}, T) :- {row()}, T = sum({var[measure]}).',
                    output=per, purpose=f"total: {measure} of {rows} summed per {target}")]
                src, mvar, tvar = f"{per}({var[target]}, M)", "M", var[target]
                self.what = f"{naming.prose(target, ctx)} with the {word} {naming.prose_total(measure, ctx)} {what}"
            else:
                rules = []
                src, mvar, tvar = row({target, measure}), var[measure], var[target]
                self.what = f"{naming.prose(target, ctx)} with the {word} {naming.prose(measure, ctx)} {what}"
            src_any = src.replace(f"({var[target]}, M)", "(_, M)") if summed else row({measure})
            rules.append(one(best, f"{func}_{measure}", "float", f"{src_any}, V = {func}({mvar})",
                             f"{func} of {measure} over {rows}"))
            rules.append(RuleProposal(
                program=f'@output("{arg}"). @mapping("{arg}", 0, "{target}", "string"). '
                        f'@mapping("{arg}", 1, "{measure}", "float").\n'
                        f'{arg}({tvar}, {mvar}) :- {src}, {best}({mvar}).',
                output=arg, purpose=f"the {target} whose {measure} is the {func} over {rows}", kind="filter"))
            return rules
        # a list or a lookup: the asked column of the selection
        if not asked:
            return []
        phrase_asked = fr.parse.phrases[fr.parse.asked] if fr.parse is not None and fr.parse.asked is not None else None
        if fr.periods and asked[0] in floats and asked[0] in amounts and phrase_asked is not None and \
                not phrase_asked.plural and phrase_asked.det in ("what", "which"):
            # "What volume of timber did X take delivery of in October 2024?": one amount over a period, however
            # many rows of it the period holds, is their total
            self.output, self.answer_column = f"{rows}_total", f"total_{asked[0]}"
            self.what = f"{naming.prose_total(asked[0], ctx)} {what}"
            return [one(self.output, self.answer_column, "float", f"{row()}, V = sum({var[asked[0]]})",
                        f"total: {asked[0]} of {rows} summed over the period's rows")]
        self.output, self.answer_column = rows, asked[0]
        self.what = f"{naming.prose(asked[0], ctx)} {what}"
        return []

    def _most_rows(self, ctx: RunContext, fr: QuestionFrame, rows: str, row: Callable[[], str], target: str,
                   tvar: str, func: str, what: str, counted: str | None = None) -> list[RuleProposal]:
        """"Which vet handled the most appointments": the rows counted per ``target`` (each distinct row once), or
        the distinct values of the ``counted`` variable's column ("the most objects"), the highest (or lowest)
        count, and the things that have it."""
        per, best, arg = f"{rows}_rows_per_{target}", f"{rows}_{func}_rows", f"{rows}_{func}_rows_{target}"
        thing = fr.measure_words[-1]
        self.output, self.answer_column = arg, target
        word = "most" if func == "max" else "fewest"
        self.what = f"{naming.prose(target, ctx)} with the {word} {thing} rows {what}"
        return [
            RuleProposal(program=f'@output("{per}"). @mapping("{per}", 0, "{target}", "string"). '
                                 f'@mapping("{per}", 1, "{thing}_count", "int").\n'
                                 f'{per}({tvar}, N) :- {row()}, N = count({counted or tvar}).',
                         output=per, purpose=f"counting: the {thing} values of {rows} per {target}" if counted
                         else f"counting: the rows of {rows} per {target}"),
            RuleProposal(program=f'@output("{best}"). @mapping("{best}", 0, "{func}_{thing}_count", "int").\n'
                                 f'{best}(V) :- {per}(_, N), V = {func}(N).',
                         output=best, purpose=f"{func} of the rows counted per {target}"),
            RuleProposal(program=f'@output("{arg}"). @mapping("{arg}", 0, "{target}", "string"). '
                                 f'@mapping("{arg}", 1, "{thing}_count", "int").\n'
                                 f'{arg}({tvar}, N) :- {per}({tvar}, N), {best}(N).',
                         output=arg, purpose=f"the {target} whose count of rows is the {func}", kind="filter")]

    def _top(self, ctx: RunContext, fr: QuestionFrame, rows: str, head: list[tuple[str, str, str]],
             asked: list[str], what: str) -> list[RuleProposal]:
        """"The three largest claims", "the five players who earn the most": the things whose measure (per thing, or
        its total) fewer than n others pass, written as rules: each thing's rivals above it counted, those with fewer
        than n kept (ties kept together)."""
        columns = [c for c, _v, _t in head]
        var = {c: v for c, v, _t in head}
        nums = [c for c, _v, t in head if t in ("int", "float")]
        strings = [c for c, _v, t in head if t == "string"]
        q = self.query
        floats = {c for c, _v, t in head if t == "float"}
        amounts = [c for spec in [ctx.tools[q.tool]] + ([ctx.tools[q.join.tool]] if q.join else [])
                   for c in naming.role_columns(spec, "amount")]
        target = next((c for c in asked if c in strings), None) or self._named_before(fr, strings) or \
            (q.asked if q.asked in strings else None)
        # "the three accounts that opened the most tickets": the rows counted per thing
        counted = target is not None and self._rows_measured(
            fr, nums, [ctx.tools[q.tool]] + ([ctx.tools[q.join.tool]] if q.join else []))
        measure = f"{fr.measure_words[-1]}_count" if counted else \
            self._measure(fr, nums, floats, amounts, naming.catalog_numbers(ctx), self._things(ctx),
                          labels=self._labels(ctx, self._tools(q)))
        if target is None or measure is None:
            return []
        n, down = fr.n, fr.ranking == "min"
        cmp = "<" if down else ">"
        word = ("fewest" if down else "most") if counted else "lowest" if down else "highest"

        per = f"{rows}_{measure}_per_{target}"
        # every other column named when summing or counting, so that equal amounts of two rows both count
        summed = fr.total or fr.superlative in frame.QUANTITY_SUPERLATIVES
        atom = f"{rows}({', '.join('T' if c == target else 'X' if c == measure else var[c] if summed or counted else '_' for c in columns)})"  # noqa: E501
        if counted:
            body, label = f"{atom}, M = count(T)", f"{fr.measure_words[-1]} rows"
        elif fr.total or fr.superlative in frame.QUANTITY_SUPERLATIVES:
            # (a quantity's superlative is of what each thing gathered: "the three vessels that landed the most
            # haddock by weight", each vessel's landings summed)
            body, label = f"{atom}, M = sum(X)", naming.prose_total(measure, ctx)
        else:
            body, label = f"{atom}, M = X", naming.prose(measure, ctx)
        rank, above, top = f"{rows}_outranked_by", f"{rows}_rivals_above", f"{rows}_top_{n}"
        mtype = "int" if counted else "float"
        maps = f'@mapping("{per}", 0, "{target}", "string"). @mapping("{per}", 1, "{measure}", "{mtype}").'
        out = [RuleProposal(program=f'@output("{per}"). {maps}\n{per}(T, M) :- {body}.',
                            output=per, purpose=f"the {measure} of each {target} of {rows}"
                                            + (" (summed)" if summed else "")),
               RuleProposal(program=f'@output("{rank}"). @mapping("{rank}", 0, "{target}", "string"). '
                                    f'@mapping("{rank}", 1, "rival", "string").\n'
                                    f'{rank}(T, U) :- {per}(T, M), {per}(U, N), N {cmp} M.',
                            output=rank, purpose=f"pairs of {target}: the rival's {measure} is {word[:-3]}er",
                            kind="filter"),
               RuleProposal(program=f'@output("{above}"). @mapping("{above}", 0, "{target}", "string"). '
                                    f'@mapping("{above}", 1, "rivals", "int").\n'
                                    f'{above}(T, C) :- {rank}(T, U), C = count(U).',
                            output=above, purpose=f"how many {target} rank above each"),
               RuleProposal(program=f'@output("{top}"). @mapping("{top}", 0, "{target}", "string"). '
                                    f'@mapping("{top}", 1, "{measure}", "{mtype}").\n'
                                    f'{top}(T, M) :- {per}(T, M), {above}(T, C), C < {n}.\n'
                                    f'{top}(T, M) :- {per}(T, M), not {rank}(T, _).',
                            output=top, purpose=f"the {n} {target} with the {word} {measure} over {rows}",
                            kind="filter")]
        self.output, self.answer_column = top, target
        self.what = f"the {n} {naming.prose(target, ctx)} with the {word} {label} {what}"
        return out

    # --- the answer ---------------------------------------------------------------------------------------------------
    def answer(self, ctx: RunContext) -> str | None:
        if self.output is None or self.answer_column is None:
            return None
        view = ctx.predicates.get(self.output)
        if view is None:
            return None
        values = sorted({f[self.answer_column] for f in view.facts if self.answer_column in f}, key=str)
        fr = frame.of(ctx)
        rows = ctx.predicates.get(self.rows or "")
        if fr.extreme and values and rows is not None and rows.complete and rows.cardinality > 1 and \
                self.answer_column in rows.columns and len({f.get(self.answer_column) for f in rows.facts}) == 1:
            # "the top-level system" ordered over rows that all name the same system: the ordering chose nothing
            raise ComposeError(f"the {naming.prose(self.answer_column, ctx)} is the same on each of the "
                               f"{rows.cardinality} facts the question's highest or lowest is taken over, so the "
                               f"ordering does not pick it out")
        ctx.answer_values = values
        said = wording.say(ctx, values, column=self.answer_column, tools=self._tools(self.query),
                           count=fr.count and self.answer_column.endswith("_count"), fallback=self.what)
        asked = fr.parse.phrases[fr.parse.asked] if fr.parse is not None and fr.parse.asked is not None else None
        # (a thing asked for whose head names no entity: "a Premier Division match" is a match, the division a
        # modifier of it)
        truths = {P.truth(v) for v in values}
        if fr.how == "yes-no" and values and None not in truths:
            # "Is there a video link in X?" answered by X's video_link, "no": the value is the answer, not whether a
            # row exists
            if len(truths) > 1:
                raise ComposeError(f"the {naming.prose(self.answer_column, ctx)} is yes for some of the facts and no "
                                   f"for others, and the question does not say whether any or all is asked")
            ctx.answer_yes = truths.pop()
            return f"{'Yes' if ctx.answer_yes else 'No'}: {said[:1].lower()}{said[1:]}"
        if fr.how == "yes-no" and (fr.kind == "list" or fr.kind == "lookup" and asked is not None
                                   and fr.parse.words[asked.head].entity is None and asked.det in ("a", "an", "any")):
            # (so too a thing asked for with "a": "Has X officiated a Premier Division match this season?")
            # "Is any vessel based at X a freighter?": yes when the things the question restricts to exist
            ctx.answer_yes = bool(values)
            return f"{'Yes' if values else 'No'}: {said[:1].lower()}{said[1:]}" if values else "No: none was found."
        return said
