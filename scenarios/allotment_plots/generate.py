"""Seeded generator for the allotment_plots dataset: a council's allotment districts, sites and fields,
the plots and their tenancies, the 2025 cultivation inspections, each site's metered water use
against its monthly allowance, and the waiting lists."""
import csv
import random
import sys
from datetime import date, timedelta
from pathlib import Path

SEED = 47011

DISTRICTS = {
    "Eastbrook District": [("Coldharbour Lane Allotments", "CH", "Coldharbour", ["Top", "Brook", "Well"]),
                           ("Hillside Road Allotments", "HR", "Hillside", ["Long", "Chapel"]),
                           ("Brambleside Allotments", "BS", "Brambleside", ["Spinney", "Gate", "West"])],
    "Westmere District": [("Mill Pond Allotments", "MP", "Mill Pond", ["Top", "Bottom"]),
                          ("Quarry Bank Allotments", "QB", "Quarry Bank", ["Top", "Middle", "Lower"]),
                          ("Rookery Gardens Allotments", "RG", "Rookery", ["South", "North"]),
                          ("Tanners Meadow Allotments", "TM", "Tanners Meadow", ["River", "Hedge"])],
    "Southfold District": [("Heron Way Allotments", "HW", "Heron Way", ["Long", "Pump"]),
                           ("Lark Rise Allotments", "LR", "Lark Rise", ["East", "Church", "Beck"]),
                           ("Victoria Park Allotments", "VP", "Victoria Park", ["Lodge", "Bandstand"])],
}

SECRETARIES = ["Geraldine Ashworth", "Trevor Bellamy", "Anwen Caddick", "Desmond Fairclough", "Lorna Gilchrist",
               "Rajesh Holt", "Maureen Inskip", "Kofi Jeavons", "Brenda Kirkham", "Hamish Lowther"]
INSPECTORS = ["Derek Mallory", "Sunita Bhakta", "Colin Ferrars", "Ingrid Sowden", "Martin Achebe",
              "Pauline Threlfall"]
FIRST = ["Margaret", "Arthur", "Shirley", "Dennis", "Jean", "Raymond", "Pat", "Kevin", "Aisha", "Tomasz",
         "Grace", "Ian", "Beryl", "Neil", "Yvonne", "Samir", "Chloe", "Wayne", "Joan", "Leon", "Mei", "Gordon",
         "Hazel", "Dylan", "Irene", "Stuart", "Anita", "Barry", "Lucy", "Mohammed", "Ruth", "Colin", "Denise",
         "Ahmed", "Elaine", "Frank", "Gwen", "Harvey", "Ivy", "Jack"]
LAST = ["Doyle", "Pickering", "Bramwell", "Okafor", "Lister", "Nowak", "Hussain", "Trueman", "Cartwright",
        "Eldridge", "Fenwick", "Goodall", "Hargreaves", "Ince", "Jolliffe", "Kapoor", "Lund", "McKenna",
        "Nightingale", "Osei", "Partridge", "Quigley", "Radcliffe", "Seddon", "Thornber", "Underhill", "Vesey",
        "Wragg", "Yates", "Zielinski", "Abbott", "Birtwistle", "Cunliffe", "Duckworth", "Entwistle", "Fothergill"]
