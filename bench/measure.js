#!/usr/bin/env node
'use strict';

/**
 * Runs the benchmark cases against a running n8n (started by bench/run.sh) and prints the Markdown table,
 * also written to bench/results/latest.md (and the raw figures to latest.json).
 * Environment: BENCH_N8N_URL, BENCH_N8N_PID (n8n's main process, for RSS), BENCH_RUN_DIR (prepared.json),
 * BENCH_N8N_VERSION, BENCH_N8N_NODE, plus the case configuration of cases.js.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { N8nClient, sleep } = require('../test/e2e/n8n-client');
const { benchConfig, benchCases } = require('./cases');
const { TARGET, workflowId } = require('./workflows');
const { median, renderReport } = require('./report');

const n8n = new N8nClient(process.env.BENCH_N8N_URL);
const n8nPid = Number(process.env.BENCH_N8N_PID);
const runDir = process.env.BENCH_RUN_DIR;
const prepared = JSON.parse(fs.readFileSync(path.join(runDir, 'prepared.json'), 'utf8'));
const FINISHED = new Set(['success', 'error', 'crashed', 'canceled']);
const N8N_LOG = path.join(runDir, 'n8n.log');
/** The node's own debug line (nodes/CandidateVerification/engine/runOperation.ts, CHECK_LOG_MESSAGE). */
const CHECK_LINE = /Candidate Verification: all-items check of (\d+) items in (\d+) ms/g;

function logSize() {
	try {
		return fs.statSync(N8N_LOG).size;
	} catch {
		return 0;
	}
}

/** n8n's log from `offset` on, and the time the all-items checks it reports took. */
function logSince(offset) {
	let text = '';
	try {
		const fd = fs.openSync(N8N_LOG, 'r');
		const size = fs.fstatSync(fd).size;
		const buffer = Buffer.alloc(Math.max(0, size - offset));
		fs.readSync(fd, buffer, 0, buffer.length, offset);
		fs.closeSync(fd);
		text = buffer.toString('utf8');
	} catch {
		// no log: the check's cost is reported as n/a
	}
	const checks = [...text.matchAll(CHECK_LINE)];
	return {
		checkMs: checks.length ? checks.reduce((sum, m) => sum + Number(m[2]), 0) : NaN,
	};
}

