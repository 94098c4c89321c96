"""The LLM policy: each decision of the :class:`~vadaorchestra.agents.policy.Policy` is one model call.

A decision renders its prompt (``prompts/<step>.yaml`` over a bounded view of the run context), asks any AutoGen
``ChatCompletionClient`` for one JSON object (structured output when the model supports it, JSON mode else, plain
text otherwise), validates it with the step's pydantic model, and checks it against the catalog before anything is
invoked. A reply that does not parse is asked for once more, with the reason; a second failure is a
:class:`LLMReplyError` naming the step. Every call's tokens go to a :class:`~vadaorchestra.agents.tokens.TokenLedger`.

:func:`load_model_client` builds the client from an AutoGen component-config file (JSON or YAML), e.g.::

    {"provider": "autogen_ext.models.openai.OpenAIChatCompletionClient", "config": {"model": "gpt-4o-mini"}}
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Awaitable
from pathlib import Path
from string import Template
from typing import Any, TypeVar

from autogen_core.models import AssistantMessage, ChatCompletionClient, CreateResult, LLMMessage, UserMessage
from pydantic import BaseModel, ValidationError

from vadaorchestra.agents import prompts, wording
from vadaorchestra.agents.context import PredicateView, RunContext, ToolCallError
from vadaorchestra.agents.models import ModelConfigError, json_output_for, load_model_client, read_model_config
from vadaorchestra.agents.plan import Call
from vadaorchestra.agents.policy import Probe, Retrieval, RuleProposal, TopK
from vadaorchestra.agents.prompts import AnswerOut, Arg, CallOut, Choice, Completion, Proposals, Replan, Selection
from vadaorchestra.agents.question import frame
from vadaorchestra.agents.structured import (
    RuleSpec,
    RuleSpecError,
    RuleSpecs,
    answer_model,
    calls_model,
    choice_model,
    fact_values,
    frame_model,
    render_rule,
    retrieval_model,
    rules_model,
)
from vadaorchestra.agents.tokens import TokenLedger, count_messages, count_tokens
from vadaorchestra.agents.verify import check_findings, findings
from vadaorchestra.errors import VadaError

__all__ = ["AnswerOut", "Arg", "CallOut", "LLMPolicy", "LLMReplyError", "ModelConfigError", "Proposals", "Replan",
           "Selection", "load_model_client", "parse_reply", "read_model_config"]

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")

MAX_STATISTICS = 3
MAX_TOP_K = 3
MAX_K = 20  # as the retrieval prompt says
MAX_NEW_CALLS = 5
ANSWER_FACTS = 50  # facts per predicate whose values an answer may name (the retrieval bound tau)
CANDIDATES = 5  # data values per tool parameter shown to the model at selection
REPLY_START = 300  # characters of a bad reply quoted in the error


class LLMReplyError(VadaError):
    """The model's reply for a step could not be used, even after one retry."""


# --- replies ----------------------------------------------------------------------------------------------------------
_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)


def json_text(reply: str) -> str:
    """The JSON object in ``reply``: the content of a ```json fence, else from the first ``{`` to the last ``}``."""
    text = reply.strip()
    if m := _FENCE.search(text):
        text = m.group(1).strip()
    if not text.startswith("{") and "{" in text and "}" in text:
        text = text[text.index("{"): text.rindex("}") + 1]
    return text


def _why(exc: ValidationError) -> str:
    parts = []
    for e in exc.errors(include_url=False)[:4]:
        where = ".".join(str(x) for x in e.get("loc", ())) or "the reply"
        parts.append(f"{where}: {e.get('msg', 'invalid')}")
    more = exc.error_count() - len(parts)
    return "; ".join(parts) + (f" (and {more} more)" if more > 0 else "")


def parse_reply(reply: str, model: type[M]) -> M:
    """``reply`` validated as ``model`` (a fenced block or surrounding prose tolerated); raises ``ValueError`` with a
    short reason."""
    try:
        return model.model_validate_json(json_text(reply))
    except ValidationError as exc:
        raise ValueError(_why(exc)) from None


