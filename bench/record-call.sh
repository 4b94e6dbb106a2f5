#!/usr/bin/env bash
# npm run bench:record-call: what one call on a node's record in n8n's deduplication store costs at 1,000,
# 10,000 and 100,000 rows (two values a row), on SQLite and Postgres (bench/record-call.js), with the
# n8n and Postgres the e2e and queue suites provision. Writes bench/results/record-call.md.
set -uo pipefail
source "$(cd "$(dirname "$0")" && pwd)/../test/e2e/lib.sh"
source "$CV_ROOT/test/e2e-queue/lib.sh"
RUN=$CV_ROOT/.bench/record-call
rm -rf "$RUN" && mkdir -p "$RUN"
CV_POSTGRES_PID=''
trap 'cv_stop "$CV_POSTGRES_PID" 20' EXIT
bash "$CV_E2E_HOME/provision-n8n.sh" >"$RUN/provision.log" 2>&1 || { echo "provisioning failed (see $RUN/provision.log)" >&2; exit 1; }
cv_queue_provision >"$RUN/postgres-provision.log" 2>&1 || { echo "Postgres provisioning failed" >&2; exit 1; }
PORT=$(cv_free_ports 1)
PASSWORD=$(node -e "process.stdout.write(require('crypto').randomBytes(12).toString('hex'))")
cv_start_postgres "$RUN/postgres" "$PORT" "$PASSWORD" "$RUN/postgres.log" || { echo "Postgres did not start" >&2; exit 1; }
{
	echo "Command: \`npm run bench:record-call\` · $(date -u +%Y-%m-%dT%H:%M:%SZ) · $(nproc) cores · load average $(cut -d' ' -f1-3 /proc/loadavg) · n8n $CV_N8N_VERSION's drivers on Node $("$CV_NODE24_DIR/bin/node" -v) · each figure the mean of 10 calls"
	echo
	"$CV_NODE24_DIR/bin/node" "$CV_ROOT/bench/record-call.js" "$CV_N8N_DIR" "$RUN/database.sqlite" "$PORT" "$PASSWORD"
} | tee "$CV_ROOT/bench/results/record-call.md"
