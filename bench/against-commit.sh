#!/usr/bin/env bash
# Duplicate protection's share of a run, this tree against an earlier commit of its own (e.g. the landing
# a refactor must not slow down), both builds interleaved in one bench session:
#   bash bench/against-commit.sh <commit> [OUT_DIR]     (nothing else should run)
# Per database (BENCH_AGAINST_DBS, default "sqlite postgres") and round (BENCH_ROUNDS, default 3), in this
# order: the commit's version 2, this tree's version 2, the commit's version 1, this tree's version 1 (each
# BENCH_RUNS runs, default 5: 15 runs a case by default). Each: 1000 × Profile → Create at 0 ms, protection
# Off and on with 10,000 / 100,000 rows recorded. The commit's build is this tree's bench and tests with the
# commit's nodes and credentials. Writes OUT_DIR/<db>-<case>-<round>.json and prints the summary
# (bench/against-commit-summary.js): each case's points above the commit, and the commit's own A/A spread
# (its rounds' largest minus smallest share).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BASE=${1:?usage: bench/against-commit.sh <commit> [OUT_DIR]}
BASE=$(git -C "$ROOT" rev-parse --short "$BASE")
OUT=${2:-$ROOT/.bench/against-$BASE}
OLD_TREE=$(mktemp -d "${TMPDIR:-/tmp}/cv-bench-$BASE.XXXXXX")
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
cleanup() {
	git -C "$ROOT" worktree remove --force "$OLD_TREE" 2>/dev/null || rm -rf "$OLD_TREE"
	git -C "$ROOT" checkout -- bench/results/latest.md bench/results/latest.json
}
trap cleanup EXIT

rmdir "$OLD_TREE"
git -C "$ROOT" worktree add --detach "$OLD_TREE" HEAD >/dev/null
(cd "$OLD_TREE" && rm -rf nodes credentials && git checkout "$BASE" -- nodes credentials)
ln -s "$ROOT/node_modules" "$OLD_TREE/node_modules"

export BENCH_SIZES=1000 BENCH_SUBMIT_SIZES= BENCH_LATENCIES=0 BENCH_RUNS=${BENCH_RUNS:-5} BENCH_FILE_MIB=0 BENCH_UPLOAD_MIB=0
export BENCH_PREFLIGHT_SIZE=0 BENCH_RAW_FETCH=0 BENCH_N8N_LOG_LEVEL=debug
export BENCH_VARIANTS=node,protectionOff,recorded10000,recorded100000
run() { # <db> <case> <round> <tree> <node version>
	echo "# $(date -u +%H:%M:%S) $1 $2 round $3"
	(cd "$4" && BENCH_DB=$1 BENCH_NODE_VERSION=$5 npm run bench >"$OUT/$1-$2-$3.log" 2>&1)
	cp "$4/bench/results/latest.json" "$OUT/$1-$2-$3.json"
}
for db in ${BENCH_AGAINST_DBS:-sqlite postgres}; do
	for round in $(seq 1 "${BENCH_ROUNDS:-3}"); do
		run "$db" base-v2 "$round" "$OLD_TREE" 2
		run "$db" v2 "$round" "$ROOT" 2
		run "$db" base-v1 "$round" "$OLD_TREE" 1
		run "$db" v1 "$round" "$ROOT" 1
	done
done
node "$ROOT/bench/against-commit-summary.js" "$OUT" "$BASE"
