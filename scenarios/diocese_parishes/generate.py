"""Deterministic data for the Diocese of Wrexford: its archdeaconries, deaneries and parishes, the clergy and
readers licensed to them, the 2024 Sunday services with their attendance, the occasional offices (baptisms,
weddings, funerals), the parish share asked of each parish and its payments, and the parish halls with their
bookings and licensed monthly hire hours.

Run `python generate.py` to (re)write the CSV files under data/; `write(folder)` is what `dataset.yaml` calls.
"""
from __future__ import annotations

import csv
import datetime as dt
import os
import random
import sys

SEED = 20240611
YEAR = 2024

DIOCESE = "Diocese of Wrexford"
ARCHDEACONRIES = {
    "Archdeaconry of Calder": ["Ashdown Deanery", "Brent Vale Deanery", "Coldharbour Deanery"],
    "Archdeaconry of Marlowe": ["Dunsford Deanery", "Eskmoor Deanery", "Glenham Deanery"],
    "Archdeaconry of Thornleigh": ["Hollins Deanery", "Medbury Deanery", "Stourfield Deanery"],
}
TOWNS = [
    "Ashwell", "Brackenford", "Lowbridge", "Fenby", "Kelmarsh", "Cottesford", "Thornbury", "Halsey", "Wendle",
    "Oakhurst", "Pellow", "Ridgemoor", "Sallowby", "Tadcombe", "Upwick", "Verlow", "Yarrowby", "Amblecote",
    "Bramhope", "Carswell", "Dunmore", "Elsworth", "Farrowdale", "Greyhurst", "Hatherby", "Ilsley", "Kingsmere",
    "Lindford", "Netherby", "Oxley", "Pitchcombe", "Quarrendon", "Rushmere", "Stanwick", "Tollerton", "Ulcombe",
    "Waddon", "Whitlow", "Birchover", "Colwick", "Dalby", "Eastcote", "Foxton", "Gedling Magna", "Hexley",
]
DEDICATIONS = [
    "St Mary's", "St Peter's", "All Saints", "Holy Trinity", "St John's", "St Michael's", "St Andrew's",
    "St Margaret's", "St Luke's", "St Helen's", "St Oswald's", "St Edmund's", "St Lawrence's", "St Leonard's",
    "St Botolph's", "St Chad's", "St Wilfrid's", "Christ Church",
]
FIRST = [
    "Helen", "David", "Sarah", "Michael", "Ruth", "Andrew", "Catherine", "Jonathan", "Rachel", "Simon", "Alison",
    "Peter", "Joanna", "Mark", "Elizabeth", "Timothy", "Hannah", "Richard", "Frances", "Stephen", "Miriam",
    "Graham", "Louise", "Nicholas", "Judith", "Philip", "Esther", "Christopher", "Naomi", "Benedict", "Clare",
    "Matthew", "Deborah", "Adrian", "Rosalind", "Edward", "Gillian", "Julian", "Monica", "Samuel", "Bridget",
    "Anthony", "Teresa", "Oliver", "Margaret", "Kwame", "Grace", "Tobias", "Imogen", "Francis",
]
LAST = [
    "Marsh", "Pennington", "Oduya", "Whitfield", "Hargreaves", "Ellison", "Brereton", "Castleton", "Fairbairn",
    "Goodall", "Hollings", "Iveson", "Jessop", "Kendrick", "Lamb", "Merriman", "Northcott", "Ormerod",
    "Prentice", "Quayle", "Radcliffe", "Sutcliffe", "Threlfall", "Underwood", "Varley", "Wainwright", "Yeadon",
    "Ashcroft", "Birtwistle", "Crowther", "Dewhurst", "Entwistle", "Fothergill", "Greenhalgh", "Holroyd",
    "Illingworth", "Jowett", "Kershaw", "Lumb", "Mellor", "Nuttall", "Ogden", "Pickles", "Rushworth",
    "Schofield", "Tattersall", "Uttley", "Whiteley", "Akintola", "Banerjee", "Chikwanha", "Delacroix",
]
HIRERS = [
    "Little Acorns Toddler Group", "Zumba with Kim", "Women's Institute", "Slimming World", "1st Brownies",
    "Tai Chi Club", "Parish Lunch Club", "Ballet for Beginners", "Community Choir", "Bridge Club",
    "Art Society", "Pilates with Jo", "Karate Kids", "Youth Club", "Dementia Cafe", "Private party",
    "Baby Sensory", "Line Dancing", "Scrabble Club", "Blood donor session",
]
SERVICE_TYPES = ["Parish Eucharist", "Sung Eucharist", "Morning Worship", "Family Service"]


