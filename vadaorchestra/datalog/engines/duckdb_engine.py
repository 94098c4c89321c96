"""Bottom-up evaluation of an analyzed program inside a DuckDB connection.

Every intermediate relation is a TEMP table of the connection, or a query its readers inline (a table of the
database, an intermediate read once, a predicate's part of a stratum computed as one tagged relation); the target
database is written only at the very end, in one transaction, and only when evaluation succeeded — an error of any
kind leaves it as it was. Recursive strata are evaluated semi-naively (linear ones as one recursive CTE); rules with
monotonic aggregates are recomputed from the full relations each round for the groups that changed (their value per
group at the fixpoint is what remains); existential rules follow the restricted chase.

Each statement costs DuckDB about 0.4 ms however little it does (catalog, planning), so the engine issues few: a
relation computed whole is created by the statement that computes it, a relation read once is not stored, and a
run's phases are counted in benchmarks/README.md.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import duckdb

from vadaorchestra.datalog import ast as A
from vadaorchestra.datalog import sql as S
from vadaorchestra.datalog.engines.plan import aggregate_keys, copied_predicates, unique_rows, unused_predicates
from vadaorchestra.datalog.engines.store import RelationStore
from vadaorchestra.datalog.validator import Analysis, Bind, PredInfo, RuleInfo, Stratum
from vadaorchestra.errors import (
    Cancelled,
    ConstraintViolation,
    Diagnostic,
    LimitExceeded,
    RoundLimitExceeded,
    VadaError,
)

if TYPE_CHECKING:
    from vadaorchestra.datalog.limits import Budget

DUCKDB_TYPE_MAP = {
    "VARCHAR": "string", "BOOLEAN": "bool", "DOUBLE": "float", "FLOAT": "float", "REAL": "float",
    "BIGINT": "int", "INTEGER": "int", "SMALLINT": "int", "TINYINT": "int", "HUGEINT": "int", "UBIGINT": "int",
    "UINTEGER": "int", "USMALLINT": "int", "UTINYINT": "int",
}


def our_type(duckdb_type: str) -> str:
    """Map a DuckDB column type to the dialect's column type (decimals are floats, anything else is a string)."""
    t = duckdb_type.upper()
    if t.startswith("DECIMAL"):
        return "float"
    return DUCKDB_TYPE_MAP.get(t, "string")


class Evaluation(NamedTuple):
    rows: dict[str, list[tuple]]
    counts: dict[str, int]
    next_null: int


class DuckDBEngine:
    """Evaluate analyzed programs on a DuckDB connection (an in-memory or file database)."""

    name = "duckdb"

    def __init__(self, connection: duckdb.DuckDBPyConnection, *, max_rounds: int = 1000, max_witnesses: int = 10,
                 progress: Callable[[str], None] | None = None, budget: Budget | None = None,
                 max_rows: int | None = None):
        """``budget``: the call's time and cancellation (checked before each statement; its interrupts end a running
        one); ``max_rows``: the most facts a derived predicate may hold (checked after each round)."""
        self.con = connection
        self.max_rounds = max_rounds
        self.budget = budget
        self.max_rows = max_rows
        self.max_witnesses = max_witnesses
        self.progress = progress or (lambda _msg: None)

    # ------------------------------------------------------------------------------------------------------------
    def evaluate(
        self,
        analysis: Analysis,
        *,
        inputs: Mapping[str, Sequence[tuple]] | None = None,
        collect: Sequence[str] = (),
        materialize: Mapping[str, str] | None = None,
        null_start: int = 1,
        limit: int | None = None,
        append: bool = False,
    ) -> Evaluation:
        """Evaluate the program; return the sorted rows of each collected predicate (at most ``limit`` of each), the
        cardinality of each collected or materialized predicate, and the next free null number.

        ``materialize`` maps predicates to table names written into the connection's database when (and only when)
        the whole evaluation succeeds; with ``append`` the rows are added to an existing table (set semantics: rows it
        already holds are not added twice) instead of replacing it.
        """
        run = self.new_run(analysis, inputs or {}, null_start)
        run.prepare(set(collect) | set(materialize or {}))
        try:
            if not materialize:
                run.store.begin()
            run.load()
            run.run_strata()
            run.check_constraints()
            rows = run.fetch_all(collect, limit)
            # a predicate returned whole is counted by its rows: no statement (LUBM returns 20)
            counts = {p: len(rows[p]) if p in rows and (limit is None or len(rows[p]) < limit) else run.cardinality(p)
                      for p in dict.fromkeys([*collect, *(materialize or {})])}
            if materialize:
                run.materialize(materialize, append)
            return Evaluation(rows, counts, run.next_null)
        finally:
            run.cleanup()

    def new_run(self, analysis: Analysis, inputs, null_start: int) -> Run:
        """The per-evaluation state; engines built on this one return their own subclass."""
        return Run(self, analysis, inputs, null_start)

    def new_store(self, analysis: Analysis) -> RelationStore:
        """Where a run keeps its relations: TEMP tables of the connection."""
        return RelationStore(self.con, budget=self.budget, text=analysis.program.text)


