"""The Verifier's checks of what the question states, against the computation that actually ran.

The frame says what the question states; these checks look at the calls made and the rules run, not at how the
policy meant them, so a question read one way and computed another is refused:

- **relations**: every step the question's relations need (:mod:`~vadaorchestra.agents.question.relations`) is
  followed by a distinct tool the computation called ("the companies controlled by the ultimate controller of X" is
  not answered by the controller alone);
- **direction**: the things asked for are what the answer's tool returns, not what it was called with ("Which
  companies is X a minority shareholder of?" is not answered from X's own shareholders);
- **items**: "the three largest" gives three values (fewer only when fewer exist);
- **measure**: a superlative orders by what its words name ("the most appointments" is no highest fee);
- **limit measure**: a limit in whole things is passed by a count, or by a sum of what the question or the limit
  names ("its annual loan quota" is not passed by a sum of the loans' days);
- **kinds**: a kind the question names ("districts", "class A hotels") restricts the computation when the catalog
  has a column holding it;
- **parts**: each clause of a question of several parts is answered;
- **words**: a content word that names nothing of the question's frame, the catalog or the computation makes the
  answer unverified, naming the word.

Each check's outcome is recorded (:func:`outcomes`): "verified" lists what was checked.
"""

from __future__ import annotations

from typing import Any

from vadaorchestra.agents.context import RunContext
from vadaorchestra.agents.question import frame, naming, relations
from vadaorchestra.agents.question.frame import OPERATION_WORDS, QuestionFrame, asked_columns, stem, terms, word_match
from vadaorchestra.agents.question.naming import CAP_WORDS, bound_columns, column_unit, head_named, last_word_named
from vadaorchestra.agents.verify import _derived_from, _rules, aggregates, derivation_constants, used_constants
from vadaorchestra.datalog import ast as A


def check_reading(answer: str, ctx: RunContext) -> list[str]:
    """The problems of the computation against what the question states; records each check's outcome."""
    fr = frame.of(ctx)
    results: list[dict[str, Any]] = []
    problems: list[str] = []
    for name, check in (("relations", _relations), ("predicate", _predicate), ("steps", _unasked),
                        ("entities", _entities),
                        ("direction", _direction), ("items", _items), ("measure", _measure),
                        ("limit measure", _limit_measure), ("kinds", _kinds),
                        ("parts", _parts),
                        ("words", _words)):
        found = check(fr, ctx)
        results.append({"check": name, "ok": not found, "problems": found})
        problems += found
    ctx.checks = results
    return problems


def outcomes(ctx: RunContext) -> list[dict[str, Any]]:
    return list(getattr(ctx, "checks", []) or [])


def _called(ctx: RunContext) -> list[str]:
    """The tools the computation called for the question (not those called only as another's dependency); the
    relations' words count ``terms`` of the descriptions too."""
    return list(dict.fromkeys(c.tool for c in ctx.executed.values() if c.level == "high"))


def _predicate(fr: QuestionFrame, ctx: RunContext) -> list[str]:
    """The question's main verb, when tools of the catalog are named for it ("At which ports have the vessels of X
    landed catch?": the landings' tools), is said by a tool of the computation (its name or description), not only
    placed by the catalog's words: X's member vessels and their home ports follow no landing."""
    if fr.parse is None or fr.limit or fr.compound:
        return []
    w = fr.parse.words
    root = next((t for t in w if t.dep == "ROOT" and t.head == t.i), None)
    if root is not None and root.lemma in ("have", "be") and root.pos in ("VERB", "AUX"):
        # "At which ports have the vessels of X landed catch?": the parser made "have" the root and the participle
        # a modifier; the verb is the participle after it
        root = next((t for t in w if t.i > root.i and t.pos == "VERB" and t.tag in ("VBN", "VBD")), root)
    if root is None or root.pos != "VERB" or root.i in set(fr.parse.negated):
        return []
    verb = stem(root.lemma)
    if verb in frame.STOPWORDS or verb in frame.LIGHT_VERBS or verb in frame.ASPECT_VERBS or \
            verb in frame.LIMIT_VERBS - {"pass", "top"} or verb in frame.WITHIN_VERBS or verb in frame.OPERATION_WORDS:
        return []
    named = sorted(t for t, spec in ctx.tools.items()
                   if any(word_match(verb, x) for x in relations.identity(spec)))
    called = _called(ctx)
    specs = [ctx.tools[t] for t in called if t in ctx.tools]
    # (or, no tool being named for it, tools whose descriptions say it, when the verb's object names no called tool:
    # "How many of X's learners have passed their driving test?" is the tests' ("result (pass or fail)"), not X's
    # lessons counted; "How much did X spend on agency staff?" is X's agency shifts', whatever verb they say)
    # (its object, or the nouns the relation's words carry: "supplied the most hours to X", hours)
    objects = {w for r in fr.relations if r.words and stem(r.words[0]) == verb
               for w in (terms(r.target) if r.target and not r.target_entity else set()) | set(relations.content(r)[1:])}
    if not named and not any(word_match(w, x) for w in objects for spec in specs for x in relations.named_by(spec)):
        # (and the object names them: the tests' tools name tests; with no object, "Which stores sit directly under
        # X?", nothing says whose the verb is)
        named = sorted(t for t, spec in ctx.tools.items() if _said_by([spec], [verb])
                       and any(word_match(w, x) for w in objects for x in relations.named_by(spec)))
    if not named or set(named) & set(called):
        return []
    if any(r.words and stem(r.words[0]) == verb and _number_of(r, specs) for r in fr.relations):
        return []  # the verb says a number of the rows ("What hourly rate does X charge?": X's hourly rate)
    if _said_by(specs, [verb]):
        return []
    return [f"the question says {root.text!r}, which {', '.join(named[:3])} follow, and no tool of the computation "
            f"speaks of it"]


