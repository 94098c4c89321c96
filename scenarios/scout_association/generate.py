"""Seeded generator for the scout_association dataset: counties, districts, groups, sections, members and camps."""
import csv, random, sys, datetime
from pathlib import Path

COUNTIES = {"Greater Hollin County": ["Alderbrook", "Brackenfield"], "Lowmoor County": ["Cressing", "Dunstable Vale"]}
GROUPS = {"Alderbrook": ["1st Alderbrook", "3rd Alderbrook"], "Brackenfield": ["1st Brackenfield", "2nd Brackenfield"],
          "Cressing": ["1st Cressing", "4th Cressing"], "Dunstable Vale": ["2nd Dunstable Vale", "5th Dunstable Vale"]}
SECTIONS = [("Beavers", (6, 8)), ("Cubs", (8, 10)), ("Scouts", (10, 14))]
CAMPSITES = [("Heron Lake Campsite", "north", 40, 6.5), ("Gorsey Bank Camp", "north", 25, 5.0),
             ("Pinewood Hollow", "south", 60, 7.25), ("Kingfisher Meadow", "south", 30, 5.75),
             ("Ravenscar Outdoor Centre", "coast", 80, 9.0)]
FIRST = ["Amelia", "Ben", "Chloe", "Dylan", "Ella", "Finn", "Grace", "Harry", "Isla", "Jack", "Keira", "Leo", "Maya",
         "Noah", "Olivia", "Oscar", "Poppy", "Rory", "Sofia", "Theo", "Ruby", "Zac", "Evie", "Max", "Lily", "Arlo"]
LAST = ["Ashworth", "Bexley", "Carrow", "Dalton", "Eversley", "Fenwick", "Garside", "Holloway", "Ingram", "Jessop",
        "Kenning", "Lathom", "Marsden", "Norbury", "Ormerod", "Pickering", "Quayle", "Rudd", "Sutcliffe", "Tolley"]


def write(folder="."):
    rnd = random.Random(90817)
    d = Path(folder) / "data"
    d.mkdir(parents=True, exist_ok=True)
    units = []
    sections = []
    for county, dists in COUNTIES.items():
        units.append([county, "county", "", 0])
        for dist in dists:
            dn = f"{dist} District"
            units.append([dn, "district", county, 0])
            for g in GROUPS[dist]:
                gn = f"{g} Scout Group"
                units.append([gn, "group", dn, 0])
                for s, ages in SECTIONS:
                    sn = f"{g} {s}"
                    units.append([sn, "section", gn, rnd.choice([16, 18, 20, 24])])
                    sections.append((sn, ages))
    mx = {u[0]: u[3] for u in units}
    par = {u[0]: u[2] for u in units}
    for lvl in ["group", "district", "county"]:
        for u in units:
            if u[1] == lvl:
                mx[u[0]] = sum(mx[x[0]] for x in units if par[x[0]] == u[0])
    with open(d / "units.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["unit", "unit_type", "parent_unit", "max_members"])
        w.writerows([(u[0], u[1], u[2], mx[u[0]]) for u in units])
    names = set()
    members = []
    for sn, (lo, hi) in sections:
        n = rnd.randint(max(8, mx[sn] - 9), mx[sn] + 3)
        for _ in range(n):
            while True:
                nm = f"{rnd.choice(FIRST)} {rnd.choice(LAST)}"
                if nm not in names:
                    names.add(nm); break
            joined = datetime.date(2021, 1, 1) + datetime.timedelta(days=rnd.randint(0, 1400))
            members.append((nm, sn, rnd.randint(lo, hi - 1) if hi - lo > 1 else lo, joined.isoformat()))
    with open(d / "members.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["member", "section", "age_years", "joined_on"])
        w.writerows(members)
    with open(d / "campsites.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["campsite", "area", "max_headcount", "nightly_rate_gbp"])
        w.writerows(CAMPSITES)
    bookings = []
    k = 0
    size = {}
    for m in members:
        size[m[1]] = size.get(m[1], 0) + 1
    for sn, _ in sections:
        for _ in range(rnd.randint(1, 4)):
            k += 1
            site = rnd.choice(CAMPSITES)
            nights = rnd.randint(1, 5)
            head = rnd.randint(6, size[sn] + 6)
            start = datetime.date(2024, 3, 1) + datetime.timedelta(days=rnd.randint(0, 240))
            fee = round(head * nights * site[3], 2)
            bookings.append((f"BK-{k:03d}", sn, site[0], start.isoformat(), nights, head, fee))
    with open(d / "camp_bookings.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["booking_id", "section", "campsite", "start_date", "nights", "headcount", "fee_gbp"])
        w.writerows(bookings)


if __name__ == "__main__":
    write(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent)
