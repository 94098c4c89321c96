"""Ground truth for the bank_qa and bank_plus questions, computed with pandas and networkx only.

This file is deliberately independent of vadaorchestra: it imports nothing from the package, runs no Datalog and
shares no code with the engine, so a bug there cannot hide here. Everything a gold answer needs is in this one file:

- :func:`control_pairs` — company control by a fixpoint over the ownership graph: X controls Y (X != Y) when the
  shares of Y that X owns directly, plus the shares of Y owned by companies X controls, add up to more than 50 %;
  each owner counts once (its own share of Y). The generator uses it to write ``controls.csv``.
- :func:`ultimate_pairs` — X ultimately controls Y when X controls Y and nobody controls X.
- :class:`KG` — the knowledge graph read back from the CSV files, and one function per question template returning
  ``(answer, complexity)``: the answer is a sorted list of names or an int; the complexity is the number of
  entity-relations (triples of the KG) a reader must look at to reach it.

Shares are integer percentages, so every comparison is exact.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

import networkx as nx
import pandas as pd

# relation -> (file, columns); the first two columns are the subject and the object of the triple
RELATIONS: dict[str, tuple[str, tuple[str, ...]]] = {
    "has_role_in": ("has_role_in.csv", ("person", "company", "role")),
    "owns_minority": ("owns_minority.csv", ("owner", "company", "share_pct")),
    "owns_majority": ("owns_majority.csv", ("owner", "company", "share_pct")),
    "controls": ("controls.csv", ("controller", "company")),
    "ultimately_controls": ("ultimately_controls.csv", ("controller", "company")),
    "has_holdings_in": ("has_holdings_in.csv", ("holder", "company", "value")),
    "lends_to": ("lends_to.csv", ("bank", "borrower", "amount")),
    "has_credit_line_with": ("has_credit_line_with.csv", ("company", "bank", "credit_limit")),
    "guarantees": ("guarantees.csv", ("guarantor", "company", "amount")),
}
NUMERIC = ("share_pct", "value", "amount", "credit_limit")
# what KG.lookup follows from an entity
LOOKUPS = ("roles", "officers", "majority", "minority", "shareholders", "control", "ultimate", "holdings",
           "borrowers", "lenders", "credit_banks", "guarantors")


# --- company control --------------------------------------------------------------------------------------------------
def ownership_graph(edges: Iterable[tuple[str, str, int]]) -> nx.DiGraph:
    """owner -> company edges weighted by the share in percent (one edge per pair)."""
    g = nx.DiGraph()
    for owner, company, pct in edges:
        if g.has_edge(owner, company):
            raise ValueError(f"two ownership rows for {owner!r} -> {company!r}")
        g.add_edge(owner, company, pct=int(pct))
    return g


def controlled_by(g: nx.DiGraph, x: str) -> set[str]:
    """The companies ``x`` controls: least fixpoint of "direct share + shares of controlled companies > 50"."""
    if x not in g:
        return set()
    controlled: set[str] = set()
    while True:
        totals: dict[str, int] = defaultdict(int)
        for z in [x, *controlled]:
            for y, data in g[z].items():
                if y != x and y != z:
                    totals[y] += data["pct"]
        found = {y for y, s in totals.items() if s > 50}
        if found <= controlled:
            return controlled
        controlled |= found


def control_pairs(edges: Iterable[tuple[str, str, int]]) -> set[tuple[str, str]]:
    """Every (controller, company) pair of the ownership edges."""
    g = ownership_graph(edges)
    return {(x, y) for x in g.nodes if g.out_degree(x) for y in controlled_by(g, x)}


def ultimate_pairs(control: set[tuple[str, str]]) -> set[tuple[str, str]]:
    """(X, Y) with X controlling Y and nobody controlling X."""
    controlled = {y for _, y in control}
    return {(x, y) for x, y in control if x not in controlled}


# --- the knowledge graph ----------------------------------------------------------------------------------------------
def _by(df: pd.DataFrame, key: str, value: str) -> dict[str, list[str]]:
    return {k: sorted(set(g[value])) for k, g in df.groupby(key, sort=True)}


class KG:
    """The CSV files of a data folder, with indexes for the question templates."""

    def __init__(self, data_dir: str | Path):
        folder = Path(data_dir)
        self.frames: dict[str, pd.DataFrame] = {}
        for rel, (file, cols) in RELATIONS.items():
            df = pd.read_csv(folder / file, dtype={c: ("int64" if c in NUMERIC else "string") for c in cols})
            if tuple(df.columns) != cols:
                raise ValueError(f"{file}: columns {list(df.columns)} are not {list(cols)}")
            self.frames[rel] = df
        f = self.frames
        own = pd.concat([f["owns_minority"], f["owns_majority"]], ignore_index=True)
        self.own = own
        self.graph = ownership_graph(own.itertuples(index=False, name=None))
        self.control = {x: sorted(controlled_by(self.graph, x)) for x in sorted(self.graph.nodes)
                        if self.graph.out_degree(x)}
        self.control = {x: ys for x, ys in self.control.items() if ys}
        pairs = {(x, y) for x, ys in self.control.items() for y in ys}
        ult = ultimate_pairs(pairs)
        self.ultimate_of: dict[str, list[str]] = defaultdict(list)
        for x, y in sorted(ult):
            self.ultimate_of[y].append(x)
        self.roles = _by(f["has_role_in"], "person", "company")
        self.officers = _by(f["has_role_in"], "company", "person")
        self.majority = _by(f["owns_majority"], "owner", "company")
        self.minority = _by(f["owns_minority"], "owner", "company")
        self.shareholders = _by(own, "company", "owner")
        self.holdings = _by(f["has_holdings_in"], "holder", "company")
        self.borrowers = _by(f["lends_to"], "bank", "borrower")
        self.lenders = _by(f["lends_to"], "borrower", "bank")
        self.credit_banks = _by(f["has_credit_line_with"], "company", "bank")
        self.guarantors = _by(f["guarantees"], "company", "guarantor")

    def triples(self) -> int:
        return sum(len(df) for df in self.frames.values())

    # --- one hop: (answer list, complexity) ------------------------------------------------------------------------
    def index(self, relation: str) -> dict[str, list[str]]:
        """entity -> sorted related entities, for one of :data:`LOOKUPS`."""
        if relation not in LOOKUPS:
            raise KeyError(f"unknown relation {relation!r}; relations: {', '.join(LOOKUPS)}")
        return self.ultimate_of if relation == "ultimate" else getattr(self, relation)

    def lookup(self, relation: str, entity: str) -> tuple[list[str], int]:
        """The entities ``relation`` reaches from ``entity``; one entity-relation per value."""
        values = sorted(self.index(relation).get(entity, []))
        return values, len(values)

    # --- multi-hop -------------------------------------------------------------------------------------------------
    def chain(self, first: str, second: str, entity: str) -> tuple[list[str], int]:
        """Follow ``first`` from ``entity``, then ``second`` from every entity reached; the union of the ends."""
        middle, n = self.lookup(first, entity)
        out: set[str] = set()
        for m in middle:
            values, k = self.lookup(second, m)
            out.update(values)
            n += k
        return sorted(out), n

    def ultimate_then_control(self, company: str) -> tuple[list[str], int]:
        """The companies controlled by the ultimate controller(s) of ``company``."""
        return self.chain("ultimate", "control", company)

    # --- a question's gold answer ----------------------------------------------------------------------------------
    def answer(self, qtype: str, template: str, entity: str) -> tuple[list[str] | int, int]:
        """Gold answer and complexity of a question record (``type``, ``template``, ``entity``)."""
        if qtype == "multi-hop":
            first, second = template.split(">")
            return self.chain(first, second, entity)
        values, complexity = self.lookup(template, entity)
        if qtype == "count":
            return len(values), complexity
        if qtype == "generic":
            return values, complexity
        raise ValueError(f"unknown question type {qtype!r}")
