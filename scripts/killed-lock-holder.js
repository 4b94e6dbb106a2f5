'use strict';

/**
 * The phases of scripts/killed-lock-holder.sh (a worker killed while it holds duplicate protection's
 * lock, 100,000 rows recorded), one per call:
 *   setup    owner account, public API key, the workflow activated, a form for the candidates
 *   kill     300 rows posted (the service answers each after 300 ms); once the run's requests reached
 *            CV_KILLED_RUN's threshold and the lock row is seen in processed_data, SIGKILL to the
 *            worker's process group (CV_WORKER_PGID); the script then starts the worker again
 *   user     the same 300 rows posted again, as a user would: the execution's end, its error, the
 *            requests that reached the service meanwhile
 *   recover  as the error says: once no execution of the workflow is running (Executions list), one run
 *            with Duplicate Protection → Release Stuck Lock, then the 300 rows again
 *   watch    from the kill on (in the background): the killed execution's status until it leaves running
 *   on-error-stop  the node set to On Error → Stop (n8n's default) through the public API, published again
 *   report   the figures of every run as Markdown (needs no running n8n)
 * Each phase adds to <run dir>/state.json (mode 600: it holds the n8n API key; watch writes
 * watch-<run>.json); times are the script's clock (Date.now()).
 * Environment: CV_N8N_URL, CV_WEBHOOK_URL, CV_SANDBOX_URL, CV_RUN_DIR, CV_WORKFLOW_ID, CV_NODE_ID,
 * CV_KILLED_RUN, CV_WORKER_PGID (kill), CV_AFTER_KILL, CV_N8N_DIR (its `pg` driver), SANDBOX_API_KEY,
 * CV_POSTGRES_PORT and CV_POSTGRES_PASSWORD.
 */

const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const { N8nClient, sleep } = require('../test/e2e/n8n-client');
const { sandboxClient } = require('../test/e2e/sandbox-client');
const { isInDoubt } = require('../test/e2e/in-doubt');

const env = process.env;
const RUN_DIR = env.CV_RUN_DIR;
const STATE_FILE = path.join(RUN_DIR, 'state.json');
const WORKFLOW = env.CV_WORKFLOW_ID;
const RUN = Number(env.CV_KILLED_RUN || 1);
const ROWS = 300;
const SERVICE_MS = 300;
/** Requests of the run at the service before the kill: run 1 at the first hold, then later holds. */
const ARRIVED_BEFORE_KILL = [0, 100, 200];
const V = '/verification/api/1.0';
const CANDIDATE_PATH = '/diy-candidate';
const OWNER = { email: 'killed-lock@example.com', password: 'Killed-Lock-Passw0rd' };
const DEADLINE_MS = 300_000;
/** The value lock.ts records in the workflow-scope row; n8n stores its MD5 in base64 (DeduplicationHelper.createValueHash). */
const LOCK_HASH = createHash('md5')
	.update('n8n-nodes-candidate-verification:record-lock')
	.digest('base64');

const n8n = new N8nClient(env.CV_N8N_URL);
const {
	call: sandbox,
	requests: sandboxRequests,
	state: sandboxState,
} = sandboxClient(env.CV_SANDBOX_URL);
const readJson = (file, fallback) =>
	fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : fallback;
const state = readJson(STATE_FILE, { runs: {} });
const save = () => fs.writeFileSync(STATE_FILE, JSON.stringify(state, null, 2), { mode: 0o600 });
const thisRun = () => (state.runs[RUN] ||= {});
const log = (text) => console.log(`# run ${RUN}: ${text}`);
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

async function waitFor(read, predicate, what, timeoutMs = DEADLINE_MS, pauseMs = 250) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await read();
		if (predicate(value)) return value;
		if (Date.now() > deadline)
			throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
		await sleep(pauseMs);
	}
}

// ---- n8n's database: the lock row ----------------------------------------------------------------

