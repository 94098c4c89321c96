"""The tool catalog: a folder of tool programs, each carrying its own metadata as annotations.

A tool program declares ``@tool(name, description)``, one ``@param(name, type, description)`` per ``$name`` it uses,
and exactly one ``@output(pred)`` whose columns (``@mapping``) are the tool's schema. Dependencies are never declared:
they are the tools whose output predicates the program reads. :meth:`Catalog.load` validates every program (in
dependency order, so that a tool knows the types of what it reads) and reports every problem of every file at once.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from vadaorchestra.datalog import ast as A
from vadaorchestra.datalog.api import validate
from vadaorchestra.datalog.parser import parse
from vadaorchestra.datalog.validator import Bind
from vadaorchestra.errors import CatalogError, Diagnostic, Span, VadaError

PROGRAM_SUFFIXES = (".dl", ".vada")
OUTPUT_NEEDED = 'a tool program needs exactly one @output("pred") annotation: the predicate the tool returns'
# what a column of a tool's output means, declared with @role("pred", "column", "role"): domain knowledge as data,
# read by the agents before any word list
ROLES = {
    "entity": "the thing a fact is about (a borrower, a provider, a hub)",
    "amount": "a quantity to rank, sum or compare with a limit (an exposure, a billed amount, a tonnage)",
    "base": "the reference a share is taken of (capital, net assets, a budget)",
    "limit": "an amount not to be exceeded (a cap, a capacity, a contracted maximum)",
    "limit_ratio": "a limit written as a ratio of the base column (0.10 of net assets)",
    "group": "the group an entity belongs to (its ultimate parent, the zone it lies in)",
    "date": "a date or a period",
    "level": "how many steps along a chain a fact is (1: a direct relation)",
    "category": "a kind of thing (an asset type, a unit type, a sector): a noun of the question naming one of its "
                "values restricts the answer to that kind",
}


@dataclass(frozen=True, slots=True)
class ToolParam:
    name: str
    type: str  # string, int, float, bool
    description: str


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One reasoning tool: ⟨name, params, description, output predicate, schema, deps⟩ and its program."""

    name: str
    description: str
    params: tuple[ToolParam, ...]
    output: str
    columns: tuple[str, ...]
    types: tuple[str, ...]
    deps: tuple[str, ...]
    program: A.Program = field(repr=False)
    path: Path = field(repr=False)
    base: tuple[str, ...] = ()  # predicates the program binds to files of the data root
    binds: tuple[Bind, ...] = field(default=(), repr=False)
    roles: tuple[tuple[str, str], ...] = ()  # (output column, role) from @role annotations
    # how answers write an output column: its words (@label) and the unit of its numbers (@unit)
    labels: tuple[tuple[str, str], ...] = ()
    units: tuple[tuple[str, str], ...] = ()
    # the program is recursive, or reads the output of a tool that follows a chain (the titles of a genre's
    # subgenres at any depth): its facts cover every level
    follows_chain: bool = False

    @property
    def schema(self) -> list[dict[str, str]]:
        return [{"name": c, "type": t} for c, t in zip(self.columns, self.types, strict=True)]

    @property
    def param_columns(self) -> dict[str, str]:
        """Output columns that always hold a parameter's value (every output rule has ``$param`` there)."""
        heads = [h for r in self.program.rules for h in r.head if h.pred == self.output]
        heads += [f.atom for f in self.program.facts if f.atom.pred == self.output]
        out = {}
        for i, col in enumerate(self.columns):
            names = {t.name if isinstance(t, A.Param) else None for t in (h.args[i] for h in heads)}
            if len(names) == 1 and (name := names.pop()) is not None:
                out[col] = name
        return out

    @property
    def param_inputs(self) -> dict[str, list[str]]:
        """The columns of the bound data (their ``@mapping`` names) each parameter is matched against in the rules'
        bodies (``genre_parent_table(G, $genre)``: genre -> parent_genre): what the value passed is to those rows."""
        names: dict[tuple[str, int], str] = {}
        for ann in self.program.annotations("mapping"):
            args = [a.value for a in ann.args]
            if len(args) >= 3 and args[0] in self.base:
                names[(str(args[0]), int(args[1]))] = str(args[2])
        out: dict[str, set[str]] = {}
        for rule in self.program.rules:
            for lit in rule.body:
                if not isinstance(lit, A.Atom):
                    continue
                for i, t in enumerate(lit.args):
                    if isinstance(t, A.Param) and (lit.pred, i) in names:
                        out.setdefault(t.name, set()).add(names[(lit.pred, i)])
        return {k: sorted(v) for k, v in sorted(out.items())}

    def describe(self) -> dict[str, Any]:
        """The catalog entry as a model reads it in ``list_tools``."""
        return {
            "name": self.name,
            "description": self.description,
            "parameters": [{"name": p.name, "type": p.type, "description": p.description} for p in self.params],
            "output_predicate": self.output,
            "schema": self.schema,
            "parameter_columns": self.param_columns,
            **({"parameter_inputs": self.param_inputs} if self.param_inputs else {}),
            "dependencies": list(self.deps),
            "recursive": self.recursive,
            "follows_chain": self.follows_chain or self.recursive,
            "roles": dict(self.roles),
            **({"labels": dict(self.labels)} if self.labels else {}),
            **({"units": dict(self.units)} if self.units else {}),
        }

    @property
    def recursive(self) -> bool:
        """Whether the program defines a predicate through itself (a chain followed through every level)."""
        return A.is_recursive(self.program)


