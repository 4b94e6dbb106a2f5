'use strict';

/**
 * The summary of bench/against-commit.sh: duplicate protection's share of the run, (on − Off) / on of the
 * median node run times over every round, for the commit and this tree; this tree's points above the
 * commit; and the commit's own A/A spread (the largest minus the smallest share of its rounds).
 *   node bench/against-commit-summary.js <OUT_DIR> <commit>
 */
const fs = require('node:fs');
const path = require('node:path');
const { median } = require('./report');

const [out, base] = process.argv.slice(2);
const RECORDED = ['recorded10000', 'recorded100000'];
const VERSIONS = [
	['v2', 'version 2'],
	['v1', 'version 1'],
];

function roundsOf(db, name) {
	return fs
		.readdirSync(out)
		.filter((file) => file.startsWith(`${db}-${name}-`) && file.endsWith('.json'))
		.sort()
		.map((file) => JSON.parse(fs.readFileSync(path.join(out, file), 'utf8')).results);
}
const timesOf = (results, variant) =>
	results
		.filter((r) => r.op === 'create' && r.variant === variant && r.count === 1000)
		.map((r) => r.nodeMs);
function share(rounds, variant) {
	const on = median(rounds.flatMap((results) => timesOf(results, variant)));
	const off = median(rounds.flatMap((results) => timesOf(results, 'protectionOff')));
	return { on, off, share: 100 * (1 - off / on) };
}
const signed = (value) => `${value >= 0 ? '+' : ''}${value.toFixed(1)}`;

const lines = [
	`| 1000 × Profile → Create, 0 ms | Rows recorded | ${base} (on / Off: share) | This tree | Points above ${base} | ${base}'s A/A spread (its rounds) | Within |`,
	'|---|---|---|---|---|---|---|',
];
for (const db of ['sqlite', 'postgres']) {
	for (const [version, label] of VERSIONS) {
		const baseRounds = roundsOf(db, `base-${version}`);
		const hereRounds = roundsOf(db, version);
		if (baseRounds.length === 0 || hereRounds.length === 0) continue;
		for (const variant of RECORDED) {
			const then = share(baseRounds, variant);
			const now = share(hereRounds, variant);
			const perRound = baseRounds.map((results) => share([results], variant).share);
			const spread = Math.max(...perRound) - Math.min(...perRound);
			const points = now.share - then.share;
			const cell = ({ on, off, share: s }) =>
				`${(on / 1000).toFixed(2)} s / ${(off / 1000).toFixed(2)} s: ${s.toFixed(1)}%`;
			const within = points <= spread && points <= 10 ? 'yes' : '**no**';
			const rows = Number(variant.slice(8)).toLocaleString('en');
			lines.push(
				`| ${db === 'sqlite' ? 'SQLite' : 'Postgres'}, ${label} | ${rows} | ${cell(then)} | ${cell(now)} | ${signed(points)} | ${spread.toFixed(1)} (${perRound.map((s) => s.toFixed(1)).join(', ')}) | ${within} |`,
			);
		}
	}
}
console.log(lines.join('\n'));
console.log(
	`\n(on / Off: median node run times over every round; runs per case: ${process.env.BENCH_RUNS || 5} × rounds.)`,
);
