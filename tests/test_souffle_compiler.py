"""The Soufflé compiler (always) and the Soufflé engine against the DuckDB engine (when ``souffle`` is on PATH).

Golden files ``tests/golden_souffle/<name>.dl`` hold the exact Soufflé text generated for small programs; set
``VO_UPDATE_GOLDEN=1`` to rewrite them after an intended change (and review the diff).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import duckdb
import pytest
from programs import CONTROL

from vadaorchestra.datalog import souffle as F
from vadaorchestra.datalog.api import validate
from vadaorchestra.datalog.engines.duckdb_engine import DuckDBEngine
from vadaorchestra.datalog.parser import parse
from vadaorchestra.errors import CompileError, ConstraintViolation, EngineError

GOLDEN = Path(__file__).parent / "golden_souffle"
HAVE_SOUFFLE = shutil.which("souffle") is not None
# two layers cross a program boundary; one, three and sixteen run in the slow tier
LAYERS = [pytest.param(1, marks=pytest.mark.slow), 2, pytest.param(3, marks=pytest.mark.slow),
          pytest.param(16, marks=pytest.mark.slow)]
needs_souffle = pytest.mark.skipif(not HAVE_SOUFFLE, reason="the 'souffle' binary is not on PATH")

CONTROL_PAIRS = [(1, 2), (1, 3), (1, 4), (1, 5), (1, 6), (1, 10), (1, 20), (2, 3), (2, 4), (3, 4), (6, 5), (10, 20)]

TC = """
edge(1,2). edge(2,3). edge(3,4). edge(4,2). edge(5,5).
path(X,Y) :- edge(X,Y).
path(X,Z) :- path(X,Y), edge(Y,Z).
@output("path").
"""

NEGATION = """
node(1). node(2). node(3). node(4).
edge(1,2). edge(2,3).
reach(X,Y) :- edge(X,Y).
reach(X,Z) :- reach(X,Y), edge(Y,Z).
unreached(X,Y) :- node(X), node(Y), not reach(X,Y), X != Y.
lonely(X) :- node(X), not edge(X,_), not edge(_,X).
@output("unreached"). @output("lonely").
"""

AGGREGATES = """
e("a","x",1). e("a","y",1). e("a","z",4). e("b","x",2). e("c","q",0).
f("a",0.5). f("a",0.25). f("b",2.0).
s("a","pear"). s("a","apple"). s("b","fig").
cnt(G,N) :- e(G,_,V), N = count().
tot(G,S) :- e(G,I,V), S = sum(V).
mn(G,M) :- e(G,I,V), M = min(V).
mx(G,M) :- e(G,I,V), M = max(V).
av(G,A) :- e(G,I,V), A = avg(V).
fs(G,S) :- f(G,V), S = sum(V).
fa(G,A) :- f(G,V), A = avg(V).
smin(G,M) :- s(G,W), M = min(W).
smax(G,M) :- s(G,W), M = max(W).
all(N) :- e(G,I,V), N = count().
none(N) :- e(G,I,V), V > 100, N = count().
nonesum(G,S) :- e(G,I,V), V > 100, S = sum(V).
big(G,S) :- e(G,I,V), S = sum(V), S > 2.
half(G,S,H) :- e(G,I,V), S = sum(V), H = S / 2.
@output("cnt"). @output("tot"). @output("mn"). @output("mx"). @output("av"). @output("fs"). @output("fa").
@output("smin"). @output("smax"). @output("all"). @output("none"). @output("nonesum"). @output("big"). @output("half").
"""

MONOTONIC = """
c("a",1,"k1",2). c("a",1,"k1",5). c("a",1,"k2",3). c("b",1,"k1",7).
ms(G,S) :- c(G,_,K,V), S = msum(V,<K>).
mc(G,S) :- c(G,_,K,V), S = mcount(V,<K>).
mm(G,S) :- c(G,_,K,V), S = mmin(V,<K>).
mx(G,S) :- c(G,_,K,V), S = mmax(V).
pr(G,P) :- c(G,_,K,V), P = prod(V).
@output("ms"). @output("mc"). @output("mm"). @output("mx"). @output("pr").
"""

EXISTENTIALS = """
person("ann"). person("bob"). person("cid").
parent("cid","ann").
has_parent(X,P) :- person(X), parent(X,P).
has_parent(X,P) :- person(X).
owns(X,A), account(A) :- person(X), X != "bob".
@output("has_parent"). @output("owns"). @output("account").
"""

EXISTENTIAL_CHASE = """
emp("e1"). emp("e2").
works(E,D) :- emp(E).
dept(D,M) :- works(E,D).
emp(M) :- dept(D,M), M != M.
@output("works"). @output("dept").
"""

CONSTRAINT = """
own(1,2,0.5). own(2,2,0.3). own(3,3,0.1).
#F :- own(X,X,W).
@output("own").
"""

EXPRESSIONS = """
n(7, 2.5, "Ab"). n(-7, -2.5, "xyz"). n(0, 0.5, "").
r(X, A, B, C, D, E) :- n(X, F, S), A = X / 2, B = X * F, C = -X + 3, D = (X + 1) * 2 - 1, E = F - X.
rnd(X, R, Fl, Ce, Ab, Ti) :- n(X, F, S), R = round(F), Fl = floor(F), Ce = ceil(F), Ab = abs(F), Ti = to_int(F).
str(S, L, Sub, C1, C2, C3, T) :- n(X, F, S), L = string_length(S), Sub = substring(S, 0, 2), C1 = contains(S, "b"),
    C2 = starts_with(S, "x"), C3 = ends_with(S, "z"), T = concat(S, "-", to_string(X)).
