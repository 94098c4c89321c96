"""Seeded data for a river-valley irrigation scheme (water year 2024).

Writes under data/:
  channels.csv    channel, parent_channel, channel_type, capacity_ml_day, length_km
                  (main canals -> branches -> laterals -> sublaterals -> spurs)
  farms.csv       farm, owner, channel, farm_type, area_ha, annual_allocation_ml
  deliveries.csv  delivery_id, farm, date, volume_ml, crop
Run: python generate.py  (or write(folder) from the dataset loader).
"""
import csv
import random
from pathlib import Path

SEED = 20240

MAINS = {"Mirrool Main Canal": 2400, "Bundure Main Canal": 1800}
BRANCHES = {  # branch -> (main canal, letter)
    "Tabbita Branch": ("Mirrool Main Canal", "T"),
    "Warburn Branch": ("Mirrool Main Canal", "W"),
    "Bilbul Branch": ("Mirrool Main Canal", "B"),
    "Yenda Branch": ("Bundure Main Canal", "Y"),
    "Murrami Branch": ("Bundure Main Canal", "M"),
}
FARM_WORDS_A = ["Kooba", "Bilbul", "Wattle", "Lakeview", "Riverina", "Gogeldrie", "Stony", "Redgum", "Willbriggie",
                "Hanwood", "Benerembah", "Tharbogang", "Yoogali", "Merungle", "Boorga", "Widgelli", "Barren",
                "Mundowey", "Tuckerbil", "Beelbangera", "Lowbidgee", "Currawong", "Ironbark", "Mallee", "Quandong"]
FARM_WORDS_B = ["Downs", "Park", "Creek", "Farm", "Station", "Plains", "Flats", "Estate", "Vale", "Grove"]
SURNAMES = ["Rossi", "Kelly", "Morello", "Nguyen", "Fitzgerald", "Catanzariti", "Brennan", "Singh", "Lupi",
            "McAlister", "Dal Broi", "Whitehead", "Sergi", "O'Connor", "Barbaro", "Hardwick", "Trimboli", "Walsh"]
ENTITY = ["Family Trust", "Agriculture Pty Ltd", "Pastoral Co", "Farming Partnership", "Holdings"]
FARM_TYPES = ["broadacre", "horticulture", "dairy", "mixed"]
CROPS = {"broadacre": ["rice", "wheat", "maize", "cotton"], "horticulture": ["citrus", "grapes", "prunes"],
         "dairy": ["pasture", "maize"], "mixed": ["wheat", "pasture", "rice", "maize"]}


def build(rng):
    channels = []
    for main, cap in MAINS.items():
        channels.append((main, "", "main", cap, round(rng.uniform(38, 62), 1)))
    for branch, (main, letter) in BRANCHES.items():
        channels.append((branch, main, "branch", rng.choice([320, 380, 450, 520, 600, 680]),
                         round(rng.uniform(14, 30), 1)))
        for i in range(1, rng.choice([2, 3, 3]) + 1):
            lat = f"Lateral {letter}{i}"
            channels.append((lat, branch, "lateral", rng.choice([80, 95, 110, 125, 140, 160, 180]),
                             round(rng.uniform(5, 14), 1)))
            for s in "AB"[:rng.choice([0, 1, 2, 2])]:
                sub = f"Sublateral {letter}{i}{s}"
                channels.append((sub, lat, "sublateral", rng.choice([30, 40, 45, 55, 60, 70]),
                                 round(rng.uniform(2, 7), 1)))
                for k in range(1, rng.choice([0, 0, 1, 2]) + 1):
                    channels.append((f"Spur {letter}{i}{s}-{k}", sub, "spur", rng.choice([12, 15, 18, 20, 25]),
                                     round(rng.uniform(0.8, 3.0), 1)))
    # farms: take water off every channel below the branches (and a few off the branches themselves)
    names = [f"{a} {b}" for a in FARM_WORDS_A for b in FARM_WORDS_B]
    rng.shuffle(names)
    owners = [f"{s} {rng.choice(ENTITY)}" for s in SURNAMES]
    farms = []
    for ch, parent, ctype, cap, length in channels:
        if ctype == "main":
            continue
        n = {"branch": rng.choice([0, 1]), "lateral": rng.choice([2, 3, 4]), "sublateral": rng.choice([1, 2, 3]),
             "spur": rng.choice([1, 2])}[ctype]
        for _ in range(n):
            farm = names.pop()
            ftype = rng.choice(FARM_TYPES)
            area = rng.choice(range(40, 620, 5))
            per_ha = {"broadacre": 6.5, "horticulture": 8.0, "dairy": 7.0, "mixed": 5.5}[ftype]
            alloc = int(round(area * per_ha / 10.0)) * 10
            farms.append((farm, rng.choice(owners), ch, ftype, area, alloc))
    deliveries = []
    n = 0
    for farm, owner, ch, ftype, area, alloc in farms:
        k = rng.choice([3, 4, 4, 5, 5, 6])
        target = alloc * rng.choice([0.55, 0.7, 0.8, 0.9, 0.95, 1.05, 1.15, 1.25])
        weights = [rng.uniform(0.6, 1.4) for _ in range(k)]
        days = sorted(rng.sample(range(0, 366), k))
        for w, d in zip(weights, days):
            n += 1
            month = 1
            day = d
            lengths = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
            while day >= lengths[month - 1]:
                day -= lengths[month - 1]
                month += 1
            vol = round(target * w / sum(weights), 1)
            deliveries.append((f"D{n:04d}", farm, f"2024-{month:02d}-{day + 1:02d}", vol,
                               rng.choice(CROPS[ftype])))
    return channels, farms, deliveries


def _write(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def write(folder="."):
    data = Path(folder) / "data"
    data.mkdir(parents=True, exist_ok=True)
    channels, farms, deliveries = build(random.Random(SEED))
    _write(data / "channels.csv", ["channel", "parent_channel", "channel_type", "capacity_ml_day", "length_km"],
           channels)
    _write(data / "farms.csv", ["farm", "owner", "channel", "farm_type", "area_ha", "annual_allocation_ml"], farms)
    _write(data / "deliveries.csv", ["delivery_id", "farm", "date", "volume_ml", "crop"], deliveries)


if __name__ == "__main__":
    write(Path(__file__).resolve().parent)
