import type { IDataObject } from 'n8n-workflow';

import { TEST_API_KEY } from '../harness/credentials-helper';
import { useFakeService, WEBHOOK_CONFIG_PATH } from './fake-service';
import {
	PRODUCTION_URL,
	TEST_URL,
	TriggerHarness,
	WORKFLOW_ID,
	WORKFLOW_NAME,
} from './trigger-harness';

const HEX_SECRET = /^[0-9a-f]{64,}$/;
const DESCRIPTION = `n8n workflow "${WORKFLOW_NAME}" (${WORKFLOW_ID})`;

const currentService = useFakeService();

describe('activation', () => {
	test('the first activation creates a configuration for the production URL with a fresh secret', async () => {
		const trigger = new TriggerHarness();

		await trigger.activate();

		expect(currentService().requests).toHaveLength(1);
		const [request] = currentService().requests;
		expect(request).toMatchObject({
			method: 'POST',
			path: WEBHOOK_CONFIG_PATH,
			apiKey: TEST_API_KEY,
		});
		expect(request.body).toEqual({
			endpoint: PRODUCTION_URL,
			apiKey: expect.stringMatching(HEX_SECRET),
			description: DESCRIPTION,
		});
		expect(trigger.staticData).toEqual({
			production: {
				configurationId: 'cfg-1',
				webhookUrl: PRODUCTION_URL,
				secret: request.body.apiKey,
			},
		});
	});

	test('a later activation updates the stored configuration with a new secret instead of creating one', async () => {
		const trigger = new TriggerHarness();
		await trigger.activate();
		const firstSecret = currentService().requests[0].body.apiKey;
		await trigger.deactivate();
		currentService().requests.length = 0;

		await trigger.activate();

		expect(currentService().requests).toHaveLength(1);
		const [request] = currentService().requests;
		expect(request).toMatchObject({
			method: 'PUT',
			path: `${WEBHOOK_CONFIG_PATH}/cfg-1`,
			apiKey: TEST_API_KEY,
		});
		expect(request.body).toEqual({
			endpoint: PRODUCTION_URL,
			apiKey: expect.stringMatching(HEX_SECRET),
			description: DESCRIPTION,
		});
		expect(request.body.apiKey).not.toBe(firstSecret);
		expect(trigger.staticData.production).toEqual({
			configurationId: 'cfg-1',
			webhookUrl: PRODUCTION_URL,
			secret: request.body.apiKey,
		});
	});

	test('ten activate/deactivate cycles leave exactly one configuration at the service', async () => {
		const trigger = new TriggerHarness();
		const activationSecrets: unknown[] = [];

		for (let cycle = 0; cycle < 10; cycle++) {
			await trigger.activate();
			activationSecrets.push((trigger.staticData.production as IDataObject).secret);
			await trigger.deactivate();
		}

		expect(currentService().byMethod('POST')).toHaveLength(1);
		expect([...currentService().configurations.keys()]).toEqual(['cfg-1']);
		expect(new Set(activationSecrets).size).toBe(10);
		for (const request of currentService().requests) {
			expect(request.path.startsWith(WEBHOOK_CONFIG_PATH)).toBe(true);
			expect(request.body.apiKey).toEqual(expect.stringMatching(HEX_SECRET));
		}
		expect(new Set(currentService().requests.map((request) => request.body.apiKey)).size).toBe(
			currentService().requests.length,
		);
		// Neither n8n nor anyone else knows the key the service holds now.
		expect(activationSecrets).not.toContain(currentService().configurations.get('cfg-1')!.apiKey);
		expect(trigger.staticData.production).toEqual({
			configurationId: 'cfg-1',
			webhookUrl: PRODUCTION_URL,
		});
	});

	test('an instance restart finds the live registration in static data and calls nothing', async () => {
		const trigger = new TriggerHarness();
		await trigger.activate();
		const before = trigger.staticData;

		await trigger.activate('init');

		expect(currentService().requests).toHaveLength(1);
		expect(trigger.staticData).toEqual(before);
	});

	test('a service error on create surfaces with the provider message and stores nothing', async () => {
		const trigger = new TriggerHarness();
		currentService().failNext(200, { code: -1, message: 'endpoint must be a valid uri' });

		await expect(trigger.activate()).rejects.toThrow(/endpoint must be a valid uri/);

		expect(trigger.staticData).toEqual({});
	});

	test('an HTTP error with the envelope on update surfaces and keeps the stored ID', async () => {
		const trigger = new TriggerHarness();
		await trigger.activate();
		await trigger.deactivate();
		currentService().failNext(500, { code: -1, message: 'Internal failure' });

		await expect(trigger.activate()).rejects.toThrow(/Internal failure/);

		expect(trigger.staticData.production).toEqual({
			configurationId: 'cfg-1',
			webhookUrl: PRODUCTION_URL,
		});
	});

	test('a remembered configuration the service no longer knows (404) is replaced by a new one', async () => {
		const trigger = new TriggerHarness();
		trigger.setStaticData({
			production: { configurationId: 'gone-1', webhookUrl: PRODUCTION_URL },
		});

		await trigger.activate();

		expect(currentService().requests.map((request) => `${request.method} ${request.path}`)).toEqual(
			[`PUT ${WEBHOOK_CONFIG_PATH}/gone-1`, `POST ${WEBHOOK_CONFIG_PATH}`],
		);
		expect(trigger.staticData.production).toEqual({
			configurationId: 'cfg-1',
			webhookUrl: PRODUCTION_URL,
			secret: currentService().requests[1].body.apiKey,
		});
	});

	test('a create answer without an ID is an error', async () => {
		const trigger = new TriggerHarness();
		currentService().failNext(200, { code: 0, message: 'Success', data: {} });

		await expect(trigger.activate()).rejects.toThrow(/returned no ID/);
		expect(trigger.staticData).toEqual({});
	});
});

