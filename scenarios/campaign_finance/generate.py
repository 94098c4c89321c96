"""Seeded generator for the campaign_finance dataset: a political party's regions, constituency associations and
ward branches, the candidates standing, the donors and the donations the branches received, and each
constituency campaign's expenses against its spending limit."""
import csv, random, sys, datetime
from pathlib import Path

PARTY = "Commonwealth Party"
REGIONS = {"Pennine Region": ["Kestrel Vale", "Hadley Moor"],
           "Severn Region": ["Brackwater", "Linton Fields"],
           "Weald Region": ["Ashby Downs", "Marlow Heath"]}
WARDS = {"Kestrel Vale": ["Abbey", "Castle", "Millbrook"], "Hadley Moor": ["Riverside", "Moorside", "Tanners"],
         "Brackwater": ["Quayside", "Priory Fields", "Saltings"], "Linton Fields": ["Orchard", "St Anne's", "Beckford"],
         "Ashby Downs": ["Chalkpit", "Downsview", "Hollowell"], "Marlow Heath": ["Heathside", "Kingsmead", "Larkrise"]}
# constituency: candidate, occupation, agent, electorate, spending limit (GBP)
SEATS = {"Kestrel Vale": ("Naomi Pettifer", "teacher", "Owen Strachan", 71840),
         "Hadley Moor": ("Rajesh Malhotra", "pharmacist", "Gillian Royle", 68215),
         "Brackwater": ("Fiona Carmody", "solicitor", "Declan Hurst", 76402),
         "Linton Fields": ("Samuel Okafor", "engineer", "Bridget Lowe", 73118),
         "Ashby Downs": ("Harriet Quennell", "farmer", "Martin Ebdon", 69987),
         "Marlow Heath": ("Thomas Wyatt-Hale", "nurse", "Priya Chandran", 74560)}
INDIVIDUALS = ["Harriet Colborne", "Geoffrey Arkwright", "Marion Tidswell", "Clive Ormsby", "Anita Desai-Ross",
               "Edmund Farrah", "Lorna McTavish", "Victor Penhale", "Ursula Kemble", "Desmond Gale",
               "Yvonne Stirling", "Patrick Hanlon", "Rosalind Beck", "Frank Udall", "Imogen Trask",
               "Walter Greaves", "Celia Mountford", "Hugh Barraclough"]
COMPANIES = ["Brindle & Sons Ltd", "Northgate Precision Ltd", "Calderstone Builders Ltd", "Wexcombe Foods Ltd",
             "Arden Valley Estates Ltd", "Pellow Engineering Ltd", "Harbourline Logistics Ltd", "Tollgate Dairies Ltd"]
UNIONS = ["Allied Transport Workers Union", "Teachers and Lecturers Union", "Shop and Warehouse Union",
          "Public Services Union"]
ASSOCS = ["Kestrel Vale Rotary Supper Club", "Saltings Business Forum", "Downsview Farmers Circle",
          "Heathside Residents Association", "Beckford Chamber of Trade", "Moorside Working Mens Club"]
TOWNS = ["Hadley", "Kestrel Bridge", "Brackwater", "Linton", "Ashby", "Marlow", "Saltings", "Heathfield"]
AMOUNTS = {"individual": (25, 2500), "company": (500, 10000), "trade_union": (1000, 8000), "association": (100, 1500)}
# supplier, category, amount range
SUPPLIERS = [("Redline Print Co", "leaflets", (300, 2500)), ("Quickfold Printers", "leaflets", (250, 1800)),
             ("Beacon Media Sales", "advertising", (500, 3000)), ("Northern Echo Adverts", "advertising", (400, 2200)),
             ("Civic Hall Lettings", "events", (150, 1200)), ("Town & Country Venues", "events", (200, 900)),
             ("Canvass Staffing Ltd", "staff", (800, 2000)), ("Hillside Coaches", "transport", (100, 600)),
             ("Swiftcar Hire", "transport", (80, 450)), ("Deskworks Office Supplies", "office", (50, 400)),
             ("Doorstep Digital", "advertising", (300, 1500)), ("Pennant Signs", "leaflets", (200, 1200))]


def write(folder="."):
    rnd = random.Random(20240704)
    d = Path(folder) / "data"
    d.mkdir(parents=True, exist_ok=True)
    units = [(PARTY, "party", "")]
    branches = []
    for region, seats in REGIONS.items():
        units.append((region, "region", PARTY))
        for seat in seats:
            units.append((seat, "constituency", region))
            for w in WARDS[seat]:
                b = f"{w} Ward Branch"
                units.append((b, "branch", seat))
                branches.append(b)
    with open(d / "units.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["unit", "unit_type", "parent_unit"])
        w.writerows(units)
    limits = {}
    with open(d / "constituencies.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["constituency", "candidate", "agent", "electorate", "spending_limit_gbp"])
        for seat, (cand, occ, agent, elec) in SEATS.items():
            limits[seat] = round(12500 + elec * 0.12 + rnd.choice([-600, -300, 0, 300]), 0)
            w.writerow([seat, cand, agent, elec, int(limits[seat])])
    with open(d / "candidates.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["candidate", "constituency", "occupation", "selected_on"])
        for seat, (cand, occ, agent, elec) in SEATS.items():
            sel = datetime.date(2023, 3, 1) + datetime.timedelta(days=rnd.randint(0, 240))
            w.writerow([cand, seat, occ, sel.isoformat()])
    donors = ([(n, "individual") for n in INDIVIDUALS] + [(n, "company") for n in COMPANIES]
              + [(n, "trade_union") for n in UNIONS] + [(n, "association") for n in ASSOCS])
    with open(d / "donors.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["donor", "donor_type", "town"])
        for n, t in donors:
            w.writerow([n, t, rnd.choice(TOWNS)])
    donations = []
    k = 0
    for _ in range(230):
        donor, t = rnd.choice(donors)
        br = rnd.choice(branches)
        lo, hi = AMOUNTS[t]
        amt = rnd.randint(lo // 5, hi // 5) * 5
        day = datetime.date(2024, 1, 2) + datetime.timedelta(days=rnd.randint(0, 178))
        donations.append([donor, br, day.isoformat(), amt])
    donations.sort(key=lambda r: (r[2], r[1], r[0]))
    with open(d / "donations.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["donation_id", "donor", "recipient_unit", "received_on", "amount_gbp"])
        for r in donations:
            k += 1
            w.writerow([f"DN-{k:04d}"] + r)
    expenses = []
    for seat in SEATS:
        for _ in range(rnd.randint(16, 24)):
            sup, cat, (lo, hi) = rnd.choice(SUPPLIERS)
            amt = round(rnd.uniform(lo, hi), 2)
            day = datetime.date(2024, 3, 1) + datetime.timedelta(days=rnd.randint(0, 120))
            expenses.append([seat, sup, cat, day.isoformat(), amt])
    expenses.sort(key=lambda r: (r[3], r[0], r[1]))
    with open(d / "expenses.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["expense_id", "constituency", "supplier", "category", "incurred_on", "amount_gbp"])
        for i, r in enumerate(expenses, 1):
            w.writerow([f"EX-{i:04d}"] + r)


if __name__ == "__main__":
    write(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent)