async function database() {
	const { Client } = require(path.join(env.CV_N8N_DIR, 'node_modules', 'pg'));
	const client = new Client({
		host: '127.0.0.1',
		port: Number(env.CV_POSTGRES_PORT),
		database: 'n8n',
		user: 'n8n',
		password: env.CV_POSTGRES_PASSWORD,
	});
	await client.connect();
	return client;
}
/** Whether the workflow-scope row (context '') holds the lock's value. */
async function lockHeld(db) {
	const { rows } = await db.query(
		`SELECT strpos(value, $2) > 0 AS held FROM processed_data WHERE "workflowId" = $1 AND context = ''`,
		[WORKFLOW, LOCK_HASH],
	);
	return rows.length > 0 && rows[0].held;
}
/** Hashes in the node's record. */
async function recordSize(db) {
	const { rows } = await db.query(
		`SELECT value FROM processed_data WHERE "workflowId" = $1 AND context = $2`,
		[WORKFLOW, `n:${env.CV_NODE_ID}`],
	);
	return rows.length ? JSON.parse(rows[0].value).data.length : 0;
}

// ---- the workflow's executions and the service ---------------------------------------------------

const webhook = `${env.CV_WEBHOOK_URL}/webhook/cv-killed-lock-rows`;
const executionList = async () =>
	(await n8n.api('GET', `/executions?workflowId=${WORKFLOW}&limit=250`)).data;
const FINISHED = ['success', 'error', 'crashed', 'canceled'];
const rowNames = (size) =>
	Array.from({ length: size }, (_, index) => `Killed Lock run${RUN}-${index}`);

/** Posts a batch to the workflow; returns a function that waits until n8n lists its execution and returns its ID. */
async function postOnly(mode, size) {
	const before = new Set((await executionList()).map((e) => e.id));
	const response = await fetch(webhook, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ batch: `run${RUN}`, size, formId: state.formId, mode }),
	});
	if (response.status !== 200) throw new Error(`the webhook processor answered ${response.status}`);
	return async () => {
		const [execution] = await waitFor(
			async () => (await executionList()).filter((e) => !before.has(e.id)),
			(list) => list.length === 1,
			`the ${mode} execution to be listed`,
			60_000,
			100,
		);
		return execution.id;
	};
}
const post = async (mode, size) => (await postOnly(mode, size))();
const finished = (id) =>
	waitFor(
		() => n8n.api('GET', `/executions/${id}?includeData=true`),
		(e) => FINISHED.includes(e.status) && e.data?.resultData,
		`execution ${id} to finish`,
		DEADLINE_MS,
		200,
	);

/** Requests for this run's rows that reached the service. */
async function arrivals() {
	const wanted = new Set(rowNames(ROWS));
	return (await sandboxRequests()).filter(
		(r) =>
			r.method === 'POST' && r.path.endsWith(CANDIDATE_PATH) && r.body && wanted.has(r.body.name),
	);
}
/** How many candidates of each of this run's names the service holds. */
async function candidatesPerName() {
	const { transactions } = await sandboxState();
	const per = {};
	for (const t of transactions)
		if (t.candidate) per[t.candidate.name] = (per[t.candidate.name] || 0) + 1;
	return rowNames(ROWS).map((name) => per[name] || 0);
}
function outcomes(execution) {
	const run = (execution.data.resultData.runData['Create Profile'] || [])[0];
	return (run?.data?.main ?? [])
		.flat()
		.filter(Boolean)
		.map(({ json }) =>
			isInDoubt(json)
				? 'in doubt'
				: json.alreadySent
					? 'alreadySent'
					: json.error
						? 'failed'
						: json.transactionId
							? 'sent'
							: 'no ID',
		);
}
/** With On Error → Continue (error output): how many items went there, with which texts and fields. */
function errorItems(execution) {
	const run = (execution.data.resultData.runData['Create Profile'] || [])[0];
	const items = run?.data?.main?.[1] ?? [];
	return {
		items: items.length,
		texts: [...new Set(items.map(({ json }) => json.error))],
		fields: [...new Set(items.flatMap(({ json }) => Object.keys(json)))],
	};
}
const tally = (values) => values.reduce((acc, v) => ({ ...acc, [v]: (acc[v] || 0) + 1 }), {});
const errorOf = (execution) => {
	const error = execution.data.resultData.error || {};
	return { message: error.message, description: error.description };
};

// ---- phases --------------------------------------------------------------------------------------

