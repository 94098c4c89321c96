"""Seeded generator for a colocation data-centre operator: a space hierarchy (campus > building > hall >
row) with cooling capacity, racks leased to tenants with a power cap, monthly power readings, support
tickets and carrier cross-connects.  Run: python generate.py  (writes data/*.csv)."""
import csv
import datetime as dt
import random
from pathlib import Path

SEED = 2024_0611

LAYOUT = {  # campus -> building -> halls (hall letter -> rows)
    "Docklands Campus": {"DK1": {"A": 3, "B": 2, "C": 2}, "DK2": {"A": 3, "B": 2}},
    "Slough Campus": {"SL1": {"A": 2, "B": 3}, "SL2": {"A": 2, "B": 2, "C": 3}},
}
TENANTS = [  # tenant, sector, account manager, contract start, committed kW
    ("Helix Bank", "finance", "Priya Nair", "2019-04-01"),
    ("Northwind Media", "media", "Tom Ellery", "2020-09-15"),
    ("Carraway Health", "healthcare", "Grace Okafor", "2021-02-01"),
    ("Quillfeather Games", "gaming", "Luis Ortega", "2022-06-20"),
    ("Orbis Logistics", "logistics", "Hannah Weiss", "2018-11-05"),
    ("Tessellate AI", "technology", "Priya Nair", "2023-03-13"),
    ("Bramble Retail Group", "retail", "Tom Ellery", "2019-08-26"),
    ("Cobalt Insurance", "finance", "Grace Okafor", "2020-01-06"),
    ("Pavlova Streaming", "media", "Luis Ortega", "2022-10-03"),
    ("Greyfriars University", "education", "Hannah Weiss", "2017-07-17"),
    ("Kestrel Gov Cloud", "government", "Grace Okafor", "2021-12-01"),
    ("Lumen Analytics", "technology", "Tom Ellery", "2023-08-28"),
    ("Harbourline Shipping", "logistics", "Priya Nair", "2020-05-18"),
    ("Sable Capital Markets", "finance", "Hannah Weiss", "2018-03-12"),
]
TENANT_WEIGHTS = [9, 7, 5, 6, 5, 8, 4, 5, 6, 3, 4, 5, 3, 6]
CARRIERS = ["Atlas Transit", "Bluewave Networks", "Corelink Telecom", "Zenith Fibre", "Orca IX"]
CATEGORIES = ["power", "cooling", "network", "access", "remote hands"]
SEVERITIES = ["P1", "P2", "P3"]
MONTHS = ["2024-01-31", "2024-02-29", "2024-03-31", "2024-04-30"]


