"""Gold answers of the chess_federation questions, computed in plain Python from the generated CSV files
(nothing of the engine). Writes data/questions.jsonl; run as a script.
"""

from __future__ import annotations

import csv
import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _load(path: Path, name: str):
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _read(folder: Path, name: str) -> list[dict]:
    with open(folder / "data" / f"{name}.csv", newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def build(folder: Path = HERE) -> list[dict]:
    if not (folder / "data" / "games.csv").exists():
        _load(folder / "generate.py", "chess_federation_generate").write(folder)

    players = _read(folder, "players")
    clubs = _read(folder, "clubs")
    assocs = _read(folder, "associations")
    tournaments = {t["tournament"]: t for t in _read(folder, "tournaments")}
    entries = _read(folder, "entries")
    games = _read(folder, "games")

    def members(club):
        return [p for p in players if p["club"] == club]

    def player_games(player):
        rows = []
        for g in games:
            if g["white"] == player:
                rows.append((g["game_id"], g["game_date"], float(g["white_points"])))
            elif g["black"] == player:
                rows.append((g["game_id"], g["game_date"], float(g["black_points"])))
        return rows

    def entries_of(t):
        return [e for e in entries if e["tournament"] == t]

    qs = []

    def add(qid, qtype, template, question, answer, complexity):
        qs.append({"id": qid, "type": qtype, "template": template, "question": question,
                   "answer": answer, "complexity": complexity})

    # 1. relation, active voice: the tournaments an arbiter directed
    arb = "Helen Marsh"
    rows = [t for t in tournaments.values() if t["arbiter"] == arb]
    add("cf01", "lookup", "relation_active", f"Which tournaments has the arbiter {arb} directed?",
        sorted(t["tournament"] for t in rows), len(rows))

    # 2. relation, passive voice: the host of a tournament
    t = "Tyneside Blitz Cup"
    add("cf02", "lookup", "relation_passive", f"Which club was the {t} hosted by?",
        [tournaments[t]["host_club"]], 1)

    # 3. a kind (membership category) as a noun, counted
    club = "York Minster Chess Club"
    rows = [p for p in members(club) if p["membership"] == "junior"]
    add("cf03", "count", "kind_count", f"How many juniors are members of {club}?", len(rows), len(members(club)))

    # 4. the three highest-rated players of a club
    club = "Halifax Chess Club"
    ranked = sorted(members(club), key=lambda p: -int(p["rating"]))
    assert int(ranked[2]["rating"]) > int(ranked[3]["rating"]), "tie at the third place"
    add("cf04", "ranking", "top_n", f"Who are the three highest-rated players at {club}?",
        sorted(p["player"] for p in ranked[:3]), len(ranked))

    # 5. a count over a named month
    player = "Edith Scholes"
    rows = [g for g in player_games(player) if g[1].startswith("2024-03")]
    assert len(rows) < len(player_games(player)), "the month restricts nothing"
    add("cf05", "count", "count_month", f"How many games did {player} play in March 2024?", len(rows), len(rows))

    # 6. a sum over a named month
    player = "Leo Sutcliffe"
    rows = [g for g in player_games(player) if g[1].startswith("2024-04")]
    assert len(rows) < len(player_games(player)), "the month restricts nothing"
    add("cf06", "aggregate", "sum_month", f"How many points did {player} score in April 2024?",
        sum(g[2] for g in rows), len(rows))

    # 7. a total of amounts
    t = "Sheffield Rapidplay"
    rows = entries_of(t)
    add("cf07", "aggregate", "sum", f"What was the total of the entry fees paid for the {t}?",
        round(sum(float(e["fee_paid_gbp"]) for e in rows), 2), len(rows))

    # 8. an average
    club = "Bolton Chess Club"
    rows = members(club)
    add("cf08", "aggregate", "average", f"What is the average rating of the members of {club}?",
        round(sum(int(p["rating"]) for p in rows) / len(rows), 1), len(rows))

    # 9. a share of a kind, as a percentage
    club = "Liverpool Chess Club"
    rows = members(club)
    juniors = [p for p in rows if p["membership"] == "junior"]
    add("cf09", "share", "kind_percentage", f"What percentage of the members of {club} are juniors?",
        round(100.0 * len(juniors) / len(rows), 1), len(rows))

    # 10. one thing against its limit: yes/no
    t = "Merseyside Open"
    n = len(entries_of(t))
    add("cf10", "limit", "limit_yes_no", f"Did the {t} take more entries than its entry limit?",
        n > int(tournaments[t]["max_entries"]), n + 1)

    # 11. every thing against its limit: a list
    count = Counter(p["club"] for p in players)
    over = sorted(c["club"] for c in clubs if count[c["club"]] > int(c["member_cap"]))
    add("cf11", "limit", "limit_list", "Which clubs have more members than their membership cap?",
        over, len(players) + len(clubs))

    # 12. a recursive chain
    top = "Northern Chess Union"
    below, frontier = set(), {top}
    while frontier:
        nxt = {a["association"] for a in assocs if a["parent_association"] in frontier} - below
        below |= nxt
        frontier = nxt
    add("cf12", "chain", "chain_all", f"Which associations report to the {top}, directly or indirectly?",
        sorted(below), len(below))

    # 13. two parts: a relation and a count
    t = "Southport Seaside Congress"
    add("cf13", "multi-part", "lookup_and_count",
        f"Who was the arbiter of the {t}, and how many players entered it?",
        {"parts": [[tournaments[t]["arbiter"]], len(entries_of(t))]}, 1 + len(entries_of(t)))

    # 14. two parts: a count and the limit beside it
    club = "Hebden Bridge Rooks"
    cap = int(next(c["member_cap"] for c in clubs if c["club"] == club))
    add("cf14", "multi-part", "count_and_limit",
        f"How many members does {club} have and what is its membership cap?",
        {"parts": [len(members(club)), cap]}, len(members(club)) + 1)

    # 15. a kind (time control) restricting a relation
    club = "Bradford Knights"
    rows = [t for t in tournaments.values() if t["host_club"] == club]
    blitz = sorted(t["tournament"] for t in rows if t["time_control"] == "blitz")
    assert len(blitz) < len(rows), "the kind restricts nothing"
    add("cf15", "lookup", "kind_relation", f"Which blitz tournaments did {club} host?", blitz, len(rows))

    # 16. no tool of the catalog holds prize money
    add("cf16", "unanswerable", "no_tool",
        "How much prize money did Edith Scholes win at the Bradford Blitz Night?", None, 0)

    return qs


def write(folder: Path = HERE) -> None:
    qs = build(folder)
    with open(folder / "data" / "questions.jsonl", "w", encoding="utf-8") as fh:
        for q in qs:
            fh.write(json.dumps(q, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    write(Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else HERE)
    for line in open((Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else HERE) / "data" / "questions.jsonl"):
        print(line.rstrip())