describe('Existing Webhook Configuration ID', () => {
	test('activation adopts the given configuration instead of creating one', async () => {
		currentService().seed('existing-42', { endpoint: 'https://old.example/hook', apiKey: 'old' });
		const trigger = new TriggerHarness({ webhookConfigurationId: ' existing-42 ' });

		await trigger.activate();

		expect(currentService().byMethod('POST')).toHaveLength(0);
		expect(currentService().requests).toHaveLength(1);
		expect(currentService().requests[0]).toMatchObject({
			method: 'PUT',
			path: `${WEBHOOK_CONFIG_PATH}/existing-42`,
			body: { endpoint: PRODUCTION_URL, description: DESCRIPTION },
		});
		expect(currentService().configurations.get('existing-42')).toMatchObject({
			endpoint: PRODUCTION_URL,
		});
		expect(trigger.staticData.production).toMatchObject({ configurationId: 'existing-42' });
	});

	test('an ID the service does not know is an error, not a reason to create another', async () => {
		const trigger = new TriggerHarness({ webhookConfigurationId: 'typo-1' });

		await expect(trigger.activate()).rejects.toThrow(/Webhook configuration not found/);

		expect(currentService().byMethod('POST')).toHaveLength(0);
		expect(trigger.staticData).toEqual({});
	});

	test('changing the ID while a registration is stored moves activation to the new ID', async () => {
		currentService().seed('existing-7', { endpoint: 'https://old.example/hook', apiKey: 'old' });
		const trigger = new TriggerHarness();
		await trigger.activate();
		trigger.node.parameters.webhookConfigurationId = 'existing-7';

		expect(await trigger.checkExists()).toBe(false);
		await trigger.activate();

		expect(currentService().requests.map((request) => `${request.method} ${request.path}`)).toEqual(
			[`POST ${WEBHOOK_CONFIG_PATH}`, `PUT ${WEBHOOK_CONFIG_PATH}/existing-7`],
		);
		expect(trigger.staticData.production).toMatchObject({ configurationId: 'existing-7' });
	});
});

