"""Seeded generator for the patent_office dataset: a patent office's directorates, divisions and examining
groups, its examiners, the applicants, their applications and the fees paid on them."""
import csv, random, sys, datetime
from pathlib import Path

OFFICE = "Northbridge Patent Office"
TREE = {
    "Chemistry Directorate": {
        "Organic Chemistry Division": ["Polymers Group", "Pharmaceuticals Group", "Agrochemicals Group"],
        "Materials Division": ["Metallurgy Group", "Ceramics Group"],
    },
    "Engineering Directorate": {
        "Mechanical Division": ["Engines Group", "Robotics Group", "Fluid Power Group"],
        "Civil Engineering Division": ["Structures Group", "Hydraulics Group"],
    },
    "Electronics Directorate": {
        "Computing Division": ["Software Group", "Cryptography Group", "Semiconductors Group"],
        "Communications Division": ["Antennas Group", "Optics Group"],
    },
}
FIRST = ["Priya", "Tomasz", "Eleanor", "Kwame", "Ingrid", "Rafael", "Mei", "Declan", "Sanna", "Oluwaseun", "Beatriz",
         "Henrik", "Yusuf", "Clara", "Matteo", "Anouk", "Dmitri", "Fiona", "Hiroshi", "Leila", "Gareth", "Noor",
         "Pavel", "Rosalind", "Tariq", "Agnieszka", "Callum", "Ines", "Joaquin", "Marguerite"]
LAST = ["Nandakumar", "Wierzbicki", "Ashcombe", "Mensah", "Lindqvist", "Carvalho", "Zhao", "Brennock", "Virtanen",
        "Adeyemi", "Salgado", "Norgaard", "Demir", "Hartwell", "Ricci", "Verhoeven", "Sokolov", "Galbraith",
        "Okabe", "Haddad", "Pryce", "Rahimi", "Dvorak", "Everard", "Qureshi", "Kowalczyk", "Strachan", "Moreira",
        "Ibarra", "Delacroix"]
# applicant, type, country, groups it files in, number of applications
APPLICANTS = [
    ("Kestrel Dynamics", "corporation", "United Kingdom", ["Robotics Group", "Engines Group", "Software Group"], 11),
    ("Aurelia Pharma", "corporation", "Switzerland", ["Pharmaceuticals Group", "Polymers Group"], 10),
    ("Brightwater Polymers", "corporation", "Netherlands", ["Polymers Group", "Ceramics Group"], 7),
    ("University of Castlemere", "university", "United Kingdom", ["Semiconductors Group", "Optics Group", "Pharmaceuticals Group"], 8),
    ("Halvorsen Marine Systems", "corporation", "Norway", ["Hydraulics Group", "Fluid Power Group", "Engines Group"], 7),
    ("Ostrava Robotics", "startup", "Czech Republic", ["Robotics Group"], 4),
    ("Tanaka Optical Works", "corporation", "Japan", ["Optics Group", "Antennas Group"], 8),
    ("Lumen Semiconductor", "corporation", "United States", ["Semiconductors Group", "Cryptography Group"], 9),
    ("Greywell Agritech", "startup", "Ireland", ["Agrochemicals Group"], 4),
    ("Norrland Steel", "corporation", "Sweden", ["Metallurgy Group", "Structures Group"], 6),
    ("Vireo Software", "startup", "Canada", ["Software Group", "Cryptography Group"], 5),
    ("Cipherline Security", "corporation", "Israel", ["Cryptography Group", "Software Group"], 6),
    ("Castlemere Institute of Technology", "university", "United Kingdom", ["Structures Group", "Metallurgy Group", "Antennas Group"], 5),
    ("Helena Voss", "individual", "Germany", ["Fluid Power Group"], 2),
    ("Marcus Odell", "individual", "Australia", ["Software Group"], 3),
    ("Sable Ceramics", "corporation", "Italy", ["Ceramics Group"], 5),
    ("Quillon Engines", "corporation", "France", ["Engines Group", "Fluid Power Group"], 7),
    ("Pendle Structures", "startup", "United Kingdom", ["Structures Group", "Hydraulics Group"], 4),
    ("Arcadia Antennas", "corporation", "South Korea", ["Antennas Group"], 6),
    ("Verdance Biologics", "startup", "Denmark", ["Pharmaceuticals Group", "Agrochemicals Group"], 5),
    ("Oakhurst University", "university", "United States", ["Robotics Group", "Software Group", "Optics Group"], 6),
    ("Ferrand Hydraulique", "corporation", "France", ["Hydraulics Group"], 4),
]
CAPS = {"junior": [3, 4], "senior": [4, 5], "principal": [5, 6]}
SMALL = {"startup", "individual", "university"}