def _relations(fr: QuestionFrame, ctx: RunContext) -> list[str]:
    """A question whose relations need two steps or more (different tools) is answered by a tool for each; one step
    is the tool's own signature, which the direction and kind checks look at."""
    # a verb the catalog says only of other things ("the prize money it won") is followed by no tool, whichever
    # tool was called for the entity it relates ("the pigeon that won the Bourges National": the race's entries)
    # (not an amount compared: "Has X delivered more grapes than its quota allows?"; only where no tool called for
    # the relation's named entity says the verb: "the procedures X billed" follows a tool of the claims X "billed",
    # whatever the objects its parse gives the verb, which the question may call otherwise)
    other = [(r, *found) for r in fr.relations if not r.negated and not _compared(fr, r)
             for specs in [_called_for(r, ctx)] if specs and not (r.asked == "target" and _number_of(r, specs))
             if not _said_by(specs, relations.content(r)) and (found := relations.said_of_other_things(r, _ends(r, ctx), ctx.tools))]
    if other:
        return [f"the question says {w!r} of {r.source} and {r.target}, and the catalog says it only of "
                f"{', '.join(sorted(nouns))}: no step of the computation follows it" for r, w, nouns in other]
    if unspoken := _unspoken_for_entity(fr, ctx):
        return unspoken
    need = relations.steps(fr, ctx.tools)
    called = _called(ctx)
    if len(need) == 1:
        # one step: followed by a called tool whose name, output, columns or description say its words ("fed by X":
        # "every substation it feeds"); a relation no called tool speaks of, which another tool is named for, is not
        step = need[0]
        words = {w for r in step.relations for w in relations.content(r)}
        specs = [ctx.tools[t] for t in called if t in ctx.tools]
        spoken = _said_by(specs, words)
        if spoken or set(called) & step.tools or all(_number_of(r, specs) or _doers_of_said_verb(fr, r, ctx)
                                                     for r in step.relations):
            return []
        r = step.relations[0]
        return [f"the question says {r.text!r} ({r.source} → {r.target}), and no tool of the computation speaks of "
                f"it (it needs one of: {', '.join(sorted(step.tools))})"]
    if len(need) < 2:
        return []
    missing = relations.assign(need, called)
    out = []
    for step in missing:
        r = step.relations[0]
        tools = ", ".join(sorted(step.tools))
        out.append(f"the question says {r.text!r} ({r.source} → {r.target}), and no tool of the computation follows "
                   f"it on its own (it needs one of: {tools})")
    return out


def _doers_of_said_verb(fr: QuestionFrame, r: frame.Relation, ctx: RunContext) -> bool:
    """"X's crew" as the doers of a verb that a tool called for X says ("How many overtime hours did Calderbank's
    crew claim?": the station's overtime, "claimed by each firefighter of a fire station"): the tool's rows are the
    things X's people did, whatever the question calls the people."""
    if r.via not in ("possessive", "noun") or not r.source_entity or not r.source:
        return False
    verbs = {w for v in fr.relations if v.via == "verb" and v.source == r.source and not v.negated
             for w in relations.content(v)[:1]}
    return bool(verbs) and _said_by(_calls_for({r.source_entity}, ctx), verbs)


def _number_of(r: frame.Relation, specs: list[dict[str, Any]]) -> bool:
    """The relation's object is a number a called tool holds of its own rows, whatever verb says it ("What hourly
    rate does X charge?": X's hourly_rate_gbp; "Which three car parks charge the highest hourly tariff?": each car
    park's hourly_tariff_gbp): a property of the rows, not a relation to other things (every word of the object
    names the column, beside the superlative's)."""
    if r.via != "verb" or not r.target or r.target_entity:
        return False
    words = terms(r.target) - OPERATION_WORDS - frame.QUANTITY_SUPERLATIVES - {"high", "low", "large", "small"}
    # (by its name, its @label or its @unit: "How many cows does X milk?", herd_size in cows)
    numbers = [terms(c["name"]) | terms((spec.get("labels") or {}).get(c["name"], "")) |
               terms(str((spec.get("units") or {}).get(c["name"], "")))
               for spec in specs for c in spec.get("schema", [])
               if c.get("type") in ("int", "float") and c["name"] not in (spec.get("parameter_columns") or {})]
    return bool(words) and any(all(any(word_match(w, t) for t in said) for w in words) for said in numbers)


def _unspoken_for_entity(fr: QuestionFrame, ctx: RunContext) -> list[str]:
    """A verb that relates other things to a named entity ("the officers who report to X") is followed by a tool
    called for X that says it, when tools taking X say it: no tool is named for "report", but X's line of
    supervision says "the officers who report to them" and X's own notices do not, so the notices X issued answer
    nothing of the officers reporting to X. (Not X's own doing, "How much did X spend on agency staff", which X's own
    tools answer whatever verb they say it with.)"""
    out = []
    for value, words, things in relations.related_to_entity(fr):
        if _compared(fr, next(r for r in fr.relations if r.target_entity == value)):
            continue
        # (the tools called for X whose rows are X's own, X being of the kind related to it)
        called = [spec for spec in _calls_for({value}, ctx) if relations.called_for_its_kind(spec, things)]
        if not called or _said_by(called, words):
            continue
        ent = next(e for e in fr.entities if e.value == value)
        able = sorted({p.split(".")[0] for p in ent.parameters} & set(ctx.tools))
        saying = [t for t in able if _said_by([ctx.tools[t]], words)]
        if saying:
            out.append(f"the question says {' '.join(words)!r} of {value}, and no tool called for {value} speaks of "
                       f"it ({', '.join(saying[:3])} would)")
    return out


