"""The offline policy's group-limit composer: "which X exceed their limit", where the amount compared is gathered
along a chain of tools and the limit is a column of the data.

"Which health systems' total billed to Meridian, counting every provider they include, exceeds Meridian's annual cap
for that system?" is: the caps of Meridian (one row per system, the *anchor*), the providers of each system (a tool
called for every value of the anchor's system column), the totals of each provider (called for every provider), the
amounts restricted to what the question names (the payer Meridian), summed per system, and compared with the cap.
"Which courses of the Faculty of Science had more enrolments in term 2025-2 than seats?" is the faculty's courses,
the enrolments of each course in that term counted per course, compared with the seat capacity of each course.

Everything is chosen from the question's words against the catalog's column and tool names, its declared roles and
the values in the data; the rules end in a threshold check (two values of the data compared), which is what the
Verifier asks of a limit question. A question whose parts are not all found is left to the other strategies.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from vadaorchestra.agents import wording
from vadaorchestra.agents.context import RunContext
from vadaorchestra.agents.plan import Call
from vadaorchestra.agents.policy import Probe, RuleProposal
from vadaorchestra.agents.question import frame, naming, periods
from vadaorchestra.agents.question.compose import MAX_EVERY, ComposeError
from vadaorchestra.agents.question.frame import QuestionFrame, terms, word_match
from vadaorchestra.agents.question.naming import CAP_WORDS
from vadaorchestra.datalog.printer import format_const


@dataclass(frozen=True)
class Hop:
    """A tool called for every value of a column of the previous step's output."""

    tool: str
    param: str
    column: str  # the previous step's column
    key: str  # this tool's output column holding the parameter


@dataclass
class Plan:
    tool: str
    params: dict[str, Any]
    group: str  # the anchor's column of the things compared
    limit: tuple[str | None, str]  # (the hop tool holding it, None for the anchor; the limit column)
    path: list[Hop] = field(default_factory=list)  # from the anchor to the amounts
    measure: str | None = None  # the summed column (None: the last hop's rows are counted)
    within: bool = False  # "stayed within": the things at or under their limit
    score: float = 0.0
    # the limit in the anchor's rows may be the parameter's own (the group's contract, on every member's row): then
    # each thing's limit is the anchor tool called for it (decided on the data, once the anchor ran)
    own_limit: bool = False


def _joinable(ctx: RunContext, column: str, exclude: set[str]) -> list[Hop]:
    """Tools of one string parameter whose parameter's column is named like ``column``."""
    out = []
    for tool, spec in sorted(ctx.tools.items()):
        if tool in exclude or len(spec["parameters"]) != 1 or spec["parameters"][0]["type"] != "string":
            continue
        param = spec["parameters"][0]["name"]
        key = naming.param_column(spec, param)
        # named like the column ("operator" for member_operator), or ending in the same noun ("origin_hub" for hub)
        if key and (key == column or all(any(word_match(k, t) for t in terms(column)) for k in terms(key))
                    or word_match(key.rsplit("_", 1)[-1], column.rsplit("_", 1)[-1])):
            out.append(Hop(tool, param, column, key))
    return out


