"""Seeded generator of the mountain_huts dataset: a hierarchy of alpine regions, huts, overnight stays and
helicopter supply drops."""
import csv
import os
import random
import sys

SEED = 2718

REGIONS = [  # region, parent region ("" at the top)
    ("Western Alps", ""),
    ("Mont Blanc Massif", "Western Alps"),
    ("Valais Alps", "Western Alps"),
    ("Monte Rosa Group", "Valais Alps"),
    ("Eastern Alps", ""),
    ("Ortler Group", "Eastern Alps"),
    ("Oetztal Alps", "Eastern Alps"),
    ("Stubai Alps", "Eastern Alps"),
    ("Wildspitze Group", "Oetztal Alps"),
]
HUTS = [  # hut, region, altitude_m, beds, warden
    ("Refuge du Goûter", "Mont Blanc Massif", 3835, 120, "Mathilde Revel"),
    ("Refuge Albert Premier", "Mont Blanc Massif", 2702, 64, "Jules Perrin"),
    ("Cabane de Bertol", "Valais Alps", 3311, 50, "Anouk Favre"),
    ("Cabane des Dix", "Valais Alps", 2928, 140, "Pascal Rey"),
    ("Monte Rosa Hütte", "Monte Rosa Group", 2883, 120, "Rahel Imboden"),
    ("Capanna Margherita", "Monte Rosa Group", 4554, 70, "Paolo Gnifetti"),
    ("Rifugio Payer", "Ortler Group", 3029, 90, "Lorenz Platzer"),
    ("Rifugio Casati", "Ortler Group", 3269, 100, "Elisa Compagnoni"),
    ("Braunschweiger Hütte", "Wildspitze Group", 2759, 110, "Hannes Gstrein"),
    ("Vernagthütte", "Wildspitze Group", 2755, 60, "Greta Scheiber"),
    ("Ramolhaus", "Oetztal Alps", 3006, 45, "Toni Kneisl"),
    ("Dresdner Hütte", "Stubai Alps", 2308, 150, "Veronika Hofer"),
    ("Sulzenauhütte", "Stubai Alps", 2191, 85, "Martin Siller"),
]
HUT_TYPE = {"Cabane de Bertol": "bivouac", "Ramolhaus": "bivouac", "Capanna Margherita": "bivouac",
            "Cabane des Dix": "lodge", "Dresdner Hütte": "lodge", "Sulzenauhütte": "lodge"}
ALLOWANCE = {"Refuge du Goûter": 2400, "Capanna Margherita": 1500}
PARTIES = ["Alpine Club Zürich", "Bergfreunde München", "Club Alpin Lyon", "CAI Milano", "Edinburgh Mountaineers",
           "Summit Seekers Leeds", "Ski Touring Bern", "Rope Team Graz", "Amsterdam Klimmers", "Dolomiti Trekking",
           "Glacier School Chamonix", "Höhenweg Wanderer"]


def _write(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def write(folder):
    rng = random.Random(SEED)
    data = os.path.join(folder, "data")
    os.makedirs(data, exist_ok=True)
    huts = []
    for h, reg, alt, beds, warden in HUTS:
        allowance = ALLOWANCE.get(h, rng.choice([800, 1000, 1200, 1500]))
        huts.append((h, reg, HUT_TYPE.get(h, "refuge"), alt, beds, warden, allowance))
    stays = []
    for i in range(1, 341):
        hut = rng.choice(HUTS)
        month = rng.choice([6, 7, 7, 8, 8, 9])
        day = rng.randint(1, 28)
        nights = rng.choice([1, 1, 1, 2, 2, 3])
        guests = rng.randint(2, 14)
        rate = 45 + (hut[2] - 2000) // 100  # dearer the higher the hut
        stays.append((f"B{i:04d}", hut[0], rng.choice(PARTIES), f"2024-{month:02d}-{day:02d}", nights, guests,
                      nights * guests * rate))
    drops = []
    for i in range(1, 121):
        hut = rng.choice(HUTS)
        month = rng.choice([5, 6, 7, 8, 9])
        day = rng.randint(1, 28)
        load = rng.choice([250, 400, 550, 700, 850])
        drops.append((f"D{i:03d}", hut[0], f"2024-{month:02d}-{day:02d}", f"2024-{month:02d}", load,
                      900 + load * 2 + rng.randint(0, 20) * 10))
    _write(os.path.join(data, "regions.csv"), ["region", "parent_region"], REGIONS)
    _write(os.path.join(data, "huts.csv"),
           ["hut", "region", "hut_type", "altitude_m", "beds", "warden", "monthly_drop_allowance_kg"], huts)
    _write(os.path.join(data, "stays.csv"),
           ["booking_ref", "hut", "party", "arrival_date", "nights", "guests", "fee_eur"], stays)
    _write(os.path.join(data, "supply_drops.csv"),
           ["drop_id", "hut", "drop_date", "month", "load_kg", "cost_eur"], drops)


if __name__ == "__main__":
    write(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__)))
