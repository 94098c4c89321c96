"""A held-out catalog of a football league (a regional professional league in England): its clubs with their weekly
wage caps and grounds, the affiliate network of each senior club (reserve sides, academies and partner clubs, which
have affiliates of their own), every club's squad with positions, weekly wages and agents, and this season's
transfers (2023-24) in and out of the league's clubs. Gold answers are computed here from the generated rows, in
plain Python.

Written from the project's README only, without looking at how the agents decide
(``vadaorchestra eval football_league``).

Conventions of the gold answers:

- Clubs (``clubs.csv``) have a ``club_kind``: ``senior`` (a first-team club), ``reserve`` (a reserve or development
  side) or ``academy`` (a youth academy). The affiliate network (``affiliations.csv``: a parent club and a club
  affiliated directly to it) has senior clubs at the top; a partner senior club can be affiliated to another and have
  affiliates of its own. A club is affiliated **directly** to another when a row links them (one hop: "directly",
  "sit directly under"); it belongs to its network "directly or indirectly", "anywhere below", "ultimately" when a
  chain of rows links them. A club is not its own affiliate.
- A question naming a kind ("academies", "reserve sides") counts or lists only the clubs of that ``club_kind``. A
  question naming a position ("goalkeepers", "defenders") counts only the players of that ``position`` (goalkeeper,
  defender, midfielder, forward).
- Wages are weekly, in pounds sterling (GBP); fees are in GBP (a free transfer has the fee 0.0). A club's **wage
  bill** is the sum of the weekly wages of every player in its squad (``players.csv``). A club **exceeds** its weekly
  wage cap (``clubs.csv``: ``weekly_wage_cap_gbp``) when its wage bill is **strictly** more than the cap and **stays
  within** it otherwise; no bill equals its cap. The gold answer of a yes/no limit question ("Does X stay within its
  weekly wage cap?") is the list of the clubs that exceed (``[]``: none does, the answer is yes).
- ``transfers.csv`` holds this season's transfers, one row per transfer id: a club's **signings** are the transfers
  whose ``to_club`` is it, its **sales** those whose ``from_club`` is it. Players sold out of the league have no row in
  ``players.csv``.
- Totals sum **every** row: many players earn the same wage and a sum over the distinct values is wrong. Counts of
  players count rows of ``players.csv``.
- A share is a **fraction** (0 to 1), an exact quotient whose denominator is of the form 2**a * 5**b (a terminating
  decimal: ``0.375``; ``37.5 %`` does not match).
- Numeric conditions: "more than £2.5M" (2,500,000 GBP) is strict and no fee equals it; "at least £12,000" is
  non-strict and a wage equal to it counts.
- "The highest-paid", "the most expensive", "the five ... the most" have no ties at the place asked about: "the five"
  is exactly five names.
- A two-part question's gold is ``{"parts": [<answer of part 1>, <answer of part 2>]}``, each part in these
  conventions. A question no tool of the catalog can answer (the data hold no goals, results, ...) has the gold
  ``null`` and the template ``no_tool``.
- Names answers are lists (compared as sets; one entity is a one-element list); counts are ints; wages, fees and
  shares are floats.
- Question types: ``generic`` reads values off one tool's rows (including an argmax over them); ``count`` is one
  number aggregated over one tool's rows; ``multi-hop`` combines the rows of two or more tools (or of several calls).
  ``complexity`` is the number of data rows the answer depends on.
"""

from __future__ import annotations

import random
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

from vadaorchestra.eval.datasets import check_names, exact_number, write_generated

