"""Text → AST. The grammar is the data file ``grammar.lark``; this module only builds dataclasses from its trees."""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import os
import re
import sys
from array import array
from importlib import resources
from pathlib import Path

from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, v_args

from vadaorchestra.datalog import ast as A
from vadaorchestra.errors import DatalogSyntaxError, Diagnostic, Span

_READABLE = {
    "DOT": "'.'", "COMMA": "','", "LPAR": "'('", "RPAR": "')'", "ARROW": "':-'", "EQ": "'='", "IDENT": "a predicate name",
    "VAR": "a variable", "STRING": "a string", "INT": "an integer", "FLOAT": "a float", "PARAM": "a $parameter",
    "NOT": "'not'", "AT": "'@'", "TRUE": "'#T'", "FALSE": "'#F'", "MINUS": "'-'", "PLUS": "'+'", "STAR": "'*'",
    "SLASH": "'/'", "LT": "'<'", "GT": "'>'", "LE": "'<='", "GE": "'>='", "EQEQ": "'=='", "NE": "'!='", "LTGT": "'<>'",
    "$END": "end of input",
}
_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "t": "\t"}


@functools.cache
def _lark() -> Lark:
    """The LALR parser. Building its tables takes about 0.1 s, a tenth of a cold `datalog run` of a small program, so
    lark keeps them in the user's cache folder (checked against the grammar's hash before use, rebuilt otherwise; a
    folder that cannot be written only means no cache)."""
    grammar = resources.files("vadaorchestra.datalog").joinpath("grammar.lark").read_text(encoding="utf-8")
    cache: str | bool = False
    try:
        folder = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "vadaorchestra"
        folder.mkdir(parents=True, exist_ok=True)
        digest = hashlib.sha256(grammar.encode()).hexdigest()[:16]  # installs of other grammars keep their own
        cache = str(folder / f"lark-{digest}-py{sys.version_info[0]}{sys.version_info[1]}.cache")
    except OSError:
        pass
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=True, cache=cache)


MAX_DEPTH = 256  # nested operations an expression may have: every pass over the AST recurses, one level per operation


def _check_depth(tree, source: str) -> None:
    """Refuse a parse tree nested deeper than the later passes can recurse (a sum of 500 terms is 500 levels deep),
    with the place where it gets too deep, before anything recurses over it."""
    stack = [(tree, 1, tree)]
    while stack:
        node, depth, outer = stack.pop()
        if depth > MAX_DEPTH + 8:  # the statement, rule and literal levels above an expression
            meta = outer.meta  # the literal the expression is in
            span = Span(source, meta.line, meta.column) if not getattr(meta, "empty", True) else None
            raise _Reject(span, f"expression too deep: more than {MAX_DEPTH} nested operations; split it into "
                                "several assignments (S1 = A + B + ..., S = S1 + ...)")
        stack.extend((c, depth + 1, c if depth < 4 else outer) for c in node.children if hasattr(c, "children"))


class _Reject(Exception):
    """Raised inside the tree builder for a construct the grammar admits but the language does not."""

    def __init__(self, span: Span | None, message: str):
        super().__init__(message)
        self.span = span
        self.message = message


def unescape_string(literal: str, span: Span | None = None) -> str:
    """Decode a double-quoted literal (quotes included) with the escapes ``\\" \\\\ \\n \\t``."""
    body = literal[1:-1]
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\":
            nxt = body[i + 1]
            if nxt not in _ESCAPES:
                raise _Reject(span, f"unknown escape '\\{nxt}' in string (allowed: \\\" \\\\ \\n \\t)")
            out.append(_ESCAPES[nxt])
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


