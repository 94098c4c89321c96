"""Gold answers for the parking_enforcement questions, computed from the CSV data with pandas.

Nothing here uses vadaorchestra: every answer is read off data/*.csv directly.

    python gold.py        # writes data/questions.jsonl (generating the data first if it is missing)
"""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"


def load() -> dict[str, pd.DataFrame]:
    if not (DATA / "pcns.csv").exists():
        import generate
        generate.write(HERE)
    names = ["areas", "zones", "districts", "car_parks", "officers", "pcns", "permits"]
    return {n: pd.read_csv(DATA / f"{n}.csv", keep_default_na=False) for n in names}


def zones_under(t, area: str) -> list[str]:
    """Every zone below an area of the borough, however deep (plain breadth-first walk)."""
    areas = t["areas"]
    found, frontier = [], [area]
    while frontier:
        children = areas[areas.parent_area.isin(frontier)]
        found += children[children.area_type == "zone"].area.tolist()
        frontier = children.area.tolist()
    return found


def pcns_in(t, *, zone=None, officers=None, period=None) -> pd.DataFrame:
    p = t["pcns"]
    if zone is not None:
        p = p[p.zone == zone]
    if officers is not None:
        p = p[p.officer.isin(officers)]
    if period is not None:
        p = p[p.issue_date.str.startswith(period)]
    return p


def unique_top(series: pd.Series, n: int) -> list:
    s = series.sort_values(ascending=False)
    assert len(s) > n and s.iloc[n - 1] > s.iloc[n], f"tie at the top {n}: {s.head(n + 1).to_dict()}"
    return s.head(n).index.tolist()


def questions(t):
    cp, off, dist = t["car_parks"], t["officers"], t["districts"]
    perm, zones = t["permits"], t["zones"]
    qs = []

    def q(qid, qtype, template, text, answer, complexity):
        qs.append({"id": qid, "type": qtype, "template": template, "question": text,
                   "answer": answer, "complexity": int(complexity)})

    # 1 lookup of one attribute
    row = cp[cp.car_park == "Beacon Car Park"]
    q("pe01", "lookup", "attribute_of_entity",
      "What's the hourly tariff at Beacon Car Park?",
      float(row.hourly_tariff_gbp.iloc[0]), len(row))

    # 2 count of things of a kind
    ms = cp[cp.park_type == "multi-storey"]
    q("pe02", "count", "count_of_kind",
      "How many multi-storey car parks are there?", int(len(ms)), len(cp))

    # 3 count over a year
    p = pcns_in(t, officers=["Dylan Marsh"], period="2024")
    q("pe03", "count", "count_in_period",
      "How many parking tickets did Dylan Marsh issue in 2024?", int(len(p)), len(p))

    # 4 total over a named month
    p = pcns_in(t, zone="Castle Hill", period="2024-03")
    q("pe04", "aggregate", "total_in_month",
      "What was the total value of the PCNs issued in Castle Hill in March 2024?",
      float(p.charge_gbp.sum()), len(p))

    # 5 average over a year
    p = pcns_in(t, zone="Guildhall", period="2024")
    q("pe05", "aggregate", "average_in_year",
      "What was the average charge on the penalty notices issued in the Guildhall zone during 2024?",
      round(float(p.charge_gbp.mean()), 2), len(p))

    # 6 superlative through the hierarchy
    rz = zones_under(t, "Riverside")
    parks = cp[cp.zone.isin(rz)].set_index("car_park").spaces
    best = unique_top(parks, 1)
    q("pe06", "superlative", "max_under_unit",
      "Which car park in the Riverside district has the most spaces?", best, len(parks) + len(rz))

    # 7 top N
    top3 = unique_top(cp.set_index("car_park").hourly_tariff_gbp, 3)
    q("pe07", "top_n", "top_n_by_attribute",
      "Which three car parks charge the highest hourly tariff?", top3, len(cp))

    # 8 hierarchy: things under a unit
    oz = zones_under(t, "Old Town")
    q("pe08", "hierarchy", "children_of_unit",
      "Which zones are in the Old Town district?", sorted(oz), len(oz))

    # 9 who: a person in a role
    tl = dist[dist.district == "Eastbrook"].team_leader.tolist()
    q("pe09", "who", "role_holder",
      "Who is the team leader for Eastbrook?", tl, 1)

    # 10 who: a person related to a person
    sup = off[off.officer == "Sofia Brennan"].supervisor.tolist()
    q("pe10", "who", "supervisor_of_person",
      "Who is Sofia Brennan's supervisor?", sup, 1)

    # 11 yes/no against a monthly limit
    n = int((perm[(perm.zone == "Station Road") & (perm.month == "2024-02")]).shape[0])
    cap = int(zones[zones.zone == "Station Road"].monthly_permit_cap.iloc[0])
    q("pe11", "limit", "monthly_cap_check",
      "Did Station Road issue more resident permits than its monthly permit cap in February 2024?",
      bool(n > cap), n + 1)

    # 12 percentage / share
    p = pcns_in(t, zone="Station Road", period="2024")
    share = 100.0 * (p.status == "cancelled").sum() / len(p)
    q("pe12", "share", "share_of_status",
      "What percentage of the PCNs issued in Station Road during 2024 ended up cancelled?",
      round(float(share), 1), len(p))

    # 13 two parts
    k = cp[cp.zone == "Kingsway"]
    q("pe13", "multi_part", "count_and_total",
      "How many car parks are there in the Kingsway zone, and how many parking spaces do they have altogether?",
      {"parts": [int(len(k)), int(k.spaces.sum())]}, len(k))

    # 14 join of two tools: the officers under a supervisor, then their tickets
    team = off[off.supervisor == "Aisling Dunne"].officer.tolist()
    p = pcns_in(t, officers=team, period="2024")
    q("pe14", "join", "reports_then_events",
      "How many penalty charge notices did the officers who report to Aisling Dunne issue in 2024?",
      int(len(p)), len(p) + len(team))

    # 15, 16 the catalog holds nothing to answer these
    q("pe15", "unanswerable", "no_such_data",
      "How many parking meters in Castle Hill are out of order at the moment?", None, 0)
    q("pe16", "unanswerable", "no_such_data",
      "How much money did the pay machines at Victoria Multi-Storey take in 2024?", None, 0)
    return qs


def main() -> None:
    qs = questions(load())
    assert len(qs) == 16 and len({x["id"] for x in qs}) == 16
    with (DATA / "questions.jsonl").open("w") as f:
        for x in qs:
            f.write(json.dumps(x) + "\n")
    print(f"wrote {len(qs)} questions to {DATA / 'questions.jsonl'}")


if __name__ == "__main__":
    main()
