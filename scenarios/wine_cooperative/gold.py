"""Gold answers of the wine_cooperative set, computed with pandas from the CSV files alone.

    python scenarios/wine_cooperative/gold.py            # writes data/questions.jsonl
    python scenarios/wine_cooperative/gold.py --check    # also compares with `vadaorchestra call` where a tool computes the same

Nothing of vadaorchestra is imported: the answers come from the data files, never from the catalog's programs.
"""
import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"

members = pd.read_csv(DATA / "members.csv")
parcels = pd.read_csv(DATA / "parcels.csv")
deliveries = pd.read_csv(DATA / "deliveries.csv", dtype={"lot": str})
wines = pd.read_csv(DATA / "wines.csv")
components = pd.read_csv(DATA / "blend_components.csv")


def components_below(wine):
    """Every (component, component_kind, into_wine, level) under `wine`, following blends down to the lots."""
    out, frontier, level = [], [wine], 1
    while frontier:
        nxt = []
        for w in frontier:
            for _, c in components[components.wine == w].iterrows():
                out.append((c.component, c.component_kind, w, level))
                nxt.append(c.component)
        frontier, level = nxt, level + 1
    return pd.DataFrame(out, columns=["component", "component_kind", "into_wine", "level"])


def uses_above(component):
    """Every (wine, level) a component ends up in, following blends up to the cuvées."""
    out, frontier, level = [], [component], 1
    while frontier:
        nxt = []
        for c in frontier:
            for w in components.loc[components.component == c, "wine"]:
                out.append((w, level))
                nxt.append(w)
        frontier, level = nxt, level + 1
    return pd.DataFrame(out, columns=["wine", "level"])


def srt(values):
    return sorted(str(v) for v in values)


def member_lots(member):
    return deliveries.merge(parcels[parcels.member == member], on="parcel")


def quota(member):
    return float(members.set_index("member").loc[member, "delivery_quota_t"])


Q = []


def q(qid, typ, template, question, answer, complexity):
    Q.append({"id": qid, "type": typ, "template": template, "question": question, "answer": answer,
              "complexity": int(complexity)})


# 1 active voice
lp = wines[wines.winemaker == "Luc Perret"]
q("wc01", "generic", "relation_active", "Which wines does Luc Perret make?", srt(lp.wine), len(lp))

# 2 passive voice
gaec = parcels[parcels.member == "GAEC des Trois Chênes"]
q("wc02", "generic", "relation_passive", "Which parcels are farmed by GAEC des Trois Chênes?", srt(gaec.parcel), len(gaec))

# 3 possessive with a kind: "which X is Y the <role> of?"
sa = wines[wines.winemaker == "Sophie Aubert"]
q("wc03", "generic", "relation_possessive_kind", "Which cuvées is Sophie Aubert the winemaker of?",
  srt(sa[sa.wine_kind == "cuvée"].wine), len(sa))

# 4 two hops: the lots of the parcels a member farms
bf_lots = member_lots("Bernard Fabre")
q("wc04", "multi-hop", "relation_join", "Which harvest lots came in from the parcels that Bernard Fabre farms?",
  srt(bf_lots.lot), (parcels.member == "Bernard Fabre").sum() + len(bf_lots))

# 5 direct children of one kind in the blend hierarchy
tr = components_below("Terres de Roquebrune")
q("wc05", "generic", "kind_direct", "Which blends go directly into Terres de Roquebrune?",
  srt(tr[(tr.level == 1) & (tr.component_kind == "blend")].component), (tr.level == 1).sum())

# 6 count of one kind anywhere below (a split lot reached along two paths counts once)
grr = components_below("Grande Réserve Rouge")
q("wc06", "count", "kind_count_chain",
  "How many harvest lots end up in Grande Réserve Rouge, counting every stage of its blending?",
  int(grr[grr.component_kind == "lot"].component.nunique()), len(grr))

# 7 list of one kind anywhere below
q("wc07", "generic", "kind_list_chain",
  "Which reserve wines go into Grande Réserve Rouge at any stage of its blending?",
  srt(grr[grr.component_kind == "reserve"].component.unique()), len(grr))

# 8 up the chain, to the finished wines
up = uses_above("R23-024").merge(wines[["wine", "wine_kind"]], on="wine")
q("wc08", "generic", "ultimately", "Which cuvées does harvest lot R23-024 end up in?",
  srt(up[up.wine_kind == "cuvée"].wine.unique()), len(up))

# 9 total over one entity (through its parcels)
q("wc09", "count", "total", "How many tonnes of grapes did Bernard Fabre deliver in total?",
  round(float(bf_lots.tonnes.sum()), 2), len(bf_lots))

# 10 count over one entity (through its parcels)
fc_lots = member_lots("Famille Castagné")
q("wc10", "count", "count", "How many harvest lots did Famille Castagné bring in?", len(fc_lots), len(fc_lots))

# 11 top n
big = gaec.sort_values("area_ha", ascending=False)
assert big.area_ha.iloc[2] > big.area_ha.iloc[3]
q("wc11", "multi-hop", "top_n", "Which three parcels farmed by GAEC des Trois Chênes cover the largest area?",
  srt(big.head(3).parcel), len(gaec))

