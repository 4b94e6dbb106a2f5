import type { IDataObject, INodeParameters, INodePropertyOptions } from 'n8n-workflow';
import nock from 'nock';

import { CandidateVerification } from '../../nodes/CandidateVerification/CandidateVerification.node';
import * as say from '../../nodes/CandidateVerification/engine/duplicateProtection/messages';
import { profileInDoubt } from '../harness/advice';
import { DeduplicationStore } from '../harness/deduplication-store';
import { CANDIDATE_PATH, FORM_ID, keyedCreateProfile } from '../harness/keyed-profile';
import { otherProcess } from '../harness/other-process';
import { outputJson, runActionNode } from '../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../harness/service-mock';

/**
 * Resolving rows by their state (Record Rows as Sent never sends, touches only rows in doubt or
 * never sent, refuses one ID on several rows and a mode that differs between items), and a store
 * that fails between a probe's two calls: the row stays in doubt, never "accepted".
 */
const NODE_ROW = 'wf-test|n:00000000-0000-4000-8000-000000000002';
const createProfile = keyedCreateProfile;
const recordAsSent: INodeParameters = {
	...createProfile,
	duplicateProtection: 'recordAsSent',
	idFoundAtService: '={{ $json.foundId }}',
};
let keys = 0;
/** Rows with keys no other test uses (IDs seen by this process are kept per key). */
const freshRows = (names: string[]) => {
	const run = ++keys;
	return names.map((name) => ({ name, key: `resolve-test-${run}-${name}` }));
};
/** One execution of the workflow whose record is `store`. */
const runOn = (
	store: DeduplicationStore,
	items: IDataObject[],
	parameters = createProfile,
	continueOnFail = false,
) => runActionNode({ items, parameters, deduplicationStore: store, continueOnFail });
const nameOf = (body: unknown) => String((body as IDataObject).name);

/**
 * Sends `rows` once (in `run`'s process): the service accepts each (TXN-<name>) except those in
 * `lost`, whose connection drops before the answer (the row is in doubt).
 */
async function sendOnce(
	store: DeduplicationStore,
	rows: IDataObject[],
	lost: string[],
	run: typeof runActionNode = runActionNode,
) {
	const { scope } = mockService();
	scope
		.post(CANDIDATE_PATH)
		.times(rows.length)
		.reply((_uri, body, answer) => {
			if (lost.includes(nameOf(body))) {
				answer(
					Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
					undefined as never,
				);
			} else answer(null, [200, success({ transactionId: `TXN-${nameOf(body)}` })]);
		});
	const result = await run({
		items: rows,
		parameters: createProfile,
		deduplicationStore: store,
		continueOnFail: true,
	});
	nock.cleanAll();
	expect(outputJson(result).map((json) => json.inDoubt === true)).toEqual(
		rows.map((row) => lost.includes(row.name as string)),
	);
}

enableMockedNetwork();

