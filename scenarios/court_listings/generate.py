"""Seeded generator for the court_listings dataset: a courts service's circuits, areas,
court centres and courtrooms, its judges, cases and the hearings listed in the first half of 2025."""
import csv
import random
import sys
from datetime import date, timedelta
from pathlib import Path

SEED = 20250611

CIRCUITS = {
    "Northern Circuit": {
        "Tynedale Area": ["Harbourgate Justice Centre", "Kestrel Street Law Courts"],
        "Pennine Area": ["Ashdown Combined Court", "Brackenfield Crown Court", "Coldwell County Court"],
    },
    "Midland Circuit": {
        "Trent Vale Area": ["Dunmere Magistrates Court", "Eastleigh Vale Justice Centre"],
        "Severn Area": ["Fernhollow Family Court", "Greystone Crown Court"],
    },
    "Western Circuit": {
        "Avonmouth Area": ["Hollins Cross Law Courts", "Ivybridge Row Combined Court"],
        "Dartmoor Area": ["Juniper Quay Justice Centre", "Larkspur Hill County Court",
                          "Marlow Fields Magistrates Court"],
    },
}

# courtroom prefix and the kinds of work each centre takes
CENTRES = {
    "Harbourgate Justice Centre": ("Harbourgate", 5, ["criminal", "civil", "family"]),
    "Kestrel Street Law Courts": ("Kestrel Street", 4, ["civil", "family"]),
    "Ashdown Combined Court": ("Ashdown", 3, ["criminal", "civil"]),
    "Brackenfield Crown Court": ("Brackenfield", 4, ["criminal"]),
    "Coldwell County Court": ("Coldwell", 3, ["civil"]),
    "Dunmere Magistrates Court": ("Dunmere", 3, ["criminal"]),
    "Eastleigh Vale Justice Centre": ("Eastleigh Vale", 4, ["criminal", "civil", "family"]),
    "Fernhollow Family Court": ("Fernhollow", 3, ["family"]),
    "Greystone Crown Court": ("Greystone", 5, ["criminal"]),
    "Hollins Cross Law Courts": ("Hollins Cross", 3, ["civil", "family"]),
    "Ivybridge Row Combined Court": ("Ivybridge Row", 4, ["criminal", "civil"]),
    "Juniper Quay Justice Centre": ("Juniper Quay", 3, ["criminal", "family"]),
    "Larkspur Hill County Court": ("Larkspur Hill", 2, ["civil"]),
    "Marlow Fields Magistrates Court": ("Marlow Fields", 3, ["criminal"]),
}

JUDGE_FIRST = ["Amelia", "Owen", "Priya", "Gareth", "Helena", "Marcus", "Nadia", "Ruth", "Simon", "Tobias",
               "Ursula", "Victor", "Winifred", "Yusuf", "Beatrice", "Callum", "Delphine", "Edmund", "Fiona",
               "Gideon", "Harriet", "Imran", "Josephine", "Laurence", "Miriam", "Nathaniel", "Olivia",
               "Patrick", "Rosalind", "Stephen"]
JUDGE_LAST = ["Hartley", "Tranter", "Ramsden", "Okonjo", "Fairbairn", "Whitcombe", "Lindqvist", "Ashcroft",
              "Mbeki", "Drummond", "Kavanagh", "Pemberton", "Sandoval", "Thackeray", "Villiers", "Broadhurst",
              "Cholmondeley", "Devereux", "Eastwood", "Fitzgerald", "Galloway", "Holloway", "Ingleby",
              "Jessop", "Kingsley", "Lockhart", "Marchbank", "Northcote", "Oyelaran", "Pryce"]
TITLES = ["Circuit Judge", "District Judge", "Recorder", "Deputy District Judge"]

