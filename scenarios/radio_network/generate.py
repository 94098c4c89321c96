"""Seeded data for a commercial radio group.

Writes data/*.csv: the group's structure (group, networks, regions, stations), the stations, their programmes and
presenters, advertisers with their campaign budgets, every advertising spot aired from January to June 2024,
quarterly audience figures and listener complaints.  Run `python generate.py` or call write(folder).
"""
import csv
import random
import sys
from datetime import date, timedelta
from pathlib import Path

SEED = 7311

GROUP = "Skyline Radio Group"
NETWORKS = {
    "Skyline Hits Network": {
        "Hits North": ["Harbourline FM", "Pennine Beat", "Tyne Wave 104"],
        "Hits South": ["Coastline FM", "Solent Sound", "Downs FM"],
        "Hits Midlands": ["Valley Sound", "Trent Radio"],
        None: ["Metro Hits 101", "Skyline Hits Live"],
    },
    "Skyline Gold Network": {
        "Gold West": ["Severn Gold", "Cornish Gold", "Avon Classic Hits"],
        "Gold East": ["Fenland Gold", "Anglia Gold"],
    },
    "Skyline Talk Network": {
        None: ["Metro Talk", "Skyline Sport Talk"],
    },
}
CITY = {"Harbourline FM": "Hartlepool", "Pennine Beat": "Huddersfield", "Tyne Wave 104": "Newcastle",
        "Coastline FM": "Brighton", "Solent Sound": "Southampton", "Downs FM": "Crawley",
        "Valley Sound": "Derby", "Trent Radio": "Nottingham", "Metro Hits 101": "London",
        "Skyline Hits Live": "London", "Severn Gold": "Gloucester", "Cornish Gold": "Truro",
        "Avon Classic Hits": "Bristol", "Fenland Gold": "Peterborough", "Anglia Gold": "Norwich",
        "Metro Talk": "London", "Skyline Sport Talk": "Manchester"}
SHORT = {"Harbourline FM": "Harbourline", "Pennine Beat": "Pennine", "Tyne Wave 104": "Tyne Wave",
         "Coastline FM": "Coastline", "Solent Sound": "Solent", "Downs FM": "Downs", "Valley Sound": "Valley",
         "Trent Radio": "Trent", "Metro Hits 101": "Metro Hits", "Skyline Hits Live": "Hits Live",
         "Severn Gold": "Severn Gold", "Cornish Gold": "Cornish Gold", "Avon Classic Hits": "Avon",
         "Fenland Gold": "Fenland", "Anglia Gold": "Anglia Gold"}
TALK_SHOWS = {
    "Metro Talk": [("Morning Debate", "talk", "breakfast"), ("The Midday Phone-In", "talk", "daytime"),
                        ("Metro Talk Drive", "talk", "drive"), ("Late Lines", "talk", "late night"),
                        ("The Weekend Papers", "news", "weekend")],
    "Skyline Sport Talk": [("Kick-Off Breakfast", "sport", "breakfast"), ("Touchline Live", "sport", "daytime"),
                           ("The Final Whistle", "sport", "drive"), ("Fans' Forum", "sport", "evening")],
}
MUSIC_SLOTS = [("Breakfast", "music", "breakfast"), ("Mid-Morning", "music", "daytime"),
               ("Afternoons", "music", "daytime"), ("Drive", "music", "drive"), ("Evenings", "music", "evening"),
               ("News Hour", "news", "daytime"), ("Saturday Sport", "sport", "weekend"),
               ("Sunday Love Songs", "music", "weekend")]
SLOT_FACTOR = {"breakfast": 1.6, "drive": 1.4, "daytime": 1.0, "evening": 0.7, "late night": 0.5, "weekend": 0.8}

FIRST = ["Jo", "Marcus", "Priya", "Dan", "Sophie", "Gareth", "Leanne", "Tom", "Aisha", "Rob", "Kerry", "Dev",
         "Hannah", "Callum", "Nadia", "Steve", "Becky", "Owen", "Fiona", "Raj", "Lucy", "Gav", "Mel", "Jamie",
         "Zoe", "Niall", "Tara", "Chris", "Amira", "Pete"]
