'use strict';

/**
 * The examples a user copies (examples/*.json but the trigger demo), each run twice in the e2e n8n
 * against the sandbox: phase `first` after checks.js, phase `second` after run.sh restarted n8n
 * (CV_EXAMPLES_PHASE=second; what the first phase learnt is kept in CV_RUN_DIR/examples-state.json).
 * What a user changes (the Form ID, the list of open transactions, the SMTP credential of Email HR)
 * is set here through n8n's APIs, as a user edits the node. Asserted on the user's side: what the
 * sandbox received and created, what each flow writes back, and every email, counted by a local SMTP
 * catcher (smtp-catcher.js) that n8n's Send Email node sends to. A second run creates nothing the
 * first one created and mails nobody again.
 *
 * Prints `ok - ` / `FAIL - ` lines (counted by run.sh). Environment: CV_N8N_URL, CV_SANDBOX_URL,
 * SANDBOX_API_KEY, CV_RUN_DIR, CV_SMTP_PORT (the catcher's port, the same in both phases),
 * CV_EXAMPLES_PHASE (first | second).
 */

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const { N8nClient, sleep } = require('./n8n-client');
const { ROOT, E2E_OWNER } = require('./package-under-test');
const { createReport } = require('./report');
const { sandboxClient } = require('./sandbox-client');
const { startSmtpCatcher } = require('./smtp-catcher');

const N8N_URL = process.env.CV_N8N_URL;
const SANDBOX_URL = process.env.CV_SANDBOX_URL;
const API_KEY = process.env.SANDBOX_API_KEY;
const PHASE = process.env.CV_EXAMPLES_PHASE || 'first';
const STATE_FILE = path.join(process.env.CV_RUN_DIR || path.join(ROOT, '.e2e', 'run'), 'examples-state.json');
const SMTP_PORT = Number(process.env.CV_SMTP_PORT || 0);
const V = '/verification/api/1.0';
const SHEET = 'cvExampleSheetRows';
const REPORT = 'cvExampleReportToHr';
const SWEEP = 'cvExampleSweep';
const ACTIONS = 'cvExampleActions';
const INSUFFICIENCY = 'cvExampleInsuff1';
const SMTP_CREDENTIAL = 'Local SMTP catcher';
/**
 * The sandbox's pages mode the examples run against: `current` (the provider's current pages: top-level
 * dob, no transaction report, a report per check) by default; the contract mode is covered by the jest
 * integration suite (test/integration/sandbox-flow.test.ts).
 */
const PAGES = process.env.CV_EXAMPLES_PAGES || 'current';
/**
 * What notifications carry as verificationId: the check's ID, as every public page shows (the sandbox's
 * POST /__sandbox/notify-check-by), so the insufficiency loop runs on IDs with no Checks filter.
 */
const NOTIFY_CHECK_BY = process.env.CV_EXAMPLES_NOTIFY_CHECK_BY || 'id';
/**
 * The report files one done transaction gives: in `current`, one per check of its form that has a report
 * (bgv-police-verification has none there, the sandbox's CHECK_WITHOUT_REPORT) and is not skipped.
 */
const reportFiles = (transactionId, checks = ['bgv-cibil', 'bgv-criminal']) =>
	PAGES === 'current'
		? checks.filter((check) => check !== 'bgv-police-verification').map((check) => `report-${transactionId}-${check}.pdf`)
		: [`report-${transactionId}.pdf`];
/** The node that downloads them. */
const DOWNLOAD = PAGES === 'current' ? 'Download Check Report' : 'Download Report';
/** A candidate's name as the service stores it, wherever the page puts it. */
const candidateName = (candidate) => (candidate.profileDetails && candidate.profileDetails.name) || candidate.name;

const n8n = new N8nClient(N8N_URL);
const report = createReport();
const example = (file) => JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', file), 'utf8'));

const {
	call: sandbox,
	state: sandboxState,
	requests: sandboxRequests,
} = sandboxClient(SANDBOX_URL);
const api = (method, route, body) =>
	sandbox(method, `${V}${route}`, body, { 'x-api-key': API_KEY });

async function waitFor(read, predicate, what, timeoutMs = 30_000) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await read();
		if (predicate(value)) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await sleep(250);
	}
}

function output(execution, nodeName, index = 0) {
	const runs = execution.data.resultData.runData[nodeName];
	if (!runs) return undefined;
	return (runs[0].data?.main?.[index] ?? []).map((item) => ({
		...item.json,
		$binary: item.binary,
	}));
}
const ran = (execution, nodeName) => output(execution, nodeName) !== undefined;
/** Every item a node output on its first output, over all its runs in the execution. */
const outputOfEveryRun = (execution, nodeName) =>
	(execution.data.resultData.runData[nodeName] ?? []).flatMap((run) =>
		(run.data?.main?.[0] ?? []).map((item) => ({ ...item.json, $binary: item.binary })),
	);

function failure(execution) {
	const error = execution.data.resultData.error;
	return error && `${error.node && error.node.name}: ${error.message}`;
}

/** Edits one node of a stored workflow through the public API, as a user edits it in the editor. */
async function editNode(workflowId, nodeName, edit) {
	const workflow = await n8n.api('GET', `/workflows/${workflowId}`);
	const node = workflow.nodes.find((candidate) => candidate.name === nodeName);
	assert.ok(node, `no node "${nodeName}" in ${workflowId}`);
	edit(node.parameters, node);
	const { name, nodes, connections } = workflow;
	await n8n.api('PUT', `/workflows/${workflowId}`, {
		name,
		nodes,
		connections,
		settings: { executionOrder: 'v1', saveManualExecutions: true },
	});
}

async function run(workflowId, trigger) {
	return n8n.waitForExecution(await n8n.runManually(workflowId, trigger));
}

/**
 * Requests that create something at the service (the rest read, or update a webhook configuration to
 * the same values, which creates nothing).
 */
const CREATING = [
	['POST', `${V}/ekyc-forms`],
	['POST', /\/diy-candidate$/],
	['POST', `${V}/bgv/diy`],
	['POST', `${V}/webhook-config`],
	['POST', '/utility/api/1.0/files'],
];
const creates = (request) =>
	CREATING.some(
		([method, route]) =>
			request.method === method && (typeof route === 'string' ? request.path === route : route.test(request.path)),
	);

/** What the sandbox received while `fn` ran. */
async function received(fn) {
	const before = (await sandboxRequests()).length;
	const value = await fn();
	return { value, requests: (await sandboxRequests()).slice(before) };
}

