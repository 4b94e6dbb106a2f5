'use strict';

/**
 * The checks of the queue-mode e2e run (test/e2e-queue/run.sh), one phase per call:
 *   setup        owner account, public API key, the webhook workflows activated
 *   two-workers  main + 2 workers + webhook processor: the example on workers, 10 × 100 candidates,
 *                the trigger (registration from main, notifications through the webhook processor,
 *                forgeries, secret rotation), a 100 MiB download, notifications per second
 *   concurrent-rows  duplicate protection with one row per execution, the service answering in 150 ms:
 *                (a) 40 executions at once, then the same rows 4 at a time; (b) 10 pairs of executions
 *                with the same row at once; CV_QUEUE_DUPLICATE_RUNS runs each (default 5)
 *   one-worker   worker2 stopped: the same 10 × 100 candidates, timed (the speed-up figure); the
 *                Retry (through main) of an execution worker2 ran, on worker1
 *   crash-start  (c) the service holds every answer; 300 rows posted at the default settings; returns
 *                once 200 requests arrived (run.sh kills worker1); CV_CRASH_RUN numbers the run
 *   crash-rerun  worker1 started again, the service answering: the same rows run again, nothing
 *                created twice, at most 225 in doubt
 *   restarted    every n8n process restarted: the trigger still works, nothing registered again
 *   logs         n8n stopped: no key or secret in any log
 * and for `run.sh stalled-job` (n8n 1.x): stall-setup; stall-start (300 rows, 200 at the service,
 *   answers held); stall-rerun (the worker stopped: n8n's rerun on the other one sends only rows never
 *   claimed); stall-end (the stopped worker resumed: every row exists once). CV_STALL_RUN numbers the run.
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
const { HELD_IN_DOUBT, isInDoubt } = require('../e2e/in-doubt');
const { NOT_IN_A_FIRST_CONTRACT_RUN } = require('../e2e/report-branches');

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
/** Rows at the default settings (Max Concurrent Requests 200, no batching), On Error → Continue (error output); Wait for an Answer Elsewhere 5 s (not 30): the killed worker will never answer, and the suite has a time budget. */
const CRASH_WORKFLOW = 'cvQueueCrashRow1';
const CRASH_ROWS = 300;
/** Requests at the (holding) service when the worker is killed, and the most rows the rerun may name in doubt. */
const CRASH_ARRIVED_AT_KILL = 200;
const CRASH_MAX_IN_DOUBT = 225;
/** The run of the crash scenario (run.sh repeats crash-start, kill, restart, crash-rerun). */
const CRASH_RUN = Number(env.CV_CRASH_RUN || 1);
/** One row per execution: default settings (On Error → Stop), and On Error → Continue (error output). */
const ONE_ROW_WORKFLOW = 'cvQueueOneRow001';
const ONE_ROW_CONTINUE_WORKFLOW = 'cvQueueOneRowCe1';
/** How often the concurrent-rows scenarios (a) and (b) repeat, with new names each time. */
const DUPLICATE_RUNS = Number(env.CV_QUEUE_DUPLICATE_RUNS || 5);
const CONCURRENT_ROWS = 40;
const SECOND_PASS_AT_ONCE = 4;
const PAIRS = 10;
const CANDIDATE_PATH = '/diy-candidate';
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

// ---- one row per execution, many executions at once (scenarios a and b) -------------------------------

/** Sets the sandbox's latency at run time (POST /__sandbox/latency; { ms: 0 } restores). */
const setLatency = (settings) => sandbox('POST', '/__sandbox/latency', settings);

/** The Create Profile items of an execution from every output (success and error), or the execution's error. */
function createOutcomes(execution) {
	const run = (execution.data.resultData.runData['Create Profile'] || [])[0];
	const items = (run?.data?.main ?? []).flat().filter(Boolean);
	if (items.length === 0) {
		const message = execution.data.resultData.error?.message ?? run?.error?.message ?? `status ${execution.status}, no output`;
		return [{ kind: HELD_IN_DOUBT.test(message) ? 'in doubt' : 'failed', message }];
	}
	return items.map(({ json, pairedItem }) => ({
		row: Array.isArray(pairedItem) ? pairedItem[0]?.item : pairedItem?.item,
		// On the error output an item in doubt says so in its error (n8n passes only `error` there).
		kind: isInDoubt(json) ? 'in doubt' : json.alreadySent ? 'already sent' : json.error ? 'failed' : json.transactionId ? 'sent' : 'no ID',
		transactionId: json.transactionId,
		message: json.error,
		json,
	}));
}
const rowOf = (execution) => outputItems(execution, 'Row Received')[0].json.body.name;

