"""Gold answers of the film_festival set, computed with pandas from the CSV files alone.

    python scenarios/film_festival/gold.py            # writes data/questions.jsonl
    python scenarios/film_festival/gold.py --check    # also compares with `vadaorchestra call` where a tool computes the same

Nothing of vadaorchestra is imported: the answers come from the data files, never from the catalog's programs.
"""
import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"

units = pd.read_csv(DATA / "programme_units.csv")
links = pd.read_csv(DATA / "programme_links.csv")
films = pd.read_csv(DATA / "films.csv")
screenings = pd.read_csv(DATA / "screenings.csv")
juries = pd.read_csv(DATA / "jury_members.csv")


def below(unit):
    """Programme units and films anywhere under `unit`, as (item, item_type, level), by breadth-first search."""
    out, frontier, level, seen = [], [unit], 1, set()
    while frontier:
        nxt = []
        for u in frontier:
            for child in links.loc[links.parent_unit == u, "unit"]:
                if child not in seen:
                    seen.add(child)
                    out.append((child, units.set_index("unit").loc[child, "unit_type"], level))
                    nxt.append(child)
            for _, f in films[films.strand == u].iterrows():
                out.append((f.film, f.format, level))
        frontier, level = nxt, level + 1
    return pd.DataFrame(out, columns=["item", "item_type", "level"])


def srt(values):
    return sorted(str(v) for v in values)


def quota(unit):
    return int(units.set_index("unit").loc[unit, "film_quota"])


Q = []


def q(qid, typ, template, question, answer, complexity):
    Q.append({"id": qid, "type": typ, "template": template, "question": question, "answer": answer,
              "complexity": int(complexity)})


# 1 list through a relation, active voice
tl = films[films.director == "Tomas Lindqvist"]
q("ff01", "generic", "relation_active", "Which films did Tomas Lindqvist direct?", srt(tl.film), len(tl))

# 2 passive voice, with a kind (format) filter
af = films[films.director == "Ana Ferreira"]
q("ff02", "generic", "relation_passive_kind", "Which documentaries were directed by Ana Ferreira?",
  srt(af[af.format == "documentary"].film), len(af))

# 3 possessive: "which X is Y the <role> of?"
hk = juries[juries.juror == "Hana Kobayashi"]
q("ff03", "generic", "relation_possessive", "Which jury is Hana Kobayashi the president of?",
  srt(hk[hk.role == "president"].jury), len(hk))

# 4 two-hop join: the venues of the films a director made
oh = films[films.director == "Oona Hakala"]
oh_scr = screenings[screenings.film.isin(oh.film)]
q("ff04", "multi-hop", "relation_join", "Which venues screen the films that Oona Hakala directed?",
  srt(oh_scr.venue.unique()), len(oh) + len(oh_scr))

# 5 direct children of one kind
os_below = below("Official Selection")
direct = os_below[(os_below.level == 1) & (os_below.item_type == "strand")]
q("ff05", "generic", "kind_direct", "Which strands sit directly under the Official Selection?",
  srt(direct.item), (os_below.level == 1).sum())

# 6 count of one kind anywhere below a node
docs = os_below[os_below.item_type == "documentary"]
q("ff06", "count", "kind_count_chain", "How many documentaries are programmed anywhere within the Official Selection?",
  int(docs.item.nunique()), len(os_below))

# 7 count over one entity
sr = screenings[screenings.film == "The Salt Road"]
q("ff07", "count", "count", "How many screenings did The Salt Road have during the festival?", len(sr), len(sr))

# 8 total over one entity
wo = screenings[screenings.film == "Winter Orchard"]
q("ff08", "count", "total", "How many tickets were sold in total across all screenings of Winter Orchard?",
  int(wo.tickets_sold.sum()), len(wo))

# 9 top n
comp = films[films.strand == "Competition"].sort_values("runtime_min", ascending=False)
assert comp.runtime_min.iloc[2] > comp.runtime_min.iloc[3]  # no tie at the cut
q("ff09", "multi-hop", "top_n", "Which three films in the Competition strand have the longest running times?",
  srt(comp.head(3).film), len(comp))

# 10, 11 yes/no limit checks against the film_quota stored in the data
n_comp = int((films.strand == "Competition").sum())
q("ff10", "multi-hop", "limit_yes_no", "Does the Competition strand stay within its film quota?",
  bool(n_comp <= quota("Competition")), n_comp + 1)
n_sc = int((films.strand == "Shorts Competition").sum())
q("ff11", "multi-hop", "limit_yes_no", "Is the Shorts Competition over its film quota?",
  bool(n_sc > quota("Shorts Competition")), n_sc + 1)

# 12 two parts: the strand of Panorama with the most films, and is it over its quota
pan_strands = links.loc[links.parent_unit == "Panorama", "unit"]
counts = films[films.strand.isin(pan_strands)].groupby("strand").size().sort_values(ascending=False)
assert counts.iloc[0] > counts.iloc[1]
top = counts.index[0]
q("ff12", "multi-hop", "two_part_limit",
  "Which strand of the Panorama shows the most films, and is that strand over its film quota?",
  {"parts": [[top], bool(counts.iloc[0] > quota(top))]}, counts.sum() + len(pan_strands) + 1)

