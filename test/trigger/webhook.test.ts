import crypto from 'node:crypto';

import { useFakeService } from './fake-service';
import type { Delivery, IncomingNotification } from './trigger-harness';
import { TriggerHarness } from './trigger-harness';

const NOTIFICATION = { transactionId: 'txn-1', verificationId: 'ver-9', newState: 'COMPLETED' };
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const currentService = useFakeService();

/** An active trigger and the secret its activation registered at the service. */
async function activeTrigger(
	parameters = {},
): Promise<{ trigger: TriggerHarness; secret: string }> {
	const trigger = new TriggerHarness(parameters);
	await trigger.activate();
	return { trigger, secret: String(currentService().requests.at(-1)!.body.apiKey) };
}

function signed(secret: string, extra: Record<string, string> = {}): Record<string, string> {
	return {
		'content-type': 'application/json',
		'x-api-key': secret,
		'x-webhook-key': secret,
		...extra,
	};
}

function jsonNotification(
	headers: Record<string, string>,
	body: object = NOTIFICATION,
): IncomingNotification {
	return { headers, body, rawBody: Buffer.from(JSON.stringify(body)) };
}

function expectRejected(delivery: Delivery): void {
	expect(delivery.response.statusCode).toBe(401);
	expect(delivery.response.sentBody).toEqual({ message: 'Unauthorized' });
	expect(delivery.result).toEqual({ noWebhookResponse: true });
	expect(delivery.result.workflowData).toBeUndefined();
	expect(delivery.items).toEqual([]);
}

describe('accepted notifications', () => {
	test('a notification carrying the secret in both headers starts one item with its fields', async () => {
		const { trigger, secret } = await activeTrigger();

		const delivery = await trigger.deliver(jsonNotification(signed(secret)));

		expect(delivery.response.statusCode).toBeUndefined();
		expect(delivery.result.noWebhookResponse).toBeUndefined();
		expect(delivery.items).toEqual([
			{ ...NOTIFICATION, receivedAt: expect.stringMatching(ISO_TIME) },
		]);
		expect(JSON.stringify(delivery.result)).not.toContain(secret);
	});

	test.each([['x-api-key'], ['x-webhook-key']])(
		'the key in %s alone is enough (nothing public shows which the service sends)',
		async (header) => {
			const { trigger, secret } = await activeTrigger();
			const warn = jest.spyOn(trigger.logger, 'warn');

			const delivery = await trigger.deliver(
				jsonNotification({ 'content-type': 'application/json', [header]: secret }),
			);

			expect(delivery.response.statusCode).toBeUndefined();
			expect(delivery.items).toEqual([
				{ ...NOTIFICATION, receivedAt: expect.stringMatching(ISO_TIME) },
			]);
			expect(warn).not.toHaveBeenCalled();
		},
	);

	test('unknown payload fields pass through unchanged', async () => {
		const { trigger, secret } = await activeTrigger();
		const body = {
			...NOTIFICATION,
			report: { url: 'https://files.example/r.pdf' },
			checks: ['pan'],
		};

		const { items } = await trigger.deliver(jsonNotification(signed(secret), body));

		expect(items).toEqual([{ ...body, receivedAt: expect.stringMatching(ISO_TIME) }]);
	});

	test('Include Headers adds the request headers without secret or session headers', async () => {
		const { trigger, secret } = await activeTrigger({ options: { includeHeaders: true } });
		const headers = signed(secret, {
			'user-agent': 'cv-notifier/1.0',
			'x-request-id': 'req-77',
			authorization: 'Bearer something',
			cookie: 'session=abc',
		});

		const { items } = await trigger.deliver(jsonNotification(headers));

		expect(items).toHaveLength(1);
		expect(items[0].headers).toEqual({
			'content-type': 'application/json',
			'user-agent': 'cv-notifier/1.0',
			'x-request-id': 'req-77',
		});
		expect(JSON.stringify(items)).not.toContain(secret);
	});

	test('without Include Headers no headers are emitted', async () => {
		const { trigger, secret } = await activeTrigger();

		const { items } = await trigger.deliver(jsonNotification(signed(secret)));

		expect(items[0]).not.toHaveProperty('headers');
	});

	test('a body that is not JSON is kept as text under rawBody', async () => {
		const { trigger, secret } = await activeTrigger();

		const { items } = await trigger.deliver({
			headers: signed(secret, { 'content-type': 'text/plain' }),
			body: {},
			rawBody: Buffer.from('state changed: txn-1 COMPLETED'),
		});

		expect(items).toEqual([
			{ rawBody: 'state changed: txn-1 COMPLETED', receivedAt: expect.stringMatching(ISO_TIME) },
		]);
	});

	test('an empty body is accepted with an empty rawBody', async () => {
		const { trigger, secret } = await activeTrigger();

		const { items } = await trigger.deliver({
			headers: signed(secret),
			body: {},
			rawBody: Buffer.alloc(0),
		});

		expect(items).toEqual([{ rawBody: '', receivedAt: expect.stringMatching(ISO_TIME) }]);
	});

	test('a JSON array body is kept as its text', async () => {
		const { trigger, secret } = await activeTrigger();

		const { items } = await trigger.deliver(jsonNotification(signed(secret), [NOTIFICATION]));

		expect(items).toEqual([
			{ rawBody: JSON.stringify([NOTIFICATION]), receivedAt: expect.stringMatching(ISO_TIME) },
		]);
	});
});

