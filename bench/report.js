'use strict';

/** Turns the raw runs into the Markdown report (medians and node / HTTP Request ratios). */

function median(values) {
	const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
	if (sorted.length === 0) return NaN;
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const seconds = (ms) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : 'n/a');
const millis = (ms) => (Number.isFinite(ms) ? `${Math.round(ms)} ms` : 'n/a');
const ratio = (a, b) => (Number.isFinite(a / b) ? `${(a / b).toFixed(2)}×` : 'n/a');
const mebibytes = (bytes) => (Number.isFinite(bytes) ? `${Math.round(bytes / 1048576)} MB` : 'n/a');
const OPERATION = {
	create: 'Profile → Create',
	submit: 'Verification → Submit',
	download: 'File → Download',
	upload: 'File → Upload',
};

/** Medians of one case's runs. */
function summarize(results, op, variant, latencyMs, count) {
	const runs = results.filter(
		(r) => r.op === op && r.variant === variant && r.latencyMs === latencyMs && r.count === count,
	);
	const pick = (key) => median(runs.map((r) => r[key]));
	return {
		runs: runs.length,
		nodeMs: pick('nodeMs'),
		executionMs: pick('executionMs'),
		wallMs: pick('wallMs'),
		maxInFlight: Math.max(...runs.map((r) => r.maxInFlight)),
		longestGapMs: pick('longestGapMs'),
		checkMs: pick('checkMs'),
		firstRequestMs: pick('firstRequestMs'),
		requestSpanMs: pick('requestSpanMs'),
		nodeCpuPerItemMs: pick('nodeCpuPerItemMs'),
		sendCpuPerRequestMs: pick('sendCpuPerRequestMs'),
		rssGrowth: Math.max(...runs.map((r) => r.rssGrowth)),
		allArrived: runs.every(
			(r) => r.status === 'success' && r.requests === count && r.outputItems === count,
		),
		runsList: runs,
	};
}

const MAPPING = {
	node: 'Map Automatically',
	manual: 'every field by an expression',
	manual3: '3 fields by expressions',
};
/** The leanest HTTP Request setup each node variant is compared with (same request bodies). */
const LEAN_OF = { node: 'lean', manual: 'lean', manual3: 'lean3' };
const ms2 = (ms) => (Number.isFinite(ms) ? ms.toFixed(2) : 'n/a');

/** Every node variant against the leanest HTTP Request setup and against the bench's first one. */
function bulkTable(results, config) {
	const lines = [
		"| Operation | Mapping | Items | Provider latency | Leanest HTTP Request | Today's HTTP Request | This node | **Ratio to leanest** (target ≤ 0.7×) | Ratio to today's | First request after, ms (node / leanest / today's) | First to last request, ms (node / leanest / today's) | n8n CPU per item, ms (node / leanest / today's) | CPU per request after the first, ms (node / leanest / today's) | Longest /healthz gap, ms (node / leanest / today's) | Most in flight (node / leanest) | Every item sent and output | Runs |",
		'|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
	];
	for (const latencyMs of config.latencies) {
		for (const [op, sizes] of [
			['create', config.sizes],
			['submit', config.submitSizes],
		]) {
			for (const count of sizes) {
				for (const variant of ['node', 'manual', 'manual3']) {
					const node = summarize(results, op, variant, latencyMs, count);
					const lean = summarize(results, op, LEAN_OF[variant], latencyMs, count);
					const today = summarize(results, op, 'http', latencyMs, count);
					if (!node.runs || !lean.runs) continue;
					const three = (key, format = millis) =>
						[node, lean, today]
							.map((run) => (run.runs ? format(run[key]).replace(' ms', '') : '–'))
							.join(' / ');
					const allArrived =
						node.allArrived && lean.allArrived && (!today.runs || today.allArrived);
					lines.push(
						`| ${OPERATION[op]} | ${MAPPING[variant]} | ${count} | ${latencyMs} ms | ${seconds(lean.nodeMs)} | ${today.runs ? seconds(today.nodeMs) : '–'} | ${seconds(node.nodeMs)} | **${ratio(node.nodeMs, lean.nodeMs)}** | ${today.runs ? ratio(node.nodeMs, today.nodeMs) : '–'} | ${three('firstRequestMs')} | ${three('requestSpanMs')} | ${three('nodeCpuPerItemMs', ms2)} | ${three('sendCpuPerRequestMs', ms2)} | ${three('longestGapMs')} | ${node.maxInFlight} / ${lean.maxInFlight} | ${allArrived ? 'yes' : 'NO'} | ${node.runs} + ${lean.runs}${today.runs ? ` + ${today.runs}` : ''} |`,
					);
				}
			}
		}
	}
	return lines.join('\n');
}

