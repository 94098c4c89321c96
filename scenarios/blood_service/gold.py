"""Gold answers for the blood-service questions, computed from the CSV files with pandas alone.

Writes data/questions.jsonl (one JSON object per line).
"""
import json
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"

sites = pd.read_csv(DATA / "sites.csv", keep_default_na=False)
donors = pd.read_csv(DATA / "donors.csv", keep_default_na=False)
donations = pd.read_csv(DATA / "donations.csv", keep_default_na=False)
hospitals = pd.read_csv(DATA / "hospitals.csv", keep_default_na=False)
issues = pd.read_csv(DATA / "issues.csv", keep_default_na=False)


def one(df):
    assert len(df) == 1, df
    return df.iloc[0]


def below(site):
    """Every site reporting to `site`, at any depth, with its level."""
    out, frontier, level = {}, [site], 0
    while frontier:
        level += 1
        children = sites[sites.parent_site.isin(frontier)].site.tolist()
        frontier = [c for c in children if c not in out]
        for c in frontier:
            out[c] = level
    return out


questions = []


def q(type_, template, question, answer, complexity):
    questions.append({"id": f"BD{len(questions) + 1:02d}", "type": type_, "template": template,
                      "question": question, "answer": answer, "complexity": int(complexity)})


# 1 lookup: a donor's blood group
row = one(donors[donors.donor == "Hannah Holroyd"])
q("lookup", "donor_blood_group", "What blood group is Hannah Holroyd?", row.blood_group, 1)

# 2 lookup: donor chairs at a donor centre
row = one(sites[sites.site == "Coventry Donor Centre"])
q("lookup", "site_chairs", "How many donor chairs are there at the Coventry Donor Centre?", int(row.donor_chairs), 1)

# 3 list: donors registered at a donor centre
rows = donors[donors.home_centre == "Sheffield Donor Centre"]
q("list", "centre_donors", "Who are the donors registered at the Sheffield Donor Centre?",
  sorted(rows.donor.tolist()), len(rows))

# 4 count: registered donors of a donor centre
rows = donors[donors.home_centre == "Bradford Donor Centre"]
q("count", "centre_donor_count", "How many registered donors does the Bradford Donor Centre have?",
  int(rows.donor.nunique()), len(rows))

# 5 total: volume collected at a donor centre (ml)
rows = donations[donations.site == "West End Donor Centre"]
q("total", "site_volume", "What total volume was collected at the West End Donor Centre, in millilitres?",
  int(rows.volume_ml.sum()), len(rows))

# 6 top_n: the three hospitals issued the most units by a processing centre
rows = issues[issues.site == "Nottingham Processing Centre"]
per_hospital = rows.groupby("hospital").units.sum().sort_values(ascending=False)
assert per_hospital.iloc[2] > per_hospital.iloc[3]
q("top_n", "centre_top_hospitals", "Which three hospitals were issued the most units by the Nottingham Processing Centre?",
  sorted(per_hospital.index[:3].tolist()), len(rows))

# 7 extreme: the largest quarterly allocation among a city's hospitals
rows = hospitals[hospitals.city == "Birmingham"].sort_values("allocation_units", ascending=False)
assert rows.allocation_units.iloc[0] > rows.allocation_units.iloc[1]
q("extreme", "city_max_allocation", "Which Birmingham hospital has the biggest quarterly allocation?",
  rows.hospital.iloc[0], len(rows))

# 8 share: percentage of a donor centre's donations that were whole blood
rows = donations[donations.site == "Brighton Donor Centre"]
share = 100 * (rows.component == "whole blood").sum() / len(rows)
q("share", "site_component_share", "What percentage of the donations taken at the Brighton Donor Centre were whole blood?",
  round(float(share), 1), len(rows))

