"""Seeded data for the driving_school dataset.

Roadcraft, a network of driving schools: the school is organised in regions, regions in
areas and areas in branches, each unit with a manager; instructors work at a branch, teach
learners lessons (dated, with hours, a type and a fee) and may teach at most a fixed number
of hours a month; learners take practical driving tests at test centres.

    python generate.py            # (re)writes data/*.csv next to this file
"""
from __future__ import annotations

import csv
import datetime as dt
import random
from pathlib import Path

SEED = 7711

SCHOOL = "Roadcraft"
UNITS = {  # region -> area -> branches
    "Northern Region": {
        "Pennine Area": ["Elm Park", "Ramsgill", "Dunmore"],
        "Mersey Area": ["Westbridge", "Harefield", "Bramley"],
        "Tyne Area": ["Stanton Vale", "Fenwick"],
    },
    "Southern Region": {
        "Solent Area": ["Oakhurst", "Millbrook", "Redgate"],
        "Thames Valley Area": ["Cobham Lane", "Ashby Road"],
    },
}
MANAGERS = [
    "Helen Dobbs", "Martin Prowse", "Sunita Rao", "Gareth Lowe", "Yvonne Achebe", "Colin Farrow",
    "Ingrid Sorensen", "Declan Moyes", "Patience Ofori", "Hugh Tennant", "Rosa Delgado",
    "Alistair Crane", "Noor Siddiqui", "Wendy Halstead", "Felix Brandt", "Carys Morgan",
    "Tariq Aziz", "Judith Kemp", "Samuel Otieno", "Lorna Baird",
]
INSTRUCTOR_NAMES = [
    "Tom Brannigan", "Hannah Okoye", "Sanjay Patel", "Megan Lusk", "Ravi Chandran", "Claire Whitlow",
    "Owen Pritchard", "Zara Hussain", "Liam Costello", "Grace Nwosu", "Ethan Maddox", "Chloe Varley",
    "Marcus Bell", "Anika Kowalski", "Isaac Fenn", "Polly Graves", "Darren Shaw", "Yasmin Ilori",
    "Kieran Doyle", "Nadia Farouk", "Simon Ashdown", "Erin McBride", "Victor Lang", "Holly Draper",
    "Jamal Wright", "Fern Oakley", "Adrian Voss", "Bridget Coyle", "Mohammed Rafiq", "Sasha Petrov",
    "Gavin Hurst", "Lydia Marsh",
]
LEARNER_FIRST = [
    "Oliver", "Amelia", "Jack", "Isla", "Harry", "Ava", "Noah", "Mia", "Leo", "Ella", "Oscar",
    "Freya", "Archie", "Lily", "Alfie", "Evie", "Theo", "Poppy", "Finley", "Ruby", "Arjun", "Aisha",
    "Kai", "Maya", "Reuben", "Niamh", "Elliot", "Imogen", "Tobias", "Layla",
]
LEARNER_LAST = [
    "Grant", "Holt", "Fletcher", "Ainsworth", "Kaur", "Barlow", "Quinn", "Sterling", "Pike", "Oduya",
    "Rowntree", "Mahmood", "Carver", "Lindley", "Sykes", "Brough", "Tennyson", "Okafor", "Wilde",
    "Ramsay", "Hebden", "Dorsey", "Nakamura", "Ellwood", "Cartwright",
]
TEST_CENTRES = {
    "Northern Region": ["Kingsmead Test Centre", "Hollowell Test Centre", "Catterick Road Test Centre"],
    "Southern Region": ["Brackley Test Centre", "Winslade Test Centre"],
}
LESSON_TYPES = [("standard", 0.70), ("motorway", 0.10), ("night", 0.08), ("mock_test", 0.12)]


def _pick(rng, weighted):
    r, acc = rng.random(), 0.0
    for item in weighted:
        acc += item[-1]
        if r < acc:
            return item
    return weighted[-1]


