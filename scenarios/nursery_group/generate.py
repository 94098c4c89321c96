"""Seeded data of a group of children's day nurseries, Puddleduck Nurseries: units (regions > areas >
nurseries), the nurseries' registered places, rooms, staff and the children on their rolls, and the
monthly invoices sent to families for January to December 2024.

    python generate.py [FOLDER]      # writes FOLDER/data/*.csv (default: this file's folder)

`write(folder)` makes the data files that are missing (the dataset loader calls it).
"""
from __future__ import annotations

import csv
import datetime as dt
import random
import sys
from pathlib import Path

SEED = 20240902
FILES = ("units.csv", "nurseries.csv", "rooms.csv", "staff.csv", "children.csv", "invoices.csv")
GROUP = "Puddleduck Nurseries"

REGIONS = {
    "North East Region": {
        "Tyne Valley": ["Hexham", "Prudhoe", "Corbridge"],
        "Northumberland Coast": ["Alnwick", "Morpeth", "Whitley Bay"],
        "Wearside": ["Sunderland", "Durham", "Consett"],
    },
    "Yorkshire Region": {
        "West Riding": ["Otley", "Ilkley", "Skipton"],
        "Vale of York": ["Malton", "Thirsk", "Ripon", "Easingwold"],
    },
}

ADULT_FIRST = ["Kerry", "Joanne", "Emma", "Sarah", "Gemma", "Laura", "Amy", "Rachel", "Hayley", "Nicola", "Claire",
               "Donna", "Leanne", "Stacey", "Becky", "Natalie", "Jade", "Shannon", "Chloe", "Megan", "Abbie", "Paige",
               "Lauren", "Kayleigh", "Danielle", "Zoe", "Sana", "Priya", "Ayesha", "Marta", "Agnieszka", "Tom",
               "Liam", "Josh", "Helen", "Michelle", "Alison", "Fiona", "Lisa", "Julie", "Karen", "Charlotte", "Holly"]
CHILD_FIRST = ["Oscar", "Isla", "Freddie", "Ava", "Arlo", "Olivia", "Theo", "Amelia", "Leo", "Ivy", "Noah", "Lily",
               "Alfie", "Florence", "Archie", "Evie", "Jack", "Poppy", "Harry", "Rosie", "Teddy", "Sienna", "Finley",
               "Elsie", "Reggie", "Willow", "Albie", "Mia", "Jude", "Hallie", "Rory", "Maisie", "Ezra", "Daisy",
               "Ollie", "Aria", "Louie", "Matilda", "Ronnie", "Esme", "Yusuf", "Zara", "Idris", "Maryam", "Kacper",
               "Zofia", "Ibrahim", "Hana", "Rafferty", "Nell"]
LAST = ["Marsh", "Pryce", "Walsh", "Doyle", "Hebden", "Ashby", "Robson", "Charlton", "Milburn", "Armstrong",
        "Dodds", "Elliott", "Hall", "Bell", "Thompson", "Robinson", "Wilkinson", "Atkinson", "Ridley", "Forster",
        "Stephenson", "Pattinson", "Heslop", "Brown", "Nixon", "Scott", "Hussain", "Khan", "Nowak", "Kaur",
        "Lambert", "Gibson", "Tate", "Coulson", "Bainbridge", "Swales", "Horsley", "Dunn", "Reay", "Telfer",
        "Moffat", "Purvis", "Whitfield", "Carr", "Lowes", "Oliver", "Hood", "Storey", "Rutherford", "Dixon"]

ROOMS = [  # (room, age group, places (min, max), day rate GBP)
    ("Ladybirds", "babies", (9, 12), 72.0),
    ("Bumblebees", "toddlers", (14, 20), 66.0),
    ("Hedgehogs", "toddlers", (10, 16), 66.0),
    ("Owls", "preschool", (20, 28), 61.0),
]
REF = dt.date(2024, 12, 31)   # the rolls are as they stood at the end of 2024
FUNDED_RATE = 5.6   # GBP an hour of government-funded childcare, taken off the bill


