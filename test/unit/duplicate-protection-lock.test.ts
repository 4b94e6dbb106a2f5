import { createHash } from 'node:crypto';
import type {
	DeduplicationHelperFunctions,
	ICheckProcessedContextData,
	IDataObject,
	IExecuteFunctions,
	INodeParameters,
} from 'n8n-workflow';
import nock from 'nock';
import { sleep } from 'n8n-workflow';

import {
	lockTiming,
	WorkflowLock,
} from '../../nodes/CandidateVerification/engine/duplicateProtection/lock';
import * as say from '../../nodes/CandidateVerification/engine/duplicateProtection/messages';
import * as transport from '../../nodes/shared/transport';
import { PROFILE_WHERE_TO_CHECK, profileWhenSafe } from '../harness/advice';
import { DeduplicationStore } from '../harness/deduplication-store';
import { CANDIDATE_PATH, FORM_ID, keyedCreateProfile } from '../harness/keyed-profile';
import { otherProcess } from '../harness/other-process';
import { outputJson, runActionNode } from '../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../harness/service-mock';
import { timingsForEachTest } from '../harness/timings';

/**
 * Duplicate protection's lock (a workflow-scope row of n8n's deduplication store, taken by the
 * INSERT its primary key guards) and the ways to resolve what it reports.
 */
const WORKFLOW_ROW = 'wf-test|';
const LOCK_HASH = createHash('md5')
	.update('n8n-nodes-candidate-verification:record-lock')
	.digest('base64');

const createProfile: INodeParameters = keyedCreateProfile;
let keys = 0;
/** Rows with keys no other test uses (IDs seen by this process are kept per key). */
const freshRows = (count: number) => {
	const run = ++keys;
	return Array.from({ length: count }, (_, index) => ({
		name: `Candidate ${index}`,
		key: `lock-test-${run}-${index}`,
		foundId: `TXN-found-${index}`,
	}));
};

/** n8n's helpers as a process gets them: the store bound to one workflow. */
function helpersOf(store: DeduplicationStore): DeduplicationHelperFunctions {
	const context: ICheckProcessedContextData = {
		workflow: { id: 'wf-lock', active: false },
		node: { id: 'node-1' } as ICheckProcessedContextData['node'],
	};
	return {
		checkProcessedAndRecord: async (items, scope, options) =>
			await store.checkProcessedAndRecord(items, scope, context, options),
		checkProcessedItemsAndRecord: async () => await Promise.reject(new Error('not used')),
		removeProcessed: async (items, scope) => await store.removeProcessed(items, scope, context),
		clearAllProcessedItems: async (scope) => await store.clearAllProcessedItems(scope, context),
		getProcessedDataCount: async (scope) => await store.getProcessedDataCount(scope, context),
	} as DeduplicationHelperFunctions;
}

const fakeContext = {
	getNode: () => ({ id: 'node-1', name: 'Candidate Verification' }),
	logger: { warn: () => undefined, info: () => undefined, debug: () => undefined },
} as unknown as IExecuteFunctions;

/** One run of the keyed Profile → Create on `store`. */
const runProfile = async (store: DeduplicationStore, items: IDataObject[]) =>
	await runActionNode({ items, parameters: createProfile, deduplicationStore: store });

enableMockedNetwork();

// Tests that shorten the lock's waits set them; the values in use come back after each test.
timingsForEachTest(lockTiming);