describe('checkExists', () => {
	test('is true for a stored ID, the current URL and a secret, without calling the service', async () => {
		const trigger = new TriggerHarness();
		trigger.setStaticData({
			production: { configurationId: 'cfg-9', webhookUrl: PRODUCTION_URL, secret: 'a'.repeat(64) },
		});

		expect(await trigger.checkExists()).toBe(true);
		expect(currentService().requests).toHaveLength(0);
	});

	test.each([
		['no static data', {}],
		[
			'no secret (deactivated)',
			{ production: { configurationId: 'cfg-9', webhookUrl: PRODUCTION_URL } },
		],
		[
			'registered for another URL',
			{
				production: {
					configurationId: 'cfg-9',
					webhookUrl: 'http://old-host:5678/webhook/x/webhook',
					secret: 'a'.repeat(64),
				},
			},
		],
		[
			'only a test registration',
			{ test: { configurationId: 'cfg-9', webhookUrl: TEST_URL, secret: 'a'.repeat(64) } },
		],
	])('is false with %s', async (_case, staticData) => {
		const trigger = new TriggerHarness();
		trigger.setStaticData(staticData);

		expect(await trigger.checkExists()).toBe(false);
		expect(currentService().requests).toHaveLength(0);
	});
});

describe('deactivation', () => {
	test('forgets the secret, keeps the ID and replaces the key at the service with an unknown one', async () => {
		const trigger = new TriggerHarness();
		await trigger.activate();
		const secret = currentService().requests[0].body.apiKey;

		expect(await trigger.deactivate()).toBe(true);

		expect(trigger.staticData).toEqual({
			production: { configurationId: 'cfg-1', webhookUrl: PRODUCTION_URL },
		});
		expect(currentService().requests).toHaveLength(2);
		const update = currentService().requests[1];
		expect(update).toMatchObject({
			method: 'PUT',
			path: `${WEBHOOK_CONFIG_PATH}/cfg-1`,
			apiKey: TEST_API_KEY,
			body: { endpoint: PRODUCTION_URL, description: `${DESCRIPTION}, inactive` },
		});
		expect(update.body.apiKey).toEqual(expect.stringMatching(HEX_SECRET));
		expect(update.body.apiKey).not.toBe(secret);
		expect(JSON.stringify(trigger.staticData)).not.toContain(String(update.body.apiKey));
	});

	test('a failing update does not block deactivation and is logged without secrets', async () => {
		const trigger = new TriggerHarness();
		await trigger.activate();
		const secret = String(currentService().requests[0].body.apiKey);
		const context = trigger.hookContext('internal', 'update', false);
		const warn = jest.spyOn(context.logger, 'warn');
		currentService().failNext(500, { code: -1, message: 'Service unavailable' });

		const deleted = await trigger.deactivate(context);

		expect(deleted).toBe(true);
		expect(trigger.staticData.production).toEqual({
			configurationId: 'cfg-1',
			webhookUrl: PRODUCTION_URL,
		});
		expect(warn).toHaveBeenCalledTimes(1);
		const [message] = warn.mock.calls[0];
		expect(message).toContain('cfg-1');
		expect(message).toContain('Service unavailable');
		expect(message).not.toContain(secret);
		expect(message).not.toContain(TEST_API_KEY);
	});

	test('without a registration there is nothing to do', async () => {
		const trigger = new TriggerHarness();

		expect(await trigger.deactivate()).toBe(true);
		expect(currentService().requests).toHaveLength(0);
		expect(trigger.staticData).toEqual({});
	});

	test('a second deactivation does not call the service again', async () => {
		const trigger = new TriggerHarness();
		await trigger.activate();
		await trigger.deactivate();

		expect(await trigger.deactivate()).toBe(true);
		expect(currentService().requests).toHaveLength(2);
	});
});

