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
import re
from pathlib import Path
from string import Template
from typing import Any, TypeVar

import yaml
from autogen_core.models import AssistantMessage, ChatCompletionClient, CreateResult, LLMMessage, UserMessage
from pydantic import BaseModel, ValidationError

from vadaorchestra.agents import prompts
from vadaorchestra.agents.context import PredicateView, RunContext, ToolCallError
from vadaorchestra.agents.plan import Call
from vadaorchestra.agents.policy import Probe, Retrieval, RuleProposal, TopK
from vadaorchestra.agents.prompts import AnswerOut, Arg, CallOut, Proposals, Replan, Selection
from vadaorchestra.agents.tokens import TokenLedger, count_messages, count_tokens
from vadaorchestra.errors import VadaError

__all__ = ["AnswerOut", "Arg", "CallOut", "LLMPolicy", "LLMReplyError", "ModelConfigError", "Proposals", "Replan",
           "Selection", "load_model_client", "parse_reply", "read_model_config"]

M = TypeVar("M", bound=BaseModel)

MAX_STATISTICS = 3
MAX_TOP_K = 3
MAX_K = 20  # as the retrieval prompt says
MAX_NEW_CALLS = 5
CANDIDATES = 5  # data values per tool parameter shown to the model at selection
REPLY_START = 300  # characters of a bad reply quoted in the error


class LLMReplyError(VadaError):
    """The model's reply for a step could not be used, even after one retry."""


class ModelConfigError(VadaError):
    """A model-client configuration file is missing, unreadable, or names no loadable client."""


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