# club -> (club_kind, town, the club it is affiliated to or None, exceeds its wage cap?)
CLUBS = {
    "Ashford Rovers": ("senior", "Ashford", None, False),
    "Ashford Colts": ("reserve", "Ashford", "Ashford Rovers", False),
    "Bramhope Academy": ("academy", "Bramhope", "Ashford Colts", False),
    "Eastwell Park Academy": ("academy", "Ashford", "Ashford Rovers", True),
    "Saltcote Academy": ("academy", "Saltcote", "Ashford Rovers", False),
    "Dunmore Harriers": ("senior", "Dunmore", "Ashford Rovers", True),
    "Linden Vale Academy": ("academy", "Dunmore", "Dunmore Harriers", False),
    "Harriers Development XI": ("reserve", "Dunmore", "Dunmore Harriers", False),
    "Stoneleigh Youth Academy": ("academy", "Stoneleigh", "Harriers Development XI", False),
    "Kingsmere Athletic": ("senior", "Kingsmere", None, False),
    "Kingsmere Development Squad": ("reserve", "Kingsmere", "Kingsmere Athletic", False),
    "Ravenscar Academy": ("academy", "Ravenscar", "Kingsmere Athletic", False),
    "Thornbury Wanderers": ("senior", "Thornbury", "Kingsmere Athletic", False),
    "Wanderers Under-21s": ("reserve", "Thornbury", "Thornbury Wanderers", True),
    "Harbury Town": ("senior", "Harbury", None, True),
    "Harbury Youth Academy": ("academy", "Harbury", "Harbury Town", False),
    "Millbrook Athletic": ("senior", "Millbrook", "Harbury Town", False),
    "Wexley United": ("senior", "Wexley", None, False),
    "Wexley Reserves": ("reserve", "Wexley", "Wexley United", False),
    "Fenwick Park Academy": ("academy", "Wexley", "Wexley United", True),
    "Brackenfield City": ("senior", "Brackenfield", None, True),
}
EXTERNAL_CLUBS = ["Valmont FC", "Kristiansand BK", "Ostrava Dynamo", "Club Atletico Rivera", "Hamburg Nord SV",
                  "Dundalk Shamrocks", "Porthaven County"]
POSITIONS = ["goalkeeper", "defender", "midfielder", "forward"]
AGENTS = ["Sandra Ellis", "Dmitri Volkov", "Marco Bellini", "Jonas Lindqvist", "Kwame Asante", "Helen Marsh",
          "Rafael Duarte", "Yusuf Demir", "Claire Whitcombe", "Pieter van Dijkstra", "Liam Carragher",
          "Nadia Benali"]
NATIONALITIES = ["England", "Scotland", "Wales", "Ireland", "France", "Nigeria", "Ghana", "Portugal", "Norway",
                 "Poland", "Jamaica", "Netherlands"]
FIRST = ["Aaron", "Adebayo", "Alfie", "Aleksander", "Archie", "Bailey", "Bartosz", "Callum", "Cameron", "Cian",
         "Corey", "Dani", "Declan", "Elijah", "Emeka", "Ewan", "Fabio", "Finn", "Gabriel", "Harrison", "Ibrahim",
         "Jaden", "Jakub", "Joao", "Jordan", "Kasper", "Kofi", "Kyle", "Lewis", "Luca", "Mads", "Malik", "Marcus",
         "Mateus", "Morgan", "Nico", "Olamide", "Owen", "Rhys", "Ruben", "Sander", "Sean", "Tendai", "Theo",
         "Tiago", "Tobias", "Tyrese", "Viktor", "Wiktor", "Zak"]
LAST = ["Abara", "Ambrose", "Boateng", "Brereton", "Carvalho", "Costa", "Dalby", "Dembele", "Eriksen", "Fairclough",
        "Gallacher", "Gomes", "Haaland", "Hughes", "Idowu", "Jablonski", "Kamara", "Keane", "Lindholm", "Lowry",
        "Mbeki", "McAteer", "Mensah", "Nowicki", "Nunes", "Ogunleye", "Pereira", "Pritchard", "Quaresma",
        "Rasmussen", "Ridley", "Sadiq", "Szymanski", "Tavares", "Thorsen", "Ugwu", "Vardy", "Wojcik", "Yeboah",
        "Zielke", "Osei", "Lindgren", "Barros", "Campbell", "Devlin", "Egan", "Fofana", "Grealish", "Holt",
        "Kowal"]
