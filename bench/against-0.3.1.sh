#!/usr/bin/env bash
# Duplicate protection's share of a run, this package against 0.3.1 (a297338), in one bench session:
#   bash bench/against-0.3.1.sh [OUT_DIR]      (about 15 minutes on 2 cores; nothing else should run)
#   BENCH_AGAINST_DBS="sqlite postgres", BENCH_AGAINST_CASES="0.3.1 v2 v1-trimmed v1-lookups" and
#   BENCH_RUNS=5 choose a part (the criterion: medians of at least 5 runs).
# Per database (SQLite, then Postgres), in this order: 0.3.1, version 2 (new nodes), version 1 whose 0.3.x
# rows n8n has trimmed (BENCH_FORMER_ROWS_GONE=1), version 1 that may still hold them (the lookups). Each:
# 1000 × Profile → Create at 0 ms, protection Off and on with 10,000 / 100,000 rows recorded, 5 runs.
# Writes OUT_DIR/<db>-<case>.md and .json (each invocation's bench/results/latest.*) and .protection.log (the
# node's debug line per run: round trips and store time), prints the summary table, then puts
# bench/results/latest.* back as committed.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-$ROOT/.bench/against-0.3.1}
OLD_TREE=$(mktemp -d "${TMPDIR:-/tmp}/cv-bench-0.3.1.XXXXXX")
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
cleanup() {
	git -C "$ROOT" worktree remove --force "$OLD_TREE" 2>/dev/null || rm -rf "$OLD_TREE"
	git -C "$ROOT" checkout -- bench/results/latest.md bench/results/latest.json
}
trap cleanup EXIT

# 0.3.1: this commit's bench and tests, with a297338's nodes and credentials.
rmdir "$OLD_TREE"
git -C "$ROOT" worktree add --detach "$OLD_TREE" HEAD >/dev/null
(cd "$OLD_TREE" && rm -rf nodes credentials && git checkout a297338 -- nodes credentials)
ln -s "$ROOT/node_modules" "$OLD_TREE/node_modules"

export BENCH_SIZES=1000 BENCH_SUBMIT_SIZES= BENCH_LATENCIES=0 BENCH_RUNS=${BENCH_RUNS:-5} BENCH_FILE_MIB=0 BENCH_UPLOAD_MIB=0
export BENCH_PREFLIGHT_SIZE=0 BENCH_RAW_FETCH=0 BENCH_N8N_LOG_LEVEL=debug
export BENCH_VARIANTS=node,protectionOff,recorded10000,recorded100000
CASES=" ${BENCH_AGAINST_CASES:-0.3.1 v2 v1-trimmed v1-lookups} "
run() { # <db> <case> <tree> <node version> <former rows gone>
	[[ $CASES == *" $2 "* ]] || return 0
	echo "# $(date -u +%H:%M:%S) $1 $2"
	(cd "$3" && BENCH_DB=$1 BENCH_NODE_VERSION=$4 BENCH_FORMER_ROWS_GONE=$5 npm run bench >"$OUT/$1-$2.log" 2>&1)
	cp "$3/bench/results/latest.md" "$OUT/$1-$2.md"
	cp "$3/bench/results/latest.json" "$OUT/$1-$2.json"
	grep -h 'duplicate protection of' "$3/.bench/run/n8n.log" >"$OUT/$1-$2.protection.log" || true
}
for db in ${BENCH_AGAINST_DBS:-sqlite postgres}; do
	run "$db" 0.3.1 "$OLD_TREE" 1 0
	run "$db" v2 "$ROOT" 2 0
	run "$db" v1-trimmed "$ROOT" 1 1
	run "$db" v1-lookups "$ROOT" 1 0
done
node "$ROOT/bench/against-0.3.1-summary.js" "$OUT"
