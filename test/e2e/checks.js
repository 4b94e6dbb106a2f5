'use strict';

/**
 * The server-side checks of the e2e run (started by run.sh once n8n is up). Talks to n8n the way
 * the editor and the public API do, and to the sandbox's control endpoints to see what the
 * service received. Prints `ok - ...` or `FAIL - ...` per check. Secrets are compared, never printed.
 *
 * Environment: CV_N8N_URL, CV_SANDBOX_URL, SANDBOX_API_KEY, SANDBOX_ORG_ID, CV_GATEWAY_PORT, CV_RUN_DIR,
 * CV_N8N_VERSION (the release under test), CV_E2E_SCOPE (`compat`: only the checks scripts/compat-e2e.sh
 * runs on other n8n releases: every operation of the example, the downloaded file's SHA-256, network
 * failures and invalid items, the trigger's registration, delivery and forgery; the rest is not run),
 * CV_ACTIVATE_AFTER_BOOT (a workflow ID run.sh could not activate offline on this release: activated
 * here first, see activateWorkflow).
 */

const assert = require('node:assert/strict');
const { createHash, randomUUID } = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');

const { createChecklist } = require('./checklist');
const { isInDoubt } = require('./in-doubt');
const { N8nClient, sleep } = require('./n8n-client');
const { sandboxClient } = require('./sandbox-client');
const { NOT_IN_A_FIRST_CONTRACT_RUN } = require('./report-branches');

const ROOT = path.resolve(__dirname, '../..');
const env = process.env;
const N8N_URL = env.CV_N8N_URL;
const SANDBOX_URL = env.CV_SANDBOX_URL;
const API_KEY = env.SANDBOX_API_KEY;
const ORG_ID = env.SANDBOX_ORG_ID;
const GATEWAY_PORT = Number(env.CV_GATEWAY_PORT);
const RUN_DIR = env.CV_RUN_DIR;
const COMPAT = env.CV_E2E_SCOPE === 'compat';
const N8N_VERSION = env.CV_N8N_VERSION || '';

const ACTIONS_WORKFLOW = 'cvExampleActions';
/** 0.3.1's examples/candidates-to-reports.json unchanged (node version 1), under another ID. */
const V1_WORKFLOW = 'cvE2eV1Actions01';
const INSUFFICIENCY_WORKFLOW = 'cvExampleInsuff1';
const TYPED_KYC_WORKFLOW = 'cvE2eTypedKyc001';
const TRIGGER_WORKFLOW = 'cvExampleTrigger';
const CREDENTIAL_ID = 'cvCredential0001';
const GATEWAY_CREDENTIAL_ID = 'cvGatewayCred001';
const V = '/verification/api/1.0';

const triggerExample = JSON.parse(fs.readFileSync(path.join(ROOT, 'examples/verification-event-summary.json'), 'utf8'));
const triggerNode = triggerExample.nodes.find((node) => node.type.endsWith('.candidateVerificationTrigger'));
const TRIGGER_URL = `${N8N_URL}/webhook/${triggerNode.webhookId}/webhook`;

const n8n = new N8nClient(N8N_URL);
const { check, counts } = createChecklist();

// ---- sandbox ---------------------------------------------------------------------------------------

const {
	call: sandbox,
	state: sandboxState,
	requests: sandboxRequests,
} = sandboxClient(SANDBOX_URL);

/** Waits until predicate(value) holds for value = await read(); returns the value. */
async function waitFor(read, predicate, what, timeoutMs = 15_000) {
	const deadline = Date.now() + timeoutMs;
	let value;
	for (;;) {
		value = await read();
		if (predicate(value)) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await sleep(200);
	}
}

/**
 * Forwards to the sandbox asking it to fail like a broken gateway (HTTP 502 with an HTML body); with
 * `server.mode = 'reset'` it resets each connection once the request has arrived, with 'hang' it
 * never answers (a provider that hangs), with 'forward' it passes requests on, with 'forwardThenReset' the service gets the request
 * and n8n a reset instead of the answer. `server.received` counts the requests it got.
 */
function startFailingGateway() {
	const target = new URL(SANDBOX_URL);
	const hung = new Set();
	const server = http.createServer((req, res) => {
		server.received += 1;
		if (server.mode === 'reset') {
			req.resume();
			req.on('end', () => req.socket.resetAndDestroy());
			return;
		}
		if (server.mode === 'hang') {
			req.resume();
			hung.add(req.socket);
			return;
		}
		const chunks = [];
		req.on('data', (chunk) => chunks.push(chunk));
		req.on('end', () => {
			const body = Buffer.concat(chunks);
			const headers = { ...req.headers, ...(server.mode === '502' ? { 'x-sandbox-fail': '502' } : {}) };
			const upstream = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers }, (answer) => {
				if (server.mode === 'forwardThenReset') {
					// The service took the request and answered; the connection to n8n drops before the answer.
					answer.resume();
					answer.on('end', () => req.socket.resetAndDestroy());
					return;
				}
				res.writeHead(answer.statusCode, answer.headers);
				answer.pipe(res);
			});
			upstream.on('error', () => res.destroy());
			upstream.end(body);
		});
	});
	server.mode = '502';
	server.received = 0;
	server.releaseHung = () => {
		for (const socket of hung) socket.destroy();
		hung.clear();
	};
	return new Promise((resolve) => server.listen(GATEWAY_PORT, '127.0.0.1', () => resolve(server)));
}

// ---- n8n executions --------------------------------------------------------------------------------

function nodeRun(execution, nodeName) {
	const runs = execution.data.resultData.runData[nodeName];
	if (!runs) throw new Error(`node "${nodeName}" did not run`);
	return runs[0];
}
const outputItems = (execution, nodeName) => (nodeRun(execution, nodeName).data?.main?.[0] ?? []);
const outputJson = (execution, nodeName) => outputItems(execution, nodeName).map((item) => item.json);

async function runWorkflow(workflowId) {
	const executionId = await n8n.runManually(workflowId, 'Start');
	return n8n.waitForExecution(executionId);
}

/**
 * The bytes n8n stored for a binary field: read from its binary data store when it has an id (2.x),
 * else inline (n8n 1.x's default binary mode keeps them in the execution, base64 in `data`).
 */
async function storedBytes(binary) {
	if (binary.id) return (await n8n.binaryData(binary.id)).bytes;
	assert.ok(typeof binary.data === 'string' && binary.data.length > 0, 'the binary has neither an id nor inline data');
	return Buffer.from(binary.data, 'base64');
}

/** Manual Trigger → File → Download of one URL into the binary field "file" (made through the REST API). */
function downloadWorkflow(url) {
	return {
		name: `E2E: download ${url.split('/').pop()}`,
		active: false,
		settings: { executionOrder: 'v1', saveManualExecutions: true },
		nodes: [
			{ parameters: {}, id: randomUUID(), name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0] },
			{
				parameters: { resource: 'file', operation: 'download', url, binaryPropertyName: 'file' },
				id: randomUUID(),
				name: 'Download File',
				type: 'n8n-nodes-candidate-verification.candidateVerification',
				typeVersion: 1,
				position: [220, 0],
				credentials: { candidateVerificationApi: { id: CREDENTIAL_ID, name: 'Candidate Verification account' } },
			},
		],
		connections: { Start: { main: [[{ node: 'Download File', type: 'main', index: 0 }]] } },
	};
}

function triggerPayload(execution) {
	return outputJson(execution, 'Candidate Verification Trigger')[0];
}

// ---- the checks ------------------------------------------------------------------------------------

/** Activates a workflow (run.sh sets CV_ACTIVATE_AFTER_BOOT on a release where publish:workflow found no version). */
async function activateWorkflow(workflowId) {
	await n8n.activate(workflowId, { saveVersionFirst: Boolean(env.CV_ACTIVATE_AFTER_BOOT) });
}

/** A check of the full run only: not run in the compat scope (scripts/compat-e2e.sh). */
const full = (name, fn) => (COMPAT ? Promise.resolve(undefined) : check(name, fn));

// ---- duplicate protection (cvE2eDupProt001) ------------------------------------------------------------

const DUPLICATE_WORKFLOW = 'cvE2eDupProt001';
const duplicateWorkflow = JSON.parse(fs.readFileSync(path.join(__dirname, 'workflows', `${DUPLICATE_WORKFLOW}.json`), 'utf8'));
const DUPLICATE_WEBHOOK_URL = `${N8N_URL}/webhook/${duplicateWorkflow.nodes.find((node) => node.name === 'Webhook').parameters.path}`;

/** How many candidates of each name the service holds. */
async function candidatesNamed(names) {
	const { transactions } = await sandboxState();
	return names.map((name) => transactions.filter((t) => t.candidate && t.candidate.name === name).length);
}

