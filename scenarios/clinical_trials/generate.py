"""Writes the data of a contract research organisation's trial operations (deterministic: the tables below and a
seeded draw of participants, adverse events and site payments).

Run `python generate.py` from this folder (or call write(folder)); gold.py then computes the answers.
"""
import csv
import random
from datetime import date, timedelta
from pathlib import Path

TRIALS = [  # trial, sponsor, phase, indication, target enrolment, participant id prefix, site fee per participant-month (EUR)
    ("ASTER-2", "Halvorsen Pharma", "Phase III", "chronic heart failure", 160, "AST", 420),
    ("BRIGHTWAY", "Novaterra Biologics", "Phase II", "rheumatoid arthritis", 90, "BRW", 380),
    ("CORALINE-3", "Halvorsen Pharma", "Phase III", "type 2 diabetes", 140, "COR", 350),
    ("DELTA-KIDS", "Meridian Therapeutics", "Phase II", "paediatric asthma", 60, "DLK", 300),
]

SITES = [  # site, city, country, principal investigator, hub site overseeing it
    ("St Aldric University Hospital", "Leeds", "United Kingdom", "Dr Rebecca Thorne", ""),
    ("Harrogate Clinical Research Unit", "Harrogate", "United Kingdom", "Dr Imran Qureshi", "St Aldric University Hospital"),
    ("Ripon Community Clinic", "Ripon", "United Kingdom", "Dr Joanna Bell", "Harrogate Clinical Research Unit"),
    ("Thirsk GP Research Practice", "Thirsk", "United Kingdom", "Dr Alan Whitaker", "Ripon Community Clinic"),
    ("Wakefield Research Centre", "Wakefield", "United Kingdom", "Dr Sunita Rao", "St Aldric University Hospital"),
    ("Nordhavn University Hospital", "Copenhagen", "Denmark", "Dr Mette Kjaer", ""),
    ("Roskilde Clinical Trials Unit", "Roskilde", "Denmark", "Dr Anders Holm", "Nordhavn University Hospital"),
    ("Odense Research Clinic", "Odense", "Denmark", "Dr Freja Lund", "Nordhavn University Hospital"),
    ("Svendborg Outpatient Clinic", "Svendborg", "Denmark", "Dr Nikolaj Brandt", "Odense Research Clinic"),
    ("Klinikum Altmark", "Stendal", "Germany", "Dr Katrin Vogel", ""),
    ("Praxis Dr Lenz Research", "Salzwedel", "Germany", "Dr Tobias Lenz", "Klinikum Altmark"),
    ("Hospital San Telmo", "Valencia", "Spain", "Dr Elena Navarro", ""),
    ("Centro de Salud Benimaclet", "Valencia", "Spain", "Dr Pablo Serrano", "Hospital San Telmo"),
    ("Clinica Maritima Alicante", "Alicante", "Spain", "Dr Carmen Ibarra", "Hospital San Telmo"),
    ("Consultorio Elche Norte", "Elche", "Spain", "Dr Luis Ortega", "Clinica Maritima Alicante"),
]

ALLOCATIONS = {  # trial -> site -> (enrolment cap, participants enrolled)
    "ASTER-2": {
        "St Aldric University Hospital": (24, 26), "Harrogate Clinical Research Unit": (14, 11),
        "Wakefield Research Centre": (12, 12), "Nordhavn University Hospital": (22, 21),
        "Odense Research Clinic": (14, 15), "Klinikum Altmark": (20, 17),
        "Hospital San Telmo": (22, 19), "Clinica Maritima Alicante": (12, 10)},
    "BRIGHTWAY": {
        "St Aldric University Hospital": (16, 14), "Ripon Community Clinic": (8, 8),
        "Nordhavn University Hospital": (14, 13), "Roskilde Clinical Trials Unit": (10, 9),
        "Klinikum Altmark": (12, 10), "Praxis Dr Lenz Research": (8, 5),
        "Centro de Salud Benimaclet": (10, 9)},
    "CORALINE-3": {
        "Harrogate Clinical Research Unit": (16, 17), "Thirsk GP Research Practice": (8, 6),
        "Wakefield Research Centre": (14, 13), "Odense Research Clinic": (16, 16),
        "Svendborg Outpatient Clinic": (10, 11), "Klinikum Altmark": (18, 15),
        "Hospital San Telmo": (20, 18), "Consultorio Elche Norte": (10, 7),
        "Clinica Maritima Alicante": (12, 12)},
    "DELTA-KIDS": {
        "St Aldric University Hospital": (12, 10), "Nordhavn University Hospital": (12, 11),
        "Roskilde Clinical Trials Unit": (8, 6), "Hospital San Telmo": (12, 9),
        "Centro de Salud Benimaclet": (8, 7)},
}

