"""Seeded data for a national football federation's referee department, season 2024-25.

Writes under data/:
  associations.csv  association, parent_association, tier   (national -> regional -> county -> district)
  referees.csv      referee, association, grade, season_match_cap, home_town
  matches.csv       match_id, date, competition, home_team, away_team, venue
  appointments.csv  appointment_id, match_id, referee, role, fee_eur, travel_km
  assessments.csv   match_id, referee, assessor, mark
Run: python generate.py  (or write(folder) from the dataset loader).
"""
import csv
import random
from pathlib import Path

SEED = 2425

NATIONAL = "Aldermark Football Association"
REGIONS = {"Northern Regional FA": ["Harlow County FA", "Brackwater County FA", "Fenmoor County FA"],
           "Southern Regional FA": ["Ashcombe County FA", "Kellingford County FA"],
           "Western Regional FA": ["Tarnside County FA", "Welbury County FA"]}
DISTRICTS = {"Harlow County FA": ["Eastfield District FA", "Harlow Town District FA"],
             "Brackwater County FA": ["Brackwater Vale District FA", "Stenford District FA"],
             "Fenmoor County FA": ["Fenmoor North District FA"],
             "Ashcombe County FA": ["Ashcombe City District FA", "Lydmouth District FA"],
             "Kellingford County FA": ["Kellingford District FA"],
             "Tarnside County FA": ["Tarnside Coast District FA", "Orrinby District FA"],
             "Welbury County FA": ["Welbury District FA"]}
FIRST = ["Tomasz", "Aisha", "Gareth", "Priya", "Luca", "Hannah", "Owen", "Sofia", "Declan", "Marta", "Isaac",
         "Chloe", "Rafael", "Niamh", "Jonas", "Leah", "Callum", "Imogen", "Kwame", "Freya", "Mateo", "Elin"]
LAST = ["Wilk", "Rahman", "Pryce", "Nair", "Ferri", "Lowe", "Madden", "Costa", "Byrne", "Novak", "Achterberg",
        "Holt", "Quintero", "Doyle", "Lindqvist", "Okafor", "Brannigan", "Sutherland", "Mensah", "Caird"]
TOWNS = ["Harlow", "Eastfield", "Stenford", "Brackwater", "Fenmoor", "Ashcombe", "Lydmouth", "Kellingford",
         "Tarnside", "Orrinby", "Welbury"]
COMPETITIONS = {  # competition -> (matches, fees for centre / assistant / fourth official, grades allowed)
    "Premier Division": (26, (180, 110, 80), ["elite"]),
    "First Division": (30, (140, 90, 60), ["elite", "senior"]),
    "Second Division": (30, (100, 70, 50), ["senior", "intermediate"]),
    "Senior Cup": (14, (160, 100, 70), ["elite", "senior"]),
    "Youth League": (24, (60, 40, 30), ["intermediate", "junior"]),
}
TEAMS = ["Harlow Rovers", "Eastfield United", "Stenford Athletic", "Brackwater City", "Fenmoor Town",
         "Ashcombe Albion", "Lydmouth Wanderers", "Kellingford FC", "Tarnside Harriers", "Orrinby Celtic",
         "Welbury Town", "Stenford Rangers", "Harlow Borough", "Ashcombe Villa", "Tarnside Dynamo", "Welbury Swifts"]
ASSESSORS = ["Graham Tollett", "Bernadette Quayle", "Ruairi Fenwick", "Marisol Acheson", "Derek Whitlam",
             "Yvonne Strand", "Colin Ashby", "Petra Halvorsen"]
MONTHS = [(2024, 8), (2024, 9), (2024, 10), (2024, 11), (2024, 12), (2025, 1), (2025, 2), (2025, 3), (2025, 4),
          (2025, 5)]


def build(rng):
    associations = [(NATIONAL, "", "national")]
    for region, counties in REGIONS.items():
        associations.append((region, NATIONAL, "regional"))
        for county in counties:
            associations.append((county, region, "county"))
            for district in DISTRICTS[county]:
                associations.append((district, county, "district"))
    names = [f"{a} {b}" for a in FIRST for b in LAST]
    rng.shuffle(names)
    grades = ["elite"] * 10 + ["senior"] * 18 + ["intermediate"] * 22 + ["junior"] * 20
    referees = []
    members = [a for a, p, t in associations if t in ("district", "county")]
    for grade in grades:
        cap = {"elite": [18, 20, 22, 25], "senior": [10, 12, 14], "intermediate": [6, 8, 10],
               "junior": [4, 5, 6]}[grade]
        assoc = rng.choice(members + [a for a, p, t in associations if t == "district"])
        referees.append((names.pop(), assoc, grade, rng.choice(cap), rng.choice(TOWNS)))
    matches = []
    n = 0
    for comp, (count, fees, allowed) in COMPETITIONS.items():
        for _ in range(count):
            n += 1
            y, m = rng.choice(MONTHS)
            d = rng.randint(1, 28)
            home, away = rng.sample(TEAMS, 2)
            matches.append((f"M{n:03d}", f"{y}-{m:02d}-{d:02d}", comp, home, away, f"{home.split()[0]} Park"))
    matches.sort(key=lambda r: (r[1], r[0]))
    appointments = []
    assessments = []
    a = 0
    weights = {r[0]: rng.choice([1, 1, 2, 3, 4]) for r in referees}
    for mid, date, comp, home, away, venue in matches:
        fees, allowed = COMPETITIONS[comp][1], COMPETITIONS[comp][2]
        pool = [r[0] for r in referees if r[2] in allowed]
        roles = ["centre", "assistant", "assistant"] + (["fourth official"] if comp in
                                                        ("Premier Division", "Senior Cup") else [])
        chosen = []
        while len(chosen) < len(roles):
            pick = rng.choices(pool, weights=[weights[p] for p in pool])[0]
            if pick not in chosen:
                chosen.append(pick)
        for role, ref in zip(roles, chosen):
            a += 1
            fee = fees[["centre", "assistant", "fourth official"].index(role)]
            appointments.append((f"A{a:04d}", mid, ref, role, fee, rng.randint(6, 165)))
            if role == "centre":
                assessments.append((mid, ref, rng.choice(ASSESSORS), round(rng.uniform(7.0, 8.9), 1)))
    return associations, referees, matches, appointments, assessments


def _write(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def write(folder="."):
    data = Path(folder) / "data"
    data.mkdir(parents=True, exist_ok=True)
    associations, referees, matches, appointments, assessments = build(random.Random(SEED))
    _write(data / "associations.csv", ["association", "parent_association", "tier"], associations)
    _write(data / "referees.csv", ["referee", "association", "grade", "season_match_cap", "home_town"], referees)
    _write(data / "matches.csv", ["match_id", "date", "competition", "home_team", "away_team", "venue"], matches)
    _write(data / "appointments.csv", ["appointment_id", "match_id", "referee", "role", "fee_eur", "travel_km"],
           appointments)
    _write(data / "assessments.csv", ["match_id", "referee", "assessor", "mark"], assessments)


if __name__ == "__main__":
    write(Path(__file__).resolve().parent)