def _unasked(fr: QuestionFrame, ctx: RunContext) -> list[str]:
    """A tool called for every value of another's output (a join) follows a relation the question states: a word of
    the question besides the thing asked names it (its name, output, columns or description). "How many companies
    does Bank 029 lend to?" is not answered through the companies its borrowers control."""
    if fr.limit or fr.analysis:
        return []  # a check of limits expands over every entity of the measure (their groups, their profiles)
    said = set(fr.words) - {fr.asked_head} - OPERATION_WORDS
    # the thing asked said as a relation to other things ("the shareholders of the companies that supply X"): a
    # relational noun, which names the tool relating them
    said |= {fr.asked_head for r in fr.relations if fr.asked_head and r.via == "noun" and "of" in r.words
             and fr.asked_head in r.words and r.target_entity is None}
    out = []
    for call in ctx.executed.values():
        if call.level != "high" or not any(isinstance(v, dict) for v in call.params.values()):
            continue
        spec = ctx.tools.get(call.tool)
        if spec is None:
            continue
        # a kind the question names is what the joined tool is called for, when the rows it is called for hold
        # that kind ("the routes run out of the depots X manages": each depot among X's units)
        over = {str(v.get("each", "")).split(".")[0] for v in call.params.values() if isinstance(v, dict)}
        held = {c for name in over if name in ctx.predicates for c in ctx.predicates[name].columns}
        kinds = {w for e in fr.kinds if any(c.rsplit(".", 1)[-1] in held for c in e.columns) for w in terms(e.value)}
        # or a kind of the joined tool's own rows, which the join is there to read ("Which of the donors who gave to
        # X are companies?": each donor's type)
        own = {c["name"] for c in spec.get("schema", [])} - set(spec.get("parameter_columns") or {})
        kinds |= {w for e in fr.kinds if any(c.rsplit(".", 1)[-1] in own for c in e.columns) for w in terms(e.value)}
        spoken = relations.named_by(spec) | terms(spec.get("description", ""))
        # or the thing asked, when the joined tool lists it and the tools it is called over say nothing of it ("How
        # many plots are there across X?": the plots of each field under X, the units saying nothing of plots)
        anchors = [ctx.tools.get(ctx.predicates[name].tool or "", {}) for name in over if name in ctx.predicates]
        if fr.asked_head and any(word_match(fr.asked_head, x) for x in naming.listed(spec) | naming.tool_name(spec)) \
                and anchors and not _said_by(anchors, [fr.asked_head]):
            kinds |= {fr.asked_head}
        if not any(word_match(w, x) for w in said | kinds for x in spoken) and \
                not any(frame.compound_placed(w, spoken) for w in said):
            out.append(f"the computation joins {call.tool} ({spec.get('description', '').split(':')[0]}), which no "
                       f"word of the question asks for")
    return out


def _entities(fr: QuestionFrame, ctx: RunContext) -> list[str]:
    """A count, total, share or extreme is computed with every entity the question names: the facts the answer's
    value was derived from rest on it ("How many books did Amelia borrow from Dunmore Library?" is not the count of
    Dunmore's loans, even when Amelia's loans were fetched beside it)."""
    values = ctx.answer_values
    if not values or not fr.aggregate or fr.limit or fr.analysis:
        return []
    views = [v for v, _cols in _answer_views(ctx, values) if v.origin == "synthesized"]
    if not views:
        return []
    rests = set.union(*(derivation_constants(ctx, v.name) for v in views))
    missing = [e.value for e in fr.entities if not e.kind and e.value.lower() not in rests]
    if not missing:
        return []
    return [f"the question names {', '.join(repr(m) for m in missing)}, and the answer's value "
            f"({', '.join(v.name for v in views)}) is computed without it"]


def _answer_views(ctx: RunContext, values: list[Any]):
    """The predicates whose facts hold the answer's values, with the columns holding them."""
    out = []
    for view in ctx.answer_predicates():
        cols = [c for c in view.columns if any(str(f.get(c)).lower() == str(v).lower() for f in view.facts
                                               for v in values)]
        if cols:
            out.append((view, cols))
    return out


def _reversed_by_description(fr: QuestionFrame, ctx: RunContext) -> list[str]:
    """"Which associations report directly to X?" answered from X's own details, whose tool says "the parent
    association it reports to": X does the reporting there, where the question says X is reported to."""
    called = [t for t in _called(ctx) if t in ctx.tools]
    for r, tool, word in relations.reversed_by_description(fr, {t: ctx.tools[t] for t in called}):
        entity = r.target_entity or r.source_entity
        return [f"the question says {r.text!r} with {entity} on the {'receiving' if r.asked == 'source' else 'doing'}"
                f" end, and {tool}'s description says the thing it is called for is on the other ({word}): the "
                f"relation is read the other way round"]
    return []


def _direction(fr: QuestionFrame, ctx: RunContext) -> list[str]:
    """The answer's values are of the kind asked, in the direction asked: not values of another column than the one
    the asked noun names ("Which engineers worked on X?" answered with work orders), and not values whose column names
    the role the question gives the entity ("Which companies is X a minority shareholder of?" answered with X's own
    shareholders: X is the shareholder, the answer must be what it holds)."""
    values = ctx.answer_values
    if not values or fr.count or fr.total or fr.share or not (fr.who or fr.listing):
        return []
    if not all(isinstance(v, str) for v in values):
        return []
    if (described := _reversed_by_description(fr, ctx)):
        return described
    head = (fr.asked_head,) if fr.asked_head else fr.asks_for[:1]
    if not head and fr.who and frame.verb_said(fr):
        head = (fr.verb,)  # "Who is X's agent?": the agent column, when the answer's predicate has one
    asked = fr.asked_text or " ".join(head)
    for view, cols in _answer_views(ctx, values):
        free = [c for c in view.columns if c not in view.param_columns]
        # a column whose head word is the asked noun ("club", not "club_kind")
        named_free = [c for c in free if head and any(word_match(head[0], t) for t in terms(c.split("_")[-1]))]
        if named_free and not set(cols) & set(named_free):
            return [f"the question asks for {asked or ' '.join(fr.asks_for)}, and the answer gives values of "
                    f"{', '.join(cols)} in {view.name}, not of {named_free[0]}"]
        roles = (ctx.tools.get(view.tool or "") or {}).get("roles") or {}
        if fr.who and not (fr.asked_head or fr.asks_for) and cols and all(roles.get(c) == "category" for c in cols):
            # "Who is in charge of X?" answered with X's unit type: a who-question asks for someone, and a category's
            # values are kinds of things
            return [f"the question asks who, and the answer gives values of {', '.join(cols)} in {view.name}, "
                    f"a kind of thing, not someone"]
        if fr.who and not (fr.asked_head or fr.asks_for):
            # "Who operates Berth E5?": the one who does the verb is in the column the verb names (operator), when
            # the answer's predicate has one
            for r in fr.relations:
                if r.negated or r.source is not None or not r.target_entity:
                    continue
                said = relations.content(r)
                doer = [c for c in free if any(word_match(w, x) for w in said for x in terms(c))]
                if doer and not set(cols) & set(doer):
                    return [f"the question asks who {' '.join(said)}s {r.target_entity}, and the answer gives values "
                            f"of {', '.join(cols)} in {view.name}, not of {doer[0]}"]
        for r in fr.relations:
            # (a noun the entity is said to be: "Which companies is X a minority shareholder of?"; not a verb, "Which
            # town is X based in?" answered with its base_town)
            if r.negated or not r.source_entity or r.asked != "target" or r.via == "verb":
                continue
            said = relations.content(r)
            for col in cols:
                if col not in view.param_columns and any(word_match(w, x) for w in said for x in terms(col)):
                    return [f"the question says {r.source_entity} is the {' '.join(said)} ({r.text!r}) and asks for "
                            f"{asked}, and the answer gives the {col} values of {view.name}: the relation is read the "
                            f"other way round"]
    return []


