"""Entity linking: which values of the base data a catalog tool's parameter is matched against, and which of them a
question names.

A parameter is *linked* to a base-data column when the tool's program compares it with that column by joining: it
stands at position ``i`` of a body atom of predicate ``p`` (or is equated with a variable that does), and

- ``p`` is bound with ``@bind`` in that program: the column is (that bind, ``i``);
- ``p`` is defined by rules of that program, or is the output predicate of a dependency tool: the columns are those the
  defining rules' heads draw position ``i`` from (a ``$q`` parameter there is followed into ``q``, a variable into the
  body atoms that bind it), recursively.

A parameter in a fact (``tree($account, 1).``, where a walk starts) is linked to the columns the rules defining that
predicate draw the position from. A parameter that is only compared (``X > $min``) is linked to nothing. :func:`linked_columns` computes this statically
from the catalog's ASTs. :class:`Linker` reads the distinct values of the linked columns through the Datalog layer (a
small AST program holding the same ``@bind`` and ``@mapping`` annotations, evaluated in memory, never in a workspace),
caches them (base data do not change while a server runs) and matches them against a question's text: whole-word
occurrences first (longest first), else the closest values by difflib similarity, flagged ``"exact": false``.
"""

from __future__ import annotations

import bisect
import difflib
import heapq
import math
import re
import threading
import time
from array import array
from collections import Counter
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from vadaorchestra.datalog import ast as A
from vadaorchestra.datalog.api import format_value, run
from vadaorchestra.errors import WorkspaceError
from vadaorchestra.mcp_server.catalog import Catalog, ToolSpec

MAX_LIMIT = 100
MAX_TEXT = 2000  # characters: a question, not a document
MAX_NGRAM_TOKENS = 16  # longest value, in tokens, that can match a text span exactly
FUZZY_CUTOFF = 0.6  # difflib ratio a value needs to be proposed as a close match
FUZZY_POOL = 50  # values (by shared trigrams) that difflib compares with the text
NUMERIC = ("int", "float")
VALUES_PRED = "vo_values"
# a column whose values are kinds of things (asset type, unit type, sector, rating): declared with
# @role(pred, column, "category") on a tool's output column of the same name, or few values repeated over many rows
CATEGORY_MAX = 50  # distinct values at most
CATEGORY_REPEAT = 3  # rows per distinct value at least

_TOKEN = re.compile(r"\w+|[^\w\s]")
_WORD = re.compile(r"\w+")
_NUMBER = re.compile(
    r"(?<![\w.])([-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?|[-+]?\.\d+)"
    r"(?:\s*(thousand|million|billion|bn|mn|k|m|b)\b)?(?![\w])", re.IGNORECASE)
_SCALE = {"thousand": 1e3, "k": 1e3, "million": 1e6, "mn": 1e6, "m": 1e6, "billion": 1e9, "bn": 1e9, "b": 1e9}


# --- which columns: static, from the catalog's programs ----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class LinkedColumn:
    """Column ``index`` of the base predicate ``pred``, bound by ``bind`` (with ``mappings``) in ``tool``'s program."""

    tool: str
    pred: str
    index: int
    arity: int
    bind: A.Annotation
    mappings: tuple[A.Annotation, ...]

    @property
    def key(self) -> tuple:
        """Identity of the column's data: two tools binding one file the same way share it."""
        return (tuple(a.value for a in self.bind.args), tuple(tuple(a.value for a in m.args) for m in self.mappings),
                self.arity, self.index)


def linked_columns(catalog: Catalog, tool: str, parameter: str) -> tuple[LinkedColumn, ...]:
    """The base-data columns the parameter of the tool is joined with, in the order the programs mention them."""
    spec = _spec(catalog, tool)
    _param(spec, parameter)
    found: dict[tuple, LinkedColumn] = {}
    _Tracer(catalog, found).param(spec, parameter)
    return tuple(found.values())


