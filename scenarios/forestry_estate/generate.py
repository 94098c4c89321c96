"""Seeded generator for a forest estate: a unit hierarchy (estate > regions > districts > blocks >
compartments), stands with an annual allowable cut, harvesting operations by contractors, and timber
sales to sawmills with a monthly intake cap.  Run: python generate.py  (writes data/*.csv)."""
import csv
import datetime as dt
import random
from pathlib import Path

SEED = 4711

ESTATE = "Caledon Forest Estate"
REGIONS = {
    "Highland Region": ["Glen Affric District", "Strathspey District", "Lochaber District"],
    "Borders Region": ["Tweed Valley District", "Galloway District"],
}
BLOCK_NAMES = [
    "Coire Dubh Block", "Beinn Bhan Block", "Allt Mor Block", "Creag Liath Block", "Loch Garten Block",
    "Torr Achilty Block", "Glen Nevis Block", "Inverlair Block", "Cardrona Block", "Elibank Block",
    "Glentrool Block", "Cairnsmore Block",
]
COMPARTMENT_NAMES = [
    "Fox Covert", "Red Burn", "Dubh Loch", "Heron Wood", "Crow Knowe", "Birch Brae", "Stag Hollow",
    "Juniper Bank", "Otter Pool", "Raven Crag", "Whin Moss", "Alder Flats", "Badger Sett", "Larch Hill",
    "Osprey Point", "Pine Marten Glen", "Bracken Side", "Hazel Dene", "Moss Flow", "Capercaillie Ridge",
    "Curlew Haugh", "Wildcat Corrie", "Rowan Gill", "Eagle Scar", "Cuckoo Den", "Sheiling Park",
    "Mill Lade", "Peat Hag", "Kestrel Edge", "Woodcock Slack", "Lochan Rigg", "Bog Myrtle Flat",
    "Cairn Shoulder", "Falcon Cleuch", "Hare Law", "Tod Hole", "Gled Knowe", "Yew Scaur", "Ash Linn",
    "Heather Dod",
]
SPECIES = [  # species, group
    ("Sitka spruce", "conifer"), ("Scots pine", "conifer"), ("Norway spruce", "conifer"),
    ("European larch", "conifer"), ("Douglas fir", "conifer"), ("Lodgepole pine", "conifer"),
    ("Sessile oak", "broadleaf"), ("Silver birch", "broadleaf"), ("Beech", "broadleaf"),
]
CONTRACTORS = [  # name, base town, certification, day rate GBP
    ("Strathglass Harvesting Ltd", "Beauly", "FSC", 1450),
    ("McAllister Forestry", "Aviemore", "PEFC", 1320),
    ("Ben Wyvis Timber Services", "Dingwall", "FSC", 1510),
    ("Tweedside Tree Contractors", "Peebles", "FSC", 1380),
    ("Gallowa Forest Works", "Newton Stewart", "none", 1190),
    ("Lochaber Logging Co", "Fort William", "PEFC", 1275),
    ("Border Harvesters", "Hawick", "none", 1240),
    ("Spey Valley Forest Ops", "Grantown-on-Spey", "FSC", 1405),
]
HIGHLAND_CONTRACTORS = [0, 1, 2, 5, 7]
BORDERS_CONTRACTORS = [3, 4, 6, 2]
SAWMILLS = [  # name, town, monthly intake cap m3
    ("Inverness Sawmill", "Inverness", 950),
    ("Speyside Timber Mill", "Grantown-on-Spey", 700),
    ("Tweed Valley Sawmills", "Innerleithen", 850),
    ("Solway Board Plant", "Dumfries", 800),
    ("Fort William Chipworks", "Fort William", 450),
]
PRODUCTS = ["sawlog", "pulpwood", "firewood", "biomass chip"]
PRODUCT_MILLS = {  # which mills take which product, by the region the timber comes from
    "Highland Region": {"sawlog": [0, 1], "pulpwood": [0, 3], "firewood": [1, 4], "biomass chip": [4]},
    "Borders Region": {"sawlog": [2, 0], "pulpwood": [3, 2], "firewood": [2, 3], "biomass chip": [3]},
}
PRICE = {"sawlog": (48, 66), "pulpwood": (22, 31), "firewood": (30, 40), "biomass chip": (14, 21)}


