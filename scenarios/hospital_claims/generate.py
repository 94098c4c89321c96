"""A small held-out catalog of another domain (hospital claims: providers, the health systems they belong to, the
claims they bill to payers, and the payers' annual reimbursement caps per health system), with questions whose answers
are computed here from the data, in plain Python.

Written without looking at how the agents decide, and kept as it is: it measures how the project carries over to a
catalog it was not written with (``vadaorchestra eval hospital_claims``).

Conventions of the gold answers:

- The data cover one year: every claim counts towards that year's caps.
- Health systems form a "part of" hierarchy (``system_parents.csv``: a system and its direct parent, three levels at
  most). A health system **includes** the providers that belong to it directly (``providers.csv``) and, transitively,
  every provider of its sub-systems (the systems part of it, directly or through other sub-systems). "Directly" in a
  question means one hop only; "directly or indirectly", "directly or through its sub-systems", "ultimately" mean the
  whole chain. The **top-level** (ultimate) system of a provider is the last system of its chain, the one that is part
  of no other system (a provider's own system when that one has no parent).
- A payer's ``annual_cap`` for a health system is an **amount**: the most the payer reimburses in the year for all
  claims billed to it by the providers that health system includes (directly or through sub-systems). A system exceeds
  a payer's cap when that total is **strictly** more than the cap; no total equals a cap, so ``>`` and ``>=`` agree.
  Each cap applies to its own system only: a parent's cap does not count its sub-systems' caps and vice versa.
- Totals sum **every** claim row: claims are kept apart by their claim id, and many claims share one amount, so a sum
  over the distinct amounts is wrong. Counts of claims count claim ids; counts of patients, payers, procedures or
  providers count distinct names.
- A share is a **fraction** (0 to 1), the exact quotient of two amounts. The share questions divide by a payer's cap,
  and caps are multiples of 2**a * 5**b, so every such quotient is a short terminating decimal (0.871). Exact match
  compares numbers, not units: ``87.1 %`` or ``87.1`` does not match ``0.871``.
- Comparisons with a numeric threshold in a question ("a rating above 4.0", "more than 50,000") are strict, and no
  value equals the threshold.
- "Highest"/"lowest" questions say whether they want the entity (its name, a one-element list; the maximum is unique)
  or the value (a number).
- Names answers are lists (compared as sets); numbers are ints for counts and floats for amounts, ratings and shares.
- Question types: ``generic`` reads values off one tool's rows; ``count`` is one number aggregated over one tool's
  rows (a count, a sum, or a ratio of two sums of the same rows); ``multi-hop`` combines the rows of two or more tools
  (the recursive hierarchy with claims, caps or provider profiles). ``complexity`` is the number of rows (facts) the
  answer depends on.
"""

from __future__ import annotations

import random
from collections import defaultdict
from pathlib import Path

# health system -> its direct parent (top-level systems are not listed)
SYSTEM_PARENTS = {
    "Harbor Valley Health": "Crestline Health Partners",
    "Summit Ridge Medical Group": "Crestline Health Partners",
    "Pinecrest Community Care": "Summit Ridge Medical Group",
    "Redwood Coast Medical Network": "Bluewater Health Alliance",
}
SYSTEMS = ["Crestline Health Partners", "Harbor Valley Health", "Summit Ridge Medical Group",
           "Pinecrest Community Care", "Bluewater Health Alliance", "Redwood Coast Medical Network",
           "Granite Peak Health"]
