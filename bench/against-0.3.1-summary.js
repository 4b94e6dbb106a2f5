'use strict';

/**
 * The summary of bench/against-0.3.1.sh: duplicate protection's share of the run per case, (on − Off) / on
 * of the median node run times, and its points above 0.3.1's, as a Markdown table; then every run.
 *   node bench/against-0.3.1-summary.js <OUT_DIR>
 */
const fs = require('node:fs');
const path = require('node:path');
const { median } = require('./report');

const out = process.argv[2];
const CASES = [
	['0.3.1', '0.3.1'],
	['v2', '0.4.x, version 2 (new nodes)'],
	['v1-trimmed', '0.4.x, version 1, its 0.3.x rows trimmed'],
	['v1-lookups', '0.4.x, version 1, may hold 0.3.x rows (lookups)'],
];
const RECORDED = ['recorded10000', 'recorded100000'];

const runsOf = (results, variant) =>
	results.filter((r) => r.op === 'create' && r.variant === variant && r.count === 1000);
const medianMs = (results, variant) => median(runsOf(results, variant).map((r) => r.nodeMs));

const lines = [
	'| 1000 × Profile → Create, 0 ms | Rows recorded | ' +
		CASES.map(([, label]) => `${label} | Points above 0.3.1`).join(' | ') +
		' |',
	`|---|---|${CASES.map(() => '---|---|').join('')}`,
];
const every = [];
for (const db of ['sqlite', 'postgres']) {
	const shares = {};
	for (const [name, label] of CASES) {
		const file = path.join(out, `${db}-${name}.json`);
		if (!fs.existsSync(file)) continue;
		const { results } = JSON.parse(fs.readFileSync(file, 'utf8'));
		const off = medianMs(results, 'protectionOff');
		shares[name] = {};
		for (const variant of RECORDED) {
			const on = medianMs(results, variant);
			shares[name][variant] = { on, off, share: 100 * (1 - off / on) };
		}
		const runs = ['node', 'protectionOff', ...RECORDED]
			.map(
				(variant) =>
					`${variant} ${runsOf(results, variant)
						.map((r) => r.nodeMs)
						.join(', ')}`,
			)
			.join('; ');
		every.push(`- ${label}, ${db}: ${runs}.`);
	}
	for (const variant of RECORDED) {
		const cells = CASES.map(([name]) => {
			const here = shares[name]?.[variant];
			const base = shares['0.3.1']?.[variant];
			if (!here) return '– | –';
			const cell = `${(here.on / 1000).toFixed(2)} s / ${(here.off / 1000).toFixed(2)} s: **${here.share.toFixed(1)}%**`;
			const points = name === '0.3.1' || !base ? '' : (here.share - base.share).toFixed(1);
			return `${cell} | ${points.startsWith('-') || points === '' ? points : `+${points}`}`;
		});
		const rows = Number(variant.slice(8)).toLocaleString('en');
		lines.push(`| ${db === 'sqlite' ? 'SQLite' : 'Postgres'} | ${rows} | ${cells.join(' | ')} |`);
	}
}
console.log(lines.join('\n'));
console.log('\n(on / Off: median node run times, ms.) Every run (node run time, ms):\n');
console.log(every.join('\n'));