describe('The lock across processes', () => {
	/**
	 * Processes share n8n's database, not memory: each here has its own in-process queue (its own
	 * key) and meets the others only in the store. Each adds 1 to a counter with a read, a pause and
	 * a write, as n8n's store reads and writes the node's record.
	 */
	async function increments(
		processes: number,
		times: number,
		locked: boolean,
		store = new DeduplicationStore(),
	) {
		let counter = 0;
		const addOne = async () => {
			const read = counter;
			await sleep(2);
			counter = read + 1;
		};
		await Promise.all(
			Array.from({ length: processes }, async (_, process) => {
				const lock = new WorkflowLock(fakeContext, helpersOf(store), `process-${process}`);
				for (let time = 0; time < times; time++) {
					if (locked) await lock.around(addOne);
					else await addOne();
				}
			}),
		);
		return { counter, store };
	}

	it('10 processes, 5 read-modify-writes each, at once: none is lost, and the lock row is gone afterwards', async () => {
		const { counter, store } = await increments(10, 5, true);
		expect(counter).toBe(50);
		expect(store.rows.size).toBe(0);
	});

	it('the store failing once to count the lock row is tried again: the run goes on, and no lock row is left', async () => {
		const store = new DeduplicationStore();
		let counts = 0;
		store.failWhen = (scope, values) =>
			scope === 'workflow' && values === undefined && ++counts === 1;
		const lock = new WorkflowLock(fakeContext, helpersOf(store), 'process-0');
		await expect(lock.around(async () => 'held')).resolves.toBe('held');
		expect(counts).toBe(3); // the failed count, its second try, nothing else failing
		expect(store.rows.size).toBe(0);
	});

	it('a store that keeps failing to count after the lock was taken (the row held a value): the run fails with the store’s error, and the lock is given back, the row’s other value kept', async () => {
		const store = new DeduplicationStore();
		const other = createHash('md5').update('another node’s row').digest('base64');
		store.rows.set('wf-lock|', [other]);
		// The count before the take answers; every count after it fails.
		Object.assign(lockTiming, { releasePausesMs: [1, 2, 3, 5] });
		const helpers = helpersOf(store);
		const count = helpers.getProcessedDataCount;
		let counts = 0;
		helpers.getProcessedDataCount = async (scope, options) => {
			if (++counts > 1 && counts <= 1 + lockTiming.releasePausesMs.length + 1)
				throw new Error('SQLITE_BUSY: database is locked');
			return await count(scope, options);
		};
		const lock = new WorkflowLock(fakeContext, helpers, 'process-0');
		await expect(lock.around(async () => 'held')).rejects.toThrow('SQLITE_BUSY');
		// The count before, five after (each failing), and the give-back's own.
		expect(counts).toBe(1 + 5 + 1);
		expect(store.rows.get('wf-lock|')).toEqual([other]);
	});

	/**
	 * Found by the random histories (seeds 2612, 12789, 17968 under load): n8n writes a row whole, so
	 * a waiter's write that read the row while the lock was held can land after the lock's value was
	 * removed, and put it back with nobody holding it. Here the waiter's second write is held until
	 * the first process is done.
	 */
	it('a count that fails while another process waits never leaves the lock held: the waiter’s late write of the row puts nothing back, and both works run', async () => {
		Object.assign(lockTiming, { stuckMs: 400, releasePausesMs: [1, 2, 3, 5] });
		const store = new DeduplicationStore();
		const signal = () => {
			let fire = () => undefined as void;
			const fired = new Promise<void>((resolve) => (fire = resolve));
			// Never waits past 2 s (the scenario may take another order).
			return { fire, fired: Promise.race([fired, sleep(2000)]) };
		};
		const waiterRead = signal();
		const firstDone = signal();
		let holdNextWrite = false;
		store.betweenReadAndWrite = async () => {
			if (!holdNextWrite) return await sleep(1);
			holdNextWrite = false;
			waiterRead.fire();
			await firstDone.fired;
		};
		const first = helpersOf(store);
		let firstCounts = 0;
		first.getProcessedDataCount = async (scope) => {
			if (++firstCounts === 1) {
				await waiterRead.fired;
				throw new Error('SQLITE_BUSY: database is locked');
			}
			return await store.getProcessedDataCount(scope, {
				workflow: { id: 'wf-lock', active: false },
			} as ICheckProcessedContextData);
		};
		const waiter = helpersOf(store);
		const record = waiter.checkProcessedAndRecord;
		let waiterTries = 0;
		waiter.checkProcessedAndRecord = async (items, scope, options) => {
			if (++waiterTries === 2) holdNextWrite = true;
			return await record(items, scope, options);
		};
		const firstWork = new WorkflowLock(fakeContext, first, 'process-a')
			.around(async () => 'first')
			.finally(() => firstDone.fire());
		await sleep(5);
		const waiterWork = new WorkflowLock(fakeContext, waiter, 'process-b').around(
			async () => 'waiter',
		);
		expect(await Promise.allSettled([firstWork, waiterWork])).toEqual([
			{ status: 'fulfilled', value: 'first' },
			{ status: 'fulfilled', value: 'waiter' },
		]);
		expect(store.rows.size).toBe(0);
	});

	it('without the lock the same work loses writes (what n8n’s store does on its own)', async () => {
		const { counter } = await increments(10, 5, false);
		expect(counter).toBeLessThan(50);
	});
});

