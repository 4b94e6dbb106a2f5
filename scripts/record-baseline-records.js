#!/usr/bin/env node
// Records the baseline-records fixtures with a given commit's own node and harness:
//   node scripts/record-baseline-records.js <commit> [folder]
// It checks the commit out in a temporary git worktree (this clone's node_modules linked in), copies
// test/baseline-records/record.ts of the working tree into the worktree's test/unit/, runs it there with
// jest (the commit's jest config and harness), and leaves one JSON per case in the folder
// (test/fixtures/baseline-records-<short commit> when not given). The worktree is removed afterwards.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const [commitArgument, folderArgument] = process.argv.slice(2);
if (!commitArgument) {
	console.error('usage: node scripts/record-baseline-records.js <commit> [folder]');
	process.exit(2);
}
const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
const commit = git('rev-parse', '--short=7', `${commitArgument}^{commit}`);
const folder = path.resolve(
	folderArgument ?? path.join(root, 'test/fixtures', `baseline-records-${commit}`),
);
const worktree = fs.mkdtempSync(path.join(os.tmpdir(), `baseline-records-${commit}-`));
const RECORDER = 'test/unit/record-baseline-records.test.ts';

git('worktree', 'add', '--detach', worktree, commit);
try {
	fs.symlinkSync(path.join(root, 'node_modules'), path.join(worktree, 'node_modules'), 'dir');
	fs.copyFileSync(
		path.join(root, 'test/baseline-records/record.ts'),
		path.join(worktree, RECORDER),
	);
	execFileSync('npx', ['jest', '--maxWorkers=1', '--no-cache', RECORDER], {
		cwd: worktree,
		stdio: 'inherit',
		env: { ...process.env, CV_JEST_SUITE: 'unit', CV_RECORD_TO: folder, CV_RECORD_COMMIT: commit },
	});
	// Written as the repository formats JSON, so a file recorded again differs only where its record does.
	execFileSync('npx', ['prettier', '--write', '--log-level', 'warn', folder], {
		cwd: root,
		stdio: 'inherit',
	});
	console.log(`fixtures of ${commit} written to ${path.relative(root, folder)}`);
} finally {
	git('worktree', 'remove', '--force', worktree);
}
