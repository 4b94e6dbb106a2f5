import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { TEST_CREDENTIALS } from '../harness/credentials-helper';
import { DeduplicationStore } from '../harness/deduplication-store';
import { runActionNode } from '../harness/run-node';
import { ProtectionModel } from './model';
import { Prng } from './prng';
import { brokenBilledPromises } from './billed';
import { brokenPromises } from './promises';
import { SimulatedService, SUBMIT_FORM } from './service';
import type { History, Row, Step } from './steps';
import {
	describeRow,
	executionsOf,
	FORMS,
	operationOf,
	PANS,
	PEOPLE,
	SUBMIT_SCOPES,
} from './steps';

// eslint-disable-next-line @n8n/community-nodes/no-hardcoded-secrets -- a made-up key for a fake service
const SECOND_ACCOUNT_KEY = 'second-account-key-7d1e';
const CREDENTIALS = {
	1: TEST_CREDENTIALS,
	2: { ...TEST_CREDENTIALS, apiKey: SECOND_ACCOUNT_KEY },
} as const;

const ON_ERROR = { stop: false, continue: true, errorOutput: 'errorOutput' } as const;

/** What a history's run found: the first step that broke a promise, or none. */
export interface HistoryOutcome {
	failedStep?: number;
	broken: string[];
}

/** The parameters of a step's Profile → Create node (version 2), or its Verify PAN node. */
function parametersOf(step: Step, historySize: number | undefined): INodeParameters {
	if (operationOf(step) === 'verifyPan')
		return {
			resource: 'instantKyc',
			operation: 'verifyPan',
			pan: '={{ $json.pan }}',
			requestOptions: { maxConcurrentRequests: step.concurrency, transientRetries: 0 },
		};
	const operation =
		operationOf(step) === 'verificationSubmit'
			? {
					resource: 'verification',
					operation: 'submit',
					transactionId: '={{ $json.transactionId }}',
					// The node's one check: every row of a Submit step is of the same check.
					verificationName: SUBMIT_SCOPES[step.rows[0][0]].check,
					data: '={{ $json.data }}',
				}
			: {
					resource: 'profile',
					operation: 'create',
					formId: '={{ $json.formId }}',
					name: '={{ $json.name }}',
					gender: '={{ $json.gender }}',
					additionalFields: { mobile: '={{ $json.mobile }}', dob: '={{ $json.dob }}' },
				};
	return {
		...operation,
		...(step.duplicateKey === 'none' ? {} : { duplicateKey: `={{ $json.${step.duplicateKey} }}` }),
		duplicateProtection: step.protection,
		idFoundAtService: '={{ $json.transactionId }}',
		...(step.actInAnyExecution ? { actInAnyExecution: true } : {}),
		duplicateProtectionOptions: {
			inDoubtWaitSeconds: 0,
			...(historySize === undefined ? {} : { historySize }),
		},
		requestOptions: { maxConcurrentRequests: step.concurrency, transientRetries: 0 },
	};
}

/** The service's name of a row: its form (the path) and the person whose mobile the request carries. */
function serviceRowKey(formId: string, body: unknown): string {
	const sent = JSON.stringify(body);
	const person = PEOPLE.findIndex((candidate) => sent.includes(candidate.mobile));
	if (formId !== SUBMIT_FORM) return `${formId}|p${person}`;
	// A submission: its transaction's check (the scope) and the person whose data it carries.
	const { transactionId, verificationName } = body as IDataObject;
	const scope = SUBMIT_SCOPES.findIndex(
		(candidate) =>
			candidate.transactionId === transactionId && candidate.check === verificationName,
	);
	return `${SUBMIT_FORM}-${scope}|p${person}`;
}

function rowOf(rowKey: string): Row {
	const [formId, person] = rowKey.split('|');
	const form = formId.startsWith(`${SUBMIT_FORM}-`)
		? Number(formId.slice(SUBMIT_FORM.length + 1))
		: FORMS.indexOf(formId as (typeof FORMS)[number]);
	return [form, Number(person.slice(1))];
}

/** A row's service name (serviceRowKey's), from the step's row. */
function rowKeyOf(step: Step, [form, person]: Row): string {
	return operationOf(step) === 'verificationSubmit'
		? `${SUBMIT_FORM}-${form}|p${person}`
		: `${FORMS[form]}|p${person}`;
}

/** A Submit row's item: its transaction, its check, and the person's data as Data (JSON). */
function submitItem([scope, person]: Row): IDataObject {
	const { name, gender, mobile, dob, employeeId, email } = PEOPLE[person];
	return {
		...SUBMIT_SCOPES[scope],
		data: JSON.stringify({ name, gender, mobile, dob }),
		employeeId,
		email,
	};
}

let nodes = 0;

const SETTLE_DEADLINE_MS = 30_000;

/**
 * n8n ends a stopped execution at once, while the node's requests in flight go on: a step ends once
 * the service has answered them all, so that none is counted in the next step.
 */
async function untilNoRequestInFlight(service: SimulatedService): Promise<void> {
	const deadline = Date.now() + SETTLE_DEADLINE_MS;
	while (service.inFlight > 0) {
		if (Date.now() > deadline)
			throw new Error(
				`a stopped execution's requests were still in flight after ${SETTLE_DEADLINE_MS} ms`,
			);
		await sleep(5);
	}
}

/**
 * Runs a history through the harness (n8n-core's WorkflowExecute, the harness's deduplication store
 * shared by its executions), checking every promise after every step. Each run is a node of its
 * own (a new node ID), so no memory of the process carries over from another run.
 */