def _items(fr: QuestionFrame, ctx: RunContext) -> list[str]:
    """"the three largest ..." gives three values, fewer only when fewer exist."""
    values = ctx.answer_values
    ranked = frame.ranks_things(fr)  # (a total of things ranked asks for the things)
    if not fr.n or fr.n == 1 or values is None or ((fr.count or fr.total or fr.share) and not ranked):
        return []
    if len(values) == fr.n:
        return []
    if ranked and values and all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        return [f"the question asks for {fr.n} ({fr.asked_text}) ranked by a total, and the answer gives "
                f"{len(values)} number{'s' if len(values) > 1 else ''}"]
    if len(values) < fr.n:
        views = _answer_views(ctx, values)
        if views and all(v.complete and len({f.get(c) for f in v.facts for c in cols}) == len(values)
                         for v, cols in views):
            return []  # no more exist
    return [f"the question asks for {fr.n} ({fr.asked_text}), and the answer gives {len(values)}"]


def _measure(fr: QuestionFrame, ctx: RunContext) -> list[str]:
    """An extreme of a quantity ("the most appointments", "the fewest visits") orders by what its noun names: the
    column every highest or lowest of the computation reads is named by it (the appointments counted per vet, not
    the highest fee), when the noun names something of the catalog."""
    # a total of a limit, base or level, or a share of one, where the question's words name by its head an amount
    # of the tools called and not the limit ("What has X spent?", "What percentage of X's spending ...": spent_gbp,
    # not the spending limit, however "spend" names both)
    if not fr.limit and (fr.total or fr.share):
        read = [column for func, _pred, column, _others, _words in aggregates(ctx) if fr.total and func in ("sum", "msum")]
        read += [col for s in ctx.synthesized for rule in _rules(s.program) if fr.share
                 for c in rule.body if isinstance(c, A.Assignment) for d in _divisors(c.value)
                 for atom in rule.body if isinstance(atom, A.Atom) for k, t in enumerate(atom.args)
                 if isinstance(t, A.Var) and t.name == d.name
                 for found in [_tool_column(ctx, atom.pred, k)] if found for _spec, col in [found]]
        out = [f"the question's words name {named[0]}, and the computation {'sums' if fr.total else 'divides by'} "
               f"{column}, a limit they do not name" for column in dict.fromkeys(read)
               if (named := _bound_misread(fr, ctx, column))]
        # (a sum of a limit no word of the question names at all, by its name or its label: "How much has X spent
        # on airtime?" is no sum of its campaign budget)
        bounds = bound_columns(ctx.tools.values())
        labels = {c: lab for spec in ctx.tools.values() for c, lab in (spec.get("labels") or {}).items()}
        out += [f"the question asks a total, and the computation sums {column}, a limit no word of the question "
                f"names" for func, _pred, column, _others, _words in aggregates(ctx)
                if fr.total and func in ("sum", "msum") and column in bounds and not any(
                    word_match(w, t) for w in fr.words for t in terms(column) | terms(labels.get(column, "")))]
        if out:
            return out
    out = _ordered_by_another(fr, ctx)
    if out:
        return out
    if not (fr.extreme and fr.measure_words and fr.superlative in frame.QUANTITY_SUPERLATIVES):
        return []  # (an adjective's measure, "the highest-paid player", "the heaviest shipment", is the composer's)
    # words that name nothing of the catalog ("the most visitors" where no tool or column says visitors) leave the
    # measure to the composer; words that name something of it (the appointments a tool lists) name the measure
    measure = fr.measure_words
    vocabulary = {t for spec in ctx.tools.values() for t in relations.named_by(spec)}
    if not any(word_match(w, t) for w in measure for t in vocabulary):
        return []
    out = []
    for func, _pred, column, _others, _words in aggregates(ctx):
        if func in ("max", "min") and column and not any(word_match(w, t) for w in measure for t in terms(column)):
            out.append(f"the question's '{fr.superlative or func}' measures {' '.join(measure)!r}, and the "
                       f"computation takes the {'highest' if func == 'max' else 'lowest'} {column}")
    return list(dict.fromkeys(out))


def _ordered_by_another(fr: QuestionFrame, ctx: RunContext) -> list[str]:
    """A superlative whose words name a number column of the catalog by its head ("the highest elevation":
    elevation_m) orders by that column: the answer is built from a predicate holding it (or a column derived from
    it), not ranked by another amount ("stations at the highest elevation" answered by their maintenance cost)."""
    if not (fr.extreme or fr.ranking) or not fr.measure_words:
        return []
    numbers = list(dict.fromkeys(c["name"] for spec in ctx.tools.values() for c in spec.get("schema", [])
                                 if c["type"] in ("int", "float")))
    named = head_named(tuple(fr.measure_words), numbers, ctx)
    if not named:
        return []
    # the predicates the answer's values are read from: the rules' when a rule holds them (a tool called beside may
    # hold the same things, as every station of the office does)
    values = [str(x).lower() for x in ctx.answer_values or [] if isinstance(x, str)]
    holding = [v for v in ctx.answer_predicates() if any(str(x).lower() in values for f in v.facts for x in f.values())]
    ruled = [v for v in holding if v.origin == "synthesized"]
    held = {c for v in (ruled or holding) for c in v.columns} | {col for _f, _p, col, _o, _w in aggregates(ctx) if col}
    if any(c in held or any(c in h for h in held) for c in named):
        return []
    # (or a column it holds is named by the words otherwise: by its @label or its unit, "the biggest total tonnage":
    # picked_t, in t, where another tool has a column "tonnes")
    words = tuple(fr.measure_words)
    if naming.label_named(words, list(ctx.tools.values()), sorted(held)) or \
            naming.unit_named(words, ctx, list(ctx.tools), sorted(held)):
        return []
    return [f"the question's '{fr.superlative or 'highest'}' orders by {' '.join(fr.measure_words)!r} "
            f"({', '.join(named)}), and no step of the computation holds it"]


