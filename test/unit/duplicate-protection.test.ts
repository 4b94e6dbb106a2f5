import nock from 'nock';
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { CandidateVerification } from '../../nodes/CandidateVerification/CandidateVerification.node';
import { lockTiming } from '../../nodes/CandidateVerification/engine/duplicateProtection/lock';
import * as say from '../../nodes/CandidateVerification/engine/duplicateProtection/messages';
import {
	howToSendTheRest,
	notSentAfterStop,
} from '../../nodes/CandidateVerification/engine/messages';
import {
	PROFILE_LOST_ANSWER_ADVICE,
	profileInDoubt,
	profileLostAnswerAdvice,
} from '../harness/advice';
import { failRequest } from '../harness/fail-request';
import { otherProcess } from '../harness/other-process';
import { TEST_BASE_URL, TEST_CREDENTIALS } from '../harness/credentials-helper';
import { DeduplicationStore } from '../harness/deduplication-store';
import { outputJson, runActionNode } from '../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../harness/service-mock';
import { timingsForEachTest } from '../harness/timings';

/** How the end-to-end scripts tell an item in doubt (test/e2e/in-doubt.js). */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain script of the e2e suite
const { isInDoubt } = require('../e2e/in-doubt') as { isInDoubt: (json: IDataObject) => boolean };

// A failed store call of the lock is tried again after 1 ms here (0.5 to 5 s in use; the tries:
// duplicate-protection-lock.test.ts).
timingsForEachTest(lockTiming, { releasePausesMs: [1, 1, 1, 1] });

/**
 * Duplicate protection across executions: rows a node sent in an earlier execution (of the same
 * workflow, recorded in n8n's deduplication store) are not sent again. Runs that share one
 * DeduplicationStore are executions of one workflow.
 */
const FORM_ID = 'form-1';
const V = '/verification/api/1.0';
const CANDIDATE_PATH = `${V}/ekyc-forms/${FORM_ID}/diy-candidate`;

const createProfile: INodeParameters = {
	resource: 'profile',
	operation: 'create',
	formId: FORM_ID,
	name: '={{ $json.name }}',
	gender: '={{ $json.gender }}',
	additionalFields: { mobile: '={{ $json.mobile }}' },
};
const oneAtATime = { requestOptions: { maxConcurrentRequests: 1, transientRetries: 0 } };

const rows = (count: number) =>
	Array.from({ length: count }, (_, index) => ({
		name: `Candidate ${index}`,
		gender: 'Female',
		mobile: `+9198765432${String(index).padStart(2, '0')}`,
	}));
const nameOf = (body: unknown) => String((body as { name: string }).name);
const numberOf = (body: unknown) => nameOf(body).split(' ')[1];
const sentNames = (requests: Array<{ body: unknown }>) =>
	requests.map((request) => nameOf(request.body));
/**
 * A node added on version 2: it holds no 0.3.x rows, so its claims carry no 0.3.x lookups (a version 1
 * node's do, removed at its settle: duplicate-protection-identity.test.ts).
 */
const NEW_NODE = { typeVersion: 2 };
/** Version 2 requires a Date of Birth on Profile → Create: the same one for every row here. */
const withDateOfBirth = (parameters: INodeParameters): INodeParameters => ({
	...parameters,
	additionalFields: { ...(parameters.additionalFields as IDataObject), dob: '17-05-1994' },
});
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** One execution of the workflow whose record is `store`, on `count` rows. */
const runRows = (
	count: number,
	parameters: INodeParameters,
	store: DeduplicationStore,
	extra: Partial<Parameters<typeof runActionNode>[0]> = {},
) =>
	runActionNode({
		items: rows(count),
		parameters: extra.typeVersion === 2 ? withDateOfBirth(parameters) : parameters,
		deduplicationStore: store,
		...extra,
	});

/** The service accepts every candidate, with a transaction ID per name; `reject` refuses some. */
function acceptingService(
	times: number,
	reject: (body: unknown) => string | undefined = () => undefined,
) {
	const { scope, requests } = mockService();
	scope
		.post(CANDIDATE_PATH)
		.times(times)
		.reply(200, (_uri, body) => {
			const refusal = reject(body);
			return refusal
				? { code: -1, message: refusal }
				: success({ transactionId: `TXN-${numberOf(body)}` });
		});
	return requests;
}

/**
 * Six rows, one request at a time: claims of 2 rows, then 1 as each answer frees the slot; the
 * third claim fails (the store), the settle works.
 */
async function thirdClaimFails(extra: Partial<Parameters<typeof runActionNode>[0]> = {}) {
	const store = new DeduplicationStore();
	const requests = acceptingService(6);
	const oneInFlight = { ...createProfile, requestOptions: { maxConcurrentRequests: 1 } };
	let claims = 0;
	store.failWhen = (scope, values) =>
		scope === 'node' && values?.some((value) => value.startsWith('s:')) === true && ++claims === 3;
	const result = await runRows(6, oneInFlight, store, extra);
	return { store, requests, result, oneInFlight };
}

/** The error of a run whose third claim failed (thirdClaimFails): three rows sent and recorded. */
const THIRD_CLAIM_FAILED = say.storeStopped({
	cause: 'SQLITE_BUSY: database is locked',
	sentAny: true,
	unrecorded: [],
	notSent: [3, 4, 5],
});