export async function runHistory(history: History): Promise<HistoryOutcome> {
	const store = new DeduplicationStore();
	const service = new SimulatedService(serviceRowKey);
	const model = new ProtectionModel(history);
	const nodeId = `00000000-0000-4000-8000-${(++nodes).toString(16).padStart(12, '0')}`;
	const nodeRow = `wf-test|n:${nodeId}`;
	const staticData: IDataObject = {};
	const restore = service.install();
	try {
		for (const [index, step] of history.steps.entries()) {
			service.beginStep(index, new Prng(step.serviceSeed));
			const account = CREDENTIALS[step.credential].apiKey as string;
			// Record Rows as Sent is given the ID the service shows for the row, or one of a candidate
			// created outside n8n.
			// (Submit: the row's own transaction, the ID it is recorded with.)
			const personIds = step.rows.map((row, item) =>
				operationOf(step) === 'verificationSubmit'
					? SUBMIT_SCOPES[row[0]].transactionId
					: (service.transactionOf(account, rowKeyOf(step, row)) ?? `TXN-OUT-${index}-${item}`),
			);
			const itemsOf = (execution: Step) =>
				execution.rows.map(([form, person], item) =>
					operationOf(execution) === 'verifyPan'
						? { pan: PANS[person].pan }
						: operationOf(execution) === 'verificationSubmit'
							? submitItem([form, person])
							: {
									formId: FORMS[form],
									...PEOPLE[person],
									// The column a person fills in to record rows as sent.
									...(execution.protection === 'recordAsSent'
										? { transactionId: personIds[item] }
										: {}),
								},
				);
			const before = JSON.stringify(store.valuesOf(nodeRow));
			const executions = executionsOf(step);
			const executionIds = executions.map((_, which) => `${nodeId}-step-${index}-${which}`);
			const results = await Promise.all(
				executions.map(
					async (execution, which) =>
						await runActionNode({
							items: itemsOf(execution),
							parameters: parametersOf(execution, history.historySize),
							deduplicationStore: store,
							mode: execution.executionMode,
							continueOnFail: ON_ERROR[execution.onError],
							...(execution.tries > 1
								? { retryOnFail: { maxTries: execution.tries, waitBetweenTries: 1 } }
								: {}),
							executionId: executionIds[which],
							typeVersion: 2,
							nodeId,
							...(executions.length === 1
								? { onStarted: (stop: () => void) => (service.stopExecution = stop) }
								: {}),
							credentialId: `cred-${execution.credential}`,
							credentials: CREDENTIALS[execution.credential],
							// n8n saves the static data after production executions only.
							staticData:
								execution.executionMode !== 'manual'
									? staticData
									: (JSON.parse(JSON.stringify(staticData)) as IDataObject),
						}),
				),
			);
			service.stopExecution = undefined;
			await untilNoRequestInFlight(service);
			const withRow = <T extends { rowKey: string }>(entry: T) => ({
				...entry,
				row: rowOf(entry.rowKey),
			});
			// Each request is its execution's step's: a request that left before a stop may reach
			// the service after n8n ended the execution (the client aborted, the service still acts);
			// the model never counts it, so it can only make the model expect less.
			const ofThisStep = ({ executionId }: { executionId: string }) =>
				executionIds.includes(executionId);
			const requests = service.requests.filter(ofThisStep).map(withRow);
			const creations = service.creations.filter(ofThisStep).map(withRow);
			const verifiesPan = operationOf(step) === 'verifyPan';
			// Verify PAN's promises are billed calls' (billed.ts); the protected rows' do not apply.
			const protectedExecutions = verifiesPan ? [] : executions;
			const broken = protectedExecutions.flatMap((execution, which) =>
				brokenPromises({
					step: execution,
					otherRows: executions.filter((other) => other !== execution).flatMap(({ rows }) => rows),
					model,
					result: results[which],
					requests,
					creations,
					personIds,
					recordUnchanged: JSON.stringify(store.valuesOf(nodeRow)) === before,
				}),
			);
			if (verifiesPan)
				for (const [which, execution] of executions.entries())
					broken.push(
						...brokenBilledPromises({
							step: execution,
							result: results[which],
							calls: service.panCalls.filter(
								({ executionId }) => executionId === executionIds[which],
							),
							stoppedByPerson: service.stopped.has(executionIds[which]),
						}),
					);
			if (service.unexpected.length > 0) broken.push(`unexpected requests: ${service.unexpected}`);
			if (service.sentAfterStop.length > 0)
				broken.push(`a stopped execution sent after the stop: ${service.sentAfterStop}`);
			if (broken.length > 0) {
				const answers = verifiesPan
					? service.panCalls
							.filter(ofThisStep)
							.map(({ pan, outcome }) => `${describeRow([0, pan], 'verifyPan')} ${outcome}`)
					: requests.map(({ row, outcome }) => `${describeRow(row, operationOf(step))} ${outcome}`);
				broken.push(`(the service's answers in this step: ${answers.join(', ') || 'no request'})`);
				return { failedStep: index, broken: [...new Set(broken)] };
			}
			// Verify PAN records nothing: the model of the protected rows stays as it was.
			if (verifiesPan) continue;
			model.afterStep(
				step,
				requests.map(({ row, outcome }) => ({ row, refused: outcome === 'refuse' })),
				creations
					.filter((creation) => creation.delivered)
					.map(({ row, transactionId }) => ({ row, id: transactionId })),
				step.rows.map((row, item) => ({ row, id: personIds[item] })),
			);
		}
		return { broken: [] };
	} finally {
		restore();
	}
}
