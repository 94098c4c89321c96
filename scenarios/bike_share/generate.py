"""Seeded data for a city bike-share scheme.

The city of Larkford is divided into districts, wards and neighbourhoods; docking stations stand in the
neighbourhoods, each with a number of docks; every bike is based at a home station; members on an annual,
monthly or pay-as-you-go plan take trips (2024), and e-bike minutes beyond the plan's monthly allowance are
charged; bikes are repaired at the scheme's workshops.

    python generate.py            # writes data/*.csv next to this file
"""
from __future__ import annotations

import csv
import datetime as dt
import random
from pathlib import Path

SEED = 7311
FILES = ("zones.csv", "stations.csv", "bikes.csv", "members.csv", "plans.csv", "trips.csv", "repairs.csv")

# district -> ward -> neighbourhoods
ZONES = {
    "Northside": {
        "Abbeyfield Ward": ["Abbey Meadows", "Copper Hill", "Tanners Green"],
        "Brookmoor Ward": ["Brookmoor Village", "Linton Rise"],
        "Cathedral Ward": ["Cathedral Close", "Minster Yard", "Bellfoundry"],
    },
    "Riverside": {
        "Harbour Ward": ["Harbour Quarter", "Ropewalk", "Saltings"],
        "Weir Ward": ["Weirside", "Lockkeepers", "Osier Bank"],
    },
    "Hillcrest": {
        "Summit Ward": ["Beacon Heights", "Windmill Rise"],
        "Orchard Ward": ["Orchard Park", "Pippin Fields", "Quince Gardens"],
        "Kilnworth Ward": ["Kilnworth", "Potters Row"],
    },
    "Old Town": {
        "Guildhall Ward": ["Guildhall", "Chandlers", "Exchange Square"],
        "Castle Ward": ["Castlegate", "Barbican", "Drawbridge"],
    },
}

STREET = ["Wharf", "Mill", "Canal", "Market", "Foundry", "Chapel", "Kingsway", "Granary", "Victoria", "Albion",
          "Cooper", "Weaver", "Bridge", "Priory", "Dyer", "Tollgate", "Lantern", "Hope", "Union", "Sheaf",
          "Cotton", "Lamplighter", "Gasworks", "Brewery", "Bakers", "Quayside", "Carter", "Ferry", "Tannery",
          "Pinfold", "Glasshouse", "Ivy", "Rosemary", "Salisbury", "Orchard", "Paradise", "Regent", "Sawmill",
          "Printworks", "Observatory", "Ropemaker", "Garrison", "Smithy", "Vicarage", "Railway", "Lido"]
KIND = ["Street", "Lane", "Road", "Square", "Place", "Yard", "Parade", "Walk", "Basin", "Terrace"]

FIRST = ["Priya", "Tomasz", "Aoife", "Kofi", "Sanna", "Mateo", "Leila", "Callum", "Ines", "Yusuf", "Freya",
         "Dariusz", "Chidi", "Marta", "Oskar", "Nadia", "Ewan", "Zara", "Henrik", "Lucia", "Rohan", "Ffion",
         "Tariq", "Greta", "Amir", "Hollie", "Bartek", "Noor", "Emeka", "Solveig", "Rafael", "Keira", "Jonas",
         "Aditi", "Caoimhe", "Vikram", "Elif", "Stellan", "Maeve", "Olumide"]
LAST = ["Nair", "Wojcik", "Brennan", "Mensah", "Lindqvist", "Alvarez", "Haddad", "Fraser", "Duarte", "Demir",
        "Holm", "Kowalski", "Okonkwo", "Sousa", "Berg", "Rahman", "Macrae", "Qureshi", "Aalto", "Romano",
        "Iyer", "Pugh", "Farouk", "Schmidt", "Karimi", "Dobson", "Nowak", "Siddiqui", "Eze", "Strand",
        "Moreno", "Doyle", "Weber", "Bose", "Gallagher", "Menon", "Yilmaz", "Ekdahl", "Costa", "Adeyemi"]

PLANS = [("annual", 240, 0.0, 0.0, 0.08, 0.45), ("monthly", 120, 0.0, 0.0, 0.10, 0.3),
         ("pay as you go", 0, 1.00, 0.05, 0.15, 0.25)]
