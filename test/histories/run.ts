import { createHash } from 'node:crypto';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { TEST_CREDENTIALS } from '../harness/credentials-helper';
import { lockTiming } from '../../nodes/CandidateVerification/engine/duplicateProtection/lock';
import { DeduplicationStore } from '../harness/deduplication-store';
import type { NodeRunResult } from '../harness/run-node';
import { runActionNode } from '../harness/run-node';
import { otherProcessWithTransport, triesInTwoProcesses } from './other-process';
import { ProtectionModel } from './model';
import { Prng } from './prng';
import { brokenBilledPromises } from './billed';
import { brokenPromises } from './promises';
import { SimulatedService, SUBMIT_FORM } from './service';
import type { History, Row, Step } from './steps';
import {
	acts,
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

/** The seed of a step's answer delays, apart from its outcomes' (serviceSeed's). */
const answerDelaySeed = (serviceSeed: number) => (serviceSeed ^ 0x2545f491) >>> 0;

const ON_ERROR = { stop: false, continue: true, errorOutput: 'errorOutput' } as const;

/** What a history's run found: the first step that broke a promise, or none. */
export interface HistoryOutcome {
	failedStep?: number;
	broken: string[];
}

/**
 * The parameters of a step's Profile → Create node (version 2, or version 1: the same fields), its
 * Submit node or its Verify PAN node.
 */
function parametersOf(
	step: Step,
	historySize: number | undefined,
	withoutDateOfBirth = false,
	inDoubtWaitMs = 0,
): INodeParameters {
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
					additionalFields: {
						mobile: '={{ $json.mobile }}',
						...(withoutDateOfBirth ? {} : { dob: '={{ $json.dob }}' }),
					},
				};
	return {
		...operation,
		...(step.duplicateKey === 'none' ? {} : { duplicateKey: `={{ $json.${step.duplicateKey} }}` }),
		duplicateProtection: step.protection,
		idFoundAtService: '={{ $json.transactionId }}',
		...(step.actInAnyExecution ? { actInAnyExecution: true } : {}),
		duplicateProtectionOptions: {
			inDoubtWaitSeconds: inDoubtWaitMs / 1000,
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

let second: ReturnType<typeof otherProcessWithTransport> | undefined;

/**
 * The second n8n process, loaded once per jest worker (loading n8n-core again costs about a second);
 * each history's node is new to it, so nothing of another history is in its memory.
 */
function secondProcess() {
	second ??= otherProcessWithTransport();
	return second;
}

/** The execution IDs whose first try runs in the second process (tries across processes). */
const firstInSecondProcess = new Set<string>();

/** The node type whose Retry On Fail tries run in the two processes by turns, per node version. */
const twoProcessTypes = new Map<number, string>();

function twoProcessType(typeVersion: number): string {
	let name = twoProcessTypes.get(typeVersion);
	if (!name) {
		name = triesInTwoProcesses(secondProcess(), typeVersion, (executionId) =>
			firstInSecondProcess.has(executionId) ? 1 : 0,
		);
		twoProcessTypes.set(typeVersion, name);
	}
	return name;
}

/** The lock's value as n8n's store keeps it (an MD5), in the workflow's row (the lock tests' way). */
const LOCK_HASH = createHash('md5')
	.update('n8n-nodes-candidate-verification:record-lock')
	.digest('base64');
const WORKFLOW_ROW = 'wf-test|';

/** A worker gone inside a hold: the lock stays in the store, as its process left it. */
function leaveLock(store: DeduplicationStore): void {
	const values = store.rows.get(WORKFLOW_ROW) ?? [];
	if (!values.includes(LOCK_HASH)) store.rows.set(WORKFLOW_ROW, [...values, LOCK_HASH]);
}

const lockIsHeld = (store: DeduplicationStore) =>
	store.rows.get(WORKFLOW_ROW)?.includes(LOCK_HASH) === true;

const DEFAULT_STUCK_MS = lockTiming.stuckMs;
const DEFAULT_RELEASE_PAUSES_MS = lockTiming.releasePausesMs;
/** A failed release is tried again after these pauses (ms) in the histories: the same tries, no seconds. */
const HISTORY_RELEASE_PAUSES_MS = [1, 2, 3, 5];

/** The lock's pauses between a failed release's tries, in both processes. */
function setReleasePausesMs(pauses: number[]): void {
	lockTiming.releasePausesMs = pauses;
	secondProcess().lockTiming.releasePausesMs = pauses;
}

const STORE_METHODS = [
	'checkProcessedAndRecord',
	'removeProcessed',
	'clearAllProcessedItems',
	'getProcessedDataCount',
] as const;

/** The store call a step made fail: its method, scope and values (checkProcessedAndRecord, removeProcessed). */
interface StoreFailure {
	method: (typeof STORE_METHODS)[number];
	scope: 'node' | 'workflow';
	values: string[];
}

/**
 * Makes the store fail once per step: the call numbered `failAt()` (1-based, every call of the
 * step counted once, whatever its method) throws as a locked database. Returns what failed.
 */
function failOnce(
	store: DeduplicationStore,
	failAt: () => number | undefined,
): { calls: number; failed?: StoreFailure } {
	const state: { calls: number; failed?: StoreFailure } = { calls: 0 };
	for (const method of STORE_METHODS) {
		const original = (store[method] as (...args: unknown[]) => Promise<unknown>).bind(store);
		Object.assign(store, {
			[method]: async (...args: unknown[]) => {
				state.calls += 1;
				if (state.calls === failAt()) {
					const scope =
						args[method === 'checkProcessedAndRecord' || method === 'removeProcessed' ? 1 : 0];
					const values = Array.isArray(args[0]) ? args[0].map(String) : [];
					state.failed = { method, scope: scope === 'node' ? 'node' : 'workflow', values };
					throw new Error('SQLITE_BUSY: database is locked');
				}
				return await original(...args);
			},
		});
	}
	return state;
}

/**
 * Whether a store failure must reach the run as an error. The lock's release is tried again
 * (docs/duplicate-protection.md: "A release that fails is tried again"), and so is its count while
 * it waits: those may end in a silent success. So may the clean-up of the tripwire's own values
 * (`w:`, recorded with a claim and removed after the next call checked them): it records no row's
 * outcome, every row's is in the record already (a `w:` value left there is not a row).
 */
const mustBeNamed = ({ method, scope, values }: StoreFailure) =>
	!(method === 'removeProcessed' && values.every((value) => value.startsWith('w:'))) &&
	(scope === 'node' || method === 'checkProcessedAndRecord');

/** Whether an execution's result names a failure: the node's error, or an error item. */
const namesAFailure = (result: NodeRunResult) =>
	result.error !== undefined ||
	result.errorItems.length > 0 ||
	result.items.some((item) => (item.json as IDataObject).error !== undefined);

/** The lock's stuck time in both processes: the history's while a gone worker's lock is held. */
function setStuckMs(stuckMs: number): void {
	lockTiming.stuckMs = stuckMs;
	secondProcess().lockTiming.stuckMs = stuckMs;
}

/** Whether a step's run takes the lock (every mode but Off and Release Stuck Lock records or clears). */
const needsLock = (step: Step) => step.protection !== 'off' && step.protection !== 'releaseLock';

const acrossProcesses = (execution: Step) =>
	execution.tries > 1 && execution.triesAcrossProcesses === true;

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
 * The lock's release runs in the background after a claim (its result is handed back first), so it
 * may still be on its way when an execution ends: a step starts once no lock is held but a gone
 * worker's. Returns whether a lock is still held after the deadline (left behind: a finding).
 */
async function lockLeftBehind(store: DeduplicationStore): Promise<boolean> {
	const deadline = Date.now() + SETTLE_DEADLINE_MS;
	while (lockIsHeld(store)) {
		if (Date.now() > deadline) return true;
		await sleep(5);
	}
	return false;
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
	/** Whether a gone worker's lock is in the store (left by a step, not released since). */
	let goneWorkersLock = false;
	const restore = service.install([secondProcess().transport]);
	setReleasePausesMs(HISTORY_RELEASE_PAUSES_MS);
	let failAt: number | undefined;
	const storeCalls = failOnce(store, () => failAt);
	try {
		for (const [index, step] of history.steps.entries()) {
			service.beginStep(
				index,
				new Prng(step.serviceSeed),
				new Prng(answerDelaySeed(step.serviceSeed)),
			);
			const account = CREDENTIALS[step.credential].apiKey as string;
			// Record Rows as Sent is given the ID the service shows for the row, or one of a candidate
			// created outside n8n.
			// (Submit: the row's own transaction, the ID it is recorded with.)
			const personIds = step.rows.map((row, item) => {
				if (operationOf(step) === 'verificationSubmit') return SUBMIT_SCOPES[row[0]].transactionId;
				const known = service.transactionOf(account, rowKeyOf(step, row));
				if (known) return known;
				const outside = `TXN-OUT-${index}-${item}`;
				service.createdOutside.set(outside, FORMS[row[0]]);
				return outside;
			});
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
			// A gone worker's lock: runs that take it stop as stuck after the history's stuck time.
			// Any other lock is a release still on its way (waited for), or one left behind.
			if (!goneWorkersLock && (await lockLeftBehind(store)))
				return {
					failedStep: index - 1,
					broken: [`the lock was left held after step ${index} though no worker was gone`],
				};
			const lockWasHeld: boolean = goneWorkersLock && lockIsHeld(store);
			setStuckMs(lockWasHeld ? (history.lockStuckMs ?? 40) : DEFAULT_STUCK_MS);
			const before = JSON.stringify(store.valuesOf(nodeRow));
			storeCalls.calls = 0;
			storeCalls.failed = undefined;
			failAt = step.storeFailsAtCall;
			const executions = executionsOf(step);
			const executionIds = executions.map((_, which) => `${nodeId}-step-${index}-${which}`);
			executions.forEach((execution, which) => {
				if (acrossProcesses(execution) && execution.otherProcess)
					firstInSecondProcess.add(executionIds[which]);
			});
			const results = await Promise.all(
				executions.map(
					async (execution, which) =>
						// Tries across processes: n8n's run in the first process, the node's tries by turns.
						await (
							execution.otherProcess && !acrossProcesses(execution)
								? secondProcess().runActionNode
								: runActionNode
						)({
							...(acrossProcesses(execution)
								? { nodeType: twoProcessType(history.typeVersion ?? 2) }
								: {}),
							items: itemsOf(execution),
							parameters: parametersOf(
								execution,
								history.historySize,
								history.withoutDateOfBirth,
								history.inDoubtWaitMs,
							),
							deduplicationStore: store,
							mode: execution.executionMode,
							continueOnFail: ON_ERROR[execution.onError],
							...(execution.tries > 1
								? { retryOnFail: { maxTries: execution.tries, waitBetweenTries: 1 } }
								: {}),
							executionId: executionIds[which],
							typeVersion: history.typeVersion ?? 2,
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
			failAt = undefined;
			// Set by the store's calls during the step (TypeScript sees only the reset above).
			const storeFailed = storeCalls.failed as StoreFailure | undefined;
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
			// Promise 9: a lock held past the stuck time stops each run that needs it, sending nothing.
			if (lockWasHeld && needsLock(step)) {
				if (requests.length > 0)
					broken.push(
						`${step.protection} sent ${requests.length} request(s) while a gone worker held the lock (promise 9)`,
					);
				if (JSON.stringify(store.valuesOf(nodeRow)) !== before)
					broken.push(`${step.protection} changed the record while a gone worker held the lock`);
			}
			// Promise 4: Release Stuck Lock acts only where a person chose it.
			const released = !lockIsHeld(store);
			// A release whose store call failed leaves the lock, and the run names the failure.
			const releaseFailed = storeFailed !== undefined && !released;
			if (step.protection === 'releaseLock' && lockWasHeld && acts(step) && releaseFailed)
				if (!results.some(namesAFailure))
					broken.push('Release Stuck Lock left the lock held after a store failure, naming none');
			if (
				step.protection === 'releaseLock' &&
				lockWasHeld &&
				released !== acts(step) &&
				!releaseFailed
			)
				broken.push(
					released
						? `Release Stuck Lock in a ${step.executionMode} execution released the lock (promise 4)`
						: 'Release Stuck Lock in the editor (or with Act in Any Execution) left the lock held',
				);
			// A store failure at any step leaves a row in doubt, never "done", and the run says so,
			// under every On Error setting ("the rows accepted before are recorded, or named in the
			// error with their IDs": seed 326 found a Continue run that sent every row end silent).
			// (n8n's Retry On Fail runs another try after a try that failed: that try may succeed.)
			// A step that sent nothing has no outcome to record: a failure of its clean-up under the
			// lock (the tripwire's own value, seed 8024) leaves every row as the record had it.
			if (
				storeFailed &&
				mustBeNamed(storeFailed) &&
				requests.length > 0 &&
				!results.some(namesAFailure) &&
				executions.every((execution) => execution.tries === 1)
			)
				broken.push(
					`the store's ${storeFailed.method} (${storeFailed.scope}) failed and no execution named it (a silent success)`,
				);
			if (service.unexpected.length > 0) broken.push(`unexpected requests: ${service.unexpected}`);
			if (service.sentAfterStop.length > 0)
				broken.push(`a stopped execution sent after the stop: ${service.sentAfterStop}`);
			if (broken.length > 0) {
				// With two executions at once, each answer names its execution (A: the step's, B: the other).
				const by = ({ executionId }: { executionId: string }) =>
					executions.length > 1 ? ` (${'AB'[executionIds.indexOf(executionId)]})` : '';
				const answers = verifiesPan
					? service.panCalls
							.filter(ofThisStep)
							.map(
								(call) => `${describeRow([0, call.pan], 'verifyPan')} ${call.outcome}${by(call)}`,
							)
					: requests.map(
							(request) =>
								`${describeRow(request.row, operationOf(step))} ${request.outcome}${by(request)}`,
						);
				broken.push(`(the service's answers in this step: ${answers.join(', ') || 'no request'})`);
				return { failedStep: index, broken: [...new Set(broken)] };
			}
			if (step.workerGone) leaveLock(store);
			goneWorkersLock = lockIsHeld(store) && (step.workerGone === true || lockWasHeld);
			// Verify PAN records nothing: the model of the protected rows stays as it was. Under a
			// gone worker's lock a run that needs it changed nothing (checked above).
			if (verifiesPan || (lockWasHeld && needsLock(step))) continue;
			model.afterStep(
				step,
				requests.map(({ row, outcome }) => ({ row, refused: outcome === 'refuse' })),
				creations
					.filter((creation) => creation.delivered)
					.map(({ row, transactionId }) => ({ row, id: transactionId })),
				step.rows.map((row, item) => ({ row, id: personIds[item] })),
				storeFailed !== undefined,
			);
		}
		return { broken: [] };
	} finally {
		setStuckMs(DEFAULT_STUCK_MS);
		setReleasePausesMs(DEFAULT_RELEASE_PAUSES_MS);
		restore();
	}
}