SIZES = [60, 125, 125, 125, 150, 200, 250, 250, 250, 300]


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

    people = [f"{f} {l}" for f in FIRST for l in LAST]
    rng.shuffle(people)
    tenants_pool = people[:200]
    applicants_pool = people[200:340]

    units, sites, plots = [], [], []
    si = 0
    for district, site_list in DISTRICTS.items():
        units.append((district, "district", ""))
        for site, code, short, fields in site_list:
            units.append((site, "site", district))
            rate = rng.choice([0.28, 0.32, 0.36, 0.40, 0.45])   # GBP per square metre a year
            for field in fields:
                fname = f"{short} {field} Field"
                units.append((fname, "field", site))
                for n in range(1, rng.randint(6, 12) + 1):
                    plot = f"{code}-{field[0]}{n:02d}"
                    size = rng.choice(SIZES)
                    rent = round(size * rate)
                    shed = "yes" if size >= 125 and rng.random() < 0.6 else "no"
                    plots.append([plot, fname, size, rent, shed])
            allowance = rng.choice([40, 50, 60, 75, 90])
            sites.append((site, SECRETARIES[si], allowance))
            si += 1
    _write(data / "allotment_units.csv", ["unit", "unit_type", "parent"], units)
    _write(data / "sites.csv", ["site", "secretary", "monthly_water_allowance_m3"], sites)

    # tenancies: most plots let, some tenants hold two plots, some plots vacant
    tenancy = {}
    ti = 0
    order = list(range(len(plots)))
    rng.shuffle(order)
    holders = []
    for idx in order:
        if rng.random() < 0.09:
            continue   # vacant
        if holders and rng.random() < 0.12:
            tenant = rng.choice(holders)
        else:
            tenant = tenants_pool[ti]
            ti += 1
            holders.append(tenant)
        start = date(2008, 1, 1) + timedelta(days=rng.randint(0, 17 * 365))
        tenancy[idx] = (tenant, start.isoformat())
    plot_rows = []
    for i, (plot, fname, size, rent, shed) in enumerate(plots):
        tenant, start = tenancy.get(i, ("", ""))
        plot_rows.append((plot, fname, size, rent, shed, tenant, start))
    _write(data / "plots.csv", ["plot", "field", "size_sqm", "annual_rent_gbp", "shed_allowed", "tenant",
                                "tenancy_start"], plot_rows)

    first_start = {}
    for tenant, start in tenancy.values():
        first_start[tenant] = min(first_start.get(tenant, start), start)
    tenant_rows = []
    for tenant in holders:
        kind = rng.choices(["standard", "concession", "senior"], weights=[60, 20, 20])[0]
        tenant_rows.append((tenant, kind, first_start[tenant]))
    _write(data / "tenants.csv", ["tenant", "membership_type", "joined_date"], tenant_rows)

    # cultivation inspections: a spring walk (April-May) and a summer walk (July-August) of every let plot,
    # with a follow-up for plots that scored badly
    site_inspector = {}
    inspections = []
    iid = 1
    for s in sites:
        site_inspector[s[0]] = rng.sample(INSPECTORS, 2)
    field_site = {u[0]: u[2] for u in units if u[1] == "field"}
    care = {}
    for plot, fname, size, rent, shed, tenant, start in plot_rows:
        if not tenant:
            continue
        care.setdefault(tenant, rng.choice([2, 4, 6, 7, 7, 8, 8, 9, 9, 10]))
        walks = [(date(2025, 4, 7), 45), (date(2025, 7, 1), 55)]
        for begin, span in walks:
            day = begin + timedelta(days=rng.randint(0, span))
            while day.weekday() >= 5:
                day += timedelta(days=1)
            inspector = rng.choice(site_inspector[field_site[fname]])
            score = max(1, min(10, care[tenant] + rng.randint(-2, 2)))
            inspections.append([f"IN{iid:04d}", plot, day.isoformat(), inspector, score])
            iid += 1
            if score <= 3:
                follow = day + timedelta(days=rng.randint(21, 35))
                while follow.weekday() >= 5:
                    follow += timedelta(days=1)
                score2 = max(1, min(10, score + rng.randint(-1, 4)))
                inspections.append([f"IN{iid:04d}", plot, follow.isoformat(), inspector, score2])
                iid += 1

    def outcome(score):
        if score >= 6:
            return "satisfactory"
        if score >= 4:
            return "advisory note"
        if score >= 2:
            return "warning letter"
        return "non-cultivation notice"

    inspections.sort(key=lambda r: (r[2], r[1]))
    rows = [(f"IN{k:04d}", p, d, ins, s, outcome(s)) for k, (_, p, d, ins, s) in enumerate(inspections, 1)]
    _write(data / "inspections.csv", ["inspection_id", "plot", "inspection_date", "inspector",
                                      "cultivation_score", "outcome"], rows)

    # metered water use per site and month, seasonal
    season = [0.15, 0.15, 0.3, 0.6, 0.9, 1.2, 1.45, 1.35, 0.9, 0.45, 0.2, 0.15]
    water = []
    let_plots = {}
    for plot, fname, *_rest in plot_rows:
        if _rest[4]:
            let_plots[field_site[fname]] = let_plots.get(field_site[fname], 0) + 1
    for site, sec, allowance in sites:
        base = allowance * rng.uniform(0.55, 0.75) * (let_plots.get(site, 10) / 20) ** 0.3
        for m in range(12):
            use = round(base * season[m] * rng.uniform(0.85, 1.2), 1)
            water.append((site, f"2025-{m + 1:02d}", use))
    _write(data / "water_use.csv", ["site", "month", "water_m3"], water)

    # waiting lists
    waits = []
    site_names = [s[0] for s in sites]
    weights = [9, 4, 6, 14, 5, 3, 7, 8, 2, 11]
    for applicant in applicants_pool[:130]:
        site = rng.choices(site_names, weights=weights)[0]
        applied = date(2022, 1, 1) + timedelta(days=rng.randint(0, 3 * 365 + 200))
        wanted = rng.choice(["half plot", "half plot", "full plot", "starter plot"])
        waits.append((site, applicant, applied.isoformat(), wanted))
    waits.sort(key=lambda r: (r[0], r[2]))
    _write(data / "waiting_list.csv", ["site", "applicant", "applied_date", "plot_size_wanted"], waits)


if __name__ == "__main__":
    write(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent)