# plan, e-bike minutes included per month, unlock fee, per minute classic, per minute e-bike beyond allowance
CARGO_RATE = 0.20
BIKE_TYPES = [("classic", 0.58), ("electric", 0.36), ("cargo", 0.06)]
WORKSHOPS = ["Tannery Lane Workshop", "Bridgefoot Depot", "Hollowmere Workshop", "Kingsmead Depot"]
WORKSHOP_OF = {"Northside": "Tannery Lane Workshop", "Riverside": "Bridgefoot Depot",
               "Hillcrest": "Hollowmere Workshop", "Old Town": "Kingsmead Depot"}
FAULTS = [("puncture", 0.32, 12, 25), ("brakes", 0.2, 18, 45), ("chain", 0.14, 15, 40), ("lights", 0.12, 8, 30),
          ("battery", 0.12, 60, 240), ("frame", 0.05, 80, 320), ("dock lock", 0.05, 25, 70)]


def pick(rng, weighted):
    r, acc = rng.random(), 0.0
    for item in weighted:
        acc += item[1]
        if r < acc:
            return item[0]
    return weighted[-1][0]


def build(seed: int = SEED):
    rng = random.Random(seed)
    zones = [("Larkford", "city", "")]
    neighbourhoods = []
    district_of = {}
    for district, wards in ZONES.items():
        zones.append((district, "district", "Larkford"))
        for ward, hoods in wards.items():
            zones.append((ward, "ward", district))
            for hood in hoods:
                zones.append((hood, "neighbourhood", ward))
                neighbourhoods.append(hood)
                district_of[hood] = district

    names = set()
    while len(names) < 140:
        names.add(f"{rng.choice(STREET)} {rng.choice(KIND)}")
    names = sorted(names)
    rng.shuffle(names)
    stations = []
    i = 0
    for hood in neighbourhoods:
        for _ in range(rng.randint(2, 6)):
            docks = rng.choice([10, 12, 12, 14, 15, 16, 18, 18, 20, 20, 22, 24, 25, 28, 30])
            opened = dt.date(rng.randint(2016, 2023), rng.randint(1, 12), rng.randint(1, 28))
            charging = "yes" if rng.random() < 0.4 else "no"
            stations.append({"station": names[i], "zone": hood, "docks": docks, "opened_date": opened.isoformat(),
                             "ebike_charging": charging, "district": district_of[hood]})
            i += 1

    bikes = []
    n = 0
    for s in stations:
        k = max(2, int(round(s["docks"] * rng.uniform(0.45, 1.15))))
        for _ in range(k):
            n += 1
            btype = pick(rng, BIKE_TYPES)
            if btype == "electric" and s["ebike_charging"] == "no" and rng.random() < 0.5:
                btype = "classic"
            comm = dt.date(rng.randint(2018, 2023), rng.randint(1, 12), rng.randint(1, 28))
            bikes.append({"bike_id": f"LB-{n:04d}", "bike_type": btype, "home_station": s["station"],
                          "commissioned_date": comm.isoformat(), "district": s["district"]})
    rng.shuffle(bikes)
    bikes.sort(key=lambda b: b["bike_id"])

    people = set()
    while len(people) < 420:
        people.add(f"{rng.choice(FIRST)} {rng.choice(LAST)}")
    people = sorted(people)
    rng.shuffle(people)
    members = []
    for p in people:
        plan = pick(rng, [(pl[0], pl[5]) for pl in PLANS])
        joined = dt.date(2019, 1, 1) + dt.timedelta(days=rng.randint(0, 5 * 365 - 60))
        home = rng.choice(neighbourhoods)
        activity = rng.paretovariate(1.6)
        members.append({"member": p, "plan": plan, "join_date": joined.isoformat(), "home_zone": home,
                        "activity": activity})
    plan_info = {pl[0]: pl for pl in PLANS}

    st_by_zone = {}
    for s in stations:
        st_by_zone.setdefault(s["zone"], []).append(s)
    st_by_district = {}
    for s in stations:
        st_by_district.setdefault(s["district"], []).append(s)
    bikes_at = {}
    for b in bikes:
        bikes_at.setdefault(b["home_station"], []).append(b)
    bike_by = {b["bike_id"]: b for b in bikes}

    weights = [m["activity"] for m in members]
    trips = []
    day0 = dt.date(2024, 1, 1)
    for _ in range(5200):
        m = rng.choices(members, weights)[0]
        if m["join_date"] > "2024-12-01":
            continue
        date = day0 + dt.timedelta(days=rng.randint(0, 365))
        if date.isoformat() < m["join_date"]:
            continue
        hood = m["home_zone"] if rng.random() < 0.6 else rng.choice(neighbourhoods)
        start = rng.choice(st_by_zone[hood])
        pool = bikes_at[start["station"]] if rng.random() < 0.75 else bikes
        bike = rng.choice(pool)
        end = rng.choice(st_by_district[start["district"]] if rng.random() < 0.7 else stations)
        if bike["bike_type"] == "classic":
            dur = int(rng.triangular(4, 55, 14))
        elif bike["bike_type"] == "electric":
            dur = int(rng.triangular(4, 70, 18))
        else:
            dur = int(rng.triangular(8, 90, 30))
        trips.append([None, m["member"], bike["bike_id"], start["station"], end["station"], date.isoformat(),
                      date.isoformat()[:7], dur])
    trips.sort(key=lambda t: (t[5], t[1], t[2]))

    # fares: e-bike minutes beyond the plan's monthly allowance are charged, in trip order
    member_by = {mm["member"]: mm for mm in members}
    used = {}
    for i, t in enumerate(trips):
        t[0] = f"T{240001 + i}"
        pl = plan_info[member_by[t[1]]["plan"]]
        btype = bike_by[t[2]]["bike_type"]
        dur = t[7]
        if btype == "classic":
            fare = pl[2] + pl[3] * dur
        elif btype == "cargo":
            fare = pl[2] + CARGO_RATE * dur
        else:
            key = (t[1], t[6])
            before = used.get(key, 0)
            used[key] = before + dur
            charged = max(0, before + dur - max(pl[1], before))
            fare = pl[2] + pl[4] * charged
        t.append(f"{fare:.2f}")

    repairs = []
    start, end = dt.date(2024, 1, 1), dt.date(2024, 12, 31)
    for b in bikes:
        age = 2024 - int(b["commissioned_date"][:4])
        k = max(0, int(rng.gauss(0.5 + age * 0.22 + (0.4 if b["bike_type"] != "classic" else 0), 0.9)))
        for _ in range(k):
            fault = pick(rng, [(f[0], f[1]) for f in FAULTS])
            if fault == "battery" and b["bike_type"] == "classic":
                fault = "puncture"
            lo, hi = next((f[2], f[3]) for f in FAULTS if f[0] == fault)
            cost = rng.randint(lo, hi) + rng.choice([0, 0.5])
            date = start + dt.timedelta(days=rng.randint(0, (end - start).days))
            shop = WORKSHOP_OF[b["district"]] if rng.random() < 0.85 else rng.choice(WORKSHOPS)
            repairs.append([None, b["bike_id"], date.isoformat(), shop, fault, f"{cost:.2f}"])
    repairs.sort(key=lambda r: (r[2], r[1]))
    for i, r in enumerate(repairs):
        r[0] = f"RP-{5001 + i}"

    plans = [[pl[0], pl[1], f"{pl[2]:.2f}", f"{pl[4]:.2f}"] for pl in PLANS]
    return zones, stations, bikes, members, plans, trips, repairs


