"""Gold answers of the vet_network set, computed from the CSV files in plain Python.

    python gold.py          # checks every "answer" of data/questions.jsonl against the computation
    python gold.py --fill   # writes the computed answers (and complexities) into data/questions.jsonl
"""
import csv
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"


def rows(name):
    with open(DATA / name, newline="") as f:
        return list(csv.DictReader(f))


units = rows("units.csv")
clinics = {r["clinic"]: r for r in rows("clinics.csv")}
vets = rows("vets.csv")
appointments = rows("appointments.csv")
dispensing = rows("dispensing.csv")
allowances = {(r["clinic"], r["drug"]): float(r["monthly_allowance_ml"]) for r in rows("drug_allowances.csv")}


def num(x):
    x = float(x)
    return int(x) if x.is_integer() else round(x, 2)


def children(unit):
    return [u for u in units if u["parent"] == unit]


def descendants(unit):
    out, frontier = [], [unit]
    while frontier:
        nxt = []
        for p in frontier:
            for c in children(p):
                out.append(c)
                nxt.append(c["unit"])
        frontier = nxt
    return out


def appts(clinic=None, vet=None, month=None):
    return [a for a in appointments
            if (clinic is None or a["clinic"] == clinic) and (vet is None or a["vet"] == vet)
            and (month is None or a["date"].startswith(month))]


def dispensed(clinic, drug, month):
    rs = [d for d in dispensing if d["clinic"] == clinic and d["drug"] == drug and d["month"] == month]
    return round(sum(float(d["quantity_ml"]) for d in rs), 2), rs


def q01():
    return num(allowances[("Durham Referral Hospital", "methadone")]), 1


def q02():
    vs = [v["vet"] for v in vets if v["clinic"] == "Skipton Animal Clinic"]
    return sorted(vs), len(vs)


def q03():
    rs = appts("Jesmond Vets", month="2024-02")
    return len(rs), len(rs)


def q04():
    rs = appts(vet="Tom Ashworth")
    return len(rs), len(rs)


def q05():
    rs = appts("Winchester Small Animal Clinic")
    return num(sum(float(a["fee_gbp"]) for a in rs)), len(rs)


def q06():
    rs = appts("Keighley Pet Hospital")
    c = Counter(a["vet"] for a in rs)
    top = max(c.values())
    return sorted(v for v, n in c.items() if n == top), len(rs)


def q07():
    rs = appts("Whitstable Vets")
    cats = [a for a in rs if a["species"] == "cat"]
    return round(100.0 * len(cats) / len(rs), 1), len(rs)


def q08():
    total, rs = dispensed("Hebden Bridge Vets", "ketamine", "2024-03")
    return total > allowances[("Hebden Bridge Vets", "ketamine")], len(rs) + 1


def q09():
    total, rs = dispensed("Whitstable Vets", "ketamine", "2024-02")
    return total <= allowances[("Whitstable Vets", "ketamine")], len(rs) + 1


def q10():
    clinic, month = "Margate Animal Clinic", "2024-03"
    over, n = [], 0
    for drug in ("ketamine", "methadone", "buprenorphine"):
        total, rs = dispensed(clinic, drug, month)
        n += len(rs)
        if total > allowances[(clinic, drug)]:
            over.append(drug)
    return sorted(over), n + 3


def q11():
    cs = [u["unit"] for u in children("Northern Region")]
    return sorted(cs), len(cs)


def q12():
    ds = descendants("Southern Region")
    return sum(1 for u in ds if u["unit_type"] == "clinic"), len(ds)


def q13():
    cs = [u["unit"] for u in descendants("Pennine District") if u["unit_type"] == "clinic"]
    rs = [a for a in appointments if a["clinic"] in cs]
    return num(sum(float(a["fee_gbp"]) for a in rs)), len(rs) + len(cs)


def q14():
    cap = int(clinics["Jesmond Vets"]["kennel_capacity"])
    n = sum(1 for v in vets if v["clinic"] == "Jesmond Vets")
    return {"parts": [cap, n]}, n + 1


def q15():
    total, rs = dispensed("Gateshead Animal Hospital", "methadone", "2024-03")
    return {"parts": [num(total), num(allowances[("Gateshead Animal Hospital", "methadone")])]}, len(rs) + 1


def q16():
    # no file holds salaries: the catalog cannot answer
    assert not any("salary" in k for f in (vets, appointments) for k in f[0])
    return None, 0


GOLD = {f"vet-{i:02d}": fn for i, fn in enumerate(
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
