#!/usr/bin/env node
'use strict';

/**
 * The floor a node's send path is compared with: the same Profile → Create requests (method, path,
 * headers, body) sent with Node's own fetch, `concurrency` at a time, in a process of its own.
 * With `fresh`, node:http with a connection of its own per request instead (n8n's request helpers
 * build new agents for every request, so no connection is reused).
 * With `helper`, n8n's own request helper (the function `this.helpers.httpRequest` ends in, from the
 * n8n in BENCH_N8N_MODULES, its node_modules) with no node and no workflow around it: what any node
 * sending through n8n's helpers pays at least. `helper-no-redirects` the same with
 * `disableFollowRedirect` (no follow-redirects layer).
 * Usage: node bench/raw-fetch.js URL COUNT CONCURRENCY [fresh|helper|helper-no-redirects]
 * (SANDBOX_API_KEY from the environment)
 * Before the timed requests, BENCH_RAW_WARM_UP (500) of the same requests warm the process up, as
 * n8n is warmed up before its runs are measured.
 * Prints { ms, requests, failed } as JSON.
 */
const http = require('node:http');

const { candidateRow, createBody } = require('./candidates');

/** One POST on a connection of its own (no agent, no keep-alive); the parsed JSON answer. */
function freshPost(url, headers, body) {
	return new Promise((resolve, reject) => {
		const request = http.request(url, { method: 'POST', headers, agent: false }, (response) => {
			const chunks = [];
			response.on('data', (chunk) => chunks.push(chunk));
			response.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString())));
		});
		request.on('error', reject);
		request.end(body);
	});
}

/** n8n's request helper without a node: @n8n/backend-network's axios path (n8n 2.x). */
function n8nHelperPost(noRedirects) {
	const modules = process.env.BENCH_N8N_MODULES;
	if (!modules) throw new Error('BENCH_N8N_MODULES (the n8n node_modules folder) is not set');
	const { httpRequest } = require(
		require('node:path').join(modules, '@n8n/backend-network/dist/http/axios/request.js'),
	);
	return (url, headers, body) =>
		httpRequest({
			method: 'POST',
			url,
			body: JSON.parse(body),
			headers,
			json: true,
			timeout: 60000,
			...(noRedirects ? { disableFollowRedirect: true } : {}),
		});
}

async function main() {
	const [url, count, concurrency] = [
		process.argv[2],
		Number(process.argv[3]),
		Number(process.argv[4]),
	];
	const mode = process.argv[5] ?? '';
	const fresh = mode === 'fresh';
	const helperPost = mode.startsWith('helper')
		? n8nHelperPost(mode === 'helper-no-redirects')
		: null;
	const headers = {
		accept: 'application/json',
		'content-type': 'application/json',
		'x-api-key': process.env.SANDBOX_API_KEY,
	};
	const send = (body) =>
		helperPost
			? helperPost(url, headers, body)
			: fresh
				? freshPost(url, headers, body)
				: fetch(url, { method: 'POST', headers, body }).then((response) => response.json());
	const timed = (total, firstRow) => {
		let next = 0;
		let failed = 0;
		const worker = async () => {
			while (next < total) {
				const json = await send(JSON.stringify(createBody(candidateRow(firstRow + next++))));
				if (json.code !== 0) failed++;
			}
		};
		const started = performance.now();
		return Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker)).then(() => ({
			ms: performance.now() - started,
			failed,
		}));
	};
	const warmUp = Number(process.env.BENCH_RAW_WARM_UP ?? 500);
	if (warmUp > 0) await timed(warmUp, count);
	const { ms, failed } = await timed(count, 0);
	console.log(JSON.stringify({ ms, requests: count, failed }));
}

main().catch((error) => {
	console.error(error.stack || error.message);
	process.exit(1);
});
