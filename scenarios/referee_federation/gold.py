"""Gold answers for the referee_federation questions, computed from data/*.csv with pandas alone.

Writes data/questions.jsonl. Run generate.py first.
"""
import json
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"

associations = pd.read_csv(DATA / "associations.csv", keep_default_na=False)
referees = pd.read_csv(DATA / "referees.csv", keep_default_na=False)
matches = pd.read_csv(DATA / "matches.csv", keep_default_na=False)
appointments = pd.read_csv(DATA / "appointments.csv", keep_default_na=False)
assessments = pd.read_csv(DATA / "assessments.csv", keep_default_na=False)
appt = appointments.merge(matches, on="match_id", how="left", validate="many_to_one")
assert appt.date.notna().all()


def r1(x):
    return round(float(x), 1)


def one(frame, what):
    assert len(frame) == 1, (what, len(frame))
    return frame.iloc[0]


def exists(col, frame, value):
    assert value in set(frame[col]), (col, value)
    return value


def beneath(association):
    """{association: level} for every association below `association` (level 1: reports to it directly)."""
    out, frontier, level = {}, [association], 0
    while frontier:
        level += 1
        nxt = list(associations[associations.parent_association.isin(frontier)].association)
        for a in nxt:
            out.setdefault(a, level)
        frontier = nxt
    return out


questions = []


def q(qid, qtype, template, text, answer, complexity):
    if isinstance(answer, list):
        answer = sorted(answer)
    questions.append({"id": qid, "type": qtype, "template": template, "question": text, "answer": answer,
                      "complexity": int(complexity)})


# RF01 lookup: a referee's season match cap
ref = exists("referee", referees, "Niamh Nair")
q("RF01", "lookup", "referee_cap", f"What is {ref}'s season match cap?",
  int(one(referees[referees.referee == ref], ref).season_match_cap), 1)

# RF02 lookup: the association a referee is registered with
ref = exists("referee", referees, "Chloe Nair")
q("RF02", "lookup", "referee_association", f"Which association is {ref} registered with?",
  one(referees[referees.referee == ref], ref).association, 1)

# RF03 list: the officials of one match
mid = exists("match_id", matches, "M093")
sel = appointments[appointments.match_id == mid]
q("RF03", "list", "match_officials", f"Who made up the officiating team for match {mid}?", list(sel.referee), len(sel))

# RF04 count: a referee's appointments this season
ref = exists("referee", appointments, "Leah Holt")
sel = appointments[appointments.referee == ref]
q("RF04", "count", "referee_appointment_count", f"How many appointments has {ref} had this season?",
  len(sel), len(sel))

# RF05 total: a referee's match fees
ref = exists("referee", appointments, "Jonas Caird")
sel = appointments[appointments.referee == ref]
q("RF05", "total", "referee_total_fees", f"How much has {ref} earned in match fees so far this season, in euros?",
  r1(sel.fee_eur.sum()), len(sel))

# RF06 top_n: the three referees of an association with the most appointments
assoc = exists("association", referees, "Brackwater County FA")
members = referees[referees.association == assoc]
counts = appointments[appointments.referee.isin(members.referee)].groupby("referee").size()
counts = counts.reindex(members.referee, fill_value=0).sort_values(ascending=False)
assert counts.iloc[2] > counts.iloc[3], "tie at third place"
q("RF06", "top_n", "association_top_appointments",
  f"Which three referees registered with {assoc} have been appointed to the most matches?",
  list(counts.index[:3]), int(counts.sum()))

# RF07 extreme: the match that meant a referee's longest journey
ref = exists("referee", appointments, "Chloe Nair")
sel = appointments[appointments.referee == ref].sort_values("travel_km", ascending=False)
assert sel.travel_km.iloc[0] > sel.travel_km.iloc[1]
q("RF07", "extreme", "referee_longest_trip", f"For which match did {ref} have to travel the furthest?",
  sel.match_id.iloc[0], len(sel))

# RF08 share: percentage of a referee's appointments in the middle (centre referee)
ref = exists("referee", appointments, "Rafael Ferri")
sel = appointments[appointments.referee == ref]
q("RF08", "share", "referee_centre_share",
  f"What percentage of {ref}'s appointments this season were as the centre referee?",
  r1(100.0 * (sel.role == "centre").sum() / len(sel)), len(sel))

# RF09 limit: referees anywhere under a regional FA appointed more often than their season cap
region = exists("association", associations, "Northern Regional FA")
scope = set(beneath(region)) | {region}
members = referees[referees.association.isin(scope)]
counts = appointments.groupby("referee").size()
over = [r for r, cap in zip(members.referee, members.season_match_cap) if counts.get(r, 0) > cap]
q("RF09", "limit", "region_over_cap",
  f"Which referees in the {region}, including its county and district associations, have been given more "
  f"appointments than their season match cap allows?", over,
  len(members) + len(appointments[appointments.referee.isin(members.referee)]))

# RF10 hierarchy (direct): associations reporting straight to a regional FA
region = exists("association", associations, "Southern Regional FA")
sel = associations[associations.parent_association == region]
q("RF10", "hierarchy_direct", "direct_members", f"Which associations report directly to the {region}?",
  list(sel.association), len(sel))

# RF11 hierarchy (any depth): referees registered with a county FA or any association beneath it
county = exists("association", associations, "Harlow County FA")
scope = set(beneath(county)) | {county}
sel = referees[referees.association.isin(scope)]
assert len(sel) > len(referees[referees.association == county])
q("RF11", "hierarchy_any_depth", "structure_referee_count",
  f"How many referees come under {county} altogether, counting those registered with its district associations?",
  len(sel), len(sel))

# RF12 multi_hop: assessors who have marked the referees of a district FA
assoc = exists("association", referees, "Eastfield District FA")
refs = set(referees[referees.association == assoc].referee)
sel = assessments[assessments.referee.isin(refs)]
q("RF12", "multi_hop", "association_assessors",
  f"Which assessors have written reports on referees from {assoc}?", sorted(set(sel.assessor)),
  len(refs) + len(sel))

# RF13 yes_no: has a referee officiated in a competition
ref = exists("referee", appt, "Leah Holt")
comp = exists("competition", matches, "Premier Division")
sel = appt[appt.referee == ref]
q("RF13", "yes_no", "referee_competition_any", f"Has {ref} officiated a {comp} match this season?",
  bool((sel.competition == comp).any()), len(sel))

# RF14 two_part: a referee's grade and the number of assessment reports on them
ref = exists("referee", referees, "Priya Pryce")
grade = one(referees[referees.referee == ref], ref).grade
sel = assessments[assessments.referee == ref]
q("RF14", "two_part", "grade_and_assessments",
  f"What grade is {ref}, and how many assessment reports has she received?", {"parts": [grade, len(sel)]},
  1 + len(sel))

# RF15 period: a referee's appointments in one month
ref = exists("referee", appt, "Chloe Nair")
sel = appt[(appt.referee == ref) & appt.date.str.startswith("2024-12")]
q("RF15", "period", "referee_month_count", f"How many matches was {ref} appointed to in December 2024?",
  len(sel), len(sel))

# RF16 average (own choice): a referee's mean assessment mark
ref = exists("referee", assessments, "Priya Quintero")
sel = assessments[assessments.referee == ref]
q("RF16", "average", "referee_mean_mark", f"What is {ref}'s average assessment mark?",
  round(float(sel.mark.mean()), 2), len(sel))

with open(DATA / "questions.jsonl", "w") as fh:
    for item in questions:
        fh.write(json.dumps(item) + "\n")
print(f"wrote {len(questions)} questions to {DATA / 'questions.jsonl'}")
