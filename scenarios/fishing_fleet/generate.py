"""Seeded data for a fishing fleet: sea areas (a hierarchy), ports, producer organisations, vessels with their
annual catch quota, species, landings (tonnes and euros, January to June 2024) and fishery inspections.

Run `python generate.py` (or call write(folder)) to (re)write the CSV files under data/.
"""
import csv
import random
from datetime import date, timedelta
from pathlib import Path

SEED = 20240611

# (area, parent, area_type): region > sea > division > fishing ground (> sub-ground)
SEA_AREAS = [
    ("Northeast Atlantic", "", "region"),
    ("North Sea", "Northeast Atlantic", "sea"),
    ("Celtic Seas", "Northeast Atlantic", "sea"),
    ("Norwegian Sea", "Northeast Atlantic", "sea"),
    ("Northern North Sea", "North Sea", "division"),
    ("Central North Sea", "North Sea", "division"),
    ("Southern North Sea", "North Sea", "division"),
    ("West of Scotland", "Celtic Seas", "division"),
    ("Irish Sea", "Celtic Seas", "division"),
    ("Outer Celtic Sea", "Celtic Seas", "division"),
    ("English Channel", "Celtic Seas", "division"),
    ("Faroe Plateau", "Norwegian Sea", "division"),
    ("Fladen Ground", "Northern North Sea", "ground"),
    ("Viking Bank", "Northern North Sea", "ground"),
    ("East Shetland Basin", "Northern North Sea", "ground"),
    ("Dogger Bank", "Central North Sea", "ground"),
    ("Devil's Hole", "Central North Sea", "ground"),
    ("Farn Deeps", "Central North Sea", "ground"),
    ("Broad Fourteens", "Southern North Sea", "ground"),
    ("Brown Bank", "Southern North Sea", "ground"),
    ("The Minch", "West of Scotland", "ground"),
    ("Stanton Bank", "West of Scotland", "ground"),
    ("Rockall Bank", "West of Scotland", "ground"),
    ("Mourne Grounds", "Irish Sea", "ground"),
    ("Isle of Man Banks", "Irish Sea", "ground"),
    ("Labadie Bank", "Outer Celtic Sea", "ground"),
    ("Nymph Bank", "Outer Celtic Sea", "ground"),
    ("Smalls Grounds", "Outer Celtic Sea", "ground"),
    ("Start Point Grounds", "English Channel", "ground"),
    ("Hurd Deep", "English Channel", "ground"),
    ("Faroe Bank", "Faroe Plateau", "ground"),
    ("Bill Bailey's Bank", "Faroe Plateau", "ground"),
    ("Dogger Tail End", "Dogger Bank", "sub-ground"),
    ("Outer Silver Pit", "Dogger Bank", "sub-ground"),
    ("North Minch Deep", "The Minch", "sub-ground"),
    ("South Minch Shelf", "The Minch", "sub-ground"),
]

# port, country, registration letters, grounds its vessels usually fish
PORTS = [
    ("Peterhead", "Scotland", "PD", ["Fladen Ground", "Viking Bank", "Dogger Tail End", "Devil's Hole", "East Shetland Basin"]),
    ("Fraserburgh", "Scotland", "FR", ["Fladen Ground", "Devil's Hole", "Farn Deeps", "Outer Silver Pit"]),
    ("Lerwick", "Scotland", "LK", ["East Shetland Basin", "Viking Bank", "Faroe Bank", "Bill Bailey's Bank"]),
    ("Ullapool", "Scotland", "UL", ["North Minch Deep", "South Minch Shelf", "Stanton Bank", "Rockall Bank"]),
    ("Kilkeel", "Northern Ireland", "N", ["Mourne Grounds", "Isle of Man Banks"]),
    ("Newlyn", "England", "PZ", ["Labadie Bank", "Nymph Bank", "Smalls Grounds", "Hurd Deep"]),
    ("Brixham", "England", "BM", ["Start Point Grounds", "Hurd Deep", "Broad Fourteens"]),
    ("Whitby", "England", "WY", ["Farn Deeps", "Dogger Tail End", "Brown Bank", "Broad Fourteens"]),
]

PRODUCER_ORGS = {
    "Peterhead": "North East Catchers Producer Organisation",
    "Fraserburgh": "North East Catchers Producer Organisation",
    "Lerwick": "Shetland Catch Producers Organisation",
    "Ullapool": "Western Isles Fishermen's Organisation",
    "Kilkeel": "Mourne Fish Producers Organisation",
    "Newlyn": "South West Catchers Organisation",
    "Brixham": "South West Catchers Organisation",
    "Whitby": "Yorkshire Coast Producers Organisation",
}

