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
		rssGrowth: Math.max(...runs.map((r) => r.rssGrowth)),
		allArrived: runs.every(
			(r) => r.status === 'success' && r.requests === count && r.outputItems === count,
		),
		runsList: runs,
	};
}

function bulkTable(results, config) {
	const lines = [
		'| Operation | Items | Provider latency | HTTP Request node | This node (Map Automatically) | **Ratio** (target ≤ 1.0×) | Execution ratio (startedAt→stoppedAt) | Wall-clock ratio | Most in flight (node / HTTP) | Longest /healthz gap (node / HTTP) | Every item sent and output | Runs |',
		'|---|---|---|---|---|---|---|---|---|---|---|---|',
	];
	for (const latencyMs of config.latencies) {
		for (const [op, sizes] of [
			['create', config.sizes],
			['submit', config.submitSizes],
		]) {
			for (const count of sizes) {
				const node = summarize(results, op, 'node', latencyMs, count);
				const http = summarize(results, op, 'http', latencyMs, count);
				if (!node.runs || !http.runs) continue;
				lines.push(
					`| ${OPERATION[op]} | ${count} | ${latencyMs} ms | ${seconds(http.nodeMs)} | ${seconds(node.nodeMs)} | **${ratio(node.nodeMs, http.nodeMs)}** | ${ratio(node.executionMs, http.executionMs)} | ${ratio(node.wallMs, http.wallMs)} | ${node.maxInFlight} / ${http.maxInFlight} | ${millis(node.longestGapMs)} / ${millis(http.longestGapMs)} (${ratio(node.longestGapMs, http.longestGapMs)}) | ${node.allArrived && http.allArrived ? 'yes' : 'NO'} | ${node.runs} + ${http.runs} |`,
				);
			}
		}
	}
	return lines.join('\n');
}

/** The node with every field mapped by its own expression, against the same HTTP Request runs. */
function manualTable(results, config) {
	const lines = [
		'| Profile → Create, Map Each Field Below (7 expressions per item) | Items | Provider latency | HTTP Request node | This node | **Ratio** (target ≤ 1.0×) | Longest /healthz gap (node / HTTP) |',
		'|---|---|---|---|---|---|---|',
	];
	for (const latencyMs of config.latencies) {
		for (const count of config.manualSizes ?? []) {
			const manual = summarize(results, 'create', 'manual', latencyMs, count);
			const http = summarize(results, 'create', 'http', latencyMs, count);
			if (!manual.runs || !http.runs) continue;
			lines.push(
				`| ${manual.allArrived ? 'every item sent and output' : 'NOT every item sent'} | ${count} | ${latencyMs} ms | ${seconds(http.nodeMs)} | ${seconds(manual.nodeMs)} | ${ratio(manual.nodeMs, http.nodeMs)} | ${millis(manual.longestGapMs)} / ${millis(http.longestGapMs)} |`,
			);
		}
	}
	return lines.length > 2 ? lines.join('\n') : '';
}

/** What the all-items check costs in a valid run, from the node's own debug line in n8n's log. */
function checkCostTable(results, config) {
	const lines = [
		'| All-items check (before any request leaves) | Items | Provider latency | Check | Node run | **Share of the run** (target ≤ 10% with Map Automatically; with expressions the check is where they are evaluated, once per item) |',
		'|---|---|---|---|---|---|',
	];
	for (const latencyMs of config.latencies) {
		for (const [variant, name] of [
			['node', 'Profile → Create, Map Automatically'],
			['manual', 'Profile → Create, Map Each Field Below'],
		]) {
			for (const count of config.sizes) {
				const run = summarize(results, 'create', variant, latencyMs, count);
				if (!run.runs) continue;
				const share = run.checkMs / run.nodeMs;
				lines.push(
					`| ${name} | ${count} | ${latencyMs} ms | ${millis(run.checkMs)} | ${seconds(run.nodeMs)} | **${Number.isFinite(share) ? `${(100 * share).toFixed(1)}%` : 'n/a'}** |`,
				);
			}
		}
	}
	return lines.join('\n');
}

function perItemTable(results, config) {
	if (config.sizes.length < 2) return '';
	const [smallest, largest] = [Math.min(...config.sizes), Math.max(...config.sizes)];
	const lines = [
		`| Profile → Create, per item | Provider latency | ${config.sizes.map((n) => `${n} items`).join(' | ')} | Flatness (${largest} / ${smallest}) |`,
		`|---|---|${config.sizes.map(() => '---|').join('')}---|`,
	];
	for (const latencyMs of config.latencies) {
		for (const variant of ['node', 'http']) {
			const perItem = config.sizes.map(
				(count) => summarize(results, 'create', variant, latencyMs, count).nodeMs / count,
			);
			const name = variant === 'node' ? 'This node' : 'HTTP Request node';
			lines.push(
				`| ${name} | ${latencyMs} ms | ${perItem.map((ms) => `${ms.toFixed(2)} ms`).join(' | ')} | ${ratio(perItem[perItem.length - 1], perItem[0])} |`,
			);
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
			? `no request sent; the check itself took ${millis(bad.checkMs)}`
			: `**no all-items check**: ${bad.requests} of ${bad.count} requests were sent before the last item failed the run`;
	return [
		'| All-items check, invalid last item | Items | Valid run (median) | Run whose last item is invalid | Result |',
		'|---|---|---|---|---|',
		`| Profile → Create, last item's email invalid | ${bad.count} | ${seconds(valid.nodeMs)} | ${seconds(bad.nodeMs)} (${bad.status}) | ${verdict} |`,
	].join('\n');
}

function renderReport({ machine, config, results }) {
	const load = (l) => l.map((v) => v.toFixed(2)).join(' ');
	return [
		"# Benchmark: this package against n8n's HTTP Request node",
		'',
		`${machine.date} · ${machine.cores} cores (${machine.cpu}), ${machine.memoryGiB} GiB · n8n ${machine.n8nVersion} on Node ${machine.n8nNode} · bench on Node ${machine.benchNode.replace(/^v/, '')}`,
		`Load average at start ${load(machine.loadStart)}, at end ${load(machine.loadEnd)}: the machine is shared with other work, so absolute times are noisy; compare the ratios (both variants run interleaved in the same n8n).`,
		`Runs per case: ${config.runs} (${config.runsLarge} at 5000 items and more)${config.quick ? ' — quick mode' : ''}. Times are the node\'s executionTime from n8n\'s execution record (medians); the execution ratio uses the execution\'s startedAt/stoppedAt, the wall-clock ratio the time from the run request to the finished execution.`,
		'',
		bulkTable(results, config),
		'',
		perItemTable(results, config),
		'',
		checkCostTable(results, config),
		'',
		manualTable(results, config),
		'',
		downloadTable(results, config, machine),
		'',
		uploadTable(results, config, machine),
		'',
		preflightTable(results, config),
		'',
		"Most in flight: the sandbox's count of requests being answered at once. Longest /healthz gap: the longest time between two answers of a probe sent every 50 ms to n8n's main process during the run (stall).",
		'',
	]
		.filter((line, index, all) => !(line === '' && all[index - 1] === ''))
		.join('\n');
}

module.exports = { median, renderReport };
