"""A small held-out catalog of another domain (a city library network: its branches and their annual loan quotas,
the titles of its catalogue filed in a nested genre hierarchy, the copies each branch holds, and this year's loans by
members), with questions whose answers are computed here from the data, in plain Python.

Written without looking at how the agents decide, and kept as it is: it measures how the project carries over to a
catalog it was not written with (``vadaorchestra eval library_network``).

Conventions of the gold answers:

- ``loans.csv`` is this year's loan ledger: every loan counts towards this year's quotas. A loan is kept apart from
  every other one by its loan id; ``loan_days`` is how many days the book was out on that loan. A loan belongs to the
  branch it was issued at (``branch`` of the loan), whatever the member's usual branch.
- A branch's ``annual_loan_quota`` is a number of loans: the most loans the branch may issue in the year. A branch
  **exceeds** its quota when its number of loans this year is **strictly** more than the quota, and **stays within**
  it otherwise (``<=``); no branch's count equals its quota, so ``>`` and ``>=`` agree.
- Totals sum **every** row: many loans share one number of days and many holdings one number of copies, so a sum
  over the distinct values is wrong. Counts of loans count loan ids; counts of members, titles or branches count
  distinct names. "How many books did a member borrow" counts that member's loans.
- Genres form a hierarchy (``genre_parents.csv``: a genre and its direct parent genre, three levels at most below a
  top-level genre). A title is filed under exactly one genre (``titles.csv``), which may be a parent genre. A
  **subgenre** of a genre is a genre below it, directly (one hop: "directly", "immediately beneath") or through other
  subgenres ("directly or indirectly", "at any depth", "all of its subgenres"); a genre is not its own subgenre. The
  titles "in"/"under" a genre, "counting"/"including its subgenres", are the titles filed under the genre itself or
  under any of its subgenres at any depth; titles filed "directly under" a genre are only those whose own genre is it.
- A share is a **fraction** (0 to 1), the exact quotient of two numbers: the loan counts of the branches asked about
  and the quotas are of the form 2**a * 5**b, so every such quotient is a short terminating decimal (0.78125).
  ``78.125 %`` or ``78.125`` does not match ``0.78125``.
- Numeric conditions ("more than 30 days", "after 2015") are strict, "at least" is non-strict; no value equals a
  strict threshold asked about, so both readings agree.
- "Longest"/"most" questions that ask for an entity (a one-element list of names) have a unique maximum; those that
  ask for the value are a number.
- Names answers are lists (compared as sets); numbers are ints for counts, copies and days, and floats for shares.
- Question types: ``generic`` reads values off one tool's rows (including an argmax over them, or over sums grouped
  on one tool's rows); ``count`` is one number aggregated over one tool's rows (a count, a sum, or a ratio of two
  counts of the same rows); ``multi-hop`` combines the rows of two or more tools. ``complexity`` is the number of rows
  (facts) the answer depends on.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from fractions import Fraction
from pathlib import Path

from vadaorchestra.eval.datasets import check_names, exact_number, write_generated

# branch -> (district, number of loans issued this year, annual loan quota); counts and quotas are 2**a * 5**b
BRANCHES = {
    "Alder Park Branch Library": ("Northgate District", 40, 32),
    "Bellmont Square Library": ("Old Town District", 50, 64),
    "Cedar Hollow Library": ("Westmarch District", 25, 20),
    "Dunmore Community Library": ("Old Town District", 64, 80),
    "Eastbrook Public Library": ("Riverside District", 80, 64),
    "Fairhaven Reading Room": ("Harbourside District", 20, 25),
    "Greystone Central Library": ("Old Town District", 100, 125),
    "Hollins Bay Library": ("Harbourside District", 32, 40),
}
# genre -> its direct parent genre (top-level genres: Adult Fiction, Adult Nonfiction, Young Readers)
GENRE_PARENTS = {
    "Crime and Mystery": "Adult Fiction",
    "Speculative Fiction": "Adult Fiction",
    "Historical Novels": "Adult Fiction",
    "Nordic Noir": "Crime and Mystery",
    "Cozy Mysteries": "Crime and Mystery",
    "Legal Thrillers": "Crime and Mystery",
    "Science Fiction": "Speculative Fiction",
    "Epic Fantasy": "Speculative Fiction",
    "Space Opera": "Science Fiction",
    "Cyberpunk Fiction": "Science Fiction",
    "World History": "Adult Nonfiction",
    "Popular Science": "Adult Nonfiction",
    "Memoir and Biography": "Adult Nonfiction",
    "Military History": "World History",
    "Ancient Civilizations": "World History",
    "Astronomy and Space": "Popular Science",
    "Natural History": "Popular Science",
    "Picture Books": "Young Readers",
    "Teen Adventure": "Young Readers",
}
TOP_GENRES = ["Adult Fiction", "Adult Nonfiction", "Young Readers"]
# title -> (author, the genre it is filed under, publication year)
TITLES = {
    "The Silent Quay": ("Margaret Ellison", "Crime and Mystery", 2014),
    "The Ice Harbour Murders": ("Sigrid Aaltonen", "Nordic Noir", 2017),
    "Midnight at Lake Vattern": ("Sigrid Aaltonen", "Nordic Noir", 2020),
    "A Cold Wind From Bergen": ("Henrik Solberg", "Nordic Noir", 2012),
    "Murder at the Bakehouse": ("Penelope Crane", "Cozy Mysteries", 2019),
    "The Vicarage Garden Puzzle": ("Penelope Crane", "Cozy Mysteries", 2016),
    "Tea and Poisoned Scones": ("Dorothy Winslade", "Cozy Mysteries", 2021),
    "Closing Argument": ("Marcus Delaney", "Legal Thrillers", 2011),
    "The Appellate Witness": ("Marcus Delaney", "Legal Thrillers", 2018),
    "Verdict at Dawn": ("Rebecca Holloway", "Legal Thrillers", 2022),
    "The Glass Orchard": ("Iris Calloway", "Speculative Fiction", 2019),
    "Tidewater Dreams": ("Jasper Quill", "Speculative Fiction", 2013),
    "The Long Meridian": ("Tobias Renner", "Science Fiction", 2010),
    "Empire of Distant Suns": ("Anika Sorensen", "Space Opera", 2016),
    "The Andromeda Compact": ("Anika Sorensen", "Space Opera", 2021),
    "Starfall Armada": ("Devon Marsh", "Space Opera", 2014),
    "Neon Rain Protocol": ("Kenji Arakawa", "Cyberpunk Fiction", 2018),
    "Chrome Lotus": ("Kenji Arakawa", "Cyberpunk Fiction", 2023),
    "The Data Saint": ("Lena Voss", "Cyberpunk Fiction", 2012),
    "The Ember Throne": ("Gareth Mallory", "Epic Fantasy", 2017),
    "Crown of the Ashen King": ("Gareth Mallory", "Epic Fantasy", 2020),
    "Song of the Iron Wolves": ("Elowen Fairbanks", "Epic Fantasy", 2011),
    "The Weaver of Bruges": ("Catherine Delmar", "Historical Novels", 2015),
    "A Harvest in Flanders": ("Catherine Delmar", "Historical Novels", 2018),
    "The Last Clipper Ship": ("Oliver Pembroke", "Historical Novels", 2009),
    "A Short History of Salt": ("Martin Kurlander", "World History", 2008),
    "Iron and Thunder at Waterloo": ("Alistair Brennock", "Military History", 2016),
    "The Convoy Years": ("Alistair Brennock", "Military History", 2012),
    "Cities of the Fertile Crescent": ("Nadia Karam", "Ancient Civilizations", 2019),
    "The Bronze Age Collapse Explained": ("Edwin Thackeray", "Ancient Civilizations", 2021),
    "The Curious Chemistry of Everyday Things": ("Ruth Pennington", "Popular Science", 2017),
    "Light From Distant Galaxies": ("Samir Qureshi", "Astronomy and Space", 2020),
    "Our Restless Sun": ("Samir Qureshi", "Astronomy and Space", 2013),
    "The Secret Life of Fungi": ("Hazel Greenwood", "Natural History", 2018),
    "Feathers and Flight": ("Hazel Greenwood", "Natural History", 2010),
    "Notes From a Surgeon": ("Victor Lambourne", "Memoir and Biography", 2015),
    "The Lighthouse Keeper Remembers": ("Agnes Mulholland", "Memoir and Biography", 2022),
    "The Bear Who Lost His Hat": ("Poppy Larkin", "Picture Books", 2019),
    "Moonlight Meadow": ("Poppy Larkin", "Picture Books", 2014),
    "The Cliffside Secret": ("Rowan Ashby", "Teen Adventure", 2020),
    "Runaway River": ("Rowan Ashby", "Teen Adventure", 2016),
}
MEMBERS = ["Amelia Hartwell", "Benedict Okafor", "Clara Lindgren", "Desmond Achterberg", "Eleanor Vasquez",
           "Farid Nasser", "Georgina Pike", "Hugo Marchetti", "Imogen Castellanos", "Jonah Whitlock", "Keira Brennan",
           "Lucas Ferreira", "Maya Rosenthal", "Nikolai Petrov", "Olivia Ashdown", "Priya Raman", "Quentin Delacroix",
           "Rosalind Achebe", "Samuel Okonkwo", "Tabitha Greer", "Umar Siddiqui", "Valentina Russo",
           "William Thornbury", "Yasmin Haddad"]
HEADERS = {"branches": ["branch", "district", "annual_loan_quota"],
           "genre_parents": ["genre", "parent_genre"],
           "titles": ["title", "author", "genre", "publication_year"],
           "holdings": ["branch", "title", "copies"],
           "loans": ["loan_id", "member", "title", "branch", "loan_days"]}


def generate(seed: int = 31) -> dict[str, list[list]]:
    rng = random.Random(seed)
    titles = list(TITLES)
    holdings = []
    for b in BRANCHES:
        held = sorted(rng.sample(titles, rng.randint(14, 22)), key=titles.index)
        holdings += [[b, t, rng.randint(1, 6)] for t in held]
    # each branch has its own regular patrons; members use one to three branches
    patrons = {b: sorted(rng.sample(MEMBERS, rng.randint(6, 10)), key=MEMBERS.index) for b in BRANCHES}
    slots = [b for b, (_d, n, _q) in BRANCHES.items() for _ in range(n)]
    rng.shuffle(slots)
    loans = []
    for n, b in enumerate(slots, start=1):
        held = [(t, c) for hb, t, c in holdings if hb == b]
        title = rng.choices([t for t, _c in held], weights=[c for _t, c in held])[0]
        member = rng.choice(patrons[b])
        days = rng.randint(3, 42)
        loans.append([f"LN-{n:04d}", member, title, b, days])
    return {
        "branches": [[b, d, q] for b, (d, _n, q) in BRANCHES.items()],
        "genre_parents": [[g, p] for g, p in GENRE_PARENTS.items()],
        "titles": [[t, a, g, y] for t, (a, g, y) in TITLES.items()],
        "holdings": holdings,
        "loans": loans,
    }


# --- relations, in plain Python --------------------------------------------------------------------------------------
def direct_subgenres(genre: str) -> list[str]:
    return sorted(g for g, p in GENRE_PARENTS.items() if p == genre)


def subgenres(genre: str) -> list[str]:
    """The genres below ``genre``, directly or through other subgenres (not the genre itself)."""
    out, todo = set(), [genre]
    while todo:
        for g in direct_subgenres(todo.pop()):
            if g not in out:
                out.add(g)
                todo.append(g)
    return sorted(out)


def titles_under(genre: str) -> list[str]:
    genres = {genre, *subgenres(genre)}
    return sorted(t for t, (_a, g, _y) in TITLES.items() if g in genres)


def titles_directly_under(genre: str) -> list[str]:
    return sorted(t for t, (_a, g, _y) in TITLES.items() if g == genre)


def analysis(data: dict[str, list[list]]) -> dict:
    by_branch, by_member = defaultdict(list), defaultdict(list)
    for r in data["loans"]:
        by_branch[r[3]].append(r)
        by_member[r[1]].append(r)
    held = defaultdict(list)
    for b, t, c in data["holdings"]:
        held[b].append((t, c))
    quota = {b: q for b, _d, q in data["branches"]}
    district = {b: d for b, d, _q in data["branches"]}
    title = {t: (a, g, y) for t, a, g, y in data["titles"]}
    return {"by_branch": by_branch, "by_member": by_member, "held": held, "quota": quota, "district": district,
            "title": title}


def check(data: dict[str, list[list]]) -> None:
    """The properties the questions rely on."""
    a = analysis(data)
    for b, q in a["quota"].items():
        n = len(a["by_branch"][b])
        assert n == BRANCHES[b][1] and n != q, f"{b}: {n} loans, quota {q}"
    over = [b for b in BRANCHES if len(a["by_branch"][b]) > a["quota"][b]]
    assert 1 < len(over) < len(BRANCHES) - 1, over
    names = (list(BRANCHES) + sorted({d for d, _n, _q in BRANCHES.values()}) + list(GENRE_PARENTS) + TOP_GENRES
             + list(TITLES) + sorted({a for a, _g, _y in TITLES.values()}) + MEMBERS)
    check_names(names)
    assert set(GENRE_PARENTS.values()) <= set(GENRE_PARENTS) | set(TOP_GENRES)
    assert all(g in GENRE_PARENTS or g in TOP_GENRES for _a, g, _y in TITLES.values())


def questions(data: dict[str, list[list]]) -> list[dict]:
    a = analysis(data)
    by_branch, by_member, held, quota = a["by_branch"], a["by_member"], a["held"], a["quota"]
    district, title = a["district"], a["title"]
    out: list[dict] = []

    def add(qtype: str, template: str, question: str, answer, complexity: int) -> None:
        out.append({"id": f"ln{len(out) + 1:03d}", "type": qtype, "template": template, "question": question,
                    "answer": answer, "complexity": complexity})

    def n_rows_under(genre: str) -> int:
        """Rows the transitive genre answer depends on: the hierarchy links below the genre and the titles."""
        return len(subgenres(genre)) + len(titles_under(genre))

    # lookup: one attribute of one named entity
    add("generic", "lookup", "In which district is Hollins Bay Library located?", [district["Hollins Bay Library"]], 1)
    add("generic", "lookup", "What is the annual loan quota of Eastbrook Public Library?",
        quota["Eastbrook Public Library"], 1)
    add("generic", "lookup", "Who is the author of Chrome Lotus?", [title["Chrome Lotus"][0]], 1)

    # list: the entities related to a named one
    b = "Cedar Hollow Library"
    members = sorted({r[1] for r in by_branch[b]})
    assert len(members) < len(MEMBERS)
    add("generic", "list", f"Which members borrowed books from {b} this year?", members, len(by_branch[b]))
    m = max(MEMBERS, key=lambda x: (len({r[3] for r in by_member[x]}), -MEMBERS.index(x)))
    branches = sorted({r[3] for r in by_member[m]})
    assert 2 < len(branches) < len(BRANCHES)
    add("generic", "list", f"At which branches has {m} taken out loans?", branches, len(by_member[m]))

    # count: how many of something a named entity has
    b = "Alder Park Branch Library"
    add("count", "count", f"How many loans did {b} issue this year?", len(by_branch[b]), len(by_branch[b]))

    # count restricted by a second named entity that is a value of an output column
    b = "Eastbrook Public Library"
    c = Counter(r[2] for r in by_branch[b])
    t = max(c, key=lambda x: (c[x], -list(TITLES).index(x)))
    assert 1 < c[t] < len(by_branch[b])
    add("count", "restricted_count", f"How many of the loans at {b} were for {t}?", c[t], c[t])
    b = "Dunmore Community Library"
    cands = [x for x in MEMBERS if sum(r[3] == b for r in by_member[x]) >= 2
             and len({r[3] for r in by_member[x]}) >= 2]
    m = cands[0]
    mine = [r for r in by_member[m] if r[3] == b]
    assert 1 < len(mine) < len(by_member[m])
    add("count", "restricted_count", f"How many books did {m} borrow from {b}?", len(mine), len(mine))

    # total: a sum over rows, equal amounts all counted
    b = "Cedar Hollow Library"
    days = [r[4] for r in by_branch[b]]
    assert len(days) != len(set(days)), f"{b}: no two equal loan lengths"
    add("count", "total", f"Adding up every loan, how many days in total were books out on loan from {b}?",
        sum(days), len(days))
    b = "Greystone Central Library"
    copies = [c for _t, c in held[b]]
    assert len(copies) != len(set(copies))
    add("count", "total", f"How many copies does {b} hold altogether, across all titles?", sum(copies), len(copies))

    # share: part over whole, the whole from the same tool or from another one
    b = "Alder Park Branch Library"
    c = Counter(r[1] for r in by_branch[b])
    m = max(c, key=lambda x: (c[x], -MEMBERS.index(x)))
    assert 1 < c[m] < len(by_branch[b])
    add("count", "share", f"What share of the loans issued by {b} went to {m}?",
        exact_number(Fraction(c[m], len(by_branch[b]))), len(by_branch[b]))
    b = "Bellmont Square Library"
    assert len(by_branch[b]) < quota[b]
    add("multi-hop", "share", f"What fraction of its annual loan quota has {b} used up with this year's loans?",
        exact_number(Fraction(len(by_branch[b]), quota[b])), len(by_branch[b]) + 1)
    b, g = "Greystone Central Library", "Crime and Mystery"
    under = set(titles_under(g))
    k = sum(r[2] in under for r in by_branch[b])
    assert 0 < k < len(by_branch[b]) and k != sum(title[r[2]][1] == g for r in by_branch[b])
    add("multi-hop", "share", f"What proportion of the loans at {b} were of books in {g}, subgenres included?",
        exact_number(Fraction(k, len(by_branch[b]))), len(by_branch[b]) + n_rows_under(g))

    # extreme: the entity with the highest value, or the highest total of a group
    b = next(x for x in ["Hollins Bay Library", "Fairhaven Reading Room", "Alder Park Branch Library"]
             if sorted(r[4] for r in by_branch[x])[-1] != sorted(r[4] for r in by_branch[x])[-2])
    longest = max(by_branch[b], key=lambda r: r[4])
    add("generic", "extreme", f"Which member kept a book the longest on a single loan from {b}?", [longest[1]],
        len(by_branch[b]))
    b = "Bellmont Square Library"
    tot = defaultdict(int)
    for r in by_branch[b]:
        tot[r[1]] += r[4]
    ranked = sorted(tot.values())
    assert ranked[-1] != ranked[-2]
    top = max(tot, key=tot.get)
    add("generic", "extreme", f"Whose loans from {b} add up to the largest number of days?", [top],
        len(by_branch[b]))
    b = "Dunmore Community Library"
    add("count", "extreme", f"What was the shortest loan, in days, recorded at {b}?",
        min(r[4] for r in by_branch[b]), len(by_branch[b]))

    # list or count restricted by a numeric condition
    b = "Greystone Central Library"
    ans = sorted(t for t, c in held[b] if c >= 5)
    assert 0 < len(ans) < len(held[b])
    add("generic", "filtered", f"Which titles does {b} stock at least 5 copies of?", ans, len(held[b]))
    b = "Hollins Bay Library"
    n = next(x for x in [30, 28, 32, 35, 25, 33, 29, 31] if all(r[4] != x for r in by_branch[b]))
    add("count", "filtered", f"How many loans from {b} lasted more than {n} days?",
        sum(r[4] > n for r in by_branch[b]), len(by_branch[b]))
    g = "Speculative Fiction"
    assert all(title[t][2] != 2015 for t in titles_under(g))
    ans = sorted(t for t in titles_under(g) if title[t][2] > 2015)
    assert 0 < len(ans) < len(titles_under(g))
    add("multi-hop", "filtered", f"Which books in {g} or any of its subgenres were published after 2015?", ans,
        n_rows_under(g) + len(titles_under(g)))

    # direct vs transitive along the genre hierarchy
    g = "Adult Fiction"
    assert direct_subgenres(g) != subgenres(g)
    add("generic", "direct_vs_transitive", f"Which genres sit immediately beneath {g} in the genre hierarchy?",
        direct_subgenres(g), len(direct_subgenres(g)))
    g = "Speculative Fiction"
    assert direct_subgenres(g) != subgenres(g)
    add("generic", "direct_vs_transitive", f"List every subgenre of {g}, directly or indirectly.", subgenres(g),
        len(subgenres(g)))
    g = "Crime and Mystery"
    assert titles_directly_under(g) != titles_under(g)
    add("count", "direct_vs_transitive", f"How many titles are catalogued under {g}, counting all of its subgenres?",
        len(titles_under(g)), n_rows_under(g))
    g = "Speculative Fiction"
    assert titles_directly_under(g) and titles_directly_under(g) != titles_under(g)
    add("generic", "direct_vs_transitive", f"Which titles are filed directly under {g} itself, not under one of its "
        "subgenres?", titles_directly_under(g), len(titles_under(g)))

    # comparison with a limit stated in the data, per branch
    all_rows = len(data["loans"]) + len(data["branches"])
    add("multi-hop", "group_limit", "Which branches issued more loans this year than their annual loan quota allows?",
        sorted(b for b in BRANCHES if len(by_branch[b]) > quota[b]), all_rows)
    add("multi-hop", "group_limit", "Which library branches kept their number of loans within their yearly quota?",
        sorted(b for b in BRANCHES if len(by_branch[b]) <= quota[b]), all_rows)
    return out


def write(folder: Path, seed: int = 31) -> None:
    write_generated(folder, generate(seed), check, HEADERS, questions)


if __name__ == "__main__":
    write(Path(__file__).resolve().parent)
