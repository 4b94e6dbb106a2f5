#!/usr/bin/env bash
# Measures what a user sees when a queue-mode worker is killed while it holds duplicate protection's
# lock on a node that has 100,000 rows recorded, and how the workflow recovers (issue 33, "The lock").
# n8n 2.41.1 in queue mode (Postgres, Redis: test/e2e-queue/lib.sh), one main, one worker, one webhook
# processor; the service sandbox answering each create after 300 ms. CV_KILLED_RUNS runs (default 3) where
# the worker is started again, then CV_KILLED_GONE_RUNS (default 1) with the node at On Error → Stop where
# it never comes back and a second worker is started instead. Per run:
#   1. the Profile → Create node's record filled with 100,000 rows (bench/prefill-record.js);
#   2. 300 rows posted; once the lock row exists in processed_data, the worker is SIGKILLed, then
#      started again (or the other worker started);
#   3. the same rows posted again, as a user would: how long until it fails, with which text, and
#      whether anything reached the service meanwhile;
#   4. recovery as the error text says: once the Executions list shows no running execution of the
#      workflow, one run with Duplicate Protection → Release Stuck Lock, then the 300 rows again:
#      sent, alreadySent, in doubt, created twice.
# The steps are scripts/killed-lock-holder.js's phases. Prints `# ...` lines per step, then a Markdown
# report (also in <run dir>/report.md). Logs in .e2e/killed-lock-holder (git-ignored).
# Usage: bash scripts/killed-lock-holder.sh     Environment: CV_KILLED_RUNS (runs, default 3).
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/../test/e2e/lib.sh"
source "$HERE/../test/e2e-queue/lib.sh"

RUN=$CV_ROOT/.e2e/killed-lock-holder
RUNS=${CV_KILLED_RUNS:-3}
WORKFLOW_ID=cvKilledLock0001
NODE_ID=kl-create
PREFILL_ROWS=100000
fail() { echo "FAIL - $*" >&2; echo "# logs in $RUN" >&2; exit 1; }

if reason=$(cv_queue_unavailable); then echo "SKIP - $reason"; exit 0; fi
if [ -e "$RUN" ] && [ ! -f "$RUN/.cv-e2e-run" ] && [ -n "$(ls -A "$RUN" 2>/dev/null)" ]; then
	fail "refusing to clear $RUN: not an e2e run folder"
fi
rm -rf "$RUN" && mkdir -p "$RUN" && touch "$RUN/.cv-e2e-run"
CV_SANDBOX_PID='' CV_REDIS_PID='' CV_POSTGRES_PID=''
trap 'cv_queue_stop_all; rm -f "$RUN/credentials.json" "$RUN/postgres/pwfile"' EXIT
trap 'exit 130' INT TERM

# n8n (cached), Redis, Postgres, the package
bash "$CV_E2E_HOME/provision-n8n.sh" >"$RUN/provision.log" 2>&1 || fail "n8n $CV_N8N_VERSION provisioned (see $RUN/provision.log)"
cv_queue_provision >>"$RUN/provision.log" 2>&1 || fail "Redis and Postgres provisioned (see $RUN/provision.log)"
(cd "$CV_ROOT" && npm run build) >"$RUN/build.log" 2>&1 || fail "package builds (see $RUN/build.log)"

read -r MAIN_PORT WEBHOOK_PORT SANDBOX_PORT CV_REDIS_PORT CV_POSTGRES_PORT <<<"$(cv_free_ports 5 | tr '\n' ' ')"
export CV_REDIS_PORT CV_POSTGRES_PORT
export CV_POSTGRES_PASSWORD="pg-$(node -p 'require("crypto").randomBytes(12).toString("hex")')"
cv_queue_layout "$RUN" "$MAIN_PORT" "$WEBHOOK_PORT"
cv_start_redis "$RUN/redis" "$CV_REDIS_PORT" "$RUN/redis.log" || fail "Redis starts (see $RUN/redis.log)"
cv_start_postgres "$RUN/postgres" "$CV_POSTGRES_PORT" "$CV_POSTGRES_PASSWORD" "$RUN/postgres.log" || fail "Postgres starts (see $RUN/postgres.log)"
export SANDBOX_API_KEY="e2e-$(node -p 'require("crypto").randomBytes(16).toString("hex")')"
export SANDBOX_ORG_ID="e2e-org-$(node -p 'require("crypto").randomBytes(4).toString("hex")')"
SANDBOX_URL=http://127.0.0.1:$SANDBOX_PORT
cv_start_sandbox "$RUN/sandbox.log" "$SANDBOX_PORT" || fail "sandbox starts on $SANDBOX_URL"
for name in main worker1 worker2 webhook; do
	mkdir -p "${CV_HOME_OF[$name]}"
	cv_install_package "${CV_HOME_OF[$name]}" >>"$RUN/install.log" 2>&1 || fail "package installed for $name (see $RUN/install.log)"
