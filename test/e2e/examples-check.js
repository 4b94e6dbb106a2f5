'use strict';

/**
 * The template-shaped examples (examples/sheet-rows-to-candidates.json, completed-report-to-hr.json,
 * open-transactions-sweep.json) run in the e2e n8n against the sandbox, after checks.js (run.sh has
 * imported every examples/*.json). External systems are stand-ins in the files themselves (a Code
 * node for the sheet and for the list of open transactions) or disabled (Email HR); what a user
 * changes (the Form ID, the open transaction IDs) is set here through the public API, as a user
 * edits the node. Asserted: what the sandbox received and what each node output.
 *
 * Prints `ok - ` / `FAIL - ` lines (counted by run.sh). Environment: CV_N8N_URL, CV_SANDBOX_URL,
 * SANDBOX_API_KEY.
 */

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const { N8nClient, sleep } = require('./n8n-client');
const { ROOT, E2E_OWNER } = require('./package-under-test');
const { createReport } = require('./report');
const { sandboxClient } = require('./sandbox-client');

const N8N_URL = process.env.CV_N8N_URL;
const SANDBOX_URL = process.env.CV_SANDBOX_URL;
const API_KEY = process.env.SANDBOX_API_KEY;
const V = '/verification/api/1.0';
const SHEET = 'cvExampleSheetRows';
const REPORT = 'cvExampleReportToHr';
const SWEEP = 'cvExampleSweep';

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