/** Posts one row per call to a one-row workflow, all at once; returns the finished executions with data. */
async function postOneRowEach(workflowId, hook, names, formId) {
	const before = new Set((await executionList(workflowId)).map((e) => e.id));
	// The same name always posts the same row (so the same request), whatever calls it is posted with.
	const genderOf = (name) => ['Female', 'Male', 'Other'][[...name].reduce((sum, char) => sum + char.charCodeAt(0), 0) % 3];
	const answers = await Promise.all(names.map((name) => postJson(webhookUrl(hook), { name, formId, gender: genderOf(name) }).then((r) => r.status)));
	assert.deepEqual(answers, names.map(() => 200), 'the webhook processor did not accept every call');
	const list = await waitFor(
		async () => finished(await executionList(workflowId)).filter((e) => !before.has(e.id)),
		(l) => l.length >= names.length,
		`${names.length} executions of ${workflowId}`,
		EXECUTION_DEADLINE_MS,
	);
	assert.equal(list.length, names.length, `${list.length} executions for ${names.length} calls`);
	return Promise.all(list.map((e) => n8n.api('GET', `/executions/${e.id}?includeData=true`)));
}
/** Candidates of each name at the service, as { name: count }. */
async function candidateCounts(names) {
	const counts = await candidatesNamed(names);
	return Object.fromEntries(names.map((name, index) => [name, counts[index]]));
}

/**
 * (a) 40 executions at once with one row each (the service answering in 150 ms): 40 candidates; then
 * the same 40 rows again, 4 calls at a time: nothing created twice, every output item alreadySent.
 */
async function concurrentRowsScenario(run, formId) {
	const names = rowNames(`a${run}`, CONCURRENT_ROWS);
	const first = await postOneRowEach(ONE_ROW_WORKFLOW, 'cv-queue-one-row', names, formId);
	const afterFirst = await candidateCounts(names);
	const second = [];
	for (let at = 0; at < names.length; at += SECOND_PASS_AT_ONCE) {
		second.push(...(await postOneRowEach(ONE_ROW_WORKFLOW, 'cv-queue-one-row', names.slice(at, at + SECOND_PASS_AT_ONCE), formId)));
	}
	const after = await candidateCounts(names);
	const secondKinds = count(second.flatMap((e) => createOutcomes(e).map((o) => o.kind)));
	return {
		run,
		created: names.filter((name) => afterFirst[name] >= 1).length,
		createdTwiceFirstPass: names.filter((name) => afterFirst[name] > 1).length,
		firstPassFailed: first.filter((e) => e.status !== 'success').map((e) => createOutcomes(e)[0].message),
		createdTwice: names.filter((name) => after[name] > 1).length,
		secondAlreadySent: second.filter((e) => createOutcomes(e).every((o) => o.json && o.json.alreadySent === true)).length,
		secondKinds,
	};
}

/**
 * (b) the same row from two executions at the same instant, 10 pairs (20 calls at once). Per pair:
 * one sends it (transactionId, no alreadySent), the other says alreadySent with the same transactionId.
 */
