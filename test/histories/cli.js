#!/usr/bin/env node
// Runs the duplicate-protection histories (test/histories/) outside the CI budget:
//   npm run test:histories -- --histories 20000 --seed 1 [--processes 6]
// --histories N: exactly N histories (default: at least 100, then as many as fit in --seconds, 60);
// --seed S: the first seed (default 1); a failing history prints its seed and its shrunk steps;
// --replay FILE [--replays K]: runs a failing history's replay JSON (in FILE) K times, printing each outcome;
// --processes P: with --histories, P jest processes at once, each a consecutive share of the seeds
// (a history mostly waits on timers: about 0.15 s of CPU in 0.4 s), the seeds and histories the same.
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
	if (processes === 1) {
		const status = await runShare(undefined, '');
		process.exit(status);
	}
	const first = Number(env.CV_HISTORY_SEED ?? 1);
	const total = Number(env.CV_HISTORIES);
	const started = Date.now();
	const shares = [];
	for (let share = 0, seed = first; share < processes; share += 1) {
		const count = Math.floor(total / processes) + (share < total % processes ? 1 : 0);
		if (count > 0) shares.push({ seed, count });
		seed += count;
	}
	const statuses = await Promise.all(
		shares.map((share) => runShare(share, `seeds ${share.seed}-${share.seed + share.count - 1}`)),
	);
	const failed = shares.filter((_, index) => statuses[index] !== 0);
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	console.log(
		failed.length === 0
			? `${total} histories from seed ${first} in ${shares.length} processes: 0 violations in ${seconds} s`
			: `${failed.length} of ${shares.length} processes failed (${failed.map(({ seed, count }) => `seeds ${seed}-${seed + count - 1}`).join(', ')}) after ${seconds} s`,
	);
	process.exit(failed.length === 0 ? 0 : 1);
}

void main();