# provider -> (city, specialty, health system it belongs to directly, rating 1-5)
PROVIDERS = {
    "Meadowview Medical Center": ("Portland", "Internal Medicine", "Crestline Health Partners", 4.4),
    "Northgate Family Clinic": ("Tacoma", "Family Medicine", "Harbor Valley Health", 4.1),
    "Saint Brendan Regional Hospital": ("Olympia", "General Surgery", "Harbor Valley Health", 3.7),
    "Lakeshore Orthopedic Center": ("Spokane", "Orthopedics", "Summit Ridge Medical Group", 4.6),
    "Willowbrook Cardiology Institute": ("Boise", "Cardiology", "Summit Ridge Medical Group", 3.9),
    "Alder Creek Pediatrics": ("Bend", "Pediatrics", "Pinecrest Community Care", 4.8),
    "Juniper Hills Dialysis Center": ("Bend", "Nephrology", "Pinecrest Community Care", 3.5),
    "Rosewood Maternity Hospital": ("Portland", "Obstetrics", "Bluewater Health Alliance", 4.2),
    "Bayside Oncology Associates": ("Eugene", "Oncology", "Redwood Coast Medical Network", 4.7),
    "Cedar Point Imaging": ("Salem", "Radiology", "Redwood Coast Medical Network", 3.8),
    "Silverlake Neurology Clinic": ("Boise", "Neurology", "Granite Peak Health", 4.3),
    "Ironwood Urgent Care": ("Nampa", "Emergency Medicine", "Granite Peak Health", 3.6),
}
# provider -> procedures it bills, each with its price points (multiples of 50, so equal amounts recur)
PROCEDURES = {
    "Meadowview Medical Center": {"Office Visit": [150, 200], "Blood Panel": [250, 300], "CT Scan": [1800, 2100]},
    "Northgate Family Clinic": {"Office Visit": [150, 200], "Vaccination": [100], "Blood Panel": [250]},
    "Saint Brendan Regional Hospital": {"Appendectomy": [14500, 16000], "Hernia Repair": [9800, 11200],
                                        "Gallbladder Removal": [18500]},
    "Lakeshore Orthopedic Center": {"Knee Arthroscopy": [7400, 8200], "Hip Replacement": [31000, 34500],
                                    "Physical Therapy Session": [350]},
    "Willowbrook Cardiology Institute": {"Echocardiogram": [1600, 1900], "Cardiac Catheterization": [12500],
                                         "Stress Test": [950, 1100]},
    "Alder Creek Pediatrics": {"Well Child Visit": [180, 220], "Vaccination": [100, 120]},
    "Juniper Hills Dialysis Center": {"Dialysis Session": [650, 700]},
    "Rosewood Maternity Hospital": {"Vaginal Delivery": [11500, 12800], "Cesarean Delivery": [19500],
                                    "Prenatal Checkup": [300, 350]},
    "Bayside Oncology Associates": {"Chemotherapy Infusion": [6800, 7500], "Radiation Therapy": [4200],
                                    "Oncology Consultation": [450]},
    "Cedar Point Imaging": {"MRI Scan": [2300, 2600], "CT Scan": [1700], "X-Ray": [250, 300]},
    "Silverlake Neurology Clinic": {"EEG Test": [900, 1000], "Neurology Consultation": [400], "MRI Scan": [2500]},
    "Ironwood Urgent Care": {"Urgent Care Visit": [300, 350], "X-Ray": [250], "Laceration Repair": [600]},
}
PAYERS = ["Meridian Mutual Insurance", "Evergreen State Health Plan", "Keystone Benefit Trust"]
PATIENTS = ["Maria Lopez", "James Whitfield", "Aisha Rahman", "Daniel Okafor", "Sofia Marchetti", "Henry Caldwell",
            "Priya Natarajan", "Lucas Brennan", "Emily Sutherland", "Omar Haddad", "Grace Yamamoto", "Victor Almeida",
            "Hannah Kowalski", "Samuel Osei", "Olivia Chen", "Mateo Herrera", "Chloe Dubois", "Nathan Greer",
            "Leila Farouk", "Benjamin Novak", "Ruth Abernathy", "Tomas Lindqvist", "Ingrid Halvorsen", "Kwame Mensah",
            "Yuki Tanaka", "Diego Morales", "Isabel Fontaine", "Arjun Mehta", "Clara Weiss", "Patrick Doyle"]
