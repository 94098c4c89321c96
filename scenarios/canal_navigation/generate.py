"""Seeded data of an inland waterways trust: canals and their branches, locks and the lock keepers who
look after them, boats and their owners, lock passages with the water each used, visitor moorings and
the stays boats made at them.

`write(folder)` writes the CSV files under `folder/data/` (and the questions, through gold.py, when they
are missing); run as a script it writes next to itself. Plain Python, fixed seed: the same files every run.
"""

from __future__ import annotations

import csv
import random
import sys
from datetime import date, timedelta
from pathlib import Path

SEED = 7041966

# canal -> the canal it branches off (top-level canals have no row)
BRANCHES = [
    ("Leigh Branch", "Leeds and Liverpool Canal"),
    ("Rufford Branch", "Leeds and Liverpool Canal"),
    ("Springs Branch", "Leeds and Liverpool Canal"),
    ("Plank Lane Arm", "Leigh Branch"),
    ("Bickershaw Spur", "Plank Lane Arm"),
    ("Tarleton Cut", "Rufford Branch"),
    ("Aylesbury Arm", "Grand Union Canal"),
    ("Wendover Arm", "Grand Union Canal"),
    ("Leicester Line", "Grand Union Canal"),
    ("Market Harborough Arm", "Leicester Line"),
    ("Welford Arm", "Leicester Line"),
    ("Caldon Canal", "Trent and Mersey Canal"),
    ("Leek Branch", "Caldon Canal"),
    ("Montgomery Canal", "Llangollen Canal"),
]

BROAD = {"Kennet and Avon Canal", "Rochdale Canal", "Grand Union Canal", "Leeds and Liverpool Canal",
         "Leigh Branch", "Rufford Branch", "Aylesbury Arm", "Leicester Line"}