const describeCreating = (requests) => {
	const counts = {};
	for (const request of requests.filter(creates)) {
		const key = `${request.method} ${request.path.replace(/[0-9a-f]{24}/g, ':id')}`;
		counts[key] = (counts[key] || 0) + 1;
	}
	return Object.entries(counts).map(([key, count]) => `${count}× ${key}`).join(', ') || 'nothing created';
};

function loadState() {
	return fs.existsSync(STATE_FILE) ? JSON.parse(fs.readFileSync(STATE_FILE, 'utf8')) : {};
}
function saveState(state) {
	fs.writeFileSync(STATE_FILE, JSON.stringify(state, null, 2));
}

// ---------------------------------------------------------------- sheet rows → candidates
const written = (execution) =>
	(output(execution, 'Transaction IDs per Row') ?? []).map((row) => ({
		name: row['Candidate Name'],
		email: row.Email,
		transactionId: row['Transaction ID'],
		status: row.Status,
	}));

async function sheetFirstRun(state) {
	let sheetRun;
	await report.step(
		'sheet rows → candidates, run 1: the valid rows sent (Map Automatically, values normalised), a transaction ID written back per row',
		async () => {
			await editNode(SHEET, 'Your Form ID', (parameters) => {
				parameters.assignments.assignments.find((field) => field.name === 'formId').value = state.formId;
			});
			const { value, requests } = await received(() => run(SHEET, 'Start'));
			sheetRun = value;
			const posted = requests.filter(
				(request) => request.method === 'POST' && request.path === `${V}/ekyc-forms/${state.formId}/diy-candidate`,
			);
			// Against the current page the contract's nested shape is refused (nothing created) until the
			// node has learned the page's top-level shape: at most once per row, never after an acceptance.
			const nestedShape = (request) => 'verificationFields' in request.body;
			const sent = PAGES === 'current' ? posted.filter((request) => !nestedShape(request)) : posted;
			const refused = posted.filter((request) => !sent.includes(request));
			const byName = Object.fromEntries(sent.map((request) => [request.body.name, request.body]));
			assert.deepEqual(Object.keys(byName).sort(), ['Asha Verma', 'Priya Nair', 'Rahul Mehta']);
			assert.equal(sent.length, 3, `${sent.length} candidates sent`);
			assert.ok(refused.every(nestedShape) && refused.length <= 3, `${refused.length} refused requests`);
			assert.equal(new Set(refused.map((request) => request.body.name)).size, refused.length, 'a row was refused twice');
			// Column "Gender" F, "Date of Birth" 1992-08-21, "Mobile" with spaces: normalised.
			const dateOfBirth = PAGES === 'current' ? { dob: '21-08-1992' } : { verificationFields: { dob: '21-08-1992' } };
			assert.deepEqual(byName['Priya Nair'], {
				name: 'Priya Nair',
				gender: 'Female',
				mobile: '+919900112233',
				profession: 'Accountant',
				email: 'priya.nair@example.com',
				...dateOfBirth,
			});
			assert.ok(sent.every((request) => request.headers['x-api-key'] === API_KEY));
			const rows = written(sheetRun);
			assert.ok(rows.length, `"Transaction IDs per Row" did not run (${failure(sheetRun)})`);
			assert.deepEqual(
				rows.map((row) => [row.name, row.email, row.status]),
				[
					['Asha Verma', 'asha.verma@example.com', 'Sent to verification'],
					['Rahul Mehta', 'rahul.mehta@example.com', 'Sent to verification'],
					['Priya Nair', 'priya.nair@example.com', 'Sent to verification'],
				],
			);
			const transactions = [...((await sandboxState()).transactions ?? [])];
			for (const row of rows) {
				assert.match(row.transactionId, /^TXN/);
				const known = transactions.find((transaction) => transaction.transactionId === row.transactionId);
				assert.ok(known, `${row.transactionId} unknown to the service`);
				assert.equal(candidateName(known.candidate), row.name, "a row got another candidate's ID");
			}
			state.sheet = { written: rows };
			return `sent 3 candidates (${refused.length} requests in the contract's shape refused first); written: ${rows.map((row) => `${row.name} ${row.transactionId}`).join(', ')}`;
		},
	);
	if (!sheetRun) return;
	await report.step(
		'sheet rows → candidates, run 1: refused rows leave on the error output and Rows to Fix names each row and its problem',
		async () => {
			assert.equal(sheetRun.status, 'success', failure(sheetRun));
			const toFix = output(sheetRun, 'Rows to Fix');
			assert.deepEqual(
				toFix.map((row) => [row['Candidate Name'], row.Email]),
				[
					['Karan Shah', 'karan.shah@example.com'],
					['Meera Das', 'meera.das@example.com'],
				],
			);
			assert.match(toFix[0].Problem, /Gender/);
			assert.match(toFix[1].Problem, /Date of Birth/);
			return `"${toFix[0].Problem}"`;
		},
	);
}

async function sheetSecondRun(state) {
	await report.step(
		'sheet rows → candidates, run 2 (after an n8n restart): nothing sent again; only real transaction IDs written back, never an empty one',
		async () => {
			assert.ok(state.sheet, 'the first run wrote nothing');
			const { value: execution, requests } = await received(() => run(SHEET, 'Start'));
			assert.equal(execution.status, 'success', failure(execution));
			const sent = requests.filter(creates);
			assert.equal(sent.length, 0, `sent again: ${describeCreating(requests)}`);
			const profiles = output(execution, 'Create Profile');
			assert.equal(profiles.length, 3);
			assert.ok(profiles.every((item) => item.alreadySent === true), 'a row was not recognised as sent before');
			const unknown = profiles.filter((item) => !item.transactionId || item.idKnown === false).length;
			const rows = written(execution);
			assert.equal(rows.length, 3 - unknown, `${rows.length} rows written, ${unknown} IDs unknown`);
			for (const row of rows) assert.match(String(row.transactionId), /^TXN/, `${row.name}: empty ID written`);
			// Every row written back has the ID of run 1 (a row whose ID is not known is left out, not blanked).
			const first = Object.fromEntries(state.sheet.written.map((row) => [row.name, row.transactionId]));
			for (const row of rows) assert.equal(row.transactionId, first[row.name], `${row.name} got another ID`);
			assert.equal(output(execution, 'Rows to Fix').length, 2);
			return `0 requests creating anything; 3 rows alreadySent, ${unknown} without a known ID (left out by Has Transaction ID?); written back: ${rows.length ? rows.map((row) => `${row.name} ${row.transactionId}`).join(', ') : 'nothing'}`;
		},
	);
}