# (payer, health system) -> whether the payer's cap for that system is breached; caps are set from the totals
CAP_PLAN = {
    ("Meridian Mutual Insurance", "Crestline Health Partners"): True,
    ("Meridian Mutual Insurance", "Harbor Valley Health"): False,
    ("Meridian Mutual Insurance", "Summit Ridge Medical Group"): False,
    ("Meridian Mutual Insurance", "Pinecrest Community Care"): False,
    ("Meridian Mutual Insurance", "Bluewater Health Alliance"): False,
    ("Meridian Mutual Insurance", "Redwood Coast Medical Network"): False,
    ("Meridian Mutual Insurance", "Granite Peak Health"): False,
    ("Evergreen State Health Plan", "Harbor Valley Health"): False,
    ("Evergreen State Health Plan", "Bluewater Health Alliance"): False,
    ("Evergreen State Health Plan", "Redwood Coast Medical Network"): True,
    ("Evergreen State Health Plan", "Granite Peak Health"): True,
    ("Keystone Benefit Trust", "Crestline Health Partners"): False,
    ("Keystone Benefit Trust", "Bluewater Health Alliance"): False,
    ("Keystone Benefit Trust", "Granite Peak Health"): False,
}
HEADERS = {"providers": ["provider", "city", "specialty", "health_system", "rating"],
           "system_parents": ["health_system", "parent_system"],
           "claims": ["claim_id", "provider", "patient", "payer", "procedure", "amount"],
           "payer_caps": ["payer", "health_system", "annual_cap"]}
# caps: multiples of 2**a * 5**b (so that every share of a cap is a terminating decimal)
NICE = sorted({m * 10 ** k for m in (10, 125, 160, 200, 250, 320, 400, 500, 640, 800) for k in range(2, 5)})


def _nice_below(x: float) -> int:
    return max(n for n in NICE if n < 0.93 * x)


def _nice_above(x: float) -> int:
    return min(n for n in NICE if n > 1.07 * x)


def generate(seed: int = 23) -> dict[str, list[list]]:
    rng = random.Random(seed)
    claims, n = [], 0
    for provider, procs in PROCEDURES.items():
        pool = rng.sample(PATIENTS, rng.randint(5, 8))
        for _ in range(rng.randint(12, 22)):
            n += 1
            proc = rng.choice(sorted(procs))
            amount = float(rng.choice(procs[proc]))
            payer = rng.choices(PAYERS, weights=[5, 3, 2])[0]
            claims.append([f"CLM-{n:05d}", provider, rng.choice(pool), payer, proc, amount])
    providers = [[p, c, s, h, r] for p, (c, s, h, r) in PROVIDERS.items()]
    parents = [[s, p] for s, p in SYSTEM_PARENTS.items()]
    data = {"providers": providers, "system_parents": parents, "claims": claims, "payer_caps": []}
    billed = _system_payer_totals(data)
    data["payer_caps"] = [[payer, system, float(_nice_below(billed[system][payer]) if breach
                                                else _nice_above(billed[system][payer]))]
                          for (payer, system), breach in CAP_PLAN.items()]
    return data


# --- relations, in plain Python ----------------------------------------------------------------------------------
def _sub_systems(data: dict[str, list[list]], system: str) -> set[str]:
    """The systems part of ``system``, directly or through other sub-systems."""
    children = defaultdict(set)
    for s, p in data["system_parents"]:
        children[p].add(s)
    out, todo = set(), [system]
    while todo:
        for c in children[todo.pop()]:
            if c not in out:
                out.add(c)
                todo.append(c)
    return out


def _ancestors(data: dict[str, list[list]], system: str) -> list[str]:
    """The systems ``system`` is part of, nearest first."""
    parent = {s: p for s, p in data["system_parents"]}
    out = []
    while system in parent:
        system = parent[system]
        out.append(system)
    return out


def _direct_providers(data: dict[str, list[list]], system: str) -> list[str]:
    return sorted(p for p, _c, _s, h, _r in data["providers"] if h == system)


def _included_providers(data: dict[str, list[list]], system: str) -> list[str]:
    systems = {system} | _sub_systems(data, system)
    return sorted(p for p, _c, _s, h, _r in data["providers"] if h in systems)


def _system_payer_totals(data: dict[str, list[list]]) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for system in SYSTEMS:
        members = set(_included_providers(data, system))
        t: dict[str, float] = defaultdict(float)
        for _id, prov, _pat, payer, _proc, amount in data["claims"]:
            if prov in members:
                t[payer] += amount
        out[system] = t
    return out


