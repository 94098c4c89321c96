"""The workspace of one session: a DuckDB database file holding every invocation's materialized output.

Every method is a service the MCP tools expose one-to-one; each returns a JSON-ready dict or raises a
:class:`~vadaorchestra.errors.VadaError` whose message a model can act on, and a failed call leaves the database as
it was (results are written in one transaction after the whole evaluation succeeded).

Tool outputs accumulate: invoking ``get_loans`` for two banks leaves the loans of both in ``loans``, as the two
invocation rules of the logical trace would derive. Parameters are bound in the AST as constants, never spliced into
text; attribute names reach SQL only after they were matched against the predicate's schema, and values as bound
parameters.
"""

from __future__ import annotations

import math
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb

from vadaorchestra.datalog import ast as A
from vadaorchestra.datalog.api import (
    bind_params,
    body_predicates,
    content_hash,
    database_schemas,
    run,
    validate,
)
from vadaorchestra.datalog.foreach import bind_each, each_forms, each_source
from vadaorchestra.datalog.limits import Budget
from vadaorchestra.datalog.lint import merging_aggregates
from vadaorchestra.datalog.parser import parse
from vadaorchestra.datalog.sql import quote_ident
from vadaorchestra.datalog.types import fits
from vadaorchestra.datalog.validator import Analysis
from vadaorchestra.errors import Cancelled, Diagnostic, LimitExceeded, VadaError, ValidationError, WorkspaceError
from vadaorchestra.mcp_server.catalog import Catalog, ToolSpec

THRESHOLD_OPS = {">": ">", ">=": ">=", "<": "<", "<=": "<=", "=": "=", "==": "=", "!=": "<>", "<>": "<>"}
MAX_K = 1000
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)
MOST_FREQUENT = 5
CLOSE_WAIT = 5.0  # seconds closing a workspace waits for its interrupted calls to end
_CURRENT = threading.local()  # the Budget of the call the worker thread is running, if any


@dataclass(frozen=True, slots=True)
class Invocation:
    """One successful call that wrote into the workspace, in execution order."""

    seq: int
    kind: str  # "tool" or "program"
    name: str  # tool name, or "run_program"
    params: Mapping[str, Any]
    predicates: tuple[str, ...]
    facts: int
    text: str | None = None  # the synthesized program