# --- the policy -------------------------------------------------------------------------------------------------------
def _coerce(value: Any, typ: str) -> tuple[bool, Any]:
    """``value`` as a parameter of type ``typ`` (numbers written as strings are accepted), or (False, reason)."""
    match typ:
        case "string":
            if isinstance(value, str):
                return True, value
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return True, str(value)
        case "int":
            if isinstance(value, int) and not isinstance(value, bool):
                return True, value
            if isinstance(value, float) and value.is_integer():
                return True, int(value)
            if isinstance(value, str) and re.fullmatch(r"\s*-?\d+\s*", value):
                return True, int(value)
        case "float":
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return True, value
            if isinstance(value, str):
                try:
                    return True, float(value)
                except ValueError:
                    pass
        case "bool":
            if isinstance(value, bool):
                return True, value
            if isinstance(value, str) and value.lower() in ("true", "false"):
                return True, value.lower() == "true"
        case _:
            return value is not None, value
    return False, f"{value!r} is not a {typ}"


def _without_dependencies(ctx: RunContext, calls: list[Call]) -> list[Call]:
    """``calls`` less those whose tool another chosen call depends on (directly or not): the question needs the
    tool that builds on it, and dependency completion invokes it as a low-level call all the same."""
    def deps(tool: str, seen: set[str]) -> set[str]:
        for d in ctx.tools.get(tool, {}).get("dependencies", []):
            if d not in seen:
                seen.add(d)
                deps(d, seen)
        return seen

    needed = set().union(*(deps(c.tool, set()) for c in calls)) if calls else set()
    kept = [c for c in calls if c.tool not in needed]
    dropped = [str(c) for c in calls if c.tool in needed]
    if dropped:
        ctx.event("select_dependencies", dropped=dropped, reason="a dependency of another chosen tool: low-level")
    return kept


def _findings_left_out(ctx: RunContext, draft: str, answer: str) -> list[str]:
    """Lines of the draft naming an entity of a threshold check's findings that the answer does not name."""
    names = {n for _view, _fact, found in findings(ctx) for n in found}
    missing = {n for n in names if n.lower() not in answer.lower()}
    return [ln for ln in draft.splitlines() if any(n in ln for n in missing)]


def _completing_expansions(ctx: RunContext, menu: dict[str, RuleProposal]) -> list[RuleProposal]:
    """Menu rules that read the output of a set-at-a-time expansion (ownership of every borrower), and the menu rules
    that read theirs: an expansion over a whole column is made for the check over it, and the 1.5B model, shown its
    statistics rather than its facts, left that check out (Bank Gamma, measured: "use": [] with the group chain on
    the menu)."""
    expansions = [v.name for v in ctx.predicates.values() if v.each]
    reads = [p for p in menu.values() if any(re.search(rf"\b{re.escape(e)}\(", p.program) for e in expansions)]
    out = list(reads)
    changed = True
    while changed:
        changed = False
        for p in menu.values():
            if p not in out and any(re.search(rf"\b{re.escape(q.output)}\(", p.program) for q in out):
                out.append(p)
                changed = True
    order = list(menu.values())
    if out:
        ctx.event("rules_completing_expansions", added=[p.output for p in out])
    return sorted(out, key=order.index)


def _references(ctx: RunContext, calls: list[Call]) -> list[Call]:
    """For a question that asks for a check (a limit, a risk, the largest), the tools that take exactly the same
    parameters with the same values as a chosen call and are no dependency of it: the reference data of the check
    (a bank's capital and limit next to its exposures)."""
    if not calls or not frame.of(ctx).analysis:
        return []
    chosen = {c.tool for c in calls}
    needed = {d for c in calls for d in ctx.tools.get(c.tool, {}).get("dependencies", [])}
    added: list[Call] = []
    for c in calls:
        for tool, spec in ctx.tools.items():
            names = sorted(p["name"] for p in spec.get("parameters", []))
            if tool in chosen or tool in needed or not names or names != sorted(c.params):
                continue
            call = Call(tool=tool, params=dict(c.params), level="high")
            if call.key not in {a.key for a in added}:
                added.append(call)
    if added:
        ctx.event("select_references", added=[str(a) for a in added],
                  reason="same parameters as a chosen tool, for a question that asks for a check")
    return added