async function setup() {
	await n8n.ownerSession(OWNER);
	state.n8nApiKey = await n8n.createApiKey('killed-lock-holder');
	await n8n.activate(WORKFLOW);
	const key = { 'x-api-key': env.SANDBOX_API_KEY };
	const purposes = await sandbox('GET', `${V}/purposes`, undefined, key);
	const form = await sandbox(
		'POST',
		`${V}/ekyc-forms`,
		{
			name: 'Killed lock holder',
			purpose: purposes.data.list.find((p) => p.name === 'BGV')._id,
			verifications: [{ name: 'bgv-employment', skipAllowed: false }],
			type: 'diy',
			sharing: { visibility: 'private' },
			userPaymentRequired: false,
		},
		key,
	);
	state.formId = form.data._id;
	save();
	console.log(`# setup: owner, API key, workflow ${WORKFLOW} active, form ${state.formId}`);
}

async function kill() {
	const db = await database();
	const run = thisRun();
	run.onError =
		state.onErrorStopFromRun && RUN >= state.onErrorStopFromRun
			? 'Stop'
			: 'Continue (error output)';
	run.afterKill = env.CV_AFTER_KILL || 'worker restarted';
	run.recordedBefore = Math.floor((await recordSize(db)) / 2);
	await sandbox('POST', '/__sandbox/latency', {
		ms: SERVICE_MS,
		paths: [CANDIDATE_PATH],
		hold: true,
	});
	const threshold = ARRIVED_BEFORE_KILL[(RUN - 1) % ARRIVED_BEFORE_KILL.length];
	run.posted = Date.now();
	const listed = await postOnly('skipSent', ROWS);
	if (threshold > 0)
		await waitFor(
			async () => (await arrivals()).length,
			(n) => n >= threshold,
			`${threshold} requests at the service`,
			DEADLINE_MS,
			50,
		);
	// The lock row polled as fast as the database answers; the kill follows the first sighting.
	await waitFor(() => lockHeld(db), Boolean, 'the lock row', DEADLINE_MS, 5);
	process.kill(-Number(env.CV_WORKER_PGID), 'SIGKILL');
	run.killed = Date.now();
	run.heldAfterKill = await lockHeld(db);
	run.arrivedAtKill = (await arrivals()).length;
	run.answeredAtKill = (await arrivals()).filter((r) => r.status !== undefined).length;
	run.secondsPostToKill = (run.killed - run.posted) / 1000;
	run.killedExecution = await listed();
	save();
	await db.end();
	log(
		`execution ${run.killedExecution}: ${run.recordedBefore} rows recorded before; worker1 SIGKILLed ${seconds(run.killed - run.posted)} after the post (threshold ${threshold} requests, the lock row seen first); ${run.arrivedAtKill} requests had reached the service; lock row still there after the kill: ${run.heldAfterKill}`,
	);
}

async function user() {
	const db = await database();
	const run = thisRun();
	await sandbox('POST', '/__sandbox/latency', {
		ms: SERVICE_MS,
		paths: [CANDIDATE_PATH],
		hold: true,
	});
	run.userPosted = Date.now();
	run.userExecution = await post('skipSent', ROWS);
	const execution = await finished(run.userExecution);
	run.userEnded = Date.now();
	const started = Date.parse(execution.startedAt);
	const stopped = Date.parse(execution.stoppedAt);
	run.user = {
		status: execution.status,
		...errorOf(execution),
		secondsKillToError: (run.userEnded - run.killed) / 1000,
		secondsPostToError: (run.userEnded - run.userPosted) / 1000,
		secondsExecution: (stopped - started) / 1000,
		errorOutput: errorItems(execution),
		// requests of these rows that reached the service from the kill to the user's error
		sentMeanwhile: (await arrivals()).length - run.arrivedAtKill,
		killedExecutionStatus: (await n8n.api('GET', `/executions/${run.killedExecution}`)).status,
		lockHeld: await lockHeld(db),
	};
	save();
	await db.end();
	log(
		`the same rows posted ${seconds(run.userPosted - run.killed)} after the kill: execution ${run.userExecution} ${execution.status} after ${seconds(run.userEnded - run.userPosted)} (n8n: ${seconds(stopped - started)}), ${seconds(run.userEnded - run.killed)} after the kill; "${run.user.message}"; ${run.user.sentMeanwhile} requests reached the service; the killed execution is "${run.user.killedExecutionStatus}"`,
	);
}