// ---------------------------------------------------------------- candidates to reports
async function actionsCounts() {
	const state = await sandboxState();
	const forms = state.forms.filter((form) => form.name === 'Engineering hires (example)');
	const formIds = new Set(forms.map((form) => form._id));
	return {
		forms: forms.length,
		candidates: state.transactions.filter((transaction) => formIds.has(transaction.formId)).length,
		files: state.files.filter((file) => String(file.source).startsWith('upload:')).length,
		webhookConfigs: state.webhookConfigs.filter((config) => /example\.com\/hooks/.test(config.endpoint)).length,
	};
}

const SUBMITS = [
	'Submit Employment Check',
	'Submit Credit Check',
	'Submit Court Record Check',
	'Submit Police Verification',
	'Submit 10th Education',
];
const isUpload = (request) => request.path === '/utility/api/1.0/files';

/**
 * A run again of candidates to reports: nothing created but a document uploaded again per candidate whose
 * transaction ID this n8n knows, each of whose five checks went to Submit and came out alreadySent (no
 * check state is tested). Returns the number of candidates that went to Submit.
 */
function assertRunAgain(execution, requests, before, after) {
	const created = requests.filter(creates);
	assert.equal(created.filter((request) => !isUpload(request)).length, 0, `sent again: ${describeCreating(requests)}`);
	const uploads = created.filter(isUpload).length;
	assert.deepEqual(after, { ...before, files: before.files + uploads });
	const profiles = output(execution, 'Create Profile');
	assert.ok(profiles.length > 0 && profiles.every((item) => item.alreadySent === true), 'a candidate was created again');
	assert.equal(output(execution, 'New Candidate?', 1).length, profiles.length);
	const known = output(execution, 'Transaction ID Known?', 0) ?? [];
	assert.equal(uploads, known.length, `${uploads} uploads for ${known.length} candidates with a known ID`);
	for (const submit of SUBMITS) {
		const submitted = known.length ? output(execution, submit) : [];
		assert.equal(submitted.length, known.length, `${submit}: ${submitted.length} items`);
		assert.ok(submitted.every((item) => item.alreadySent === true), `${submit} sent a check again`);
	}
	return known.length;
}

async function actionsRun(state, label) {
	const first = label === 'run 1';
	await report.step(
		`candidates to reports, ${label}: ${first ? 'the form, candidates, uploads, submissions and the webhook configuration created' : 'no form, candidate, check or webhook configuration created again: every check of a candidate whose ID is known goes to Submit, which skips each one (alreadySent); only its document is uploaded again'}`,
		async () => {
			const before = await actionsCounts();
			const { value: execution, requests } = await received(() => run(ACTIONS, 'Start'));
			const after = await actionsCounts();
			const summary = `${describeCreating(requests)}; at the service: ${after.forms} form, ${after.candidates} candidates, ${after.files} uploaded files, ${after.webhookConfigs} webhook configuration`;
			if (first) {
				assert.equal(before.forms, 0, 'the example ran before');
				assert.equal(execution.status, 'success', failure(execution));
				assert.equal(after.forms, 1);
				state.actions = after;
				return `first run: ${summary}`;
			}
			const [form] = output(execution, 'Create Form');
			assert.equal(form.alreadySent, true, 'the form was not recognised as created before');
			state.actions = after;
			if (form._id) {
				assert.equal(execution.status, 'success', failure(execution));
				// Every check of each candidate goes to Submit; its duplicate protection skips those run 1 submitted.
				const resubmitted = assertRunAgain(execution, requests, before, after);
				return `form ID known: every candidate alreadySent; ${resubmitted} went to Submit, every check alreadySent; ${summary}`;
			}
			// A manual run after a restart may not know the form's ID: it ends at Form ID Known?, having sent nothing.
			assert.equal(requests.filter(creates).length, 0, `sent again: ${describeCreating(requests)}`);
			assert.deepEqual(after, before);
			assert.equal(execution.status, 'success', failure(execution));
			assert.equal(output(execution, 'Form ID Known?', 1).length, 1);
			assert.ok(!ran(execution, 'Candidate List'));
			// Form ID Known?'s note: pin Create Form's output with the form's ID (Edit Output), run again.
			const formId = (await sandboxState()).forms.find((each) => each.name === 'Engineering hires (example)')._id;
			await n8n.rest('PATCH', `/workflows/${ACTIONS}`, { pinData: { 'Create Form': [{ json: { _id: formId } }] } });
			try {
				const { value: pinned, requests: pinnedRequests } = await received(() => run(ACTIONS, 'Start'));
				assert.equal(pinned.status, 'success', failure(pinned));
				assertRunAgain(pinned, pinnedRequests, before, await actionsCounts());
			} finally {
				await n8n.rest('PATCH', `/workflows/${ACTIONS}`, { pinData: {} });
			}
			return `form ID not known to this n8n: the run ended at Form ID Known? (false branch); with the form's ID pinned on Create Form (its note's advice) every candidate alreadySent, nothing sent; ${summary}`;
		},
	);
}

/** The production webhook URL of an example's trigger. */
const webhookUrlOf = (file) => `${N8N_URL}/webhook/${example(file).nodes.find((node) => node.webhookId).webhookId}/webhook`;
const webhookConfigOf = async (webhookUrl) => (await sandboxState()).webhookConfigs.find((c) => c.endpoint === webhookUrl);

/** Activates a trigger workflow through the public API, then waits until the service holds its new secret. */
async function activateTrigger(workflowId, webhookUrl) {
	const before = await webhookConfigOf(webhookUrl);
	await n8n.api('POST', `/workflows/${workflowId}/activate`);
	await waitFor(
		() => webhookConfigOf(webhookUrl),
		(config) => config && (!before || config.apiKey !== before.apiKey),
		'the new secret at the service',
	);
	await sleep(1000); // the trigger saves its secret in n8n after registering it
}

// ---------------------------------------------------------------- completed report to HR
const HR_CASES = {
	notSetUp: 'Nisha Rao',
	normal: 'Asha Verma',
	downloadFails: 'Sunita Bose',
	emailFails: 'Arjun Pillai',
	sameMoment: 'Kavya Menon',
	skipped: 'Ira Kapoor',
	partlyWithoutReport: 'Dev Malhotra',
	withoutReport: 'Leela Joshi',
};
/**
 * The form of each case's candidate (`main` when not listed): the examples form is bgv-cibil and
 * bgv-criminal (skippable); bgv-police-verification is the sandbox's check with no report.
 */