async function duplicateProtectionChecks() {
	const tag = randomUUID().slice(0, 6);
	const rowsNamed = (names) => names.map((name, index) => ({ name, gender: index % 2 ? 'Male' : 'Female', mobile: `+9198766${String(index).padStart(5, '0')}` }));
	let formId;
	let executionsSeen = 0;
	/** Posts rows to the workflow's production webhook; returns the finished production execution. */
	const postRows = async (rows, extra = {}) => {
		// Activation registers the production webhook asynchronously: a 404 starts nothing.
		const response = await waitFor(
			() =>
				fetch(DUPLICATE_WEBHOOK_URL, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ formId, rows, ...extra }),
				}),
			(answer) => answer.status !== 404,
			'the production webhook to be registered',
		);
		assert.equal(response.status, 200, `the webhook answered ${response.status}`);
		const list = await waitFor(
			async () => (await n8n.executions(DUPLICATE_WORKFLOW)).filter((e) => e.mode === 'webhook'),
			(executions) => executions.length === executionsSeen + 1 && executions.every((e) => e.status !== 'running' && e.status !== 'new'),
			'the production execution',
			30_000,
		);
		executionsSeen += 1;
		return n8n.waitForExecution(list[0].id);
	};
	const createdOutput = (execution) => outputJson(execution, 'Create Candidates');

	await check('duplicate protection, manual executions: Execute workflow twice creates each candidate (and the form) once; the second run says alreadySent with the same IDs', async () => {
		const names = ['Asha Manual', 'Ravi Manual', 'Meena Manual'];
		const first = await runWorkflow(DUPLICATE_WORKFLOW);
		assert.equal(first.status, 'success', JSON.stringify(first.data.resultData.error));
		formId = outputJson(first, 'Create Form')[0]._id;
		const created = outputJson(first, 'Create Candidates (manual)');
		assert.deepEqual(created.map((json) => json.alreadySent), [undefined, undefined, undefined]);
		const second = await runWorkflow(DUPLICATE_WORKFLOW);
		assert.equal(second.status, 'success', JSON.stringify(second.data.resultData.error));
		const again = outputJson(second, 'Create Candidates (manual)');
		assert.deepEqual(again.map((json) => json.alreadySent), [true, true, true]);
		assert.deepEqual(again.map((json) => json.transactionId), created.map((json) => json.transactionId));
		assert.deepEqual(await candidatesNamed(names), [1, 1, 1]);
		const [form] = outputJson(second, 'Create Form');
		assert.equal(form.alreadySent, true);
		assert.equal(form._id, formId);
		const forms = (await sandboxRequests()).filter((r) => r.method === 'POST' && r.path === `${V}/ekyc-forms` && r.body && r.body.name === 'Duplicate protection e2e form');
		assert.equal(forms.length, 1, `${forms.length} forms created`);
		return `transaction IDs ${again.map((json) => json.transactionId).join(', ')}`;
	});
	// The production checks post rows for the form the manual run created.
	if (!formId) return;
	await activateWorkflow(DUPLICATE_WORKFLOW);
	await waitFor(() => n8n.api('GET', `/workflows/${DUPLICATE_WORKFLOW}`), (workflow) => workflow.active === true, 'the workflow to be active');
	gateway.mode = 'forward';
	try {
		await check('duplicate protection, production executions: the same rows posted twice create each candidate once', async () => {
			const names = [`Kiran ${tag}`, `Divya ${tag}`, `Arjun ${tag}`];
			const first = await postRows(rowsNamed(names));
			assert.equal(first.status, 'success', JSON.stringify(first.data.resultData.error));
			const second = await postRows(rowsNamed(names));
			assert.equal(second.status, 'success', JSON.stringify(second.data.resultData.error));
			const again = createdOutput(second);
			assert.deepEqual(again.map((json) => json.alreadySent), [true, true, true]);
			assert.deepEqual(again.map((json) => json.transactionId), createdOutput(first).map((json) => json.transactionId));
			assert.ok(again.every((json) => /^\d{4}-\d{2}-\d{2}T/.test(json.sentAt)));
			assert.deepEqual(await candidatesNamed(names), [1, 1, 1]);
		});

		await check('duplicate protection, Retry from the Executions list after the service refused row 3: each of the 5 candidates exists once', async () => {
			const names = [0, 1, 2, 3, 4].map((index) => `Retry ${index} ${tag}`);
			await sandbox('POST', '/__sandbox/refusals', { names: [names[2]] });
			const failed = await postRows(rowsNamed(names));
			assert.equal(failed.status, 'error');
			assert.match(failed.data.resultData.error.message, /The service cannot take this candidate right now/);
			assert.deepEqual(await candidatesNamed(names), [1, 1, 0, 1, 1]);
			await sandbox('POST', '/__sandbox/refusals', { names: [] });
			// What the editor's Retry button calls ("Retry with original workflow").
			await n8n.rest('POST', `/executions/${failed.id}/retry`, { loadWorkflow: false });
			const [retry] = await waitFor(
				async () => (await n8n.executions(DUPLICATE_WORKFLOW)).filter((e) => String(e.retryOf) === String(failed.id)),
				(list) => list.length === 1 && list[0].status !== 'running',
				'the retry',
				30_000,
			);
			const retried = await n8n.waitForExecution(retry.id);
			assert.equal(retried.status, 'success', JSON.stringify(retried.data.resultData.error));
			assert.deepEqual(await candidatesNamed(names), [1, 1, 1, 1, 1]);
			assert.deepEqual(createdOutput(retried).map((json) => json.alreadySent === true), [true, true, false, true, true]);
			return `retry ${retry.id} of ${failed.id}`;
		});

		await check('duplicate protection, a row whose answer was lost (the service created it, the connection dropped) is in doubt: the next execution does not send it and names it', async () => {
			const names = [`Lost ${tag}`];
			gateway.mode = 'forwardThenReset';
			const lost = await postRows(rowsNamed(names));
			gateway.mode = 'forward';
			assert.equal(lost.status, 'error');
			assert.match(lost.data.resultData.error.message, /closed the connection before answering/);
			assert.match(lost.data.resultData.error.description, /the service may have created it/);
			assert.doesNotMatch(lost.data.resultData.error.description, /Retry On Fail/);
			assert.deepEqual(await candidatesNamed(names), [1]);
			const next = await postRows(rowsNamed(names));
			assert.equal(next.status, 'error');
			assert.equal(next.data.resultData.error.message, 'Item 0 was sent by an earlier try or execution that got no answer: the service may have created it');
			assert.deepEqual(await candidatesNamed(names), [1]);
			return `"${next.data.resultData.error.message}"`;
		});

		await check('duplicate protection Off sends the row again; Forget All Rows Sent Before left selected in a production execution stops before clearing anything; with Act in Any Execution it clears, and the row is sent again', async () => {
			const names = [`Forget ${tag}`];
			await postRows(rowsNamed(names));
			assert.deepEqual(await candidatesNamed(names), [1]);
			const off = await postRows(rowsNamed(names), { protection: 'off' });
			assert.equal(off.status, 'success');
			assert.deepEqual(await candidatesNamed(names), [2]);
			const skipped = await postRows(rowsNamed(names));
			assert.equal(createdOutput(skipped)[0].alreadySent, true);
			// A one-off tool in a webhook execution: the node stops, the record is as it was.
			const refused = await postRows(rowsNamed(names), { protection: 'forgetAll' });
			assert.equal(refused.status, 'error');
			assert.match(refused.data.resultData.error.message, /^Duplicate Protection → Forget All Rows Sent Before acts only in an execution started in the editor; this one is a "webhook" execution$/);
			const stillSkipped = await postRows(rowsNamed(names));
			assert.equal(createdOutput(stillSkipped)[0].alreadySent, true);
			const forget = await postRows(rowsNamed(names), { protection: 'forgetAll', anyExecution: true });
			assert.equal(forget.status, 'success');
			assert.deepEqual(createdOutput(forget), rowsNamed(names));
			assert.deepEqual(await candidatesNamed(names), [2]);
			const afterForget = await postRows(rowsNamed(names));
			assert.equal(afterForget.status, 'success');
			assert.equal(createdOutput(afterForget)[0].alreadySent, undefined);
			assert.deepEqual(await candidatesNamed(names), [3]);
		});
	} finally {
		gateway.mode = '502';
		await sandbox('POST', '/__sandbox/refusals', { names: [] });
	}
}

const STOP_WORKFLOW = 'cvE2eStopRun0001';
const STOP_ROWS = 20;

/**
 * (d) A run stopped by the user (the REST call of the editor's Stop button) while its 20 rows are at a
 * service that acts on each request at once and answers 3 s later; then the same rows again: nothing
 * created twice, and the rows are named in doubt (or alreadySent, where the answer was recorded).
 */