LAST = ["Casey", "Holloway", "Banerjee", "Whitfield", "Okafor", "Pryce", "Dunmore", "Hartley", "Sandhu",
        "McLeod", "Fairweather", "Quigley", "Baptiste", "Rourke", "Lindqvist", "Ashdown", "Mensah", "Kettle",
        "Delaney", "Brookes", "Iversen", "Tully", "Marchbank", "Penhaligon", "Varga"]
AGENTS = ["Bluebird Talent", "Northstar Management", "Loudhouse Artists", "Fenwick & Gray", "Studio Nine Agency",
          "Redline Talent", "Open Mic Management"]
ADVERTISERS = [
    ("Tarrant Motors", "automotive"), ("Brightwater Energy", "utilities"), ("Halden Home Furnishings", "retail"),
    ("Pelham Building Society", "finance"), ("Greenleaf Supermarkets", "retail"), ("Oakridge Kitchens", "retail"),
    ("Castell Car Sales", "automotive"), ("Northway Rail", "travel"), ("SunSeeker Holidays", "travel"),
    ("Marlowe Solicitors", "professional services"), ("QuickFix Plumbing", "home services"),
    ("Fresh Bake Bakeries", "food and drink"), ("Hollis Opticians", "health"), ("Vantage Broadband", "telecoms"),
    ("Redhill Garden Centres", "retail"), ("Summit Gyms", "leisure"), ("Aldbury Estate Agents", "property"),
    ("Crownfield Brewery", "food and drink"), ("Peak Tyres", "automotive"), ("Lumen Dental", "health"),
    ("Bayside Furniture Outlet", "retail"), ("Kingsway Insurance Brokers", "finance"),
    ("Moorland Water Park", "leisure"), ("Sterling Windows", "home services"), ("Ember Pizza", "food and drink"),
    ("Cityline Taxis", "travel"), ("Fairmont Jewellers", "retail"), ("Orbit Electronics", "retail"),
    ("Westbrook College", "education"), ("Hartwell Care Homes", "health"), ("Gable Roofing", "home services"),
    ("Nova Mobile", "telecoms"), ("Riverside Theatre", "entertainment"), ("Sprocket Cycles", "retail"),
]
MEDIA_AGENCIES = ["Carat Direct", "Mediahaus", "Spotlight Buying", "in-house", "Wavelength Media"]
COMPLAINT_CATS = ["offensive language", "accuracy", "fairness", "advertising content", "competition rules",
                  "harm to children"]


