"""Gold answers of the orchestra_season set, computed from the CSV files in plain Python.

    python gold.py          # checks every "answer" of data/questions.jsonl against the computation
    python gold.py --fill   # writes the computed answers (and complexities) into data/questions.jsonl
"""
import csv
import json
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"


def rows(name):
    with open(DATA / name, newline="") as f:
        return list(csv.DictReader(f))


sections = rows("sections.csv")
musicians = {r["musician"]: r for r in rows("musicians.csv")}
venues = {r["venue"]: r for r in rows("venues.csv")}
concerts = rows("concerts.csv")
bookings = rows("bookings.csv")


def num(x):
    x = float(x)
    return int(x) if x.is_integer() else round(x, 2)


def children(section):
    return [s for s in sections if s["parent"] == section]


def descendants(section):
    out, frontier = [], [section]
    while frontier:
        nxt = []
        for p in frontier:
            for c in children(p):
                out.append(c)
                nxt.append(c["section"])
        frontier = nxt
    return out


def players(section):
    return [m for m in musicians.values() if m["section"] == section]


def hours_in_month(musician, month):
    rs = [b for b in bookings if b["musician"] == musician and b["month"] == month]
    return sum(float(b["hours"]) for b in rs), rs


def q01():
    return num(musicians["Grace Obi"]["fee_per_service_gbp"]), 1


def q02():
    ps = players("Violas")
    return sorted(m["musician"] for m in ps), len(ps)


def q03():
    cs = [c for c in concerts if c["conductor"] == "Rafael Quintero"]
    return len(cs), len(cs)


def q04():
    cs = [c for c in concerts if c["venue"] == "Corn Exchange"]
    return sum(int(c["tickets_sold"]) for c in cs), len(cs)


def q05():
    cs = [c for c in concerts if c["venue"] == "Northvale City Hall"]
    top = max(int(c["tickets_sold"]) for c in cs)
    return sorted(c["concert"] for c in cs if int(c["tickets_sold"]) == top), len(cs)


def q06():
    ps = players("Cellos")
    return round(100.0 * sum(1 for m in ps if m["contract"] == "tutti") / len(ps), 1), len(ps)


def q07():
    h, rs = hours_in_month("Clara Weiss", "2024-03")
    return h > float(musicians["Clara Weiss"]["monthly_hours_cap"]), len(rs) + 1


def q08():
    over, n = [], 0
    for m in players("Horns"):
        h, rs = hours_in_month(m["musician"], "2024-03")
        n += len(rs) + 1
        if h > float(m["monthly_hours_cap"]):
            over.append(m["musician"])
    return sorted(over), n


def q09():
    cap = int(venues["Riverside Assembly Rooms"]["seating_capacity"])
    cs = [c for c in concerts if c["venue"] == "Riverside Assembly Rooms"]
    return any(int(c["tickets_sold"]) > cap for c in cs), len(cs) + 1


def q10():
    cs = children("Brass")
    return sorted(c["section"] for c in cs), len(cs)


def q11():
    ds = descendants("Brass")
    ps = [m for d in ds for m in players(d["section"])]
    return len(ps), len(ps) + len(ds)


def q12():
    h, rs = hours_in_month("Tomasz Wilk", "2024-04")
    return num(h), len(rs)


def q13():
    cs = [c for c in concerts if c["conductor"] == "Hilde Aas" and c["date"].startswith("2024-05")]
    return sorted(c["concert"] for c in cs), len(cs)


def q14():
    rs = [b for b in bookings if b["concert"] == "Elgar by Candlelight"]
    return num(sum(float(b["fee_gbp"]) for b in rs)), len(rs)


def q15():
    cap = int(venues["Corn Exchange"]["seating_capacity"])
    cs = [c for c in concerts if c["venue"] == "Corn Exchange"]
    return {"parts": [cap, len(cs)]}, len(cs) + 1


def q16():
    m = musicians["Jonas Berg"]
    return {"parts": [[m["section"]], num(m["monthly_hours_cap"])]}, 1


GOLD = {f"orch-{i:02d}": fn for i, fn in enumerate(
    [q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15, q16], 1)}


def same(a, b):
    if isinstance(a, dict) and isinstance(b, dict):
        return len(a["parts"]) == len(b["parts"]) and all(same(x, y) for x, y in zip(a["parts"], b["parts"]))
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) <= 1e-6 * max(1.0, abs(a))
    if isinstance(a, list) and isinstance(b, list):
        return sorted(map(str.lower, a)) == sorted(map(str.lower, b))
    return a == b


def main():
    path = DATA / "questions.jsonl"
    qs = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    assert len(qs) == len(GOLD) and {q["id"] for q in qs} == set(GOLD), "question ids differ from the gold functions"
    if "--fill" in sys.argv:
        for q in qs:
            q["answer"], q["complexity"] = GOLD[q["id"]]()
        path.write_text("".join(json.dumps(q) + "\n" for q in qs))
        print(f"wrote {len(qs)} answers")
        return 0
    bad = 0
    for q in qs:
        ans, _ = GOLD[q["id"]]()
        ok = same(ans, q["answer"])
        bad += not ok
        print(f"{q['id']}: {'ok ' if ok else 'MISMATCH'} gold={json.dumps(ans)} file={json.dumps(q['answer'])}")
    if bad:
        print(f"{bad} of {len(qs)} answers do not match")
        return 1
    print(f"all {len(qs)} answers match")
    return 0


if __name__ == "__main__":
    sys.exit(main())