class Run:
    """One evaluation of an analysis: strata in order, each by the strategy :meth:`strategy` picks, every relation
    in the engine's :class:`~vadaorchestra.datalog.engines.store.RelationStore` (``self.store``).

    The SQL rounds are the default strategy: a non-recursive stratum is one round; a recursive one runs semi-naive
    rounds (:meth:`round`: the plain rules on the last round's deltas, then :meth:`finish_round`: the chase and the
    aggregates) until no delta is left. Engines built on this one extend those steps (Soufflé, explain's ranks).
    """

    def __init__(self, engine: DuckDBEngine, analysis: Analysis, inputs, null_start: int):
        self.engine = engine
        self.store = engine.new_store(analysis)
        self.a = analysis
        self.inputs = inputs
        self.tables: dict[str, str] = {}
        self.next_null = null_start
        self.round_no = 0
        self.views: set[str] = set()
        self.sets: set[str] = set()
        self.kept: set[str] = set()
        self.news: dict[str, int] = {}  # this round's new tuples so far (finish_round), per predicate: rows, -1 unknown
        self.deferred: set[str] = set()  # derived predicates whose relation their stratum creates (plan_views)
        self.unused: set[str] = set()  # derived predicates nothing kept depends on, not computed (plan_views)
        self.copies: dict[str, str] = {}  # predicate -> the one it copies, read in its place (plan_views)
        self.slots: set[str] = set()  # the names round() gives its new tables, by turns
        self.memo: dict[tuple, object] = {}  # SQL text made for a rule and the relations it reads (cached)

    def prepare(self, kept: set[str]) -> None:
        """Plan the evaluation before anything is loaded; ``kept`` are the predicates returned or materialized."""
        self.kept = set(kept)
        self.plan_views(kept)

    def run_strata(self) -> None:
        for stratum in self.a.strata:
            if all(p in self.unused for p in stratum.preds):
                continue
            if len(stratum.preds) == 1 and stratum.preds[0] in self.copies:
                (p,) = stratum.preds
                source = self.tables[self.copies[p]]
                if p in self.kept and self.copies[p] not in self.sets:  # returned: a set, made where it is read
                    source = self.store.view(self.store.temp(p + "_view"), f"SELECT DISTINCT * FROM {source}")
                self.tables[p] = source
                continue
            try:
                self.strategy(stratum)(stratum)
                for p in stratum.preds:  # a deferred relation its rules did not make (they derived nothing)
                    if p not in self.tables:
                        self.tables[p] = self.store.create_table(p, self.a.predicates[p])
            except (duckdb.InterruptException, LimitExceeded, Cancelled) as exc:
                # stopped in a statement that names no rule (a count, a copy of a round's delta): name the stratum's
                budget = self.engine.budget
                if isinstance(exc, VadaError) and exc.diagnostics:
                    raise
                ri = stratum.rules[0]
                label = S.rule_label(ri) if len(stratum.rules) == 1 else f"rules for {', '.join(stratum.preds)}"
                if isinstance(exc, LimitExceeded) and exc.limit == "memory":
                    raise self.out_of_memory(label, ri.span) from None
                if budget is None or budget.reason is None:
                    raise
                raise budget.error(label, ri.span, self.a.program.text) from None

    def plan_views(self, kept: set[str]) -> None:
        """Decide which relations are sets and which intermediates can stay views.

        A predicate of a non-recursive stratum without facts or existential rules, read by exactly one body atom of
        a non-recursive rule and not returned, is computed inside its reader's query (a TEMP VIEW) instead of being
        stored: the 'part' of a join + aggregate then costs what the hand-written query costs.
        """
        copies: dict[str, str] = {}
        if self.engine.max_rows is None:  # with a row limit every relation is computed, and checked
            self.unused = unused_predicates(self.a, kept)
            copies = copied_predicates(self.a)
        reads: dict[str, list[RuleInfo]] = {}
        recursive_rules = {ri.index for s in self.a.strata if s.recursive for ri in s.rules}
        for ri in [r for s in self.a.strata for r in s.rules] + list(self.a.constraints):
            for atom in ri.positives + ri.negations:
                reads.setdefault(atom.pred, []).append(ri)
        for stratum in self.a.strata:
            if stratum.recursive or len(stratum.preds) != 1 or stratum.preds[0] in copies:
                continue
            (p,) = stratum.preds
            readers = reads.get(p, [])
            if (p not in kept and not self.a.facts.get(p) and len(readers) == 1
                    and readers[0].index not in recursive_rules and readers[0] not in self.a.constraints
                    and not any(ri.existentials for ri in stratum.rules)):
                self.views.add(p)
        # a source computed inside its one reader's query (the copy rule) would be computed again by each reader
        self.copies = {p: q for p, q in copies.items() if q not in self.views}
        sets = self.set_relations()
        self.sets = {p for p in sets if p not in self.copies or self.copies[p] in sets or p in kept}
        # a relation that one statement of its stratum computes whole is created by that statement (CREATE ... AS),
        # not empty beforehand and then filled: one statement fewer each (LUBM: 30 of its 41 derived predicates)
        chased = {h.pred for s in self.a.strata for ri in s.rules if ri.existentials for h in ri.rule.head}
        self.deferred = {p for s in self.a.strata if not s.recursive or self.strategy(s) == self.linear_cte
                         for p in s.preds if not self.a.facts.get(p) and p not in chased}

    def set_relations(self) -> set[str]:
        """The predicates whose relations hold no duplicate: database tables are read through plain views and may
        hold duplicates; everything loaded or derived here is a set."""
        return {p for p, i in self.a.predicates.items() if i.kind not in ("input", "external") or p in self.inputs}

    # --- plumbing ---------------------------------------------------------------------------------------------------
    def out_of_memory(self, label: str, span) -> LimitExceeded:
        return self.store.out_of_memory(label, span)

    def check_rows(self, stratum: Stratum) -> None:
        """Fail when a predicate of the stratum holds more facts than the engine's ``max_rows``."""
        cap = self.engine.max_rows
        if cap is None:
            return
        for p in stratum.preds:
            if p in self.views or p not in self.tables:
                continue
            n = self.store.count(self.tables[p])
            if n > cap:
                ri = next(r for r in stratum.rules if any(h.pred == p for h in r.rule.head))
                text = (f"row limit exceeded: {p!r} holds {n} facts, more than the {cap} a predicate may hold, "
                        f"derived by the {S.rule_label(ri)}; nothing was written")
                raise LimitExceeded(text, [Diagnostic(ri.span, text)], self.a.program.text, limit="rows")

    def cleanup(self) -> None:
        self.store.cleanup()

    # --- loading ----------------------------------------------------------------------------------------------------
    def load(self) -> None:
        """Base data, facts and inputs into the store; an empty relation for every predicate rules derive."""
        binds = {b.pred: b for b in self.a.binds}
        store = self.store
        for name, info in self.a.predicates.items():
            if info.kind == "bind":
                self.tables[name] = store.load_bind(binds[name], info)
            elif info.kind in ("input", "external"):
                self.tables[name] = (store.load_input(name, info, self.inputs[name]) if name in self.inputs
                                     else store.load_table(name, info))
            elif name not in self.deferred and name not in self.unused:
                self.tables[name] = store.create_table(name, info)
                rows = self.a.facts.get(name, ())
                if rows:
                    store.insert_rows(self.tables[name], info, rows)

    # --- strata -----------------------------------------------------------------------------------------------------
    use_cte = True  # linear recursion as one WITH RECURSIVE query (off where every round must be seen: explain)

    def strategy(self, stratum: Stratum) -> Callable[[Stratum], None]:
        """How ``stratum`` is evaluated: a linear recursion the store can run as one recursive query
        (:meth:`linear_cte`), else the SQL rounds (:meth:`stratum`). Engines built on this one add their own."""
        if stratum.recursive and self.use_cte and self.store.recursive_union and linear(stratum, self.a.predicates):
            return self.linear_cte
        return self.stratum

    def stratum(self, stratum: Stratum) -> None:
        self.engine.progress(f"stratum {', '.join(stratum.preds)}" + (" (recursive)" if stratum.recursive else ""))
        if not stratum.recursive:
            self.round(stratum, None)
            self.check_rows(stratum)
            return
        deltas = self.round(stratum, None)
        rounds = 0
        while any(n for n, _ in deltas.values()):
            self.check_rows(stratum)
            rounds += 1
            if rounds > self.engine.max_rounds:
                self.drop_deltas(deltas)
                raise self.round_limit(stratum, deltas)
            new = self.round(stratum, deltas)
            self.drop_deltas(deltas)
            deltas = new
        self.drop_deltas(deltas)
        self.check_rows(stratum)

    def linear_cte(self, stratum: Stratum) -> None:
        """A stratum :func:`linear` accepts (transitive closure, reachability, LUBM's class hierarchy): DuckDB's own
        recursive CTE (UNION: set semantics, so it terminates) computes the same fixpoint as the semi-naive rounds,
        in one statement.

        Several predicates share the CTE as one relation with a ``tag`` column (the predicate's index), which each
        rule's step reads through a filter; afterwards each predicate's relation is that filter of the stored
        result (no copy). The result starts from the facts; without facts the CTE's rows are the relation as they
        are: its UNION already made them distinct, and a check against the empty relation (EXCEPT) was a second
        hash of every row (tc of 100k edges: 4.35M rows, a quarter of the run). Three of LUBM's four recursive
        strata took 69 statements as rounds, 6 so."""
        preds = list(stratum.preds)
        self.engine.progress(f"stratum {', '.join(preds)} (recursive, one query)")
        info = self.a.predicates[preds[0]]
        cols = [f"c{i}" for i in range(info.arity)] or ["c_"]
        tagged = len(preds) > 1
        rec = self.store.temp(preds[0] + "_rec")

        def tag(k: int, select: str) -> str:  # a predicate's rows in the shared relation
            return f"SELECT {k} AS tag, * FROM ({select})" if tagged else select

        def read(q: str, table: str) -> str:  # the rows of predicate q in the shared relation ``table``
            return f"(SELECT {', '.join(cols)} FROM {table} WHERE tag = {preds.index(q)})" if tagged else table

        base = [tag(k, f"SELECT * FROM {self.tables[q]}") for k, q in enumerate(preds) if self.a.facts.get(q)]
        step = []
        for ri in stratum.rules:
            tables = [read(a.pred, rec) if a.pred in preds else self.tables[a.pred] for a in ri.positives]
            negs = [self.tables[a.pred] for a in ri.negations]
            recursive = [a for a in ri.positives if a.pred in preds]
            head = ri.rule.head[0]
            select = tag(preds.index(head.pred), S.rule_sql(ri, head, info.types, tables, negs))
            (base if not recursive else step).append(select)
        if not base:  # no facts and no rule to start from: nothing to derive
            return
        union = " UNION ALL ".join(f"({q})" for q in base)  # the CTE's UNION makes its start distinct: no hash more
        steps = " UNION ALL ".join(f"({q})" for q in step)
        label = f"rules for {', '.join(map(repr, preds))}" if len(stratum.rules) > 1 else S.rule_label(stratum.rules[0])
        span = stratum.rules[0].span if len(stratum.rules) == 1 else None
        names = ", ".join((["tag"] if tagged else []) + cols)
        query = (f"WITH RECURSIVE {rec}({names}) AS (SELECT * FROM ({union}) UNION SELECT * FROM ({steps})) "
                 f"SELECT * FROM {rec}")
        if not tagged and not self.a.facts.get(preds[0]):
            self.write(preds[0], query, label, span)
        elif not tagged:
            self.store.insert(self.tables[preds[0]], f"{query} EXCEPT SELECT * FROM {self.tables[preds[0]]}", label,
                              span)
        else:
            table = self.store.temp("_".join(preds)[:40] + "_all")
            self.store.create(table, query, label, span)
            for q in preds:
                self.tables[q] = read(q, table)
        self.check_rows(stratum)

    def drop_deltas(self, deltas) -> None:
        """Done with a round's deltas: the tables :meth:`round` names by turns are retired for the round after next
        to replace (:meth:`RelationStore.retire`), others dropped; an inlined aggregate's query has nothing."""
        for _, table in deltas.values():
            if table and self.store.made(table):
                if table in self.slots:
                    self.store.retire(table)
                else:
                    self.store.drop(table)

    def round_limit(self, stratum: Stratum, deltas) -> RoundLimitExceeded:
        active = [ri for ri in stratum.rules if any(deltas.get(h.pred, (0, None))[0] for h in ri.rule.head)]
        # with existential rules in the cycle the chase is what does not terminate; name one of them
        culprit = next((ri for ri in stratum.rules if ri.existentials), active[0] if active else stratum.rules[0])
        kind = "the chase through existential variables" if culprit.existentials else "recursion"
        text = (f"{kind} did not terminate within {self.engine.max_rounds} rounds; "
                f"{S.rule_label(culprit)} still derives new facts")
        return RoundLimitExceeded(text, [Diagnostic(culprit.span, text)], self.a.program.text)

    def rule_tables(self, ri: RuleInfo, deltas, occurrence: int | None) -> tuple[list[str], list[str]]:
        tables = [self.tables[a.pred] for a in ri.positives]
        if occurrence is not None:
            tables[occurrence] = deltas[ri.positives[occurrence].pred][1]
        return tables, [self.tables[a.pred] for a in ri.negations]

    def variants(self, ri: RuleInfo, stratum: Stratum, deltas):
        """Table assignments for one rule: all full relations in the first round, then one per recursive occurrence
        that reads the previous round's delta (semi-naive)."""
        for tables, negs, _k in self.occurrences(ri, stratum, deltas):
            yield tables, negs

    def occurrences(self, ri: RuleInfo, stratum: Stratum, deltas):
        """:meth:`variants` with the index of the positive atom that reads a delta (None in the first round)."""
        if deltas is None:
            yield *self.rule_tables(ri, deltas, None), None
            return
        for k, atom in enumerate(ri.positives):
            if atom.pred in stratum.preds and deltas.get(atom.pred, (0, None))[0]:
                yield *self.rule_tables(ri, deltas, k), k

    def always_new(self, ri: RuleInfo, head: A.Atom, k: int, stratum: Stratum) -> bool:
        """Whether every tuple ``head`` gets from a new tuple of positive atom ``k`` is new, with no need to check.

        So when the head copies every variable of that atom (the atom's tuple is a function of the head's), the
        atom's relation only grows (no aggregate defines it), and nothing else can give the head's relation that
        tuple: no facts, and every other rule's head is disjoint from this one (a different constant at a column,
        or a repeated variable at two columns this rule keeps apart with <> or !=). Then this rule derived the
        tuple before only from the same atom tuple, which was not there yet (company control: controlled_shares'
        check against the whole relation was a quarter of the run)."""
        atom = ri.positives[k]
        if any(isinstance(t, A.Var) and t.anonymous for t in atom.args) or ri.existentials:
            return False
        head_vars = {t.name for t in head.args if isinstance(t, A.Var)}
        if not {t.name for t in atom.args if isinstance(t, A.Var)} <= head_vars:
            return False
        if atom.pred in self.aggregated or self.a.facts.get(head.pred):  # an aggregate's tuples are replaced
            return False
        others = [(r, h) for r in stratum.rules for h in r.rule.head if h.pred == head.pred and h is not head]
        return all(not r.existentials and _disjoint(ri, head, r, h) for r, h in others)

    def cached(self, key: tuple, make: Callable[[], object]) -> object:
        """``make()``, made once per ``key``: SQL text and what a rule's variant is, which depend only on the rule and
        the names of the relations it reads. A round reads the relations the round before last read (its deltas
        take turns in two names), so from the third round on each statement's text is made already (company
        control: 46 rounds, a third of the run's Python)."""
        try:
            return self.memo[key]
        except KeyError:
            value = self.memo[key] = make()
            return value

    def keys(self, stratum: Stratum) -> dict[str, tuple[int, ...]]:
        """For the rounds of recursive ``stratum``: the columns no two rows of a relation agree on, per predicate
        (:func:`~vadaorchestra.datalog.engines.plan.unique_rows`): its aggregates' group columns, every column of
        a set."""
        def make() -> dict[str, tuple[int, ...]]:
            sets = {p: tuple(range(i.arity)) for p, i in self.a.predicates.items() if p in self.sets}
            return sets | aggregate_keys(self.a, stratum)

        return self.cached(("keys", stratum.preds), make)  # type: ignore[return-value]

    @functools.cached_property
    def aggregated(self) -> frozenset[str]:
        """The predicates aggregate rules define (their tuples are replaced, not only added)."""
        return frozenset(r.rule.head[0].pred for st in self.a.strata for r in st.rules if r.aggregate is not None)

    def variant(self, stratum: Stratum, ri: RuleInfo, head: A.Atom, k: int | None, tables: list[str],
                negs: list[str], keys: Mapping[str, tuple[int, ...]]) -> tuple[str, bool, bool]:
        """The SELECT of plain rule ``ri``'s ``head`` on ``tables`` (positive atom ``k`` reading a delta, None in
        the first round), whether every tuple it gives is new (no check needed) and whether it gives none twice."""
        types = self.a.predicates[head.pred].types
        # the first round's relations hold their facts only: without facts every tuple is new
        fresh = stratum.recursive and (self.always_new(ri, head, k, stratum) if k is not None
                                       else not self.a.facts.get(head.pred))
        unique = stratum.recursive and unique_rows(ri, head, types, [self.a.predicates[a.pred].types
                                                                     for a in ri.positives],
                                                   [keys.get(a.pred) for a in ri.positives])
        return S.rule_sql(ri, head, types, tables, negs), fresh, unique

    def round(self, stratum: Stratum, deltas) -> dict[str, tuple[int, str | None]]:
        """One round of a stratum. Non-recursive strata insert straight into their relations; recursive ones also
        return, per predicate, the count and table of the tuples that are new in this round (the next delta)."""
        preds = list(stratum.preds)
        infos = self.a.predicates
        plain = [ri for ri in stratum.rules if ri.aggregate is None and not ri.existentials]
        if stratum.recursive and deltas is None:  # a stratum's relations hold their facts only: a rule reading one
            plain = [ri for ri in plain  # without facts derives nothing yet (company control: a statement and an
                     if not any(a.pred in preds and not self.a.facts.get(a.pred) for a in ri.positives)]  # insert)
        keys = self.keys(stratum) if stratum.recursive else {}
        # (sql, rule, unchecked: every tuple is new, unique: no tuple twice)
        selects: dict[str, list[tuple[str, RuleInfo, bool, bool]]] = {p: [] for p in preds}
        for ri in plain:
            for tables, negs, k in self.occurrences(ri, stratum, deltas):
                for h, head in enumerate(ri.rule.head):
                    sql, fresh, unique = self.cached(  # type: ignore[misc]
                        ("rule", ri.index, h, k, *tables, "not", *negs),
                        functools.partial(self.variant, stratum, ri, head, k, tables, negs, keys))
                    selects[head.pred].append((sql, ri, fresh, unique))
        new: dict[str, str] | None = None
        sizes: dict[str, int] = {}  # rows of each new table, as the statement that filled it reports them
        if stratum.recursive:
            self.round_no += 1
            # two names by turns: a round reads the last round's deltas, never older ones (drop_deltas)
            new = {p: self.store.temp(f"{p}_new{self.round_no % 2}") for p in preds}
            self.slots.update(new.values())
        for p in preds:
            full = self.tables.get(p, "")  # none yet: deferred
            parts = selects[p]
            rules = list({ri.index: ri for _, ri, _f, _u in parts}.values())
            label, span = (S.rule_label(rules[0]), rules[0].span) if len(rules) == 1 else (f"rules for {p!r}", None)
            summed = [self.inlined[a.pred] for ri in rules for a in ri.positives
                      if a.pred in self.inlined and deltas is not None and deltas.get(a.pred, (0, None))[0]]
            if summed:  # the statement computes an inlined aggregate: errors of its sum name that rule
                label, span = S.rule_label(summed[0]), summed[0].span
            union = " UNION ".join(f"({sql})" for sql, *_ in parts)
            if new is not None:
                if parts:  # the parts that can repeat a tuple, checked against the relation in one anti-join
                    # several parts: the UNION removes duplicates; one: a DISTINCT, unless it derives none
                    alone = len(parts) == 1 and not parts[0][3]
                    checked = [sql for sql, _, fresh, _u in parts if not fresh]
                    queries = [f"(SELECT DISTINCT * FROM ({sql}))" if alone else f"({sql})"
                               for sql, _, fresh, _u in parts if fresh]
                    if checked:
                        union_checked = " UNION ".join(f"({q})" for q in checked)
                        queries.append(f"({S.new_tuples_sql(union_checked, full, infos[p].arity, distinct=alone)})")
                    sizes[p] = self.store.create(new[p], " UNION ".join(queries), label, span)
                else:  # no table until a chase or an aggregate adds to it: most rounds of a long cycle add nothing
                    sizes[p] = 0  # to most of its predicates (company control: 2 of 3 in every round)
            elif parts:
                distinct = "" if len(parts) > 1 else "DISTINCT "  # UNION already removes duplicates
                if p in self.views:
                    self.tables[p] = self.store.view(self.store.temp(p + "_view"), f"SELECT {distinct}* FROM ({union})",
                                                     label, span)
                elif self.a.facts.get(p):
                    self.store.insert(full, f"({union}) EXCEPT (SELECT * FROM {full})", label, span)
                else:
                    self.write(p, f"SELECT {distinct}* FROM ({union})", label, span)
        return self.finish_round(stratum, deltas, new, {p for p in preds if selects[p]}, sizes)

    def finish_round(self, stratum: Stratum, deltas, new: dict[str, str] | None, derived: set[str],
                     sizes: Mapping[str, int] | None = None) -> dict[str, tuple[int, str | None]]:
        """After the plain rules of a round: add their new tuples, then run the chase, then the aggregates.
        ``sizes``: the rows of the new tables the plain rules filled (the others are counted)."""
        if new is not None:
            for p in stratum.preds:
                if p in derived:
                    self.store.insert(self.tables[p], f"SELECT * FROM {new[p]}")
        # this round's new tuples already in the relations, per predicate: their count, -1 when not known
        self.news = {p: (sizes or {}).get(p, -1) for p in derived if new is not None and self.store.made(new[p])}
        for ri in stratum.rules:
            if ri.existentials:
                self.chase(ri, stratum, deltas, new)
                self.news |= {h.pred: -1 for h in ri.rule.head if new is not None and self.store.made(new[h.pred])}
        aggregated: dict[str, int] = {}
        for ri in stratum.rules:
            if ri.aggregate is not None:
                n = self.aggregate(ri, stratum, deltas, new)
                head = ri.rule.head[0].pred
                if n is not None:
                    aggregated[head] = n
                if new is not None and head not in self.transient and self.store.made(new[head]):
                    self.news[head] = -1
        if new is None:
            return {}
        rewritten = {h.pred for ri in stratum.rules if ri.existentials or ri.aggregate is not None for h in ri.rule.head}
        known = {p: n for p, n in (sizes or {}).items() if p not in rewritten} | aggregated
        # a table this round made, or the query of an inlined aggregate (:meth:`aggregate`), which its reader runs
        made = {p: new[p] if self.store.made(new[p]) or new[p].startswith("(") else None for p in stratum.preds}
        return {p: (known[p] if p in known else self.store.count(made[p]) if made[p] else 0, made[p])
                for p in stratum.preds}

    def write(self, pred: str, select: str, label: str, span) -> None:
        """Add the rows of ``select`` to ``pred``'s relation; the first write of a deferred one creates it."""
        if pred in self.tables:
            self.store.insert(self.tables[pred], select, label, span)
        else:
            self.tables[pred] = self.store.temp(pred)
            self.store.create(self.tables[pred], select, label, span)

    def ensure_new(self, new: dict[str, str], pred: str) -> str:
        """This round's table of ``pred``'s new tuples, created empty when nothing has made it yet."""
        if not self.store.made(new[pred]):
            self.store.create_empty(new[pred], self.a.predicates[pred])
        return new[pred]

    @functools.cached_property
    def transient(self) -> frozenset[str]:
        """Aggregates in recursion whose values only their own stratum's next round reads, each reader through that
        one atom alone: not returned, no facts, no other rule for the head, read by no rule of another stratum or
        constraint, and every reader's only atom of the stratum. After the first round such a reader sees only the
        aggregate's delta, never its whole relation; so the relation is not kept, and the re-summed values of the
        touched groups are the delta as they are, unchanged ones included (a reader derives again what it has, and
        its own check drops it), with no diff against the old values and no rewrite of the stored ones (company
        control: total's diff, DELETE and INSERT were a third of the run at 100k companies). The readers must be
        plain rules: an aggregate or a chase step reads the whole relations of its body."""
        out = set()
        rules = [ri for st in self.a.strata for ri in st.rules]
        for stratum in self.a.strata:
            if not stratum.recursive:
                continue
            for ri in stratum.rules:
                head = ri.rule.head[0].pred if ri.aggregate is not None else None
                if head is None or head in self.kept or self.a.facts.get(head):
                    continue
                if sum(h.pred == head for r in stratum.rules for h in r.rule.head) != 1:
                    continue
                readers = [r for r in [*rules, *self.a.constraints] if any(a.pred == head for a in r.positives + r.negations)]
                # an aggregate or a chase step reads its body's whole relations: only plain rules may read the delta
                if all(r in stratum.rules and r.aggregate is None and not r.existentials
                       and not any(a.pred == head for a in r.negations)
                       and [a.pred for a in r.positives if a.pred in stratum.preds] == [head] for r in readers):
                    out.add(head)
        return frozenset(out)

    @functools.cached_property
    def inlined(self) -> dict[str, RuleInfo]:
        """The :attr:`transient` aggregates whose delta is not stored at all, each with its rule: read by one rule,
        with one head, through one atom, so that the query computing the delta runs once, inside the reader's query
        of the next round (a subquery where a table would be), as a hand-written loop computes and filters the new
        totals in one statement (company control: a statement and a copy of every re-summed group per step). Only
        where the store runs such queries (:attr:`RelationStore.inline_deltas`)."""
        if not self.store.inline_deltas:
            return {}
        rules = [ri for st in self.a.strata for ri in st.rules]
        out = {}
        for ri in rules:
            head = ri.rule.head[0].pred if ri.aggregate is not None else None
            if head not in self.transient:
                continue
            readers = [r for r in rules if any(a.pred == head for a in r.positives)]
            if (len(readers) == 1 and len(readers[0].rule.head) == 1
                    and sum(a.pred == head for a in readers[0].positives) == 1):
                out[head] = ri
        return out

    def aggregate(self, ri: RuleInfo, stratum: Stratum, deltas, new: dict[str, str] | None) -> int | None:
        """Compute an aggregate rule (inside recursion, its round's delta into ``new``); the delta's size when the
        statement that filled it tells it, else None."""
        head = ri.rule.head[0].pred
        info = self.a.predicates[head]
        changes = self.changes(ri, stratum, deltas, new) if deltas is not None else []
        if deltas is not None and not changes:
            return None
        tables, negs = self.rule_tables(ri, None, None)
        # inside recursion after the first round: re-sum only the groups whose inputs changed, replace only what changed
        transient = new is not None and head in self.transient
        touched = (self.touched_groups(ri, changes, inline=transient)
                   if new is not None and deltas is not None else None)
        groups_in = touched[0] if touched else None
        select = self.cached(("aggregate", ri.index, groups_in, *tables, "not", *negs), lambda: S.aggregate_sql(
            ri, info.types, tables, negs, distinct=S.needs_distinct(ri, self.sets), groups_in=groups_in))
        full = self.tables.get(head, "")  # none yet: deferred
        label = S.rule_label(ri)
        if transient:  # its one rule: nothing else made this round's table
            assert new is not None
            if head in self.inlined and all(table in new.values() for _, table in changes):
                # read once, in the next round, while the tables it reads are still there: its reader computes it
                new[head] = f"({select})"
                return -1
            return self.store.create(new[head], select, label, ri.span)
        if new is None:
            if head in self.views:
                self.tables[head] = self.store.view(self.store.temp(head + "_view"), select, label, ri.span)
            elif self.a.facts.get(head):
                self.store.insert(full, f"({select}) EXCEPT (SELECT * FROM {full})", label, ri.span)
            else:
                self.write(head, select, label, ri.span)
            return None
        fresh = self.store.temp(f"{head}_agg")
        self.store.create(fresh, select, label, ri.span, replace=True)
        if touched is not None:
            table, columns = touched
            self.replace_groups(head, fresh, new, columns, table)
            self.store.drop(table)
        else:
            self.replace_aggregate(head, fresh, new)
        return None

    def changes(self, ri: RuleInfo, stratum: Stratum, deltas, new: dict[str, str] | None) -> list[tuple[int, str]]:
        """What changed in the body of aggregate rule ``ri`` since it was last computed, as (positive atom, table of
        the atom's new tuples) pairs: this round's new tuples that are in the relations already (the plain rules' and
        the chase's, which come before every aggregate, and those of the aggregates before it), and the last round's
        changes of aggregated relations (an aggregate after it in the round may have changed one after it read it).
        The last round's tuples of plain rules and of the chase it has read already: re-summing their groups again
        one round later was a second full aggregation in the second round and one more round per step of a cycle
        (company control: a step took three rounds, now two)."""
        news = self.news if new is not None else {}
        out = []
        for k, atom in enumerate(ri.positives):
            q = atom.pred
            if q not in stratum.preds:
                continue
            if news.get(q) and self.store.made(new[q]):
                out.append((k, new[q]))
            if q in self.aggregated and deltas.get(q, (0, None))[0]:
                out.append((k, deltas[q][1]))
        return out

    def touched_groups(self, ri: RuleInfo, changes: list[tuple[int, str]], inline: bool = False
                       ) -> tuple[str, list[int]] | None:
        """The groups of an aggregate in recursion that the ``changes`` (:meth:`changes`) fall into (a table with
        columns ``g0..gk``, or with ``inline`` the parenthesized query of one, to read once), and the head columns
        holding the group variables; None when a group variable is not a plain head column (then every group is
        recomputed)."""
        head = ri.rule.head[0]
        columns = []
        for g in ri.group_vars:
            at = [j for j, t in enumerate(head.args) if isinstance(t, A.Var) and t.name == g]
            if not at:
                return None
            columns.append(at[0])
        if not columns:
            return None
        if not changes:
            return None

        full, negs = self.rule_tables(ri, None, None)

        def make() -> str:
            parts = []
            for k, table in changes:
                tables = list(full)
                tables[k] = table
                body, _env = S.bindings_sql(ri, tables, negs, distinct=False)
                cols = ", ".join(f"b.{S.quote_ident('v_' + g)} AS g{i}" for i, g in enumerate(ri.group_vars))
                parts.append(f"SELECT DISTINCT {cols} FROM ({body}) AS b")
            return " UNION ".join(parts)

        union = self.cached(("touched", ri.index, *(x for c in changes for x in c), *full, "not", *negs), make)
        if inline:  # read once: a subquery, not a table
            return f"({union})", columns
        table = self.store.temp(f"{head.pred}_touched")
        self.store.create(table, union, S.rule_label(ri), ri.span, replace=True)
        return table, columns

    def replace_groups(self, head: str, fresh: str, new: dict[str, str], columns: list[int], touched: str) -> None:
        """``fresh`` holds the recomputed values of the ``touched`` groups: its rows not in ``head`` are the round's
        delta and replace the old value of their group. Drops ``fresh``."""
        full = self.tables[head]
        on = " AND ".join(f"f.c{j} = t.g{i}" for i, j in enumerate(columns))
        changed = self.store.insert(self.ensure_new(new, head), f"SELECT * FROM {fresh} EXCEPT "
                                    f"SELECT f.* FROM {full} AS f SEMI JOIN {touched} AS t ON {on}")
        if changed:
            same = " AND ".join(f"n.c{j} = f.c{j}" for j in columns)
            self.store.delete(full, "f", f"EXISTS (SELECT 1 FROM {new[head]} AS n WHERE {same})")
            self.store.insert(full, f"SELECT * FROM {new[head]}")
        self.store.drop(fresh)

    def replace_aggregate(self, head: str, fresh: str, new: dict[str, str] | None) -> None:
        """Make ``fresh`` (this round's aggregate values) the content of ``head``; inside recursion (``new`` given)
        its new rows are the round's delta, and a value that changed replaces the old one. Drops ``fresh``."""
        full = self.tables[head]
        store = self.store
        if new is None:
            store.insert(full, f"SELECT * FROM {fresh} EXCEPT SELECT * FROM {full}")
        else:
            store.insert(self.ensure_new(new, head), f"SELECT * FROM {fresh} EXCEPT SELECT * FROM {full}")
            if store.count(new[head]) or store.value(
                    f"SELECT count(*) FROM (SELECT * FROM {full} EXCEPT SELECT * FROM {fresh})"):
                store.replace_rows(full, fresh)
        store.drop(fresh)

    def chase(self, ri: RuleInfo, stratum: Stratum, deltas, new: dict[str, str] | None) -> None:
        """One restricted-chase step of an existential rule: fresh nulls for frontier bindings not yet satisfied."""
        bodies = [S.bindings_sql(ri, t, n)[0] for t, n in self.variants(ri, stratum, deltas)]
        if not bodies:
            return
        self.chase_from_body(ri, " UNION ".join(f"({b})" for b in bodies), new)

    def chase_from_body(self, ri: RuleInfo, body: str, new: dict[str, str] | None) -> None:
        """Give fresh nulls to the frontier bindings of ``body`` (columns ``"v_<Var>"``) that no head facts satisfy
        yet, numbered in frontier order, and add the head facts (also to this round's ``new`` tables)."""
        label = S.rule_label(ri)
        store = self.store
        cand = store.temp("chase")
        head_tables = [self.tables[h.pred] for h in ri.rule.head]
        n = store.create(cand, S.existential_candidates_sql(ri, body, head_tables), label, ri.span, replace=True)
        if n == 0:
            return
        m = len(ri.existentials)
        order = ", ".join(f"f{i}" for i in range(len(ri.frontier))) or "1"
        nulls = ", ".join(
            f"'_:n' || CAST({self.next_null} + (row_number() OVER (ORDER BY {order}) - 1) * {m} + {i} AS VARCHAR) AS e{i}"
            for i in range(m))
        with_nulls = store.temp("chase_nulls")
        store.create(with_nulls, f"SELECT *, {nulls} FROM {cand}", label, ri.span, replace=True)
        self.next_null += n * m
        for head in ri.rule.head:
            info = self.a.predicates[head.pred]
            select = S.existential_head_sql(ri, head, info.types, with_nulls)
            full = self.tables[head.pred]
            if new is not None:
                store.insert(self.ensure_new(new, head.pred), f"({select}) EXCEPT (SELECT * FROM {full})", label,
                             ri.span)
            store.insert(full, f"({select}) EXCEPT (SELECT * FROM {full})", label, ri.span)

    # --- constraints, results ---------------------------------------------------------------------------------------
    def check_constraints(self) -> None:
        for ri in self.a.constraints:
            tables, negs = self.rule_tables(ri, None, None)
            body, _ = S.bindings_sql(ri, tables, negs)
            names = [n for n in ri.body_vars if not n.startswith("_")]
            limit = self.engine.max_witnesses
            rows = self.store.rows(f"SELECT * FROM ({body}) ORDER BY ALL LIMIT {limit + 1}", S.rule_label(ri), ri.span)
            if rows:
                witnesses = [dict(zip(ri.body_vars, r, strict=False)) for r in rows[:limit]]
                shown = "; ".join(", ".join(f"{k}={v!r}" for k, v in w.items() if k in names) for w in witnesses[:3])
                more = " (and more)" if len(rows) > 3 else ""
                text = f"negative constraint violated: {shown}{more}"
                raise ConstraintViolation(text, [Diagnostic(ri.span, text)], self.a.program.text, witnesses)

    def fetch(self, pred: str, limit: int | None = None) -> list[tuple]:
        info = self.a.predicates[pred]
        if info.arity == 0:
            return [()] * min(1, self.store.count(self.tables[pred]), 1 if limit is None else limit)
        return self.store.fetch(self.tables[pred], limit)

    def fetch_all(self, preds: Sequence[str], limit: int | None = None) -> dict[str, list[tuple]]:
        """:meth:`fetch` of each of ``preds``; a relation two of them share (a copy read as its source: LUBM's work
        and course) is fetched once."""
        fetched: dict[str, list[tuple]] = {}
        out = {}
        for p in preds:
            table = self.tables[p]
            if table not in fetched or not self.a.predicates[p].arity:
                fetched[table] = self.fetch(p, limit)
            out[p] = list(fetched[table])
        return out

    def cardinality(self, pred: str) -> int:
        n = self.store.count(self.tables[pred])
        return min(n, 1) if self.a.predicates[pred].arity == 0 else n

    def materialize(self, targets: Mapping[str, str], append: bool = False) -> None:
        self.store.materialize({table: (self.tables[pred], self.a.predicates[pred]) for pred, table in targets.items()},
                               append)


