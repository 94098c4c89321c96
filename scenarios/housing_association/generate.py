"""Seeded generator for the housing_association dataset: regions, estates, blocks, flats, tenants, contractors
and repair jobs."""
import csv, random, sys, datetime
from pathlib import Path

REGIONS = {"Calder Valley Region": ["Marsh Lane Estate", "Hollins Green Estate"],
           "Severnside Region": ["Quayside Estate", "Beacon Hill Estate"]}
BLOCKS = {"Marsh Lane Estate": ["Heron Court", "Linnet House", "Kestrel Court"],
          "Hollins Green Estate": ["Swift House", "Wren Court"],
          "Quayside Estate": ["Plover House", "Curlew Court", "Teal House"],
          "Beacon Hill Estate": ["Siskin Court", "Martin House"]}
CONTRACTORS = [("Brightwater Plumbing", "plumbing", "Halford", 18000),
               ("Calder Pipeworks", "plumbing", "Todmere", 15000),
               ("Ashby Electrical", "electrical", "Ashby Moor", 16000),
               ("Sparkline Electrics", "electrical", "Halford", 12000),
               ("Topline Roofing", "roofing", "Bridgwick", 20000),
               ("Drycourt Damp Solutions", "damp", "Todmere", 14000),
               ("Oakbench Joinery", "joinery", "Bridgwick", 9000),
               ("Warmfield Heating", "heating", "Ashby Moor", 17000)]
COST = {"plumbing": (90, 900), "electrical": (80, 850), "roofing": (300, 2600), "damp": (250, 1900),
        "joinery": (60, 700), "heating": (150, 1500)}
FIRST = ["Grace", "Priya", "Tomasz", "Aisha", "Callum", "Yusuf", "Megan", "Dariusz", "Leah", "Kwame", "Sinead",
         "Omar", "Bethany", "Ravi", "Nadia", "Owen", "Chioma", "Lewis", "Hannah", "Mateo"]
LAST = ["Okafor", "Shah", "Nowak", "Rahman", "Fraser", "Demir", "Pryce", "Kowalski", "Whelan", "Mensah", "Doherty",
        "Haddad", "Lloyd", "Patel", "Begum", "Griffiths", "Eze", "Sinclair", "Foley", "Alvarez"]


def write(folder="."):
    rnd = random.Random(73311)
    d = Path(folder) / "data"
    d.mkdir(parents=True, exist_ok=True)
    props, flats, blocks = [], [], []
    for region, estates in REGIONS.items():
        props.append([region, "region", ""])
        for est in estates:
            props.append([est, "estate", region])
            for blk in BLOCKS[est]:
                props.append([blk, "block", est])
                blocks.append([blk, rnd.randint(1962, 2008), rnd.choice([6000, 7500, 8000, 9000, 10000, 12000])])
                for n in range(1, rnd.randint(4, 7) + 1):
                    fl = f"Flat {n} {blk}"
                    props.append([fl, "flat", blk])
                    beds = rnd.choice([1, 1, 2, 2, 2, 3, 3, 4])
                    rent = round(78 + 24 * beds + rnd.uniform(-6, 12), 2)
                    flats.append([fl, beds, beds * 2, rent])
    with open(d / "properties.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["property", "property_type", "parent_property"])
        w.writerows(props)
    with open(d / "blocks.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["block", "built_year", "annual_repair_budget_gbp"])
        w.writerows(blocks)
    with open(d / "flats.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["flat", "bedrooms", "max_occupants", "weekly_rent_gbp"])
        w.writerows(flats)
    names = set()
    tenants = []
    for fl, beds, mx, rent in flats:
        if rnd.random() < 0.08:
            continue  # void flat
        while True:
            nm = f"{rnd.choice(FIRST)} {rnd.choice(LAST)}"
            if nm not in names:
                names.add(nm); break
        size = max(1, min(mx + 2, int(round(rnd.gauss(mx - 0.5, 1.2)))))
        start = datetime.date(2008, 1, 1) + datetime.timedelta(days=rnd.randint(0, 6000))
        tenants.append((nm, fl, size, start.isoformat()))
    with open(d / "tenants.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["tenant", "flat", "household_size", "tenancy_start"])
        w.writerows(tenants)
    with open(d / "contractors.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["contractor", "trade", "base_town", "annual_cap_gbp"])
        w.writerows(CONTRACTORS)
    jobs = []
    for fl, beds, mx, rent in flats:
        for _ in range(rnd.choice([0, 1, 1, 2, 2, 3, 3, 4, 5])):
            c = rnd.choice(CONTRACTORS)
            lo, hi = COST[c[1]]
            day = datetime.date(2024, 1, 1) + datetime.timedelta(days=rnd.randint(0, 365))
            jobs.append((day, fl, c[0], c[1], round(rnd.uniform(lo, hi), 2), rnd.randint(1, 35)))
    jobs.sort()
    with open(d / "repairs.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["job_id", "flat", "contractor", "reported_on", "trade", "cost_gbp", "days_to_complete"])
        for i, (day, fl, c, tr, cost, days) in enumerate(jobs, 1):
            w.writerow([f"RJ-{i:04d}", fl, c, day.isoformat(), tr, cost, days])


if __name__ == "__main__":
    write(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent)
