import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { CandidateVerificationApi } from '../../credentials/CandidateVerificationApi.credentials';
import { CandidateVerificationTrigger } from '../../nodes/CandidateVerificationTrigger/CandidateVerificationTrigger.node';
import { lookupTiming } from '../../nodes/CandidateVerificationTrigger/helpers/lookup';
import { TEST_CREDENTIALS } from '../harness/credentials-helper';
import { timingsForEachTest } from '../harness/timings';
import {
	activeTriggerAt,
	IDS,
	serviceWithChecks,
	TRANSACTION,
	type Answer,
} from './checks-service';
import { useFakeService } from './fake-service';
import type { Delivery } from './trigger-harness';

const currentService = useFakeService();

// The reads' tries again come after 1 ms here (500 and 1000 ms in use): the tries are what is tested.
const lookupTimingInUse = timingsForEachTest(lookupTiming, { retryPausesMs: [1, 1] });

async function activeTrigger(parameters = {}, credentials?: ICredentialDataDecryptedObject) {
	return await activeTriggerAt(currentService(), parameters, credentials);
}

/** An insufficiency notification as the provider's pages show it: the check named by its ID. */
const insufficiency = (verificationId: string, action = 'insufficiency-raised') => ({
	action,
	transactionId: 'TXN-1',
	verificationId,
});
const stateChange = (verificationId: string) => ({
	transactionId: 'TXN-1',
	verificationId,
	newState: 'COMPLETED',
});
const UNKNOWN_ID = 'f00000000000000000000009';
const BARE_503: Answer = [503, { error: 'Service Unavailable' }];
const NOT_FOUND: Answer = [404, { code: -1, message: 'Transaction not found' }];

/** An event the lookup cannot place without a person, nothing read: case, credential, event, reason. */
type Unreadable = [string, ICredentialDataDecryptedObject | undefined, object, string];
const UNREADABLE: Unreadable[] = [
	[
		'no Organisation ID',
		{ ...TEST_CREDENTIALS, orgId: '' },
		insufficiency(IDS['bgv-degree']),
		'could not read the transaction: set the Organisation ID in the credential',
	],
	[
		'no transactionId',
		undefined,
		{ action: 'insufficiency-raised', verificationId: IDS['bgv-degree'] },
		'could not read the transaction: the notification has no transactionId',
	],
];

function expectStarted(delivery: Delivery, json: object): void {
	expect(delivery.response.statusCode).toBeUndefined();
	expect(delivery.items).toEqual([{ ...json, receivedAt: expect.any(String) }]);
}

function expectAnswered503(delivery: Delivery): void {
	expect(delivery.response.statusCode).toBe(503);
	expect(delivery.response.sentBody).toEqual({
		message: 'Notification not taken: its check could not be looked up at the service for now',
	});
	expect(delivery.result).toEqual({ noWebhookResponse: true });
	expect(delivery.items).toEqual([]);
}

function expectDropped(delivery: Delivery): void {
	expect(delivery.response.statusCode).toBeUndefined();
	expect(delivery.items).toEqual([]);
	expect(delivery.result.webhookResponse).toEqual({
		message: 'Notification received; not one this workflow starts on',
	});
}

describe('no Checks filter: an insufficiency event named by its check ID is looked up', () => {
	test.each([['insufficiency-raised'], ['insufficiency-resolved']])(
		'%s: the transaction, then its checks until the ID is found; the item gets checkName',
		async (action) => {
			const reads = serviceWithChecks();
			const { trigger, post } = await activeTrigger();
			const event = insufficiency(IDS['bgv-degree'], action);

			const delivery = await trigger.deliver(post(event));

			expect(reads).toEqual(['transaction', 'bgv-employment', 'bgv-degree']);
			expectStarted(delivery, { ...event, checkName: 'bgv-degree' });
		},
	);

	test('an insufficiency event named by the check name, and a state change named by an ID, are passed as they are, nothing read', async () => {
		const reads = serviceWithChecks();
		const { trigger, post } = await activeTrigger();

		const byName = await trigger.deliver(post(insufficiency('bgv-degree')));
		const stateById = await trigger.deliver(post(stateChange(IDS['bgv-degree'])));

		expect(reads).toEqual([]);
		expectStarted(byName, insufficiency('bgv-degree'));
		expectStarted(stateById, stateChange(IDS['bgv-degree']));
	});

	test('with Add Transaction Details the transaction the lookup read is reused', async () => {
		const reads = serviceWithChecks();
		const { trigger, post } = await activeTrigger({ options: { addTransactionDetails: true } });

		const delivery = await trigger.deliver(post(insufficiency(IDS['bgv-cibil'])));

		expect(reads).toEqual(['transaction', 'bgv-employment', 'bgv-degree', 'bgv-cibil']);
		expect(delivery.items[0]).toMatchObject({
			checkName: 'bgv-cibil',
			candidateName: 'Asha Verma',
			transaction: TRANSACTION,
		});
	});
});

