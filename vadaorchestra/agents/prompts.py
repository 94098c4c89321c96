"""The LLM policy's prompts: YAML data files next to the agents, rendered with a bounded view of the run context.

Every step sends two messages. The system message is ``common.yaml``'s ``system`` with the catalog (``$catalog``):
the same text for every step of a run, so that a local model reuses its cached prefix (the KV cache) from one step
to the next instead of reading the catalog again. The user message is the step's own text: its file
``prompts/<step>.yaml`` has

- ``task`` and ``user``: :class:`string.Template` texts (``$name`` placeholders, ``$$`` for a literal dollar),
  sent one after the other;
- ``sections``: which parts of the context the step sees (see :data:`SECTIONS`);
- ``agent``: the agent that takes the decision (for token accounting);
- ``defaults``: values of placeholders :func:`render` may not be given (``$candidates``, ``$predicate``, ...).

Every step's reply is one JSON object validated by a pydantic model (:data:`OUTPUTS`); its JSON schema fills
``$schema``. ``common.yaml`` also holds ``retry`` (sent after a reply that could not be parsed).

The context view is bounded by construction: at most :data:`MAX_FACTS` facts per predicate (retrieval already
bounded them), strings cut at :data:`MAX_STRING` characters, floats rounded. Its size depends on the catalog, the plan
and the retrieved facts, never on how many facts a predicate holds.
"""

from __future__ import annotations

import json
import math
import re
from functools import cache
from importlib import resources
from string import Template
from typing import Any, Literal

import yaml
from autogen_core.models import LLMMessage, SystemMessage, UserMessage
from pydantic import BaseModel, Field, field_validator

from vadaorchestra.agents.context import PredicateView, RunContext
from vadaorchestra.agents.policy import Retrieval
from vadaorchestra.agents.structured import RuleSpec, RuleSpecs
from vadaorchestra.errors import VadaError

STEPS = ("frame", "select", "retrieval", "synthesize", "choose", "repair", "replan", "answer", "phrase", "complete")
SECTIONS = ("question", "tools", "invoked", "predicates", "schemas", "answer_predicates", "synthesized",
            "failed_rules", "feedback")
MAX_FACTS = 10
MAX_STRING = 80
MAX_ERROR = 1500
MAX_PROGRAM = 600
FLOAT_DECIMALS = 4  # a rounded value still reads back within the precision the Verifier allows for it


# --- the structured outputs ------------------------------------------------------------------------------------------
class Arg(BaseModel):
    """One parameter of a call written as a pair (an accepted form of ``params``)."""

    name: str
    value: str | int | float | bool | None


class CallOut(BaseModel):
    tool: str = Field(description="A tool name from the catalog")
    params: dict[str, str | int | float | bool | None] = Field(
        default_factory=dict, description="Every declared parameter of the tool: name -> value")

    @field_validator("params", mode="before")
    @classmethod
    def _params_as_pairs(cls, value: Any) -> Any:
        """``[{"name": "bank_name", "value": "Bank Gamma"}]`` is accepted too; a name given twice is refused."""
        if isinstance(value, list):
            pairs = [Arg.model_validate(v) for v in value]
            names = [p.name for p in pairs]
            if len(set(names)) != len(names):
                raise ValueError(f"a parameter is given twice: {names}")
            return {p.name: p.value for p in pairs}
        return value


class Selection(BaseModel):
    """Tool invocations (of the menu by id, or of one's own), with parameters taken from the question."""

    use: list[str] = Field(default_factory=list, description="ids of menu invocations to make")
    calls: list[CallOut] = Field(default_factory=list)


class Replan(BaseModel):
    """Further tool invocations (of the menu by id, or of one's own); none when the question can be answered."""

    use: list[str] = Field(default_factory=list, description="ids of menu invocations to make")
    calls: list[CallOut] = Field(default_factory=list)


Proposals = RuleSpecs  # the synthesize step's reply: rules as structured objects


class Choice(BaseModel):
    """Rules of the menu to run, by id (the lean policy's rule decision when there is a menu)."""

    use: list[str] = Field(default_factory=list, description="ids of menu rules to run")


class AnswerOut(BaseModel):
    answer: str = Field(description="The answer, citing only facts shown in the context")
    values: list[str | int | float] | None = Field(
        default=None, description="The answer as bare values when the question asks for entities or a count, "
                                  "each a value of a fact shown; null otherwise")