def _claims_of(data: dict[str, list[list]], provider: str) -> list[list]:
    return [r for r in data["claims"] if r[1] == provider]


def _total(rows: list[list]) -> float:
    return float(sum(r[5] for r in rows))


def _breaches(data: dict[str, list[list]], payer: str) -> list[str]:
    billed = _system_payer_totals(data)
    return sorted(s for p, s, cap in data["payer_caps"] if p == payer and billed[s][payer] > cap)


def check(data: dict[str, list[list]]) -> None:
    """The properties the questions rely on."""
    names = SYSTEMS + list(PROVIDERS) + PAYERS + PATIENTS + sorted({r[4] for r in data["claims"]})
    assert len(names) == len(set(names)), "a name is used twice"
    for a in names:
        for b in names:
            assert a == b or a.lower() not in b.lower(), f"{a!r} is part of {b!r}"
    billed = _system_payer_totals(data)
    for payer, system, cap in data["payer_caps"]:
        assert billed[system][payer] != cap, f"{payer}/{system}: a total equals the cap"
        assert (billed[system][payer] > cap) == CAP_PLAN[(payer, system)], f"{payer}/{system}: plan not met"
    # the group breach: no single provider, and no direct member alone, reaches the parent's cap
    cap = {(p, s): c for p, s, c in data["payer_caps"]}
    m = "Meridian Mutual Insurance"
    crest = "Crestline Health Partners"
    direct = sum(r[5] for r in data["claims"] if r[3] == m and r[1] in _direct_providers(data, crest))
    assert direct < cap[(m, crest)], "the direct members alone breach"
    for prov in _included_providers(data, crest):
        assert sum(r[5] for r in _claims_of(data, prov) if r[3] == m) < cap[(m, crest)]
    assert _breaches(data, "Keystone Benefit Trust") == [], "Keystone is breached"
    assert len(data["claims"]) >= 100


