# shellcheck shell=bash
# n8n queue mode on this machine, shared by test/e2e-queue/run.sh and scripts/demo-queue.sh (source
# it after test/e2e/lib.sh). Redis (Debian's redis-server) and Postgres (the binaries of the npm
# package @embedded-postgres/<os>-<arch>) run as local processes on 127.0.0.1 with throw-away data
# folders; n8n runs as one main, N workers (`n8n worker`) and one webhook processor (`n8n webhook`),
# each with its own user folder holding the package, its own task broker port and (workers) its own
# health server port. Every process is started in its own process group and stopped by PID.

CV_QUEUE_HOME=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# Postgres >= 16 (n8n 2.41 warns that 15, Debian 12's, is unsupported). Pinned: the registry's
# package versions are "<postgres version>-beta.<packaging release>".
CV_POSTGRES_PACKAGE_VERSION=${CV_POSTGRES_PACKAGE_VERSION:-17.10.0-beta.17}
CV_POSTGRES_DIR=$CV_E2E_CACHE/postgres-$CV_POSTGRES_PACKAGE_VERSION
CV_WORKER_CONCURRENCY=${CV_WORKER_CONCURRENCY:-5}

# cv_queue_unavailable: prints why Redis/Postgres cannot be started here (one line) and succeeds, or
# prints nothing and fails when they can.
cv_queue_unavailable() {
	local arch
	arch=$(node -p process.arch)
	if [ "$(uname -s)" != Linux ] || { [ "$arch" != x64 ] && [ "$arch" != arm64 ]; }; then
		echo "queue-mode services need Linux on x64 or arm64 (this is $(uname -s) $arch)"
	elif ! command -v redis-server >/dev/null && [ "$(id -u)" != 0 ]; then
		echo "redis-server is not installed and this user is not root (apt-get install redis-server as root)"
	elif ! command -v redis-server >/dev/null && ! command -v apt-get >/dev/null; then
		echo "redis-server is not installed and there is no apt-get to install it"
	else
		return 1
	fi
}

# cv_queue_provision: installs redis-server (apt-get, as root) if missing and the Postgres binaries
# (npm, cached next to n8n, flock-guarded like provision-n8n.sh).
cv_queue_provision() {
	if ! command -v redis-server >/dev/null; then
		DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server || return 1
	fi
	mkdir -p "$CV_POSTGRES_DIR"
	(
		command -v flock >/dev/null && { exec 9>"$CV_POSTGRES_DIR/.lock" && flock 9; }
		[ -f "$CV_POSTGRES_DIR/.provisioned" ] && exit 0
		local package="@embedded-postgres/linux-$(node -p process.arch)"
		cd "$CV_POSTGRES_DIR" && echo '{"name":"cv-postgres","private":true}' >package.json &&
			npm install --no-audit --no-fund --ignore-scripts --loglevel=error "$package@$CV_POSTGRES_PACKAGE_VERSION" || exit 1
		# The package's own postinstall (skipped above with every other script) restores the
		# library symlinks that npm tarballs cannot hold.
		(cd "node_modules/$package" && node scripts/hydrate-symlinks.js) || exit 1
		"node_modules/$package/native/bin/postgres" --version && touch .provisioned
	)
}

cv_postgres_bin() { echo "$CV_POSTGRES_DIR/node_modules/@embedded-postgres/linux-$(node -p process.arch)/native/bin"; }

# Postgres refuses to run as root: as root it runs as `nobody` (setpriv execs, so the PID stays the
# server's), from a folder `nobody` can reach.
cv_as_postgres_user() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid=nobody --regid=nogroup --clear-groups --reset-env -- "$@"
	else
		"$@"
	fi
}

