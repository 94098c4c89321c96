"""Computes the gold answer of every allotment_plots question from the CSV files and writes
data/questions.jsonl. Nothing here is typed by hand except the questions themselves."""
import json
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"


def load():
    return {
        "units": pd.read_csv(DATA / "allotment_units.csv", keep_default_na=False),
        "plots": pd.read_csv(DATA / "plots.csv", keep_default_na=False),
        "tenants": pd.read_csv(DATA / "tenants.csv"),
        "inspections": pd.read_csv(DATA / "inspections.csv"),
        "sites": pd.read_csv(DATA / "sites.csv"),
        "water": pd.read_csv(DATA / "water_use.csv", dtype={"month": str}),
        "waiting": pd.read_csv(DATA / "waiting_list.csv"),
    }


def num(x):
    x = float(x)
    return int(x) if x.is_integer() else round(x, 2)


def descendants(units, root):
    out, frontier = [], [root]
    while frontier:
        kids = units[units.parent.isin(frontier)]
        out.append(kids)
        frontier = list(kids.unit)
    return pd.concat(out)


def questions(d):
    U, P, T, I, S, W, WL = (d["units"], d["plots"], d["tenants"], d["inspections"], d["sites"], d["water"],
                            d["waiting"])
    qs = []

    def add(qid, qtype, template, question, answer, complexity):
        qs.append({"id": qid, "type": qtype, "template": template, "question": question,
                   "answer": answer, "complexity": int(complexity)})

    # lookup
    row = P[P["plot"] == "RG-S05"]
    assert len(row) == 1 and row.tenant.iloc[0]
    add("AP01", "lookup", "plot_holder", "Who holds the tenancy on plot RG-S05?", row.tenant.iloc[0], 1)

    # list
    rows = P[P.tenant == "Wayne Lister"]
    add("AP02", "list", "tenant_plots", "Which plots is Wayne Lister renting?", sorted(rows["plot"]), len(rows))

    # count
    rows = WL[WL.site == "Mill Pond Allotments"]
    add("AP03", "count", "waiting_count", "How many people are on the waiting list at Mill Pond Allotments?",
        len(rows), len(rows))

    # total
    rows = P[P.field == "Quarry Bank Middle Field"]
    add("AP04", "total", "field_rent", "What's the total annual rent across the plots in Quarry Bank Middle Field?",
        num(rows.annual_rent_gbp.sum()), len(rows))

    # extreme
    rows = P[P.field == "Tanners Meadow River Field"]
    top = rows[rows.size_sqm == rows.size_sqm.max()]
    assert len(top) == 1
    add("AP05", "extreme", "largest_plot", "Which is the largest plot in Tanners Meadow River Field?",
        top["plot"].iloc[0], len(rows))

    # top n
    per = I.groupby("inspector").size().sort_values(ascending=False)
    assert per.iloc[2] > per.iloc[3]
    add("AP06", "top_n", "busiest_inspectors", "Which three inspectors have carried out the most inspections?",
        sorted(per.index[:3]), len(I))

    # filter
    rows = P[P.field == "Heron Way Long Field"]
    add("AP07", "filter", "small_plots", "Which plots in Heron Way Long Field are smaller than 100 square metres?",
        sorted(rows[rows.size_sqm < 100]["plot"]), len(rows))

    # multi hop: plot -> tenant -> membership
    holder = P[P["plot"] == "LR-E07"].tenant.iloc[0]
    member = T[T.tenant == holder]
    assert len(member) == 1
    add("AP08", "multi_hop", "holder_membership", "What kind of membership is the holder of plot LR-E07 on?",
        member.membership_type.iloc[0], 2)

    # hierarchy: plots across a district (district -> sites -> fields -> plots)
    below = descendants(U, "Westmere District")
    fields = below[below.unit_type == "field"].unit
    rows = P[P.field.isin(fields)]
    add("AP09", "hierarchy", "plots_in_district", "How many plots are there across Westmere District?",
        len(rows), len(below) + len(rows))

    # hierarchy: the fields two levels down
    below = descendants(U, "Southfold District")
    fields = below[below.unit_type == "field"]
    add("AP10", "hierarchy", "fields_in_district", "List all the fields in the Southfold District.",
        sorted(fields.unit), len(below))

    # limit: a month's water use against the monthly allowance
    use = W[(W.site == "Rookery Gardens Allotments") & (W.month == "2025-08")]
    allowance = S[S.site == "Rookery Gardens Allotments"].monthly_water_allowance_m3.iloc[0]
    assert len(use) == 1
    add("AP11", "limit", "water_over_allowance",
        "Did Rookery Gardens Allotments go over its water allowance in August 2025?",
        bool(use.water_m3.iloc[0] > allowance), 2)

    # period: a month
    rows = I[(I.inspector == "Sunita Bhakta") & (I.inspection_date.str.startswith("2025-05"))]
    add("AP12", "period", "inspections_in_month", "How many inspections did Sunita Bhakta carry out in May 2025?",
        len(rows), len(rows))

    # share
    rows = P[P.field == "Mill Pond Bottom Field"]
    pct = round(100 * (rows.shed_allowed == "yes").sum() / len(rows), 1)
    add("AP13", "share", "shed_share", "What percentage of the plots in Mill Pond Bottom Field are allowed a shed?",
        pct, len(rows))

    # two part
    row = P[P["plot"] == "CH-B05"]
    add("AP14", "two_part", "size_and_rent", "How big is plot CH-B05, and what's its annual rent?",
        {"parts": [num(row.size_sqm.iloc[0]), num(row.annual_rent_gbp.iloc[0])]}, 1)

    # yes / no
    rows = I[I["plot"] == "LR-C05"]
    add("AP15", "yes_no", "ever_notice", "Has plot LR-C05 ever been served a non-cultivation notice?",
        bool((rows.outcome == "non-cultivation notice").any()), len(rows))

    # unanswerable
    add("AP16", "unanswerable", "soil_ph", "What's the soil pH on plot CH-T07?", None, 0)
    return qs


def main():
    qs = questions(load())
    assert len(qs) == 16
    with (DATA / "questions.jsonl").open("w") as fh:
        for q in qs:
            fh.write(json.dumps(q) + "\n")
    for q in qs:
        print(q["id"], q["type"], q["answer"], q["complexity"])


if __name__ == "__main__":
    main()
