import nock from 'nock';

import { CandidateVerificationTrigger } from '../../nodes/CandidateVerificationTrigger/CandidateVerificationTrigger.node';
import { TEST_API_KEY, TEST_BASE_URL } from '../harness/credentials-helper';
import { useFakeService } from './fake-service';
import type { IncomingNotification } from './trigger-harness';
import { TriggerHarness } from './trigger-harness';

const STATUS_PATH = '/verification/api/1.0/transactions/info';
const currentService = useFakeService();

async function activeTrigger(parameters = {}) {
	const trigger = new TriggerHarness(parameters);
	await trigger.activate();
	const secret = String(currentService().requests.at(-1)!.body.apiKey);
	const post = (body: object): IncomingNotification => ({
		headers: { 'content-type': 'application/json', 'x-api-key': secret, 'x-webhook-key': secret },
		body,
		rawBody: Buffer.from(JSON.stringify(body)),
	});
	return { trigger, post };
}

const event = (verificationId: string, newState: string) => ({
	transactionId: 'TXN-1',
	verificationId,
	newState,
});

describe('filters: checks and new states', () => {
	test('only the chosen checks and states start the workflow; the others still get 200', async () => {
		const { trigger, post } = await activeTrigger({
			checks: ['bgv-employment', 'bgv-police-verification'],
			states: ['COMPLETED'],
		});

		const started = await trigger.deliver(post(event('bgv-employment', 'COMPLETED')));
		const police = await trigger.deliver(
			post(event('bgv-police-clearance-certificate', 'COMPLETED')),
		);
		const otherCheck = await trigger.deliver(post(event('bgv-cibil', 'COMPLETED')));
		const otherState = await trigger.deliver(post(event('bgv-employment', 'IN_PROGRESS')));
		const noFields = await trigger.deliver(post({ hello: 'world' }));

		expect(started.items).toEqual([
			{ ...event('bgv-employment', 'COMPLETED'), receivedAt: expect.any(String) },
		]);
		expect(police.items).toHaveLength(1);
		for (const filtered of [otherCheck, otherState, noFields]) {
			expect(filtered.items).toEqual([]);
			expect(filtered.result.workflowData).toBeUndefined();
			// n8n answers a webhookResponse without workflowData with HTTP 200 and this body.
			expect(filtered.result.webhookResponse).toEqual({
				message: 'Notification received; not one this workflow starts on',
			});
			expect(filtered.response.statusCode).toBeUndefined();
		}
	});

	test('empty filters let every notification through', async () => {
		const { trigger, post } = await activeTrigger({ checks: [], states: [] });

		const delivery = await trigger.deliver(post(event('pan', 'NOT_STARTED')));

		expect(delivery.items).toHaveLength(1);
	});

	test('an unauthenticated notification is refused with 401 before any filter', async () => {
		const { trigger } = await activeTrigger({ checks: ['bgv-employment'] });

		const delivery = await trigger.deliver({ body: event('bgv-employment', 'COMPLETED') });

		expect(delivery.response.statusCode).toBe(401);
		expect(delivery.items).toEqual([]);
	});
});

describe('option: Add Transaction Details', () => {
	const transaction = {
		transactionId: 'TXN-1',
		candidate: { name: 'Asha Verma', gender: 'Female' },
		verificationList: [{ name: 'bgv-employment', state: 'COMPLETED' }],
		state: 'COMPLETED',
		report: `${TEST_BASE_URL}/private/reports/TXN-1.pdf`,
	};

	test('reads the transaction with Get Status’s request and adds name, state and report URL', async () => {
		const { trigger, post } = await activeTrigger({ options: { addTransactionDetails: true } });
		const statusRequests: Array<{ path: string; apiKey: unknown }> = [];
		nock(TEST_BASE_URL)
			.get(STATUS_PATH)
			.query({ orgId: 'org-123', txnId: 'TXN-1' })
			.reply(function (uri) {
				statusRequests.push({ path: uri, apiKey: this.req.headers['x-api-key'] });
				return [200, { code: 0, message: 'Success', data: transaction }];
			});

		const delivery = await trigger.deliver(post(event('bgv-employment', 'COMPLETED')));

		expect(statusRequests).toEqual([
			{ path: `${STATUS_PATH}?orgId=org-123&txnId=TXN-1`, apiKey: TEST_API_KEY },
		]);
		expect(delivery.items).toEqual([
			{
				...event('bgv-employment', 'COMPLETED'),
				receivedAt: expect.any(String),
				candidateName: 'Asha Verma',
				transactionState: 'COMPLETED',
				reportUrl: transaction.report,
				transaction,
			},
		]);
	});

	test('a failed read keeps the notification and says why', async () => {
		const { trigger, post } = await activeTrigger({ options: { addTransactionDetails: true } });
		nock(TEST_BASE_URL)
			.get(STATUS_PATH)
			.query(true)
			.reply(200, { code: -1, message: 'Transaction not found' });

		const delivery = await trigger.deliver(post(event('bgv-employment', 'COMPLETED')));

		expect(delivery.items).toEqual([
			{
				...event('bgv-employment', 'COMPLETED'),
				receivedAt: expect.any(String),
				transactionDetailsError:
					"Could not add the transaction's details: Get the status of a transaction was rejected by the Candidate Verification Service: Transaction not found",
			},
		]);
	});

	test('filtered notifications are not looked up', async () => {
		const { trigger, post } = await activeTrigger({
			states: ['COMPLETED'],
			options: { addTransactionDetails: true },
		});

		const lookup = nock(TEST_BASE_URL)
			.get(STATUS_PATH)
			.query(true)
			.reply(200, { code: 0, message: 'Success', data: transaction });

		const delivery = await trigger.deliver(post(event('bgv-employment', 'IN_PROGRESS')));

		expect(delivery.items).toEqual([]);
		expect(lookup.isDone()).toBe(false);
	});
});

describe('what the trigger says about the service', () => {
	test('its texts claim nothing about how the service retries deliveries (not published)', () => {
		// The delivery retry policy is not known (shared spec); a filtered event gets 200 because it was
		// received, not because 200 stops a resend.
		const texts = JSON.stringify(new CandidateVerificationTrigger().description);
		expect(texts).not.toMatch(/resend|retr(y|ies)|redeliver/i);
	});
});
