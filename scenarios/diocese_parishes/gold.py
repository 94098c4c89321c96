"""Gold answers for the diocese_parishes questions, computed from the generated CSV files in plain Python
(nothing of vadaorchestra). Run `python gold.py` to (re)generate the data if missing and write
data/questions.jsonl.
"""
from __future__ import annotations

import csv
import json
import os
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")


def load(name: str) -> list[dict]:
    with open(os.path.join(DATA, name), newline="") as fh:
        return list(csv.DictReader(fh))


def ensure_data() -> None:
    if not os.path.exists(os.path.join(DATA, "units.csv")):
        import generate
        generate.write(HERE)


def in_period(date: str, start: str, end: str) -> bool:
    """start <= date < end on ISO strings (months or days)."""
    return start <= date < end


def questions() -> list[dict]:
    units = load("units.csv")
    parishes = {r["parish"]: r for r in load("parishes.csv")}
    clergy = load("clergy.csv")
    services = load("services.csv")
    offices = load("offices.csv")
    share = {r["parish"]: r for r in load("parish_share.csv")}
    payments = load("share_payments.csv")
    halls = {r["parish"]: r for r in load("halls.csv")}
    bookings = load("hall_bookings.csv")

    children = defaultdict(list)
    for u in units:
        children[u["parent"]].append(u)

    def below(unit: str) -> list[dict]:
        out, todo = [], [unit]
        while todo:
            cur = todo.pop()
            for c in children[cur]:
                out.append(c)
                todo.append(c["unit"])
        return out

    qs: list[dict] = []

    def add(qid, qtype, template, question, answer, complexity):
        qs.append({"id": qid, "type": qtype, "template": template, "question": question, "answer": answer,
                   "complexity": complexity})

    # 1 lookup: the vicar of a parish
    p = "St Peter's Lowbridge"
    rows = [c for c in clergy if c["parish"] == p and c["role"] == "vicar"]
    assert len(rows) == 1
    add("dp01", "lookup", "incumbent_of_parish", f"Who is the vicar of {p}?", [rows[0]["person"]], 1)

    # 2 list: the parishes a priest is licensed to
    who = "Joanna Yeadon"
    rows = [c for c in clergy if c["person"] == who]
    add("dp02", "list", "parishes_of_minister", f"Which parishes is {who} licensed to?",
        sorted({c["parish"] for c in rows}), len(rows))

    # 3 join: readers of the parishes of a deanery (chain tool, then the parish ministers)
    dn = "Glenham Deanery"
    ps = {u["unit"] for u in below(dn) if u["unit_type"] == "parish"}
    rows = [c for c in clergy if c["parish"] in ps and c["role"] == "reader"]
    add("dp03", "join", "readers_in_deanery",
        f"Who are the licensed readers in the parishes of {dn}?", sorted({c["person"] for c in rows}),
        len(ps) + len(rows))

    # 4 count over a quarter
    p = "St Edmund's Yarrowby"
    rows = [o for o in offices if o["parish"] == p and o["office_type"] == "funeral"
            and in_period(o["office_date"], "2024-04", "2024-07")]
    add("dp04", "count", "offices_in_quarter", f"How many funerals were taken at {p} in Q2 2024?", len(rows),
        len(rows))

    # 5 count over a month
    p = "St Leonard's Thornbury"
    rows = [o for o in offices if o["parish"] == p and o["office_type"] == "baptism"
            and in_period(o["office_date"], "2024-06", "2024-07")]
    add("dp05", "count", "offices_in_month", f"How many baptisms did {p} have in June 2024?", len(rows),
        len(rows))

    # 6 total over a quarter
    p = "St Chad's Dalby"
    rows = [r for r in payments if r["parish"] == p and in_period(r["payment_date"], "2024-01", "2024-04")]
    add("dp06", "total", "share_paid_in_quarter",
        f"How much did {p} pay towards its parish share in the first quarter of 2024?",
        sum(int(r["amount_gbp"]) for r in rows), len(rows))

    # 7 average over a month
    p = "St Michael's Dunmore"
    rows = [s for s in services if s["parish"] == p and in_period(s["service_date"], "2024-10", "2024-11")]
    avg = sum(int(s["attendance"]) for s in rows) / len(rows)
    add("dp07", "average", "average_attendance_in_month",
        f"What was the average attendance at services at {p} in October 2024?", round(avg, 2), len(rows))

    # 8 top 3 over every parish
    cnt = Counter(o["parish"] for o in offices if o["office_type"] == "funeral" and o["office_date"][:4] == "2024")
    ranked = cnt.most_common()
    assert ranked[2][1] > ranked[3][1]
    add("dp08", "superlative", "top3_parishes_by_funerals", "Which three parishes held the most funerals in 2024?",
        [r[0] for r in ranked[:3]], sum(cnt.values()))

    # 9 superlative within an entity: the hirer with the most hours at a hall
    p = "St Chad's Oakhurst"
    hrs = defaultdict(float)
    rows = [b for b in bookings if b["parish"] == p and b["booking_date"][:4] == "2024"]
    for b in rows:
        hrs[b["hirer"]] += float(b["hours"])
    ranked = sorted(hrs.items(), key=lambda kv: -kv[1])
    assert ranked[0][1] > ranked[1][1]
    add("dp09", "superlative", "hirer_with_most_hours",
        f"Which hirer had the hall at {p} booked for the most hours in 2024?", [ranked[0][0]], len(rows))

    # 10 share: paid against the share asked
    p = "St Peter's Tadcombe"
    rows = [r for r in payments if r["parish"] == p and r["payment_date"][:4] == "2024"]
    pct = 100 * sum(int(r["amount_gbp"]) for r in rows) / int(share[p]["share_asked_gbp"])
    add("dp10", "share", "share_paid_pct", f"What percentage of its 2024 parish share has {p} paid?",
        round(pct, 1), len(rows) + 1)

    # 11 share: weddings among the occasional offices
    p = "St Edmund's Hexley"
    rows = [o for o in offices if o["parish"] == p and o["office_date"][:4] == "2024"]
    wed = [o for o in rows if o["office_type"] == "wedding"]
    add("dp11", "share", "office_type_pct",
        f"What percentage of the occasional offices at {p} in 2024 were weddings?",
        round(100 * len(wed) / len(rows), 1), len(rows))

    # 12 limit, yes
    p = "St Peter's Brackenford"
    rows = [b for b in bookings if b["parish"] == p and in_period(b["booking_date"], "2024-10", "2024-11")]
    used = sum(float(b["hours"]) for b in rows)
    add("dp12", "limit", "hall_hours_over_limit_month",
        f"Did the hall at {p} go over its monthly hire-hours limit in October 2024?",
        used > int(halls[p]["monthly_hours_limit"]), len(rows) + 1)

    # 13 limit, no
    p = "St Edmund's Hexley"
    rows = [b for b in bookings if b["parish"] == p and in_period(b["booking_date"], "2024-02", "2024-03")]
    used = sum(float(b["hours"]) for b in rows)
    add("dp13", "limit", "hall_hours_over_licence_month",
        f"Was the church hall at {p} hired out for more hours than its licence allows in February 2024?",
        used > int(halls[p]["monthly_hours_limit"]), len(rows) + 1)

    # 14 chain: every parish under an archdeaconry
    a = "Archdeaconry of Marlowe"
    sub = below(a)
    add("dp14", "chain", "parishes_under_archdeaconry",
        f"Which parishes come under the {a}, whether directly or through one of its deaneries?",
        sorted(u["unit"] for u in sub if u["unit_type"] == "parish"), len(sub))

    # 15 two parts: deanery and electoral roll
    p = "St Margaret's Netherby"
    add("dp15", "two_part", "deanery_and_roll",
        f"Which deanery is {p} in, and how many people are on its electoral roll?",
        {"parts": [[parishes[p]["deanery"]], int(parishes[p]["electoral_roll"])]}, 1)

    # 16 two parts: count and total of one kind of office
    p = "St Edmund's Yarrowby"
    rows = [o for o in offices if o["parish"] == p and o["office_type"] == "wedding"
            and o["office_date"][:4] == "2024"]
    add("dp16", "two_part", "weddings_count_and_fees",
        f"How many weddings did {p} hold in 2024, and what did they bring in in fees?",
        {"parts": [len(rows), sum(int(o["fee_gbp"]) for o in rows)]}, len(rows))

    return qs


def main() -> None:
    ensure_data()
    qs = questions()
    with open(os.path.join(DATA, "questions.jsonl"), "w") as fh:
        for q in qs:
            fh.write(json.dumps(q) + "\n")
    print(f"wrote {len(qs)} questions to data/questions.jsonl")


if __name__ == "__main__":
    main()