class _Tracer:
    def __init__(self, catalog: Catalog, found: dict[tuple, LinkedColumn]):
        self.catalog, self.found = catalog, found
        self.visiting: set[tuple] = set()

    def param(self, spec: ToolSpec, name: str) -> None:
        """Every place ``$name`` is joined with a column in ``spec``'s rules."""
        if not self._enter((spec.name, "$", name)):
            return
        # a fact of the parameter (``tree($account, 1).``, the start of a walk): the values of its predicate's
        # position, as the rules that define the predicate draw them (the accounts the walk reaches)
        for stmt in spec.program.statements:
            if isinstance(stmt, A.Fact):
                for i, t in enumerate(stmt.atom.args):
                    if isinstance(t, A.Param) and t.name == name:
                        self.column(spec, stmt.atom.pred, i)
        for rule in spec.program.rules:
            positives = [lit for lit in rule.body if isinstance(lit, A.Atom)]
            for atom in positives:
                for i, t in enumerate(atom.args):
                    if isinstance(t, A.Param) and t.name == name:
                        self.column(spec, atom.pred, i)
            for var in _equated_vars(rule.body, name):
                for atom in positives:
                    for i, t in enumerate(atom.args):
                        if isinstance(t, A.Var) and t.name == var:
                            self.column(spec, atom.pred, i)

    def column(self, spec: ToolSpec, pred: str, index: int) -> None:
        """The base columns that position ``index`` of ``pred``, as ``spec``'s program sees it, draws values from."""
        if not self._enter((spec.name, pred, index)):
            return
        program = spec.program
        bind = next((a for a in program.annotations("bind") if a.args and a.args[0].value == pred), None)
        if bind is not None:
            arity = _arity(program, pred)
            if arity is not None and index < arity:
                mappings = tuple(a for a in program.annotations("mapping") if a.args and a.args[0].value == pred)
                col = LinkedColumn(spec.name, pred, index, arity, bind, mappings)
                self.found.setdefault(col.key, col)
            return
        defining = [r for r in program.rules if any(h.pred == pred for h in r.head)]
        if defining:
            for rule in defining:
                for head in rule.head:
                    if head.pred != pred or index >= head.arity:
                        continue
                    term = head.args[index]
                    if isinstance(term, A.Param):
                        self.param(spec, term.name)
                    elif isinstance(term, A.Var) and not term.anonymous:
                        for lit in rule.body:
                            if isinstance(lit, A.Atom):
                                for j, t in enumerate(lit.args):
                                    if isinstance(t, A.Var) and t.name == term.name:
                                        self.column(spec, lit.pred, j)
            return
        producer = self.catalog.producer(pred)
        if producer is not None and producer.name != spec.name:
            self.column(producer, pred, index)

    def _enter(self, key: tuple) -> bool:
        if key in self.visiting:
            return False
        self.visiting.add(key)
        return True


def string_columns(catalog: Catalog) -> tuple[LinkedColumn, ...]:
    """Every column of every ``@bind`` of the catalog's programs whose ``@mapping`` types it as a string (or leaves it
    untyped), once per distinct data: where a value a question names may live, parameter or not."""
    found: dict[tuple, LinkedColumn] = {}
    for spec in catalog:
        program = spec.program
        for bind in program.annotations("bind"):
            pred = bind.args[0].value if bind.args else None
            arity = _arity(program, pred) if pred is not None else None
            if arity is None:
                continue
            mappings = tuple(a for a in program.annotations("mapping") if a.args and a.args[0].value == pred)
            typed = {m.args[1].value: m.args[3].value for m in mappings if len(m.args) > 3}
            for i in range(arity):
                if typed.get(i, "string") == "string":
                    col = LinkedColumn(spec.name, pred, i, arity, bind, mappings)
                    found.setdefault(col.key, col)
    return tuple(found.values())


def _equated_vars(body: Iterable[A.BodyLiteral], name: str) -> list[str]:
    """Variables a rule body equates with ``$name`` (``X == $name``, ``$name = X``)."""
    out = []
    for lit in body:
        match lit:
            case A.Comparison(op="==" | "=", left=A.Var(name=v), right=A.Param(name=p)) if p == name:
                out.append(v)
            case A.Comparison(op="==" | "=", left=A.Param(name=p), right=A.Var(name=v)) if p == name:
                out.append(v)
            case A.Assignment(var=A.Var(name=v), value=A.Param(name=p)) if p == name:
                out.append(v)
    return out


def _arity(program: A.Program, pred: str) -> int | None:
    for stmt in program.statements:
        if isinstance(stmt, (A.Rule, A.Constraint)):
            for lit in stmt.body:
                atom = lit.atom if isinstance(lit, A.Negation) else lit
                if isinstance(atom, A.Atom) and atom.pred == pred:
                    return atom.arity
    return None


