"""Seeded generator for the toll_motorway dataset: a tollway network's routes, sections and toll plazas, the tag
accounts that drive through them with their monthly spending caps, the trips they make and the maintenance works."""
import csv, random, sys, datetime
from pathlib import Path

NETWORK = "Carrow Tollways"
TREE = {
    "Northern Tollway": {"Ridgeway Section": ["Ashby Gate", "Thornhill"],
                         "Bramley Section": ["Kelford Bridge", "Millbrook", "Copse End"],
                         "Hollins Section": ["Dunmore"]},
    "Eastern Tollway": {"Fenland Section": ["Harlow Cross", "Oakleigh"],
                        "Wyvern Section": ["Stanway", "Fenwick Moor"]},
    "Coastal Tollway": {"Cliffside Section": ["Saltmarsh Point", "Pellow Quay"],
                        "Estuary Section": ["Brayford", "Cobham Lane", "Redlynch"]},
}
# account holder, account type, opened on, monthly cap (GBP), vehicle classes, trips per month (range)
ACCOUNTS = [
    ("Brennan Haulage", "haulier", "2019-04-02", 200.0, ["lorry"], (10, 16)),
    ("Joanna Pike", "personal", "2021-07-19", 35.0, ["car"], (4, 10)),
    ("Marsh & Tully Removals", "business", "2020-02-11", 65.0, ["van", "lorry"], (4, 9)),
    ("Oskar Lindahl", "personal", "2022-03-08", 25.0, ["car", "motorcycle"], (2, 9)),
    ("Greenfold Dairies", "haulier", "2018-11-23", 95.0, ["lorry", "van"], (7, 13)),
    ("Priya Chandran", "personal", "2023-01-30", 30.0, ["car"], (2, 8)),
    ("Bellway Couriers", "business", "2020-09-14", 60.0, ["van"], (6, 12)),
    ("Northgate Coaches", "business", "2017-06-05", 60.0, ["coach"], (4, 9)),
    ("Dafydd Rowlands", "personal", "2021-10-01", 20.0, ["motorcycle", "car"], (2, 7)),
    ("Kestwick Building Supplies", "business", "2019-08-20", 90.0, ["lorry", "van"], (4, 8)),
    ("Amara Osei", "personal", "2022-05-17", 20.0, ["car"], (1, 6)),
    ("Trentvale Freight", "haulier", "2016-03-09", 160.0, ["lorry"], (9, 15)),
]
RATE = {"car": 3.2, "motorcycle": 1.6, "van": 5.4, "lorry": 11.8, "coach": 9.5}
CONTRACTORS = ["Corby Roadcare", "Halden Civils", "Marlow Lighting", "Trentside Surfacing", "Pennant Barriers"]
WORK_TYPES = {"resurfacing": ("Trentside Surfacing", "Corby Roadcare"), "lighting": ("Marlow Lighting", "Halden Civils"),
              "barrier": ("Pennant Barriers", "Corby Roadcare"), "drainage": ("Halden Civils", "Corby Roadcare"),
              "signage": ("Marlow Lighting", "Pennant Barriers")}


def write(folder="."):
    rnd = random.Random(77123)
    d = Path(folder) / "data"
    d.mkdir(parents=True, exist_ok=True)
    sites = [(NETWORK, "network", "")]
    plazas, sections = [], []
    for route, secs in TREE.items():
        sites.append((route, "route", NETWORK))
        for sec, pls in secs.items():
            sites.append((sec, "section", route))
            sections.append(sec)
            for p in pls:
                sites.append((p, "plaza", sec))
                plazas.append(p)
    with open(d / "sites.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["site", "site_type", "parent_site"])
        w.writerows(sites)
    factor = {}
    prow = []
    for p in plazas:
        lanes = rnd.randint(3, 12)
        factor[p] = rnd.choice([0.9, 1.0, 1.0, 1.1, 1.25, 1.4])
        prow.append((p, lanes, rnd.randint(1988, 2016), factor[p]))
    with open(d / "plazas.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["plaza", "lanes", "opened_year", "tariff_multiplier"])
        w.writerows(prow)
    with open(d / "accounts.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["account", "account_type", "opened_on", "monthly_cap_gbp"])
        w.writerows([(a, t, o, c) for a, t, o, c, _, _ in ACCOUNTS])
    trips = []
    for a, t, o, c, classes, (lo, hi) in ACCOUNTS:
        usual = rnd.sample(plazas, rnd.randint(2, 5))
        for month in range(1, 7):
            for _ in range(rnd.randint(lo, hi)):
                p = rnd.choice(usual) if rnd.random() < 0.8 else rnd.choice(plazas)
                vc = rnd.choice(classes)
                day = datetime.date(2024, month, rnd.randint(1, 28))
                trips.append([a, p, day.isoformat(), day.isoformat()[:7], vc, round(RATE[vc] * factor[p], 2)])
    trips.sort(key=lambda r: (r[2], r[0], r[1]))
    trips = [[f"TR-{i + 1:04d}"] + r for i, r in enumerate(trips)]
    with open(d / "trips.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["trip_id", "account", "plaza", "trip_date", "month", "vehicle_class", "toll_gbp"])
        w.writerows(trips)
    works = []
    for k in range(48):
        site = rnd.choice(sections + plazas)
        kind = rnd.choice(sorted(WORK_TYPES))
        contractor = rnd.choice(WORK_TYPES[kind]) if rnd.random() < 0.85 else rnd.choice(CONTRACTORS)
        start = datetime.date(2023, 1, 9) + datetime.timedelta(days=rnd.randint(0, 700))
        days = rnd.randint(1, 21)
        cost = round(days * rnd.uniform(900, 2600), -1)
        works.append([site, contractor, kind, start.isoformat(), days, cost])
    works.sort(key=lambda r: r[3])
    works = [[f"WK-{i + 1:03d}"] + r for i, r in enumerate(works)]
    with open(d / "works.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["work_id", "site", "contractor", "work_type", "start_date", "days", "cost_gbp"])
        w.writerows(works)


if __name__ == "__main__":
    write(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent)