# 12 the highest
mv = deliveries[deliveries.parcel == "Mas Vieil"].sort_values("brix", ascending=False)
assert mv.brix.iloc[0] > mv.brix.iloc[1]
q("wc12", "generic", "highest", "Which lot from Mas Vieil came in with the highest Brix reading?",
  [mv.lot.iloc[0]], len(mv))

# 13 a condition on a number
fc = parcels[parcels.member == "Famille Castagné"]
q("wc13", "generic", "condition", "Which of Famille Castagné's parcels are larger than 3 hectares?",
  srt(fc[fc.area_ha > 3].parcel), len(fc))

# 14, 15 yes/no against the delivery quota stored in members.csv
q("wc14", "multi-hop", "limit_yes_no", "Has Bernard Fabre delivered more grapes than his delivery quota allows?",
  bool(bf_lots.tonnes.sum() > quota("Bernard Fabre")), len(bf_lots) + 1)
mr_lots = member_lots("Martine Roux")
q("wc15", "multi-hop", "limit_yes_no", "Did Martine Roux's deliveries exceed her delivery quota?",
  bool(mr_lots.tonnes.sum() > quota("Martine Roux")), len(mr_lots) + 1)

# 16 two parts: who farms a parcel, and is that member over their quota
farmer = parcels.set_index("parcel").loc["La Plaine", "member"]
fl = member_lots(farmer)
q("wc16", "multi-hop", "two_part_limit", "Which member farms La Plaine, and is that member over their delivery quota?",
  {"parts": [[farmer], bool(fl.tonnes.sum() > quota(farmer))]}, 1 + len(fl) + 1)

# 17, 18 not in the data: no prices, no sales or shipments
q("wc17", "generic", "no_tool", "What price per tonne did the cooperative pay Bernard Fabre for his Grenache?", None, 0)
q("wc18", "generic", "no_tool", "How many bottles of Cuvée Les Cigales were shipped to export customers?", None, 0)


def call(tool, **params):
    args = ["vadaorchestra", "call", tool, *[f"{k}={v}" for k, v in params.items()],
            "--catalog", str(HERE / "catalog"), "--data", str(HERE)]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return pd.read_csv(StringIO(out), dtype={"lot": str, "component": str})


def check():
    """Where a tool computes what a gold answer rests on, its output must agree with pandas."""
    ok = True

    def same(what, got, want):
        nonlocal ok
        flag = "ok " if got == want else "DIFF"
        ok &= got == want
        print(f"{flag} {what}: tool {got!r} gold {want!r}")

    A = {x["id"]: x["answer"] for x in Q}
    same("wc01", srt(call("get_winemaker_wines", winemaker_name="Luc Perret").wine), A["wc01"])
    same("wc02", srt(call("get_member_parcels", member_name="GAEC des Trois Chênes").parcel), A["wc02"])
    w = call("get_winemaker_wines", winemaker_name="Sophie Aubert")
    same("wc03", srt(w[w.wine_kind == "cuvée"].wine), A["wc03"])
    lots = []
    for p in call("get_member_parcels", member_name="Bernard Fabre").parcel:
        lots += list(call("get_parcel_deliveries", parcel_name=p).lot)
    same("wc04", srt(lots), A["wc04"])
    b = call("get_blend_components", wine_name="Terres de Roquebrune")
    same("wc05", srt(b[(b.level == 1) & (b.component_kind == "blend")].component), A["wc05"])
    b = call("get_blend_components", wine_name="Grande Réserve Rouge")
    same("wc06", int(b[b.component_kind == "lot"].component.nunique()), A["wc06"])
    same("wc07", srt(b[b.component_kind == "reserve"].component.unique()), A["wc07"])
    u = call("get_component_uses", component_name="R23-024")
    same("wc08", srt(u[u.wine_kind == "cuvée"].wine.unique()), A["wc08"])
    h = call("get_member_harvest", member_name="Bernard Fabre")
    same("wc09", round(float(h.tonnes.iloc[0]), 2), A["wc09"])
    same("wc10", int(call("get_member_harvest", member_name="Famille Castagné").lots.iloc[0]), A["wc10"])
    p = call("get_member_parcels", member_name="GAEC des Trois Chênes").sort_values("area_ha", ascending=False)
    same("wc11", srt(p.head(3).parcel), A["wc11"])
    d = call("get_parcel_deliveries", parcel_name="Mas Vieil").sort_values("brix", ascending=False)
    same("wc12", [d.lot.iloc[0]], A["wc12"])
    p = call("get_member_parcels", member_name="Famille Castagné")
    same("wc13", srt(p[p.area_ha > 3].parcel), A["wc13"])

    def over(m):
        return bool(call("get_member_harvest", member_name=m).tonnes.iloc[0]
                    > call("get_member_profile", member_name=m).delivery_quota_t.iloc[0])

    same("wc14", over("Bernard Fabre"), A["wc14"])
    same("wc15", over("Martine Roux"), A["wc15"])
    m = call("get_parcel_details", parcel_name="La Plaine").member.iloc[0]
    same("wc16", {"parts": [[m], over(m)]}, A["wc16"])
    return ok


if __name__ == "__main__":
    with open(DATA / "questions.jsonl", "w", encoding="utf-8") as fh:
        for item in Q:
            fh.write(json.dumps(item, ensure_ascii=False) + "\n")
    print(f"{len(Q)} questions -> {DATA / 'questions.jsonl'}")
    if "--check" in sys.argv:
        sys.exit(0 if check() else 1)
