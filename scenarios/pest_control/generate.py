"""Seeded data of a pest-control contractor: offices (regions > districts > branches), technicians,
clients and the callouts its technicians attended, July 2023 to December 2024.

    python generate.py [FOLDER]      # writes FOLDER/data/*.csv (default: this file's folder)

`write(folder)` makes the data files that are missing (the dataset loader calls it).
"""
from __future__ import annotations

import csv
import datetime as dt
import random
import sys
from pathlib import Path

SEED = 20240611
FILES = ("offices.csv", "technicians.csv", "clients.csv", "callouts.csv")

REGIONS = {
    "Northern Region": {
        "West Yorkshire": ["Leeds", "Bradford", "Wakefield"],
        "North Yorkshire": ["York", "Harrogate", "Scarborough"],
    },
    "Midlands Region": {
        "East Midlands": ["Nottingham", "Derby", "Leicester"],
        "West Midlands": ["Coventry", "Wolverhampton"],
    },
    "Southern Region": {
        "Thames Valley": ["Reading", "Oxford", "Slough"],
        "Wessex": ["Salisbury", "Southampton"],
    },
}

FIRST = ["Priya", "Tom", "Gareth", "Aisha", "Liam", "Hannah", "Marek", "Chloe", "Dev", "Sian", "Callum", "Ruth",
         "Oliver", "Fatima", "Jake", "Megan", "Kwame", "Lucy", "Rhys", "Zara", "Connor", "Bethany", "Imran", "Ellie",
         "Stuart", "Naomi", "Wes", "Grace", "Tariq", "Holly", "Dominic", "Amira", "Craig", "Jodie", "Sam", "Leah",
         "Pavel", "Kirsty", "Nathan", "Yasmin", "Adam", "Rebecca", "Lewis", "Molly", "Hamza", "Joanne", "Ryan",
         "Sophie", "Martin", "Anya", "Dean", "Carys", "Ben", "Isla", "Femi", "Laura", "Neil", "Esther", "Owen",
         "Tilly", "Kieran", "Maya"]
LAST = ["Nair", "Hughes", "Pryce", "Begum", "Walsh", "Clarke", "Nowak", "Bennett", "Patel", "Morgan", "Fraser",
        "Lister", "Grant", "Hussain", "Dawson", "Rowley", "Mensah", "Fielding", "Evans", "Ahmed", "Doyle", "Marsh",
        "Qureshi", "Turner", "Gibson", "Okafor", "Barker", "Holt", "Malik", "Shaw", "Reid", "Saleh", "Ferguson",
        "Kemp", "Ward", "Chapman", "Novak", "Baird", "Pearson", "Karim", "Cole", "Hale", "Jenkins", "Foster",
        "Iqbal", "Price", "Booth", "Young", "Sutton", "Kowalski", "Mills", "Lloyd", "Carter", "Munro", "Adeyemi",
        "Hart", "Dixon", "Levy", "Parry", "Webb", "Quinn", "Rao"]

PESTS = {  # pest: (share of callouts, hours (min, max), base charge)
    "rats": (0.26, (1.0, 3.0), 95),
    "mice": (0.22, (1.0, 2.5), 85),
    "wasps": (0.17, (0.5, 1.5), 65),
    "bedbugs": (0.08, (2.0, 4.0), 140),
    "cockroaches": (0.08, (1.5, 3.5), 120),
    "pigeons": (0.07, (1.5, 4.0), 110),
    "fleas": (0.06, (1.0, 2.0), 80),
    "moles": (0.06, (1.0, 2.5), 75),
}
CLIENT_TYPES = {  # type: (weight, name patterns)
    "restaurant": (0.22, ["The {a} Kitchen", "{b} Curry House", "{c} Pizzeria", "The {a} Bistro"]),
    "school": (0.12, ["{c} Primary School", "St {s}'s Academy", "{c} High School"]),
    "warehouse": (0.12, ["{c} Distribution Centre", "{b} Storage Depot"]),
    "pub": (0.12, ["The {a} Arms", "The {a} Inn"]),
    "household": (0.22, ["{n} {b} Road (household)", "{n} {c} Lane (household)"]),
    "office": (0.08, ["{c} House Offices", "{b} Business Park"]),
    "farm": (0.06, ["{b} Farm", "{c} Hall Farm"]),
    "care home": (0.06, ["{c} Lodge Care Home", "{s} Court Care Home"]),
}
WORDS_A = ["Golden", "Red", "Silver", "Royal", "Green", "Old", "Copper", "Olive", "White", "Black", "Brass", "Blue",
           "Crown", "Oak", "Swan", "Anchor", "Lamb", "Falcon", "Rose", "Plough"]
WORDS_B = ["Ashfield", "Moorside", "Kirkgate", "Hollins", "Bramley", "Westgate", "Fenwick", "Lowther", "Croft",
           "Thornton", "Millbank", "Ridgeway", "Hawthorn", "Linden", "Elmfield", "Brookside", "Stonegate", "Marlow"]
SAINTS = ["Mary", "John", "Peter", "Anne", "Luke", "Bede", "Hilda", "Aidan", "Chad", "Cuthbert"]


