'use strict';

/**
 * The checks of the queue-mode e2e run (test/e2e-queue/run.sh), one phase per call:
 *   two-workers  main + 2 workers + webhook processor: the example on workers, 10 × 100 candidates,
 *                the trigger (registration from main, notifications through the webhook processor,
 *                forgeries, secret rotation), a 100 MiB download, notifications per second
 *   one-worker   worker2 stopped: the same 10 × 100 candidates, timed (the speed-up figure); the
 *                Retry (through main) of an execution worker2 ran, on worker1
 *   crash-start  300 rows posted to a slow workflow; returns once 30 arrived (run.sh kills worker1)
 *   crash-rerun  worker1 started again: the same rows run again, nothing created twice
 *   restarted    every n8n process restarted: the trigger still works, nothing registered again
 *   logs         n8n stopped: no key or secret in any log
 * Prints `ok - ...` / `FAIL - ...` per check and `# figure ...` per measurement. Phases share
 * what they learn through <run dir>/checks-state.json (mode 600: it holds the n8n API key).
 *
 * Environment: CV_N8N_URL (main), CV_WEBHOOK_URL (webhook processor), CV_SANDBOX_URL, CV_RUN_DIR,
 * SANDBOX_API_KEY, CV_HEADER_AUTH_SECRET, CV_POSTGRES_PASSWORD.
 */

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const { createChecklist } = require('../e2e/checklist');
const { N8nClient, sleep } = require('../e2e/n8n-client');
const { sandboxClient } = require('../e2e/sandbox-client');

const ROOT = path.resolve(__dirname, '../..');
const env = process.env;
const RUN_DIR = env.CV_RUN_DIR;
const STATE_FILE = path.join(RUN_DIR, 'checks-state.json');
const FIGURES_FILE = path.join(RUN_DIR, 'figures.json');
const V = '/verification/api/1.0';
const OWNER = { email: 'queue-e2e@example.com', password: 'Queue-E2e-Passw0rd' };

const EXAMPLE_WORKFLOW = 'cvExampleActions';
const TRIGGER_WORKFLOW = 'cvExampleTrigger';
const BATCH_WORKFLOW = 'cvQueueBatch0001';
/** Rows sent 10 per Request Options batch, 300 ms apart, with On Error → Continue. */
const ROWS_WORKFLOW = 'cvQueueRows00001';
const CRASH_ROWS = 300;
const DOWNLOAD_WORKFLOW = 'cvQueueDownload1';
const HEADER_WEBHOOK_WORKFLOW = 'cvQueueHeaderWh1';
const BATCHES = 10;
const BATCH_SIZE = 100;
const DOWNLOAD_BYTES = 100 * 1024 * 1024;
const BENCH_NOTIFICATIONS = 120;
const BENCH_CONCURRENCY = 8;
// A busy 2-core machine: generous deadlines, always polled.
const EXECUTION_DEADLINE_MS = 240_000;

const triggerExample = JSON.parse(fs.readFileSync(path.join(ROOT, 'examples/verification-event-summary.json'), 'utf8'));
const triggerWebhookId = triggerExample.nodes.find((node) => node.type.endsWith('.candidateVerificationTrigger')).webhookId;
const TRIGGER_URL = `${env.CV_WEBHOOK_URL}/webhook/${triggerWebhookId}/webhook`;
const TRIGGER_URL_ON_MAIN = `${env.CV_N8N_URL}/webhook/${triggerWebhookId}/webhook`;
const webhookUrl = (name) => `${env.CV_WEBHOOK_URL}/webhook/${name}`;

const n8n = new N8nClient(env.CV_N8N_URL);
const { check, counts } = createChecklist();

const readJson = (file, fallback) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : fallback);
function saveState(state) {
	fs.writeFileSync(STATE_FILE, JSON.stringify(state, null, 2), { mode: 0o600 });
}
function figure(name, value, text) {
	const figures = readJson(FIGURES_FILE, {});
	figures[name] = value;
	fs.writeFileSync(FIGURES_FILE, JSON.stringify(figures, null, 2));
	console.log(`# figure ${text}`);
}

