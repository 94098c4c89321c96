#!/usr/bin/env bash
# The paper's comparison with the local model (issue 13): every approach on the same seeded, stratified samples.
# Long (over an hour on 2 cores): run it in the background, e.g.
#   mkdir -p runs/local && nohup bash benchmarks/eval_local.sh > runs/local/eval.log 2>&1 &
# Results: runs/local/<dataset>/<approach>--local/{records.jsonl,summary.json} and the figures of each dataset;
# a run whose summary.json exists is not run again (delete it to redo it). Then: python benchmarks/eval_table.py
set -uo pipefail
OUT=${OUT:-runs/local}
QA=${QA:-12}        # bank_qa questions (a third of each type)
PLUS=${PLUS:-8}     # bank_plus questions (spread over the complexity buckets)
SEED=${SEED:-0}
TIMEOUT=${TIMEOUT:-300}
run() {
  local dataset=$1 approach=$3
  if [ -f "$OUT/$dataset/$approach--local/summary.json" ]; then echo "== $dataset $approach: done already"; return; fi
  echo "== $(date +%T) $*"
  vadaorchestra eval "$@" --model local --seed "$SEED" --timeout "$TIMEOUT" --out "$OUT/$dataset" || echo "!! exit $?"
}
run bank_qa --approach vadaorchestra --sample "$QA"
run bank_qa --approach llm-mcp --sample "$QA"
run bank_qa --approach llm-only --sample "$QA"
run bank_qa --approach rag-10 --sample "$QA"
run bank_plus --approach vadaorchestra --sample "$PLUS"
run bank_plus --approach llm-mcp --sample "$PLUS"
run bank_plus --approach llm-only --sample "$PLUS"
run bank_plus --approach rag-10 --sample "$PLUS"
run bank_qa --approach rag-100 --sample "$QA"
run supply_chain --approach vadaorchestra --sample 12
# rag-1000 is left out: its prompt (22,944 tokens) exceeds the local client's 16,384-token context (README)
echo "== $(date +%T) done"
