"""Gold answers for the lifeboat_service questions, computed in plain Python from the CSV files.

Run `python gold.py` to (re)write data/questions.jsonl.
"""
import csv
import json
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"


def read(name):
    with open(DATA / name, newline="") as f:
        return list(csv.DictReader(f))


areas = read("areas.csv")
boats = read("boats.csv")
launches = read("launches.csv")
crew = read("crew.csv")

area_by_name = {a["area"]: a for a in areas}
children = defaultdict(list)
for a in areas:
    if a["parent_area"]:
        children[a["parent_area"]].append(a["area"])


def within(area):
    """Every area below `area`, at any depth."""
    out, todo = [], list(children[area])
    while todo:
        x = todo.pop()
        out.append(x)
        todo.extend(children[x])
    return out


def boats_of(station):
    return [b for b in boats if b["station"] == station]


def launches_of_boat(boat):
    return [l for l in launches if l["boat"] == boat]


def launches_of_station(station):
    names = {b["boat"] for b in boats_of(station)}
    return [l for l in launches if l["boat"] in names]


def hours_used(boat):
    return sum(float(l["hours_at_sea"]) for l in launches_of_boat(boat))


def cap(boat):
    return next(float(b["engine_hours_cap"]) for b in boats if b["boat"] == boat)


questions = []


def q(type_, template, question, answer, complexity):
    questions.append({"id": f"lb{len(questions) + 1:02d}", "type": type_, "template": template,
                      "question": question, "answer": answer, "complexity": complexity})


# 1. lookup, "X of Y"
q("lookup", "attribute_of_entity", "Who is the lead officer of Pembrokeshire District?",
  [area_by_name["Pembrokeshire District"]["lead_officer"]], 1)

# 2. kind (area type) over the hierarchy
stations_anglesey = [x for x in within("Anglesey District") if area_by_name[x]["area_type"] == "station"]
q("list", "kind_within", "Which stations belong to Anglesey District?", sorted(stations_anglesey),
  len(within("Anglesey District")))

# 3. recursive count with a kind
south = within("South Wales Region")
q("count", "kind_count_recursive", "How many stations does the South Wales Region have across all its districts?",
  sum(1 for x in south if area_by_name[x]["area_type"] == "station"), len(south))

# 4. passive voice
q("list", "passive_relation", "Which boats are stationed at Tenby?",
  sorted(b["boat"] for b in boats_of("Tenby")), len(boats_of("Tenby")))

# 5. kind (boat type) with a relation
q("list", "kind_of_entity", "Which inshore lifeboats are based at Barmouth?",
  sorted(b["boat"] for b in boats_of("Barmouth") if b["boat_type"] == "inshore"), len(boats_of("Barmouth")))

# 6. possessive "Y's X" with a kind (crew position)
tenby_crew = [c for c in crew if c["station"] == "Tenby"]
q("list", "possessive_kind", "Who are Tenby's helms?",
  sorted(c["crew_member"] for c in tenby_crew if c["position"] == "helm"), len(tenby_crew))

# 7. count with a kind (incident type)
kah = launches_of_boat("Kathleen Ann Hooley")
q("count", "kind_count", "How many capsizes did the Kathleen Ann Hooley respond to?",
  sum(1 for l in kah if l["incident_type"] == "capsize"), len(kah))

# 8. top n
aaw = sorted(launches_of_boat("Alfred Albert Williams"), key=lambda l: -float(l["hours_at_sea"]))
assert float(aaw[2]["hours_at_sea"]) > float(aaw[3]["hours_at_sea"])  # no tie at the cut
q("list", "top_n", "What were the three longest launches of the Alfred Albert Williams, by hours at sea?",
  [l["launch_id"] for l in aaw[:3]], len(aaw))

# 9. limit, "go over"
q("yes_no", "limit_exceeded", "Did the Georgina Taylor go over its engine hours cap?",
  hours_used("Georgina Taylor") > cap("Georgina Taylor"), len(launches_of_boat("Georgina Taylor")) + 1)

# 10. limit, "within"
q("yes_no", "limit_within", "Is the Haydn Miller within its engine hours cap?",
  hours_used("Haydn Miller") <= cap("Haydn Miller"), len(launches_of_boat("Haydn Miller")) + 1)

# 11. two parts: lookup + count of a kind
glam = within("Glamorgan District")
q("compound", "lookup_and_count", "Who leads Glamorgan District, and how many stations does it have?",
  {"parts": [[area_by_name["Glamorgan District"]["lead_officer"]],
             sum(1 for x in glam if area_by_name[x]["area_type"] == "station")]},
  1 + len(glam))

# 12. two parts: list + total count
fish = launches_of_station("Fishguard")
q("compound", "list_and_count", "Which boats does Fishguard have, and how many launches did they make in total?",
  {"parts": [sorted(b["boat"] for b in boats_of("Fishguard")), len(fish)]},
  len(boats_of("Fishguard")) + len(fish))

# 13. multi-hop: the parent's lead officer
parent = area_by_name["Barmouth"]["parent_area"]
q("multi_hop", "parent_attribute", "Who is the lead officer of the district that Barmouth belongs to?",
  [area_by_name[parent]["lead_officer"]], 2)

# 14. multi-hop: hierarchy -> stations -> launches, a total (passive)
cb_stations = [x for x in within("Cardigan Bay District") if area_by_name[x]["area_type"] in ("station", "outpost")]
cb_launches = [l for s in cb_stations for l in launches_of_station(s)]
q("multi_hop", "total_over_hierarchy",
  "How many people were rescued by the boats of the stations in Cardigan Bay District?",
  sum(int(l["people_rescued"]) for l in cb_launches), len(cb_launches) + len(cb_stations))

# 15-16. nothing in the catalog holds these
q("unanswerable", "missing_data", "How much fuel did the Roy Barker burn on its launches?", None, 0)
q("unanswerable", "missing_data", "How much money did the Mumbles station raise in donations?", None, 0)

assert len(questions) == 16, len(questions)
with open(DATA / "questions.jsonl", "w") as f:
    for x in questions:
        f.write(json.dumps(x) + "\n")
print(f"wrote {len(questions)} questions to {DATA / 'questions.jsonl'}")