@dataclass(frozen=True)
class Catalog:
    """Validated tools by name, their data root, and a content hash of the programs."""

    path: Path
    data_root: Path
    tools: Mapping[str, ToolSpec]

    def __iter__(self) -> Iterator[ToolSpec]:
        return iter(self.tools.values())

    def __len__(self) -> int:
        return len(self.tools)

    def get(self, name: str) -> ToolSpec:
        try:
            return self.tools[name]
        except KeyError:
            raise VadaError(f"unknown tool {name!r} (tools: {', '.join(sorted(self.tools)) or 'none'})") from None

    def producer(self, pred: str) -> ToolSpec | None:
        """The tool whose output predicate is ``pred``, if any."""
        return next((t for t in self.tools.values() if t.output == pred), None)

    @property
    def base_predicates(self) -> frozenset[str]:
        return frozenset(p for t in self.tools.values() for p in t.base)

    @property
    def content_hash(self) -> str:
        """sha256 over the tool programs' texts in name order: what a trace records to pin the catalog."""
        h = hashlib.sha256()
        for name in sorted(self.tools):
            h.update(name.encode() + b"\0" + (self.tools[name].program.text or "").encode() + b"\0")
        return h.hexdigest()

    @property
    def data_hash(self) -> str:
        """sha256 over the files the tools bind (relative path and bytes, in path order)."""
        h = hashlib.sha256()
        for path in sorted({b.path for t in self.tools.values() for b in t.binds}):
            h.update(str(path.relative_to(self.data_root.resolve())).encode() + b"\0")
            if path.is_file():
                with path.open("rb") as fh:
                    while chunk := fh.read(1 << 20):
                        h.update(chunk)
            h.update(b"\0")
        return h.hexdigest()

    def closure(self, name: str) -> list[str]:
        """``name`` and every tool it depends on, transitively, dependencies first."""
        order: list[str] = []

        def visit(n: str) -> None:
            if n in order:
                return
            for d in self.get(n).deps:
                visit(d)
            order.append(n)

        visit(name)
        return order

    @classmethod
    def load(cls, path: str | Path, data_root: str | Path | None = None) -> Catalog:
        """Load and validate every ``*.dl`` / ``*.vada`` file of the folder ``path``.

        ``data_root`` (default: the catalog folder) is where the programs' ``@bind`` paths resolve. Raises
        :class:`CatalogError` with every problem of every file: syntax and validation errors, a missing or repeated
        ``@tool`` / ``@output``, two tools with one name or one output predicate, an output predicate that is also
        base data, dependency cycles, unknown predicates and unused parameters.
        """
        folder = Path(path)
        if not folder.is_dir():
            what = "is a file, not a folder" if folder.exists() else "does not exist"
            raise CatalogError(f"catalog folder {str(folder)!r} {what}")
        root = Path(data_root) if data_root is not None else folder
        if not root.is_dir():
            raise CatalogError(f"data root {str(root)!r} does not exist")
        files = sorted(p for p in folder.iterdir() if p.suffix in PROGRAM_SUFFIXES and p.is_file())
        if not files:
            raise CatalogError(f"catalog folder {str(folder)!r} holds no tool programs ({', '.join(PROGRAM_SUFFIXES)})")
        return _Loader(folder, root, files).run()