const CASE_FORMS = { partlyWithoutReport: 'partlyWithoutReport', withoutReport: 'withoutReport' };
const FORM_CHECKS = {
	main: [
		{ name: 'bgv-cibil', skipAllowed: false },
		{ name: 'bgv-criminal', skipAllowed: true },
	],
	partlyWithoutReport: [
		{ name: 'bgv-cibil', skipAllowed: false },
		{ name: 'bgv-police-verification', skipAllowed: false },
	],
	withoutReport: [{ name: 'bgv-police-verification', skipAllowed: false }],
};
/** An email's text part as written (quoted-printable soft line breaks and escapes undone). */
const mailText = (mail) =>
	mail.raw.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));

function reportFlow(catcher) {
	const webhookUrl = webhookUrlOf('completed-report-to-hr.json');
	const mails = (name) => catcher.messages.filter((message) => message.subject === `Verification completed: ${name}`);
	const isFor = (transactionId) => (execution) =>
		output(execution, 'Check Completed')?.[0]?.transactionId === transactionId;
	const executionsFor = async (transactionId, count) =>
		waitFor(
			async () =>
				(await n8n.executions(REPORT)).filter(
					(e) => e.status !== 'running' && e.status !== 'new' && e.status !== 'waiting' && isFor(transactionId)(e),
				),
			(list) => list.length >= count,
			`${count} executions of the report flow for ${transactionId}`,
			60_000,
		);
	const registered = () =>
		waitFor(
			async () => (await sandboxState()).webhookConfigs.find((c) => c.endpoint === webhookUrl),
			Boolean,
			'the report flow to register at the sandbox',
		);
	/** A check's COMPLETED notification as the service sends it (its last check by default). */
	async function notify(transactionId, checkName) {
		await waitActive();
		const { apiKey } = await registered();
		const verificationId = await notifiedCheck(transactionId, checkName);
		const response = await fetch(webhookUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'x-api-key': apiKey, 'x-webhook-key': apiKey },
			body: JSON.stringify({ transactionId, verificationId, newState: 'COMPLETED' }),
		});
		assert.equal(response.status, 200, `notification answered ${response.status}`);
	}
	/** Until n8n has registered the webhook (a probe with a wrong key gets 401, not 404; it starts nothing). */
	const waitActive = () =>
		waitFor(
			async () =>
				(
					await fetch(webhookUrl, {
						method: 'POST',
						headers: { 'content-type': 'application/json', 'x-api-key': 'probe', 'x-webhook-key': 'probe' },
						body: '{}',
					})
				).status,
			(status) => status !== 404,
			'n8n to register the report flow\'s webhook',
			120_000,
		);
	/** Activates through the public API, then waits until n8n serves the webhook with a secret the service holds. */
	async function activate() {
		await activateTrigger(REPORT, webhookUrl);
		await waitActive();
	}
	const transition = (transactionId, verificationName) =>
		sandbox('POST', '/__sandbox/transition', { transactionId, verificationName, newState: 'COMPLETED' });
	/** Both checks completed (two notifications, one after the other); waits for both executions. */
	async function complete(transactionId) {
		await waitActive();
		await registered();
		const already = (await n8n.executions(REPORT)).filter(isFor(transactionId)).length;
		await transition(transactionId, 'bgv-cibil');
		await executionsFor(transactionId, already + 1);
		await transition(transactionId, 'bgv-criminal');
		const list = await executionsFor(transactionId, already + 2);
		return list[0];
	}
	async function retry(execution, loadWorkflow) {
		await n8n.rest('POST', `/executions/${execution.id}/retry`, { loadWorkflow });
		const [again] = await waitFor(
			async () =>
				(await n8n.executions(REPORT)).filter(
					(e) => String(e.retryOf) === String(execution.id) && e.status !== 'running' && e.status !== 'new',
				),
			(list) => list.length > 0,
			`the retry of execution ${execution.id}`,
			60_000,
		);
		return n8n.waitForExecution(again.id);
	}
	return { webhookUrl, mails, isFor, executionsFor, registered, waitActive, activate, notify, transition, complete, retry };
}

/** What notifications name a check by (NOTIFY_CHECK_BY): its ID (subType) or its name; the last check by default. */
async function notifiedCheck(transactionId, checkName) {
	const transaction = (await sandboxState()).transactions.find((each) => each.transactionId === transactionId);
	const checks = transaction.verificationList;
	const check = checkName ? checks.find((each) => each.name === checkName) : checks[checks.length - 1];
	return NOTIFY_CHECK_BY === 'id' ? check.subType : check.name;
}

async function newCandidate(state, name, formId = state.formId) {
	const { data } = await api('POST', `/ekyc-forms/${formId}/diy-candidate`, {
		name,
		gender: 'Female',
		mobile: '+919900112233',
		email: `${name.toLowerCase().replace(/\W+/g, '.')}@example.com`,
		profession: 'Engineer',
		...(PAGES === 'current' ? { dob: '10-10-1990' } : {}),
	});
	return data.transactionId;
}

async function setSmtpCredential(credential, { disabled = false } = {}) {
	await editNode(REPORT, 'Email HR', (parameters, node) => {
		node.credentials = { smtp: { id: credential.id, name: credential.name } };
		if (disabled) node.disabled = true;
		else delete node.disabled;
	});
}

