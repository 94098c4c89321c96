"""Seeded data of a regional chess federation: associations and leagues, clubs, players,
tournaments, their arbiters, entries and games.

`write(folder)` writes the CSV files under `folder/data/`; run as a script it writes next to itself.
Plain Python, fixed seed: the same files on every run.
"""

from __future__ import annotations

import csv
import random
import sys
from datetime import date, timedelta
from pathlib import Path

SEED = 20240611

# association -> the association it reports to
ASSOCIATIONS = [
    ("Yorkshire Chess Association", "Northern Chess Union"),
    ("Lancashire Chess Association", "Northern Chess Union"),
    ("Durham and Northumberland Chess Association", "Northern Chess Union"),
    ("West Riding Chess League", "Yorkshire Chess Association"),
    ("South Yorkshire Chess League", "Yorkshire Chess Association"),
    ("Calder Valley Chess League", "West Riding Chess League"),
    ("Manchester Chess League", "Lancashire Chess Association"),
    ("Merseyside Chess League", "Lancashire Chess Association"),
    ("Tyneside Chess League", "Durham and Northumberland Chess Association"),
    ("Warwickshire Chess Association", "Midland Counties Chess Union"),
    ("Leicestershire Chess Association", "Midland Counties Chess Union"),
    ("Birmingham Chess League", "Warwickshire Chess Association"),
    ("Coventry and District Chess League", "Warwickshire Chess Association"),
]

# club -> the association or league it is affiliated to, year founded
CLUBS = [
    ("Leeds Chess Club", "West Riding Chess League", 1878),
    ("Bradford Knights", "West Riding Chess League", 1952),
    ("Huddersfield Chess Club", "West Riding Chess League", 1861),
    ("Halifax Chess Club", "Calder Valley Chess League", 1899),
    ("Hebden Bridge Rooks", "Calder Valley Chess League", 1974),
    ("Sheffield Rooks", "South Yorkshire Chess League", 1926),
    ("Rotherham Chess Club", "South Yorkshire Chess League", 1931),
    ("Barnsley Bishops", "South Yorkshire Chess League", 1968),
    ("York Minster Chess Club", "Yorkshire Chess Association", 1905),
    ("Manchester Athenaeum Chess Club", "Manchester Chess League", 1867),
    ("Stockport Pawns", "Manchester Chess League", 1983),
    ("Bolton Chess Club", "Manchester Chess League", 1912),
    ("Liverpool Chess Club", "Merseyside Chess League", 1837),
    ("Wirral Knights", "Merseyside Chess League", 1958),
    ("Southport Chess Club", "Merseyside Chess League", 1921),
    ("Newcastle Chess Club", "Tyneside Chess League", 1888),
    ("Gateshead Gambit", "Tyneside Chess League", 1991),
    ("Durham City Chess Club", "Durham and Northumberland Chess Association", 1936),
    ("Birmingham Central Chess Club", "Birmingham Chess League", 1877),
    ("Solihull Chess Club", "Birmingham Chess League", 1947),
    ("Coventry Queens", "Coventry and District Chess League", 1964),
    ("Nuneaton Chess Club", "Coventry and District Chess League", 1950),
    ("Leicester Castle Chess Club", "Leicestershire Chess Association", 1903),
    ("Loughborough Chess Club", "Leicestershire Chess Association", 1929),
]

ARBITERS = ["Helen Marsh", "Gordon Pike", "Priya Raman", "Declan Shore", "Ingrid Vale",
            "Samuel Okafor", "Lorna Fitch", "Victor Hallam"]