# cv_start_postgres HOME PORT PASSWORD LOG: a fresh cluster in HOME/data (user n8n, database n8n,
# password auth on 127.0.0.1 only, no Unix socket); sets CV_POSTGRES_PID. As root, when `nobody`
# cannot reach the cached binaries (e.g. a cache under /root), they are copied into HOME first.
cv_start_postgres() {
	local home=$1 port=$2 password=$3 log=$4 bin
	bin=$(cv_postgres_bin)
	mkdir -p "$home"
	[ "$(id -u)" = 0 ] && chown nobody "$home"
	if ! cv_as_postgres_user test -x "$bin/postgres"; then
		cp -a "$(dirname "$bin")" "$home/native" && bin=$home/native/bin
	fi
	cv_as_postgres_user test -w "$home" || { echo "the Postgres user cannot write $home" >&2; return 1; }
	(umask 077 && printf '%s\n' "$password" >"$home/pwfile")
	[ "$(id -u)" = 0 ] && chown nobody "$home/pwfile"
	cv_as_postgres_user "$bin/initdb" -D "$home/data" -U n8n --auth=scram-sha-256 --pwfile="$home/pwfile" \
		-E UTF8 --no-locale >"$log" 2>&1 || { rm -f "$home/pwfile"; return 1; }
	rm -f "$home/pwfile"
	echo 'CREATE DATABASE n8n' | cv_as_postgres_user "$bin/postgres" --single -D "$home/data" postgres >>"$log" 2>&1 || return 1
	# Throw-away data: no fsync, so the busy test machine spends its disk on n8n, not on durability.
	local as_user=()
	[ "$(id -u)" = 0 ] && as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups --reset-env --)
	setsid "${as_user[@]}" "$bin/postgres" -D "$home/data" -h 127.0.0.1 -p "$port" -k '' \
		-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=100 >>"$log" 2>&1 </dev/null &
	CV_POSTGRES_PID=$!
	cv_wait_log "$log" 'ready to accept connections' "$CV_POSTGRES_PID" 60
}

# cv_wait_log FILE TEXT PID SECONDS: waits until FILE contains TEXT; fails early when PID has exited.
cv_wait_log() {
	local deadline=$((SECONDS + $4))
	until grep -q "$2" "$1"; do
		kill -0 "$3" 2>/dev/null && [ "$SECONDS" -lt "$deadline" ] || return 1
		sleep 0.2
	done
}

# cv_start_redis HOME PORT LOG: sets CV_REDIS_PID.
cv_start_redis() {
	mkdir -p "$1" && : >"$3"
	setsid redis-server --bind 127.0.0.1 --port "$2" --dir "$1" --save '' --appendonly no \
		--daemonize no --protected-mode yes --logfile '' >"$3" 2>&1 </dev/null &
	CV_REDIS_PID=$!
	cv_wait_log "$3" 'Ready to accept connections' "$CV_REDIS_PID" 30
}

# cv_queue_env ROLE USER_FOLDER PORT BROKER_PORT: the environment of one queue-mode process
# (exported). ROLE is main, worker or webhook. Needs CV_QUEUE_MAIN_URL, CV_QUEUE_WEBHOOK_URL,
# CV_REDIS_PORT, CV_POSTGRES_PORT and CV_POSTGRES_PASSWORD. These are the settings the README lists.
cv_queue_env() {
	local role=$1
	cv_n8n_env "$2" "$3" "$4"
	export EXECUTIONS_MODE=queue
	export QUEUE_BULL_REDIS_HOST=127.0.0.1 QUEUE_BULL_REDIS_PORT=$CV_REDIS_PORT
	export DB_TYPE=postgresdb DB_POSTGRESDB_HOST=127.0.0.1 DB_POSTGRESDB_PORT=$CV_POSTGRES_PORT
	export DB_POSTGRESDB_DATABASE=n8n DB_POSTGRESDB_USER=n8n DB_POSTGRESDB_PASSWORD=$CV_POSTGRES_PASSWORD
	# n8n's pool of 2 connections and 20 s connect timeout fail executions of a worker running 5 at
	# once on a loaded machine ("timeout exceeded when trying to connect"): a pool per concurrency.
	export DB_POSTGRESDB_POOL_SIZE=$((CV_WORKER_CONCURRENCY + 5)) DB_POSTGRESDB_CONNECTION_TIMEOUT=60000
	# n8n pings the database every 2 s; after 3 pings slower than the timeout it rebuilds the
	# connection and aborts the queries in flight ("Connection terminated" failing executions). A
	# saturated machine answers slowly, not never: a longer ping timeout.
	export DB_PING_TIMEOUT_MS=30000
	# Every process must reach every binary: n8n 2.41's default in queue mode, stated explicitly.
	export N8N_DEFAULT_BINARY_DATA_MODE=database
	# Production webhook URLs (and so the trigger's registration) point at the webhook processor.
	export N8N_WEBHOOK_URL=$CV_QUEUE_WEBHOOK_URL N8N_EDITOR_BASE_URL=$CV_QUEUE_MAIN_URL
	export OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS=true N8N_DISABLE_PRODUCTION_MAIN_PROCESS=true
	unset QUEUE_HEALTH_CHECK_ACTIVE QUEUE_HEALTH_CHECK_PORT N8N_WORKER_SERVER_ADDRESS
	if [ "$role" = worker ]; then
		# The worker's own server (/healthz, /healthz/readiness) on N8N_PORT's slot.
		export QUEUE_HEALTH_CHECK_ACTIVE=true QUEUE_HEALTH_CHECK_PORT=$3 N8N_WORKER_SERVER_ADDRESS=127.0.0.1
	fi
}

