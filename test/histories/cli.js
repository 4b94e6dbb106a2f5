#!/usr/bin/env node
// Runs the duplicate-protection histories (test/histories/) outside the CI budget:
//   npm run test:histories -- --histories 20000 --seed 1
// --histories N: exactly N histories (default: at least 100, then as many as fit in --seconds, 60);
// --seed S: the first seed (default 1); a failing history prints its seed and its shrunk steps.
'use strict';
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const OPTIONS = {
	'--histories': 'CV_HISTORIES',
	'--seed': 'CV_HISTORY_SEED',
	'--seconds': 'CV_HISTORIES_SECONDS',
};
const env = { ...process.env, CV_JEST_SUITE: 'histories' };
const args = process.argv.slice(2);
for (let index = 0; index < args.length; index += 2) {
	const name = OPTIONS[args[index]];
	const value = args[index + 1];
	if (!name || !/^\d+$/.test(value ?? '')) {
		console.error(
			`usage: npm run test:histories -- [--histories N] [--seed S] [--seconds T] (got ${args.join(' ')})`,
		);
		process.exit(2);
	}
	env[name] = value;
}
const jest = require.resolve('jest/bin/jest');
const root = path.join(__dirname, '..', '..');
const run = spawnSync(process.execPath, [jest, '--runInBand', '--verbose=false'], {
	cwd: root,
	env,
	stdio: 'inherit',
});
process.exit(run.status ?? 1);