# tournament, host club, start date, time control, max entries, entry fee (GBP)
TOURNAMENTS = [
    ("Leeds Winter Congress", "Leeds Chess Club", "2024-01-19", "classical", 40, 30.0),
    ("Tyneside Blitz Cup", "Newcastle Chess Club", "2024-01-27", "blitz", 32, 10.0),
    ("Sheffield Rapidplay", "Sheffield Rooks", "2024-02-10", "rapid", 48, 18.0),
    ("Merseyside Open", "Liverpool Chess Club", "2024-02-23", "classical", 44, 32.0),
    ("Bradford Blitz Night", "Bradford Knights", "2024-03-02", "blitz", 24, 8.0),
    ("Manchester Spring Rapid", "Manchester Athenaeum Chess Club", "2024-03-09", "rapid", 40, 20.0),
    ("Birmingham Easter Congress", "Birmingham Central Chess Club", "2024-03-22", "classical", 50, 35.0),
    ("Coventry Quickplay", "Coventry Queens", "2024-03-30", "rapid", 30, 15.0),
    ("Halifax Blitz Open", "Halifax Chess Club", "2024-04-06", "blitz", 28, 9.0),
    ("Huddersfield Spring Congress", "Huddersfield Chess Club", "2024-04-19", "classical", 36, 28.0),
    ("Wirral Rapidplay", "Wirral Knights", "2024-05-04", "rapid", 36, 16.0),
    ("Leicester May Congress", "Leicester Castle Chess Club", "2024-05-17", "classical", 40, 30.0),
    ("Bradford Summer Rapid", "Bradford Knights", "2024-06-01", "rapid", 32, 15.0),
    ("Durham Cathedral Congress", "Durham City Chess Club", "2024-06-14", "classical", 30, 27.0),
    ("Stockport Blitz Marathon", "Stockport Pawns", "2024-06-22", "blitz", 36, 12.0),
    ("York Summer Rapid", "York Minster Chess Club", "2024-07-06", "rapid", 40, 18.0),
    ("Solihull Open", "Solihull Chess Club", "2024-07-19", "classical", 34, 30.0),
    ("Gateshead Blitz Festival", "Gateshead Gambit", "2024-08-03", "blitz", 30, 10.0),
    ("Southport Seaside Congress", "Southport Chess Club", "2024-08-16", "classical", 42, 33.0),
    ("Rotherham Rapidplay", "Rotherham Chess Club", "2024-09-07", "rapid", 30, 14.0),
    ("Bradford Autumn Blitz", "Bradford Knights", "2024-09-21", "blitz", 24, 8.0),
    ("Loughborough Autumn Congress", "Loughborough Chess Club", "2024-10-04", "classical", 32, 26.0),
    ("Bolton Rapidplay", "Bolton Chess Club", "2024-10-19", "rapid", 30, 15.0),
    ("Nuneaton Blitz", "Nuneaton Chess Club", "2024-11-02", "blitz", 26, 9.0),
    ("Barnsley November Congress", "Barnsley Bishops", "2024-11-15", "classical", 32, 25.0),
    ("Hebden Bridge Christmas Rapid", "Hebden Bridge Rooks", "2024-12-07", "rapid", 28, 14.0),
]

# tournaments that took more entries than their limit
OVERSUBSCRIBED = {"Merseyside Open": 3, "Bradford Blitz Night": 2, "York Summer Rapid": 4}

ROUNDS = {"classical": 5, "rapid": 6, "blitz": 9}
DAYS = {"classical": 3, "rapid": 1, "blitz": 1}

FIRST = ["Amelia", "Oliver", "Isla", "Harry", "Freya", "George", "Ava", "Noah", "Grace", "Jack",
         "Sophie", "Leo", "Ella", "Oscar", "Lily", "Arthur", "Mia", "Alfie", "Ruby", "Henry",
         "Evie", "Theo", "Poppy", "Finley", "Chloe", "Rory", "Millie", "Callum", "Daisy", "Ewan",
         "Imogen", "Kieran", "Niamh", "Rohan", "Anya", "Tariq", "Zara", "Yusuf", "Hannah", "Dominic",
         "Bethany", "Marcus", "Ruth", "Stanley", "Agnes", "Wilfred", "Edith", "Cedric", "Maureen", "Derek"]
LAST = ["Dunn", "Ashby", "Whitfield", "Pemberton", "Crowther", "Haigh", "Lister", "Sugden", "Brearley",
        "Holroyd", "Ackroyd", "Firth", "Greenwood", "Sutcliffe", "Pickles", "Mitchell", "Booth", "Hirst",
        "Thwaite", "Rushworth", "Barraclough", "Fairbairn", "Kershaw", "Ormerod", "Tattersall", "Duckworth",
        "Entwistle", "Hargreaves", "Lomax", "Pilling", "Swarbrick", "Catterall", "Heslop", "Charlton",
        "Robson", "Milburn", "Armstrong", "Dodd", "Elliott", "Nixon", "Bhatt", "Chaudhry", "Kowalski",
        "Novak", "Osei", "Mensah", "Quinlan", "Brennan", "Gallagher", "Doyle", "Faulkner", "Yeadon",
        "Marsden", "Illingworth", "Clegg", "Beverley", "Appleyard", "Wainwright", "Scholes", "Cawood"]