async function pairedRowsScenario(run, formId) {
	const names = rowNames(`b${run}`, PAIRS);
	const executions = await postOneRowEach(ONE_ROW_CONTINUE_WORKFLOW, 'cv-queue-one-row-continue', names.flatMap((name) => [name, name]), formId);
	const after = await candidateCounts(names);
	const pairs = names.map((name) => {
		const outcomes = executions.filter((e) => rowOf(e) === name).map((e) => createOutcomes(e)[0]);
		const sent = outcomes.filter((o) => o.kind === 'sent');
		const other = outcomes.find((o) => o !== sent[0]);
		return {
			name,
			kinds: outcomes.map((o) => o.kind).sort(),
			good: outcomes.length === 2 && sent.length === 1 && other.kind === 'already sent' && other.transactionId === sent[0].transactionId && !!sent[0].transactionId,
			// The other waited for the answer: alreadySent with the sender's ID, or (it started after the
			// sender had ended, e.g. queued for a free worker slot) with none and idKnown: false.
			sentOnceAndSaid:
				outcomes.length === 2 &&
				sent.length === 1 &&
				!!sent[0].transactionId &&
				other.kind === 'already sent' &&
				(other.transactionId === sent[0].transactionId || (!('transactionId' in other.json) && other.json.idKnown === false)),
			inDoubt: outcomes.some((o) => o.kind === 'in doubt'),
			alreadySentWithoutId: outcomes.some((o) => o.kind === 'already sent' && !o.transactionId),
			alreadySentOtherId: sent.length === 1 && outcomes.some((o) => o.kind === 'already sent' && o.transactionId && o.transactionId !== sent[0].transactionId),
			bothSent: sent.length === 2,
		};
	});
	return {
		run,
		createdTwice: names.filter((name) => after[name] > 1).length,
		missing: names.filter((name) => !after[name]).length,
		good: pairs.filter((p) => p.good).length,
		sentOnceAndSaid: pairs.filter((p) => p.sentOnceAndSaid).length,
		inDoubt: pairs.filter((p) => p.inDoubt).length,
		alreadySentWithoutId: pairs.filter((p) => p.alreadySentWithoutId).length,
		alreadySentOtherId: pairs.filter((p) => p.alreadySentOtherId).length,
		bothSent: pairs.filter((p) => p.bothSent).length,
		kinds: count(pairs.map((p) => p.kinds.join('+'))),
	};
}

/** Phase concurrent-rows (both workers, concurrency 5 each): scenarios (a) and (b), DUPLICATE_RUNS times each. */
async function concurrentRows() {
	const state = readJson(STATE_FILE, {});
	await resumeSession(state);
	const formId = await createForm('Queue e2e one row per execution');
	const describe = (runs, text) => runs.map((r) => `run ${r.run}: ${text(r)}`).join('; ');

	// (a)
	const aRuns = [];
	let aError;
	const aStarted = Date.now();
	await setLatency({ ms: 150, paths: [CANDIDATE_PATH], hold: true });
	try {
		for (let run = 1; run <= DUPLICATE_RUNS; run += 1) {
			const result = await concurrentRowsScenario(run, formId);
			aRuns.push(result);
			figure(`concurrentRowsRun${run}`, result, `(a) run ${run}: ${result.created} of ${CONCURRENT_ROWS} created by ${CONCURRENT_ROWS} executions at once (${result.createdTwiceFirstPass} of them twice, ${result.firstPassFailed.length} executions failed${result.firstPassFailed.length ? `, e.g. "${result.firstPassFailed[0]}"` : ''}); the same rows ${SECOND_PASS_AT_ONCE} at a time: ${result.createdTwice} created twice, ${result.secondAlreadySent} of ${CONCURRENT_ROWS} all alreadySent (${JSON.stringify(result.secondKinds)})`);
		}
	} catch (error) {
		aError = error;
	} finally {
		await setLatency({ ms: 0 });
	}
	figure('concurrentRowsSeconds', (Date.now() - aStarted) / 1000, `(a) ${aRuns.length} runs took ${((Date.now() - aStarted) / 1000).toFixed(0)} s`);
	await check(`duplicate protection (a): ${CONCURRENT_ROWS} executions at once, one row each, create ${CONCURRENT_ROWS} candidates; the same rows again ${SECOND_PASS_AT_ONCE} at a time create none twice, in each of ${DUPLICATE_RUNS} runs`, async () => {
		if (aError) throw aError;
		assert.equal(aRuns.length, DUPLICATE_RUNS);
		const bad = aRuns.filter((r) => r.created !== CONCURRENT_ROWS || r.firstPassFailed.length > 0 || r.createdTwice > 0);
		assert.equal(bad.length, 0, describe(bad, (r) => `${r.created} created, ${r.firstPassFailed.length} executions failed, ${r.createdTwice} created twice`));
		return describe(aRuns, (r) => `${r.createdTwice} created twice`);
	});
	await check(`duplicate protection (a): in the second pass every output item says alreadySent: true, in each of ${DUPLICATE_RUNS} runs`, async () => {
		if (aError) throw aError;
		const bad = aRuns.filter((r) => r.secondAlreadySent !== CONCURRENT_ROWS);
		assert.equal(bad.length, 0, describe(bad, (r) => `${r.secondAlreadySent} of ${CONCURRENT_ROWS} alreadySent ${JSON.stringify(r.secondKinds)}`));
	});

	// (b)
	const bRuns = [];
	let bError;
	const bStarted = Date.now();
	await setLatency({ ms: 150, paths: [CANDIDATE_PATH], hold: true });
	try {
		for (let run = 1; run <= DUPLICATE_RUNS; run += 1) {
			const result = await pairedRowsScenario(run, formId);
			bRuns.push(result);
			figure(`pairedRowsRun${run}`, result, `(b) run ${run}: ${PAIRS} pairs of executions with the same row at once: ${result.createdTwice} created twice, ${result.missing} not created, ${result.good} pairs sent + alreadySent with the same ID, ${result.inDoubt} with one in doubt, ${result.alreadySentWithoutId} alreadySent without the ID, ${result.alreadySentOtherId} alreadySent with another ID, ${result.bothSent} both sent (${JSON.stringify(result.kinds)})`);
		}
	} catch (error) {
		bError = error;
	} finally {
		await setLatency({ ms: 0 });
	}
	figure('pairedRowsSeconds', (Date.now() - bStarted) / 1000, `(b) ${bRuns.length} runs took ${((Date.now() - bStarted) / 1000).toFixed(0)} s`);
	await check(`duplicate protection (b): the same row from two executions at the same instant (${PAIRS} pairs, two workers) is created once, in each of ${DUPLICATE_RUNS} runs`, async () => {
		if (bError) throw bError;
		assert.equal(bRuns.length, DUPLICATE_RUNS);
		const bad = bRuns.filter((r) => r.createdTwice > 0 || r.missing > 0);
		assert.equal(bad.length, 0, describe(bad, (r) => `${r.createdTwice} created twice, ${r.missing} not created`));
		return describe(bRuns, (r) => `${r.createdTwice} created twice`);
	});
	await check(`duplicate protection (b): of each pair one execution sends the row and the other outputs alreadySent: true, with the sender's transactionId or none (idKnown: false), never another, in each of ${DUPLICATE_RUNS} runs`, async () => {
		if (bError) throw bError;
		const bad = bRuns.filter((r) => r.sentOnceAndSaid !== PAIRS);
		assert.equal(bad.length, 0, describe(bad, (r) => `${r.sentOnceAndSaid} of ${PAIRS} pairs so; ${JSON.stringify(r.kinds)}`));
		return describe(bRuns, (r) => `${r.good} of ${PAIRS} with the sender's ID`);
	});
}

