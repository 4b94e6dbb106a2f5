/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- a test of the test command's shell code: runs bash under jest, never published */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const COUNTING = resolve(__dirname, '../counting.sh');

/** Runs steps through test/counting.sh as test/run-all.sh does; returns its output and exit code. */
function runSteps(steps: string): { lines: string[]; status: number | null } {
	const logs = mkdtempSync(join(tmpdir(), 'cv-counting-'));
	try {
		const script = `set -uo pipefail; LOGS=${logs}; source ${COUNTING}\n${steps}\nfinal_summary`;
		const result = spawnSync('bash', ['-c', script], { encoding: 'utf8' });
		return { lines: result.stdout.trim().split('\n'), status: result.status };
	} finally {
		rmSync(logs, { recursive: true, force: true });
	}
}

describe('the test command counts every failure exactly once', () => {
	it('counts a passing and a failing check as one each', () => {
		const { lines, status } = runSteps(`check ok true\ncheck broken false`);
		expect(lines.at(-1)).toBe('1 passed, 1 failed');
		expect(status).not.toBe(0);
	});

	it("takes a suite's own counts, and adds one failure when it exits non-zero without reporting one", () => {
		const { lines, status } = runSteps(
			[
				`suite crashed bash -c 'echo "3 passed, 0 failed"; exit 2'`,
				`suite reported bash -c 'echo "2 passed, 2 failed, 1 skipped"; exit 1'`,
				`suite silent bash -c 'echo starting; exit 1'`,
				`suite green bash -c 'echo "5 passed, 0 failed"'`,
			].join('\n'),
		);
		expect(lines).toContain('-- crashed: 3 passed, 1 failed');
		expect(lines).toContain('-- reported: 2 passed, 2 failed, 1 skipped');
		expect(lines).toContain('-- silent: 0 passed, 1 failed');
		expect(lines.at(-1)).toBe('10 passed, 4 failed, 1 skipped');
		expect(status).not.toBe(0);
	});

	it('does not lose a failing exit status inside the pipe that keeps the log', () => {
		const { lines, status } = runSteps(`suite piped bash -c 'echo "1 passed, 0 failed"; exit 3'`);
		expect(lines.at(-1)).toBe('1 passed, 1 failed');
		expect(status).not.toBe(0);
	});

	it("counts a jest run from its JSON report, with the suite's arguments passed to jest", () => {
		// A stand-in for npx: records its arguments, writes the report jest would (3 passed, 1 failed,
		// 1 skipped, and a test file that did not load), exits 1 as jest does on a failure.
		const bin = mkdtempSync(join(tmpdir(), 'cv-fake-npx-'));
		try {
			const report = JSON.stringify({
				numPassedTests: 3,
				numFailedTests: 1,
				numPendingTests: 1,
				numTodoTests: 0,
				testResults: [
					{ status: 'failed', assertionResults: [{ status: 'failed' }] },
					{ status: 'failed', assertionResults: [] },
				],
			});
			writeFileSync(
				join(bin, 'npx'),
				[
					'#!/usr/bin/env bash',
					`echo "$*" > ${bin}/arguments`,
					'for argument; do case $argument in --outputFile=*) out=${argument#--outputFile=};; esac; done',
					`echo '${report}' > "$out"`,
					'exit 1',
				].join('\n'),
			);
			chmodSync(join(bin, 'npx'), 0o755);

			const { lines, status } = runSteps(`PATH=${bin}:$PATH jest_suite unit --selectProjects unit`);

			expect(readFileSync(join(bin, 'arguments'), 'utf8')).toMatch(
				/^--no-install jest --selectProjects unit --json --outputFile=\S+\/unit\.json$/m,
			);
			expect(lines).toContain('-- unit: 3 passed, 2 failed, 1 skipped');
			expect(lines.at(-1)).toBe('3 passed, 2 failed, 1 skipped');
			expect(status).not.toBe(0);
		} finally {
			rmSync(bin, { recursive: true, force: true });
		}
	});

	it('ends green, with one exact closing line, when everything passed', () => {
		const { lines, status } = runSteps(
			`check ok true\nsuite green bash -c 'echo "4 passed, 0 failed"'`,
		);
		expect(lines.at(-1)).toBe('5 passed, 0 failed');
		expect(status).toBe(0);
	});
});