# --- model clients ----------------------------------------------------------------------------------------------------
def read_model_config(path: str | Path) -> dict[str, Any]:
    """The component config in ``path`` (JSON, or YAML for ``.yaml``/``.yml``), checked for ``provider``."""
    p = Path(path)
    if not p.is_file():
        raise ModelConfigError(f"model config {str(p)!r} not found")
    try:
        text = p.read_text("utf-8")
        data = yaml.safe_load(text) if p.suffix.lower() in (".yaml", ".yml") else json.loads(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, yaml.YAMLError) as exc:
        raise ModelConfigError(f"model config {str(p)!r} cannot be read: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("provider"), str):
        raise ModelConfigError(f"model config {str(p)!r} must be an AutoGen component config: an object with "
                               f"\"provider\" (e.g. \"autogen_ext.models.openai.OpenAIChatCompletionClient\") and "
                               f"\"config\"")
    return data


def load_model_client(path: str | Path) -> ChatCompletionClient:
    """Any ``ChatCompletionClient`` (OpenAI, Azure OpenAI, Ollama, an OpenAI-compatible server with ``base_url`` and
    ``model_info``, the replay client) from an AutoGen component-config file."""
    data = read_model_config(path)
    errors: tuple[type[BaseException], ...] = (ValueError, TypeError, ImportError, AttributeError, KeyError)
    try:
        from openai import OpenAIError  # a missing API key is raised when the client is built

        errors += (OpenAIError,)
    except ImportError:  # pragma: no cover - autogen-ext[openai] brings it
        pass
    try:
        client = ChatCompletionClient.load_component(data)
    except errors as exc:
        raise ModelConfigError(f"model config {str(path)!r}: cannot load {data['provider']!r}: {exc}") from None
    if not isinstance(client, ChatCompletionClient):
        raise ModelConfigError(f"model config {str(path)!r}: {data['provider']!r} is not a chat completion client")
    return client


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


class LLMPolicy:
    """The :class:`~vadaorchestra.agents.policy.Policy` whose decisions a chat model takes.

    ``model_client`` is any AutoGen ``ChatCompletionClient``; ``ledger`` receives the tokens of every call (one is
    made when not given); ``model_name`` picks tiktoken's encoding (the offline one when unknown); ``max_facts``
    bounds the facts shown per predicate.
    """

    name = "llm"

    def __init__(self, model_client: ChatCompletionClient, ledger: TokenLedger | None = None,
                 model_name: str | None = None, *, max_facts: int = prompts.MAX_FACTS):
        self.client = model_client
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
        info = getattr(self.client, "model_info", None) or {}
        if info.get("structured_output"):
            return output
        if info.get("json_output"):
            return True
        return None  # plain text: the prompt states the schema, the reply is parsed all the same

    def _account(self, step: str, messages: list[LLMMessage], result: CreateResult, reply: str, note: str) -> None:
        sent, received = count_messages(messages, self.model_name), count_tokens(reply, self.model_name)
        usage = result.usage
        if not result.cached and usage is not None and (usage.prompt_tokens or usage.completion_tokens):
            note = "; ".join(filter(None, [note, f"reported by the client (tiktoken: {sent} sent, {received} "
                                                 f"received)"]))
            sent, received = usage.prompt_tokens, usage.completion_tokens
        self.ledger.record(step, prompts.agent_of(step), sent, received, note)

    async def ask(self, step: str, output: type[M], messages: list[LLMMessage]) -> M:
        """One decision: call the model, validate the reply as ``output``; once more with the reason if it fails."""
        error, reply = "", ""
        for attempt in (1, 2):
            result = await self.client.create(messages, json_output=self._json_mode(output))
            reply = result.content if isinstance(result.content, str) else ""
            self._account(step, messages, result, reply, "" if attempt == 1 else "retry after an unusable reply")
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
        return prompts.render(step, ctx, max_facts=self.max_facts, **extra)

    # --- calls --------------------------------------------------------------------------------------------------------
    def _checked_calls(self, ctx: RunContext, outs: list[CallOut], step: str) -> list[Call]:
        """The calls that name a catalog tool with exactly its parameters, of the declared types; the others are
        dropped with a ``call_dropped`` event saying why."""
        calls: dict[str, Call] = {}
        for out in outs:
            shown = f"{out.tool}({', '.join(f'{a.name}={a.value!r}' for a in out.params)})"
            reason = None
            spec = ctx.tools.get(out.tool)
            params: dict[str, Any] = {}
            if spec is None:
                reason = f"unknown tool {out.tool!r}"
            else:
                declared = {p["name"]: p["type"] for p in spec.get("parameters", [])}
                names = [a.name for a in out.params]
                if sorted(names) != sorted(declared) or len(set(names)) != len(names):
                    reason = f"parameters {sorted(names)} given, {sorted(declared)} declared"
                else:
                    for a in out.params:
                        ok, value = _coerce(a.value, declared[a.name])
                        if not ok:
                            reason = f"parameter {a.name!r}: {value}"
                            break
                        params[a.name] = self._spelling(out.tool, a.name, value)
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
        """Tools relevant to the question, with parameters the model took from it (checked against the catalog)."""
        self._candidates = await self._lookup_candidates(ctx, probe)
        out = await self.ask("select", Selection, self.render("select", ctx, candidates=self._candidates or
                                                              "(none found)"))
        calls = self._checked_calls(ctx, out.calls, "select")
        ctx.event("select", policy=self.name, chosen=[str(c) for c in calls])
        return calls

    async def retrieval(self, ctx: RunContext, view: PredicateView, probe: Probe) -> Retrieval:
        """Statistics attributes and top-k queries, restricted to the predicate's columns (a top-k by the first
        measure when none is usable)."""
        out = await self.ask("retrieval", Retrieval,
                             self.render("retrieval", ctx, predicate=prompts.predicate_view(view, self.max_facts)))
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

    async def synthesize(self, ctx: RunContext, probe: Probe) -> list[RuleProposal]:
        """New rule programs; a proposal whose output predicate exists already, or repeats one, is dropped."""
        out = await self.ask("synthesize", Proposals, self.render("synthesize", ctx))
        seen = {s.program.strip() for s in ctx.synthesized} | {f.get("program", "").strip() for f in ctx.failed_rules}
        keep = []
        for p in out.rules:
            reason = None
            if not p.program.strip():
                reason = "empty program"
            elif p.output in ctx.predicates:
                reason = f"its output {p.output!r} already exists"
            elif p.program.strip() in seen:
                reason = "proposed before"
            if reason is not None:
                ctx.event("rule_dropped", purpose=p.purpose, output=p.output, reason=reason)
                continue
            seen.add(p.program.strip())
            keep.append(p)
        return keep

    async def repair(self, ctx: RunContext, proposal: RuleProposal, error: str) -> RuleProposal | None:
        """A corrected proposal, or None when the model gives up, repeats the refused program, or cannot be
        understood (the rule is then reported as failed)."""
        messages = self.render("repair", ctx, proposal=proposal.model_dump(),
                               error=error[: prompts.MAX_ERROR])
        try:
            fixed = await self.ask("repair", RuleProposal, messages)
        except LLMReplyError as exc:
            ctx.event("repair_failed", purpose=proposal.purpose, reason=exc.message)
            return None
        if not fixed.program.strip() or fixed.program.strip() == proposal.program.strip():
            ctx.event("repair_failed", purpose=proposal.purpose,
                      reason="the model gave up" if not fixed.program.strip() else "the same program again")
            return None
        return fixed

    async def replan(self, ctx: RunContext, probe: Probe) -> list[Call]:
        """Further invocations the model asks for (never one already made; at most :data:`MAX_NEW_CALLS`)."""
        out = await self.ask("replan", Replan, self.render("replan", ctx))
        calls = []
        for call in self._checked_calls(ctx, out.calls, "replan"):
            if call.key in ctx.executed:
                ctx.event("call_dropped", step="replan", call=str(call), reason="already invoked")
            elif len(calls) < MAX_NEW_CALLS:
                calls.append(call)
        ctx.event("replan", policy=self.name, chosen=[str(c) for c in calls])
        return calls

    async def answer(self, ctx: RunContext) -> str:
        """The answer, from the facts of high-level and synthesized predicates shown to the model."""
        previous = ""
        if ctx.feedback and ctx.answer:
            previous = Template(prompts.load("answer")["previous"]).substitute(answer=ctx.answer)
        out = await self.ask("answer", AnswerOut, self.render("answer", ctx, previous=previous))
        ctx.answer_values = out.values
        return out.answer.strip()
