"""Seeded data for a national weather observing network.

Offices form a hierarchy (the national centre, regional offices, area offices, field units); every
observing station is run by one office; technicians are based at area offices and make maintenance visits
to the stations; each station reports a monthly summary (rainfall, mean temperature, sunshine) for 2023 and
2024. Every office that runs stations has a monthly maintenance budget, every station a monthly rainfall
figure that triggers a flood-alert review.

    python generate.py            # writes data/*.csv next to this file
"""
from __future__ import annotations

import csv
import datetime as dt
import math
import random
from pathlib import Path

SEED = 20240917
FILES = ("offices.csv", "office_budgets.csv", "stations.csv", "technicians.csv", "visits.csv",
         "monthly_summaries.csv")

# region -> [(area office town, [field units])]
REGIONS = {
    "Northern": [("Kelso", ["Upper Teviot"]), ("Alnwick", []), ("Hexham", ["Kielder Forest", "Allen Valley"]),
                 ("Berwick", [])],
    "Southern": [("Fenwick", []), ("Dorchester", ["Purbeck Heath"]), ("Salisbury", []),
                 ("Lewes", ["Ouse Levels"])],
    "Eastern": [("Norwich", ["Broadland"]), ("Ely", []), ("Boston", ["Wash Marshes"])],
    "Western": [("Truro", ["Bodmin Moor"]), ("Barnstaple", []), ("Hereford", ["Black Mountains"]),
                ("Aberystwyth", [])],
}
CITY = {"Northern": "Newcastle", "Southern": "Winchester", "Eastern": "Cambridge", "Western": "Exeter"}
REGION_WET = {"Northern": 1.15, "Southern": 0.85, "Eastern": 0.7, "Western": 1.35}
REGION_TEMP = {"Northern": -1.2, "Southern": 1.0, "Eastern": 0.4, "Western": 0.6}
REGION_SUN = {"Northern": 0.9, "Southern": 1.12, "Eastern": 1.05, "Western": 0.95}

FIRST = ["Morag", "Callum", "Eilidh", "Rhys", "Siobhan", "Tobias", "Priya", "Owain", "Fiona", "Declan",
         "Niamh", "Hamish", "Anika", "Gareth", "Lowri", "Marcus", "Isla", "Kwame", "Bethan", "Euan",
         "Ruth", "Jonah", "Tamsin", "Ravi", "Catrin", "Alasdair", "Leona", "Dmitri", "Kerry", "Imran",
         "Sorcha", "Ellis", "Hannah", "Piotr", "Yasmin", "Angus"]
LAST = ["Lindsay", "Pryce", "MacLeod", "Okafor", "Trevithick", "Haldane", "Baxter", "Quayle", "Ferris",
        "Nakamura", "Ormsby", "Gallacher", "Penhale", "Driscoll", "Ashworth", "Varga", "Kinross", "Lund",
        "Treharne", "Mbeki", "Colquhoun", "Rowntree", "Sandoval", "Thorne", "Whitlock", "Abernethy",
        "Venn", "Kilbride", "Osei", "Marwick", "Pendry", "Strachan", "Holloway", "Ibbotson", "Crane", "Dunmore"]

STATION_A = ["Carn", "Glen", "Marsh", "Ben", "Loch", "Strath", "Black", "White", "Red", "Cold", "High",
             "Nether", "Wether", "Raven", "Heron", "Fox", "Hart", "Birk", "Crag", "Moss", "Stone", "Ash",
             "Thorn", "Salt", "Kite", "Pike", "Gorse", "Rook", "Wren", "Elder"]
STATION_B = [" Dubh", "more", " End", " Moor", " Fell", " Cross", " Hill", "beck", "ford", " Head", " Edge",
             "side", " Knowe", " Law", "wick", " Tor", "combe", " Scar", "well", " Rigg"]

TYPES = [("automatic", 0.5), ("synoptic", 0.2), ("climate", 0.3)]
VISIT_TYPES = [("inspection", 0.4), ("calibration", 0.3), ("repair", 0.24), ("replacement", 0.06)]
HOURLY = {"inspection": 38, "calibration": 46, "repair": 52, "replacement": 55}
PARTS = {"inspection": (0, 20), "calibration": (10, 60), "repair": (40, 260), "replacement": (300, 900)}

