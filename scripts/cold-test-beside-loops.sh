#!/usr/bin/env bash
# The cold test command (CI=true bash .ci/run) on a clean clone of HEAD, beside two CPU-bound shell loops
# that run the whole time (a busy 2-core machine). Usage: bash scripts/cold-test-beside-loops.sh [LOG]
# Results: test/results/cold-test-command.md. Not part of npm test.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
log=${1:-$root/.e2e/cold-beside-loops.log}
clone=$(mktemp -d "${TMPDIR:-/tmp}/cv-cold-loaded.XXXXXX")
# mktemp makes it 0700; the queue suites run Postgres as user nobody, which must reach its data inside.
chmod 755 "$clone"
git clone -q "$root" "$clone" || exit 1
(while :; do :; done) & first=$!
(while :; do :; done) & second=$!
trap 'kill $first $second 2>/dev/null; rm -rf "$clone"' EXIT
mkdir -p "$(dirname "$log")"
echo "# $(git -C "$clone" log --oneline -1), two loops ($first, $second) from $(date -u +%T)" >"$log"
start=$SECONDS
(cd "$clone" && CI=true bash .ci/run) >>"$log" 2>&1
rc=$?
echo "# rc=$rc in $((SECONDS - start))s, ended $(date -u +%T)" >>"$log"
exit $rc
