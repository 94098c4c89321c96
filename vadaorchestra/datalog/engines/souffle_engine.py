"""Evaluate analyzed programs with Soufflé, a subprocess per step, keeping the DuckDB connection as the store.

The run loads base data, facts and inputs exactly like the DuckDB engine (it reuses its loading code), so every
relation lives in a TEMP table of the connection. Then:

- consecutive strata Soufflé can evaluate by itself (no existential rule, no aggregate inside recursion) become one
  Soufflé program: their inputs are exported from DuckDB as TSV, their results loaded back;
- every other stratum (existential rules, an aggregate or computed values inside recursion, or a rule only DuckDB
  can run) needs rounds driven from outside. By default (``rounds="duckdb"``) the DuckDB engine runs them, in the
  connection that holds the stratum's relations: a Soufflé program can only run a fixed number of rounds and must
  load those relations again each time (company control at 100k companies: 22.4 s in Soufflé programs, 1.7 s in
  DuckDB). With ``rounds="souffle"`` Soufflé does:

  - a recursive stratum with monotonic aggregates (or recursion through computed values) runs ``layers`` rounds per
    Soufflé program (:func:`~vadaorchestra.datalog.souffle.compile_layers`): each layer of the program is one round
    of the DuckDB engine (semi-naive rules, then the aggregates recomputed for the groups that changed), so both
    engines give the same rows; the program returns only what changed, which is applied here with SQL;
  - a stratum with existential rules (restricted chase with labelled nulls), or with rules only DuckDB can run, is
    iterated here with the DuckDB engine's round structure — each round's rule bodies and aggregates are computed by
    Soufflé, the bookkeeping (deltas, chase check, null numbering, one tuple per group) is the same SQL as the DuckDB
    engine's, so both engines give the same rows and the same nulls;
- negative constraints are compiled to violation relations; witnesses are ordered and cut like DuckDB's.

Relations travel as TSV files written and read by DuckDB (``COPY ... TO`` and ``read_csv``), never row by row through
Python: plain (fields verbatim) when no symbol holds a tab, newline or carriage return, else quoted for Soufflé's
``rfc4180`` reader and writer, which are much slower (:meth:`_SouffleRun.run_program`). Every Soufflé run happens in
a temporary directory removed afterwards, with a deadline (the whole process group is killed when it passes) and an
address-space limit; the same deadline is checked before every round the DuckDB engine runs for this engine.
Interpreted mode is the default; ``mode="compiled"`` builds a binary per program text, cached by hash under
``cache_dir``.
"""

from __future__ import annotations

import hashlib
import math
import mmap
import os
import re
import resource
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb

from vadaorchestra.datalog import souffle as F
from vadaorchestra.datalog import sql as S
from vadaorchestra.datalog.engines.duckdb_engine import DuckDBEngine, Run
from vadaorchestra.datalog.validator import Analysis, PredInfo, RuleInfo, Stratum
from vadaorchestra.errors import CompileError, ConstraintViolation, Diagnostic, EngineError, LimitExceeded

if TYPE_CHECKING:
    from vadaorchestra.datalog.limits import Budget

DEFAULT_TIMEOUT = 600.0
DEFAULT_MEMORY = 8 << 30
DEFAULT_LAYERS = 16
BUDGET_POLL = 0.2  # seconds between checks of the call's Budget while the binary runs
# AST passes for Soufflé features the generated programs never use (subsumptive clauses, records, ``.plan``
# directives): on the 16-layer program of company control they took 0.24 of the interpreter's 0.5 s start-up, which
# grows faster than the program. Soufflé ignores names it does not know.
SKIPPED_TRANSFORMERS = "SubsumptionQualifierTransformer,ResolveAnonymousRecordAliases,ExecutionPlanChecker"
# Interpreted mode, a layered stratum: every program reloads the stratum's relations (about 1.2 µs a row, export and
# Soufflé's reader together) and the interpreter's start-up grows with the square of the layers (company control: 0.5 s
# at 16 layers, 1.8 s at 32, 4.4 s at 48). A program of k layers costs about LOAD·rows + STARTUP·k², so per round
# the best k is sqrt(LOAD·rows / STARTUP): the engine's ``layers`` while the relations are small, more once they are
# large (at most MAX_LAYERS, and in steps of 8 so that few program texts are compiled).
LOAD_SECONDS_PER_ROW = 1.2e-6
STARTUP_SECONDS_PER_LAYER2 = 0.002
MAX_LAYERS = 48
ROUNDS = ("duckdb", "souffle")
STAT_KEYS = ("programs", "souffle_runs", "souffle_seconds", "compilations", "compile_seconds", "rounds")


