'use strict';

/**
 * The `ok - ...` / `FAIL - ...` lines of the e2e check scripts (test/e2e/checks.js,
 * test/e2e-queue/checks.js). check(name, fn) runs fn, prints one line (fn's return value, if any, in
 * parentheses) and returns whether it passed; `counts` holds the running totals.
 */
function createChecklist() {
	const counts = { passed: 0, failed: 0 };
	async function check(name, fn) {
		try {
			const detail = await fn();
			counts.passed += 1;
			console.log(`ok - ${name}${detail ? ` (${detail})` : ''}`);
			return true;
		} catch (error) {
			counts.failed += 1;
			const message = String((error && error.message) || error).replace(/\s+/g, ' ');
			console.log(`FAIL - ${name}: ${message.slice(0, 400)}`);
			return false;
		}
	}
	return { check, counts };
}

module.exports = { createChecklist };
