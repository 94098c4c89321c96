"""Seeded generator of the recording_studios dataset: studios, rooms, engineers and sessions."""
import csv
import os
import random
import sys

SEED = 4711

STUDIOS = [
    ("Abbey Lane Studios", "London", 1998),
    ("Copperline Sound", "Manchester", 2006),
    ("Harbourside Recording", "Bristol", 2011),
    ("Northlight Audio", "Glasgow", 2003),
    ("Red Kite Studios", "Cardiff", 2015),
    ("Saltmarsh Studio", "Norwich", 2019),
]
ROOM_TYPES = ["tracking", "mixing", "mastering", "rehearsal"]
RATES = {"tracking": (70, 120), "mixing": (55, 90), "mastering": (80, 140), "rehearsal": (20, 40)}
CAPS = {"tracking": 30, "mixing": 25, "mastering": 20, "rehearsal": 40}
SHORT = {"Abbey Lane Studios": "Abbey Lane", "Copperline Sound": "Copperline", "Harbourside Recording": "Harbourside",
         "Northlight Audio": "Northlight", "Red Kite Studios": "Red Kite", "Saltmarsh Studio": "Saltmarsh"}
TYPE_NAMES = {"tracking": "Live Room", "mixing": "Mix Suite", "mastering": "Mastering Lab", "rehearsal": "Rehearsal Hall"}
ARTISTS = ["Velvet Harbour", "The Lantern Kids", "Mira Okafor", "Glass Orchard", "Dune Radio", "Pennyworth Choir",
           "Silas Brandt", "Neon Tides", "The Quiet Foxes", "Aurelia Stone", "Brass Meridian", "Hollow Pines",
           "Juno Vance", "The Paper Kites Club"]
FIRST = ["Ada", "Ben", "Cleo", "Dev", "Esme", "Finn", "Gia", "Hugo", "Isla", "Jonah", "Kit", "Lena", "Milo",
         "Nadia", "Otis", "Priya", "Quinn", "Rosa", "Theo", "Una", "Vik", "Wren", "Yusuf", "Zara"]
LAST = ["Achebe", "Blackwood", "Carver", "Dimitrov", "Ellison", "Farrow", "Greer", "Halloran", "Iqbal", "Jensen",
        "Kowalski", "Lindqvist", "Moreno", "Nakamura", "Oduya", "Pryce", "Quill", "Rossi", "Sato", "Thorne"]


def _write(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def write(folder):
    rng = random.Random(SEED)
    data = os.path.join(folder, "data")
    os.makedirs(data, exist_ok=True)
    studios = [(s, c, y) for s, c, y in STUDIOS]
    rooms = []
    for s, _, _ in STUDIOS:
        n = rng.randint(3, 5)
        types = ["tracking", "mixing"] + [rng.choice(ROOM_TYPES) for _ in range(n - 2)]
        seen = {}
        for t in types:
            seen[t] = seen.get(t, 0) + 1
            room = f"{SHORT[s]} {TYPE_NAMES[t]}" + ("" if seen[t] == 1 else f" {seen[t]}")
            lo, hi = RATES[t]
            rooms.append((room, s, t, rng.randint(lo, hi), CAPS[t]))
    names = set()
    engineers = []
    for s, _, _ in STUDIOS:
        staff = []
        for i in range(4):
            while True:
                n = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
                if n not in names:
                    names.add(n)
                    break
            grade = "chief" if i == 0 else ("senior" if i == 1 else "assistant")
            sup = "" if i == 0 else (staff[0] if i == 1 else staff[1])
            staff.append(n)
            engineers.append((n, s, grade, sup))
    sessions = []
    sid = 1
    for _ in range(320):
        room = rng.choice(rooms)
        studio = room[1]
        eng = rng.choice([e[0] for e in engineers if e[1] == studio])
        month = rng.randint(1, 6)
        day = rng.randint(1, 28)
        hours = rng.choice([2, 3, 4, 4, 6, 8, 8, 10])
        fee = hours * room[3]
        sessions.append((f"S{sid:04d}", room[0], rng.choice(ARTISTS), eng, f"2024-{month:02d}-{day:02d}", f"2024-{month:02d}", hours, fee))
        sid += 1
    _write(os.path.join(data, "studios.csv"), ["studio", "city", "opened_year"], studios)
    _write(os.path.join(data, "rooms.csv"), ["room", "studio", "room_type", "hourly_rate_gbp", "monthly_hour_cap"], rooms)
    _write(os.path.join(data, "engineers.csv"), ["engineer", "studio", "grade", "supervisor"], engineers)
    _write(os.path.join(data, "sessions.csv"),
           ["session_id", "room", "artist", "engineer", "session_date", "month", "hours", "fee_gbp"], sessions)


if __name__ == "__main__":
    write(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__)))
