#!/usr/bin/env node
'use strict';

/**
 * The floor a node's send path is compared with: the same Profile → Create requests (method, path,
 * headers, body) sent with Node's own fetch, `concurrency` at a time, in a process of its own.
 * With `fresh`, node:http with a connection of its own per request instead (n8n's request helpers
 * build new agents for every request, so no connection is reused).
 * Usage: node bench/raw-fetch.js URL COUNT CONCURRENCY [fresh]   (SANDBOX_API_KEY from the environment)
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

async function main() {
	const [url, count, concurrency] = [
		process.argv[2],
		Number(process.argv[3]),
		Number(process.argv[4]),
	];
	const fresh = process.argv[5] === 'fresh';
	const headers = {
		accept: 'application/json',
		'content-type': 'application/json',
		'x-api-key': process.env.SANDBOX_API_KEY,
	};
	let next = 0;
	let failed = 0;
	const started = performance.now();
	const worker = async () => {
		while (next < count) {
			const body = JSON.stringify(createBody(candidateRow(next++)));
			const json = fresh
				? await freshPost(url, headers, body)
				: await (await fetch(url, { method: 'POST', headers, body })).json();
			if (json.code !== 0) failed++;
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
	console.log(JSON.stringify({ ms: performance.now() - started, requests: count, failed }));
}

main().catch((error) => {
	console.error(error.stack || error.message);
	process.exit(1);
});
