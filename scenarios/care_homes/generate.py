"""Deterministic data for Heathfield Care Group: its regions, areas and care homes, the residents of each home
(admission date, funding, weekly fee), the staff, the agency shifts booked in 2024 with their hours and cost, each
home's monthly agency budget, and the incidents recorded in 2024.

Run `python generate.py` to (re)write the CSV files under data/; `write(folder)` is what `dataset.yaml` calls.
"""
from __future__ import annotations

import csv
import datetime as dt
import os
import random
import sys

SEED = 7310
YEAR = 2024

GROUP = "Heathfield Care Group"
REGIONS = {
    "Northern Region": ["Tyne Valley Area", "Wearside Area", "Pennine Area"],
    "Central Region": ["Trent Area", "Peak Fringe Area"],
    "Southern Region": ["Solent Area", "Downs Area", "Thames Vale Area"],
}
# homes run by the regional team itself, not through an area
DIRECT = {"Northern Region": 2, "Central Region": 1, "Southern Region": 0}
AREA_SIZES = {"Tyne Valley Area": 5, "Wearside Area": 4, "Pennine Area": 5, "Trent Area": 6, "Peak Fringe Area": 4,
              "Solent Area": 5, "Downs Area": 4, "Thames Vale Area": 5}
HOMES = [
    "Willowmere House", "Rosebank Lodge", "Oakfield Court", "Beech Grove", "Hollybrook Manor", "Lavender Fields",
    "The Elms", "Meadowview", "Ashgrove House", "Cedar Lodge", "Fernhill Court", "Kingfisher House",
    "Larkspur Lodge", "Maple Court", "Orchard House", "Primrose Bank", "Bluebell Court", "Heron Lodge",
    "Juniper House", "Foxglove Manor", "Silverbirch Court", "Wisteria House", "Alder Lodge", "Briarwood",
    "Chestnut Grange", "Damson Court", "Elderberry House", "Goldcrest Lodge", "Hawthorn Rise", "Ivy House",
    "Laburnum Court", "Mulberry House", "Nightjar Lodge", "Poppyfield House", "Rowan Court", "Sycamore Lodge",
    "Thistledown House", "Woodlark Manor", "Yew Tree Court", "Acorn Lodge", "Bramley House",
]
TOWNS = {
    "Tyne Valley Area": ["Hexham", "Prudhoe", "Corbridge", "Haltwhistle", "Ryton"],
    "Wearside Area": ["Sunderland", "Washington", "Houghton-le-Spring", "Seaham"],
    "Pennine Area": ["Alston", "Barnard Castle", "Stanhope", "Middleton-in-Teesdale", "Consett"],
    "Northern Region": ["Durham", "Gateshead"],
    "Trent Area": ["Newark", "Gainsborough", "Retford", "Southwell", "Bingham", "Grantham"],
    "Peak Fringe Area": ["Matlock", "Bakewell", "Ashbourne", "Wirksworth"],
    "Central Region": ["Nottingham"],
    "Solent Area": ["Lymington", "Romsey", "Fareham", "Totton", "Hythe"],
    "Downs Area": ["Petersfield", "Midhurst", "Alton", "Haslemere"],
    "Thames Vale Area": ["Henley-on-Thames", "Marlow", "Wallingford", "Abingdon", "Didcot"],
}
STAFF_FIRST = [
    "Amanda", "Bethany", "Chloe", "Danielle", "Emma", "Fatima", "Gemma", "Hayley", "Jade", "Karen", "Laura",
    "Michelle", "Natalie", "Olivia", "Priya", "Rebecca", "Sophie", "Tracey", "Victoria", "Zoe", "Adeola", "Blessing",
    "Chidi", "Joseph", "Liam", "Marcus", "Nathan", "Owen", "Ryan", "Thomas", "Anita", "Grace", "Maria", "Ioana",
    "Agnieszka", "Rosa", "Jolene", "Kelly", "Leanne", "Samantha", "Mercy", "Ruth", "Daniel", "Craig", "Paul",
]
STAFF_LAST = [
    "Robson", "Armstrong", "Charlton", "Dodds", "Elliott", "Forster", "Gibson", "Hall", "Irving", "Jobling",
    "Kirkup", "Lowes", "Milburn", "Nixon", "Oliver", "Patterson", "Reay", "Scott", "Thompson", "Urwin", "Walton",
    "Young", "Adeyemi", "Bello", "Cruz", "Dumitru", "Kowalski", "Mensah", "Nowak", "Okafor", "Popescu",
    "Santos", "Varghese", "Wisniewska", "Ahmed", "Bennett", "Carter", "Dixon", "Evans", "Fletcher", "Green",
    "Hughes", "Jackson", "Kaur", "Lambert", "Marshall", "Norris", "Parker", "Quinn", "Russell",
]
RES_FIRST = [
    "Doris", "Eileen", "Arthur", "Harold", "Joan", "Margaret", "Kenneth", "Dorothy", "Albert", "Irene", "Stanley",
    "Betty", "Norman", "Jean", "Ernest", "Audrey", "Frank", "Sheila", "Walter", "Joyce", "Ronald", "Mavis",
    "Leonard", "Phyllis", "Dennis", "Winifred", "Gordon", "Edna", "Raymond", "Vera", "Cyril", "Marjorie",
    "Bernard", "Gladys", "Alan", "Pauline", "Derek", "Brenda", "Roy", "Hilda", "Trevor", "Maureen", "Clifford",
    "Evelyn", "Reginald", "Sylvia", "Geoffrey", "Olive", "Eric", "Muriel", "Donald", "Barbara", "Maurice", "Rita",
    "Victor", "Ivy", "Sidney", "Lilian", "Percy", "Nora",
]
RES_LAST = [
    "Pennington", "Atkinson", "Bainbridge", "Cartwright", "Dawson", "Emmerson", "Fenwick", "Gallagher", "Hepburn",
    "Ingram", "Jameson", "Kirkbride", "Liddle", "Metcalfe", "Nesbitt", "Ogle", "Pringle", "Ramshaw", "Storey",
    "Tweddle", "Usher", "Vickers", "Waugh", "Yorke", "Appleby", "Brunskill", "Coulson", "Dunn", "Errington",
    "Forrest", "Gowland", "Heslop", "Iley", "Johnstone", "Kell", "Lumsden", "Moffat", "Nattrass", "Oxley",
    "Purvis", "Riddell", "Snowball", "Telfer", "Ure", "Varty", "Wardle", "Younger", "Aitchison", "Blenkinsop",
    "Cowell", "Dobson", "Elsdon", "Fairless", "Gilhespy", "Hedley", "Iveson", "Kyle", "Laidler", "Mather", "Nicol",
    "Pattinson", "Rutherford", "Shotton", "Tinkler", "Waggott", "Barras", "Crozier", "Dinning", "Embleton",
    "Foggon",
]
AGENCIES = ["Carewell Staffing", "Nightingale Nursing Agency", "BrightCare Recruitment", "Mercury Health Staffing",
            "Apex Care Personnel", "Harbour Nurses", "Northern Care Bank", "Vale Healthcare Staffing"]
