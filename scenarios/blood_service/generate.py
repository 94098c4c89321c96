"""Seeded data for a national blood service: its sites (a hierarchy of regions, processing centres, donor centres
and mobile units), registered donors with their annual donation limit, donations (January to June 2024, in ml),
hospitals with their quarterly allocation, and the units issued to them in the first quarter of 2024.

Run `python generate.py` (or call write(folder)) to (re)write the CSV files under data/.
"""
import csv
import random
from datetime import date, timedelta
from pathlib import Path

SEED = 7311

# site, parent, type, city
SITES = [
    ("National Blood Service", "", "national", "Watford"),
    ("Northern Region", "National Blood Service", "region", "Leeds"),
    ("Midlands Region", "National Blood Service", "region", "Birmingham"),
    ("Southern Region", "National Blood Service", "region", "Bristol"),
    ("Leeds Processing Centre", "Northern Region", "processing centre", "Leeds"),
    ("Newcastle Processing Centre", "Northern Region", "processing centre", "Newcastle"),
    ("Manchester Processing Centre", "Northern Region", "processing centre", "Manchester"),
    ("Birmingham Processing Centre", "Midlands Region", "processing centre", "Birmingham"),
    ("Nottingham Processing Centre", "Midlands Region", "processing centre", "Nottingham"),
    ("Filton Processing Centre", "Southern Region", "processing centre", "Bristol"),
    ("Southampton Processing Centre", "Southern Region", "processing centre", "Southampton"),
    ("Colindale Processing Centre", "Southern Region", "processing centre", "London"),
    ("Leeds Briggate Donor Centre", "Leeds Processing Centre", "donor centre", "Leeds"),
    ("Bradford Donor Centre", "Leeds Processing Centre", "donor centre", "Bradford"),
    ("Sheffield Donor Centre", "Leeds Processing Centre", "donor centre", "Sheffield"),
    ("Eldon Square Donor Centre", "Newcastle Processing Centre", "donor centre", "Newcastle"),
    ("Sunderland Donor Centre", "Newcastle Processing Centre", "donor centre", "Sunderland"),
    ("Plymouth Grove Donor Centre", "Manchester Processing Centre", "donor centre", "Manchester"),
    ("Liverpool Donor Centre", "Manchester Processing Centre", "donor centre", "Liverpool"),
    ("New Street Donor Centre", "Birmingham Processing Centre", "donor centre", "Birmingham"),
    ("Coventry Donor Centre", "Birmingham Processing Centre", "donor centre", "Coventry"),
    ("Nottingham Donor Centre", "Nottingham Processing Centre", "donor centre", "Nottingham"),
    ("Leicester Donor Centre", "Nottingham Processing Centre", "donor centre", "Leicester"),
    ("Bristol Donor Centre", "Filton Processing Centre", "donor centre", "Bristol"),
    ("Plymouth Donor Centre", "Filton Processing Centre", "donor centre", "Plymouth"),
    ("Southampton Donor Centre", "Southampton Processing Centre", "donor centre", "Southampton"),
    ("Brighton Donor Centre", "Southampton Processing Centre", "donor centre", "Brighton"),
    ("Tooting Donor Centre", "Colindale Processing Centre", "donor centre", "London"),
    ("West End Donor Centre", "Colindale Processing Centre", "donor centre", "London"),
    ("Harrogate Mobile Unit", "Leeds Briggate Donor Centre", "mobile unit", "Harrogate"),
    ("Durham Mobile Unit", "Eldon Square Donor Centre", "mobile unit", "Durham"),
    ("Wigan Mobile Unit", "Plymouth Grove Donor Centre", "mobile unit", "Wigan"),
    ("Chester Mobile Unit", "Liverpool Donor Centre", "mobile unit", "Chester"),
    ("Derby Mobile Unit", "Nottingham Donor Centre", "mobile unit", "Derby"),
    ("Bath Mobile Unit", "Bristol Donor Centre", "mobile unit", "Bath"),
    ("Exeter Mobile Unit", "Plymouth Donor Centre", "mobile unit", "Exeter"),
    ("Kingston Mobile Unit", "Tooting Donor Centre", "mobile unit", "London"),
]

