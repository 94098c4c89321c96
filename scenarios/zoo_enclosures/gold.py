"""Gold answers for the zoo_enclosures questions, computed in plain Python from the CSV files.

Run `python gold.py` in this folder (or `python gold.py FOLDER`) to (re)write data/questions.jsonl.
"""
import csv
import json
import os
import sys


def read(folder, name):
    with open(os.path.join(folder, "data", name), newline="") as fh:
        return list(csv.DictReader(fh))


def build(folder):
    areas = read(folder, "areas.csv")
    enclosures = read(folder, "enclosures.csv")
    animals = read(folder, "animals.csv")
    keepers = read(folder, "keepers.csv")
    food = read(folder, "food_costs.csv")
    budgets = read(folder, "zone_budgets.csv")

    children = {}
    for a in areas:
        children.setdefault(a["parent_area"], []).append(a["area"])

    def within(area, include_self=True):
        """Every area inside `area`, at any depth (and `area` itself when include_self)."""
        out, todo = ([area] if include_self else []), list(children.get(area, []))
        while todo:
            x = todo.pop()
            out.append(x)
            todo.extend(children.get(x, []))
        return out

    def animals_in(area):
        inside = set(within(area))
        return [a for a in animals if a["enclosure"] in inside]

    def keepers_of(area):
        return [k for k in keepers if k["area"] == area]

    def capacity(enclosure):
        return next(int(e["capacity"]) for e in enclosures if e["enclosure"] == enclosure)

    def profile(animal):
        return next(a for a in animals if a["animal"] == animal)

    qs = []

    def q(qid, qtype, template, question, answer, complexity):
        qs.append({"id": qid, "type": qtype, "template": template, "question": question,
                   "answer": answer, "complexity": complexity})

    # 1. lookup, "the X of Y"
    q("zoo-01", "lookup", "x_of_y", "What is the species of Kibo?", [profile("Kibo")["species"]], 1)

    # 2. relation, active voice
    ks = keepers_of("Reptile House")
    q("zoo-02", "list", "relation_active", "Which keepers look after the Reptile House?",
      sorted(k["keeper"] for k in ks), len(ks))

    # 3. relation, passive voice, through the area hierarchy
    an = animals_in("Monsoon House")
    q("zoo-03", "list", "relation_passive", "Which animals are kept in the Monsoon House?",
      sorted(a["animal"] for a in an), len(an) + 3)

    # 4. a kind (animal class) inside a zone
    an = [a for a in animals_in("Africa Zone") if a["animal_class"] == "bird"]
    q("zoo-04", "list", "kind_in_hierarchy", "Which birds live in the Africa Zone?",
      sorted(a["animal"] for a in an), len(animals_in("Africa Zone")))

    # 5. a number of items: the three heaviest
    an = sorted(animals_in("Asia Zone"), key=lambda a: -float(a["weight_kg"]))
    assert float(an[2]["weight_kg"]) > float(an[3]["weight_kg"])
    q("zoo-05", "list", "top_n", "What are the three heaviest animals in the Asia Zone?",
      [a["animal"] for a in an[:3]], len(an))

    # 6. count of a kind
    an = [a for a in animals_in("Oceans Zone") if a["animal_class"] == "mammal"]
    q("zoo-06", "count", "count_kind", "How many mammals are there in the Oceans Zone?",
      len(an), len(animals_in("Oceans Zone")))

    # 7. total, "Y's X"
    rows = [f for f in food if f["animal"] == "Raja" and f["month"] in ("2024-01", "2024-02")]
    q("zoo-07", "total", "possessive_total",
      "What was Raja's total food cost over January and February 2024?",
      round(sum(float(f["cost_eur"]) for f in rows), 2), len(rows))

    # 8. directly under (level 1 of the hierarchy)
    direct = children.get("Americas Zone", [])
    q("zoo-08", "list", "hierarchy_direct", "Which areas lie directly under the Americas Zone?",
      sorted(direct), len(direct))

    # 9. yes/no: a count against the capacity limit
    n = len(animals_in("Penguin Beach"))
    q("zoo-09", "yes_no", "limit_count", "Is Penguin Beach within its capacity?",
      n <= capacity("Penguin Beach"), n + 1)

    # 10. yes/no: a monthly total against the zone's budget
    inside = {a["animal"] for a in animals_in("Africa Zone")}
    rows = [f for f in food if f["animal"] in inside and f["month"] == "2024-02"]
    spent = sum(float(f["cost_eur"]) for f in rows)
    budget = next(float(b["monthly_food_budget_eur"]) for b in budgets if b["zone"] == "Africa Zone")
    q("zoo-10", "yes_no", "limit_amount",
      "Did the Africa Zone go over its monthly food budget in February 2024?", spent > budget, len(rows) + 1)

    # 11. which enclosures exceed their capacity (no anchor named)
    over = [e["enclosure"] for e in enclosures if len(animals_in(e["enclosure"])) > int(e["capacity"])]
    q("zoo-11", "list", "limit_list", "Which enclosures hold more animals than their capacity allows?",
      sorted(over), len(animals) + len(enclosures))

    # 12. compound: a count and a list
    n = len(animals_in("Reptile House"))
    ks = sorted(k["keeper"] for k in keepers_of("Reptile House"))
    q("zoo-12", "compound", "count_and_list",
      "How many animals live in the Reptile House, and which keepers are assigned to it?",
      {"parts": [n, ks]}, n + len(ks))

    # 13. compound: a lookup and a count
    n = len(animals_in("Elephant Valley"))
    q("zoo-13", "compound", "lookup_and_count",
      "What is the capacity of Elephant Valley, and how many animals live in it?",
      {"parts": [capacity("Elephant Valley"), n]}, n + 1)

    # 14. multi-hop: animal -> its enclosure -> the keepers assigned there
    enc = profile("Zuri")["enclosure"]
    ks = sorted(k["keeper"] for k in keepers_of(enc))
    q("zoo-14", "multi_hop", "two_hops", "Which keepers are assigned to the enclosure where Zuri lives?",
      ks, 1 + len(ks))

    # 15-16. nothing in the catalog answers these
    q("zoo-15", "unanswerable", "no_tool", "Which vet treated Kito in January 2024?", None, 0)
    q("zoo-16", "unanswerable", "no_tool", "How many visitors did Penguin Beach get last weekend?", None, 0)

    with open(os.path.join(folder, "data", "questions.jsonl"), "w") as fh:
        for item in qs:
            fh.write(json.dumps(item, ensure_ascii=False) + "\n")
    return qs


if __name__ == "__main__":
    for item in build(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))):
        print(item["id"], json.dumps(item["answer"], ensure_ascii=False))
