"""Seeded data of a cinema chain, Lumen Picturehouses: units (divisions > areas > cinemas) and who manages
each, the cinemas' screens and staff, the films on release, and the screenings the cinemas showed,
July 2023 to December 2024.

    python generate.py [FOLDER]      # writes FOLDER/data/*.csv (default: this file's folder)

`write(folder)` makes the data files that are missing (the dataset loader calls it).
"""
from __future__ import annotations

import csv
import datetime as dt
import random
import sys
from pathlib import Path

SEED = 20241107
FILES = ("units.csv", "cinemas.csv", "screens.csv", "staff.csv", "films.csv", "screenings.csv")
CHAIN = "Lumen Picturehouses"

DIVISIONS = {
    "North Division": {
        "Yorkshire Area": ["Leeds", "York", "Sheffield", "Harrogate"],
        "North West Area": ["Manchester", "Preston", "Chester"],
    },
    "South Division": {
        "West Country Area": ["Bristol", "Bath", "Exeter"],
        "South Coast Area": ["Brighton", "Portsmouth", "Bournemouth"],
        "Thames Area": ["Oxford", "Reading"],
    },
    "Central Division": {
        "Wales Area": ["Cardiff", "Swansea"],
        "East Midlands Area": ["Nottingham", "Lincoln", "Leicester"],
    },
}

FIRST = ["Rachel", "Tom", "Gemma", "Arjun", "Leon", "Harriet", "Piotr", "Nadia", "Dev", "Sian", "Callum", "Ruth",
         "Oliver", "Farah", "Jake", "Megan", "Kofi", "Lucy", "Rhys", "Zainab", "Connor", "Bethany", "Imran", "Ellie",
         "Stuart", "Naomi", "Wes", "Grace", "Tariq", "Holly", "Dominic", "Amira", "Craig", "Jodie", "Sam", "Leah",
         "Pavel", "Kirsty", "Nathan", "Yasmin", "Adam", "Rebecca", "Lewis", "Molly", "Hamza", "Joanne", "Ryan",
         "Sophie", "Martin", "Anya", "Dean", "Carys", "Ben", "Isla", "Femi", "Laura", "Neil", "Esther", "Owen",
         "Tilly", "Kieran", "Maya", "Declan", "Priti", "Hugo", "Mairead", "Ibrahim", "Jess"]
LAST = ["Osei", "Hughes", "Pryce", "Begum", "Walsh", "Clarke", "Nowak", "Bennett", "Patel", "Morgan", "Fraser",
        "Lister", "Grant", "Hussain", "Dawson", "Rowley", "Mensah", "Fielding", "Evans", "Ahmed", "Doyle", "Marsh",
        "Qureshi", "Turner", "Gibson", "Okafor", "Barker", "Holt", "Malik", "Shaw", "Reid", "Saleh", "Ferguson",
        "Kemp", "Ward", "Chapman", "Novak", "Baird", "Pearson", "Karim", "Cole", "Hale", "Jenkins", "Foster",
        "Iqbal", "Price", "Booth", "Young", "Sutton", "Kowalski", "Mills", "Lloyd", "Carter", "Munro", "Adeyemi",
        "Hart", "Dixon", "Levy", "Parry", "Webb", "Quinn", "Rao", "Whitfield", "Ashworth", "Brennan", "Tran"]

GENRES = ["drama", "comedy", "horror", "animation", "action", "documentary", "thriller", "romance"]
DISTRIBUTORS = ["Northlight Pictures", "Harbour Films", "Silverscreen Releasing", "Kestrel Distribution",
                "Meridian Film Co", "Bluebell Pictures"]
TITLE_A = ["The Glass", "Midnight", "The Last", "A Quiet", "The Iron", "Paper", "The Hollow", "Winter", "The Silver",
           "Crimson", "The Salt", "Distant", "The Lantern", "Broken", "The Copper", "Northern", "The Velvet", "Hidden",
           "The Amber", "Wild"]
TITLE_B = ["Orchard", "Harbour", "Signal", "Summer", "Parade", "Kingdom", "Shoreline", "Engine", "Garden", "Frontier",
           "Lighthouse", "Protocol", "Meadow", "Comet", "Circus", "Estuary", "Carousel", "Compass", "Vineyard",
           "Horizon"]
CERTS = {"animation": ["U", "PG"], "comedy": ["PG", "12A", "15"], "horror": ["15", "18"], "drama": ["12A", "15"],
         "action": ["12A", "15"], "documentary": ["PG", "12A"], "thriller": ["15", "18"], "romance": ["12A", "15"]}
PRICE = {"standard": 10.5, "premium": 14.0, "IMAX": 16.5}


def _months(start=(2023, 4), end=(2024, 12)):
    y, m = start
    while (y, m) <= end:
        yield y, m
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)