def _bound_misread(fr: QuestionFrame, ctx: RunContext, column: str) -> list[str]:
    """When ``column`` is a limit, base or level whose head no word of the question says: the amounts of the
    catalog (not limits) whose heads the question's words name instead."""
    bounds = bound_columns(ctx.tools.values())
    if column not in bounds or head_named(tuple(fr.words), [column], ctx):
        return []
    amounts = [c["name"] for spec in ctx.tools.values() for c in spec.get("schema", [])
               if c["type"] in ("int", "float") and c["name"] not in bounds]
    return head_named(tuple(fr.words), list(dict.fromkeys(amounts)), ctx)


def _divisors(expr: Any) -> list[A.Var]:
    """The variables an expression divides by."""
    if isinstance(expr, A.BinOp):
        return (A.expr_vars(expr.right) if expr.op == "/" else []) + _divisors(expr.left) + _divisors(expr.right)
    return []


def _tool_column(ctx: RunContext, pred: str, i: int, depth: int = 0) -> tuple[dict[str, Any], str] | None:
    """The tool and output column the ``i``-th argument of ``pred`` holds, through synthesized rules that copy it
    ("whole(V) :- branch_profile(X, _, V)": the profile's annual_loan_quota); None when it is computed."""
    view = ctx.predicates.get(pred)
    if view is None or depth > 4:
        return None
    spec = ctx.tools.get(view.tool or "")
    if spec:
        return (spec, view.columns[i]) if i < len(view.columns) else None
    for s in ctx.synthesized:
        for rule in _rules(s.program):
            head = rule.head[0] if rule.head else None
            if head is None or head.pred != pred or i >= len(head.args) or not isinstance(head.args[i], A.Var):
                continue
            for atom in (x for x in rule.body if isinstance(x, A.Atom)):
                for k, t in enumerate(atom.args):
                    if isinstance(t, A.Var) and t.name == head.args[i].name:
                        return _tool_column(ctx, atom.pred, k, depth + 1)
    return None


def _limit_measure(fr: QuestionFrame, ctx: RunContext) -> list[str]:
    """A limit in whole things (a whole-number column with no unit: "its annual loan quota") is passed, or taken a
    share of, by a number of things, or by a sum of things the question or the limit's own name says ("its monthly
    hours cap": the hours booked): a sum of a quantity in a unit neither says (the loans' days), or a count of rows
    that each carry the quantity the limit is of (the bookings, against an hour cap), answers a question nobody
    asked."""
    if not (fr.limit or fr.share):
        return []
    # an amount the question names by every word of a catalog column's name ("more pending applications than their
    # docket limit": pending_applications) is that column, not rows of another tool counted (every application)
    read = {(spec["name"], col) for s in ctx.synthesized for rule in _rules(s.program)
            for atom in (x for x in rule.body if isinstance(x, A.Atom)) for i, t in enumerate(atom.args)
            if isinstance(t, A.Var) and t.name != "_" for found in [_tool_column(ctx, atom.pred, i)] if found
            for spec, col in [found]}
    bounds = bound_columns(ctx.tools.values())
    named = sorted({c["name"] for spec in ctx.tools.values() for c in spec.get("schema", [])
                    if c["type"] in ("int", "float") and c["name"] not in bounds and len(terms(c["name"])) > 1
                    and all(any(word_match(w, t) for w in fr.words) for t in terms(c["name"]))})
    if fr.limit and named and not any(col in named for _t, col in read):
        return [f"the question names {named[0]} by every word of it, and the computation compares no value of it"]
    # "Has X ever gone past its service interval?": one occasion at a time, not the occasions' sum
    if fr.limit and frame.ever(fr) and any(s.kind == "threshold_check" for s in ctx.synthesized) and any(
            a[0] in ("sum", "msum") for a in aggregates(ctx)):
        return ["the question asks whether the limit was ever passed (on any one occasion), and the computation "
                "compares a sum over the occasions"]
    # "Which boats stayed for more nights than its maximum stay?": each stay against the limit, not a boat's stays
    # summed, when the rows are occasions of their own (an id the catalog declares per row) and the question says
    # no total
    if fr.limit and not fr.total and any(s.kind == "threshold_check" for s in ctx.synthesized):
        for func, pred, col, _others, _w in aggregates(ctx):
            view = ctx.predicates.get(pred)
            spec = ctx.tools.get(view.tool) if view is not None and view.tool else None
            ids = [c for c, r in ((spec or {}).get("roles") or {}).items() if r == "entity" and c in view.columns
                   and c not in view.param_columns] if view is not None else []
            if func in ("sum", "msum") and ids and view.complete and view.cardinality > 1 and \
                    len({f.get(ids[0]) for f in view.facts}) == view.cardinality:
                return [f"the question compares {naming.prose(col, ctx)} with a limit, and the computation sums it over "
                        f"several {naming.prose(ids[0], ctx)} rows, a total the question does not ask for"]
    limits = set()
    for s in ctx.synthesized:
        for rule in _rules(s.program):
            compared = {v.name for c in rule.body if isinstance(c, A.Comparison) and s.kind == "threshold_check"
                        for v in [*A.expr_vars(c.left), *A.expr_vars(c.right)]}
            compared |= {v.name for c in rule.body if isinstance(c, A.Assignment) and fr.share
                         for v in _divisors(c.value)}
            for atom in (x for x in rule.body if isinstance(x, A.Atom)):
                for i, t in enumerate(atom.args):
                    if not (isinstance(t, A.Var) and t.name in compared):
                        continue
                    found = _tool_column(ctx, atom.pred, i)
                    if found is not None:
                        spec, col = found
                        types = {c["name"]: c["type"] for c in spec.get("schema", [])}
                        if types.get(col) == "int" and col not in (spec.get("units") or {}):
                            limits.add(col)
    if not limits:
        return []
    said = set(fr.words) | {w for col in limits for w in terms(col)}
    out = []
    for func, _pred, column, _others, _words in aggregates(ctx):
        if func not in ("sum", "msum") or not column:
            continue
        # (a quantity in a unit neither says: the loans' days, "the loan period in days")
        unit = column_unit(column, ctx)
        if unit and not any(word_match(stem(x), w) for x in terms(unit) | {unit.lower()} for w in said):
            out.append(f"the question measures against {', '.join(sorted(limits))} (a number of things), and the "
                       f"computation sums {column}, in {unit}, which neither the question nor the limit names")
    # and a count of rows that each carry the quantity the limit is of ("its monthly hour cap" against the number of
    # monthly rows of booked hours): the limit is in that quantity, not in rows
    limit_words = {w for col in limits for w in terms(col)} - CAP_WORDS
    for s in ctx.synthesized:
        for rule in _rules(s.program):
            if not any(isinstance(x, A.Assignment) and isinstance(x.value, A.Aggregate) and
                       x.value.func in ("count", "mcount") for x in rule.body):
                continue
            for atom in (x for x in rule.body if isinstance(x, A.Atom)):
                view = ctx.predicates.get(atom.pred)
                carried = [c for c in (view.typed("int", "float") if view else [])
                           if c not in limits and last_word_named(c, limit_words)]
                if carried:
                    out.append(f"the question measures against {', '.join(sorted(limits))}, and the computation "
                               f"counts rows of {atom.pred}, each of which carries {carried[0]}")
    return list(dict.fromkeys(out))