# lock, canal, lock keeper, rise (m)
LOCKS = [
    ("Caen Hill Top Lock", "Kennet and Avon Canal", "Bridget Kaye", 2.24),
    ("Caen Hill Middle Lock", "Kennet and Avon Canal", "Bridget Kaye", 2.31),
    ("Caen Hill Bottom Lock", "Kennet and Avon Canal", "Bridget Kaye", 2.18),
    ("Crofton Top Lock", "Kennet and Avon Canal", "Alan Pritchard", 2.57),
    ("Hungerford Lock", "Kennet and Avon Canal", "Alan Pritchard", 1.62),
    ("Newbury Lock", "Kennet and Avon Canal", "Alan Pritchard", 1.78),
    ("Bath Deep Lock", "Kennet and Avon Canal", "Bridget Kaye", 5.92),
    ("Widcombe Lock", "Kennet and Avon Canal", "Bridget Kaye", 2.71),
    ("Semington Lock", "Kennet and Avon Canal", "Bridget Kaye", 1.95),
    ("Woolhampton Lock", "Kennet and Avon Canal", "Alan Pritchard", 1.41),
    ("Kintbury Lock", "Kennet and Avon Canal", "Alan Pritchard", 1.86),
    ("Tuel Lane Lock", "Rochdale Canal", "Tom Ashworth", 5.97),
    ("Sowerby Long Bottom Lock", "Rochdale Canal", "Tom Ashworth", 2.89),
    ("Todmorden Guillotine Lock", "Rochdale Canal", "Tom Ashworth", 2.46),
    ("Summit West Lock", "Rochdale Canal", "Neil Crossley", 3.04),
    ("Littleborough Lock", "Rochdale Canal", "Neil Crossley", 2.63),
    ("Dale Street Lock", "Rochdale Canal", "Neil Crossley", 2.15),
    ("Hatton Top Lock", "Grand Union Canal", "Sunita Patel", 2.38),
    ("Hatton Bottom Lock", "Grand Union Canal", "Sunita Patel", 2.12),
    ("Knowle Top Lock", "Grand Union Canal", "Sunita Patel", 3.01),
    ("Stoke Bruerne Top Lock", "Grand Union Canal", "Colin Baxter", 2.27),
    ("Cowroast Lock", "Grand Union Canal", "Colin Baxter", 1.83),
    ("Marsworth Lock", "Grand Union Canal", "Colin Baxter", 2.05),
    ("Stockton Top Lock", "Grand Union Canal", "Sunita Patel", 2.49),
    ("Bingley Staircase", "Leeds and Liverpool Canal", "Tom Ashworth", 18.03),
    ("Dowley Gap Lock", "Leeds and Liverpool Canal", "Tom Ashworth", 2.74),
    ("Apperley Bridge Lock", "Leeds and Liverpool Canal", "Joan Whitaker", 2.21),
    ("Wigan Top Lock", "Leeds and Liverpool Canal", "Joan Whitaker", 2.33),
    ("Greenberfield Lock", "Leeds and Liverpool Canal", "Joan Whitaker", 2.01),
    ("Gargrave Lock", "Leeds and Liverpool Canal", "Joan Whitaker", 1.94),
    ("Somerton Deep Lock", "Oxford Canal", "Megan Lloyd", 3.66),
    ("Napton Top Lock", "Oxford Canal", "Megan Lloyd", 2.13),
    ("Claydon Top Lock", "Oxford Canal", "Megan Lloyd", 1.98),
    ("Isis Lock", "Oxford Canal", "Fiona Drummond", 1.27),
    ("Twyford Lock", "Oxford Canal", "Fiona Drummond", 1.72),
    ("Fradley Junction Lock", "Trent and Mersey Canal", "Gareth Hughes", 2.09),
    ("Aston Lock", "Trent and Mersey Canal", "Gareth Hughes", 1.93),
    ("Wheelock Lock", "Trent and Mersey Canal", "Gareth Hughes", 2.36),
    ("Kidsgrove Top Lock", "Trent and Mersey Canal", "Gareth Hughes", 2.52),
    ("Grindley Brook Staircase", "Llangollen Canal", "Fiona Drummond", 6.78),
    ("New Marton Top Lock", "Llangollen Canal", "Fiona Drummond", 1.87),
    ("Hurleston Bottom Lock", "Llangollen Canal", "Fiona Drummond", 2.29),
    ("Poolstock Lock", "Leigh Branch", "Joan Whitaker", 2.44),
    ("Rufford Lock", "Rufford Branch", "Joan Whitaker", 1.76),
    ("Tarleton Sea Lock", "Tarleton Cut", "Joan Whitaker", 2.97),
    ("Aylesbury Staircase Lock", "Aylesbury Arm", "Colin Baxter", 3.42),
    ("Foxton Staircase Lock", "Leicester Line", "Colin Baxter", 22.9),
    ("Watford Staircase Lock", "Leicester Line", "Colin Baxter", 15.8),
    ("Hazlehurst Lock", "Caldon Canal", "Gareth Hughes", 2.61),
    ("Frankton Top Lock", "Montgomery Canal", "Fiona Drummond", 3.12),
]

# visitor mooring, canal, maximum stay (nights), berths
MOORINGS = [
    ("Sydney Gardens Moorings", "Kennet and Avon Canal", 2, 8),
    ("Devizes Wharf", "Kennet and Avon Canal", 7, 14),
    ("Skipton Wharf", "Leeds and Liverpool Canal", 2, 10),
    ("Saltaire Moorings", "Leeds and Liverpool Canal", 7, 12),
    ("Hebden Bridge Moorings", "Rochdale Canal", 2, 9),
    ("Castlefield Basin", "Rochdale Canal", 14, 20),
    ("Braunston Turn Moorings", "Grand Union Canal", 7, 16),
    ("Debdale Wharf", "Leicester Line", 14, 18),
    ("Jericho Moorings", "Oxford Canal", 2, 6),
    ("Banbury Town Moorings", "Oxford Canal", 7, 10),
    ("Trevor Basin", "Llangollen Canal", 1, 12),
    ("Ellesmere Moorings", "Llangollen Canal", 7, 10),
]

HIRE_FIRMS = {"Wharfside Boat Hire": 22, "Oakwood Canal Holidays": 18, "Castle Marina Hire": 14}

