"""Plans: tool invocations grouped in stages, and the four properties every plan must have.

- completeness: every dependency of every invocation is invoked in the plan (with the parameters it shares);
- disjointness: no invocation (tool + parameters) appears twice;
- dependency ordering: an invocation's dependencies run in earlier stages;
- predicate safety: one tool never runs twice in one stage (the two calls would write one predicate at once).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class Call(BaseModel):
    """One tool invocation."""

    model_config = ConfigDict(frozen=True)

    tool: str
    params: dict[str, Any] = Field(default_factory=dict)
    level: Literal["high", "low"] = "high"  # chosen for the question, or added as a dependency

    @property
    def key(self) -> str:
        return f"{self.tool}{json.dumps(self.params, sort_keys=True)}"

    @property
    def sources(self) -> list[str]:
        """Predicates a set-at-a-time call reads its parameter values from (``{"each": "pred.column"}``)."""
        return sorted({v["each"].split(".")[0] for v in self.params.values() if isinstance(v, dict) and "each" in v})

    def __str__(self) -> str:
        args = ", ".join(f"{k}={_arg(v)}" for k, v in self.params.items())
        return f"{self.tool}({args})"


def _arg(value: Any) -> str:
    """``'Bank Gamma'``, or ``each exposure.borrower[bank='Bank Gamma']`` for a set-at-a-time parameter."""
    if isinstance(value, dict) and "each" in value:
        where = ", ".join(f"{c}={v!r}" for c, v in (value.get("where") or {}).items())
        return f"each {value['each']}" + (f"[{where}]" if where else "")
    return repr(value)


class Stage(BaseModel):
    index: int
    iteration: int = 0
    calls: list[Call]


class Plan(BaseModel):
    stages: list[Stage] = Field(default_factory=list)

    @property
    def calls(self) -> list[Call]:
        return [c for s in self.stages for c in s.calls]


def expand(calls: Iterable[Call], deps: Callable[[str], list[str]], params_of: Callable[[str], list[str]],
           link: Callable[[str, str, Call], Any | None] | None = None) -> list[Call]:
    """The calls plus every dependency, recursively, as low-level calls.

    A dependency takes the parameters of the call that needs it by name; ``link(tool, param, parent)`` supplies any
    other (or returns None, which makes the dependency impossible to plan and raises ``ValueError``).
    """
    out: dict[str, Call] = {}

    def visit(call: Call) -> None:
        for dep in deps(call.tool):
            params = {}
            for p in params_of(dep):
                if p in call.params:
                    params[p] = call.params[p]
                elif link is not None and (v := link(dep, p, call)) is not None:
                    params[p] = v
                else:
                    raise ValueError(f"cannot plan {dep}, a dependency of {call}: no value for its parameter {p!r}")
            child = Call(tool=dep, params=params, level="low")
            if child.key not in out:
                visit(child)
                out.setdefault(child.key, child)
        out.setdefault(call.key, call)

    for c in calls:
        visit(c)
    # a call chosen for the question stays high-level even when another also needs it
    high = {c.key for c in calls}
    return [c if c.key not in high or c.level == "high" else c.model_copy(update={"level": "high"})
            for c in out.values()]


def needs(call: Call, deps: Callable[[str], list[str]], producers: Mapping[str, str] | None = None) -> list[str]:
    """The tools that must run before ``call``: its tool's dependencies and, for a set-at-a-time call, the tool that
    produces the predicate its parameter values come from."""
    out = list(deps(call.tool))
    for pred in call.sources:
        tool = (producers or {}).get(pred)
        if tool is not None and tool not in out and tool != call.tool:
            out.append(tool)
    return out


def build_stages(calls: list[Call], deps: Callable[[str], list[str]], *, first_index: int = 0,
                 iteration: int = 0, producers: Mapping[str, str] | None = None) -> list[Stage]:
    """Stages for ``calls``: each call in the first stage after every call of a tool it depends on (dependencies
    outside ``calls`` ran earlier), and after the producer of a predicate a set-at-a-time call reads; a second call of
    one tool waits for a later stage (predicate safety)."""
    pending = list(calls)
    stages: list[Stage] = []
    while pending:
        stage: list[Call] = []
        rest: list[Call] = []
        for call in pending:
            needed = set(needs(call, deps, producers))
            if any(c.tool in needed for c in pending) or any(c.tool == call.tool for c in stage):
                rest.append(call)
            else:
                stage.append(call)
        if not stage:
            raise ValueError("cannot order the calls: " + ", ".join(map(str, rest)))
        stages.append(Stage(index=first_index + len(stages), iteration=iteration, calls=stage))
        pending = rest
    return stages


def check_plan(plan: Plan, deps: Callable[[str], list[str]], params_of: Mapping[str, list[str]] | None = None,
               producers: Mapping[str, str] | None = None, materialized: Iterable[str] = ()) -> list[str]:
    """Every violation of the four properties, as sentences (empty when the plan is sound)."""
    problems: list[str] = []
    seen: dict[str, int] = {}
    ran_before: set[str] = set()
    for stage in plan.stages:
        tools_here: dict[str, Call] = {}
        for call in stage.calls:
            if call.key in seen:
                problems.append(f"disjointness: {call} is planned twice (stages {seen[call.key]} and {stage.index})")
            seen.setdefault(call.key, stage.index)
            if call.tool in tools_here:
                problems.append(f"predicate safety: {call} and {tools_here[call.tool]} share stage {stage.index}")
            tools_here[call.tool] = call
            for dep in needs(call, deps, producers):
                if dep not in ran_before:
                    where = [s.index for s in plan.stages for c in s.calls if c.tool == dep]
                    if where:
                        problems.append(f"dependency ordering: {call} in stage {stage.index} needs {dep}, "
                                        f"planned in stage {min(where)}")
                    else:
                        problems.append(f"completeness: {call} needs {dep}, which the plan never invokes")
            for pred in call.sources:
                if producers is not None and pred not in set(materialized) and producers.get(pred) is None:
                    problems.append(f"dependency ordering: {call} reads {pred!r}, which no earlier step materializes")
        ran_before |= set(tools_here)
    if params_of is not None:
        for call in plan.calls:
            expected = set(params_of.get(call.tool, []))
            if set(call.params) != expected:
                problems.append(f"parameters: {call} must give exactly {sorted(expected)}")
    return problems