def _kinds(fr: QuestionFrame, ctx: RunContext) -> list[str]:
    """A kind the question names restricts the computation when a tool's output has the column holding it (the
    entity check reports a kind never used as a constant; here: the one a column of the catalog holds)."""
    out = []
    used = used_constants(ctx)
    called = {t: ctx.tools[t] for t in _called(ctx) if t in ctx.tools}
    answered = [c for _v, cols in (_answer_views(ctx, ctx.answer_values) if ctx.answer_values else []) for c in cols]
    for e in fr.kinds:
        if fr.asked_head and any(word_match(fr.asked_head, w) for w in terms(e.value)) and \
                any(word_match(fr.asked_head, t) for c in answered for t in terms(c)):
            continue  # "Which warehouses were supplied by X?": answered from a column named for them (warehouse)
        names = {c.rsplit(".", 1)[-1] for c in e.columns}
        holders = [t for t, spec in ctx.tools.items() if any(c["name"] in names for c in spec.get("schema", []))]
        if holders and e.value.lower() not in used and relations.restricts(e, fr, called):
            out.append(f"the question asks about {e.text or e.value} (a kind: {'/'.join(sorted(names))} = "
                       f"{e.value!r}), and no step restricts the computation to them (the kind is a column of "
                       f"{', '.join(sorted(holders))})")
    return out


def _parts(fr: QuestionFrame, ctx: RunContext) -> list[str]:
    """Each clause of a question of several parts is answered: a limit part by a threshold check, a count by a
    count, a total by a sum, a share by a ratio, a ranking or a list by values of what it asks."""
    if not fr.compound or len(fr.parts) < 2:
        return []
    kinds = {s.kind for s in ctx.synthesized}
    # each count or total part its own aggregate, of a column or predicate its noun names: "how many bookings ...,
    # and how many nights did they book?" is not answered by the count of the first part's bookings
    aggs = aggregates(ctx)
    linked = [{"value": e.value, "columns": list(e.columns), "parameters": list(e.parameters), "category": e.kind}
              for e in fr.entities]
    frames = [frame.build(text, linked, ctx.tools) for text in fr.parts]
    several = sum(1 for part in frames if part.count or part.total) > 1
    out = []
    given = ctx.answer_parts or []
    for i, (text, part) in enumerate(zip(fr.parts, frames, strict=True)):
        ok = True
        if part.how == "yes-no" and not part.limit:
            # "is any of them a freighter?": answered yes or no, by the first part's computation restricted to the
            # kind (a step keeps to a kind the part names; the kinds check says which)
            values = given[i] if i < len(given) else None
            used = used_constants(ctx)
            ok = values is not None and len(values) == 1 and isinstance(values[0], bool) and \
                any(e.value.lower() in used for e in part.kinds)
        elif part.limit:
            ok = "threshold_check" in kinds
        elif part.count or part.total:
            # (a count "in total" may be either: "how many nights did they book in total" sums the nights)
            funcs = {f for f, wanted in (("count", part.count), ("sum", part.total)) if wanted}
            mine = [a for a in aggs if a[0].removeprefix("m") in funcs]
            ok = bool(mine)
            if ok and several and part.asks_for:
                ok = any(any(word_match(w, t) for w in part.asks_for for t in terms(a[1]) | terms(a[2] or ""))
                         for a in mine)
            if ok and i > 0 and _points_back(text):
                # "How many trips did X make in June, and how many minutes did they last altogether?": they are the
                # trips, so the part's aggregate reads the rows of the tool the first part's does (not the e-bike
                # minutes of another tool)
                ok = _same_rows(ctx, aggs, frames[0], part, mine)
        elif part.share:
            ok = "ratio" in kinds or any("ratio" in s.kind or "share" in s.output for s in ctx.synthesized)
        else:
            # values of what the part asks (its noun; for "Who leads X?", its verb): a predicate (its name, its
            # columns, its tool's) named by those words, and one of its values in the answer ("Which boats does X
            # have, and how many launches ...?" answered with the count alone does not answer the first part)
            words = part.asks_for or tuple(w for w in (part.verb,) if w and w not in frame.STOPWORDS) or part.words
            named = [v for v in ctx.answer_predicates() if v.facts and (asked_columns(words, v.columns) or any(
                word_match(w, x) for w in words for x in terms(v.name) | relations.identity(
                    ctx.tools.get(v.tool or "", {"name": v.name}))))]
            ok = _gives_a_value(ctx.answer, words, named) if ctx.answer else bool(named)
        if not ok:
            out.append(f"the question asks {text!r}, and no step of the computation answers that part")
    return out