done

# the credential and the workflow, imported offline with main's settings
cv_write_credentials "$RUN/credentials.json" "$SANDBOX_URL" "$SANDBOX_API_KEY" "$SANDBOX_ORG_ID"
mkdir -p "$RUN/workflows" && cp "$HERE/killed-lock-holder.workflow.json" "$RUN/workflows/"
cv_add_version_ids "$RUN"/workflows/*.json
{ cv_queue_main_cli import:credentials --input="$RUN/credentials.json" &&
	cv_queue_main_cli import:workflow --separate --input="$RUN/workflows"; } >"$RUN/import.log" 2>&1 || fail "import (see $RUN/import.log)"
rm -f "$RUN/credentials.json"

cv_queue_start "$RUN" main && cv_queue_start "$RUN" worker1 webhook || fail "main, worker1 and the webhook processor start"
echo "# n8n $CV_N8N_VERSION queue mode: main, worker1 (concurrency $CV_WORKER_CONCURRENCY), webhook processor; $("$(cv_postgres_bin)/postgres" --version | sed 's/postgres (PostgreSQL)/Postgres/'), $(redis-server --version | grep -o 'v=[0-9.]*' | sed 's/v=/Redis /')"

export CV_N8N_URL=${CV_QUEUE_MAIN_URL%/} CV_WEBHOOK_URL=${CV_QUEUE_WEBHOOK_URL%/} CV_SANDBOX_URL=$SANDBOX_URL CV_RUN_DIR=$RUN
export CV_WORKFLOW_ID=$WORKFLOW_ID CV_NODE_ID=$NODE_ID
phase() { node "$HERE/killed-lock-holder.js" "$@" 2>>"$RUN/phases.stderr" || fail "phase $* (see $RUN/phases.stderr)"; }
# n8n's database driver and the queue settings of main, on n8n's Node (bench/prefill-record.js)
prefill() {
	(cv_queue_env main "${CV_HOME_OF[main]}" "${CV_PORT_OF[main]}" "${CV_BROKER_OF[main]}" &&
		"$CV_NODE24_DIR/bin/node" "$CV_ROOT/bench/prefill-record.js" "$CV_N8N_DIR" "$WORKFLOW_ID" "$NODE_ID" "$PREFILL_ROWS")
}

phase setup
# runs 1..RUNS: the killed worker is started again (n8n marks its unfinished execution crashed on start);
# one more run (CV_KILLED_GONE_RUNS, default 1) with On Error → Stop, n8n's default, where the killed
# worker never comes back and a fresh worker2 takes the jobs
GONE_RUNS=${CV_KILLED_GONE_RUNS:-1}
for ((run = 1; run <= RUNS + GONE_RUNS; run++)); do
	export CV_KILLED_RUN=$run
	killed=worker1 next=worker1 CV_AFTER_KILL='worker restarted'
	if [ "$run" -gt "$RUNS" ]; then
		CV_AFTER_KILL='worker gone, the other one started'
		killed=$([ -n "${CV_QUEUE_PIDS[worker1]:-}" ] && echo worker1 || echo worker2)
		next=$([ "$killed" = worker1 ] && echo worker2 || echo worker1)
		[ "$run" = $((RUNS + 1)) ] && phase on-error-stop
	fi
	export CV_AFTER_KILL
	prefill || fail "the node's record filled with $PREFILL_ROWS rows"
	# the kill itself happens in the phase (SIGKILL to the worker's process group the moment the lock is seen)
	CV_WORKER_PGID=${CV_QUEUE_PIDS[$killed]} phase kill
	phase watch &
	watch_pid=$!
	cv_stop_queue_process "$killed"
	t=$SECONDS
	cv_queue_start "$RUN" "$next" || fail "$next starts after the kill (run $run)"
	echo "# run $run: $killed SIGKILLed; $next started ($((SECONDS - t)) s)"
	phase user
	phase recover
	wait "$watch_pid"
done
phase report | tee "$RUN/report.md"