cmp(X) :- n(X, F, S), X > F, S < "b".
conv(I, G) :- n(X, F, S), I = to_int("42"), G = to_float(X).
@output("r"). @output("rnd"). @output("str"). @output("cmp"). @output("conv").
"""

NASTY = ['a"b', "back\\slash", "new\nline", "tab\there", '"). .output x', "\\", '\\"', '""', "", "end\\", " sp ",
         "ünï €", "cr\r\nlf", 'q"\t\n\\"x']


def _program_with_strings() -> str:
    def lit(s: str) -> str:
        return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'

    facts = " ".join(f"s({lit(v)}, {i})." for i, v in enumerate(NASTY) if "\r" not in v)
    return facts + """
t(S, I, L) :- s(S, I), L = S + "|".
u(S) :- s(S, I), S == "tab\\there".
w(S) :- s(S, I), S != "\\\"). .output x".
@output("t"). @output("u"). @output("w"). @input("inp").
v(X, Y) :- inp(X, Y).
@output("v").
"""


def _engine_module():
    import importlib

    return importlib.import_module("vadaorchestra.datalog.engines.souffle_engine")


def _analysis(text: str, con=None):
    return validate(parse(text), connection=con if con is not None else duckdb.connect())


# --- compiler: golden text and literals (no binary needed) ------------------------------------------------------------
GOLDEN_PROGRAMS = {"transitive_closure": TC, "negation": NEGATION, "aggregates": AGGREGATES,
                   "expressions": EXPRESSIONS}


@pytest.mark.parametrize("name", sorted(GOLDEN_PROGRAMS))
def test_golden_souffle_text(name):
    text = F.compile_analysis(_analysis(GOLDEN_PROGRAMS[name]))
    assert text == F.compile_analysis(_analysis(GOLDEN_PROGRAMS[name])), "compilation must be deterministic"
    path = GOLDEN / f"{name}.dl"
    if os.environ.get("VO_UPDATE_GOLDEN") or not path.exists():
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def test_golden_company_control_round_program():
    """The recursive stratum with msum is run by the engine; its aggregate step compiles like this."""
    a = _analysis(CONTROL)
    ri = next(r for s in a.strata for r in s.rules if r.aggregate is not None)
    b = F.ProgramBuilder(a)
    b.input("i0_controlled_shares", a.predicates["controlled_shares"].types)
    b.output("o_total", a.predicates["total"].types)
    b.aggregate(ri, "o_total", ["i0_controlled_shares"], [])
    text = b.render().text
    path = GOLDEN / "company_control_total.dl"
    if os.environ.get("VO_UPDATE_GOLDEN") or not path.exists():
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")
    assert "max vx" in text and "sum ve" in text


@pytest.mark.parametrize("value", NASTY[:-1] + ["x\x01y"[:1]])
def test_string_literals_cannot_escape(value):
    lit = F.souffle_string(value)
    assert lit.startswith('"') and lit.endswith('"')
    inner = lit[1:-1]
    # every quote inside is escaped, no raw newline/tab survives
    i = 0
    while i < len(inner):
        if inner[i] == "\\":
            assert inner[i + 1] in '"\\ntrabfv'
            i += 2
            continue
        assert inner[i] not in '"\n\t\r'
        i += 1


def test_string_literal_refuses_nul_and_bare_control_characters():
    with pytest.raises(CompileError):
        F.souffle_string("a\x00b")
    with pytest.raises(CompileError):
        F.souffle_string("a\x01b")


@pytest.mark.parametrize(("value", "text"), [(2.5, "2.5"), (1500.0, "1500.0"), (1.5e16, 'to_float("1.5e+16")'),
                                             (-0.25, "(-0.25)"), (1e-7, 'to_float("1e-07")'), (3, "3"), (-3, "(-3)"),
                                             (True, "1"), (False, "0")])
def test_literals(value, text):
    assert F.souffle_literal(value) == text


def test_int_constant_in_float_column_is_a_float_literal():
    assert F.souffle_literal(2, "float") == "2.0"


def test_prod_is_refused_by_the_compiler_with_the_rule_named():
    a = _analysis(MONOTONIC)
    ri = next(r for s in a.strata for r in s.rules if r.aggregate and r.aggregate[1].func == "prod")
    with pytest.raises(CompileError, match=r"prod.*rule for pr"):
        F.ProgramBuilder(a).aggregate(ri, "h", ["x"], [])


def test_to_upper_is_refused_by_the_compiler():
    a = _analysis('n("a"). u(T) :- n(S), T = to_upper(S). @output("u").')
    with pytest.raises(CompileError, match="to_upper"):
        F.compile_analysis(a)


def test_existential_stratum_is_not_compiled_natively():
    a = _analysis(EXISTENTIALS)
    with pytest.raises(CompileError, match="needs the engine"):
        F.compile_analysis(a)


def test_codec_round_trip_of_nasty_strings():
    decode_output, encode_facts = _engine_module().decode_output, _engine_module().encode_facts

    # Soufflé writes a quote inside a symbol as \"" ; our decoder undoes exactly that
    def souffle_writes(rows):
        return "".join("\t".join('"' + v.replace('"', '\\""') + '"' for v in r) + "\n" for r in rows)

    rows = [(v, v + "x") for v in NASTY]
    assert decode_output(souffle_writes(rows), ["string", "string"]) == rows
    assert encode_facts([("a\"b", 1, 2.5, True)], ["string", "int", "float", "bool"]) == '"a""b"\t1\t2.5\t1\n'


# --- engine vs DuckDB (needs the binary) ----------------------------------------------------------------------------------
def _both(text: str, collect, inputs=None, **engine_kwargs):
    SouffleEngine = _engine_module().SouffleEngine

    out = []
    options = {"rounds": "souffle", **engine_kwargs}  # Soufflé runs the rounds too: these tests are of its programs
    for make in (lambda c: DuckDBEngine(c), lambda c: SouffleEngine(c, **options)):
        con = duckdb.connect()
        a = _analysis(text, con)
        out.append(make(con).evaluate(a, collect=collect, inputs=inputs))
        # no TEMP table left behind
        assert con.execute("SELECT count(*) FROM duckdb_tables() WHERE temporary").fetchone()[0] == 0
    return out


@needs_souffle
def test_company_control_exactly_twelve_pairs():
    duck, souf = _both(CONTROL, ["control"])
    assert souf == duck
    assert souf[0]["control"] == CONTROL_PAIRS


@needs_souffle
@pytest.mark.parametrize(("name", "collect"), [
    ("tc", ["path"]), ("negation", ["unreached", "lonely"]),
    ("aggregates", ["cnt", "tot", "mn", "mx", "av", "fs", "fa", "smin", "smax", "all", "none", "nonesum", "big", "half"]),
    ("monotonic", ["ms", "mc", "mm", "mx", "pr"]),
    ("existentials", ["has_parent", "owns", "account"]),
    ("chase", ["works", "dept"]),
    ("expressions", ["r", "rnd", "str", "cmp", "conv"]),
])
def test_same_rows_as_duckdb(name, collect):
    text = {"tc": TC, "negation": NEGATION, "aggregates": AGGREGATES, "monotonic": MONOTONIC,
            "existentials": EXISTENTIALS, "chase": EXISTENTIAL_CHASE, "expressions": EXPRESSIONS}[name]
    duck, souf = _both(text, collect)
    assert souf == duck
    for pred in collect:  # same Python types, not only equal values (1 == 1.0)
        assert [tuple(map(type, r)) for r in souf[0][pred]] == [tuple(map(type, r)) for r in duck[0][pred]]


@needs_souffle
def test_aggregate_values_and_empty_aggregates():
    _, (rows, _, _) = _both(AGGREGATES, ["cnt", "tot", "av", "smin", "none", "nonesum", "half"])
    assert rows["cnt"] == [("a", 2), ("b", 1), ("c", 1)]
    assert rows["tot"] == [("a", 6), ("b", 2), ("c", 0)]
    assert rows["av"] == [("a", 2.0), ("b", 2.0), ("c", 0.0)]
    assert rows["smin"] == [("a", "apple"), ("b", "fig")]
    assert rows["none"] == [] and rows["nonesum"] == []
    assert rows["half"] == [("a", 6, 3.0), ("b", 2, 1.0), ("c", 0, 0.0)]


@needs_souffle
def test_existential_nulls_numbered_like_duckdb():
    duck, souf = _both(EXISTENTIALS, ["has_parent", "owns", "account"])
    assert souf == duck
    assert souf.next_null == duck.next_null > 1
    assert ("ann", "_:n1") in souf[0]["has_parent"]


@needs_souffle
def test_constraint_violation_with_the_same_witnesses():
    SouffleEngine = _engine_module().SouffleEngine

    errors = []
    for make in (DuckDBEngine, SouffleEngine):
        con = duckdb.connect()
        with pytest.raises(ConstraintViolation) as info:
            make(con).evaluate(_analysis(CONSTRAINT, con), collect=["own"])
        errors.append(info.value)
    assert errors[0].witnesses == errors[1].witnesses == [{"X": 2, "W": 0.3}, {"X": 3, "W": 0.1}]
    assert str(errors[0]) == str(errors[1])


@needs_souffle
def test_division_by_zero_is_an_error_naming_the_rule():
    SouffleEngine = _engine_module().SouffleEngine

    text = "v(4, 0). v(6, 3).\nq(X, R) :- v(X, Y), R = X / Y.\n@output(\"q\")."
    messages = []
    for make in (DuckDBEngine, SouffleEngine):
        con = duckdb.connect()
        with pytest.raises(EngineError) as info:
            make(con).evaluate(_analysis(text, con), collect=["q"])
        messages.append(str(info.value))
    assert messages[0] == messages[1]
    assert "division by zero in rule for q" in messages[1] and ":2:1" in messages[1]


@needs_souffle
def test_nasty_strings_round_trip_through_both_engines():
    inp = [(v, v[::-1]) for v in NASTY]
    duck, souf = _both(_program_with_strings(), ["t", "u", "w", "v"], inputs={"inp": inp})
    assert souf == duck
    rows = souf[0]
    assert sorted(rows["v"]) == sorted(inp)
    assert rows["u"] == [("tab\there",)]
    assert ('"). .output x|', 4, '"). .output x|') not in rows["t"]
    assert any(r[0] == '"). .output x' for r in rows["t"])
    assert len(rows["w"]) == len([v for v in NASTY if "\r" not in v]) - 1


def _io_texts(monkeypatch) -> list[str]:
    """Record the program text of every Soufflé run (with the IO options the engine chose)."""
    run_cls = _engine_module()._SouffleRun
    texts: list[str] = []
    invoke = run_cls.invoke

    def spy(self, prog, text, d):
        texts.append(text)
        return invoke(self, prog, text, d)

    monkeypatch.setattr(run_cls, "invoke", spy)
    return texts


def _io_of(text: str, rel: str) -> str:
    line = next(ln for ln in text.splitlines() if ln.startswith((f".input {rel}(", f".output {rel}(")))
    return "rfc4180" if "rfc4180=true" in line else "plain"


CLEAN = ['a"b', "back\\slash", "\\", '\\"', '""', "", "end\\", " sp ", "ünï €", '"quoted"', "x" * 300]
DIRTY = ["tab\there", "new\nline", "cr\rx", "x\x01y", "\x02", "a\x02b"]
STRINGS_PROGRAM = """
b(X, Y) :- a(X, Y).
c(Z, N) :- a(X, N), Z = concat(X, "!").
e(X) :- d(X).
@input("a"). @input("d"). @output("b"). @output("c"). @output("e").
"""


@needs_souffle
def test_symbols_travel_as_plain_tsv_when_none_needs_quotes(monkeypatch):
    texts = _io_texts(monkeypatch)
    inputs = {"a": [(v, str(i)) for i, v in enumerate(CLEAN)], "d": [(v,) for v in CLEAN]}
    duck, souf = _both(STRINGS_PROGRAM, ["b", "c", "e"], inputs=inputs)
    assert souf == duck
    assert sorted(souf[0]["b"]) == sorted(inputs["a"]) and sorted(souf[0]["e"]) == sorted(inputs["d"])
    assert "rfc4180" not in texts[-1], "no symbol needs quotes: every relation should travel as plain TSV"


@needs_souffle
def test_a_symbol_needing_quotes_quotes_its_relation_and_the_symbol_outputs(monkeypatch):
    texts = _io_texts(monkeypatch)
    for bad in DIRTY:
        inputs = {"a": [(v, str(i)) for i, v in enumerate(CLEAN)], "d": [(v,) for v in [*CLEAN, bad]]}
        duck, souf = _both(STRINGS_PROGRAM, ["b", "c", "e"], inputs=inputs)
        assert souf == duck, bad
        assert (bad,) in souf[0]["e"]
        text = texts[-1]
        assert [_io_of(text, r) for r in ("r_a", "r_d", "r_b", "r_c", "r_e")] == \
            ["plain", "rfc4180", "rfc4180", "rfc4180", "rfc4180"], bad


@needs_souffle
def test_a_string_constant_with_a_tab_quotes_the_symbol_outputs_only(monkeypatch):
    texts = _io_texts(monkeypatch)
    text = 'n(1). n(2).\nt(S, N) :- n(N), S = "x\\ty".\nk(M) :- n(N), M = N * 2.\n@output("t"). @output("k").'
    duck, souf = _both(text, ["t", "k"])
    assert souf == duck and souf[0]["t"] == [("x\ty", 1), ("x\ty", 2)]
    assert _io_of(texts[-1], "r_t") == "rfc4180" and _io_of(texts[-1], "r_k") == "plain"


@pytest.mark.slow
@needs_souffle
def test_compiled_mode_gives_the_same_rows_and_caches_the_binary(tmp_path):
    SouffleEngine = _engine_module().SouffleEngine

    con = duckdb.connect()
    a = _analysis(TC, con)
    eng = SouffleEngine(con, mode="compiled", cache_dir=tmp_path)
    first = eng.evaluate(a, collect=["path"])
    binaries = sorted(tmp_path.iterdir())
    assert len(binaries) == 1
    start = time.perf_counter()
    assert eng.evaluate(a, collect=["path"]) == first
    assert time.perf_counter() - start < 10
    assert sorted(tmp_path.iterdir()) == binaries
    assert first == DuckDBEngine(con).evaluate(a, collect=["path"])


def _souffle_processes() -> set[int]:
    out = subprocess.run(["pgrep", "-x", "souffle"], capture_output=True, text=True).stdout
    return {int(p) for p in out.split()}


@needs_souffle
def test_timeout_kills_the_process_group_and_removes_the_temp_dir():
    SouffleEngine = _engine_module().SouffleEngine

    # one long Soufflé invocation: a four-way join (8e9 bindings) that a condition rejects, so memory stays small
    facts = " ".join(f"n({i})." for i in range(300))
    text = facts + "\nx(A) :- n(A), n(B), n(C), n(D), A + B + C + D < 0.\n@output(\"x\")."
    before_dirs = set(Path(tempfile.gettempdir()).glob("vo_souffle_*"))
    before_procs = _souffle_processes()
    con = duckdb.connect()
    start = time.perf_counter()
    with pytest.raises(EngineError, match="time limit of 1.5 s and was killed"):
        SouffleEngine(con, timeout=1.5).evaluate(_analysis(text, con), collect=["x"])
    assert time.perf_counter() - start < 15
    time.sleep(0.2)
    assert _souffle_processes() - before_procs == set()
    assert set(Path(tempfile.gettempdir()).glob("vo_souffle_*")) == before_dirs


@needs_souffle
def test_runtime_conversion_error_names_the_rule():
    SouffleEngine = _engine_module().SouffleEngine

    text = 'n("42"). n("abc").\nr(X) :- n(S), X = to_int(S).\n@output("r").'
    con = duckdb.connect()
    with pytest.raises(EngineError, match=r"rule for r at .*:2:1.*'abc'"):
        SouffleEngine(con).evaluate(_analysis(text, con), collect=["r"])


@needs_souffle
def test_without_fallback_prod_is_a_compile_error_naming_the_rule():
    SouffleEngine = _engine_module().SouffleEngine

    con = duckdb.connect()
    with pytest.raises(CompileError, match="rule for pr"):
        SouffleEngine(con, fallback=False).evaluate(_analysis(MONOTONIC, con), collect=["pr"])


# --- recursive strata with aggregates: several rounds per Soufflé program ---------------------------------------------
# Every kind of aggregate the layered programs handle: per-group recomputation (votes, n: no group variable), full
# recomputation (score reads the head of votes), a plain rule joining an aggregate's head with another relation of the
# stratum (strong), facts of a plain predicate of the stratum (popular(9)).
LAYERED = """
seed(1). seed(2). late(11).
edge(1,3). edge(2,3). edge(3,4). edge(1,4). edge(4,5). edge(2,5). edge(3,6). edge(5,6). edge(6,7). edge(7,8).
edge(9,7). edge(8,10). edge(10,11).
popular(9).
popular(X) :- seed(X).
votes(Y, N) :- popular(X), edge(X, Y), N = mcount(X).
popular(Y) :- votes(Y, N), N >= 2.
score(S) :- votes(Y, N), S = msum(N, <Y>).
strong(Y) :- votes(Y, N), popular(Y), N >= 2.
popular(Y) :- strong(X), edge(X, Y), score(S), S >= 9.
n(S) :- popular(X), S = mcount(X).
popular(Y) :- n(S), S >= 9, late(Y).
@output("popular"). @output("votes"). @output("score"). @output("strong"). @output("n").
"""

# strings (with a quote) through the TSV files, a nullary predicate in the recursion, an aggregate without group
# variables over floats
LAYERED_STRINGS = r"""
e("a","b"). e("b","c"). e("c","d"). e("a","c"). e("x","y\"q").
w("a", 1.5). w("b", 2.5). w("c", 0.5). w("y\"q", 1.0).
start("a"). late("x").
reach(X) :- start(X).
reach(Y) :- reach(X), e(X, Y), ok(S), S > 0.
ok(S) :- reach(X), w(X, V), S = msum(V, <X>).
done() :- reach("d").
reach(Z) :- done(), late(Z).
per(X, N) :- reach(Y), e(X, Y), N = mcount(Y).
reach(Y) :- per(X, N), N >= 1, e(X, Y), X == "x".
@output("reach"). @output("ok"). @output("done"). @output("per").
"""

# a condition after a per-group aggregate: a recomputed group can lose its tuple (Y = 4 has one voter, then two), so
# the recomputed groups are accumulated apart from the values
LAYERED_FILTERED = """
reach(1).
e(1,2). e(2,3). e(1,3). e(3,4). e(6,4). e(2,5). e(4,5). e(5,6). e(3,6). e(6,7). e(5,7). e(7,8).
many(Y, N) :- reach(X), e(X, Y), N = mcount(X), N >= 2.
reach(Y) :- many(Y, N).
reach(Y) :- reach(X), e(X, Y), X < 3.
@output("reach"). @output("many").
"""

COUNTER = """
c(0).
c(N) :- c(M), M < 40, N = M + 1.
@output("c").
"""

LAYERED_GOLDEN = ["company_control", "company_control_joint", "monotonic_recursion_more", "shortest_path_mmin",
                  "recursion", "error_round_limit", "error_round_limit_recursion"]


def _run_both(text: str, data_root=None, **souffle_options):
    from vadaorchestra.datalog import run
    from vadaorchestra.errors import VadaError

    first = text.splitlines()[0] if text else ""
    kwargs = {"max_rounds": int(first.split(":")[1])} if first.startswith("% max_rounds:") else {}
    out = []
    for engine, options in (("duckdb", None), ("souffle", {"rounds": "souffle", **souffle_options})):
        try:
            out.append(run(text, data_root=data_root, engine=engine, engine_options=options, **kwargs).tables)
        except VadaError as exc:
            out.append(f"{type(exc).__name__}: {exc}")
    return out


def test_layered_program_text_reads_deltas_and_never_copies_plain_relations():
    a = _analysis(CONTROL)
    stratum = next(s for s in a.strata if s.recursive)
    prog, plan = F.compile_layers(a, stratum, 3)
    assert prog.text == F.compile_layers(a, stratum, 3)[0].text, "compilation must be deterministic"
    text = prog.text
    # semi-naive: the second controlled_shares rule reads the previous layer's new control pairs
    assert "c2_controlled_shares(vX, vZ, vY, vQ) :- d1_control(vX, vZ), r_own(vZ, vY, vQ)" in text
    # no layer copies a plain relation: the full relation is the input plus each layer's new tuples
    assert "f1_controlled_shares(" not in text and "n1_control(" not in text
    assert "d3_control(x0, x1) :- c3_control(x0, x1), !f0_control(x0, x1), !d1_control(x0, x1), " \
           "!d2_control(x0, x1)." in text
    # total is recomputed only for the groups that received new controlled shares, over every part of the relation
    # (this layer's new tuples, and the previous layer's when the aggregate skipped it: read in place, not copied)
    assert "t2_total(vX, vY) :- ch2_total(), d2_controlled_shares(vX, vZ, vY, vQ)." in text
    assert "t2_total(vX, vY) :- ch2_total(), !ch1_total(), d1_controlled_shares(vX, vZ, vY, vQ)." in text
    assert "d2_controlled_shares(vX, vZ, vY, vQ), vagg_e = vQ." in text
    # no condition after the aggregate: the recomputed groups are those of o<i>, not accumulated apart
    assert "d2_total(x0, x1, x2) :- a2_total(x0, x1, x2), !o1_total(x0, x1, x2), o1_total(x0, x1, _)." in text
    assert "g1_total(" not in text and "p1_0_total(" not in text
    assert plan.grow == {"controlled_shares": ("d1_controlled_shares", "d2_controlled_shares", "d3_controlled_shares"),
                         "control": ("d1_control", "d2_control", "d3_control")}
    assert plan.override == {"total": ("o3_total", "o3_total", (0, 1))}
    assert set(prog.outputs) == {f"d{i}_{p}" for i in (1, 2, 3) for p in ("controlled_shares", "control")} | {
        "d3_total", "o3_total", "ch3_total", F.COUNT_RELATION}


def test_an_aggregate_reading_another_aggregate_is_recomputed_in_full():
    a = _analysis(LAYERED)
    stratum = next(s for s in a.strata if s.recursive and "score" in s.preds)
    prog, plan = F.compile_layers(a, stratum, 2)
    assert set(plan.replace) == {"score"} and set(plan.override) == {"votes", "n"}
    assert "u1_votes(" in prog.text  # strong joins votes with popular: votes is materialized per layer
    assert "n1_popular(" in prog.text  # ... and popular accumulates this program's new tuples
    assert "f1_score(" in prog.text


def test_a_condition_after_a_per_group_aggregate_keeps_the_recomputed_groups_apart():
    a = _analysis(LAYERED_FILTERED)
    stratum = next(s for s in a.strata if s.recursive)
    prog, plan = F.compile_layers(a, stratum, 2)
    assert plan.override == {"many": ("o2_many", "g2_many", (0,))}
    assert "g2_many(x0) :- g1_many(x0)." in prog.text


def test_existential_strata_are_not_layered():
    a = _analysis(EXISTENTIAL_CHASE)
    assert not any(F.layerable(a, s) for s in a.strata)


@needs_souffle
@pytest.mark.parametrize("layers", LAYERS)
@pytest.mark.parametrize("case", LAYERED_GOLDEN)
def test_layered_strata_agree_with_duckdb_across_program_boundaries(case, layers):
    """Golden programs with recursion, run with few rounds per Soufflé program so that the state (relations, new
    tuples, which aggregates ran last) crosses program boundaries: rows and errors are DuckDB's."""
    folder = Path(__file__).parent / "golden" / case
    data = folder / "data"
    duck, souf = _run_both((folder / "program.dl").read_text(encoding="utf-8"),
                           data_root=data if data.is_dir() else None, layers=layers)
    assert souf == duck


