"""Computes the gold answer of every court_listings question from the CSV files and writes
data/questions.jsonl. Nothing here is typed by hand except the questions themselves."""
import json
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"


def load():
    return {
        "units": pd.read_csv(DATA / "court_units.csv", keep_default_na=False),
        "rooms": pd.read_csv(DATA / "courtrooms.csv"),
        "judges": pd.read_csv(DATA / "judges.csv"),
        "cases": pd.read_csv(DATA / "cases.csv"),
        "hearings": pd.read_csv(DATA / "hearings.csv"),
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


def ancestors(units, unit):
    parent = units.set_index("unit").parent
    chain = []
    while parent.get(unit, ""):
        unit = parent[unit]
        chain.append(unit)
    return chain


def questions(d):
    U, R, J, C, H = d["units"], d["rooms"], d["judges"], d["cases"], d["hearings"]
    qs = []

    def add(qid, qtype, template, question, answer, complexity):
        qs.append({"id": qid, "type": qtype, "template": template, "question": question,
                   "answer": answer, "complexity": int(complexity)})

    # lookup
    row = C[C.case_name == "R v Naylor"]
    assert len(row) == 1
    add("CL01", "lookup", "case_centre", "Which court centre is handling R v Naylor?",
        row.court_centre.iloc[0], 1)

    # list
    rows = H[H.courtroom == "Greystone Court 4"]
    add("CL02", "list", "judges_in_room", "Which judges have sat in Greystone Court 4?",
        sorted(rows.judge.unique()), len(rows))

    # count
    rows = H[H.judge == "Yusuf Tranter"]
    add("CL03", "count", "hearings_of_judge", "How many hearings have been listed before Yusuf Tranter?",
        len(rows), len(rows))

    # total
    rows = H[H.courtroom == "Fernhollow Court 3"]
    add("CL04", "total", "room_hours", "How many hours in total has Fernhollow Court 3 sat for?",
        num(rows.hours.sum()), len(rows))

    # extreme
    rows = R[R.court_centre == "Greystone Crown Court"]
    top = rows[rows.seats == rows.seats.max()]
    assert len(top) == 1
    add("CL05", "extreme", "largest_room", "Which courtroom at Greystone Crown Court seats the most people?",
        top.courtroom.iloc[0], len(rows))

    # top n
    per = H.groupby("judge").hours.sum().sort_values(ascending=False)
    assert per.iloc[2] > per.iloc[3]
    add("CL06", "top_n", "judges_most_hours", "Who are the three judges with the most hours on the bench?",
        sorted(per.index[:3]), len(H))

    # filter
    rows = R[R.court_centre == "Eastleigh Vale Justice Centre"]
    add("CL07", "filter", "rooms_over_seats",
        "Which courtrooms at Eastleigh Vale Justice Centre have more than 40 seats?",
        sorted(rows[rows.seats > 40].courtroom), len(rows))

    # multi hop: judge -> hearings -> courtrooms -> court centres
    rows = H[H.judge == "Beatrice Mbeki"].merge(R, on="courtroom")
    add("CL08", "multi_hop", "judge_centres", "At which court centres has Beatrice Mbeki sat?",
        sorted(rows.court_centre.unique()), len(rows))

    # hierarchy: count courtrooms under a circuit
    below = descendants(U, "Western Circuit")
    rooms = below[below.unit_type == "courtroom"]
    add("CL09", "hierarchy", "rooms_in_circuit", "How many courtrooms are there across the Western Circuit?",
        len(rooms), len(below))

    # hierarchy: the circuit above a court centre
    chain = ancestors(U, "Larkspur Hill County Court")
    circuit = [u for u in chain if U.set_index("unit").unit_type[u] == "circuit"]
    add("CL10", "hierarchy", "circuit_of_centre", "Which circuit does Larkspur Hill County Court come under?",
        circuit[0], len(chain))

    # limit: hours sat against the time estimate
    rows = H[H.case_name == "R v Holroyd"]
    est = C[C.case_name == "R v Holroyd"].time_estimate_hours.iloc[0]
    add("CL11", "limit", "case_over_estimate", "Has R v Holroyd run over its time estimate?",
        bool(rows.hours.sum() > est), len(rows) + 1)

    # period: a quarter
    rows = H[(H.judge == "Nadia Sandoval") & (H.hearing_date >= "2025-04-01") & (H.hearing_date < "2025-07-01")]
    add("CL12", "period", "judge_hours_quarter", "How many hours did Nadia Sandoval sit in Q2 2025?",
        num(rows.hours.sum()), len(rows))

    # share
    rows = H[H.judge == "Ruth Fitzgerald"]
    pct = round(100 * (rows.outcome == "adjourned").sum() / len(rows), 1)
    add("CL13", "share", "adjourned_share",
        "What percentage of the hearings listed before Ruth Fitzgerald were adjourned?", pct, len(rows))

    # two part
    row = C[C.case_name == "Netherwood v Schofield"]
    add("CL14", "two_part", "case_number_and_filed",
        "What's the case number for Netherwood v Schofield, and when was it filed?",
        {"parts": [row.case_number.iloc[0], row.filed_date.iloc[0]]}, 1)

    # yes / no
    row = R[R.courtroom == "Coldwell Court 2"]
    add("CL15", "yes_no", "room_video", "Is there a video link in Coldwell Court 2?",
        bool(row.video_link.iloc[0] == "yes"), 1)

    # unanswerable
    add("CL16", "unanswerable", "jurors", "How many jurors were sworn in for R v Binns?", None, 0)
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