@v_args(meta=True)
class _Builder(Transformer):
    def __init__(self, source: str):
        super().__init__()
        self.source = source

    def _span(self, meta) -> Span | None:
        if getattr(meta, "empty", True):
            return None
        return Span(self.source, meta.line, meta.column, meta.end_line, meta.end_column)

    def _tok_span(self, tok: Token) -> Span:
        return Span(self.source, tok.line, tok.column, tok.end_line or tok.line, tok.end_column or tok.column)

    # --- constants and terms
    def string(self, meta, c):
        return A.Const(unescape_string(str(c[0]), self._tok_span(c[0])), self._tok_span(c[0]))

    def int(self, meta, c):
        return A.Const(int(c[0]), self._tok_span(c[0]))

    def float(self, meta, c):
        return A.Const(float(c[0]), self._tok_span(c[0]))

    def true(self, meta, c):
        return A.Const(True, self._tok_span(c[0]))

    def false(self, meta, c):
        return A.Const(False, self._tok_span(c[0]))

    def var(self, meta, c):
        return A.Var(str(c[0]), self._tok_span(c[0]))

    def param(self, meta, c):
        return A.Param(str(c[0])[1:], self._tok_span(c[0]))

    # --- expressions
    def neg(self, meta, c):
        operand = c[1]
        if isinstance(operand, A.Const) and isinstance(operand.value, (int, float)) and not isinstance(operand.value, bool):
            return A.Const(-operand.value, self._span(meta))
        return A.Neg(operand, self._span(meta))

    def binop(self, meta, c):
        return A.BinOp(str(c[1]), c[0], c[2], self._span(meta))

    def contributors(self, meta, c):
        return ("contributors", tuple(A.Var(str(t), self._tok_span(t)) for t in c[1:-1] if t is not None), self._span(meta))

    def call(self, meta, c):
        name = str(c[0])
        args = tuple(a for a in c[1:] if a is not None)
        return ("call", name, args, self._span(meta))

    # --- literals
    def _expr(self, node):
        """Turn a raw call into a function call or aggregate inside an expression."""
        match node:
            case ("call", name, args, span):
                if name in A.AGGREGATES:
                    raise _Reject(span, f"aggregate {name!r} must stand alone on the right of an assignment 'V = {name}(...)'")
                for a in args:
                    if isinstance(a, tuple) and a[0] == "contributors":
                        raise _Reject(a[2], "contributors '<...>' are only allowed in a monotonic aggregate")
                return A.Call(name, tuple(self._expr(a) for a in args), span)
            case A.BinOp(op=op, left=left, right=right, span=span):
                return A.BinOp(op, self._expr(left), self._expr(right), span)
            case A.Neg(operand=operand, span=span):
                return A.Neg(self._expr(operand), span)
            case ("contributors", _, span):
                raise _Reject(span, "contributors '<...>' are only allowed in a monotonic aggregate")
        return node

    def _atom(self, node) -> A.Atom:
        if not (isinstance(node, tuple) and node[0] == "call"):
            raise _Reject(getattr(node, "span", None), "expected an atom such as p(X,Y) here")
        _, name, args, span = node
        if name == "not":
            raise _Reject(span, "'not' is a keyword and cannot name a predicate")
        terms = []
        for a in args:
            if isinstance(a, (A.Var, A.Const, A.Param)):
                terms.append(a)
            else:
                where = a[-1] if isinstance(a, tuple) else getattr(a, "span", span)
                raise _Reject(where, f"argument of atom {name!r} must be a variable, a constant or a $parameter; "
                                     "compute expressions with an assignment 'V = expr' in the body")
        return A.Atom(name, tuple(terms), span)

    def _aggregate(self, node) -> A.Aggregate:
        _, name, args, span = node
        contributors = None
        plain = list(args)
        if plain and isinstance(plain[-1], tuple) and plain[-1][0] == "contributors":
            if name not in A.MONOTONIC_AGGREGATES:
                raise _Reject(plain[-1][2], f"contributors '<...>' are only allowed in a monotonic aggregate, not {name!r}")
            contributors = plain.pop()[1]
        if len(plain) > 1 or (not plain and name not in ("count", "mcount")):
            raise _Reject(span, f"aggregate {name!r} takes one expression" + (" and optional contributors <...>" if name in A.MONOTONIC_AGGREGATES else ""))
        expr = self._expr(plain[0]) if plain else None
        return A.Aggregate(name, expr, contributors, span)

    def negation(self, meta, c):
        return A.Negation(self._atom(c[1]), self._span(meta))

    def bare_literal(self, meta, c):
        return self._atom(c[0])

    def comparison(self, meta, c):
        return A.Comparison(str(c[1]), self._expr(c[0]), self._expr(c[2]), self._span(meta))

    def equality(self, meta, c):
        left, right = c[0], c[2]
        is_agg = isinstance(right, tuple) and right[0] == "call" and right[1] in A.AGGREGATES
        if isinstance(left, A.Var) and not left.anonymous:
            value = self._aggregate(right) if is_agg else self._expr(right)
            return A.Assignment(left, value, self._span(meta))
        if is_agg:
            raise _Reject(self._span(meta), "an aggregate must be assigned to a variable: 'V = agg(...)'")
        return A.Comparison("=", self._expr(left), self._expr(right), self._span(meta))

    # --- statements
    def head(self, meta, c):
        return tuple(self._atom(x) for x in c)

    def body(self, meta, c):
        return tuple(c)

    def fact_clause(self, meta, c):
        return [A.Fact(atom, atom.span) for atom in c[0]]

    def rule_clause(self, meta, c):
        return [A.Rule(c[0], c[2], str(c[1]), self._span(meta))]

    def constraint_clause(self, meta, c):
        return [A.Constraint(c[2], self._span(meta))]

    def annotation(self, meta, c):
        args = tuple(x for x in c[1:] if x is not None)
        for a in args:
            if not isinstance(a, A.Const):
                raise _Reject(getattr(a, "span", None), "annotation arguments must be constants")
        return [A.Annotation(str(c[0]), args, self._span(meta))]

    def start(self, meta, c):
        return [s for group in c for s in group]


