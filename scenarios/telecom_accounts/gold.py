"""Gold answers of the telecom business-accounts questions, computed in plain Python from the CSV files.

    python gold.py            # prints id, answer and complexity of every question
    python gold.py --write    # writes them into data/questions.jsonl (answer and complexity fields)
"""
import csv
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"


def read(name):
    with open(DATA / name, newline="") as f:
        return list(csv.DictReader(f))


accounts = {r["account"]: r for r in read("accounts.csv")}
lines = read("lines.csv")
line = {r["line"]: r for r in lines}
plans = {r["plan"]: r for r in read("plans.csv")}
usage = read("usage.csv")
tickets = read("tickets.csv")
children = defaultdict(list)
for a in accounts.values():
    if a["parent_account"]:
        children[a["parent_account"]].append(a["account"])


def account_tree(account):
    """The account and every sub-account below it, at any depth."""
    seen, todo = [account], [account]
    while todo:
        for c in children[todo.pop()]:
            seen.append(c)
            todo.append(c)
    return seen


def lines_of(account, whole=False):
    scope = set(account_tree(account)) if whole else {account}
    return [r for r in lines if r["account"] in scope]


def num(x):
    """A float that is a whole number as an int."""
    x = float(x)
    return int(x) if x == int(x) else x


gold = {}

# q01 lookup: account manager of one account
gold["q01"] = ([accounts["Kestrel Engineering"]["account_manager"]], 1)

# q02 list: lines an account holds itself
rows = lines_of("Harbour Logistics North Depot")
gold["q02"] = (sorted(r["line"] for r in rows), len(rows))

# q03 count: tickets one account opened
rows = [t for t in tickets if t["account"] == "Alder Foods Bristol Hub"]
gold["q03"] = (len(rows), len(rows))

# q04 total: call minutes of one line over every month
rows = [u for u in usage if u["line"] == "L-1007"]
gold["q04"] = (sum(int(u["call_minutes"]) for u in rows), len(rows))

# q05 extreme: the agent who handled the most tickets
by_agent = Counter(t["agent"] for t in tickets).most_common()
assert by_agent[0][1] > by_agent[1][1]
gold["q05"] = ([by_agent[0][0]], len(tickets))

# q06 top-N: the three accounts that opened the most tickets
by_account = Counter(t["account"] for t in tickets).most_common()
assert by_account[2][1] > by_account[3][1]
gold["q06"] = ([a for a, _ in by_account[:3]], len(tickets))

# q07 share: percentage of one account's tickets in the billing category
rows = [t for t in tickets if t["account"] == "Kestrel Engineering Field Services"]
billing = [t for t in rows if t["category"] == "billing"]
gold["q07"] = (round(100 * len(billing) / len(rows), 1), len(rows))

# q08 relation, active: accounts an agent handled tickets for
rows = [t for t in tickets if t["agent"] == "Pete Gorman"]
gold["q08"] = (sorted({t["account"] for t in rows}), len(rows))

# q09 relation, passive: tickets opened by one account
rows = [t for t in tickets if t["account"] == "Harbour Retail Online"]
gold["q09"] = (sorted(t["ticket"] for t in rows), len(rows))

# q10 kind: smartphones over an account's whole tree
rows = lines_of("Kestrel Engineering", whole=True)
gold["q10"] = (sum(1 for r in rows if r["device_type"] == "smartphone"), len(rows))

# q11 period: data one line used in May 2024
rows = [u for u in usage if u["line"] == "L-1004" and u["month"] == "2024-05"]
assert len(rows) == 1
gold["q11"] = (num(rows[0]["data_gb"]), 1)

# q12 limit: lines of one account above their plan's data allowance in May 2024
over, n = [], 0
for r in lines_of("Harbour Logistics North Depot"):
    allowance = float(plans[r["plan"]]["data_allowance_gb"])
    for u in usage:
        if u["line"] == r["line"] and u["month"] == "2024-05":
            n += 1
            if float(u["data_gb"]) > allowance:
                over.append(r["line"])
gold["q12"] = (sorted(over), n)

# q13 yes/no: does one account have an open outage ticket?
rows = [t for t in tickets if t["account"] == "Harbour Retail Online"]
gold["q13"] = (any(t["category"] == "outage" and t["status"] == "open" for t in rows), len(rows))

# q14 two parts: the plan of one line, and that plan's monthly fee
p = line["L-1010"]["plan"]
gold["q14"] = ({"parts": [[p], num(plans[p]["monthly_fee_gbp"])]}, 2)

# q15 direct vs whole hierarchy: lines held by the account itself, and by its whole tree
direct, whole = lines_of("Harbour Group"), lines_of("Harbour Group", whole=True)
gold["q15"] = ({"parts": [len(direct), len(whole)]}, len(whole))

# q16 not answerable: the catalog holds no charges, roaming or otherwise
gold["q16"] = (None, 0)


if __name__ == "__main__":
    qfile = DATA / "questions.jsonl"
    if "--write" in sys.argv:
        qs = [json.loads(line) for line in qfile.read_text().splitlines() if line.strip()]
        for q in qs:
            q["answer"], q["complexity"] = gold[q["id"]]
        qfile.write_text("".join(json.dumps(q, ensure_ascii=False) + "\n" for q in qs))
    for k, (answer, complexity) in gold.items():
        print(k, json.dumps(answer), complexity)
