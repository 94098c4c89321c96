"""Seeded data for a leisure trust that runs swimming pools.

Writes data/*.csv: the trust's chain of units (trust, regions, areas, centres), the centres, their pools,
swimming-lesson classes and the pupils enrolled in them, public sessions with their attendance, pool water tests,
incidents and the lifeguards of each centre.  Run `python generate.py` or call write(folder).
"""
import csv
import random
import sys
from datetime import date, timedelta
from pathlib import Path

SEED = 20240611

REGIONS = {
    "Northern Region": {
        "Aldermoor Area": [("Aldermoor Leisure Centre", "Aldermoor", "ALD"), ("Kelso Baths", "Kelso", "KEL")],
        "Brackenfield Area": [("Brackenfield Pool", "Brackenfield", "BRK"),
                              ("Moss Lane Swim Centre", "Moss Lane", "MOS"),
                              ("Quarry Hill Baths", "Quarry Hill", "QUA")],
        "Calder Vale Area": [("Calder Vale Leisure Centre", "Calder Vale", "CAL"),
                             ("Millbrook Pool", "Millbrook", "MIL")],
    },
    "Central Region": {
        "Dunmere Area": [("Dunmere Sports Centre", "Dunmere", "DUN"),
                         ("Riverside Aquatics Centre", "Riverside", "RIV")],
        "Eastholme Area": [("Eastholme Pool", "Eastholme", "EAS"), ("Larkspur Leisure Centre", "Larkspur", "LAR"),
                           ("Abbeyfield Pool", "Abbeyfield", "ABB")],
        None: [("Tidewell Central Aquatics", "Tidewell Central", "TCA")],
    },
    "Southern Region": {
        "Fenwick Area": [("Fenwick Pool", "Fenwick", "FEN"), ("Westgate Lido", "Westgate Lido", "WES")],
        "Glenrow Area": [("Glenrow Leisure Centre", "Glenrow", "GLE"), ("Pinewood Baths", "Pinewood", "PIN")],
        "Harbour Area": [("Harbour Road Baths", "Harbour Road", "HAR"), ("Seaview Swim Centre", "Seaview", "SEA"),
                         ("Saltmarsh Lido", "Saltmarsh", "SAL")],
        None: [("Marlow Bay Leisure Centre", "Marlow Bay", "MAR")],
    },
}

TOWNS = {"Aldermoor": "Aldermoor", "Kelso": "Kelso Bridge", "Brackenfield": "Brackenfield", "Moss Lane": "Hexley",
         "Quarry Hill": "Hexley", "Calder Vale": "Calderford", "Millbrook": "Millbrook", "Dunmere": "Dunmere",
         "Riverside": "Tidewell", "Eastholme": "Eastholme", "Larkspur": "Larkspur", "Abbeyfield": "Tidewell",
         "Tidewell Central": "Tidewell", "Fenwick": "Fenwick", "Westgate Lido": "Westgate", "Glenrow": "Glenrow",
         "Pinewood": "Glenrow", "Harbour Road": "Portmere", "Seaview": "Portmere", "Saltmarsh": "Saltmarsh",
         "Marlow Bay": "Marlow Bay"}

# pools of each centre: (kind, length m, lanes, max bathers); None: drawn
POOL_PLAN = {
    "RIV": [("main", 25, 8, 210), ("learner", 13, 0, 45), ("diving", 18, 0, 60), ("leisure", 20, 0, 150),
            ("hydrotherapy", 10, 0, 18)],
    "TCA": [("main", 50, 10, 320), ("learner", 15, 0, 50), ("diving", 20, 0, 70)],
    "ALD": [("main", 25, 6, 160), ("learner", 12, 0, 35), ("diving", 16, 0, 45)],
    "KEL": [("main", 25, 6, 150), ("learner", 12, 0, 30)],
    "WES": [("main", 33, 8, 230), ("learner", 12, 0, 40)],
    "SAL": [("main", 30, 0, 200), ("leisure", 18, 0, 90)],
    "MOS": [("main", 25, 6, 140), ("learner", 12, 0, 30)],
    "FEN": [("main", 25, 6, 150)],
    "MIL": [("main", 25, 5, 130), ("learner", 10, 0, 25)],
    "HAR": [("main", 25, 6, 155), ("learner", 13, 0, 35)],
    "SEA": [("main", 25, 8, 180), ("leisure", 20, 0, 120), ("learner", 12, 0, 30)],
    "DUN": [("main", 25, 6, 150), ("learner", 12, 0, 32)],
    "LAR": [("main", 25, 6, 145), ("learner", 12, 0, 30), ("hydrotherapy", 10, 0, 16)],
    "ABB": [("main", 25, 4, 110)],
    "EAS": [("main", 25, 6, 140), ("learner", 12, 0, 28)],
    "BRK": [("main", 25, 5, 125)],
    "QUA": [("main", 20, 4, 90), ("learner", 10, 0, 22)],
    "CAL": [("main", 25, 6, 150), ("learner", 12, 0, 30), ("diving", 16, 0, 40)],
    "GLE": [("main", 25, 6, 160), ("leisure", 20, 0, 110)],
    "PIN": [("main", 25, 5, 120)],
    "MAR": [("main", 25, 8, 175), ("learner", 13, 0, 35)],
}
KIND_NAME = {"main": "Main Pool", "learner": "Learner Pool", "diving": "Diving Pool", "leisure": "Leisure Pool",
             "hydrotherapy": "Hydrotherapy Pool"}