class Completion(BaseModel):
    sentences: str = Field(description="The sentences that state the left-out findings, with their figures")


class FrameReading(BaseModel):
    """The question's reading where the parse left it open (the frame step; see prompts/frame.yaml)."""

    asks: Literal["list", "lookup", "count", "total", "share", "highest", "lowest", "limit"]
    column: str | None = Field(default=None, description="The output column the question asks about")
    items: int | None = Field(default=None, description="How many items are asked for, when the question says")
    chain: Literal["direct", "whole chain", "not said"] = "not said"
    words: dict[str, str] = Field(default_factory=dict, description="Each unplaced word -> the column or tool it "
                                                                    "names, or \"none\"")


OUTPUTS: dict[str, type[BaseModel]] = {"frame": FrameReading, "select": Selection, "retrieval": Retrieval, "synthesize": RuleSpecs,
                                       "choose": Choice, "repair": RuleSpec, "replan": Replan,
                                       "answer": AnswerOut, "phrase": AnswerOut, "complete": Completion}


def _untitled(schema: Any) -> Any:
    """``schema`` without the ``title`` keywords (field names under ``properties`` and ``$defs`` are kept)."""
    if isinstance(schema, dict):
        return {k: ({name: _untitled(d) for name, d in v.items()} if k in ("properties", "$defs") else _untitled(v))
                for k, v in schema.items() if not (k == "title" and isinstance(v, str))}
    if isinstance(schema, list):
        return [_untitled(v) for v in schema]
    return schema


@cache
def schema_text(model: type[BaseModel]) -> str:
    """The JSON schema of ``model``, compact and without pydantic's titles, for the prompt."""
    return json.dumps(_untitled(model.model_json_schema()), separators=(",", ":"))


@cache
def schema_outline(model: type[BaseModel]) -> str:
    """The shape of ``model``'s JSON: its keys, nesting and value types, without descriptions or constraints. What a
    prompt needs when the client decodes under the schema itself (a grammar, or structured output): the full schema
    of the rule step alone is about 600 tokens of the local model's tokenizer."""
    schema = model.model_json_schema()
    defs = schema.get("$defs", {})

    def shape(node: dict[str, Any]) -> Any:
        if "$ref" in node:
            return shape(defs[node["$ref"].rsplit("/", 1)[-1]])
        if "anyOf" in node:
            options = [o for o in node["anyOf"] if o.get("type") != "null"]
            shapes = [shape(o) for o in options]
            if len(shapes) == 1:
                return shapes[0]
            return "|".join(x if isinstance(x, str) else json.dumps(x, separators=(",", ":")) for x in shapes)
        match node.get("type"):
            case "object" if "properties" in node:
                return {k: shape(v) for k, v in node["properties"].items()}
            case "object":
                extra = node.get("additionalProperties")
                return {"name": shape(extra)} if isinstance(extra, dict) else {}
            case "array":
                return [shape(node.get("items", {}))]
            case str(t):
                return t
        return "any"

    return json.dumps(shape(schema), separators=(",", ":"))


class PromptError(VadaError):
    """A prompt file is missing, is not valid YAML, lacks a template, or names a placeholder nobody fills."""