TERMS = ["headache", "nausea", "fatigue", "dizziness", "injection site reaction", "upper respiratory infection",
         "rash", "hypotension", "diarrhoea", "back pain"]
FIRST = date(2023, 6, 1)
LAST = date(2024, 6, 30)


def _write(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def _day(rng, start, end):
    return start + timedelta(days=rng.randint(0, (end - start).days))


def write(folder="."):
    data = Path(folder) / "data"
    data.mkdir(parents=True, exist_ok=True)
    rng = random.Random(2024)
    _write(data / "trials.csv", ["trial", "sponsor", "phase", "indication", "target_enrolment"],
           [t[:5] for t in TRIALS])
    _write(data / "sites.csv", ["site", "city", "country", "principal_investigator", "hub_site"], SITES)
    _write(data / "site_allocations.csv", ["trial", "site", "enrolment_cap"],
           [(t, s, cap) for t, sites in ALLOCATIONS.items() for s, (cap, _) in sites.items()])

    participants, events, payments = [], [], []
    enrolled = {}  # (site, trial) -> [(enrolment date, end date)]
    for trial, sponsor, phase, indication, target, prefix, fee in TRIALS:
        draws = []
        for site, (cap, n) in ALLOCATIONS[trial].items():
            for _ in range(n):
                draws.append((_day(rng, FIRST, date(2024, 5, 31)), site))
        draws.sort()
        for i, (enrol, site) in enumerate(draws, start=1):
            pid = f"{prefix}-{i:03d}"
            arm = rng.choice(["active", "placebo"])
            r = rng.random()
            status = "withdrawn" if r < 0.1 else "completed" if r < 0.25 else "ongoing"
            end = LAST if status == "ongoing" else _day(rng, enrol + timedelta(days=1), LAST + timedelta(days=1))
            end = min(end, LAST)
            age = rng.randint(6, 16) if trial == "DELTA-KIDS" else rng.randint(38, 79)
            participants.append((pid, trial, site, enrol.isoformat(), arm, status, age))
            enrolled.setdefault((site, trial), []).append((enrol, end))
            for _ in range(rng.choice([0, 0, 0, 1, 1, 2, 3])):
                if enrol >= end:
                    break
                onset = _day(rng, enrol + timedelta(days=1), end) if end > enrol else enrol
                sev = rng.choices(["mild", "moderate", "severe"], weights=[6, 3, 1])[0]
                serious = "yes" if (sev == "severe" and rng.random() < 0.6) or (sev == "moderate" and rng.random() < 0.08) else "no"
                events.append([pid, onset.isoformat(), rng.choice(TERMS), sev, serious])
        # monthly site payments: the fee for every participant enrolled and still in the trial that month
        for site in ALLOCATIONS[trial]:
            spans = enrolled[(site, trial)]
            y, m = 2023, 7
            while (y, m) <= (2024, 6):
                month_start = date(y, m, 1)
                active = sum(1 for e, x in spans if e < month_start and x >= month_start)
                if active:
                    paid = date(y, m, 28) - timedelta(days=rng.randint(0, 6))
                    payments.append([site, trial, paid.isoformat(), active * fee])
                y, m = (y + 1, 1) if m == 12 else (y, m + 1)

    _write(data / "participants.csv", ["participant", "trial", "site", "enrolment_date", "arm", "status", "age"],
           participants)
    events.sort(key=lambda e: (e[1], e[0]))
    _write(data / "adverse_events.csv", ["event_id", "participant", "onset_date", "term", "severity", "serious"],
           [[f"AE-{i:04d}"] + e for i, e in enumerate(events, start=1)])
    payments.sort(key=lambda p: (p[2], p[0], p[1]))
    _write(data / "site_payments.csv", ["payment_id", "site", "trial", "paid_date", "amount_eur"],
           [[f"PAY-{i:04d}"] + p for i, p in enumerate(payments, start=1)])


if __name__ == "__main__":
    write(Path(__file__).parent)
