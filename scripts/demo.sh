#!/usr/bin/env bash
# `npm run demo`: a local n8n with this package, the service sandbox and the example workflows,
# ready to click through. From a fresh clone: installs the dev dependencies if missing, builds,
# provisions n8n (Node 24 + n8n 2.41.1, cached in ~/.cache, ~5 min the first time), starts the
# sandbox and n8n on 127.0.0.1, creates the owner account (or logs in), imports the credential
# and the examples, activates the trigger example, prints the editor URL and the login, and stays
# in the foreground. Ctrl-C stops everything it started.
#
# Environment (all optional):
#   CV_DEMO_N8N_PORT (5678)  CV_DEMO_SANDBOX_PORT (8790)  CV_DEMO_BROKER_PORT (a free port)
#   CV_DEMO_HOME (.e2e/demo: the n8n user folder, kept between runs)  CV_E2E_CACHE (see test/e2e/env.sh)
set -euo pipefail
source "$(cd "$(dirname "$0")/.." && pwd)/test/e2e/lib.sh"

N8N_DEMO_PORT=${CV_DEMO_N8N_PORT:-5678}
SANDBOX_DEMO_PORT=${CV_DEMO_SANDBOX_PORT:-8790}
BROKER_DEMO_PORT=${CV_DEMO_BROKER_PORT:-$(cv_free_ports 1)}
DEMO_HOME=${CV_DEMO_HOME:-$CV_ROOT/.e2e/demo}
DEMO_EMAIL=demo@example.com
DEMO_PASSWORD=Demo-Passw0rd
# The sandbox's key and organisation: local fakes, not secrets.
export SANDBOX_API_KEY=${SANDBOX_API_KEY:-demo-sandbox-api-key}
export SANDBOX_ORG_ID=${SANDBOX_ORG_ID:-demo-org}
SANDBOX_URL=http://127.0.0.1:$SANDBOX_DEMO_PORT
N8N_URL=http://127.0.0.1:$N8N_DEMO_PORT
LOGS=$DEMO_HOME/logs
say() { printf '\033[1m==>\033[0m %s\n' "$*"; }

CV_SANDBOX_PID='' CV_N8N_PID=''
# Ctrl-C on `npm run demo | tee demo.log` also kills tee: from then on a write to stdout would end
# this script by SIGPIPE before it has stopped anything. So the clean-up ignores PIPE and further
# signals and speaks on stderr; and a watchdog (cv_watchdog) stops n8n and the sandbox even when
# this script is killed outright.
stop_all() {
	trap '' PIPE INT TERM HUP
	trap - EXIT
	if [ -n "$CV_N8N_PID$CV_SANDBOX_PID" ]; then say "stopping n8n and the sandbox" >&2; fi
	cv_stop "$CV_N8N_PID" 30
	cv_stop "$CV_SANDBOX_PID" 5
	rm -f "$DEMO_HOME/credentials.json"
}
trap stop_all EXIT
trap 'exit 130' INT TERM HUP

for port in "$N8N_DEMO_PORT" "$SANDBOX_DEMO_PORT" "$BROKER_DEMO_PORT"; do
	cv_port_free "$port" || { echo "port $port on 127.0.0.1 is in use (is a demo already running? see CV_DEMO_*_PORT)" >&2; exit 1; }
done
mkdir -p "$LOGS"

cd "$CV_ROOT"
if [ ! -d node_modules ]; then
	say "installing the dev dependencies (npm ci)"
	npm ci --no-audit --no-fund
fi
say "building the package"
npm run build >"$LOGS/build.log" 2>&1 || { tail -30 "$LOGS/build.log" >&2; exit 1; }

say "provisioning n8n $CV_N8N_VERSION on Node $CV_NODE24_VERSION (cached in $CV_E2E_CACHE)"
bash "$CV_E2E_HOME/provision-n8n.sh"

cv_n8n_env "$DEMO_HOME" "$N8N_DEMO_PORT" "$BROKER_DEMO_PORT"
say "installing the package into $DEMO_HOME/.n8n/nodes"
cv_install_package "$DEMO_HOME" >"$LOGS/install.log" 2>&1 || { cat "$LOGS/install.log" >&2; exit 1; }