def sundays(year: int) -> list[dt.date]:
    d = dt.date(year, 1, 1)
    while d.weekday() != 6:
        d += dt.timedelta(days=1)
    out = []
    while d.year == year:
        out.append(d)
        d += dt.timedelta(days=7)
    return out


def random_date(rng: random.Random, year: int) -> dt.date:
    return dt.date(year, 1, 1) + dt.timedelta(days=rng.randrange(366 if year % 4 == 0 else 365))


def generate() -> dict[str, tuple[list[str], list[tuple]]]:
    rng = random.Random(SEED)
    units = [(DIOCESE, "diocese", "")]
    deaneries = []
    for arch, dns in ARCHDEACONRIES.items():
        units.append((arch, "archdeaconry", DIOCESE))
        for dn in dns:
            units.append((dn, "deanery", arch))
            deaneries.append(dn)

    towns = list(TOWNS)
    rng.shuffle(towns)
    parishes = []  # (parish, deanery, town, built_year, grade, seats, roll)
    ti = 0
    sizes = [5, 4, 6, 5, 5, 4, 6, 5, 5]
    for dn, n in zip(deaneries, sizes):
        for _ in range(n):
            town = towns[ti]
            ti += 1
            ded = rng.choice(DEDICATIONS)
            name = f"{ded} {town}"
            medieval = rng.random() < 0.6
            built = rng.randint(1090, 1480) if medieval else rng.choice(
                [rng.randint(1820, 1905), rng.randint(1950, 1995)])
            if medieval:
                grade = rng.choice(["I", "I", "II*", "II*", "II"])
            elif built < 1910:
                grade = rng.choice(["II", "II", "II*", "unlisted"])
            else:
                grade = "unlisted"
            roll = rng.randint(18, 260)
            seats = max(rng.choice([80, 100, 120, 150, 180, 200, 220, 250, 300, 350, 400, 450]),
                        -(-int(roll * 1.6) // 10) * 10)
            parishes.append((name, dn, town, built, grade, seats, roll))
            units.append((name, "parish", dn))
    pnames = [p[0] for p in parishes]
    by_deanery: dict[str, list[str]] = {}
    for p in parishes:
        by_deanery.setdefault(p[1], []).append(p[0])

    # people
    people = set()

    def person() -> str:
        while True:
            n = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
            if n not in people:
                people.add(n)
                return n

    clergy = []  # (person, parish, role, licensed_date)
    incumbent_of: dict[str, str] = {}
    for dn, plist in by_deanery.items():
        plist = list(plist)
        rng.shuffle(plist)
        i = 0
        while i < len(plist):
            k = rng.choice([1, 1, 2, 2, 3])
            group = plist[i:i + k]
            i += k
            who = person()
            role = rng.choice(["vicar", "rector", "vicar"])
            if rng.random() < 0.12:
                role = "priest-in-charge"
            lic = dt.date(rng.randint(2006, 2023), rng.randint(1, 12), rng.randint(1, 28))
            for p in group:
                clergy.append((who, p, role, lic.isoformat()))
                incumbent_of[p] = who
    # curates and associate priests, sometimes across two parishes of a deanery
    for _ in range(14):
        dn = rng.choice(deaneries)
        plist = by_deanery[dn]
        who = person()
        role = rng.choice(["curate", "curate", "associate priest"])
        lic = dt.date(rng.randint(2019, 2024), rng.choice([6, 7, 9]), rng.randint(1, 28))
        for p in rng.sample(plist, rng.choice([1, 1, 2])):
            clergy.append((who, p, role, lic.isoformat()))
    # licensed lay ministers (readers)
    for p in pnames:
        if rng.random() < 0.45:
            who = person()
            lic = dt.date(rng.randint(1998, 2023), rng.randint(1, 12), rng.randint(1, 28))
            clergy.append((who, p, "reader", lic.isoformat()))
    clergy.sort(key=lambda r: (r[1], r[0]))
    ministers_of: dict[str, list[tuple[str, str]]] = {}
    for who, p, role, _ in clergy:
        ministers_of.setdefault(p, []).append((who, role))

    # services: one main Sunday service per parish, plus Christmas
    services = []
    suns = sundays(YEAR)
    for (name, dn, town, built, grade, seats, roll) in parishes:
        base = max(8, int(roll * rng.uniform(0.45, 0.9)))
        stype = rng.choice(SERVICE_TYPES)
        for d in suns:
            m = d.month
            season = 1.0 + (0.08 if m in (3, 10, 11) else 0) - (0.15 if m == 8 else 0) - (0.05 if m in (1, 2) else 0)
            att = int(round(base * season * rng.uniform(0.8, 1.2)))
            t = stype
            if d == dt.date(YEAR, 3, 31):
                t = "Easter Day Eucharist"
                att = int(round(base * rng.uniform(1.7, 2.4)))
            elif rng.random() < 0.12 and stype != "Family Service":
                t = "Family Service"
                att = int(round(att * rng.uniform(1.0, 1.3)))
            services.append((name, d.isoformat(), t, min(att, seats)))
        services.append((name, f"{YEAR}-12-24", "Midnight Mass", min(seats, int(round(base * rng.uniform(1.8, 3.0))))))
        services.append((name, f"{YEAR}-12-25", "Christmas Day Eucharist",
                         min(seats, int(round(base * rng.uniform(1.2, 1.8))))))
    services.sort(key=lambda r: (r[0], r[1], r[2]))

    # occasional offices
    offices = []
    for (name, dn, town, built, grade, seats, roll) in parishes:
        size = roll / 100
        n_bap = int(rng.uniform(1, 14) * (0.5 + size))
        n_wed = int(rng.uniform(0, 9) * (0.5 + size) + (3 if grade in ("I", "II*") else 0))
        n_fun = int(rng.uniform(4, 22) * (0.5 + size))
        clergy_here = [w for w, r in ministers_of[name] if r != "reader"]
        readers_here = [w for w, r in ministers_of[name] if r == "reader"]
        for kind, n in (("baptism", n_bap), ("wedding", n_wed), ("funeral", n_fun)):
            for _ in range(n):
                if kind == "wedding":
                    month = rng.choice([5, 6, 7, 8, 9]) if rng.random() < 0.6 else rng.randint(1, 12)
                    while True:
                        d = dt.date(YEAR, month, rng.randint(1, 28))
                        if d.weekday() == 5 or rng.random() < 0.15:
                            break
                    fee = 528 + rng.choice([0, 0, 60, 110, 185])
                elif kind == "baptism":
                    d = random_date(rng, YEAR)
                    while d.weekday() != 6:
                        d += dt.timedelta(days=1)
                        if d.year > YEAR:
                            d = dt.date(YEAR, 12, 29)
                    fee = 0
                else:
                    d = random_date(rng, YEAR)
                    while d.weekday() == 6:
                        d -= dt.timedelta(days=1)
                    fee = 239 + rng.choice([0, 0, 45, 80])
                if kind == "funeral" and readers_here and rng.random() < 0.2:
                    who = rng.choice(readers_here)
                elif rng.random() < 0.75:
                    who = incumbent_of[name]
                else:
                    who = rng.choice(clergy_here)
                offices.append([name, d.isoformat(), kind, who, fee])
    offices.sort(key=lambda r: (r[1], r[0], r[2], r[3]))
    offices = [(f"OF{i + 1:04d}", *r) for i, r in enumerate(offices)]

    # parish share
    share = []
    payments = []
    for (name, dn, town, built, grade, seats, roll) in parishes:
        asked = int(round(roll * rng.uniform(180, 340), -1))
        share.append((name, YEAR, asked))
        behaviour = rng.random()
        monthly = asked / 12
        for m in range(1, 13):
            if behaviour < 0.15 and rng.random() < 0.35:
                continue  # patchy payer
            amt = int(round(monthly * (rng.uniform(0.55, 1.0) if behaviour < 0.35 else rng.uniform(0.95, 1.05))))
            day = rng.randint(20, 28)
            payments.append((name, dt.date(YEAR, m, day).isoformat(), amt))
    payments.sort()

    # halls and bookings
    halls = []
    bookings = []
    hall_parishes = [p for p in parishes if rng.random() < 0.6]
    for (name, dn, town, built, grade, seats, roll) in hall_parishes:
        hall = rng.choice([f"{town} Church Hall", f"{town} Parish Rooms", f"{town} Church Centre"])
        limit = rng.choice([25, 30, 35, 40, 45, 50])
        halls.append((name, hall, limit))
        regular = rng.sample(HIRERS[:-1], rng.randint(3, 6))
        for m in range(1, 13):
            first = dt.date(YEAR, m, 1)
            days_in = ((first.replace(month=m % 12 + 1) if m < 12 else dt.date(YEAR + 1, 1, 1)) - first).days
            target = limit * rng.uniform(0.55, 1.12)
            used = 0.0
            while used < target:
                hirer = rng.choice(regular) if rng.random() < 0.93 else "Private party"
                hours = rng.choice([1.0, 1.5, 2.0, 2.0, 2.5, 3.0, 4.0])
                if hirer == "Private party":
                    hours = rng.choice([3.0, 4.0, 5.0])
                d = first + dt.timedelta(days=rng.randrange(days_in))
                rate = 14 if hirer != "Private party" else 22
                bookings.append([name, d.isoformat(), hirer, hours, int(round(hours * rate))])
                used += hours
    bookings.sort(key=lambda r: (r[0], r[1], r[2]))
    bookings = [(f"HB{i + 1:05d}", *r) for i, r in enumerate(bookings)]
    bookings = [(b[1], b[0], b[2], b[3], b[4], b[5]) for b in bookings]

    return {
        "units.csv": (["unit", "unit_type", "parent"], units),
        "parishes.csv": (["parish", "deanery", "town", "built_year", "listed_grade", "seating_capacity",
                          "electoral_roll"], parishes),
        "clergy.csv": (["person", "parish", "role", "licensed_date"], clergy),
        "services.csv": (["parish", "service_date", "service_type", "attendance"], services),
        "offices.csv": (["office_id", "parish", "office_date", "office_type", "officiant", "fee_gbp"], offices),
        "parish_share.csv": (["parish", "year", "share_asked_gbp"], share),
        "share_payments.csv": (["parish", "payment_date", "amount_gbp"], payments),
        "halls.csv": (["parish", "hall", "monthly_hours_limit"], halls),
        "hall_bookings.csv": (["parish", "booking_id", "booking_date", "hirer", "hours", "fee_gbp"], bookings),
    }


def write(folder: str) -> None:
    data = os.path.join(folder, "data")
    os.makedirs(data, exist_ok=True)
    for fname, (header, rows) in generate().items():
        with open(os.path.join(data, fname), "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(header)
            w.writerows(rows)


if __name__ == "__main__":
    write(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__)))
