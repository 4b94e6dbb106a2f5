#!/usr/bin/env bash
# The whole test suite, as the README's test command runs it: build, lint (n8n's community rules),
# type-check, jest's suites (unit, scripts, integration, perf: the node run by n8n-core's
# WorkflowExecute), then the suites that run
# in a real n8n (2.41.1, queue mode, the compat scope on n8n 1.123.x and queue mode there with a
# stalled job run again). Ends with one exact line "N passed, N failed" (", N skipped" when something was
# skipped) over all of them, and exits non-zero when anything failed.
# How steps are counted: test/counting.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
LOGS=.e2e/logs
mkdir -p "$LOGS"
source test/counting.sh
# n8n 1.x release the compat suite proves the package on (the newest 1.123 patch when this was pinned;
# `none` skips it).
CV_COMPAT_N8N_VERSION=${CV_COMPAT_N8N_VERSION:-1.123.81}

# Both n8n releases are provisioned in the background from the start (npm installs and native builds
# of minutes on a cold machine), one after the other: the e2e suites' release first, while the build and
# the unit tests run, then the compat release while the e2e suite runs, at the lowest priority so that
# it slows the editor steps less (at normal priority: 226 s instead of 175 s). Two installs at once share
# the download and finish no sooner. Each suite waits for its release (provision-n8n.sh's lock per
# release) and provisions it again if that failed (logs: $LOGS/provision-e2e.log, provision-compat.log).
provision_pid=
if [ "${SKIP_E2E:-0}" != 1 ]; then
	setsid bash -c 'bash test/e2e/provision-n8n.sh >"$1/provision-e2e.log" 2>&1
		[ "$2" = none ] || nice -n 19 bash scripts/compat-e2e.sh --provision-only "$2" >"$1/provision-compat.log" 2>&1' \
		provision "$LOGS" "$CV_COMPAT_N8N_VERSION" </dev/null &
	provision_pid=$!
	# Interrupted: the provisioning (npm and its children) stops too.
	trap 'kill -- "-$provision_pid" 2>/dev/null' EXIT
fi

check build npm run --silent build
# The suites below build the package themselves when run alone; here it was just built.
[ "$total_failed" -eq 0 ] && export CV_PACKAGE_BUILT=1
# n8n-node lint (counted once, there), n8n's scanner on source and tarball, the tarball, the workflows
suite package-checks node scripts/check-package.js
# the docs: links, images, anchors, the README's commands (scripts/check-docs.js), and its self-test
suite docs node scripts/check-docs.js
suite docs-checker-self-test node scripts/check-docs.js --self-test
check type-check-tests npx --no-install tsc -p tsconfig.test.json
# jest's five suites (jest.config.js's projects), each run and counted on its own: the nodes' unit tests,
# the scripts' tests (the README's install commands from the tarball built above), the sandbox and the
# nodes against it, the per-item cost guard, duplicate protection over random histories.
jest_suite unit-tests --selectProjects unit
jest_suite script-tests --selectProjects scripts
jest_suite integration-tests --selectProjects integration
jest_suite perf-tests --selectProjects perf
jest_suite history-tests --selectProjects histories

if [ "${SKIP_E2E:-0}" = 1 ]; then
	echo "== e2e skipped (SKIP_E2E=1)"
	record e2e 0 0 1
else
	suite e2e bash test/e2e/run.sh
	suite demo node test/e2e/demo-check.js
	suite e2e-queue-mode bash test/e2e-queue/run.sh
	# The compat scope on the newest n8n 1.x (scripts/compat-e2e.sh; its own cache, cold in .ci/run).
	# CV_COMPAT_N8N_VERSION=none counts it as skipped.
	if [ "$CV_COMPAT_N8N_VERSION" = none ]; then
		echo "== e2e-compat skipped (CV_COMPAT_N8N_VERSION=none)"
		record e2e-compat 0 0 1
	else
		suite "e2e-compat-n8n-$CV_COMPAT_N8N_VERSION" bash scripts/compat-e2e.sh "$CV_COMPAT_N8N_VERSION"
		# Queue mode on that release, where n8n itself runs a stalled worker's job again (run.sh stalled-job).
		suite "e2e-queue-stalled-job-n8n-$CV_COMPAT_N8N_VERSION" env CV_N8N_VERSION="$CV_COMPAT_N8N_VERSION" bash test/e2e-queue/run.sh stalled-job
	fi
fi

final_summary