async function hrFirstRun(state, catcher) {
	const flow = reportFlow(catcher);
	const hr = (state.hr = { candidates: {}, emails: {} });
	for (const [key, name] of Object.entries(HR_CASES))
		hr.candidates[key] =
			name === 'Asha Verma'
				? state.sheet.written.find((row) => row.name === name).transactionId
				: await newCandidate(state, name, state.forms[CASE_FORMS[key] || 'main']);
	const txn = hr.candidates;
	let active = false;
	try {
		await report.step(
			'completed report to HR, before Email HR is set up: activation without an SMTP credential is refused or fails at Email HR; with Email HR disabled nothing is marked, and once enabled the next notification mails HR once',
			async () => {
				let activation;
				try {
					await flow.activate();
					active = true;
					activation = 'activated without an SMTP credential';
				} catch (error) {
					activation = `activation refused without an SMTP credential (${error.status || ''} ${String(error.message).slice(0, 80)})`;
				}
				if (active) {
					// A release that activates it anyway: the execution fails at Email HR and a Retry mails.
					await flow.registered();
					const last = await flow.complete(txn.notSetUp);
					assert.equal(last.status, 'error', `the execution should fail at Email HR (${last.status})`);
					assert.match(failure(last), /^Email HR/);
					assert.ok(!ran(last, 'Mark Mailed'), 'marked as mailed without an email');
					assert.equal(flow.mails(HR_CASES.notSetUp).length, 0);
					await n8n.api('POST', `/workflows/${REPORT}/deactivate`);
					active = false;
					await setSmtpCredential(state.smtp);
					const retried = await flow.retry(last, true);
					assert.equal(retried.status, 'success', failure(retried));
					hr.emails.notSetUp = flow.mails(HR_CASES.notSetUp).length;
					assert.equal(hr.emails.notSetUp, 1, `${hr.emails.notSetUp} emails`);
					await flow.activate();
					active = true;
					return `${activation}: failed at Email HR, 0 emails, not marked; Retry after setting it: 1 email`;
				}
				// As the example shipped before: Email HR disabled while the workflow is active.
				await setSmtpCredential(state.smtp, { disabled: true });
				await flow.activate();
				active = true;
				await flow.registered();
				const last = await flow.complete(txn.notSetUp);
				assert.equal(last.status, 'success', failure(last));
				assert.ok(ran(last, 'Email HR'), 'Email HR was not reached');
				assert.equal((output(last, 'Mailed?', 0) ?? []).length, 0, 'Mailed? let an unsent email through');
				assert.ok(!ran(last, 'Mark Mailed'), 'marked as mailed without an email');
				assert.equal(flow.mails(HR_CASES.notSetUp).length, 0);
				await n8n.api('POST', `/workflows/${REPORT}/deactivate`);
				active = false;
				await setSmtpCredential(state.smtp);
				await flow.activate();
				active = true;
				const before = (await n8n.executions(REPORT)).filter(flow.isFor(txn.notSetUp)).length;
				await flow.notify(txn.notSetUp);
				const [again] = await flow.executionsFor(txn.notSetUp, before + 1);
				assert.equal(again.status, 'success', failure(again));
				assert.ok(ran(again, 'Mark Mailed'), 'Mark Mailed did not run after the email');
				hr.emails.notSetUp = flow.mails(HR_CASES.notSetUp).length;
				assert.equal(hr.emails.notSetUp, 1, `${hr.emails.notSetUp} emails`);
				const [mail] = flow.mails(HR_CASES.notSetUp);
				for (const file of reportFiles(txn.notSetUp)) assert.ok(mail.raw.includes(file), `${file} not attached`);
				return `${activation}; with Email HR disabled: 0 emails, Mailed? false, not marked; enabled, the next notification: 1 email`;
			},
		);
		if (!active) return;

		await report.step(
			'completed report to HR: a check completed while another is open mails nothing; the last one mails the report once; the same notification again mails nothing',
			async () => {
				const last = await flow.complete(txn.normal);
				assert.equal(last.status, 'success', failure(last));
				await flow.notify(txn.normal);
				const executions = await flow.executionsFor(txn.normal, 3);
				assert.equal(executions.length, 3);
				assert.ok(executions.every((e) => e.status === 'success'), executions.map(failure).join(' | '));
				const open = executions.filter((e) => output(e, 'All Checks Done?', 1)?.length === 1);
				assert.equal(open.length, 1, 'the first notification (one check still open) should take the false branch');
				const downloads = executions.filter((e) => (output(e, DOWNLOAD) ?? []).length > 0);
				assert.equal(downloads.length, 1, `${downloads.length} executions downloaded the report`);
				const files = output(downloads[0], DOWNLOAD).map((item) => item.$binary && item.$binary.report);
				assert.ok(files.every(Boolean), 'no binary field "report" for Email HR to attach');
				assert.deepEqual(files.map((file) => file.fileName), reportFiles(txn.normal));
				let size = 0;
				for (const file of files) {
					assert.equal(file.mimeType, 'application/pdf');
					const { bytes } = await n8n.binaryData(file.id);
					assert.equal(bytes.subarray(0, 4).toString(), '%PDF');
					size += bytes.length;
				}
				hr.emails.normal = flow.mails(HR_CASES.normal).length;
				assert.equal(hr.emails.normal, 1, `${hr.emails.normal} emails`);
				const [mail] = flow.mails(HR_CASES.normal);
				assert.deepEqual(mail.to, ['<hr@example.com>']);
				for (const name of reportFiles(txn.normal)) assert.match(mail.raw, new RegExp(`filename="?${name.replace(/\./g, '\\.')}`));
				return `3 executions, 1 execution downloading ${files.length} report(s) (${size} bytes), 1 email to hr@example.com with ${reportFiles(txn.normal).join(', ')}`;
			},
		);

		await report.step(
			'completed report to HR: Download Report fails (a 502 gateway): nothing mailed or marked; a Retry from the Executions list mails HR once',
			async () => {
				await sandbox('POST', '/__sandbox/failures', { pathPrefixes: [`${V}/download-manager/`, '/private-files/'] });
				let last;
				try {
					last = await flow.complete(txn.downloadFails);
				} finally {
					await sandbox('POST', '/__sandbox/failures', { pathPrefixes: [] });
				}
				assert.equal(last.status, 'error', `the execution should fail at Download Report (${last.status})`);
				assert.match(failure(last), new RegExp(`^${DOWNLOAD}`));
				assert.equal(flow.mails(HR_CASES.downloadFails).length, 0);
				const retried = await flow.retry(last, false);
				assert.equal(retried.status, 'success', failure(retried));
				hr.emails.downloadFails = flow.mails(HR_CASES.downloadFails).length;
				assert.equal(hr.emails.downloadFails, 1, `${hr.emails.downloadFails} emails`);
				return `failed: "${failure(last).slice(0, 90)}…", 0 emails; after the Retry: 1 email`;
			},
		);

		await report.step(
			'completed report to HR: the mail server refuses once (451): nothing marked; a Retry from the Executions list mails HR once',
			async () => {
				catcher.refuseNext(1);
				const last = await flow.complete(txn.emailFails);
				assert.equal(last.status, 'error', `the execution should fail at Email HR (${last.status})`);
				assert.match(failure(last), /^Email HR/);
				assert.ok(!ran(last, 'Mark Mailed'));
				assert.equal(flow.mails(HR_CASES.emailFails).length, 0);
				const retried = await flow.retry(last, false);
				assert.equal(retried.status, 'success', failure(retried));
				hr.emails.emailFails = flow.mails(HR_CASES.emailFails).length;
				assert.equal(hr.emails.emailFails, 1, `${hr.emails.emailFails} emails`);
				return `failed: "${failure(last).slice(0, 90)}…", 0 emails; after the Retry: 1 email`;
			},
		);

		await report.step(
			'completed report to HR: the last notification posted twice at the same moment: at least one email, at most two (the case the note lists)',
			async () => {
				const already = (await n8n.executions(REPORT)).filter(flow.isFor(txn.sameMoment)).length;
				await sandbox('POST', '/__sandbox/transition', {
					transactionId: txn.sameMoment,
					verificationName: 'bgv-cibil',
					newState: 'COMPLETED',
				});
				await flow.executionsFor(txn.sameMoment, already + 1);
				await Promise.all([
					sandbox('POST', '/__sandbox/transition', {
						transactionId: txn.sameMoment,
						verificationName: 'bgv-criminal',
						newState: 'COMPLETED',
					}),
					flow.notify(txn.sameMoment),
				]);
				const executions = await flow.executionsFor(txn.sameMoment, already + 3);
				assert.ok(executions.every((e) => e.status === 'success'), executions.map(failure).join(' | '));
				hr.emails.sameMoment = flow.mails(HR_CASES.sameMoment).length;
				assert.ok(hr.emails.sameMoment >= 1 && hr.emails.sameMoment <= 2, `${hr.emails.sameMoment} emails`);
				return `${hr.emails.sameMoment} email(s) this run`;
			},
		);

		await report.step(
			'completed report to HR: a check the candidate skipped counts as done; a completed check without a report is named, not downloaded; a candidate none of whose checks has a report gets one email naming it',
			async () => {
				const results = [];
				// Ira Kapoor skips bgv-criminal (nothing is notified), then bgv-cibil completes: one execution, one email.
				await sandbox('POST', '/__sandbox/skip', { transactionId: txn.skipped, verificationName: 'bgv-criminal' });
				const cases = [
					['skipped', ['bgv-cibil'], ['bgv-criminal (skipped)']],
					['partlyWithoutReport', ['bgv-police-verification', 'bgv-cibil'], ['bgv-police-verification (no report)']],
					['withoutReport', ['bgv-police-verification'], ['bgv-police-verification (no report)']],
				];
				for (const [key, completed, notAttached] of cases) {
					const transactionId = txn[key];
					for (const [index, check] of completed.entries()) {
						await flow.transition(transactionId, check);
						await flow.executionsFor(transactionId, index + 1);
					}
					const executions = await flow.executionsFor(transactionId, completed.length);
					assert.ok(executions.every((e) => e.status === 'success'), executions.map(failure).join(' | '));
					const [last] = executions;
					assert.equal(output(last, 'All Checks Done?', 0).length, 1, `${key}: not done`);
					const files = (output(last, DOWNLOAD) ?? []).map((item) => item.$binary.report.fileName);
					const checks = FORM_CHECKS[CASE_FORMS[key] || 'main'].map((check) => check.name);
					assert.deepEqual(files, reportFiles(transactionId, checks.filter((check) => completed.includes(check))));
					hr.emails[key] = flow.mails(HR_CASES[key]).length;
					assert.equal(hr.emails[key], 1, `${key}: ${hr.emails[key]} emails`);
					const text = mailText(flow.mails(HR_CASES[key])[0]);
					assert.ok(text.includes(`No report attached for: ${notAttached.join(', ')}.`), `${key}: ${text.slice(-400)}`);
					for (const file of files) assert.ok(text.includes(file), `${file} not attached`);
					results.push(`${HR_CASES[key]}: ${files.length} attached, named ${notAttached.join(', ')}`);
				}
				return results.join('; ');
			},
		);
	} finally {
		// Stays active across the restart (phase 2 posts to it again); run.sh stops n8n at the end.
		hr.active = active;
	}
}