class LimitComposer:
    def __init__(self) -> None:
        self.query: Plan | None = None
        self.done = False
        self.sent = 0  # hops asked for so far
        self.output: str | None = None
        self.answer_column: str | None = None
        self.what = ""
        self.none = ""  # the answer when no thing passes its limit
        self.period: str | None = None  # the column of the periods compared one by one
        self.keys: list[str] = []  # the categories compared one by one (each drug)

    @staticmethod
    def applies(fr: QuestionFrame) -> bool:
        return fr.limit and not fr.share and not fr.compound

    # --- selection ------------------------------------------------------------------------------------------------
    async def choose(self, ctx: RunContext, scores: dict[str, float], probe: Probe | None = None) -> list[Call]:
        """The best plan's first calls: the anchor called for the entity the question names; with none named
        ("Which branches issued more loans than their quota?"), for every value of its parameter in the data (at
        most :data:`MAX_EVERY`), the things compared being the parameter's own column."""
        fr = frame.of(ctx)
        if fr.limit_at is None:
            return []
        start, end = fr.limit_at  # the comparison: "more enrolments in term 2025-2 than seats" compares with what follows
        after = frame.after(fr, end, 6)
        plans = []
        for tool, spec in sorted(ctx.tools.items()):
            params = spec["parameters"]
            names = [e for e in fr.entities if not e.kind]  # a kind ("stores") names no one thing
            if not params and not names:
                # a tool of every thing's amount beside its limit ("For every section: its members and the most it
                # may have"): called once, its own rows compared
                bound, pcol, every = [], naming.thing(spec), False
                if pcol is None or not naming.role_columns(spec, "limit"):
                    continue
            elif len(params) != 1 or params[0]["type"] != "string":
                continue
            else:
                bound = [e.value for e in fr.entities if f"{tool}.{params[0]['name']}" in e.parameters]
                pcol = naming.param_column(spec, params[0]["name"])
                every = not names and pcol is not None
            whole = not params
            if len(bound) != 1 and not every and not whole:
                continue
            strings = [pcol] if every or whole else naming.cols(spec, ("string",))
            group = naming.named(fr.asks_for, strings) if fr.asks_for else []
            if not group and not every and fr.asked_head and (
                    any(word_match(fr.asked_head, w) for e in fr.kinds for w in terms(e.value))
                    or any(word_match(fr.asked_head, w) for w in naming.tool_name(spec))):
                # "Which parts fitted to X exceed their life limit": the things the tool lists (a kind, or what
                # the tool is named for)
                thing = naming.thing(spec)
                group = [thing] if thing else []
            if not group and not every and bound and fr.how == "yes-no" and pcol is not None and (
                    fr.asks_for == () or not fr.asked_head or bound[0].lower() in fr.asked_text.lower()
                    or not naming.named(fr.asks_for, naming.cols(spec, ("string",)))):
                # "Does Harbury Town stay within its wage cap?", "Is the Shorts Competition strand over its quota?":
                # the entity itself is compared; so too when what the question says is compared names no things of
                # the tool ("Did the March bookings of X go over its cap?": X's booked hours)
                group = [pcol]
            if not group:
                continue
            g = group[0]
            # the limit: named after the comparison, in the anchor or in a tool called for each of its things
            limit: tuple[str | None, str] | None = None
            named = naming.named(after, naming.numeric(spec))
            if not named and not any(naming.named(after, naming.numeric(s)) for t, s in ctx.tools.items() if t != tool):
                # a limit the catalog declares, when the words name no limit of another tool ("its lab budget" is
                # no permitted depth)
                named = [c for c in naming.role_columns(spec, "limit") if c in naming.numeric(spec)]
            if named:
                limit = (None, named[0])
            else:
                for hop in _joinable(ctx, g, {tool}):
                    hn = naming.named(after, naming.numeric(ctx.tools[hop.tool]))
                    if hn:
                        limit = (hop.tool, hn[0])
                        break
            if limit is None:
                continue
            before = tuple(w for w in frame.before(fr, start, 99) if w not in terms(" ".join(bound)))
            before = tuple(w for w in before if not any(word_match(w, t) for t in terms(g)))
            # the amounts named before the comparison ("billed ... exceeds"), else by the limit's own words ("exceed
            # their contracted monthly tonnage": tonnes dispatched); counted only against a limit in whole things
            lim_type = next(c["type"] for c in ctx.tools[limit[0] or tool]["schema"] if c["name"] == limit[1])
            # (a whole-number limit counts things first: "more loans than their quota" is no sum of the loans' days)
            # (not a limit in a unit that amounts of the catalog are in: "more milk than their monthly quota", in
            # litres, is a sum of the litres supplied)
            unit = (ctx.tools[limit[0] or tool].get("units") or {}).get(limit[1])
            # (amounts: not another limit, nor a base a share is taken of, "the target enrolment of the trial")
            measured = bool(unit) and any(u == unit for t, sp in ctx.tools.items() if t != (limit[0] or tool)
                                          for c, u in (sp.get("units") or {}).items()
                                          if (sp.get("roles") or {}).get(c) not in ("limit", "base"))
            # (or after the limit's own words: "gone over their annual loan quota with this year's loans"; not the
            # limit's words themselves, "go over its monthly hour cap" counts no hours)
            limit_words = terms(limit[1]) | CAP_WORDS
            following = [w for w, a, _b in fr.tokens if a >= end]
            k = next((i for i, w in enumerate(following) if w not in limit_words), len(following))
            beyond = tuple(following[k:k + 4]) if k else ()
            # (nor a limit whose own words name what another tool's rows carry: "its monthly hour cap" is passed by
            # the hours booked, not by the number of bookings)
            measured = measured or any(naming.last_word_named(c, terms(limit[1]) - CAP_WORDS)
                                       for t, sp in ctx.tools.items() if t != (limit[0] or tool)
                                       for c in naming.numeric(sp)
                                       if (sp.get("roles") or {}).get(c) not in ("limit", "base"))
            tries = [(before, True)] * (lim_type == "int" and not measured) + \
                [(before + beyond, True)] * (lim_type == "int" and not measured and bool(beyond)) + \
                [(before, False), (before + after, False)]
            sibling = pcol if bound and pcol != g else None
            # the thing the question names compared itself ("Is the Shorts Competition over its film quota?"): the
            # other tools it is passed to list what is compared, whatever their parameter is called (its films)
            same = [Hop(t, sp["parameters"][0]["name"], g, naming.param_column(sp, sp["parameters"][0]["name"]))
                    for e in fr.entities if not e.kind and bound and e.value == bound[0] and g == pcol
                    for t, sp in sorted(ctx.tools.items()) if t != tool and len(sp["parameters"]) == 1
                    and f"{t}.{sp['parameters'][0]['name']}" in e.parameters
                    and naming.param_column(sp, sp["parameters"][0]["name"]) is not None]

            def best(paths: list[tuple[list[Hop], str | None]]) -> tuple[list[Hop], str | None] | None:
                # the amounts' tool the question's words weigh most ("the demand of the substations they feed": the
                # served demand, not the feeders connected directly), then the shorter chain
                return max(paths, key=lambda pm: (scores.get(pm[0][-1].tool, 0.0), -len(pm[0]))) if paths else None

            found = None
            # the anchor's own amounts, beside the limit in its rows
            own = [c for c in naming.numeric(spec) if c != limit[1] and not terms(c) & CAP_WORDS]
            if limit[0] is None and (said := [c for c in own if all(
                    any(word_match(w, t) for w in before) for t in terms(c))]):
                # an amount of the anchor's own rows every word of whose name the question says, beside the limit
                # ("more pending applications than their docket limit": pending_applications next to max_docket)
                found = ([], said[0])
            if found is None and limit[0] is None and unit:
                # an amount the anchor declares in the limit's own unit, in the same rows ("each month's words next
                # to the monthly word cap"): those rows compare, before any other tool's
                beside = [c for c in naming.role_columns(spec, "amount") if c != limit[1]
                          and (spec.get("units") or {}).get(c) == unit]
                if beside:
                    found = ([], beside[0])
            if found is None and limit[0] is None:
                # an amount the anchor declares in the same rows, named by the limit's own words ("his monthly hours
                # cap", each month's hours_taught beside it): those rows compare, before another tool's amounts
                limit_own = terms(limit[1]) - CAP_WORDS - {"day", "week", "month", "quarter", "year", "annual"}
                # (not one in another unit than the limit's: a rate in EUR per word is no count of words)
                units = spec.get("units") or {}
                beside = [c for c in naming.role_columns(spec, "amount") if c in own
                          and any(word_match(w, t) for w in limit_own for t in terms(c))
                          and (units.get(c) is None or units.get(limit[1]) is None or units[c] == units[limit[1]])]
                if len(beside) == 1:
                    found = ([], beside[0])
            for words, count in tries if found is None else ():
                found = best(self._paths(ctx, words, g, {tool}, limit, count=count, sibling=sibling, same=same))
                if found is not None:
                    break
            if found is None and limit[0] is None:
                # the amount in the same rows as the limit ("parts past their life limit": each part's cycles)
                limited = tuple(w for w in terms(limit[1]) if w not in CAP_WORDS)
                named = naming.best_named(before + after, own) or naming.best_named(limited, own) or \
                    [c for c in naming.role_columns(spec, "amount") if c in own]  # never the one left by elimination
                found = ([], named[0]) if named else None
            if found is None and unit:
                # no word names the amounts ("Did X keep within its ketamine allowance?"): the amounts the catalog
                # declares in the limit's own unit (the ml dispensed against an allowance in ml)
                found = best(self._paths(ctx, (), g, {tool}, limit, count=False, sibling=sibling, unit=unit,
                                         same=same))
            own_words = tuple(sorted(w for w in terms(limit[1]) if w not in CAP_WORDS))
            if found is None and lim_type != "int" and own_words:
                # an amount its own name says ("its monthly overtime cap": the overtime hours claimed)
                found = best(self._paths(ctx, own_words, g, {tool}, limit, count=False, sibling=sibling, same=same,
                                         by_tool=True))
            if found is None and lim_type == "int" and own_words:
                # a limit in whole things its own name says ("its film quota"): those things counted where a tool
                # lists them (the strand's films)
                found = best(self._paths(ctx, own_words, g, {tool}, limit, count=True, sibling=sibling, same=same))
            if found is None and unit and lim_type == "int":
                # a limit in whole things the unit names ("its accession capacity", in accessions): those things
                # counted where a tool lists them (the vault's accessions)
                found = best(self._paths(ctx, tuple(sorted(terms(unit))), g, {tool}, limit, count=True,
                                         sibling=sibling, same=same))
            counted = naming.most_of(ctx.tools[limit[0] or tool].get("description", ""))
            if found is None and lim_type == "int" and not unit and len(counted) == 1:
                # a limit in whole things its tool's description says ("its capacity (the most animals it may
                # hold)"): those things counted where a tool lists them (the animals living in the enclosure)
                found = best(self._paths(ctx, counted, g, {tool}, limit, count=True, sibling=sibling, same=same))
            if found is None:
                continue
            path, measure = found
            # a column the catalog declares a limit, or one named as a cap, before any other the words name ("its
            # monthly hour cap": monthly_hour_cap, not booked_hours for "hour")
            lim_spec = ctx.tools[limit[0] or tool]
            marked = 2 if limit[1] in naming.role_columns(lim_spec, "limit") else 1 if terms(limit[1]) & CAP_WORDS else 0
            if not marked and set(after) & CAP_WORDS:
                continue  # the question says a cap, and this column is none
            # a yes/no question ("Are all the parts within their limits?") is answered by what exceeds: none, or which
            plan = Plan(tool, {} if every or whole else {params[0]["name"]: bound[0]}, g, limit, path, measure,
                        within=fr.within and fr.how != "yes-no", score=scores.get(tool, 0.0) - len(path) + 10 * marked,
                        own_limit=not every and not whole and limit[0] is None and pcol is not None and all(
                            any(word_match(k, t) for t in terms(g)) for k in terms(pcol)))
            plans.append(plan)
        if not plans:
            return []
        self.query = p = max(plans, key=lambda p: p.score)
        ctx.event("compose_limit", tool=p.tool, group=p.group, limit=p.limit, path=[h.tool for h in p.path],
                  measure=p.measure)
        if p.params or not ctx.tools[p.tool]["parameters"]:
            return [Call(tool=p.tool, params=p.params, level="high")]
        param = ctx.tools[p.tool]["parameters"][0]["name"]
        values = [m["value"] for m in await probe.lookup(p.tool, param, "", limit=MAX_EVERY + 1)] if probe else []
        if not values or len(values) > MAX_EVERY:
            self.query = None  # no values, or too many to call the tool for each
            return []
        return [Call(tool=p.tool, params={param: v}, level="high") for v in values]

    def _paths(self, ctx: RunContext, words: tuple[str, ...], column: str, used: set[str],
               limit: tuple[str | None, str], depth: int = 0, *, count: bool,
               sibling: str | None = None, unit: str | None = None, same: list[Hop] = (), by_tool: bool = False
               ) -> list[tuple[list[Hop], str | None]]:
        """Every chain of hops from ``column`` to the amounts the words name: a number column (summed); with
        ``count``, a tool whose rows they name (counted: "more enrolments"). The words naming the compared things
        are left out. With ``sibling`` (the anchor's parameter column), a tool called for the same entity as the
        anchor and listing the things compared too ("Which drugs did X dispense beyond its monthly allowance": the
        allowances of X per drug, X's use per drug and month). With ``unit`` and no words, the amounts are a column
        the catalog declares an amount in that unit."""
        if depth >= 2:
            return []
        out: list[tuple[list[Hop], str | None]] = []
        hops = _joinable(ctx, column, used) + [h for h in same if h.tool not in used]  # (``same``: see choose)
        if sibling is not None:
            hops += [h for h in _joinable(ctx, sibling, used) if column in naming.cols(ctx.tools[h.tool])]
        for hop in hops:
            spec = ctx.tools[hop.tool]
            nums = [c for c in naming.numeric(spec) if c != limit[1] and not terms(c) & CAP_WORDS]
            named = naming.best_named(words, nums) or naming.label_named(words, [spec], nums) or \
                naming.unit_named(words, ctx, [hop.tool], nums)
            if not named and not count and by_tool and any(word_match(w, t) for w in words
                                                           for t in naming.tool_name(spec) if t != "get"):
                # the words name the tool ("its overtime cap": get_station_overtime), whose amount it declares
                named = [c for c in naming.role_columns(spec, "amount") if c in nums]
            if unit is not None:
                # (declared in the unit, or named for it: a column "tonnes" is in t)
                named = [c for c in naming.role_columns(spec, "amount") if c in nums
                         and ((spec.get("units") or {}).get(c) == unit or
                              (c not in (spec.get("units") or {}) and naming.same_unit(c.split("_")[-1], unit)))]
            if named and not count:
                out.append(([hop], named[0]))
            elif count and any(word_match(w, t) for w in words for t in terms(spec["output_predicate"])):
                out.append(([hop], None))  # "more enrolments than seats": the enrolments counted
            else:
                for col in (c for c in naming.cols(spec, ("string",)) if c != hop.key):
                    out += [([hop, *path], m) for path, m in self._paths(ctx, words, col, used | {hop.tool}, limit,
                                                                        depth + 1, count=count)]
        return out

    # --- replanning: one hop per round ----------------------------------------------------------------------------------
    async def replan(self, ctx: RunContext, probe: Probe) -> list[Call]:
        p = self.query
        if p is None:
            return []
        steps = [(h, i) for i, h in enumerate(p.path)]
        calls = []
        if self.sent == 0 and p.limit[0] is not None and all(h.tool != p.limit[0] for h in p.path):
            hop = next(h for h in _joinable(ctx, p.group, {p.tool}) if h.tool == p.limit[0])
            calls.append(self._call(ctx, p.tool, hop))
        if self.sent == 0 and p.own_limit:
            anchor = next((v for v in ctx.predicates.values() if v.tool == p.tool), None)
            rows = anchor.facts if anchor is not None else []
            # one limit on every row while the things differ: it is the parameter's, each thing's is its own call
            p.own_limit = len({f.get(p.limit[1]) for f in rows}) == 1 and len({f.get(p.group) for f in rows}) > 1
            if p.own_limit:
                param = next(iter(p.params))
                # (first: a tool of the path may read the anchor's output for each thing, as the hubs of each
                # member's group read the member's group; the stages order them)
                calls.append(self._call(ctx, p.tool, Hop(p.tool, param, p.group,
                                                         naming.param_column(ctx.tools[p.tool], param))))
        if self.sent < len(steps):
            hop, i = steps[self.sent]
            prev = p.tool if i == 0 else p.path[i - 1].tool
            calls.append(self._call(ctx, prev, hop))
            self.sent += 1
        return [c for c in calls if c is not None]

    def _call(self, ctx: RunContext, prev_tool: str, hop: Hop) -> Call | None:
        view = next((v for v in ctx.predicates.values() if v.tool == prev_tool), None)
        if view is None or view.cardinality == 0:
            return None
        form: dict[str, Any] = {"each": f"{view.name}.{hop.column}"}
        if prev_tool == self.query.tool:
            where = {c: self.query.params[p] for c, p in view.param_columns.items() if p in self.query.params}
            if hop.column in where:  # the thing compared is the parameter's value itself: one call for it
                return Call(tool=hop.tool, params={hop.param: where[hop.column]}, level="high")
            if where:
                form["where"] = where
        return Call(tool=hop.tool, params={hop.param: form}, level="high")

    # --- synthesis --------------------------------------------------------------------------------------------------
    async def synthesize(self, ctx: RunContext, probe: Probe) -> list[RuleProposal]:
        p = self.query
        if p is None or self.done:
            return []
        tools = [p.tool, *(h.tool for h in p.path)] + ([p.limit[0]] if p.limit[0] else [])
        views = {t: next((v for v in ctx.predicates.values() if v.tool == t), None) for t in tools}
        if any(v is None for v in views.values()):
            return []  # more hops to come
        self.done = True
        fr = frame.of(ctx)
        taken: set[str] = set()
        names: dict[tuple[str, str], str] = {}
        for t in dict.fromkeys(tools):
            for c in views[t].columns:
                names[(t, c)] = naming.var(c, taken)
        anchor = views[p.tool]
        consts: dict[tuple[str, str], str] = {(p.tool, c): format_const(p.params[prm])
                                              for c, prm in anchor.param_columns.items() if prm in p.params}
        prev = p.tool
        for hop in p.path:  # each hop's key is the previous step's column (its constant, when it is one)
            names[(hop.tool, hop.key)] = names[(prev, hop.column)]
            if (prev, hop.column) in consts:
                consts[(hop.tool, hop.key)] = consts[(prev, hop.column)]
            prev = hop.tool
        if p.limit[0]:
            hop = next(h for h in _joinable(ctx, p.group, {p.tool}) if h.tool == p.limit[0])
            names[(hop.tool, hop.key)] = names[(p.tool, p.group)]
        # a column of the anchor that a tool of the path holds too, the things compared or a category both declare
        # (the drug of an allowance and of a month's use): the same thing, joined
        shared = self._shared(ctx, p, views)
        for t, c in shared:
            names[(t, c)] = names[(p.tool, c)]
        # every value the question names restricts the amounts where a column of the path holds it
        for e in fr.entities:
            for hop in p.path:
                v = views[hop.tool]
                # (not a column of the things compared: Meridian is a member of its own group, not a restriction)
                for col in (c for c in v.typed("string") if c not in v.param_columns
                            and not (p.own_limit and terms(c) & terms(p.group))):
                    if await probe.matching(v.name, col, e.value) > 0:
                        consts[(hop.tool, col)] = format_const(e.value)
        for t, c in shared:  # a value the question names for one of two joined columns is the other's too
            if (t, c) in consts:
                consts.setdefault((p.tool, c), consts[(t, c)])

        def atom(t: str) -> str:
            v = views[t]
            return f"{v.name}({', '.join(consts.get((t, c), names[(t, c)]) for c in v.columns)})"

        if p.path:
            # the amounts from the hops: the anchor's other columns (each member of a group, each month of the
            # thing's own rows) would repeat amounts (amounts in the anchor's own rows keep every column: each row
            # counts once)
            consts.update({(p.tool, c): "_" for c in anchor.columns if (p.tool, c) not in consts
                           and c not in (p.group, p.limit[1]) and c not in {c for _t, c in shared}})
        path_tools = [p.tool, *(h.tool for h in p.path)]
        head_keys = [(t, c) for t in path_tools for c in views[t].columns if (t, c) not in consts]
        head_vars = list(dict.fromkeys(names[k] for k in head_keys))
        label: dict[str, tuple[str, str]] = {}  # variable -> (column name, type), the first column it stands for
        for t in path_tools:
            for c in views[t].schema:
                var = names[(t, c["name"])]
                if var not in label and c["name"] not in {x for x, _ in label.values()}:
                    label[var] = (c["name"], c["type"])
                label.setdefault(var, (f"{views[t].name}_{c['name']}", c["type"]))
        slug = naming.slug(str(next(iter(p.params.values()), "every")), 30)
        rows = f"{anchor.name}_{slug}_amounts"
        maps = " ".join(f'@mapping("{rows}", {i}, "{label[v][0]}", "{label[v][1]}").' for i, v in enumerate(head_vars))
        body = ", ".join(atom(t) for t in path_tools)
        # a period the question names ("in February 2024"): the amounts of that period only, the amounts' own
        # tool's dates first
        by_pred = {(views[t].name, c): var for (t, c), var in names.items()}
        fixed = {(views[t].name, c) for (t, c) in consts}
        kept = periods.keep(fr, [(views[t], ctx.tools[t]) for t in reversed(path_tools)], by_pred, fixed)
        body = ", ".join([body, *kept])
        g = names[(p.tool, p.group)]
        # (the thing compared is the parameter's value itself: the sum is that value's, named as a constant)
        g_head = consts.get((p.tool, p.group), g)
        last = p.path[-1].tool if p.path else p.tool
        # "Has X ever gone past its limit?": any one occasion (a row of the amounts) against the limit, not their sum
        ever = frame.ever(fr) and p.measure is not None and bool(p.path)
        amount = (names[(last, p.measure)] if ever else f"sum({names[(last, p.measure)]})") if p.measure else "count()"
        per, check = f"{rows}_per_{p.group}", f"{rows}_{p.group}_{'within' if p.within else 'over'}_limit"
        lim_tool, lim_col = p.limit
        lim_atom = atom(lim_tool or p.tool)
        lim = names[(lim_tool or p.tool, lim_col)]
        if p.own_limit:  # the anchor's rows for each thing itself: operator_group(G, _, L)
            lim = naming.var(f"{lim_col}_own", taken)
            lim_atom = f"{anchor.name}({', '.join(g if c in anchor.param_columns else lim if c == lim_col else '_' for c in anchor.columns)})"
        op = "<=" if p.within else ">"
        what = (naming.prose(p.measure, ctx) if ever else naming.prose_total(p.measure, ctx)) if p.measure else \
            f"{naming.prose(views[last].name)} facts"
        # a tool listing one amount per thing and period next to the limit ("each month's total next to its monthly
        # cap"): each period's amount is compared, not their sum over every period
        dated = None if kept else self._per_period(ctx, p, anchor, consts)
        d = [names[(p.tool, dated)]] if dated else []
        period = [(dated, d[0], "string")] if dated else []
        # a shared category no value of the question fixes: each of its values is compared apart (each drug)
        keyed = [c for c in dict.fromkeys(c for _t, c in shared) if c != p.group and (p.tool, c) not in consts]
        keys = [(c, names[(p.tool, c)], "string") for c in keyed]
        per_cols = [(p.group, g_head, "string"), *period, *keys, ("amount", "S", "float")]
        check_cols = [(p.group, g, "string"), ("amount", "S", "float"), (lim_col, lim, "float"), *period, *keys]
        by = "".join(f" and {c}" for c in [*([dated] if dated else []), *keyed])
        self.period, self.keys = dated, keyed
        out = [
            RuleProposal(program=f'@output("{rows}"). {maps}\n{rows}({", ".join(head_vars)}) :- {body}.',
                         output=rows, purpose=f"join: {' -> '.join(path_tools)} for {', '.join(map(str, p.params.values()))}"),
            RuleProposal(program=f'@output("{per}"). {naming.mappings(per, per_cols)}\n'
                                 f'{per}({", ".join(v for _c, v, _t in per_cols)}) :- {rows}({", ".join(head_vars)}), '
                                 f'S = {amount}.',
                         output=per, purpose=f"aggregate: {what} per {p.group}{by}"),
            RuleProposal(program=f'@output("{check}"). {naming.mappings(check, check_cols)}\n'
                                 f'{check}({", ".join(v for _c, v, _t in check_cols)}) :- '
                                 f'{per}({", ".join([g, *d, *(v for _c, v, _t in keys), "S"])}), '
                                 f'{lim_atom}, S {op} {lim}.',
                         output=check, purpose=f"threshold check: {what} per {p.group}{by} against {lim_col}",
                         kind="threshold_check"),
        ]
        self.output, self.answer_column = check, p.group
        self.what = (f"{naming.prose(p.group)} for {', '.join(map(str, p.params.values())) or 'every one'} whose {what} "
                     f"{'stays within' if p.within else 'exceeds'} its {naming.prose(lim_col, ctx)}")
        self.none = (f"no {naming.prose(p.group)} for {', '.join(map(str, p.params.values())) or 'any'} has a {what} "
                     f"above its {naming.prose(lim_col, ctx)}")
        return out

    @staticmethod
    def _shared(ctx: RunContext, p: Plan, views: dict) -> list[tuple[str, str]]:
        """The (tool, column) pairs of a tool called for the anchor's own entity (a sibling) whose column is the
        anchor's too: the things compared, or a column both tools declare a category."""
        anchor = views[p.tool]
        cats = set(naming.role_columns(ctx.tools[p.tool], "category"))
        out = []
        for hop in p.path:
            if hop.column not in anchor.param_columns:
                continue  # a tool called for each thing compared lists its own (a member's hubs, a subsidiary's)
            held = set(naming.role_columns(ctx.tools[hop.tool], "category"))
            out += [(hop.tool, c) for c in views[hop.tool].columns if c != hop.key and c in anchor.columns
                    and (c == p.group or (c in cats and c in held))]
        return out

    @staticmethod
    def _per_period(ctx: RunContext, p: Plan, anchor, consts: dict) -> str | None:
        """The anchor's column dating its rows when the amounts and the limit sit in the anchor's own rows, one row
        per thing and period (a tool of monthly totals next to the monthly cap), over more than one period."""
        if p.path or p.limit[0] is not None or p.measure is None or not anchor.complete:
            return None
        col = periods.column(anchor, ctx.tools[p.tool].get("roles"))
        if col is None or (p.tool, col) in consts:
            return None
        keys = [(f.get(p.group), f.get(col)) for f in anchor.facts]
        return col if len(set(keys)) == len(keys) and len({d for _g, d in keys}) > 1 else None

    def answer(self, ctx: RunContext) -> str | None:
        if self.output is None:
            return None
        view = ctx.predicates.get(self.output)
        if view is None:
            raise ComposeError(f"the threshold check {self.output} did not run")
        values = sorted({f[self.answer_column] for f in view.facts}, key=str)
        ctx.answer_values = values
        fr = frame.of(ctx)
        figures = self._figures(ctx, view)
        if fr.how == "yes-no":  # what exceeds answers the question, the values being those that do
            ctx.answer_yes = not values if fr.within else bool(values)
            said = wording.affirm(fr.parse, ctx.answer_yes)
            if not values:
                return said or wording.sentence(f"{'Yes' if fr.within else 'No'}: {self.none}")
            if said is None:
                said = wording.sentence(f"{'Not within the limit' if fr.within else 'Yes'}: {self.what}")
            return f"{said} {wording.sentence(figures)}"
        if values:
            text = wording.restate(fr.parse, names=values, n=len(values)) if fr.parse is not None else None
            return f"{text} {wording.sentence(figures)}" if text else wording.sentence(f"{self.what}: {figures}")
        none = wording.restate(fr.parse, names=[], n=0) if fr.parse is not None else None
        return none or wording.sentence(self.none)

    def _figures(self, ctx: RunContext, view) -> str:
        """Each thing over (or within) its limit with its amount and the limit: "Upper Kettle Zone: 412 against 400"."""
        group, amount, limit = view.columns[:3]
        dated = self.period
        p = self.query
        measure = p.measure if p is not None else None
        tools = [p.path[-1].tool if p.path else p.tool] if p is not None else []
        out = []
        for f in sorted(view.facts, key=lambda f: str(f.get(group))):
            a = wording.shown(ctx, f.get(amount), measure, tools)
            lim = wording.shown(ctx, f.get(limit), measure, tools)
            of = "".join(f" ({f.get(k)})" for k in self.keys)
            out.append(f"{f.get(group)}{of}{f' in {f.get(dated)}' if dated else ''}: {a} against a limit of {lim}")
        return "; ".join(out)