/** The resident set of n8n's main process in bytes (Linux /proc). */
function rssBytes() {
	try {
		const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${n8nPid}/status`, 'utf8'));
		return match ? Number(match[1]) * 1024 : NaN;
	} catch {
		return NaN;
	}
}

/**
 * Probes n8n's /healthz every intervalMs (one at a time) and samples the main process RSS;
 * stop() returns the longest time between two answers and the peak RSS.
 */
function startProbe(intervalMs = 50) {
	let running = true;
	let longestGap = 0;
	let peakRss = rssBytes();
	let last = performance.now();
	const loop = (async () => {
		while (running) {
			const sent = performance.now();
			let answered = true;
			try {
				await fetch(`${n8n.baseUrl}/healthz`, { signal: AbortSignal.timeout(30_000) });
			} catch {
				answered = false; // the gap goes on until a probe is answered
			}
			const now = performance.now();
			longestGap = Math.max(longestGap, now - last);
			if (answered) last = now;
			peakRss = Math.max(peakRss, rssBytes() || 0);
			await sleep(Math.max(0, intervalMs - (now - sent)));
		}
	})();
	return async () => {
		running = false;
		await loop;
		return { longestGapMs: longestGap, peakRss };
	};
}

async function sandboxCall(url, method, what) {
	const response = await fetch(`${url}/__sandbox/${what}`, { method });
	return response.json();
}

/**
 * fn() again while n8n answers 503 (its database ping fails while the main process is stalled) or not at all
 * (a stall past fetch's connect timeout, unless retryUnanswered is false); other errors are thrown. 404 is retried when retry404 is set.
 */
async function patiently(
	fn,
	{ retry404 = false, retryUnanswered = true, timeoutMs = 10 * 60_000 } = {},
) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		try {
			return await fn();
		} catch (error) {
			const transient =
				(retryUnanswered && error.status === undefined) ||
				error.status === 503 ||
				(retry404 && error.status === 404);
			if (!transient || Date.now() > deadline) throw error;
		}
		await sleep(100);
	}
}

async function waitFinished(executionId, timeoutMs) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const execution = await patiently(() => n8n.api('GET', `/executions/${executionId}`), {
			retry404: true,
		});
		if (FINISHED.has(execution.status)) return execution;
		if (Date.now() > deadline)
			throw new Error(`execution ${executionId} did not finish within ${timeoutMs} ms`);
		await sleep(100);
	}
}

/** One run of one case: n8n's own times, wall clock, sandbox concurrency, /healthz gap, RSS growth. */
async function runOnce(c) {
	const sandbox = prepared.sandboxes.find((s) => s.latencyMs === c.latencyMs);
	await sandboxCall(sandbox.url, 'DELETE', 'concurrency');
	await sandboxCall(sandbox.url, 'DELETE', 'requests');
	const rssBefore = rssBytes();
	const logStart = logSize();
	const stopProbe = startProbe();
	const started = performance.now();
	const executionId = await patiently(() => n8n.runManually(c.id, 'Start'), {
		retryUnanswered: false,
	}); // never start a run twice;
	const finished = await waitFinished(executionId, 30 * 60_000);
	const wallMs = performance.now() - started;
	const probe = await stopProbe();
	const { maxInFlight, requests, connections } = await sandboxCall(
		sandbox.url,
		'GET',
		'concurrency',
	);
	const execution = await patiently(() =>
		n8n.api('GET', `/executions/${executionId}?includeData=true`),
	);
	const task = execution.data.resultData.runData[TARGET]?.[0];
	const items = task?.data?.main?.[0] ?? [];
	const result = {
		status: finished.status,
		executionMs: new Date(execution.stoppedAt) - new Date(execution.startedAt),
		nodeMs: task ? task.executionTime : NaN,
		wallMs,
		outputItems: items.length,
		requests,
		connections,
		maxInFlight,
		longestGapMs: probe.longestGapMs,
		rssGrowth: probe.peakRss - rssBefore,
		checkMs: logSince(logStart).checkMs,
		error: task?.error?.message,
	};
	if (c.op === 'upload') {
		const uploaded = (await sandboxCall(sandbox.url, 'GET', 'state')).files?.find(
			(file) => file.url === items[0]?.json?.fileUrl,
		);
		result.bytes = uploaded?.size;
	}
	if (c.op === 'download') {
		const binary = items[0]?.binary?.data;
		result.bytes = items[0]?.json?.bytes ?? binary?.bytes ?? binary?.fileSize;
	}
	return result;
}

const label = (c) => `${c.op} ${c.variant} ${c.count} items ${c.latencyMs} ms`;

async function main() {
	const config = benchConfig();
	const cases = benchCases(config).map((c) => ({
		...c,
		id: workflowId(c.op, c.variant, c.latencyMs, c.count),
	}));
	await n8n.ownerSession({ email: 'bench@example.com', password: 'Bench-password-1' });
	await n8n.createApiKey(`bench ${Date.now()}`);

	// Warm-up: n8n loads node types and compiles on first use; one small run of each kind, not measured.
	console.log('# warm-up (not measured)');
	for (const warmUp of cases.filter((c) => c.runs === 0)) await runOnce(warmUp);

	const results = [];
	const groups = new Map();
	for (const c of cases.filter((measured) => measured.runs > 0)) {
		const key = `${c.op}|${c.latencyMs}|${c.count}`;
		if (!groups.has(key)) groups.set(key, []);
		groups.get(key).push(c);
	}
	const loadStart = os.loadavg();
	for (const group of groups.values()) {
		const runs = Math.max(...group.map((c) => c.runs));
		for (let r = 0; r < runs; r++) {
			// Interleaved: node, HTTP Request, then HTTP Request, node, ...
			const order = r % 2 === 0 ? group : [...group].reverse();
			for (const c of order) {
				const result = await runOnce(c);
				results.push({ ...c, run: r, ...result });
				console.log(
					`# ${label(c)} run ${r + 1}/${runs}: node ${Math.round(result.nodeMs)} ms, execution ${result.executionMs} ms, wall ${Math.round(result.wallMs)} ms, ${result.requests} requests on ${result.connections} connections, ${result.maxInFlight} in flight, longest /healthz gap ${Math.round(result.longestGapMs)} ms, RSS +${Math.round(result.rssGrowth / 1048576)} MB, ${result.status}`,
				);
			}
		}
	}
	const machine = {
		date: new Date().toISOString(),
		cores: os.cpus().length,
		cpu: os.cpus()[0]?.model,
		memoryGiB: Math.round(os.totalmem() / 2 ** 30),
		n8nVersion: process.env.BENCH_N8N_VERSION,
		n8nNode: process.env.BENCH_N8N_NODE,
		benchNode: process.version,
		binaryStore: process.env.N8N_BINARY_DATA_STORAGE_PATH?.startsWith('/dev/shm/')
			? 'tmpfs (/dev/shm)'
			: 'disk',
		loadStart,
		loadEnd: os.loadavg(),
	};
	const report = renderReport({ machine, config, results, median });
	const outDir = path.join(__dirname, 'results');
	fs.mkdirSync(outDir, { recursive: true });
	fs.writeFileSync(path.join(outDir, 'latest.md'), report);
	fs.writeFileSync(
		path.join(outDir, 'latest.json'),
		JSON.stringify({ machine, config, results }, null, 2),
	);
	console.log(`\n${report}`);
}

main().catch((error) => {
	console.error(error.stack || error.message);
	process.exit(1);
});