def _write(path: Path, header, rows):
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def _month_days(y, m):
    nxt = dt.date(y + m // 12, m % 12 + 1, 1)
    return (nxt - dt.date(y, m, 1)).days


def build(seed: int = SEED):
    rng = random.Random(seed)
    tables = {}

    managers = iter(MANAGERS)
    units, branch_region = [], {}
    for region, areas in UNITS.items():
        units.append([region, "region", SCHOOL, next(managers)])
        for area, branches in areas.items():
            units.append([area, "area", region, next(managers)])
            for b in branches:
                units.append([b, "branch", area, next(managers)])
                branch_region[b] = region
    tables["units.csv"] = (["unit", "unit_type", "parent_unit", "manager"], units)

    branches = list(branch_region)
    # instructors: every branch gets two, the rest spread at random
    names = list(INSTRUCTOR_NAMES)
    placement = branches * 2 + [rng.choice(branches) for _ in range(len(names) - 2 * len(branches))]
    rng.shuffle(placement)
    rates = {}
    instructors = []
    for name, b in zip(names, placement):
        grade = _pick(rng, [("senior", 0.3), ("qualified", 0.55), ("trainee", 0.15)])[0]
        base = {"senior": 44, "qualified": 38, "trainee": 30}[grade]
        rate = base + rng.randint(0, 8)
        taken = {rates[i] for i, bb in zip(names, placement) if i in rates and bb == b}
        while rate in taken:  # no two instructors of one branch charge the same
            rate += 1
        rates[name] = rate
        transmission = "automatic" if rng.random() < 0.35 else "manual"
        cap = rng.choice([30, 36, 40, 45, 50])
        instructors.append([name, b, grade, transmission, rate, cap])
    tables["instructors.csv"] = (
        ["instructor", "branch", "grade", "transmission", "hourly_rate_gbp", "monthly_hours_cap"], instructors)
    inst = {r[0]: r for r in instructors}

    # learners: unique names, each with one instructor of their branch
    all_names = [f"{f} {l}" for f in LEARNER_FIRST for l in LEARNER_LAST]
    learner_names = rng.sample(all_names, 260)
    learners = []
    by_instructor = {n: [] for n in names}
    for ln in learner_names:
        i = rng.choice(names)
        start = dt.date(2023, 1, 1) + dt.timedelta(days=rng.randint(0, 640))
        learners.append([ln, inst[i][1], i, start.isoformat()])
        by_instructor[i].append((ln, start))
    tables["learners.csv"] = (["learner", "branch", "instructor", "start_date"], learners)

    # practical tests: learners who have been learning a while take one to three
    tests, n = [], 0
    finished = {}
    for ln, b, i, start in learners:
        s = dt.date.fromisoformat(start)
        when = s + dt.timedelta(days=rng.randint(90, 200))
        centre = rng.choice(TEST_CENTRES[branch_region[b]])
        for _attempt in range(3):
            if when > dt.date(2024, 12, 31):
                break
            faults = rng.randint(0, 18)
            serious = rng.random() < 0.35
            result = "pass" if faults <= 15 and not serious else "fail"
            n += 1
            tests.append([f"T{n:05d}", when.isoformat(), ln, centre, result, faults])
            if result == "pass":
                finished[ln] = when
                break
            when += dt.timedelta(days=rng.randint(35, 90))
    tests.sort(key=lambda r: (r[1], r[0]))
    tables["tests.csv"] = (["test_id", "test_date", "learner", "test_centre", "result", "minor_faults"], tests)
    # a learner takes lessons from the start until the test they pass (or, if they never
    # pass, until they give up or the data ends)
    starts = {ln: dt.date.fromisoformat(st) for ln, _b, _i, st in learners}
    span_end = {}
    for ln, st in starts.items():
        span_end[ln] = finished.get(ln, min(dt.date(2024, 12, 31), st + dt.timedelta(days=rng.randint(200, 420))))

    # lessons: per instructor and month, hours around the instructor's cap
    lessons, n = [], 0
    months = [(2023, m) for m in range(1, 13)] + [(2024, m) for m in range(1, 13)]
    for name in names:
        cap = inst[name][5]
        rate = inst[name][4]
        for y, m in months:
            first = dt.date(y, m, 1)
            last = dt.date(y, m, _month_days(y, m))
            pool = [ln for ln, s in by_instructor[name] if s <= last and span_end[ln] >= first]
            if not pool:
                continue
            target = min(cap * rng.uniform(0.5, 1.15), 10.0 * len(pool))
            hours = 0.0
            while True:
                h = rng.choice([1.0, 1.5, 1.5, 2.0, 2.0])
                if hours + h > target:
                    break
                ln = rng.choice(pool)
                lo = max(first, starts[ln])
                hi = min(last, span_end[ln])
                day = lo + dt.timedelta(days=rng.randint(0, (hi - lo).days))
                kind = _pick(rng, LESSON_TYPES)[0]
                fee = round(h * rate + (5 if kind == "motorway" else 0), 2)
                n += 1
                hours += h
                lessons.append([f"L{n:06d}", day.isoformat(), f"{y}-{m:02d}", name, ln, kind, h, fee])
    lessons.sort(key=lambda r: (r[1], r[0]))
    tables["lessons.csv"] = (
        ["lesson_id", "lesson_date", "month", "instructor", "learner", "lesson_type", "hours", "fee_gbp"], lessons)

    return tables


def write(folder) -> None:
    data = Path(folder) / "data"
    data.mkdir(parents=True, exist_ok=True)
    for name, (header, rows) in build().items():
        _write(data / name, header, rows)


if __name__ == "__main__":
    write(Path(__file__).resolve().parent)
    print("wrote", Path(__file__).resolve().parent / "data")