# --- plain facts without lark ------------------------------------------------------------------------------------------
# A program of 100,000 inline facts took 25-48 s through lark (issue 11); facts are most of such programs. A run of
# consecutive statements that are each one atom of constants, ``edge("a", "b", 0.5).``, is matched by one regex, its
# values decoded in one ``json.loads`` (the constants of the dialect are JSON but for #T/#F, leading zeros, a space
# after '-' and the escapes JSON has and the dialect not: such runs are decoded one constant at a time), and stored as
# FactBlocks; the rest goes to lark with the runs blanked out (newlines kept, the last line's length kept), so lark's
# lines, columns and messages are unchanged.
_STRING = r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"'
_CONST = rf'{_STRING}|-?[ \t]*(?:\d+\.\d+(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+|\d+)|#T|#F'
_WS = r"(?:\s|%[^\n]*+)*+"  # taken whole: a fact inside a comment is no fact
_UNIT = rf"{_WS}((?!not\b)[a-z][A-Za-z0-9_]*)[ \t]*\([ \t]*((?:{_CONST})(?:[ \t]*,[ \t]*(?:{_CONST}))*)[ \t]*(\))[ \t]*\."
_FACT = re.compile(_UNIT)  # whitespace and comments, then one fact
_ARGS = re.compile(_CONST)
_SKIP = re.compile(r"(?:\s+|%[^\n]*)+")
# JSON fails on #T/#F, '- 5' and leading zeros (the run is then decoded constant by constant); it would read escapes
# the dialect refuses, so those are looked for first
_BAD_ESCAPE = re.compile(r'\\[^"\\nt]')


_CHUNK = 4096  # facts decoded at a time: the match objects and JSON lists of a chunk are all that is transient


def _fast_facts(text: str, lines: A.LineIndex) -> list[tuple[int, int, A.FactBlock | A.Rule | A.Annotation]] | None:
    """The runs of plain facts of ``text`` as blocks, and its plain rules and annotations (:func:`_plain`), with the
    offsets each spans; None when a statement's end cannot be found (lark then reads all of it). Only statement starts
    are tried: a statement ends at a '.' outside strings, comments and numbers."""
    out: list[tuple[int, int, A.FactBlock | A.Rule | A.Annotation]] = []
    pos, n, match = 0, len(text), _FACT.match
    while pos < n:
        plain = _PLAIN.match(text, pos)
        if plain is not None:
            node = _plain(text, plain, lines)
            if node is not None:
                out.append((pos, plain.end(), node))
                pos = plain.end()
                continue
        run, units, first = _Run(lines), [], pos
        m = match(text, pos)
        while m is not None:  # the facts that follow one another from pos (match, not finditer: that would search on)
            units.append(m)
            pos = m.end()
            if len(units) == _CHUNK:
                run.add(units)
                units = []
            m = match(text, pos)
        run.add(units)
        if run.blocks:
            out += [(first, pos, b) for b in run.blocks]
            continue
        skip = _SKIP.match(text, pos)
        if skip is not None:
            pos = skip.end()
            if pos >= n:
                break
        end = _statement_end(text, pos)
        if end is None:
            return None
        pos = end
    return out