def _spec(catalog: Catalog, tool: Any) -> ToolSpec:
    if not isinstance(tool, str) or tool not in catalog.tools:
        raise WorkspaceError(f"unknown tool {tool!r}; tools: {', '.join(catalog.tools) or 'none'}")
    return catalog.tools[tool]


def _param(spec: ToolSpec, parameter: Any):
    for p in spec.params:
        if p.name == parameter:
            return p
    sig = ", ".join(f"{p.name} ({p.type})" for p in spec.params)
    takes = f"its parameters: {sig}" if sig else "it takes no parameters"
    raise WorkspaceError(f"tool {spec.name!r} has no parameter {parameter!r}; {takes}")


# --- reading a column's values, through the Datalog layer ---------------------------------------------------------------
def column_program(column: LinkedColumn) -> A.Program:
    """``@bind`` and ``@mapping`` of the column's predicate, ``vo_values(X) :- p(_, .., X, .., _).`` and the number of
    its (distinct) rows, ``vo_values_rows(N) :- p(V0, .., Vn), N = count(V0).`` (an aggregate ranges over the
    distinct bindings of every body variable), both outputs."""
    out = VALUES_PRED if column.pred != VALUES_PRED else VALUES_PRED + "_"
    x = A.Var("X")
    body = A.Atom(column.pred, tuple(x if k == column.index else A.Var("_") for k in range(column.arity)))
    rule = A.Rule((A.Atom(out, (x,)),), (body,))
    every = tuple(A.Var(f"V{k}") for k in range(column.arity))
    n = A.Var("N")
    rows = A.Rule((A.Atom(out + "_rows", (n,)),), (A.Atom(column.pred, every),
                                                   A.Assignment(n, A.Aggregate("count", every[0]))))
    return A.Program((column.bind, *column.mappings, rule, rows, A.Annotation("output", (A.Const(out),)),
                      A.Annotation("output", (A.Const(out + "_rows"),))),
                     f"<values of {column.pred} column {column.index}>")


@dataclass(frozen=True, slots=True)
class ColumnValues:
    label: str  # pred.column, as the engine names the column
    type: str
    values: tuple[Any, ...]  # distinct, sorted, no nulls
    rows: int = 0  # distinct rows of the column's predicate

    @property
    def name(self) -> str:
        return self.label.rsplit(".", 1)[-1]

    def category(self, declared: frozenset[str] = frozenset()) -> bool:
        """Its values are kinds of things: declared so (by column name), or few values repeated over many rows, most
        of them one word ("district", "B1", "industrial"; not names such as "Sofia Marchetti")."""
        if self.name in declared:
            return True
        if self.type != "string" or not 0 < len(self.values) <= CATEGORY_MAX or \
                self.rows < CATEGORY_REPEAT * len(self.values):
            return False
        return sum(1 for v in self.values if len(str(v).split()) == 1) >= 0.8 * len(self.values)


def read_column(column: LinkedColumn, data_root) -> ColumnValues:
    """The distinct values of the column in the bound file, resolved under ``data_root`` as the engine does."""
    program = column_program(column)
    out = program.annotations("output")[0].args[0].value
    result = run(program, data_root=data_root)
    info = result.analysis.predicates[column.pred]
    values = tuple(sorted((r[0] for r in result.rows(out) if r[0] is not None), key=_order))
    rows = next((int(r[0]) for r in result.rows(out + "_rows")), 0)
    return ColumnValues(f"{column.pred}.{info.columns[column.index]}", info.types[column.index] or "string", values,
                        rows)


def _order(value: Any) -> tuple:
    return (0, value, "") if isinstance(value, (int, float)) and not isinstance(value, bool) else (1, 0, str(value))


# --- matching values against a text -------------------------------------------------------------------------------------
def normalize(text: str) -> str:
    """Case-folded, an underscore read as a space (a value written as an identifier, "watch_manager", is named as
    words: "watch managers"), whitespace runs collapsed to one space: how values and texts are compared."""
    return " ".join(text.casefold().replace("_", " ").split())


def _trigrams(key: str) -> set[str]:
    out: set[str] = set()
    for w in _WORD.findall(key):
        padded = f"  {w} "
        out.update(padded[i:i + 3] for i in range(len(padded) - 2))
    return out