// ---- a worker killed mid-batch (scenario c) ---------------------------------------------------------

const crashLabel = () => `crash${CRASH_RUN}`;
/** Requests for this run's rows that reached the service (logged on arrival, answered or not). */
async function crashArrivals(names) {
	const wanted = new Set(names);
	return (await sandboxRequests()).filter((r) => r.method === 'POST' && r.path.endsWith(CANDIDATE_PATH) && r.body && wanted.has(r.body.name));
}

/**
 * Posts the 300 rows of `label` while the service acts on each request when it arrives and holds its
 * answer `holdMs`; returns the rows' names once 200 requests arrived and none was answered.
 */
async function postRowsUntilArrived(label, holdMs, formId) {
	await setLatency({ ms: holdMs, paths: [CANDIDATE_PATH], hold: true });
	const names = rowNames(label, CRASH_ROWS);
	const response = await postJson(webhookUrl('cv-queue-crash-rows'), { batch: label, size: CRASH_ROWS, formId });
	assert.equal(response.status, 200);
	await waitFor(async () => (await crashArrivals(names)).length, (n) => n >= CRASH_ARRIVED_AT_KILL, `${CRASH_ARRIVED_AT_KILL} requests to arrive`, EXECUTION_DEADLINE_MS);
	const answered = (await crashArrivals(names)).filter((r) => r.status !== undefined).length;
	assert.equal(answered, 0, `${answered} requests were answered before the worker was stopped`);
	return names;
}

/** The rows an execution of the 300-row workflow named in doubt (their item numbers). */
const inDoubtRowsOf = (outcomes) =>
	new Set(outcomes.filter((o) => o.kind === 'in doubt').map((o) => Number((HELD_IN_DOUBT.exec(o.message || '') || [])[1])));