async function hrSecondRun(state, catcher) {
	await report.step(
		'completed report to HR, after an n8n restart: the last notification of every candidate mailed before posted again: 0 emails, nothing downloaded',
		async () => {
			assert.ok(state.hr && state.hr.active, 'the report flow was not active in the first phase');
			const flow = reportFlow(catcher);
			await flow.waitActive();
			await flow.registered();
			await sleep(2000); // re-activated at boot: the trigger saves the secret it registered
			const counts = [];
			for (const [key, transactionId] of Object.entries(state.hr.candidates)) {
				const before = (await n8n.executions(REPORT)).filter(flow.isFor(transactionId)).length;
				await flow.notify(transactionId);
				const [latest] = await flow.executionsFor(transactionId, before + 1);
				assert.equal(latest.status, 'success', failure(latest));
				assert.equal((output(latest, DOWNLOAD) ?? []).length, 0, `${key}: downloaded again`);
				counts.push(`${HR_CASES[key]}: ${flow.mails(HR_CASES[key]).length}`);
			}
			assert.equal(catcher.messages.length, 0, `${catcher.messages.length} emails after the restart`);
			return `emails after the restart: ${counts.join(', ')}`;
		},
	);
}

// ---------------------------------------------------------------- event summary (the trigger demo)
const EVENT_SUMMARY = 'cvExampleTrigger';

async function eventSummaryRun(state, label) {
	const transactionId = state.hr && state.hr.candidates.normal;
	if (!transactionId) return;
	const webhookUrl = webhookUrlOf('verification-event-summary.json');
	const verificationId = await notifiedCheck(transactionId, 'bgv-criminal');
	const event = { transactionId, verificationId, newState: 'COMPLETED' };
	const isEvent = (execution) => {
		const [item] = output(execution, 'Candidate Verification Trigger') ?? [];
		return item && item.transactionId === transactionId && item.verificationId === verificationId && item.newState === 'COMPLETED';
	};
	const finished = async () =>
		(await n8n.executions(EVENT_SUMMARY)).filter((e) => e.status !== 'running' && e.status !== 'new' && isEvent(e));
	await report.step(
		`event summary, ${label}: the same event posted again is summarised again (one line per delivery: no key tells a repeat from a state reached again)`,
		async () => {
			const config = await waitFor(
				async () => (await sandboxState()).webhookConfigs.find((c) => c.endpoint === webhookUrl),
				Boolean,
				'the event summary trigger to register',
			);
			await sleep(1000);
			const before = (await finished()).length;
			const response = await fetch(webhookUrl, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'x-api-key': config.apiKey, 'x-webhook-key': config.apiKey },
				body: JSON.stringify(event),
			});
			assert.equal(response.status, 200, `notification answered ${response.status}`);
			const executions = await waitFor(finished, (list) => list.length >= before + 1, 'the event summary execution', 60_000);
			assert.ok(executions.every((e) => e.status === 'success'), executions.map(failure).join(' | '));
			const summarised = executions.filter((e) => (output(e, 'Summarize Event') ?? []).length === 1);
			assert.equal(summarised.length, executions.length, `${summarised.length} of ${executions.length} executions summarised the event`);
			return `${executions.length} executions of the event (the service's delivery and ${executions.length - 1} posted again), ${summarised.length} summaries: "${output(summarised[0], 'Summarize Event')[0].summary}"`;
		},
	);
}