def _points_back(text: str) -> bool:
    """Whether a later part speaks of the first part's things by a plural pronoun ("they", "them", "their")."""
    from vadaorchestra.agents.question import parse as P

    return any(t.tag_ in ("PRP", "PRP$") and t.morph.get("Number") == ["Plur"] and t.morph.get("Person") == ["3"]
               for t in P.nlp()(text))


def check_pointing_back(ctx: RunContext, composers: list) -> list[str]:
    """A question answered part by part: a later part that speaks of the first part's things by a plural pronoun
    ("..., and how many minutes did they last altogether?") is answered from rows of a tool the first part's answer
    was derived from (the trips' durations, not another tool's e-bike minutes)."""
    whole = frame.of(ctx)
    outputs = [getattr(c, "output", None) for c in composers]
    if len(whole.parts) != len(outputs) or not outputs or not outputs[0]:
        return []

    first = _derived_tools(ctx, outputs[0])
    return [f"part {k} ({text!r}) speaks of the first part's things, and its answer is derived from "
            f"{', '.join(sorted(_derived_tools(ctx, out))) or 'nothing'}, not from {', '.join(sorted(first))} as the "
            f"first part's" for k, (text, out) in enumerate(zip(whole.parts, outputs, strict=True), 1)
            if k > 1 and out and first and _points_back(text) and not _derived_tools(ctx, out) & first]


def _derived_tools(ctx: RunContext, pred: str) -> set[str]:
    """The tools whose outputs ``pred`` was derived from (itself, when it is one)."""
    return {v.tool for p in _derived_from(ctx, pred) if (v := ctx.predicates.get(p)) is not None and v.tool}


def _same_rows(ctx: RunContext, aggs: list, first: QuestionFrame, part: QuestionFrame, mine: list) -> bool:
    """A later part's aggregate (one naming its noun, else any of its kind) reads rows of a tool the first part's
    aggregate (one naming the first part's noun) reads."""
    def named(a, words) -> bool:
        return any(word_match(w, t) for w in words for t in terms(a[1]) | terms(a[2] or ""))

    firsts = [a for a in aggs if named(a, first.asks_for)]
    ours = [a for a in mine if a not in firsts and named(a, part.asks_for)] or [a for a in mine if a not in firsts]
    if not firsts or not ours:
        return True  # (which aggregate is which is not told apart: the checks above stand)
    return any(_derived_tools(ctx, a[1]) & _derived_tools(ctx, b[1]) for a in ours for b in firsts)


def _gives_a_value(answer: str, words: tuple[str, ...], views: list) -> bool:
    """Whether ``answer`` names a value of one of ``views`` (of the columns ``words`` name, when they name some)."""
    text = answer.lower()
    for v in views:
        asked = set(asked_columns(words, v.columns))
        for col in (c for c in v.columns if c not in v.param_columns and (not asked or c in asked)):
            if any(isinstance(x, str) and len(x) > 1 and x.lower() in text for f in v.facts if (x := f.get(col))):
                return True
    return False


def _aggregate_functions(ctx: RunContext) -> set[str]:
    return {a[0] for a in aggregates(ctx)}


def _called_for(r: frame.Relation, ctx: RunContext) -> list[dict[str, Any]]:
    """The tools called for the entity ``r`` names (with it as a parameter)."""
    return _calls_for({e for e in (r.source_entity, r.target_entity) if e}, ctx)


def _calls_for(values: set[str], ctx: RunContext) -> list[dict[str, Any]]:
    """The tools called with one of ``values`` as a parameter."""
    named = {v.lower() for v in values}
    return [ctx.tools.get(c.tool) or {} for c in ctx.executed.values()
            if any(str(v).lower() in named for v in c.params.values())]


def _said_by(specs: list[dict[str, Any]], words) -> bool:
    """Whether one of the tools says one of ``words`` in its name, output, columns or description."""
    return any(relations.says(spec, words) for spec in specs)


def _compared(fr: QuestionFrame, r: frame.Relation) -> bool:
    """Whether an end of ``r`` is an amount compared or counted ("more grapes", "over 450 km", "three races")."""
    if fr.parse is None:
        return False
    w = fr.parse.words
    return any(ph.text in (r.source, r.target) and any(w[i].tag in ("JJR", "RBR") or w[i].pos == "NUM"
                                                       for i in ph.tokens) for ph in fr.parse.phrases)


def _ends(r: frame.Relation, ctx: RunContext) -> set[str]:
    """The words of a relation's two ends: its phrases', and for a named entity the parameters and columns of the
    calls made for it (Bourges National: race)."""
    out = terms(r.source or "") | terms(r.target or "")
    for e in {r.source_entity, r.target_entity} - {None}:
        for c in ctx.executed.values():
            inputs = (ctx.tools.get(c.tool) or {}).get("parameter_inputs") or {}
            for p, v in c.params.items():
                if str(v).lower() == e.lower():
                    out |= terms(p) | {x for col in inputs.get(p, ()) for x in terms(col)}
    return out


def _done_to_answered(fr: QuestionFrame, ctx: RunContext) -> bool:
    """"What does X sell?": the answer's values are of a column that a called tool's description names as what the
    verb is done to ("the goods it sells")."""
    verb = frame.what_done(fr)
    values = {str(v).lower() for v in ctx.answer_values or []}
    if verb is None or not values:
        return False
    for t in _called(ctx):
        spec = ctx.tools.get(t) or {}
        objects = {w for u in relations.verb_uses(spec.get("description", ""), verb) for w in u}
        view = next((v for v in ctx.predicates.values() if v.tool == t), None)
        cols = [c for c in (view.columns if view else []) if any(word_match(w, x) for w in objects for x in terms(c))]
        if any(str(f.get(c)).lower() in values for f in view.facts for c in cols):
            return True
    return False