def _write(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def write(folder="."):
    rng = random.Random(SEED)
    data = Path(folder) / "data"
    data.mkdir(parents=True, exist_ok=True)

    units = [(ESTATE, "estate", "")]
    compartments = []  # (name, region)
    blocks = list(BLOCK_NAMES)
    comps = list(COMPARTMENT_NAMES)
    block_sizes = [4, 3, 4, 3, 3, 4, 3, 3, 4, 3, 3, 3]  # 40 compartments
    bi = 0
    for region, districts in REGIONS.items():
        units.append((region, "region", ESTATE))
        for district in districts:
            units.append((district, "district", region))
            n_blocks = 3 if district in ("Glen Affric District", "Galloway District") else 2
            for _ in range(n_blocks):
                block = blocks[bi]
                units.append((block, "block", district))
                for _ in range(block_sizes[bi]):
                    c = comps.pop(0)
                    units.append((c, "compartment", block))
                    compartments.append((c, region))
                bi += 1
    assert not comps and bi == len(BLOCK_NAMES)
    _write(data / "units.csv", ["unit", "unit_type", "parent"], units)

    # stands: one main species per compartment
    stands = []
    for c, region in compartments:
        sp, grp = rng.choice(SPECIES[:6] if rng.random() < 0.75 else SPECIES)
        planted = rng.randint(1962, 2001)
        area = round(rng.uniform(8, 65), 1)
        stands.append([c, sp, grp, planted, area, 0])

    # harvests
    contractors = [c[0] for c in CONTRACTORS]
    harvests = []
    hid = 1
    start = dt.date(2024, 1, 8)
    for c, region in compartments:
        n = rng.choice([0, 1, 2, 2, 3, 3, 4, 4, 5, 6])
        pool = HIGHLAND_CONTRACTORS if region == "Highland Region" else BORDERS_CONTRACTORS
        for _ in range(n):
            day = start + dt.timedelta(days=rng.randint(0, 330))
            method = "thinning" if rng.random() < 0.55 else "clearfell"
            product = rng.choices(PRODUCTS, weights=[5, 3, 1, 1])[0]
            vol = rng.randint(40, 160) if method == "thinning" else rng.randint(150, 420)
            harvests.append([None, c, contractors[rng.choice(pool)], day.isoformat(), product, method, vol])
    harvests.sort(key=lambda r: (r[3], r[1]))
    for r in harvests:
        r[0] = f"HV-{hid:03d}"
        hid += 1
    _write(data / "harvests.csv",
           ["harvest_id", "compartment", "contractor", "felling_date", "product", "method", "volume_m3"], harvests)

    # allowable cut: some compartments over
    felled = {}
    for r in harvests:
        felled[r[1]] = felled.get(r[1], 0) + r[6]
    for s in stands:
        f = felled.get(s[0], 0)
        factor = rng.choice([0.8, 0.9, 1.15, 1.25, 1.3, 1.4, 1.5, 1.6, 1.8, 2.0, 1.35, 1.7])
        cap = int(round(max(f * factor, 200) / 50.0) * 50)
        if cap == f:
            cap += 50
        s[5] = cap
    _write(data / "stands.csv",
           ["compartment", "species", "species_group", "planted_year", "area_ha", "allowable_cut_m3"], stands)

    _write(data / "contractors.csv", ["contractor", "base_town", "certification", "day_rate_gbp"], CONTRACTORS)
    _write(data / "sawmills.csv", ["sawmill", "town", "monthly_intake_cap_m3"], SAWMILLS)

    # sales: each harvest goes to one or two mills, delivered within 3 weeks
    sales = []
    sid = 1
    mills = [m[0] for m in SAWMILLS]
    region_of = dict(compartments)
    for r in harvests:
        hv, c, con, day, product, method, vol = r
        options = PRODUCT_MILLS[region_of[c]][product]
        if vol >= 200 and len(options) > 1 and rng.random() < 0.5:
            a = int(vol * rng.uniform(0.4, 0.7))
            parts = [a, vol - a]
            chosen = rng.sample(options, 2)
        else:
            parts = [vol]
            chosen = [rng.choice(options)]
        for v, m in zip(parts, chosen):
            d = dt.date.fromisoformat(day) + dt.timedelta(days=rng.randint(3, 20))
            price = round(rng.uniform(*PRICE[product]), 2)
            sales.append([f"TS-{sid:04d}", hv, mills[m], d.isoformat(), v, price, round(v * price, 2)])
            sid += 1
    _write(data / "sales.csv",
           ["sale_id", "harvest_id", "sawmill", "delivery_date", "volume_m3", "price_gbp_per_m3", "value_gbp"], sales)


if __name__ == "__main__":
    write(Path(__file__).resolve().parent)
