#!/usr/bin/env node
'use strict';

/**
 * The compatibility record: what the end-to-end suite passed on which n8n release, and when.
 * test/e2e/run.sh calls it at the end of every run of the full suite or of its compat scope (so
 * `npm test` and `npm run test:compat -- <release>` both record what they ran):
 *
 *   node scripts/record-compat.js <n8n version> <scope> <passed> <failed> <skipped>
 *
 * It keeps the newest result per release and scope in test/results/compatibility.json and renders
 * docs/compatibility.md from it (the README links that page). `--render` only re-renders the page.
 * CV_RECORD_COMPAT=0 (or a run of the examples scope) records nothing.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const DATA = path.join(ROOT, 'test', 'results', 'compatibility.json');
const PAGE = path.join(ROOT, 'docs', 'compatibility.md');

const SCOPES = {
	full: 'the whole e2e suite: every operation and example (each run twice around a restart), the credential test, the trigger, errors, duplicate protection, the editor in Chromium, the AI Agent tool',
	compat: 'the compat scope: every operation of the example, a file byte for byte, errors on a reset and a hang, all or nothing, the trigger, duplicate protection',
};

function load() {
	return fs.existsSync(DATA) ? JSON.parse(fs.readFileSync(DATA, 'utf8')) : { runs: [] };
}

const versionKey = (version) => version.split('.').map((part) => part.padStart(6, '0')).join('.');

function render(data) {
	const runs = [...data.runs].sort(
		(a, b) => versionKey(b.n8n).localeCompare(versionKey(a.n8n)) || a.scope.localeCompare(b.scope),
	);
	const rows = runs.map(
		(run) =>
			`| ${run.n8n} | ${run.scope} | ${run.failed === 0 ? 'passed' : '**failed**'} | ${run.passed} | ${run.failed} | ${run.skipped} | ${run.date} | ${run.command} | Node ${run.node} on ${run.machine} |`,
	);
	return `# Compatibility record

Written by the test command, not by hand: every run of the end-to-end suite (\`bash test/e2e/run.sh\`,
part of \`npm test\`) and of its compat scope (\`npm run test:compat -- <release>\`) ends with
\`scripts/record-compat.js\`, which keeps the newest result per n8n release and scope in
[\`test/results/compatibility.json\`](../test/results/compatibility.json) and renders this page. A
release is supported when its row says passed; a release without a row was not tested.

| n8n | Scope | Result | Passed | Failed | Skipped | Date (UTC) | Command | Machine |
|---|---|---|---|---|---|---|---|---|
${rows.join('\n') || '| | | none yet | | | | | | |'}

Scopes:

${Object.entries(SCOPES)
	.map(([scope, text]) => `- **${scope}**: ${text}.`)
	.join('\n')}

How the releases are installed and activated: [development.md](development.md#compatibility-runs). The
store behaviours duplicate protection's lock rests on, checked per release: [store-contract.md](store-contract.md).
`;
}

function main(argv) {
	const data = load();
	if (argv[0] !== '--render') {
		const [n8n, scope, passed, failed, skipped] = argv;
		if (!n8n || !SCOPES[scope] || [passed, failed, skipped].some((n) => !/^\d+$/.test(String(n)))) {
			console.error('usage: record-compat.js <n8n version> <full|compat> <passed> <failed> <skipped> | --render');
			process.exit(2);
		}
		const run = {
			n8n,
			scope,
			passed: Number(passed),
			failed: Number(failed),
			skipped: Number(skipped),
			date: new Date().toISOString().slice(0, 16).replace('T', ' '),
			command: scope === 'full' ? '`bash test/e2e/run.sh`' : `\`npm run test:compat -- ${n8n}\``,
			node: process.env.CV_NODE24_VERSION || 'v24',
			machine: `${os.cpus().length} cores`,
		};
		data.runs = data.runs.filter((other) => !(other.n8n === n8n && other.scope === scope));
		data.runs.push(run);
		fs.mkdirSync(path.dirname(DATA), { recursive: true });
		fs.writeFileSync(DATA, `${JSON.stringify(data, null, 2)}\n`);
		console.log(`# recorded n8n ${n8n} (${scope}): ${passed} passed, ${failed} failed, ${skipped} skipped in ${path.relative(ROOT, DATA)}`);
	}
	fs.writeFileSync(PAGE, render(data));
}

main(process.argv.slice(2));