def _how_adjective(fr: QuestionFrame) -> str | None:
    """The adjective "how" asks the degree of ("How big is X?": big; not "how many", "how much"), None when none."""
    words = fr.parse.words if fr.parse is not None else []
    for t in words:
        if t.lemma == "how" and t.head != t.i and words[t.head].tag in ("JJ", "RB") and \
                words[t.head].lemma not in ("many", "much") and t.dep == "advmod":
            return words[t.head].lemma.lower()
    return None


def _words(fr: QuestionFrame, ctx: RunContext) -> list[str]:
    """Content words that name nothing: not the catalog's, not the computation's, not a word of the frame; and a
    "which"/"what" question whose parse found no noun of the thing asked ("Which venues screen ...", "venues" read
    as an auxiliary verb)."""
    if fr.how == "wh" and fr.question_word in ("which", "what") and not fr.asked_text and not fr.asks_for and not (
            fr.count or fr.total or fr.share or fr.limit) and not _done_to_answered(fr, ctx):
        return [f"the question asks {fr.question_word} ..., and the parse found no noun naming what it asks for"]
    if (adjective := _how_adjective(fr)) is not None:
        # "How big is plot X?" answered with X's field: the degree asked for is a number of a column the adjective
        # names (by its name, @label or @unit), or nothing checks it
        columns = {c for _v, cols in _answer_views(ctx, ctx.answer_values or []) for c in cols}
        said = {x for c in columns for x in terms(c)} | {
            x for spec in ctx.tools.values() for c, lab in (spec.get("labels") or {}).items() if c in columns
            for x in terms(lab)}
        numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in ctx.answer_values or [None])
        if not numbers or not any(word_match(adjective, x) for x in said) and not any(
                naming.names_unit((adjective,), u) for c in columns if (u := column_unit(c, ctx))):
            return [f"the question asks how {adjective} ..., and the answer gives "
                    f"{'values of ' + ', '.join(sorted(columns)) if columns else 'no value'}, which "
                    f"'{adjective}' does not name"]
    if fr.how == "wh" and fr.question_word in ("when", "where"):
        # "When did X open?" answered with X's whole profile: the time asked for is not picked out; "When does the
        # service contract of X expire?" answered with X's type: a column no word of the question names
        if not ctx.answer_values:
            return [f"the question asks {fr.question_word} ..., and the answer picks out no value for it"]
        columns = {c for _v, cols in _answer_views(ctx, ctx.answer_values) for c in cols}
        # (or the verb, by what a called tool's description relates it to: "the country it is based in")
        verb = frame.when_where_done(fr)
        ends = {w for t in _called(ctx) if verb for w in relations.verb_ends(
            (ctx.tools.get(t) or {}).get("description", ""), stem(verb))}
        if not any(word_match(w, x) for w in set(fr.words) | ends for c in columns for x in terms(c)):
            return [f"the question asks {fr.question_word} ..., and the answer gives values of "
                    f"{', '.join(sorted(columns)) or 'no column'}, which no word of the question names"]
    if not fr.unplaced:
        return []
    said = set()
    for s in ctx.synthesized:
        said |= terms(s.purpose)
    # a verb relating what is asked to an entity a called tool was called for is that tool's relation ("work orders
    # raised against EI-WRD" from get_aircraft_work_orders(EI-WRD)): placed by the tool's signature
    params = used_constants(ctx)  # the entities the computation was called for or filtered on
    # what is asked is said to be a relational noun the catalog does not say ("Which genre is the parent of X?"
    # answered with X's subgenres): which way it points is not known, whatever tool X was passed to
    relational = {w for r in fr.relations if r.asked == "source" and r.via in ("noun", "possessive", "copula")
                  for w in set(r.words) & set(fr.unplaced)}
    for r in fr.relations:
        if set(r.words) & set(fr.asks_for):
            continue  # the noun asked for ("the annual operating budget of X") is placed by a column, not by X's tool
        if len(set(r.words) & set(fr.unplaced)) >= 2:
            continue  # a phrase of words that name nothing is a thing the catalog does not hold ("the geophysical
            # survey of X"), not a paraphrase of a relation the tool follows ("cargo from X")
        if set(r.words) & relational:
            continue
        if any(e.lower() in params for e in {r.source_entity, r.target_entity} - {None}):
            said |= set(r.words)  # ("Who works in Research?", "courses needed before Spectroscopy")
    # what the question says the entity is ("the genres whose parent genre is X": X is the parent), when a tool
    # was called with X matched against data columns the word names (genre_parent_table(G, $genre) at parent_genre);
    # not "Which genre is the parent of X?", which says X has one; a word of one step ("parent") through a tool that
    # follows the chain only when the question keeps to the first level ("immediate parent")
    for word, entity in fr.entity_is:
        if any(str(v).lower() == entity.lower() and any(word_match(word, x) for col in (
                (ctx.tools.get(c.tool) or {}).get("parameter_inputs") or {}).get(p, ()) for x in terms(col))
               and (fr.direct is True or not (ctx.tools.get(c.tool) or {}).get("follows_chain"))
               for c in ctx.executed.values() for p, v in c.params.items()):
            said.add(word)
    # a predicate over an entity the computation used ("How many credits is Signal Processing worth?")
    said |= {w for w, ents in fr.unplaced_near if any(e.lower() in params for e in ents)}
    if (fr.extreme or fr.ranking) and _aggregate_functions(ctx) & {"max", "min", "count"}:
        said |= set(fr.measure_words)  # "the highest-paid employee": the measure the ordering was computed on
    # the unit of a column the computation aggregated ("the average length, in minutes": duration_min, in min)
    units = [u for _f, _p, col, _o, _w in aggregates(ctx) if col and (u := column_unit(col, ctx))]
    left = [w for w in fr.unplaced if not any(word_match(w, x) for x in said)
            and not any(naming.names_unit((w,), u) for u in units)]
    if not left:
        return []
    return [f"the question says {', '.join(repr(w) for w in left)}, which names nothing in the catalog or the "
            f"computation, so the answer cannot be checked against it"]