# 9 limit: hospitals issued more units than their quarterly allocation
issued = issues.groupby("hospital").units.sum()
check = hospitals.set_index("hospital").join(issued.rename("issued"))
over = check[check.issued > check.allocation_units]
q("limit", "hospitals_over_allocation", "Which hospitals have been issued more units than their quarterly allocation?",
  sorted(over.index.tolist()), len(issues) + len(hospitals))

# 10 hierarchy (direct): processing centres reporting straight to a region
rows = sites[(sites.parent_site == "Northern Region")]
assert set(rows.site_type) == {"processing centre"}
q("hierarchy_direct", "region_direct_centres", "Which processing centres report directly to the Northern Region?",
  sorted(rows.site.tolist()), len(rows))

# 11 hierarchy (any depth): every site under a processing centre
tree = below("Manchester Processing Centre")
q("hierarchy_any_depth", "centre_all_sub_sites", "Which sites sit under the Manchester Processing Centre, at any level?",
  sorted(tree), len(tree))

# 12 multi_hop: trusts of the hospitals a processing centre issued blood to
supplied = issues[issues.site == "Leeds Processing Centre"].hospital.unique()
trusts = hospitals[hospitals.hospital.isin(supplied)].trust
q("multi_hop", "centre_hospital_trusts",
  "Which NHS trusts run the hospitals that the Leeds Processing Centre issued blood to?",
  sorted(trusts.unique().tolist()), len(issues[issues.site == "Leeds Processing Centre"]) + len(trusts))

# 13 yes_no: has a donor ever given platelets
rows = donations[donations.donor == "Connor Hughes"]
q("yes_no", "donor_gave_component", "Has Connor Hughes ever donated platelets?",
  bool((rows.component == "platelets").any()), len(rows))

# 14 two_part: a donor's blood group and number of donations
row = one(donors[donors.donor == "Joseph Hughes"])
rows = donations[donations.donor == "Joseph Hughes"]
q("two_part", "donor_group_and_count", "What is Joseph Hughes's blood group, and how many donations has he given?",
  {"parts": [row.blood_group, int(rows.donation_id.nunique())]}, len(rows) + 1)

# 15 period: donations at a donor centre in one month
rows = donations[(donations.site == "Leicester Donor Centre") & donations.donation_date.str.startswith("2024-05")]
q("period", "site_month_count", "How many donations were taken at the Leicester Donor Centre in May 2024?",
  int(len(rows)), len(rows))

# 16 limit by count (own choice): a centre's donors who gave more donations than their annual limit
centre = donors[donors.home_centre == "Plymouth Donor Centre"].set_index("donor")
given = donations.groupby("donor").size().rename("given")
check = centre.join(given).fillna({"given": 0})
over = check[check.given > check.annual_limit]
q("limit_count", "centre_donors_over_limit",
  "Which donors registered at the Plymouth Donor Centre have given more donations than their annual donation limit?",
  sorted(over.index.tolist()), len(centre) + int(donations.donor.isin(centre.index).sum()))

names = ["Hannah Holroyd", "Coventry Donor Centre", "Sheffield Donor Centre", "Bradford Donor Centre",
         "West End Donor Centre", "Nottingham Processing Centre", "Birmingham", "Brighton Donor Centre",
         "Northern Region", "Manchester Processing Centre", "Leeds Processing Centre", "Connor Hughes", "platelets",
         "whole blood", "Joseph Hughes", "Leicester Donor Centre", "Plymouth Donor Centre"]
values = set()
for df in (sites, donors, donations, hospitals, issues):
    for col in df.columns:
        if not pd.api.types.is_numeric_dtype(df[col]):
            values |= set(df[col])
assert all(n in values for n in names), [n for n in names if n not in values]
assert len(questions) == 16

with open(DATA / "questions.jsonl", "w") as f:
    for item in questions:
        f.write(json.dumps(item) + "\n")

if __name__ == "__main__":
    for item in questions:
        print(item["id"], item["type"], json.dumps(item["answer"]), item["complexity"])