ADJ = ["Morning", "Evening", "Lazy", "Silver", "Golden", "Quiet", "Wandering", "Jolly", "Merry", "Amber",
       "Willow", "Misty", "Rosy", "Gentle", "Scarlet", "Drifting", "Lucky", "Sleepy", "Bonny", "Little",
       "Northern", "Wild", "Painted", "Tranquil"]
NOUN = ["Mist", "Otter", "Dawn", "Swan", "Lark", "Moon", "Star", "Breeze", "Rose", "Dream", "Wren",
        "Kestrel", "Dragonfly", "Meadow", "Robin", "Bramble", "Clover", "Lantern", "Voyager", "Minnow",
        "Puffin", "Harvest"]

FIRST = ["Margaret", "Keith", "Pauline", "Roger", "Janet", "Graham", "Sandra", "Derek", "Lesley", "Malcolm",
         "Deborah", "Clive", "Yvonne", "Barry", "Rosemary", "Howard", "Gillian", "Dennis", "Hilary", "Stuart",
         "Maxine", "Vernon", "Carol", "Nigel", "Brenda", "Ian", "Wendy", "Phil", "Elaine", "Geoff"]
LAST = ["Hale", "Fenwick", "Oldroyd", "Musgrave", "Tennant", "Ridley", "Cartwright", "Bellamy", "Pratt",
        "Stainton", "Harker", "Lumb", "Proctor", "Ingham", "Walmsley", "Cropper", "Greaves", "Horsfall",
        "Sowden", "Moorhouse", "Dyson", "Battye", "Ambler", "Varley", "Tomlinson"]

TYPES = [("narrowboat", 0.62), ("widebeam", 0.16), ("cruiser", 0.16), ("barge", 0.06)]
LENGTH = {"narrowboat": (12.0, 21.9), "widebeam": (15.0, 21.0), "cruiser": (6.0, 11.5), "barge": (15.0, 20.0)}
WIDTH = {"broad": 4.3, "narrow": 2.1}
LOCK_LENGTH = 22.0

MONTH_WEIGHT = {1: 1, 2: 1, 3: 3, 4: 6, 5: 9, 6: 11, 7: 13, 8: 14, 9: 9, 10: 5, 11: 2, 12: 1}


def _pick(rng, weighted):
    u = rng.random()
    acc = 0.0
    for value, w in weighted:
        acc += w
        if u < acc:
            return value
    return weighted[-1][0]


def _day(rng, year=2024):
    months = list(MONTH_WEIGHT)
    m = rng.choices(months, weights=[MONTH_WEIGHT[k] for k in months])[0]
    nxt = date(year + (m == 12), m % 12 + 1, 1)
    days = (nxt - date(year, m, 1)).days
    return date(year, m, rng.randint(1, days))


