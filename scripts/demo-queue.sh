#!/usr/bin/env bash
# `npm run demo:queue` (or `npm run demo -- --queue`): the demo in n8n queue mode, the topology the
# queue-mode e2e suite proves: Redis and Postgres as local processes, n8n as one main (editor, API,
# activation), two workers (executions) and one webhook processor (production webhooks, so the
# trigger's notifications), the package in every process's user folder, the service sandbox, the
# examples imported and the trigger example active. Stays in the foreground; Ctrl-C stops
# everything it started. Every start is fresh: Redis and Postgres data live in .e2e/demo-queue and
# are wiped at the next start.
#
# Environment (all optional): CV_DEMO_N8N_PORT (5678, main: the editor)
#   CV_DEMO_WEBHOOK_PORT (5679, the webhook processor)  CV_DEMO_SANDBOX_PORT (8790)
#   CV_DEMO_QUEUE_HOME (.e2e/demo-queue)  CV_E2E_CACHE (see test/e2e/env.sh)
# Needs Linux; redis-server is installed with apt-get when missing (as root).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
source "$ROOT/test/e2e/lib.sh"
source "$ROOT/test/e2e-queue/lib.sh"

MAIN_PORT=${CV_DEMO_N8N_PORT:-5678}
WEBHOOK_PORT=${CV_DEMO_WEBHOOK_PORT:-5679}
SANDBOX_PORT=${CV_DEMO_SANDBOX_PORT:-8790}
DEMO_HOME=${CV_DEMO_QUEUE_HOME:-$CV_ROOT/.e2e/demo-queue}
DEMO_EMAIL=demo@example.com
DEMO_PASSWORD=Demo-Passw0rd
export SANDBOX_API_KEY=${SANDBOX_API_KEY:-demo-sandbox-api-key}
export SANDBOX_ORG_ID=${SANDBOX_ORG_ID:-demo-org}
SANDBOX_URL=http://127.0.0.1:$SANDBOX_PORT
LOGS=$DEMO_HOME/logs
say() { printf '\033[1m==>\033[0m %s\n' "$*"; }

if reason=$(cv_queue_unavailable); then
	echo "The queue-mode demo cannot run here: $reason" >&2
	exit 1
fi

CV_SANDBOX_PID='' CV_REDIS_PID='' CV_POSTGRES_PID=''
trap 'trap - EXIT INT TERM; say "stopping n8n, the sandbox, Redis and Postgres"; cv_queue_stop_all; rm -f "$DEMO_HOME/credentials.json"' EXIT
trap 'exit 130' INT TERM

for port in "$MAIN_PORT" "$WEBHOOK_PORT" "$SANDBOX_PORT"; do
	cv_port_free "$port" || { echo "port $port on 127.0.0.1 is in use (is a demo already running? see CV_DEMO_*_PORT)" >&2; exit 1; }
done
read -r CV_REDIS_PORT CV_POSTGRES_PORT <<<"$(cv_free_ports 2 | tr '\n' ' ')"
export CV_REDIS_PORT CV_POSTGRES_PORT
export CV_POSTGRES_PASSWORD="pg-$(node -p 'require("crypto").randomBytes(12).toString("hex")')"
cv_queue_layout "$DEMO_HOME" "$MAIN_PORT" "$WEBHOOK_PORT"
rm -rf "$DEMO_HOME" && mkdir -p "$LOGS"

cd "$CV_ROOT"
[ -d node_modules ] || { say "installing the dev dependencies (npm ci)"; npm ci --no-audit --no-fund; }
say "building the package"
npm run build >"$LOGS/build.log" 2>&1 || { tail -30 "$LOGS/build.log" >&2; exit 1; }
say "provisioning n8n $CV_N8N_VERSION, redis-server and Postgres (cached in $CV_E2E_CACHE)"
bash "$CV_E2E_HOME/provision-n8n.sh"
cv_queue_provision >"$LOGS/provision.log" 2>&1 || { tail -30 "$LOGS/provision.log" >&2; exit 1; }