// ---------------------------------------------------------------- insufficiency loop
const INSUFFICIENCY_URL = webhookUrlOf('insufficiency-loop.json');
const INSUFFICIENCY_CHECK = 'bgv-criminal';

/** The finished executions of the insufficiency loop for one transaction, newest first, once there are `count`. */
const insufficiencyExecutions = (transactionId, count) =>
	waitFor(
		async () =>
			(await n8n.executions(INSUFFICIENCY)).filter(
				(e) =>
					e.status !== 'running' &&
					e.status !== 'new' &&
					output(e, 'Insufficiency Raised')?.[0]?.transactionId === transactionId,
			),
		(list) => list.length >= count,
		`${count} executions of the insufficiency loop for ${transactionId}`,
		60_000,
	);
const resolutionsOf = async (transactionId) =>
	(await sandboxRequests()).filter(
		(r) => r.method === 'POST' && r.path === `${V}/bgv/insufficiency` && r.body.transactionId === transactionId,
	);
const uploadsFor = async (category) =>
	(await sandboxRequests()).filter((r) => isUpload(r) && r.query.fileCategory === category).length;

/**
 * Raises the insufficiency on the check and checks the execution it starts: the trigger placed the check
 * named by its ID (checkName beside verificationId), the candidate was asked (Mark Asked), one upload in the
 * check's category, and Resolve Insufficiency sent the answer and that upload to the check's ID.
 */
async function raiseAndAnswer(insufficiency, questions) {
	const { transactionId } = insufficiency;
	const before = (await insufficiencyExecutions(transactionId, 0)).length;
	const uploadsBefore = await uploadsFor(INSUFFICIENCY_CHECK);
	const resolutionsBefore = (await resolutionsOf(transactionId)).length;
	const raised = await sandbox('POST', '/__sandbox/insufficiency', {
		transactionId,
		verificationName: INSUFFICIENCY_CHECK,
		insufficiencies: questions,
	});
	const [execution] = await insufficiencyExecutions(transactionId, before + 1);
	assert.equal(execution.status, 'success', failure(execution));
	const [event] = output(execution, 'Insufficiency Raised');
	assert.equal(event.verificationId, NOTIFY_CHECK_BY === 'id' ? raised.verificationId : INSUFFICIENCY_CHECK);
	if (NOTIFY_CHECK_BY === 'id') assert.equal(event.checkName, INSUFFICIENCY_CHECK, 'the trigger did not place the check');
	assert.ok(ran(execution, 'Mark Asked'), 'the candidate was not asked');
	assert.equal(await uploadsFor(INSUFFICIENCY_CHECK), uploadsBefore + 1);
	const [upload] = output(execution, 'Upload Document');
	const resolutions = await resolutionsOf(transactionId);
	assert.equal(resolutions.length, resolutionsBefore + 1);
	const [question] = raised.insufficiencyData;
	assert.deepEqual(resolutions[resolutions.length - 1].body, {
		transactionId,
		orgId: (await sandboxState()).orgId,
		subType: raised.verificationId,
		dataToUpload: {
			insufficiencyDataList: [{ insufficiencyId: question.insufficiencyId, value: `Collected from the candidate: ${question.label}` }],
			documents: [
				{
					documentType: 'EducationalCertificates',
					fileType: 'Url',
					fileName: `insufficiency-${transactionId}.pdf`,
					document: { label: 'Requested document', url: upload.fileUrl },
				},
			],
		},
	});
	return { execution, raised, upload };
}

async function insufficiencyFirstRun(state) {
	await report.step(
		`insufficiency loop, run 1 (notifications name the check by its ${NOTIFY_CHECK_BY}, no Checks filter): raised → What Is Missing → the candidate asked → uploaded → Resolve Insufficiency sends the answer and the document to the check's ID`,
		async () => {
			await activateTrigger(INSUFFICIENCY, INSUFFICIENCY_URL);
			const insufficiency = (state.insufficiency = { transactionId: await newCandidate(state, 'Rohan Gupta') });
			const { execution, raised } = await raiseAndAnswer(insufficiency, [{ label: 'Court case number, if any', type: 'text' }]);
			Object.assign(insufficiency, { verificationId: raised.verificationId, question: raised.insufficiencyData[0] });
			return `execution ${execution.id}: verificationId ${raised.verificationId}, checkName ${output(execution, 'Insufficiency Raised')[0].checkName}, answered`;
		},
	);
}

async function insufficiencySecondRun(state) {
	await report.step(
		'insufficiency loop, run 2 (after an n8n restart): the raised notification delivered again ends at Still Missing? and sends nothing; the same question raised again is asked again and answered with a new upload',
		async () => {
			const insufficiency = state.insufficiency;
			assert.ok(insufficiency && insufficiency.verificationId, 'the first phase answered no insufficiency');
			const { transactionId } = insufficiency;
			const config = await waitFor(() => webhookConfigOf(INSUFFICIENCY_URL), Boolean, 'the insufficiency loop registered');
			await sleep(2000); // re-activated at boot: the trigger saves the secret it registered
			const { deliveries } = await sandboxState();
			const delivered = deliveries.filter(
				(d) => d.endpoint === INSUFFICIENCY_URL && d.payload.transactionId === transactionId && d.payload.action === 'insufficiency-raised',
			);
			const before = (await insufficiencyExecutions(transactionId, 0)).length;
			const resolutionsBefore = (await resolutionsOf(transactionId)).length;
			const { apiKey } = await webhookConfigOf(INSUFFICIENCY_URL);
			const response = await fetch(INSUFFICIENCY_URL, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'x-api-key': apiKey, 'x-webhook-key': apiKey },
				body: JSON.stringify(delivered[delivered.length - 1].payload),
			});
			assert.equal(response.status, 200, `notification answered ${response.status} (config ${config.id})`);
			const [again] = await insufficiencyExecutions(transactionId, before + 1);
			assert.equal(again.status, 'success', failure(again));
			assert.equal(output(again, 'Still Missing?', 1).length, 1, 'the answered question did not end at Still Missing?');
			assert.ok(!ran(again, 'Collect From Candidate'));
			assert.equal((await resolutionsOf(transactionId)).length, resolutionsBefore, 'the answers were sent again');

			const { execution, upload } = await raiseAndAnswer(insufficiency, [{ ...insufficiency.question }]);
			const urls = (await resolutionsOf(transactionId)).map((r) => r.body.dataToUpload.documents[0].document.url);
			assert.equal(new Set(urls).size, urls.length, 'an upload was sent twice');
			await n8n.api('POST', `/workflows/${INSUFFICIENCY}/deactivate`).catch(() => {});
			return `delivered again: execution ${again.id} ended at Still Missing?; raised again: execution ${execution.id} answered with ${upload.fileUrl.split('/').pop()}`;
		},
	);
}

