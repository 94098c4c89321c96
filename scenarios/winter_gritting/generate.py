"""Seeded data of a county council's winter gritting service (Northshire, winter 2024/25).

Writes data/depots.csv, data/salt_allowances.csv, data/routes.csv, data/vehicles.csv,
data/staff.csv and data/runs.csv.  Plain Python, fixed seed: the same files on every run.

    python generate.py            # writes every file into ./data
"""
from __future__ import annotations

import csv
import datetime as dt
import random
import sys
from pathlib import Path

SEED = 20241101

HEAD = "Margaret Olusanya"  # the county's winter service manager

DEPOTS = [
    # depot, area, the places of its road routes, the towns of its footway routes
    ("Harwick Depot", "Wolds Area",
     ["Moorside", "Castle Hill", "Brindle Lane", "Wold Top", "Sledmere Road", "Fridaythorpe"],
     ["Harwick Market Place", "Harwick Station"]),
    ("Kelby Depot", "Wolds Area",
     ["Kelby Bypass", "Rudston", "Thwing", "Burton Fleming", "Langtoft", "Cottam Bank", "Foxholes"],
     ["Kelby High Street"]),
    ("Ashby Moor Depot", "Vale Area",
     ["Ashby Common", "Redmire", "Holme Cross", "Eastrington", "Gilberdyke", "Newport Bridge"],
     ["Ashby Moor Square", "Howden Minster", "Eastrington Green"]),
    ("Thornbury Depot", "Vale Area",
     ["Thornbury Ring", "Bubwith", "Ellerton", "Aughton", "Seaton Ross", "Everingham", "Holme Road"],
     ["Thornbury Market", "Pocklington Centre"]),
    ("Saltcombe Depot", "Coast Area",
     ["Saltcombe Front", "Flamborough", "Bempton", "Speeton", "Reighton Gap"],
     ["Saltcombe Promenade", "Sewerby Village"]),
]

SUFFIXES = ["Loop", "Circuit", "Link", "Spur", "Round"]

VEHICLE_NAMES = [
    "Spreaddie Mercury", "Gritty Gritty Bang Bang", "Sir Andy Flurry", "Gritney Spears", "Basil Salty",
    "David Plowie", "Usain Salt", "Sir Salter Scott", "Luke Skysalter", "Brad Grit", "Salt Disney",
    "Gritzilla", "Salty McSaltface", "The Gritfather", "Gritallica", "Ice Ice Baby", "Mr Plow",
    "Snow Way Jose", "Nicole Kidsnow", "Plougher Ranger", "Chilly Wonka", "Gritter Thunberg",
    "Melton Johns", "Frosty the Snowplough", "Sleetwood Mac", "Walter Whiteout", "Grit Lightyear",
    "Anne Gritfiths", "Slush Puppy", "Clint Eastwould",
]

FIRST = ["Tom", "Aisha", "Callum", "Priya", "Gareth", "Joanne", "Liam", "Fatima", "Dylan", "Sandra",
         "Ryan", "Nadia", "Craig", "Helen", "Marek", "Bethany", "Owen", "Grace", "Kieran", "Leanne",
         "Stuart", "Imogen", "Darren", "Rachel", "Wayne", "Chloe", "Tariq", "Megan", "Neil", "Zara",
         "Keith", "Amy", "Jamal", "Louise", "Scott", "Hannah", "Piotr", "Karen", "Adam", "Lucy"]
LAST = ["Baxter", "Hussain", "Fenwick", "Sharma", "Pickering", "Wainwright", "Dobson", "Akhtar",
        "Milburn", "Hardcastle", "Nowak", "Atkinson", "Thirsk", "Holroyd", "Cawood", "Oduya", "Ramsden",
        "Beverley", "Lister", "Sugden", "Metcalfe", "Kowalski", "Brough", "Ingham", "Whitaker", "Mensah",
        "Towler", "Gledhill", "Rhodes", "Scaife"]

START = dt.date(2024, 11, 1)
END = dt.date(2025, 3, 31)
COLD_CHANCE = {11: 0.30, 12: 0.50, 1: 0.62, 2: 0.50, 3: 0.25}

FILES = ["depots.csv", "salt_allowances.csv", "routes.csv", "vehicles.csv", "staff.csv", "runs.csv"]


