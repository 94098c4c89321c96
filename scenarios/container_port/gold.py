"""Gold answers of the container_port set, computed with pandas from the CSV files (independently of the catalog).

python gold.py   writes data/questions.jsonl
"""
import json
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"

facilities = pd.read_csv(DATA / "facilities.csv")
links = pd.read_csv(DATA / "facility_links.csv")
berths = pd.read_csv(DATA / "berths.csv")
vessels = pd.read_csv(DATA / "vessels.csv")
calls = pd.read_csv(DATA / "port_calls.csv")

ftype = dict(zip(facilities.facility, facilities.facility_type))


def within(facility):
    """Every facility inside `facility` with its level (1: directly inside it), breadth first."""
    out, frontier, level = {}, [facility], 0
    while frontier:
        level += 1
        children = links[links.parent_facility.isin(frontier)].facility.tolist()
        frontier = [c for c in children if c not in out]
        for c in frontier:
            out[c] = level
    return out


def throughput(berth):
    c = calls[calls.berth == berth]
    cap = int(berths.loc[berths.berth == berth, "quarterly_teu_capacity"].iloc[0])
    return len(c), int(c.teu_moved.sum()), cap


def operated(operator, kind):
    rows = facilities[facilities.operator == operator]
    return sorted(rows[rows.facility_type == kind].facility), len(rows)


questions = []


def q(qid, type_, template, question, answer, complexity):
    questions.append({"id": qid, "type": type_, "template": template, "question": question,
                      "answer": answer, "complexity": int(complexity)})


# 1-3: relations in three voices; the operators also run terminals and quays, so the kind matters.
a, n = operated("Eastmoor Terminals Ltd", "berth")
q("sp01", "generic", "relation_active", "Which berths does Eastmoor Terminals Ltd operate?", a, n)
v = vessels[vessels.shipping_line == "Aurora Feeder Services"]
q("sp02", "generic", "relation_passive", "Which vessels are operated by Aurora Feeder Services?", sorted(v.vessel), len(v))
a, n = operated("Brightwater Stevedoring", "berth")
q("sp03", "generic", "relation_possessive", "Which berths is Brightwater Stevedoring the operator of?", a, n)

# 4: two hops: the line's vessels -> the berths of their calls.
v = vessels[vessels.shipping_line == "Nordhavn Shipping"]
c = calls[calls.vessel.isin(v.vessel)]
q("sp04", "multi-hop", "relation_join", "Which berths did the vessels that Nordhavn Shipping operates call at?",
  sorted(c.berth.unique()), len(v) + len(c))

# 5: direct children of one kind (the terminal also holds a stand-alone berth; its quays hold berths).
sub = within("Eastmoor Container Terminal")
q("sp05", "generic", "kind_direct", "Which quays sit directly inside the Eastmoor Container Terminal?",
  sorted(x for x, lvl in sub.items() if lvl == 1 and ftype[x] == "quay"), sum(1 for lvl in sub.values() if lvl == 1))

# 6-7: counts of one kind anywhere below a node.
sub = within("Port of Saltmere")
q("sp06", "count", "kind_count_chain", "How many berths are there across the whole Port of Saltmere?",
  sum(1 for x in sub if ftype[x] == "berth"), len(sub))
sub = within("Eastmoor Container Terminal")
q("sp07", "count", "kind_count_chain",
  "How many berths does the Eastmoor Container Terminal have, counting the ones along its quays?",
  sum(1 for x in sub if ftype[x] == "berth"), len(sub))

# 8: top three of one line's fleet by gross tonnage.
v = vessels[vessels.shipping_line == "Meridian Container Lines"].sort_values("gross_tonnage", ascending=False)
assert v.gross_tonnage.iloc[2] > v.gross_tonnage.iloc[3]
q("sp08", "generic", "top_n", "Which three Meridian Container Lines ships have the largest gross tonnage?",
  sorted(v.vessel.iloc[:3]), len(v))

# 9: a total over one berth.
n, teu, cap = throughput("Berth W3")
q("sp09", "count", "total", "How many TEU were moved across Berth W3 during the quarter?", teu, n)

# 10: a count over one vessel.
c = calls[calls.vessel == "Kestrel Dawn"]
q("sp10", "count", "count", "How many port calls did the Kestrel Dawn make at Saltmere this quarter?", len(c), len(c))

# 11: a condition on a number within one berth's calls.
c = calls[calls.berth == "Berth W2"]
q("sp11", "generic", "condition", "Which vessels moved more than 2,200 TEU in a single call at Berth W2?",
  sorted(c[c.teu_moved > 2200].vessel.unique()), len(c))

# 12-13: yes/no limit checks against the quarterly capacity stored in the data.
n, teu, cap = throughput("Berth K1")
q("sp12", "multi-hop", "limit_yes_no", "Did Berth K1 handle more TEU this quarter than its quarterly capacity?",
  teu > cap, n + 1)
n, teu, cap = throughput("Berth W1")
q("sp13", "multi-hop", "limit_yes_no", "Is Berth W1 over its quarterly TEU capacity?", teu > cap, n + 1)

# 14: two parts: the busiest berth (by TEU) directly on a quay, then its capacity check.
sub = within("Eastmoor North Quay")
on_quay = [x for x, lvl in sub.items() if lvl == 1 and ftype[x] == "berth"]
t = {b: throughput(b) for b in on_quay}
ranked = sorted(on_quay, key=lambda b: -t[b][1])
assert t[ranked[0]][1] > t[ranked[1]][1]
best = ranked[0]
q("sp14", "multi-hop", "two_part",
  "Which berth on Eastmoor North Quay moved the most TEU this quarter, and did it exceed its quarterly capacity?",
  {"parts": [[best], t[best][1] > t[best][2]]}, len(on_quay) + sum(x[0] for x in t.values()) + 1)

# 15: one fact looked up.
f = facilities[facilities.facility == "Berth E5"]
q("sp15", "generic", "lookup", "Who operates Berth E5?", sorted(f.operator), len(f))

# 16: a category filter over one line's fleet.
v = vessels[vessels.shipping_line == "Kestrel Line"]
q("sp16", "generic", "condition", "Which Kestrel Line vessels are flagged in Malta?", sorted(v[v.flag == "Malta"].vessel),
  len(v))

# 17-18: data the catalog does not hold.
q("sp17", "generic", "no_tool", "How much did Kestrel Line pay in harbour dues in May?", None, 0)
q("sp18", "generic", "no_tool", "How many dockworkers were on shift at Berth W2 on 14 May?", None, 0)

with open(DATA / "questions.jsonl", "w") as f:
    for item in questions:
        f.write(json.dumps(item) + "\n")
print(f"wrote {len(questions)} questions to {DATA / 'questions.jsonl'}")
