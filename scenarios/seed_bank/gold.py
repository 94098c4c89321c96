"""Gold answers of the seed_bank questions, computed from the CSV files with plain Python.

Run: python gold.py   (writes data/questions.jsonl)
"""
import csv
import json
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"


def rows(name):
    with open(DATA / name, newline="") as f:
        return list(csv.DictReader(f))


taxa = {t["taxon"]: t["rank"] for t in rows("taxa.csv")}
children = defaultdict(list)
for link in rows("taxon_links.csv"):
    children[link["parent_taxon"]].append(link["taxon"])
accessions = rows("accessions.csv")
for a in accessions:
    a["seed_count"] = int(a["seed_count"])
vaults = {v["vault"]: v for v in rows("vaults.csv")}
for v in vaults.values():
    v["temperature_c"] = int(v["temperature_c"])
    v["capacity_accessions"] = int(v["capacity_accessions"])
shipments = rows("shipments.csv")
for s in shipments:
    s["seeds_sent"] = int(s["seeds_sent"])
acc = {a["accession"]: a for a in accessions}


def below(taxon):
    """Every taxon under taxon with the level it sits at (1: recorded directly under it)."""
    out = {}
    frontier = [(c, 1) for c in children[taxon]]
    while frontier:
        t, lvl = frontier.pop()
        if t not in out or lvl < out[t]:
            out[t] = lvl
            frontier.extend((c, lvl + 1) for c in children[t])
    return out


def of_species(sp):
    return [a for a in accessions if a["species"] == sp]


def in_vault(v):
    return [a for a in accessions if a["vault"] == v]


questions = []


def q(qid, qtype, template, question, answer, complexity):
    questions.append({"id": qid, "type": qtype, "template": template, "question": question,
                      "answer": answer, "complexity": complexity})


# 1 lookup (who)
q("seed-01", "lookup", "who_attribute", "Who collected accession SB-1047?", [acc["SB-1047"]["collector"]], 1)
# 2 lookup, "of" phrase, a unit
q("seed-02", "lookup", "attribute_of", "What is the storage temperature of the Cryo Store?",
  vaults["Cryo Store"]["temperature_c"], 1)
# 3 count of a kind (sample_type used as a noun)
a = of_species("Phaseolus vulgaris")
q("seed-03", "count", "count_kind", "How many landraces of Phaseolus vulgaris does the bank hold?",
  sum(1 for x in a if x["sample_type"] == "landrace"), len(a))
# 4 sum
a = of_species("Triticum aestivum")
q("seed-04", "sum", "sum_total", "How many seeds of Triticum aestivum are in storage altogether?",
  sum(x["seed_count"] for x in a), len(a))
# 5 superlative
a = of_species("Hordeum vulgare")
best = max(a, key=lambda x: x["seed_count"])
assert sum(1 for x in a if x["seed_count"] == best["seed_count"]) == 1
q("seed-05", "superlative", "max_in_group", "Which accession of Hordeum vulgare has the most seeds?",
  [best["accession"]], len(a))
# 6 top three
a = sorted(in_vault("Cryo Store"), key=lambda x: -x["seed_count"])
assert a[2]["seed_count"] > a[3]["seed_count"]
q("seed-06", "top_n", "top3", "What are the three accessions with the largest seed counts in the Cryo Store?",
  [x["accession"] for x in a[:3]], len(a))
# 7 chain, direct only, of a kind
b = below("Fabaceae")
q("seed-07", "chain", "chain_direct",
  "Which genera sit directly under the family Fabaceae rather than in one of its tribes?",
  sorted(t for t, lvl in b.items() if lvl == 1 and taxa[t] == "genus"), len(b))
# 8 chain, whole chain, count of a kind
b = below("Poaceae")
q("seed-08", "chain", "chain_count_kind",
  "How many species belong to the family Poaceae, counting all of its tribes and genera?",
  sum(1 for t in b if taxa[t] == "species"), len(b))
# 9 chain joined with the accessions of each species
b = below("Solanaceae")
sp = {t for t in b if taxa[t] == "species"}
a = [x for x in accessions if x["species"] in sp]
q("seed-09", "chain", "chain_join_count",
  "How many accessions does the bank hold of the family Solanaceae as a whole?", len(a), len(b) + len(a))
# 10 passive relation
s = [x for x in shipments if x["recipient"] == "Nordic Crop Institute"]
q("seed-10", "relation", "passive", "Which accessions were sent to the Nordic Crop Institute?",
  sorted({x["accession"] for x in s}), len(s))
# 11 sum in a named month
s = [x for x in shipments if x["recipient"] == "Lowland Breeding Trust"]
may = [x for x in s if x["ship_date"].startswith("2024-05")]
q("seed-11", "sum", "sum_month", "How many seeds were sent to the Lowland Breeding Trust in May 2024?",
  sum(x["seeds_sent"] for x in may), len(s))
# 12 limit over every vault
held = Counter(x["vault"] for x in accessions)
q("seed-12", "limit", "limit_which", "Which vaults hold more accessions than their capacity allows?",
  sorted(v for v in vaults if held[v] > vaults[v]["capacity_accessions"]), len(accessions) + len(vaults))
# 13 limit, yes/no
q("seed-13", "limit", "limit_yes_no", "Is the Main Vault over its accession capacity?",
  held["Main Vault"] > vaults["Main Vault"]["capacity_accessions"], held["Main Vault"] + 1)
# 14 share of a kind
a = of_species("Zea mays")
q("seed-14", "share", "share_kind", "What percentage of the Zea mays accessions are landraces?",
  round(100.0 * sum(1 for x in a if x["sample_type"] == "landrace") / len(a), 1), len(a))
# 15 two parts
a = [x for x in of_species("Pisum sativum") if x["country"] == "Ethiopia"]
q("seed-15", "compound", "list_and_any",
  "Which accessions of Pisum sativum were collected in Ethiopia, and is any of them a landrace?",
  {"parts": [sorted(x["accession"] for x in a), any(x["sample_type"] == "landrace" for x in a)]},
  len(of_species("Pisum sativum")))
# 16 nothing in the catalog holds germination tests
q("seed-16", "unanswerable", "no_tool", "How many germination tests has accession SB-1047 been through?", None, 0)

assert len(questions) == 16
with open(DATA / "questions.jsonl", "w") as out:
    for item in questions:
        out.write(json.dumps(item) + "\n")
for item in questions:
    print(item["id"], "|", item["question"], "|", json.dumps(item["answer"]))
