"""Seeded data of a city council's taxi and private hire licensing office (Brackenford, 2024 to mid-2025).

Writes data/operators.csv, data/vehicles.csv, data/drivers.csv, data/inspections.csv and data/complaints.csv.
Plain Python, fixed seed: the same files on every run.

    python generate.py            # writes every file into ./data
"""
from __future__ import annotations

import csv
import datetime as dt
import random
import sys
from pathlib import Path

SEED = 7342

OPERATORS = [
    # operator, licence holder, number of vehicles
    ("Castle Cars", "Derek Holloway", 42),
    ("Northgate Taxis", "Farah Qureshi", 38),
    ("Riverside Private Hire", "Graham Tuckett", 29),
    ("Station Cabs", "Mohammed Iqbal", 24),
    ("Bluebird Cars", "Janet Pryce", 19),
    ("Millbrook Taxis", "Sean Gallagher", 16),
    ("Apex Airport Transfers", "Rebecca Lowe", 11),
    ("Kingsway Executive", "Victor Okafor", 7),
]

INSPECTORS = ["Dale Whitmore", "Priya Chandran", "Gavin Rourke", "Siobhan Kelly"]

MODELS = {
    "saloon": ["Toyota Prius", "Skoda Octavia", "Toyota Corolla", "Kia Niro", "Hyundai Ioniq"],
    "estate": ["Skoda Superb Estate", "Toyota Corolla Touring", "Ford Mondeo Estate"],
    "mpv": ["Ford Galaxy", "Volkswagen Sharan", "Toyota Proace Verso", "Mercedes Vito"],
    "minibus": ["Ford Transit Tourneo", "Mercedes Sprinter"],
}
SEATS = {"saloon": 4, "estate": 4, "mpv": 6, "minibus": 8}

FIRST = ["Amir", "Sofia", "Connor", "Bilal", "Natalie", "Imran", "Kerry", "Yusuf", "Dominic", "Shabana",
         "Lewis", "Tanya", "Hamza", "Gemma", "Abdul", "Stacey", "Ricky", "Nasreen", "Jordan", "Ewa",
         "Matthew", "Rukhsana", "Paul", "Leah", "Asif", "Claire", "Vikram", "Donna", "Faisal", "Jade",
         "Tomasz", "Sunita", "Mark", "Kirsty", "Zubair", "Emma", "Bogdan", "Anjali", "Gary", "Hollie"]
LAST = ["Rahman", "Begum", "Doyle", "Chaudhry", "Kershaw", "Ali", "Brennan", "Mahmood", "Slater", "Patel",
        "Fairclough", "Hussein", "Walsh", "Siddiqui", "Naylor", "Khan", "Grimshaw", "Zielinski", "Hartley",
        "Malik", "Dunne", "Ahmed", "Pearson", "Ward", "Kaur", "Moran", "Sadiq", "Cartwright", "Nowicki", "Bibi"]

COMPLAINT_TYPES = ["overcharging", "rudeness", "driving", "refusal", "cleanliness"]
POINTS = {"overcharging": 3, "rudeness": 2, "driving": 4, "refusal": 3, "cleanliness": 1}

FIRST_DAY = dt.date(2024, 1, 1)
LAST_DAY = dt.date(2025, 6, 30)

FILES = ["operators.csv", "vehicles.csv", "drivers.csv", "inspections.csv", "complaints.csv"]


def _write(path: Path, header: list[str], rows: list[list]) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def _day(rng: random.Random, start: dt.date = FIRST_DAY, end: dt.date = LAST_DAY) -> dt.date:
    return start + dt.timedelta(days=rng.randrange((end - start).days + 1))


