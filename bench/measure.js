#!/usr/bin/env node
'use strict';

/**
 * Runs the benchmark cases against a running n8n (started by bench/run.sh) and prints the Markdown table,
 * also written to bench/results/latest.md (and the raw figures to latest.json).
 * Environment: BENCH_N8N_URL, BENCH_N8N_PID (n8n's main process, for RSS), BENCH_RUN_DIR (prepared.json),
 * BENCH_N8N_VERSION, BENCH_N8N_NODE, plus the case configuration of cases.js.
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { N8nClient, sleep } = require('../test/e2e/n8n-client');
const { benchConfig, benchCases, recordedRows } = require('./cases');
const { createProfilePath } = require('./candidates');
const { TARGET, workflowId } = require('./workflows');
const { median, renderReport } = require('./report');

const n8n = new N8nClient(process.env.BENCH_N8N_URL);
const n8nPid = Number(process.env.BENCH_N8N_PID);
const runDir = process.env.BENCH_RUN_DIR;
const prepared = JSON.parse(fs.readFileSync(path.join(runDir, 'prepared.json'), 'utf8'));
/** The node's default Max Concurrent Requests (engine/requestOptions.ts), for raw fetch. */
/** Raw sends (bench/raw-fetch.js): 50 at a time, their fastest setting on the 2-core bench machine. */
const RAW_CONCURRENCY = 50;
const FINISHED = new Set(['success', 'error', 'crashed', 'canceled']);
const N8N_LOG = path.join(runDir, 'n8n.log');
/** The node's own debug line (nodes/CandidateVerification/engine/checkItems.ts, CHECK_LOG_MESSAGE). */
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

const TICK_MS = 1000 / 100; // USER_HZ, 100 on Linux

/** CPU time n8n's main process has used so far, in ms (user + system, Linux /proc). */
function cpuMs() {
	try {
		const stat = fs.readFileSync(`/proc/${n8nPid}/stat`, 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
	} catch {
		return NaN;
	}
}

/** The CPU time used at epoch time `at`, interpolated between two samples [[epochMs, cpuMs], ...]. */
function cpuAt(samples, at) {
	const after = samples.findIndex(([time]) => time >= at);
	if (after <= 0) return after === 0 ? samples[0][1] : samples[samples.length - 1][1];
	const [[t0, c0], [t1, c1]] = [samples[after - 1], samples[after]];
	return c0 + ((c1 - c0) * (at - t0)) / Math.max(1, t1 - t0);
}

/**
 * Probes n8n's /healthz every intervalMs (one at a time) and samples the main process RSS and CPU
 * time; stop() returns the longest time between two answers, the peak RSS and the CPU samples.
 */
function startProbe(intervalMs = 50) {
	let running = true;
	let longestGap = 0;
	let peakRss = rssBytes();
	const cpu = [[Date.now(), cpuMs()]];
	const sampleCpu = setInterval(() => cpu.push([Date.now(), cpuMs()]), 20);
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
		clearInterval(sampleCpu);
		cpu.push([Date.now(), cpuMs()]);
		return { longestGapMs: longestGap, peakRss, cpu };
	};
}

/**
 * The sandbox's own endpoints. Retried: after thousands of connections in a few seconds (a
 * connection per request) a new one can fail for a moment while the kernel recycles ports.
 */