describe('What the lock reports, and how to resolve it', () => {
	it('another node’s history in the workflow-wide record: nothing is sent, the error names the conflict, the history is untouched', async () => {
		const store = new DeduplicationStore();
		store.rows.set(WORKFLOW_ROW, ['removeDuplicatesHash1', 'removeDuplicatesHash2']);
		const { requests } = mockService();

		const result = await runProfile(store, freshRows(2));

		expect(requests).toHaveLength(0);
		const conflict = say.lockFailed('conflict', lockTiming);
		expect(result.error?.message).toBe(conflict.message);
		expect(result.error?.description).toBe(conflict.description);
		expect(store.rows.get(WORKFLOW_ROW)).toEqual([
			'removeDuplicatesHash1',
			'removeDuplicatesHash2',
		]);
	});

	it('one value of another node in the workflow-wide record is not taken for the lock: it is kept and the run stops', async () => {
		const store = new DeduplicationStore();
		store.rows.set(WORKFLOW_ROW, ['removeDuplicatesHash1']);
		const { requests } = mockService();

		const result = await runProfile(store, freshRows(1));

		expect(requests).toHaveLength(0);
		expect(result.error?.message).toContain('another node keeps its history there');
		expect(store.rows.get(WORKFLOW_ROW)).toEqual(['removeDuplicatesHash1']);
	});

	it('a lock that never changes hands (left by a stopped process) is named stuck: nothing is sent, the error says how to check and release it; Release Stuck Lock releases it and the next run sends', async () => {
		const store = new DeduplicationStore();
		store.rows.set(WORKFLOW_ROW, [LOCK_HASH]);
		lockTiming.stuckMs = 300;
		const { scope, requests } = mockService();
		scope.post(CANDIDATE_PATH).reply(200, success({ transactionId: 'TXN-after-release' }));
		const rows = freshRows(1);

		const stuck = await runProfile(store, rows);
		expect(requests).toHaveLength(0);
		const stuckText = say.lockFailed('stuck', { ...lockTiming, stuckMs: 300 });
		expect(stuck.error?.message).toBe(stuckText.message);
		expect(stuck.error?.description).toBe(stuckText.description);
		// A waiter never deletes the lock (its mark is all it added).
		expect(store.rows.get(WORKFLOW_ROW)?.[0]).toBe(LOCK_HASH);

		const release = await runActionNode({
			items: rows,
			parameters: { ...createProfile, duplicateProtection: 'releaseLock' },
			deduplicationStore: store,
		});
		expect(release.error).toBeUndefined();
		expect(outputJson(release)).toEqual([rows[0]]);
		expect(store.rows.has(WORKFLOW_ROW)).toBe(false);

		const after = await runProfile(store, rows);
		expect(after.error).toBeUndefined();
		expect(outputJson(after)).toEqual([
			{ transactionId: 'TXN-after-release', formId: FORM_ID, name: 'Candidate 0' },
		]);
	});

	it('a lock that keeps changing hands is waited for past the stuck time; the timeout then says busy and never suggests Release Stuck Lock', async () => {
		const store = new DeduplicationStore();
		lockTiming.stuckMs = 150;
		lockTiming.busyMs = 600;
		const { requests } = mockService();
		// Other executions take the lock in turn: the row is deleted and created again every few ms.
		let holding = true;
		const others = (async () => {
			for (let hold = 0; holding; hold++) {
				store.rows.set(WORKFLOW_ROW, [LOCK_HASH, `other-holder-${hold}`]);
				await sleep(20);
				store.rows.delete(WORKFLOW_ROW);
				await sleep(0);
			}
		})();
		// A take that finds the row gone between two holds gets it: this run waits through the holds
		// only when they leave no gap, so the gaps are closed while this run waits.
		const take = store.checkProcessedAndRecord.bind(store);
		store.checkProcessedAndRecord = async (items, scope, contextData, options) => {
			if (scope === 'workflow' && !store.rows.has(WORKFLOW_ROW))
				store.rows.set(WORKFLOW_ROW, [LOCK_HASH]);
			return await take(items, scope, contextData, options);
		};

		const busy = await runProfile(store, freshRows(1));
		holding = false;
		await others;
		expect(requests).toHaveLength(0);
		const busyText = say.lockFailed('busy', { ...lockTiming, busyMs: 600 });
		expect(busy.error?.message).toBe(busyText.message);
		expect(busy.error?.description).toBe(busyText.description);
	});

	it('a release that fails is tried again: the lock is gone after the run', async () => {
		const store = new DeduplicationStore();
		lockTiming.releasePausesMs = [1, 1, 1, 1];
		let failures = 0;
		store.failClearWhen = (scope) => scope === 'workflow' && ++failures <= 3;
		const { scope } = mockService();
		scope.post(CANDIDATE_PATH).reply(200, success({ transactionId: 'TXN-released' }));

		const result = await runProfile(store, freshRows(1));
		expect(result.error).toBeUndefined();
		expect(outputJson(result)[0].transactionId).toBe('TXN-released');
		expect(failures).toBeGreaterThanOrEqual(4);
		expect(store.rows.has(WORKFLOW_ROW)).toBe(false);
	});

	it('a release that fails after the work failed is tried again too: the run reports the work’s failure, and the lock is gone', async () => {
		const store = new DeduplicationStore();
		lockTiming.releasePausesMs = [1, 1, 1, 1];
		let failures = 0;
		store.failClearWhen = (scope) => scope === 'workflow' && ++failures <= 2;
		store.failWhen = (scope, values) => scope === 'node' && values !== undefined;
		const { requests } = mockService();

		const result = await runProfile(store, freshRows(1));
		expect(requests).toHaveLength(0);
		expect(result.error?.description).toContain('SQLITE_BUSY: database is locked');
		expect(failures).toBe(3);
		expect(store.rows.has(WORKFLOW_ROW)).toBe(false);
	});

	it('Release Stuck Lock never clears another node’s history', async () => {
		const store = new DeduplicationStore();
		store.rows.set(WORKFLOW_ROW, ['removeDuplicatesHash1']);
		const result = await runActionNode({
			items: freshRows(1),
			parameters: { ...createProfile, duplicateProtection: 'releaseLock' },
			deduplicationStore: store,
		});
		expect(result.error?.message).toContain('another node keeps its history there');
		expect(store.rows.get(WORKFLOW_ROW)).toEqual(['removeDuplicatesHash1']);
	});
});