def write(folder="."):
    rnd = random.Random(20240611)
    d = Path(folder) / "data"
    d.mkdir(parents=True, exist_ok=True)
    units = [(OFFICE, "office", "")]
    groups = []
    for dr, divs in TREE.items():
        units.append((dr, "directorate", OFFICE))
        for dv, gs in divs.items():
            units.append((dv, "division", dr))
            for g in gs:
                units.append((g, "group", dv))
                groups.append(g)
    with open(d / "units.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["unit", "unit_type", "parent_unit"])
        w.writerows(units)
    names = set()
    examiners = []
    by_group = {}
    for g in groups:
        for _ in range(rnd.choice([2, 2, 3])):
            while True:
                nm = f"{rnd.choice(FIRST)} {rnd.choice(LAST)}"
                if nm not in names:
                    names.add(nm); break
            grade = rnd.choice(["junior", "senior", "senior", "principal"])
            start = {"junior": rnd.randint(2019, 2023), "senior": rnd.randint(2010, 2018),
                     "principal": rnd.randint(1998, 2009)}[grade]
            examiners.append((nm, g, grade, start, rnd.choice(CAPS[grade])))
            by_group.setdefault(g, []).append(nm)
    with open(d / "examiners.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["examiner", "examining_group", "grade", "start_year", "max_docket"])
        w.writerows(examiners)
    with open(d / "applicants.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["applicant", "applicant_type", "country"])
        w.writerows([(a, t, c) for a, t, c, _, _ in APPLICANTS])
    apps, fees = [], []
    weight = {e[0]: rnd.choice([1, 1, 2, 3]) for e in examiners}
    k = p = 0
    for a, t, c, gs, n in APPLICANTS:
        for _ in range(n):
            k += 1
            g = rnd.choice(gs)
            ex = rnd.choices(by_group[g], weights=[weight[e] for e in by_group[g]])[0]
            filed = datetime.date(2021, 1, 4) + datetime.timedelta(days=rnd.randint(0, 1440))
            claims = rnd.randint(4, 32)
            age = (datetime.date(2025, 1, 1) - filed).days
            if age > 900:
                status = rnd.choice(["granted", "granted", "granted", "refused", "withdrawn", "pending"])
            elif age > 450:
                status = rnd.choice(["granted", "pending", "pending", "refused", "withdrawn"])
            else:
                status = "pending"
            aid = f"PA-{filed.year % 100:02d}-{k:04d}"
            apps.append((aid, a, ex, filed.isoformat(), claims, status))
            small = t in SMALL
            base = 90 if not small else 45
            p += 1
            fees.append((f"FE-{p:04d}", aid, "filing", filed.isoformat(), float(base + 8 * max(0, claims - 10))))
            if age > 60:
                p += 1
                dt = filed + datetime.timedelta(days=rnd.randint(20, 60))
                fees.append((f"FE-{p:04d}", aid, "search", dt.isoformat(), 180.0 if not small else 95.0))
            if age > 400 and status != "withdrawn":
                p += 1
                dt = filed + datetime.timedelta(days=rnd.randint(300, 390))
                fees.append((f"FE-{p:04d}", aid, "examination", dt.isoformat(),
                             float((260 if not small else 130) + 12 * max(0, claims - 15))))
            if status == "granted":
                dt = filed + datetime.timedelta(days=rnd.randint(700, 1000))
                while dt < datetime.date(2025, 1, 1):
                    p += 1
                    yrs = (dt - filed).days // 365
                    fees.append((f"FE-{p:04d}", aid, "renewal", dt.isoformat(), float(70 + 35 * yrs)))
                    dt += datetime.timedelta(days=365)
    with open(d / "applications.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["application_id", "applicant", "examiner", "filing_date", "claims", "status"])
        w.writerows(apps)
    fees.sort(key=lambda r: (r[3], r[1]))
    fees = [(f"FE-{i + 1:04d}",) + r[1:] for i, r in enumerate(fees)]
    with open(d / "fees.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["payment_id", "application_id", "fee_type", "paid_on", "amount_gbp"])
        w.writerows(fees)


if __name__ == "__main__":
    write(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent)