async function sandboxCall(url, method, what, attempts = 5) {
	for (let attempt = 1; ; attempt++) {
		try {
			const response = await fetch(`${url}/__sandbox/${what}`, { method });
			return await response.json();
		} catch (error) {
			if (attempt >= attempts) throw error;
			await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
		}
	}
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
/** The node's record in n8n's deduplication store, filled as if it had sent `rows` rows already. */
function prefillRecord(c, rows) {
	const { spawnSync } = require('node:child_process');
	const node24 = path.join(process.env.CV_NODE24_DIR, 'bin', 'node');
	const args = [
		path.join(__dirname, 'prefill-record.js'),
		process.env.CV_N8N_DIR,
		c.id,
		`${c.id}-n`,
		String(rows),
	];
	const done = spawnSync(node24, args, { encoding: 'utf8', stdio: ['ignore', 'inherit', 'pipe'] });
	if (done.status !== 0) throw new Error(`prefilling ${rows} rows failed: ${done.stderr}`);
}

async function runOnce(c) {
	const sandbox = prepared.sandboxes.find((s) => s.latencyMs === c.latencyMs);
	if (recordedRows(c.variant) > 0) prefillRecord(c, recordedRows(c.variant));
	await sandboxCall(sandbox.url, 'DELETE', 'concurrency');
	await sandboxCall(sandbox.url, 'DELETE', 'requests');
	const rssBefore = rssBytes();
	const logStart = logSize();
	const stopProbe = startProbe();
	const started = performance.now();
	// CLOCK_MONOTONIC, the clock of V8's CPU profiles: bench/profile-summary.js slices a profile by run.
	const monotonicStartUs = Number(process.hrtime.bigint() / 1000n);
	const executionId = await patiently(() => n8n.runManually(c.id, 'Start'), {
		retryUnanswered: false,
	}); // never start a run twice;
	const finished = await waitFinished(executionId, 30 * 60_000);
	const wallMs = performance.now() - started;
	const monotonicEndUs = Number(process.hrtime.bigint() / 1000n);
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
	// When the service saw the first and the last request (its own record, ms), against the node's start.
	const { requests: seen } = await sandboxCall(sandbox.url, 'GET', 'requests');
	const arrivals = seen.map((r) => Date.parse(r.at)).sort((a, b) => a - b);
	const nodeEnd = task ? task.startTime + task.executionTime : NaN;
	const [firstAt, lastAt] = [arrivals[0], arrivals[arrivals.length - 1]];
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
		firstRequestMs: firstAt - task?.startTime,
		requestSpanMs: lastAt - firstAt,
		// n8n's main process CPU over the node's run, per item: everything the node costs.
		nodeCpuPerItemMs: (cpuAt(probe.cpu, nodeEnd) - cpuAt(probe.cpu, task?.startTime)) / c.count,
		// From the first request to the node's end, per request: the send path's cost, except what a
		// node does for its requests before the first one leaves (the HTTP Request node builds them all).
		sendCpuPerRequestMs:
			(cpuAt(probe.cpu, nodeEnd) - cpuAt(probe.cpu, firstAt)) / Math.max(1, arrivals.length),
		runCpuMs: probe.cpu[probe.cpu.length - 1][1] - probe.cpu[0][1],
		monotonicStartUs,
		monotonicEndUs,
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

/**
 * Node's fetch, node:http with a connection per request, and n8n's own request helper with no node
 * around it (with and without its redirect layer): bench/raw-fetch.js.
 */
const RAW_MODES = ['', 'fresh', 'helper', 'helper-no-redirects'];

/** Node's own fetch of the same Profile → Create requests, in a process of its own (Node of n8n). */
async function rawFetch(latencyMs, count, concurrency, mode = '') {
	const sandbox = prepared.sandboxes.find((s) => s.latencyMs === latencyMs);
	await sandboxCall(sandbox.url, 'DELETE', 'requests');
	const out = execFileSync(process.env.BENCH_N8N_NODE_BIN || process.execPath, [
		path.join(__dirname, 'raw-fetch.js'),
		`${sandbox.url}${createProfilePath(sandbox.formId)}`,
		String(count),
		String(concurrency),
		mode,
	]);
	await sandboxCall(sandbox.url, 'DELETE', 'requests');
	return JSON.parse(out.toString());
}

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
					`# ${label(c)} run ${r + 1}/${runs}: node ${Math.round(result.nodeMs)} ms, execution ${result.executionMs} ms, wall ${Math.round(result.wallMs)} ms, first request after ${Math.round(result.firstRequestMs)} ms, first to last ${Math.round(result.requestSpanMs)} ms, CPU ${result.nodeCpuPerItemMs.toFixed(2)} ms/item, send CPU ${result.sendCpuPerRequestMs.toFixed(2)} ms/request, ${result.requests} requests on ${result.connections} connections, ${result.maxInFlight} in flight, longest /healthz gap ${Math.round(result.longestGapMs)} ms, RSS +${Math.round(result.rssGrowth / 1048576)} MB, ${result.status}`,
				);
			}
		}
	}
	const rawFetches = [];
	if (config.rawFetch) {
		const latencyMs = config.latencies[0];
		for (const count of config.sizes) {
			for (let r = 0; r < Math.max(1, config.runs); r++) {
				for (const mode of RAW_MODES) {
					const raw = await rawFetch(latencyMs, count, RAW_CONCURRENCY, mode);
					rawFetches.push({
						latencyMs,
						count,
						mode,
						concurrency: RAW_CONCURRENCY,
						run: r,
						...raw,
					});
					console.log(
						`# raw ${mode || 'fetch'} ${count} requests ${latencyMs} ms: ${Math.round(raw.ms)} ms`,
					);
				}
			}
		}
	}
	const machine = {
		date: new Date().toISOString(),
		cores: os.cpus().length,
		cpu: os.cpus()[0]?.model,
		memoryGiB: Math.round(os.totalmem() / 2 ** 30),
		n8nVersion: process.env.BENCH_N8N_VERSION,
		database: process.env.BENCH_DB || 'sqlite',
		n8nNode: process.env.BENCH_N8N_NODE,
		benchNode: process.version,
		binaryStore: process.env.N8N_BINARY_DATA_STORAGE_PATH?.startsWith('/dev/shm/')
			? 'tmpfs (/dev/shm)'
			: 'disk',
		loadStart,
		loadEnd: os.loadavg(),
	};
	const report = renderReport({ machine, config, results, rawFetches, median });
	const outDir = path.join(__dirname, 'results');
	fs.mkdirSync(outDir, { recursive: true });
	fs.writeFileSync(path.join(outDir, 'latest.md'), report);
	fs.writeFileSync(
		path.join(outDir, 'latest.json'),
		JSON.stringify({ machine, config, results, rawFetches }, null, 2),
	);
	console.log(`\n${report}`);
}

main().catch((error) => {
	console.error(error.stack || error.message);
	process.exit(1);
});