# hospital, city, trust, type, supplying processing centre
HOSPITALS = [
    ("St James's University Hospital", "Leeds", "Leeds Teaching Hospitals", "trauma", "Leeds Processing Centre"),
    ("Leeds General Infirmary", "Leeds", "Leeds Teaching Hospitals", "general", "Leeds Processing Centre"),
    ("Bradford Royal Infirmary", "Bradford", "Bradford Teaching Hospitals", "general", "Leeds Processing Centre"),
    ("Northern General Hospital", "Sheffield", "Sheffield Teaching Hospitals", "trauma", "Leeds Processing Centre"),
    ("Royal Victoria Infirmary", "Newcastle", "Newcastle Hospitals", "trauma", "Newcastle Processing Centre"),
    ("Freeman Hospital", "Newcastle", "Newcastle Hospitals", "specialist", "Newcastle Processing Centre"),
    ("Sunderland Royal Hospital", "Sunderland", "South Tyneside and Sunderland", "general", "Newcastle Processing Centre"),
    ("Manchester Royal Infirmary", "Manchester", "Manchester University Hospitals", "trauma", "Manchester Processing Centre"),
    ("Wythenshawe Hospital", "Manchester", "Manchester University Hospitals", "general", "Manchester Processing Centre"),
    ("Aintree University Hospital", "Liverpool", "Liverpool University Hospitals", "trauma", "Manchester Processing Centre"),
    ("Queen Elizabeth Hospital Birmingham", "Birmingham", "University Hospitals Birmingham", "trauma", "Birmingham Processing Centre"),
    ("Heartlands Hospital", "Birmingham", "University Hospitals Birmingham", "general", "Birmingham Processing Centre"),
    ("Birmingham Children's Hospital", "Birmingham", "Birmingham Women's and Children's", "specialist", "Birmingham Processing Centre"),
    ("University Hospital Coventry", "Coventry", "University Hospitals Coventry and Warwickshire", "trauma", "Birmingham Processing Centre"),
    ("Queen's Medical Centre", "Nottingham", "Nottingham University Hospitals", "trauma", "Nottingham Processing Centre"),
    ("Leicester Royal Infirmary", "Leicester", "University Hospitals of Leicester", "general", "Nottingham Processing Centre"),
    ("Royal Derby Hospital", "Derby", "University Hospitals of Derby and Burton", "general", "Nottingham Processing Centre"),
    ("Southmead Hospital", "Bristol", "North Bristol", "trauma", "Filton Processing Centre"),
    ("Bristol Royal Infirmary", "Bristol", "University Hospitals Bristol and Weston", "general", "Filton Processing Centre"),
    ("Derriford Hospital", "Plymouth", "University Hospitals Plymouth", "trauma", "Filton Processing Centre"),
    ("Southampton General Hospital", "Southampton", "University Hospital Southampton", "trauma", "Southampton Processing Centre"),
    ("Royal Sussex County Hospital", "Brighton", "University Hospitals Sussex", "trauma", "Southampton Processing Centre"),
    ("St George's Hospital", "London", "St George's University Hospitals", "trauma", "Colindale Processing Centre"),
    ("King's College Hospital", "London", "King's College Hospital", "trauma", "Colindale Processing Centre"),
    ("Great Ormond Street Hospital", "London", "Great Ormond Street Hospital for Children", "specialist", "Colindale Processing Centre"),
]

BLOOD_GROUPS = [("O+", 35), ("A+", 30), ("B+", 8), ("AB+", 2), ("O-", 13), ("A-", 8), ("B-", 2), ("AB-", 1)]

FIRST_F = ["Priya", "Aisha", "Emma", "Olivia", "Sophie", "Hannah", "Grace", "Chloe", "Fatima", "Zara", "Megan",
           "Lucy", "Amelia", "Niamh", "Rachel", "Joanna", "Katie", "Siobhan", "Mei", "Ayesha"]
FIRST_M = ["Oliver", "Harry", "Jack", "Mohammed", "Daniel", "Thomas", "Samuel", "Liam", "Rhys", "Connor",
           "Arjun", "Kwame", "Ethan", "Adam", "Joseph", "Callum", "Owen", "Hamza", "Lewis", "Ryan"]