def _months(start=(2023, 7), end=(2024, 12)):
    y, m = start
    while (y, m) <= end:
        yield y, m
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)


def _van(rng):
    letters = "ABCDEFGHJKLMNOPRSTUVWXYZ"
    return (rng.choice(["YK", "YA", "FN", "FD", "RV", "HJ", "WU", "BD", "OU", "SN"]) + rng.choice(["19", "20", "21", "22", "70", "71", "72"])
            + " " + "".join(rng.choice(letters) for _ in range(3)))


def build(seed: int = SEED):
    rng = random.Random(seed)
    offices = []
    branches = []
    opened = iter(rng.sample(range(1985, 2022), 25))
    for region, districts in REGIONS.items():
        offices.append((region, "region", "Vermigard Pest Services", next(opened)))
        for district, towns in districts.items():
            offices.append((district, "district", region, next(opened)))
            for town in towns:
                offices.append((town, "branch", district, next(opened)))
                branches.append(town)

    # technicians: one branch manager, one or two senior technicians, technicians and trainees per branch
    names = ["Priya Nair"]                  # Priya Nair works at Leeds (the first branch)
    while len(names) < 130:
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        if name not in names and not name.startswith("Priya "):
            names.append(name)
    pool = iter(names)
    technicians = []
    vans = set()
    for b in branches:
        roles = ["branch manager", "senior technician"] + ["senior technician"] * rng.randint(0, 1) \
            + ["technician"] * rng.randint(1, 2) + ["trainee"] * rng.randint(0, 2)
        if b == "Leeds":
            roles = ["technician", "branch manager", "senior technician", "technician", "trainee"]
        for role in roles:
            van = _van(rng)
            while van in vans:
                van = _van(rng)
            vans.add(van)
            cap = {"branch manager": 20, "senior technician": 36, "technician": 40, "trainee": 30}[role]
            cap += rng.choice([-4, 0, 0, 4])
            technicians.append((next(pool), b, role, cap, van))

    # clients: 18 to 30 per branch
    clients = []
    used = set()
    types = list(CLIENT_TYPES)
    weights = [CLIENT_TYPES[t][0] for t in types]
    for b in branches:
        for _ in range(rng.randint(18, 30)):
            while True:
                t = rng.choices(types, weights)[0]
                pat = rng.choice(CLIENT_TYPES[t][1])
                name = pat.format(a=rng.choice(WORDS_A), b=rng.choice(WORDS_B), c=rng.choice(WORDS_B + [b]),
                                  s=rng.choice(SAINTS), n=rng.randint(1, 120))
                if name not in used:
                    break
            used.add(name)
            contract = "yes" if t != "household" and rng.random() < 0.55 else "no"
            clients.append((name, t, b, contract))

    # callouts
    by_branch_staff = {b: [t for t in technicians if t[1] == b] for b in branches}
    by_branch_clients = {b: [c for c in clients if c[2] == b] for b in branches}
    pests = list(PESTS)
    pest_w = [PESTS[p][0] for p in pests]
    callouts = []
    n = 10000
    for y, m in _months():
        for b in branches:
            staff = by_branch_staff[b]
            for _ in range(rng.randint(38, 62)):
                day = rng.randint(1, 28)
                season = 1.0
                pest = rng.choices(pests, pest_w)[0]
                if pest == "wasps" and m not in (5, 6, 7, 8, 9):
                    pest = rng.choice(["rats", "mice"])
                w = []
                for t in staff:
                    wt = {"branch manager": 0.35, "senior technician": 1.0, "technician": 1.2, "trainee": 0.7}[t[2]]
                    if t[0] == "Priya Nair" and (y, m) == (2024, 5):
                        wt *= 2.2
                    w.append(wt * season)
                tech = rng.choices(staff, w)[0]
                client = rng.choice(by_branch_clients[b])
                lo, hi = PESTS[pest][1]
                hours = rng.randint(int(lo * 4), int(hi * 4)) / 4
                charge = PESTS[pest][2] + 40 * hours
                if client[3] == "yes":
                    charge *= 0.85
                n += 1
                callouts.append((f"CO-{n}", b, tech[0], client[0], pest,
                                 dt.date(y, m, day).isoformat(), f"{y}-{m:02d}", hours, round(charge, 2)))
    callouts.sort(key=lambda r: (r[5], r[0]))
    return {
        "offices.csv": (("office", "office_type", "parent_office", "opened_year"), offices),
        "technicians.csv": (("technician", "branch", "role", "monthly_hours_cap", "van_registration"), technicians),
        "clients.csv": (("client", "client_type", "branch", "on_contract"), clients),
        "callouts.csv": (("callout_id", "branch", "technician", "client", "pest", "visit_date", "month", "hours",
                          "charge_gbp"), callouts),
    }


def write(folder=None, force: bool = False) -> None:
    folder = Path(folder or Path(__file__).parent)
    data = folder / "data"
    data.mkdir(parents=True, exist_ok=True)
    if not force and all((data / f).exists() for f in FILES):
        return
    for name, (header, rows) in build().items():
        with open(data / name, "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(header)
            w.writerows(rows)


if __name__ == "__main__":
    write(sys.argv[1] if len(sys.argv) > 1 else None, force=True)
