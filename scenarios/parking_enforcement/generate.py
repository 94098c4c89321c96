"""Seeded data for the parking_enforcement dataset.

Harrowfield Borough Council's on-street parking service: the borough is split into
districts, each district into controlled parking zones; the council's car parks sit in
zones; civil enforcement officers (in a line of supervision) issue penalty charge notices
(PCNs) in the zones of their district; residents buy parking permits for their zone, which
may issue at most a fixed number of resident permits a month.

    python generate.py            # (re)writes data/*.csv next to this file
"""
from __future__ import annotations

import csv
import datetime as dt
import random
from pathlib import Path

SEED = 20240917

BOROUGH = "Harrowfield"
DISTRICTS = {
    "Northgate": ["Castle Hill", "Abbey Fields", "Kingsway", "Linden Park"],
    "Riverside": ["Quayside", "Mill Lane", "Wharf Street"],
    "Eastbrook": ["Station Road", "Foxley Green", "Hartley Road"],
    "Old Town": ["Market Square", "Cathedral Close", "Tannery Quarter", "Guildhall"],
}
PATROL_BASES = {
    "Northgate": "Northgate Depot",
    "Riverside": "Riverside Civic Offices",
    "Eastbrook": "Eastbrook Works Yard",
    "Old Town": "Town Hall Annexe",
}
CAR_PARKS = [
    "Bridge Street Multi-Storey", "Corn Exchange Car Park", "Priory Walk Car Park",
    "Hollins Yard Car Park", "Bell Lane Car Park", "Victoria Multi-Storey",
    "Foundry Car Park", "Ropewalk Car Park", "Chandlers Car Park", "Dockside Multi-Storey",
    "Granary Car Park", "Mercer Row Car Park", "Ashgrove Car Park", "Pavilion Car Park",
    "Orchard Street Car Park", "Civic Centre Underground", "Sheaf Street Car Park",
    "Beacon Car Park", "Weavers Car Park", "Lantern Yard Car Park", "Saxon Gate Multi-Storey",
    "Elmwood Car Park", "Fairfield Car Park", "Kiln Lane Car Park", "Canal Basin Car Park",
    "Cloisters Underground", "Tenter Row Car Park",
]
MANAGER = "Gillian Okafor"
TEAM_LEADERS = {
    "Northgate": "Marion Kaye",
    "Riverside": "Desmond Achterberg",
    "Eastbrook": "Rhiannon Pryce",
    "Old Town": "Tobias Wendell",
}
SENIORS = {
    "Northgate": ["Priya Sandhu", "Callum Reyes"],
    "Riverside": ["Aisling Dunne"],
    "Eastbrook": ["Omar Haddad", "Beatrix Lyle"],
    "Old Town": ["Kenji Morrow", "Fiona Castell"],
}
OFFICERS = {
    "Northgate": ["Dylan Marsh", "Sofia Brennan", "Hamza Qureshi", "Tessa Holloway", "Ruben Alvarez"],
    "Riverside": ["Maya Lindqvist", "Conor Tully", "Efua Mensah", "Piotr Zielinski"],
    "Eastbrook": ["Greta Hallam", "Nathan Oyelaran", "Lucy Ferris", "Imran Chaudhry", "Bethan Rees"],
    "Old Town": ["Oscar Pennington", "Leah Saunders", "Viktor Novak", "Amara Eze", "Jonah Whitfield"],
}
CONTRAVENTIONS = [  # (code, charge in GBP, weight)
    ("yellow_line", 70, 0.30),
    ("permit_bay", 50, 0.25),
    ("overstay", 50, 0.20),
    ("loading_bay", 70, 0.15),
    ("disabled_bay", 70, 0.10),
]
STATUSES = [("paid", 0.58), ("cancelled", 0.12), ("appealed", 0.14), ("outstanding", 0.16)]


def _pick(rng: random.Random, weighted):
    r = rng.random()
    acc = 0.0
    for item in weighted:
        acc += item[-1]
        if r < acc:
            return item
    return weighted[-1]


def _days(start: dt.date, end: dt.date):
    d = start
    while d <= end:
        yield d
        d += dt.timedelta(days=1)