describe('Duplicate protection across executions', () => {
	enableMockedNetwork();

	it('the same rows run again in a new execution: nothing is sent, each output says alreadySent with the earlier transaction ID', async () => {
		const store = new DeduplicationStore();
		const requests = acceptingService(3);
		const first = await runRows(3, createProfile, store);
		expect(first.error).toBeUndefined();
		expect(sentNames(requests)).toEqual(['Candidate 0', 'Candidate 1', 'Candidate 2']);

		const again = await runRows(3, createProfile, store);

		expect(again.error).toBeUndefined();
		expect(requests).toHaveLength(3);
		expect(again.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		outputJson(again).forEach((json, index) => {
			expect(json).toEqual({
				transactionId: `TXN-${index}`,
				formId: FORM_ID,
				name: `Candidate ${index}`,
				alreadySent: true,
				sentAt: expect.stringMatching(ISO_TIME),
			});
		});
	});

	it('a failed execution run again (Retry from the Executions list): only the rejected and the unsent rows are sent, each candidate exists once', async () => {
		const store = new DeduplicationStore();
		let fixed = false;
		const requests = acceptingService(8, (body) =>
			numberOf(body) === '2' && !fixed ? '"mobile" is already registered' : undefined,
		);
		const first = await runRows(5, { ...createProfile, ...oneAtATime }, store);
		expect(first.error?.message).toContain('"mobile" is already registered');
		expect(sentNames(requests)).toEqual(['Candidate 0', 'Candidate 1', 'Candidate 2']);

		fixed = true;
		const retry = await runRows(5, { ...createProfile, ...oneAtATime }, store, {
			executionId: 'retry-of-first',
		});

		expect(retry.error).toBeUndefined();
		expect(sentNames(requests)).toEqual([
			'Candidate 0',
			'Candidate 1',
			'Candidate 2',
			'Candidate 2',
			'Candidate 3',
			'Candidate 4',
		]);
		const accepted = new Map<string, number>();
		for (const name of sentNames(requests.filter((_request, index) => index !== 2))) {
			accepted.set(name, (accepted.get(name) ?? 0) + 1);
		}
		expect([...accepted.values()]).toEqual([1, 1, 1, 1, 1]);
		expect(
			outputJson(retry).map((json) => [json.transactionId, json.alreadySent ?? false]),
		).toEqual([
			['TXN-0', true],
			['TXN-1', true],
			['TXN-2', false],
			['TXN-3', false],
			['TXN-4', false],
		]);
	});

	it('a row whose request got no answer is in doubt: the next execution sends nothing and names it (On Error = Stop)', async () => {
		const store = new DeduplicationStore();
		const { scope, requests } = mockService();
		scope
			.post(CANDIDATE_PATH)
			.times(2)
			.reply(200, (_uri, body) => success({ transactionId: `TXN-${numberOf(body)}` }));
		// The third request: the service took it, the connection dropped before the answer.
		const drop = failRequest(3, { code: 'ECONNRESET', message: 'socket hang up' });
		const first = await runRows(3, { ...createProfile, ...oneAtATime }, store);
		expect(first.error?.message).toBe(
			'Add a candidate to a form failed: the Candidate Verification Service closed the connection before answering',
		);
		// Retries on Transient Failures 0: 60 s × 1 + 60 s.
		expect(first.error?.description).toContain(profileLostAnswerAdvice(0));
		expect(first.error?.description).not.toContain('Retry On Fail');

		const again = await runRows(3, { ...createProfile, ...oneAtATime }, store);

		drop.mockRestore();
		expect(sentNames(requests)).toEqual(['Candidate 0', 'Candidate 1']);
		const inDoubt = profileInDoubt(2, { retries: 0 });
		expect(again.error?.message).toBe(inDoubt.message);
		expect(again.error?.description).toBe(inDoubt.description);
	});

	it('a row in doubt stops the run before the new rows of its chunk leave; the error says how to send them', async () => {
		const store = new DeduplicationStore();
		const { scope, requests } = mockService();
		const timeout = failRequest(1, { code: 'ETIMEDOUT', message: 'timeout of 60000ms exceeded' });
		await runRows(1, createProfile, store);
		timeout.mockRestore();
		scope
			.post(CANDIDATE_PATH)
			.times(2)
			.reply(200, success({ transactionId: 'TXN-new' }));

		const again = await runRows(3, createProfile, store);

		expect(requests).toHaveLength(0);
		expect(again.error?.message).toBe(profileInDoubt(0).message);
		const rest = howToSendTheRest({
			creates: true,
			billedPerCall: false,
			skipsRowsSent: true,
			answersLost: false,
			heldInDoubt: true,
			accepted: false,
			lostKeptForTries: true,
		});
		expect(String(again.error?.description).split('\n').at(-1)).toBe(
			notSentAfterStop([1, 2], rest),
		);
		nock.cleanAll();
	});

	it('with On Error = Continue, a row in doubt goes out as an error item and the new rows are sent', async () => {
		const store = new DeduplicationStore();
		const { scope, requests } = mockService();
		const timeout = failRequest(1, { code: 'ETIMEDOUT', message: 'timeout of 60000ms exceeded' });
		const first = await runActionNode({
			items: rows(1),
			parameters: createProfile,
			continueOnFail: true,
			deduplicationStore: store,
		});
		expect(outputJson(first)).toEqual([
			{
				error:
					'Add a candidate to a form failed: the Candidate Verification Service did not answer within 60 s',
				inDoubt: true,
				description: PROFILE_LOST_ANSWER_ADVICE,
			},
		]);

		scope
			.post(CANDIDATE_PATH)
			.reply(200, (_uri, body) => success({ transactionId: `TXN-${numberOf(body)}` }));
		const again = await runActionNode({
			items: rows(2),
			parameters: createProfile,
			continueOnFail: true,
			deduplicationStore: store,
		});

		timeout.mockRestore();
		expect(sentNames(requests)).toEqual(['Candidate 1']);
		expect(again.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		const [doubt, created] = outputJson(again);
		expect(doubt.error).toBe(profileInDoubt(0).message);
		expect(doubt.inDoubt).toBe(true);
		expect(created).toEqual({ transactionId: 'TXN-1', formId: FORM_ID, name: 'Candidate 1' });
	});

	it('with On Error = Continue (using error output), the answer lost and the row in doubt leave on the error output, their advice in the error; the row sent on the success output', async () => {
		const store = new DeduplicationStore();
		const { scope, requests } = mockService();
		const timeout = failRequest(1, { code: 'ETIMEDOUT', message: 'timeout of 60000ms exceeded' });
		const first = await runRows(1, createProfile, store, { continueOnFail: 'errorOutput' });
		scope
			.post(CANDIDATE_PATH)
			.reply(200, (_uri, body) => success({ transactionId: `TXN-${numberOf(body)}` }));
		const again = await runRows(2, createProfile, store, { continueOnFail: 'errorOutput' });
		timeout.mockRestore();

		// n8n routes an item to the error output only when its JSON is its error alone: the advice
		// follows the message there, and n8n adds the input row's fields.
		expect(first.items).toEqual([]);
		expect(first.errorItems.map(({ json }) => json)).toEqual([
			{
				...rows(1)[0],
				error: `Add a candidate to a form failed: the Candidate Verification Service did not answer within 60 s\n${PROFILE_LOST_ANSWER_ADVICE}`,
			},
		]);
		expect(sentNames(requests)).toEqual(['Candidate 1']);
		expect(outputJson(again)).toEqual([
			{ transactionId: 'TXN-1', formId: FORM_ID, name: 'Candidate 1' },
		]);
		const inDoubt = profileInDoubt(0, { stops: false });
		expect(again.errorItems.map(({ json }) => json)).toEqual([
			{
				...rows(1)[0],
				error: `${inDoubt.message}\n${inDoubt.description}`,
			},
		]);
		// The end-to-end scripts count both as in doubt from these texts, and the row sent as not.
		const errorJson = [...first.errorItems, ...again.errorItems].map(({ json }) => json);
		expect(errorJson.map(isInDoubt)).toEqual([true, true]);
		expect(outputJson(again).map(isInDoubt)).toEqual([false]);
	});

	it('a refusal releases the row (the service did not act): the next execution sends it', async () => {
		const store = new DeduplicationStore();
		let refuse = true;
		const requests = acceptingService(2, () => (refuse ? '"gender" is invalid' : undefined));
		const first = await runRows(1, createProfile, store);
		expect(first.error?.message).toContain('"gender" is invalid');

		refuse = false;
		const again = await runRows(1, createProfile, store);

		expect(again.error).toBeUndefined();
		expect(sentNames(requests)).toEqual(['Candidate 0', 'Candidate 0']);
		expect(outputJson(again)).toEqual([
			{ transactionId: 'TXN-0', formId: FORM_ID, name: 'Candidate 0' },
		]);
	});

	it('Duplicate Protection Off sends the rows again and records nothing', async () => {
		const store = new DeduplicationStore();
		const requests = acceptingService(4);
		const off = { ...createProfile, duplicateProtection: 'off' };
		await runRows(2, off, store);
		const again = await runRows(2, off, store);

		expect(again.error).toBeUndefined();
		expect(sentNames(requests)).toEqual([
			'Candidate 0',
			'Candidate 1',
			'Candidate 0',
			'Candidate 1',
		]);
		expect(store.calls).toBe(0);
	});

	it('Send These Rows Again forgets the earlier send of these rows only; Skip Rows Sent Before then skips them again', async () => {
		const store = new DeduplicationStore();
		const requests = acceptingService(4);
		await runRows(2, createProfile, store);

		const resend = await runRows(1, { ...createProfile, duplicateProtection: 'sendAgain' }, store);
		expect(outputJson(resend)).toEqual([
			{ transactionId: 'TXN-0', formId: FORM_ID, name: 'Candidate 0' },
		]);

		const skip = await runRows(2, createProfile, store);
		expect(sentNames(requests)).toEqual(['Candidate 0', 'Candidate 1', 'Candidate 0']);
		expect(outputJson(skip).map((json) => json.alreadySent)).toEqual([true, true]);
	});

	it('Forget All Rows Sent Before clears the record, sends nothing and passes the items through', async () => {
		const store = new DeduplicationStore();
		const requests = acceptingService(4);
		await runRows(2, createProfile, store);

		const forget = await runRows(2, { ...createProfile, duplicateProtection: 'forgetAll' }, store);
		expect(forget.error).toBeUndefined();
		expect(outputJson(forget)).toEqual(rows(2));
		expect(forget.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(store.storedValues()).toEqual([]);

		const again = await runRows(2, createProfile, store);
		expect(again.error).toBeUndefined();
		expect(sentNames(requests)).toEqual([
			'Candidate 0',
			'Candidate 1',
			'Candidate 0',
			'Candidate 1',
		]);
	});

	it('two people with identical fields in two executions are one row: the second outputs the first one’s ID, and the Duplicate Key’s hint says so', async () => {
		const store = new DeduplicationStore();
		const requests = acceptingService(1);
		await runRows(1, createProfile, store);
		const namesake = await runRows(1, createProfile, store);

		expect(sentNames(requests)).toEqual(['Candidate 0']);
		expect(outputJson(namesake)).toEqual([
			{
				transactionId: 'TXN-0',
				formId: FORM_ID,
				name: 'Candidate 0',
				alreadySent: true,
				sentAt: expect.stringMatching(ISO_TIME),
			},
		]);
		// The hint per operation: people are told apart where rows are people, within their scope.
		const hints = Object.fromEntries(
			new CandidateVerification().description.properties
				.filter(({ name }) => name === 'duplicateKey')
				.map(({ displayOptions, hint }) => [
					`${displayOptions?.show?.resource?.[0]}.${displayOptions?.show?.operation?.[0]}`,
					hint,
				]),
		);
		expect(hints).toEqual({
			'profile.create':
				'Counts within one form. Empty: identical rows are one row, also across executions. Map an ID column (e.g. employee ID) to tell people apart',
			'verification.submit':
				'Counts within one transaction’s check. Empty: identical rows are one row, also across executions. Map an ID column (e.g. employee ID) to tell submissions apart',
			'verification.resolveInsufficiency':
				'Counts within one check’s questions (its transaction, check and insufficiency IDs). Empty: identical rows are one row, also across executions. Map an ID column (e.g. employee ID) to tell answers apart',
			'form.create':
				'Empty: identical rows are one row, also across executions. Map an ID column to tell rows apart',
			'webhookConfig.create':
				'Empty: identical rows are one row, also across executions. Map an ID column to tell rows apart',
		});
	});

	it('a Duplicate Key: a corrected row with the same key counts as the row already sent', async () => {
		const store = new DeduplicationStore();
		const requests = acceptingService(2);
		const byEmployee = { ...createProfile, duplicateKey: '={{ $json.employeeId }}' };
		await runActionNode({
			items: [{ ...rows(1)[0], employeeId: 'E-100' }],
			parameters: byEmployee,
			deduplicationStore: store,
		});

		const corrected = await runActionNode({
			items: [
				{ ...rows(1)[0], name: 'Candidate 0 Corrected', employeeId: 'E-100' },
				{ ...rows(2)[1], employeeId: 'E-101' },
			],
			parameters: byEmployee,
			deduplicationStore: store,
		});

		expect(sentNames(requests)).toEqual(['Candidate 0', 'Candidate 1']);
		expect(outputJson(corrected)).toEqual([
			{
				transactionId: 'TXN-0',
				formId: FORM_ID,
				name: 'Candidate 0 Corrected',
				alreadySent: true,
				sentAt: expect.stringMatching(ISO_TIME),
			},
			{ transactionId: 'TXN-1', formId: FORM_ID, name: 'Candidate 1' },
		]);
	});

	it('the same row twice in one input, On Error → Stop: an error naming both items, nothing sent', async () => {
		const requests = acceptingService(1);
		const [first, second] = rows(2);
		const result = await runActionNode({
			items: [first, second, first],
			parameters: createProfile,
		});

		expect(requests).toHaveLength(0);
		const repeat = say.repeatedRow(2, 0, false);
		expect(result.error?.message).toBe(repeat.message);
		expect(result.error?.description).toBe(repeat.description);
		nock.cleanAll();
	});

	it('the same row twice in one input, On Error → Continue: the later item on the error output, the first sent', async () => {
		const requests = acceptingService(1);
		const [row] = rows(1);
		const result = await runActionNode({
			items: [row, { ...row }],
			parameters: { ...createProfile, duplicateKey: '={{ $json.mobile }}' },
			continueOnFail: true,
		});

		expect(sentNames(requests)).toEqual(['Candidate 0']);
		expect(outputJson(result)).toEqual([
			{ transactionId: 'TXN-0', formId: FORM_ID, name: 'Candidate 0' },
			{ error: say.repeatedRow(1, 0, true).message },
		]);
	});

	it('two executions at the same moment with the same rows: each row is sent once, the later execution waits for the answer and outputs the ID', async () => {
		const store = new DeduplicationStore();
		const { scope, requests } = mockService();
		// The service answers once the later execution has met the rows (its claim and its check of
		// what was accepted: 3 calls on the node's record), or after 10 s.
		scope
			.post(CANDIDATE_PATH)
			.times(3)
			.reply((_uri, body, answer) => {
				const deadline = Date.now() + 10_000;
				const wait = () => {
					if (store.callsByScope.node >= 3 || Date.now() > deadline) {
						answer(null, [200, success({ transactionId: `TXN-${numberOf(body)}` })]);
					} else void sleep(10).then(wait);
				};
				wait();
			});
		const [one, two] = await Promise.all([
			runRows(3, createProfile, store, { continueOnFail: true }),
			runRows(3, createProfile, store, { continueOnFail: true }),
		]);

		expect(sentNames(requests).sort()).toEqual(['Candidate 0', 'Candidate 1', 'Candidate 2']);
		const later = [one, two].find((run) => outputJson(run).some((json) => json.alreadySent))!;
		expect(outputJson(later)).toEqual(
			[0, 1, 2].map((index) => ({
				transactionId: `TXN-${index}`,
				formId: FORM_ID,
				name: `Candidate ${index}`,
				alreadySent: true,
				sentAt: expect.stringMatching(ISO_TIME),
			})),
		);
	});

	it('a row another execution sent is named in doubt only after the wait (Wait for an Answer Elsewhere)', async () => {
		const store = new DeduplicationStore();
		const { scope, requests } = mockService();
		let answerNow: (() => void) | undefined;
		scope.post(CANDIDATE_PATH).reply((_uri, body, answer) => {
			answerNow = () => answer(null, [200, success({ transactionId: 'TXN-slow' })]);
		});
		const unique = { ...createProfile, duplicateKey: `wait-${Date.now()}` };
		const first = runRows(1, unique, store);
		// The first execution's request is at the service, its answer held back.
		while (!answerNow) await sleep(5);
		const started = Date.now();
		const second = await runRows(
			1,
			{ ...unique, duplicateProtectionOptions: { inDoubtWaitSeconds: 1 } },
			store,
			{ continueOnFail: true },
		);
		const waited = Date.now() - started;
		answerNow();
		await first;

		expect(requests).toHaveLength(1);
		expect(waited).toBeGreaterThanOrEqual(1000);
		expect(outputJson(second)).toEqual([
			{
				error: profileInDoubt(0).message,
				inDoubt: true,
				description: profileInDoubt(0, { waitedSeconds: 1, stops: false }).description,
			},
		]);
	});

	it('reading the kept IDs adds nothing to the static data: rows sent by another process, whose IDs it never kept here, come back alreadySent and the static data keeps no section of this node', async () => {
		const store = new DeduplicationStore();
		acceptingService(2);
		await runRows(2, createProfile, store, NEW_NODE);
		const staticData: IDataObject = {};

		const again = await otherProcess()({
			items: rows(2),
			parameters: withDateOfBirth(createProfile),
			deduplicationStore: store,
			staticData,
			...NEW_NODE,
		});
		expect(outputJson(again).map((json) => [json.alreadySent, json.idKnown])).toEqual([
			[true, false],
			[true, false],
		]);
		expect(staticData.global).toEqual({});
	});

	it('keeps no personal data: n8n stores hashes, the static data hashes, times and transaction IDs', async () => {
		const store = new DeduplicationStore();
		const staticData: IDataObject = {};
		acceptingService(2);
		await runActionNode({
			items: rows(2),
			parameters: createProfile,
			deduplicationStore: store,
			staticData,
		});

		// Kept per node ID in the workflow's static data (a renamed node keeps them).
		const kept = (staticData.global as IDataObject).candidateVerificationSentRows as IDataObject;
		expect(Object.keys(kept)).toEqual(['00000000-0000-4000-8000-000000000002']);
		const saved = Object.values(kept)[0] as IDataObject;
		const everything = JSON.stringify([store.storedValues(), staticData]);
		for (const personal of ['Candidate', '+91987654', FORM_ID, 'Female']) {
			expect(everything).not.toContain(personal);
		}
		// SENT and ACCEPTED per row, a version 1 node's 0.3.x lookup per row (the 0.3.x SENT it did not
		// find, and l:) and its mark (older than it, no 0.3.x row); the lock's row is gone once released.
		expect(store.storedValues()).toHaveLength(9);
		expect(Object.keys(saved)).toEqual([
			expect.stringMatching(/^[0-9a-f]{64}$/),
			expect.stringMatching(/^[0-9a-f]{64}$/),
		]);
		expect(Object.values(saved)).toEqual([
			[expect.stringMatching(ISO_TIME), 'TXN-0'],
			[expect.stringMatching(ISO_TIME), 'TXN-1'],
		]);
	});

	it('a run of 200 new rows makes 3 round trips to the node’s record (the claim; the answers recorded, then the tripwire’s value removed), in 2 holds of the lock (3 calls on the workflow’s row each: a count and a take together, the release)', async () => {
		const store = new DeduplicationStore();
		acceptingService(200);
		const result = await runRows(200, createProfile, store, NEW_NODE);

		expect(result.error).toBeUndefined();
		expect(store.callsByScope).toEqual({ node: 3, workflow: 6 });
		expect(store.rows.has('wf-test|')).toBe(false);

		acceptingService(200);
		const next = await runActionNode({
			items: rows(200).map((row) => ({ ...row, gender: 'Male' })),
			parameters: withDateOfBirth(createProfile),
			deduplicationStore: store,
			...NEW_NODE,
		});
		expect(next.error).toBeUndefined();
		expect(store.callsByScope).toEqual({ node: 6, workflow: 12 });
	});

	it('rows are recorded just before they leave, batch by batch: after a crash mid-run only the batch on its way is in doubt', async () => {
		const store = new DeduplicationStore();
		const { scope, requests } = mockService();
		let atCrash: DeduplicationStore | undefined;
		scope
			.post(CANDIDATE_PATH)
			.times(6)
			.reply(200, (_uri, body) => {
				// The worker dies while the third row's request is out: the database as it is then.
				if (numberOf(body) === '2') atCrash = store.copy();
				return success({ transactionId: `TXN-${numberOf(body)}` });
			});
		const batchesOfTwo = {
			...createProfile,
			requestOptions: { batching: { batch: { batchSize: 2, batchInterval: 1 } } },
		};
		await runRows(6, batchesOfTwo, store, NEW_NODE);
		// Rows 0-1 recorded as sent and accepted, rows 2-3 as sent; rows 4-5 not yet.
		expect(atCrash!.storedValues()).toHaveLength(6);

		scope
			.post(CANDIDATE_PATH)
			.times(2)
			.reply(200, (_uri, body) => success({ transactionId: `TXN-${numberOf(body)}-again` }));
		const rerun = await runRows(
			6,
			{ ...batchesOfTwo, duplicateProtectionOptions: { inDoubtWaitSeconds: 0 } },
			atCrash!,
			{ continueOnFail: true, ...NEW_NODE },
		);

		expect(sentNames(requests.slice(6))).toEqual(['Candidate 4', 'Candidate 5']);
		expect(
			outputJson(rerun).map((json) =>
				json.inDoubt ? 'in doubt' : json.alreadySent ? 'already sent' : json.transactionId,
			),
		).toEqual([
			'already sent',
			'already sent',
			'in doubt',
			'in doubt',
			'TXN-4-again',
			'TXN-5-again',
		]);
	});

	it('unbatched, rows are claimed as answers free the slots: never more than Max Concurrent Requests + a reserve claimed and unanswered', async () => {
		const store = new DeduplicationStore();
		const { scope } = mockService();
		let answered = 0;
		const claimedUnanswered: number[] = [];
		const claimedSoFar = () =>
			store.recorded.flat().filter((value) => value.startsWith('s:')).length;
		scope
			.post(CANDIDATE_PATH)
			.times(40)
			.reply((_uri, body, answer) => {
				claimedUnanswered.push(claimedSoFar() - answered);
				void sleep(5).then(() => {
					answered += 1;
					answer(null, [200, success({ transactionId: `TXN-${numberOf(body)}` })]);
				});
			});
		// 4 in flight: a reserve of 1 (an eighth of 4, rounded up), so at most 5 claimed ahead of answers.
		const result = await runRows(
			40,
			{ ...createProfile, requestOptions: { maxConcurrentRequests: 4 } },
			store,
			NEW_NODE,
		);

		expect(result.error).toBeUndefined();
		expect(outputJson(result)).toHaveLength(40);
		expect(Math.max(...claimedUnanswered)).toBeLessThanOrEqual(5);
		expect(claimedSoFar()).toBe(40);
		expect(store.storedValues()).toHaveLength(80);
	});

	it('1000 rows at the defaults: a claim waits for the slots worth it (never a few rows while requests are in flight), at least half of Max Concurrent Requests', async () => {
		const store = new DeduplicationStore();
		acceptingService(1000);
		const result = await runRows(1000, createProfile, store, NEW_NODE);

		expect(result.error).toBeUndefined();
		expect(outputJson(result).map((json) => json.transactionId)).toEqual(
			Array.from({ length: 1000 }, (_, index) => `TXN-${index}`),
		);
		const claims = store.recorded
			.map((values) => values.filter((value) => value.startsWith('s:')).length)
			.filter((rows) => rows > 0);
		expect(claims[0]).toBe(225);
		expect(claims.reduce((sum, rows) => sum + rows, 0)).toBe(1000);
		// Every claim rewrites the node's whole record; a claim of fewer than 200 / 2 rows never pays off
		// (ClaimPace). The last claim takes the rows left.
		for (const rows of claims.slice(1, -1)) expect(rows).toBeGreaterThanOrEqual(100);
	});

	it('a worker killed with 200 requests out and none answered (300 rows, the defaults): 225 rows are in doubt, the other 75 are sent by the next run', async () => {
		const store = new DeduplicationStore();
		const { scope, requests } = mockService();
		let atCrash: DeduplicationStore | undefined;
		const held: Array<() => void> = [];
		scope
			.post(CANDIDATE_PATH)
			.times(300)
			.reply((_uri, body, answer) => {
				const reply = () =>
					answer(null, [200, success({ transactionId: `TXN-${numberOf(body)}` })]);
				if (atCrash) return reply();
				held.push(reply);
				if (held.length === 200) atCrash = store.copy();
			});
		const crashed = runRows(300, createProfile, store);
		while (!atCrash) await sleep(10);
		// The process is gone: what it had sent stays unanswered in the copy of the database.
		held.forEach((release) => release());
		await crashed;

		scope
			.post(CANDIDATE_PATH)
			.times(75)
			.reply(200, (_uri, body) => success({ transactionId: `TXN-${numberOf(body)}-again` }));
		const rerun = await runRows(
			300,
			{ ...createProfile, duplicateProtectionOptions: { inDoubtWaitSeconds: 0 } },
			atCrash,
			{ continueOnFail: true },
		);

		const outcomes = outputJson(rerun).map((json) =>
			json.inDoubt ? 'in doubt' : String(json.transactionId),
		);
		expect(outcomes.filter((outcome) => outcome === 'in doubt')).toHaveLength(225);
		expect(outcomes.slice(225)).toEqual(
			Array.from({ length: 75 }, (_, index) => `TXN-${225 + index}-again`),
		);
		expect(sentNames(requests.slice(300))).toEqual(
			Array.from({ length: 75 }, (_, index) => `Candidate ${225 + index}`),
		);
	});

	it('the store cannot be read: nothing is sent and the error says how to go on', async () => {
		const store = new DeduplicationStore();
		store.failing = true;
		const requests = acceptingService(1);
		const result = await runRows(1, createProfile, store);

		expect(requests).toHaveLength(0);
		const stopped = say.storeStopped({
			cause: 'SQLITE_BUSY: database is locked',
			sentAny: false,
			unrecorded: [],
			notSent: [0],
		});
		expect(result.error?.message).toBe(stopped.message);
		expect(result.error?.description).toBe(stopped.description);
	});

	it('the store fails at a later claim: the rows accepted before are recorded (the error says so), the rest are not sent; a later run sends only those', async () => {
		const { store, requests, result, oneInFlight } = await thirdClaimFails();

		expect(sentNames(requests)).toEqual(['Candidate 0', 'Candidate 1', 'Candidate 2']);
		expect(result.error?.message).toBe(THIRD_CLAIM_FAILED.message);
		expect(result.error?.description).toBe(THIRD_CLAIM_FAILED.description);

		store.failWhen = () => false;
		const again = await runRows(6, oneInFlight, store);
		expect(sentNames(requests.slice(3))).toEqual(['Candidate 3', 'Candidate 4', 'Candidate 5']);
		expect(outputJson(again).map((json) => json.alreadySent ?? false)).toEqual([
			true,
			true,
			true,
			false,
			false,
			false,
		]);
	});

	it('the store fails at a later claim with On Error → Continue: the items not sent go to the error output with the error and its advice', async () => {
		const { requests, result } = await thirdClaimFails({ continueOnFail: true });

		expect(sentNames(requests)).toEqual(['Candidate 0', 'Candidate 1', 'Candidate 2']);
		expect(result.error).toBeUndefined();
		expect(outputJson(result).map((json) => json.transactionId)).toEqual([
			'TXN-0',
			'TXN-1',
			'TXN-2',
			undefined,
			undefined,
			undefined,
		]);
		const notSent = {
			error: THIRD_CLAIM_FAILED.message,
			description: THIRD_CLAIM_FAILED.description,
		};
		expect(outputJson(result).slice(3)).toEqual([notSent, notSent, notSent]);
	});

	it('the same with On Error → Continue (using error output): the items not sent leave on the error output, the rows sent on the success output', async () => {
		const { result } = await thirdClaimFails({ continueOnFail: 'errorOutput' });

		expect(outputJson(result).map((json) => json.transactionId)).toEqual([
			'TXN-0',
			'TXN-1',
			'TXN-2',
		]);
		expect(result.errorItems.map(({ json }) => json)).toEqual(
			rows(6)
				.slice(3)
				.map((row) => ({
					...row,
					error: `${THIRD_CLAIM_FAILED.message}\n${THIRD_CLAIM_FAILED.description}`,
				})),
		);
	});

	it('the store fails at a later claim and when recording the outcome: the error names the accepted rows with their IDs and how to record them', async () => {
		const store = new DeduplicationStore();
		const requests = acceptingService(6);
		const oneInFlight = { ...createProfile, requestOptions: { maxConcurrentRequests: 1 } };
		// From the third claim on, every call on the node's record fails (the settle too).
		let claims = 0;
		store.failWhen = (scope, values) => {
			if (scope === 'node' && values?.some((value) => value.startsWith('s:'))) claims += 1;
			return scope === 'node' && claims >= 3;
		};
		const result = await runRows(6, oneInFlight, store);

		expect(sentNames(requests)).toHaveLength(3);
		// Row 0's acceptance went with the second claim; rows 1 and 2 were to go with the third.
		expect(result.error?.description).toBe(
			say.storeStopped({
				cause: 'SQLITE_BUSY: database is locked',
				sentAny: true,
				unrecorded: [
					{ itemIndex: 1, id: 'TXN-1' },
					{ itemIndex: 2, id: 'TXN-2' },
				],
				notSent: [3, 4, 5],
			}).description,
		);

		// A later run holds the unrecorded rows in doubt and sends the rest (On Error → Continue).
		store.failWhen = () => false;
		const again = await runRows(
			6,
			{ ...oneInFlight, duplicateProtectionOptions: { inDoubtWaitSeconds: 0 } },
			store,
			{ continueOnFail: true },
		);
		expect(sentNames(requests.slice(3))).toEqual(['Candidate 3', 'Candidate 4', 'Candidate 5']);
		expect(
			outputJson(again).map((json) =>
				json.inDoubt ? 'in doubt' : json.alreadySent ? 'already sent' : json.transactionId,
			),
		).toEqual(['already sent', 'in doubt', 'in doubt', 'TXN-3', 'TXN-4', 'TXN-5']);
	});

	/** The store's error when items 0 and 1 were accepted (TXN-0, TXN-1) and their record failed. */
	const firstTwoUnrecorded = (notSent: number[]) =>
		say.storeStopped({
			cause: 'SQLITE_BUSY: database is locked',
			sentAny: true,
			unrecorded: [
				{ itemIndex: 0, id: 'TXN-0' },
				{ itemIndex: 1, id: 'TXN-1' },
			],
			notSent,
		});

	it('the store fails when recording the outcome after every row was sent, under On Error → Continue: each accepted row carries the error, with its ID and how to record it (the run never ends as a success)', async () => {
		const store = new DeduplicationStore();
		const requests = acceptingService(2);
		store.failWhen = (scope, values) =>
			scope === 'node' && values?.some((value) => value.startsWith('a:')) === true;
		const result = await runRows(2, createProfile, store, { continueOnFail: true });

		expect(sentNames(requests)).toEqual(['Candidate 0', 'Candidate 1']);
		const stopped = firstTwoUnrecorded([]);
		expect(result.error).toBeUndefined();
		expect(outputJson(result)).toEqual(
			['TXN-0', 'TXN-1'].map((transactionId) => ({
				error: stopped.message,
				transactionId,
				description: stopped.description,
			})),
		);
	});

	it('the lock’s release after a claim fails on every try: that claim’s rows are sent (they are recorded), nothing more; the error names the accepted rows with their IDs, and the lock stays for Release Stuck Lock', async () => {
		const store = new DeduplicationStore();
		const requests = acceptingService(6);
		const oneInFlight = { ...createProfile, requestOptions: { maxConcurrentRequests: 1 } };
		// The first claim's lock is released while its rows are sent: its 5 tries fail.
		let releases = 0;
		store.failClearWhen = (scope) => scope === 'workflow' && ++releases <= 5;
		const result = await runRows(6, oneInFlight, store);

		expect(sentNames(requests)).toEqual(['Candidate 0', 'Candidate 1']);
		const stopped = firstTwoUnrecorded([2, 3, 4, 5]);
		expect(result.error?.message).toBe(stopped.message);
		expect(result.error?.description).toBe(stopped.description);
		expect(store.rows.has('wf-test|')).toBe(true);
	});

	it('another environment (staging, then production) is not the same row', async () => {
		const store = new DeduplicationStore();
		const requests = acceptingService(2);
		await runRows(1, createProfile, store);
		const production = await runActionNode({
			items: rows(1),
			parameters: createProfile,
			deduplicationStore: store,
			credentials: {
				...TEST_CREDENTIALS,
				environment: 'production',
				productionBaseUrl: TEST_BASE_URL,
			},
		});

		expect(production.error).toBeUndefined();
		expect(requests).toHaveLength(2);
	});
});

describe('Which operations are protected', () => {
	enableMockedNetwork();

	it('Verification → Submit: the same check of the same candidate is submitted once', async () => {
		const store = new DeduplicationStore();
		const { scope, requests } = mockService();
		scope.post(`${V}/bgv/diy`).times(2).reply(200, success());
		const submit: INodeParameters = {
			resource: 'verification',
			operation: 'submit',
			verificationName: 'bgv-cibil',
			transactionId: 'TXN-9',
			pan: 'ABCDE1234F',
			documentUrl: 'https://files.example/private/pan.pdf',
			permanentAddress: {
				address: {
					line1: '12 MG Road',
					vtc: 'Indiranagar',
					district: 'Bengaluru Urban',
					state: 'Karnataka',
					pincode: '560038',
					country: 'India',
				},
			},
		};
		await runActionNode({ parameters: submit, deduplicationStore: store });
		const again = await runActionNode({ parameters: submit, deduplicationStore: store });

		expect(requests).toHaveLength(1);
		expect(outputJson(again)).toEqual([
			{
				transactionId: 'TXN-9',
				verificationName: 'bgv-cibil',
				submitted: true,
				alreadySent: true,
				sentAt: expect.stringMatching(ISO_TIME),
			},
		]);
	});

	it('Webhook Config → Update is not protected (sending it twice changes nothing)', async () => {
		const store = new DeduplicationStore();
		const { scope, requests } = mockService();
		scope
			.put(`${V}/webhook-config/cfg-1`)
			.times(2)
			.reply(200, success({ id: 'cfg-1' }));
		const update: INodeParameters = {
			resource: 'webhookConfig',
			operation: 'update',
			configId: 'cfg-1',
			endpoint: 'https://n8n.example.com/webhook/x',
			apiKey: 'secret-of-the-webhook',
		};
		await runActionNode({ parameters: update, deduplicationStore: store });
		await runActionNode({ parameters: update, deduplicationStore: store });

		expect(requests).toHaveLength(2);
		expect(store.calls).toBe(0);
	});
});
