"""Gold answers of the recording_studios questions, computed in plain Python from the generated CSV files.

Run: python gold.py  (generates the data first when missing, then writes data/questions.jsonl)."""
import csv
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")


def _read(name):
    with open(os.path.join(DATA, name), newline="") as f:
        return list(csv.DictReader(f))


def _top(rows, key, n, name):
    """The n rows with the highest key; refuses a tie at the cut."""
    rows = sorted(rows, key=key, reverse=True)
    assert len(rows) > n and key(rows[n - 1]) != key(rows[n]), "tie at the cut"
    return [name(r) for r in rows[:n]]


def questions():
    if not os.path.exists(os.path.join(DATA, "sessions.csv")):
        import generate
        generate.write(HERE)
    studios = _read("studios.csv")
    rooms = _read("rooms.csv")
    engineers = _read("engineers.csv")
    sessions = _read("sessions.csv")
    room_studio = {r["room"]: r["studio"] for r in rooms}
    cap = {r["room"]: int(r["monthly_hour_cap"]) for r in rooms}
    of_artist = lambda a: [s for s in sessions if s["artist"] == a]
    out = []

    def q(qid, typ, template, text, answer, complexity):
        out.append({"id": f"recording_studios-{qid:02d}", "type": typ, "template": template, "question": text,
                    "answer": answer, "complexity": complexity})

    r = [x["room"] for x in rooms if x["studio"] == "Copperline Sound"]
    q(1, "generic", "list_relation", "Which rooms belong to Copperline Sound?", r, len(r))

    r = [x for x in rooms if x["studio"] == "Harbourside Recording" and x["room_type"] == "mixing"]
    q(2, "count", "count_kind", "How many mixing rooms does Harbourside Recording have?", len(r), len(r))

    r = of_artist("Pennyworth Choir")
    st = sorted({room_studio[x["room"]] for x in r})
    q(3, "multi-hop", "list_relation_passive", "Which studios has Pennyworth Choir recorded at?", st, len(r))

    r = of_artist("Velvet Harbour")
    top = _top(r, lambda x: int(x["fee_gbp"]), 3, lambda x: x["session_id"])
    q(4, "generic", "top_n", "What are the three most expensive sessions Velvet Harbour booked?", top, len(r))

    r = [x for x in rooms if x["studio"] == "Saltmarsh Studio"]
    top = _top(r, lambda x: int(x["hourly_rate_gbp"]), 2, lambda x: x["room"])
    q(5, "generic", "top_n", "Which two rooms at Saltmarsh Studio charge the highest hourly rates?", top, len(r))

    r = [x for x in of_artist("Glass Orchard") if x["month"] == "2024-03"]
    q(6, "count", "sum_month", "How many hours did Glass Orchard book in March 2024?",
      sum(int(x["hours"]) for x in r), len(r))

    r = [x for x in sessions if x["room"] == "Abbey Lane Live Room" and x["month"] == "2024-04"]
    q(7, "count", "sum_month", "What was the total fee for sessions held in the Abbey Lane Live Room during April 2024?",
      sum(int(x["fee_gbp"]) for x in r), len(r))

    r = of_artist("Dune Radio")
    q(8, "count", "average", "On average, how many hours did Dune Radio's sessions last?",
      round(sum(int(x["hours"]) for x in r) / len(r), 2), len(r))

    r = of_artist("Mira Okafor")
    part = [x for x in r if room_studio[x["room"]] == "Saltmarsh Studio"]
    q(9, "count", "share", "What percentage of Mira Okafor's sessions were held at Saltmarsh Studio?",
      round(100 * len(part) / len(r), 1), len(r))

    r = [x for x in sessions if x["room"] == "Saltmarsh Mix Suite" and x["month"] == "2024-05"]
    q(10, "multi-hop", "limit_month", "Did the Saltmarsh Mix Suite go over its monthly hour cap in May 2024?",
      sum(int(x["hours"]) for x in r) > cap["Saltmarsh Mix Suite"], len(r) + 1)

    room = "Red Kite Mix Suite 2"
    r = [x for x in sessions if x["room"] == room]
    months = sorted({x["month"] for x in r})
    over = [m for m in months if sum(int(x["hours"]) for x in r if x["month"] == m) > cap[room]]
    q(11, "multi-hop", "limit_periods",
      f"In which months was the {room} booked for more hours than its monthly hour cap?", over, len(r) + 1)

    chief = next(e["engineer"] for e in engineers if e["studio"] == "Abbey Lane Studios" and e["grade"] == "chief")
    team, frontier = set(), {chief}
    while frontier:
        nxt = {e["engineer"] for e in engineers if e["supervisor"] in frontier} - team
        team |= nxt
        frontier = nxt
    q(12, "multi-hop", "chain", f"Who reports to {chief}, directly or indirectly?", sorted(team), len(team))

    r = [e["engineer"] for e in engineers if e["studio"] == "Northlight Audio" and e["grade"] == "assistant"]
    q(13, "generic", "kind_list", "Which assistants does Northlight Audio employ?", r, len(r))

    s = next(x for x in studios if x["studio"] == "Harbourside Recording")
    q(14, "generic", "two_parts", "Which city is Harbourside Recording based in, and when did it open?",
      {"parts": [s["city"], int(s["opened_year"])]}, 1)

    r = of_artist("Neon Tides")
    q(15, "count", "two_parts", "How many sessions did Neon Tides book, and what did they pay for them altogether?",
      {"parts": [len(r), sum(int(x["fee_gbp"]) for x in r)]}, len(r))

    q(16, "generic", "unanswerable", "Which microphones are kept in the Abbey Lane Live Room?", None, 0)
    return out


if __name__ == "__main__":
    qs = questions()
    with open(os.path.join(DATA, "questions.jsonl"), "w") as f:
        for x in qs:
            f.write(json.dumps(x) + "\n")
    for x in qs:
        print(x["id"], x["question"], "->", x["answer"])