# Plain rules and annotations without lark: a rule of one head atom whose body is atoms, negated atoms, comparisons
# of two terms and aggregates of one term (``S = msum(Q, <Z>)``), every argument a variable or a constant (LUBM's 86
# rules, company control's four, most rules of a catalog), or an annotation of constants. Such a statement is matched
# by one regex, its tokens read by a second, and its nodes and spans made as lark's builder makes them
# (tests/test_fast_facts.py compares both); anything else (expressions, several heads, a string with an escape, a
# line break inside a literal) goes to lark. LUBM: lark took 14 ms to parse, 20 ms in a fresh process with its
# tables loaded; a program read this way entirely does not load lark at all (company control: 14 ms of CPU in a
# fresh process, lark's tables loaded and its lexer built, against 0.5 ms).
_VAR = r"[A-Z_][A-Za-z0-9_]*"
_TERM = rf"(?:{_VAR}|{_CONST})"
_ATOM = rf"[a-z][A-Za-z0-9_]*[ \t]*\([ \t]*(?:{_TERM}(?:[ \t]*,[ \t]*{_TERM})*)?[ \t]*\)"
_GAP = r"(?:\s|%[^\n]*+)*+"  # whitespace and comments, taken whole (no backtracking into them)
_CMP_OPS = r"==|!=|<>|<=|>=|<|>|="  # the longest first, as lark's lexer takes them
_COMPARISON = rf"{_TERM}[ \t]*(?:{_CMP_OPS})[ \t]*{_TERM}"
_CONTRIBUTORS = rf"<[ \t]*{_VAR}(?:[ \t]*,[ \t]*{_VAR})*[ \t]*>"
_AGGREGATE = (rf"{_VAR}[ \t]*=[ \t]*[a-z][A-Za-z0-9_]*[ \t]*\([ \t]*"
              rf"(?:{_TERM}(?:[ \t]*,[ \t]*{_CONTRIBUTORS})?|{_CONTRIBUTORS})?[ \t]*\)")
_LITERAL = rf"(?:not\s+{_ATOM}|{_ATOM}|{_AGGREGATE}|{_COMPARISON})"
_PLAIN = re.compile(rf"{_GAP}(?:{_ATOM}{_GAP}(?::-|<-){_GAP}{_LITERAL}(?:{_GAP},{_GAP}{_LITERAL})*"
                    rf"|@[ \t]*[a-z][A-Za-z0-9_]*[ \t]*\([ \t]*(?:{_CONST}(?:[ \t]*,[ \t]*{_CONST})*)?[ \t]*\))"
                    rf"{_GAP}\.")
_TOKEN = re.compile(rf'\s+|%[^\n]*|(:-|<-)|({_CONST})|({_VAR})|([a-z][A-Za-z0-9_]*)|([(),.@])|({_CMP_OPS})')


