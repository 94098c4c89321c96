"""Gold answers for the forest-estate questions, computed from data/*.csv with pandas alone.
Run: python gold.py  (writes data/questions.jsonl)."""
import json
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"


def load():
    return {n: pd.read_csv(DATA / f"{n}.csv", keep_default_na=False)
            for n in ["units", "stands", "harvests", "contractors", "sawmills", "sales"]}


def descendants(units, root):
    """(unit, level) of every unit below root, at its shortest depth."""
    out, frontier, level = {}, [root], 0
    while frontier:
        level += 1
        kids = units[units.parent.isin(frontier)].unit.tolist()
        frontier = [k for k in kids if k not in out]
        for k in frontier:
            out[k] = level
    return out


def exists(d, table, col, value):
    assert (d[table][col] == value).any(), (table, col, value)


def build():
    d = load()
    units, stands, harvests, sales = d["units"], d["stands"], d["harvests"], d["sales"]
    contractors, sawmills = d["contractors"], d["sawmills"]
    qs = []

    def add(type_, template, question, answer, complexity):
        qs.append({"id": f"FE{len(qs) + 1:02d}", "type": type_, "template": template, "question": question,
                   "answer": answer, "complexity": int(complexity)})

    # 1 lookup: a compartment's annual allowable cut
    c = "Otter Pool"; exists(d, "stands", "compartment", c)
    row = stands[stands.compartment == c]
    assert len(row) == 1
    add("lookup", "limit_of_thing", f"What's the annual allowable cut for {c}?",
        float(row.allowable_cut_m3.iloc[0]), 1)

    # 2 lookup: a contractor's base town
    k = "Ben Wyvis Timber Services"; exists(d, "contractors", "contractor", k)
    row = contractors[contractors.contractor == k]
    assert len(row) == 1
    add("lookup", "attribute_of_thing", f"Which town is {k} based in?", row.base_town.iloc[0], 1)

    # 3 list: compartments a contractor has worked in
    k = "Gallowa Forest Works"; exists(d, "harvests", "contractor", k)
    rows = harvests[harvests.contractor == k]
    add("list", "places_of_actor", f"In which compartments has {k} done harvesting work?",
        sorted(rows.compartment.unique().tolist()), len(rows))

    # 4 count: harvesting operations in a compartment
    c = "Woodcock Slack"; exists(d, "harvests", "compartment", c)
    rows = harvests[harvests.compartment == c]
    add("count", "events_of_thing", f"How many harvesting operations have there been in {c}?", int(len(rows)), len(rows))

    # 5 total: a sawmill's total intake
    m = "Speyside Timber Mill"; exists(d, "sales", "sawmill", m)
    rows = sales[sales.sawmill == m]
    add("total", "sum_of_amount", f"How many cubic metres of timber has {m} taken in altogether?",
        float(rows.volume_m3.sum()), len(rows))

    # 6 top_n: a contractor's three biggest harvests
    k = "Lochaber Logging Co"; exists(d, "harvests", "contractor", k)
    rows = harvests[harvests.contractor == k].sort_values("volume_m3", ascending=False)
    assert rows.volume_m3.iloc[2] > rows.volume_m3.iloc[3], "tie at the cut"
    add("top_n", "top3_events_by_amount", f"Give me the three biggest harvests by volume that {k} carried out.",
        sorted(rows.harvest_id.iloc[:3].tolist()), len(rows))

    # 7 extreme: contractor who felled the most in a compartment
    c = "Larch Hill"; exists(d, "harvests", "compartment", c)
    rows = harvests[harvests.compartment == c]
    per = rows.groupby("contractor").volume_m3.sum().sort_values(ascending=False)
    assert len(per) >= 2 and per.iloc[0] > per.iloc[1]
    add("extreme", "actor_with_most_amount", f"Which contractor has felled the most timber in {c}?",
        per.index[0], len(rows))

    # 8 share: sawlog share of a compartment's felled volume
    c = "Peat Hag"; exists(d, "harvests", "compartment", c)
    rows = harvests[harvests.compartment == c]
    part = rows[rows["product"] == "sawlog"].volume_m3.sum()
    assert 0 < part < rows.volume_m3.sum()
    add("share", "category_share_of_amount",
        f"What percentage of the volume felled in {c} came out as sawlog?",
        round(100.0 * part / rows.volume_m3.sum(), 1), len(rows))

    # 9 limit: compartments felled beyond their annual allowable cut
    felled = harvests.groupby("compartment").volume_m3.sum()
    st = stands.set_index("compartment")
    over = sorted(c for c, v in felled.items() if v > st.loc[c, "allowable_cut_m3"])
    assert 0 < len(over) < 10
    add("limit", "things_over_cap", "Which compartments were felled beyond their annual allowable cut in 2024?",
        over, len(harvests) + len(stands))

    # 10 hierarchy (direct): blocks directly under a district
    dist = "Galloway District"; exists(d, "units", "unit", dist)
    rows = units[units.parent == dist]
    add("hierarchy_direct", "direct_children", f"What blocks sit directly under {dist}?",
        sorted(rows.unit.tolist()), len(rows))

    # 11 hierarchy (any depth): count of compartments in a region
    reg = "Highland Region"; exists(d, "units", "unit", reg)
    below = descendants(units, reg)
    comps = [u for u in below if units.set_index("unit").loc[u, "unit_type"] == "compartment"]
    add("hierarchy_any_depth", "count_descendants_of_kind",
        f"How many compartments does the {reg} have in total, counting all its districts and blocks?",
        len(comps), len(below))

    # 12 multi_hop: sawmills that bought timber from a contractor's harvests
    k = "Tweedside Tree Contractors"; exists(d, "harvests", "contractor", k)
    hv = harvests[harvests.contractor == k].harvest_id
    rows = sales[sales.harvest_id.isin(hv)]
    mills = sorted(rows.sawmill.unique().tolist())
    assert len(mills) < len(sawmills)
    add("multi_hop", "buyers_of_actor_events", f"Which sawmills ended up buying timber from harvests done by {k}?",
        mills, len(hv) + len(rows))

    # 13 yes_no: has a contractor worked in a compartment
    k, c = "McAllister Forestry", "Moss Flow"
    exists(d, "harvests", "contractor", k); exists(d, "harvests", "compartment", c)
    rows = harvests[harvests.compartment == c]
    add("yes_no", "actor_worked_in_place", f"Has {k} ever carried out a harvest in {c}?",
        bool((rows.contractor == k).any()), len(rows))

    # 14 two_part: species and planting year of a compartment
    c = "Cuckoo Den"; exists(d, "stands", "compartment", c)
    row = stands[stands.compartment == c]
    add("two_part", "two_attributes", f"What's the main species growing in {c}, and what year was it planted?",
        {"parts": [row.species.iloc[0], int(row.planted_year.iloc[0])]}, 1)

    # 15 period: a sawmill's intake in one month
    m = "Tweed Valley Sawmills"; exists(d, "sales", "sawmill", m)
    rows = sales[(sales.sawmill == m) & (sales.delivery_date.str.startswith("2024-10"))]
    assert len(rows) > 0
    add("period", "sum_in_month", f"What volume of timber did {m} take delivery of in October 2024?",
        float(rows.volume_m3.sum()), len(rows))

    # 16 filter (own choice): a contractor's harvests above a volume
    k = "McAllister Forestry"
    rows = harvests[harvests.contractor == k]
    big = rows[rows.volume_m3 > 300]
    assert 0 < len(big) < len(rows) and not (rows.volume_m3 == 300).any()
    add("filter", "events_above_threshold", f"Which of {k}'s harvests came in at over 300 cubic metres?",
        sorted(big.harvest_id.tolist()), len(rows))

    assert len(qs) == 16
    return qs


if __name__ == "__main__":
    qs = build()
    with open(DATA / "questions.jsonl", "w") as f:
        for q in qs:
            f.write(json.dumps(q) + "\n")
    print(f"wrote {len(qs)} questions to {DATA / 'questions.jsonl'}")