/**
 * Phase crash-start: the service acts on every request when it arrives and answers none; 300 rows
 * posted (default settings); returns once 200 requests have arrived (run.sh then kills the worker).
 */
async function crashStart() {
	const state = readJson(STATE_FILE, {});
	await resumeSession(state);
	await check(`duplicate protection (c), run ${CRASH_RUN}: ${CRASH_ROWS} rows posted at the default settings while the service answers nothing; ${CRASH_ARRIVED_AT_KILL} requests reached it when the worker is killed`, async () => {
		state.crashFormId ||= await createForm('Queue e2e crashed worker');
		saveState(state);
		const names = await postRowsUntilArrived(crashLabel(), 3_600_000, state.crashFormId);
		return `${(await crashArrivals(names)).length} of ${CRASH_ROWS} arrived, none answered`;
	});
}

/** Phase crash-rerun: worker1 was killed and started again; the same rows run again with the service answering. */
async function crashRerun() {
	const state = readJson(STATE_FILE, {});
	await resumeSession(state);
	await setLatency({ ms: 0 });
	await check(`duplicate protection (c), run ${CRASH_RUN}: after the worker was killed, the same ${CRASH_ROWS} rows run again (On Error → Continue): at most ${CRASH_MAX_IN_DOUBT} named in doubt, among them every row that reached the service; every other row is sent by the rerun and exists once`, async () => {
		const names = rowNames(crashLabel(), CRASH_ROWS);
		const arrivedNames = new Set((await crashArrivals(names)).map((r) => r.body.name));
		// n8n 2.x never runs the killed worker's job again (Bull's maxStalledCount 0): its execution stays
		// "running" until the job's lock expires. n8n 1.x's rerun of a stalled job: run.sh stalled-job.
		const before = new Set((await executionList(CRASH_WORKFLOW)).map((e) => e.id));
		const response = await postJson(webhookUrl('cv-queue-crash-rows'), { batch: crashLabel(), size: CRASH_ROWS, formId: state.crashFormId });
		assert.equal(response.status, 200);
		const [rerun] = await waitFor(
			async () => finished(await executionList(CRASH_WORKFLOW)).filter((e) => !before.has(e.id)),
			(list) => list.length === 1,
			`the rerun of ${crashLabel()}`,
			EXECUTION_DEADLINE_MS,
		);
		const execution = await n8n.api('GET', `/executions/${rerun.id}?includeData=true`);
		const perName = await candidatesNamed(names);
		const outcomes = createOutcomes(execution);
		const inDoubt = outcomes.filter((o) => o.kind === 'in doubt');
		const inDoubtRows = inDoubtRowsOf(outcomes);
		const twice = perName.filter((n) => n > 1).length;
		const notInDoubtMissing = names.filter((_, index) => !inDoubtRows.has(index) && perName[index] !== 1).length;
		const neverArrived = names.map((name, index) => ({ name, index })).filter(({ name }) => !arrivedNames.has(name));
		// Rows claimed but never sent (the reserve claimed ahead) are in doubt too; every other row is sent.
		const claimedNeverSent = neverArrived.filter(({ index }) => inDoubtRows.has(index)).length;
		const neverClaimedNotSent = neverArrived.filter(({ index }) => !inDoubtRows.has(index) && outcomes.find((o) => o.row === index)?.kind !== 'sent').length;
		const arrivedNotInDoubt = names.filter((name, index) => arrivedNames.has(name) && !inDoubtRows.has(index)).length;
		const result = { run: CRASH_RUN, arrivedAtKill: arrivedNames.size, inDoubt: inDoubt.length, twice, notInDoubtMissing, neverArrived: neverArrived.length, claimedNeverSent, neverClaimedNotSent, arrivedNotInDoubt, status: execution.status, kinds: count(outcomes.map((o) => o.kind)) };
		figure(`crashRun${CRASH_RUN}`, result, `(c) run ${CRASH_RUN}: ${result.arrivedAtKill} of ${CRASH_ROWS} reached the service before the kill; rerun (${execution.status}): ${inDoubt.length} in doubt (${arrivedNames.size - arrivedNotInDoubt} that reached the service, ${claimedNeverSent} claimed that never left), ${twice} created twice, ${notInDoubtMissing} rows not in doubt missing or twice, ${neverClaimedNotSent} never-claimed rows not sent by the rerun (${JSON.stringify(result.kinds)})`);
		assert.equal(execution.status, 'success', JSON.stringify(execution.data.resultData.error && execution.data.resultData.error.message));
		assert.equal(outcomes.length, CRASH_ROWS, `${outcomes.length} output items`);
		assert.equal(twice, 0, `${twice} candidates exist twice`);
		assert.ok(inDoubt.length <= CRASH_MAX_IN_DOUBT, `${inDoubt.length} rows in doubt`);
		assert.ok(inDoubt.every((o) => HELD_IN_DOUBT.test(o.message || '')), `an in-doubt item says "${(inDoubt.find((o) => !HELD_IN_DOUBT.test(o.message || '')) || {}).message}"`);
		assert.equal(arrivedNotInDoubt, 0, `${arrivedNotInDoubt} rows that reached the service were not named in doubt`);
		assert.equal(notInDoubtMissing, 0, `${notInDoubtMissing} rows not in doubt do not exist exactly once`);
		assert.equal(neverClaimedNotSent, 0, `${neverClaimedNotSent} rows never claimed were not sent by the rerun`);
		return `${result.arrivedAtKill} arrived before the kill, ${inDoubt.length} in doubt`;
	});
}

