"""Gold answers of the clinical_trials questions, computed from the CSV files with pandas alone.

Run from anywhere: `python gold.py` writes data/questions.jsonl next to it. Nothing of vadaorchestra is used.
"""
import json
from pathlib import Path

import pandas as pd

HERE = Path(__file__).parent
DATA = HERE / "data"

trials = pd.read_csv(DATA / "trials.csv")
sites = pd.read_csv(DATA / "sites.csv", keep_default_na=False)
allocations = pd.read_csv(DATA / "site_allocations.csv")
participants = pd.read_csv(DATA / "participants.csv")
events = pd.read_csv(DATA / "adverse_events.csv").merge(participants[["participant", "trial", "site"]], on="participant")
payments = pd.read_csv(DATA / "site_payments.csv")


def num(x):
    x = float(x)
    return int(x) if x.is_integer() else round(x, 2)


def satellites(site):
    return sorted(sites.loc[sites.hub_site == site, "site"])


def all_satellites(site):
    out, todo = [], satellites(site)
    while todo:
        s = todo.pop()
        out.append(s)
        todo.extend(satellites(s))
    return sorted(out)


questions = []


def q(qid, qtype, template, question, answer, complexity):
    questions.append({"id": f"ct{qid:02d}", "type": qtype, "template": template, "question": question,
                      "answer": answer, "complexity": int(complexity)})


# 1 lookup of a person
row = sites[sites.site == "Klinikum Altmark"]
q(1, "lookup", "site_pi", "Who is the principal investigator at Klinikum Altmark?",
  row.principal_investigator.iloc[0], 1)

# 2 lookup of a number
row = trials[trials.trial == "CORALINE-3"]
q(2, "lookup", "trial_target", "What is the target enrolment for CORALINE-3?", int(row.target_enrolment.iloc[0]), 1)

# 3 list
rows = allocations[allocations.trial == "DELTA-KIDS"]
q(3, "list", "trial_sites", "Which sites are taking part in DELTA-KIDS?", sorted(rows.site), len(rows))

# 4 count with a second named entity
rows = participants[(participants.site == "Odense Research Clinic") & (participants.trial == "ASTER-2")]
q(4, "count", "site_trial_enrolled", "How many participants has Odense Research Clinic enrolled in ASTER-2?",
  len(rows), len(rows))

# 5 total with a second named entity
rows = payments[(payments.site == "Wakefield Research Centre") & (payments.trial == "CORALINE-3")]
q(5, "total", "site_trial_paid", "How much has Wakefield Research Centre been paid for CORALINE-3?",
  num(rows.amount_eur.sum()), len(rows))

# 6 top three sites of a trial by participants enrolled (no tie at the cut)
counts = participants[participants.trial == "ASTER-2"].groupby("site").size().sort_values(ascending=False)
assert counts.iloc[2] > counts.iloc[3]
q(6, "top_n", "top3_sites_enrolment", "Which three sites have enrolled the most participants in ASTER-2?",
  list(counts.index[:3]), int(counts.sum()))

# 7 extreme over every site: adverse events counted per site
counts = events.groupby("site").size().sort_values(ascending=False)
assert counts.iloc[0] > counts.iloc[1]
q(7, "extreme", "site_most_adverse_events", "Which site has reported the most adverse events?",
  counts.index[0], len(events))

# 8 share of a trial's target enrolment reached
n = (participants.trial == "BRIGHTWAY").sum()
target = trials.loc[trials.trial == "BRIGHTWAY", "target_enrolment"].iloc[0]
q(8, "share", "target_share", "What percentage of BRIGHTWAY's target enrolment has been reached so far?",
  round(100 * n / target, 1), n + 1)

# 9 limit check: sites over their enrolment cap for one trial
enrolled = participants[participants.trial == "CORALINE-3"].groupby("site").size().rename("enrolled")
caps = allocations[allocations.trial == "CORALINE-3"].set_index("site").join(enrolled).fillna(0)
over = caps[caps.enrolled > caps.enrolment_cap]
q(9, "limit", "sites_over_cap",
  "Which sites have enrolled more CORALINE-3 participants than their enrolment cap allows?",
  sorted(over.index), int(enrolled.sum()) + len(caps))

# 10 hierarchy, first level only
direct = satellites("Hospital San Telmo")
assert direct != all_satellites("Hospital San Telmo")   # the first level differs from the whole chain
q(10, "hierarchy", "direct_satellites", "Which sites does Hospital San Telmo oversee directly?", direct, len(direct))

# 11 hierarchy at any depth
below = all_satellites("St Aldric University Hospital")
q(11, "hierarchy", "satellites_any_depth",
  "Which sites come under St Aldric University Hospital, either directly or through another site?",
  below, len(below))

# 12 two hops: the principal investigators of the sites of one trial
rows = allocations[allocations.trial == "BRIGHTWAY"]
pis = sites[sites.site.isin(rows.site)]
q(12, "multi_hop", "pis_of_trial_sites", "Who are the principal investigators of the sites running BRIGHTWAY?",
  sorted(pis.principal_investigator), len(rows) + len(pis))

# 13 yes/no: any severe adverse event at one site
rows = events[events.site == "Svendborg Outpatient Clinic"]
q(13, "yes_no", "site_any_severe", "Has Svendborg Outpatient Clinic reported any severe adverse events?",
  bool((rows.severity == "severe").any()), len(rows))

# 14 two parts: a site's participants, and how many of them withdrew
rows = participants[participants.site == "Hospital San Telmo"]
q(14, "two_part", "site_enrolled_and_withdrawn",
  "How many participants has Hospital San Telmo enrolled, and how many of them have withdrawn?",
  {"parts": [len(rows), int((rows.status == "withdrawn").sum())]}, len(rows))

# 15 a month: payments to one site in March 2024
site_pay = payments[payments.site == "Klinikum Altmark"]
rows = site_pay[site_pay.paid_date.str.startswith("2024-03")]
assert len(rows) < len(site_pay)
q(15, "period", "site_paid_in_month", "How much was paid to Klinikum Altmark in March 2024?",
  num(rows.amount_eur.sum()), len(rows))

# 16 count of a kind within a trial
rows = events[(events.trial == "CORALINE-3") & (events.severity == "severe")]
q(16, "count", "trial_severe_events", "How many severe adverse events have been recorded in CORALINE-3?",
  len(rows), len(rows))

assert len(questions) == 16
with open(DATA / "questions.jsonl", "w") as f:
    for item in questions:
        f.write(json.dumps(item) + "\n")
print(f"wrote {len(questions)} questions to {DATA / 'questions.jsonl'}")