say "starting the sandbox on $SANDBOX_URL"
cv_start_sandbox "$LOGS/sandbox.log" "$SANDBOX_DEMO_PORT" || { cat "$LOGS/sandbox.log" >&2; exit 1; }
cv_watchdog $$ "$CV_SANDBOX_PID"

# Imports replace earlier copies (same IDs). The sandbox forgets everything when it stops, so the
# workflows are imported with their static data cleared: the trigger then registers anew at this
# sandbox instead of trusting a registration only the previous sandbox knew. (Never do this with a
# real account: the service cannot delete configurations, so each reset would leave one behind.)
say "importing the credential and the example workflows"
cv_write_credentials "$DEMO_HOME/credentials.json" "$SANDBOX_URL" "$SANDBOX_API_KEY" "$SANDBOX_ORG_ID"
cv_n8n import:credentials --input="$DEMO_HOME/credentials.json" >"$LOGS/import.log" 2>&1 || { cat "$LOGS/import.log" >&2; exit 1; }
rm -f "$DEMO_HOME/credentials.json"
rm -rf "$DEMO_HOME/import" && mkdir -p "$DEMO_HOME/import"
node -e '
	const fs = require("fs"), path = require("path"), [from, to] = process.argv.slice(1);
	for (const file of fs.readdirSync(from).filter((name) => name.endsWith(".json"))) {
		const workflow = JSON.parse(fs.readFileSync(path.join(from, file), "utf8"));
		fs.writeFileSync(path.join(to, file), JSON.stringify({ ...workflow, staticData: null }));
	}' "$CV_ROOT/examples" "$DEMO_HOME/import"
cv_n8n import:workflow --separate --input="$DEMO_HOME/import" >>"$LOGS/import.log" 2>&1 || { cat "$LOGS/import.log" >&2; exit 1; }
cv_n8n publish:workflow --id=cvExampleTrigger >>"$LOGS/import.log" 2>&1 || { cat "$LOGS/import.log" >&2; exit 1; }

say "starting n8n on $N8N_URL (about 10 s)"
cv_start_n8n "$LOGS/n8n.log" || { tail -40 "$LOGS/n8n.log" >&2; exit 1; }
cv_watchdog $$ "$CV_N8N_PID"

SETUP=$(node "$CV_ROOT/scripts/demo-setup.js" "$N8N_URL" "$SANDBOX_URL" "$DEMO_EMAIL" "$DEMO_PASSWORD") ||
	{ echo "could not set up the owner account or the trigger (logs in $LOGS; delete $DEMO_HOME to start over)" >&2; exit 1; }
OWNER=$(node -p 'JSON.parse(process.argv[1]).owner' "$SETUP")
TRIGGER=$(node -p 'JSON.parse(process.argv[1]).trigger' "$SETUP")

cat <<EOF

  n8n editor      $N8N_URL
  login           $DEMO_EMAIL / $DEMO_PASSWORD   (owner account $([ "$OWNER" = created ] && echo created || echo "already existed"))
  credential      "Candidate Verification account" -> sandbox $SANDBOX_URL (API key $SANDBOX_API_KEY, org $SANDBOX_ORG_ID)
  workflows       "Candidate Verification: candidates to reports"  (open it, click Execute workflow)
                  "Candidate Verification: event summary"  (active; trigger $TRIGGER at the sandbox)
  sandbox state   curl $SANDBOX_URL/__sandbox/state
  logs            $LOGS

  Every submission of the first workflow makes the sandbox notify the second one (see Executions).
  Move a check by hand:  curl -X POST $SANDBOX_URL/__sandbox/transition -H 'content-type: application/json' \\
                           -d '{"transactionId":"TXN...","verificationName":"bgv-employment","newState":"COMPLETED"}'

  Press Ctrl-C to stop.
EOF

# Stay in the foreground until Ctrl-C, or until n8n or the sandbox exits on its own.
set +e
wait -n "$CV_N8N_PID" "$CV_SANDBOX_PID"
echo "n8n or the sandbox stopped (see $LOGS)" >&2
exit 1