// ---- a stalled worker's job run again by n8n 1.x (run.sh stalled-job) --------------------------------

/** The run of the stalled-job scenario (run.sh stalled-job repeats stall-start, stop, stall-rerun, resume, stall-end). */
const STALL_RUN = Number(env.CV_STALL_RUN || 1);
const stallLabel = () => `stall${STALL_RUN}`;
/** How long the service holds the stopped worker's answers: past the worker's stop, so they reach it once resumed. */
const STALL_HOLD_MS = 25_000;

/** Phase stall-setup: owner, API key, the 300-row workflow activated (the only one this suite runs). */
async function stallSetup() {
	const state = {};
	await check('owner account, a public API key and the 300-row workflow activated, through main', async () => {
		await createOwnerAndApiKey(state);
		await activate(CRASH_WORKFLOW);
		state.crashFormId = await createForm('Queue e2e stalled worker');
		saveState(state);
	});
}

/**
 * Phase stall-start: 300 rows posted at the default settings while the service holds every answer;
 * returns once 200 requests arrived, having written which worker runs them to <run dir>/stalled-worker
 * (run.sh then stops that worker with SIGSTOP: the other one's stalled-job check hands it n8n's job).
 */
async function stallStart() {
	const state = readJson(STATE_FILE, {});
	await resumeSession(state);
	await check(`stalled job, run ${STALL_RUN}: ${CRASH_ROWS} rows posted at the default settings while the service holds their answers; ${CRASH_ARRIVED_AT_KILL} requests reached it when their worker is stopped`, async () => {
		const before = new Set((await executionList(CRASH_WORKFLOW)).map((e) => e.id));
		const names = await postRowsUntilArrived(stallLabel(), STALL_HOLD_MS, state.crashFormId);
		const [execution] = (await executionList(CRASH_WORKFLOW)).filter((e) => !before.has(e.id));
		assert.ok(execution, 'no execution of the posted rows');
		const by = executedBy()[execution.id] || [];
		assert.equal(by.length, 1, `execution ${execution.id} started on ${by.join(' and ') || 'no worker'}`);
		state.stall = { executionId: execution.id, stopped: by[0], arrivedAtStop: (await crashArrivals(names)).map((r) => r.body.name) };
		saveState(state);
		fs.writeFileSync(path.join(RUN_DIR, 'stalled-worker'), by[0]);
		return `execution ${execution.id} on ${by[0]}, ${state.stall.arrivedAtStop.length} of ${CRASH_ROWS} arrived, none answered`;
	});
}

/**
 * Phase stall-rerun: the worker running the rows is stopped (its requests still at the service); once
 * the job's lock expired, n8n runs the same execution again on the other worker from its start. That
 * run must send only rows the stopped worker never claimed and name the others in doubt.
 */