describe('listening for a test event', () => {
	test('uses its own configuration and leaves the active production one untouched', async () => {
		const trigger = new TriggerHarness();
		await trigger.activate();
		const production = trigger.staticData.production;

		await trigger.listenForTestEvent();

		expect(currentService().requests).toHaveLength(2);
		expect(currentService().requests[1]).toMatchObject({
			method: 'POST',
			path: WEBHOOK_CONFIG_PATH,
			body: { endpoint: TEST_URL, description: `${DESCRIPTION}, test listener` },
		});
		expect(currentService().configurations.get('cfg-1')).toMatchObject({
			endpoint: PRODUCTION_URL,
		});
		expect(currentService().configurations.get('cfg-2')).toMatchObject({ endpoint: TEST_URL });
		expect(trigger.staticData).toEqual({
			production,
			test: {
				configurationId: 'cfg-2',
				webhookUrl: TEST_URL,
				secret: currentService().requests[1].body.apiKey,
			},
		});

		expect(await trigger.stopListening()).toBe(true);

		expect(currentService().requests[2]).toMatchObject({
			method: 'PUT',
			path: `${WEBHOOK_CONFIG_PATH}/cfg-2`,
		});
		expect(trigger.staticData).toEqual({
			production,
			test: { configurationId: 'cfg-2', webhookUrl: TEST_URL },
		});
		expect(currentService().configurations.get('cfg-1')).toMatchObject({
			endpoint: PRODUCTION_URL,
		});
	});

	test('reuses the stored test configuration on the next listen', async () => {
		const trigger = new TriggerHarness();
		await trigger.listenForTestEvent();
		await trigger.stopListening();
		await trigger.listenForTestEvent();

		expect(currentService().requests.map((request) => `${request.method} ${request.path}`)).toEqual(
			[
				`POST ${WEBHOOK_CONFIG_PATH}`,
				`PUT ${WEBHOOK_CONFIG_PATH}/cfg-1`,
				`PUT ${WEBHOOK_CONFIG_PATH}/cfg-1`,
			],
		);
		expect(currentService().configurations.size).toBe(1);
		expect(trigger.staticData.production).toBeUndefined();
	});

	test('n8n starts test listens with empty static data: the Test Webhook Configuration ID option is reused', async () => {
		currentService().seed('test-cfg', { endpoint: 'https://old.example/hook', apiKey: 'old' });
		const parameters = { options: { testWebhookConfigurationId: 'test-cfg' } };

		for (let listen = 0; listen < 3; listen++) {
			const freshWorkflow = new TriggerHarness(parameters);
			await freshWorkflow.listenForTestEvent();
			await freshWorkflow.stopListening();
		}

		expect(currentService().byMethod('POST')).toHaveLength(0);
		expect(currentService().configurations.size).toBe(1);
		expect(
			currentService()
				.byMethod('PUT')
				.every((request) => request.path.endsWith('/test-cfg')),
		).toBe(true);
	});

	test('on a custom test endpoint the end of a test listen still touches only the test slot', async () => {
		const customTestUrl = TEST_URL.replace('/webhook-test/', '/hook-test/');
		const trigger = new TriggerHarness(
			{},
			{ webhookTestBaseUrl: 'http://localhost:5678/hook-test' },
		);
		await trigger.activate();
		await trigger.listenForTestEvent();
		const production = trigger.staticData.production;

		await trigger.stopListening();

		expect(trigger.staticData).toEqual({
			production,
			test: { configurationId: 'cfg-2', webhookUrl: customTestUrl },
		});
		expect(currentService().requests.map((request) => `${request.method} ${request.path}`)).toEqual(
			[
				`POST ${WEBHOOK_CONFIG_PATH}`,
				`POST ${WEBHOOK_CONFIG_PATH}`,
				`PUT ${WEBHOOK_CONFIG_PATH}/cfg-2`,
			],
		);
	});

	test('a test configuration ID equal to the production one is refused', async () => {
		const trigger = new TriggerHarness({
			webhookConfigurationId: 'same',
			options: { testWebhookConfigurationId: 'same' },
		});

		await expect(trigger.listenForTestEvent()).rejects.toThrow(
			/must differ from the production one/,
		);
		expect(currentService().requests).toHaveLength(0);
	});

	test('the Existing Webhook Configuration ID is never used for a test listen', async () => {
		const trigger = new TriggerHarness({ webhookConfigurationId: 'prod-cfg' });

		await trigger.listenForTestEvent();

		expect(currentService().requests).toHaveLength(1);
		expect(currentService().requests[0]).toMatchObject({
			method: 'POST',
			body: { endpoint: TEST_URL },
		});
	});
});