describe('Resolving rows and what a row’s answer means', () => {
	it('Record Rows as Sent: nothing is sent, each row is recorded with the ID found; later runs skip it and output that ID', async () => {
		const store = new DeduplicationStore();
		const { requests } = mockService();
		const rows = freshRows(2);

		const recorded = await runActionNode({
			items: rows,
			parameters: {
				...createProfile,
				duplicateProtection: 'recordAsSent',
				idFoundAtService: '={{ $json.foundId }}',
			},
			deduplicationStore: store,
		});
		expect(recorded.error).toBeUndefined();
		expect(outputJson(recorded)).toEqual([
			{ transactionId: 'TXN-found-0', recordedAsSent: true },
			{ transactionId: 'TXN-found-1', recordedAsSent: true },
		]);

		const later = await runProfile(store, rows);
		expect(requests).toHaveLength(0);
		expect(outputJson(later).map((json) => [json.transactionId, json.alreadySent])).toEqual([
			['TXN-found-0', true],
			['TXN-found-1', true],
		]);
	});

	it('Record Rows as Sent without an ID: nothing is recorded, the error names the field and the item', async () => {
		const store = new DeduplicationStore();
		const result = await runActionNode({
			items: [{ ...freshRows(1)[0], foundId: '' }],
			parameters: {
				...createProfile,
				duplicateProtection: 'recordAsSent',
				idFoundAtService: '={{ $json.foundId }}',
			},
			deduplicationStore: store,
		});
		expect(result.error?.message).toBe(
			'Invalid "ID Found at the Service" in item 0: it is required and is empty',
		);
		expect(store.storedValues()).toEqual([]);
	});

	it('a row accepted without an ID in the answer: a later run outputs alreadySent with no ID key and idKnown: false', async () => {
		const store = new DeduplicationStore();
		const { scope } = mockService();
		scope.post(CANDIDATE_PATH).reply(200, success({}));
		const rows = freshRows(1);
		await runActionNode({ items: rows, parameters: createProfile, deduplicationStore: store });

		const later = await runProfile(store, rows);
		const [json] = outputJson(later);
		expect(json).not.toHaveProperty('transactionId');
		expect(json).toMatchObject({ alreadySent: true, idKnown: false, formId: FORM_ID });
		expect(json.note).toContain('Do not write an empty transactionId back');
	});

	/** The service's answer to one row, then whether a later run sends it again or holds it in doubt. */
	async function afterAnswer(answer: { status?: number; body?: unknown; thrown?: object }) {
		const store = new DeduplicationStore();
		const { scope, requests } = mockService();
		const rows = freshRows(1);
		const send = transport.sendWithCredential;
		const spy = jest.spyOn(transport, 'sendWithCredential');
		spy.mockImplementationOnce(async function (this: unknown, ...args) {
			if (answer.thrown) throw Object.assign(new Error('request failed'), answer.thrown);
			return await send.apply(this as never, args);
		});
		if (!answer.thrown) scope.post(CANDIDATE_PATH).reply(answer.status!, answer.body as object);
		const first = await runActionNode({
			items: rows,
			parameters: createProfile,
			deduplicationStore: store,
			continueOnFail: true,
		});
		spy.mockRestore();
		scope.post(CANDIDATE_PATH).reply(200, success({ transactionId: 'TXN-second' }));
		const second = await runActionNode({
			items: rows,
			parameters: createProfile,
			deduplicationStore: store,
			continueOnFail: true,
		});
		const sentAgain = requests.length === (answer.thrown ? 1 : 2);
		const inDoubt = outputJson(second)[0].inDoubt === true;
		nock.cleanAll();
		return { firstInDoubt: outputJson(first)[0].inDoubt === true, sentAgain, inDoubt };
	}

	const refusals: Array<[string, Parameters<typeof afterAnswer>[0]]> = [
		['code -1 under HTTP 400', { status: 400, body: { code: -1, message: 'Invalid candidate' } }],
		['code -1 under HTTP 200', { status: 200, body: { code: -1, message: 'Invalid candidate' } }],
		['HTTP 429', { status: 429, body: { message: 'slow down' } }],
		['code -1 under HTTP 503', { status: 503, body: { code: -1, message: 'Try again later' } }],
		[
			'HTTP 401 with a web page',
			{ status: 401, body: '<html><h1>401 Authorization Required</h1></html>' },
		],
		['HTTP 403 with a web page', { status: 403, body: '<html><h1>403 Forbidden</h1></html>' }],
		['a refused connection', { thrown: { code: 'ECONNREFUSED' } }],
	];
	it.each(refusals)(
		'a clear refusal (%s) releases the row: the next run sends it',
		async (_what, answer) => {
			const outcome = await afterAnswer(answer);
			expect(outcome).toEqual({ firstInDoubt: false, sentAgain: true, inDoubt: false });
		},
	);

	const unclear: Array<[string, Parameters<typeof afterAnswer>[0]]> = [
		['code -1 under HTTP 500', { status: 500, body: { code: -1, message: 'Internal error' } }],
		['an HTML 500', { status: 500, body: '<html>Internal Server Error</html>' }],
		[
			'a bare 503 (a proxy may answer it after forwarding)',
			{ status: 503, body: 'Service Unavailable' },
		],
		['a 404 page that is not the service’s', { status: 404, body: '<html>Not Found</html>' }],
		['a 200 that is not the service’s envelope', { status: 200, body: { ok: true } }],
		[
			'a cancelled request (the execution was stopped)',
			{ thrown: { code: 'ERR_CANCELED', name: 'CanceledError' } },
		],
		['a reset', { thrown: { code: 'ECONNRESET' } }],
		['a timeout', { thrown: { code: 'ETIMEDOUT' } }],
	];
	it.each(unclear)(
		'no clear answer (%s) leaves the row in doubt: the next run does not send it',
		async (_what, answer) => {
			const outcome = await afterAnswer(answer);
			expect(outcome).toEqual({ firstInDoubt: true, sentAgain: false, inDoubt: true });
		},
	);

	it('History Size keeps at least the newest rows (two values per row, plus the rows claimed ahead); an older row is forgotten and sent again', async () => {
		const store = new DeduplicationStore();
		const { scope, requests } = mockService();
		scope
			.post(CANDIDATE_PATH)
			.times(6)
			.reply(200, (_uri, body) => success({ transactionId: `TXN-${(body as IDataObject).name}` }));
		const rows = freshRows(5);
		// 1 in flight: 2 rows claimed ahead at most, so (2 + 2) × 2 = 8 values are kept, and the mark of
		// the lookups of keys recorded before 0.5.0 (migration.ts). Node version 2: a version 1
		// node's lookups of 0.3.x rows may leave up to a run's claimed rows more.
		const bounded = {
			...createProfile,
			// Version 2 requires a Date of Birth.
			additionalFields: { dob: '17-05-1994' },
			duplicateProtectionOptions: { inDoubtWaitSeconds: 0, historySize: 2 },
			requestOptions: { maxConcurrentRequests: 1, transientRetries: 0 },
		};
		await runActionNode({
			items: rows,
			parameters: bounded,
			deduplicationStore: store,
			typeVersion: 2,
		});
		expect(store.valuesOf('wf-test|n:00000000-0000-4000-8000-000000000002')).toHaveLength(8 + 1);

		// The newest 2 rows are skipped; the oldest was forgotten and is sent again.
		const newest = await runActionNode({
			items: rows.slice(3),
			parameters: bounded,
			deduplicationStore: store,
			typeVersion: 2,
		});
		expect(newest.error).toBeUndefined();
		expect(outputJson(newest).map((json) => json.alreadySent)).toEqual([true, true]);
		const oldest = await runActionNode({
			items: rows.slice(0, 1),
			parameters: bounded,
			deduplicationStore: store,
			typeVersion: 2,
		});
		expect(oldest.error).toBeUndefined();
		expect(requests.map((request) => (request.body as IDataObject).name).slice(5)).toEqual([
			'Candidate 0',
		]);
	});
});

