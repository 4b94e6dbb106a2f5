# shellcheck shell=bash
# Counting for test/run-all.sh (sourced; LOGS must name a folder). Every step adds to the totals;
# final_summary prints the one closing line and returns non-zero when anything failed.
# Counting: a step without counts of its own (build, lint, type-check) is one check. A suite that
# prints "N passed, N failed[, N skipped]" counts those; if it exits non-zero without reporting a
# failure (it crashed, or stopped early), that is one more failure, so every failure is counted
# exactly once and none is lost inside the pipe that copies the output to a log.
total_passed=0 total_failed=0 total_skipped=0

record() { # NAME PASSED FAILED SKIPPED
	total_passed=$((total_passed + $2)) total_failed=$((total_failed + $3)) total_skipped=$((total_skipped + $4))
	echo "-- $1: $2 passed, $3 failed$([ "$4" -gt 0 ] && echo ", $4 skipped")"
}

# check NAME COMMAND...: one pass/fail check, its output kept in the log.
check() {
	local name=$1; shift
	echo "== $name"
	"$@" 2>&1 | tee "$LOGS/$name.log"
	if [ "${PIPESTATUS[0]}" -eq 0 ]; then record "$name" 1 0 0; else record "$name" 0 1 0; fi
}

# suite NAME COMMAND...: a suite that ends with "N passed, N failed[, N skipped]".
suite() {
	local name=$1; shift
	echo "== $name"
	"$@" 2>&1 | tee "$LOGS/$name.log"
	local rc=${PIPESTATUS[0]} line passed=0 failed=0 skipped=0
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$LOGS/$name.log" | tail -1)
	if [ -n "$line" ]; then
		passed=$(sed -E 's/^([0-9]+) passed.*/\1/' <<<"$line")
		failed=$(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")
		if [[ $line == *skipped ]]; then skipped=$(sed -E 's/.* ([0-9]+) skipped$/\1/' <<<"$line"); fi
	fi
	if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
		echo "!! $name exited with status $rc without reporting a failure: counted as one"
		failed=1
	fi
	record "$name" "$passed" "$failed" "$skipped"
}

# jest_suite NAME [JEST ARGUMENTS...]: jest (e.g. `--selectProjects unit`, one of jest.config.js's
# suites), counted from its JSON report $LOGS/NAME.json (a test file that does not even load counts too).
jest_suite() {
	local name=$1 report=$LOGS/$1.json
	shift
	echo "== $name"
	rm -f "$report"
	npx --no-install jest "$@" --json --outputFile="$report" 2>&1 | tee "$LOGS/$name.log"
	local rc=${PIPESTATUS[0]} counts
	counts=$(node -e '
		const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
		const broken = r.testResults.filter((s) => s.status === "failed" && !s.assertionResults.some((a) => a.status === "failed")).length;
		console.log(r.numPassedTests, r.numFailedTests + broken, r.numPendingTests + r.numTodoTests);' "$report" 2>/dev/null) ||
		counts="0 0 0"
	local passed failed skipped
	read -r passed failed skipped <<<"$counts"
	if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
		echo "!! $name exited with status $rc without reporting a failure: counted as one"
		failed=1
	fi
	record "$name" "$passed" "$failed" "$skipped"
}

final_summary() {
	if [ "$total_skipped" -gt 0 ]; then
		echo "$total_passed passed, $total_failed failed, $total_skipped skipped"
	else
		echo "$total_passed passed, $total_failed failed"
	fi
	[ "$total_failed" -eq 0 ]
}
