import nock from 'nock';
import type { ICredentialDataDecryptedObject, IDataObject, INodeProperties } from 'n8n-workflow';

import { CandidateVerificationTrigger } from '../../nodes/CandidateVerificationTrigger/CandidateVerificationTrigger.node';
import { TEST_API_KEY, TEST_BASE_URL, TEST_CREDENTIALS } from '../harness/credentials-helper';
import {
	activeTriggerAt,
	IDS,
	serviceWithChecks,
	STATUS_PATH,
	TRANSACTION,
} from './checks-service';
import { useFakeService } from './fake-service';

const currentService = useFakeService();

async function activeTrigger(parameters = {}, credentials?: ICredentialDataDecryptedObject) {
	return await activeTriggerAt(currentService(), parameters, credentials);
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

	/** The details added for a transaction the service answers with `candidate`, without `report`. */
	async function detailsFor(candidate: IDataObject) {
		const { trigger, post } = await activeTrigger({ options: { addTransactionDetails: true } });
		const newer = {
			transactionId: 'TXN-1',
			candidate,
			verificationList: [{ name: 'bgv-employment', state: 'COMPLETED' }],
			state: 'IN_PROGRESS',
			insufficiency: false,
		};
		nock(TEST_BASE_URL)
			.get(STATUS_PATH)
			.query({ orgId: 'org-123', txnId: 'TXN-1' })
			.reply(200, { code: 0, message: 'Success', data: newer });
		const delivery = await trigger.deliver(post(event('bgv-employment', 'COMPLETED')));
		return { newer, items: delivery.items };
	}

	test('the provider’s pages: candidateName from candidate.profileDetails.name; reportUrl null without report', async () => {
		const candidate = {
			id: 'c-1',
			email: 'asha@example.com',
			mobile: '9000000000',
			profileDetails: { gender: 'Female', name: 'Asha Verma' },
		};

		const { newer, items } = await detailsFor(candidate);

		expect(items).toEqual([
			{
				...event('bgv-employment', 'COMPLETED'),
				receivedAt: expect.any(String),
				candidateName: 'Asha Verma',
				transactionState: 'IN_PROGRESS',
				reportUrl: null,
				transaction: newer,
			},
		]);
	});

	test('candidateName: profileDetails.name first, then candidate.name, else null', async () => {
		const both = await detailsFor({ name: 'A. Verma', profileDetails: { name: 'Asha Verma' } });
		const nameOnly = await detailsFor({ name: 'A. Verma', profileDetails: {} });
		const neither = await detailsFor({ email: 'asha@example.com' });

		expect(both.items[0].candidateName).toBe('Asha Verma');
		expect(nameOnly.items[0].candidateName).toBe('A. Verma');
		expect(neither.items[0]).toMatchObject({ candidateName: null, reportUrl: null });
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

const insufficiency = (action: string, verificationId = 'bgv-degree') => ({
	action,
	transactionId: 'TXN-1',
	verificationId,
});

/** How many items each notification started, delivered one after another. */
async function itemsStarted(active: Awaited<ReturnType<typeof activeTrigger>>, bodies: object[]) {
	const counts = [];
	for (const body of bodies)
		counts.push((await active.trigger.deliver(active.post(body))).items.length);
	return counts;
}

describe('filter: Events, and New States with insufficiency events', () => {
	test('Events chooses the kinds of notification; empty lets every kind through', async () => {
		const raisedOnly = await activeTrigger({ events: ['insufficiency-raised'] });
		const all = await activeTrigger({ events: [] });
		const notifications = [
			insufficiency('insufficiency-raised'),
			insufficiency('insufficiency-resolved'),
			event('bgv-degree', 'COMPLETED'),
			{ hello: 'world' },
		];

		expect(await itemsStarted(raisedOnly, notifications)).toEqual([1, 0, 0, 0]);
		expect(await itemsStarted(all, notifications)).toEqual([1, 1, 1, 1]);
	});

	test('New States filters state changes only when Events is set; with Events empty it filters every notification, as before', async () => {
		const withEvents = await activeTrigger({
			events: ['stateChange', 'insufficiency-raised'],
			states: ['COMPLETED'],
		});
		const statesOnly = await activeTrigger({ states: ['COMPLETED'] });
		const notifications = [
			insufficiency('insufficiency-raised'),
			event('bgv-degree', 'COMPLETED'),
			event('bgv-degree', 'IN_PROGRESS'),
			insufficiency('insufficiency-resolved'),
		];

		expect(await itemsStarted(withEvents, notifications)).toEqual([1, 1, 0, 0]);
		expect(await itemsStarted(statesOnly, notifications)).toEqual([0, 1, 0, 0]);
	});

	test('INSUFFICIENT_DATA is a New State to filter on', async () => {
		const { trigger, post } = await activeTrigger({ states: ['INSUFFICIENT_DATA'] });

		const insufficient = await trigger.deliver(post(event('bgv-degree', 'INSUFFICIENT_DATA')));
		const completed = await trigger.deliver(post(event('bgv-degree', 'COMPLETED')));

		expect(insufficient.items).toEqual([
			{ ...event('bgv-degree', 'INSUFFICIENT_DATA'), receivedAt: expect.any(String) },
		]);
		expect(completed.items).toEqual([]);
	});
});

describe('filter: Checks by name or by check ID', () => {
	const transaction = TRANSACTION;

	test('the option list names both police checks and the extended address names, sorted', () => {
		const checks = new CandidateVerificationTrigger().description.properties.find(
			(property: INodeProperties) => property.name === 'checks',
		)!;
		const options = checks.options as Array<{ name: string; value: string }>;
		const labels = options.map((option) => option.name);
		expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b)));
		expect(options.filter((option) => /police|extended/i.test(option.name))).toEqual([
			expect.objectContaining({
				name: 'Local Extended Address',
				value: 'bgv-local-extended-address',
			}),
			expect.objectContaining({
				name: 'Permanent Extended Address',
				value: 'bgv-permanent-extended-address',
			}),
			expect.objectContaining({
				name: 'Police Clearance Certificate',
				value: 'bgv-police-clearance-certificate',
			}),
			expect.objectContaining({
				name: 'Police Verification (Address)',
				value: 'bgv-police-verification',
			}),
		]);
	});

	test('a digital address check and its extended name match each other; the certificate alone does not catch Police Verification', async () => {
		const digital = await activeTrigger({ checks: ['bgv-local-address-digital'] });
		const certificate = await activeTrigger({ checks: ['bgv-police-clearance-certificate'] });

		const extended = await digital.trigger.deliver(
			digital.post(event('bgv-local-extended-address', 'COMPLETED')),
		);
		const permanent = await digital.trigger.deliver(
			digital.post(event('bgv-permanent-extended-address', 'COMPLETED')),
		);
		const police = await certificate.trigger.deliver(
			certificate.post(event('bgv-police-verification', 'COMPLETED')),
		);

		expect(extended.items).toHaveLength(1);
		expect(permanent.items).toEqual([]);
		expect(police.items).toEqual([]);
	});

	test('a check name is filtered without any read', async () => {
		const reads = serviceWithChecks();
		const { trigger, post } = await activeTrigger({ checks: ['bgv-degree'] });

		await trigger.deliver(post(event('bgv-degree', 'COMPLETED')));
		await trigger.deliver(post(event('bgv-cibil', 'COMPLETED')));

		expect(reads).toEqual([]);
	});

	test('a check ID of a chosen check: the transaction, then the chosen check first; stops at the match and adds checkName', async () => {
		const reads = serviceWithChecks();
		const { trigger, post } = await activeTrigger({ checks: ['bgv-degree'] });
		const raised = insufficiency('insufficiency-raised', IDS['bgv-degree']);

		const delivery = await trigger.deliver(post(raised));

		expect(reads).toEqual(['transaction', 'bgv-degree']);
		expect(delivery.items).toEqual([
			{ ...raised, receivedAt: expect.any(String), checkName: 'bgv-degree' },
		]);
	});

	test('a check ID of another check: at most one read per check of the transaction, then filtered out', async () => {
		const reads = serviceWithChecks();
		const { trigger, post } = await activeTrigger({ checks: ['bgv-degree'] });

		const delivery = await trigger.deliver(post(event(IDS['bgv-cibil'], 'COMPLETED')));

		expect(reads).toEqual(['transaction', 'bgv-degree', 'bgv-employment', 'bgv-cibil']);
		expect(delivery.items).toEqual([]);
		expect(delivery.result.webhookResponse).toEqual({
			message: 'Notification received; not one this workflow starts on',
		});
	});

	test('the public double-wrapped check status is read too; a failed read of one check does not stop the search', async () => {
		const reads = serviceWithChecks({
			'bgv-degree': [200, { code: -1, message: 'Temporarily unavailable' }],
			'bgv-cibil': [
				200,
				{
					code: 0,
					message: 'Success',
					data: { data: [{ name: 'bgv-cibil', subType: IDS['bgv-cibil'] }] },
				},
			],
		});
		const { trigger, post } = await activeTrigger({ checks: ['bgv-degree', 'bgv-cibil'] });

		const delivery = await trigger.deliver(post(event(IDS['bgv-cibil'], 'COMPLETED')));

		expect(reads).toEqual(['transaction', 'bgv-degree', 'bgv-cibil']);
		expect(delivery.items[0].checkName).toBe('bgv-cibil');
	});

	test('an ID no check has: dropped by default (as a trigger saved before 0.4.0), every check read once', async () => {
		serviceWithChecks();
		const { trigger, post } = await activeTrigger({ checks: ['bgv-degree'] });

		const delivery = await trigger.deliver(
			post(insufficiency('insufficiency-raised', 'f00000000000000000000009')),
		);

		expect(delivery.items).toEqual([]);
	});

	test('an ID no check has, with Pass Unplaced Events: passed through with checkUnknown and the reason, every check read once', async () => {
		const reads = serviceWithChecks({
			'bgv-cibil': [200, { code: -1, message: 'Temporarily unavailable' }],
		});
		const { trigger, post } = await activeTrigger({
			checks: ['bgv-degree'],
			options: { passUnplacedEvents: true },
		});
		const raised = insufficiency('insufficiency-raised', 'f00000000000000000000009');

		const delivery = await trigger.deliver(post(raised));

		expect(reads).toEqual(['transaction', 'bgv-degree', 'bgv-employment', 'bgv-cibil']);
		expect(delivery.items).toEqual([
			{
				...raised,
				receivedAt: expect.any(String),
				checkUnknown: true,
				checkUnknownReason:
					'no check of transaction TXN-1 has the verificationId f00000000000000000000009 (3 checks read); reads that failed: bgv-cibil: Get the status of one check was rejected by the Candidate Verification Service: Temporarily unavailable',
			},
		]);
	});

	test('without an Organisation ID in the credential, with Pass Unplaced Events: passed through with checkUnknown, nothing read', async () => {
		const reads = serviceWithChecks();
		const { trigger, post } = await activeTrigger(
			{ checks: ['bgv-degree'], options: { passUnplacedEvents: true } },
			{ ...TEST_CREDENTIALS, orgId: '' },
		);

		const delivery = await trigger.deliver(post(event(IDS['bgv-degree'], 'COMPLETED')));

		expect(reads).toEqual([]);
		expect(delivery.items).toEqual([
			{
				...event(IDS['bgv-degree'], 'COMPLETED'),
				receivedAt: expect.any(String),
				checkUnknown: true,
				checkUnknownReason:
					'could not read the transaction: set the Organisation ID in the credential',
			},
		]);
	});

	test('with Add Transaction Details the transaction read for the check is reused (read once)', async () => {
		const reads = serviceWithChecks();
		const { trigger, post } = await activeTrigger({
			checks: ['bgv-degree'],
			options: { addTransactionDetails: true },
		});

		const delivery = await trigger.deliver(post(event(IDS['bgv-degree'], 'COMPLETED')));

		expect(reads).toEqual(['transaction', 'bgv-degree']);
		expect(delivery.items[0]).toMatchObject({
			checkName: 'bgv-degree',
			candidateName: 'Asha Verma',
			transaction,
		});
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
