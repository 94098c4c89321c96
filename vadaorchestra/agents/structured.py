"""What a model may reply, per step and per run: strict JSON schemas built from the catalog and the workspace, and
rules as structured objects that our code writes as Datalog.

A small model copies, misspells and invents. Each step's reply is therefore decoded under a schema that admits only
what the run has: the catalog's tool names with exactly their parameters, parameter values that occur in the question
or in the facts retrieved, the workspace's predicates with exactly their columns, and answer values that are values
of the facts shown. A client that supports structured output (the local llama.cpp client decodes under a grammar
built from the schema; OpenAI's strict mode) cannot produce anything else. Replies are still parsed with the lenient
models of :mod:`vadaorchestra.agents.prompts` and checked against the catalog, so a client without structured
output gets the same checks and the same events.

Rules are not written as text by the model. A :class:`RuleSpec` names the new predicate and its columns, the body
atoms with a term per column (by column name, so no arity or column order can be wrong), conditions, assignments and
at most one aggregate; :func:`render_rule` writes the program. It names every column the model left open with a
fresh variable when the rule sums or averages (the set-semantics pitfall cannot arise), gives the output a ``@mapping``
with the types taken from the columns the variables are bound to, and writes constants with the printer's escaping,
so that no text of the model reaches the program unparsed. The server validates and runs it as any synthesized rule.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from vadaorchestra.agents.context import PredicateView
from vadaorchestra.agents.policy import RuleProposal
from vadaorchestra.datalog.printer import format_const

OPS = (">", ">=", "<", "<=", "==", "!=")
AGGREGATES = ("sum", "count", "min", "max", "avg")
VAR = r"[A-Z][A-Za-z0-9_]*"
TERM_PATTERN = r'^([A-Z][A-Za-z0-9_]*|_|-?[0-9]+([.][0-9]+)?|"[^"]*")$'
EXPR_PATTERN = r'^[A-Za-z0-9_ .+*/()-]+$'
NAME_PATTERN = r"^[a-z][a-z0-9_]*$"
MAX_ENUM = 400  # values an enum may list; past it the field is a plain string
# list lengths a reply may have: a small model left free repeats itself until its token limit
MAX_CALLS = 5
MAX_RULES = 3
MAX_ATOMS = 4
MAX_CONDITIONS = 4
MAX_COLUMNS = 6
MAX_VALUES = 60


def _list(item: Any, most: int) -> Any:
    from typing import Annotated

    return Annotated[list[item], Field(max_length=most)]  # type: ignore[valid-type]


# --- the lenient shapes (what is parsed, whatever the client) ------------------------------------------------------------
class AtomSpec(BaseModel):
    """One body atom: a predicate of the context and a term for each of its columns, by column name."""

    predicate: str
    args: dict[str, str | int | float] = Field(default_factory=dict, description=(
        "column name -> term: a variable (Capitalized, e.g. X or Amount), _ (any value), a number, or a string "
        "constant in double quotes"))
    negated: bool = False


class Condition(BaseModel):
    left: str
    op: Literal[">", ">=", "<", "<=", "==", "!="]
    right: str | int | float


class Assignment(BaseModel):
    var: str
    expr: str = Field(description="arithmetic over bound variables and numbers: + - * / ( )")


class AggregateSpec(BaseModel):
    var: str = Field(description="the variable that holds the result (a head column)")
    func: Literal["sum", "count", "min", "max", "avg"]
    of: str = Field(description="the variable aggregated (for count: the variable whose values are counted)")


class HeadColumn(BaseModel):
    name: str = Field(description="a lower_case column name")
    var: str = Field(description="the variable of the body that fills the column")


class RuleSpec(BaseModel):
    """One rule: a new predicate, its columns, and how they are derived."""

    purpose: str = Field(default="", description="one line: what the rule computes and why the question needs it")
    predicate: str = Field(description="a new lower_case predicate name")
    columns: list[HeadColumn]
    body: list[AtomSpec]
    conditions: list[Condition] = Field(default_factory=list)
    assignments: list[Assignment] = Field(default_factory=list)
    aggregate: AggregateSpec | None = None


class RuleSpecs(BaseModel):
    """New rules: rules of the menu by id (``use``), and rules of one's own; none when the tool outputs already
    answer the question."""

    use: list[str] = Field(default_factory=list, description="ids of menu rules to run")
    rules: list[RuleSpec] = Field(default_factory=list)


# --- strict shapes, per run --------------------------------------------------------------------------------------------
_STRICT = ConfigDict(extra="forbid")


def _enum(values: list[Any]) -> Any:
    """``Literal[values]`` (deduplicated, order kept), or None when there are none or too many."""
    vals = list(dict.fromkeys(v for v in values if isinstance(v, (str, int, float)) and not isinstance(v, bool)))
    if not vals or len(vals) > MAX_ENUM:
        return None
    return Literal[tuple(vals)]  # type: ignore[valid-type]


def _model_name(prefix: str, name: str) -> str:
    return prefix + "_" + re.sub(r"\W", "_", name)


_PY = {"string": str, "int": int, "float": float, "bool": bool}


def calls_model(tools: dict[str, dict[str, Any]], values: dict[str, dict[str, list[Any]]],
                default_values: list[Any] | None = None, *, require_values: bool = True, name: str = "Calls",
                menu: list[str] | None = None) -> type[BaseModel] | None:
    """``{"calls": [...]}`` where each call is one of the tools with exactly its parameters (and, given a
    ``menu``, ``{"use": [ids of the menu], "calls": [...]}``).

    ``values[tool][param]`` lists the values a string parameter may take (``default_values`` for parameters not in
    it). With ``require_values`` a tool whose string parameter has no value to take is left out. None when no tool
    is left.
    """
    options = []
    for tool, spec in tools.items():
        fields: dict[str, Any] = {}
        feasible = True
        for p in spec.get("parameters", []):
            typ = _PY.get(p["type"], str)
            if typ is str:
                allowed = values.get(tool, {}).get(p["name"]) or default_values or []
                enum = _enum(allowed)
                if enum is None and require_values:
                    feasible = False
                    break
                fields[p["name"]] = (enum if enum is not None else str, ...)
            else:
                fields[p["name"]] = (typ, ...)
        if not feasible:
            continue
        params = create_model(_model_name("Params", tool), __config__=_STRICT, **fields)
        options.append(create_model(_model_name("Call", tool), __config__=_STRICT,
                                    tool=(Literal[tool], ...), params=(params, ...)))  # type: ignore[valid-type]
    if not options:
        return None
    union = options[0] if len(options) == 1 else _union(options)
    if menu is not None:
        ids = _enum(list(menu))
        return create_model(name, __config__=_STRICT,
                            use=(_list(ids, len(menu)) if ids is not None else _list(str, 0), ...),
                            calls=(_list(union, MAX_CALLS), ...))
    return create_model(name, __config__=_STRICT, calls=(_list(union, MAX_CALLS), ...))


def _union(options: list[Any]) -> Any:
    from typing import Union

    return Union[tuple(options)]  # noqa: UP007 - built at run time


def retrieval_model(view: PredicateView) -> type[BaseModel]:
    """Statistics attributes and top-k queries over the columns of ``view`` only (not those that hold the tool's
    parameters: they are the same in every fact)."""
    fixed = set(view.param_columns)  # column -> the parameter it holds
    cols = [c for c in view.columns if c not in fixed] or list(view.columns)
    numeric = [c for c in view.typed("int", "float") if c not in fixed] or cols
    col = Literal[tuple(cols)]  # type: ignore[valid-type]
    num = Literal[tuple(numeric)]  # type: ignore[valid-type]
    topk = create_model(
        "TopKQuery", __config__=_STRICT,
        order_by=(num | None, ...), descending=(bool, ...), k=(int, ...),
        filter_attr=(col | None, ...), filter_value=(str | int | float | None, ...),
        threshold_attr=(num | None, ...), threshold_op=(Literal[OPS] | None, ...),  # type: ignore[valid-type]
        threshold_value=(float | None, ...))
    return create_model("RetrievalPlan", __config__=_STRICT, statistics=(_list(col, 3), ...),
                        top_k=(_list(topk, 3), ...))


def _term() -> Any:
    from typing import Annotated

    return Annotated[str, Field(pattern=TERM_PATTERN)]


def rules_model(views: list[PredicateView], *, single: bool = False, menu: list[str] = ()) -> type[BaseModel]:
    """:class:`RuleSpecs` (or one :class:`RuleSpec` with ``single``) whose body atoms name only the predicates of
    ``views``, each with exactly its columns, and whose ``use`` names only ids of ``menu``."""
    from typing import Annotated

    term = _term()
    expr = Annotated[str, Field(pattern=EXPR_PATTERN)]
    var = Annotated[str, Field(pattern=f"^{VAR}$")]
    atoms = []
    for v in views:
        if not v.schema:
            continue
        args = create_model(_model_name("Args", v.name), __config__=_STRICT,
                            **{c: (term, ...) for c in v.columns})
        atoms.append(create_model(_model_name("Atom", v.name), __config__=_STRICT,
                                  predicate=(Literal[v.name], ...), args=(args, ...),  # type: ignore[valid-type]
                                  negated=(bool, ...)))
    atom = atoms[0] if len(atoms) == 1 else _union(atoms)
    cond = create_model("ConditionS", __config__=_STRICT, left=(expr, ...),
                        op=(Literal[OPS], ...), right=(expr, ...))  # type: ignore[valid-type]
    assign = create_model("AssignmentS", __config__=_STRICT, var=(var, ...), expr=(expr, ...))
    agg = create_model("AggregateS", __config__=_STRICT, var=(var, ...),
                       func=(Literal[AGGREGATES], ...), of=(var, ...))  # type: ignore[valid-type]
    head = create_model("HeadColumnS", __config__=_STRICT,
                        name=(Annotated[str, Field(pattern=NAME_PATTERN)], ...), var=(var, ...))
    rule = create_model("RuleS", __config__=_STRICT, purpose=(str, ...),
                        predicate=(Annotated[str, Field(pattern=NAME_PATTERN)], ...),
                        columns=(_list(head, MAX_COLUMNS), ...), body=(_list(atom, MAX_ATOMS), ...),
                        conditions=(_list(cond, MAX_CONDITIONS), ...), assignments=(_list(assign, MAX_CONDITIONS), ...),
                        aggregate=(agg | None, ...))
    if single:
        return rule
    return create_model("RulesS", __config__=_STRICT, use=(_menu_ids(menu), ...), rules=(_list(rule, MAX_RULES), ...))


def choice_model(menu: list[str]) -> type[BaseModel]:
    """:class:`~vadaorchestra.agents.prompts.Choice` whose ``use`` names only ids of ``menu``."""
    return create_model("ChoiceS", __config__=_STRICT, use=(_menu_ids(menu), ...))


def _menu_ids(menu: list[str]) -> Any:
    """A list of at most :data:`MAX_RULES` ids of ``menu`` (an empty list when there is no menu)."""
    ids = _enum(list(menu))
    return _list(ids, MAX_RULES) if ids is not None else _list(str, 0)


def answer_model(values: list[Any] | None) -> type[BaseModel]:
    """The answer text, and its bare values drawn from ``values`` (the values of the facts shown); with ``values``
    None, the text alone (``values`` is null)."""
    if values is None:
        return create_model("AnswerS", __config__=_STRICT, answer=(str, ...), values=(None, ...))
    enum = _enum(values)
    item = enum if enum is not None else (str | int | float)
    return create_model("AnswerS", __config__=_STRICT, answer=(str, ...),
                        values=(_list(item, MAX_VALUES) | None, ...))


def fact_values(views: list[PredicateView], max_facts: int) -> list[Any]:
    """The values of the facts shown of ``views`` (the first ``max_facts`` of each), strings and numbers."""
    out: list[Any] = []
    for v in views:
        for fact in v.facts[:max_facts]:
            for value in fact.values():
                if isinstance(value, float) and value.is_integer():
                    value = int(value)
                if isinstance(value, (str, int, float)) and not isinstance(value, bool):
                    out.append(value)
    return list(dict.fromkeys(out))


# --- rules as Datalog ----------------------------------------------------------------------------------------------------
class RuleSpecError(ValueError):
    """A rule spec that cannot be written as a program (the message says what to change)."""


_VAR_RE = re.compile(f"^{VAR}$")
_NUM_RE = re.compile(r"^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$")
_EXPR_RE = re.compile(EXPR_PATTERN)
_FUNCS = {"abs", "round", "floor", "ceil"}


def _term_text(term: Any, used: set[str]) -> str:
    """A term as program text: a variable, ``_``, a number, or a string constant (escaped by the printer)."""
    if isinstance(term, bool):
        return format_const(term)
    if isinstance(term, (int, float)):
        return format_const(term)
    t = str(term).strip()
    if t == "_" or t == "":
        return "_"
    if _VAR_RE.match(t):
        used.add(t)
        return t
    if _NUM_RE.match(t):
        return format_const(float(t) if any(c in t for c in ".eE") else int(t))
    if len(t) >= 2 and t[0] == t[-1] == '"':
        t = t[1:-1]
    return format_const(t)


def _expr_text(expr: Any, used: set[str]) -> str:
    if isinstance(expr, (int, float)) and not isinstance(expr, bool):
        return format_const(expr)
    e = str(expr).strip()
    if len(e) >= 2 and e[0] == e[-1] == '"' and '"' not in e[1:-1]:
        return format_const(e[1:-1])
    if not _EXPR_RE.match(e):
        raise RuleSpecError(f"expression {e!r} may hold only variables, numbers, + - * / and parentheses")
    for word in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", e):
        if word[0].isupper():
            used.add(word)
        elif word not in _FUNCS:
            raise RuleSpecError(f"expression {e!r}: {word!r} is not a variable (variables are Capitalized) nor one "
                                f"of the functions {', '.join(sorted(_FUNCS))}")
    return e


def render_rule(spec: RuleSpec, views: dict[str, PredicateView], taken: set[str]) -> RuleProposal:
    """The program of ``spec`` (with its ``@output`` and ``@mapping``s), as a :class:`RuleProposal`.

    ``views`` are the predicates a body may read (their schemas give the column names and types); ``taken`` the
    names already defined. Raises :class:`RuleSpecError` saying what to change.
    """
    name = spec.predicate.strip()
    if not re.fullmatch(NAME_PATTERN, name):
        raise RuleSpecError(f"predicate name {name!r} must be lower_case letters, digits and _")
    if name in taken or name.lower() in {t.lower() for t in taken}:
        raise RuleSpecError(f"predicate {name!r} exists already: choose a new name")
    if not spec.body or not any(not a.negated for a in spec.body):
        raise RuleSpecError("the body needs at least one positive atom")
    if not spec.columns:
        raise RuleSpecError("the new predicate needs at least one column")
    used: set[str] = set()
    var_types: dict[str, str] = {}
    atoms: list[str] = []
    fresh = 0
    for atom in spec.body:
        view = views.get(atom.predicate)
        if view is None or not view.schema:
            raise RuleSpecError(f"unknown predicate {atom.predicate!r}; the body may read: "
                                f"{', '.join(sorted(v for v in views if views[v].schema))}")
        unknown = [c for c in atom.args if c not in view.columns]
        if unknown:
            raise RuleSpecError(f"{atom.predicate} has no column {', '.join(map(repr, unknown))}; its columns: "
                                f"{', '.join(view.columns)}")
        terms = []
        for col in view.schema:
            raw = atom.args.get(col["name"], "_")
            text = _term_text(raw, used)
            if text == "_" and spec.aggregate is not None and spec.aggregate.func in ("sum", "avg") and \
                    not atom.negated:
                # name it: a sum ranges over distinct bindings, so an open column must still tell rows apart (a
                # count of X counts distinct X, which is what counting means: its open columns stay anonymous)
                fresh += 1
                text = f"V_{col['name'].title().replace('_', '')}_{fresh}"
            if _VAR_RE.match(text) and not atom.negated:
                var_types.setdefault(text, col["type"])
            terms.append(text)
        atoms.append(("not " if atom.negated else "") + f"{atom.predicate}({', '.join(terms)})")
    bound = {v for v in var_types}
    literals = list(atoms)
    for c in spec.conditions:
        literals.append(f"{_expr_text(c.left, used)} {c.op} {_expr_text(c.right, used)}")
    for a in spec.assignments:
        if not _VAR_RE.match(a.var):
            raise RuleSpecError(f"assignment variable {a.var!r} must be Capitalized")
        literals.append(f"{a.var} = {_expr_text(a.expr, used)}")
        var_types.setdefault(a.var, "float")
        bound.add(a.var)
    if spec.aggregate is not None:
        g = spec.aggregate
        if not _VAR_RE.match(g.var) or not _VAR_RE.match(g.of):
            raise RuleSpecError("the aggregate's var and of must be Capitalized variables")
        if g.of not in bound:
            raise RuleSpecError(f"the aggregate's variable {g.of!r} is bound by no body atom or assignment")
        of_type = var_types.get(g.of, "float")
        var_types[g.var] = "int" if g.func == "count" else ("float" if g.func == "avg" else of_type)
        literals.append(f"{g.var} = {g.func}({g.of})")
        bound.add(g.var)
    head_vars = []
    mappings = []
    names: set[str] = set()
    for i, col in enumerate(spec.columns):
        if not _VAR_RE.match(col.var):
            raise RuleSpecError(f"column {col.name!r}: {col.var!r} is not a variable (Capitalized)")
        if col.var not in bound:
            raise RuleSpecError(f"column {col.name!r}: variable {col.var!r} is bound by no positive atom, "
                                f"assignment or aggregate of the body")
        cname = re.sub(r"\W", "_", col.name.strip().lower()) or f"c{i}"
        if cname in names:
            cname = f"{cname}_{i}"
        names.add(cname)
        head_vars.append(col.var)
        mappings.append(f'@mapping({format_const(name)}, {i}, {format_const(cname)}, '
                        f'{format_const(var_types.get(col.var, "string"))}).')
    if spec.aggregate is not None and spec.aggregate.var not in head_vars:
        raise RuleSpecError(f"the aggregate's result {spec.aggregate.var!r} must be a column of {name!r}")
    program = "\n".join([f"@output({format_const(name)}).", *mappings,
                         f"{name}({', '.join(head_vars)}) :- {', '.join(literals)}."])
    return RuleProposal(program=program, purpose=spec.purpose.strip() or f"compute {name}", output=name)



def frame_model(tools: dict[str, dict[str, Any]], unplaced: tuple[str, ...]) -> type[BaseModel]:
    """The frame step's reply (:class:`~vadaorchestra.agents.prompts.FrameReading`) with the catalog's own names:
    ``column`` one of the tools' output columns, each unplaced word a column, a tool or "none"."""
    columns = sorted({c["name"] for spec in tools.values() for c in spec.get("schema", [])})
    names = columns + sorted(tools) + ["none"]
    column = _enum(columns)
    target = _enum(names)
    words = create_model("FrameWords", __config__=_STRICT,
                         **{w: (target if target is not None else str, ...) for w in unplaced})
    return create_model(
        "FrameReading", __config__=_STRICT,
        asks=(Literal["list", "lookup", "count", "total", "share", "highest", "lowest", "limit"], ...),
        column=((column if column is not None else str) | None, ...), items=(int | None, ...),
        chain=(Literal["direct", "whole chain", "not said"], ...), words=(words, ...))