// ---------------------------------------------------------------- sweep of open transactions
async function sweepRun(state) {
	const asha = state.hr && state.hr.candidates.normal;
	const rahul = state.sheet && state.sheet.written.find((row) => row.name === 'Rahul Mehta').transactionId;
	if (!asha || !rahul) return;
	const { skipped: ira, withoutReport: leela } = state.hr.candidates;
	const label = PHASE === 'first' ? 'run 1' : 'run 2 (after an n8n restart)';
	await report.step(
		`sweep of open transactions, ${label} (Schedule Trigger run once): the done ones get their reports (a skipped check counts as done and is named; a transaction with no report at all comes out without a file), the open one stays open, nothing created`,
		async () => {
			if (PHASE === 'first')
				await editNode(SWEEP, 'Open Transactions', (parameters) => {
					parameters.jsCode = parameters.jsCode.replace(/\[[^\]]*\]/, JSON.stringify([asha, rahul, ira, leela]));
				});
			const { value: execution, requests } = await received(() => run(SWEEP, 'Every Hour'));
			assert.equal(execution.status, 'success', failure(execution));
			assert.equal(requests.filter(creates).length, 0, describeCreating(requests));
			const reads = output(execution, 'Get Status');
			assert.deepEqual(
				reads.map((read) => read.transactionId),
				[asha, rahul, ira, leela],
			);
			// Completed Reports runs once per branch that reaches it (a report downloaded, or none at all).
			const done = outputOfEveryRun(execution, 'Completed Reports').map((item) => ({ ...item, $binary: undefined }));
			const doneItem = (transactionId, candidate, report, notAttached) => ({
				transactionId,
				candidate,
				report,
				notAttached: PAGES === 'current' ? notAttached : [],
				status: 'done',
				$binary: undefined,
			});
			const byReport = (a, b) => `${a.transactionId}/${a.report}`.localeCompare(`${b.transactionId}/${b.report}`);
			assert.deepEqual(
				done.sort(byReport),
				[
					...reportFiles(asha).map((file) => doneItem(asha, 'Asha Verma', file, [])),
					...reportFiles(ira, ['bgv-cibil']).map((file) => doneItem(ira, 'Ira Kapoor', file, ['bgv-criminal (skipped)'])),
					doneItem(leela, 'Leela Joshi', '', ['bgv-police-verification (no report)']),
				].sort(byReport),
			);
			const open = output(execution, 'Still Open');
			assert.deepEqual(
				open.map((item) => [item.transactionId, item.state]),
				[[rahul, 'NOT_STARTED']],
			);
			return `done: ${done.map((item) => item.report).join(', ')}; still open: ${rahul}; ${describeCreating(requests)}`;
		},
	);
}

async function smtpCredential() {
	const body = {
		name: SMTP_CREDENTIAL,
		type: 'smtp',
		data: { user: '', password: '', host: '127.0.0.1', port: SMTP_PORT, secure: false, disableStartTls: true },
	};
	const created = await n8n.rest('POST', '/credentials', body);
	return { id: created.id, name: created.name };
}

async function main() {
	await n8n.ownerSession(E2E_OWNER);
	await n8n.createApiKey(`examples-${PHASE}-${Date.now()}`);
	const catcher = await startSmtpCatcher({ port: SMTP_PORT });
	await sandbox('POST', '/__sandbox/pages', { pages: PAGES });
	await sandbox('POST', '/__sandbox/notify-check-by', { by: NOTIFY_CHECK_BY });
	try {
		if (PHASE === 'first') {
			const state = {};
			// The form the sheet's candidates are added to (`main`): two checks, so a transaction is done
			// only after both (the report flow must wait for the second notification), the second one
			// skippable; and two forms with the check that has no report (FORM_CHECKS).
			const purposes = (await api('GET', '/purposes')).data.list;
			state.forms = {};
			for (const [key, verifications] of Object.entries(FORM_CHECKS)) {
				const { data } = await api('POST', '/ekyc-forms', {
					name: `Examples form (${key})`,
					purpose: purposes.find((purpose) => purpose.name === 'BGV')._id,
					expiry: Math.floor(Date.now() / 1000) + 30 * 86400,
					verifications,
					userPaymentRequired: false,
					type: 'diy',
					sharing: { visibility: 'private' },
				});
				state.forms[key] = data._id;
			}
			state.formId = state.forms.main;
			state.smtp = await smtpCredential();
			await sheetFirstRun(state);
			// checks.js has run it once already in the full suite; the examples scope runs it first here.
			if ((await actionsCounts()).forms === 0) await actionsRun(state, 'run 1');
			await actionsRun(state, 'run 2 (the same n8n process)');
			if (state.sheet) await hrFirstRun(state, catcher);
			await sweepRun(state);
			await insufficiencyFirstRun(state);
			await eventSummaryRun(state, 'run 1');
			state.emailsFirstPhase = catcher.messages.length;
			saveState(state);
		} else {
			const state = loadState();
			assert.ok(state.formId, `no state of the first phase in ${STATE_FILE}`);
			await sheetSecondRun(state);
			await actionsRun(state, 'run 3 (after an n8n restart)');
			await hrSecondRun(state, catcher);
			await sweepRun(state);
			await insufficiencySecondRun(state);
			await eventSummaryRun(state, 'run 2 (after an n8n restart)');
			await n8n.api('POST', `/workflows/${REPORT}/deactivate`).catch(() => {});
			saveState({ ...state, emailsSecondPhase: catcher.messages.length });
		}
	} finally {
		await catcher.close();
	}
}

report.run(`examples-check.js (${PHASE} phase)`, main);