class ValueIndex:
    """The distinct values of a parameter's columns, indexed for whole-word, fuzzy and numeric lookups."""

    def __init__(self, values: Iterable[Any]):
        self.values: list[Any] = sorted(set(values), key=_order)
        self.by_key: dict[str, list[Any]] = {}
        self.numbers: list[tuple[float, Any]] = []
        for v in self.values:
            if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
                self.numbers.append((float(v), v))
            key = normalize(format_value(v))
            if key:
                self.by_key.setdefault(key, []).append(v)
        self.numbers.sort(key=lambda nv: nv[0])
        self.keys = list(self.by_key)
        self.tokens = {k: len(_TOKEN.findall(k)) for k in self.keys}
        self.max_tokens = min(max(self.tokens.values(), default=1), MAX_NGRAM_TOKENS)
        self._postings: dict[str, array] | None = None
        self._sizes: list[int] = []  # trigrams of each key
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.values)

    def browse(self, limit: int) -> list[Any]:
        return self.values[:limit]

    def exact(self, text: str) -> list[Any]:
        """Values occurring in the text as whole words (case-insensitively), longest first, then in text order."""
        norm = normalize(text)
        spans = [(m.start(), m.end()) for m in _TOKEN.finditer(norm)]
        hits: dict[Any, tuple[int, int]] = {}  # value -> (-length, first position)
        for a, (start, _) in enumerate(spans):
            for b in range(a, min(a + self.max_tokens, len(spans))):
                for v in self.by_key.get(norm[start:spans[b][1]], ()):
                    hits.setdefault(v, (-(spans[b][1] - start), start))
        return sorted(hits, key=lambda v: (*hits[v], _order(v)))

    def fuzzy(self, text: str, limit: int) -> list[Any]:
        """The values most similar (difflib ratio ≥ FUZZY_CUTOFF) to a span of the text, most similar first."""
        norm = normalize(text)
        postings = self._trigram_index()
        wanted = _trigrams(norm)
        if not wanted or not self.keys:
            return []
        common = max(1000, len(self.keys) // 5)
        lists = [postings[t] for t in wanted if t in postings]
        selective = [p for p in lists if len(p) <= common] or lists
        counts: Counter[int] = Counter()
        for p in selective:
            counts.update(p)
        sizes = self._sizes
        pool = heapq.nlargest(FUZZY_POOL, counts, key=lambda i: (counts[i] / sizes[i], -i))
        spans = [(m.start(), m.end()) for m in _TOKEN.finditer(norm)]
        scored: list[tuple[float, str]] = []
        matcher = difflib.SequenceMatcher(autojunk=False)
        for i in pool:
            key = self.keys[i]
            matcher.set_seq2(key)
            n = self.tokens[key]
            best = 0.0
            for size in range(max(1, n - 1), n + 2):
                for a in range(len(spans) - size + 1):
                    matcher.set_seq1(norm[spans[a][0]:spans[a + size - 1][1]])
                    floor = max(best, FUZZY_CUTOFF)
                    if matcher.real_quick_ratio() <= floor or matcher.quick_ratio() <= floor:
                        continue
                    best = max(best, matcher.ratio())
            if best >= FUZZY_CUTOFF:
                scored.append((best, key))
        scored.sort(key=lambda sk: (-sk[0], sk[1]))
        return [v for _, key in scored for v in self.by_key[key]][:limit]

    def _trigram_index(self) -> dict[str, array]:
        with self._lock:
            if self._postings is None:
                postings: dict[str, array] = {}
                for i, key in enumerate(self.keys):
                    grams = _trigrams(key)
                    self._sizes.append(max(len(grams), 1))
                    for t in grams:
                        postings.setdefault(t, array("I")).append(i)
                self._postings = postings
            return self._postings

    def numeric(self, numbers: list[float], limit: int) -> tuple[list[Any], list[Any]]:
        """Values equal to a number of the text, and (when there are none) the values nearest to those numbers."""
        keys = [nv[0] for nv in self.numbers]
        exact, near = [], []
        for x in numbers:
            lo = bisect.bisect_left(keys, x)
            hi = bisect.bisect_right(keys, x)
            exact.extend(v for _, v in self.numbers[lo:hi] if v not in exact)
            near.extend((abs(k - x) / max(abs(x), 1.0), v) for k, v in self.numbers[max(0, lo - limit):lo + limit])
        if exact:
            return exact[:limit], []
        ranked: list[Any] = []
        for _, v in sorted(near, key=lambda dv: (dv[0], _order(dv[1]))):
            if v not in ranked:
                ranked.append(v)
        return [], ranked[:limit]


def numbers_in(text: str) -> list[float]:
    """Numbers written in the text (``1,500,000``, ``2.5``, ``3 million``, ``8m``), in order, each also unscaled."""
    out: list[float] = []
    for m in _NUMBER.finditer(text):
        try:
            x = float(m.group(1).replace(",", ""))
        except ValueError:
            continue
        candidates = [x] if m.group(2) is None else [x * _SCALE[m.group(2).lower()], x]
        out.extend(c for c in candidates if math.isfinite(c) and c not in out)
    return out


# --- the service ------------------------------------------------------------------------------------------------------
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Linker:
    """Linked columns per (tool, parameter), values per column and value indexes, computed once and shared by every
    session of a catalog (see :func:`linker_for`)."""

    def __init__(self, catalog: Catalog):
        self.catalog = catalog
        self._links: dict[tuple[str, str], tuple[LinkedColumn, ...]] = {}
        self._columns: dict[tuple, ColumnValues] = {}
        self._indexes: dict[tuple[str, str], ValueIndex] = {}
        self._column_indexes: dict[tuple, ValueIndex] = {}
        self._strings: dict[str, tuple[LinkedColumn, ...]] = {}
        self._guard = threading.Lock()
        self._locks: dict[tuple, threading.Lock] = {}
        self.reads = 0  # files scanned, for tests and benchmarks

    def _once(self, cache: dict[K, V], key: K, compute: Callable[[], V]) -> V:
        if key in cache:
            return cache[key]
        with self._guard:
            lock = self._locks.setdefault((id(cache), key), threading.Lock())
        with lock:
            if key not in cache:
                cache[key] = compute()
            return cache[key]

    def columns(self, tool: str, parameter: str) -> tuple[LinkedColumn, ...]:
        return self._once(self._links, (tool, parameter), lambda: linked_columns(self.catalog, tool, parameter))

    def column_values(self, column: LinkedColumn) -> ColumnValues:
        def read() -> ColumnValues:
            self.reads += 1
            return read_column(column, self.catalog.data_root)

        return self._once(self._columns, column.key, read)

    def index(self, tool: str, parameter: str) -> ValueIndex:
        return self._once(self._indexes, (tool, parameter), lambda: ValueIndex(
            v for c in self.columns(tool, parameter) for v in self.column_values(c).values))

    def column_index(self, column: LinkedColumn) -> ValueIndex:
        return self._once(self._column_indexes, column.key, lambda: ValueIndex(self.column_values(column).values))

    def declared_categories(self) -> frozenset[str]:
        """Column names a tool's output declares a category (``@role(pred, column, "category")``)."""
        return frozenset(c for spec in self.catalog for c, r in spec.roles if r == "category")

    def entities(self, text: str, limit: int = 20) -> dict[str, Any]:
        """Every value of a string column of the base data that ``text`` names as whole words (longest first, a value
        inside a longer one left out), with the columns holding it, the tool parameters it can be passed to, and
        whether it is a kind of thing (``category``: every column holding it is a category column)."""
        start = time.perf_counter()
        _check_text(text, limit)
        columns = self._once(self._strings, "all", lambda: string_columns(self.catalog))
        where: dict[Any, list[str]] = {}
        kinds: dict[Any, bool] = {}
        position: dict[Any, int] = {}
        declared = self.declared_categories()
        norm = normalize(text)
        for column in columns:
            values = self.column_values(column)
            if values.type != "string":
                continue
            for v in self.column_index(column).exact(text):
                if v not in where:
                    where[v], position[v] = [], norm.find(normalize(str(v)))
                if values.label not in where[v]:
                    where[v].append(values.label)
                kinds[v] = kinds.get(v, True) and values.category(declared)
        keys = {v: normalize(str(v)) for v in where}

        def spans(key: str) -> list[tuple[int, int]]:
            return [m.span() for m in re.finditer(rf"(?<!\w){re.escape(key)}(?!\w)", norm)]

        # a value inside a longer one is left out where it is written only inside it ("Low Brass" holds "Brass";
        # "the Brass family, including Low Brass" names both)
        longer = {v: [sp for o in where if o is not v and keys[v] != keys[o] and keys[v] in keys[o]
                      for sp in spans(keys[o])] for v in where}
        kept = [v for v in where if not longer[v] or any(
            not any(a <= x and y <= b for a, b in longer[v]) for x, y in spans(keys[v]))]
        kept.sort(key=lambda v: (position[v], -len(keys[v])))
        params: dict[Any, list[str]] = {v: [] for v in kept}
        for spec in self.catalog:
            for p in spec.params:
                if p.type != "string":
                    continue
                index = self.index(spec.name, p.name)
                for v in kept:
                    if keys[v] in index.by_key:
                        params[v].append(f"{spec.name}.{p.name}")
        return {"status": "ok", "matches": [{"value": _json(v), "columns": where[v], "parameters": params[v],
                                             "category": kinds[v]} for v in kept[:limit]],
                "columns": len(columns), "elapsed_ms": round((time.perf_counter() - start) * 1000, 2)}

    def lookup(self, tool: str, parameter: str, text: str = "", limit: int = 10) -> dict[str, Any]:
        """Values of the parameter's linked columns that the text names (see the module docstring)."""
        start = time.perf_counter()
        spec = _spec(self.catalog, tool)
        param = _param(spec, parameter)
        _check_text(text, limit)
        columns = self.columns(spec.name, param.name)
        out: dict[str, Any] = {"status": "ok", "tool": spec.name, "parameter": param.name, "type": param.type,
                               "columns": _labels(columns, [self.column_values(c) for c in columns])}
        index = self.index(spec.name, param.name)
        exact: list[Any] = []
        near: list[Any] = []
        note = None
        if not columns:
            note = (f"parameter {param.name!r} is not matched against any column of the base data (it is only "
                    f"compared or computed with), so any {param.type} value is accepted")
        elif not text.strip():
            near = index.browse(limit)
            note = "no text given: the first values in sorted order"
        elif param.type in NUMERIC:
            numbers = numbers_in(text)
            exact, near = index.numeric(numbers, limit)
            if not numbers:
                note = "no number in the text"
        else:
            exact = index.exact(text)[:limit]
            if not exact:
                near = index.fuzzy(text, limit)
                note = ("no value occurs in the text as whole words; these are the closest" if near else
                        "no value occurs in the text, and none is close")
        out["matches"] = [{"value": _json(v), "exact": True} for v in exact] + \
                         [{"value": _json(v), "exact": False} for v in near]
        out["candidates"] = len(index)
        if note:
            out["note"] = note
        out["elapsed_ms"] = round((time.perf_counter() - start) * 1000, 2)
        return out


def _check_text(text: Any, limit: Any) -> None:
    if not isinstance(text, str):
        raise WorkspaceError(f"text must be a string, got {text!r}")
    if len(text) > MAX_TEXT:
        raise WorkspaceError(f"text is too long ({len(text)} characters; at most {MAX_TEXT}): pass the question")
    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= MAX_LIMIT:
        raise WorkspaceError(f"limit must be an integer from 1 to {MAX_LIMIT}, got {limit!r}")


def _labels(columns: tuple[LinkedColumn, ...], values: list[ColumnValues]) -> list[str]:
    labels = [v.label for v in values]
    return [f"{c.tool}:{lab}" if labels.count(lab) > 1 else lab for c, lab in zip(columns, labels, strict=True)]


def _json(value: Any) -> Any:
    if isinstance(value, (str, int, float, bool)) and not (isinstance(value, float) and not math.isfinite(value)):
        return value
    return format_value(value)


_REGISTRY_LOCK = threading.Lock()
_ATTR = "_vo_linker"


def linker_for(catalog: Catalog) -> Linker:
    """The catalog's one :class:`Linker`, kept with the catalog like a cached property (the catalog is immutable)."""
    with _REGISTRY_LOCK:
        linker = vars(catalog).get(_ATTR)
        if linker is None:
            linker = Linker(catalog)
            object.__setattr__(catalog, _ATTR, linker)
        return linker