async function stallRerun() {
	const state = readJson(STATE_FILE, {});
	await resumeSession(state);
	// Requests from now on are answered at once; the stopped worker's stay held until their time.
	await setLatency({ ms: 0 });
	await check(`stalled job, run ${STALL_RUN}: n8n 1.x runs the stopped worker's job again on the other worker; that run sends only rows the stopped one never claimed and names every row it sent in doubt (at most ${CRASH_MAX_IN_DOUBT})`, async () => {
		const { executionId, stopped, arrivedAtStop } = state.stall;
		const other = stopped === 'worker1' ? 'worker2' : 'worker1';
		await waitFor(async () => executedBy()[executionId] || [], (by) => by.includes(other), `n8n to run execution ${executionId} again on ${other}`, EXECUTION_DEADLINE_MS);
		const execution = await waitFor(
			async () => n8n.api('GET', `/executions/${executionId}?includeData=true`),
			(e) => finished([e]).length === 1,
			`the rerun of execution ${executionId} to finish`,
			EXECUTION_DEADLINE_MS,
		);
		const names = rowNames(stallLabel(), CRASH_ROWS);
		const arrived = new Set(arrivedAtStop);
		const outcomes = createOutcomes(execution);
		const inDoubtRows = inDoubtRowsOf(outcomes);
		const perName = await candidatesNamed(names);
		const twice = perName.filter((n) => n > 1).length;
		const arrivedNotInDoubt = names.filter((name, index) => arrived.has(name) && !inDoubtRows.has(index)).length;
		const sentByRerun = outcomes.filter((o) => o.kind === 'sent').length;
		const notInDoubtNotSent = names.filter((_, index) => !inDoubtRows.has(index) && outcomes.find((o) => o.row === index)?.kind !== 'sent').length;
		state.stall.rerun = { inDoubt: inDoubtRows.size, sentByRerun, twice, status: execution.status, kinds: count(outcomes.map((o) => o.kind)) };
		saveState(state);
		assert.equal(execution.status, 'success', JSON.stringify(execution.data.resultData.error && execution.data.resultData.error.message));
		assert.equal(outcomes.length, CRASH_ROWS, `${outcomes.length} output items`);
		assert.equal(twice, 0, `${twice} candidates exist twice`);
		assert.ok(inDoubtRows.size <= CRASH_MAX_IN_DOUBT, `${inDoubtRows.size} rows in doubt`);
		assert.equal(arrivedNotInDoubt, 0, `${arrivedNotInDoubt} rows the stopped worker sent were not named in doubt`);
		assert.equal(notInDoubtNotSent, 0, `${notInDoubtNotSent} rows neither in doubt nor sent by the rerun`);
		return `${inDoubtRows.size} in doubt, ${sentByRerun} sent by the rerun (${JSON.stringify(state.stall.rerun.kinds)})`;
	});
}

/**
 * Phase stall-end: the stopped worker resumed (SIGCONT) and goes on with its run of the same execution:
 * its held answers arrive, it sends the rows it had claimed ahead, finds the rerun's rows sent. Every
 * row exists exactly once.
 */
async function stallEnd() {
	const state = readJson(STATE_FILE, {});
	await resumeSession(state);
	await check(`stalled job, run ${STALL_RUN}: the stopped worker resumed and finishes its run of the same execution: each of the ${CRASH_ROWS} rows exists exactly once`, async () => {
		const names = rowNames(stallLabel(), CRASH_ROWS);
		const { executionId, stopped } = state.stall;
		// Its run ends once its held answers came (STALL_HOLD_MS after they arrived) and its last rows were sent.
		await waitFor(
			async () => [...logOf(stopped).matchAll(/Worker finished execution (\d+) /g)].map((m) => m[1]),
			(ids) => ids.includes(String(executionId)),
			`${stopped} to finish its run of execution ${executionId}`,
			EXECUTION_DEADLINE_MS,
		);
		const final = await candidatesNamed(names);
		const twice = final.filter((n) => n > 1).length;
		const missing = final.filter((n) => n === 0).length;
		// n8n saves the resumed worker's run over the rerun's: its rows sent, and the rerun's as alreadySent.
		const resumed = await waitFor(
			async () => count(createOutcomes(await n8n.api('GET', `/executions/${executionId}?includeData=true`)).map((o) => o.kind)),
			(kinds) => JSON.stringify(kinds) !== JSON.stringify(state.stall.rerun.kinds),
			`n8n to save ${stopped}'s run of execution ${executionId}`,
			60_000,
		);
		const result = { run: STALL_RUN, arrivedAtStop: state.stall.arrivedAtStop.length, ...state.stall.rerun, twiceAtEnd: twice, missingAtEnd: missing, resumedKinds: resumed };
		figure(`stallRun${STALL_RUN}`, result, `stalled job run ${STALL_RUN}: ${result.arrivedAtStop} of ${CRASH_ROWS} reached the service before ${stopped} stopped; n8n's rerun on the other worker (${result.status}): ${result.inDoubt} in doubt, ${result.sentByRerun} sent; after ${stopped} resumed: ${twice} created twice, ${missing} missing (${JSON.stringify(result.kinds)}; ${stopped}'s run: ${JSON.stringify(resumed)})`);
		assert.equal(twice, 0, `${twice} candidates exist twice`);
		assert.equal(missing, 0, `${missing} rows never created`);
		assert.deepEqual(resumed, { sent: result.inDoubt, 'already sent': CRASH_ROWS - result.inDoubt }, `${stopped}'s own run`);
		return `${twice} twice, ${missing} missing`;
	});
}

