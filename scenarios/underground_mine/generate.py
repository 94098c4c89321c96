"""Seeded generator for the underground_mine dataset: fields, mines, levels, stopes, crews, extraction runs,
machines and their services."""
import csv, random, sys, datetime
from pathlib import Path

FIELDS = {"Karrawong Field": ["Bellbird Mine", "Copperhead Mine"],
          "Tindal Ridge Field": ["Wattle Creek Mine", "Ironbark Mine"]}
LEVELS = {"Bellbird Mine": [280, 340, 410], "Copperhead Mine": [300, 410],
          "Wattle Creek Mine": [280, 360], "Ironbark Mine": [450, 510, 575]}
METHODS = ["longhole", "shrinkage", "benching"]
CREWS = [("Kestrel Crew", "Dale Whitford", "day", "Bellbird Mine"),
         ("Brolga Crew", "Maree Dunstan", "night", "Bellbird Mine"),
         ("Galah Crew", "Terry Okonjo", "day", "Copperhead Mine"),
         ("Quoll Crew", "Shannon Price", "night", "Copperhead Mine"),
         ("Wombat Crew", "Ravi Kapoor", "day", "Wattle Creek Mine"),
         ("Numbat Crew", "Leanne Fairweather", "night", "Wattle Creek Mine"),
         ("Bilby Crew", "Hamish Carroll", "day", "Ironbark Mine"),
         ("Dingo Crew", "Tahlia Brennan", "night", "Ironbark Mine")]
KINDS = [("loader", "LH", 500), ("drill", "DR", 400), ("truck", "TK", 600), ("bolter", "RB", 350)]


def write(folder="."):
    rnd = random.Random(42917)
    d = Path(folder) / "data"
    d.mkdir(parents=True, exist_ok=True)
    sites, stopes, levels = [], [], []
    for field, mines in FIELDS.items():
        sites.append([field, "field", "", "", 0])
        for mine in mines:
            sites.append([mine, "mine", field, "", 0])
            short = mine.replace(" Mine", "")
            for depth in LEVELS[mine]:
                lv = f"{short} {depth} Level"
                sites.append([lv, "level", mine, "", 0])
                levels.append((lv, mine))
                for i in range(1, rnd.choice([2, 3, 3]) + 1):
                    st = f"{short} {depth}-{i} Stope"
                    permit = rnd.choice([6000, 7500, 8000, 9000, 10000, 12000])
                    sites.append([st, "stope", lv, rnd.choice(METHODS), permit])
                    stopes.append((st, mine))
    # permitted tonnage of a level, mine or field: the sum of the stopes below it
    par = {s[0]: s[2] for s in sites}
    permit = {s[0]: s[4] for s in sites}
    for lvl in ["level", "mine", "field"]:
        for s in sites:
            if s[1] == lvl:
                permit[s[0]] = sum(permit[x[0]] for x in sites if par[x[0]] == s[0])
    with open(d / "sites.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["site", "site_type", "parent_site", "mining_method", "permitted_tonnes"])
        w.writerows([(s[0], s[1], s[2], s[3], permit[s[0]]) for s in sites])
    with open(d / "crews.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["crew", "supervisor", "shift", "headcount", "home_mine"])
        for c in CREWS:
            w.writerow([c[0], c[1], c[2], rnd.randint(9, 16), c[3]])
    field_of = {m: fl for fl, ms in FIELDS.items() for m in ms}
    runs = []
    k = 0
    start = datetime.date(2024, 1, 1)
    for st, mine in stopes:
        home = [c[0] for c in CREWS if c[3] == mine]
        other = [c[0] for c in CREWS if c[3] != mine and field_of[c[3]] == field_of[mine]]
        target = permit[st] * rnd.uniform(0.55, 1.25)
        n = rnd.randint(4, 9)
        for _ in range(n):
            k += 1
            crew = rnd.choice(home) if rnd.random() < 0.8 else rnd.choice(other)
            day = start + datetime.timedelta(days=rnd.randint(0, 364))
            tonnes = int(round(target / n * rnd.uniform(0.6, 1.4)))
            grade = round(rnd.uniform(2.0, 9.5), 1)
            runs.append((day, st, crew, tonnes, grade))
    runs.sort()
    with open(d / "extraction.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["run_id", "stope", "crew", "shift_date", "ore_tonnes", "grade_gpt"])
        for i, (day, st, crew, tonnes, grade) in enumerate(runs, 1):
            w.writerow([f"EX-{i:04d}", st, crew, day.isoformat(), tonnes, grade])
    machines = []
    counter = {}
    for lv, mine in levels:
        for _ in range(rnd.randint(1, 3)):
            kind, prefix, interval = rnd.choice(KINDS)
            counter[prefix] = counter.get(prefix, 0) + 1
            machines.append((f"{prefix}-{counter[prefix]:02d}", kind, lv, rnd.randint(2012, 2023),
                             interval))
    with open(d / "machines.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["machine", "kind", "site", "commissioned_year", "service_interval_hours"])
        w.writerows(machines)
    services = []
    for m in machines:
        day = datetime.date(2024, 1, 1) + datetime.timedelta(days=rnd.randint(0, 40))
        while True:
            day += datetime.timedelta(days=rnd.randint(35, 90))
            if day.year > 2024:
                break
            hours = int(m[4] * rnd.uniform(0.75, 1.15))
            cost = round(rnd.uniform(1800, 9500), 2)
            services.append((day, m[0], hours, cost))
    services.sort()
    with open(d / "services.csv", "w", newline="") as f:
        w = csv.writer(f); w.writerow(["service_id", "machine", "service_date", "hours_since_last", "cost_aud"])
        for i, (day, mc, hours, cost) in enumerate(services, 1):
            w.writerow([f"SV-{i:03d}", mc, day.isoformat(), hours, cost])


if __name__ == "__main__":
    write(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent)