HEADERS = {"clubs": ["club", "club_kind", "town", "ground_capacity", "weekly_wage_cap_gbp"],
           "affiliations": ["parent_club", "affiliate_club"],
           "players": ["player", "club", "position", "weekly_wage_gbp", "agent", "nationality"],
           "transfers": ["transfer_id", "player", "from_club", "to_club", "fee_gbp"]}
SHARE_CLUB = "Wexley United"  # 16 players, 6 of them defenders
SIZE = {"senior": (14, 17), "reserve": (8, 11), "academy": (6, 9)}


def person_names(rng: random.Random, n: int, taken: list[str]) -> list[str]:
    out: list[str] = []
    while len(out) < n:
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        if any(name.casefold() in x.casefold() or x.casefold() in name.casefold() for x in out + taken):
            continue
        out.append(name)
    return out


def wage(rng: random.Random, club_kind: str) -> float:
    if club_kind == "senior":
        return float(rng.randrange(4, 81) * 500)
    if club_kind == "reserve":
        return float(rng.randrange(2, 13) * 250)
    return float(rng.randrange(3, 13) * 50)


def fee(rng: random.Random) -> float:
    return 0.0 if rng.random() < 0.25 else float(rng.randrange(1, 61) * 125000)


def generate(seed: int = 2) -> dict[str, list[list]]:
    rng = random.Random(seed)
    sizes = {c: (16 if c == SHARE_CLUB else rng.randrange(*SIZE[k])) for c, (k, _t, _p, _x) in CLUBS.items()}
    names = person_names(rng, sum(sizes.values()) + 25, list(CLUBS) + EXTERNAL_CLUBS + AGENTS)
    players, k = [], 0
    for c, (kind, _t, _p, _x) in CLUBS.items():
        n = sizes[c]
        squad = names[k:k + n]
        k += n
        if c == SHARE_CLUB:
            pos = ["goalkeeper"] * 2 + ["defender"] * 6 + [rng.choice(["midfielder", "forward"]) for _ in range(8)]
        else:
            pos = ["goalkeeper"] * rng.randrange(1, 4) + [rng.choices(POSITIONS[1:], weights=[5, 5, 3])[0]
                                                         for _ in range(n - 3)]
            pos += [rng.choice(POSITIONS[1:]) for _ in range(n - len(pos))]
        rng.shuffle(pos)
        for p, ps in zip(squad, pos):
            players.append([p, c, ps, wage(rng, kind), rng.choices(AGENTS, weights=range(12, 0, -1))[0],
                            rng.choice(NATIONALITIES)])
    leavers = names[k:]
    # wage caps: 8 % to 25 % above the bill, or 5 % to 15 % below it, rounded
    bill = defaultdict(Fraction)
    for p in players:
        bill[p[1]] += Fraction(p[3])
    clubs = []
    for c, (kind, town, _p, over) in CLUBS.items():
        step = 1000 if kind != "academy" else 100
        factor = rng.uniform(0.85, 0.95) if over else rng.uniform(1.08, 1.25)
        cap = round(float(bill[c]) * factor / step) * step
        ground = rng.randrange(8, 40) * 500 if kind == "senior" else rng.randrange(4, 20) * 100
        clubs.append([c, kind, town, ground, float(cap)])
    # transfers: each senior club signed 3 to 5 players of its squad and sold 1 to 3 players out of the league
    transfers, tid = [], 5000
    seniors = [c for c, v in CLUBS.items() if v[0] == "senior"]
    for c in seniors:
        squad = [p[0] for p in players if p[1] == c]
        for p in rng.sample(squad, rng.randrange(3, 6)):
            tid += rng.randrange(1, 7)
            src = rng.choice(EXTERNAL_CLUBS + [s for s in seniors if s != c])
            transfers.append([f"TR-{tid}", p, src, c, fee(rng)])
        for _ in range(rng.randrange(1, 4)):
            tid += rng.randrange(1, 7)
            transfers.append([f"TR-{tid}", leavers.pop(), c, rng.choice(EXTERNAL_CLUBS), fee(rng)])
    transfers.sort(key=lambda r: r[0])
    return {
        "clubs": clubs,
        "affiliations": [[p, c] for c, (_k, _t, p, _x) in CLUBS.items() if p is not None],
        "players": players,
        "transfers": transfers,
    }