async function stoppedRunCheck() {
	await check(`duplicate protection, a run stopped by the user while its ${STOP_ROWS} rows are at the service (answering in 3 s), run again: nothing created twice, the rows named in doubt`, async () => {
		const started = Date.now();
		const names = Array.from({ length: STOP_ROWS }, (_, index) => `Stopped Row ${index}`);
		const arrivals = async () => (await sandboxRequests()).filter((r) => r.method === 'POST' && r.path.endsWith('/diy-candidate') && r.body && names.includes(r.body.name));
		await sandbox('POST', '/__sandbox/latency', { ms: 3000, paths: ['/diy-candidate'], hold: true });
		let stoppedId;
		try {
			stoppedId = await n8n.runManually(STOP_WORKFLOW, 'Start');
			await waitFor(arrivals, (list) => list.length >= STOP_ROWS, `the ${STOP_ROWS} requests to reach the service`, 30_000);
			const answeredBeforeStop = (await arrivals()).filter((r) => r.status !== undefined).length;
			// What the editor's Stop button calls.
			await n8n.rest('POST', `/executions/${stoppedId}/stop`);
			const stopped = await n8n.waitForExecution(stoppedId);
			assert.ok(['canceled', 'error'].includes(stopped.status), `the stopped execution ended ${stopped.status}`);
			assert.ok(answeredBeforeStop < STOP_ROWS, 'every answer came before the stop');
			// Each held request is answered (3 s after it arrived) or given up by n8n before the rows run again.
			await waitFor(arrivals, (list) => list.every((r) => r.status !== undefined || r.closedBeforeAnswer), 'the held answers', 30_000);
			const closed = (await arrivals()).filter((r) => r.closedBeforeAnswer).length;
			console.log(`# figure stopped run: ${closed} of ${STOP_ROWS} held requests closed by n8n before their answer`);
		} finally {
			await sandbox('POST', '/__sandbox/latency', { ms: 0 });
		}
		const rerun = await runWorkflow(STOP_WORKFLOW);
		const perName = await candidatesNamed(names);
		const items = (nodeRun(rerun, 'Create Candidates').data?.main ?? []).flat().filter(Boolean).map((item) => item.json);
		// On the error output (Continue (using error output)) n8n passes only `error`: its text says in doubt.
		const inDoubt = items.filter(isInDoubt);
		// A row whose answer the node still recorded after the stop may say alreadySent, with its ID.
		const alreadySent = items.filter((json) => json.alreadySent === true && json.transactionId);
		const twice = perName.filter((n) => n > 1).length;
		const detail = `stopped execution ${stoppedId}; rerun: ${inDoubt.length} in doubt, ${alreadySent.length} alreadySent, ${items.length - inDoubt.length - alreadySent.length} other; ${twice} of ${STOP_ROWS} created twice; ${((Date.now() - started) / 1000).toFixed(0)} s`;
		console.log(`# figure stopped run: ${detail}`);
		assert.equal(rerun.status, 'success', JSON.stringify(rerun.data.resultData.error));
		assert.equal(twice, 0, detail);
		assert.deepEqual(perName, names.map(() => 1), detail);
		assert.equal(inDoubt.length + alreadySent.length, STOP_ROWS, detail);
		return detail;
	});
}

let gateway;
async function main() {
	gateway = await startFailingGateway();
	try {
		await checks();
	} finally {
		gateway.releaseHung();
		gateway.close();
	}
	console.log(`# checks.js: ${counts.passed} passed, ${counts.failed} failed`);
	process.exitCode = counts.failed === 0 ? 0 : 1;
}

