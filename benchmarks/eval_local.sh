#!/usr/bin/env bash
# The paper's comparison with the local model (issues 13, 25): every approach on the same seeded, stratified samples,
# graded by exact match and by the local model as judge. Long (hours on 2 cores): run it in the background, e.g.
#   mkdir -p runs/local && nohup bash benchmarks/eval_local.sh > runs/local/eval.log 2>&1 &
# Results: runs/local/<dataset>/<approach>--local/{records.jsonl,summary.json} and the figures of each dataset;
# a run whose summary.json exists is not run again (delete it to redo it), and an interrupted run goes on from its
# records.partial.jsonl (the questions recorded there are not asked again). Then: python benchmarks/eval_table.py
set -uo pipefail
OUT=${OUT:-runs/local}
QA=${QA:-60}        # bank_qa questions (a third of each type)
PLUS=${PLUS:-40}    # bank_plus questions (spread over the complexity buckets, 1 to 1,000)
JUDGE=${JUDGE:-local}
SEED=${SEED:-0}
TIMEOUT=${TIMEOUT:-300}
run() {
  local dataset=$1 approach=$3
  if [ -f "$OUT/$dataset/$approach--local/summary.json" ]; then echo "== $dataset $approach: done already"; return; fi
  echo "== $(date +%T) $*"
  vadaorchestra eval "$@" --model local --judge "$JUDGE" --seed "$SEED" --timeout "$TIMEOUT" --out "$OUT/$dataset" \
    || echo "!! exit $?"
}
for approach in vadaorchestra refactx llm-mcp llm-only rag-10; do run bank_qa --approach $approach --sample "$QA"; done
for approach in vadaorchestra refactx llm-mcp llm-only rag-10; do run bank_plus --approach $approach --sample "$PLUS"; done
run bank_qa --approach rag-100 --sample "$QA"
run bank_plus --approach rag-100 --sample "$PLUS"
run supply_chain --approach vadaorchestra --sample 12
# rag-1000 is left out: its prompt (22,944 tokens) exceeds the local client's 16,384-token context (README)
echo "== $(date +%T) done"
