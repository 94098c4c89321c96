"""Computes the gold answer of every question from the CSV files and writes data/questions.jsonl."""
import json
from pathlib import Path

import pandas as pd

HERE = Path(__file__).parent
D = HERE / "data"
units = pd.read_csv(D / "units.csv", keep_default_na=False)
centres = pd.read_csv(D / "centres.csv")
pools = pd.read_csv(D / "pools.csv")
classes = pd.read_csv(D / "classes.csv")
enrol = pd.read_csv(D / "enrolments.csv")
sessions = pd.read_csv(D / "sessions.csv")
tests = pd.read_csv(D / "water_tests.csv")
incidents = pd.read_csv(D / "incidents.csv")
lifeguards = pd.read_csv(D / "lifeguards.csv")


def below(unit):
    """(sub_unit, unit_type, level) of every unit below `unit`."""
    out, frontier, level = [], [unit], 0
    while frontier:
        level += 1
        kids = units[units.parent_unit.isin(frontier)]
        out += [(u, t, level) for u, t in zip(kids.unit, kids.unit_type)]
        frontier = list(kids.unit)
    return out


def centre_row(c):
    r = centres[centres.centre == c]
    assert len(r) == 1, c
    return r.iloc[0]


Q = []


def q(qid, typ, template, question, answer, complexity):
    if isinstance(answer, list):
        answer = sorted(answer)
    Q.append({"id": qid, "type": typ, "template": template, "question": question, "answer": answer,
              "complexity": int(complexity)})


# lookup
q("LP01", "lookup", "attr_of_entity", "Which town is Quarry Hill Baths in?", str(centre_row("Quarry Hill Baths").town), 1)

# list
x = lifeguards[lifeguards.centre == "Glenrow Leisure Centre"]
q("LP02", "list", "related_entities", "Who are the lifeguards at Glenrow Leisure Centre?", list(x.lifeguard), len(x))

# count
x = incidents[incidents.pool == "Harbour Road Main Pool"]
q("LP03", "count", "count_rows", "How many incidents have been logged at Harbour Road Main Pool?", len(x), len(x))

# total
x = sessions[sessions.pool == "Seaview Main Pool"]
q("LP04", "total", "sum_amount", "What's the total attendance across every session held in Seaview Main Pool?",
  int(x.swimmers.sum()), len(x))

# extreme
x = sessions[sessions.pool == "Kelso Main Pool"]
q("LP05", "extreme", "max_value", "What was the biggest turnout we've had for a single session in Kelso Main Pool?",
  int(x.swimmers.max()), len(x))

# top_n
x = pools[pools.centre == "Riverside Aquatics Centre"].sort_values("max_bathers", ascending=False)
assert x.max_bathers.iloc[2] > x.max_bathers.iloc[3]
q("LP06", "top_n", "top_by_column", "Which three pools at Riverside Aquatics Centre can take the most bathers?",
  list(x.pool.head(3)), len(x))

# filter
x = tests[(tests.pool == "Fenwick Main Pool")]
f = x[x.outcome == "fail"]
q("LP07", "filter", "filter_category", "On which dates did Fenwick Main Pool fail its water test?",
  sorted(set(f.test_date)), len(x))

# multi_hop: centre -> pools -> classes -> instructors
ps = pools[pools.centre == "Seaview Swim Centre"].pool
x = classes[classes.pool.isin(ps)]
q("LP08", "multi_hop", "two_hop_list", "Which instructors teach lessons at Seaview Swim Centre?",
  sorted(set(x.instructor)), len(ps) + len(x))

# hierarchy: count of centres at any depth below a region
sub = [u for u, t, l in below("Southern Region") if t == "centre"]
q("LP09", "hierarchy", "chain_count_kind",
  "How many leisure centres does the Southern Region run, including the ones in its areas?", len(sub),
  len(below("Southern Region")))

# hierarchy: chain joined with the pools of each centre
sub = [u for u, t, l in below("Central Region") if t == "centre"]
x = pools[pools.centre.isin(sub)]
q("LP10", "hierarchy", "chain_join_count", "Across all the centres in Central Region, how many pools do we have?",
  len(x), len(below("Central Region")) + len(x))

# limit: enrolments of a class against its pupil limit
cc = "LAR-L-WED-1030"
n = int((enrol.class_code == cc).sum())
cap = int(classes.loc[classes.class_code == cc, "max_pupils"].iloc[0])
q("LP11", "limit", "count_vs_limit", f"Has class {cc} got more pupils enrolled than its limit allows?", n > cap, n + 1)

# period
x = sessions[(sessions.pool == "Millbrook Main Pool") & sessions.session_date.str.startswith("2024-03")]
q("LP12", "period", "sum_in_month", "How many swimmers came to sessions at Millbrook Main Pool in March 2024?",
  int(x.swimmers.sum()), len(x))

# share
x = incidents[incidents.pool == "Moss Lane Main Pool"]
share = round(100.0 * (x.severity == "serious").sum() / len(x), 1)
q("LP13", "share", "share_of_count", "What percentage of the incidents at Moss Lane Main Pool were serious?", share,
  len(x))

# two_part
r = centre_row("Aldermoor Leisure Centre")
q("LP14", "two_part", "two_attrs", "Who manages Aldermoor Leisure Centre, and what year did it open?",
  {"parts": [str(r.manager), int(r.opened_year)]}, 1)

# yes_no
x = pools[pools.centre == "Larkspur Leisure Centre"]
q("LP15", "yes_no", "exists_kind", "Is there a hydrotherapy pool at Larkspur Leisure Centre?",
  bool((x.pool_type == "hydrotherapy").any()), len(x))

# unanswerable: no prices in the catalog
q("LP16", "unanswerable", "not_in_catalog", "How much does an adult swim cost at Kelso Baths?", None, 0)

assert len(Q) == 16
with open(D / "questions.jsonl", "w") as f:
    for row in Q:
        f.write(json.dumps(row) + "\n")
print(f"wrote {len(Q)} questions to {D / 'questions.jsonl'}")
