"""Gold answers for the archaeology_dig questions, computed in plain Python from the CSV files.

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
    units = read(folder, "units.csv")
    trenches = read(folder, "trenches.csv")
    team = read(folder, "team.csv")
    finds = read(folder, "finds.csv")
    samples = read(folder, "samples.csv")
    budgets = read(folder, "lab_budgets.csv")

    children = {}
    for u in units:
        children.setdefault(u["parent_unit"], []).append(u["unit"])
    supervisor = {u["unit"]: u["supervisor"] for u in units}

    def within(unit):
        """`unit` and every unit inside it, at any depth."""
        out, todo = [unit], list(children.get(unit, []))
        while todo:
            x = todo.pop()
            out.append(x)
            todo.extend(children.get(x, []))
        return out

    def finds_in(unit):
        inside = set(within(unit))
        return [f for f in finds if f["unit"] in inside]

    def trench(name):
        return next(t for t in trenches if t["trench"] == name)

    def num(x):
        x = float(x)
        return int(x) if x.is_integer() else x

    qs = []

    def q(qid, qtype, template, question, answer, complexity):
        qs.append({"id": qid, "type": qtype, "template": template, "question": question,
                   "answer": answer, "complexity": complexity})

    # 1. lookup, "the X of Y"
    q("dig-01", "lookup", "x_of_y", "What is the permitted depth of Trench 3?",
      num(trench("Trench 3")["permitted_depth_m"]), 1)

    # 2. lookup, "Y's X"
    q("dig-02", "lookup", "possessive", "Who is Trench 6's supervisor?", [supervisor["Trench 6"]], 1)

    # 3. passive voice, with a kind (material)
    fs = [f for f in finds if f["found_by"] == "Niamh Gallagher" and f["material"] == "coin"]
    q("dig-03", "list", "relation_passive_kind", "Which coins were found by Niamh Gallagher?",
      sorted(f["find_id"] for f in fs), len([f for f in finds if f["found_by"] == "Niamh Gallagher"]))

    # 4. active voice, restricted by a second named entity
    fs = [f for f in finds if f["found_by"] == "Tomasz Wojcik" and f["unit"] == "Trench 4"]
    q("dig-04", "list", "relation_active_filter", "Which finds did Tomasz Wojcik uncover in Trench 4?",
      sorted(f["find_id"] for f in fs), len([f for f in finds if f["found_by"] == "Tomasz Wojcik"]))

    # 5. a number of items: the three heaviest, through the site's hierarchy
    fs = sorted(finds_in("Castle Hill"), key=lambda f: -float(f["weight_g"]))
    assert float(fs[2]["weight_g"]) > float(fs[3]["weight_g"])
    q("dig-05", "list", "top_n", "What are the three heaviest finds from Castle Hill?",
      [f["find_id"] for f in fs[:3]], len(fs))

    # 6. count of a kind within a site
    fs = [f for f in finds_in("Mill Meadow") if f["material"] == "pottery"]
    q("dig-06", "count", "count_kind", "How many pieces of pottery were found at Mill Meadow?",
      len(fs), len(finds_in("Mill Meadow")))

    # 7. total of a kind within a site
    fs = [f for f in finds_in("Barrow Knoll") if f["material"] == "bone"]
    q("dig-07", "total", "total_kind", "What is the total weight of the bone finds from Barrow Knoll?",
      num(round(sum(float(f["weight_g"]) for f in fs), 3)), len(fs))

    # 8. directly under (level 1 of the hierarchy)
    direct = children.get("Barrow Knoll", [])
    q("dig-08", "list", "hierarchy_direct", "Which units sit directly under Barrow Knoll?", sorted(direct), len(direct))

    # 9. yes/no: an amount against its limit, same record
    t = trench("Trench 5")
    q("dig-09", "yes_no", "limit_lookup", "Is Trench 5 within its permitted depth?",
      float(t["current_depth_m"]) <= float(t["permitted_depth_m"]), 1)

    # 10. yes/no: a total over the site's hierarchy against the site's budget
    inside = set(within("Castle Hill"))
    rows = [s for s in samples if s["unit"] in inside]
    spent = sum(float(s["cost_gbp"]) for s in rows)
    budget = next(float(b["lab_budget_gbp"]) for b in budgets if b["site"] == "Castle Hill")
    q("dig-10", "yes_no", "limit_amount", "Did Castle Hill go over its lab budget?", spent > budget, len(rows) + 1)

    # 11. which trenches exceed their limit (no anchor named)
    over = [t["trench"] for t in trenches if float(t["current_depth_m"]) > float(t["permitted_depth_m"])]
    q("dig-11", "list", "limit_list", "Which trenches have been dug deeper than their permitted depth?",
      sorted(over), len(trenches))

    # 12. compound: a count of a kind and a lookup
    vols = [m for m in team if m["unit"] == "Trench 1" and m["role"] == "volunteer"]
    q("dig-12", "compound", "count_and_lookup", "How many volunteers worked in Trench 1, and who supervises it?",
      {"parts": [len(vols), [supervisor["Trench 1"]]]}, len(vols) + 1)

    # 13. compound: a limit value and a total
    inside = set(within("Mill Meadow"))
    rows = [s for s in samples if s["unit"] in inside]
    budget = next(float(b["lab_budget_gbp"]) for b in budgets if b["site"] == "Mill Meadow")
    q("dig-13", "compound", "limit_and_total",
      "What is Mill Meadow's lab budget, and how much have its samples cost so far?",
      {"parts": [num(budget), num(sum(float(s["cost_gbp"]) for s in rows))]}, len(rows) + 1)

    # 14. multi-hop: find -> the trench it came from -> that trench's supervisor
    unit = next(f["unit"] for f in finds if f["find_id"] == "SF 131")
    assert any(t["trench"] == unit for t in trenches)
    q("dig-14", "multi_hop", "two_hops", "Who supervises the trench where SF 131 was found?", [supervisor[unit]], 2)

    # 15-16. nothing in the catalog answers these
    q("dig-15", "unanswerable", "no_tool", "What radiocarbon date did the lab return for sample S-07?", None, 0)
    q("dig-16", "unanswerable", "no_tool", "How much did the geophysical survey of Barrow Knoll cost?", None, 0)

    with open(os.path.join(folder, "data", "questions.jsonl"), "w") as fh:
        for item in qs:
            fh.write(json.dumps(item, ensure_ascii=False) + "\n")
    return qs


if __name__ == "__main__":
    for item in build(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))):
        print(item["id"], json.dumps(item["answer"], ensure_ascii=False))