@cache
def load(step: str) -> dict[str, Any]:
    """The prompt file of ``step`` (``select``, ``retrieval``, ... or ``common``) as a dict."""
    try:
        text = resources.files("vadaorchestra.agents").joinpath("prompts", f"{step}.yaml").read_text("utf-8")
    except FileNotFoundError:
        raise PromptError(f"no prompt file for step {step!r} (prompts/{step}.yaml; steps: {', '.join(STEPS)})") \
            from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise PromptError(f"prompts/{step}.yaml is not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise PromptError(f"prompts/{step}.yaml must hold a mapping")
    if step != "common":
        missing = [k for k in ("task", "user") if not isinstance(data.get(k), str)]
        if missing:
            raise PromptError(f"prompts/{step}.yaml lacks the template(s) {', '.join(missing)}")
        unknown = [s for s in data.get("sections", []) if s not in SECTIONS]
        if unknown:
            raise PromptError(f"prompts/{step}.yaml names unknown sections {unknown} (known: {', '.join(SECTIONS)})")
    return data


def agent_of(step: str) -> str:
    """The agent that takes the decision ``step`` (from its prompt file)."""
    return str(load(step).get("agent", "Planner"))


# --- the bounded view of the context ------------------------------------------------------------------------------------
def compact(value: Any, max_string: int = MAX_STRING) -> Any:
    """``value`` with long strings cut and floats rounded, recursively (lists and dicts are copied)."""
    if isinstance(value, bool) or value is None or isinstance(value, int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            return str(value)
        r = round(value, FLOAT_DECIMALS)
        return int(r) if r.is_integer() and abs(r) < 1e15 else r
    if isinstance(value, str):
        return value if len(value) <= max_string else value[: max_string - 1] + "…"
    if isinstance(value, dict):
        return {str(k): compact(v, max_string) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [compact(v, max_string) for v in value]
    return compact(str(value), max_string)


_EXAMPLE = re.compile(r"[,;(]?\s*\b(?:e\.g\.|for example|such as)[^.;)]*[.;)]?", re.IGNORECASE)


def without_examples(text: str) -> str:
    """``text`` without its "e.g. ..." examples: a small model copies them as if they were values of the data."""
    return _EXAMPLE.sub("", text).strip()


def tool_view(spec: dict[str, Any]) -> dict[str, Any]:
    """A ``list_tools`` entry as the model sees it."""
    return {
        "name": spec.get("name"),
        "description": compact(spec.get("description", ""), 400),
        "parameters": [{"name": p["name"], "type": p["type"],
                        "description": compact(without_examples(p.get("description", "")), 200)}
                       for p in spec.get("parameters", [])],
        "output_predicate": spec.get("output_predicate"),
        "schema": spec.get("schema", []),
        "parameter_columns": spec.get("parameter_columns", {}),
        "dependencies": spec.get("dependencies", []),
    }


def signature(name: str, schema: list[dict[str, str]]) -> str:
    """A predicate as the prompts name it: ``exposure(bank: string, borrower: string, amount: float)``."""
    return f"{name}(" + ", ".join(f"{c['name']}: {c['type']}" for c in schema) + ")"


def catalog_text(tools: dict[str, dict[str, Any]]) -> str:
    """The catalog as the system message shows it, one tool a paragraph (fewer tokens than JSON)::

        - get_x(bank_name: string): what the tool gives.
          output: pred(bank: string, borrower: string, amount: float); parameter bank_name is column bank
    """
    lines = []
    for spec in tools.values():
        v = tool_view(spec)
        params = ", ".join(f"{p['name']}: {p['type']}" for p in v["parameters"])
        lines.append(f"- {v['name']}({params}): {v['description']}")
        detail = f"  output: {signature(v['output_predicate'], v['schema'])}"
        if v["parameter_columns"]:
            detail += "; " + ", ".join(f"parameter {p} is column {c}" for c, p in v["parameter_columns"].items())
        if v["dependencies"]:
            detail += "; needs: " + ", ".join(v["dependencies"])
        lines.append(detail)
        described = [p for p in v["parameters"] if p["description"]]
        if described:
            lines.append("  " + "; ".join(f"{p['name']}: {p['description']}" for p in described))
    return "\n".join(lines) if lines else "(no tools)"


_STAT_KEPT = ("count", "distinct", "nulls", "min", "max", "mean")


def _statistics(stats: dict[str, Any]) -> dict[str, Any]:
    """One attribute's statistics as the model sees them: counts, range and mean; the most frequent values only
    where a value occurs more than once (a list of values of count 1 tells nothing and costs tokens)."""
    out = {k: compact(v) for k, v in stats.items() if k in _STAT_KEPT and v is not None}
    frequent = [f for f in stats.get("most_frequent") or [] if isinstance(f, dict) and (f.get("count") or 0) > 1]
    if frequent:
        out["most_frequent"] = {str(compact(f.get("value"))): f.get("count") for f in frequent}
    return out


def predicate_view(view: PredicateView, max_facts: int = MAX_FACTS) -> dict[str, Any]:
    """One predicate, compact: its signature (``name(column: type, ...)``, the schema once), origin, cardinality,
    statistics, and its first ``max_facts`` retrieved facts as rows in the signature's column order (not objects
    repeating every column name)."""
    out: dict[str, Any] = {
        "predicate": signature(view.name, view.schema),
        "origin": view.origin,
        "cardinality": view.cardinality,
    }
    if view.tool:
        out["tool"] = view.tool
    if view.param_columns:
        out["parameter_columns"] = view.param_columns
    if view.statistics:
        out["statistics"] = {a: _statistics(s) for a, s in view.statistics.items()}
    if view.facts or view.complete:
        shown = view.facts[:max_facts]
        out["facts"] = [compact([f.get(c) for c in view.columns]) for f in shown]
        if view.complete and len(shown) == len(view.facts):
            out["facts_note"] = "all facts"
        else:
            out["facts_note"] = (f"the first {len(shown)} facts retrieved"
                                 + (f", ordered by {view.order_by} descending" if view.order_by else "")
                                 + f" (of {view.cardinality})")
    return out


def context_view(ctx: RunContext, sections: tuple[str, ...] | list[str] = SECTIONS,
                 max_facts: int = MAX_FACTS) -> dict[str, Any]:
    """The parts of the run context named by ``sections``, bounded (empty parts are left out)."""
    out: dict[str, Any] = {}
    for section in sections:
        match section:
            case "question":
                out["question"] = ctx.question
            case "tools":
                out["tools"] = [tool_view(t) for t in ctx.tools.values()]
            case "invoked":
                out["invoked"] = [{"tool": c.tool, "params": compact(c.params), "level": c.level}
                                  for c in ctx.executed.values()]
            case "predicates":
                out["predicates"] = [predicate_view(v, max_facts) for v in ctx.predicates.values()]
            case "schemas":  # what a rule may read: signatures only, no facts or statistics
                out["predicates"] = [f"{signature(v.name, v.schema)}: {v.cardinality} facts, {v.origin}"
                                     for v in ctx.predicates.values()]
            case "answer_predicates":
                out["predicates"] = [predicate_view(v, max_facts) for v in ctx.answer_predicates()]
            case "synthesized":
                out["synthesized"] = [{"purpose": compact(s.purpose, 200), "output": s.output}
                                      for s in ctx.synthesized]
            case "failed_rules":
                out["failed_rules"] = [{"purpose": compact(f.get("purpose", ""), 200),
                                        "program": compact(f.get("program", ""), MAX_PROGRAM),
                                        "error": compact(f.get("error", ""), 300)} for f in ctx.failed_rules]
            case "feedback":
                if ctx.feedback:
                    out["feedback"] = compact(ctx.feedback, MAX_ERROR)
            case _:
                raise PromptError(f"unknown context section {section!r}")
    return {k: v for k, v in out.items() if v not in ([], {}, None, "")}


def to_json(value: Any) -> str:
    """Compact JSON, non-ASCII kept (fewer tokens than escapes)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def render(step: str, ctx: RunContext, *, max_facts: int = MAX_FACTS, sections: tuple[str, ...] | None = None,
           outline: bool = False, **extra: Any) -> list[LLMMessage]:
    """The system and user messages of ``step`` for ``ctx``.

    Placeholders: ``$question``, ``$context`` (the sections the prompt file names, or ``sections``, as JSON),
    ``$schema`` (the JSON schema of the step's output model, or with ``outline`` only its shape, for a client that
    decodes under the schema), the file's ``defaults``, and any keyword given in ``extra`` (strings as they are,
    anything else as compact JSON).
    """
    spec = load(step)
    values: dict[str, str] = {
        "question": ctx.question,
        "context": to_json(context_view(ctx, sections if sections is not None else spec.get("sections", SECTIONS),
                                        max_facts)),
        "catalog": catalog_text(ctx.tools),
        **({"schema": (schema_outline if outline else schema_text)(OUTPUTS[step])} if step in OUTPUTS else {}),
        **{str(k): str(v) for k, v in (spec.get("defaults") or {}).items()},
    }
    for key, value in extra.items():
        values[key] = value if isinstance(value, str) else to_json(value)

    def fill(source: dict[str, Any], which: str, name: str) -> str:
        try:
            return Template(source[which]).substitute(values).strip()
        except KeyError as exc:
            raise PromptError(f"prompts/{name}.yaml ({which}) needs ${exc.args[0]}, which render() was not given") \
                from None
        except ValueError as exc:
            raise PromptError(f"prompts/{name}.yaml ({which}): {exc} (write $$ for a literal dollar)") from None

    system = fill(load("common"), "system", "common")
    user = fill(spec, "task", step) + "\n\n" + fill(spec, "user", step)
    return [SystemMessage(content=system), UserMessage(content=user, source="user")]