@dataclass
class Workspace:
    """A session's DuckDB file plus the catalog it serves; see the module docstring."""

    catalog: Catalog
    path: Path | None = None
    engine: str = "duckdb"
    preview: int = 20
    max_rounds: int = 1000
    log: list[Invocation] = field(default_factory=list)
    engine_options: dict[str, Any] = field(default_factory=dict)  # Soufflé mode/timeout/memory for tool programs
    time_limit: float | None = None  # seconds per call (each tool call, each run_program)
    memory_limit: int | None = None  # bytes: DuckDB's memory_limit of this database (spilling to disk as much again)
    max_rows: int | None = None  # the most facts a predicate a synthesized program defines may hold
    # (key of the log it was built from, Explainer): the session's run evaluated for `explain`, until the next write
    _explained: tuple[tuple[int, int], Any] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self._tmpdir: str | None = None
        if self.path is None:
            self._tmpdir = tempfile.mkdtemp(prefix="vada-ws-")
            self.path = Path(self._tmpdir) / "workspace.duckdb"
        self.path = Path(self.path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.con = duckdb.connect(str(self.path))
        if self.memory_limit is not None:
            mib = max(1, self.memory_limit >> 20)
            self.con.execute(f"SET memory_limit = '{mib}MiB'")
            self.con.execute(f"SET max_temp_directory_size = '{mib}MiB'")
        self.engine_options = dict(self.engine_options)
        if self.engine == "souffle":  # the same bounds for the Soufflé binary, unless told otherwise
            if self.time_limit is not None:
                self.engine_options.setdefault("timeout", self.time_limit)
            if self.memory_limit is not None:
                self.engine_options.setdefault("memory_limit", self.memory_limit)
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()
        self._closed = False
        self._calls: set[Budget] = set()

    # --- lifecycle ----------------------------------------------------------------------------------------------------
    def close(self) -> None:
        """Cancel the calls still running (their queries are interrupted and roll back), then close the database. A
        workspace made without a path is deleted with it: its temporary folder is no one else's to reopen."""
        if self._tmpdir and not self._closed:
            self.remove()
            return
        self._close()

    def _close(self) -> None:
        if not self._closed:
            self._closed = True
            with self._guard:
                running = list(self._calls)
            for budget in running:
                budget.cancel()
            for budget in running:
                budget.wait(CLOSE_WAIT)
            self.con.close()
            if self._explained is not None:
                self._explained[1].close()

    def remove(self) -> None:
        """Close the database and delete its file (and the folder, when the workspace made it)."""
        self._close()
        assert self.path is not None
        for p in (self.path, self.path.with_name(self.path.name + ".wal")):
            p.unlink(missing_ok=True)
        shutil.rmtree(self.path.with_name(self.path.name + ".tmp"), ignore_errors=True)  # DuckDB's spill folder
        if self._tmpdir:
            shutil.rmtree(self._tmpdir, ignore_errors=True)

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @contextmanager
    def bounded(self, budget: Budget | None = None) -> Iterator[Budget]:
        """Run the block as one call under ``budget`` (by default the call already running in this thread, else a
        new one with the workspace's time limit): its queries are interrupted when the time runs out or the budget
        is cancelled, and the call fails with :class:`~vadaorchestra.errors.LimitExceeded` or
        :class:`~vadaorchestra.errors.Cancelled`, having written nothing."""
        outer = getattr(_CURRENT, "budget", None)
        if budget is None and outer is not None:
            yield outer
            return
        budget = budget if budget is not None else Budget(self.time_limit)
        _CURRENT.budget = budget
        with self._guard:
            self._calls.add(budget)
        try:
            with budget:
                yield budget
        finally:
            _CURRENT.budget = outer
            with self._guard:
                self._calls.discard(budget)

    @contextmanager
    def _cursor(self) -> Iterator[duckdb.DuckDBPyConnection]:
        if self._closed:
            raise WorkspaceError("the workspace is closed")
        with self.bounded() as budget:
            cur = self.con.cursor()
            try:
                with budget.watch(cur):
                    yield cur
            except duckdb.Error as exc:  # a statement outside the engine, interrupted or out of memory
                if budget.reason is not None:
                    raise budget.error() from None
                if isinstance(exc, duckdb.OutOfMemoryException):
                    raise LimitExceeded(f"memory limit exceeded: {str(exc).splitlines()[0]}", limit="memory") from None
                raise
            finally:
                cur.close()

    @contextmanager
    def _locked(self, names) -> Iterator[None]:
        """Serialize writers of the same predicates (case-insensitively, as DuckDB names tables).

        The locks are keyed by the lower-cased name and taken in sorted order of those keys: two names that differ
        only in case are one lock, taken once (a non-reentrant lock taken twice hangs the thread forever), and two
        calls that write overlapping names take their common locks in the same order (no deadlock between them)."""
        keys = sorted({n.lower() for n in names})
        with self._guard:
            locks = [self._locks.setdefault(k, threading.Lock()) for k in keys]
        with ExitStack() as stack:
            for lock in locks:
                stack.enter_context(lock)
            yield

    # --- what is there ------------------------------------------------------------------------------------------------
    def predicates(self) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
        """Materialized predicates: name -> (column names, types)."""
        with self._cursor() as cur:
            types, cols = database_schemas(cur)
        return {n: (cols[n], types[n]) for n in sorted(types) if not n.startswith("__vo")}

    def _schema(self, pred: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        if not isinstance(pred, str) or not pred:
            raise WorkspaceError("a predicate name is required")
        preds = self.predicates()
        if pred in preds:
            return preds[pred]
        tool = self.catalog.producer(pred)
        if tool is not None:
            raise WorkspaceError(f"predicate {pred!r} is the output of tool {tool.name!r}, which has not run in this "
                                 f"session: call {tool.name} first")
        if pred in self.catalog.base_predicates:
            raise WorkspaceError(f"predicate {pred!r} is base data read by catalog tools; it is not materialized here. "
                                 f"Materialized predicates: {_names(preds)}")
        raise WorkspaceError(f"unknown predicate {pred!r}; materialized predicates: {_names(preds)}")

    def _column(self, pred: str, cols: tuple[str, ...], attribute: str, what: str = "attribute") -> int:
        if isinstance(attribute, str) and attribute in cols:
            return cols.index(attribute)
        raise WorkspaceError(f"unknown {what} {attribute!r} of predicate {pred!r}; its attributes: {', '.join(cols)}")

    def _result(self, cur, pred: str, *, elapsed_ms: float, **extra) -> dict[str, Any]:
        cols, types = self._schema(pred)
        n = cur.execute(f"SELECT count(*) FROM main.{quote_ident(pred)}").fetchone()[0]
        rows = cur.execute(f"SELECT * FROM main.{quote_ident(pred)} ORDER BY ALL LIMIT {int(self.preview)}").fetchall()
        return {"status": "ok", **extra, "output_predicate": pred, "cardinality": n,
                "schema": _schema_list(cols, types), "preview": _records(cols, rows),
                "truncated": n > len(rows), "elapsed_ms": round(elapsed_ms, 2)}

    # --- reasoning tools ----------------------------------------------------------------------------------------------
    def invoke(self, tool: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Run a catalog tool with ``params`` and add its output facts to the output predicate.

        A parameter given as ``{"each": "exposure.borrower", "where": {"bank": "Bank Gamma"}}`` is bound to a column
        of a materialized predicate instead of a constant: the tool's program runs once for every row of that
        predicate that matches ``where`` (equalities on its columns), as one evaluation on the engine (set-at-a-time).
        """
        start = time.perf_counter()
        spec = self.catalog.tools.get(tool)
        if spec is None:
            raise WorkspaceError(f"unknown tool {tool!r}; tools: {', '.join(self.catalog.tools)}")
        given = dict(params or {})
        self._check_params(spec, given)
        params = {k: v for k, v in given.items() if not isinstance(v, Mapping)}
        try:
            for_each, where = each_forms(spec.name, given)
        except VadaError as exc:
            raise WorkspaceError(str(exc)) from None
        program, source = spec.program, None
        if for_each:
            source, each = self._each_source(spec, for_each, where)
        with self._locked([spec.output]), self._cursor() as cur, ExitStack() as cleanup:
            present = set(self.predicates())
            for dep in spec.deps:
                out = self.catalog.get(dep).output
                if out not in present:
                    raise WorkspaceError(f"tool {spec.name!r} reads {out!r}, the output of tool {dep!r}, which has not "
                                         f"run in this session: call {dep} first")
            if source is not None and source.pred == spec.output:
                # "each" over the tool's own output (each member's group, for the members of one group): the rows
                # it had before this call, copied, since the program defines that predicate afresh
                snapshot = f"__vo_each_{spec.output}"
                cur.execute(f"CREATE OR REPLACE TABLE main.{quote_ident(snapshot)} AS "
                            f"SELECT DISTINCT * FROM main.{quote_ident(spec.output)}")
                cleanup.callback(cur.execute, f"DROP TABLE IF EXISTS main.{quote_ident(snapshot)}")
                source = A.Atom(snapshot, source.args, source.span)
            if source is not None:
                program = bind_each(bind_params(program, params), each, source, output=spec.output)
                keys = cur.execute(
                    f"SELECT count(*) FROM (SELECT DISTINCT {', '.join(quote_ident(c) for c in dict.fromkeys(r.split('.')[1] for r in for_each.values()))}"
                    f" FROM main.{quote_ident(source.pred)}{self._where_sql(where)})", list(where.values())
                ).fetchone()[0]
            before = self._count(cur, spec.output) if spec.output in present else 0
            result = run(program, params=None if source is not None else params, data_root=self.catalog.data_root,
                         database=cur, outputs=[spec.output], materialize={spec.output: spec.output}, append=True,
                         limit=self.preview, engine=self.engine, max_rounds=self.max_rounds,
                         engine_options=self.engine_options, budget=_CURRENT.budget)
            self._record("tool", spec.name, given, (spec.output,), result.counts[spec.output])
            total = self._count(cur, spec.output)
            elapsed = (time.perf_counter() - start) * 1000
            rows = result.rows(spec.output)
            extra = {"bound_values": keys} if source is not None else {}
            return {"status": "ok", "tool": spec.name, "params": given, **extra, "output_predicate": spec.output,
                    "facts": result.counts[spec.output], "new_facts": total - before, "cardinality": total,
                    "schema": spec.schema, "preview": _records(spec.columns, rows),
                    "truncated": result.counts[spec.output] > len(rows), "engine": result.engine,
                    "elapsed_ms": round(elapsed, 2)}

    def _each_source(self, spec: ToolSpec, for_each: Mapping[str, str],
                     where: Mapping[str, Any]) -> tuple[A.Atom, dict[str, str]]:
        """The source atom of a set-at-a-time call (``exposure("Bank Gamma", Borrower, _)``) and the variable of
        each bound parameter; every name is checked against the catalog and the workspace."""
        preds = {ref.split(".")[0] for ref in for_each.values()}
        if len(preds) != 1:
            raise WorkspaceError(f"tool {spec.name!r}: parameters given as \"each\" must name columns of one "
                                 f"predicate, got {', '.join(sorted(preds))}")
        pred = next(iter(preds))
        if pred not in self.predicates():
            raise WorkspaceError(f"tool {spec.name!r}: \"each\" reads {pred!r}, which is not a materialized predicate "
                                 f"of this session (materialized: {_names(self.predicates())})")
        cols, types = self._schema(pred)
        try:
            return each_source(spec.name, {p.name: p.type for p in spec.params}, pred, cols, types, for_each, where)
        except VadaError as exc:
            raise WorkspaceError(str(exc)) from None

    def _where_sql(self, where: Mapping[str, Any]) -> str:
        return (" WHERE " + " AND ".join(f"{quote_ident(c)} = ?" for c in where)) if where else ""

    @staticmethod
    def _check_params(spec: ToolSpec, params: Mapping[str, Any]) -> None:
        declared = {p.name: p for p in spec.params}
        unknown = sorted(set(params) - set(declared))
        missing = [p for p in spec.params if p.name not in params]
        problems = [f"unknown parameter {n!r}" for n in unknown]
        problems += [f"missing parameter {p.name!r} ({p.type}: {p.description})" for p in missing]
        if problems:
            sig = ", ".join(f"{p.name}: {p.type}" for p in spec.params) or "no parameters"
            raise WorkspaceError(f"tool {spec.name!r}: {'; '.join(problems)}. It takes {sig}"
                                 f"{EACH_HINT if spec.params else ''}.")

    def _record(self, kind: str, name: str, params, preds, facts: int, text: str | None = None) -> None:
        with self._guard:
            self.log.append(Invocation(len(self.log) + 1, kind, name, dict(params), tuple(preds), facts, text))

    @staticmethod
    def _count(cur, pred: str) -> int:
        return cur.execute(f"SELECT count(*) FROM main.{quote_ident(pred)}").fetchone()[0]

    # --- decision support ---------------------------------------------------------------------------------------------
    def cardinality(self, pred: str) -> dict[str, Any]:
        """Number of facts of a materialized predicate."""
        start = time.perf_counter()
        cols, types = self._schema(pred)
        with self._cursor() as cur:
            n = self._count(cur, pred)
        return {"status": "ok", "predicate": pred, "cardinality": n, "schema": _schema_list(cols, types),
                "elapsed_ms": round((time.perf_counter() - start) * 1000, 2)}

    def statistics(self, pred: str, attribute: str) -> dict[str, Any]:
        """Summary of one attribute: count, distinct, nulls, min, max; mean and quantiles of numbers; the most
        frequent values of strings and booleans."""
        start = time.perf_counter()
        cols, types = self._schema(pred)
        i = self._column(pred, cols, attribute)
        typ = types[i]
        col, table = quote_ident(cols[i]), f"main.{quote_ident(pred)}"
        out: dict[str, Any] = {"status": "ok", "predicate": pred, "attribute": attribute, "type": typ}
        with self._cursor() as cur:
            if typ in ("int", "float"):
                qs = ", ".join(str(q) for q in QUANTILES)
                n, distinct, nulls, lo, hi, mean, quant = cur.execute(
                    f"SELECT count(*), count(DISTINCT {col}), count(*) - count({col}), min({col}), max({col}), "
                    f"avg({col}), quantile_cont({col}, [{qs}]) FROM {table}").fetchone()
                out.update(count=n, distinct=distinct, nulls=nulls, min=_json(lo), max=_json(hi), mean=_json(mean),
                           quantiles={f"p{round(q * 100)}": _json(v) for q, v in zip(QUANTILES, quant or [], strict=False)})
            else:
                labelled = f"count(*) FILTER (WHERE {col} LIKE '\\_:n%' ESCAPE '\\')" if typ == "string" else "0"
                n, distinct, nulls, lo, hi = cur.execute(
                    f"SELECT count(*), count(DISTINCT {col}), count(*) - count({col}) + {labelled}, min({col}), "
                    f"max({col}) FROM {table}").fetchone()
                top = cur.execute(f"SELECT {col}, count(*) AS n FROM {table} WHERE {col} IS NOT NULL GROUP BY ALL "
                                  f"ORDER BY n DESC, {col} LIMIT {MOST_FREQUENT}").fetchall()
                out.update(count=n, distinct=distinct, nulls=nulls, min=_json(lo), max=_json(hi),
                           most_frequent=[{"value": _json(v), "count": c} for v, c in top])
        out["elapsed_ms"] = round((time.perf_counter() - start) * 1000, 2)
        return out

    def top_k(self, pred: str, k: int = 10, order_by: str | None = None, descending: bool = True,
              filter_attr: str | None = None, filter_value: Any = None, threshold_attr: str | None = None,
              threshold_op: str | None = None, threshold_value: float | int | None = None) -> dict[str, Any]:
        """The first ``k`` facts ordered by ``order_by`` (all columns when absent), optionally only those whose
        ``filter_attr`` equals ``filter_value`` and whose ``threshold_attr`` passes ``threshold_op threshold_value``."""
        start = time.perf_counter()
        cols, types = self._schema(pred)
        if not isinstance(k, int) or isinstance(k, bool) or not 1 <= k <= MAX_K:
            raise WorkspaceError(f"k must be an integer from 1 to {MAX_K}, got {k!r}")
        where, args = [], []
        if filter_attr is not None:
            i = self._column(pred, cols, filter_attr, "filter_attr")
            if filter_value is None:
                raise WorkspaceError(f"filter_attr needs a filter_value, and filter_value is missing{NOT_FINITE_HINT}")
            where.append(f"{quote_ident(cols[i])} = ${len(args) + 1}")
            args.append(_typed(filter_value, types[i], "filter_value"))
        elif filter_value is not None:
            raise WorkspaceError("filter_value needs a filter_attr")
        if threshold_attr is not None or threshold_op is not None or threshold_value is not None:
            if threshold_attr is not None and threshold_op is not None and threshold_value is None:
                raise WorkspaceError(f"threshold_value is missing{NOT_FINITE_HINT}")
            if threshold_attr is None or threshold_op is None or threshold_value is None:
                raise WorkspaceError("a threshold needs threshold_attr, threshold_op and threshold_value together")
            i = self._column(pred, cols, threshold_attr, "threshold_attr")
            op = THRESHOLD_OPS.get(threshold_op)
            if op is None:
                raise WorkspaceError(f"unknown threshold_op {threshold_op!r}; use one of {', '.join(THRESHOLD_OPS)}")
            if types[i] not in ("int", "float"):
                raise WorkspaceError(f"threshold_attr {threshold_attr!r} is a {types[i]}, not a number")
            where.append(f"{quote_ident(cols[i])} {op} ${len(args) + 1}")
            args.append(_typed(threshold_value, "float", "threshold_value"))
        if order_by is not None:
            j = self._column(pred, cols, order_by, "order_by attribute")
            rest = [quote_ident(c) for n, c in enumerate(cols) if n != j]
            order = ", ".join([f"{quote_ident(cols[j])} {'DESC' if descending else 'ASC'}"] + rest)
        else:
            order = "ALL DESC" if descending else "ALL"
        cond = f" WHERE {' AND '.join(where)}" if where else ""
        table = f"main.{quote_ident(pred)}"
        with self._cursor() as cur:
            total = self._count(cur, pred)
            matching = cur.execute(f"SELECT count(*) FROM {table}{cond}", args).fetchone()[0] if cond else total
            rows = cur.execute(f"SELECT * FROM {table}{cond} ORDER BY {order} LIMIT {k}", args).fetchall()
        return {"status": "ok", "predicate": pred, "cardinality": total, "matching": matching,
                "schema": _schema_list(cols, types), "facts": _records(cols, rows),
                "elapsed_ms": round((time.perf_counter() - start) * 1000, 2)}

    def describe(self, pred: str) -> dict[str, Any]:
        """Schema, cardinality, where the predicate comes from, a few facts, and the content hash."""
        start = time.perf_counter()
        self._schema(pred)
        tool = self.catalog.producer(pred)
        calls = [inv for inv in self.log if pred in inv.predicates]
        if tool is not None:
            origin = {"kind": "tool output", "tool": tool.name, "description": tool.description,
                      "invocations": [inv.params for inv in calls]}
        elif calls:
            origin = {"kind": "synthesized", "programs": [inv.text for inv in calls]}
        else:
            origin = {"kind": "table"}
        with self._cursor() as cur:
            out = self._result(cur, pred, elapsed_ms=0)
        out.pop("output_predicate")
        out = {"status": "ok", "predicate": pred, "origin": origin, **{k: v for k, v in out.items() if k != "status"}}
        out["content_hash"] = self.content_hash(pred)
        out["elapsed_ms"] = round((time.perf_counter() - start) * 1000, 2)
        return out

    def explain(self, pred: str, values: list[Any], max_contributions: int = 10) -> dict[str, Any]:
        """One derivation tree of the fact ``pred(values)`` (``None``: any value), down to base facts with their
        file and line, from the session's invocations and synthesized programs (see
        :mod:`vadaorchestra.datalog.explain`); a fact that does not hold is answered "not derived"."""
        from vadaorchestra.datalog.explain import NotDerived

        start = time.perf_counter()
        self._schema(pred)
        if not isinstance(values, list | tuple):
            raise WorkspaceError(f"fact must be a list of the values of {pred!r}, got {values!r}")
        with self.bounded() as budget:
            try:
                explainer = self._explainer(max_contributions, budget)
                with budget.watch(explainer.con):
                    node = explainer.explain(pred, list(values))
            except NotDerived as exc:
                return {"status": "not derived", "predicate": pred, "message": str(exc),
                        "elapsed_ms": round((time.perf_counter() - start) * 1000, 2)}
            except (LimitExceeded, Cancelled):
                raise
            except VadaError as exc:
                raise WorkspaceError(str(exc)) from None
            except duckdb.Error:
                if budget.reason is None:
                    raise
                raise budget.error("explaining") from None
        return {"status": "ok", "predicate": pred, "fact": node.fact, "tree": node.to_dict(),
                "leaves": [leaf.to_dict() for leaf in node.leaves() if leaf.kind == "base"][:50],
                "elapsed_ms": round((time.perf_counter() - start) * 1000, 2)}

    def _explainer(self, max_contributions: int, budget: Budget | None = None):
        """The session's run as one program (:class:`~vadaorchestra.mcp_server.lineage.ProgramWriter`), evaluated
        for explanations; kept until the next call that writes."""
        from vadaorchestra.datalog.explain import Explainer
        from vadaorchestra.mcp_server.lineage import LogStep, ProgramWriter

        key = (len(self.log), max_contributions)
        cached = self._explained
        if cached is not None and cached[0] == key:
            return cached[1]
        steps = [LogStep("LI" if inv.kind == "tool" else "LM", inv.seq, inv.name if inv.kind == "tool" else None,
                         dict(inv.params), inv.text or "", "") for inv in self.log]
        text = ProgramWriter(self.catalog, steps).program()
        explainer = Explainer(text, data_root=self.catalog.data_root, max_contributions=max_contributions,
                              budget=budget, memory_limit=self.memory_limit)
        if cached is not None:
            cached[1].close()
        self._explained = (key, explainer)
        return explainer

    # --- data manipulation --------------------------------------------------------------------------------------------
    def validate_program(self, text: str) -> dict[str, Any]:
        """Validate rules written at run time against the materialized predicates, without running them."""
        start = time.perf_counter()
        with self._cursor() as cur:
            program, analysis = self._check_synthesized(cur, text)
        defined = sorted(analysis.defined)
        out = _output_of(program, analysis)
        return {"status": "valid", "defines": defined, "reads": sorted(body_predicates(program) - analysis.defined),
                "output_predicate": out, "schema": _schema_list(analysis.predicates[out].columns,
                                                                analysis.predicates[out].types),
                "elapsed_ms": round((time.perf_counter() - start) * 1000, 2)}

    def run_program(self, text: str) -> dict[str, Any]:
        """Validate, then run rules written at run time over the materialized predicates; every predicate the
        program defines is materialized (only new ones may be defined)."""
        start = time.perf_counter()
        program = self._parse(text)
        heads = program.fact_predicates() | {h.pred for r in program.rules for h in r.head}
        with self._locked(heads), self._cursor() as cur:
            program, analysis = self._check_synthesized(cur, text)
            defined = sorted(analysis.defined)
            result = run(program, database=cur, outputs=[], materialize={p: p for p in defined},
                         synthesized=True, engine=self.engine, max_rounds=self.max_rounds,
                         engine_options={k: v for k, v in self.engine_options.items() if k in ("timeout", "memory_limit")},
                         budget=_CURRENT.budget, max_rows=self.max_rows)
            out = _output_of(program, analysis)
            self._record("program", "run_program", {}, tuple(defined), result.counts.get(out, 0), text)
            return self._result(cur, out, elapsed_ms=(time.perf_counter() - start) * 1000,
                                defined=[{"predicate": p, "cardinality": result.counts[p]} for p in defined],
                                engine=result.engine)

    def _parse(self, text: str) -> A.Program:
        if not isinstance(text, str) or not text.strip():
            raise WorkspaceError("the program is empty: write rules like  big(B, A) :- exposure(_, B, A), A > 1000000.")
        return parse(text, "<program>")

    def _check_synthesized(self, cur, text: str) -> tuple[A.Program, Analysis]:
        program = self._parse(text)
        present = {n.lower(): n for n in self.predicates()}
        diags: list[Diagnostic] = []
        heads = [(s.atom.pred, s.span) for s in program.facts] + [(h.pred, h.span) for r in program.rules for h in r.head]
        seen = set()
        for pred, span in heads:
            if pred in seen:
                continue
            seen.add(pred)
            tool = self.catalog.producer(pred) or next(
                (t for t in self.catalog if t.output.lower() == pred.lower()), None)
            if tool is not None:
                diags.append(Diagnostic(span, f"predicate {pred!r} is the output of tool {tool.name!r}; a synthesized "
                                              "program may only define new predicates"))
            elif pred.lower() in {b.lower() for b in self.catalog.base_predicates}:
                diags.append(Diagnostic(span, f"predicate {pred!r} is base data of the catalog; a synthesized program "
                                              "may only define new predicates"))
            elif pred.lower() in present:
                diags.append(Diagnostic(span, f"predicate {present[pred.lower()]!r} already exists in this workspace; "
                                              "a synthesized program may only define new predicates"))
        own = {p for p, _ in heads}
        for stmt in program.statements:
            if isinstance(stmt, (A.Rule, A.Constraint)):
                for lit in stmt.body:
                    atom = lit.atom if isinstance(lit, A.Negation) else lit
                    if isinstance(atom, A.Atom) and atom.pred not in own and atom.pred not in present.values():
                        tool = self.catalog.producer(atom.pred)
                        if tool is not None:
                            diags.append(Diagnostic(atom.span, f"predicate {atom.pred!r} is the output of tool "
                                                    f"{tool.name!r}, which has not run in this session: call it first"))
        try:
            analysis = validate(program, connection=cur, synthesized=True)
        except VadaError as exc:
            ours = {d.span for d in diags}  # the validator's message at the same place says less than ours
            diags.extend(d for d in exc.diagnostics if d.span not in ours)
            if not exc.diagnostics:
                raise
            analysis = None
        diags += merging_aggregates(program)
        if diags:
            raise ValidationError(f"{len(diags)} problem(s) in the program", diags, program.text)
        assert analysis is not None
        if not analysis.defined:
            raise WorkspaceError("the program defines no predicate: add a rule whose head is a new predicate")
        return program, analysis

    # --- entity linking -----------------------------------------------------------------------------------------------
    def lookup_values(self, tool: str, parameter: str, text: str = "", limit: int = 10) -> dict[str, Any]:
        """Values of the base-data columns a tool parameter is matched against that ``text`` names (whole words, else
        the closest ones); with no text, the first values in sorted order. Reads the bound files (cached per catalog),
        never this workspace; see :mod:`vadaorchestra.mcp_server.linking`."""
        from vadaorchestra.mcp_server.linking import linker_for

        return linker_for(self.catalog).lookup(tool, parameter, text, limit)

    def find_entities(self, text: str, limit: int = 20) -> dict[str, Any]:
        """Values of every string column of the base data that ``text`` names as whole words, with the columns holding
        each and the tool parameters it can be passed to; reads no workspace."""
        from vadaorchestra.mcp_server.linking import linker_for

        return linker_for(self.catalog).entities(text, limit)

    # --- for traces and replay ----------------------------------------------------------------------------------------
    def content_hash(self, pred: str) -> str:
        """sha256 of a materialized predicate's facts, sorted, one per line, values as the CSV writer prints them."""
        self._schema(pred)
        with self._cursor() as cur:
            return content_hash(cur, pred)


# --- helpers ----------------------------------------------------------------------------------------------------------
def _names(preds) -> str:
    return ", ".join(preds) or "none yet (invoke a tool first)"


def _schema_list(cols, types) -> list[dict[str, str]]:
    return [{"name": c, "type": t} for c, t in zip(cols, types, strict=True)]


def _json(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


def _records(cols, rows) -> list[dict[str, Any]]:
    return [{c: _json(v) for c, v in zip(cols, r, strict=False)} for r in rows]


EACH_HINT = ' (each also as {"each": "predicate.column", "where": {...}}, to run for every row of a predicate)'


NOT_FINITE_HINT = (" (or was a number that is not finite: JSON has no inf or NaN, and clients send them as null; "
                   "give a finite number)")


def _typed(value: Any, typ: str, what: str) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        raise WorkspaceError(f"{what} is not a finite number (got {value!r})")
    if not fits(value, typ):
        raise WorkspaceError(f"{what} must be a {'number' if typ == 'float' else typ} here, got {value!r}")
    return value


def _output_of(program: A.Program, analysis: Analysis) -> str:
    """The program's @output predicate, else the head of its last rule (or fact)."""
    if analysis.outputs:
        return analysis.outputs[-1]
    last = [h.pred for r in program.rules for h in r.head] or [f.atom.pred for f in program.facts]
    return last[-1]
