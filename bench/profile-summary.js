#!/usr/bin/env node
'use strict';

/**
 * Where a CPU profile of n8n's main process (`CV_N8N_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR"`)
 * spent its time during the measured runs: the functions with the most self time, and the most
 * inclusive time of frames matching a pattern (by default the request path).
 * Usage: node bench/profile-summary.js FILE.cpuprofile [--runs bench/results/latest.json]
 *   [--case OP:VARIANT:LATENCY:COUNT] [--top 25] [--match REGEX]
 * With --runs only the samples taken during the runs of that file (--case: of one case) count.
 */
const fs = require('node:fs');

const args = process.argv.slice(2);
const option = (name, fallback) => {
	const at = args.indexOf(`--${name}`);
	return at >= 0 ? args[at + 1] : fallback;
};
const file = args[0];
const top = Number(option('top', '25'));
const pattern = option(
	'match',
	'request-helpers|backend-network|axios|follow-redirects|candidate-verification|credentials-helper|_http_|node:net|expression',
);
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const runsFile = option('runs');
const wanted = option('case')?.split(':');
const runs = runsFile
	? JSON.parse(fs.readFileSync(runsFile, 'utf8')).results.filter(
			(r) =>
				!wanted ||
				[r.op, r.variant, String(r.latencyMs), String(r.count)].every(
					(value, i) => !wanted[i] || wanted[i] === value,
				),
		)
	: undefined;
const windows = runs
	? runs.map((r) => [r.monotonicStartUs, r.monotonicEndUs])
	: [[-Infinity, Infinity]];
const requests = runs ? runs.reduce((sum, r) => sum + r.requests, 0) : NaN;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes)
	for (const child of node.children ?? []) parent.set(child, node.id);

const where = ({ callFrame: f }) =>
	`${f.functionName || '(anonymous)'} ${f.url.replace(/^.*node_modules\//, '').replace(/^file:\/\//, '')}:${f.lineNumber + 1}`;
const self = new Map();
const inclusive = new Map();
const match = new RegExp(pattern);
let total = 0;
let idle = 0;
let time = profile.startTime;
profile.samples.forEach((id, i) => {
	time += profile.timeDeltas[i] ?? 0;
	if (!windows.some(([start, end]) => time >= start && time <= end)) return;
	const ms = (profile.timeDeltas[i] ?? 0) / 1000;
	total += ms;
	const node = byId.get(id);
	if (node.callFrame.functionName === '(idle)') idle += ms;
	self.set(where(node), (self.get(where(node)) ?? 0) + ms);
	const seen = new Set();
	for (let at = id; at !== undefined; at = parent.get(at)) {
		const key = where(byId.get(at));
		if (seen.has(key) || !match.test(key)) continue;
		seen.add(key);
		inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
	}
});
const list = (map) =>
	[...map.entries()]
		.sort((a, b) => b[1] - a[1])
		.slice(0, Number(top))
		.map(
			([key, ms]) =>
				`${ms.toFixed(0).padStart(7)} ms${Number.isFinite(requests) ? ` ${(ms / requests).toFixed(3).padStart(7)} ms/req` : ''}  ${key}`,
		)
		.join('\n');
const busy = total - idle;
console.log(
	`${file}: ${total.toFixed(0)} ms sampled, ${busy.toFixed(0)} ms busy${Number.isFinite(requests) ? ` (${(busy / requests).toFixed(2)} ms per request, ${requests} requests)` : ''}`,
);
console.log(`\nSelf time:\n${list(self)}`);
console.log(`\nInclusive time, frames matching /${pattern}/:\n${list(inclusive)}`);