describe('Two processes, the same row at the same moment', () => {
	it('the later execution waits for the first one’s answer and outputs alreadySent (the ID stays in the sender’s process: idKnown: false); the wait leaves nothing behind', async () => {
		const store = new DeduplicationStore();
		const { scope, requests } = mockService();
		let answerNow: (() => void) | undefined;
		scope.post(CANDIDATE_PATH).reply((_uri, _body, answer) => {
			answerNow = () => answer(null, [200, success({ transactionId: 'TXN-first-process' })]);
		});
		const rows = freshRows(1);
		const parameters = { ...createProfile, duplicateProtectionOptions: { inDoubtWaitSeconds: 20 } };
		const first = runActionNode({ items: rows, parameters, deduplicationStore: store });
		while (!answerNow) await sleep(5);
		const second = otherProcess()({ items: rows, parameters, deduplicationStore: store });
		// The second execution has met the row (its claim and its check of the row's answer).
		while (store.callsByScope.node < 4) await sleep(5);
		answerNow();
		const [firstResult, secondResult] = await Promise.all([first, second]);

		expect(requests).toHaveLength(1);
		expect(outputJson(firstResult)).toEqual([
			{ transactionId: 'TXN-first-process', formId: FORM_ID, name: 'Candidate 0' },
		]);
		expect(outputJson(secondResult)).toEqual([
			{
				formId: FORM_ID,
				name: 'Candidate 0',
				alreadySent: true,
				sentAt: null,
				idKnown: false,
				note: expect.stringContaining('Do not write an empty transactionId back'),
			},
		]);
		// SENT and ACCEPTED of the row, a version 1 node's 0.3.x lookup (s: and l:) and its mark:
		// nothing of the wait is left.
		expect(store.valuesOf('wf-test|n:00000000-0000-4000-8000-000000000002')).toHaveLength(5);
		expect(store.rows.has(WORKFLOW_ROW)).toBe(false);
	});
});

