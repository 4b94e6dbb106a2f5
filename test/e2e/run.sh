#!/usr/bin/env bash
# End-to-end test of this package inside a real n8n (2.41.1 on a private Node 24) against the
# service sandbox. Provisions n8n if needed, builds and installs the package into a throw-away
# n8n user folder, imports the credentials, the example workflows and the e2e workflows, then
# boots n8n and runs test/e2e/checks.js against it. Everything listens on 127.0.0.1 and is
# stopped on exit. Logs: .e2e/run/ (git-ignored).
#
# Prints one line per check (`ok - ...` / `FAIL - ...`), then `N passed, N failed`; exits non-zero
# on any failure.  Usage: bash test/e2e/run.sh
# Environment: CV_E2E_CACHE (where n8n is provisioned, see env.sh), CV_E2E_RUN_DIR (default .e2e/run),
# CV_N8N_VERSION (another release, see scripts/compat-e2e.sh), CV_E2E_SCOPE=compat (the checks that
# prove the package on another release: checks.js's compat scope, no browser.js, no agent.js),
# CV_E2E_SCOPE=examples (only the examples, run twice around an n8n restart: examples-check.js),
# CV_RECORD_COMPAT=0 (do not write the compatibility record, scripts/record-compat.js).
set -uo pipefail
T0=$SECONDS
source "$(cd "$(dirname "$0")" && pwd)/lib.sh"

RUN=${CV_E2E_RUN_DIR:-$CV_ROOT/.e2e/run}
if [ -e "$RUN" ] && [ ! -f "$RUN/.cv-e2e-run" ] && [ -n "$(ls -A "$RUN" 2>/dev/null)" ]; then
	echo "refusing to clear $RUN: not an e2e run folder" >&2
	exit 2
fi
rm -rf "$RUN" && mkdir -p "$RUN" && touch "$RUN/.cv-e2e-run"
PASSED=0 FAILED=0 SKIPPED=0
ok() { PASSED=$((PASSED + 1)); echo "ok - $*"; }
bad() { FAILED=$((FAILED + 1)); echo "FAIL - $*"; }
summary() {
	# The compatibility record (docs/compatibility.md): what this release passed, for full and compat runs.
	case "${CV_RECORD_COMPAT:-1}/${CV_E2E_SCOPE:-full}" in
	0/* | */examples) ;;
	*) CV_NODE24_VERSION=$("$CV_NODE24_DIR/bin/node" -v 2>/dev/null || echo v24) node "$CV_ROOT/scripts/record-compat.js" \
		"$CV_N8N_VERSION" "${CV_E2E_SCOPE:-full}" "$PASSED" "$FAILED" "$SKIPPED" || echo "# the compatibility record was not written" ;;
	esac
	echo "$PASSED passed, $FAILED failed$([ "$SKIPPED" -eq 0 ] || echo ", $SKIPPED skipped")"
}

CV_SANDBOX_PID='' CV_N8N_PID=''
cleanup() {
	cv_stop "$CV_N8N_PID" 20
	cv_stop "$CV_SANDBOX_PID" 5
	rm -f "$RUN/credentials.json"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Stops the run when a step that everything after it needs has failed.
abort() { bad "$*"; summary; echo "# logs in $RUN" >&2; exit 1; }

# 1. n8n (cached outside the clone; a warm cache returns at once)
t=$SECONDS
bash "$CV_E2E_HOME/provision-n8n.sh" >"$RUN/provision.log" 2>&1 ||
	abort "n8n $CV_N8N_VERSION provisioned (see $RUN/provision.log)"
ok "n8n $CV_N8N_VERSION provisioned on Node $("$CV_NODE24_DIR/bin/node" -v) ($((SECONDS - t))s)"

# 2. the package, built on the machine's node (the repo's .npmrc sets ignore-scripts=true)
t=$SECONDS
# CV_PACKAGE_BUILT=1: test/run-all.sh built it just before.
(cd "$CV_ROOT" && { [ -d node_modules ] || npm ci --no-audit --no-fund; } && { [ "${CV_PACKAGE_BUILT:-}" = 1 ] || npm run build; }) >"$RUN/build.log" 2>&1 ||
	abort "package builds on Node $(node -v) (see $RUN/build.log)"
ok "package built on Node $(node -v) ($([ "${CV_PACKAGE_BUILT:-}" = 1 ] && echo "by run-all.sh" || echo "$((SECONDS - t))s"))"

# 2b. the store contract duplicate protection's lock rests on, on this release's own store and a
# throw-away SQLite database (scripts/store-contract.js, seconds; docs/compatibility.md). Exit 2: the
# script could not load this release's store (its internals moved): skipped, not failed.
t=$SECONDS
"$CV_NODE24_DIR/bin/node" "$CV_ROOT/scripts/store-contract.js" "$CV_N8N_DIR" >"$RUN/store-contract.log" 2>&1
case $? in
	0) ok "n8n $CV_N8N_VERSION's deduplication store keeps the lock's store contract ($((SECONDS - t))s)" ;;
	1) bad "n8n $CV_N8N_VERSION's deduplication store keeps the lock's store contract (see $RUN/store-contract.log)" ;;
	*) SKIPPED=$((SKIPPED + 1)); echo "skip - the store contract: scripts/store-contract.js could not load n8n $CV_N8N_VERSION's store (see $RUN/store-contract.log)" ;;
