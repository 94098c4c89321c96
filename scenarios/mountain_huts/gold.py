"""Gold answers of the mountain_huts questions, computed in plain Python from the generated CSV files.

Run: python gold.py  (generates the data first when missing, then writes data/questions.jsonl)."""
import csv
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")


def _read(name):
    with open(os.path.join(DATA, name), newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _top(rows, key, n, name):
    """The n rows with the highest key; refuses a tie at the cut."""
    rows = sorted(rows, key=key, reverse=True)
    assert len(rows) > n and key(rows[n - 1]) != key(rows[n]), "tie at the cut"
    return [name(r) for r in rows[:n]]


def questions():
    if not os.path.exists(os.path.join(DATA, "stays.csv")):
        import generate
        generate.write(HERE)
    regions = _read("regions.csv")
    huts = _read("huts.csv")
    stays = _read("stays.csv")
    drops = _read("supply_drops.csv")
    hut = {h["hut"]: h for h in huts}
    of_party = lambda p: [s for s in stays if s["party"] == p]
    out = []

    def q(qid, typ, template, text, answer, complexity):
        out.append({"id": f"mountain_huts-{qid:02d}", "type": typ, "template": template, "question": text,
                    "answer": answer, "complexity": complexity})

    r = [h["hut"] for h in huts if h["region"] == "Stubai Alps"]
    q(1, "generic", "list_relation", "Which huts are in the Stubai Alps?", r, len(r))

    sub, frontier = set(), {"Western Alps"}
    while frontier:
        nxt = {x["region"] for x in regions if x["parent_region"] in frontier} - sub
        sub |= nxt
        frontier = nxt
    q(2, "multi-hop", "chain", "Which regions lie within the Western Alps, directly or indirectly?", sorted(sub),
      len(sub))

    q(3, "generic", "lookup", "Who is the warden of Capanna Margherita?", [hut["Capanna Margherita"]["warden"]], 1)

    r = [s for s in of_party("Edinburgh Mountaineers") if s["hut"] == "Dresdner Hütte"]
    q(4, "count", "count_filter", "How many stays did Edinburgh Mountaineers book at Dresdner Hütte?", len(r),
      len(of_party("Edinburgh Mountaineers")))

    r = of_party("CAI Milano")
    top = _top(r, lambda x: int(x["fee_eur"]), 3, lambda x: x["booking_ref"])
    q(5, "generic", "top_n", "Which three CAI Milano bookings paid the highest fees?", top, len(r))

    r = [s for s in stays if s["hut"] == "Cabane des Dix" and s["arrival_date"].startswith("2024-08")]
    q(6, "count", "sum_month", "How many guests did Cabane des Dix host in August 2024?",
      sum(int(s["guests"]) for s in r), len(r))

    r = [s for s in of_party("Glacier School Chamonix") if s["arrival_date"].startswith("2024-07")]
    q(7, "count", "sum_month", "What did Glacier School Chamonix pay in fees in July 2024?",
      sum(int(s["fee_eur"]) for s in r), len(r))

    r = [d for d in drops if d["hut"] == "Rifugio Payer"]
    q(8, "count", "average", "What is the average load of the supply drops to Rifugio Payer?",
      round(sum(int(d["load_kg"]) for d in r) / len(r), 2), len(r))

    r = of_party("Rope Team Graz")
    part = [s for s in r if s["hut"] == "Braunschweiger Hütte"]
    q(9, "count", "share", "What share of Rope Team Graz's stays were at Braunschweiger Hütte, as a percentage?",
      round(100 * len(part) / len(r), 1), len(r))

    r = [d for d in drops if d["hut"] == "Refuge du Goûter" and d["month"] == "2024-07"]
    q(10, "multi-hop", "limit_month",
      "Did the supply drops to Refuge du Goûter in July 2024 exceed its monthly drop allowance?",
      sum(int(d["load_kg"]) for d in r) > int(hut["Refuge du Goûter"]["monthly_drop_allowance_kg"]), len(r) + 1)

    name = "Cabane des Dix"
    r = [d for d in drops if d["hut"] == name]
    months = sorted({d["month"] for d in r})
    over = [m for m in months
            if sum(int(d["load_kg"]) for d in r if d["month"] == m) > int(hut[name]["monthly_drop_allowance_kg"])]
    q(11, "multi-hop", "limit_periods",
      f"In which months did the supply drops to {name} carry more than its monthly drop allowance?", over, len(r) + 1)

    r = [h["hut"] for h in huts if h["region"] == "Monte Rosa Group" and int(h["beds"]) > 100]
    q(12, "generic", "condition", "Which huts in the Monte Rosa Group have more than 100 beds?", r, 2)

    r = [h["hut"] for h in huts if h["region"] == "Valais Alps" and h["hut_type"] == "lodge"]
    q(13, "generic", "kind_list", "Which lodges are there in the Valais Alps?", r, 2)

    h = hut["Rifugio Casati"]
    q(14, "generic", "two_parts", "How high is Rifugio Casati, and how many beds does it have?",
      {"parts": [int(h["altitude_m"]), int(h["beds"])]}, 1)

    r = [d for d in drops if d["hut"] == "Vernagthütte"]
    q(15, "count", "two_parts",
      "How many supply drops did Vernagthütte receive, and what did they cost in total?",
      {"parts": [len(r), sum(int(d["cost_eur"]) for d in r)]}, len(r))

    q(16, "generic", "unanswerable", "What is the avalanche danger level around Ramolhaus this week?", None, 0)
    return out


if __name__ == "__main__":
    qs = questions()
    with open(os.path.join(DATA, "questions.jsonl"), "w", encoding="utf-8") as f:
        for x in qs:
            f.write(json.dumps(x, ensure_ascii=False) + "\n")
    for x in qs:
        print(x["id"], x["question"], "->", x["answer"])