class SouffleEngine(DuckDBEngine):
    """Evaluate analyzed programs with the ``souffle`` binary, storing relations in a DuckDB connection.

    Same contract as :meth:`DuckDBEngine.evaluate`; loading, the chase, constraints and materialization are shared.

    ``layers``: with ``rounds="souffle"``, rounds of a recursive stratum with aggregates (or computed values) run by
    one Soufflé program (in interpreted mode the first program's; later ones run more when the stratum's relations
    are large, see ``LOAD_SECONDS_PER_ROW``);
    ``rounds``: who runs the strata that need rounds driven from outside (existential rules, aggregates or computed
    values inside recursion): ``"duckdb"`` (the default) the DuckDB engine, where the relations are, with no Soufflé
    process; ``"souffle"`` Soufflé programs, ``layers`` rounds each where the stratum allows, else one per round;
    ``stats``: a dict the engine adds its counters to (``programs``, ``souffle_runs``, ``souffle_seconds``,
    ``compilations``, ``compile_seconds``, ``rounds``), e.g. to report compile time apart from run time.
    """

    name = "souffle"

    def __init__(self, connection: duckdb.DuckDBPyConnection, *, max_rounds: int = 1000, max_witnesses: int = 10,
                 progress: Callable[[str], None] | None = None, mode: str = "interpreted",
                 timeout: float | None = DEFAULT_TIMEOUT, memory_limit: int | None = DEFAULT_MEMORY,
                 cache_dir: str | Path | None = None, souffle: str | None = None, jobs: int = 1,
                 fallback: bool = True, layers: int = DEFAULT_LAYERS, rounds: str = "duckdb",
                 stats: dict | None = None, budget: Budget | None = None, max_rows: int | None = None):
        if mode not in ("interpreted", "compiled"):
            raise EngineError(f"unknown Soufflé mode {mode!r} (modes: interpreted, compiled)")
        if rounds not in ROUNDS:
            raise EngineError(f"unknown rounds {rounds!r} (who runs the rounds of a stratum: {', '.join(ROUNDS)})")
        self.rounds = rounds
        super().__init__(connection, max_rounds=max_rounds, max_witnesses=max_witnesses, progress=progress,
                         budget=budget, max_rows=max_rows)
        self.mode = mode
        self.timeout = timeout
        self.memory_limit = memory_limit
        self.cache_dir = Path(cache_dir) if cache_dir is not None else Path(
            os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "vadaorchestra" / "souffle"
        self.binary = souffle or shutil.which("souffle") or "souffle"
        self.jobs = jobs
        self.fallback = fallback
        if layers < 1:
            raise EngineError(f"layers must be at least 1, got {layers}")
        self.layers = layers
        self.stats = stats if stats is not None else {}
        for key in STAT_KEYS:
            self.stats.setdefault(key, 0)
        self.invocations = 0

    def tally(self, key: str, amount: float = 1) -> None:
        self.stats[key] += amount

    def new_run(self, analysis: Analysis, inputs, null_start: int) -> _SouffleRun:
        return _SouffleRun(self, analysis, inputs, null_start)


# --- TSV in and out -----------------------------------------------------------------------------------------------------
def encode_value(value: object, typ: str) -> str:
    if typ == "string":
        return '"' + str(value).replace('"', '""') + '"'
    if typ == "bool":
        return "1" if value else "0"
    if typ == "float":
        return repr(float(value))  # type: ignore[arg-type]
    return str(int(value))  # type: ignore[call-overload]


def encode_facts(rows: Sequence[tuple], types: Sequence[str]) -> str:
    """A ``.facts`` file for Soufflé (tab-separated, RFC 4180 quotes around every symbol; a nullary fact is ``()``)."""
    if not types:
        return "()\n" if rows else ""
    return "".join("\t".join(encode_value(v, t) for v, t in zip(r, types, strict=True)) + "\n" for r in rows)


_STRING_FIELD = r'"((?:\\""|[^"])*)"'
_OTHER_FIELD = r"([^\t\n]*)"


def decode_output(text: str, types: Sequence[str]) -> list[tuple]:
    """Rows of a Soufflé ``.csv`` output written with ``rfc4180=true``: symbols in quotes, a quote inside written
    as ``\\""`` (a backslash otherwise stands for itself), newlines and tabs raw; numbers bare (floats with up to 17
    significant digits, whole floats without a decimal point)."""
    if not types:
        return [()] if text.strip() else []
    row_re = re.compile("\t".join(_STRING_FIELD if t == "string" else _OTHER_FIELD for t in types) + "\n")
    rows = []
    pos = 0
    while pos < len(text):
        m = row_re.match(text, pos)
        if m is None:
            raise EngineError(f"cannot read Soufflé output near {text[pos:pos + 60]!r}")
        pos = m.end()
        row = []
        for raw, t in zip(m.groups(), types, strict=True):
            if t == "string":
                row.append(raw.replace('\\""', '"'))
            elif t == "int":
                row.append(int(raw))
            elif t == "bool":
                row.append(int(raw) != 0)
            else:
                row.append(float(raw))
        rows.append(tuple(row))
    return rows


# --- a run --------------------------------------------------------------------------------------------------------------
class _SouffleRun(Run):
    engine: SouffleEngine

    def __init__(self, engine: SouffleEngine, analysis: Analysis, inputs, null_start: int):
        super().__init__(engine, analysis, inputs, null_start)  # type: ignore[arg-type]
        self._workdir: Path | None = None  # made by the first Soufflé run (a run failing before leaves none)
        self.deadline = time.monotonic() + engine.timeout if engine.timeout is not None else None
        self.n_programs = 0
        self.n_tables = 0
        self.kept: set[str] = set()
        self.sql_rules: set[int] = set()  # rules Soufflé cannot express, evaluated with the DuckDB engine's SQL
        self.sql_constraints: set[int] = set()
        self.in_duckdb = False  # a stratum is running with the DuckDB engine's rounds
        self.pending: list[Stratum] = []  # strata joined for the next Soufflé program

    def prepare(self, kept: set[str]) -> None:
        """Decide which rules Soufflé cannot run (no view planning: every relation is stored for the exports)."""
        self.kept = set(kept)
        self.sets = self.set_relations()
        self.classify()

    def strategy(self, stratum: Stratum) -> Callable[[Stratum], None]:
        """A stratum Soufflé runs alone joins the next Soufflé program (:meth:`joined`). The others: with
        ``rounds="duckdb"`` the DuckDB engine's rounds; else a recursive stratum with aggregates (or computed values)
        runs ``layers`` rounds per program, and the rest (existentials, rules in SQL) round by round."""
        in_sql = any(ri.index in self.sql_rules for ri in stratum.rules)
        if not (F.needs_runner(stratum) or in_sql):
            return self.joined
        if self.engine.rounds == "duckdb":
            return self.duckdb_stratum
        if F.layerable(self.a, stratum) and not in_sql:
            return self.layered
        return self.stratum

    def run_strata(self) -> None:
        """Each stratum by its :meth:`strategy`; consecutive strata Soufflé runs alone go into one program."""
        for stratum in self.a.strata:
            how = self.strategy(stratum)
            if how != self.joined:
                self.flush()
            how(stratum)
        self.flush()

    def joined(self, stratum: Stratum) -> None:
        self.pending.append(stratum)

    def flush(self) -> None:
        """The strata joined so far, as one Soufflé program."""
        if self.pending:
            group, self.pending = self.pending, []
            self.native(group)

    def duckdb_stratum(self, stratum: Stratum) -> None:
        """The stratum evaluated exactly as the DuckDB engine does, on the relations in the connection."""
        self.in_duckdb = True
        try:
            Run.strategy(self, stratum)(stratum)
        finally:
            self.in_duckdb = False

    def classify(self) -> None:
        """Find the rules the compiler refuses; with ``fallback`` they run as DuckDB SQL, else the refusal stands."""
        def check(ri: RuleInfo) -> bool:
            if ri.aggregate is not None and ri.aggregate[1].func in S.FLOAT_AGGREGATES and \
                    (ri.var_types.get(ri.aggregate[0]) or "float") == "float":
                return False  # a float sum, average or product: DuckDB's exact SQL, the same bits on both engines
            b = F.ProgramBuilder(self.a)
            pos = [f"x{i}" for i in range(len(ri.positives))]
            neg = [f"y{i}" for i in range(len(ri.negations))]
            try:
                if ri.aggregate is not None:
                    b.aggregate(ri, "h", pos, neg)
                elif ri.existentials or not ri.rule.head:
                    b.bindings(ri, "h", ri.frontier if ri.existentials else ri.body_vars, pos, neg)
                else:
                    b.rule(ri, [(h, "h" + str(i)) for i, h in enumerate(ri.rule.head)], pos, neg)
                return True
            except CompileError as exc:
                if not self.engine.fallback:
                    text = exc.message
                    raise CompileError(text, [Diagnostic(ri.span, text)] if ri.span else [],
                                       self.a.program.text) from None
                return False

        for stratum in self.a.strata:
            for ri in stratum.rules:
                if not check(ri):
                    self.sql_rules.add(ri.index)
        for k, ri in enumerate(self.a.constraints):
            if not check(ri):
                self.sql_constraints.add(k)

    def cleanup(self) -> None:
        try:
            super().cleanup()
        finally:
            if self._workdir is not None:
                shutil.rmtree(self._workdir, ignore_errors=True)

    # --- running one program ----------------------------------------------------------------------------------------
    @property
    def workdir(self) -> Path:
        if self._workdir is None:
            self._workdir = Path(tempfile.mkdtemp(prefix="vo_souffle_"))
        return self._workdir

    def run_program(self, prog: F.SouffleProgram, tables: Mapping[str, str]) -> dict[str, str]:
        """Export the inputs (relation → DuckDB table or parenthesized query), run Soufflé, check the error
        relation; return each output relation as a new TEMP table (the caller drops it; cleanup drops the rest).

        Relations travel as plain TSV when that is exact (see :meth:`export`), else with ``rfc4180`` quoting; an
        output with symbols is plain only when every input symbol and string constant is clean (a symbol Soufflé
        derives is made of those, and ``cat``/``substr`` cannot make a tab or newline out of them)."""
        self.n_programs += 1
        self.engine.tally("programs")
        d = self.workdir / f"p{self.n_programs}"
        d.mkdir()
        plain: set[str] = set()
        clean = prog.clean
        for rel, types in prog.inputs.items():
            if self.export(tables[rel], types, d / f"{rel}.facts"):
                plain.add(rel)
            elif "string" in types:
                clean = False
        plain |= {rel for rel, types in prog.outputs.items() if types and (clean or "string" not in types)}
        text = prog.text_for(plain)
        (d / "prog.dl").write_text(text, encoding="utf-8")
        self.invoke(prog, text, d)
        out = {rel: self.import_output(d / f"{rel}.csv", types, rel in plain) for rel, types in prog.outputs.items()}
        if F.ERROR_RELATION in out:
            err_table = out.pop(F.ERROR_RELATION)
            first = self.store.con.execute(f"SELECT min(c0) FROM {err_table}").fetchone()[0]
            self.store.con.execute(f"DROP TABLE {err_table}")
            if first is not None:
                label, span = prog.errors[first]
                text = f"division by zero in {label}"
                raise EngineError(text, [Diagnostic(span, text)] if span else [], self.a.program.text)
        shutil.rmtree(d, ignore_errors=True)
        return out

    def export(self, source: str, types: Sequence[str], path: Path) -> bool:
        """Write a ``.facts`` file with DuckDB's CSV writer; True when it is plain TSV (fields verbatim), False when
        it is quoted for Soufflé's ``rfc4180`` reader (tab-separated, every symbol quoted, a quote doubled). Bools
        are written as 0/1; a nullary fact is ``()``.

        Numbers are always plain. Symbols are written plain first, with \\x01 as DuckDB's quote character and \\x02
        as its null string: DuckDB quotes exactly the fields holding a tab, newline, carriage return or \\x01, or
        equal to \\x02, so a file with neither byte has every symbol verbatim, and is kept. Otherwise the file is
        written again, quoted."""
        if not types:
            present = self.store.con.execute(f"SELECT count(*) FROM (SELECT 1 FROM {source} LIMIT 1)").fetchone()[0]
            path.write_bytes(b"()\n" if present else b"")
            return False
        names = [f"c{i}" for i in range(len(types))]
        cols = ", ".join(f"CAST({n} AS INTEGER) AS {n}" if t == "bool" else n for n, t in zip(names, types, strict=True))
        select = f"(SELECT {cols} FROM {source} AS src({', '.join(names)}))"
        strings = [n for n, t in zip(names, types, strict=True) if t == "string"]
        target = S.sql_string(str(path))
        self.store.con.execute(f"COPY {select} TO {target} (FORMAT csv, DELIMITER '\t', HEADER false, QUOTE '\x01', "
                         "ESCAPE '\x01', NULL '\x02')")
        if not strings or not _has_bytes(path, b"\x01", b"\x02"):
            return True
        self.store.con.execute(f"COPY {select} TO {target} (FORMAT csv, DELIMITER '\t', HEADER false, QUOTE '\"', "
                         f"ESCAPE '\"', FORCE_QUOTE ({', '.join(strings)}))")
        return False

    def import_output(self, path: Path, types: Sequence[str], plain: bool = False) -> str:
        """Load a Soufflé ``.csv`` output into a new TEMP table with DuckDB's reader: plain TSV (fields verbatim; an
        empty field is an empty string), or ``rfc4180`` (symbols in quotes, a quote inside written as ``\\""``,
        newlines and tabs raw). Floats have up to 17 significant digits."""
        self.n_tables += 1
        name = f"out{self.n_tables}"
        table = self.store.temp(name)
        info = PredInfo(table, len(types), tuple(types), tuple(f"c{i}" for i in range(len(types))), "idb")  # type: ignore[arg-type]
        size = path.stat().st_size if path.exists() else 0
        if not types or size == 0:
            self.store.create_table(name, info)
            if not types and size and path.read_bytes().strip():
                self.store.exec(f"INSERT INTO {table} VALUES (TRUE)")
            return table
        read_types = {"string": "VARCHAR", "int": "BIGINT", "float": "DOUBLE", "bool": "BIGINT"}
        columns = "{" + ", ".join(f"'c{i}': '{read_types[t]}'" for i, t in enumerate(types)) + "}"
        select = ", ".join(
            f"replace(c{i}, '\\\"', '\"') AS c{i}" if t == "string" and not plain
            else f"c{i} <> 0 AS c{i}" if t == "bool" else f"c{i}"
            for i, t in enumerate(types))
        # plain: no quote character, and a null string no symbol can equal (no input held \x02, see export)
        quoting = "quote = '', escape = '', nullstr = '\x02'" if plain else "quote = '\"', escape = '\"'"
        self.store.exec(f"CREATE TEMP TABLE {table} AS SELECT {select} FROM read_csv({S.sql_string(str(path))}, "
                  f"columns = {columns}, header = false, delim = '\t', {quoting}, "
                  "auto_detect = false, allow_quoted_nulls = false)", "reading Soufflé's output")
        self.store.created[table] = "TABLE"
        if plain and tuple(types) == ("string",) and _has_empty_line(path):  # DuckDB's reader skips blank lines
            self.store.exec(f"INSERT INTO {table} VALUES ('')")
        return table

    def remaining(self) -> float | None:
        if self.deadline is None:
            return None
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise LimitExceeded(f"time limit exceeded: the Soufflé run took longer than {self.engine.timeout:g} s",
                                limit="time")
        return left

    def spawn(self, cmd: list[str], cwd: Path, what: str) -> tuple[int, str]:
        limit = self.engine.memory_limit

        def preexec() -> None:
            if limit is not None:
                resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

        self.engine.invocations += 1
        proc = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True, preexec_fn=preexec, text=True,
                                errors="replace")
        budget = self.engine.budget
        try:
            while True:  # in short waits, so that a cancelled call (its Budget) kills the binary too
                left = self.remaining()
                try:
                    _out, err = proc.communicate(timeout=left if budget is None else min(left or BUDGET_POLL,
                                                                                         BUDGET_POLL))
                    break
                except subprocess.TimeoutExpired:
                    if budget is not None and budget.reason is not None:
                        _kill_group(proc)
                        raise budget.error(f"running {what}") from None
                    if left is not None and left <= BUDGET_POLL or budget is None:
                        raise
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            raise LimitExceeded(f"{what} exceeded the time limit of {self.engine.timeout:g} s and was killed",
                                limit="time") from None
        except BaseException:
            _kill_group(proc)
            raise
        return proc.returncode, err

    def invoke(self, prog: F.SouffleProgram, text: str, d: Path) -> None:
        """Run ``text`` (``prog`` with its IO options, written to ``d/prog.dl``) on the files in ``d``."""
        jobs = f"-j{self.engine.jobs}"
        if self.engine.mode == "compiled":
            exe = self.compiled(prog, text, d)
            cmd, what = [str(exe), "-F", str(d), "-D", str(d), jobs], "Soufflé program"
        else:
            cmd = [self.engine.binary, "-w", "-z", SKIPPED_TRANSFORMERS, jobs, "-F", str(d), "-D", str(d),
                   str(d / "prog.dl")]
            what = "Soufflé"
        start = time.perf_counter()
        rc, err = self.spawn(cmd, d, what)
        self.engine.tally("souffle_runs")
        self.engine.tally("souffle_seconds", time.perf_counter() - start)
        if rc != 0:
            raise self.souffle_error(prog, rc, err)

    def compiled(self, prog: F.SouffleProgram, text: str, d: Path) -> Path:
        """The binary of ``prog`` from the cache, compiled first when missing (with ``-j`` when ``jobs`` > 1:
        Soufflé generates parallel code only then)."""
        jobs = ["-j", str(self.engine.jobs)] if self.engine.jobs > 1 else []
        key = hashlib.sha256("\0".join([self.engine.binary, *jobs, text]).encode()).hexdigest()[:32]
        cache = self.engine.cache_dir
        exe = cache / f"prog_{key}"
        if exe.exists():
            return exe
        cache.mkdir(parents=True, exist_ok=True)
        tmp_exe = d / "prog_bin"
        start = time.perf_counter()
        rc, err = self.spawn([self.engine.binary, "-w", *jobs, "-o", str(tmp_exe), str(d / "prog.dl")], d,
                             "Soufflé compilation")
        self.engine.tally("compilations")
        self.engine.tally("compile_seconds", time.perf_counter() - start)
        if rc != 0 or not tmp_exe.exists():
            raise self.souffle_error(prog, rc, err)
        os.replace(tmp_exe, exe) if tmp_exe.stat().st_dev == cache.stat().st_dev else shutil.copy2(tmp_exe, exe)
        return exe

    def souffle_error(self, prog: F.SouffleProgram, rc: int, err: str) -> EngineError:
        """Soufflé's complaint, with the rule it concerns when its line is one of ours."""
        lines = [ln for ln in err.splitlines() if ln.strip()]
        first = next((ln for ln in lines if ln.lower().startswith("error")), lines[0] if lines else "")
        m = re.search(r"at line (\d+)", err)
        where = prog.lines.get(int(m.group(1))) if m else None
        conv = re.search(r'to_number\("(.*)"\)` functor', err, re.S)
        if conv is not None and prog.conversions:
            label, span = prog.conversions[0]
            text = f"{label}: could not convert string {conv.group(1)!r} to a number"
            return EngineError(text, [Diagnostic(span, text)] if span else [], self.a.program.text)
        if rc < 0:
            sig = signal.Signals(-rc).name
            reason = f"Soufflé stopped by {sig}" + (f": {first}" if first else "")
            if -rc == signal.SIGKILL or "bad_alloc" in err:
                reason += " (memory limit?)"
        else:
            reason = f"Soufflé failed: {first}" if first else f"Soufflé failed with exit status {rc}"
        if "bad_alloc" in err and self.engine.memory_limit is not None:
            reason += f" (out of memory: the limit is {self.engine.memory_limit / 2**30:g} GiB)"
        if where is not None:
            label, span = where
            text = f"{label}: {reason}"
            return EngineError(text, [Diagnostic(span, text)] if span else [], self.a.program.text)
        return EngineError(reason)

    def adopt(self, pred: str, table: str) -> None:
        """Make ``table`` (an output of :meth:`run_program`) the relation of ``pred``, dropping the old one."""
        old = self.tables[pred]
        self.tables[pred] = table
        self.store.con.execute(f"DROP TABLE IF EXISTS {old}")

    # --- strata Soufflé evaluates by itself -------------------------------------------------------------------------
    def native(self, strata: Sequence[Stratum]) -> None:
        self.engine.progress("souffle: strata " + "; ".join(", ".join(s.preds) for s in strata))
        defined = [p for s in strata for p in s.preds]
        seeded = [p for p in defined if self.a.facts.get(p)]
        # only what is returned or read later comes back (an intermediate such as the union before an aggregate
        # stays inside Soufflé, as the DuckDB engine keeps it a view)
        later = [ri for s in self.a.strata if s not in strata for ri in s.rules] + list(self.a.constraints)
        needed = self.kept | {a.pred for ri in later for a in ri.positives + ri.negations}
        outputs = [p for p in defined if p in needed]
        prog = F.compile_strata(self.a, strata, seeded=seeded, outputs=outputs)
        tables = {}
        for rel in prog.inputs:
            pred = rel[2:]
            tables[rel] = self.tables[pred]
        out = self.run_program(prog, tables)
        for p in outputs:
            self.adopt(p, out[F.relation_name(p)])

    # --- recursive strata with aggregates: several rounds per program -----------------------------------------------
    def layered(self, stratum: Stratum) -> None:
        """Run the stratum ``layers`` rounds per Soufflé program (:func:`F.compile_layers`: each layer is one round
        of the DuckDB engine), feeding each program the relations and the last round's new tuples, until a round
        derives nothing. The programs return only what changed (see :class:`F.LayerPlan`), applied here with SQL.
        The round limit counts rounds as the DuckDB engine does: the first, then at most ``max_rounds`` more."""
        preds = list(stratum.preds)
        limit = self.engine.max_rounds + 1
        done = 0
        deltas: dict[str, str] | None = None  # the previous program's new tuples (None: first round)
        computed: dict[str, str] = {}  # aggregate head -> whether the previous program's last layer recomputed it
        programs: dict[int, tuple[F.SouffleProgram, F.LayerPlan]] = {}
        k = min(self.engine.layers, limit)
        try:
            programs[k] = F.compile_layers(self.a, stratum, k)
        except CompileError:  # too many body alternatives: round by round
            self.stratum(stratum)
            return
        try:
            while True:
                k = min(self.layer_count(preds) if deltas is not None else self.engine.layers, limit - done)
                if k not in programs:
                    try:
                        programs[k] = F.compile_layers(self.a, stratum, k)
                    except CompileError:  # more layers than the rule's alternatives allow: the engine's count
                        k = min(self.engine.layers, limit - done)
                        if k not in programs:
                            programs[k] = F.compile_layers(self.a, stratum, k)
                prog, plan = programs[k]
                self.engine.progress(f"souffle: stratum {', '.join(preds)} (recursive), rounds {done + 1}-{done + k}")
                tables = {F.relation_name(q): self.tables[q] for q in self.a.predicates
                          if F.relation_name(q) in prog.inputs}
                for p in preds:
                    tables[f"f0_{p}"] = self.tables[p]
                    tables[f"d0_{p}"] = deltas[p] if deltas is not None else self.tables[p]
                tables[F.FIRST_RELATION] = "(SELECT TRUE)" if deltas is None else "(SELECT TRUE WHERE FALSE)"
                for h in plan.computed:
                    tables[f"ch0_{h}"] = computed.get(h, "(SELECT TRUE)")
                out = self.run_program(prog, tables)
                counts = self.store.con.execute(f"SELECT c0, c1, c2 FROM {out[F.COUNT_RELATION]}").fetchall()
                for t in [*(deltas or {}).values(), *computed.values()]:
                    self.store.con.execute(f"DROP TABLE IF EXISTS {t}")
                self.apply_layers(plan, out)
                deltas = {p: out[rel] for p, rel in plan.deltas.items()}
                computed = {h: out[rel] for h, rel in plan.computed.items()}
                per_layer: dict[int, dict[str, int]] = {}
                for layer, idx, n in counts:
                    per_layer.setdefault(layer, {})[preds[idx]] = n
                quiet = [i for i in range(1, k + 1) if not any(per_layer.get(i, {}).values())]
                rounds = quiet[0] if quiet else k
                done += rounds
                self.engine.tally("rounds", rounds)
                if quiet:
                    return
                if done >= limit:  # the last allowed round still derived new tuples
                    last = per_layer.get(k, {})
                    raise self.round_limit(stratum, {p: (last.get(p, 0), None) for p in preds})
        finally:
            for t in [*(deltas or {}).values(), *computed.values()]:
                self.store.con.execute(f"DROP TABLE IF EXISTS {t}")

    def layer_count(self, preds: Sequence[str]) -> int:
        """Rounds for the next program of a layered stratum: ``layers``, or more in interpreted mode when reloading
        the stratum's relations costs more than the start-up of a longer program (see ``LOAD_SECONDS_PER_ROW``)."""
        base = self.engine.layers
        if self.engine.mode != "interpreted" or base >= MAX_LAYERS:
            return base
        rows = sum(self.store.count(self.tables[p]) for p in preds)
        best = math.sqrt(rows * LOAD_SECONDS_PER_ROW / STARTUP_SECONDS_PER_LAYER2)
        return max(base, min(MAX_LAYERS, int(best) // 8 * 8))

    def apply_layers(self, plan: F.LayerPlan, out: dict[str, str]) -> None:
        """Bring the stratum's relations up to date with a layered program's outputs, and drop those but the last
        layer's new tuples and aggregate flags (the next program's inputs)."""
        for p, rels in plan.grow.items():
            self.store.exec(f"INSERT INTO {self.tables[p]} " + " UNION ALL ".join(f"SELECT * FROM {out[r]}" for r in rels))
        replaced = set()
        for p, rel in plan.replace.items():
            self.adopt(p, out[rel])
            replaced.add(rel)
        for p, (values, regrouped, cols) in plan.override.items():
            full = self.tables[p]
            keys = cols if regrouped == values else range(len(cols))
            same = " AND ".join(f"g.c{j} = {full}.c{c}" for j, c in zip(keys, cols, strict=True)) or "TRUE"
            self.store.exec(f"DELETE FROM {full} WHERE EXISTS (SELECT 1 FROM {out[regrouped]} AS g WHERE {same})")
            self.store.exec(f"INSERT INTO {full} SELECT * FROM {out[values]}")
        keep = replaced | set(plan.deltas.values()) | set(plan.computed.values())
        for rel, t in out.items():
            if rel not in keep:
                self.store.con.execute(f"DROP TABLE IF EXISTS {t}")

    # --- strata the engine iterates (same round structure as the DuckDB engine) ---------------------------------------
    def _builder(self) -> tuple[F.ProgramBuilder, dict[str, str], Callable[[str, str], str]]:
        b = F.ProgramBuilder(self.a)
        tables: dict[str, str] = {}
        by_table: dict[str, str] = {}

        def rel(table: str, pred: str) -> str:
            if table not in by_table:
                by_table[table] = f"i{len(by_table)}_{pred}"
                tables[by_table[table]] = table
                b.input(by_table[table], self.a.predicates[pred].types)
            return by_table[table]

        return b, tables, rel

    def round(self, stratum: Stratum, deltas) -> dict[str, tuple[int, str | None]]:
        if self.in_duckdb:
            if self.deadline is not None and time.monotonic() > self.deadline:  # the run's limit, checked each round
                raise EngineError(f"stratum {', '.join(stratum.preds)} exceeded the run's time limit of "
                                  f"{self.engine.timeout:g} s (after {self.round_no} rounds)")
            return Run.round(self, stratum, deltas)
        preds = list(stratum.preds)
        infos = self.a.predicates
        plain = [ri for ri in stratum.rules if ri.aggregate is None and not ri.existentials]
        b, tables, rel = self._builder()
        has_parts: set[str] = set()
        sql_parts: dict[str, list[tuple[str, RuleInfo]]] = {}
        for ri in plain:
            if ri.index in self.sql_rules:
                for tbls, negs in self.variants(ri, stratum, deltas):
                    for h in ri.rule.head:
                        sql_parts.setdefault(h.pred, []).append(
                            (S.rule_sql(ri, h, infos[h.pred].types, tbls, negs), ri))
                        has_parts.add(h.pred)
                continue
            for tbls, negs in self.variants(ri, stratum, deltas):
                pos = [rel(t, a.pred) for t, a in zip(tbls, ri.positives, strict=True)]
                neg = [rel(t, a.pred) for t, a in zip(negs, ri.negations, strict=True)]
                heads = [(h, "o_" + h.pred) for h in ri.rule.head]
                for h in ri.rule.head:
                    b.output("o_" + h.pred, infos[h.pred].types)
                    has_parts.add(h.pred)
                b.rule(ri, heads, pos, neg)
        out = self.run_program(b.render(), tables) if b.outputs else {}
        new: dict[str, str] | None = None
        if stratum.recursive:
            self.round_no += 1
            new = {p: self.store.temp(f"{p}_new{self.round_no}") for p in preds}
        for p in preds:
            full = self.tables[p]
            cand = None
            if p in has_parts:
                cand = out.get("o_" + p) or self.store.create_table(f"{p}_cand{self.n_programs}", infos[p])
                for sql, ri in sql_parts.get(p, []):
                    self.store.exec(f"INSERT INTO {cand} {sql}", S.rule_label(ri), ri.span)
            if new is not None:
                if cand is not None:
                    self.store.exec(f"CREATE TEMP TABLE {new[p]} AS SELECT * FROM {cand} EXCEPT SELECT * FROM {full}")
                    self.store.created[new[p]] = "TABLE"
                else:
                    self.ensure_new(new, p)
            elif cand is not None:
                self.store.exec(f"INSERT INTO {full} SELECT * FROM {cand} EXCEPT SELECT * FROM {full}")
            if cand is not None:
                self.store.exec(f"DROP TABLE {cand}")
        return self.finish_round(stratum, deltas, new, set(has_parts))

    def aggregate(self, ri: RuleInfo, stratum: Stratum, deltas, new: dict[str, str] | None) -> int | None:
        if self.in_duckdb:
            return Run.aggregate(self, ri, stratum, deltas, new)
        head = ri.rule.head[0].pred
        info = self.a.predicates[head]
        if deltas is not None and not any(deltas.get(a.pred, (0, None))[0] for a in ri.positives):
            return
        tbls, negs = self.rule_tables(ri, None, None)
        if ri.index in self.sql_rules:
            fresh = self.store.temp(f"{head}_agg")
            self.store.exec(f"CREATE OR REPLACE TEMP TABLE {fresh} AS {S.aggregate_sql(ri, info.types, tbls, negs)}",
                      S.rule_label(ri), ri.span)
            self.store.created[fresh] = "TABLE"
            self.replace_aggregate(head, fresh, new)
            return
        b, tables, rel = self._builder()
        b.output("o_" + head, info.types)
        b.aggregate(ri, "o_" + head, [rel(t, a.pred) for t, a in zip(tbls, ri.positives, strict=True)],
                    [rel(t, a.pred) for t, a in zip(negs, ri.negations, strict=True)])
        fresh = self.run_program(b.render(), tables)["o_" + head]
        self.replace_aggregate(head, fresh, new)

    def chase(self, ri: RuleInfo, stratum: Stratum, deltas, new: dict[str, str] | None) -> None:
        """One restricted-chase step: Soufflé computes the frontier bindings; the check against the heads and the
        null numbering are the DuckDB engine's."""
        if self.in_duckdb:
            return Run.chase(self, ri, stratum, deltas, new)
        label = S.rule_label(ri)
        variants = list(self.variants(ri, stratum, deltas))
        if not variants:
            return
        if ri.index in self.sql_rules:
            bind_table = self.store.temp("chase_bindings")
            union = " UNION ".join(f"({S.bindings_sql(ri, t, n)[0]})" for t, n in variants)
            cols = ", ".join(f"{S.quote_ident('v_' + v)} AS c{i}" for i, v in enumerate(ri.frontier)) or "TRUE AS c_"
            self.store.exec(f"CREATE OR REPLACE TEMP TABLE {bind_table} AS SELECT DISTINCT {cols} FROM ({union})",
                      label, ri.span)
            self.store.created[bind_table] = "TABLE"
            self.chase_from(ri, bind_table, new)
            return
        b, tables, rel = self._builder()
        types: tuple[str, ...] = ()
        for tbls, negs in variants:
            types = b.bindings(ri, "o_front", ri.frontier,
                               [rel(t, a.pred) for t, a in zip(tbls, ri.positives, strict=True)],
                               [rel(t, a.pred) for t, a in zip(negs, ri.negations, strict=True)])
        b.output("o_front", types)
        bind_table = self.run_program(b.render(), tables)["o_front"]
        if self.store.count(bind_table):
            self.chase_from(ri, bind_table, new)
        self.store.con.execute(f"DROP TABLE {bind_table}")

    def chase_from(self, ri: RuleInfo, bind_table: str, new: dict[str, str] | None) -> None:
        cols = ", ".join(f"c{i} AS {S.quote_ident('v_' + v)}" for i, v in enumerate(ri.frontier)) or "TRUE AS v__"
        self.chase_from_body(ri, f"SELECT {cols} FROM {bind_table}", new)

    # --- constraints --------------------------------------------------------------------------------------------------
    def check_constraints(self) -> None:
        if not self.a.constraints:
            return
        b, tables, rel = self._builder()
        types_of = []
        for k, ri in enumerate(self.a.constraints):
            tbls, negs = self.rule_tables(ri, None, None)
            types_of.append(())
            if k in self.sql_constraints:
                continue
            types = b.bindings(ri, f"o_v{k}", ri.body_vars,
                               [rel(t, a.pred) for t, a in zip(tbls, ri.positives, strict=True)],
                               [rel(t, a.pred) for t, a in zip(negs, ri.negations, strict=True)])
            b.output(f"o_v{k}", types)
            types_of[k] = types
        out = self.run_program(b.render(), tables) if b.outputs else {}
        limit = self.engine.max_witnesses
        for k, ri in enumerate(self.a.constraints):
            if k in self.sql_constraints:
                tbls, negs = self.rule_tables(ri, None, None)
                body, _ = S.bindings_sql(ri, tbls, negs)
                rows = self.store.exec(f"SELECT * FROM ({body}) ORDER BY ALL LIMIT {limit + 1}", S.rule_label(ri),
                                 ri.span).fetchall()
                if not rows:
                    continue
            elif not self.store.count(found := out[f"o_v{k}"]):
                continue
            elif types_of[k]:
                rows = self.store.con.execute(f"SELECT * FROM {found} ORDER BY ALL LIMIT {limit + 1}").fetchall()
            else:
                rows = [(True,)]
            names = [n for n in ri.body_vars if not n.startswith("_")]
            witnesses = [dict(zip(ri.body_vars, r, strict=False)) for r in rows[:limit]]
            shown = "; ".join(", ".join(f"{k2}={v!r}" for k2, v in w.items() if k2 in names) for w in witnesses[:3])
            more = " (and more)" if len(rows) > 3 else ""
            text = f"negative constraint violated: {shown}{more}"
            raise ConstraintViolation(text, [Diagnostic(ri.span, text)], self.a.program.text, witnesses)


def _has_bytes(path: Path, *needles: bytes) -> bool:
    """Whether the file holds any of ``needles`` (memchr speed: LUBM's 11 MB of facts in a few ms)."""
    if path.stat().st_size == 0:
        return False
    with path.open("rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
        return any(m.find(n) >= 0 for n in needles)


def _has_empty_line(path: Path) -> bool:
    with path.open("rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
        return m[:1] == b"\n" or m.find(b"\n\n") >= 0


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    try:
        proc.communicate(timeout=10)
    except (subprocess.TimeoutExpired, ValueError):
        pass


__all__ = ["CompileError", "SouffleEngine", "decode_output", "encode_facts"]
