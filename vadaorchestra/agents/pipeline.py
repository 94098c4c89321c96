"""The adaptive pipeline of the paper's Algorithm 1, as steps the four agents take in turn.

discover -> select + parameters -> resolve dependencies -> stages (verified: complete, disjoint, ordered,
predicate-safe) -> for each stage: invoke concurrently, then targeted retrieval -> synthesize rules (validated,
linted, retried) -> replan (new stages; never the same call twice; bounded iterations) -> answer (verified against
the derived facts).

:class:`Pipeline` holds the phase machine: :meth:`Pipeline.step` runs the next step for the agent whose turn it is
(:attr:`Pipeline.next_agent`). Every write to the workspace is recorded in the logical trace as it happens.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from vadaorchestra.agents import reading, verify, wording
from vadaorchestra.agents.context import PredicateView, RunContext, Synthesized, ToolCallError, ToolClient
from vadaorchestra.agents.plan import Call, Plan, Stage, build_stages, check_plan, expand
from vadaorchestra.agents.policy import Policy, Probe, RuleProposal
from vadaorchestra.agents.question import frame
from vadaorchestra.agents.question.parts import as_part
from vadaorchestra.agents.trace import TraceWriter, invocation_rule
from vadaorchestra.errors import VadaError

AGENTS = ("Planner", "Retriever", "RuleSynthesizer", "Verifier")


@dataclass
class Settings:
    tau: int = 50  # predicates up to this many facts are read whole
    top_k: int = 10
    max_iterations: int = 3
    max_repairs: int = 2
    max_answer_attempts: int = 2
    reading: int | None = None  # which reading of an ambiguous question to run (ask --reading N)


class PlanningError(VadaError):
    """The question cannot be planned: no relevant tool, a parameter without a value, an unsound plan."""


class Pipeline:
    def __init__(self, ctx: RunContext, client: ToolClient, policy: Policy, *, trace: TraceWriter | None = None,
                 settings: Settings | None = None, progress: Callable[[str], None] | None = None):
        self.ctx = ctx
        self.client = client
        self.policy = policy
        self.probe = Probe(client)
        self.trace = trace
        self.settings = settings or Settings()
        ctx.reading = self.settings.reading
        self.progress = progress or (lambda _msg: None)
        self.phase = "plan"
        self.pending: list[Stage] = []
        self.current: Stage | None = None
        self._deps: dict[str, list[str]] = {}
        self.answer_attempts = 0

    # --- the phase machine --------------------------------------------------------------------------------------------
    @property
    def next_agent(self) -> str | None:
        return {"plan": "Planner", "verify_plan": "Verifier", "execute": "Planner", "retrieve": "Retriever",
                "synthesize": "RuleSynthesizer", "replan": "Planner", "answer": "Planner",
                "verify_answer": "Verifier"}.get(self.phase)

    @property
    def done(self) -> bool:
        return self.phase == "done"

    async def step(self) -> str:
        """Run the next step; return a one-line summary (the agent's message).

        A step that cannot go on (no tool fits the question, a parameter without a value, a tool call refused, a
        model reply that cannot be used) ends the run honestly: the answer becomes ``could not answer: <why>``,
        unverified, and the trace written so far stays. An unexpected error does the same, naming the step, with
        its traceback kept in the run's events for whoever debugs it."""
        phase = self.phase
        handler = getattr(self, f"_{phase}")
        try:
            return await handler()
        except VadaError as exc:
            return self.give_up(exc.message, phase)
        except Exception as exc:  # noqa: BLE001 - the agents' boundary: no traceback reaches the user
            import traceback

            self.ctx.event("internal_error", phase=phase, traceback=traceback.format_exc())
            return self.give_up(f"internal error in the {phase} step ({type(exc).__name__}: {exc})", phase)

    def give_up(self, reason: str, phase: str) -> str:
        """End the run with ``could not answer: <reason>`` (never verified)."""
        ctx = self.ctx
        ctx.event("could_not_answer", phase=phase, problems=[reason])
        ctx.problems = [reason]
        ctx.verified = False
        ctx.answer = wording.refusal([reason])
        ctx.answer_values = None
        self.pending = []
        self.phase = "done"
        return self.say(ctx.answer)

    async def run(self) -> str:
        """All steps in order without an AutoGen team (the team takes the same steps)."""
        while not self.done:
            await self.step()
        return self.ctx.answer or ""

    def say(self, text: str) -> str:
        self.progress(text)
        return text

    # --- Planner --------------------------------------------------------------------------------------------------
    async def _plan(self) -> str:
        ctx = self.ctx
        listing = await self.client.call("list_tools")
        ctx.tools = {t["name"]: t for t in listing["tools"]}
        ctx.catalog_hash, ctx.data_hash = listing.get("catalog_hash", ""), listing.get("data_hash", "")
        ctx.event("discover", tools=sorted(ctx.tools))
        found = await self.client.call("find_entities", {"text": ctx.question[:2000], "limit": 20})
        # the kinds of things the question names by a common noun's lemma ("districts": the value "district")
        lemmas = frame.lemma_text(ctx.question)
        kinds = await self.client.call("find_entities", {"text": lemmas[:2000], "limit": 20}) if lemmas else {}
        kind_matches = list(kinds.get("matches", []))
        if plurals := frame.plural_text(ctx.question):
            more = await self.client.call("find_entities", {"text": plurals[:2000], "limit": 20})
            kind_matches += [m for m in more.get("matches", []) if m.get("category")
                             and all(m.get("value") != k.get("value") for k in kind_matches)]
        ctx.frame = frame.build(ctx.question, found.get("matches", []), ctx.tools, kind_matches)
        ctx.event("frame", frame=ctx.frame.to_json())
        chosen = await self.policy.select(ctx, self.probe)
        chosen = [c for c in chosen if c.tool in ctx.tools]
        if not chosen:
            raise PlanningError(f"no tool of the catalog fits the question {ctx.question!r}")
        stages = await self._stages_for(chosen)
        self.pending = stages
        ctx.plan = Plan(stages=list(ctx.plan.stages) + stages)
        ctx.event("plan", iteration=ctx.iteration, stages=[[str(c) for c in s.calls] for s in stages])
        self.phase = "verify_plan"
        return self.say(f"plan: {len(stages)} stage(s): " + " | ".join(", ".join(map(str, s.calls)) for s in stages))

    async def _deps_of(self, tool: str) -> list[str]:
        if tool not in self._deps:
            self._deps[tool] = list((await self.client.call("get_dependencies", {"tool": tool}))["dependencies"])
            for d in self._deps[tool]:
                await self._deps_of(d)
        return self._deps[tool]

    async def _stages_for(self, calls: list[Call]) -> list[Stage]:
        for c in calls:
            await self._deps_of(c.tool)

        def params_of(tool: str) -> list[str]:
            return [p["name"] for p in self.ctx.tools[tool]["parameters"]]

        try:
            full = expand(calls, self._deps.__getitem__, params_of)
        except ValueError as exc:
            raise PlanningError(str(exc)) from None
        fresh = [c for c in full if c.key not in self.ctx.executed]
        return build_stages(fresh, self._deps.__getitem__, first_index=len(self.ctx.plan.stages),
                            iteration=self.ctx.iteration, producers=self._producers())

    def _producers(self) -> dict[str, str]:
        """Output predicate -> the catalog tool that writes it."""
        return {t["output_predicate"]: name for name, t in self.ctx.tools.items()}

    async def _execute(self) -> str:
        stage = self.pending.pop(0)
        self.current = stage
        results = await asyncio.gather(*(self._invoke(c) for c in stage.calls), return_exceptions=True)
        for call, res in zip(stage.calls, results, strict=True):
            if isinstance(res, BaseException):
                if isinstance(res, VadaError):
                    raise PlanningError(f"{call} failed: {res.message}") from None
                raise res
        # record in plan order once the stage is complete: one predicate per tool in a stage, so each hash is the
        # state right after its call; the views too, so that policies see the same order whichever call ended first
        for res in results:
            self.ctx.predicates[res["output_predicate"]] = self.ctx.predicates.pop(res["output_predicate"])
        for call, res in zip(stage.calls, results, strict=True):
            out = res["output_predicate"]
            hashes = await self._hashes([out])
            tool = self.ctx.tools[call.tool]
            rule = invocation_rule(call.tool, call.params, out, [c["name"] for c in tool["schema"]],
                                   tool.get("parameter_columns", {}),
                                   {p: [c["name"] for c in v.schema] for p, v in self.ctx.predicates.items()})
            if self.trace is not None:
                self.trace.invocation(call.tool, call.params, stage.index, rule, hashes)
        self.phase = "retrieve"
        return self.say(f"stage {stage.index}: " + ", ".join(f"{c} -> {r['output_predicate']} "
                                                             f"({r['facts']} facts)" for c, r in
                                                             zip(stage.calls, results, strict=True)))

    async def _invoke(self, call: Call) -> dict[str, Any]:
        if call.key in self.ctx.executed:
            self.ctx.refused.append(str(call))
            raise PlanningError(f"{call} was already invoked; it is never invoked twice")
        self.ctx.executed[call.key] = call
        self.ctx.event("invoke", call=str(call), stage=self.current.index if self.current else None)
        res = await self.client.call(call.tool, call.params)
        self.ctx.event("invoked", call=str(call), facts=res["facts"], cardinality=res["cardinality"])
        tool = self.ctx.tools[call.tool]
        view = self.ctx.predicates.get(res["output_predicate"])
        origin = "high" if call.level == "high" or (view and view.origin == "high") else "low"
        each = [v["each"] for v in call.params.values() if isinstance(v, dict) and "each" in v]
        self.ctx.predicates[res["output_predicate"]] = PredicateView(
            res["output_predicate"], origin, call.tool, res["cardinality"], res["schema"],
            dict(tool.get("parameter_columns", {})), each=sorted(set(each) | set(view.each if view else [])))
        return res

    async def _hashes(self, preds: list[str]) -> dict[str, tuple[int, str]]:
        out = {}
        for p in preds:
            d = await self.client.call("describe_predicate", {"predicate": p})
            out[p] = (d["cardinality"], d["content_hash"])
        return out

    async def _replan(self) -> str:
        ctx = self.ctx
        # (a composer that set its first tool aside for another, its rows holding nothing it needs, has that round
        # back: at most three)
        switched = min(3, sum(1 for e in ctx.events if e["kind"] == "compose_switch"))
        if ctx.iteration + 1 >= self.settings.max_iterations + switched:
            ctx.event("stop", reason="iteration limit", iteration=ctx.iteration)
            self.phase = "answer"
            return self.say(f"iteration limit ({self.settings.max_iterations}) reached: answering")
        proposed = await self.policy.replan(ctx, self.probe)
        fresh = []
        for call in proposed:
            if call.key in ctx.executed or any(call.key == c.key for c in fresh):
                ctx.refused.append(str(call))
                ctx.event("refused", call=str(call), reason="already invoked")
            elif call.tool in ctx.tools:
                fresh.append(call)
        if not fresh:
            self.phase = "answer"
            return self.say("no further invocations needed: answering")
        ctx.iteration += 1
        stages = await self._stages_for(fresh)
        if not stages:
            self.phase = "answer"
            return self.say("no further invocations needed: answering")
        self.pending = stages
        ctx.plan = Plan(stages=list(ctx.plan.stages) + stages)
        ctx.event("plan", iteration=ctx.iteration, stages=[[str(c) for c in s.calls] for s in stages])
        self.phase = "verify_plan"
        return self.say(f"replan (iteration {ctx.iteration}): " + " | ".join(", ".join(map(str, s.calls))
                                                                          for s in stages))

    async def _answer(self) -> str:
        self.answer_attempts += 1
        self.ctx.answer = await self.policy.answer(self.ctx)
        self.phase = "verify_answer"
        return self.say(f"answer: {self.ctx.answer}")

    # --- Verifier ---------------------------------------------------------------------------------------------------
    async def _verify_plan(self) -> str:
        params = {t: [p["name"] for p in spec["parameters"]] for t, spec in self.ctx.tools.items()}
        problems = check_plan(self.ctx.plan, self._deps.__getitem__, params, self._producers(),
                              materialized=self.ctx.predicates)
        self.ctx.event("verify_plan", problems=problems)
        if problems:
            raise PlanningError("the plan is unsound: " + "; ".join(problems))
        self.phase = "execute"
        return self.say("plan verified: complete, disjoint, dependency-ordered, predicate-safe")

    async def _verify_answer(self) -> str:
        answer = self.ctx.answer or ""
        problems = list(dict.fromkeys(
            verify.check_answer(answer, self.ctx) + verify.check_findings(answer, self.ctx)
            + verify.check_coverage(answer, self.ctx) + verify.check_denials(answer, self.ctx)
            + self._check_reading(answer)))
        self.ctx.event("verify_answer", problems=problems, checks=reading.outcomes(self.ctx))
        self.ctx.problems = problems
        if problems and self.answer_attempts < self.settings.max_answer_attempts:
            self.ctx.feedback = "; ".join(problems)
            self.phase = "answer"
            return self.say("answer refused: " + self.ctx.feedback)
        self.ctx.verified = not problems
        if problems:
            self.ctx.event("could_not_answer", answer=answer, problems=problems)
            self.ctx.answer = wording.refusal(problems, answer)
            self.ctx.answer_values = None
        self.phase = "done"
        return self.say("answer verified" if not problems else "could not answer: the answer was refused twice")

    def _check_reading(self, answer: str) -> list[str]:
        """The answer against what the question states; a question of several parts, each part against its own
        frame with its own values (the checks recorded per part)."""
        ctx = self.ctx
        if not ctx.part_frames or ctx.answer_parts is None or len(ctx.part_frames) != len(ctx.answer_parts):
            return verify.check_question(answer, ctx) + reading.check_reading(answer, ctx)
        problems, checks = [], []
        found_values = ctx.part_found if len(ctx.part_found) == len(ctx.answer_parts) else ctx.answer_parts
        for k, (part, values, text, composer) in enumerate(zip(ctx.part_frames, found_values, ctx.part_answers,
                                                               ctx.part_composers, strict=False), 1):
            with as_part(ctx, part, values, composer):
                found = verify.check_question(text, ctx) + reading.check_reading(text, ctx)
                checks += [{**c, "part": k} for c in reading.outcomes(ctx)]
            problems += [f"part {k} ({part.question!r}): {p}" for p in found]
        # (and against the whole question: what a later part's pronoun points back at)
        back = reading.check_pointing_back(ctx, list(ctx.part_composers))
        for k in range(2, len(ctx.part_frames) + 1):
            mine = [p for p in back if p.startswith(f"part {k} ")]
            checks.append({"check": "points back", "ok": not mine, "problems": mine, "part": k})
        ctx.checks = checks
        return problems + back

    # --- Retriever --------------------------------------------------------------------------------------------------
    async def _retrieve(self) -> str:
        stage = self.current
        assert stage is not None
        notes = []
        seen = set()
        for call in stage.calls:
            view = next((v for v in self.ctx.predicates.values() if v.tool == call.tool), None)
            if view is None or view.name in seen:
                continue
            seen.add(view.name)
            if view.origin == "high":
                notes.append(await self.retrieve(view))
        self.phase = "execute" if self.pending else "synthesize"
        return self.say("retrieved: " + ("; ".join(notes) if notes else "only cardinalities (low-level outputs)"))

    async def retrieve(self, view: PredicateView) -> str:
        """Read a small predicate whole; explore a large one with statistics and top-k queries."""
        card = await self.client.call("get_cardinality", {"predicate": view.name})
        view.cardinality = card["cardinality"]
        numeric = [c for c in view.typed("int", "float") if c not in view.param_columns]
        order = numeric[0] if numeric else None
        if view.cardinality <= self.settings.tau:
            res = await self.client.call("get_top_k", {"predicate": view.name, "k": max(1, view.cardinality),
                                                       "order_by": order})
            view.facts, view.complete, view.order_by = res["facts"], True, order
            self.ctx.event("retrieve", predicate=view.name, read="whole", facts=len(view.facts))
            return f"{view.name}: all {view.cardinality} facts"
        plan = await self.policy.retrieval(self.ctx, view, self.probe)
        for attr in plan.statistics:
            try:
                view.statistics[attr] = await self.client.call("get_statistics",
                                                               {"predicate": view.name, "attribute": attr})
            except ToolCallError as exc:
                self.ctx.event("retrieve_error", predicate=view.name, error=exc.message)
        facts: list[dict[str, Any]] = []
        for q in plan.top_k:
            args = {"predicate": view.name, **q.model_dump(exclude_none=True)}
            args["k"] = min(max(1, args.get("k", self.settings.top_k)), 1000)
            narrowing = ("filter_attr", "filter_value", "threshold_attr", "threshold_op", "threshold_value")
            try:
                try:
                    res = await self.client.call("get_top_k", args)
                except ToolCallError as exc:
                    if not any(k in args for k in narrowing):
                        raise
                    # a filter or threshold the predicate cannot take (a threshold on a string column)
                    self.ctx.event("retrieve_error", predicate=view.name, error=exc.message)
                    res = {"facts": []}
                narrowed = {k: args.pop(k) for k in narrowing if k in args}
                if not res["facts"] and narrowed:
                    # a filter or threshold that no fact meets says little: read the top facts without it
                    self.ctx.event("retrieve_widened", predicate=view.name, dropped=narrowed)
                    res = await self.client.call("get_top_k", args)
            except ToolCallError as exc:
                self.ctx.event("retrieve_error", predicate=view.name, error=exc.message)
                continue
            facts += [f for f in res["facts"] if f not in facts]
            view.order_by = view.order_by or q.order_by
        view.facts, view.complete = facts, False
        self.ctx.event("retrieve", predicate=view.name, read="explored", statistics=plan.statistics,
                       top_k=[q.model_dump(exclude_none=True) for q in plan.top_k], facts=len(facts))
        return f"{view.name}: {view.cardinality} facts, statistics on {', '.join(plan.statistics) or 'none'}, " \
               f"{len(facts)} top facts"

    # --- RuleSynthesizer --------------------------------------------------------------------------------------------
    async def _synthesize(self) -> str:
        # a policy may take more than one round: the second one reads what the first one derived
        done = []
        for _round in range(max(1, int(getattr(self.policy, "synthesis_rounds", 1)))):
            proposals = await self.policy.synthesize(self.ctx, self.probe)
            new = [out for proposal in proposals if (out := await self._run_rules(proposal)) is not None]
            done += new
            if not new:
                break
        self.phase = "replan"
        return self.say("synthesized: " + (", ".join(done) if done else "nothing needed"))

    async def _run_rules(self, proposal: RuleProposal) -> str | None:
        attempts = 0
        while True:
            attempts += 1
            problems = [proposal.problem] if proposal.problem else verify.lint_rules(proposal.program)
            error = "; ".join(problems) if problems else None
            if error is None:
                try:
                    await self.client.call("validate_program", {"program": proposal.program})
                    res = await self.client.call("run_program", {"program": proposal.program})
                except ToolCallError as exc:
                    error = exc.message
            if error is None:
                break
            self.ctx.event("rule_refused", purpose=proposal.purpose, program=proposal.program, error=error,
                           attempt=attempts)
            repaired = None if attempts > self.settings.max_repairs else \
                await self.policy.repair(self.ctx, proposal, error)
            if repaired is None:
                self.ctx.failed_rules.append({"purpose": proposal.purpose, "program": proposal.program,
                                              "error": error, "attempts": attempts})
                self.say(f"rules for {proposal.purpose!r} given up after {attempts} attempt(s): {error}")
                return None
            proposal = repaired
        defined = [d["predicate"] for d in res.get("defined", [])]
        hashes = await self._hashes(defined)
        if self.trace is not None:
            self.trace.manipulation(proposal.program, proposal.purpose, hashes)
        kind = proposal.kind or verify.rule_kind(proposal.program, res["output_predicate"])
        self.ctx.synthesized.append(Synthesized(proposal.program, proposal.purpose, res["output_predicate"], attempts,
                                                kind))
        for d in res.get("defined", []):
            self.ctx.predicates[d["predicate"]] = PredicateView(d["predicate"], "synthesized", None,
                                                                d["cardinality"], [])
        out = self.ctx.predicates[res["output_predicate"]]
        out.schema = res["schema"]
        await self.retrieve(out)
        self.ctx.event("synthesized", purpose=proposal.purpose, output=out.name, facts=out.cardinality)
        return f"{out.name} ({out.cardinality} facts: {proposal.purpose})"


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())