# species, group, minimum landing size (cm), price range (EUR per kg)
SPECIES = [
    ("haddock", "demersal", 30, (1.9, 2.6)),
    ("cod", "demersal", 35, (2.8, 3.9)),
    ("whiting", "demersal", 27, (1.2, 1.7)),
    ("monkfish", "demersal", 30, (4.5, 6.0)),
    ("hake", "demersal", 27, (2.6, 3.4)),
    ("plaice", "demersal", 27, (1.5, 2.1)),
    ("sole", "demersal", 24, (9.0, 12.0)),
    ("ling", "demersal", 63, (1.6, 2.2)),
    ("mackerel", "pelagic", 20, (1.1, 1.6)),
    ("herring", "pelagic", 20, (0.5, 0.8)),
    ("langoustine", "shellfish", 9, (8.0, 11.0)),
    ("scallop", "shellfish", 11, (3.0, 4.2)),
    ("brown crab", "shellfish", 14, (2.2, 3.0)),
    ("lobster", "shellfish", 9, (18.0, 24.0)),
]

GEAR_SPECIES = {
    "trawler": ["haddock", "cod", "whiting", "monkfish", "plaice", "langoustine", "hake"],
    "seiner": ["mackerel", "herring"],
    "dredger": ["scallop"],
    "potter": ["brown crab", "lobster"],
    "gillnetter": ["hake", "monkfish", "cod", "sole"],
    "longliner": ["ling", "hake", "cod"],
}
# typical tonnes per landing by gear
GEAR_TRIP_T = {"trawler": (4, 30), "seiner": (60, 400), "dredger": (2, 12), "potter": (0.4, 3),
               "gillnetter": (1, 8), "longliner": (3, 18)}
GEAR_LENGTH = {"trawler": (17, 32), "seiner": (45, 75), "dredger": (12, 24), "potter": (8, 15),
               "gillnetter": (10, 18), "longliner": (20, 40)}

VESSELS = [
    # name, port, gear
    ("Silver Darling", "Peterhead", "seiner"), ("Girl Pamela", "Peterhead", "trawler"),
    ("Ocean Venture", "Peterhead", "trawler"), ("Radiant Star", "Peterhead", "trawler"),
    ("Fair Morning", "Peterhead", "seiner"), ("Guiding Light", "Peterhead", "longliner"),
    ("Morning Star", "Fraserburgh", "trawler"), ("Boy Andrew", "Fraserburgh", "trawler"),
    ("Good Hope", "Fraserburgh", "trawler"), ("Sunbeam", "Fraserburgh", "seiner"),
    ("Star of Hope", "Fraserburgh", "dredger"),
    ("Altaire", "Lerwick", "seiner"), ("Radiance", "Lerwick", "trawler"),
    ("Serene Dawn", "Lerwick", "longliner"), ("Antares", "Lerwick", "seiner"),
    ("Heather Belle", "Lerwick", "trawler"), ("Valhalla", "Lerwick", "dredger"),
    ("Harvest Moon", "Ullapool", "trawler"), ("Northern Lass", "Ullapool", "potter"),
    ("Kestrel", "Ullapool", "dredger"), ("Marigold", "Ullapool", "trawler"),
    ("Providence", "Kilkeel", "trawler"), ("Reliance", "Kilkeel", "trawler"),
    ("Bountiful", "Kilkeel", "dredger"), ("Olivia Jean", "Kilkeel", "potter"),
    ("Amity", "Kilkeel", "trawler"),
    ("Resolute", "Newlyn", "gillnetter"), ("Golden Dawn", "Newlyn", "gillnetter"),
    ("Sapphire", "Newlyn", "trawler"), ("Aquarius", "Newlyn", "longliner"),
    ("Crystal Sea", "Newlyn", "potter"),
    ("Defiant", "Brixham", "trawler"), ("Faithful Friend", "Brixham", "trawler"),
    ("Sea Spray", "Brixham", "dredger"), ("Unity", "Brixham", "gillnetter"),
    ("Constant Friend", "Whitby", "trawler"), ("Our Lizzie", "Whitby", "potter"),
    ("Endeavour", "Whitby", "trawler"), ("Ajax", "Whitby", "gillnetter"),
]

FIRST = ["James", "John", "Alexander", "Robert", "David", "William", "Andrew", "Peter", "Michael", "Thomas",
         "Callum", "Ewan", "Magnus", "Ruaridh", "Sean", "Patrick", "Kevin", "Gary", "Mark", "Jack", "Tom", "Neil"]
LAST = ["Buchan", "Stephen", "Cowe", "Strachan", "Duthie", "Tait", "Johnson", "Irvine", "Macleod", "Mackenzie",
        "McKee", "Chambers", "Trevorrow", "Pender", "Stevenson", "Harvey", "Noble", "Rennie", "Watt", "Ritchie",
        "Morrison", "Fleming", "Hartley", "Storr", "Cammish", "Verrill", "Burgess", "Ward"]