def _players(rng: random.Random):
    names = [f"{f} {l}" for f in FIRST for l in LAST]
    rng.shuffle(names)
    players = []
    i = 0
    for club, _assoc, _year in CLUBS:
        size = rng.randint(9, 26)
        for _ in range(size):
            name = names[i]
            i += 1
            r = rng.random()
            membership = "junior" if r < 0.27 else ("veteran" if r > 0.8 else "senior")
            if membership == "junior":
                rating = rng.randint(700, 1900)
            else:
                rating = rng.randint(1100, 2350)
            players.append((name, club, membership, rating))
    return players


def _score(rng, ra, rb):
    expected = 1.0 / (1.0 + 10 ** ((rb - ra) / 400.0))
    draw = 0.22
    u = rng.random()
    if u < draw:
        return 0.5, 0.5
    if rng.random() < expected:
        return 1.0, 0.0
    return 0.0, 1.0


def build():
    rng = random.Random(SEED)
    players = _players(rng)
    by_name = {p[0]: p for p in players}
    names = [p[0] for p in players]
    member_count = {}
    for p in players:
        member_count[p[1]] = member_count.get(p[1], 0) + 1

    over_caps = {"Rotherham Chess Club", "Wirral Knights", "Leicester Castle Chess Club", "Gateshead Gambit"}
    clubs = []
    for club, assoc, year in CLUBS:
        n = member_count[club]
        cap = n - rng.randint(1, 3) if club in over_caps else n + rng.randint(2, 12)
        clubs.append((club, assoc, year, cap))

    arbiters = {}
    tournaments = []
    for k, (t, host, start, tc, cap, fee) in enumerate(TOURNAMENTS):
        arb = ARBITERS[(k * 3 + rng.randint(0, 1)) % len(ARBITERS)]
        arbiters[t] = arb
        tournaments.append((t, host, arb, start, tc, cap, fee))

    entries = []
    games = []
    gid = 0
    eid = 0
    for t, host, arb, start, tc, cap, fee in tournaments:
        if t in OVERSUBSCRIBED:
            n = cap + OVERSUBSCRIBED[t]
        else:
            n = rng.randint(int(cap * 0.55), cap)
        hosts = [p for p in names if by_name[p][1] == host]
        others = [p for p in names if by_name[p][1] != host]
        k_host = min(len(hosts), rng.randint(4, 9))
        entrants = rng.sample(hosts, k_host) + rng.sample(others, n - k_host)
        d0 = date.fromisoformat(start)
        for p in entrants:
            eid += 1
            ed = d0 - timedelta(days=rng.randint(1, 40))
            paid = fee / 2 if by_name[p][2] == "junior" else fee
            entries.append((f"E{eid:05d}", t, p, ed.isoformat(), paid))
        rounds = ROUNDS[tc]
        for r in range(1, rounds + 1):
            day = d0 + timedelta(days=((r - 1) * DAYS[tc]) // rounds)
            pool = entrants[:]
            rng.shuffle(pool)
            for j in range(0, len(pool) - 1, 2):
                w, b = pool[j], pool[j + 1]
                sw, sb = _score(rng, by_name[w][3], by_name[b][3])
                gid += 1
                games.append((f"G{gid:05d}", t, r, day.isoformat(), w, b, sw, sb))
    return {
        "associations": (["association", "parent_association"], ASSOCIATIONS),
        "clubs": (["club", "association", "founded", "member_cap"], clubs),
        "players": (["player", "club", "membership", "rating"], players),
        "tournaments": (["tournament", "host_club", "arbiter", "start_date", "time_control", "max_entries",
                         "entry_fee_gbp"], tournaments),
        "entries": (["entry_id", "tournament", "player", "entry_date", "fee_paid_gbp"], entries),
        "games": (["game_id", "tournament", "round", "game_date", "white", "black", "white_points",
                   "black_points"], games),
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

        spec = importlib.util.spec_from_file_location("chess_federation_gold", gold)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.write(Path(folder))


if __name__ == "__main__":
    write(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent)