/**
 * Duplicate protection (on by default) against the same node with it Off, and with 10,000 and
 * 100,000 rows already recorded for the node: what it adds to a run.
 */
function protectionTable(results, config) {
	const count = config.protectionSize;
	if (!count) return '';
	const lines = [
		`| Duplicate protection, Profile → Create, Map Automatically | Items | Provider latency | Rows recorded before the run | Protection on | Protection Off | **Share of the run** (on − Off) / on | Leanest HTTP Request | Protection on / leanest |`,
		'|---|---|---|---|---|---|---|---|---|',
	];
	for (const latencyMs of config.latencies) {
		const off = summarize(results, 'create', 'protectionOff', latencyMs, count);
		const lean = summarize(results, 'create', 'lean', latencyMs, count);
		for (const variant of ['node', 'recorded10000', 'recorded100000']) {
			const on = summarize(results, 'create', variant, latencyMs, count);
			if (!on.runs || !off.runs) continue;
			const recorded =
				variant === 'node'
					? 'those of the earlier runs (≤ 10,000)'
					: Number(variant.slice(8)).toLocaleString('en');
			const share = Number.isFinite(on.nodeMs / off.nodeMs)
				? `${(100 * (1 - off.nodeMs / on.nodeMs)).toFixed(1)}%`
				: 'n/a';
			lines.push(
				`| | ${count} | ${latencyMs} ms | ${recorded} | ${seconds(on.nodeMs)} | ${seconds(off.nodeMs)} | **${share}** | ${lean.runs ? seconds(lean.nodeMs) : '–'} | ${lean.runs ? ratio(on.nodeMs, lean.nodeMs) : '–'} |`,
			);
		}
	}
	return lines.join('\n');
}

/**
 * The floors of any send path: Node's own fetch, node:http with a connection per request, and n8n's
 * request helper alone (no node, no workflow), with and without its redirect layer.
 */
function rawFetchTable(results, config, rawFetches = []) {
	if (rawFetches.length === 0) return '';
	const lines = [
		`| Profile → Create at ${config.latencies[0]} ms, 50 at a time | Items | Raw Node fetch (keep-alive) | Raw node:http, a connection per request | n8n's request helper alone (no node) | The same without redirects (this node's requests) | This node, Map Automatically | **Ratio to raw fetch** (target ≤ 1.2×) | Ratio to n8n's helper alone, without redirects | n8n's helper alone / raw fetch | 3 fields by expressions | Ratio to raw fetch | Leanest HTTP Request | Ratio to raw fetch |`,
		'|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
	];
	for (const count of config.sizes) {
		const rawOf = (mode) =>
			median(rawFetches.filter((r) => r.count === count && r.mode === mode).map((r) => r.ms));
		const [raw, fresh, helper, helperNoRedirects] = [
			'',
			'fresh',
			'helper',
			'helper-no-redirects',
		].map(rawOf);
		const of = (variant) =>
			summarize(results, 'create', variant, config.latencies[0], count).nodeMs;
		lines.push(
			`| same requests | ${count} | ${seconds(raw)} | ${seconds(fresh)} | ${seconds(helper)} | ${seconds(helperNoRedirects)} | ${seconds(of('node'))} | **${ratio(of('node'), raw)}** | ${ratio(of('node'), helperNoRedirects)} | ${ratio(helper, raw)} | ${seconds(of('manual3'))} | ${ratio(of('manual3'), raw)} | ${seconds(of('lean'))} | ${ratio(of('lean'), raw)} |`,
		);
	}
	return lines.join('\n');
}

