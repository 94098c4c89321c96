"""Gold answers of the canal_navigation questions, computed in plain Python from the generated CSV files
(nothing of the engine). Writes data/questions.jsonl; run as a script.
"""

from __future__ import annotations

import csv
import json
import sys
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
    if not (folder / "data" / "passages.csv").exists():
        _load(folder / "generate.py", "canal_navigation_generate").write(folder)

    branches = _read(folder, "canals")
    allowances = {a["canal"]: float(a["monthly_water_allowance_ml"]) for a in _read(folder, "water_allowances")}
    locks = {row["lock"]: row for row in _read(folder, "locks")}
    boats = {b["boat"]: b for b in _read(folder, "boats")}
    passages = _read(folder, "passages")
    moorings = {m["mooring"]: m for m in _read(folder, "moorings")}
    stays = _read(folder, "stays")

    qs = []

    def add(qid, qtype, template, question, answer, complexity):
        qs.append({"id": qid, "type": qtype, "template": template, "question": question,
                   "answer": answer, "complexity": complexity})

    def lock_passages(lock):
        return [p for p in passages if p["lock"] == lock]

    # 1. relation, active voice: the locks a keeper looks after
    keeper = "Tom Ashworth"
    rows = [lk for lk in locks.values() if lk["keeper"] == keeper]
    add("cn01", "lookup", "relation_active", f"Which locks does {keeper} look after?",
        sorted(lk["lock"] for lk in rows), len(rows))

    # 2. relation, passive voice: the keeper of a lock
    lock = "Crofton Top Lock"
    add("cn02", "lookup", "relation_passive", f"Which lock keeper is {lock} looked after by?",
        [locks[lock]["keeper"]], 1)

    # 3. a kind (boat type) as a noun, restricting an owner's boats
    owner = "Wharfside Boat Hire"
    fleet = [b for b in boats.values() if b["owner"] == owner]
    rows = [b for b in fleet if b["boat_type"] == "widebeam"]
    assert 0 < len(rows) < len(fleet)
    add("cn03", "lookup", "kind_relation", f"Which widebeams does {owner} own?",
        sorted(b["boat"] for b in rows), len(fleet))

    # 4. a count over a named month
    lock = "Hatton Top Lock"
    rows = [p for p in lock_passages(lock) if p["passage_date"].startswith("2024-08")]
    assert len(rows) < len(lock_passages(lock))
    add("cn04", "count", "count_month", f"How many passages were made through {lock} in August 2024?",
        len(rows), len(rows))

    # 5. a sum over a named month, asked in the column's unit
    lock = "Tuel Lane Lock"
    rows = [p for p in lock_passages(lock) if p["passage_date"].startswith("2024-07")]
    assert len(rows) < len(lock_passages(lock))
    add("cn05", "aggregate", "sum_month",
        f"How many megalitres of water did the passages through {lock} use in July 2024?",
        round(sum(float(p["water_ml"]) for p in rows), 2), len(rows))

    # 6. an average
    owner = "Oakwood Canal Holidays"
    rows = [b for b in boats.values() if b["owner"] == owner]
    add("cn06", "aggregate", "average", f"What is the average length of the boats owned by {owner}?",
        round(sum(float(b["length_m"]) for b in rows) / len(rows), 1), len(rows))

    # 7. the three locks of a canal with the largest rise
    canal = "Kennet and Avon Canal"
    rows = sorted((lk for lk in locks.values() if lk["canal"] == canal), key=lambda lk: -float(lk["rise_m"]))
    assert float(rows[2]["rise_m"]) > float(rows[3]["rise_m"])
    add("cn07", "ranking", "top_n", f"Which three locks on the {canal} have the largest rise?",
        sorted(lk["lock"] for lk in rows[:3]), len(rows))

    # 8. a recursive chain
    canal = "Leeds and Liverpool Canal"
    below, frontier = set(), {canal}
    while frontier:
        nxt = {b["canal"] for b in branches if b["parent_canal"] in frontier} - below
        below |= nxt
        frontier = nxt
    add("cn08", "chain", "chain_all", f"Which branches come off the {canal}, directly or indirectly?",
        sorted(below), len(below))

    # 9. a monthly amount against the monthly limit beside it, in a named month: yes/no
    canal = "Kennet and Avon Canal"
    month = "2024-09"
    used = sum(float(p["water_ml"]) for p in passages
               if locks[p["lock"]]["canal"] == canal and p["passage_date"].startswith(month))
    n = sum(1 for p in passages if locks[p["lock"]]["canal"] == canal and p["passage_date"].startswith(month))
    over_any = any(
        sum(float(p["water_ml"]) for p in passages
            if locks[p["lock"]]["canal"] == canal and p["passage_date"].startswith(f"2024-{m:02d}"))
        > allowances[canal] for m in range(1, 13))
    assert over_any and used <= allowances[canal], "the month should decide the answer"
    add("cn09", "limit", "limit_month_yes_no",
        f"Did the {canal} use more water than its monthly water allowance in September 2024?",
        used > allowances[canal], n + 1)

    # 10. things against a limit: a list
    mooring = "Jericho Moorings"
    limit = int(moorings[mooring]["max_stay_nights"])
    rows = [s for s in stays if s["mooring"] == mooring]
    over = sorted({s["boat"] for s in rows if int(s["nights"]) > limit})
    add("cn10", "limit", "limit_list",
        f"Which boats stayed at {mooring} for more nights than its maximum stay?", over, len(rows) + 1)

    # 11. a share of a kind, as a percentage
    lock = "Caen Hill Top Lock"
    rows = lock_passages(lock)
    wide = [p for p in rows if boats[p["boat"]]["boat_type"] == "widebeam"]
    add("cn11", "share", "kind_percentage",
        f"What percentage of the passages through {lock} were made by widebeams?",
        round(100.0 * len(wide) / len(rows), 1), len(rows))

    # 12. two parts about one boat
    boat = "Jolly Harvest"
    add("cn12", "multi-part", "lookup_and_value", f"Who owns the boat {boat}, and what is its length?",
        {"parts": [[boats[boat]["owner"]], float(boats[boat]["length_m"])]}, 1)

    # 13. two parts: a count and a total
    canal = "Rochdale Canal"
    rows = [lk for lk in locks.values() if lk["canal"] == canal]
    add("cn13", "multi-part", "count_and_sum",
        f"How many locks are there on the {canal} and what is their total rise?",
        {"parts": [len(rows), round(sum(float(lk["rise_m"]) for lk in rows), 2)]}, len(rows))

    # 14. a sum over a named month
    boat = "Wandering Clover"
    all_rows = [s for s in stays if s["boat"] == boat]
    rows = [s for s in all_rows if s["arrival_date"].startswith("2024-08")]
    assert len(rows) < len(all_rows)
    add("cn14", "aggregate", "sum_month",
        f"How many nights did {boat} spend at visitor moorings in August 2024?",
        sum(int(s["nights"]) for s in rows), len(rows))

    # 15-16. nothing in the catalog holds speed limits or repair costs
    add("cn15", "unanswerable", "no_tool", "What is the speed limit for boats on the Oxford Canal?", None, 0)
    add("cn16", "unanswerable", "no_tool", "How much did the last repair of Hatton Top Lock cost?", None, 0)

    return qs


def write(folder: Path = HERE) -> None:
    qs = build(folder)
    with open(folder / "data" / "questions.jsonl", "w", encoding="utf-8") as fh:
        for q in qs:
            fh.write(json.dumps(q, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    target = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else HERE
    write(target)
    for line in open(target / "data" / "questions.jsonl", encoding="utf-8"):
        print(line.rstrip())
