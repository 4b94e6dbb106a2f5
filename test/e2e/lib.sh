# shellcheck shell=bash
# Shared by test/e2e/run.sh and scripts/demo.sh (source it). It knows where the private Node 24 and
# n8n live (env.sh), how this package is installed into an n8n user folder, and how the sandbox and
# n8n are started and stopped. Every server listens on 127.0.0.1 only. Node 24 is used for n8n only;
# the package, the sandbox and the check scripts run on the machine's node.

CV_E2E_HOME=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CV_ROOT=$(cd "$CV_E2E_HOME/../.." && pwd)
source "$CV_E2E_HOME/env.sh"
CV_PACKAGE_NAME=n8n-nodes-candidate-verification
# Fixed so that credentials imported with the CLI decrypt in the server of the same user folder.
CV_N8N_ENCRYPTION_KEY=${CV_N8N_ENCRYPTION_KEY:-cv-local-n8n-encryption-key-not-secret}

# cv_free_ports N: N distinct free ports on 127.0.0.1, one a line.
cv_free_ports() { node "$CV_E2E_HOME/free-ports.js" "$1"; }

# cv_n8n_env USER_FOLDER PORT BROKER_PORT: configures n8n (exported) for one instance.
cv_n8n_env() {
	export N8N_USER_FOLDER=$1 N8N_PORT=$2 N8N_RUNNERS_BROKER_PORT=$3
	export N8N_HOST=127.0.0.1 N8N_LISTEN_ADDRESS=127.0.0.1 N8N_PROTOCOL=http
	export N8N_RUNNERS_BROKER_LISTEN_ADDRESS=127.0.0.1
	export N8N_EDITOR_BASE_URL=http://127.0.0.1:$2/ N8N_WEBHOOK_URL=http://127.0.0.1:$2/
	export N8N_ENCRYPTION_KEY=$CV_N8N_ENCRYPTION_KEY
	export DB_TYPE=sqlite GENERIC_TIMEZONE=${GENERIC_TIMEZONE:-UTC}
	export N8N_SECURE_COOKIE=false N8N_PUBLIC_API_DISABLED=false N8N_COMMUNITY_PACKAGES_ENABLED=true
	export N8N_DIAGNOSTICS_ENABLED=false N8N_PERSONALIZATION_ENABLED=false N8N_TEMPLATES_ENABLED=false
	export N8N_VERSION_NOTIFICATIONS_ENABLED=false N8N_HIRING_BANNER_ENABLED=false
	export N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS=true N8N_LOG_LEVEL=${N8N_LOG_LEVEL:-info}
	export N8N_GRACEFUL_SHUTDOWN_TIMEOUT=${N8N_GRACEFUL_SHUTDOWN_TIMEOUT:-10}
}

# cv_n8n ARGS...: the n8n CLI on the private Node 24 (offline commands: run them while no server of
# the same user folder runs, or the task broker port clashes).
cv_n8n() { PATH="$CV_NODE24_DIR/bin:$PATH" "$CV_N8N_DIR/node_modules/.bin/n8n" "$@"; }

# cv_offline_activation: how the n8n release under test activates a workflow before boot (the
# server then activates it while starting): `publish` (n8n publish:workflow), `update` (1.x has no
# publish:workflow: update:workflow --active=true), or `none`: n8n 2.0 activates only a version kept
# in its workflow history and its import:workflow writes none, so publish:workflow fails with
# "Version … not found" (checks.js then saves a version and activates through the public API; run.sh
# falls back to that for any 2.x release whose publish:workflow fails that way: 2.1 and 2.3 import
# without a history entry too, 2.41 writes one).
cv_offline_activation() {
	case "$CV_N8N_VERSION" in
	1.*) echo update ;;
	2.0.*) echo none ;;
	*) echo publish ;;
	esac
}

# cv_add_version_ids FILE...: gives each workflow file without one a versionId (n8n 2.0's import:workflow
# requires one; later releases create it).
cv_add_version_ids() {
	node -e 'for (const file of process.argv.slice(1)) { const fs = require("fs"), w = JSON.parse(fs.readFileSync(file, "utf8"));
		if (!w.versionId) fs.writeFileSync(file, JSON.stringify({ ...w, versionId: require("crypto").randomUUID() })); }' "$@"
}

# cv_install_package USER_FOLDER: installs the built package the way the README tells users to until
# it is on npm: `npm pack`, the tarball kept in <user folder>/.n8n/nodes, and there
# `npm install --legacy-peer-deps ./<tarball>` (no registry needed; n8n-workflow, the peer dependency,
# is n8n's own copy). Keep README.md's "From a tarball" commands and these the same.
cv_install_package() {
	local nodes_dir=$1/.n8n/nodes tgz
	mkdir -p "$nodes_dir"
	[ -f "$nodes_dir/package.json" ] ||
		echo '{"name":"installed-nodes","private":true,"dependencies":{}}' >"$nodes_dir/package.json"
	tgz=$(cd "$CV_ROOT" && npm pack --silent --pack-destination "$nodes_dir" | tail -1) || return 1
	(cd "$nodes_dir" && npm install --legacy-peer-deps --no-audit --no-fund --loglevel=error "./$tgz") || return 1
	# This user folder lives inside the repository, whose node_modules holds the dev copy of
	# n8n-workflow: Node would find it before n8n's own (a real ~/.n8n finds n8n's through NODE_PATH),
	# and errors of another copy fail n8n-core's instanceof checks (the editor then shows
	# "Error code: none"). Resolve n8n's own copy, as a real installation does.
	ln -sfn "$CV_N8N_DIR/node_modules/n8n-workflow" "$nodes_dir/node_modules/n8n-workflow" || return 1
}