describe('Ten rows, each sent by two processes at the same moment', () => {
	it('each row is sent once, and every later execution outputs alreadySent, never another row’s ID', async () => {
		const store = new DeduplicationStore();
		const { scope, requests } = mockService();
		const held: Array<() => void> = [];
		let released = false;
		scope
			.post(CANDIDATE_PATH)
			.times(10)
			.reply((_uri, body, answer) => {
				const name = (body as IDataObject).name as string;
				const answerNow = () => answer(null, [200, success({ transactionId: `TXN-${name}` })]);
				if (released) answerNow();
				else held.push(answerNow);
			});
		const otherRun = otherProcess();
		const rows = freshRows(10);
		const parameters = { ...createProfile, duplicateProtectionOptions: { inDoubtWaitSeconds: 20 } };
		const running = Promise.all(
			rows.flatMap((row) => [
				runActionNode({ items: [row], parameters, deduplicationStore: store }),
				otherRun({ items: [row], parameters, deduplicationStore: store }),
			]),
		);
		// The answers wait until both executions of every row have met it: per pair, the sender's claim
		// and the waiter's claim and check of the row's answer (4 calls on the node's record). Either
		// way the later execution of a pair runs in the other process, which never saw the row's ID.
		const deadline = Date.now() + 20_000;
		while (store.callsByScope.node < 4 * rows.length && Date.now() < deadline) await sleep(5);
		released = true;
		for (const answerNow of held.splice(0)) answerNow();
		const results = await running;

		expect(requests).toHaveLength(10);
		const pairs = rows.map((row, index) => {
			const [one, two] = [results[2 * index], results[2 * index + 1]].map(
				(result) => outputJson(result)[0],
			);
			const sent = [one, two].filter((json) => !json.alreadySent);
			const other = [one, two].find((json) => json.alreadySent);
			return (
				sent.length === 1 &&
				other?.idKnown === false &&
				!('transactionId' in other) &&
				sent[0].transactionId === `TXN-${row.name}`
			);
		});
		expect(pairs).toEqual(rows.map(() => true));
		// Nothing of the waits is left: SENT and ACCEPTED of each row and a version 1 node's three marks
		// (0.3.x rows; keys recorded by 0.3.x and by 0.4.x, whose lookups leave no value).
		expect(store.valuesOf('wf-test|n:00000000-0000-4000-8000-000000000002')).toHaveLength(
			2 * 10 + 3,
		);
	});
});

