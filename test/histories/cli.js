#!/usr/bin/env node
// Runs the duplicate-protection histories (test/histories/) outside the CI budget:
//   npm run test:histories -- --histories 20000 --seed 1 [--processes 6]
// --histories N: exactly N histories (default: at least 100, then as many as fit in --seconds, 60);
// --seed S: the first seed (default 1); a failing history prints its seed and its shrunk steps;
// --replay FILE [--replays K]: runs a failing history's replay JSON (in FILE) K times, printing each outcome;
// --processes P: with --histories, P jest processes at once (a history mostly waits on timers: about
// 0.15 s of CPU in 0.4 s), the seeds and histories the same. With --histories, the seeds are run in
// consecutive shares of at most SHARE_SIZE, each in a jest process of its own, P at a time.
'use strict';
const { spawn } = require('node:child_process');
const path = require('node:path');

const OPTIONS = {
	'--histories': 'CV_HISTORIES',
	'--seed': 'CV_HISTORY_SEED',
	'--seconds': 'CV_HISTORIES_SECONDS',
	'--processes': 'processes',
	'--replay': 'CV_HISTORY_REPLAY',
	'--replays': 'CV_REPLAYS',
};
const env = { ...process.env, CV_JEST_SUITE: 'histories' };
const args = process.argv.slice(2);
let processes = 1;
for (let index = 0; index < args.length; index += 2) {
	const name = OPTIONS[args[index]];
	const value = args[index + 1];
	const number = name !== 'CV_HISTORY_REPLAY';
	if (
		!name ||
		(number && !/^\d+$/.test(value ?? '')) ||
		(name === 'processes' && Number(value) < 1)
	) {
		console.error(
			`usage: npm run test:histories -- [--histories N] [--seed S] [--seconds T] [--processes P] | --replay FILE [--replays K] (got ${args.join(' ')})`,
		);
		process.exit(2);
	}
	if (name === 'processes') processes = Number(value);
	else env[name] = value;
}
if (processes > 1 && env.CV_HISTORIES === undefined) {
	console.error('--processes needs --histories (a time budget is not split)');
	process.exit(2);
}

const jest = require.resolve('jest/bin/jest');
/**
 * Histories per jest process. A process keeps about 1.4 MB a history (nock's mock sockets stay
 * referenced by their HTTP parsers' global handles: a heap snapshot's retainers), so 2,500 in one
 * process took 3 GB, and 8 of them ran the 24 GB machine out of memory. A share this size stays under
 * 1 GB, and each share's end line shows the run's progress.
 */
const SHARE_SIZE = 500;
const root = path.join(__dirname, '..', '..');

/** One jest process (over `share`: its histories from its seed); resolves with its exit status. */
function runShare(share, label) {
	const child = spawn(process.execPath, [jest, '--runInBand', '--verbose=false'], {
		cwd: root,
		env: share
			? { ...env, CV_HISTORY_SEED: String(share.seed), CV_HISTORIES: String(share.count) }
			: env,
		stdio: label ? ['ignore', 'pipe', 'pipe'] : 'inherit',
	});
	if (label) {
		const prefix = (chunk) =>
			String(chunk)
				.split('\n')
				.filter((line) => line.trim() !== '')
				.map((line) => `[${label}] ${line}\n`)
				.join('');
		child.stdout.on('data', (chunk) => process.stdout.write(prefix(chunk)));
		child.stderr.on('data', (chunk) => process.stderr.write(prefix(chunk)));
	}
	return new Promise((resolve) => child.on('close', (status) => resolve(status ?? 1)));
}

async function main() {
	if (env.CV_HISTORIES === undefined || env.CV_HISTORY_REPLAY !== undefined) {
		const status = await runShare(undefined, '');
		process.exit(status);
	}
	const first = Number(env.CV_HISTORY_SEED ?? 1);
	const total = Number(env.CV_HISTORIES);
	const started = Date.now();
	const shares = [];
	for (let seed = first; seed < first + total; seed += SHARE_SIZE)
		shares.push({ seed, count: Math.min(SHARE_SIZE, first + total - seed) });
	const statuses = [];
	let next = 0;
	await Promise.all(
		Array.from({ length: Math.min(processes, shares.length) }, async () => {
			while (next < shares.length) {
				const index = next++;
				const { seed, count } = shares[index];
				statuses[index] = await runShare(shares[index], `seeds ${seed}-${seed + count - 1}`);
			}
		}),
	);
	const failed = shares.filter((_, index) => statuses[index] !== 0);
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	console.log(
		failed.length === 0
			? `${total} histories from seed ${first} in ${shares.length} shares, ${processes} at a time: 0 violations in ${seconds} s`
			: `${failed.length} of ${shares.length} shares failed (${failed.map(({ seed, count }) => `seeds ${seed}-${seed + count - 1}`).join(', ')}) after ${seconds} s`,
	);
	process.exit(failed.length === 0 ? 0 : 1);
}

void main();