AGENCY_POOLS = {
    "Northern Region": ["Carewell Staffing", "Northern Care Bank", "Nightingale Nursing Agency", "Mercury Health Staffing"],
    "Central Region": ["Carewell Staffing", "Apex Care Personnel", "BrightCare Recruitment", "Mercury Health Staffing"],
    "Southern Region": ["Harbour Nurses", "Vale Healthcare Staffing", "BrightCare Recruitment",
                        "Nightingale Nursing Agency"],
}
INCIDENT_TYPES = [("fall", 0.52), ("medication error", 0.14), ("pressure ulcer", 0.1), ("skin tear", 0.12),
                  ("safeguarding concern", 0.05), ("choking", 0.03), ("infection", 0.04)]
CARE_TYPES = ["residential", "nursing", "dementia"]


def generate() -> dict[str, tuple[list[str], list[tuple]]]:
    rng = random.Random(SEED)
    units = [(GROUP, "group", "")]
    slots = []  # (parent unit, n homes)
    for region, areas in REGIONS.items():
        units.append((region, "region", GROUP))
        for a in areas:
            units.append((a, "area", region))
            slots.append((a, AREA_SIZES[a]))
        if DIRECT[region]:
            slots.append((region, DIRECT[region]))
    names = list(HOMES)
    rng.shuffle(names)
    homes = []  # (home, parent, town, care_type, beds, rating, opened_year)
    k = 0
    for parent, n in slots:
        towns = list(TOWNS[parent])
        rng.shuffle(towns)
        for i in range(n):
            home = names[k]
            k += 1
            care = rng.choices(CARE_TYPES, weights=[4, 4, 3])[0]
            beds = rng.choice([28, 32, 36, 40, 44, 48, 52, 60, 64, 72, 80])
            rating = rng.choices(["Outstanding", "Good", "Requires improvement", "Inadequate"],
                                 weights=[2, 10, 4, 1])[0]
            opened = rng.randint(1968, 2019)
            homes.append((home, parent, towns[i % len(towns)], care, beds, rating, opened))
            units.append((home, "home", parent))

    # residents: current residents at the end of 2024
    used = set()
    residents = []
    rid = 0
    fee_base = {"residential": 980, "nursing": 1340, "dementia": 1260}
    for (home, parent, town, care, beds, rating, opened) in homes:
        occ = int(round(beds * rng.uniform(0.72, 0.98)))
        south = parent in REGIONS["Southern Region"] or parent == "Southern Region"
        for _ in range(occ):
            while True:
                name = f"{rng.choice(RES_FIRST)} {rng.choice(RES_LAST)}"
                if name not in used:
                    used.add(name)
                    break
            rid += 1
            # admissions are more recent than not
            days_back = int(rng.expovariate(1 / 800))
            admitted = dt.date(YEAR, 12, 31) - dt.timedelta(days=min(days_back, 3000))
            funding = rng.choices(["self-funded", "local authority", "NHS continuing healthcare"],
                                  weights=[4 if south else 2, 3 if south else 5, 1 if care != "nursing" else 2])[0]
            fee = fee_base[care] * (1.25 if south else 1.0)
            if funding == "self-funded":
                fee *= rng.uniform(1.15, 1.35)
            elif funding == "local authority":
                fee *= rng.uniform(0.78, 0.86)
            else:
                fee *= rng.uniform(1.05, 1.15)
            residents.append((f"R{rid:04d}", name, home, admitted.isoformat(), funding, int(round(fee))))

    # staff
    staff = []
    staff_used = set()

    def staff_name() -> str:
        while True:
            n = f"{rng.choice(STAFF_FIRST)} {rng.choice(STAFF_LAST)}"
            if n not in staff_used:
                staff_used.add(n)
                return n

    for (home, parent, town, care, beds, rating, opened) in homes:
        staff.append((staff_name(), home, "home manager", 40))
        if beds >= 40:
            staff.append((staff_name(), home, "deputy manager", 37.5))
        nurses = (beds // 12) if care != "residential" else 0
        for _ in range(nurses):
            staff.append((staff_name(), home, "registered nurse", rng.choice([24, 36, 36, 37.5])))
        for _ in range(max(2, beds // 15)):
            staff.append((staff_name(), home, "senior carer", rng.choice([30, 36, 37.5])))
        for _ in range(beds // 4):
            staff.append((staff_name(), home, "care assistant", rng.choice([16, 20, 24, 30, 36, 37.5])))
        staff.append((staff_name(), home, "cook", rng.choice([30, 37.5])))
        staff.append((staff_name(), home, "activities coordinator", rng.choice([20, 30])))
        for _ in range(max(1, beds // 20)):
            staff.append((staff_name(), home, "housekeeper", rng.choice([20, 25, 30])))
    staff.sort(key=lambda r: (r[1], r[2], r[0]))

    # agency shifts and budgets
    shifts = []
    budgets = []
    rates = {"registered nurse": 52, "care assistant": 26, "senior carer": 29}
    for (home, parent, town, care, beds, rating, opened) in homes:
        region = parent if parent in REGIONS else next(r for r, a in REGIONS.items() if parent in a)
        agencies = rng.sample(AGENCY_POOLS[region], rng.randint(2, 3))
        weights = [rng.uniform(1, 5) for _ in agencies]
        budget = int(round(beds * rng.uniform(25, 45), -2))
        budgets.append((home, budget))
        for m in range(1, 13):
            first = dt.date(YEAR, m, 1)
            nxt = dt.date(YEAR + (m == 12), m % 12 + 1, 1)
            target = budget * rng.uniform(0.6, 1.2)
            spent = 0
            while spent < target:
                role = rng.choices(["registered nurse", "care assistant", "senior carer"],
                                   weights=[3 if care != "residential" else 0, 6, 2])[0]
                hours = rng.choice([8, 8, 12, 12, 6])
                agency = rng.choices(agencies, weights=weights)[0]
                day = first + dt.timedelta(days=rng.randrange((nxt - first).days))
                rate = rates[role] + (4 if day.weekday() >= 5 else 0)
                cost = hours * rate
                shifts.append([home, day.isoformat(), agency, role, hours, cost])
                spent += cost
    shifts.sort(key=lambda r: (r[1], r[0], r[2]))
    shifts = [(r[0], f"AS{i + 1:05d}", *r[1:]) for i, r in enumerate(shifts)]

    # incidents in 2024
    incidents = []
    by_home = {}
    for r in residents:
        by_home.setdefault(r[2], []).append(r)
    types = [t for t, _ in INCIDENT_TYPES]
    tw = [w for _, w in INCIDENT_TYPES]
    for (home, parent, town, care, beds, rating, opened) in homes:
        rate = rng.uniform(0.35, 1.1) * (1.3 if care == "dementia" else 1.0)
        n = int(beds * rate)
        for _ in range(n):
            t = rng.choices(types, weights=tw)[0]
            sev = rng.choices(["low", "moderate", "severe"], weights=[6, 3, 1])[0]
            day = dt.date(YEAR, 1, 1) + dt.timedelta(days=rng.randrange(366))
            res = rng.choice(by_home[home])
            if res[3] > day.isoformat():
                res = rng.choice(by_home[home])
            incidents.append([home, day.isoformat(), t, sev, res[1]])
    incidents.sort(key=lambda r: (r[1], r[0], r[2]))
    incidents = [(r[0], f"IN{i + 1:04d}", *r[1:]) for i, r in enumerate(incidents)]

    return {
        "units.csv": (["unit", "unit_type", "parent"], units),
        "homes.csv": (["home", "parent_unit", "town", "care_type", "registered_beds", "cqc_rating", "opened_year"],
                      homes),
        "residents.csv": (["resident_id", "resident", "home", "admitted_date", "funding", "weekly_fee_gbp"],
                          residents),
        "staff.csv": (["person", "home", "role", "weekly_hours"], staff),
        "agency_shifts.csv": (["home", "shift_id", "shift_date", "agency", "role", "hours", "cost_gbp"], shifts),
        "agency_budgets.csv": (["home", "monthly_agency_budget_gbp"], budgets),
        "incidents.csv": (["home", "incident_id", "incident_date", "incident_type", "severity", "resident"],
                          incidents),
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