def questions(data: dict[str, list[list]]) -> list[dict]:
    prof = {p: (c, s, h, r) for p, c, s, h, r in data["providers"]}
    cap = {(p, s): c for p, s, c in data["payer_caps"]}
    billed = _system_payer_totals(data)
    out: list[dict] = []

    def add(qtype: str, template: str, question: str, answer, complexity: int) -> None:
        out.append({"id": f"hc{len(out) + 1:03d}", "type": qtype, "template": template, "question": question,
                    "answer": answer, "complexity": complexity})

    def provider_totals(providers: list[str]) -> dict[str, float]:
        return {p: _total(_claims_of(data, p)) for p in providers}

    # lookup: one attribute of one named entity
    add("generic", "lookup", "In which city is Lakeshore Orthopedic Center located?",
        [prof["Lakeshore Orthopedic Center"][0]], 1)
    add("generic", "lookup", "What rating does Cedar Point Imaging have?", prof["Cedar Point Imaging"][3], 1)
    add("generic", "lookup", "What is the specialty of Meadowview Medical Center?",
        [prof["Meadowview Medical Center"][1]], 1)
    add("generic", "lookup", "What annual reimbursement cap does Meridian Mutual Insurance set for Harbor Valley Health?",
        cap[("Meridian Mutual Insurance", "Harbor Valley Health")], 1)

    # list: the entities related to a named one
    rows = _claims_of(data, "Northgate Family Clinic")
    add("generic", "list", "Which patients did Northgate Family Clinic bill claims for?",
        sorted({r[2] for r in rows}), len(rows))
    ks = [s for p, s, _c in data["payer_caps"] if p == "Keystone Benefit Trust"]
    add("generic", "list", "List the health systems for which Keystone Benefit Trust has an annual cap.", sorted(ks),
        len(ks))
    rows = _claims_of(data, "Willowbrook Cardiology Institute")
    add("generic", "list", "Name the procedures Willowbrook Cardiology Institute has billed.",
        sorted({r[4] for r in rows}), len(rows))

    # count: how many of something a named entity has
    rows = _claims_of(data, "Alder Creek Pediatrics")
    add("count", "count", "How many claims has Alder Creek Pediatrics billed?", len(rows), len(rows))
    rows = _claims_of(data, "Saint Brendan Regional Hospital")
    pats = {r[2] for r in rows}
    assert len(pats) != len(rows)
    add("count", "count", "How many different patients did Saint Brendan Regional Hospital bill claims for?",
        len(pats), len(rows))
    rows = _claims_of(data, "Ironwood Urgent Care")
    add("count", "count", "What number of distinct payers has Ironwood Urgent Care billed?",
        len({r[3] for r in rows}), len(rows))

    # total: a sum of amounts over every claim row (equal amounts all counted)
    for prov, phrase in [("Juniper Hills Dialysis Center", "What is the total amount billed by {p}?"),
                         ("Lakeshore Orthopedic Center", "How much has {p} billed in total, over all its claims?"),
                         ("Silverlake Neurology Clinic", "What is the sum of all claim amounts billed by {p}?")]:
        rows = _claims_of(data, prov)
        assert sum({r[5] for r in rows}) != _total(rows), f"{prov}: no repeated amounts"
        add("count", "total", phrase.format(p=prov), _total(rows), len(rows))

    # share: a fraction of a payer's cap (exact, terminating)
    m, e = "Meridian Mutual Insurance", "Evergreen State Health Plan"
    sr = "Summit Ridge Medical Group"
    members = _included_providers(data, sr)
    n_rows = sum(1 for r in data["claims"] if r[1] in members and r[3] == m)
    add("multi-hop", "share",
        f"What fraction of {m}'s annual cap for {sr} is used by the claims billed to {m} by all providers of {sr}, "
        "including those of its sub-systems?", billed[sr][m] / cap[(m, sr)], n_rows + len(members) + 2)
    rows = [r for r in _claims_of(data, "Ironwood Urgent Care") if r[3] == e]
    add("multi-hop", "share",
        f"Ironwood Urgent Care's claims to {e} use what fraction of {e}'s annual cap for Granite Peak Health?",
        _total(rows) / cap[(e, "Granite Peak Health")], len(rows) + 1)

    # extreme: argmax entity or max/min value
    rows = _claims_of(data, "Bayside Oncology Associates")
    per = defaultdict(float)
    for r in rows:
        per[r[2]] += r[5]
    top = sorted(per.values(), reverse=True)
    assert top[0] != top[1]
    add("generic", "extreme", "Which patient has the highest total amount billed by Bayside Oncology Associates "
        "(give the patient)?", [max(per, key=per.get)], len(rows))
    rows = _claims_of(data, "Rosewood Maternity Hospital")
    add("generic", "extreme", "What is the largest single claim amount that Rosewood Maternity Hospital billed "
        "(give the amount)?", max(r[5] for r in rows), len(rows))
    ch = "Crestline Health Partners"
    members = _included_providers(data, ch)
    tot = provider_totals(members)
    top = sorted(tot.values(), reverse=True)
    assert top[0] != top[1]
    direct_tot = provider_totals(_direct_providers(data, ch))
    assert max(tot, key=tot.get) != max(direct_tot, key=direct_tot.get), "direct-only argmax agrees"
    add("multi-hop", "extreme", f"Among all providers of {ch}, directly or through its sub-systems, which provider has "
        "billed the highest total amount?", [max(tot, key=tot.get)],
        sum(len(_claims_of(data, p)) for p in members) + len(members))
    bw = "Bluewater Health Alliance"
    members = _included_providers(data, bw)
    add("multi-hop", "extreme", f"What is the lowest rating among the providers that {bw} includes, directly or "
        "indirectly (give the rating)?", min(prof[p][3] for p in members), 2 * len(members))

    # count / total restricted by a second named entity that is an output column
    rows = _claims_of(data, "Northgate Family Clinic")
    per = defaultdict(int)
    for r in rows:
        per[r[2]] += 1
    pat = max(sorted(per), key=per.get)
    assert 1 < per[pat] < len(rows)
    add("count", "restricted", f"How many claims did Northgate Family Clinic bill for patient {pat}?", per[pat],
        len(rows))
    rows = _claims_of(data, "Willowbrook Cardiology Institute")
    k = "Keystone Benefit Trust"
    sel = [r for r in rows if r[3] == k]
    assert sel and len(sel) < len(rows)
    add("count", "restricted", f"What total amount did Willowbrook Cardiology Institute bill to {k}?", _total(sel),
        len(rows))
    sel = [r for r in rows if r[4] == "Echocardiogram"]
    assert sel and len(sel) < len(rows)
    add("count", "restricted", "Count the Echocardiogram claims billed by Willowbrook Cardiology Institute.",
        len(sel), len(rows))

    # list restricted by a numeric condition on another tool's output
    members = _included_providers(data, ch)
    assert all(prof[p][3] != 4.0 for p in members)
    add("multi-hop", "filtered_list", f"Which providers of {ch}, directly or through its sub-systems, have a rating "
        "above 4.0?", sorted(p for p in members if prof[p][3] > 4.0), 2 * len(members))
    members = _included_providers(data, bw)
    tot = provider_totals(members)
    threshold = 50_000.0
    assert all(v != threshold for v in tot.values())
    sel = sorted(p for p in members if tot[p] > threshold)
    assert 0 < len(sel) < len(members)
    assert sel != [p for p in _direct_providers(data, bw) if tot[p] > threshold], "direct-only reading agrees"
    add("multi-hop", "filtered_list", f"Which of the providers in {bw}'s network (counting its sub-systems) have billed "
        "more than 50,000 in total?", sel, sum(len(_claims_of(data, p)) for p in members) + len(members))

    # direct vs transitive, for the same entity
    direct, every = _direct_providers(data, ch), _included_providers(data, ch)
    assert direct != every
    add("generic", "direct", f"Which providers belong directly to {ch}?", direct, len(direct))
    add("generic", "transitive", f"Which providers does {ch} include, directly or through its sub-systems?", every,
        len(every) + len(_sub_systems(data, ch)))
    add("count", "transitive", f"How many providers does {ch} include, counting those of its sub-systems?",
        len(every), len(every) + len(_sub_systems(data, ch)))
    pc = "Pinecrest Community Care"
    add("generic", "direct", f"Which health system is {pc} directly part of?", [_ancestors(data, pc)[0]], 1)
    add("generic", "transitive", f"Which health systems is {pc} part of, directly or indirectly?",
        sorted(_ancestors(data, pc)), len(_ancestors(data, pc)))
    jh = "Juniper Hills Dialysis Center"
    chain = _ancestors(data, prof[jh][2])
    add("generic", "direct", f"Which health system does {jh} belong to directly?", [prof[jh][2]], 1)
    add("multi-hop", "transitive", f"What is the top-level health system that {jh} ultimately belongs to?",
        [chain[-1] if chain else prof[jh][2]], 1 + len(chain))

    # comparison with the caps, per group found through the recursive relation
    def n_breach_rows(payer: str) -> int:
        systems = [s for p, s, _c in data["payer_caps"] if p == payer]
        return (len(systems) + sum(1 for r in data["claims"] if r[3] == payer)
                + sum(len(_included_providers(data, s)) for s in systems))

    b = _breaches(data, m)
    assert b
    add("multi-hop", "cap_breach", f"Which health systems' total billed to {m}, counting every provider they include "
        f"directly or through sub-systems, exceeds {m}'s annual cap for that system?", b, n_breach_rows(m))
    b = _breaches(data, e)
    assert b
    add("multi-hop", "cap_breach", f"For which health systems does the amount billed to {e} by all their providers, "
        "including the providers of their sub-systems, go over the annual cap the plan sets for that system?", b,
        n_breach_rows(e))
    add("multi-hop", "cap_breach", f"Name the health systems whose providers (including those of sub-systems) billed "
        f"{k} more than its annual cap for the system.", _breaches(data, k), n_breach_rows(k))
    return out


def write(folder: Path, seed: int = 23) -> None:
    from vadaorchestra.eval.datasets import write_generated

    write_generated(folder, generate(seed), check, HEADERS, questions)


if __name__ == "__main__":
    write(Path(__file__).resolve().parent)