@needs_souffle
@pytest.mark.parametrize("layers", LAYERS)
@pytest.mark.parametrize("name", ["layered", "strings", "counter", "control", "filtered"])
def test_layered_aggregates_agree_with_duckdb(name, layers):
    text = {"layered": LAYERED, "strings": LAYERED_STRINGS, "counter": COUNTER, "control": CONTROL,
            "filtered": LAYERED_FILTERED}[name]
    duck, souf = _run_both(text, layers=layers)
    assert souf == duck
    if name == "layered":
        assert (8,) in souf["popular"] and (11,) in souf["popular"] and souf["n"] == [(10,)]
    if name == "strings":
        assert souf["reach"][-1] == ('y"q',) and souf["done"] == [()] and souf["ok"] == [(5.5,)]


@pytest.mark.slow
@needs_souffle
def test_round_limit_counts_rounds_like_duckdb_inside_a_layered_program():
    text = "c(0).\nc(N) :- c(M), N = M + 1.\n@output(\"c\")."
    for max_rounds in (1, 5, 7, 16, 17):
        from vadaorchestra.datalog import run
        from vadaorchestra.errors import RoundLimitExceeded

        messages = []
        for engine in ("duckdb", "souffle"):
            with pytest.raises(RoundLimitExceeded) as info:
                run(text, engine=engine, max_rounds=max_rounds,
                    engine_options={"layers": 4, "rounds": "souffle"} if engine == "souffle" else None)
            messages.append(str(info.value))
        assert messages[0] == messages[1]
    ok = [_run_both(COUNTER.replace("M < 40", f"M < {k}"), layers=4) for k in (3, 4, 5)]
    assert all(s == d for d, s in ok)