# --- relations, in plain Python --------------------------------------------------------------------------------------
def affiliates_direct(club: str) -> list[str]:
    return sorted(c for c, (_k, _t, p, _x) in CLUBS.items() if p == club)


def network(club: str) -> list[str]:
    out, todo = [], [club]
    while todo:
        for c in affiliates_direct(todo.pop()):
            out.append(c)
            todo.append(c)
    return sorted(out)


def kind(club: str) -> str:
    return CLUBS[club][0]


def analysis(data: dict[str, list[list]]) -> dict:
    squad = defaultdict(list)
    for p in data["players"]:
        squad[p[1]].append(p)
    signings, sales = defaultdict(list), defaultdict(list)
    for t in data["transfers"]:
        signings[t[3]].append(t)
        sales[t[2]].append(t)
    club = {r[0]: r for r in data["clubs"]}
    player = {p[0]: p for p in data["players"]}
    bill = {c: sum((Fraction(p[3]) for p in squad[c]), Fraction(0)) for c in CLUBS}
    return {"squad": squad, "signings": signings, "sales": sales, "club": club, "player": player, "bill": bill}


def over_cap(a: dict, c: str) -> bool:
    return a["bill"][c] > Fraction(a["club"][c][4])


def check(data: dict[str, list[list]]) -> None:
    a = analysis(data)
    for c, (_k, _t, _p, over) in CLUBS.items():
        assert a["bill"][c] != Fraction(a["club"][c][4]), c
        assert over_cap(a, c) == over, f"{c}: cap plan not met"
    names = (list(CLUBS) + EXTERNAL_CLUBS + AGENTS + [p[0] for p in data["players"]]
             + [t[1] for t in data["transfers"] if t[1] not in a["player"]] + [t[0] for t in data["transfers"]])
    check_names(names)
    assert len({t[0] for t in data["transfers"]}) == len(data["transfers"])