LAST = ["Natarajan", "Okafor", "Whitfield", "Hughes", "Patel", "Kowalski", "Brennan", "Ashworth", "Clarke",
        "Haddad", "Murray", "Sutcliffe", "Osei", "Fairbairn", "Lindqvist", "Rahman", "Doyle", "Pemberton",
        "Mensah", "Greaves", "Tan", "Bhatt", "Holroyd", "McAllister", "Evans", "Kaur", "Novak", "Bailey"]

COMPONENT_ML = {"whole blood": (470, 470), "plasma": (600, 780), "platelets": (220, 320)}


def _rows():
    rnd = random.Random(SEED)
    sites = []
    for s, p, t, c in SITES:
        chairs = rnd.randint(6, 24) if t == "donor centre" else (rnd.randint(3, 6) if t == "mobile unit" else 0)
        sites.append({"site": s, "parent_site": p, "site_type": t, "city": c, "donor_chairs": chairs})
    collection_sites = [s for s, _, t, _ in SITES if t in ("donor centre", "mobile unit")]

    groups = [g for g, w in BLOOD_GROUPS for _ in range(w)]
    donors, used = [], set()
    start = date(2024, 1, 1)
    for _ in range(150):
        sex = rnd.choice("FM")
        while True:
            name = f"{rnd.choice(FIRST_F if sex == 'F' else FIRST_M)} {rnd.choice(LAST)}"
            if name not in used:
                used.add(name)
                break
        home = rnd.choice(collection_sites)
        registered = date(rnd.randint(2004, 2023), rnd.randint(1, 12), rnd.randint(1, 28))
        donors.append({"donor": name, "sex": sex, "blood_group": rnd.choice(groups), "home_centre": home,
                       "registered": registered.isoformat(), "annual_limit": 3 if sex == "F" else 4})

    donations, did = [], 50000
    for d in donors:
        n = rnd.choice([0, 1, 1, 2, 2, 2, 3, 3, 4, 5])
        comp_pref = rnd.choice(["whole blood", "whole blood", "whole blood", "plasma", "platelets"])
        days = sorted(rnd.sample(range(0, 182), n))
        for day in days:
            did += rnd.randint(1, 9)
            site = d["home_centre"] if rnd.random() < 0.85 else rnd.choice(collection_sites)
            comp = comp_pref if rnd.random() < 0.8 else rnd.choice(list(COMPONENT_ML))
            lo, hi = COMPONENT_ML[comp]
            vol = lo if lo == hi else int(round(rnd.uniform(lo, hi), -1))
            donations.append({"donation_id": f"DN-{did}", "donor": d["donor"], "site": site,
                              "donation_date": (start + timedelta(days=day)).isoformat(), "component": comp,
                              "volume_ml": vol})
    donations.sort(key=lambda r: r["donation_id"])

    issues, iid = [], 7000
    hospitals = []
    for h, city, trust, htype, centre in HOSPITALS:
        base = {"trauma": (260, 520), "general": (110, 260), "specialist": (70, 180)}[htype]
        n = rnd.randint(5, 11)
        total = 0
        for _ in range(n):
            iid += rnd.randint(1, 5)
            day = rnd.randint(0, 90)  # Q1 2024
            units = rnd.randint(max(4, base[0] // n // 2), max(8, base[1] // n * 2 // 1))
            src = centre if rnd.random() < 0.85 else rnd.choice([s for s, _, t, _ in SITES if t == "processing centre"])
            issues.append({"issue_id": f"IS-{iid}", "site": src, "hospital": h,
                           "issue_date": (start + timedelta(days=day)).isoformat(),
                           "blood_group": rnd.choice(groups),
                           "component": rnd.choice(["red cells", "red cells", "red cells", "platelets", "plasma"]),
                           "units": units})
            total += units
        if rnd.random() < 0.22:
            alloc = int(round(total * rnd.uniform(0.75, 0.94), -1))
        else:
            alloc = int(round(total * rnd.uniform(1.08, 1.6), -1))
        hospitals.append({"hospital": h, "city": city, "trust": trust, "hospital_type": htype,
                          "allocation_units": alloc})
    issues.sort(key=lambda r: (r["issue_date"], r["issue_id"]))

    return {"sites.csv": sites, "donors.csv": donors, "donations.csv": donations, "hospitals.csv": hospitals,
            "issues.csv": issues}


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