describe('rejected notifications', () => {
	test('no secret headers', async () => {
		const { trigger } = await activeTrigger();
		const warn = jest.spyOn(trigger.logger, 'warn');

		expectRejected(await trigger.deliver(jsonNotification({ 'content-type': 'application/json' })));

		expect(warn.mock.calls).toEqual([
			[
				'Candidate Verification Trigger: refused a notification (HTTP 401): neither x-api-key nor x-webhook-key was sent',
			],
		]);
	});

	test('a wrong key of the right length', async () => {
		const { trigger, secret } = await activeTrigger();
		const wrong = secret.slice(0, -1) + (secret.endsWith('0') ? '1' : '0');

		expectRejected(await trigger.deliver(jsonNotification(signed(wrong))));
	});

	test('the key in one header and another value in the other; the log names the wrong header, never a value', async () => {
		const { trigger, secret } = await activeTrigger();
		const warn = jest.spyOn(trigger.logger, 'warn');
		const other = 'f'.repeat(64);

		expectRejected(
			await trigger.deliver(jsonNotification({ 'x-api-key': secret, 'x-webhook-key': other })),
		);

		expect(warn.mock.calls).toEqual([
			[
				'Candidate Verification Trigger: refused a notification (HTTP 401): x-webhook-key does not hold the secret',
			],
		]);
		expect(JSON.stringify(warn.mock.calls)).not.toContain(secret);
		expect(JSON.stringify(warn.mock.calls)).not.toContain(other);
	});

	test.each([
		['x-api-key', 'x-webhook-key'],
		['x-webhook-key', 'x-api-key'],
	])('the key in %s and %s present but empty: the empty one is wrong', async (holder, empty) => {
		const { trigger, secret } = await activeTrigger();
		const warn = jest.spyOn(trigger.logger, 'warn');

		expectRejected(await trigger.deliver(jsonNotification({ [holder]: secret, [empty]: '' })));

		expect(warn.mock.calls).toEqual([
			[
				`Candidate Verification Trigger: refused a notification (HTTP 401): ${empty} does not hold the secret`,
			],
		]);
	});

	test('one header only, and wrong: the log names it and the one not sent', async () => {
		const { trigger, secret } = await activeTrigger();
		const warn = jest.spyOn(trigger.logger, 'warn');
		const wrong = secret.slice(0, -1) + (secret.endsWith('0') ? '1' : '0');

		expectRejected(await trigger.deliver(jsonNotification({ 'x-webhook-key': wrong })));

		expect(warn.mock.calls).toEqual([
			[
				'Candidate Verification Trigger: refused a notification (HTTP 401): x-webhook-key does not hold the secret; x-api-key was not sent',
			],
		]);
		expect(JSON.stringify(warn.mock.calls)).not.toContain(wrong);
	});

	test('a key of another length is rejected without comparing unequal buffers', async () => {
		const { trigger, secret } = await activeTrigger();
		const compare = jest.spyOn(crypto, 'timingSafeEqual');

		expectRejected(await trigger.deliver(jsonNotification(signed(`${secret}00`))));
		expectRejected(await trigger.deliver(jsonNotification(signed(secret.slice(0, 32)))));

		expect((await trigger.deliver(jsonNotification(signed(secret)))).items).toHaveLength(1);

		expect(compare).toHaveBeenCalled();
		for (const [a, b] of compare.mock.calls) {
			expect((a as Buffer).length).toBe((b as Buffer).length);
		}
	});

	test.each([
		['beside the other header, which holds the secret', true],
		['alone', false],
	])('a header repeated as a list (%s) is present and wrong', async (_, withOther) => {
		const { trigger, secret } = await activeTrigger();
		const warn = jest.spyOn(trigger.logger, 'warn');

		expectRejected(
			await trigger.deliver({
				headers: { 'x-api-key': [secret, secret], ...(withOther && { 'x-webhook-key': secret }) },
				body: NOTIFICATION,
			}),
		);

		expect(warn.mock.calls[0][0]).toMatch(/\(HTTP 401\): x-api-key does not hold the secret/);
	});

	test('no registration in static data', async () => {
		const trigger = new TriggerHarness();

		expectRejected(await trigger.deliver(jsonNotification(signed('a'.repeat(64)))));
		expectRejected(await trigger.deliver(jsonNotification(signed(''))));
	});

	test('the old secret after deactivation', async () => {
		const { trigger, secret } = await activeTrigger();
		await trigger.deactivate();

		expectRejected(await trigger.deliver(jsonNotification(signed(secret))));
	});

	test('the secret of the previous activation after re-activation', async () => {
		const { trigger, secret } = await activeTrigger();
		await trigger.deactivate();
		await trigger.activate();

		expectRejected(await trigger.deliver(jsonNotification(signed(secret))));
	});
});

describe('test listen and production keep their own secrets', () => {
	test('each URL accepts only its own secret', async () => {
		const { trigger, secret: productionSecret } = await activeTrigger();
		await trigger.listenForTestEvent();
		const testSecret = String(currentService().requests.at(-1)!.body.apiKey);

		expect(
			(await trigger.deliver(jsonNotification(signed(testSecret)), { test: true })).items,
		).toHaveLength(1);
		expect((await trigger.deliver(jsonNotification(signed(productionSecret)))).items).toHaveLength(
			1,
		);
		expectRejected(
			await trigger.deliver(jsonNotification(signed(productionSecret)), { test: true }),
		);
		expectRejected(await trigger.deliver(jsonNotification(signed(testSecret))));
	});
});