def _write(path: Path, header: list[str], rows: list[list]) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def build() -> dict[str, tuple[list[str], list[list]]]:
    rng = random.Random(SEED)

    # --- people -------------------------------------------------------------------------------
    names: list[str] = []
    seen: set[str] = {HEAD}
    while len(names) < 70:
        n = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        if n not in seen:
            seen.add(n)
            names.append(n)
    people = iter(names)

    staff_rows: list[list] = []
    depot_rows: list[list] = []
    drivers_of: dict[str, list[str]] = {}
    for depot, area, _, _ in DEPOTS:
        manager = next(people)
        staff_rows.append([manager, "manager", depot, HEAD])
        drivers_of[depot] = []
        for _ in range(2):
            sup = next(people)
            staff_rows.append([sup, "supervisor", depot, manager])
            for _ in range(rng.choice([4, 5, 6])):
                d = next(people)
                staff_rows.append([d, "driver", depot, sup])
                drivers_of[depot].append(d)
        depot_rows.append([depot, area, manager])

    # --- routes -------------------------------------------------------------------------------
    route_rows: list[list] = []
    routes_of: dict[str, list[tuple[str, str, float]]] = {}
    for depot, _, places, towns in DEPOTS:
        routes_of[depot] = []
        n_primary = rng.choice([2, 3, 4])
        for i, place in enumerate(places):
            rtype = "primary" if i < n_primary else "secondary"
            name = f"{place} {rng.choice(SUFFIXES)}" if not place.endswith(("Bypass", "Ring", "Road")) else place
            km = round(rng.uniform(26, 55) if rtype == "primary" else rng.uniform(14, 38), 1)
            routes_of[depot].append((name, rtype, km))
        for town in towns:
            km = round(rng.uniform(3, 9), 1)
            routes_of[depot].append((f"{town} Footways", "footway", km))
        for name, rtype, km in routes_of[depot]:
            route_rows.append([name, depot, rtype, km])

    # --- vehicles -----------------------------------------------------------------------------
    vnames = list(VEHICLE_NAMES)
    rng.shuffle(vnames)
    vit = iter(vnames)
    vehicle_rows: list[list] = []
    fleet: dict[str, dict[str, list[str]]] = {}
    for depot, _, _, _ in DEPOTS:
        fleet[depot] = {"gritter": [], "tractor": [], "quad": []}
        for vtype, count in (("gritter", rng.choice([2, 3, 3])), ("tractor", rng.choice([1, 2])),
                             ("quad", rng.choice([1, 2]))):
            for _ in range(count):
                v = next(vit)
                cap = {"gritter": rng.choice([8.0, 9.0, 10.0, 12.0]), "tractor": rng.choice([3.0, 3.5, 4.0]),
                       "quad": rng.choice([0.5, 0.8, 1.0])}[vtype]
                fleet[depot][vtype].append(v)
                vehicle_rows.append([v, depot, vtype, cap])

    # --- gritting runs --------------------------------------------------------------------------
    run_rows: list[list] = []
    day = START
    n = 0
    while day <= END:
        if rng.random() < COLD_CHANCE[day.month]:
            severe = rng.random() < 0.4
            for depot, area, _, _ in DEPOTS:
                if area == "Coast Area" and rng.random() < 0.3:
                    continue  # milder by the sea
                free = list(drivers_of[depot])
                rng.shuffle(free)
                for name, rtype, km in routes_of[depot]:
                    if rtype == "secondary" and not (severe or rng.random() < 0.35):
                        continue
                    if rtype == "footway" and not (severe and rng.random() < 0.75):
                        continue
                    if rtype == "footway":
                        vehicle = rng.choice(fleet[depot]["quad"])
                        salt = max(0.1, round(km * rng.uniform(0.04, 0.06), 1))
                    elif rtype == "primary":
                        vehicle = rng.choice(fleet[depot]["gritter"])
                        salt = round(km * rng.uniform(0.10, 0.16), 1)
                    else:
                        vehicle = rng.choice(fleet[depot]["gritter"] + fleet[depot]["tractor"])
                        salt = round(km * rng.uniform(0.10, 0.16), 1)
                    driver = free.pop() if free else rng.choice(drivers_of[depot])
                    minutes = int(km * rng.uniform(2.2, 3.0)) + 10
                    n += 1
                    run_rows.append([f"R{n:05d}", day.isoformat(), name, vehicle, driver, salt, minutes])
        day += dt.timedelta(days=1)

    # --- monthly salt allowances: set from the county's planning figures ------------------------------
    allowance_rows: list[list] = []
    depot_of_route = {r[0]: r[1] for r in route_rows}
    for depot, _, _, _ in DEPOTS:
        per_month: dict[str, float] = {}
        for r in run_rows:
            if depot_of_route[r[2]] == depot:
                per_month[r[1][:7]] = per_month.get(r[1][:7], 0.0) + r[5]
        core = [per_month.get(m, 0.0) for m in ("2024-12", "2025-01", "2025-02")]
        plan = max(core) * rng.uniform(0.88, 1.12)
        allowance_rows.append([depot, float(int(round(plan / 10.0)) * 10)])
    for row, (_, allowance) in zip(depot_rows, allowance_rows):
        row.append(float(int(round(allowance * 2.5 / 100.0)) * 100))  # salt barn capacity

    return {
        "depots.csv": (["depot", "area", "manager", "salt_barn_capacity_t"], depot_rows),
        "salt_allowances.csv": (["depot", "monthly_allowance_t"], allowance_rows),
        "routes.csv": (["route", "depot", "route_type", "length_km"], route_rows),
        "vehicles.csv": (["vehicle", "depot", "vehicle_type", "hopper_capacity_t"], vehicle_rows),
        "staff.csv": (["employee", "job_role", "depot", "line_manager"], staff_rows),
        "runs.csv": (["run_id", "run_date", "route", "vehicle", "driver", "salt_t", "duration_min"], run_rows),
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