@pytest.mark.slow
@needs_souffle
def test_company_control_sums_its_shares_exactly_even_when_soufflé_runs_the_rounds():
    """The recursive stratum of company control takes many rounds of a float msum: even with rounds="souffle", a
    float sum runs as DuckDB's exact SQL (Soufflé adds floats in its own order), so the rows equal DuckDB's bit for bit
    and no layered Soufflé program runs those rounds (they stay for other aggregates: the counter tests)."""
    SouffleEngine = _engine_module().SouffleEngine

    con = duckdb.connect()
    rows = [(i, i + 1, 0.75) for i in range(1, 40)]  # a control chain 40 deep
    text = "\n".join(line for line in CONTROL.splitlines() if not line.startswith("own("))
    con.execute("CREATE TABLE own AS SELECT * FROM (VALUES " + ", ".join(f"({x}, {y}, {q})" for x, y, q in rows)
                + ") t(owner, owned, share)")
    stats: dict = {}
    result = SouffleEngine(con, stats=stats, rounds="souffle").evaluate(_analysis(text, con), collect=["control"])
    assert len(result.rows["control"]) == 39 * 40 // 2
    assert result == DuckDBEngine(con).evaluate(_analysis(text, con), collect=["control"])
    assert stats.get("rounds", 0) == 0  # no layered program: each round's bodies in Soufflé, the msum in SQL