MONTHS = [f"{y}-{m:02d}" for y in (2023, 2024) for m in range(1, 13)]
RAIN_SEASON = [1.25, 0.95, 0.9, 0.7, 0.7, 0.75, 0.8, 0.95, 0.95, 1.25, 1.35, 1.4]
TEMP_SEASON = [3.8, 4.2, 6.1, 8.4, 11.6, 14.5, 16.6, 16.3, 13.9, 10.7, 6.9, 4.6]
SUN_SEASON = [52, 74, 112, 160, 196, 190, 198, 182, 138, 98, 62, 46]


def pick(rng: random.Random, weighted):
    r = rng.random()
    acc = 0.0
    for value, w in weighted:
        acc += w
        if r < acc:
            return value
    return weighted[-1][0]


def build(seed: int = SEED):
    rng = random.Random(seed)
    offices = [("National Observing Centre", "national centre", "", "Reading", "")]
    region_of = {}
    runs_stations = []          # (office, region, kind)
    area_of_unit = {}
    for region, areas in REGIONS.items():
        reg = f"{region} Regional Office"
        offices.append((reg, "regional office", "National Observing Centre", CITY[region], 0))
        region_of[reg] = region
        runs_stations.append((reg, region, "regional"))
        for town, units in areas:
            area = f"{town} Area Office"
            offices.append((area, "area office", reg, town, 0))
            region_of[area] = region
            runs_stations.append((area, region, "area"))
            for unit in units:
                name = f"{unit} Field Unit"
                offices.append((name, "field unit", area, town, 0))
                region_of[name] = region
                area_of_unit[name] = area
                runs_stations.append((name, region, "unit"))

    # station names, unique
    names = set()
    while len(names) < 300:
        a, b = rng.choice(STATION_A), rng.choice(STATION_B)
        names.add(a + b)
    names = sorted(names)
    rng.shuffle(names)

    stations = []
    idx = 0
    for office, region, kind in runs_stations:
        n = {"regional": rng.randint(2, 3), "area": rng.randint(9, 14), "unit": rng.randint(4, 7)}[kind]
        for _ in range(n):
            name = names[idx]
            idx += 1
            if kind == "regional":
                stype = "synoptic"
            else:
                stype = pick(rng, TYPES)
            elevation = int(rng.triangular(5, 900 if kind == "unit" else 450, 60 if kind != "unit" else 320))
            opened = dt.date(rng.randint(1952, 2019), rng.randint(1, 12), rng.randint(1, 28))
            stations.append({"station": name, "station_type": stype, "office": office, "elevation_m": elevation,
                             "opened_date": opened.isoformat(), "region": region})

    # monthly summaries
    summaries = []
    for s in stations:
        wet = REGION_WET[s["region"]] * (1 + s["elevation_m"] / 700) * rng.uniform(0.85, 1.15)
        base_rain = 62 * wet
        monthly = []
        for i, month in enumerate(MONTHS):
            m = i % 12
            rain = max(1.0, rng.gauss(base_rain * RAIN_SEASON[m], base_rain * 0.35))
            if rng.random() < 0.04:
                rain *= rng.uniform(1.6, 2.3)     # a storm month
            temp = TEMP_SEASON[m] + REGION_TEMP[s["region"]] - s["elevation_m"] * 0.0065 + rng.gauss(0, 0.9)
            sun = max(5.0, rng.gauss(SUN_SEASON[m] * REGION_SUN[s["region"]], SUN_SEASON[m] * 0.14))
            monthly.append(round(rain, 1))
            summaries.append([s["station"], month, round(rain, 1), round(temp, 1), round(sun, 1)])
        s["flood_alert_mm"] = int(round(base_rain * 1.45 * 1.4 / 5.0) * 5)

    # technicians: based at area offices
    area_offices = [o[0] for o in offices if o[1] == "area office"]
    people = set()
    while len(people) < 44:
        people.add(f"{rng.choice(FIRST)} {rng.choice(LAST)}")
    people = sorted(people)
    rng.shuffle(people)
    technicians = []
    techs_at = {a: [] for a in area_offices}
    p = 0
    for a in area_offices:
        for _ in range(2 if rng.random() < 0.6 else 3):
            t = people[p]
            p += 1
            grade = pick(rng, [("technician", 0.5), ("senior technician", 0.35), ("engineer", 0.15)])
            technicians.append((t, a, grade))
            techs_at[a].append(t)
    region_areas = {}
    for a in area_offices:
        region_areas.setdefault(region_of[a], []).append(a)

    def home_area(office):
        for o in offices:
            if o[0] == office:
                if o[1] == "area office":
                    return office
                if o[1] == "field unit":
                    return o[2]
                return rng.choice(region_areas[region_of[office]])
        raise KeyError(office)

    visits = []
    start, end = dt.date(2023, 1, 1), dt.date(2024, 12, 31)
    span = (end - start).days
    for s in stations:
        n = max(1, int(rng.gauss(5.2 if s["station_type"] != "automatic" else 4.4, 1.8)))
        for _ in range(n):
            date = start + dt.timedelta(days=rng.randint(0, span))
            while date.weekday() >= 5:
                date += dt.timedelta(days=1)
            if date > end:
                date = end - dt.timedelta(days=2)
            area = home_area(s["office"])
            if rng.random() < 0.1:
                area = rng.choice(region_areas[s["region"]])
            tech = rng.choice(techs_at[area])
            vtype = pick(rng, VISIT_TYPES)
            hours = round(rng.choice([1, 1.5, 2, 2.5, 3, 3.5, 4, 5, 6, 7, 8][: 7 if vtype == "inspection" else 11]), 1)
            lo, hi = PARTS[vtype]
            cost = int(round(hours * HOURLY[vtype] + rng.randint(lo, hi) + (60 if s["elevation_m"] > 500 else 0)))
            visits.append([None, s["station"], date.isoformat(), tech, vtype, hours, cost])
    visits.sort(key=lambda v: (v[2], v[1]))
    for i, v in enumerate(visits):
        v[0] = f"MV-{23000 + i + 1}"

    # monthly maintenance budgets, near each office's typical month so that some months go over
    spend = {}
    for v in visits:
        st = next(s for s in stations if s["station"] == v[1])
        spend[st["office"]] = spend.get(st["office"], 0) + v[6]
    offices_out, budgets = [], []
    for o in offices:
        name, otype, parent, city, _ = o
        offices_out.append([name, otype, parent, city])
        if name in spend:
            typical = spend[name] / 24
            budgets.append([name, int(math.ceil(typical * rng.uniform(1.7, 2.4) / 50.0) * 50)])
    return offices_out, budgets, stations, technicians, visits, summaries


def write(folder) -> None:
    folder = Path(folder)
    data = folder / "data"
    data.mkdir(parents=True, exist_ok=True)
    offices, budgets, stations, technicians, visits, summaries = build()

    def dump(name, header, rows):
        with open(data / name, "w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(header)
            w.writerows(rows)

    dump("offices.csv", ["office", "office_type", "parent_office", "city"], offices)
    dump("office_budgets.csv", ["office", "monthly_budget_gbp"], budgets)
    dump("stations.csv", ["station", "station_type", "office", "elevation_m", "opened_date", "flood_alert_mm"],
         [[s["station"], s["station_type"], s["office"], s["elevation_m"], s["opened_date"], s["flood_alert_mm"]]
          for s in stations])
    dump("technicians.csv", ["technician", "office", "grade"], technicians)
    dump("visits.csv", ["visit_id", "station", "visit_date", "technician", "visit_type", "hours", "cost_gbp"], visits)
    dump("monthly_summaries.csv", ["station", "month", "rainfall_mm", "mean_temp_c", "sunshine_hours"], summaries)


if __name__ == "__main__":
    write(Path(__file__).resolve().parent)