describe('no Checks filter: an event the trigger cannot place still starts the workflow', () => {
	test('an ID no check has: checkUnknown and the reason', async () => {
		serviceWithChecks();
		const { trigger, post } = await activeTrigger();
		const event = insufficiency(UNKNOWN_ID);

		const delivery = await trigger.deliver(post(event));

		expectStarted(delivery, {
			...event,
			checkUnknown: true,
			checkUnknownReason: `no check of transaction TXN-1 has the verificationId ${UNKNOWN_ID} (3 checks read)`,
		});
	});

	test('a transaction read answered 503 on every try: three tries, then checkUnknown', async () => {
		const reads = serviceWithChecks({ transaction: BARE_503 });
		const { trigger, post } = await activeTrigger();
		const event = insufficiency(IDS['bgv-degree']);

		const delivery = await trigger.deliver(post(event));

		expect(reads).toEqual(['transaction', 'transaction', 'transaction']);
		expectStarted(delivery, {
			...event,
			checkUnknown: true,
			checkUnknownReason: expect.stringMatching(
				/^could not read the transaction: Get the status of a transaction failed: the Candidate Verification Service answered HTTP 503 without a response envelope/,
			),
		});
	});

	test.each([
		...UNREADABLE,
		[
			'no verificationId',
			undefined,
			{ action: 'insufficiency-raised', transactionId: 'TXN-1' },
			'the notification has no verificationId',
		] as Unreadable,
	])('%s: checkUnknown and the reason, nothing read', async (_, credentials, event, reason) => {
		const reads = serviceWithChecks();
		const { trigger, post } = await activeTrigger({}, credentials);

		const delivery = await trigger.deliver(post(event));

		expect(reads).toEqual([]);
		expectStarted(delivery, { ...event, checkUnknown: true, checkUnknownReason: reason });
	});
});

describe('Checks filter: a lookup that failed for now answers the delivery 503', () => {
	test('the transaction read answered 503 on every try: 503, and an error in the log naming the transaction', async () => {
		const reads = serviceWithChecks({ transaction: BARE_503 });
		const { trigger, post } = await activeTrigger({ checks: ['bgv-degree'] });
		const error = jest.spyOn(trigger.logger, 'error');

		const delivery = await trigger.deliver(post(insufficiency(IDS['bgv-degree'])));

		expectAnswered503(delivery);
		expect(reads).toEqual(['transaction', 'transaction', 'transaction']);
		expect(error).toHaveBeenCalledTimes(1);
		expect(error.mock.calls[0][0]).toMatch(
			new RegExp(
				`^Candidate Verification Trigger: an event of transaction TXN-1 \\(verificationId ${IDS['bgv-degree']}\\) was answered HTTP 503 and started nothing: its check could not be looked up: could not read the transaction: .*HTTP 503`,
			),
		);
	});

	test('a 503 that passes within the lookup: the event is placed', async () => {
		const reads = serviceWithChecks({
			transaction: [BARE_503, [200, { code: 0, message: 'Success', data: TRANSACTION }]],
		});
		const { trigger, post } = await activeTrigger({ checks: ['bgv-degree'] });
		const event = stateChange(IDS['bgv-degree']);

		const delivery = await trigger.deliver(post(event));

		expect(reads).toEqual(['transaction', 'transaction', 'bgv-degree']);
		expectStarted(delivery, { ...event, checkName: 'bgv-degree' });
	});

	test('a reset connection while reading a check, no other check matching: 503', async () => {
		const reads = serviceWithChecks({ 'bgv-cibil': { networkError: 'ECONNRESET' } });
		const { trigger, post } = await activeTrigger({ checks: ['bgv-degree'] });
		const error = jest.spyOn(trigger.logger, 'error');

		const delivery = await trigger.deliver(post(insufficiency(UNKNOWN_ID)));

		expectAnswered503(delivery);
		expect(reads).toEqual([
			'transaction',
			'bgv-degree',
			'bgv-employment',
			'bgv-cibil',
			'bgv-cibil',
			'bgv-cibil',
		]);
		expect(error.mock.calls[0][0]).toContain(
			`no check of transaction TXN-1 has the verificationId ${UNKNOWN_ID} (3 checks read); reads that failed: bgv-cibil: Get the status of one check failed: the Candidate Verification Service closed the connection before answering`,
		);
	});

	test('a check read the service refused under HTTP 200, no other check matching: 503', async () => {
		serviceWithChecks({ 'bgv-cibil': [200, { code: -1, message: 'Temporarily unavailable' }] });
		const { trigger, post } = await activeTrigger({ checks: ['bgv-degree'] });

		expectAnswered503(await trigger.deliver(post(insufficiency(UNKNOWN_ID))));
	});

	test('with Pass Unplaced Events: passed with checkUnknown instead, as before', async () => {
		serviceWithChecks({ transaction: BARE_503 });
		const { trigger, post } = await activeTrigger({
			checks: ['bgv-degree'],
			options: { passUnplacedEvents: true },
		});
		const event = insufficiency(IDS['bgv-degree']);

		const delivery = await trigger.deliver(post(event));

		expectStarted(delivery, {
			...event,
			checkUnknown: true,
			checkUnknownReason: expect.stringMatching(/^could not read the transaction: .*HTTP 503/),
		});
	});

	test('a read that times out counts as failed: the lookup ends within its time, the reads it had no time for named', async () => {
		// The lookup's time shortened to 2 s (10 s in use). Each check answers after 1.2 s: the first is
		// read, the second times out at the lookup's 2 s, the third is never sent.
		lookupTiming.deadlineMs = 2000;
		const reads = serviceWithChecks({}, { 'bgv-degree': 1200, 'bgv-employment': 1200 });
		const { trigger, post } = await activeTrigger({ checks: ['bgv-degree'] });
		const error = jest.spyOn(trigger.logger, 'error');

		const delivery = await trigger.deliver(post(insufficiency(UNKNOWN_ID)));

		expectAnswered503(delivery);
		expect(reads).toEqual(['transaction', 'bgv-degree', 'bgv-employment']);
		expect(error.mock.calls[0][0]).toContain(
			"reads that failed: bgv-employment: Get the status of one check failed: the Candidate Verification Service did not answer within the lookup's 2 s; bgv-cibil: not read, the lookup's 2 s had run out",
		);
	});

	test("the lookup's time in use is 10 s, and its tries again come after 0.5 s and 1 s", () => {
		expect(lookupTimingInUse).toEqual({ deadlineMs: 10_000, retryPausesMs: [500, 1000] });
	});
});

