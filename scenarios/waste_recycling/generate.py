"""Seeded generator for the waste_recycling dataset: a county's recycling network."""
import csv, random, sys, datetime
from pathlib import Path

REGIONS = ["North Weald", "South Marsh", "East Downs"]
DISTRICTS = {"North Weald": ["Ashby", "Brambleton"], "South Marsh": ["Colwick", "Dunmere"],
             "East Downs": ["Elmstead", "Fernhill"]}
TOWNS = ["Harwick", "Ivybridge", "Juniper Cross", "Kestrel Bay", "Longmere", "Millford", "Norcott", "Oakhampstead",
         "Pendle Vale", "Quarrydown", "Rushworth", "Saltmarsh", "Thornbury", "Upwood", "Varley", "Westcombe",
         "Yarrowfield", "Zennor Green", "Ambergate", "Birchholt", "Cinderford", "Dovecote", "Edgemoor", "Foxhollow"]
MATERIALS = ["glass", "paper", "plastic", "metal", "garden", "textiles"]
HAULIERS = [("Greenline Haulage", "Harwick", 900), ("Marsh Cart Ltd", "Colwick", 700), ("Downs Recovery", "Fernhill", 800),
            ("Cobalt Skips", "Ashby", 600), ("Tidewater Freight", "Dunmere", 650)]


def write(folder="."):
    rnd = random.Random(4127)
    d = Path(folder) / "data"
    d.mkdir(parents=True, exist_ok=True)
    sites = [("Wexshire Waste Authority", "authority", "", 0.0)]
    centres = []
    t = iter(TOWNS)
    for r in REGIONS:
        sites.append((f"{r} Region", "region", "Wexshire Waste Authority", 0.0))
        for dist in DISTRICTS[r]:
            sites.append((f"{dist} District", "district", f"{r} Region", 0.0))
            for k in range(2):
                depot = f"{dist} Depot {'AB'[k]}"
                sites.append((depot, "depot", f"{dist} District", 0.0))
                for j in range(2):
                    c = f"{next(t)} Recycling Centre"
                    cap = float(rnd.choice([120, 140, 160, 180, 200, 220]))
                    sites.append((c, "centre", depot, cap))
                    centres.append(c)
    # region and district caps: sum of centres' caps
    caps = {s[0]: s[3] for s in sites}
    parent = {s[0]: s[2] for s in sites}
    for lvl in ["depot", "district", "region", "authority"]:
        for s in sites:
            if s[1] == lvl:
                caps[s[0]] = sum(caps[x[0]] for x in sites if parent[x[0]] == s[0])
    sites = [(s[0], s[1], s[2], caps[s[0]]) for s in sites]
    with open(d / "sites.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["site", "site_type", "parent_site", "permit_cap_t"])
        w.writerows(sites)
    with open(d / "hauliers.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["haulier", "base_town", "annual_licence_t"])
        w.writerows([(h, b, float(c)) for h, b, c in HAULIERS])
    rows = []
    start = datetime.date(2024, 1, 1)
    n = 0
    for ci, c in enumerate(centres):
        k = rnd.randint(8, 16)
        home = [HAULIERS[ci % 5][0], HAULIERS[(ci + 2) % 5][0]]
        for _ in range(k):
            n += 1
            m = rnd.choice(MATERIALS)
            tonnes = round(rnd.uniform(4, 22), 1)
            day = start + datetime.timedelta(days=rnd.randint(0, 364))
            rows.append((f"COL-{n:04d}", c, m, tonnes, day.isoformat(), rnd.choice(home)))
    with open(d / "collections.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["collection_id", "centre", "material", "tonnes", "collected_on", "haulier"])
        w.writerows(rows)


if __name__ == "__main__":
    write(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent)