@needs_souffle
def test_by_default_the_strata_that_need_rounds_run_in_duckdb_and_the_rest_in_souffle():
    """``rounds="duckdb"``: company control's recursive stratum runs with the DuckDB engine's rounds, no Soufflé
    process, and the same rows; a stratum Soufflé can run alone after it still runs in Soufflé, reading the rows
    the DuckDB rounds left."""
    SouffleEngine = _engine_module().SouffleEngine

    text = CONTROL + 'big(X) :- control(X, Y), control(X, Z), Y != Z.\n@output("big").\n'
    con = duckdb.connect()
    stats: dict = {}
    result = SouffleEngine(con, stats=stats).evaluate(_analysis(text, con), collect=["control", "big"])
    assert result == DuckDBEngine(con).evaluate(_analysis(text, con), collect=["control", "big"])
    assert result.rows["control"] == CONTROL_PAIRS and result.rows["big"] == [(1,), (2,)]
    assert stats["souffle_runs"] == 1 and stats["rounds"] == 0  # the `big` stratum; the rounds were DuckDB's
    assert con.execute("SELECT count(*) FROM duckdb_tables() WHERE temporary").fetchone()[0] == 0
    with pytest.raises(EngineError, match="unknown rounds 'sql'"):
        SouffleEngine(con, rounds="sql")