esac

# 3. a throw-away n8n instance with the package installed like a community package
read -r N8N_PORT BROKER_PORT SANDBOX_PORT GATEWAY_PORT SMTP_PORT <<<"$(cv_free_ports 5 | tr '\n' ' ')"
cv_n8n_env "$RUN/n8n-home" "$N8N_PORT" "$BROKER_PORT"
mkdir -p "$N8N_USER_FOLDER"
cv_install_package "$N8N_USER_FOLDER" >"$RUN/install.log" 2>&1 || abort "package installed into the n8n nodes folder"
INSTALLED=$N8N_USER_FOLDER/.n8n/nodes/node_modules/$CV_PACKAGE_NAME
if node -e '
	const fs = require("fs"), path = require("path");
	const [installed, nodesDir] = process.argv.slice(1);
	const p = require(path.join(installed, "package.json")), nodes = require(path.join(nodesDir, "package.json"));
	const recorded = nodes.dependencies[p.name] || "";
	// npm installed no copy of n8n-workflow (the peer dependency): the one there is the link to n8n'"'"'s own.
	const workflowIsLink = fs.lstatSync(path.join(nodesDir, "node_modules/n8n-workflow")).isSymbolicLink();
	const ok = Object.keys(p.dependencies || {}).length === 0 && /^file:.*\.tgz$/.test(recorded) &&
		fs.existsSync(path.join(nodesDir, recorded.slice(5))) && workflowIsLink && p.n8n.nodes.length === 2;
	process.exit(ok ? 0 : 1)' "$INSTALLED" "$N8N_USER_FOLDER/.n8n/nodes"; then
	ok "package installed from its tarball as the README says (npm install --legacy-peer-deps ./<tarball> in .n8n/nodes; no runtime dependencies, no second n8n-workflow)"
else
	bad "package installed from its tarball as the README says"
fi

# 4. the service sandbox with a key made for this run
SANDBOX_API_KEY="e2e-$(node -p 'require("crypto").randomBytes(16).toString("hex")')"
SANDBOX_ORG_ID="e2e-org-$(node -p 'require("crypto").randomBytes(4).toString("hex")')"
export SANDBOX_API_KEY SANDBOX_ORG_ID
SANDBOX_URL=http://127.0.0.1:$SANDBOX_PORT
cv_start_sandbox "$RUN/sandbox.log" "$SANDBOX_PORT" || abort "sandbox starts on $SANDBOX_URL"
cv_watchdog $$ "$CV_SANDBOX_PID"
ok "sandbox starts on $SANDBOX_URL"

# 5. offline CLI steps, before the server runs (they would clash on the task broker port)
t=$SECONDS
cv_write_credentials "$RUN/credentials.json" "$SANDBOX_URL" "$SANDBOX_API_KEY" "$SANDBOX_ORG_ID" "http://127.0.0.1:$GATEWAY_PORT"
if cv_n8n import:credentials --input="$RUN/credentials.json" >"$RUN/import-credentials.log" 2>&1; then
	ok "n8n import:credentials (plain JSON, encrypted by n8n)"