async function waitFor(read, predicate, what, timeoutMs = 20_000) {
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

function failure(execution) {
	const error = execution.data.resultData.error;
	return error && `${error.node && error.node.name}: ${error.message}`;
}

/** Edits one node of a stored workflow through the public API, as a user edits it in the editor. */
async function editNode(workflowId, nodeName, edit) {
	const workflow = await n8n.api('GET', `/workflows/${workflowId}`);
	const node = workflow.nodes.find((candidate) => candidate.name === nodeName);
	assert.ok(node, `no node "${nodeName}" in ${workflowId}`);
	edit(node.parameters);
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

async function main() {
	await n8n.ownerSession(E2E_OWNER);
	await n8n.createApiKey(`examples-${Date.now()}`);

	// The form every candidate of these flows is added to: two checks, so a transaction is
	// COMPLETED only after both (the report flow must wait for the second notification).
	const purposes = (await api('GET', '/purposes')).data.list;
	const form = (
		await api('POST', '/ekyc-forms', {
			name: 'Examples form',
			purpose: purposes.find((purpose) => purpose.name === 'BGV')._id,
			expiry: Math.floor(Date.now() / 1000) + 30 * 86400,
			verifications: [
				{ name: 'bgv-cibil', skipAllowed: false },
				{ name: 'bgv-criminal', skipAllowed: false },
			],
			userPaymentRequired: false,
			type: 'diy',
			sharing: { visibility: 'private' },
		})
	).data;

	const profiles = {};
	let sheetRun;
	await report.step(
		'sheet rows → candidates: the valid rows sent (Map Automatically, values normalised), a transaction ID written back per row',
		async () => {
			await editNode(SHEET, 'Your Form ID', (parameters) => {
				parameters.assignments.assignments.find((field) => field.name === 'formId').value =
					form._id;
			});
			sheetRun = await run(SHEET, 'Start');
			const sent = (await sandboxRequests()).filter(
				(request) =>
					request.method === 'POST' && request.path === `${V}/ekyc-forms/${form._id}/diy-candidate`,
			);
			const byName = Object.fromEntries(sent.map((request) => [request.body.name, request.body]));
			assert.deepEqual(Object.keys(byName).sort(), ['Asha Verma', 'Priya Nair', 'Rahul Mehta']);
			// Column "Gender" F, "Date of Birth" 1992-08-21, "Mobile" with spaces: normalised.
			assert.deepEqual(byName['Priya Nair'], {
				name: 'Priya Nair',
				gender: 'Female',
				mobile: '+919900112233',
				profession: 'Accountant',
				email: 'priya.nair@example.com',
				verificationFields: { dob: '21-08-1992' },
			});
			assert.ok(sent.every((request) => request.headers['x-api-key'] === API_KEY));
			const written = output(sheetRun, 'Transaction IDs per Row');
			assert.ok(written, `"Transaction IDs per Row" did not run (${failure(sheetRun)})`);
			assert.deepEqual(
				written.map((row) => [row['Candidate Name'], row.Email, row.Status]),
				[
					['Asha Verma', 'asha.verma@example.com', 'Sent to verification'],
					['Rahul Mehta', 'rahul.mehta@example.com', 'Sent to verification'],
					['Priya Nair', 'priya.nair@example.com', 'Sent to verification'],
				],
			);
			const transactions = [...((await sandboxState()).transactions ?? [])];
			for (const row of written) {
				assert.match(row['Transaction ID'], /^TXN/);
				const known = transactions.find(
					(transaction) => transaction.transactionId === row['Transaction ID'],
				);
				if (known)
					assert.equal(
						known.candidate.name,
						row['Candidate Name'],
						"a row got another candidate's ID",
					);
				profiles[row['Candidate Name']] = row['Transaction ID'];
			}
			return written.map((row) => `${row['Candidate Name']}: ${row['Transaction ID']}`).join(', ');
		},
	);

	if (sheetRun) {
		await report.step(
			'sheet rows → candidates: refused rows leave on the error output and Rows to Fix names each row and its problem',
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
	const asha = profiles['Asha Verma'];
	const rahul = profiles['Rahul Mehta'];
	if (!asha || !rahul) return;

	const trigger = example('completed-report-to-hr.json').nodes.find((node) =>
		node.type.endsWith('Trigger'),
	);
	const webhookUrl = `${N8N_URL}/webhook/${trigger.webhookId}/webhook`;
	const isAsha = (execution) => output(execution, 'Check Completed')?.[0]?.transactionId === asha;
	const executionsFor = async (count) =>
		waitFor(
			async () =>
				(await n8n.executions(REPORT)).filter(
					(e) => e.status !== 'running' && e.status !== 'new' && isAsha(e),
				),
			(list) => list.length >= count,
			`${count} executions of the report flow`,
		);
	await report.step(
		'completed report to HR: activation registers the trigger; a check completed while another is open downloads nothing; the last one downloads the report once, a repeated notification does not',
		async () => {
			await n8n.api('POST', `/workflows/${REPORT}/activate`);
			try {
				const config = await waitFor(
					async () => (await sandboxState()).webhookConfigs.find((c) => c.endpoint === webhookUrl),
					Boolean,
					'the trigger to register at the sandbox',
				);
				const transition = (verificationName) =>
					sandbox('POST', '/__sandbox/transition', {
						transactionId: asha,
						verificationName,
						newState: 'COMPLETED',
					});
				await transition('bgv-cibil');
				await executionsFor(1);
				await transition('bgv-criminal');
				await executionsFor(2);
				// The service delivers the same notification again.
				const secret = (await sandboxState()).webhookConfigs.find((c) => c.id === config.id).apiKey;
				const again = await fetch(webhookUrl, {
					method: 'POST',
					headers: {
						'content-type': 'application/json',
						'x-api-key': secret,
						'x-webhook-key': secret,
					},
					body: JSON.stringify({
						transactionId: asha,
						verificationId: 'bgv-criminal',
						newState: 'COMPLETED',
					}),
				});
				assert.equal(again.status, 200);
				const executions = await executionsFor(3);
				assert.equal(executions.length, 3, `${executions.length} executions`);
				assert.ok(
					executions.every((e) => e.status === 'success'),
					executions.map(failure).join(' | '),
				);
				const downloads = executions.filter((e) => ran(e, 'Download Report'));
				assert.equal(downloads.length, 1, `${downloads.length} executions downloaded the report`);
				const [item] = output(downloads[0], 'Download Report');
				assert.equal(item.state, 'COMPLETED');
				assert.equal(item.candidate.name, 'Asha Verma');
				const file = item.$binary && item.$binary.report;
				assert.ok(file, 'no binary field "report" for Email HR to attach');
				assert.equal(file.fileName, `report-${asha}.pdf`);
				assert.equal(file.mimeType, 'application/pdf');
				const { bytes } = await n8n.binaryData(file.id);
				assert.equal(bytes.subarray(0, 4).toString(), '%PDF');
				const open = executions.filter((e) => output(e, 'All Checks Completed?', 1)?.length === 1);
				assert.equal(
					open.length,
					1,
					'the first notification (one check still open) should take the false branch',
				);
				const reads = (await sandboxRequests()).filter(
					(r) => r.path === `${V}/transactions/info` && r.query.txnId === asha,
				);
				assert.ok(reads.length >= 3, `${reads.length} status reads`);
				return `3 executions, 1 report (${file.fileName}, ${bytes.length} bytes); Email HR disabled`;
			} finally {
				await n8n.api('POST', `/workflows/${REPORT}/deactivate`).catch(() => {});
			}
		},
	);

	await report.step(
		'sweep of open transactions (Schedule Trigger run once): the completed one gets its report, the open one stays open',
		async () => {
			await editNode(SWEEP, 'Open Transactions', (parameters) => {
				parameters.jsCode = parameters.jsCode.replace(/\[[^\]]*\]/, JSON.stringify([asha, rahul]));
			});
			const execution = await run(SWEEP, 'Every Hour');
			assert.equal(execution.status, 'success', failure(execution));
			const reads = output(execution, 'Get Status');
			assert.deepEqual(
				reads.map((read) => read.transactionId),
				[asha, rahul],
			);
			const done = output(execution, 'Completed Reports');
			assert.equal(done.length, 1);
			assert.deepEqual(
				{ ...done[0], $binary: undefined },
				{
					transactionId: asha,
					candidate: 'Asha Verma',
					report: `report-${asha}.pdf`,
					status: 'done',
					$binary: undefined,
				},
			);
			const open = output(execution, 'Still Open');
			assert.deepEqual(
				open.map((item) => [item.transactionId, item.state]),
				[[rahul, 'NOT_STARTED']],
			);
			return `done: ${done[0].report}; still open: ${rahul}`;
		},
	);
}

report.run('examples-check.js', main);