def _plain(text: str, m: re.Match, lines: A.LineIndex) -> A.Rule | A.Annotation | None:
    """The rule or annotation :data:`_PLAIN` matched, as lark's builder makes it; None for what lark must read (a
    string with an escape, ``not`` naming a predicate)."""
    source = lines.source
    # (kind, text, start, end); kinds are _TOKEN's groups: 1 arrow, 2 constant, 3 variable, 4 name, 5 punctuation,
    # 6 a comparison's operator (or a contributors' bracket)
    tokens = [(t.lastindex, t.group(t.lastindex), t.start(t.lastindex), t.end(t.lastindex))
              for t in _TOKEN.finditer(text, m.start(), m.end()) if t.lastindex]

    def span(start: int, end: int) -> Span:
        return Span(source, *lines.position(start), *lines.position(end))

    def term(k: int) -> A.Term | None:
        """Token ``k`` as a variable or a constant; None for anything else (or a string with an escape)."""
        kind, value, a, b = tokens[k]
        if kind == 3:
            return A.Var(value, span(a, b))
        if kind != 2 or (value.startswith('"') and "\\" in value):
            return None
        return A.Const(_const_value(value, source, 0), span(a, b))

    def condition(k: int) -> tuple[A.Comparison | A.Assignment | None, int]:
        """The comparison, assignment or aggregate starting at token ``k`` (as lark's builder makes it: ``V = ...``
        with ``V`` a named variable is an assignment), and the index of the token after it; None for what lark must
        read (an aggregate it rejects, a function call, an arrow where an operator should be)."""
        left, op = term(k), tokens[k + 1]
        if left is None or op[0] != 6:
            return None, k
        start = tokens[k][2]
        if op[1] == "=" and tokens[k + 2][0] == 4:  # an aggregate
            name, call = tokens[k + 2][1], tokens[k + 2][2]
            if name not in A.AGGREGATES or not isinstance(left, A.Var) or left.anonymous:
                return None, k
            j, expr, contributors = k + 4, None, None  # after the name and '('
            if tokens[j][0] in (2, 3):
                expr = term(j)
                if expr is None:
                    return None, k
                j += 2 if tokens[j + 1][1] == "," else 1
            if tokens[j][1] == "<":
                if name not in A.MONOTONIC_AGGREGATES:
                    return None, k
                names = []
                j += 1
                while tokens[j][1] != ">":
                    names.append(A.Var(tokens[j][1], span(tokens[j][2], tokens[j][3])))
                    j += 2 if tokens[j + 1][1] == "," else 1
                contributors = tuple(names)
                j += 1
            if expr is None and name not in ("count", "mcount"):
                return None, k
            end = tokens[j][3]  # the call's ')'
            aggregate = A.Aggregate(name, expr, contributors, span(call, end))
            return A.Assignment(left, aggregate, span(start, end)), j + 1
        right = term(k + 2)
        if right is None:
            return None, k
        where = span(start, tokens[k + 2][3])
        if op[1] == "=" and isinstance(left, A.Var) and not left.anonymous:
            return A.Assignment(left, right, where), k + 3
        return A.Comparison(op[1], left, right, where), k + 3

    def atom(k: int) -> tuple[A.Atom | None, int]:
        """The atom whose name is token ``k``, and the index of the token after its ')'."""
        pred, start = tokens[k][1], tokens[k][2]
        args: list[A.Term] = []
        k += 2  # the name and '('
        while tokens[k][1] != ")":
            kind, value, a, b = tokens[k]
            if kind == 3:
                args.append(A.Var(value, span(a, b)))
            elif value.startswith('"') and "\\" in value:
                return None, k
            else:
                args.append(A.Const(_const_value(value, source, 0), span(a, b)))
            k += 1 if tokens[k + 1][1] == ")" else 2  # the term and its ','
        if pred == "not":
            return None, k
        return A.Atom(pred, tuple(args), span(start, tokens[k][3])), k + 1

    if tokens[0][1] == "@":
        found, _ = atom(1)
        return None if found is None else A.Annotation(found.pred, found.args, span(tokens[0][2], tokens[-1][3]))
    head, k = atom(0)
    arrow = tokens[k][1]
    body: list[A.Atom | A.Negation | A.Comparison | A.Assignment] = []
    while head is not None and tokens[k][1] != ".":
        k += 1  # the arrow or ','
        if tokens[k][0] in (2, 3):
            literal, after = condition(k)
            if literal is None:
                return None
            body.append(literal)
            k = after
            continue
        negated = tokens[k][1] == "not" and tokens[k + 1][0] == 4
        found, after = atom(k + 1 if negated else k)
        if found is None:
            return None
        body.append(A.Negation(found, span(tokens[k][2], tokens[after - 1][3])) if negated else found)
        k = after
    if head is None:
        return None
    return A.Rule((head,), tuple(body), arrow, span(tokens[0][2], tokens[-1][3]))