def build() -> dict[str, tuple[list[str], list[list]]]:
    rng = random.Random(SEED)

    # --- vehicles -----------------------------------------------------------------------------
    plates: set[str] = set()
    vehicle_rows: list[list] = []
    for operator, _, n in OPERATORS:
        for _ in range(n):
            while True:
                plate = (f"{rng.choice(['BK', 'BF', 'BD', 'BN'])}{rng.randrange(15, 25):02d} "
                         f"{''.join(rng.choice('ABCDEFGHJKLMNPRSTUVWXYZ') for _ in range(3))}")
                if plate not in plates:
                    plates.add(plate)
                    break
            if operator == "Kingsway Executive":
                cls = rng.choice(["saloon", "saloon", "estate"])
            elif operator == "Apex Airport Transfers":
                cls = rng.choice(["mpv", "mpv", "minibus", "estate"])
            else:
                cls = rng.choices(["saloon", "estate", "mpv", "minibus"], [50, 15, 27, 8])[0]
            wav = "yes" if cls in ("mpv", "minibus") and rng.random() < 0.5 else "no"
            seats = SEATS[cls] + (1 if cls == "mpv" and rng.random() < 0.4 else 0)
            vehicle_rows.append([plate, operator, cls, rng.choice(MODELS[cls]), seats, wav])

    # --- operators: licence and the fleet cap the licensing committee set -----------------------------
    operator_rows: list[list] = []
    for operator, holder, n in OPERATORS:
        cap = n + rng.choice([-3, -1, 0, 2, 4, 6])
        expiry = dt.date(rng.choice([2025, 2026, 2027]), rng.randrange(1, 13), rng.randrange(1, 29))
        operator_rows.append([operator, holder, expiry.isoformat(), cap])

    # --- drivers ------------------------------------------------------------------------------
    seen: set[str] = {h for _, h, _ in OPERATORS} | set(INSPECTORS)
    driver_rows: list[list] = []
    badge = 1000
    for operator, _, n in OPERATORS:
        for _ in range(round(n * rng.uniform(1.15, 1.45))):
            while True:
                name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
                if name not in seen:
                    seen.add(name)
                    break
            badge += rng.randrange(1, 9)
            since = rng.randrange(2008, 2025)
            expiry = dt.date(rng.choice([2025, 2026, 2027]), rng.randrange(1, 13), rng.randrange(1, 29))
            limit = 6 if since >= 2023 else 12  # drivers licensed in the last two years are on probation
            driver_rows.append([name, f"PHD{badge}", operator, since, expiry.isoformat(), limit])

    # --- vehicle inspections (every six months; a failed test is retested within a fortnight) ---------
    inspection_rows: list[list] = []
    k = 0
    for plate, *_ in vehicle_rows:
        first = dt.date(2024, rng.randrange(1, 7), rng.randrange(1, 29))
        for step in range(3):
            month = first.month + 6 * step
            day = dt.date(first.year + (month - 1) // 12, (month - 1) % 12 + 1, first.day)
            if day > LAST_DAY:
                break
            failed = rng.random() < 0.17
            k += 1
            inspection_rows.append([f"INS{k:05d}", plate, day.isoformat(), "fail" if failed else "pass", 65.0,
                                    rng.choice(INSPECTORS)])
            if failed:
                k += 1
                retest = day + dt.timedelta(days=rng.randrange(3, 15))
                inspection_rows.append([f"INS{k:05d}", plate, retest.isoformat(),
                                        "pass" if rng.random() < 0.9 else "fail", 40.0, rng.choice(INSPECTORS)])
    inspection_rows.sort(key=lambda r: (r[2], r[0]))
    for i, row in enumerate(inspection_rows, 1):
        row[0] = f"INS{i:05d}"

    # --- complaints against drivers --------------------------------------------------------------
    weights = [rng.choice([1, 1, 1, 2, 3, 6]) for _ in driver_rows]
    complaint_rows: list[list] = []
    for i in range(360):
        driver = rng.choices(driver_rows, weights)[0][0]
        ctype = rng.choices(COMPLAINT_TYPES, [30, 25, 20, 15, 10])[0]
        outcome = rng.choices(["upheld", "dismissed", "withdrawn"], [38, 47, 15])[0]
        complaint_rows.append([None, _day(rng).isoformat(), driver, ctype, outcome,
                               POINTS[ctype] if outcome == "upheld" else 0])
    complaint_rows.sort(key=lambda r: (r[1], r[2]))
    for i, row in enumerate(complaint_rows, 1):
        row[0] = f"C{i:04d}"

    return {
        "operators.csv": (["operator", "licence_holder", "licence_expiry", "fleet_cap"], operator_rows),
        "vehicles.csv": (["plate", "operator", "vehicle_class", "make_model", "seats", "wheelchair_accessible"],
                         vehicle_rows),
        "drivers.csv": (["driver", "badge_number", "operator", "licensed_since", "licence_expiry", "points_limit"],
                        driver_rows),
        "inspections.csv": (["inspection_id", "plate", "inspection_date", "result", "fee_gbp", "inspector"],
                            inspection_rows),
        "complaints.csv": (["complaint_id", "complaint_date", "driver", "complaint_type", "outcome",
                            "penalty_points"], complaint_rows),
    }


def write(folder: str | Path = Path(__file__).parent, force: bool = False) -> None:
    """Write the data files under FOLDER/data (only the missing ones unless FORCE)."""
    data = Path(folder) / "data"
    data.mkdir(parents=True, exist_ok=True)
    if not force and all((data / f).exists() for f in FILES):
        return
    for fname, (header, rows) in build().items():
        if force or not (data / fname).exists():
            _write(data / fname, header, rows)


if __name__ == "__main__":
    write(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent, force=True)