def _write(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def write(folder):
    rng = random.Random(SEED)
    data = Path(folder) / "data"
    data.mkdir(parents=True, exist_ok=True)

    units = [(GROUP, "group", "")]
    stations = []
    for net, regions in NETWORKS.items():
        units.append((net, "network", GROUP))
        for region, sts in regions.items():
            parent = net
            if region is not None:
                units.append((region, "region", net))
                parent = region
            for s in sts:
                units.append((s, "station", parent))
                stations.append(s)
    _write(data / "units.csv", ["unit", "unit_type", "parent_unit"], units)

    people = [f"{f} {l}" for f in FIRST for l in LAST]
    rng.shuffle(people)
    pi = 0

    srows = []
    base_rate = {}
    used_freq = set()
    for s in stations:
        while True:
            freq = round(rng.uniform(88.1, 107.9), 1)
            if freq not in used_freq:
                used_freq.add(freq)
                break
        if s == "Tyne Wave 104":
            freq = 104.0
        if s == "Metro Hits 101":
            freq = 101.1
        manager = people[pi]; pi += 1
        srows.append((s, CITY[s], freq, rng.randint(1974, 2016), manager))
        base_rate[s] = rng.choice([60, 80, 95, 110, 130, 160, 220])
    _write(data / "stations.csv", ["station", "city", "frequency_mhz", "launch_year", "station_manager"], srows)

    programmes = []
    presenters = []
    for s in stations:
        if s in TALK_SHOWS:
            shows = TALK_SHOWS[s]
        else:
            k = rng.randint(4, 6)
            shows = [(f"{SHORT[s]} {name}", g, slot) for name, g, slot in
                     MUSIC_SLOTS[:5][:k] + rng.sample(MUSIC_SLOTS[5:], rng.randint(0, 2))]
        for name, genre, slot in shows:
            p = people[pi]; pi += 1
            presenters.append(p)
            programmes.append((name, s, p, slot, genre))
    _write(data / "programmes.csv", ["programme", "station", "presenter", "slot", "genre"], programmes)

    prow = []
    for p in presenters:
        end = date(2024, 3, 1) + timedelta(days=rng.randint(0, 1000))
        prow.append((p, rng.choice(AGENTS), end.isoformat(), rng.choice(["staff", "freelance", "freelance"])))
    _write(data / "presenters.csv", ["presenter", "agent", "contract_end", "contract_type"], prow)

    # spots
    adv_weight = [rng.uniform(0.3, 3.0) for _ in ADVERTISERS]
    # each advertiser buys on a handful of stations
    adv_stations = {a: rng.sample(stations, rng.randint(2, 6)) for a, _ in ADVERTISERS}
    adv_stations["Brightwater Energy"] = [s for s in adv_stations["Brightwater Energy"] if s != "Metro Talk"]
    if "Valley Sound" not in adv_stations["Brightwater Energy"]:
        adv_stations["Brightwater Energy"].append("Valley Sound")
    prog_by_station = {}
    for name, s, p, slot, genre in programmes:
        prog_by_station.setdefault(s, []).append((name, slot))
    spots = []
    for i in range(1, 861):
        a, _ = rng.choices(ADVERTISERS, adv_weight)[0]
        s = rng.choice(adv_stations[a])
        prog, slot = rng.choice(prog_by_station[s])
        d = date(2024, 1, 1) + timedelta(days=rng.randint(0, 181))
        dur = rng.choice([20, 30, 30, 30, 40, 60])
        price = round(base_rate[s] * SLOT_FACTOR[slot] * dur / 30 * rng.uniform(0.85, 1.2))
        spots.append((f"SP-{i:05d}", prog, a, d.isoformat(), dur, price))
    spots.sort(key=lambda r: (r[3], r[0]))
    _write(data / "ad_spots.csv", ["spot_id", "programme", "advertiser", "air_date", "duration_s", "price_gbp"],
           spots)

    spend = {}
    for r in spots:
        spend[r[2]] = spend.get(r[2], 0) + r[5]
    arow = []
    for a, sector in ADVERTISERS:
        total = spend.get(a, 0)
        budget = int(round(max(total, 500) * rng.uniform(0.82, 1.35), -2))
        arow.append((a, sector, rng.choice(MEDIA_AGENCIES), budget))
    _write(data / "advertisers.csv", ["advertiser", "sector", "media_agency", "campaign_budget_gbp"], arow)

    aud = []
    for s in stations:
        reach = rng.randint(40, 900)
        for q in ["2024-Q1", "2024-Q2"]:
            r = int(reach * rng.uniform(0.9, 1.1))
            aud.append((s, q, r, round(r * rng.uniform(6.5, 11.5))))
    _write(data / "audience.csv", ["station", "quarter", "weekly_reach_thousands", "listening_hours_thousands"], aud)

    comp = []
    pw = [4 if n == "Late Lines" else (2 if g in ("talk", "sport") else 0.6) for n, s, p, sl, g in programmes]
    for i in range(1, 121):
        prog = rng.choices(programmes, pw)[0][0]
        d = date(2024, 1, 1) + timedelta(days=rng.randint(0, 181))
        cat = rng.choice(COMPLAINT_CATS)
        outcome = rng.choices(["upheld", "not upheld", "resolved by broadcaster"], [2, 5, 3])[0]
        comp.append((f"CMP-{i:04d}", prog, d.isoformat(), cat, outcome))
    _write(data / "complaints.csv", ["complaint_id", "programme", "received_date", "category", "outcome"], comp)


if __name__ == "__main__":
    write(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent)
