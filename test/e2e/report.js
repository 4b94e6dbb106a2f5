'use strict';

/**
 * The ok/FAIL/skip lines of the e2e suites that run.sh counts (browser.js, agent.js).
 * `step(name, fn)` prints `ok - name (detail)` when fn resolves (its value is the detail) and
 * `FAIL - name: message` when it throws; `skip(name, reason)` prints one `skip - ` line;
 * `run(suite, main)` runs the suite and ends with its counts.
 */
function createReport() {
	const counts = { passed: 0, failed: 0, skipped: 0 };
	const oneLine = (text) => String(text).replace(/\s+/g, ' ').trim();

	async function step(name, fn) {
		try {
			const detail = await fn();
			counts.passed += 1;
			console.log(`ok - ${name}${detail ? ` (${oneLine(detail)})` : ''}`);
			return true;
		} catch (error) {
			counts.failed += 1;
			console.log(`FAIL - ${name}: ${oneLine((error && error.message) || error).slice(0, 600)}`);
			return false;
		}
	}

	function skip(name, reason) {
		counts.skipped += 1;
		console.log(`skip - ${name}: ${oneLine(reason)}`);
	}

	function finish(suite) {
		console.log(
			`# ${suite}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`,
		);
		process.exitCode = counts.failed === 0 ? 0 : 1;
	}

	/** Runs a suite's main(); an unexpected throw is one FAIL line, then the suite's counts. */
	async function run(suite, main) {
		try {
			await main();
		} catch (error) {
			counts.failed += 1;
			console.log(
				`FAIL - ${suite} ran to the end: ${oneLine((error && error.stack) || error).slice(0, 600)}`,
			);
		}
		finish(suite);
	}

	return { step, skip, run, counts };
}

module.exports = { createReport };