else
	bad "n8n import:credentials (see $RUN/import-credentials.log)"
fi
rm -f "$RUN/credentials.json"
mkdir -p "$RUN/workflows"
cp "$CV_ROOT"/examples/*.json "$CV_E2E_HOME"/workflows/*.json "$RUN/workflows/"
cv_add_version_ids "$RUN"/workflows/*.json
if cv_n8n import:workflow --separate --input="$RUN/workflows" >"$RUN/import-workflows.log" 2>&1; then
	ok "n8n import:workflow of the examples and the e2e workflows ($(find "$RUN/workflows" -name '*.json' | wc -l) files)"
else
	bad "n8n import:workflow (see $RUN/import-workflows.log)"
fi
# How this release activates a workflow offline (lib.sh cv_offline_activation); where it cannot,
# checks.js activates it through the public API once n8n runs.
CV_ACTIVATE_AFTER_BOOT=''
case "$(cv_offline_activation)" in
publish)
	if cv_n8n publish:workflow --id=cvExampleTrigger >"$RUN/publish.log" 2>&1 && ! grep -qiE 'Version .* not found' "$RUN/publish.log"; then
		ok "n8n publish:workflow activates the trigger example"
	elif grep -qiE 'Version .* not found' "$RUN/publish.log"; then
		# This release imported the workflow without a history version (as 2.0 does): see lib.sh.
		echo "# n8n $CV_N8N_VERSION: publish:workflow found no version of the imported workflow; checks.js activates it"
		CV_ACTIVATE_AFTER_BOOT=cvExampleTrigger
	else
		bad "n8n publish:workflow (see $RUN/publish.log)"
	fi
	;;
update)
	if cv_n8n update:workflow --id=cvExampleTrigger --active=true >"$RUN/publish.log" 2>&1 &&
		! grep -qiE 'error|not found' "$RUN/publish.log"; then
		ok "n8n update:workflow --active=true activates the trigger example (n8n $CV_N8N_VERSION has no publish:workflow)"
	else
		bad "n8n update:workflow --active=true (see $RUN/publish.log)"
	fi
	;;
*) CV_ACTIVATE_AFTER_BOOT=cvExampleTrigger ;;
esac
echo "# offline CLI steps took $((SECONDS - t))s"

# 6. the server, then the checks against it
t=$SECONDS
cv_start_n8n "$RUN/n8n.log" || { tail -40 "$RUN/n8n.log" >&2; abort "n8n starts on http://127.0.0.1:$N8N_PORT"; }
cv_watchdog $$ "$CV_N8N_PID"
ok "n8n starts on http://127.0.0.1:$N8N_PORT ($((SECONDS - t))s)"

if [ "${CV_E2E_SCOPE:-}" != examples ]; then
t=$SECONDS
CV_N8N_URL=http://127.0.0.1:$N8N_PORT CV_SANDBOX_URL=$SANDBOX_URL CV_GATEWAY_PORT=$GATEWAY_PORT CV_RUN_DIR=$RUN \
	CV_ACTIVATE_AFTER_BOOT=$CV_ACTIVATE_AFTER_BOOT node "$CV_E2E_HOME/checks.js" 2>"$RUN/checks.stderr" | tee "$RUN/checks.out"
CHECKS_RC=${PIPESTATUS[0]}
PASSED=$((PASSED + $(grep -c '^ok - ' "$RUN/checks.out")))
FAILED=$((FAILED + $(grep -c '^FAIL - ' "$RUN/checks.out")))
[ "$CHECKS_RC" -eq 0 ] || grep -q '^FAIL - ' "$RUN/checks.out" || bad "checks.js ran to the end (exit $CHECKS_RC, see $RUN/checks.stderr)"
echo "# checks took $((SECONDS - t))s; total $((SECONDS - T0))s; logs in $RUN"
fi

# 7. the editor in Chromium (browser.js; screenshots in .e2e/shots/) and n8n's AI Agent calling the
# node as a tool (agent.js); their ok/FAIL/skip lines are counted like checks.js's
run_suite() {
	local name=$1 t=$SECONDS rc
	shift
	"$@" 2>"$RUN/$name.stderr" | tee "$RUN/$name.out"
	rc=${PIPESTATUS[0]}
	PASSED=$((PASSED + $(grep -c '^ok - ' "$RUN/$name.out")))
	FAILED=$((FAILED + $(grep -c '^FAIL - ' "$RUN/$name.out")))
	SKIPPED=$((SKIPPED + $(grep -c '^skip - ' "$RUN/$name.out")))
	[ "$rc" -eq 0 ] || grep -q '^FAIL - ' "$RUN/$name.out" || bad "$name ran to the end (exit $rc, see $RUN/$name.stderr)"
	echo "# $name took $((SECONDS - t))s"
}
# The examples, twice: a first run, then n8n restarted (same database, same sandbox) and a second run
# that must create nothing the first one created and mail nobody again (examples-check.js).
run_examples_twice() {
	CV_N8N_URL=http://127.0.0.1:$N8N_PORT CV_SANDBOX_URL=$SANDBOX_URL CV_RUN_DIR=$RUN CV_SMTP_PORT=$SMTP_PORT \
		CV_EXAMPLES_PHASE=first run_suite examples node "$CV_E2E_HOME/examples-check.js"
	local t=$SECONDS
	cv_stop "$CV_N8N_PID" 30
	if cv_start_n8n "$RUN/n8n-restarted.log"; then
		cv_watchdog $$ "$CV_N8N_PID"
		ok "n8n restarted for the examples' second run ($((SECONDS - t))s)"
		CV_N8N_URL=http://127.0.0.1:$N8N_PORT CV_SANDBOX_URL=$SANDBOX_URL CV_RUN_DIR=$RUN CV_SMTP_PORT=$SMTP_PORT \
			CV_EXAMPLES_PHASE=second run_suite examples-second node "$CV_E2E_HOME/examples-check.js"
	else
		tail -40 "$RUN/n8n-restarted.log" >&2
		bad "n8n restarted for the examples' second run (see $RUN/n8n-restarted.log)"
	fi
}
if [ "${CV_E2E_SCOPE:-}" = examples ]; then
	run_examples_twice
	echo "# total $((SECONDS - T0))s"
	summary
	[ "$FAILED" -eq 0 ]
	exit
fi
if [ "${CV_E2E_SCOPE:-}" = compat ]; then
	echo "# compat scope: browser.js and agent.js are not run"
	echo "# total $((SECONDS - T0))s"
	summary
	[ "$FAILED" -eq 0 ]
	exit
fi
t=$SECONDS
if CHROMIUM=$(bash "$CV_E2E_HOME/ensure-chromium.sh" "$RUN/chromium-install.log"); then
	echo "# Chromium $CHROMIUM ready in $((SECONDS - t))s"; CHROMIUM_SKIP=''
else
	CHROMIUM_SKIP=$CHROMIUM CHROMIUM=''
fi
CV_N8N_URL=http://127.0.0.1:$N8N_PORT CV_SHOTS_DIR=$CV_ROOT/.e2e/shots CV_CHROMIUM=$CHROMIUM CV_CHROMIUM_SKIP=$CHROMIUM_SKIP \
	run_suite browser node "$CV_E2E_HOME/browser.js"
CV_N8N_URL=http://127.0.0.1:$N8N_PORT CV_SANDBOX_URL=$SANDBOX_URL run_suite agent node "$CV_E2E_HOME/agent.js"
# 8. the examples (examples-check.js) against the sandbox, twice around an n8n restart, then the README's pictures
# (docs-images.js; here into the run folder, so `npm run docs:images` cannot rot)
run_examples_twice
DOCS_IMAGES_SKIP=$CHROMIUM_SKIP
[ "$CV_N8N_VERSION" = 2.41.1 ] || DOCS_IMAGES_SKIP="the README's pictures are of n8n 2.41.1's editor; this run is n8n $CV_N8N_VERSION"
CV_N8N_URL=http://127.0.0.1:$N8N_PORT CV_DOCS_IMAGES_DIR=$RUN/docs-images CV_CHROMIUM=$CHROMIUM CV_CHROMIUM_SKIP=$DOCS_IMAGES_SKIP \
	run_suite docs-images node "$CV_E2E_HOME/docs-images.js"
echo "# total $((SECONDS - T0))s"

summary
[ "$FAILED" -eq 0 ]