FIRST = ["Amy", "Ben", "Chloe", "Daniel", "Ella", "Finn", "Grace", "Harry", "Isla", "Jack", "Katie", "Leo", "Mia",
         "Noah", "Olivia", "Oscar", "Poppy", "Reuben", "Sophie", "Theo", "Uma", "Violet", "William", "Zara", "Aiden",
         "Bella", "Caleb", "Daisy", "Ethan", "Freya", "George", "Hannah", "Isaac", "Jasmine", "Kian", "Lily",
         "Max", "Nina", "Owen", "Phoebe", "Rory", "Sienna", "Toby", "Willow", "Yusuf", "Alfie", "Erin", "Lucas"]
LAST = ["Ashworth", "Barker", "Clegg", "Dawson", "Ellis", "Fairbairn", "Gill", "Holt", "Iqbal", "Jennings", "Kerr",
        "Lister", "Marsden", "Nolan", "Oakes", "Pickering", "Quinn", "Rowley", "Sutcliffe", "Thornton", "Umpleby",
        "Varley", "Whitaker", "Yates", "Akhtar", "Brennan", "Crossley", "Duckworth", "Earnshaw", "Fletcher",
        "Greenwood", "Haworth", "Ingham", "Jowett", "Kershaw", "Lund", "Mellor", "Naylor", "Ormerod", "Pollard"]

DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
DAY_NAME = {"Mon": "Monday", "Tue": "Tuesday", "Wed": "Wednesday", "Thu": "Thursday", "Fri": "Friday",
            "Sat": "Saturday", "Sun": "Sunday"}
STAGES = ["Ducklings", "Stage 1", "Stage 2", "Stage 3", "Stage 4", "Stage 5", "Stage 6", "Stage 7",
          "Adult Beginners", "Adult Improvers"]