def build(seed: int = SEED):
    rng = random.Random(seed)
    adults = []
    while len(adults) < 260:
        name = f"{rng.choice(ADULT_FIRST)} {rng.choice(LAST)}"
        if name not in adults:
            adults.append(name)
    apool = iter(adults)
    children_names = []
    while len(children_names) < 1100:
        name = f"{rng.choice(CHILD_FIRST)} {rng.choice(LAST)}"
        if name not in children_names and name not in adults:
            children_names.append(name)
    cpool = iter(children_names)

    units, nurseries, rooms, staff, children = [], [], [], [], []
    opened = iter(rng.sample(range(1996, 2023), 18))
    for region, areas in REGIONS.items():
        units.append((region, "region", GROUP))
        for area, towns in areas.items():
            units.append((area, "area", region))
            for town in towns:
                nursery = f"Puddleduck {town}"
                units.append((nursery, "nursery", area))
                room_set = [r for r in ROOMS if r[0] != "Hedgehogs" or rng.random() < 0.5]
                total = 0
                nursery_rooms = []
                for room, group, (lo, hi), rate in room_set:
                    places = rng.randint(lo, hi)
                    total += places
                    nursery_rooms.append((room, group, places, rate))
                    rooms.append((nursery, room, group, places))
                manager = next(apool)
                nurseries.append((nursery, town, next(opened), total, manager))
                # staff: manager, deputy, a room leader per room, practitioners, apprentices
                roles = [("nursery manager", manager), ("deputy manager", None)]
                roles += [("room leader", None)] * len(nursery_rooms)
                roles += [("nursery practitioner", None)] * rng.randint(3, 7)
                roles += [("apprentice", None)] * rng.randint(0, 3)
                if town == "Durham":
                    roles = [r for r in roles if r[0] != "apprentice"] + [("apprentice", None)] * 3
                for role, who in roles:
                    who = who or next(apool)
                    level = {"nursery manager": 6, "deputy manager": rng.choice([3, 6]), "room leader": 3,
                             "nursery practitioner": rng.choice([2, 3, 3]), "apprentice": 2}[role]
                    start = rng.randint(2022, 2024) if role == "apprentice" else rng.randint(2008, 2024)
                    staff.append((who, nursery, role, level, start))
                # children: rooms filled to 70-100 % (Whitley Bay over its places)
                for room, group, places, rate in nursery_rooms:
                    fill = rng.uniform(0.7, 1.0)
                    if town == "Whitley Bay":
                        fill = rng.uniform(1.05, 1.2)
                    n = max(1, round(places * fill))
                    if town == "Hexham":
                        n = {"Ladybirds": places - 2, "Bumblebees": places - 1, "Hedgehogs": places - 4,
                             "Owls": places}[room]
                    for _ in range(n):
                        months = {"babies": (7, 23), "toddlers": (24, 35), "preschool": (36, 58)}[group]
                        born = REF - dt.timedelta(days=round(30.4 * rng.uniform(*months)))
                        earliest = max(born + dt.timedelta(days=183), dt.date(2021, 9, 1))
                        span = (dt.date(2024, 12, 15) - earliest).days
                        start = earliest + dt.timedelta(days=rng.randint(0, span))
                        children.append((next(cpool), nursery, room, group, born.isoformat(), start.isoformat(),
                                         rate))

    # invoices: one a month per child on the roll, January to December 2024
    invoices = []
    n = 70000
    for m in range(1, 13):
        month = f"2024-{m:02d}"
        for child, nursery, room, group, born, start, rate in children:
            if start[:7] > month:
                continue
            sessions = rng.randint(4, 20)
            if start[:7] == month:
                sessions = max(2, sessions // 2)
            funded = 0.0
            if group == "preschool":
                funded = float(min(sessions * 6, rng.choice([64, 90, 120])))
            elif group == "toddlers" and m >= 4 and rng.random() < 0.4:
                funded = float(min(sessions * 4, 60))
            fee = round(max(0.0, sessions * rate - funded * FUNDED_RATE), 2)
            n += 1
            invoices.append((f"INV-{n}", nursery, child, month, sessions, funded, fee))
    return {
        "units.csv": (("unit", "unit_type", "parent_unit"), units),
        "nurseries.csv": (("nursery", "town", "opened_year", "registered_places", "manager"), nurseries),
        "rooms.csv": (("nursery", "room", "age_group", "room_places"), rooms),
        "staff.csv": (("staff_member", "nursery", "role", "qualification_level", "start_year"), staff),
        "children.csv": (("child", "nursery", "room", "age_group", "birth_date", "start_date"),
                         [c[:6] for c in children]),
        "invoices.csv": (("invoice_id", "nursery", "child", "month", "sessions", "funded_hours", "fee_gbp"),
                         invoices),
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
