"""The logical trace: the record of a run as a program in our dialect, written as the run goes.

A header of comments (question, policy, content hashes of catalog and data, engine), then every step in execution
order: an invocation rule (LI) per tool call, ``pred(bound args, Vars) :- tool(bound args, Vars).``, preceded by a
``% [LI n]`` line giving the exact call, and the synthesized rules (LM) of every ``run_program``; after each step the
content hash of every predicate it wrote. The text parses with :func:`vadaorchestra.datalog.parse`; the ``%`` lines
are what :mod:`vadaorchestra.agents.replay` reads back.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from vadaorchestra.datalog.printer import format_const

HEADER_KEYS = ("question", "policy", "catalog", "catalog_hash", "data", "data_hash", "engine")
_STEP = re.compile(r"^% \[(LI|LM) (\d+)\](?: stage (\d+):)? ?(.*)$")
_HASH = re.compile(r"^% = (\S+) (\d+) facts sha256:([0-9a-f]{64})$")
_HEAD = re.compile(r"^% (\w+): (.*)$")


@dataclass
class Step:
    kind: str  # "LI" or "LM"
    number: int
    tool: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    stage: int | None = None
    program: str = ""
    note: str = ""
    hashes: dict[str, tuple[int, str]] = field(default_factory=dict)  # pred -> (facts, sha256)


def invocation_rule(tool: str, params: dict[str, Any], output: str, columns: list[str],
                    param_columns: dict[str, str], sources: dict[str, list[str]] | None = None) -> str:
    """``output(args) :- tool(args).`` with the parameter columns bound to the call's values.

    A set-at-a-time call (a parameter given as ``{"each": "pred.column", "where": {...}}``) joins with its source:
    ``ultimate_controller(Borrower, Controller) :- exposure("Bank Gamma", Borrower, _),
    get_ultimate_controller(Borrower, Controller).`` (``sources`` gives the source predicate's columns).
    """
    used: set[str] = set()
    bound: dict[str, str] = {}
    join = ""
    each = {p: v for p, v in params.items() if isinstance(v, dict)}
    if each:
        pred = next(iter(each.values()))["each"].split(".")[0]
        src_cols = list((sources or {}).get(pred, []))
        terms = ["_"] * len(src_cols)
        for p, form in each.items():
            col = form["each"].split(".")[1]
            var = _var(col, len(used), used)
            bound[p] = var
            if col in src_cols:
                terms[src_cols.index(col)] = var
            for c, v in (form.get("where") or {}).items():
                if c in src_cols:
                    terms[src_cols.index(c)] = format_const(v)
        join = f"{pred}({', '.join(terms)}), "
    args = []
    for i, col in enumerate(columns):
        p = param_columns.get(col)
        if p is not None and p in bound:
            args.append(bound[p])
        elif p is not None and p in params:
            args.append(format_const(params[p]))
        else:
            args.append(_var(col, i, used))
    text = ", ".join(args)
    return f"{output}({text}) :- {join}{tool}({text})."


def _var(col: str, i: int, used: set[str]) -> str:
    name = re.sub(r"\W", "_", col)
    name = name[:1].upper() + name[1:] if name and name[0].isalpha() else f"V{i}"
    while name in used:
        name += "_"
    used.add(name)
    return name


class TraceWriter:
    """Appends steps to a trace file, flushing after each, so the file is the run's record even if it stops."""

    def __init__(self, path: str | Path | None, header: dict[str, str]):
        self.path = Path(path) if path is not None else None
        self.steps: list[Step] = []
        self.header = header
        self._lines: list[str] = []
        self._fh: TextIO | None = None
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fh = self.path.open("w", encoding="utf-8")
        self._write(["% vadaorchestra logical trace: replay with `vadaorchestra replay THIS_FILE`"]
                    + [f"% {k}: {_one_line(header[k])}" for k in HEADER_KEYS if k in header] + ["%"])

    def _write(self, lines: list[str]) -> None:
        self._lines.extend(lines)
        if self._fh is not None:
            self._fh.write("\n".join(lines) + "\n")
            self._fh.flush()

    def invocation(self, tool: str, params: dict[str, Any], stage: int, rule: str,
                   hashes: dict[str, tuple[int, str]]) -> Step:
        step = Step("LI", len(self.steps) + 1, tool, dict(params), stage, hashes=dict(hashes))
        self.steps.append(step)
        self._write([f"% [LI {step.number}] stage {stage}: {tool} {json.dumps(params, sort_keys=True)}", rule]
                    + _hash_lines(hashes))
        return step

    def manipulation(self, program: str, note: str, hashes: dict[str, tuple[int, str]]) -> Step:
        step = Step("LM", len(self.steps) + 1, program=program.strip(), note=_one_line(note), hashes=dict(hashes))
        self.steps.append(step)
        self._write([f"% [LM {step.number}] {step.note}".rstrip(), step.program] + _hash_lines(hashes))
        return step

    def comment(self, text: str) -> None:
        self._write([f"% {_one_line(text)}"])

    @property
    def text(self) -> str:
        return "\n".join(self._lines) + "\n"

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _hash_lines(hashes: dict[str, tuple[int, str]]) -> list[str]:
    return [f"% = {p} {n} facts sha256:{h}" for p, (n, h) in sorted(hashes.items())]


def read_trace(text: str) -> tuple[dict[str, str], list[Step]]:
    """The header and the steps of a trace."""
    header: dict[str, str] = {}
    steps: list[Step] = []
    current: Step | None = None
    body: list[str] = []

    def finish() -> None:
        if current is not None:  # LM: the synthesized rules; LI: the invocation rule
            current.program = "\n".join(body).strip()

    for line in text.splitlines():
        if m := _STEP.match(line):
            finish()
            kind, number, stage, rest = m.group(1), int(m.group(2)), m.group(3), m.group(4)
            current = Step(kind, number)
            body = []
            if kind == "LI":
                tool, _, params = rest.partition(" ")
                current.tool, current.stage = tool, int(stage) if stage else None
                current.params = json.loads(params) if params else {}
            else:
                current.note = rest
            steps.append(current)
        elif m := _HASH.match(line):
            if current is None:
                raise ValueError(f"hash line before any step: {line!r}")
            current.hashes[m.group(1)] = (int(m.group(2)), m.group(3))
        elif current is None and (m := _HEAD.match(line)):
            header[m.group(1)] = m.group(2)
        elif current is not None and not current.hashes:
            body.append(line)
    finish()
    return header, steps