def write(folder) -> None:
    folder = Path(folder)
    data = folder / "data"
    data.mkdir(parents=True, exist_ok=True)
    zones, stations, bikes, members, plans, trips, repairs = build()

    def dump(name, header, rows):
        with open(data / name, "w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(header)
            w.writerows(rows)

    dump("zones.csv", ["zone", "zone_type", "parent_zone"], zones)
    dump("stations.csv", ["station", "zone", "docks", "opened_date", "ebike_charging"],
         [[s["station"], s["zone"], s["docks"], s["opened_date"], s["ebike_charging"]] for s in stations])
    dump("bikes.csv", ["bike_id", "bike_type", "home_station", "commissioned_date"],
         [[b["bike_id"], b["bike_type"], b["home_station"], b["commissioned_date"]] for b in bikes])
    dump("members.csv", ["member", "plan", "join_date", "home_zone"],
         [[m["member"], m["plan"], m["join_date"], m["home_zone"]] for m in members])
    dump("plans.csv", ["plan", "ebike_minutes_included", "unlock_fee_gbp", "ebike_rate_gbp_per_min"], plans)
    dump("trips.csv", ["trip_id", "member", "bike_id", "start_station", "end_station", "start_date", "month",
                       "duration_min", "fare_gbp"], trips)
    dump("repairs.csv", ["repair_id", "bike_id", "repair_date", "workshop", "fault", "cost_gbp"], repairs)


if __name__ == "__main__":
    write(Path(__file__).resolve().parent)