class _Run:
    """The blocks of one run of consecutive facts, built chunk by chunk: one block per stretch of the same predicate
    and arity."""

    def __init__(self, lines: A.LineIndex):
        self.lines = lines
        self.blocks: list[A.FactBlock] = []
        self.key: tuple[str, int] | None = None

    def add(self, units: list[re.Match]) -> None:
        if not units:
            return
        rows = _decode(units, self.lines)
        preds = [m.group(1) for m in units]
        starts = array("q", [m.start(1) for m in units])
        ends = array("q", [m.end(3) for m in units])  # a fact's span is its atom's, as lark gives it
        keys = list(zip(preds, map(len, rows), strict=True))
        cuts = [0, *(i for i in range(1, len(keys)) if keys[i] != keys[i - 1]), len(keys)]
        for a, b in itertools.pairwise(cuts):
            if keys[a] == self.key:  # the stretch goes on from the last chunk
                last = self.blocks[-1]
                last.rows.extend(rows[a:b])  # type: ignore[attr-defined]
                last.starts.extend(starts[a:b])  # type: ignore[attr-defined]
                last.ends.extend(ends[a:b])  # type: ignore[attr-defined]
            else:
                self.blocks.append(A.FactBlock(preds[a], len(rows[a]), rows[a:b], starts[a:b], ends[a:b],
                                               self.lines))
                self.key = keys[a]


def _decode(units: list[re.Match], lines: A.LineIndex) -> list[tuple]:
    """The values of consecutive matches of ``_FACT``, a tuple per fact."""
    args = [m.group(2) for m in units]
    joined = "],[".join(args)
    if "\\" not in joined or _BAD_ESCAPE.search(joined) is None:
        try:
            rows = list(map(tuple, json.loads(f"[[{joined}]]", strict=False)))
            if len(rows) == len(units):
                return rows
        except ValueError:
            pass
    return [tuple(_const_value(tok, lines.source, lines.position(m.start(1))[0]) for tok in _ARGS.findall(a))
            for m, a in zip(units, args, strict=True)]


def const_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """(start, end) offsets of the constants of the fact whose atom spans ``text[start:end]``."""
    opening = text.find("(", start, end)
    if opening < 0:
        return []
    out = []
    for m in _ARGS.finditer(text, opening + 1, end):
        token = m.group()
        out.append((m.start() + len(token) - len(token.lstrip(" \t")), m.end()))  # a number's match may start blank
    return out


def fact_term_span(text: str, fact: A.Fact, index: int) -> Span | None:
    """The span of the ``index``-th argument of a fact whose constants carry none (a FactBlock's facts, made on
    demand), found again in the program ``text`` when a diagnostic needs it."""
    span = fact.span
    if span is None or not text:
        return span
    lines = text.split("\n", span.line)
    if len(lines) < span.line:
        return span
    line = lines[span.line - 1]
    found = const_spans(line, span.column - 1, span.end_column - 1 if span.end_column else len(line))
    if index >= len(found):
        return span
    first, last = found[index]
    return Span(span.source, span.line, first + 1, span.line, last + 1)


def _const_value(token: str, source: str, line: int):
    first = token[0]
    if first == '"':
        return token[1:-1] if "\\" not in token else unescape_string(token, Span(source, line, 1))
    if first == "#":
        return token == "#T"
    if first == "-" and (" " in token or "\t" in token):
        token = token.replace(" ", "").replace("\t", "")
    if "." in token or "e" in token or "E" in token:
        return float(token)
    return int(token)


def _statement_end(text: str, pos: int) -> int | None:
    """Offset just after the '.' ending the statement that starts at ``pos``; None when there is none."""
    i, n = pos, len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            i += 1
            while i < n and text[i] != '"':
                if text[i] == "\n":
                    return None
                i += 2 if text[i] == "\\" else 1
            i += 1
        elif ch == "%":
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif ch == "." and not (i > 0 and text[i - 1].isdigit() and i + 1 < n and text[i + 1].isdigit()):
            return i + 1
        else:
            i += 1
    return None