/** What the all-items check costs in a valid run, from the node's own debug line in n8n's log. */
function checkCostTable(results, config) {
	const lines = [
		"| All-items check (before any request leaves) | Items | Provider latency | Check (its debug line; at n8n's default log level the time to the first request, which the check takes up) | Node run | **Share of the run** (target ≤ 10% with Map Automatically; with expressions the check is where they are evaluated, once per item) |",
		'|---|---|---|---|---|---|',
	];
	for (const latencyMs of config.latencies) {
		for (const variant of ['node', 'manual', 'manual3']) {
			for (const count of config.sizes) {
				const run = summarize(results, 'create', variant, latencyMs, count);
				if (!run.runs) continue;
				const checkMs = Number.isFinite(run.checkMs) ? run.checkMs : run.firstRequestMs;
				const share = checkMs / run.nodeMs;
				lines.push(
					`| Profile → Create, ${MAPPING[variant]} | ${count} | ${latencyMs} ms | ${millis(checkMs)}${Number.isFinite(run.checkMs) ? '' : ' (to the first request)'} | ${seconds(run.nodeMs)} | **${Number.isFinite(share) ? `${(100 * share).toFixed(1)}%` : 'n/a'}** |`,
				);
			}
		}
	}
	return lines.join('\n');
}

function perItemTable(results, config) {
	if (config.sizes.length < 2) return '';
	const [smallest, largest] = [Math.min(...config.sizes), Math.max(...config.sizes)];
	const sizeColumns = (what) => config.sizes.map((n) => `${what}, ${n} items`).join(' | ');
	const lines = [
		`| Per item | Provider latency | ${sizeColumns('time')} | **Flatness (${largest} / ${smallest})** (target ≤ 1.2× for this node) | ${sizeColumns('n8n CPU')} | CPU flatness |`,
		`|---|---|${config.sizes.map(() => '---|').join('')}---|${config.sizes.map(() => '---|').join('')}---|`,
	];
	const names = {
		node: 'This node, Map Automatically',
		manual: 'This node, every field by an expression',
		manual3: 'This node, 3 fields by expressions',
		lean: 'Leanest HTTP Request',
		lean3: 'Leanest HTTP Request, 3 fields',
		http: "Today's HTTP Request",
	};
	for (const [op, sizes] of [
		['create', config.sizes],
		['submit', config.submitSizes],
	]) {
		if (sizes.length < 2) continue;
		for (const latencyMs of config.latencies) {
			for (const [variant, name] of Object.entries(names)) {
				const runs = sizes.map((count) => summarize(results, op, variant, latencyMs, count));
				const perItem = runs.map((run, i) => run.nodeMs / sizes[i]);
				const cpu = runs.map((run) => run.nodeCpuPerItemMs);
				if (!perItem.some(Number.isFinite)) continue;
				const last = perItem.length - 1;
				lines.push(
					`| ${OPERATION[op]}, ${name} | ${latencyMs} ms | ${perItem.map((ms) => `${ms.toFixed(2)} ms`).join(' | ')} | ${ratio(perItem[last], perItem[0])} | ${cpu.map((ms) => `${ms2(ms)} ms`).join(' | ')} | ${ratio(cpu[last], cpu[0])} |`,
				);
			}
		}
	}
	return lines.join('\n');
}

function downloadTable(results, config, machine) {
	const latencyMs = config.latencies[0];
	const node = summarize(results, 'download', 'node', latencyMs, 1);
	const http = summarize(results, 'download', 'http', latencyMs, 1);
	if (!node.runs || !http.runs) return '';
	const size = config.fileMiB * 1048576;
	const throughput = (ms) => `${(size / 1048576 / (ms / 1000)).toFixed(0)} MiB/s`;
	const complete = node.runsList.every((r) => r.status === 'success' && Number(r.bytes) === size);
	return [
		`| File → Download, ${config.fileMiB} MiB, filesystem binary mode (store on ${machine.binaryStore ?? 'disk'}) | HTTP Request node | This node | Ratio |`,
		'|---|---|---|---|',
		`| Time (median) | ${seconds(http.nodeMs)} | ${seconds(node.nodeMs)} | ${ratio(node.nodeMs, http.nodeMs)} |`,
		`| Throughput (target ≥ 1.0× of HTTP Request) | ${throughput(http.nodeMs)} | ${throughput(node.nodeMs)} | **${ratio(http.nodeMs, node.nodeMs)}** |`,
		`| n8n main process RSS growth (target ≤ 64 MB; largest of the runs) | ${mebibytes(http.rssGrowth)} | ${mebibytes(node.rssGrowth)} | |`,
		`| Longest /healthz gap | ${millis(http.longestGapMs)} | ${millis(node.longestGapMs)} | |`,
		`| Every byte stored (${size} bytes) | | ${complete ? 'yes' : 'NO'} | |`,
	].join('\n');
}