describe('A store that does not keep the lock: the run stops loudly, never two holders in silence', () => {
	/** Holds the first two calls that write `key` between their read and their write, together. */
	function pairUp(store: DeduplicationStore, ...keys: string[]) {
		const arrivals = new Map<string, number>();
		store.betweenReadAndWrite = async (key) => {
			const arrived = (arrivals.get(key) ?? 0) + 1;
			arrivals.set(key, arrived);
			if (!keys.includes(key) || arrived > 2) return await sleep(1);
			// Never more than a few seconds: a single caller goes on alone.
			const deadline = Date.now() + 5_000;
			while ((arrivals.get(key) ?? 0) < 2 && Date.now() < deadline) await sleep(1);
		};
	}

	it('an upsert (a second INSERT of the lock row succeeds): both executions hold the lock and send the row; the one whose claim was overwritten stops, names the row in doubt and says it may have been sent twice', async () => {
		const store = new DeduplicationStore();
		store.upsert = true;
		pairUp(store, WORKFLOW_ROW, 'wf-test|n:00000000-0000-4000-8000-000000000002');
		const { scope, requests } = mockService();
		scope
			.post(CANDIDATE_PATH)
			.times(2)
			.reply(200, success({ transactionId: 'TXN-twice' }));
		const rows = freshRows(1);

		const results = await Promise.all([
			runActionNode({ items: rows, parameters: createProfile, deduplicationStore: store }),
			otherProcess()({ items: rows, parameters: createProfile, deduplicationStore: store }),
		]);
		expect(requests).toHaveLength(2);
		const errors = results.map((result) => result.error).filter((error) => error !== undefined);
		expect(errors).toHaveLength(1);
		const lost = say.writeLost({
			items: [0],
			whereToCheck: PROFILE_WHERE_TO_CHECK,
			whenSafe: profileWhenSafe(0),
			notSent: [],
		});
		expect(errors[0]?.message).toBe(lost.message);
		expect(errors[0]?.description).toBe(lost.description);
		expect(errors[0]?.description).toContain('docs/store-contract.md');
	});

	it('a duplicate-key error that reaches the node wrapped (no code, another message): the second execution stops with the store’s error, sends nothing and never takes the lock', async () => {
		const store = new DeduplicationStore();
		store.wrappedDuplicateKey = true;
		pairUp(store, WORKFLOW_ROW);
		const { scope, requests } = mockService();
		scope.post(CANDIDATE_PATH).reply(200, success({ transactionId: 'TXN-once' }));
		const rows = freshRows(1);

		const results = await Promise.all([
			runActionNode({ items: rows, parameters: createProfile, deduplicationStore: store }),
			otherProcess()({ items: rows, parameters: createProfile, deduplicationStore: store }),
		]);
		expect(requests).toHaveLength(1);
		const errors = results.map((result) => result.error).filter((error) => error !== undefined);
		expect(errors).toHaveLength(1);
		expect(errors[0]?.description).toContain('Could not save processed data');
		expect(errors[0]?.description).toContain(
			'Nothing was sent to the Candidate Verification Service.',
		);
	});

	it('a clear that keeps the row (DELETE does nothing): the lock is never released, so the next use of it stops as stuck; nothing is sent twice', async () => {
		const store = new DeduplicationStore();
		store.clearKeepsRow = true;
		lockTiming.stuckMs = 200;
		const { scope, requests } = mockService();
		scope.post(CANDIDATE_PATH).reply(200, success({ transactionId: 'TXN-first' }));
		const rows = freshRows(1);

		const first = await runProfile(store, rows);
		const second = await runProfile(store, freshRows(1));
		expect(requests).toHaveLength(1);
		// The first run's own second use of the lock (recording the answer) already finds it stuck.
		expect(first.error?.message).toBe(say.STORE_STOPPED);
		expect(first.error?.description).toContain('is stuck: one execution has held it for 0.2 s');
		expect(first.error?.description).toContain('item 0: TXN-first');
		expect(second.error?.message).toBe(
			say.lockFailed('stuck', { ...lockTiming, stuckMs: 200 }).message,
		);
	});
});