async function waitFor(read, predicate, what, timeoutMs = 30_000) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await read();
		if (predicate(value)) return value;
		if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${what}`);
		await sleep(500);
	}
}

// ---- sandbox ---------------------------------------------------------------------------------------

const {
	call: sandbox,
	state: sandboxState,
	requests: sandboxRequests,
} = sandboxClient(env.CV_SANDBOX_URL);
const configRequests = async () => (await sandboxRequests()).filter((r) => r.path.startsWith(`${V}/webhook-config`));
const triggerConfigs = async () => (await sandboxState()).webhookConfigs.filter((c) => c.endpoint === TRIGGER_URL);

/** A form for the batch candidates, created straight at the service (the batches only create profiles). */
async function createForm(name) {
	const apiKey = { 'x-api-key': env.SANDBOX_API_KEY };
	const purposes = await sandbox('GET', `${V}/purposes`, undefined, apiKey);
	const purpose = purposes.data.list.find((p) => p.name === 'BGV')._id;
	const form = await sandbox(
		'POST',
		`${V}/ekyc-forms`,
		{
			name,
			purpose,
			verifications: [{ name: 'bgv-employment', skipAllowed: false }],
			type: 'diy',
			sharing: { visibility: 'private' },
			userPaymentRequired: false,
		},
		apiKey,
	);
	return form.data._id;
}

// ---- n8n executions and the process that ran them ------------------------------------------------

/** Executions of a workflow without their data (one page of up to 250 is enough here). */
async function executionList(workflowId) {
	const page = await n8n.api('GET', `/executions?workflowId=${workflowId}&limit=250`);
	return page.data;
}
const finished = (list) => list.filter((e) => ['success', 'error', 'crashed', 'canceled'].includes(e.status));

function logOf(name) {
	const file = path.join(RUN_DIR, `${name}.log`);
	return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
}
/** Which process logged "Worker started execution <id>", per execution ID. */
function executedBy() {
	const by = {};
	for (const name of ['worker1', 'worker2', 'main', 'webhook']) {
		for (const match of logOf(name).matchAll(/Worker started execution (\d+) /g)) {
			(by[match[1]] ||= []).push(name);
		}
	}
	return by;
}
/** Asserts every execution ID was run by exactly one worker (main and the webhook processor run none); returns ID → worker. */
function assertRanOnWorkers(ids) {
	const by = executedBy();
	const enqueuedByMain = new Set([...logOf('main').matchAll(/Enqueued execution (\d+) /g)].map((m) => m[1]));
	const enqueuedByWebhook = new Set([...logOf('webhook').matchAll(/Enqueued execution (\d+) /g)].map((m) => m[1]));
	const workerOf = {};
	for (const id of ids.map(String)) {
		const runners = by[id] || [];
		assert.equal(runners.length, 1, `execution ${id} was started by ${runners.length ? runners.join(' and ') : 'no worker'}`);
		assert.match(runners[0], /^worker\d$/, `execution ${id} ran on ${runners[0]}`);
		assert.ok(enqueuedByMain.has(id) || enqueuedByWebhook.has(id), `execution ${id} was not enqueued by main or the webhook processor`);
		workerOf[id] = runners[0];
	}
	return workerOf;
}
const count = (values) => values.reduce((acc, value) => ({ ...acc, [value]: (acc[value] || 0) + 1 }), {});

function outputItems(execution, nodeName) {
	const runs = execution.data.resultData.runData[nodeName];
	if (!runs) throw new Error(`node "${nodeName}" did not run`);
	return runs[0].data?.main?.[0] ?? [];
}

const postJson = (url, body, headers = {}) =>
	fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const signed = (secret) => ({ 'x-api-key': secret, 'x-webhook-key': secret });

// ---- 10 × 100 candidates ----------------------------------------------------------------------------

/** Posts the batches to the webhook processor at once, waits for their executions; returns timings and placement. */
async function runBatches(label, formId) {
	const before = new Set((await executionList(BATCH_WORKFLOW)).map((e) => e.id));
	const started = Date.now();
	const answers = await Promise.all(
		Array.from({ length: BATCHES }, (_, batch) =>
			postJson(webhookUrl('cv-queue-batch'), { batch: `${label}${batch}`, size: BATCH_SIZE, formId }).then((r) => r.status),
		),
	);
	assert.deepEqual(answers, Array(BATCHES).fill(200), 'the webhook processor did not accept every batch');
	const executions = await waitFor(
		async () => finished(await executionList(BATCH_WORKFLOW)).filter((e) => !before.has(e.id)),
		(list) => list.length >= BATCHES,
		`${BATCHES} batch executions`,
		EXECUTION_DEADLINE_MS,
	);
	const seconds = (Math.max(...executions.map((e) => Date.parse(e.stoppedAt))) - started) / 1000;
	assert.equal(executions.length, BATCHES, `${executions.length} executions for ${BATCHES} batches`);
	const failedOnes = executions.filter((e) => e.status !== 'success');
	assert.equal(failedOnes.length, 0, `executions ${failedOnes.map((e) => `${e.id}:${e.status}`).join(', ')} did not succeed`);
	const workerOf = assertRanOnWorkers(executions.map((e) => e.id));

	const expected = [];
	for (let batch = 0; batch < BATCHES; batch += 1) {
		for (let index = 0; index < BATCH_SIZE; index += 1) expected.push(`Queue Candidate ${label}${batch}-${index}`);
	}
	const sent = (await sandboxRequests()).filter((r) => r.method === 'POST' && r.path === `${V}/ekyc-forms/${formId}/diy-candidate`);
	const perName = count(sent.map((r) => r.body.name));
	const missing = expected.filter((name) => !perName[name]);
	const twice = Object.keys(perName).filter((name) => perName[name] > 1);
	assert.equal(missing.length, 0, `${missing.length} candidates never arrived, e.g. ${missing[0]}`);
	assert.equal(twice.length, 0, `${twice.length} candidates arrived more than once, e.g. ${twice[0]}`);
	assert.equal(sent.length, BATCHES * BATCH_SIZE, `${sent.length} profile requests`);
	assert.ok(sent.every((r) => r.status === 200 && r.headers['x-api-key'] === env.SANDBOX_API_KEY));
	return { seconds, perWorker: count(Object.values(workerOf)) };
}
const describeSpread = (perWorker) => Object.entries(perWorker).sort().map(([worker, n]) => `${worker}: ${n}`).join(', ');

// ---- duplicate protection across workers ----------------------------------------------------------

const rowNames = (label, size) => Array.from({ length: size }, (_, index) => `Queue Candidate ${label}-${index}`);
/** How many candidates of each name the service holds. */
async function candidatesNamed(names) {
	const { transactions } = await sandboxState();
	const perName = count(transactions.map((t) => t.candidate && t.candidate.name));
	return names.map((name) => perName[name] || 0);
}
/** Posts rows to the rows workflow through the webhook processor; returns the new execution once finished. */
async function postRows(label, size, formId) {
	const before = new Set((await executionList(ROWS_WORKFLOW)).map((e) => e.id));
	const response = await postJson(webhookUrl('cv-queue-rows'), { batch: label, size, formId });
	assert.equal(response.status, 200, `the webhook processor answered ${response.status}`);
	const [execution] = await waitFor(
		async () => finished(await executionList(ROWS_WORKFLOW)).filter((e) => !before.has(e.id)),
		(list) => list.length === 1,
		`the execution of rows ${label}`,
		EXECUTION_DEADLINE_MS,
	);
	return n8n.api('GET', `/executions/${execution.id}?includeData=true`);
}
const rowOutcomes = (execution) =>
	outputItems(execution, 'Create Profile').map(({ json }) => (json.inDoubt ? 'in doubt' : json.alreadySent ? 'already sent' : json.error ? 'error' : 'sent'));

/** Phase two-workers: an execution the service refused one row of, run by worker2 (retried later on worker1). */
async function refusedRowOnWorker2(state) {
	await check('duplicate protection: a production execution whose third row the service refused fails on worker2 with 4 of 5 candidates accepted', async () => {
		state.duplicateFormId = await createForm('Queue e2e duplicate protection');
		try {
			for (let attempt = 0; attempt < 8 && !state.refused; attempt += 1) {
				const label = `refused${attempt}`;
				const names = rowNames(label, 5);
				await sandbox('POST', '/__sandbox/refusals', { names: [names[2]] });
				const execution = await postRows(label, 5, state.duplicateFormId);
				assert.equal(execution.status, 'error');
				assert.match(execution.data.resultData.error.message, /The service cannot take this candidate right now/);
				assert.deepEqual(await candidatesNamed(names), [1, 1, 0, 1, 1]);
				if (assertRanOnWorkers([execution.id])[execution.id] === 'worker2') state.refused = { executionId: execution.id, label };
			}
		} finally {
			await sandbox('POST', '/__sandbox/refusals', { names: [] });
		}
		assert.ok(state.refused, 'none of 8 executions ran on worker2');
		saveState(state);
		return `execution ${state.refused.executionId} on worker2`;
	});
}

/** Phase one-worker: worker2 is stopped, so the retry runs on worker1. */
async function retryOnTheOtherWorker(state) {
	await check('duplicate protection: a Retry from the Executions list (through main) of worker2\'s execution runs on worker1 and creates nothing twice', async () => {
		assert.ok(state.refused, 'the two-workers phase left no refused execution');
		const { executionId, label } = state.refused;
		// What the editor's Retry button calls ("Retry with original workflow").
		await n8n.rest('POST', `/executions/${executionId}/retry`, { loadWorkflow: false });
		const [retry] = await waitFor(
			async () => finished(await executionList(ROWS_WORKFLOW)).filter((e) => String(e.retryOf) === String(executionId)),
			(list) => list.length === 1,
			'the retry',
			EXECUTION_DEADLINE_MS,
		);
		const execution = await n8n.api('GET', `/executions/${retry.id}?includeData=true`);
		assert.equal(execution.status, 'success', JSON.stringify(execution.data.resultData.error));
		assert.equal(assertRanOnWorkers([retry.id])[retry.id], 'worker1');
		assert.deepEqual(rowOutcomes(execution), ['already sent', 'already sent', 'sent', 'already sent', 'already sent']);
		assert.deepEqual(await candidatesNamed(rowNames(label, 5)), [1, 1, 1, 1, 1]);
		return `retry ${retry.id} on worker1 of ${executionId} on worker2`;
	});
}

/** Phase crash-start: 300 rows posted; returns once some have arrived (run.sh then kills the worker). */
async function crashStart() {
	const state = readJson(STATE_FILE, {});
	await resumeSession(state);
	await check(`duplicate protection: ${CRASH_ROWS} rows posted, the worker is sending them when it is killed`, async () => {
		state.crashFormId = await createForm('Queue e2e crashed worker');
		saveState(state);
		const response = await postJson(webhookUrl('cv-queue-rows'), { batch: 'crash', size: CRASH_ROWS, formId: state.crashFormId });
		assert.equal(response.status, 200);
		const arrived = await waitFor(
			async () => (await candidatesNamed(rowNames('crash', CRASH_ROWS))).filter(Boolean).length,
			(n) => n >= 30,
			'30 rows to arrive',
			EXECUTION_DEADLINE_MS,
		);
		assert.ok(arrived < CRASH_ROWS, 'every row arrived before the kill');
		return `${arrived} of ${CRASH_ROWS} arrived`;
	});
}

/** Phase crash-rerun: worker1 was killed and started again; the same rows run again. */
async function crashRerun() {
	const state = readJson(STATE_FILE, {});
	await resumeSession(state);
	await check(`duplicate protection: after the worker was killed mid-batch, the same ${CRASH_ROWS} rows run again create nothing twice and name the rows in doubt`, async () => {
		const names = rowNames('crash', CRASH_ROWS);
		const arrivedAtKill = (await candidatesNamed(names)).filter(Boolean).length;
		// Whatever n8n does with the killed execution (leave it running, or run it again), let it settle.
		await waitFor(
			async () => (await executionList(ROWS_WORKFLOW)).filter((e) => e.status === 'running' || e.status === 'new').length,
			(running) => running === 0,
			'the killed execution to settle',
			20_000,
		).catch(() => undefined);
		const execution = await postRows('crash', CRASH_ROWS, state.crashFormId);
		const perName = await candidatesNamed(names);
		assert.ok(perName.every((n) => n <= 1), `${perName.filter((n) => n > 1).length} candidates exist twice`);
		if (execution.status === 'success') {
			assert.deepEqual(perName, names.map(() => 1));
			return `no row in doubt; ${arrivedAtKill} arrived before the kill, the rest now`;
		}
		const { message } = execution.data.resultData.error;
		const match = /^(?:Item (\d+) was|\d+ items \(([\d, ]+)\) were) sent by an earlier execution that got no answer/.exec(message);
		assert.ok(match, `the rerun failed with "${message}"`);
		const inDoubt = (match[1] ?? match[2]).split(', ').map(Number);
		// Rows are claimed one Request Options batch (10) at a time: only the batch on its way is in doubt.
		assert.ok(inDoubt.length <= 10, `${inDoubt.length} rows in doubt`);
		const firstInDoubt = Math.min(...inDoubt);
		assert.ok(perName.slice(0, firstInDoubt).every((n) => n === 1), 'a row before the rows in doubt is missing');
		return `"${message}"; ${arrivedAtKill} arrived before the kill`;
	});
}

// ---- phases -------------------------------------------------------------------------------------------

async function twoWorkers() {
	const state = {};
	const ready = await check('owner account, a public API key and the webhook workflows activated, through main', async () => {
		assert.equal(await n8n.ownerSession(OWNER), 'created');
		state.n8nApiKey = await n8n.createApiKey('queue-e2e');
		saveState(state);
		// The workflows that start from n8n's Webhook node (the trigger is activated by its own check).
		for (const id of [BATCH_WORKFLOW, ROWS_WORKFLOW, DOWNLOAD_WORKFLOW, HEADER_WEBHOOK_WORKFLOW]) await n8n.api('POST', `/workflows/${id}/activate`);
	});
	if (!ready) return;

	await check('the example "candidates to reports" (run from main like the editor does) executes on a worker, not on main', async () => {
		const executionId = await n8n.runManually(EXAMPLE_WORKFLOW, 'Start');
		const run = await n8n.waitForExecution(executionId, EXECUTION_DEADLINE_MS);
		const error = run.data.resultData.error;
		assert.equal(run.status, 'success', error && `${error.node && error.node.name}: ${error.message}`);
		const example = JSON.parse(fs.readFileSync(path.join(ROOT, 'examples/candidates-to-reports.json'), 'utf8'));
		const expected = example.nodes.filter((node) => !node.type.endsWith('stickyNote')).map((node) => node.name);
		assert.deepEqual(Object.keys(run.data.resultData.runData).sort(), expected.sort());
		const profiles = outputItems(run, 'Create Profile').map((item) => item.json.transactionId);
		assert.equal(profiles.length, 3);
		const reports = outputItems(run, 'Download Report');
		assert.ok(reports.every((item) => item.binary.report.id.startsWith('database:')), 'the reports are not in the database binary store');
		const { bytes } = await n8n.binaryData(reports[0].binary.report.id);
		assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-', 'main cannot read the report a worker stored');
		const workerOf = assertRanOnWorkers([executionId]);
		assert.ok(!/Worker started execution/.test(logOf('main')), 'main started an execution itself');
		return `execution ${executionId} on ${workerOf[executionId]}, ${expected.length} nodes, report readable from main`;
	});

	state.formId = await createForm('Queue e2e batches');
	saveState(state);
	await check(`${BATCHES * BATCH_SIZE} candidates as ${BATCHES} executions of ${BATCH_SIZE} via the webhook processor: spread over both workers, each candidate at the service exactly once`, async () => {
		const { seconds, perWorker } = await runBatches('two-', state.formId);
		assert.ok(perWorker.worker1 > 0 && perWorker.worker2 > 0, `only ${describeSpread(perWorker)}`);
		figure('batches2WorkersSeconds', seconds, `${BATCHES} × ${BATCH_SIZE} candidates with 2 workers: ${seconds.toFixed(1)} s (${describeSpread(perWorker)})`);
		return `${seconds.toFixed(1)} s, ${describeSpread(perWorker)}`;
	});

	await refusedRowOnWorker2(state);

	// ---- the trigger -------------------------------------------------------------------------------
	let registration;
	// n8n 2.41 publishes through an outbox that the (leader) main drains right after answering: the
	// registration is polled for, not expected before the answer.
	await check('activating the trigger through main registers exactly one configuration, at the webhook processor\'s URL, with no execution', async () => {
		assert.equal((await triggerConfigs()).length, 0, 'a configuration existed before activation');
		const before = (await configRequests()).length;
		const executionsBefore = (await executionList(TRIGGER_WORKFLOW)).length;
		await n8n.api('POST', `/workflows/${TRIGGER_WORKFLOW}/activate`);
		await waitFor(triggerConfigs, (configs) => configs.length > 0, 'the registration', 60_000);
		await sleep(1000);
		const sent = (await configRequests()).slice(before);
		assert.deepEqual(sent.map((r) => `${r.method} ${r.path}`), [`POST ${V}/webhook-config`]);
		assert.equal(sent[0].body.endpoint, TRIGGER_URL);
		assert.ok(sent[0].headers['x-api-key'] === env.SANDBOX_API_KEY, 'not sent with the credential key');
		const configs = await triggerConfigs();
		assert.equal(configs.length, 1);
		assert.ok(configs[0].apiKey.length >= 32 && configs[0].apiKey !== env.SANDBOX_API_KEY);
		assert.equal((await executionList(TRIGGER_WORKFLOW)).length, executionsBefore, 'activation ran an execution');
		registration = { id: configs[0].id, secrets: [configs[0].apiKey] };
		state.registration = registration;
		saveState(state);
		return `config ${configs[0].id} → ${TRIGGER_URL}`;
	});
	if (!registration) return;
	const secret = () => registration.secrets.at(-1);
	const notification = (newState = 'COMPLETED') => ({ transactionId: 'TXN-QUEUE', verificationId: 'bgv-employment', newState });
	const triggerExecutions = () => executionList(TRIGGER_WORKFLOW);

	await check('a signed notification posted to the webhook processor is accepted there and executed by a worker; main serves no production webhook', async () => {
		const before = (await triggerExecutions()).length;
		assert.equal((await postJson(TRIGGER_URL, notification(), signed(secret()))).status, 200);
		const list = await waitFor(triggerExecutions, (l) => finished(l).length > before, 'the trigger execution', EXECUTION_DEADLINE_MS);
		assert.equal(list.length, before + 1);
		const [newest] = list;
		assert.equal(newest.status, 'success');
		assert.equal(newest.mode, 'webhook');
		const workerOf = assertRanOnWorkers([newest.id]);
		assert.ok(new RegExp(`Enqueued execution ${newest.id} `).test(logOf('webhook')), 'not enqueued by the webhook processor');
		const onMain = await postJson(TRIGGER_URL_ON_MAIN, notification(), signed(secret()));
		assert.equal(onMain.status, 404, `main answered ${onMain.status}`);
		return `execution ${newest.id} on ${workerOf[newest.id]}; main answers 404`;
	});

	await check('a state change at the service (sandbox transition) is delivered to the webhook processor and executed', async () => {
		const [transaction] = (await sandboxState()).transactions;
		const before = (await triggerExecutions()).length;
		const deliveries = (await sandboxState()).deliveries.length;
		await sandbox('POST', '/__sandbox/transition', { transactionId: transaction.transactionId, verificationName: 'bgv-employment', newState: 'COMPLETED' });
		const list = await waitFor(triggerExecutions, (l) => finished(l).length > before, 'the trigger execution', EXECUTION_DEADLINE_MS);
		assert.equal(list[0].status, 'success');
		const ours = (await sandboxState()).deliveries.slice(deliveries).filter((d) => d.endpoint === TRIGGER_URL);
		assert.deepEqual(ours.map((d) => d.statusCode), [200]);
		assertRanOnWorkers([list[0].id]);
	});

	await check('forged notifications get 401 from the webhook processor and start nothing', async () => {
		const before = (await triggerExecutions()).length;
		const answers = [];
		for (const headers of [{}, signed('forged'), { 'x-api-key': secret(), 'x-webhook-key': 'forged' }, signed(env.SANDBOX_API_KEY)]) {
			answers.push((await postJson(TRIGGER_URL, notification(), headers)).status);
		}
		assert.deepEqual(answers, [401, 401, 401, 401]);
		await sleep(3000);
		assert.equal((await triggerExecutions()).length, before, 'a forged notification started an execution');
	});

	await check('deactivate + activate through main rotates the secret (same configuration, PUT) and the webhook processor honours the new one at once', async () => {
		const before = (await configRequests()).length;
		const old = secret();
		await n8n.api('POST', `/workflows/${TRIGGER_WORKFLOW}/deactivate`);
		const [whileInactive] = await waitFor(triggerConfigs, (configs) => configs[0].apiKey !== old, 'deactivation to replace the secret at the service', 60_000);
		await waitFor(() => postJson(TRIGGER_URL, notification(), {}).then((r) => r.status), (status) => status === 404, 'the webhook to be removed', 60_000);
		await n8n.api('POST', `/workflows/${TRIGGER_WORKFLOW}/activate`);
		const [config] = await waitFor(
			triggerConfigs,
			(configs) => configs.length === 1 && configs[0].apiKey !== whileInactive.apiKey,
			'the new secret at the service',
			60_000,
		);
		// No waiting from here: the first requests once the service holds the new secret.
		const withNew = (await postJson(TRIGGER_URL, notification(), signed(config.apiKey))).status;
		const withOld = (await postJson(TRIGGER_URL, notification(), signed(old))).status;
		assert.deepEqual({ withNew, withOld }, { withNew: 200, withOld: 401 });
		const sent = (await configRequests()).slice(before);
		assert.deepEqual(sent.map((r) => `${r.method} ${r.path}`), [`PUT ${V}/webhook-config/${registration.id}`, `PUT ${V}/webhook-config/${registration.id}`]);
		assert.equal(config.id, registration.id);
		registration.secrets.push(whileInactive.apiKey, config.apiKey);
		state.registration = registration;
		saveState(state);
	});

	// ---- 100 MiB through the binary store ----------------------------------------------------------------
	await check('a 100 MiB File → Download on a worker lands in the database binary store and the next node (Crypto, SHA-256) reads the same bytes', async () => {
		const file = await sandbox('POST', '/__sandbox/files', { sizeBytes: DOWNLOAD_BYTES, filename: 'large-report.bin' });
		const before = new Set((await executionList(DOWNLOAD_WORKFLOW)).map((e) => e.id));
		assert.equal((await postJson(webhookUrl('cv-queue-download'), { url: file.url })).status, 200);
		const [execution] = await waitFor(
			async () => finished(await executionList(DOWNLOAD_WORKFLOW)).filter((e) => !before.has(e.id)),
			(list) => list.length > 0,
			'the download execution',
			EXECUTION_DEADLINE_MS,
		);
		const run = await n8n.waitForExecution(execution.id, 60_000);
		const error = run.data.resultData.error;
		assert.equal(run.status, 'success', error && `${error.node && error.node.name}: ${error.message}`);
		const workerOf = assertRanOnWorkers([execution.id]);
		const [downloaded] = outputItems(run, 'Download File');
		const binary = downloaded.binary.file;
		assert.match(binary.id, /^database:/, `binary id ${binary.id}`);
		const [hashed] = outputItems(run, 'Hash File');
		assert.equal(hashed.json.sha256, file.sha256, 'the next node read other bytes');
		assert.equal(downloaded.json.bytes, DOWNLOAD_BYTES, `the node reported ${downloaded.json.bytes} bytes`);
		return `execution ${execution.id} on ${workerOf[execution.id]}, ${binary.id.split(':')[0]} store, SHA-256 ${file.sha256.slice(0, 12)}…`;
	});

	// ---- notifications per second: the trigger against n8n's Webhook node with header auth ------------
	await check(`notifications per second through the webhook processor: ${BENCH_NOTIFICATIONS} to the trigger and ${BENCH_NOTIFICATIONS} to a Webhook node with header auth, all accepted and executed once`, async () => {
		const targets = {
			trigger: { url: TRIGGER_URL, headers: signed(secret()), workflow: TRIGGER_WORKFLOW },
			webhookNode: { url: webhookUrl('cv-queue-header-auth'), headers: { 'x-webhook-key': env.CV_HEADER_AUTH_SECRET }, workflow: HEADER_WEBHOOK_WORKFLOW },
		};
		const results = { trigger: { accepted: 0, ms: 0 }, webhookNode: { accepted: 0, ms: 0 } };
		const before = {};
		for (const [name, target] of Object.entries(targets)) before[name] = (await executionList(target.workflow)).length;
		// Alternating rounds, so both see the same machine load.
		for (let round = 0; round < 4; round += 1) {
			for (const [name, target] of Object.entries(targets)) {
				const started = Date.now();
				let next = 0;
				const worker = async () => {
					while (next < BENCH_NOTIFICATIONS / 4) {
						next += 1;
						const response = await postJson(target.url, notification('IN_PROGRESS'), target.headers);
						if (response.status === 200) results[name].accepted += 1;
						await response.arrayBuffer();
					}
				};
				await Promise.all(Array.from({ length: BENCH_CONCURRENCY }, worker));
				results[name].ms += Date.now() - started;
			}
		}
		for (const [name, target] of Object.entries(targets)) {
			assert.equal(results[name].accepted, BENCH_NOTIFICATIONS, `${name}: ${results[name].accepted} accepted`);
			const expected = before[name] + BENCH_NOTIFICATIONS;
			const list = await waitFor(() => executionList(target.workflow), (l) => finished(l).length >= expected, `${name} executions`, EXECUTION_DEADLINE_MS);
			assert.equal(list.length, expected, `${name}: ${list.length - before[name]} executions`);
			assert.ok(list.every((e) => e.status === 'success'), `${name}: an execution failed`);
		}
		const perSecond = (name) => (results[name].accepted * 1000) / results[name].ms;
		const ratio = perSecond('trigger') / perSecond('webhookNode');
		figure('notificationsPerSecond', { trigger: perSecond('trigger'), webhookNode: perSecond('webhookNode'), ratio },
			`accepted notifications/s through the webhook processor (${BENCH_CONCURRENCY} concurrent): trigger ${perSecond('trigger').toFixed(1)}, Webhook node + header auth ${perSecond('webhookNode').toFixed(1)}, ratio ${ratio.toFixed(2)}`);
		return `trigger ${perSecond('trigger').toFixed(1)}/s, Webhook node ${perSecond('webhookNode').toFixed(1)}/s`;
	});

	state.configRequestsBeforeRestart = (await configRequests()).length;
	saveState(state);
}

async function resumeSession(state) {
	await n8n.ownerSession(OWNER);
	n8n.apiKey = state.n8nApiKey;
}

async function oneWorker() {
	const state = readJson(STATE_FILE, {});
	await resumeSession(state);
	await check(`the same ${BATCHES} × ${BATCH_SIZE} candidates with worker2 stopped: all on worker1, each candidate exactly once`, async () => {
		const { seconds, perWorker } = await runBatches('one-', await createForm('Queue e2e batches, one worker'));
		assert.deepEqual(Object.keys(perWorker), ['worker1']);
		const two = readJson(FIGURES_FILE, {}).batches2WorkersSeconds;
		figure('batches1WorkerSeconds', seconds, `${BATCHES} × ${BATCH_SIZE} candidates with 1 worker: ${seconds.toFixed(1)} s; 1 worker / 2 workers = ${(seconds / two).toFixed(2)}`);
		return `${seconds.toFixed(1)} s`;
	});
	await retryOnTheOtherWorker(state);
}

async function restarted() {
	const state = readJson(STATE_FILE, {});
	await resumeSession(state);
	await check('duplicate protection after every n8n process restarted: the rows retried before are not sent again', async () => {
		assert.ok(state.refused, 'the two-workers phase left no refused execution');
		const { label } = state.refused;
		const execution = await postRows(label, 5, state.duplicateFormId);
		assert.equal(execution.status, 'success', JSON.stringify(execution.data.resultData.error));
		const outputs = outputItems(execution, 'Create Profile').map(({ json }) => json);
		assert.deepEqual(outputs.map((json) => json.alreadySent), [true, true, true, true, true]);
		const { transactions } = await sandboxState();
		const idOf = (name) => transactions.find((t) => t.candidate && t.candidate.name === name).transactionId;
		// The IDs come from the node's static data where n8n kept it (saved after production and retry
		// executions, the last save winning); where it did not, the ID is null, never another row's.
		const ids = rowNames(label, 5).map(idOf);
		outputs.forEach((json, index) => assert.ok(json.transactionId === null || json.transactionId === ids[index]));
		return `${outputs.filter((json) => json.transactionId !== null).length} of 5 with their transaction ID`;
		assert.deepEqual(await candidatesNamed(rowNames(label, 5)), [1, 1, 1, 1, 1]);
	});
	await check('after every n8n process restarted, the trigger works without registering again (no POST/PUT webhook-config)', async () => {
		const before = (await executionList(TRIGGER_WORKFLOW)).length;
		const deliveries = (await sandboxState()).deliveries.length;
		const [transaction] = (await sandboxState()).transactions;
		await sandbox('POST', '/__sandbox/transition', { transactionId: transaction.transactionId, verificationName: 'bgv-employment', newState: 'IN_PROGRESS' });
		const list = await waitFor(() => executionList(TRIGGER_WORKFLOW), (l) => finished(l).length > before, 'the trigger execution', EXECUTION_DEADLINE_MS);
		assert.equal(list[0].status, 'success');
		const ours = (await sandboxState()).deliveries.slice(deliveries).filter((d) => d.endpoint === TRIGGER_URL);
		assert.deepEqual(ours.map((d) => d.statusCode), [200]);
		const workerOf = assertRanOnWorkers([list[0].id]);
		assert.equal((await postJson(TRIGGER_URL, { transactionId: 'TXN-QUEUE', verificationId: 'bgv-employment', newState: 'COMPLETED' }, signed('forged'))).status, 401);
		assert.equal((await configRequests()).length, state.configRequestsBeforeRestart, 'the trigger called the service\'s webhook-config API again');
		const configs = await triggerConfigs();
		assert.equal(configs.length, 1);
		assert.equal(configs[0].apiKey, state.registration.secrets.at(-1));
		return `execution ${list[0].id} on ${workerOf[list[0].id]}`;
	});
}

async function logs() {
	const state = readJson(STATE_FILE, {});
	await check('no API key, webhook secret, n8n API key or database password in any process\'s log', async () => {
		const configs = (await sandboxState()).webhookConfigs.filter((c) => c.endpoint === TRIGGER_URL);
		const secrets = [
			env.SANDBOX_API_KEY,
			env.CV_HEADER_AUTH_SECRET,
			env.CV_POSTGRES_PASSWORD,
			state.n8nApiKey,
			...((state.registration && state.registration.secrets) || []),
			...configs.map((c) => c.apiKey),
		].filter(Boolean);
		// sandbox.log is the fake service's console, which prints its own key when it starts.
		const files = fs
			.readdirSync(RUN_DIR)
			.filter((name) => /\.(log|out|stderr)$/.test(name) && name !== 'sandbox.log');
		assert.ok(['main.log', 'worker1.log', 'worker2.log', 'webhook.log'].every((name) => files.includes(name)));
		const leaks = files.filter((name) => {
			const text = fs.readFileSync(path.join(RUN_DIR, name), 'utf8');
			return secrets.some((secret) => text.includes(secret));
		});
		assert.deepEqual(leaks, []);
		return `${files.length} logs, ${secrets.length} secrets`;
	});
}

const phases = { 'two-workers': twoWorkers, 'one-worker': oneWorker, 'crash-start': crashStart, 'crash-rerun': crashRerun, restarted, logs };

async function main() {
	const phase = phases[process.argv[2]];
	if (!phase) throw new Error(`unknown phase ${process.argv[2]} (one of ${Object.keys(phases).join(', ')})`);
	await phase();
	console.log(`# checks.js ${process.argv[2]}: ${counts.passed} passed, ${counts.failed} failed`);
	process.exitCode = counts.failed === 0 ? 0 : 1;
}

main().catch((error) => {
	console.log(`FAIL - checks.js crashed: ${String(error && error.stack).split('\n').slice(0, 3).join(' ')}`);
	process.exitCode = 1;
});