@needs_souffle
def test_the_time_limit_also_bounds_the_rounds_run_in_duckdb():
    """A counter of 10^6 rounds (recursion through computed values: DuckDB's rounds by default) stops at the run's
    time limit, naming the stratum, and leaves no table behind."""
    SouffleEngine = _engine_module().SouffleEngine

    text = 'c(0).\nc(N) :- c(M), N = M + 1, M < 1000000.\n@output("c").'
    con = duckdb.connect()
    start = time.perf_counter()
    with pytest.raises(EngineError, match=r"stratum c exceeded the run's time limit of 1 s \(after \d+ rounds\)"):
        SouffleEngine(con, timeout=1, max_rounds=2_000_000).evaluate(_analysis(text, con), collect=["c"])
    assert time.perf_counter() - start < 15
    assert con.execute("SELECT count(*) FROM duckdb_tables() WHERE temporary").fetchone()[0] == 0


ROUND_BY_ROUND_GOLDEN = ["chase_recursive_satisfied", "chase_recursive_warded", "existential_basic",
                         "existential_empty_frontier", "existential_head_match", "existential_multi_head",
                         "existential_rule_order", "existential_two_rules"]


@needs_souffle
@pytest.mark.parametrize("case", ROUND_BY_ROUND_GOLDEN)
def test_round_by_round_strata_in_souffle_agree_with_duckdb(case):
    """``rounds="souffle"``: the chase's rounds with Soufflé computing every body give DuckDB's rows and nulls."""
    folder = Path(__file__).parent / "golden" / case
    duck, souf = _run_both((folder / "program.dl").read_text(encoding="utf-8"))
    assert souf == duck