// ---- phases -------------------------------------------------------------------------------------------

async function setup() {
	const state = {};
	await check('owner account, a public API key and the webhook workflows activated, through main', async () => {
		await createOwnerAndApiKey(state);
		// The workflows that start from n8n's Webhook node (the trigger is activated by its own check).
		for (const id of [BATCH_WORKFLOW, ROWS_WORKFLOW, DOWNLOAD_WORKFLOW, HEADER_WEBHOOK_WORKFLOW, ONE_ROW_WORKFLOW, ONE_ROW_CONTINUE_WORKFLOW, CRASH_WORKFLOW]) {
			await activate(id);
		}
	});
}

async function twoWorkers() {
	const state = readJson(STATE_FILE, {});
	if (!state.n8nApiKey) return;
	await resumeSession(state);

	await check('the example "candidates to reports" (run from main like the editor does) executes on a worker, not on main', async () => {
		const executionId = await n8n.runManually(EXAMPLE_WORKFLOW, 'Start');
		const run = await n8n.waitForExecution(executionId, EXECUTION_DEADLINE_MS);
		const error = run.data.resultData.error;
		assert.equal(run.status, 'success', error && `${error.node && error.node.name}: ${error.message}`);
		const example = JSON.parse(fs.readFileSync(path.join(ROOT, 'examples/candidates-to-reports.json'), 'utf8'));
		const expected = example.nodes
			.filter((node) => !node.type.endsWith('stickyNote') && !NOT_IN_A_FIRST_CONTRACT_RUN.includes(node.name))
			.map((node) => node.name);
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
		await activate(TRIGGER_WORKFLOW);
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

/** Activates a workflow through main (n8n 2.0 needs a version saved first: N8nClient.activate). */
const activate = (workflowId) => n8n.activate(workflowId, { saveVersionFirst: /^2\.0\./.test(env.CV_N8N_VERSION || '') });

/** The owner account and a public API key, through main; the key is kept in the state file. */
async function createOwnerAndApiKey(state) {
	assert.equal(await n8n.ownerSession(OWNER), 'created');
	state.n8nApiKey = await n8n.createApiKey('queue-e2e');
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
		// The IDs come from the workflow's static data where n8n kept it (saved after production and retry
		// executions, the last save winning); where it did not, the item has no ID and says idKnown: false,
		// never another row's ID.
		const ids = rowNames(label, 5).map(idOf);
		outputs.forEach((json, index) =>
			assert.ok(
				(!('transactionId' in json) && json.idKnown === false) || json.transactionId === ids[index],
				`row ${index}: ${JSON.stringify(json)}`,
			),
		);
		return `${outputs.filter((json) => 'transactionId' in json).length} of 5 with their transaction ID`;
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

const phases = { setup, 'two-workers': twoWorkers, 'concurrent-rows': concurrentRows, 'one-worker': oneWorker, 'crash-start': crashStart, 'crash-rerun': crashRerun, restarted, logs, 'stall-setup': stallSetup, 'stall-start': stallStart, 'stall-rerun': stallRerun, 'stall-end': stallEnd };

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