# --- questions -------------------------------------------------------------------------------------------------------
def questions(data: dict[str, list[list]]) -> list[dict]:
    a = analysis(data)
    squad, signings, sales, player, bill = a["squad"], a["signings"], a["sales"], a["player"], a["bill"]
    out: list[dict] = []

    def add(qtype: str, template: str, question: str, answer, complexity: int) -> None:
        out.append({"id": f"fl{len(out) + 1:03d}", "type": qtype, "template": template, "question": question,
                    "answer": answer, "complexity": complexity})

    # 1. relations in different voices
    c = "Kingsmere Athletic"
    ans = sorted(t[1] for t in signings[c])
    add("generic", "relation_active", f"Which players did {c} sign this season?", ans, len(ans))
    c = "Ashford Rovers"
    ans = sorted(t[1] for t in sales[c])
    assert any(t[3] in CLUBS for t in sales[c]) and any(t[3] not in CLUBS for t in sales[c])
    add("generic", "relation_passive", f"Which players were sold by {c} this season?", ans, len(ans))
    clients = defaultdict(list)
    for p in data["players"]:
        clients[p[4]].append(p[0])
    agent = next(x for x in reversed(AGENTS) if 3 <= len(clients[x]) <= 8)
    add("generic", "relation_possessive", f"Which players is {agent} the agent of?", sorted(clients[agent]),
        len(clients[agent]))
    c = "Kingsmere Athletic"
    ans = sorted({player[t[1]][4] for t in signings[c]})
    assert 1 < len(ans)
    add("multi-hop", "relation_join", f"Which agents represent the players that {c} signed this season?", ans,
        2 * len(signings[c]))

    # 3./4. kinds of clubs along the network, and positions
    c = "Ashford Rovers"
    ans = sorted(x for x in affiliates_direct(c) if kind(x) == "academy")
    assert 1 < len(ans) < len(affiliates_direct(c))
    add("generic", "kind_direct", f"Which academies are affiliated directly to {c}?", ans, len(affiliates_direct(c)))
    ans = sum(kind(x) == "academy" for x in network(c))
    assert ans > sum(kind(x) == "academy" for x in affiliates_direct(c)) and ans < len(network(c))
    add("count", "kind_count_chain", f"How many academies are there in the affiliate network of {c}, directly or "
        "indirectly?", ans, len(network(c)))
    c = "Kingsmere Athletic"
    ans = network(c)
    assert len(ans) > len(affiliates_direct(c))
    add("generic", "ultimately", f"Which clubs are ultimately affiliated to {c}, at any depth?", ans, len(ans))
    c = "Harbury Town"
    ans = sum(p[2] == "goalkeeper" for p in squad[c])
    assert ans > 1
    add("count", "kind_count", f"How many goalkeepers are there in {c}'s squad?", ans, len(squad[c]))

    # 5. totals, shares, extremes
    c = "Millbrook Athletic"
    wages = [p[3] for p in squad[c]]
    assert len(wages) != len(set(wages))
    add("count", "total", f"What is {c}'s total weekly wage bill, in pounds?", exact_number(bill[c]), len(wages))
    c = SHARE_CLUB
    k = sum(p[2] == "defender" for p in squad[c])
    add("count", "share", f"What fraction of {c}'s squad are defenders?", exact_number(Fraction(k, len(squad[c]))),
        len(squad[c]))
    c = "Kingsmere Athletic"
    ranked = sorted(squad[c], key=lambda p: p[3], reverse=True)
    assert ranked[0][3] != ranked[1][3]
    add("generic", "highest", f"Who is the highest-paid player at {c}?", [ranked[0][0]], len(squad[c]))

    # 2. a number of items
    c = "Ashford Rovers"
    ranked = sorted(squad[c], key=lambda p: p[3], reverse=True)
    assert ranked[4][3] != ranked[5][3]
    add("generic", "top_n", f"Which five players at {c} earn the most per week?", sorted(p[0] for p in ranked[:5]),
        len(squad[c]))

    # 9. number conditions with formats
    c = "Ashford Rovers"
    assert all(t[4] != 2500000 for t in signings[c])
    ans = sorted(t[1] for t in signings[c] if t[4] > 2500000)
    assert 0 < len(ans) < len(signings[c])
    add("generic", "condition", f"Which players did {c} sign for more than £2.5M?", ans, len(signings[c]))
    c = "Wexley United"
    ans = sum(p[3] >= 12000 for p in squad[c])
    assert 0 < ans < len(squad[c])
    add("count", "condition", f"How many players at {c} earn at least £12,000 a week?", ans, len(squad[c]))

    # 6. limits stored in the data
    ans = sorted(c for c in CLUBS if over_cap(a, c))
    add("multi-hop", "limit", "Which clubs have a weekly wage bill above their wage cap?", ans,
        len(data["players"]) + len(data["clubs"]))
    c = "Harbury Town"
    assert over_cap(a, c)
    add("multi-hop", "limit_yes_no", f"Does {c} stay within its weekly wage cap?", [c], len(squad[c]) + 1)

    # 7. a two-part question
    c = "Kingsmere Athletic"
    ranked = sorted(signings[c], key=lambda t: t[4], reverse=True)
    assert ranked[0][4] != ranked[1][4]
    add("multi-hop", "two_part", f"Who was {c}'s most expensive signing this season, and does {c}'s wage bill "
        "exceed its weekly wage cap?", {"parts": [[ranked[0][1]], [c] if over_cap(a, c) else []]},
        len(signings[c]) + len(squad[c]) + 1)

    # 8. nothing in the data answers it
    p = ranked[0][1]
    add("generic", "no_tool", f"How many goals has {p} scored this season?", None, 0)
    return out


def write(folder: Path, seed: int = 2) -> None:
    write_generated(folder, generate(seed), check, HEADERS, questions)


if __name__ == "__main__":
    write(Path(__file__).resolve().parent)