say "starting Redis and Postgres on 127.0.0.1 (data in $DEMO_HOME)"
cv_start_redis "$DEMO_HOME/redis" "$CV_REDIS_PORT" "$LOGS/redis.log" || { cat "$LOGS/redis.log" >&2; exit 1; }
cv_start_postgres "$DEMO_HOME/postgres" "$CV_POSTGRES_PORT" "$CV_POSTGRES_PASSWORD" "$LOGS/postgres.log" || { tail -20 "$LOGS/postgres.log" >&2; exit 1; }
say "starting the sandbox on $SANDBOX_URL"
cv_start_sandbox "$LOGS/sandbox.log" "$SANDBOX_PORT" || { cat "$LOGS/sandbox.log" >&2; exit 1; }

say "installing the package into the user folder of main, worker1, worker2 and webhook"
for name in main worker1 worker2 webhook; do
	mkdir -p "${CV_HOME_OF[$name]}"
	cv_install_package "${CV_HOME_OF[$name]}" >>"$LOGS/install.log" 2>&1 || { cat "$LOGS/install.log" >&2; exit 1; }
done

say "importing the credential and the example workflows (into Postgres)"
cv_write_credentials "$DEMO_HOME/credentials.json" "$SANDBOX_URL" "$SANDBOX_API_KEY" "$SANDBOX_ORG_ID"
cv_queue_main_cli import:credentials --input="$DEMO_HOME/credentials.json" >"$LOGS/import.log" 2>&1 || { cat "$LOGS/import.log" >&2; exit 1; }
rm -f "$DEMO_HOME/credentials.json"
cv_queue_main_cli import:workflow --separate --input="$CV_ROOT/examples" >>"$LOGS/import.log" 2>&1 || { cat "$LOGS/import.log" >&2; exit 1; }
cv_queue_main_cli publish:workflow --id=cvExampleTrigger >>"$LOGS/import.log" 2>&1 || { cat "$LOGS/import.log" >&2; exit 1; }

say "starting n8n: main, then 2 workers and the webhook processor (about a minute)"
cv_queue_start "$LOGS" main && cv_queue_start "$LOGS" worker1 worker2 webhook || exit 1

SETUP=$(node "$CV_ROOT/scripts/demo-setup.js" "${CV_QUEUE_MAIN_URL%/}" "$SANDBOX_URL" "$DEMO_EMAIL" "$DEMO_PASSWORD" "${CV_QUEUE_WEBHOOK_URL%/}") ||
	{ echo "could not set up the owner account or the trigger (logs in $LOGS)" >&2; exit 1; }
TRIGGER=$(node -p 'JSON.parse(process.argv[1]).trigger' "$SETUP")

cat <<EOF

  n8n editor (main)     ${CV_QUEUE_MAIN_URL}
  login                 $DEMO_EMAIL / $DEMO_PASSWORD
  webhook processor     ${CV_QUEUE_WEBHOOK_URL}webhook/...   (production webhooks; main serves none)
  workers               worker1, worker2 (concurrency $CV_WORKER_CONCURRENCY each; health on :${CV_PORT_OF[worker1]} and :${CV_PORT_OF[worker2]})
  Redis / Postgres      127.0.0.1:$CV_REDIS_PORT / 127.0.0.1:$CV_POSTGRES_PORT (database n8n, user n8n)
  credential            "Candidate Verification account" -> sandbox $SANDBOX_URL (API key $SANDBOX_API_KEY)
  workflows             "Candidate Verification: candidates to reports" (Execute workflow: it runs on a worker)
                        "Candidate Verification: event summary" (active; trigger $TRIGGER at the sandbox)
  logs                  $LOGS   (grep "Worker started execution" worker*.log)

  Press Ctrl-C to stop.
EOF

set +e
wait -n "${CV_QUEUE_PIDS[@]}" "$CV_SANDBOX_PID" "$CV_REDIS_PID" "$CV_POSTGRES_PID"
echo "a process of the demo stopped on its own (see $LOGS)" >&2
exit 1