def _rows():
    rnd = random.Random(SEED)
    port_info = {p[0]: p for p in PORTS}

    ports = [{"port": p, "country": c, "registration_prefix": r} for p, c, r, _ in PORTS]

    skippers = set()
    vessels = []
    counters = {}
    for name, port, gear in VESSELS:
        prefix = port_info[port][2]
        counters[prefix] = counters.get(prefix, 0) + rnd.randint(7, 140)
        lo, hi = GEAR_LENGTH[gear]
        length = round(rnd.uniform(lo, hi), 1)
        kw = int(round(length * rnd.uniform(18, 30), -1))
        while True:
            sk = f"{rnd.choice(FIRST)} {rnd.choice(LAST)}"
            if sk not in skippers:
                skippers.add(sk)
                break
        vessels.append({"vessel": name, "registration": f"{prefix} {counters[prefix]}", "home_port": port,
                        "producer_org": PRODUCER_ORGS[port], "gear": gear, "length_m": length,
                        "engine_kw": kw, "skipper": sk, "built": rnd.randint(1988, 2021)})

    species_rows = [{"species": s, "species_group": g, "min_size_cm": m} for s, g, m, _ in SPECIES]
    price = {s: pr for s, _, _, pr in SPECIES}

    start = date(2024, 1, 1)
    landings = []
    lid = 1000
    for v in vessels:
        gear = v["gear"]
        n = rnd.randint(3, 10) if gear != "seiner" else rnd.randint(3, 6)
        home = v["home_port"]
        grounds = port_info[home][3]
        other_ports = [p[0] for p in PORTS if p[0] != home]
        days = sorted(rnd.sample(range(0, 182), n))
        for d in days:
            lid += rnd.randint(1, 4)
            port = home if rnd.random() < 0.75 else rnd.choice(other_ports)
            sp = rnd.choice(GEAR_SPECIES[gear])
            lo, hi = GEAR_TRIP_T[gear]
            w = round(rnd.uniform(lo, hi), 1)
            pr = rnd.uniform(*price[sp])
            landings.append({"landing_id": f"LD-{lid}", "vessel": v["vessel"],
                             "landing_date": (start + timedelta(days=d)).isoformat(), "port": port,
                             "ground": rnd.choice(grounds), "species": sp, "weight_t": w,
                             "value_eur": int(round(w * 1000 * pr, -1))})

    # annual quota: most vessels well within it for the half year, some over
    landed = {}
    for l in landings:
        landed[l["vessel"]] = landed.get(l["vessel"], 0) + l["weight_t"]
    over = set(rnd.sample([v["vessel"] for v in vessels], 5))
    for v in vessels:
        t = landed.get(v["vessel"], 0)
        if v["vessel"] in over:
            q = t * rnd.uniform(0.72, 0.93)
        else:
            q = t * rnd.uniform(1.15, 2.4)
        v["annual_quota_t"] = int(max(5, round(q / 5) * 5)) if q > 20 else round(q, 1)

    inspections = []
    iid = 300
    for v in vessels:
        for _ in range(rnd.randint(0, 3)):
            iid += rnd.randint(1, 3)
            d = start + timedelta(days=rnd.randint(0, 181))
            r = rnd.random()
            outcome = "compliant" if r < 0.65 else ("warning" if r < 0.85 else "infringement")
            fine = 0 if outcome != "infringement" else rnd.choice([1500, 2500, 4000, 6000, 8500])
            port = v["home_port"] if rnd.random() < 0.8 else rnd.choice([p[0] for p in PORTS])
            inspections.append({"inspection_id": f"INS-{iid}", "vessel": v["vessel"], "inspection_date": d.isoformat(),
                                "port": port, "outcome": outcome, "fine_eur": fine})
    inspections.sort(key=lambda r: (r["inspection_date"], r["inspection_id"]))

    areas = [{"area": a, "parent_area": p, "area_type": t} for a, p, t in SEA_AREAS]
    vessel_cols = ["vessel", "registration", "home_port", "producer_org", "gear", "length_m", "engine_kw",
                   "skipper", "built", "annual_quota_t"]
    vessels = [{k: v[k] for k in vessel_cols} for v in vessels]
    return {
        "sea_areas.csv": areas,
        "ports.csv": ports,
        "vessels.csv": vessels,
        "species.csv": species_rows,
        "landings.csv": landings,
        "inspections.csv": inspections,
    }


def write(folder="."):
    data = Path(folder) / "data"
    data.mkdir(parents=True, exist_ok=True)
    for name, rows in _rows().items():
        with open(data / name, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            w.writeheader()
            w.writerows(rows)


if __name__ == "__main__":
    write(Path(__file__).resolve().parent)
