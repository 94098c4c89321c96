"""Seeded data of a city council's street markets: sites (zones > wards > markets), the traders licensed
to trade on them, their pitch bookings, the markets' staff and the inspections of traders' stalls,
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

SEED = 77031
FILES = ("sites.csv", "markets.csv", "traders.csv", "bookings.csv", "staff.csv", "inspections.csv")

ZONES = {
    "Northern Zone": ["Millbrook", "Hatton"],
    "Central Zone": ["Old Town", "Castlegate"],
    "Riverside Zone": ["Wharfside", "Kingsmead"],
}
WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
# market: ward, trading days, base pitch fee (GBP), pitches, covered
MARKETS = {
    "Millbrook Farmers Market": ("Millbrook", ["Sat"], 24.0, 38, "no"),
    "Millbrook Village Market": ("Millbrook", ["Tue"], 15.0, 22, "no"),
    "Hatton Green Market": ("Hatton", ["Wed", "Sat"], 18.0, 30, "no"),
    "Hatton Sunday Market": ("Hatton", ["Sun"], 20.0, 45, "no"),
    "Old Town Market Hall": ("Old Town", ["Tue", "Thu", "Sat"], 32.0, 60, "yes"),
    "Cathedral Square Market": ("Old Town", ["Fri"], 28.0, 35, "no"),
    "Castle Street Market": ("Castlegate", ["Mon", "Sat"], 22.0, 48, "no"),
    "Castlegate Flea Market": ("Castlegate", ["Sun"], 16.0, 40, "yes"),
    "Wharfside Food Market": ("Wharfside", ["Fri"], 35.0, 28, "yes"),
    "Quayside Night Market": ("Wharfside", ["Thu"], 30.0, 32, "no"),
    "Kingsmead Craft Market": ("Kingsmead", ["Sat"], 21.0, 26, "yes"),
    "Station Road Market": ("Kingsmead", ["Wed"], 14.0, 34, "no"),
}

GOODS = {  # goods: weight, name patterns
    "produce": (0.14, ["{s} Produce", "{f}'s Fruit & Veg", "{s} Greengrocers"]),
    "bakery": (0.09, ["{f}'s Bakery", "{s} Bread Co", "The {s} Bakehouse"]),
    "flowers": (0.06, ["{f}'s Flowers", "{s} Blooms"]),
    "street food": (0.15, ["{s} Street Kitchen", "{f}'s Wraps", "{s} Noodle Bar", "The {s} Grill"]),
    "cheese": (0.05, ["{s} Cheese Co", "{f}'s Dairy"]),
    "meat": (0.05, ["{s} Butchers", "{f}'s Pies"]),
    "fish": (0.04, ["{s} Fish Co", "{f}'s Seafood"]),
    "clothing": (0.11, ["{s} Threads", "{f}'s Vintage", "{s} Clothing"]),
    "crafts": (0.11, ["{s} Crafts", "{f}'s Pottery", "{s} Woodworks"]),
    "books": (0.04, ["{s} Books", "{f}'s Secondhand Books"]),
    "household": (0.09, ["{s} Hardware", "{f}'s Homeware"]),
    "jewellery": (0.07, ["{s} Jewellery", "{f}'s Silver"]),
}
STEMS = ["Green Basket", "Hillside", "Meadow", "Rowan", "Ashgrove", "Brook Lane", "Fernhill", "Copper Kettle",
         "Larkrise", "Northfield", "Tanner's Yard", "Blue Door", "Wildflower", "Saltmarsh", "Old Mill", "Heron",
         "Orchard", "Red Brick", "Thistle", "Windmill", "Canal Side", "Golden Hour", "Kestrel", "Juniper",
         "Little Acre", "Maple", "Pebble", "Riverbank", "Sycamore", "Willow", "Harbour", "Foxglove"]
FIRST = ["Rosie", "Hartley", "Nadia", "Gwen", "Tomasz", "Bilal", "Maggie", "Declan", "Ife", "Lorna", "Stavros",
         "Mei", "Hamish", "Priti", "Jonah", "Carmen", "Ollie", "Sade", "Bryn", "Agnes", "Farid", "Tess", "Luca",
         "Ruby", "Kofi", "Wendy", "Idris", "Paloma", "Eddie", "Mina"]
PEOPLE_FIRST = ["Alan", "Beatrice", "Chidi", "Dorota", "Euan", "Frances", "Gurpreet", "Helena", "Ivan", "Jasmine",
                "Keith", "Lina", "Malcolm", "Nkechi", "Oscar", "Philippa", "Rashid", "Sandra", "Trevor", "Ursula",
                "Vikram", "Winifred", "Xavier", "Yusuf", "Zoe", "Colin", "Deborah", "Graham", "Harriet", "Josef"]
PEOPLE_LAST = ["Ashworth", "Bamford", "Chowdhury", "Dunmore", "Eccleston", "Fairbairn", "Goodall", "Horsfall",
               "Ibbotson", "Jagger", "Kilbride", "Lockwood", "Mahmood", "Nuttall", "Ormerod", "Pilling",
               "Ramsbottom", "Sowerby", "Thackeray", "Uttley", "Varga", "Whitworth", "Yeadon", "Zielinski",
               "Brennan", "Costa", "Demir", "Egan", "Fitzgerald", "Grimshaw"]


def _dates(start=dt.date(2023, 7, 1), end=dt.date(2024, 12, 31)):
    d = start
    while d <= end:
        yield d
        d += dt.timedelta(days=1)


def build(seed: int = SEED):
    rng = random.Random(seed)
    root = "Ashbury City Council"
    sites = []
    for zone, wards in ZONES.items():
        sites.append((zone, "zone", root))
        for ward in wards:
            sites.append((ward, "ward", zone))
            for m, spec in MARKETS.items():
                if spec[0] == ward:
                    sites.append((m, "market", ward))
    opened = iter(rng.sample(range(1962, 2020), len(MARKETS)))
    markets = [(m, s[0], s[3], "/".join(s[1]), next(opened), s[4]) for m, s in MARKETS.items()]

    # people: staff and proprietors, all distinct
    people = []
    while len(people) < 260:
        p = f"{rng.choice(PEOPLE_FIRST)} {rng.choice(PEOPLE_LAST)}"
        if p not in people:
            people.append(p)
    people_iter = iter(people)

    # traders
    goods_list = list(GOODS)
    weights = [GOODS[g][0] for g in goods_list]
    traders = []
    names = set()
    fixed = [("Rosie's Flowers", "flowers", "casual", 8), ("Hartley's Bakery", "bakery", "permanent", 20),
             ("Green Basket Produce", "produce", "permanent", 16)]
    for name, g, lic, lim in fixed:
        names.add(name)
        traders.append([name, next(people_iter), g, lic, lim])
    while len(traders) < 190:
        g = rng.choices(goods_list, weights)[0]
        name = rng.choice(GOODS[g][1]).format(s=rng.choice(STEMS), f=rng.choice(FIRST))
        if name in names:
            continue
        names.add(name)
        lic = "permanent" if rng.random() < 0.45 else "casual"
        lim = rng.choice([16, 20]) if lic == "permanent" else rng.choice([6, 8, 10])
        traders.append([name, next(people_iter), g, lic, lim])

    # where each trader trades, how often, and the size of its pitch
    market_names = list(MARKETS)
    habits = {}
    for t in traders:
        k = rng.choice([1, 1, 2, 2, 3])
        chosen = rng.sample(market_names, k)
        habits[t[0]] = {m: rng.uniform(0.3, 0.9) for m in chosen}
        if t[2] in ("street food",) and "Quayside Night Market" not in chosen and rng.random() < 0.5:
            habits[t[0]]["Quayside Night Market"] = rng.uniform(0.4, 0.9)
    habits["Rosie's Flowers"] = {"Old Town Market Hall": 0.55, "Hatton Sunday Market": 0.5}
    habits["Hartley's Bakery"] = {"Millbrook Farmers Market": 0.85, "Hatton Green Market": 0.7,
                                  "Castle Street Market": 0.45}
    habits["Green Basket Produce"] = {"Castle Street Market": 0.8, "Station Road Market": 0.75}
    size = {t[0]: rng.choice([1.0, 1.0, 1.0, 1.5, 2.0]) for t in traders}

    bookings = []
    n = 500000
    for d in _dates():
        wd = WEEKDAYS[d.weekday()]
        busy = set()
        for m in market_names:
            ward, days, fee, pitches, covered = MARKETS[m]
            if wd not in days:
                continue
            if d.month == 12 and d.day in (25, 26) or (d.month, d.day) == (1, 1):
                continue
            taken = 0
            order = list(traders)
            rng.shuffle(order)
            for t in order:
                p = habits[t[0]].get(m)
                if p is None or t[0] in busy or taken >= pitches:
                    continue
                if rng.random() < p:
                    busy.add(t[0])
                    taken += 1
                    f = fee * size[t[0]] * (1.05 if d.year == 2024 else 1.0)
                    f = round(f * 2) / 2
                    n += 1
                    bookings.append((f"BK-{n}", t[0], m, d.isoformat(), f"{d.year}-{d.month:02d}", f))

    # staff: a manager and an officer per market, inspectors covering two or three markets each
    staff = []
    for m in market_names:
        staff.append((next(people_iter), "market manager", m))
        staff.append((next(people_iter), "market officer", m))
    inspectors = [next(people_iter) for _ in range(5)]
    covers = {}
    for i, m in enumerate(market_names):
        covers.setdefault(m, []).append(inspectors[i % 5])
        if i % 3 == 0:
            covers[m].append(inspectors[(i + 2) % 5])
    for m, who in covers.items():
        for p in who:
            staff.append((p, "market inspector", m))

    # inspections: one to four a month per market, of a trader booked there that month
    by_market_month = {}
    for b in bookings:
        by_market_month.setdefault((b[2], b[4]), []).append(b)
    inspections = []
    k = 3000
    for (m, month), rows in sorted(by_market_month.items()):
        for _ in range(rng.randint(1, 4)):
            b = rng.choice(rows)
            fail = rng.random() < 0.17
            score = rng.randint(1, 2) if fail else rng.randint(3, 5)
            k += 1
            inspections.append((f"INS-{k}", m, b[1], rng.choice(covers[m]), b[3], "fail" if fail else "pass", score))
    inspections.sort(key=lambda r: (r[4], r[0]))
    return {
        "sites.csv": (("site", "site_type", "parent_site"), sites),
        "markets.csv": (("market", "ward", "pitches", "trading_days", "opened_year", "covered"), markets),
        "traders.csv": (("trader", "proprietor", "goods", "licence", "monthly_day_limit"), traders),
        "bookings.csv": (("booking_id", "trader", "market", "trade_date", "month", "pitch_fee_gbp"), bookings),
        "staff.csv": (("person", "role", "market"), staff),
        "inspections.csv": (("inspection_id", "market", "trader", "inspector", "inspection_date", "outcome",
                             "score"), inspections),
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