# cv_start_queue_process ROLE NAME USER_FOLDER PORT BROKER_PORT LOG: starts one process (appending
# to LOG) and records its PID in CV_QUEUE_PIDS[NAME]; does not wait (see cv_wait_queue_process).
declare -gA CV_QUEUE_PIDS=()
cv_start_queue_process() {
	local role=$1 name=$2 command
	case $role in
		main) command=(start) ;;
		worker) command=(worker "--concurrency=$CV_WORKER_CONCURRENCY") ;;
		webhook) command=(webhook) ;;
	esac
	(
		cv_queue_env "$role" "$3" "$4" "$5"
		exec setsid env PATH="$CV_NODE24_DIR/bin:$PATH" "$CV_N8N_DIR/node_modules/.bin/n8n" "${command[@]}" >>"$6" 2>&1 </dev/null
	) &
	CV_QUEUE_PIDS[$name]=$!
}

# cv_wait_queue_process NAME PORT [SECONDS]: waits until the process answers /healthz/readiness, and
# main its REST API too (n8n 1.123 and 2.0 report ready before their REST routes answer).
cv_wait_queue_process() {
	cv_wait_http "http://127.0.0.1:$2/healthz/readiness" "${3:-240}" "${CV_QUEUE_PIDS[$1]}" || return 1
	[ "${CV_ROLE_OF[$1]}" != main ] || cv_wait_http "http://127.0.0.1:$2/rest/settings" 60 "${CV_QUEUE_PIDS[$1]}"
}

# cv_stop_queue_process NAME: stops it (TERM, then KILL) and forgets its PID.
cv_stop_queue_process() {
	cv_stop "${CV_QUEUE_PIDS[$1]:-}" 30
	unset "CV_QUEUE_PIDS[$1]"
}

# cv_queue_layout HOME MAIN_PORT WEBHOOK_PORT: the four n8n processes (main, worker1, worker2,
# webhook) with their user folders under HOME and free ports for the rest; sets the CV_*_OF maps,
# CV_QUEUE_MAIN_URL and CV_QUEUE_WEBHOOK_URL.
declare -gA CV_ROLE_OF=([main]=main [worker1]=worker [worker2]=worker [webhook]=webhook) CV_HOME_OF=() CV_PORT_OF=() CV_BROKER_OF=()
cv_queue_layout() {
	local name
	read -r CV_PORT_OF[worker1] CV_PORT_OF[worker2] CV_BROKER_OF[main] CV_BROKER_OF[worker1] CV_BROKER_OF[worker2] \
		CV_BROKER_OF[webhook] <<<"$(cv_free_ports 6 | tr '\n' ' ')"
	CV_PORT_OF[main]=$2 CV_PORT_OF[webhook]=$3
	for name in main worker1 worker2 webhook; do CV_HOME_OF[$name]=$1/$name; done
	export CV_QUEUE_MAIN_URL=http://127.0.0.1:$2/ CV_QUEUE_WEBHOOK_URL=http://127.0.0.1:$3/
}

# cv_queue_start LOG_DIR NAME...: starts the named processes (logs appended to LOG_DIR/NAME.log)
# and waits until each is ready.
cv_queue_start() {
	local logs=$1 name
	shift
	for name in "$@"; do
		cv_start_queue_process "${CV_ROLE_OF[$name]}" "$name" "${CV_HOME_OF[$name]}" "${CV_PORT_OF[$name]}" \
			"${CV_BROKER_OF[$name]}" "$logs/$name.log"
	done
	for name in "$@"; do
		cv_wait_queue_process "$name" "${CV_PORT_OF[$name]}" || { tail -30 "$logs/$name.log" >&2; return 1; }
	done
}

# cv_queue_main_cli ARGS...: the n8n CLI with main's settings (offline: before main starts).
cv_queue_main_cli() {
	(cv_queue_env main "${CV_HOME_OF[main]}" "${CV_PORT_OF[main]}" "${CV_BROKER_OF[main]}" && cv_n8n "$@")
}

cv_queue_stop_n8n() { local name; for name in webhook worker2 worker1 main; do cv_stop_queue_process "$name"; done; }

# cv_queue_stop_all: n8n, then the sandbox, Redis and Postgres (whatever was started).
cv_queue_stop_all() {
	cv_queue_stop_n8n
	cv_stop "${CV_SANDBOX_PID:-}" 5
	cv_stop "${CV_REDIS_PID:-}" 10
	cv_stop "${CV_POSTGRES_PID:-}" 20
}