# 13 the highest: the venue of the best-attended screening of one film
best = wo.sort_values("tickets_sold", ascending=False)
assert best.tickets_sold.iloc[0] > best.tickets_sold.iloc[1]
q("ff13", "generic", "highest", "At which venue did Winter Orchard draw its biggest audience?",
  [best.venue.iloc[0]], len(wo))

# 14 a condition on a number
q("ff14", "generic", "condition", "Which of Tomas Lindqvist's films run longer than 100 minutes?",
  srt(tl[tl.runtime_min > 100].film), len(tl))

# 15 a plain list of one entity's members
dj = juries[juries.jury == "Documentary Jury"]
q("ff15", "generic", "relation_members", "Who sits on the Documentary Jury?", srt(dj.juror), len(dj))

# 16 a count with a condition
q("ff16", "count", "count_condition", "How many screenings of The Salt Road sold more than 300 tickets?",
  int((sr.tickets_sold > 300).sum()), len(sr))

# 17, 18 not in the data: no file holds budgets or distribution rights
q("ff17", "generic", "no_tool", "What was the production budget of Nine Bridges?", None, 0)
q("ff18", "generic", "no_tool", "Which distributor holds the North American rights to The Salt Road?", None, 0)


def call(tool, **params):
    args = ["vadaorchestra", "call", tool, *[f"{k}={v}" for k, v in params.items()],
            "--catalog", str(HERE / "catalog"), "--data", str(HERE)]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return pd.read_csv(StringIO(out))


def check():
    """Where a tool computes what a gold answer rests on, its output must agree with pandas."""
    ok = True

    def same(what, got, want):
        nonlocal ok
        flag = "ok " if got == want else "DIFF"
        ok &= got == want
        print(f"{flag} {what}: tool {got!r} gold {want!r}")

    same("ff01 director films", srt(call("get_director_films", director_name="Tomas Lindqvist").film), srt(tl.film))
    d = call("get_director_films", director_name="Ana Ferreira")
    same("ff02 documentaries", srt(d[d.format == "documentary"].film), Q[1]["answer"])
    s = call("get_juror_seats", juror_name="Hana Kobayashi")
    same("ff03 president of", srt(s[s.role == "president"].jury), Q[2]["answer"])
    venues = set()
    for f in call("get_director_films", director_name="Oona Hakala").film:
        venues |= set(call("get_film_screenings", film_name=f).venue)
    same("ff04 venues", srt(venues), Q[3]["answer"])
    c = call("get_programme_contents", unit_name="Official Selection")
    same("ff05 direct strands", srt(c[(c.level == 1) & (c.item_type == "strand")].item), Q[4]["answer"])
    same("ff06 documentaries below", int(c[c.item_type == "documentary"].item.nunique()), Q[5]["answer"])
    a = call("get_film_attendance", film_name="The Salt Road")
    same("ff07 screenings", int(a.screenings.iloc[0]), Q[6]["answer"])
    a = call("get_film_attendance", film_name="Winter Orchard")
    same("ff08 tickets", int(a.tickets_sold.iloc[0]), Q[7]["answer"])
    sf = call("get_strand_films", strand_name="Competition").sort_values("runtime_min", ascending=False)
    same("ff09 top three", srt(sf.head(3).film), Q[8]["answer"])
    p = call("get_unit_profile", unit_name="Competition")
    same("ff10 within quota", bool(len(sf) <= p.film_quota.iloc[0]), Q[9]["answer"])
    n = len(call("get_strand_films", strand_name="Shorts Competition"))
    same("ff11 over quota", bool(n > call("get_unit_profile", unit_name="Shorts Competition").film_quota.iloc[0]),
         Q[10]["answer"])
    pc = call("get_programme_contents", unit_name="Panorama")
    per = {u: len(call("get_strand_films", strand_name=u)) for u in pc[pc.item_type == "strand"].item}
    t = max(per, key=per.get)
    same("ff12 two parts", {"parts": [[t], bool(per[t] > call("get_unit_profile", unit_name=t).film_quota.iloc[0])]},
         Q[11]["answer"])
    w = call("get_film_screenings", film_name="Winter Orchard").sort_values("tickets_sold", ascending=False)
    same("ff13 biggest audience", [w.venue.iloc[0]], Q[12]["answer"])
    d = call("get_director_films", director_name="Tomas Lindqvist")
    same("ff14 longer than 100", srt(d[d.runtime_min > 100].film), Q[13]["answer"])
    same("ff15 jury", srt(call("get_jury_members", jury_name="Documentary Jury").juror), Q[14]["answer"])
    s = call("get_film_screenings", film_name="The Salt Road")
    same("ff16 over 300", int((s.tickets_sold > 300).sum()), Q[15]["answer"])
    return ok


if __name__ == "__main__":
    with open(DATA / "questions.jsonl", "w", encoding="utf-8") as fh:
        for item in Q:
            fh.write(json.dumps(item, ensure_ascii=False) + "\n")
    print(f"{len(Q)} questions -> {DATA / 'questions.jsonl'}")
    if "--check" in sys.argv:
        sys.exit(0 if check() else 1)