async function recover() {
	const db = await database();
	const run = thisRun();
	const start = Date.now();
	// What the error asks: no execution of this workflow running in the Executions list.
	let noneRunning = true;
	try {
		await waitFor(
			async () =>
				(await executionList()).filter((e) => ['running', 'new', 'waiting'].includes(e.status)),
			(list) => list.length === 0,
			'no running execution of the workflow',
			DEADLINE_MS,
			1000,
		);
	} catch {
		noneRunning = false;
	}
	const killed = await n8n.api('GET', `/executions/${run.killedExecution}`);
	run.recover = {
		noneRunning,
		secondsKillToNoneRunning: noneRunning ? (Date.now() - run.killed) / 1000 : null,
		secondsErrorToNoneRunning: noneRunning ? (Date.now() - run.userEnded) / 1000 : null,
		killedExecutionStatus: killed.status,
		killedExecutionStoppedAt: killed.stoppedAt,
	};
	log(
		`${noneRunning ? `no execution running ${seconds(Date.now() - run.killed)} after the kill` : `an execution still running after ${DEADLINE_MS / 1000} s`}; the killed execution is "${killed.status}"`,
	);

	const releasePosted = Date.now();
	const releaseId = await post('releaseLock', 1);
	const release = await finished(releaseId);
	run.recover.release = {
		status: release.status,
		seconds: (Date.now() - releasePosted) / 1000,
		lockHeldAfter: await lockHeld(db),
		...errorOf(release),
	};
	log(
		`Release Stuck Lock: execution ${releaseId} ${release.status} in ${seconds(Date.now() - releasePosted)}; lock row there after: ${run.recover.release.lockHeldAfter}`,
	);

	const arrivedBefore = new Set((await arrivals()).map((r) => r.body.name));
	const rerunPosted = Date.now();
	const rerunId = await post('skipSent', ROWS);
	const rerun = await finished(rerunId);
	const perName = await candidatesPerName();
	const kinds = tally(outcomes(rerun));
	const inDoubtTexts = [
		...new Set(
			(rerun.data.resultData.runData['Create Profile']?.[0]?.data?.main ?? [])
				.flat()
				.filter(Boolean)
				.filter(({ json }) => isInDoubt(json))
				.map(({ json }) =>
					String(json.error)
						.split('\n')[0]
						.replace(/^Item \d+/, 'Item N'),
				),
		),
	];
	run.recover.rerun = {
		status: rerun.status,
		seconds: (Date.now() - rerunPosted) / 1000,
		...errorOf(rerun),
		kinds,
		reachedServiceBefore: arrivedBefore.size,
		inDoubtTexts,
		createdTwice: perName.filter((n) => n > 1).length,
		missing: perName.filter((n) => n === 0).length,
		recordedAfter: (await recordSize(db)) / 2,
	};
	run.recover.secondsErrorToRecovered = (Date.now() - run.userEnded) / 1000;
	run.recover.secondsTotal = (Date.now() - start) / 1000;
	save();
	await db.end();
	log(
		`the 300 rows again: execution ${rerunId} ${rerun.status} in ${seconds(Date.now() - rerunPosted)}: ${JSON.stringify(kinds)}; ${run.recover.rerun.createdTwice} created twice, ${run.recover.rerun.missing} never created (rows in doubt stay for a person)`,
	);
}

/** From the kill on: when n8n stops listing the killed execution as running (<run dir>/watch-<run>.json). */
async function watch() {
	const run = thisRun();
	const file = path.join(RUN_DIR, `watch-${RUN}.json`);
	const statuses = [];
	try {
		await waitFor(
			async () => {
				const { status } = await n8n.api('GET', `/executions/${run.killedExecution}`);
				if (statuses.at(-1)?.status !== status) {
					const { data } = ['running', 'new'].includes(status)
						? {}
						: await n8n.api('GET', `/executions/${run.killedExecution}?includeData=true`);
					statuses.push({
						status,
						secondsAfterKill: (Date.now() - run.killed) / 1000,
						...(data && { error: data.resultData?.error?.message }),
					});
				}
				return status;
			},
			(status) => !['running', 'new'].includes(status),
			'the killed execution to leave running',
			360_000,
			500,
		);
	} finally {
		fs.writeFileSync(file, JSON.stringify(statuses));
	}
}