# cv_wait_http URL SECONDS PID: waits until URL answers 2xx; fails early when PID has exited.
cv_wait_http() {
	local url=$1 deadline=$((SECONDS + $2)) pid=$3
	until curl -fsS -o /dev/null --max-time 2 "$url" 2>/dev/null; do
		kill -0 "$pid" 2>/dev/null || return 1
		[ "$SECONDS" -lt "$deadline" ] || return 1
		sleep 0.25
	done
}

# cv_start_sandbox LOG PORT: starts the service sandbox in its own process group; sets CV_SANDBOX_PID.
# SANDBOX_API_KEY, SANDBOX_ORG_ID (and the other SANDBOX_* variables) come from the caller's environment.
cv_start_sandbox() {
	SANDBOX_HOST=127.0.0.1 SANDBOX_PORT=$2 setsid node "$CV_ROOT/sandbox/cli.js" >"$1" 2>&1 </dev/null &
	CV_SANDBOX_PID=$!
	cv_wait_http "http://127.0.0.1:$2/__sandbox/state" 15 "$CV_SANDBOX_PID"
}

# cv_start_n8n LOG: `n8n start` in its own process group (n8n and its task runner) with the
# environment from cv_n8n_env; waits for readiness, then for the REST API (n8n 2.0 reports ready
# before its REST routes answer); sets CV_N8N_PID.
cv_start_n8n() {
	# CV_N8N_NODE_ARGS: extra Node flags for n8n's main process (the benchmark's --profile passes --cpu-prof).
	# shellcheck disable=SC2086
	setsid env PATH="$CV_NODE24_DIR/bin:$PATH" "$CV_NODE24_DIR/bin/node" ${CV_N8N_NODE_ARGS:-} \
		"$(readlink -f "$CV_N8N_DIR/node_modules/.bin/n8n")" start >"$1" 2>&1 </dev/null &
	CV_N8N_PID=$!
	cv_wait_http "http://127.0.0.1:$N8N_PORT/healthz/readiness" 180 "$CV_N8N_PID" &&
		cv_wait_http "http://127.0.0.1:$N8N_PORT/rest/settings" 60 "$CV_N8N_PID"
}

# cv_stop PID [SECONDS]: stops the process group led by PID (TERM, then KILL after SECONDS).
cv_stop() {
	local pid=$1 deadline=$((SECONDS + ${2:-20}))
	[ -n "$pid" ] || return 0
	kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || return 0
	while kill -0 -- "-$pid" 2>/dev/null; do
		if [ "$SECONDS" -ge "$deadline" ]; then
			kill -KILL -- "-$pid" 2>/dev/null
			break
		fi
		sleep 0.2
	done
	wait "$pid" 2>/dev/null
	return 0
}

# cv_watchdog OWNER_PID GROUP_PID...: stops the process groups once OWNER_PID has gone, however it
# went (Ctrl-C through a pipe, SIGKILL, a closed terminal). Runs in its own session, so the signal
# that ends the owner does not end the watchdog first.
cv_watchdog() {
	setsid bash -c '
		owner=$1; shift
		while kill -0 "$owner" 2>/dev/null; do sleep 1; done
		for group in "$@"; do kill -TERM -- "-$group" 2>/dev/null; done
		for _ in $(seq 1 30); do
			alive=0
			for group in "$@"; do kill -0 -- "-$group" 2>/dev/null && alive=1; done
			[ "$alive" = 1 ] || exit 0
			sleep 1
		done
		for group in "$@"; do kill -KILL -- "-$group" 2>/dev/null; done' cv-watchdog "$@" </dev/null >/dev/null 2>&1 &
}

# cv_write_credentials FILE SANDBOX_URL API_KEY ORG_ID [GATEWAY_URL]: the credentials for
# `n8n import:credentials` (plain JSON; n8n encrypts `data` on import). The IDs and the name are
# the ones the example workflows reference. The file holds a key: mode 600, delete after import.
cv_write_credentials() {
	(umask 077 && node -e '
		const [file, sandboxUrl, apiKey, orgId, gatewayUrl] = process.argv.slice(1);
		const data = (baseUrl) => ({ apiKey, environment: "staging", stagingBaseUrl: baseUrl, orgId });
		const credentials = [{ id: "cvCredential0001", name: "Candidate Verification account", type: "candidateVerificationApi", data: data(sandboxUrl) }];
		if (gatewayUrl) credentials.push({ id: "cvGatewayCred001", name: "Candidate Verification (failing gateway)", type: "candidateVerificationApi", data: data(gatewayUrl) });
		require("fs").writeFileSync(file, JSON.stringify(credentials, null, 2));' "$@")
}

# cv_port_free PORT: true when nothing listens on 127.0.0.1:PORT.
cv_port_free() {
	node -e '
		const server = require("net").createServer();
		server.once("error", () => process.exit(1));
		server.listen(Number(process.argv[1]), "127.0.0.1", () => server.close());' "$1"
}
