"""Seeded generator for the pigeon_racing dataset: a racing-pigeon federation, its regions, clubs and lofts,
the birds each loft houses, the season's races and every race entry with its velocity, place and prize."""
import csv, random, sys, datetime
from pathlib import Path

FEDERATION = "Anglian Racing Pigeon Federation"
REGIONS = {"Fenland Region": ["Wisbech Flying Club", "March Town Homing Club"],
           "Broadland Region": ["Acle Homing Society", "Wroxham Flying Club"],
           "Breckland Region": ["Thetford Premier Club", "Swaffham Invicta Club"]}
LOFTS = {"Wisbech Flying Club": ["Millstone Loft", "Hawthorn Lane Loft", "Dykeside Loft"],
         "March Town Homing Club": ["Sluice Gate Loft", "Cherry Tree Loft", "Old Forge Loft"],
         "Acle Homing Society": ["Reedbed Loft", "Windpump Loft", "Staithe End Loft"],
         "Wroxham Flying Club": ["Bure Meadow Loft", "Heron Cottage Loft", "Ferry Road Loft"],
         "Thetford Premier Club": ["Warren Lodge Loft", "Flint House Loft", "Priory Loft"],
         "Swaffham Invicta Club": ["Market Cross Loft", "Beacon Hill Loft", "Sandpit Loft"]}
FANCIERS = ["Derek Brundle", "Maureen Fisk", "Alan Peck", "Gordon Thrower", "Linda Cattermole", "Roy Gedge",
            "Keith Utting", "Sandra Bunting", "Trevor Nobbs", "Pauline Larwood", "Colin Spall", "Jean Howes",
            "Barry Mallett", "Sheila Tuck", "Graham Loades", "Wendy Nudd", "Stuart Kerrison", "Brenda Alger"]
TOWNS = ["Wisbech", "Outwell", "March", "Chatteris", "Acle", "Reedham", "Wroxham", "Hoveton", "Thetford",
         "Brandon", "Swaffham", "Narborough"]
ADJ = ["Blue", "Silver", "Copper", "Dark", "Red", "Misty", "Storm", "Lucky", "Swift", "Golden", "Iron", "Velvet",
       "Little", "Black", "Smoky", "Dusty", "Frosty", "Rusty", "Sunny", "Shadow"]
NOUN = ["Arrow", "Lad", "Lass", "Rocket", "Comet", "Duchess", "Baron", "Dancer", "Flyer", "Spirit", "Queen",
        "Prince", "Bullet", "Jewel", "Star", "Meteor", "Pearl", "Ranger", "Whisper", "Gem"]
COLOURS = ["blue_bar", "blue_chequer", "dark_chequer", "red_chequer", "mealy", "pied"]
# race, release point, date, distance km, organising club, entry cap
RACES = [("Peterborough Opener", "Peterborough", "2024-04-13", 62.4, "Wisbech Flying Club", 40),
         ("Newark Sprint", "Newark", "2024-04-27", 118.7, "March Town Homing Club", 35),
         ("Doncaster Classic", "Doncaster", "2024-05-11", 164.2, "Acle Homing Society", 40),
         ("York Minster Race", "York", "2024-05-25", 221.9, "Wroxham Flying Club", 35),
         ("Darlington Cup", "Darlington", "2024-06-08", 302.5, "Thetford Premier Club", 40),
         ("Fougeres Channel Race", "Fougeres", "2024-06-22", 468.3, "Swaffham Invicta Club", 30),
         ("Berwick Open", "Berwick", "2024-07-06", 411.6, "Acle Homing Society", 35),
         ("Bourges National", "Bourges", "2024-07-20", 652.8, "Wisbech Flying Club", 30),
         ("Saintes Marathon", "Saintes", "2024-08-03", 781.4, "Thetford Premier Club", 25),
         ("Perth Young Bird Derby", "Perth", "2024-08-24", 502.2, "Wroxham Flying Club", 30),
         ("Lincoln Young Bird Race", "Lincoln", "2024-09-07", 104.3, "March Town Homing Club", 40),
         ("Selby Season Closer", "Selby", "2024-09-21", 189.6, "Swaffham Invicta Club", 35)]
PRIZES = {"sprint": [60, 40, 30, 20, 15, 10], "middle": [120, 80, 50, 35, 25, 15],
          "long": [250, 150, 100, 60, 40, 25]}


def race_type(km):
    return "sprint" if km < 250 else ("middle" if km < 500 else "long")


def write(folder="."):
    rnd = random.Random(240611)
    d = Path(folder) / "data"
    d.mkdir(parents=True, exist_ok=True)
    units = [(FEDERATION, "federation", "")]
    for region, clubs in REGIONS.items():
        units.append((region, "region", FEDERATION))
        for club in clubs:
            units.append((club, "club", region))
            for loft in LOFTS[club]:
                units.append((loft, "loft", club))
    with open(d / "units.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["unit", "unit_type", "parent_unit"])
        w.writerows(units)
    lofts = []
    all_lofts = [u[0] for u in units if u[1] == "loft"]
    for i, loft in enumerate(all_lofts):
        reg = datetime.date(2008, 1, 1) + datetime.timedelta(days=rnd.randint(0, 5000))
        lofts.append((loft, FANCIERS[i], TOWNS[(i // 3) * 2 + rnd.randint(0, 1)],
                      rnd.choice([12, 14, 16, 18, 20]), reg.isoformat()))
    with open(d / "lofts.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["loft", "fancier", "town", "max_birds", "registered_on"])
        w.writerows(lofts)
    names = [f"{a} {n}" for a in ADJ for n in NOUN]
    rnd.shuffle(names)
    pigeons = []
    k = 0
    for loft, _, _, cap, _ in lofts:
        for _ in range(rnd.randint(cap - 6, cap + 2)):
            nm = names[k]; k += 1
            yr = rnd.choice([2020, 2021, 2022, 2023, 2023, 2024, 2024])
            ring = f"GB{yr % 100:02d}{rnd.choice('ABCDEFN')}{rnd.randint(10000, 99999)}"
            pigeons.append((nm, ring, loft, rnd.choice(COLOURS), rnd.choice(["cock", "hen"]), yr))
    with open(d / "pigeons.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["pigeon", "ring_number", "loft", "colour", "sex", "hatch_year"])
        w.writerows(pigeons)
    with open(d / "races.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["race", "release_point", "race_date", "distance_km", "race_type", "organising_club", "max_entries"])
        for r in RACES:
            w.writerow([r[0], r[1], r[2], r[3], race_type(r[3]), r[4], r[5]])
    entries = []
    e = 0
    for race, _, date, km, _, cap in RACES:
        young = "Young Bird" in race
        pool = [p for p in pigeons if (p[5] == 2024) == young]
        n = min(len(pool), rnd.randint(cap - 8, cap + 3))
        field = rnd.sample(pool, n)
        base = 1500 - km * 0.45
        vel = {p[0]: round(base + rnd.uniform(-160, 160), 2) for p in field}
        order = sorted(field, key=lambda p: -vel[p[0]])
        assert len(set(vel.values())) == len(vel)
        prizes = PRIZES[race_type(km)]
        for pos, p in enumerate(order, 1):
            e += 1
            prize = prizes[pos - 1] if pos <= len(prizes) else 0
            entries.append((f"EN-{e:04d}", race, date, p[0], p[2], vel[p[0]], pos, prize))
    with open(d / "race_entries.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["entry_id", "race", "race_date", "pigeon", "loft", "velocity_mpm", "position", "prize_gbp"])
        w.writerows(entries)


if __name__ == "__main__":
    write(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent)