def linear(stratum: Stratum, predicates: Mapping[str, PredInfo]) -> bool:
    """Predicates of one schema (``predicates`` has their types) defined by plain rules that read the stratum at most
    once each (one of them at least) and compute no new values: transitive closure, reachability, a hierarchy of
    classes (LUBM's person, student, professor, ...)."""
    preds = set(stratum.preds)
    if len({predicates[p].types for p in preds}) != 1:
        return False
    for ri in stratum.rules:
        if (ri.aggregate is not None or ri.existentials or ri.assignments or len(ri.rule.head) != 1
                or any(a.pred in preds for a in ri.negations) or sum(a.pred in preds for a in ri.positives) > 1):
            return False
    return any(a.pred in preds for ri in stratum.rules for a in ri.positives)


def _disjoint(r1: RuleInfo, h1: A.Atom, r2: RuleInfo, h2: A.Atom) -> bool:
    """No tuple can be both an ``h1`` of rule ``r1`` and an ``h2`` of rule ``r2``: at some column both have different
    constants, or one has the same term at two columns the other's rule keeps apart (``A <> B``, ``A != B``)."""
    if len(h1.args) != len(h2.args):
        return True
    for a, b in zip(h1.args, h2.args, strict=True):
        if isinstance(a, A.Const) and isinstance(b, A.Const) and a != b:
            return True

    def apart(r: RuleInfo, h: A.Atom, i: int, j: int) -> bool:
        x, y = h.args[i], h.args[j]
        if isinstance(x, A.Const) and isinstance(y, A.Const):
            return x != y
        if not (isinstance(x, A.Var) and isinstance(y, A.Var)):
            return False
        return any(c.op in ("<>", "!=") and isinstance(c.left, A.Var) and isinstance(c.right, A.Var)
                   and {c.left.name, c.right.name} == {x.name, y.name} for c in r.conditions)

    n = len(h1.args)
    for i in range(n):
        for j in range(i + 1, n):
            for (ra, ha), hb in (((r1, h1), h2), ((r2, h2), h1)):
                x, y = hb.args[i], hb.args[j]
                if x == y and not (isinstance(x, A.Var) and x.anonymous) and apart(ra, ha, i, j):
                    return True
    return False


def sniff_types(con: duckdb.DuckDBPyConnection, bind: Bind) -> tuple[str, ...] | None:
    """Column types DuckDB detects for a bound source (used when @mapping does not give them all)."""
    path = S.sql_string(str(bind.path))
    try:
        match bind.kind:
            case "csv":
                rows = con.execute(f"DESCRIBE SELECT * FROM read_csv({path}, header = true)").fetchall()
            case "parquet":
                rows = con.execute(f"DESCRIBE SELECT * FROM read_parquet({path})").fetchall()
            case "duckdb":
                db = duckdb.connect(str(bind.path), read_only=True)
                try:
                    rows = db.execute(f"DESCRIBE main.{S.quote_ident(bind.table or bind.pred)}").fetchall()
                finally:
                    db.close()
            case _:
                return None
    except duckdb.Error:
        return None
    return tuple(our_type(r[1]) for r in rows)


def is_path_inside(path: Path, root: Path) -> bool:
    return path.resolve().is_relative_to(root.resolve())


__all__ = ["DuckDBEngine", "Evaluation", "Run", "linear", "our_type", "sniff_types", "A"]