PARTY_SURNAMES = ["Pellow", "Cobb", "Dawes", "Arkwright", "Blenkinsop", "Carver", "Dimmock", "Ellery",
                  "Frobisher", "Gaskell", "Hebden", "Iveson", "Jarrold", "Kettle", "Lumley", "Mottram",
                  "Nuttall", "Ormerod", "Pickles", "Quarmby", "Rushworth", "Sowerby", "Tetley", "Uttley",
                  "Varley", "Wadsworth", "Yeadon", "Ackroyd", "Barraclough", "Crabtree", "Dobson", "Eccles",
                  "Fawcett", "Greenwood", "Haigh", "Illingworth", "Jowett", "Kershaw", "Lister", "Moorhouse",
                  "Naylor", "Oldroyd", "Priestley", "Rhodes", "Shackleton", "Thwaite", "Whiteley", "Holroyd",
                  "Brearley", "Cawthorne", "Denby", "Emmott", "Firth", "Gledhill", "Hirst", "Jagger",
                  "Kitson", "Lumb", "Midgley", "Normington", "Oates", "Pollard", "Redfearn", "Stansfield",
                  "Tordoff", "Walshaw", "Ambler", "Bottomley", "Clegg", "Dyson", "Exley", "Fearnley",
                  "Gomersall", "Horsfall", "Ibbotson", "Jubb", "Kaye", "Longbottom", "Marsden", "Netherwood",
                  "Ogden", "Pearson", "Robertshaw", "Sugden", "Townend", "Wainwright", "Armitage", "Booth",
                  "Cockcroft", "Drake", "Empsall", "Fieldhouse", "Garside", "Hanson", "Ingham", "Jennings",
                  "Kellett", "Laycock", "Mellor", "Nicholl", "Outhwaite", "Parkin", "Ramsbottom", "Schofield",
                  "Tattersall", "Whitaker", "Binns", "Crowther", "Dewhirst", "Ellis", "Foulds", "Greaves",
                  "Heaton", "Jackson", "Knowles", "Lightowler", "Murgatroyd", "Nettleton", "Ridsdale", "Speight"]
COMPANIES = ["Northfield Homes", "Calder Motors", "Brigg Logistics", "Aire Valley Lettings", "Wharfe Builders",
             "Ribble Finance", "Swale Insurance Brokers", "Nidd Electrical", "Ure Haulage", "Dove Estates",
             "Holme Property", "Colne Roofing", "Esk Garages", "Lune Windows", "Wyre Kitchens"]

HEARING_TYPES = {
    "criminal": ["plea hearing", "trial", "sentencing", "mention"],
    "civil": ["case management", "trial", "small claims hearing", "application"],
    "family": ["first hearing", "fact-finding", "final hearing", "directions"],
}
OUTCOMES = ["concluded", "adjourned", "part-heard", "vacated"]


def _write(path: Path, header, rows):
    with path.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(rows)


