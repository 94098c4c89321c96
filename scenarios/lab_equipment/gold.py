"""Gold answers for the lab_equipment set, computed with pandas from data/*.csv; writes data/questions.jsonl."""
import json
from pathlib import Path
import pandas as pd

D = Path(__file__).parent / "data"
units = pd.read_csv(D / "units.csv")
links = pd.read_csv(D / "unit_links.csv")
inst = pd.read_csv(D / "instruments.csv")
people = pd.read_csv(D / "researchers.csv")
book = pd.read_csv(D / "bookings.csv")
utype = dict(zip(units.unit, units.unit_type))
prof = inst.set_index("instrument")


def below(u):
    out, frontier, lvl = {}, [u], 0
    while frontier:
        lvl += 1
        nxt = list(links[links.parent_unit.isin(frontier)].unit)
        for n in nxt:
            out.setdefault(n, lvl)
        frontier = nxt
    return out


def headed(p, kind):
    return sorted(units[(units["head"] == p) & (units.unit_type == kind)].unit)


def booked(i):
    b = book[book.instrument == i]
    return float(b.hours.sum()), len(b)


qs = []


def q(template, typ, question, answer, complexity):
    qs.append({"id": f"le{len(qs)+1:03d}", "type": typ, "template": template, "question": question,
               "answer": answer, "complexity": int(complexity)})


a = headed("Dr Hannah Price", "facility")
q("relation_active", "generic", "Which core facilities does Dr Hannah Price run?", a, len(a))
a = sorted(inst[inst.owner_unit == "Nanofabrication Facility"].instrument)
q("relation_passive", "generic", "Which instruments are owned by the Nanofabrication Facility?", a, len(a))
a = headed("Prof. Ingrid Solberg", "department")
q("relation_possessive", "generic", "Which department is Prof. Ingrid Solberg the head of?", a, len(a))
fs = headed("Dr Hannah Price", "facility")
x = inst[inst.owner_unit.isin(fs)]
q("relation_join", "multi-hop", "Which instruments belong to the facilities that Dr Hannah Price heads?",
  sorted(x.instrument), len(fs) + len(x))
b = below("Department of Applied Physics")
a = sorted(u for u, l in b.items() if l == 1 and utype[u] == "group")
q("kind_direct", "generic", "Which research groups sit directly under the Department of Applied Physics?", a, len(b))
b = below("School of Life Sciences")
a = [u for u in b if utype[u] == "group"]
q("kind_count_chain", "count", "How many research groups are there anywhere under the School of Life Sciences?", len(a), len(b))
x = inst[inst.owner_unit == "Nanofabrication Facility"].sort_values("hourly_rate_gbp", ascending=False)
q("top_n", "generic", "Which three Nanofabrication Facility instruments have the highest hourly rate?", sorted(x.instrument.head(3)), len(x))
h, n = booked("Titan Krios G4")
q("total", "count", "How many hours was the Titan Krios G4 booked for in March 2024?", h, n)
m = people[people.unit == "Lindqvist Lab"]
q("count", "count", "How many people are in the Lindqvist Lab?", len(m), len(m))
h, n = booked("Zeiss LSM 980")
q("limit_check", "yes/no", "Did the March 2024 bookings of the Zeiss LSM 980 go over its monthly hour cap?",
  bool(h > prof.monthly_hour_cap["Zeiss LSM 980"]), n + 1)
h, n = booked("Raith EBPL 150")
q("limit_check", "yes/no", "Did the time booked on the Raith EBPL 150 in March 2024 stay within its monthly hour cap?",
  bool(h <= prof.monthly_hour_cap["Raith EBPL 150"]), n + 1)
h, n = booked("Glacios 2")
q("two_part", "multi-part", "What is the hourly rate of the Glacios 2, and how many hours was it booked in March 2024?",
  {"parts": [float(prof.hourly_rate_gbp["Glacios 2"]), h]}, n + 1)
x = inst[inst.owner_unit == "Light Microscopy Facility"]
q("condition", "generic", "Which instruments of the Light Microscopy Facility are charged at more than £50 an hour?",
  sorted(x[x.hourly_rate_gbp > 50].instrument), len(x))
a = sorted(units[units.unit == "Department of Applied Physics"]["head"])
q("lookup", "generic", "Who heads the Department of Applied Physics?", a, 1)
m = people[people.unit == "Menon Lab"]
q("count_kind", "count", "How many PhD students does the Menon Lab have?", int((m.position == "PhD student").sum()), len(m))
q("unanswerable", "unanswerable", "When does the service contract of the Titan Krios G4 expire?", None, 0)

with open(D / "questions.jsonl", "w") as fh:
    for x in qs:
        fh.write(json.dumps(x) + "\n")
print(len(qs))