class LLMPolicy:
    """The :class:`~vadaorchestra.agents.policy.Policy` whose decisions a chat model takes.

    ``model_client`` is any AutoGen ``ChatCompletionClient``; ``ledger`` receives the tokens of every call (one is
    made when not given); ``model_name`` picks tiktoken's encoding (the offline one when unknown); ``max_facts``
    bounds the facts shown per predicate.
    """

    name = "llm"

    synthesis_rounds = 2  # a second round may build on the first one's predicates (a total, then its share)

    def __init__(self, model_client: ChatCompletionClient, ledger: TokenLedger | None = None,
                 model_name: str | None = None, *, max_facts: int = prompts.MAX_FACTS, strict: bool = True,
                 scaffold: bool = True, lean: bool = True):
        from vadaorchestra.agents.offline import OfflinePolicy

        self.client = model_client
        self.strict = strict
        # deterministic scaffolding where a small model is weakest: reference data of a check selected with the
        # tool it checks, and a menu of rules derived from the schemas (the offline policy's templates) to choose from
        self.scaffold = scaffold
        # lean (with the scaffold): the model takes only the decisions the rules leave open — which tools, which
        # rules, and the answer's wording from the rules' draft; retrieval follows the statistics rules and further
        # invocations the frame's expansions (a model call is asked for them only when the rules have none)
        self.lean = lean and scaffold
        self.templates = OfflinePolicy()
        self._synthesized_in: int | None = None
        # the frame composed the whole plan (one query, or a group limit): the run takes no model decision
        self.composed = False
        self.ledger = ledger if ledger is not None else TokenLedger()
        self.model_name = model_name
        self.max_facts = max_facts
        self._candidates: dict[str, dict[str, list[Any]]] = {}

    @classmethod
    def from_config(cls, path: str | Path, ledger: TokenLedger | None = None, **kwargs: Any) -> LLMPolicy:
        """The policy over the client of a component-config file (its ``config.model`` names the encoding)."""
        client = load_model_client(path)
        config = read_model_config(path).get("config")
        model = config.get("model") if isinstance(config, dict) else None
        return cls(client, ledger, kwargs.pop("model_name", None) or model, **kwargs)

    # --- one model call -------------------------------------------------------------------------------------------
    def _json_mode(self, output: type[BaseModel]) -> bool | type[BaseModel] | None:
        return json_output_for(self.client, output if self.strict else None)

    def _account(self, step: str, messages: list[LLMMessage], result: CreateResult, reply: str, note: str,
                 seconds: float = 0.0) -> None:
        sent, received = count_messages(messages, self.model_name), count_tokens(reply, self.model_name)
        usage = result.usage
        if not result.cached and usage is not None and (usage.prompt_tokens or usage.completion_tokens):
            note = "; ".join(filter(None, [note, f"reported by the client (tiktoken: {sent} sent, {received} "
                                                 f"received)"]))
            sent, received = usage.prompt_tokens, usage.completion_tokens
        last = getattr(self.client, "last_call", None)  # a client reporting its cache reuse (LocalLlamaClient)
        evaluated = last.get("evaluated_tokens") if isinstance(last, dict) and not result.cached else None
        self.ledger.record(step, prompts.agent_of(step), sent, received, note, seconds=seconds,
                           retry=note.startswith("retry"), reply=reply, evaluated=evaluated)
        if log := os.environ.get("VADA_MODEL_LOG"):  # every call as it happens, for watching a slow model
            with open(log, "a", encoding="utf-8") as fh:
                fh.write(json.dumps({"step": step, "seconds": round(seconds, 2), "sent": sent, "received": received,
                                     "evaluated": evaluated, "note": note, "reply": reply, "prompt": messages[-1].content[-3000:]
                                     if isinstance(messages[-1].content, str) else ""}, ensure_ascii=False) + "\n")

    async def ask(self, step: str, output: type[M], messages: list[LLMMessage],
                  strict: type[BaseModel] | None = None) -> M:
        """One decision: call the model, validate the reply as ``output``; once more with the reason if it fails.

        ``strict`` is the run's schema of the reply (:mod:`~vadaorchestra.agents.structured`): what a client with
        structured output decodes under. The reply is parsed with the lenient ``output`` all the same.
        """
        error, reply = "", ""
        for attempt in (1, 2):
            started = time.perf_counter()
            result = await self.client.create(messages, json_output=self._json_mode(strict or output))
            reply = result.content if isinstance(result.content, str) else ""
            self._account(step, messages, result, reply, "" if attempt == 1 else "retry after an unusable reply",
                          time.perf_counter() - started)
            if not isinstance(result.content, str):
                error = "the reply is a function call, not a JSON object"
            else:
                try:
                    return parse_reply(reply, output)
                except ValueError as exc:
                    error = str(exc)
            retry = Template(prompts.load("common")["retry"]).substitute(error=error).strip()
            messages = [*messages, AssistantMessage(content=reply or "(no text)", source="assistant"),
                        UserMessage(content=retry, source="user")]
        start = reply[:REPLY_START] + ("…" if len(reply) > REPLY_START else "")
        raise LLMReplyError(f"the model's reply for step {step!r} is not a valid {output.__name__} after 2 "
                            f"attempts: {error}; the reply starts: {start!r}")

    def render(self, step: str, ctx: RunContext, **extra: Any) -> list[LLMMessage]:
        """The step's messages; the reply's schema written out only for a client that does not decode under it."""
        structured = isinstance(self._json_mode(prompts.OUTPUTS[step]), type)
        return prompts.render(step, ctx, max_facts=self.max_facts, outline=structured, **extra)

    # --- calls --------------------------------------------------------------------------------------------------------
    def _checked_calls(self, ctx: RunContext, outs: list[CallOut], step: str) -> list[Call]:
        """The calls that name a catalog tool with exactly its parameters, of the declared types; the others are
        dropped with a ``call_dropped`` event saying why."""
        calls: dict[str, Call] = {}
        for out in outs:
            shown = f"{out.tool}({', '.join(f'{k}={v!r}' for k, v in out.params.items())})"
            reason = None
            spec = ctx.tools.get(out.tool)
            params: dict[str, Any] = {}
            if spec is None:
                reason = f"unknown tool {out.tool!r}"
            else:
                declared = {p["name"]: p["type"] for p in spec.get("parameters", [])}
                names = list(out.params)
                if sorted(names) != sorted(declared):
                    reason = f"parameters {sorted(names)} given, {sorted(declared)} declared"
                else:
                    for name, raw in out.params.items():
                        ok, value = _coerce(raw, declared[name])
                        if not ok:
                            reason = f"parameter {name!r}: {value}"
                            break
                        params[name] = self._spelling(out.tool, name, value)
            if reason is not None:
                ctx.event("call_dropped", step=step, call=shown, reason=reason)
                continue
            call = Call(tool=out.tool, params=params, level="high")
            calls.setdefault(call.key, call)
        return list(calls.values())

    def _spelling(self, tool: str, param: str, value: Any) -> Any:
        """The data's spelling of a value the model wrote with another case (from the selection's candidates)."""
        if isinstance(value, str):
            for c in self._candidates.get(tool, {}).get(param, []):
                if isinstance(c, str) and c.lower() == value.strip().lower():
                    return c
        return value

    async def _lookup_candidates(self, ctx: RunContext, probe: Probe) -> dict[str, dict[str, list[Any]]]:
        """Per tool and parameter, the data values the question names (what ``lookup_values`` finds exactly)."""
        out: dict[str, dict[str, list[Any]]] = {}
        for tool, spec in ctx.tools.items():
            for p in spec.get("parameters", []):
                try:
                    matches = await probe.lookup(tool, p["name"], ctx.question, limit=CANDIDATES)
                except ToolCallError as exc:
                    ctx.event("lookup_error", tool=tool, parameter=p["name"], error=exc.message)
                    continue
                exact = [m["value"] for m in matches if m.get("exact")][:CANDIDATES]
                if exact:
                    out.setdefault(tool, {})[p["name"]] = exact
        return out

    # --- the Policy ---------------------------------------------------------------------------------------------------
    async def select(self, ctx: RunContext, probe: Probe) -> list[Call]:
        """Tools relevant to the question, with parameters the model took from it (checked against the catalog).

        Decoded under a schema of the tools whose string parameters all have a value the question names (found by
        ``lookup_values``), each parameter one of those values; every tool with free values when none has."""
        menu: dict[str, Call] = {}
        if self.scaffold:  # the templates' own reading of the question (a two-hop chain first), as a menu
            found = await self._templates_select(ctx, probe)
            if (not found or self.templates.composer.query is None) and frame.incomplete(frame.of(ctx)):
                # the parse left the question open: the model fills the same frame, which the composer then takes
                ctx.frame = await self._read(ctx)
                found = await self._templates_select(ctx, probe)
            if found and self.templates.composer.query is not None:
                # the question's frame composes one query (or a group limit) over the catalog: every decision has
                # one answer, so none is asked of the model — the rules write the plan, the rules and the answer
                self.composed = True
                ctx.event("select", policy=self.name, chosen=[str(c) for c in found], composed=True)
                return found
            menu = {f"c{i}": c for i, c in enumerate(found, 1)}
        self._candidates = await self._lookup_candidates(ctx, probe)
        strict = calls_model(ctx.tools, self._candidates, name="Selection", menu=list(menu)) or \
            calls_model(ctx.tools, {}, require_values=False, name="Selection", menu=list(menu))
        shown = [{"id": k, "call": str(c)} for k, c in menu.items()]
        out = await self.ask("select", Selection, self.render("select", ctx, candidates=self._candidates or
                                                              "(none found)", menu=shown or "(none)"), strict)
        picked = [menu[k] for k in dict.fromkeys(out.use) if k in menu]
        calls = picked + [c for c in self._checked_calls(ctx, out.calls, "select")
                          if c.key not in {p.key for p in picked}]
        calls = _without_dependencies(ctx, calls)
        if self.scaffold:
            calls += _references(ctx, calls)
        ctx.event("select", policy=self.name, chosen=[str(c) for c in calls])
        return calls

    async def _templates_select(self, ctx: RunContext, probe: Probe) -> list[Call]:
        from vadaorchestra.agents.offline import OfflinePolicy

        self.templates = OfflinePolicy()
        return await self.templates.select(RunContext(question=ctx.question, tools=ctx.tools, frame=ctx.frame), probe)

    async def _read(self, ctx: RunContext) -> frame.QuestionFrame:
        """The frame step: the model reads what the parse left open, under a schema of the catalog's names."""
        fr = frame.of(ctx)
        read = {k: v for k, v in fr.to_json().items() if v not in (None, [], (), "")}
        strict = frame_model(ctx.tools, fr.unplaced)
        out = await self.ask("frame", prompts.FrameReading, self.render("frame", ctx, read=read,
                                                                         unplaced=list(fr.unplaced) or "(none)"), strict)
        filled = frame.with_reading(fr, out)
        ctx.event("frame_read", policy=self.name, reading=out.model_dump(), frame=filled.to_json())
        return filled

    async def _by_rules(self, ctx: RunContext, step: Awaitable[T]) -> T | None:
        """A step of the composed query; when the query does not fit the data after all (a
        :class:`~vadaorchestra.agents.question.compose.ComposeError`), the model takes the run's remaining decisions."""
        from vadaorchestra.agents.question.compose import ComposeError

        try:
            return await step
        except ComposeError as exc:
            self.composed = False
            ctx.event("compose_failed", policy=self.name, reason=exc.message)
            return None

    async def retrieval(self, ctx: RunContext, view: PredicateView, probe: Probe) -> Retrieval:
        """Statistics attributes and top-k queries, restricted to the predicate's columns (a top-k by the first
        measure when none is usable)."""
        if (self.composed or self.lean) and \
                (done := await self._by_rules(ctx, self.templates.retrieval(ctx, view, probe))) is not None:
            return done
        out = await self.ask("retrieval", Retrieval,
                             self.render("retrieval", ctx, predicate=prompts.predicate_view(view, self.max_facts)),
                             retrieval_model(view))
        columns = set(view.columns)
        stats = list(dict.fromkeys(a for a in out.statistics if a in columns))[:MAX_STATISTICS]
        dropped = [a for a in out.statistics if a not in columns]
        top: list[TopK] = []
        for q in out.top_k:
            bad = [f"{f}={getattr(q, f)!r}" for f in ("order_by", "filter_attr", "threshold_attr")
                   if getattr(q, f) is not None and getattr(q, f) not in columns]
            if bad:
                dropped.append("top_k with " + ", ".join(bad))
            elif len(top) < MAX_TOP_K:
                top.append(q.model_copy(update={"k": min(max(q.k, 1), MAX_K)}))
        if not top:
            numeric = [c for c in view.typed("int", "float") if c not in view.param_columns]
            top = [TopK(order_by=numeric[0] if numeric else None, k=10)]
        if dropped:
            ctx.event("retrieval_dropped", predicate=view.name, reason="not columns of the predicate",
                      dropped=dropped)
        return Retrieval(statistics=stats, top_k=top)

    def _readable(self, ctx: RunContext) -> list[PredicateView]:
        return [v for v in ctx.predicates.values() if v.schema]

    def _proposal(self, ctx: RunContext, spec: RuleSpec) -> RuleProposal:
        """The program of a structured rule, or a proposal whose ``problem`` says why it cannot be written."""
        views = {v.name: v for v in self._readable(ctx)}
        try:
            proposal = render_rule(spec, views, set(ctx.predicates) | set(ctx.tools))
        except RuleSpecError as exc:
            return RuleProposal(program="", purpose=spec.purpose or f"compute {spec.predicate}",
                                output=spec.predicate, spec=spec.model_dump(), problem=str(exc))
        return proposal.model_copy(update={"spec": spec.model_dump()})

    async def _menu(self, ctx: RunContext, probe: Probe) -> dict[str, RuleProposal]:
        """Rules derived from the schemas and the question (the offline policy's templates), by id."""
        if not self.scaffold:
            return {}
        found = [p for p in await self.templates.synthesize(ctx, probe) if p.output not in ctx.predicates]
        return {f"r{i}": p for i, p in enumerate(found, 1)}

    async def synthesize(self, ctx: RunContext, probe: Probe) -> list[RuleProposal]:
        """New rules: rules of a menu derived from the schemas (chosen by id), and rules the model writes as
        structured objects over the workspace's predicates (written as programs by
        :func:`~vadaorchestra.agents.structured.render_rule`); a proposal whose output predicate exists already, or
        repeats one, is dropped."""
        readable = self._readable(ctx)
        if not readable:
            return []
        if self.composed and (done := await self._by_rules(ctx, self.templates.synthesize(ctx, probe))) is not None:
            return [p for p in done if p.output not in ctx.predicates]
        menu = await self._menu(ctx, probe)
        again = self._synthesized_in == ctx.iteration  # a further round of the same iteration
        self._synthesized_in = ctx.iteration
        if again and not menu:
            return []  # nothing new to choose from: a small model asked to write a rule unprompted rarely helps
        forced = _completing_expansions(ctx, menu) if self.scaffold else []
        if self.lean and menu and len(forced) == len(menu):
            # every menu rule completes an expansion and is run whatever the model says: one possible answer
            ctx.event("synthesize", policy=self.name, by_rules=True, reason="every menu rule completes an expansion")
            out = RuleSpecs()
        else:
            shown = [{"id": k, "purpose": p.purpose, "output": p.output,
                      "rule": p.program.split("\n")[-1][: prompts.MAX_PROGRAM]} for k, p in menu.items()]
            if self.lean and menu:  # lean: with a menu, only which of its rules (see prompts/choose.yaml)
                picked = await self.ask("choose", Choice, self.render("choose", ctx, menu=shown),
                                        choice_model(list(menu)))
                out = RuleSpecs(use=picked.use)
            else:
                # lean: a rule reads predicates by their schemas; the facts and statistics are the answer's business
                sections = ("schemas", "synthesized", "failed_rules") if self.lean else None
                out = await self.ask("synthesize", RuleSpecs,
                                     self.render("synthesize", ctx, menu=shown or "(none)", sections=sections),
                                     rules_model(readable, menu=list(menu)))
        chosen: list[RuleProposal] = []
        for key in out.use:
            if key not in menu:
                ctx.event("rule_dropped", purpose=key, output="", reason=f"no menu rule {key!r}")
                continue
            # a menu rule that reads another menu rule's output needs that one first
            for dep in menu.values():
                if dep is not menu[key] and re.search(rf"\b{re.escape(dep.output)}\(", menu[key].program) and \
                        dep not in chosen:
                    chosen.append(dep)
            if menu[key] not in chosen:
                chosen.append(menu[key])
        chosen += [p for p in forced if p not in chosen]
        if chosen:
            ctx.event("rules_from_menu", chosen=[p.output for p in chosen])
        seen = {s.program.strip() for s in ctx.synthesized} | {f.get("program", "").strip() for f in ctx.failed_rules}
        keep = []
        for p in chosen + [self._proposal(ctx, spec) for spec in out.rules]:
            reason = None
            if p.output in ctx.predicates:
                reason = f"its output {p.output!r} already exists"
            elif p.program and p.program.strip() in seen:
                reason = "proposed before"
            elif p.output in {k.output for k in keep}:
                reason = "a second rule for the same predicate in one reply"
            if reason is not None:
                ctx.event("rule_dropped", purpose=p.purpose, output=p.output, reason=reason)
                continue
            seen.add(p.program.strip())
            keep.append(p)
        return keep

    async def repair(self, ctx: RunContext, proposal: RuleProposal, error: str) -> RuleProposal | None:
        """A corrected rule, or None when the model cannot be understood or repeats the refused rule (the rule is
        then reported as failed)."""
        shown = proposal.spec if proposal.spec is not None else {"program": proposal.program}
        messages = self.render("repair", ctx, proposal=shown, error=error[: prompts.MAX_ERROR])
        try:
            fixed = await self.ask("repair", RuleSpec, messages, rules_model(self._readable(ctx), single=True))
        except LLMReplyError as exc:
            ctx.event("repair_failed", purpose=proposal.purpose, reason=exc.message)
            return None
        if proposal.spec is not None and fixed.model_dump() == RuleSpec.model_validate(proposal.spec).model_dump():
            ctx.event("repair_failed", purpose=proposal.purpose, reason="the same rule again")
            return None
        return self._proposal(ctx, fixed)

    def _fact_strings(self, ctx: RunContext) -> list[Any]:
        values = [v for v in fact_values(list(ctx.predicates.values()), self.max_facts) if isinstance(v, str)]
        for per_tool in self._candidates.values():
            for vals in per_tool.values():
                values.extend(vals)
        return list(dict.fromkeys(values))

    async def replan(self, ctx: RunContext, probe: Probe) -> list[Call]:
        """Further invocations the model asks for (never one already made; at most :data:`MAX_NEW_CALLS`): of a
        menu (the entities of the largest facts through the tools that take them, as the offline policy expands
        them) by id, or of its own, with string parameters drawn from the values of the facts and the question."""
        menu: dict[str, Call] = {}
        if self.composed and (done := await self._by_rules(ctx, self.templates.replan(ctx, probe))) is not None:
            return [c for c in done if c.key not in ctx.executed]
        if self.scaffold:
            found = [c for c in await self.templates.replan(ctx, probe) if c.key not in ctx.executed]
            menu = {f"c{i}": c for i, c in enumerate(found, 1)}
            if self.lean and (found or ctx.iteration > 0):
                # the frame's expansions are the plan's next stage; with none after the first expansion, the
                # frame leaves no work (measured on Bank Gamma: the model took all three menu calls, then, asked
                # again with nothing on the menu, replied "use": [] after 5,436 evaluated tokens)
                ctx.event("replan", policy=self.name, chosen=[str(c) for c in found], by_rules=True)
                return found
        strict = calls_model(ctx.tools, {}, self._fact_strings(ctx), name="Replan", menu=list(menu))
        shown = [{"id": k, "call": str(c)} for k, c in menu.items()]
        out = await self.ask("replan", Replan, self.render("replan", ctx, menu=shown or "(none)"), strict)
        picked = [menu[k] for k in dict.fromkeys(out.use) if k in menu]
        calls = []
        for call in picked + self._checked_calls(ctx, out.calls, "replan"):
            if call.key in ctx.executed:
                ctx.event("call_dropped", step="replan", call=str(call), reason="already invoked")
            elif len(calls) < MAX_NEW_CALLS + len(picked) and call.key not in {c.key for c in calls}:
                calls.append(call)
        ctx.event("replan", policy=self.name, chosen=[str(c) for c in calls], from_menu=[str(c) for c in picked])
        return calls

    async def answer(self, ctx: RunContext) -> str:
        """The answer, from the facts of high-level and synthesized predicates shown to the model; its ``values``
        are decoded as values of those facts."""
        if self.composed and (done := await self._by_rules(ctx, self.templates.answer(ctx))) is not None:
            return done  # the composed query's answer, as its rules word it
        if ctx.feedback and ctx.answer and (completed := await self._complete(ctx)):
            return completed
        if self.lean:
            return await self._phrase(ctx)
        previous = ""
        if ctx.feedback and ctx.answer:
            previous = Template(prompts.load("answer")["previous"]).substitute(answer=ctx.answer)
        draft = "(none)"
        if self.scaffold:  # the facts as rules word them (the offline policy's answer), for the model to check
            draft, _values = await self._draft(ctx)
        # the values may be those of every fact retrieved (the draft lists them all), not only of those shown
        strict = answer_model(fact_values(ctx.answer_predicates(), ANSWER_FACTS))
        if previous and (left_out := _findings_left_out(ctx, draft, ctx.answer or "")):
            # measured on Bank Gamma: told only that its answer "omits" a finding, the 1.5B model sent the same answer
            # again; shown the sentence of the draft that states it, it has something to copy
            previous += "\nIt left out these findings of the DRAFT; state them with their figures:\n" + \
                "\n".join(left_out)
        out = await self.ask("answer", AnswerOut, self.render("answer", ctx, previous=previous, draft=draft), strict)
        ctx.answer_values = out.values
        return wording.plain(ctx, out.answer.strip())

    async def _phrase(self, ctx: RunContext) -> str:
        """The lean answer: the rules' draft phrased by the model. The names and figures are the rules'; so are the
        values of a list or a count when the rules set them (the model is then asked for the text alone), else the
        model's, for a question that asks for things or a count."""
        draft, computed = await self._draft(ctx)
        previous = ""
        if ctx.feedback and ctx.answer:
            previous = Template(prompts.load("phrase")["previous"]).substitute(
                answer=ctx.answer, feedback=prompts.compact(ctx.feedback, prompts.MAX_ERROR))
        fr = frame.of(ctx)
        asks = computed is None and (fr.who or fr.count)
        strict = answer_model(fact_values(ctx.answer_predicates(), ANSWER_FACTS) if asks else None)
        # the draft's lines that state what a threshold check found: measured on Bank Gamma, the 1.5B model shown only
        # the draft wrote "the group check shows a breach" without its group, and a second call had to add it
        must = _findings_left_out(ctx, draft, "")
        rest = "\n".join(ln for ln in draft.splitlines() if ln not in must) or "(none)"
        out = await self.ask("phrase", AnswerOut, self.render("phrase", ctx, draft=rest, previous=previous,
                                                              findings="\n".join(must) or "(none)"), strict)
        ctx.answer_values = computed if computed is not None else (out.values if asks else None)
        return wording.plain(ctx, out.answer.strip())

    async def _draft(self, ctx: RunContext) -> tuple[str, list[Any] | None]:
        """The offline policy's answer as the draft the model is shown, and the answer values it computed (None when
        it set none); the run's answer values stay as they are."""
        kept = ctx.answer_values
        ctx.answer_values = None
        try:
            return await self.templates.answer(ctx), ctx.answer_values
        finally:
            ctx.answer_values = kept

    async def _complete(self, ctx: RunContext) -> str | None:
        """A refused answer whose only fault is that it leaves findings out, completed by the model's sentences that
        state them (shown the draft's lines of those findings); None when it has other faults or no draft line.
        The completed answer goes to the Verifier like any other."""
        answer = ctx.answer or ""
        omissions = check_findings(answer, ctx)
        if not self.scaffold or not omissions or not set(ctx.problems) <= set(omissions):
            return None
        left_out = _findings_left_out(ctx, (await self._draft(ctx))[0], answer)
        if not left_out:
            return None
        out = await self.ask("complete", Completion,
                             self.render("complete", ctx, answer=answer, findings="\n".join(left_out)))
        ctx.event("answer_completed", added=out.sentences, findings=left_out)
        added = out.sentences.strip()
        said = answer.rstrip()
        said += "" if not said or said[-1] in ".!?" else "."  # the sentence the model left open ends before the next
        return f"{said} {added[:1].upper()}{added[1:]}"