describe('Record Rows as Sent acts on each row by its state, and never sends', () => {
	it('in doubt → recorded with that row’s ID; never sent → recorded with its own ID; accepted before → unchanged, output with its kept ID', async () => {
		const store = new DeduplicationStore();
		const [accepted, inDoubt, neverSent] = freshRows(['Asha', 'Rahul', 'Priya']);
		await sendOnce(store, [accepted, inDoubt], ['Rahul']);
		const { requests } = mockService();

		const resolved = await runOn(
			store,
			[
				{ ...accepted, foundId: 'TXN-typed-over' },
				{ ...inDoubt, foundId: 'TXN-Rahul-found' },
				{ ...neverSent, foundId: 'TXN-Priya-outside' },
			],
			recordAsSent,
		);

		expect(resolved.error).toBeUndefined();
		expect(requests).toHaveLength(0);
		expect(outputJson(resolved)).toEqual([
			{
				transactionId: 'TXN-Asha',
				formId: FORM_ID,
				name: 'Asha',
				alreadySent: true,
				sentAt: expect.any(String),
				recordedAsSent: false,
			},
			{ transactionId: 'TXN-Rahul-found', recordedAsSent: true },
			{ transactionId: 'TXN-Priya-outside', recordedAsSent: true },
		]);

		const later = await runOn(store, [accepted, inDoubt, neverSent], createProfile);
		expect(later.error).toBeUndefined();
		expect(requests).toHaveLength(0);
		expect(outputJson(later).map((json) => [json.transactionId, json.alreadySent])).toEqual([
			['TXN-Asha', true],
			['TXN-Rahul-found', true],
			['TXN-Priya-outside', true],
		]);
	});

	it('one ID on several rows is refused, naming the items: nothing is recorded or sent', async () => {
		const store = new DeduplicationStore();
		const [inDoubt, neverSent, other] = freshRows(['Rahul', 'Priya', 'Meera']);
		await sendOnce(store, [inDoubt], ['Rahul']);
		const before = [...store.rows.get(NODE_ROW)!];
		const { requests } = mockService();

		const refused = await runOn(
			store,
			[
				{ ...other, foundId: 'TXN-own' },
				{ ...inDoubt, foundId: 'TXN-one-for-all' },
				{ ...neverSent, foundId: 'TXN-one-for-all' },
			],
			recordAsSent,
		);

		const oneId = say.oneIdForTwoRows('transactionId', [1, 2]);
		expect(refused.error?.message).toBe(oneId.message);
		expect(refused.error?.description).toBe(oneId.description);
		expect(requests).toHaveLength(0);
		expect(store.rows.get(NODE_ROW)).toEqual(before);
	});

	it('the same row twice in the input with the same ID is one row, not refused', async () => {
		const store = new DeduplicationStore();
		const [neverSent] = freshRows(['Priya']);
		const resolved = await runOn(
			store,
			[
				{ ...neverSent, foundId: 'TXN-Priya' },
				{ ...neverSent, foundId: 'TXN-Priya' },
			],
			recordAsSent,
		);
		expect(resolved.error).toBeUndefined();
		expect(outputJson(resolved)).toEqual([
			{ transactionId: 'TXN-Priya', recordedAsSent: true },
			{ transactionId: 'TXN-Priya', recordedAsSent: true },
		]);
	});

	it('a Duplicate Protection that differs between items is refused, naming the items: nothing is sent or recorded', async () => {
		const store = new DeduplicationStore();
		const { requests } = mockService();
		const rows = freshRows(['Asha', 'Rahul', 'Priya']).map((row, index) => ({
			...row,
			mode: index === 0 ? 'skipSent' : 'recordAsSent',
			foundId: `TXN-${index}`,
		}));

		const refused = await runActionNode({
			items: rows,
			parameters: { ...recordAsSent, duplicateProtection: '={{ $json.mode }}' },
			deduplicationStore: store,
		});

		const differ = say.modesDiffer('Skip Rows Sent Before', [1, 2]);
		expect(refused.error?.message).toBe(differ.message);
		expect(refused.error?.description).toBe(differ.description);
		expect(requests).toHaveLength(0);
		expect(store.storedValues()).toEqual([]);
	});

	it('the in-doubt error names the row and says to run only it, with its own ID, or to send it again only after the condition', async () => {
		const store = new DeduplicationStore();
		const [accepted, inDoubt] = freshRows(['Asha', 'Rahul']);
		await sendOnce(store, [accepted, inDoubt], ['Rahul']);

		const again = await runOn(store, [accepted, inDoubt], createProfile);

		const inDoubtText = profileInDoubt(1, { retries: 0 });
		expect(again.error?.message).toBe(inDoubtText.message);
		expect(String(again.error?.description).split('\n')[1]).toBe(
			inDoubtText.description.split('\n')[1],
		);
	});

	it('Send These Rows Again states when a row in doubt may be sent again, in the in-doubt advice’s words (the queue-mode worker included)', () => {
		const mode = new CandidateVerification().description.properties.find(
			(property) => property.name === 'duplicateProtection',
		);
		const sendAgain = (mode?.options as INodePropertyOptions[]).find(
			(option) => option.value === 'sendAgain',
		);
		// The advice gives the wait in seconds for the run's settings; the editor gives its formula.
		const advice = say.whenSafeToSendAgain(60_000, 2);
		expect(advice).toContain('240 s (Timeout × (Retries + 1) + 60 s)');
		expect(sendAgain?.description).toContain(
			`a row in doubt only ${advice.replace('240 s (Timeout × (Retries + 1) + 60 s)', 'Timeout × (Retries + 1) + 60 s')}.`,
		);
		expect(sendAgain?.description).toContain('the worker that ran it was restarted or is gone');
	});
});

describe('A store failure between a probe’s two calls leaves the row in doubt (fail closed)', () => {
	it('the clean-up of the claim’s probe fails: a later run still holds the row in doubt, never "accepted"', async () => {
		const store = new DeduplicationStore();
		const [row] = freshRows(['Rahul']);
		await sendOnce(store, [row], ['Rahul']);
		const { requests } = mockService();
		// The probe recorded `a:` for the row; its removal fails (the database went away, or n8n died).
		store.failRemoveWhen = (scope, values) =>
			scope === 'node' && values.some((value) => value.startsWith('a:'));
		const failed = await runOn(store, [row], createProfile);
		expect(failed.error?.message).toBe(say.STORE_STOPPED);
		store.failRemoveWhen = () => false;

		const later = await runOn(store, [row], createProfile, true);

		expect(requests).toHaveLength(0);
		expect(outputJson(later)[0]).toMatchObject({ inDoubt: true });
		expect(outputJson(later)[0]).not.toHaveProperty('alreadySent');
	});

	it('a store error while waiting for an answer elsewhere ends the wait with the row in doubt (the waiter never reads its own leftover)', async () => {
		const store = new DeduplicationStore();
		const [row] = freshRows(['Rahul']);
		// Sent by another process: this one waits for its answer.
		await sendOnce(store, [row], ['Rahul'], otherProcess());
		const { requests } = mockService();
		let probes = 0;
		// The claim's probe is cleaned up; the wait's first probe is not. (A probe's clean-up removes its
		// PROBING; the claim's lookup of the key before 0.5.0 removes none.)
		store.failRemoveWhen = (scope, values) =>
			scope === 'node' && values.some((value) => value.startsWith('p:')) && ++probes >= 2;
		let failedAt = -1;
		const failRemove = store.failRemoveWhen;
		store.failRemoveWhen = (scope, values) => {
			const fails = failRemove(scope, values);
			if (fails && failedAt < 0) failedAt = store.recorded.length;
			return fails;
		};

		const waited = await runOn(
			store,
			[row],
			{ ...createProfile, duplicateProtectionOptions: { inDoubtWaitSeconds: 10 } },
			true,
		);

		expect(failedAt).toBeGreaterThan(0);
		expect(requests).toHaveLength(0);
		expect(outputJson(waited)[0]).toMatchObject({ inDoubt: true });
		// No probe of the row after the failure: the wait ended there.
		const probedAfter = store.recorded
			.slice(failedAt)
			.filter((values) => values.some((value) => value.startsWith('a:')));
		expect(probedAfter).toEqual([]);

		store.failRemoveWhen = () => false;
		const later = await runOn(store, [row], createProfile, true);
		expect(outputJson(later)[0]).toMatchObject({ inDoubt: true });
	});
});
