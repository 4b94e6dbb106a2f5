#!/usr/bin/env node
'use strict';

/**
 * Before n8n starts: creates a form (and the transactions Verification → Submit needs) in each sandbox, then
 * writes the credentials file and one workflow file per benchmark case for `n8n import:*`.
 * Usage: node bench/prepare.js OUT_DIR   (configuration from the environment, see cases.js)
 * Environment: BENCH_SANDBOXES = JSON [{ latencyMs, url }], SANDBOX_API_KEY, SANDBOX_ORG_ID.
 */
const fs = require('node:fs');
const path = require('node:path');

const { benchConfig, benchCases } = require('./cases');
const { benchWorkflows } = require('./workflows');

const V = '/verification/api/1.0';
const apiKey = process.env.SANDBOX_API_KEY;
/** The Header Auth credential of the leanest HTTP Request setup (n8n credential IDs are 16 characters). */
const HEADER_AUTH_CREDENTIAL_ID = 'cvBenchHdrAuth01';
const orgId = process.env.SANDBOX_ORG_ID;

/** A POST of the set-up; a connection the sandbox dropped under load (keep-alive race) is tried again. */
async function post(url, body, attempt = 0) {
	let response;
	try {
		response = await fetch(url, {
			method: 'POST',
			headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
	} catch (error) {
		if (attempt >= 3) throw error;
		return post(url, body, attempt + 1);
	}
	const json = await response.json();
	if (json.code !== 0) throw new Error(`POST ${new URL(url).pathname}: ${json.message}`);
	return json.data;
}

/** Runs task(i) for i < count, `width` at a time. */
async function pool(count, width, task) {
	const results = new Array(count);
	let next = 0;
	await Promise.all(
		Array.from({ length: Math.min(width, count) }, async () => {
			while (next < count) {
				const i = next++;
				results[i] = await task(i);
			}
		}),
	);
	return results;
}

/** A private file of the upload's size, for the workflow to download before it uploads it. */
async function addUploadSource(url, mib) {
	const response = await fetch(`${url}/__sandbox/files`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({
			sizeBytes: mib * 1048576,
			filename: 'upload-source.pdf',
			contentType: 'application/pdf',
		}),
	});
	return (await response.json()).url;
}

async function prepareSandbox({ latencyMs, url }, transactionsNeeded, uploadMiB) {
	const { list } = await (await fetch(`${url}${V}/purposes`, { headers: { 'x-api-key': apiKey } }))
		.json()
		.then((j) => j.data);
	const form = await post(`${url}${V}/ekyc-forms`, {
		name: 'Benchmark onboarding',
		purpose: list[0]._id,
		verifications: [{ name: 'bgv-employment', skipAllowed: false }],
		userPaymentRequired: false,
		type: 'diy',
		sharing: { visibility: 'private' },
	});
	const transactionIds = await pool(transactionsNeeded, 50, async (i) => {
		const data = await post(`${url}${V}/ekyc-forms/${form._id}/diy-candidate`, {
			name: `Submitted ${i}`,
			gender: 'Female',
		});
		return data.transactionId;
	});
	const state = await (await fetch(`${url}/__sandbox/state`)).json();
	await fetch(`${url}/__sandbox/requests`, { method: 'DELETE' });
	return {
		latencyMs,
		url,
		credentialId: `cvBenchCred${String(latencyMs).padStart(5, '0')}`,
		formId: form._id,
		transactionIds,
		fileUrl: state.generatedFileUrl,
		uploadSourceUrl: uploadMiB > 0 ? await addUploadSource(url, uploadMiB) : undefined,
	};
}

async function main() {
	const outDir = process.argv[2];
	const config = benchConfig();
	const cases = benchCases(config);
	const sandboxes = JSON.parse(process.env.BENCH_SANDBOXES);
	const transactionsNeeded = Math.max(
		0,
		...cases.filter((c) => c.op === 'submit').map((c) => c.count),
	);
	const uploadMiB = cases.some((c) => c.op === 'upload') ? config.uploadMiB : 0;
	const prepared = await Promise.all(
		sandboxes.map((s) => prepareSandbox(s, transactionsNeeded, uploadMiB)),
	);

	fs.mkdirSync(path.join(outDir, 'workflows'), { recursive: true });
	const credentials = prepared.map((s) => ({
		id: s.credentialId,
		name: s.credentialId,
		type: 'candidateVerificationApi',
		data: { apiKey, environment: 'staging', stagingBaseUrl: s.url, orgId },
	}));
	credentials.push({
		id: HEADER_AUTH_CREDENTIAL_ID,
		name: HEADER_AUTH_CREDENTIAL_ID,
		type: 'httpHeaderAuth',
		data: { name: 'x-api-key', value: apiKey },
	});
	fs.writeFileSync(path.join(outDir, 'credentials.json'), JSON.stringify(credentials), {
		mode: 0o600,
	});
	const workflows = benchWorkflows({
		sandboxes: prepared,
		apiKey,
		headerAuthCredentialId: HEADER_AUTH_CREDENTIAL_ID,
		nodeConcurrency: config.nodeConcurrency,
		cases: cases.map(({ runs, ...c }) => c),
	});
	for (const { id, workflow } of workflows) {
		fs.writeFileSync(path.join(outDir, 'workflows', `${id}.json`), JSON.stringify(workflow));
	}
	fs.writeFileSync(
		path.join(outDir, 'prepared.json'),
		JSON.stringify({ sandboxes: prepared.map(({ transactionIds, ...s }) => s) }, null, 2),
	);
	console.log(
		`${workflows.length} workflows, ${transactionsNeeded} transactions per sandbox for Submit`,
	);
}

main().catch((error) => {
	console.error(error.stack || error.message);
	process.exit(1);
});