def _write(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def write(folder):
    rng = random.Random(SEED)
    data = Path(folder) / "data"
    data.mkdir(parents=True, exist_ok=True)

    # --- the chain of units
    units = [("Tidewell Leisure Trust", "trust", "")]
    centres = []  # (centre, short, code)
    for region, areas in REGIONS.items():
        units.append((region, "region", "Tidewell Leisure Trust"))
        for area, cs in areas.items():
            parent = region
            if area is not None:
                units.append((area, "area", region))
                parent = area
            for centre, short, code in cs:
                units.append((centre, "centre", parent))
                centres.append((centre, short, code))
    _write(data / "units.csv", ["unit", "unit_type", "parent_unit"], units)

    # --- centres
    managers = set()
    crow = []
    for centre, short, code in centres:
        while True:
            m = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
            if m not in managers:
                managers.add(m)
                break
        opened = rng.randint(1962, 2019)
        crow.append((centre, TOWNS[short], m, opened, rng.choice([0, 40, 60, 80, 120, 150, 200])))
    _write(data / "centres.csv", ["centre", "town", "manager", "opened_year", "car_park_spaces"], crow)

    # --- pools
    pools = []  # (pool, centre, kind, length, lanes, max_bathers, depth)
    for centre, short, code in centres:
        for kind, length, lanes, maxb in POOL_PLAN[code]:
            depth = {"main": 2.0, "learner": 0.9, "diving": 3.8, "leisure": 1.2, "hydrotherapy": 1.4}[kind]
            depth = round(depth + rng.choice([-0.2, -0.1, 0.0, 0.1, 0.2]), 1)
            pools.append((f"{short} {KIND_NAME[kind]}", centre, kind, length, lanes, maxb, depth))
    _write(data / "pools.csv", ["pool", "centre", "pool_type", "length_m", "lanes", "max_bathers",
                                "max_depth_m"], pools)

    # --- swimming-lesson classes and enrolments
    instructors = sorted({f"{rng.choice(FIRST)} {rng.choice(LAST)}" for _ in range(60)})[:34]
    code_of = {c: code for c, _, code in centres}
    centre_instructors = {c: rng.sample(instructors, rng.randint(2, 4)) for c, _, _ in centres}
    classes = []
    for pool, centre, kind, *_ in pools:
        if kind not in ("learner", "main"):
            continue
        n = rng.randint(2, 4) if kind == "learner" else rng.randint(0, 2)
        used = set()
        while len(used) < n:
            day = rng.choice(DAYS)
            hh = rng.choice(["0900", "0930", "1000", "1030", "1100", "1600", "1630", "1700", "1730", "1800"])
            tag = "L" if kind == "learner" else "M"
            cc = f"{code_of[centre]}-{tag}-{day.upper()}-{hh}"
            if cc in used:
                continue
            used.add(cc)
            stage = rng.choice(STAGES if kind == "main" else STAGES[:6])
            cap = rng.choice([6, 8, 8, 10, 10, 12]) if kind == "learner" else rng.choice([10, 12, 14, 16])
            classes.append((cc, pool, stage, DAY_NAME[day], f"{hh[:2]}:{hh[2:]}",
                            rng.choice(centre_instructors[centre]), cap))
    classes.sort()
    _write(data / "classes.csv", ["class_code", "pool", "stage", "weekday", "start_time", "instructor",
                                  "max_pupils"], classes)
    pupils = [f"{f} {l}" for f in FIRST for l in LAST]
    rng.shuffle(pupils)
    pi = 0
    enrol = []
    for cc, pool, stage, day, t, ins, cap in classes:
        k = max(1, cap + rng.choice([-4, -3, -2, -2, -1, -1, 0, 0, 0, 1, 2]))
        for _ in range(k):
            d = date(2023, 9, 1) + timedelta(days=rng.randint(0, 240))
            enrol.append((cc, pupils[pi % len(pupils)], d.isoformat()))
            pi += 1
    _write(data / "enrolments.csv", ["class_code", "pupil", "enrol_date"], enrol)

    # --- sessions: public sessions with their attendance, January to June 2024
    stypes = {"main": ["public swim", "lane swim", "aqua aerobics", "adults only"],
              "leisure": ["family fun", "public swim", "inflatable session"],
              "diving": ["diving club", "public swim"], "learner": ["parent and baby"],
              "hydrotherapy": ["therapy session"]}
    sessions = []
    sid = 0
    seen = set()
    for pool, centre, kind, length, lanes, maxb, depth in pools:
        n = {"main": 18, "leisure": 10, "diving": 6, "learner": 4, "hydrotherapy": 4}[kind]
        for _ in range(n):
            while True:
                d = date(2024, 1, 1) + timedelta(days=rng.randint(0, 181))
                if (pool, d) not in seen:
                    seen.add((pool, d))
                    break
            st = rng.choice(stypes[kind])
            frac = rng.uniform(0.25, 0.98) if rng.random() > 0.05 else rng.uniform(1.0, 1.12)
            sid += 1
            sessions.append((f"S{sid:05d}", pool, d.isoformat(), st, int(round(maxb * frac))))
    sessions.sort(key=lambda r: (r[1], r[2]))
    _write(data / "sessions.csv", ["session_id", "pool", "session_date", "session_type", "swimmers"], sessions)

    # --- water tests
    tests = []
    tid = 0
    for pool, centre, kind, *_ in pools:
        for m in range(1, 7):
            for _ in range(rng.randint(1, 2)):
                d = date(2024, m, rng.randint(1, 28))
                cl = round(rng.uniform(0.6, 2.8), 2)
                ph = round(rng.uniform(7.0, 7.9), 1)
                outcome = "pass" if (1.0 <= cl <= 2.5 and ph <= 7.6) else "fail"
                tid += 1
                tests.append((f"WT{tid:04d}", pool, d.isoformat(), cl, ph, outcome))
    tests.sort(key=lambda r: (r[1], r[2], r[0]))
    _write(data / "water_tests.csv", ["test_id", "pool", "test_date", "free_chlorine_mg_l", "ph", "outcome"], tests)

    # --- incidents
    itypes = ["first aid", "slip or trip", "rescue", "pool fouling", "behaviour", "lost property dispute"]
    inc = []
    weights = [5 if p[2] == "main" else 1 for p in pools]
    for i in range(1, 181):
        pool = rng.choices(pools, weights)[0][0]
        d = date(2024, 1, 1) + timedelta(days=rng.randint(0, 181))
        t = rng.choice(itypes)
        sev_w = {"rescue": [2, 3, 3], "first aid": [5, 3, 1.5], "slip or trip": [6, 3, 1]}.get(t, [7, 2, 0])
        sev = rng.choices(["minor", "moderate", "serious"], sev_w)[0]
        inc.append((f"INC-{i:04d}", pool, d.isoformat(), t, sev))
    _write(data / "incidents.csv", ["incident_id", "pool", "incident_date", "incident_type", "severity"], inc)

    # --- lifeguards
    lg = []
    used = set(managers) | set(instructors)
    for centre, short, code in centres:
        for _ in range(rng.randint(2, 5)):
            while True:
                n = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
                if n not in used:
                    used.add(n)
                    break
            exp = date(2024, 1, 1) + timedelta(days=rng.randint(0, 900))
            lg.append((n, centre, "NPLQ", exp.isoformat()))
    _write(data / "lifeguards.csv", ["lifeguard", "centre", "qualification", "qualification_expiry"], lg)


if __name__ == "__main__":
    write(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent)
