"""Gold answers of the street_markets questions, computed from the CSV files with pandas alone.

    python gold.py        # (re)writes data/questions.jsonl
"""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

HERE = Path(__file__).parent
DATA = HERE / "data"
NAMES = ("sites", "markets", "traders", "bookings", "staff", "inspections")


def load():
    if not all((DATA / f"{n}.csv").exists() for n in NAMES):
        import generate
        generate.write(HERE)
    return {n: pd.read_csv(DATA / f"{n}.csv") for n in NAMES}


def _unique_top(series: pd.Series, n: int = 1):
    """The n largest entries of series; refuses a tie at the cut."""
    s = series.sort_values(ascending=False)
    assert len(s) > n and s.iloc[n - 1] != s.iloc[n], f"tie at the cut: {s.head(n + 1)}"
    return list(s.index[:n])


def in_period(frame, column, prefix):
    return frame[frame[column].str.startswith(prefix)]


def questions(d):
    sites, mk, tr, bk, st, ins = (d[n] for n in NAMES)
    qs = []

    def add(qid, qtype, template, text, answer, complexity):
        qs.append({"id": qid, "type": qtype, "template": template, "question": text, "answer": answer,
                   "complexity": int(complexity)})

    # 1 direct lookup
    row = mk[mk.market == "Cathedral Square Market"]
    add("sm01", "lookup", "attribute_of_entity", "How many pitches does Cathedral Square Market have?",
        int(row.pitches.iloc[0]), 1)

    # 2 who-question about a person in a role
    who = st[(st.market == "Wharfside Food Market") & (st.role == "market manager")].person
    assert len(who) == 1
    add("sm02", "who", "person_in_role", "Who is the market manager at Wharfside Food Market?", list(who), 1)

    # 3 count of things of a kind
    rows = tr[tr.goods == "flowers"]
    add("sm03", "count", "count_kind", "How many traders sell flowers?", len(rows), len(rows))

    # 4 total over a named month
    rows = in_period(bk[bk.market == "Old Town Market Hall"], "trade_date", "2024-04")
    add("sm04", "aggregate", "total_month",
        "How much did Old Town Market Hall take in pitch fees in April 2024?",
        round(float(rows.pitch_fee_gbp.sum()), 2), len(rows))

    # 5 average over a year
    rows = in_period(bk[bk.trader == "Hartley's Bakery"], "trade_date", "2024")
    add("sm05", "aggregate", "average_year", "What was the average pitch fee Hartley's Bakery paid in 2024?",
        round(float(rows.pitch_fee_gbp.mean()), 2), len(rows))

    # 6 superlative
    rows = in_period(bk[bk.market == "Castle Street Market"], "trade_date", "2024")
    top = _unique_top(rows.groupby("trader").trade_date.nunique())
    add("sm06", "superlative", "most_within_entity",
        "Which trader traded on the most days at Castle Street Market in 2024?", top, len(rows))

    # 7 top N
    rows = in_period(bk[bk.market == "Quayside Night Market"], "trade_date", "2024")
    top = _unique_top(rows.groupby("trader").pitch_fee_gbp.sum(), 3)
    add("sm07", "top_n", "top3_within_entity",
        "Name the three traders who paid the most in pitch fees at Quayside Night Market in 2024.", top, len(rows))

    # 8 hierarchy: markets under a zone (through its wards)
    wards = sites[(sites.parent_site == "Riverside Zone") & (sites.site_type == "ward")].site
    markets = sites[sites.parent_site.isin(wards) & (sites.site_type == "market")].site
    add("sm08", "hierarchy", "things_under_unit", "Which markets are in the Riverside Zone?", sorted(markets),
        len(wards) + len(markets))

    # 9 hierarchy joined with the markets' records
    wards = sites[(sites.parent_site == "Northern Zone") & (sites.site_type == "ward")].site
    markets = sites[sites.parent_site.isin(wards) & (sites.site_type == "market")].site
    rows = mk[mk.market.isin(markets)]
    add("sm09", "hierarchy", "total_under_unit",
        "How many pitches do the markets in the Northern Zone have altogether?", int(rows.pitches.sum()),
        len(wards) + 2 * len(markets))

    # 10 yes/no against a monthly limit (more than the limit: equal is within it)
    rows = in_period(bk[bk.trader == "Rosie's Flowers"], "trade_date", "2024-07")
    limit = int(tr[tr.trader == "Rosie's Flowers"].monthly_day_limit.iloc[0])
    add("sm10", "limit", "over_monthly_limit",
        "Did Rosie's Flowers trade on more days than its licence allows in July 2024?",
        bool(rows.trade_date.nunique() > limit), len(rows) + 1)

    # 11 percentage
    rows = in_period(ins[ins.market == "Castlegate Flea Market"], "inspection_date", "2024")
    share = 100.0 * (rows.outcome == "fail").sum() / len(rows)
    add("sm11", "share", "share_of_kind",
        "What percentage of the inspections at Castlegate Flea Market in 2024 ended in a fail?", round(share, 1),
        len(rows))

    # 12 two parts
    row = tr[tr.trader == "Green Basket Produce"]
    add("sm12", "two_part", "two_attributes",
        "Who is the proprietor of Green Basket Produce, and what does it sell?",
        {"parts": [[row.proprietor.iloc[0]], [row.goods.iloc[0]]]}, 1)

    # 13 join of two tools: the traders of a kind of goods with a market's bookings in a month
    sellers = tr[tr.goods == "flowers"].trader
    rows = in_period(bk[(bk.market == "Millbrook Village Market") & bk.trader.isin(sellers)], "trade_date",
                     "2024-03")
    answer = sorted(rows.trader.unique())
    assert answer and len(answer) < len(sellers), answer
    add("sm13", "join", "kind_of_trader_at_market_month",
        "Which flower sellers had a pitch at Millbrook Village Market in March 2024?", answer, len(rows) + len(sellers))

    # 14 count over a year
    rows = in_period(ins[ins.market == "Station Road Market"], "inspection_date", "2024")
    add("sm14", "count", "count_period", "How many inspections were carried out at Station Road Market in 2024?",
        len(rows), len(rows))

    # 15 yes/no attribute
    row = mk[mk.market == "Old Town Market Hall"]
    add("sm15", "lookup", "yes_no_attribute", "Is Old Town Market Hall a covered market?",
        bool(row.covered.iloc[0] == "yes"), 1)

    # 16 not in the catalog
    add("sm16", "unanswerable", "not_in_catalog", "How many shoppers visited Old Town Market Hall in 2024?",
        None, 0)
    return qs


def main():
    qs = questions(load())
    assert len(qs) == 16 and len({q["id"] for q in qs}) == 16
    with open(DATA / "questions.jsonl", "w") as fh:
        for q in qs:
            fh.write(json.dumps(q) + "\n")
    for q in qs:
        print(q["id"], q["question"], "->", q["answer"])


if __name__ == "__main__":
    main()