/** The Create Profile node set to On Error → Stop (n8n's default), through the public API, and published again. */
async function onErrorStop() {
	const workflow = await n8n.api('GET', `/workflows/${WORKFLOW}`);
	const nodes = workflow.nodes.map((node) => {
		if (node.name !== 'Create Profile') return node;
		const { onError, ...rest } = node;
		return rest;
	});
	await n8n.api('PUT', `/workflows/${WORKFLOW}`, {
		name: workflow.name,
		nodes,
		connections: workflow.connections,
		settings: { executionOrder: 'v1' },
	});
	await n8n.activate(WORKFLOW);
	state.onErrorStopFromRun = RUN;
	save();
	console.log(
		`# run ${RUN}: Create Profile set to On Error → Stop (n8n's default) and the workflow published again`,
	);
}

function report() {
	const runs = Object.entries(state.runs);
	const lines = [
		'| Run | On Error; after the kill | Requests at the service at the kill (answered) | Lock row after the kill | Killed execution: status after the kill | The same rows posted again: kill → error (post → error) | Sent meanwhile | Release Stuck Lock | The 300 rows again | Created twice | Never created |',
		'|---|---|---|---|---|---|---|---|---|---|---|',
	];
	for (const [n, r] of runs) {
		const statuses = readJson(path.join(RUN_DIR, `watch-${n}.json`), [])
			.map((s) => `${s.status} at ${s.secondsAfterKill} s`)
			.join(', ');
		const rr = r.recover?.rerun ?? {};
		const k = rr.kinds ?? {};
		const failed = r.user?.errorOutput?.items
			? `${r.user.errorOutput.items} items on the error output`
			: r.user?.status;
		lines.push(
			`| ${n} | ${r.onError}; ${r.afterKill} | ${r.arrivedAtKill} (${r.answeredAtKill}) | ${r.heldAfterKill ? 'held' : 'gone'} | ${statuses} | ${failed}: ${r.user?.secondsKillToError} s (${r.user?.secondsPostToError} s) | ${r.user?.sentMeanwhile} | ${r.recover?.release?.status}, ${r.recover?.release?.seconds} s, lock ${r.recover?.release?.lockHeldAfter ? 'still held' : 'gone'} | ${rr.status}, ${rr.seconds} s: ${k.sent ?? 0} sent, ${k.alreadySent ?? 0} alreadySent, ${k['in doubt'] ?? 0} in doubt${k.failed ? `, ${k.failed} failed` : ''} | ${rr.createdTwice} | ${rr.missing} |`,
		);
	}
	const texts = new Set(
		runs.map(([, r]) =>
			JSON.stringify([
				r.onError,
				r.user?.message ?? r.user?.errorOutput?.texts?.join(' / '),
				r.user?.description,
			]),
		),
	);
	lines.push('', "What the user's execution says, per On Error setting:", '');
	for (const text of texts) {
		const [onError, message, description] = JSON.parse(text);
		lines.push(
			`- ${onError}:`,
			'',
			`  > ${message}`,
			...(description ? ['  >', `  > ${description}`] : []),
			'',
		);
	}
	const killedErrors = new Set(
		runs.flatMap(([n]) =>
			readJson(path.join(RUN_DIR, `watch-${n}.json`), [])
				.filter((s) => s.error)
				.map((s) => `${s.status}: ${s.error}`),
		),
	);
	/** A titled list of quoted texts, when there are any. */
	const quote = (title, texts) =>
		texts.size && lines.push(title, '', ...[...texts].map((text) => `> ${text}`), '');
	quote('The killed execution, once n8n stopped listing it as running:', killedErrors);
	const inDoubt = new Set(runs.flatMap(([, r]) => r.recover?.rerun?.inDoubtTexts ?? []));
	quote(
		'A row in doubt in the 300 rows run again (error output, item number replaced by N):',
		inDoubt,
	);
	lines.push('```json', JSON.stringify(state.runs, null, 2), '```');
	console.log(lines.join('\n'));
}

const phases = { setup, kill, watch, user, recover, 'on-error-stop': onErrorStop, report };
Promise.resolve()
	.then(async () => {
		if (state.n8nApiKey && !['setup', 'report'].includes(process.argv[2])) {
			await n8n.ownerSession(OWNER);
			n8n.apiKey = state.n8nApiKey;
		}
		await phases[process.argv[2]]();
	})
	.catch((error) => {
		console.error(error && error.stack);
		process.exit(1);
	});