async function checks() {
	const sessionReady = await check('owner account set up through the REST API', async () => {
		assert.equal(await n8n.ownerSession({ email: 'e2e@example.com', password: 'E2e-Passw0rd-cv' }), 'created');
	});
	if (!sessionReady) return;

	await check('node and credential types registered (/types/nodes.json, /types/credentials.json), node icons served', async () => {
		const nodes = await n8n.request('GET', '/types/nodes.json');
		const names = new Set(nodes.map((node) => node.name));
		for (const name of ['candidateVerification', 'candidateVerificationTrigger']) {
			assert.ok(names.has(`n8n-nodes-candidate-verification.${name}`), `${name} missing from nodes.json`);
		}
		// The editor shows each node with the icon n8n serves from the installed package.
		const action = nodes.find((node) => node.name === 'n8n-nodes-candidate-verification.candidateVerification');
		const iconUrls = typeof action.iconUrl === 'string' ? [action.iconUrl] : Object.values(action.iconUrl || {});
		assert.ok(iconUrls.length > 0, 'the node type has no iconUrl');
		for (const iconUrl of iconUrls) {
			const icon = await n8n.request('GET', `/${iconUrl.replace(/^\//, '')}`, { raw: true });
			assert.equal(icon.status, 200, `${iconUrl} answered ${icon.status}`);
			assert.match(await icon.text(), /<svg/, `${iconUrl} is not an SVG`);
		}
		const credentials = await n8n.request('GET', '/types/credentials.json');
		const credential = credentials.find((type) => type.name === 'candidateVerificationApi');
		assert.ok(credential, 'candidateVerificationApi missing from credentials.json');
		const fields = new Set(credential.properties.map((property) => property.name));
		for (const field of ['apiKey', 'environment', 'stagingBaseUrl', 'productionBaseUrl', 'orgId']) {
			assert.ok(fields.has(field), `credential field ${field} missing`);
		}
		return `${nodes.length} node types`;
	});

	const apiReady = await check('public API key created', async () => {
		assert.ok(await n8n.createApiKey('e2e'));
	});
	if (!apiReady) return;

	// The trigger example was published before boot, so n8n activated it while starting (where the
	// release cannot do that offline, run.sh names it in CV_ACTIVATE_AFTER_BOOT and it is activated now).
	if (env.CV_ACTIVATE_AFTER_BOOT) {
		const activated = await check(`trigger example activated through the public API (n8n ${N8N_VERSION} cannot offline)`, () =>
			activateWorkflow(env.CV_ACTIVATE_AFTER_BOOT),
		);
		if (!activated) return;
	}
	let registration;
	await check('activation registered exactly one webhook configuration, at n8n\'s production webhook URL', async () => {
		const state = await waitFor(sandboxState, (s) => s.webhookConfigs.length > 0, 'the trigger registration');
		await sleep(300);
		const { webhookConfigs } = await sandboxState();
		assert.equal(webhookConfigs.length, 1, `${webhookConfigs.length} configurations`);
		const [config] = webhookConfigs;
		assert.equal(config.endpoint, TRIGGER_URL);
		assert.ok(typeof config.apiKey === 'string' && config.apiKey.length >= 32, 'the webhook secret is not a long random string');
		assert.ok(config.apiKey !== API_KEY, 'the webhook secret is the API key');
		const posts = (await sandboxRequests()).filter((r) => r.path === `${V}/webhook-config`);
		assert.equal(posts.length, 1, `${posts.length} POST /webhook-config`);
		assert.ok(posts[0].headers['x-api-key'] === API_KEY, 'registration not sent with the credential API key');
		registration = { id: config.id, secret: config.apiKey };
		return `config ${config.id}, ${state.webhookConfigs.length} at first sight`;
	});

	// ---- credential test, as the editor's "Test" / save does it -----------------------------------
	const stored = await n8n.rest('GET', `/credentials/${CREDENTIAL_ID}?includeData=true`).catch(() => undefined);
	const credentialTest = (credential, data) =>
		n8n.rest('POST', '/credentials/test', {
			credentials: { id: credential.id, name: credential.name, type: credential.type, data },
		});

	await full('credential test (POST /rest/credentials/test) succeeds with the stored key', async () => {
		assert.ok(stored, 'credential not readable');
		assert.ok(String(stored.data.apiKey).startsWith('__n8n_BLANK_VALUE_'), 'the editor should see the key redacted');
		const result = await credentialTest(stored, stored.data);
		assert.equal(result.status, 'OK', result.message);
		return result.message;
	});

	await full('credential test fails with a wrong key (and the key really was sent)', async () => {
		const wrongKey = `wrong-${Date.now()}`;
		const result = await credentialTest(stored, { ...stored.data, apiKey: wrongKey });
		assert.equal(result.status, 'Error');
		const sent = (await sandboxRequests()).filter((r) => r.headers['x-api-key'] === wrongKey);
		assert.ok(sent.length >= 1, 'the sandbox did not receive the wrong key');
		assert.ok(sent.every((r) => r.status === 401 && r.path === `${V}/purposes`));
		return `"${result.message}"`;
	});

	await full('credential test fails when the service answers 502 through a gateway', async () => {
		const gatewayCredential = await n8n.rest('GET', `/credentials/${GATEWAY_CREDENTIAL_ID}?includeData=true`);
		const result = await credentialTest(gatewayCredential, gatewayCredential.data);
		assert.equal(result.status, 'Error');
		return `"${result.message}"`;
	});

	// ---- example: candidates to reports -----------------------------------------------------------
	await sandbox('DELETE', '/__sandbox/requests');
	let run;
	const exampleRan = await check('example "candidates to reports" runs through the REST API and succeeds', async () => {
		run = await runWorkflow(ACTIONS_WORKFLOW);
		const error = run.data.resultData.error;
		assert.equal(run.status, 'success', error && `${error.node && error.node.name}: ${error.message} (${error.description})`);
		const workflow = JSON.parse(fs.readFileSync(path.join(ROOT, 'examples/candidates-to-reports.json'), 'utf8'));
		const expected = workflow.nodes
			.filter((node) => !node.type.endsWith('stickyNote') && !NOT_IN_A_FIRST_CONTRACT_RUN.includes(node.name))
			.map((node) => node.name);
		const ran = Object.keys(run.data.resultData.runData);
		assert.deepEqual(ran.sort(), expected.sort());
		return `execution ${run.id}, ${ran.length} nodes`;
	});
	// The compat scope goes on, so each operation's check says whether that operation worked on the
	// release (those after a failed node fail), and the checks that do not need the example still run.
	if (!exampleRan && !COMPAT) return;
	const ranNode = (name) => {
		try {
			return outputItems(run, name);
		} catch {
			return [];
		}
	};

	const requests = await sandboxRequests();
	const apiRequests = requests.filter((r) => r.path.startsWith(V) || r.path.startsWith('/utility/'));
	const bodiesTo = (method, route) => apiRequests.filter((r) => r.method === method && r.path === route);
	const candidates = ranNode('Candidates').map((item) => item.json);
	const profiles = ranNode('Create Profile').map((item) => item.json);
	const uploads = ranNode('Upload Document').map((item) => item.json);

	await check('every request of the example carried x-api-key = the credential key', async () => {
		assert.ok(apiRequests.length >= 30, `only ${apiRequests.length} API requests`);
		const without = apiRequests.filter((r) => r.headers['x-api-key'] !== API_KEY);
		assert.equal(without.length, 0, `${without.length} requests with another key`);
		return `${apiRequests.length} requests`;
	});

	await check('Purpose Get Many → Form Create: purpose from the list, checks, expiry as Unix seconds', async () => {
		const purposes = outputJson(run, 'Get Purposes');
		assert.equal(purposes.length, 4);
		const bgv = purposes.find((purpose) => purpose.name === 'BGV');
		const [form] = outputJson(run, 'Create Form');
		assert.match(form._id, /^[0-9a-f]{24}$/);
		const [request] = bodiesTo('POST', `${V}/ekyc-forms`);
		assert.equal(request.body.purpose, bgv._id);
		assert.deepEqual(
			request.body.verifications.map((check) => `${check.name}:${check.skipAllowed}`),
			['bgv-employment:false', 'bgv-cibil:false', 'bgv-criminal:false', 'bgv-police-verification:true', 'bgv-tenth:true'],
		);
		assert.equal(request.body.type, 'diy');
		assert.deepEqual(request.body.sharing, { visibility: 'private' });
		assert.equal(request.body.userPaymentRequired, false);
		assert.ok(Number.isInteger(request.body.expiry), 'expiry is not an integer');
		// A fixed date in the example, so that a second run is the same form (examples-check.js runs it again).
		assert.equal(request.body.expiry, Date.parse('2030-12-31T23:59:59Z') / 1000);
		return `form ${form._id}`;
	});

	await check('Profile Create for 3 candidates from a list: transaction IDs, DOB sent as DD-MM-YYYY', async () => {
		assert.equal(profiles.length, 3);
		assert.equal(new Set(profiles.map((p) => p.transactionId)).size, 3, 'transaction IDs are not distinct');
		// n8n may send the items' requests concurrently: match them by name, not by order.
		const sent = bodiesTo('POST', `${V}/ekyc-forms/${profiles[0].formId}/diy-candidate`).map((r) => r.body);
		assert.equal(sent.length, 3);
		const byName = Object.fromEntries(sent.map((body) => [body.name, body]));
		assert.deepEqual(
			['Asha Verma', 'Rahul Mehta', 'Sam Iyer'].map((name) => byName[name] && byName[name].verificationFields.dob),
			['17-05-1994', '03-11-1990', '09-12-1988'], // given as 1994-05-17, 03-11-1990, 1988-12-09
		);
		assert.deepEqual(byName['Asha Verma'], {
			name: 'Asha Verma',
			gender: 'Female',
			mobile: '+919876543210',
			profession: 'Software Engineer',
			email: 'asha.verma@example.com',
			verificationFields: { dob: '17-05-1994', fatherName: 'Rajesh Verma' },
		});
		assert.deepEqual(['Asha Verma', 'Rahul Mehta', 'Sam Iyer'].map((name) => byName[name].gender), ['Female', 'Male', 'Other']);
		assert.deepEqual(profiles.map((p) => p.name), ['Asha Verma', 'Rahul Mehta', 'Sam Iyer']);
		return profiles.map((p) => p.transactionId).join(', ');
	});

	await check('File Upload of a PDF made in the workflow (multipart, field "file", category in the query)', async () => {
		const sent = bodiesTo('POST', '/utility/api/1.0/files');
		assert.equal(sent.length, 3);
		for (const request of sent) {
			assert.equal(request.query.fileCategory, 'bgv-employment');
			const [file] = request.body.files;
			assert.equal(file.field, 'file');
			assert.equal(file.contentType, 'application/pdf');
			assert.ok(file.size > 300, `${file.filename} has ${file.size} bytes`);
		}
		assert.deepEqual(
			sent.map((request) => request.body.files[0].filename).sort(),
			['salary-slip-asha-verma.pdf', 'salary-slip-rahul-mehta.pdf', 'salary-slip-sam-iyer.pdf'],
		);
		assert.deepEqual(uploads.map((u) => u.fileName), ['salary-slip-asha-verma.pdf', 'salary-slip-rahul-mehta.pdf', 'salary-slip-sam-iyer.pdf']);
		const files = (await sandboxState()).files.filter((file) => file.source === 'upload:bgv-employment');
		assert.deepEqual(uploads.map((u) => u.fileUrl).sort(), files.map((file) => file.url).sort());
	});

	const submissions = bodiesTo('POST', `${V}/bgv/diy`).map((r) => r.body);
	const submission = (txn, check) => submissions.find((s) => s.transactionId === txn && s.verificationName === check);

	await check('typed submissions (employment, credit, criminal, police verification at the permanent address; node version 2) sent field by field', async () => {
		assert.equal(submissions.length, 15);
		const [asha, rahul] = profiles;
		const address = candidates[0].address;
		assert.deepEqual(submission(asha.transactionId, 'bgv-employment').data, {
			employmentDocumentType: 'salaryslip',
			nameAsPerEmployerRecords: 'Asha Verma',
			employerName: 'Acme Technologies',
			joiningDate: '2021-04-01', // given as 01-04-2021
			lastWorkingDate: '2024-03-31',
			document: { label: 'salaryslip', url: uploads[0].fileUrl },
		});
		assert.equal(submission(rahul.transactionId, 'bgv-employment').data.document.url, uploads[1].fileUrl);
		assert.deepEqual(submission(asha.transactionId, 'bgv-cibil').data, {
			pan: 'ABCDE1234F',
			document: { url: uploads[0].fileUrl },
			permanentAddress: address,
		});
		assert.deepEqual(submission(asha.transactionId, 'bgv-criminal').data, { currentAddress: address, permanentAddress: address });
		assert.deepEqual(submission(asha.transactionId, 'bgv-police-verification').data, { permanentAddress: address });
	});

	await check('typed 10th Education submission (level TENTH_STD, the public label "10th Marksheet" by default on version 2); each submission output chains on', async () => {
		assert.deepEqual(submission(profiles[2].transactionId, 'bgv-tenth').data, {
			level: 'TENTH_STD',
			nameAsPerDocument: candidates[2].name,
			nameOfInstitute: 'Kendriya Vidyalaya',
			registrationNumber: '3056789',
			nameOfBoard: 'CBSE',
			yearOfPassing: '2010',
			documentList: [{ label: '10th Marksheet', url: uploads[2].fileUrl }],
		});
		for (const node of ['Submit Employment Check', 'Submit Credit Check', 'Submit Court Record Check', 'Submit Police Verification', 'Submit 10th Education']) {
			const out = outputJson(run, node);
			assert.deepEqual(out.map((o) => o.transactionId), profiles.map((p) => p.transactionId), node);
			assert.ok(out.every((o) => o.submitted === true), node);
		}
		const answers = apiRequests.filter((r) => r.path === `${V}/bgv/diy`).map((r) => r.status);
		assert.ok(answers.every((status) => status === 200));
	});

	await check('Transaction Get Status / Get Check Status: states, documents, orgId from the credential', async () => {
		const status = outputJson(run, 'Get Transaction Status');
		assert.equal(status.length, 3);
		assert.equal(status[0].state, 'IN_PROGRESS');
		const states = Object.fromEntries(status[0].verificationList.map((c) => [c.name, c.state]));
		for (const name of ['bgv-employment', 'bgv-cibil', 'bgv-criminal', 'bgv-tenth', 'bgv-police-verification']) {
			assert.equal(states[name], 'IN_PROGRESS', name);
		}
		assert.equal(states['bgv-police-clearance-certificate'], undefined);
		assert.match(status[0].report, /\/private-files\/[0-9a-f]+\/report-TXN[0-9A-F]+\.pdf$/);
		const [checkStatus] = outputJson(run, 'Get Employment Check Status');
		assert.equal(checkStatus.verificationName, 'bgv-employment');
		assert.equal(checkStatus.state, 'IN_PROGRESS');
		assert.deepEqual(checkStatus.documentList, [{ label: 'salaryslip', url: uploads[0].fileUrl }]);
		const reads = apiRequests.filter((r) => r.path.startsWith(`${V}/transactions/`));
		assert.equal(reads.length, 6);
		assert.ok(reads.every((r) => r.query.orgId === ORG_ID && profiles.some((p) => p.transactionId === r.query.txnId)));
		assert.ok(reads.some((r) => r.path === `${V}/transactions/bgv-employment/info`));
	});

	await check('File Download of the report as binary: file name, MIME type, bytes start with %PDF', async () => {
		const items = outputItems(run, 'Download Report');
		assert.equal(items.length, 3);
		const status = outputJson(run, 'Get Transaction Status');
		for (const [index, item] of items.entries()) {
			const binary = item.binary && item.binary.report;
			assert.ok(binary, 'no binary field "report"');
			assert.equal(binary.fileName, `report-${profiles[index].transactionId}.pdf`);
			assert.equal(binary.mimeType, 'application/pdf');
			assert.equal(item.json.url, status[index].report);
			const bytes = await storedBytes(binary);
			// binary.bytes is n8n's own record (2.x releases after 2.0 keep it); item.json.bytes is the node's output.
			assert.ok(bytes.length > 0 && bytes.length === item.json.bytes, `${bytes.length} bytes downloaded, the node output "bytes": ${item.json.bytes}`);
			if (binary.bytes !== undefined) assert.equal(binary.bytes, bytes.length, 'n8n recorded another size');
			assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-');
		}
		return `${items[0].binary.report.fileName}, ${items[0].json.bytes} bytes`;
	});

	await check('File Get Signed URL: the link serves the report without a key', async () => {
		const [signed] = outputJson(run, 'Get Report Signed URL');
		assert.equal(signed.expiresInMinutes, 180);
		const response = await fetch(signed.signedUrl);
		assert.equal(response.status, 200);
		assert.equal(response.headers.get('content-type'), 'application/pdf');
		const bytes = Buffer.from(await response.arrayBuffer());
		assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-');
		const tokenSteps = bodiesTo('POST', `${V}/download-manager/download-file`).filter((r) => r.body.getDownloadToken === true);
		assert.equal(tokenSteps.length, 3);
	});

	await check('Webhook Config Create then Update (POST, then PUT on the returned ID)', async () => {
		const [created] = outputJson(run, 'Register Webhook Endpoint');
		const [updated] = outputJson(run, 'Update Webhook Endpoint');
		assert.equal(updated.id, created.id);
		assert.equal(bodiesTo('PUT', `${V}/webhook-config/${created.id}`).length, 1);
		const config = (await sandboxState()).webhookConfigs.find((c) => c.id === created.id);
		assert.equal(config.endpoint, 'https://example.com/hooks/candidate-verification');
		assert.equal(config.description, 'Example endpoint outside n8n (updated)');
	});

	await check('File Download of a 300,000-byte PDF the service holds: the stored file has the SHA-256 of the file served', async () => {
		const file = await sandbox('POST', '/__sandbox/files', { sizeBytes: 300_000, filename: 'large-report.pdf', contentType: 'application/pdf' });
		const workflow = await n8n.rest('POST', '/workflows', downloadWorkflow(file.url));
		const execution = await n8n.waitForExecution(await n8n.runManually(workflow.id, 'Start'));
		const error = execution.data.resultData.error;
		assert.equal(execution.status, 'success', error && `${error.node && error.node.name}: ${error.message}`);
		const [item] = outputItems(execution, 'Download File');
		const binary = item.binary && item.binary.file;
		assert.ok(binary, 'no binary field "file"');
		const bytes = await storedBytes(binary);
		const sha256 = createHash('sha256').update(bytes).digest('hex');
		assert.equal(bytes.length, file.size, `${bytes.length} bytes stored, the service served ${file.size}`);
		assert.equal(sha256, file.sha256, 'the stored bytes are not the file the service served');
		assert.equal(binary.fileName, 'large-report.pdf');
		assert.equal(binary.mimeType, 'application/pdf');
		assert.equal(item.json.bytes, file.size, `the node output "bytes": ${item.json.bytes}`);
		return `SHA-256 ${sha256.slice(0, 12)}…, ${bytes.length} bytes`;
	});

	// ---- trigger: notifications from the example's submissions -------------------------------------
	// Notifications name the check by its ID (its subType), as the provider's pages do (the sandbox's default).
	const notifiedIdOf = async (transactionId, name) =>
		(await sandboxState()).transactions.find((t) => t.transactionId === transactionId).verificationList.find((c) => c.name === name).subType;
	await check('each submission notified n8n: one trigger execution per notification, with a readable summary', async () => {
		const expectedEvents = [];
		for (const s of submissions) expectedEvents.push(`${s.transactionId}/${await notifiedIdOf(s.transactionId, s.verificationName)}/IN_PROGRESS`);
		expectedEvents.sort();
		assert.ok(expectedEvents.length > 0, 'the example sent no submission');
		const executions = await waitFor(
			() => n8n.executions(TRIGGER_WORKFLOW),
			(list) => list.filter((e) => e.status === 'success').length >= expectedEvents.length,
			`${expectedEvents.length} trigger executions`,
		);
		assert.equal(executions.length, expectedEvents.length);
		assert.ok(executions.every((e) => e.mode === 'webhook' && e.status === 'success'));
		const seen = executions.map((e) => {
			const p = triggerPayload(e);
			return `${p.transactionId}/${p.verificationId}/${p.newState}`;
		});
		assert.deepEqual(seen.sort(), expectedEvents);
		const employment = submissions.find((s) => s.verificationName === 'bgv-employment');
		const employmentId = await notifiedIdOf(employment.transactionId, 'bgv-employment');
		const sample = executions.find((e) => triggerPayload(e).verificationId === employmentId);
		const payload = triggerPayload(sample);
		assert.deepEqual(Object.keys(payload).sort(), ['newState', 'receivedAt', 'transactionId', 'verificationId']);
		assert.ok(!Number.isNaN(Date.parse(payload.receivedAt)));
		const [summary] = outputJson(sample, 'Summarize Event');
		assert.equal(summary.summary, `Candidate ${payload.transactionId} check ${employmentId} is now IN_PROGRESS`);
		const deliveries = (await sandboxState()).deliveries.filter((d) => d.endpoint === TRIGGER_URL);
		assert.ok(deliveries.length === expectedEvents.length && deliveries.every((d) => d.statusCode === 200));
		return `${executions.length} executions, e.g. "${summary.summary}"`;
	});

	const triggerCount = async () => (await n8n.executions(TRIGGER_WORKFLOW)).length;
	const transition = (newState, txn = profiles[0].transactionId) =>
		sandbox('POST', '/__sandbox/transition', { transactionId: txn, verificationName: 'bgv-criminal', newState });
	const post = (headers) =>
		fetch(TRIGGER_URL, {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...headers },
			body: JSON.stringify({ transactionId: profiles[0]?.transactionId ?? 'TXN0000000000', verificationId: 'bgv-employment', newState: 'COMPLETED' }),
		}).then((response) => response.status);

	await full('a state change at the service (sandbox transition to COMPLETED) starts the workflow', async () => {
		const before = await triggerCount();
		await transition('COMPLETED');
		// An execution is listed while it still runs, before the trigger's output is stored: wait for a finished one.
		const completed = (e) => e.status === 'success' && triggerPayload(e).newState === 'COMPLETED';
		const executions = await waitFor(
			() => n8n.executions(TRIGGER_WORKFLOW),
			(l) => l.length > before && l.some(completed),
			'the finished execution of the COMPLETED notification',
		);
		const newest = executions.find(completed);
		assert.equal(
			outputJson(newest, 'Summarize Event')[0].summary,
			`Candidate ${profiles[0].transactionId} check ${await notifiedIdOf(profiles[0].transactionId, 'bgv-criminal')} is now COMPLETED`,
		);
	});

	await check('forged notifications get 401 and start nothing (no key, wrong keys, one header wrong)', async () => {
		const before = await triggerCount();
		const secret = registration.secret;
		const answers = [
			await post({}),
			await post({ 'x-api-key': 'forged', 'x-webhook-key': 'forged' }),
			await post({ 'x-api-key': secret, 'x-webhook-key': 'forged' }),
			await post({ 'x-api-key': API_KEY, 'x-webhook-key': API_KEY }),
		];
		assert.deepEqual(answers, [401, 401, 401, 401]);
		await sleep(1000);
		assert.equal(await triggerCount(), before, 'a forged notification created an execution');
	});

	await check('a notification signed with the secret (both headers) is accepted', async () => {
		const before = await triggerCount();
		assert.equal(await post({ 'x-api-key': registration.secret, 'x-webhook-key': registration.secret }), 200);
		await waitFor(triggerCount, (count) => count === before + 1, 'the execution');
	});

	// ---- deactivate / activate through the public API ------------------------------------------------
	const webhookStatus = () => post({});
	const configsAtTrigger = async () => (await sandboxState()).webhookConfigs.filter((c) => c.endpoint === TRIGGER_URL);
	const configRequests = async () => (await sandboxRequests()).filter((r) => r.path.startsWith(`${V}/webhook-config`));
	const configRequestsSince = async (before, what) =>
		(await waitFor(configRequests, (requests) => requests.length > before.length, what)).slice(before.length);
	let secretWhileInactive;

	await full('deactivate (public API): webhook unregistered in n8n, secret at the service replaced', async () => {
		const before = await configRequests();
		await n8n.api('POST', `/workflows/${TRIGGER_WORKFLOW}/deactivate`);
		await waitFor(webhookStatus, (status) => status === 404, 'the webhook to be removed');
		// n8n removes the route before the deactivation hook's PUT reaches the service: wait for it.
		const after = await configRequestsSince(before, 'the secret-replacing PUT');
		assert.deepEqual(after.map((r) => `${r.method} ${r.path}`), [`PUT ${V}/webhook-config/${registration.id}`]);
		const [config] = await configsAtTrigger();
		assert.ok(config.apiKey !== registration.secret, 'the old secret is still configured');
		secretWhileInactive = config.apiKey;
	});

	await full('while inactive, a notification from the service starts nothing', async () => {
		const before = await triggerCount();
		const deliveries = (await sandboxState()).deliveries.length;
		await transition('IN_PROGRESS');
		const state = await waitFor(sandboxState, (s) => s.deliveries.length >= deliveries + 2, 'the deliveries');
		const ours = state.deliveries.slice(deliveries).filter((d) => d.endpoint === TRIGGER_URL);
		assert.deepEqual(ours.map((d) => d.statusCode), [404]);
		assert.equal(await triggerCount(), before);
	});

	await full('activate again (public API): the same configuration is reused (PUT, still exactly one)', async () => {
		const before = await configRequests();
		await activateWorkflow(TRIGGER_WORKFLOW);
		await waitFor(webhookStatus, (status) => status === 401, 'the webhook to be registered');
		const after = await configRequestsSince(before, 'the re-registering PUT');
		assert.deepEqual(after.map((r) => `${r.method} ${r.path}`), [`PUT ${V}/webhook-config/${registration.id}`]);
		assert.ok(after[0].headers['x-api-key'] === API_KEY);
		const configs = await configsAtTrigger();
		assert.equal(configs.length, 1, `${configs.length} configurations point at n8n`);
		assert.equal(configs[0].id, registration.id);
		assert.ok(configs[0].apiKey !== registration.secret && configs[0].apiKey !== secretWhileInactive, 'the secret was not renewed');
		const posts = (await sandboxRequests()).filter((r) => r.method === 'POST' && r.path === `${V}/webhook-config`);
		assert.equal(posts.length, 1, 'only the example\'s own Create may POST after the boot registration');
		registration.secret = configs[0].apiKey;
	});

	await full('after re-activation, notifications from the service start the workflow again', async () => {
		const before = await triggerCount();
		await transition('COMPLETED', profiles[1].transactionId);
		await waitFor(triggerCount, (count) => count === before + 1, 'the execution');
		const state = await sandboxState();
		assert.equal(state.deliveries.filter((d) => d.endpoint === TRIGGER_URL).at(-1).statusCode, 200);
	});

	// ---- errors ------------------------------------------------------------------------------------
	await full('a provider rejection (code -1) fails the execution with the provider\'s message', async () => {
		const execution = await runWorkflow('cvE2eProviderErr');
		assert.equal(execution.status, 'error');
		const { error, lastNodeExecuted } = execution.data.resultData;
		assert.equal(lastNodeExecuted, 'Create Form (unknown purpose)');
		assert.equal(error.message, 'Create a form was rejected by the Candidate Verification Service: "purpose" must be a valid purpose _id');
		assert.match(error.description, /\(HTTP 200, code -1\)/);
		assert.equal(error.httpCode, '200', 'the panel shows "Error code" from httpCode');
		return `"${error.message}"`;
	});

	await full('an HTTP 502 with an HTML body from a gateway fails the execution with a clear message', async () => {
		const execution = await runWorkflow('cvE2eGateway0001');
		assert.equal(execution.status, 'error');
		const { error } = execution.data.resultData;
		assert.match(error.message, /HTTP 502/);
		assert.match(error.description || '', /502 Bad Gateway/);
		assert.equal(error.httpCode, '502');
		const failedAtGateway = (await sandboxRequests()).filter((r) => r.headers['x-sandbox-fail'] === '502' && r.path === `${V}/purposes`);
		assert.ok(failedAtGateway.length >= 1 && failedAtGateway.every((r) => r.status === 502));
		return `"${error.message}"`;
	});

	await full('continueOnFail (onError: continueRegularOutput): good items output, bad items carry their error', async () => {
		const execution = await runWorkflow('cvE2eContinue001');
		assert.equal(execution.status, 'success');
		const out = outputJson(execution, 'Create Profile (continue on fail)');
		assert.equal(out.length, 3);
		assert.match(out[0].transactionId, /^TXN/);
		assert.equal(out[0].error, undefined);
		assert.match(out[1].error, /Invalid "Gender" in item 1/);
		assert.match(out[2].error, /rejected by the Candidate Verification Service: Form not found/);
	});

	const operationFailure = async (mode) => {
		const received = gateway.received;
		gateway.mode = mode;
		try {
			const started = Date.now();
			const execution = await runWorkflow('cvE2eNetFault001');
			const seconds = (Date.now() - started) / 1000;
			// A read may be tried again (Request Options → Retries); never more than that.
			const attempts = gateway.received - received;
			assert.ok(attempts >= 1 && attempts <= 4, `the service got ${attempts} requests`);
			assert.equal(execution.status, 'error');
			const { error, lastNodeExecuted } = execution.data.resultData;
			assert.equal(lastNodeExecuted, 'Get Purposes (faulty service)');
			return { error, seconds, attempts };
		} finally {
			gateway.mode = '502';
			gateway.releaseHung();
		}
	};

	await check('a connection reset by the service fails the execution with an error naming the operation', async () => {
		const { error, attempts } = await operationFailure('reset');
		assert.match(error.message, /^Get many purposes failed: the Candidate Verification Service closed the connection before answering/);
		assert.match(error.description || '', /ECONNRESET/);
		return `"${error.message}", ${attempts} attempt(s)`;
	});

	await check('a service that never answers fails the execution at Request Options → Timeout (3 s) with an error naming the operation', async () => {
		const { error, seconds, attempts } = await operationFailure('hang');
		assert.match(error.message, /^Get many purposes failed: the Candidate Verification Service did not answer within 3 s/);
		assert.ok(seconds < 3 * attempts + 20, `the execution took ${seconds.toFixed(1)} s for ${attempts} attempt(s)`);
		return `"${error.message}" after ${seconds.toFixed(1)} s, ${attempts} attempt(s)`;
	});

	await check('all or nothing: one invalid item fails the node before any of its items is sent', async () => {
		const execution = await runWorkflow('cvE2eAllOrNone01');
		assert.equal(execution.status, 'error');
		const { error, lastNodeExecuted } = execution.data.resultData;
		assert.equal(lastNodeExecuted, 'Create Profile');
		assert.match(error.message, /Invalid "Gender" in item 1/);
		const [form] = outputJson(execution, 'Create Form');
		assert.match(form._id, /^[0-9a-f]{24}$/);
		const sent = (await sandboxRequests()).filter((r) => r.path === `${V}/ekyc-forms/${form._id}/diy-candidate`);
		assert.equal(sent.length, 0, `${sent.length} of the 3 candidates were sent`);
		const transactions = (await sandboxState()).transactions.filter((t) => t.formId === form._id);
		assert.equal(transactions.length, 0, `${transactions.length} candidates were added`);
		return `"${error.message}"`;
	});

	// ---- duplicate protection across executions ---------------------------------------------------
	await duplicateProtectionChecks();
	await stoppedRunCheck();

	// ---- trigger: repeated notifications, filters, transaction details ------------------------------
	const signedPost = (url, secret, body) =>
		fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'x-api-key': secret, 'x-webhook-key': secret },
			body: JSON.stringify(body),
		}).then((response) => response.status);

	await full('the same notification posted 3 times: each delivery is received, answered 200 and summarised (the example drops no event: a repeat looks like a state reached again)', async () => {
		const event = { transactionId: profiles[2].transactionId, verificationId: 'bgv-degree', newState: 'COMPLETED' };
		const isEvent = (e) => {
			const p = triggerPayload(e);
			return p.transactionId === event.transactionId && p.verificationId === event.verificationId && p.newState === event.newState;
		};
		// One after the other, as a service re-delivers: n8n's store is read then written per execution.
		// The secret the service holds now (a 401 only means it is being renewed: nothing starts).
		const deliver = () =>
			waitFor(async () => signedPost(TRIGGER_URL, (await configsAtTrigger())[0].apiKey, event), (status) => status === 200, 'a 200');
		for (let attempt = 1; attempt <= 3; attempt += 1) {
			await deliver();
			await waitFor(
				async () => (await n8n.executions(TRIGGER_WORKFLOW)).filter((e) => e.status === 'success' && isEvent(e)),
				(list) => list.length === attempt,
				`execution ${attempt} of the repeated notification`,
			);
		}
		const executions = (await n8n.executions(TRIGGER_WORKFLOW)).filter(isEvent);
		const summarized = executions.filter((e) => outputJson(e, 'Summarize Event').length === 1);
		assert.equal(executions.length, 3, 'each delivery is received (and answered 200)');
		assert.equal(summarized.length, 3, `${summarized.length} executions summarised the event`);
		return '3 executions, 3 summaries';
	});

	await full('trigger filters (checks, new states), Add Transaction Details, and the Checks filter on events naming the check by its ID, in a real n8n', async () => {
		const FILTER_WORKFLOW = 'cvE2eTrigFilter1';
		const filterWorkflow = JSON.parse(fs.readFileSync(path.join(__dirname, 'workflows', `${FILTER_WORKFLOW}.json`), 'utf8'));
		const url = `${N8N_URL}/webhook/${filterWorkflow.nodes[0].webhookId}/webhook`;
		await activateWorkflow(FILTER_WORKFLOW);
		try {
			const config = await waitFor(
				async () => (await sandboxState()).webhookConfigs.find((c) => c.endpoint === url),
				Boolean,
				'the filtered trigger to register',
			);
			const txn = profiles[0].transactionId;
			// Activation is asynchronous: the service may hold the new secret before n8n has stored it (401).
			const answers = [
				await waitFor(
					() => signedPost(url, config.apiKey, { transactionId: txn, verificationId: 'bgv-cibil', newState: 'COMPLETED' }),
					(status) => status === 200,
					'the filtered trigger to accept its secret',
				),
				await signedPost(url, config.apiKey, { transactionId: txn, verificationId: 'bgv-employment', newState: 'IN_PROGRESS' }),
				await signedPost(url, config.apiKey, { transactionId: txn, verificationId: 'bgv-employment', newState: 'COMPLETED' }),
			];
			assert.deepEqual(answers, [200, 200, 200], 'filtered notifications are answered 200 too');
			const [execution] = await waitFor(
				async () => (await n8n.executions(FILTER_WORKFLOW)).filter((e) => e.status === 'success'),
				(list) => list.length >= 1,
				'the execution of the matching notification',
			);
			await sleep(1000);
			assert.equal((await n8n.executions(FILTER_WORKFLOW)).length, 1, 'a filtered notification started the workflow');
			const [item] = outputJson(execution, 'Completed Employment Checks');
			assert.equal(item.verificationId, 'bgv-employment');
			assert.equal(item.candidateName, candidates[0].name);
			assert.match(item.transactionState, /^[A-Z_]+$/);
			assert.match(item.reportUrl, /\/private-files\/[0-9a-f]+\/report-TXN[0-9A-F]+\.pdf$/);
			const reads = (await sandboxRequests()).filter((r) => r.path === `${V}/transactions/info` && r.query.txnId === txn);
			assert.ok(reads.at(-1).query.orgId === ORG_ID && reads.at(-1).headers['x-api-key'] === API_KEY);

			// The same filter on events that name the check by its ID (its subType), as the provider's
			// insufficiency page does: the trigger reads the transaction and the checks' status to place it.
			const checks = (await sandboxState()).transactions.find((t) => t.transactionId === txn).verificationList;
			const idOf = (name) => checks.find((c) => c.name === name).subType;
			const before = (await sandboxRequests()).length;
			assert.deepEqual(
				[
					await signedPost(url, config.apiKey, { transactionId: txn, verificationId: idOf('bgv-cibil'), newState: 'COMPLETED' }),
					await signedPost(url, config.apiKey, { transactionId: txn, verificationId: idOf('bgv-employment'), newState: 'COMPLETED' }),
				],
				[200, 200],
			);
			const byId = await waitFor(
				async () => (await n8n.executions(FILTER_WORKFLOW)).filter((e) => e.status === 'success'),
				(list) => list.length >= 2,
				'the execution of the notification naming the employment check by its ID',
			);
			await sleep(1000);
			assert.equal((await n8n.executions(FILTER_WORKFLOW)).length, 2, 'the credit check, named by its ID, started the workflow');
			const [placed] = outputJson(byId.find((e) => e.id !== execution.id), 'Completed Employment Checks');
			assert.equal(placed.verificationId, idOf('bgv-employment'));
			assert.equal(placed.checkName, 'bgv-employment');
			assert.equal(placed.checkUnknown, undefined);
			const statusReads = (await sandboxRequests()).slice(before).filter((r) => /\/transactions\/[^/]+\/info$/.test(r.path));
			// At most one read per check of the form, per event.
			assert.ok(statusReads.length <= 2 * checks.length, `${statusReads.length} check status reads for 2 events`);
			return `"${item.candidateName}", ${item.transactionState}; by ID: ${placed.checkName} after ${statusReads.length} check reads for 2 events`;
		} finally {
			await n8n.api('POST', `/workflows/${FILTER_WORKFLOW}/deactivate`).catch(() => {});
		}
	});

	await full('a version-1 node from 0.3.1\'s example runs unchanged: the police choice sends the clearance certificate, 10th Education the label "marksheet"', async () => {
		const v1 = await runWorkflow(V1_WORKFLOW);
		const error = v1.data.resultData.error;
		assert.equal(v1.status, 'success', error && `${error.node && error.node.name}: ${error.message}`);
		assert.ok(outputItems(v1, 'Submit Police Clearance').length === 3);
		const txns = outputJson(v1, 'Create Profile').map((profile) => profile.transactionId);
		const sent = (await sandboxRequests())
			.filter((r) => r.method === 'POST' && r.path === `${V}/bgv/diy` && txns.includes(r.body.transactionId))
			.map((r) => r.body);
		const [upload] = outputJson(v1, 'Upload Document');
		const police = sent.filter((s) => s.verificationName === 'bgv-police-clearance-certificate');
		assert.equal(police.length, 3);
		assert.deepEqual(police.find((s) => s.transactionId === txns[0]).data, { fileUrl: upload.fileUrl });
		assert.equal(sent.filter((s) => s.verificationName === 'bgv-police-verification').length, 0);
		const tenth = sent.find((s) => s.verificationName === 'bgv-tenth' && s.transactionId === txns[2]);
		assert.deepEqual(tenth.data.documentList.map((d) => d.label), ['marksheet']);
		assert.equal(tenth.data.level, 'TENTH_STD');
		return `${sent.length} submissions of 3 candidates`;
	});

	// ---- node version 2's typed checks and Instant KYC (cvE2eTypedKyc001) ---------------------------
	let typed;
	const typedRan = await full('node version 2 typed checks and Instant KYC: the workflow runs through in n8n', async () => {
		typed = await runWorkflow(TYPED_KYC_WORKFLOW);
		const error = typed.data.resultData.error;
		assert.equal(typed.status, 'success', error && `${error.node && error.node.name}: ${error.message} (${error.description})`);
		return `execution ${typed.id}`;
	});
	if (typedRan) {
		const txn = outputJson(typed, 'Create Profile')[0].transactionId;
		const typedRequests = await sandboxRequests();
		const sentFor = (name) => typedRequests.filter((r) => r.method === 'POST' && r.path === `${V}/bgv/diy` && r.body.transactionId === txn && r.body.verificationName === name).map((r) => r.body);
		const address = { line1: '4 Marine Drive', vtc: 'Mumbai', district: 'Mumbai City', state: 'Maharashtra', pincode: '400020', country: 'India' };
		await check('Verification → Submit version 2 in n8n, field by field: degree (level from "masters", issue date from 30-06-2018, Degree and Marksheet), police verification at the permanent address, the digital addresses flat under the submission pages\' name and, by expression, the form list\'s', async () => {
			assert.deepEqual(sentFor('bgv-degree'), [{
				transactionId: txn,
				verificationName: 'bgv-degree',
				data: {
					level: 'MASTERS',
					nameAsPerDocument: 'Meera Iyer',
					nameOfInstitute: 'University of Mumbai',
					registrationNumber: 'MU-2018-0042',
					issueDate: '2018-06-30',
					documentList: [
						{ label: 'Degree', url: 'https://files.example/private/degree.pdf' },
						{ label: 'Marksheet', url: 'https://files.example/private/marksheet.pdf' },
					],
				},
			}]);
			assert.deepEqual(sentFor('bgv-police-verification'), [{ transactionId: txn, verificationName: 'bgv-police-verification', data: { permanentAddress: address } }]);
			assert.deepEqual(sentFor('bgv-local-extended-address'), [{ transactionId: txn, verificationName: 'bgv-local-extended-address', data: address }]);
			assert.deepEqual(sentFor('bgv-permanent-address-digital'), [{ transactionId: txn, verificationName: 'bgv-permanent-address-digital', data: address }]);
			assert.deepEqual(outputJson(typed, 'Submit Local Address'), [{ transactionId: txn, verificationName: 'bgv-local-extended-address', submitted: true }]);
		});
		await check('Get Check Status version 2 in n8n: the check\'s verificationId (its subType) and insufficiencies', async () => {
			const [status] = outputJson(typed, 'Get Degree Check Status');
			const stored = (await sandboxState()).transactions.find((t) => t.transactionId === txn).verificationList.find((c) => c.name === 'bgv-degree');
			assert.equal(status.state, 'IN_PROGRESS');
			assert.equal(status.verificationId, stored.subType);
			assert.match(status.verificationId, /^[0-9a-f]{24}$/);
			assert.deepEqual(status.insufficiencies, []);
		});
		await check('Instant KYC in n8n: each call\'s exact path and body; a negative result is an output (valid false, reason), not an error; Aadhaar through DigiLocker with the photo as binary', async () => {
			const kyc = typedRequests.filter((r) => r.method === 'POST' && r.path.startsWith(`${V}/verifications/`)).map((r) => [r.path.slice(V.length), r.body]);
			const aadhaarTxn = outputJson(typed, 'Aadhaar Start')[0].transactionId;
			assert.deepEqual(kyc, [
				['/verifications/pan', { pan: 'ABCDE1234F', digiLocker: false }],
				['/verifications/pan', { pan: 'ABCDE1234X', digiLocker: false }],
				['/verifications/bank-account', { accountNumber: '50100123456789', ifsc: 'HDFC0001234', pennyLess: true }],
				['/verifications/upi', { upi: 'meera.iyer@okhdfcbank' }],
				['/verifications/gst', { gst: '27ABCDE1234F1Z5' }],
				['/verifications/employment-check', { uan: '100123456789' }],
				['/verifications/din', { din: '01234567' }],
				['/verifications/pre-verify/aadhaar', { digiLocker: true, redirectUrl: 'https://example.com/after-digilocker' }],
				['/verifications/self/aadhaar', { digiLocker: true, transactionId: aadhaarTxn }],
			]);
			assert.ok(typedRequests.filter((r) => r.path.startsWith(`${V}/verifications/`)).every((r) => r.headers['x-api-key'] === API_KEY));
			assert.deepEqual(outputJson(typed, 'Verify PAN'), [{ fullName: 'ASHA VERMA', pan: 'ABCDE1234F', status: 'VALID', category: 'Individual', valid: true, reason: 'Success' }]);
			assert.deepEqual(outputJson(typed, 'Verify Unknown PAN'), [{ pan: 'ABCDE1234X', status: 'INVALID', valid: false, reason: 'No record found for this PAN' }]);
			assert.deepEqual(outputJson(typed, 'Verify Bank Account'), [{ accountExists: true, nameAtBank: 'ASHA VERMA', valid: true, reason: 'Success' }]);
			const [aadhaar] = outputItems(typed, 'Aadhaar Get Result');
			assert.equal(aadhaar.json.aadhaarId, 'XXXXXXXX1234');
			assert.equal(aadhaar.json.photo, undefined);
			assert.equal(aadhaar.binary.photo.mimeType, 'image/jpeg');
			const photo = await storedBytes(aadhaar.binary.photo);
			assert.deepEqual([...photo.subarray(0, 3)], [0xff, 0xd8, 0xff]);
			return `${kyc.length} calls`;
		});
	}

	await full('example "insufficiency loop": raised → What Is Missing → collected → uploaded → Resolve Insufficiency sends the answer and the document; the check is in progress again and "resolved" is notified; the notification delivered again sends nothing; the same question raised again is asked again and its new upload sent', async () => {
		await activateWorkflow(INSUFFICIENCY_WORKFLOW);
		// Against the provider's current pages (the sandbox's `current` mode), as the other examples run.
		await sandbox('POST', '/__sandbox/pages', { pages: 'current' });
		try {
			const webhookId = JSON.parse(fs.readFileSync(path.join(ROOT, 'examples/insufficiency-loop.json'), 'utf8')).nodes.find((node) => node.webhookId).webhookId;
			const webhookUrl = `${N8N_URL}/webhook/${webhookId}/webhook`;
			await waitFor(
				async () => (await sandboxState()).webhookConfigs.find((c) => c.endpoint === webhookUrl),
				Boolean,
				'the insufficiency example\'s webhook registered at the service',
				30_000,
			);
			await sleep(1000); // the trigger saves its secret in n8n after registering it
			const txn = profiles[1].transactionId;
			const label = 'Roll number as printed on the marksheet';
			const raised = await sandbox('POST', '/__sandbox/insufficiency', {
				transactionId: txn,
				verificationName: 'bgv-tenth',
				insufficiencies: [{ label, type: 'text' }],
			});
			const executions = await waitFor(
				() => n8n.executions(INSUFFICIENCY_WORKFLOW),
				(list) => list.some((e) => e.status === 'success' || e.status === 'error' || e.status === 'crashed'),
				'the finished execution of the insufficiency example',
				30_000,
			);
			const execution = executions.find((e) => e.status !== 'running' && e.status !== 'new');
			const error = execution.data.resultData.error;
			assert.equal(execution.status, 'success', error && `${error.node && error.node.name}: ${error.message}`);
			const [missing] = outputJson(execution, 'What Is Missing');
			assert.equal(missing.verificationId, raised.verificationId);
			assert.deepEqual(missing.insufficiencies, raised.insufficiencyData);
			const [upload] = outputJson(execution, 'Upload Document');
			const requests = await sandboxRequests();
			assert.equal(requests.filter((r) => r.path === '/utility/api/1.0/files' && r.query.fileCategory === 'bgv-tenth').length, 1);
			const resolutions = requests.filter((r) => r.method === 'POST' && r.path === `${V}/bgv/insufficiency`);
			assert.equal(resolutions.length, 1);
			assert.equal(resolutions[0].status, 200);
			assert.deepEqual(resolutions[0].body, {
				transactionId: txn,
				orgId: ORG_ID,
				subType: raised.verificationId,
				dataToUpload: {
					insufficiencyDataList: [{ insufficiencyId: raised.insufficiencyData[0].insufficiencyId, value: `Collected from the candidate: ${label}` }],
					documents: [
						{
							documentType: 'EducationalCertificates',
							fileType: 'Url',
							fileName: `insufficiency-${txn}.pdf`,
							document: { label: 'Requested document', url: upload.fileUrl },
						},
					],
				},
			});
			assert.deepEqual(outputJson(execution, 'Resolve Insufficiency'), [{ transactionId: txn, verificationId: raised.verificationId, resolved: true }]);
			const check = (await sandboxState()).transactions.find((t) => t.transactionId === txn).verificationList.find((c) => c.name === 'bgv-tenth');
			assert.equal(check.state, 'IN_PROGRESS');
			const resolved = await waitFor(
				async () => (await sandboxState()).deliveries.filter((d) => d.payload.transactionId === txn && d.payload.action === 'insufficiency-resolved'),
				(list) => list.length > 0,
				'the insufficiency-resolved notification',
			);
			assert.deepEqual(resolved[0].payload, { action: 'insufficiency-resolved', transactionId: txn, verificationId: check.subType });

			// The same notification delivered again, after the answers went: it ends at Still Missing?.
			const config = (await sandboxState()).webhookConfigs.find((c) => c.endpoint === webhookUrl);
			assert.equal(await signedPost(webhookUrl, config.apiKey, { action: 'insufficiency-raised', transactionId: txn, verificationId: 'bgv-tenth' }), 200);
			const again = await waitFor(
				async () => (await n8n.executions(INSUFFICIENCY_WORKFLOW)).filter((e) => e.id !== execution.id && e.status !== 'running' && e.status !== 'new'),
				(list) => list.length > 0,
				'the execution of the notification delivered again',
				30_000,
			);
			assert.equal(again[0].status, 'success');
			assert.throws(() => nodeRun(again[0], 'Collect From Candidate'), /did not run/);
			const resolvedAgain = (await sandboxRequests()).filter((r) => r.method === 'POST' && r.path === `${V}/bgv/insufficiency`);
			assert.equal(resolvedAgain.length, 1, 'the answers were sent again');

			// The same question raised again once answered (its row was removed by Mark Answered): the
			// candidate is asked again and the new upload is sent (Resolve's identity keeps the document URL).
			const { insufficiencyId } = raised.insufficiencyData[0];
			await sandbox('POST', '/__sandbox/insufficiency', { transactionId: txn, verificationName: 'bgv-tenth', insufficiencies: [{ label, type: 'text', insufficiencyId }] });
			const third = await waitFor(
				async () => (await n8n.executions(INSUFFICIENCY_WORKFLOW)).filter((e) => e.id !== execution.id && e.id !== again[0].id && e.status !== 'running' && e.status !== 'new'),
				(list) => list.length > 0,
				'the execution of the question raised again',
				30_000,
			);
			const thirdError = third[0].data.resultData.error;
			assert.equal(third[0].status, 'success', thirdError && `${thirdError.node && thirdError.node.name}: ${thirdError.message}`);
			assert.ok(nodeRun(third[0], 'Mark Asked'));
			const resolvedTwice = (await sandboxRequests()).filter((r) => r.method === 'POST' && r.path === `${V}/bgv/insufficiency`);
			assert.equal(resolvedTwice.length, 2, 'the question raised again was not answered');
			const urls = resolvedTwice.map((r) => r.body.dataToUpload.documents[0].document.url);
			assert.notEqual(urls[1], urls[0]);
			assert.equal(resolvedTwice[1].body.dataToUpload.insufficiencyDataList[0].insufficiencyId, insufficiencyId);
			return `execution ${execution.id}, subType ${raised.verificationId}; delivered again: execution ${again[0].id} ended at Still Missing?; raised again: execution ${third[0].id} sent a new upload`;
		} finally {
			await sandbox('POST', '/__sandbox/pages', { pages: 'contract' });
			await n8n.api('POST', `/workflows/${INSUFFICIENCY_WORKFLOW}/deactivate`).catch(() => {});
		}
	});

	await check('the n8n log holds neither the API key nor a webhook secret', async () => {
		const log = fs.readFileSync(path.join(RUN_DIR, 'n8n.log'), 'utf8');
		const secrets = [API_KEY, registration?.secret, secretWhileInactive, ...(await sandboxState()).webhookConfigs.map((c) => c.apiKey)];
		assert.ok(secrets.every((secret) => !secret || !log.includes(secret)), 'a secret appears in n8n.log');
	});
}

main().catch((error) => {
	console.log(`FAIL - checks.js crashed: ${String(error && error.stack).split('\n').slice(0, 3).join(' ')}`);
	process.exitCode = 1;
});