class _Loader:
    def __init__(self, folder: Path, root: Path, files: list[Path]):
        self.folder, self.root, self.files = folder, root, files
        self.diags: list[Diagnostic] = []
        self.sources: dict[str, str] = {}

    def error(self, span: Span | None, message: str, notes=()) -> None:
        self.diags.append(Diagnostic(span, message, "error", tuple(notes)))

    def absorb(self, exc: VadaError, source: str) -> None:
        for d in exc.diagnostics or [Diagnostic(Span(source, 1, 1), exc.message)]:
            if d not in self.diags:
                self.diags.append(d)

    def run(self) -> Catalog:
        programs: dict[str, A.Program] = {}  # tool name -> program
        headless: list[A.Program] = []  # not a usable tool, but checked all the same
        for f in self.files:
            source = str(f)
            try:
                text = f.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                self.error(Span(source, 1, 1), f"cannot read tool program: {exc}")
                continue
            self.sources[source] = text
            try:
                program = parse(text, source)
            except VadaError as exc:
                self.absorb(exc, source)
                continue
            name = self.header(program, source)
            if name is None:
                headless.append(program)
                continue
            if name in programs:
                self.error(program.annotations("tool")[0].span, f"tool {name!r} is defined twice",
                           [(programs[name].annotations("tool")[0].span, "first defined here")])
                continue
            programs[name] = program

        outputs = {name: prog.annotations("output")[0] for name, prog in programs.items()}
        producer: dict[str, str] = {}
        for name, ann in outputs.items():
            pred = ann.args[0].value
            if pred in producer:
                self.error(ann.span, f"output predicate {pred!r} of tool {name!r} is already the output of tool "
                                     f"{producer[pred]!r}", [(outputs[producer[pred]].span, "that output")])
            else:
                producer[pred] = name
        base = {name: {a.args[0].value for a in prog.annotations("bind") if a.args} for name, prog in programs.items()}
        for name, preds in base.items():
            for pred in sorted(preds & set(producer)):
                ann = next(a for a in programs[name].annotations("bind") if a.args and a.args[0].value == pred)
                self.error(ann.span, f"predicate {pred!r} is bound to data here but is the output of tool "
                                     f"{producer[pred]!r}; a predicate is either base data or a tool's output")

        deps = {name: self.dependencies(prog, producer, name) for name, prog in programs.items()}
        order = self.topological(programs, deps)
        specs: dict[str, ToolSpec] = {}
        for name in order:
            prog = programs[name]
            dep_names = [d for d, _ in deps[name]]
            if any(d not in specs for d in dep_names):
                continue  # a dependency failed to load: its own errors are reported
            externals = {specs[d].output: specs[d].types for d in dep_names}
            columns = {specs[d].output: specs[d].columns for d in dep_names}
            try:
                analysis = validate(prog, data_root=self.root, externals=externals, external_columns=columns,
                                    allow_params=True)
            except VadaError as exc:
                self.absorb(exc, prog.source)
                continue
            out = analysis.predicates[outputs[name].args[0].value]
            roles = self.roles(prog, out.name, out.columns)
            labels = self.notes(prog, "label", out.name, out.columns)
            units = self.notes(prog, "unit", out.name, out.columns)
            specs[name] = ToolSpec(
                name=name, description=analysis.tool[1] if analysis.tool else "",
                params=tuple(ToolParam(n, t, d) for n, t, d in analysis.params),
                output=out.name, columns=out.columns, types=out.types, deps=tuple(sorted(dep_names)),
                program=prog, path=Path(prog.source), base=tuple(sorted(b.pred for b in analysis.binds)),
                binds=analysis.binds, roles=roles, labels=labels, units=units,
            )
        for prog in headless:
            dep_names = [d for d, _ in self.dependencies(prog, producer, "")]
            if all(d in specs for d in dep_names):
                try:
                    validate(prog, data_root=self.root, externals={specs[d].output: specs[d].types for d in dep_names},
                             external_columns={specs[d].output: specs[d].columns for d in dep_names},
                             allow_params=True)
                except VadaError as exc:
                    self.absorb(exc, prog.source)
        if self.diags:
            n_files = len({d.span.source for d in self.diags if d.span})
            raise CatalogError(f"{len(self.diags)} problem(s) in {n_files} tool program(s) of {str(self.folder)!r}",
                               self.diags, self.sources)
        def chained(name: str, seen: frozenset[str] = frozenset()) -> bool:
            spec = specs[name]
            return spec.recursive or any(chained(d, seen | {name}) for d in spec.deps if d in specs and d not in seen)

        specs = {n: replace(spec, follows_chain=chained(n)) for n, spec in specs.items()}
        return Catalog(self.folder, self.root, {n: specs[n] for n in sorted(specs)})

    def header(self, program: A.Program, source: str) -> str | None:
        """The tool's name, after checking the one ``@tool`` and the one ``@output`` a tool program needs."""
        first = Span(source, 1, 1)
        tools = program.annotations("tool")
        outs = program.annotations("output")
        ok = True
        if not tools:
            self.error(first, 'a tool program needs a @tool("name", "description") annotation')
            ok = False
        for extra in tools[1:]:
            self.error(extra.span, "only one @tool annotation is allowed per program")
            ok = False
        if not outs:
            self.error(first, OUTPUT_NEEDED)
            ok = False
        for extra in outs[1:]:
            self.error(extra.span, OUTPUT_NEEDED)
            ok = False
        if outs and not (outs[0].args and isinstance(outs[0].args[0].value, str)):
            ok = False  # the validator reports the malformed @output
        if not tools or not (tools[0].args and isinstance(tools[0].args[0].value, str)):
            return None  # the validator reports a malformed @tool
        name = tools[0].args[0].value
        if not name.isidentifier():
            self.error(tools[0].span, f"tool name {name!r} must be an identifier (letters, digits, underscores)")
            return None
        return name if ok else None

    def roles(self, program: A.Program, output: str, columns: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
        """The ``@role("pred", "column", "role")`` annotations of a tool, checked: the tool's output predicate, one of
        its columns, a known role, one role per column, a ``limit_ratio`` only beside a ``base``."""
        def known(role: str) -> str | None:
            return None if role in ROLES else f"unknown role {role!r} (roles: {', '.join(ROLES)})"

        found = self.notes(program, "role", output, columns, known)
        ratio_at = next((ann.span for ann in program.annotations("role") if ann.args[2].value == "limit_ratio"
                         and dict(found).get(ann.args[1].value) == "limit_ratio"), None)
        if ratio_at is not None and "base" not in dict(found).values():
            self.error(ratio_at, "a limit_ratio is a ratio of the base: give another column of the output the role "
                                 "'base'")
        return found

    def notes(self, program: A.Program, kind: str, output: str, columns: tuple[str, ...],
              wrong: Callable[[str], str | None] | None = None) -> tuple[tuple[str, str], ...]:
        """``@role``, ``@label("pred", "column", "words")`` or ``@unit("pred", "column", "unit")`` annotations of a
        tool, checked: the tool's output predicate, one of its columns, once per column, a value ``wrong`` accepts
        (by default, words on one line)."""
        def words(text: str) -> str | None:
            return None if text.strip() and "\n" not in text else f"the {kind} must be words on one line"

        found: dict[str, str] = {}
        for ann in program.annotations(kind):
            pred, col, text = (a.value for a in ann.args)
            if pred != output:
                self.error(ann.span, f"@{kind} names {pred!r}; it describes a column of the tool's output predicate "
                                     f"{output!r}")
            elif col not in columns:
                self.error(ann.span, f"{output!r} has no column {col!r} (columns: {', '.join(columns)})")
            elif (problem := (wrong or words)(text)) is not None:
                self.error(ann.span, problem)
            elif col in found:
                self.error(ann.span, f"column {col!r} of {output!r} has a {kind} already ({found[col]!r})")
            else:
                found[col] = " ".join(text.split())
        return tuple(found.items())

    @staticmethod
    def dependencies(program: A.Program, producer: Mapping[str, str], name: str) -> list[tuple[str, Span | None]]:
        """Tools whose outputs the program reads (and does not define or bind itself), with the first reading site."""
        own = program.fact_predicates() | {h.pred for r in program.rules for h in r.head}
        own |= {a.args[0].value for a in program.annotations("bind") if a.args}
        found: dict[str, Span | None] = {}
        for stmt in program.statements:
            if isinstance(stmt, (A.Rule, A.Constraint)):
                for lit in stmt.body:
                    atom = lit.atom if isinstance(lit, A.Negation) else lit
                    if isinstance(atom, A.Atom) and atom.pred in producer and atom.pred not in own:
                        tool = producer[atom.pred]
                        if tool != name:
                            found.setdefault(tool, atom.span)
        return list(found.items())

    def topological(self, programs: Mapping[str, A.Program], deps: Mapping[str, list[tuple[str, Span | None]]]
                    ) -> list[str]:
        """Tools in dependency order; every cycle is reported with the reading sites that close it."""
        order: list[str] = []
        state: dict[str, int] = {}  # 1 visiting, 2 done
        stack: list[tuple[str, Span | None]] = []

        def visit(n: str) -> None:
            state[n] = 1
            for d, span in deps[n]:
                if state.get(d) == 1:
                    start = next(i for i, (m, _) in enumerate(stack + [(n, None)]) if m == d)
                    cycle = [m for m, _ in stack[start:]] + [n, d]
                    self.error(span, f"dependency cycle between tools: {' -> '.join(cycle)}",
                               [(s, f"tool {m!r} reads the output of the next one") for m, s in stack[start:]])
                elif state.get(d) is None:
                    stack.append((n, span))
                    visit(d)
                    stack.pop()
            state[n] = 2
            order.append(n)

        for n in sorted(programs):
            if n not in state:
                visit(n)
        return order