function uploadTable(results, config, machine) {
	const node = summarize(results, 'upload', 'node', config.latencies[0], 1);
	if (!node.runs) return '';
	const size = config.uploadMiB * 1048576;
	const complete = node.runsList.every((r) => r.status === 'success' && Number(r.bytes) === size);
	return [
		`| File → Upload, ${config.uploadMiB} MiB from n8n's binary store (filesystem mode, on ${machine.binaryStore ?? 'disk'}); the run first downloads the file into the store | This node |`,
		'|---|---|',
		`| Time of the upload (median) | ${seconds(node.nodeMs)} |`,
		`| Throughput | ${(config.uploadMiB / (node.nodeMs / 1000)).toFixed(0)} MiB/s |`,
		`| n8n main process RSS growth during the run (download, then upload; largest of ${node.runs} runs) | ${mebibytes(node.rssGrowth)} |`,
		`| Longest /healthz gap | ${millis(node.longestGapMs)} |`,
		`| Every byte received by the service (${size} bytes) | ${complete ? 'yes' : 'NO'} |`,
	].join('\n');
}

function preflightTable(results, config) {
	const bad = results.find((r) => r.op === 'preflight');
	if (!bad) return '';
	const valid = summarize(results, 'create', 'node', bad.latencyMs, bad.count);
	const verdict =
		bad.requests === 0
			? `no request sent; ${Number.isFinite(bad.checkMs) ? `the check itself took ${millis(bad.checkMs)}` : `the node ran ${millis(bad.nodeMs)}`}`
			: `**no all-items check**: ${bad.requests} of ${bad.count} requests were sent before the last item failed the run`;
	return [
		'| All-items check, invalid last item | Items | Valid run (median) | Run whose last item is invalid | Result |',
		'|---|---|---|---|---|',
		`| Profile → Create, last item's email invalid | ${bad.count} | ${seconds(valid.nodeMs)} | ${seconds(bad.nodeMs)} (${bad.status}) | ${verdict} |`,
	].join('\n');
}

function renderReport({ machine, config, results, rawFetches }) {
	const load = (l) => l.map((v) => v.toFixed(2)).join(' ');
	return [
		"# Benchmark: this package against n8n's HTTP Request node",
		'',
		`${machine.date} · ${machine.cores} cores (${machine.cpu}), ${machine.memoryGiB} GiB · n8n ${machine.n8nVersion} on Node ${machine.n8nNode}${machine.database ? ` (database: ${machine.database})` : ''} · bench on Node ${machine.benchNode.replace(/^v/, '')}`,
		`Load average at start ${load(machine.loadStart)}, at end ${load(machine.loadEnd)}: the machine is shared with other work, so absolute times are noisy; compare the ratios (all variants run interleaved in the same n8n).`,
		`Runs per case: ${config.runs} (${config.runsLarge} at 5000 items and more)${config.quick ? ' — quick mode' : ''}. Times are the node\'s executionTime from n8n\'s execution record (medians).`,
		'',
		bulkTable(results, config),
		'',
		rawFetchTable(results, config, rawFetches),
		'',
		protectionTable(results, config),
		'',
		perItemTable(results, config),
		'',
		checkCostTable(results, config),
		'',
		downloadTable(results, config, machine),
		'',
		uploadTable(results, config, machine),
		'',
		preflightTable(results, config),
		'',
		"Leanest HTTP Request: n8n's HTTP Request node at its latest version, the key from a Header Auth credential, the body `={{ $json }}` over items a Code node prepared (3 fields for the 3-field rows). Today's: version 4.2, the key as a plain header, the body built by a `JSON.stringify({...})` expression. First request after: from the node's start to the service's first request; first to last request: between the service's first and last request (its own record). n8n CPU per item: n8n's main process CPU time (user + system, sampled every 20 ms) over the node's run, divided by the items. CPU per request after the first: the same from the first request to the node's end, divided by the requests (it leaves out what a node does for its requests before the first one leaves: the HTTP Request node builds every request before any leaves). Most in flight: the sandbox's count of requests being answered at once. Longest /healthz gap: the longest time between two answers of a probe sent every 50 ms to n8n's main process during the run (stall).",
		'',
	]
		.filter((line, index, all) => !(line === '' && all[index - 1] === ''))
		.join('\n');
}

module.exports = { median, renderReport };

// node bench/report.js RUN.json: the tables of a run again (e.g. after a change to this file).
if (require.main === module) {
	const run = JSON.parse(require('node:fs').readFileSync(process.argv[2], 'utf8'));
	console.log(renderReport(run));
}