def _write(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def write(folder="."):
    rng = random.Random(SEED)
    data = Path(folder) / "data"
    data.mkdir(parents=True, exist_ok=True)
    tenants = [t[0] for t in TENANTS]

    spaces, racks = [], []
    rows_of = []
    for campus, buildings in LAYOUT.items():
        spaces.append([campus, "campus", "", 0])
        for b, halls in buildings.items():
            spaces.append([b, "building", campus, 0])
            for letter, n_rows in halls.items():
                hall = f"{b} Hall {letter}"
                spaces.append([hall, "hall", b, 0])
                for r in range(1, n_rows + 1):
                    row = f"{b}-{letter}-R{r:02d}"
                    spaces.append([row, "row", hall, 0])
                    rows_of.append(row)
                    for k in range(1, rng.randint(3, 6) + 1):
                        rack = f"{row}-K{k:02d}"
                        cap = rng.choice([4, 5, 6, 6, 8, 8, 10, 12, 16])
                        units = rng.choice([42, 42, 45, 47, 48])
                        inst = dt.date(2017, 6, 1) + dt.timedelta(days=rng.randint(0, 2300))
                        tenant = rng.choices(tenants, weights=TENANT_WEIGHTS)[0]
                        racks.append([rack, row, tenant, cap, units, inst.isoformat()])
    # cooling capacity: rows from their racks' caps (some rows oversubscribed), upper levels summed
    alloc = {}
    for r in racks:
        alloc[r[1]] = alloc.get(r[1], 0) + r[3]
    cap_of = {}
    for s in spaces:
        if s[1] == "row":
            factor = rng.choice([0.85, 0.9, 1.1, 1.2, 1.25, 1.3, 1.4, 1.5, 1.15, 1.35])
            c = int(round(alloc[s[0]] * factor / 2.0) * 2)
            if c == alloc[s[0]]:
                c += 2
            cap_of[s[0]] = c
    for level in ["hall", "building", "campus"]:
        for s in spaces:
            if s[1] == level:
                kids = [x[0] for x in spaces if x[2] == s[0]]
                cap_of[s[0]] = int(round(sum(cap_of[k] for k in kids) * 1.1 / 10.0) * 10)
    for s in spaces:
        s[3] = cap_of[s[0]]
    _write(data / "spaces.csv", ["space", "space_type", "parent", "cooling_capacity_kw"], spaces)
    _write(data / "racks.csv", ["rack", "row", "tenant", "power_cap_kw", "rack_units", "installed_date"], racks)

    committed = {}
    for r in racks:
        committed[r[2]] = committed.get(r[2], 0) + r[3]
    _write(data / "tenants.csv", ["tenant", "sector", "account_manager", "contract_start", "committed_kw"],
           [list(t) + [int(committed.get(t[0], 0) * 0.9)] for t in TENANTS])

    # power readings: one per rack and month
    readings = []
    rid = 1
    for r in racks:
        load = rng.uniform(0.45, 0.85)
        for m in MONTHS:
            days = int(m[-2:])
            if rng.random() < 0.09:
                peak = round(r[3] * rng.uniform(1.02, 1.18), 2)
            else:
                peak = round(r[3] * rng.uniform(0.6, 0.97), 2)
            avg = min(peak * 0.85, r[3] * load * rng.uniform(0.9, 1.1))
            energy = int(round(avg * 24 * days))
            readings.append([f"PR-{rid:04d}", r[0], m, energy, peak])
            rid += 1
    _write(data / "power_readings.csv", ["reading_id", "rack", "reading_date", "energy_kwh", "peak_kw"], readings)

    # tickets
    tickets = []
    start = dt.date(2024, 1, 2)
    for i in range(1, 191):
        r = rng.choice(racks)
        cat = rng.choices(CATEGORIES, weights=[3, 3, 5, 2, 4])[0]
        sev = rng.choices(SEVERITIES, weights=[1, 3, 6])[0]
        hours = round(rng.uniform(0.5, 6) if sev == "P1" else rng.uniform(1, 30) if sev == "P2" else rng.uniform(2, 96), 1)
        opened = start + dt.timedelta(days=rng.randint(0, 119))
        tickets.append([f"TK-{i:04d}", r[2], r[0], opened.isoformat(), cat, sev, hours])
    tickets.sort(key=lambda t: (t[3], t[0]))
    for i, t in enumerate(tickets, 1):
        t[0] = f"TK-{i:04d}"
    _write(data / "tickets.csv",
           ["ticket_id", "tenant", "rack", "opened_date", "category", "severity", "resolution_hours"], tickets)

    # cross-connects
    xcs = []
    for i in range(1, 86):
        r = rng.choice(racks)
        carrier = rng.choices(CARRIERS, weights=[4, 3, 3, 2, 2])[0]
        speed = rng.choice([1, 10, 10, 25, 100])
        fee = {1: 180, 10: 320, 25: 540, 100: 1150}[speed] + rng.choice([0, 20, 40, -20])
        inst = dt.date(2019, 1, 1) + dt.timedelta(days=rng.randint(0, 1900))
        xcs.append([f"XC-{i:03d}", r[2], r[0], carrier, speed, fee, inst.isoformat()])
    _write(data / "cross_connects.csv",
           ["xc_id", "tenant", "rack", "carrier", "speed_gbps", "monthly_fee_eur", "installed_date"], xcs)


if __name__ == "__main__":
    write(Path(__file__).resolve().parent)