def parse(text: str, source: str = "<program>") -> A.Program:
    """Parse program text into a :class:`~vadaorchestra.datalog.ast.Program`.

    Raises :class:`DatalogSyntaxError` with a located diagnostic on the first syntax error.
    """
    try:
        facts = None
        if "(" in text:
            lines = A.LineIndex(source, [0, *(m.end() for m in re.finditer("\n", text))])
            facts = _fast_facts(text, lines)
            # a small program is read without lark only when it is plain rules and annotations throughout (company
            # control: lark's tables and lexer cost a fresh process 14 ms of CPU); else lark reads all of it
            if facts and text.count("(") <= 64 and not _plain_only(text, facts):
                facts = None
        if facts:
            pieces, at = [], 0
            for start, end, _block in facts:  # blank the run, keeping its lines and its last line's length
                if start >= at:
                    region = text[start:end]
                    breaks = region.count("\n")
                    pieces += [text[at:start], "\n" * breaks + " " * (len(region) - region.rfind("\n") - 1
                                                                      if breaks else len(region))]
                    at = end
            rest = "".join([*pieces, text[at:]])
            tree = _lark().parse(rest) if rest.strip() else None
            if tree is not None:
                _check_depth(tree, source)
            statements = _Builder(source).transform(tree) if tree is not None else []
            statements = _merge(lines, statements, facts)
        else:
            tree = _lark().parse(text)
            _check_depth(tree, source)
            statements = _Builder(source).transform(tree)
    except UnexpectedInput as exc:
        raise DatalogSyntaxError(_describe(exc), [Diagnostic(_exc_span(exc, source), _describe(exc))], text) from None
    except _Reject as exc:
        raise DatalogSyntaxError(exc.message, [Diagnostic(exc.span, exc.message)], text) from None
    except Exception as exc:  # lark wraps errors raised in transformer callbacks
        inner = getattr(exc, "orig_exc", None)
        if isinstance(inner, _Reject):
            raise DatalogSyntaxError(inner.message, [Diagnostic(inner.span, inner.message)], text) from None
        raise
    return A.Program(tuple(statements), source, text)


def _plain_only(text: str, facts: list[tuple[int, int, A.FactBlock | A.Rule | A.Annotation]]) -> bool:
    """Whether the fast path read every statement of ``text`` (nothing but whitespace and comments between them),
    and none as a block of facts."""
    at = 0
    for start, end, node in facts:
        if isinstance(node, A.FactBlock) or (start > at and _SKIP.fullmatch(text, at, start) is None):
            return False
        at = max(at, end)
    return at >= len(text) or _SKIP.fullmatch(text, at) is not None


def _merge(lines: A.LineIndex, statements: list,
           facts: list[tuple[int, int, A.FactBlock | A.Rule | A.Annotation]]) -> list:
    """Lark's statements and the fast path's blocks, rules and annotations in the order of the text."""
    if not statements:
        return [b for _s, _e, b in facts]

    def offset(stmt) -> int:
        span = stmt.span if stmt.span is not None else getattr(getattr(stmt, "atom", None), "span", None)
        return lines.starts[span.line - 1] + span.column - 1 if span is not None and span.line else 0

    keyed = [(offset(s), 1, i, s) for i, s in enumerate(statements)]
    keyed += [(b.starts[0] if isinstance(b, A.FactBlock) else offset(b), 0, i, b)
              for i, (_start, _end, b) in enumerate(facts)]
    keyed.sort(key=lambda t: t[:3])
    return [s for *_k, s in keyed]


def _exc_span(exc: UnexpectedInput, source: str) -> Span:
    line = getattr(exc, "line", 1)
    column = getattr(exc, "column", 1)
    if isinstance(exc, UnexpectedEOF) or line in (None, -1):
        return Span(source, 0, 0)
    return Span(source, line, column, line, column)


def _describe(exc: UnexpectedInput) -> str:
    if isinstance(exc, UnexpectedCharacters):
        return f"unexpected character {exc.char!r}"
    if isinstance(exc, UnexpectedToken):
        expected = sorted({_READABLE.get(t, repr(t)) for t in exc.expected if not t.startswith("__")})
        got = "end of input" if exc.token.type == "$END" else repr(str(exc.token))
        if exc.token.type == "$END":
            return "unexpected end of input (is a final '.' missing?)"
        return f"unexpected {got}; expected {', '.join(expected)}"
    if isinstance(exc, UnexpectedEOF):
        return "unexpected end of input (is a final '.' missing?)"
    return str(exc)
