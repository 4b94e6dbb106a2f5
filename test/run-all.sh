#!/usr/bin/env bash
# The whole test suite, as the README's test command runs it: build, lint (n8n's community rules),
# type-check, unit tests (jest, the node run by n8n-core's WorkflowExecute), then the suites that run
# in a real n8n. Ends with one exact line "N passed, N failed" (", N skipped" when something was
# skipped) over all of them, and exits non-zero when anything failed.
# How steps are counted: test/counting.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
LOGS=.e2e/logs
mkdir -p "$LOGS"
source test/counting.sh

check build npm run --silent build
# n8n-node lint (counted once, there), n8n's scanner on source and tarball, the tarball, the workflows
suite package-checks node scripts/check-package.js
# the docs: links, images, anchors, the README's commands (scripts/check-docs.js), and its self-test
suite docs node scripts/check-docs.js
suite docs-checker-self-test node scripts/check-docs.js --self-test
check type-check-tests npx --no-install tsc -p tsconfig.test.json
jest_suite unit-tests

if [ "${SKIP_E2E:-0}" = 1 ]; then
	echo "== e2e skipped (SKIP_E2E=1)"
	record e2e 0 0 1
else
	suite e2e bash test/e2e/run.sh
	suite demo node test/e2e/demo-check.js
	suite e2e-queue-mode bash test/e2e-queue/run.sh
fi

final_summary
