#!/usr/bin/env bash
# npm run bench [-- --quick]: this package's node against n8n's HTTP Request node in the real n8n the e2e suite
# uses (provisioned by test/e2e/provision-n8n.sh), against two service sandboxes (provider latency 0 ms and
# 20 ms, each serving a generated private file). Builds and installs the package like the e2e run, imports the
# benchmark workflows (bench/workflows.js), boots n8n in filesystem binary mode and runs bench/measure.js.
# Prints the Markdown table; writes it to bench/results/latest.md. Logs: .bench/run/ (git-ignored).
# Configuration: see bench/cases.js (BENCH_SIZES, BENCH_RUNS, ...); BENCH_DB=postgres runs n8n on a local
# Postgres (test/e2e-queue/lib.sh starts it) instead of SQLite. Not part of npm test.
set -uo pipefail
source "$(cd "$(dirname "$0")" && pwd)/../test/e2e/lib.sh"

RUN=${CV_BENCH_RUN_DIR:-$CV_ROOT/.bench/run}
rm -rf "$RUN" && mkdir -p "$RUN"
SANDBOX_PIDS=() CV_N8N_PID=''
CV_POSTGRES_PID=''
cleanup() {
	cv_stop "$CV_N8N_PID" 20
	cv_stop "$CV_POSTGRES_PID" 20
	for pid in "${SANDBOX_PIDS[@]}"; do cv_stop "$pid" 5; done
	rm -f "$RUN/credentials.json"
	case "${BINARY_DIR:-}" in /dev/shm/cv-bench-binary.*) rm -rf "$BINARY_DIR" ;; esac
}
trap cleanup EXIT
trap 'exit 130' INT TERM
fail() { echo "bench: $*" >&2; exit 1; }

echo "# provisioning n8n $CV_N8N_VERSION (cached) and building the package"
bash "$CV_E2E_HOME/provision-n8n.sh" >"$RUN/provision.log" 2>&1 || fail "provisioning failed (see $RUN/provision.log)"
(cd "$CV_ROOT" && { [ -d node_modules ] || npm ci --no-audit --no-fund; } && npm run build) >"$RUN/build.log" 2>&1 ||
	fail "build failed (see $RUN/build.log)"

LATENCIES=${BENCH_LATENCIES:-0,20}
IFS=, read -r -a LATENCY_LIST <<<"$LATENCIES"
read -r -a PORTS <<<"$(cv_free_ports $((2 + ${#LATENCY_LIST[@]})) | tr '\n' ' ')"
cv_n8n_env "$RUN/n8n-home" "${PORTS[0]}" "${PORTS[1]}"
if [ "${BENCH_DB:-sqlite}" = postgres ]; then
	source "$CV_ROOT/test/e2e-queue/lib.sh"
	cv_queue_provision >"$RUN/postgres-provision.log" 2>&1 || fail "Postgres provisioning failed (see $RUN/postgres-provision.log)"
	POSTGRES_PORT=$(cv_free_ports 1) POSTGRES_PASSWORD="bench-$(node -p 'require("crypto").randomBytes(8).toString("hex")')"
	cv_start_postgres "$RUN/postgres" "$POSTGRES_PORT" "$POSTGRES_PASSWORD" "$RUN/postgres.log" || fail "Postgres did not start (see $RUN/postgres.log)"
	export DB_TYPE=postgresdb DB_POSTGRESDB_HOST=127.0.0.1 DB_POSTGRESDB_PORT=$POSTGRES_PORT DB_POSTGRESDB_DATABASE=n8n
	export DB_POSTGRESDB_USER=n8n DB_POSTGRESDB_PASSWORD=$POSTGRES_PASSWORD
fi
export BENCH_DB=${BENCH_DB:-sqlite}
# n8n's default log level: at debug n8n 2.x logs every expression evaluation, which the variants pay
# unequally. BENCH_N8N_LOG_LEVEL=debug: measure.js reads the node's own line on what its all-items check took.
export N8N_DEFAULT_BINARY_DATA_MODE=filesystem N8N_LOG_LEVEL=${BENCH_N8N_LOG_LEVEL:-info}
# Both variants write each downloaded file to the binary store; on tmpfs (when there is one) the disk's
# write-back, which varies run to run far more than the two nodes differ, stays out of the comparison.
BINARY_DIR=${BENCH_BINARY_DIR:-}
if [ -z "$BINARY_DIR" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then BINARY_DIR=$(mktemp -d /dev/shm/cv-bench-binary.XXXXXX); fi
[ -n "$BINARY_DIR" ] && export N8N_BINARY_DATA_STORAGE_PATH=$BINARY_DIR
mkdir -p "$N8N_USER_FOLDER"
cv_install_package "$N8N_USER_FOLDER" >"$RUN/install.log" 2>&1 || fail "package install failed (see $RUN/install.log)"

SANDBOX_API_KEY="bench-$(node -p 'require("crypto").randomBytes(16).toString("hex")')"
SANDBOX_ORG_ID=bench-org
export SANDBOX_API_KEY SANDBOX_ORG_ID
SANDBOXES='['
for i in "${!LATENCY_LIST[@]}"; do
	latency=${LATENCY_LIST[$i]} port=${PORTS[$((2 + i))]}
	SANDBOX_LATENCY_MS=$latency SANDBOX_GENERATED_FILE_MIB=${BENCH_FILE_MIB:-300} SANDBOX_MAX_BODY_MIB=$((${BENCH_UPLOAD_MIB:-100} + 1)) \
		cv_start_sandbox "$RUN/sandbox-${latency}ms.log" "$port" || fail "sandbox (${latency} ms) did not start"
	SANDBOX_PIDS+=("$CV_SANDBOX_PID")
	SANDBOXES+="$([ "$i" -gt 0 ] && echo ,){\"latencyMs\":$latency,\"url\":\"http://127.0.0.1:$port\"}"
done
export BENCH_SANDBOXES="$SANDBOXES]"

BENCH_LATENCIES=$LATENCIES node "$CV_ROOT/bench/prepare.js" "$RUN" "$@" || fail "preparing the sandboxes and workflows failed"
cv_n8n import:credentials --input="$RUN/credentials.json" >"$RUN/import-credentials.log" 2>&1 ||
	fail "n8n import:credentials failed (see $RUN/import-credentials.log)"
rm -f "$RUN/credentials.json"
cv_n8n import:workflow --separate --input="$RUN/workflows" >"$RUN/import-workflows.log" 2>&1 ||
	fail "n8n import:workflow failed (see $RUN/import-workflows.log)"

echo "# starting n8n on http://127.0.0.1:$N8N_PORT"
cv_start_n8n "$RUN/n8n.log" || { tail -40 "$RUN/n8n.log" >&2; fail "n8n did not start"; }

BENCH_N8N_URL=http://127.0.0.1:$N8N_PORT BENCH_N8N_PID=$CV_N8N_PID BENCH_RUN_DIR=$RUN BENCH_LATENCIES=$LATENCIES \
	BENCH_N8N_VERSION=$CV_N8N_VERSION BENCH_N8N_NODE=$("$CV_NODE24_DIR/bin/node" -v | tr -d v) BENCH_N8N_NODE_BIN="$CV_NODE24_DIR/bin/node" BENCH_N8N_MODULES="$CV_N8N_DIR/node_modules" \
	node "$CV_ROOT/bench/measure.js" "$@"
