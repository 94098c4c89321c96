"""Gold answers for the colocation data-centre questions, computed from data/*.csv with pandas alone.
Run: python gold.py  (writes data/questions.jsonl)."""
import json
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"


def load():
    return {n: pd.read_csv(DATA / f"{n}.csv", keep_default_na=False)
            for n in ["spaces", "racks", "tenants", "power_readings", "tickets", "cross_connects"]}


def descendants(spaces, root):
    """(space, level) of every space below root, at its shortest depth."""
    out, frontier, level = {}, [root], 0
    while frontier:
        level += 1
        kids = spaces[spaces.parent.isin(frontier)].space.tolist()
        frontier = [k for k in kids if k not in out]
        for k in frontier:
            out[k] = level
    return out


def exists(d, table, col, value):
    assert (d[table][col] == value).any(), (table, col, value)


def build():
    d = load()
    spaces, racks, tenants = d["spaces"], d["racks"], d["tenants"]
    readings, tickets, xcs = d["power_readings"], d["tickets"], d["cross_connects"]
    qs = []

    def add(type_, template, question, answer, complexity):
        qs.append({"id": f"DC{len(qs) + 1:02d}", "type": type_, "template": template, "question": question,
                   "answer": answer, "complexity": int(complexity)})

    # 1 lookup: a rack's power cap
    rk = "SL1-B-R02-K03"; exists(d, "racks", "rack", rk)
    row = racks[racks.rack == rk]
    assert len(row) == 1
    add("lookup", "limit_of_thing", f"What power cap is rack {rk} contracted for?", float(row.power_cap_kw.iloc[0]), 1)

    # 2 lookup: a tenant's account manager
    t = "Kestrel Gov Cloud"; exists(d, "tenants", "tenant", t)
    row = tenants[tenants.tenant == t]
    assert len(row) == 1
    add("lookup", "attribute_of_thing", f"Who looks after the {t} account?", row.account_manager.iloc[0], 1)

    # 3 list: racks a tenant leases
    t = "Sable Capital Markets"; exists(d, "racks", "tenant", t)
    rows = racks[racks.tenant == t]
    add("list", "things_of_actor", f"Which racks is {t} leasing from us?", sorted(rows.rack.tolist()), len(rows))

    # 4 count: tickets a tenant raised
    t = "Pavlova Streaming"; exists(d, "tickets", "tenant", t)
    rows = tickets[tickets.tenant == t]
    add("count", "events_of_actor", f"How many support tickets has {t} logged?", int(len(rows)), len(rows))

    # 5 total: a tenant's monthly cross-connect fees
    t = "Greyfriars University"; exists(d, "cross_connects", "tenant", t)
    rows = xcs[xcs.tenant == t]
    add("total", "sum_of_amount", f"What does {t} pay in total each month for its cross-connects?",
        float(rows.monthly_fee_eur.sum()), len(rows))

    # 6 top_n: a tenant's three racks using the most energy over all readings
    t = "Quillfeather Games"; exists(d, "racks", "tenant", t)
    rr = racks[racks.tenant == t].rack
    rows = readings[readings.rack.isin(rr)]
    per = rows.groupby("rack").energy_kwh.sum().sort_values(ascending=False)
    assert len(per) > 3 and per.iloc[2] > per.iloc[3], "tie at the cut"
    add("top_n", "top3_things_by_summed_amount",
        f"Across all the monthly readings we have, which three racks leased by {t} have consumed the most energy?",
        sorted(per.index[:3].tolist()), len(rows))

    # 7 extreme: a tenant's ticket that took longest to resolve
    t = "Orbis Logistics"; exists(d, "tickets", "tenant", t)
    rows = tickets[tickets.tenant == t].sort_values("resolution_hours", ascending=False)
    assert rows.resolution_hours.iloc[0] > rows.resolution_hours.iloc[1]
    add("extreme", "event_with_max_amount", f"Which ticket raised by {t} took the longest to resolve?",
        rows.ticket_id.iloc[0], len(rows))

    # 8 share: a category's share of a tenant's tickets
    t = "Cobalt Insurance"; exists(d, "tickets", "tenant", t)
    rows = tickets[tickets.tenant == t]
    part = (rows.category == "cooling").sum()
    assert 0 < part < len(rows)
    add("share", "category_share_of_count", f"What percentage of {t}'s tickets were cooling problems?",
        round(100.0 * part / len(rows), 1), len(rows))

    # 9 limit: rows whose allocated rack power exceeds their cooling capacity
    alloc = racks.groupby("row").power_cap_kw.sum()
    rows_sp = spaces[spaces.space_type == "row"].set_index("space")
    over = sorted(r for r in rows_sp.index if alloc.get(r, 0) > rows_sp.loc[r, "cooling_capacity_kw"])
    assert 0 < len(over) < 10
    add("limit", "groups_over_cap",
        "Which rows have more power allocated to their racks than the row's cooling capacity?",
        over, len(racks) + len(rows_sp))

    # 10 hierarchy (direct): halls directly in a building
    b = "SL2"; exists(d, "spaces", "space", b)
    rows = spaces[spaces.parent == b]
    add("hierarchy_direct", "direct_children", f"Which data halls are directly inside building {b}?",
        sorted(rows.space.tolist()), len(rows))

    # 11 hierarchy (any depth): rows anywhere in a building
    b = "DK2"; exists(d, "spaces", "space", b)
    below = descendants(spaces, b)
    kind = spaces.set_index("space").space_type
    rws = sorted(s for s in below if kind[s] == "row")
    assert all(below[s] == 2 for s in rws)
    add("hierarchy_any_depth", "descendants_of_kind", f"List every row in building {b}, whichever hall it is in.",
        rws, len(below))

    # 12 multi_hop: account managers of the tenants with racks in a row
    rw = "SL1-B-R02"; exists(d, "racks", "row", rw)
    ts = racks[racks.row == rw].tenant.unique()
    mgrs = sorted(tenants[tenants.tenant.isin(ts)].account_manager.unique().tolist())
    assert len(mgrs) < tenants.account_manager.nunique()
    add("multi_hop", "attribute_of_related_actors",
        f"Who are the account managers for the tenants that have racks in row {rw}?",
        mgrs, int((racks.row == rw).sum()) + len(ts))

    # 13 yes_no: does a tenant have a cross-connect with a carrier
    t, c = "Quillfeather Games", "Zenith Fibre"
    exists(d, "cross_connects", "tenant", t); exists(d, "cross_connects", "carrier", c)
    rows = xcs[xcs.tenant == t]
    add("yes_no", "actor_uses_provider", f"Does {t} have any cross-connects with {c}?",
        bool((rows.carrier == c).any()), len(rows))

    # 14 two_part: sector and contract start of a tenant
    t = "Lumen Analytics"; exists(d, "tenants", "tenant", t)
    row = tenants[tenants.tenant == t]
    add("two_part", "two_attributes", f"What sector is {t} in, and when did its contract with us start?",
        {"parts": [row.sector.iloc[0], row.contract_start.iloc[0]]}, 1)

    # 15 period: a tenant's energy in one month
    t = "Helix Bank"; exists(d, "racks", "tenant", t)
    rr = racks[racks.tenant == t].rack
    rows = readings[readings.rack.isin(rr) & readings.reading_date.str.startswith("2024-03")]
    assert len(rows) == len(rr)
    add("period", "sum_in_month", f"How many kWh did {t}'s racks use in March 2024?",
        float(rows.energy_kwh.sum()), len(rows))

    # 16 period limit (own choice): a tenant's racks whose peak went over their cap in one month
    t = "Northwind Media"
    rk = racks[racks.tenant == t][["rack", "power_cap_kw"]]
    rows = readings[readings.reading_date.str.startswith("2024-02")].merge(rk, on="rack")
    over = sorted(rows[rows.peak_kw > rows.power_cap_kw].rack.tolist())
    assert 0 < len(over) < len(rows)
    add("period_limit", "things_over_cap_in_month",
        f"Which of {t}'s racks peaked above their power cap in February 2024?", over, len(rows))

    assert len(qs) == 16
    return qs


if __name__ == "__main__":
    qs = build()
    with open(DATA / "questions.jsonl", "w") as f:
        for q in qs:
            f.write(json.dumps(q) + "\n")
    print(f"wrote {len(qs)} questions to {DATA / 'questions.jsonl'}")