def build():
    rng = random.Random(SEED)
    canals_all = sorted({c for _l, c, _k, _r in LOCKS} | {b for b, _p in BRANCHES} | {p for _b, p in BRANCHES})

    # boats and their owners
    names = [f"{a} {n}" for a in ADJ for n in NOUN if not a.startswith(n)]
    rng.shuffle(names)
    people = [f"{f} {l}" for f in FIRST for l in LAST]
    rng.shuffle(people)
    boats = []
    i = 0
    for firm, n in HIRE_FIRMS.items():
        for _ in range(n):
            t = _pick(rng, [("narrowboat", 0.7), ("widebeam", 0.15), ("cruiser", 0.15)])
            lo, hi = LENGTH[t]
            boats.append((names[i], t, firm, round(rng.uniform(lo, hi), 1)))
            i += 1
    for k in range(210):
        t = _pick(rng, TYPES)
        lo, hi = LENGTH[t]
        boats.append((names[i], t, people[k], round(rng.uniform(lo, hi), 1)))
        i += 1
    broad_canals = sorted(BROAD)
    branch_of = dict(BRANCHES)
    home = {}
    for b, t, _o, _len in boats:
        pool = broad_canals if t in ("widebeam", "barge") else canals_all
        home[b] = rng.choices(pool, weights=[1 if c in branch_of else 5 for c in pool])[0]

    locks_by_canal = {}
    for lock, canal, _k, rise in LOCKS:
        locks_by_canal.setdefault(canal, []).append((lock, rise))
    # a boat's cruising ground: its home canal and the canals it connects to
    parent = dict(BRANCHES)

    def ground(canal, boat_type):
        family = {canal}
        if canal in parent:
            family.add(parent[canal])
        family |= {b for b, p in BRANCHES if p == canal}
        if boat_type in ("widebeam", "barge"):
            family &= BROAD
        return sorted(c for c in family if c in locks_by_canal) or [rng.choice(sorted(BROAD & set(locks_by_canal)))]

    passages = []
    pid = 0
    boat_names = [b[0] for b in boats]
    boat_type = {b[0]: b[1] for b in boats}
    for _ in range(2600):
        b = rng.choice(boat_names)
        choices = [(c, lock, rise) for c in ground(home[b], boat_type[b]) for lock, rise in locks_by_canal[c]]
        canal, lock, rise = rng.choice(choices)
        width = WIDTH["broad"] if canal in BROAD else WIDTH["narrow"]
        volume = rise * width * LOCK_LENGTH / 1000.0  # ML
        water = round(volume * rng.uniform(0.93, 1.07), 3)
        pid += 1
        passages.append((f"P{pid:05d}", lock, b, _day(rng).isoformat(), water))
    passages.sort(key=lambda p: (p[3], p[0]))
    passages = [(f"P{k + 1:05d}",) + p[1:] for k, p in enumerate(passages)]

    # monthly water allowance of each canal with locks: above most months, below the busiest
    lock_canal = {lock: canal for lock, canal, _k, _r in LOCKS}
    use = {}
    for _p, lock, _b, d, w in passages:
        key = (lock_canal[lock], d[:7])
        use[key] = use.get(key, 0.0) + w
    allowances = []
    for canal in canals_all:
        months = sorted(v for (c, _m), v in use.items() if c == canal)
        if not months:
            allowance = 5.0
        else:
            allowance = months[max(0, len(months) - 3)] * rng.uniform(0.96, 0.99)
        allowances.append((canal, round(allowance, 1)))

    # stays at visitor moorings
    stays = []
    sid = 0
    mooring_canal = {m: c for m, c, _s, _b in MOORINGS}
    for _ in range(720):
        m, c, max_stay, _berths = rng.choice(MOORINGS)
        candidates = [b for b in boat_names
                      if home[b] == c or parent.get(home[b]) == c or parent.get(c) == home[b]]
        fitting = [b for b in candidates if c in BROAD or boat_type[b] not in ("widebeam", "barge")]
        if not fitting:
            continue
        b = rng.choice(fitting)
        nights = rng.randint(1, max_stay) if rng.random() > 0.1 else max_stay + rng.randint(1, 3)
        sid += 1
        stays.append((f"S{sid:05d}", m, b, _day(rng).isoformat(), nights))
    stays.sort(key=lambda s: (s[3], s[0]))
    stays = [(f"S{k + 1:05d}",) + s[1:] for k, s in enumerate(stays)]
    assert set(mooring_canal) == {m for m, *_ in MOORINGS}

    return {
        "canals": (["canal", "parent_canal"], BRANCHES),
        "water_allowances": (["canal", "monthly_water_allowance_ml"], allowances),
        "locks": (["lock", "canal", "keeper", "rise_m"], LOCKS),
        "boats": (["boat", "boat_type", "owner", "length_m"], boats),
        "passages": (["passage_id", "lock", "boat", "passage_date", "water_ml"], passages),
        "moorings": (["mooring", "canal", "max_stay_nights", "berths"], MOORINGS),
        "stays": (["stay_id", "mooring", "boat", "arrival_date", "nights"], stays),
    }


def write(folder) -> None:
    data = Path(folder) / "data"
    data.mkdir(parents=True, exist_ok=True)
    for name, (header, rows) in build().items():
        with open(data / f"{name}.csv", "w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(header)
            w.writerows(rows)
    gold = Path(__file__).resolve().parent / "gold.py"
    if gold.exists() and not (data / "questions.jsonl").exists():
        import importlib.util

        spec = importlib.util.spec_from_file_location("canal_navigation_gold", gold)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.write(Path(folder))


if __name__ == "__main__":
    write(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent)