def build(seed: int = SEED):
    rng = random.Random(seed)
    names = []
    while len(names) < 420:
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        if name not in names and name != "Rachel Osei":
            names.append(name)
    pool = iter(names)

    units, cinemas, screens, staff = [], [], [], []
    opened = iter(rng.sample(range(1994, 2022), 26))
    for division, areas in DIVISIONS.items():
        units.append((division, "division", CHAIN, next(pool)))
        for area, towns in areas.items():
            manager = "Rachel Osei" if area == "North West Area" else next(pool)
            units.append((area, "area", division, manager))
            for town in towns:
                cinema = f"Lumen {town}"
                gm = next(pool)
                units.append((cinema, "cinema", area, gm))
                cinemas.append((cinema, town, next(opened), rng.choice([80, 90, 100, 110, 120])))
                # screens
                n_screens = rng.randint(4, 8)
                formats = ["standard"] * n_screens
                if town == "Manchester":
                    formats[0] = formats[1] = "IMAX"
                    formats[2] = "premium"
                elif rng.random() < 0.45:
                    formats[0] = "IMAX"
                if town != "Manchester" and rng.random() < 0.6:
                    formats[-1] = "premium"
                seat_choices = list(range(60, 321, 2))
                rng.shuffle(seat_choices)
                for i, fmt in enumerate(formats, start=1):
                    seats = seat_choices[i]
                    if fmt == "IMAX":
                        seats = 300 + rng.randint(0, 60) * 2 + (i % 2)
                    elif fmt == "premium":
                        seats = rng.randint(30, 60)
                    screens.append((cinema, f"Screen {i}", fmt, seats))
                # staff
                roles = [("general manager", gm)]
                roles += [("duty manager", None)] * rng.randint(2, 3)
                roles += [("projectionist", None)] * rng.randint(1, 3)
                roles += [("team member", None)] * rng.randint(4, 8)
                if town == "Oxford":
                    roles = [r for r in roles if r[0] != "projectionist"] + [("projectionist", None)] * 2
                for role, who in roles:
                    who = who or next(pool)
                    hours = {"general manager": 40, "duty manager": 37.5, "projectionist": 35,
                             "team member": rng.choice([16, 20, 24, 30])}[role]
                    staff.append((who, cinema, role, hours))

    # films: two or three releases a month from April 2023
    films = []
    used = set()
    for y, m in _months():
        for _ in range(rng.randint(2, 3)):
            while True:
                title = f"{rng.choice(TITLE_A)} {rng.choice(TITLE_B)}"
                if title not in used:
                    break
            used.add(title)
            genre = rng.choice(GENRES)
            films.append([title, genre, rng.choice(CERTS[genre]), rng.choice(DISTRIBUTORS),
                          rng.randint(84, 162), dt.date(y, m, rng.randint(1, 28)).isoformat(),
                          rng.uniform(0.3, 1.0)])
    # the film of the share question: released in spring 2024, a strong run
    glass = next((f for f in films if f[0] == "The Glass Orchard"), None)
    if glass is None:
        films.append(["The Glass Orchard", "drama", "12A", "Harbour Films", 118, "2024-04-12", 0.95])
    else:
        glass[1:] = ["drama", "12A", "Harbour Films", 118, "2024-04-12", 0.95]
    popularity = {f[0]: f[6] for f in films}
    release = {f[0]: dt.date.fromisoformat(f[5]) for f in films}

    screenings = []
    n = 500000
    by_cinema = {c[0]: [s for s in screens if s[0] == c[0]] for c in cinemas}
    for y, m in _months((2023, 7), (2024, 12)):
        for cinema, *_ in cinemas:
            scr = by_cinema[cinema]
            for _ in range(rng.randint(55, 85)):
                day = rng.randint(1, 28)
                date = dt.date(y, m, day)
                showing = [f for f in release if 0 <= (date - release[f]).days <= 84]
                film = rng.choices(showing, [popularity[f] for f in showing])[0]
                screen = rng.choice(scr)
                seats = screen[3]
                occ = min(0.98, rng.betavariate(2, 3) * (0.6 + popularity[film]))
                sold = int(seats * occ)
                comps = rng.choice([0, 0, 0, 0, 1, 1, 2, 2, 3, 4])
                if cinema == "Lumen Brighton" and (y, m) == (2024, 8):
                    comps += rng.choice([0, 0, 1, 1, 2])
                price = PRICE[screen[2]] * rng.uniform(0.82, 1.0)
                start = rng.choice(["11:00", "13:30", "15:45", "17:15", "18:00", "19:30", "20:45", "21:30"])
                n += 1
                screenings.append((f"SC-{n}", cinema, screen[1], film, date.isoformat(), f"{y}-{m:02d}", start,
                                   sold, comps, round(sold * price, 2)))
    screenings.sort(key=lambda r: (r[4], r[0]))
    return {
        "units.csv": (("unit", "unit_type", "parent_unit", "manager"), units),
        "cinemas.csv": (("cinema", "city", "opened_year", "monthly_comp_allowance"), cinemas),
        "screens.csv": (("cinema", "screen", "screen_format", "seats"), screens),
        "staff.csv": (("staff_member", "cinema", "role", "weekly_hours"), staff),
        "films.csv": (("film", "genre", "certificate", "distributor", "running_minutes", "release_date"),
                      [tuple(f[:6]) for f in films]),
        "screenings.csv": (("screening_id", "cinema", "screen", "film", "show_date", "month", "start_time",
                            "tickets_sold", "comp_tickets", "box_office_gbp"), screenings),
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