describe('Checks filter: a lookup that needs a person is dropped with an error, never answered 503', () => {
	/** Each case with the service's answers and the reads expected. */
	type Case = [...Unreadable, Record<string, Answer>, string[]];
	test.each<Case>([
		[
			'a 4xx on the transaction read (read once)',
			undefined,
			insufficiency(IDS['bgv-degree']),
			'could not read the transaction: Get the status of a transaction was rejected by the Candidate Verification Service: Transaction not found',
			{ transaction: NOT_FOUND },
			['transaction'],
		],
		[
			"a refusal under HTTP 200 on the transaction read (the contract: invalid data, e.g. another organisation's ID; read once)",
			undefined,
			insufficiency(IDS['bgv-degree']),
			'could not read the transaction: Get the status of a transaction was rejected by the Candidate Verification Service: Transaction not found',
			{ transaction: [200, { code: -1, message: 'Transaction not found' }] },
			['transaction'],
		],
		...UNREADABLE.map((unreadable): Case => [...unreadable, {}, []]),
	])('%s', async (_, credentials, event, reason, answers, expectedReads) => {
		const reads = serviceWithChecks(answers);
		const { trigger, post } = await activeTrigger({ checks: ['bgv-degree'] }, credentials);
		const error = jest.spyOn(trigger.logger, 'error');

		const delivery = await trigger.deliver(post(event));

		expectDropped(delivery);
		expect(reads).toEqual(expectedReads);
		expect(error.mock.calls).toEqual([
			[
				`Candidate Verification Trigger: an event of transaction ${String((event as { transactionId?: string }).transactionId)} (verificationId ${IDS['bgv-degree']}) started nothing: ${reason}. Options → Pass Unplaced Events lets such events start the workflow.`,
			],
		]);
	});

	test('an ID no check has, every read answered: dropped with a warning, as before', async () => {
		serviceWithChecks();
		const { trigger, post } = await activeTrigger({ checks: ['bgv-degree'] });
		const warn = jest.spyOn(trigger.logger, 'warn');
		const error = jest.spyOn(trigger.logger, 'error');

		const delivery = await trigger.deliver(post(insufficiency(UNKNOWN_ID)));

		expectDropped(delivery);
		expect(error).not.toHaveBeenCalled();
		expect(warn.mock.calls).toEqual([
			[
				`Candidate Verification Trigger: an event of transaction TXN-1 (verificationId ${UNKNOWN_ID}) started nothing: no check of transaction TXN-1 has the verificationId ${UNKNOWN_ID} (3 checks read). Options → Pass Unplaced Events lets such events start the workflow.`,
			],
		]);
	});
});

describe('what the trigger says about the lookup', () => {
	const description = new CandidateVerificationTrigger().description;
	const property = (name: string) =>
		description.properties.find((candidate) => candidate.name === name)!;

	test('the Checks description says an insufficiency event is looked up without a filter, and what becomes of an unplaced event', () => {
		expect(property('checks').description).toContain(
			'An insufficiency event whose verificationId is a check’s ID is looked up with or without this filter',
		);
		expect(property('checks').description).toContain(
			'a lookup that failed for now (no answer, a 5xx, a check read that failed) is answered HTTP 503',
		);
		expect(property('checks').description).toContain(
			'one that cannot succeed without you (no transactionId, no Organisation ID, a 4xx, the transaction read refused) is logged as an error and starts nothing',
		);
	});

	test('the credential’s Organisation ID says the lookup needs it', () => {
		const orgId = new CandidateVerificationApi().properties.find(
			(candidate) => candidate.name === 'orgId',
		)!;
		expect(orgId.description).toContain(
			'the lookup of a check a notification names by its ID (insufficiency events always, other events under a Checks filter)',
		);
	});
});