def _write(path: Path, header, rows):
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def build(seed: int = SEED) -> dict[str, tuple[list[str], list[list]]]:
    rng = random.Random(seed)
    tables: dict[str, tuple[list[str], list[list]]] = {}

    # areas: district -> borough, zone -> district
    areas = []
    for district, zones in DISTRICTS.items():
        areas.append([district, "district", BOROUGH])
        for z in zones:
            areas.append([z, "zone", district])
    tables["areas.csv"] = (["area", "area_type", "parent_area"], areas)

    zone_list = [z for zs in DISTRICTS.values() for z in zs]
    zone_district = {z: d for d, zs in DISTRICTS.items() for z in zs}

    caps = {z: rng.choice([18, 20, 22, 24, 25, 28, 30, 32, 35, 40]) for z in zone_list}
    tables["zones.csv"] = (["zone", "monthly_permit_cap"], [[z, caps[z]] for z in zone_list])

    tables["districts.csv"] = (
        ["district", "team_leader", "patrol_base"],
        [[d, TEAM_LEADERS[d], PATROL_BASES[d]] for d in DISTRICTS],
    )

    # car parks: every zone but two gets at least one
    tariffs = rng.sample([round(1.0 + 0.1 * i, 2) for i in range(0, 31)], len(CAR_PARKS))
    zones_for_parks = [z for z in zone_list if z not in ("Hartley Road", "Cathedral Close")]
    placement = list(zones_for_parks) + [rng.choice(zones_for_parks) for _ in range(len(CAR_PARKS) - len(zones_for_parks))]
    rng.shuffle(placement)
    used_spaces = set()
    parks = []
    for name, zone, tariff in zip(CAR_PARKS, placement, tariffs):
        if "Multi-Storey" in name:
            kind, lo, hi = "multi-storey", 300, 900
        elif "Underground" in name:
            kind, lo, hi = "underground", 150, 420
        else:
            kind, lo, hi = "surface", 30, 240
        spaces = rng.randint(lo, hi)
        while spaces in used_spaces:
            spaces = rng.randint(lo, hi)
        used_spaces.add(spaces)
        parks.append([name, zone, kind, spaces, f"{tariff:.2f}"])
    tables["car_parks.csv"] = (["car_park", "zone", "park_type", "spaces", "hourly_tariff_gbp"], parks)

    # officers and their supervisors
    officers = []
    reports: dict[str, list[str]] = {}
    for d in DISTRICTS:
        tl = TEAM_LEADERS[d]
        officers.append([tl, "team_leader", d, MANAGER])
        for s in SENIORS[d]:
            officers.append([s, "senior_officer", d, tl])
        seniors = SENIORS[d]
        for i, o in enumerate(OFFICERS[d]):
            sup = seniors[i % len(seniors)]
            officers.append([o, "enforcement_officer", d, sup])
            reports.setdefault(d, []).append(o)
    tables["officers.csv"] = (["officer", "grade", "district", "supervisor"], officers)

    # PCNs: issued by an enforcement or senior officer of the zone's district
    issuers = {d: OFFICERS[d] * 3 + SENIORS[d] for d in DISTRICTS}
    zone_weight = {z: rng.uniform(0.6, 1.8) for z in zone_list}
    pcns = []
    n = 0
    for day in _days(dt.date(2023, 1, 1), dt.date(2024, 12, 31)):
        if day.weekday() == 6:  # no patrols on Sundays
            continue
        for z in zone_list:
            lam = 0.28 * zone_weight[z]
            k = 0
            while rng.random() < lam / (1 + lam) and k < 5:
                k += 1
            for _ in range(k):
                n += 1
                code, charge, _w = _pick(rng, CONTRAVENTIONS)
                status = _pick(rng, STATUSES)[0]
                if day.year == 2024 and day.month == 12 and status == "paid" and rng.random() < 0.5:
                    status = "outstanding"
                officer = rng.choice(issuers[zone_district[z]])
                pcns.append([f"HF{n:06d}", day.isoformat(), z, officer, code, charge, status])
    tables["pcns.csv"] = (
        ["pcn_ref", "issue_date", "zone", "officer", "contravention", "charge_gbp", "status"], pcns)

    # resident permits: per zone and month, around the cap (sometimes over it)
    permits = []
    n = 0
    months = [(2023, m) for m in range(7, 13)] + [(2024, m) for m in range(1, 13)]
    for y, m in months:
        for z in zone_list:
            cap = caps[z]
            k = max(0, int(round(cap * rng.uniform(0.55, 1.18))))
            days_in = (dt.date(y + (m // 12), m % 12 + 1, 1) - dt.date(y, m, 1)).days
            for _ in range(k):
                n += 1
                day = dt.date(y, m, rng.randint(1, days_in))
                fee = rng.choice([60, 60, 60, 90, 120])
                permits.append([f"RP{n:05d}", z, day.isoformat(), f"{y}-{m:02d}", fee])
    permits.sort(key=lambda r: (r[2], r[0]))
    tables["permits.csv"] = (["permit_ref", "zone", "issue_date", "month", "fee_gbp"], permits)
    return tables


def write(folder) -> None:
    data = Path(folder) / "data"
    data.mkdir(parents=True, exist_ok=True)
    for name, (header, rows) in build().items():
        _write(data / name, header, rows)


if __name__ == "__main__":
    write(Path(__file__).resolve().parent)
    print("wrote", Path(__file__).resolve().parent / "data")