def write(folder):
    folder = Path(folder)
    data = folder / "data"
    data.mkdir(parents=True, exist_ok=True)
    rng = random.Random(SEED)

    units, courtrooms = [], []
    centre_circuit, centre_rooms = {}, {}
    for circuit, areas in CIRCUITS.items():
        units.append((circuit, "circuit", ""))
        for area, centres in areas.items():
            units.append((area, "area", circuit))
            for centre in centres:
                units.append((centre, "court centre", area))
                centre_circuit[centre] = circuit
                prefix, n, kinds = CENTRES[centre]
                rooms = []
                for i in range(1, n + 1):
                    room = f"{prefix} Court {i}"
                    units.append((room, "courtroom", centre))
                    seats = rng.choice([24, 30, 36, 40, 48, 60, 72, 90])
                    video = rng.random() < 0.55
                    kind = "jury" if "criminal" in kinds and i <= max(1, n // 2) and "Magistrates" not in centre \
                        else ("family hearing room" if kinds == ["family"] else "non-jury")
                    courtrooms.append((room, centre, seats, "yes" if video else "no", kind))
                    rooms.append(room)
                centre_rooms[centre] = rooms
    # guarantee a unique largest courtroom at Brackenfield
    courtrooms = [(r, c, (96 if r == "Brackenfield Court 2" else (s if s < 96 else 90)), v, k)
                  for r, c, s, v, k in courtrooms]
    _write(data / "court_units.csv", ["unit", "unit_type", "parent"], units)
    _write(data / "courtrooms.csv", ["courtroom", "court_centre", "seats", "video_link", "room_type"], courtrooms)

    # judges: based at a centre, sit across their circuit
    judges = []
    used = set()
    centres = list(CENTRES)
    for i in range(30):
        name = f"{JUDGE_FIRST[i]} {JUDGE_LAST[(i * 7) % 30]}"
        assert name not in used
        used.add(name)
        title = TITLES[i % 4] if i >= 4 else TITLES[i % 2]
        home = centres[i % len(centres)]
        year = rng.randint(2004, 2023)
        judges.append((name, title, home, year))
    _write(data / "judges.csv", ["judge", "title", "home_centre", "appointed_year"], judges)
    judges_by_circuit = {}
    for j in judges:
        judges_by_circuit.setdefault(centre_circuit[j[2]], []).append(j[0])

    # cases
    cases = []
    surnames = PARTY_SURNAMES[:]
    rng.shuffle(surnames)
    companies = COMPANIES[:]
    si = 0
    ci = 0
    for n in range(96):
        centre = centres[n % len(centres)] if n < 84 else rng.choice(centres)
        kind = rng.choice(CENTRES[centre][2])
        s = surnames[si]
        si += 1
        if kind == "criminal":
            name = f"R v {s}"
            prefix = "T"
        elif kind == "civil":
            if ci < len(companies) and rng.random() < 0.5:
                name = f"{s} v {companies[ci]}"
                ci += 1
            else:
                s2 = surnames[si]
                si += 1
                name = f"{s} v {s2}"
            prefix = "K"
        else:
            name = f"Re {s} children"
            prefix = "F"
        filed = date(2024, 7, 1) + timedelta(days=rng.randint(0, 250))
        number = f"{prefix}{filed.year}{1000 + rng.randint(0, 8999):04d}"
        estimate = {"criminal": rng.choice([2, 4, 6, 8, 12, 16, 24]),
                    "civil": rng.choice([1, 2, 3, 5, 8, 10, 15]),
                    "family": rng.choice([2, 3, 4, 6, 9, 12])}[kind]
        cases.append([number, name, kind, centre, filed.isoformat(), estimate])
    names = [c[1] for c in cases]
    assert len(set(names)) == len(names)

    # hearings, January to June 2025
    hearings = []
    hid = 1
    status = {}
    for case in cases:
        number, name, kind, centre, filed, estimate = case
        n_h = rng.choice([1, 2, 3, 3, 4, 4, 5, 6, 7])
        rooms = centre_rooms[centre]
        pool = judges_by_circuit[centre_circuit[centre]]
        lead = rng.choice(pool)
        day = max(date.fromisoformat(filed) + timedelta(days=rng.randint(14, 60)),
                  date(2025, 1, 6) + timedelta(days=rng.randint(0, 110)))
        total = 0.0
        last_outcome = None
        for k in range(n_h):
            while day.weekday() >= 5:
                day += timedelta(days=1)
            if day > date(2025, 6, 30):
                day = date(2025, 6, 30) - timedelta(days=rng.randint(0, 20))
                while day.weekday() >= 5:
                    day -= timedelta(days=1)
            judge = lead if rng.random() < 0.7 else rng.choice(pool)
            htype = HEARING_TYPES[kind][min(k, 3) if k < n_h - 1 else rng.choice([1, 2])]
            if htype in ("trial", "fact-finding", "final hearing"):
                hours = rng.choice([3.0, 4.5, 5.0, 5.5, 6.0, 10.0, 11.0])
            else:
                hours = rng.choice([0.5, 1.0, 1.5, 2.0])
            outcome = rng.choices(OUTCOMES, weights=[45, 30, 15, 10])[0]
            if outcome == "vacated":
                hours = 0.0
            room = rng.choice(rooms)
            hearings.append((f"H{hid:04d}", name, room, judge, day.isoformat(), htype, hours, outcome))
            hid += 1
            total += hours
            last_outcome = outcome
            day += timedelta(days=rng.randint(7, 28))
        status[name] = "concluded" if last_outcome == "concluded" else "open"
        # the listing office's time estimate: set when the case was filed, often optimistic
        heard = total if total > 0 else 2.0
        case[5] = max(1, int(round(heard * rng.choice([0.6, 0.75, 0.9, 1.0, 1.1, 1.25, 1.4, 1.6]))))
    case_rows = [(c[0], c[1], c[2], c[3], c[4], status[c[1]], c[5]) for c in cases]
    _write(data / "cases.csv", ["case_number", "case_name", "case_type", "court_centre", "filed_date", "status",
                                "time_estimate_hours"], case_rows)
    _write(data / "hearings.csv", ["hearing_id", "case_name", "courtroom", "judge", "hearing_date",
                                   "hearing_type", "hours", "outcome"], hearings)


if __name__ == "__main__":
    write(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent)
