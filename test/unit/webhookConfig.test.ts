import { TEST_API_KEY } from '../harness/credentials-helper';
import { outputJson, runActionNode } from '../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../harness/service-mock';

// eslint-disable-next-line @n8n/community-nodes/no-hardcoded-secrets -- a made-up secret for a fake service
const WEBHOOK_SECRET = 'whsec-5e1f0c9a77d24b1c';

const config = {
	endpoint: 'https://n8n.example.com/webhook/abc/webhook',
	apiKey: WEBHOOK_SECRET,
	description: 'ATS sync',
};

describe('Webhook Config', () => {
	enableMockedNetwork();

	it('Create posts endpoint, secret and description; outputs the configuration ID without the secret', async () => {
		const { scope, requests } = mockService();
		scope.post('/verification/api/1.0/webhook-config').reply(200, success({ id: 'cfg-1' }));

		const result = await runActionNode({
			parameters: { resource: 'webhookConfig', operation: 'create', ...config },
		});

		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({
			method: 'POST',
			path: '/verification/api/1.0/webhook-config',
		});
		expect(requests[0].headers['x-api-key']).toBe(TEST_API_KEY);
		expect(requests[0].body).toEqual(config);
		expect(outputJson(result)).toEqual([{ id: 'cfg-1', endpoint: config.endpoint }]);
		expect(JSON.stringify(result.items)).not.toContain(WEBHOOK_SECRET);
	});

	it('Update puts to the configuration ID and leaves an empty description out', async () => {
		const { scope, requests } = mockService();
		scope
			.put('/verification/api/1.0/webhook-config/cfg%2F1')
			.reply(200, { code: 0, message: 'Success' });

		const result = await runActionNode({
			parameters: {
				resource: 'webhookConfig',
				operation: 'update',
				configId: 'cfg/1',
				...config,
				description: '',
			},
		});

		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({
			method: 'PUT',
			path: '/verification/api/1.0/webhook-config/cfg%2F1',
		});
		expect(requests[0].body).toEqual({ endpoint: config.endpoint, apiKey: WEBHOOK_SECRET });
		expect(outputJson(result)).toEqual([{ id: 'cfg/1', endpoint: config.endpoint }]);
	});

	it.each([
		[
			{ endpoint: 'n8n.example.com/hook' },
			'Invalid "Endpoint" in item 0: "n8n.example.com/hook" is not an absolute http(s) URL',
		],
		[
			{ endpoint: 'ftp://n8n.example.com/hook' },
			'Invalid "Endpoint" in item 0: "ftp://n8n.example.com/hook" is not an absolute http(s) URL',
		],
		[{ apiKey: '={{ "" }}' }, 'Invalid "Webhook Secret" in item 0: it is required and is empty'],
	])('rejects %j without a request', async (override, message) => {
		const { requests } = mockService();

		const result = await runActionNode({
			parameters: { resource: 'webhookConfig', operation: 'create', ...config, ...override },
		});

		expect(result.error?.message).toBe(message);
		expect(requests).toHaveLength(0);
	});

	it('a rejected configuration does not echo the secret in what the error says', async () => {
		const { scope } = mockService();
		scope.post('/verification/api/1.0/webhook-config').reply(400, {
			code: -1,
			message: '"endpoint" must be a valid uri',
		});

		const result = await runActionNode({
			parameters: { resource: 'webhookConfig', operation: 'create', ...config },
		});

		expect(result.error?.message).toBe(
			'Create a webhook configuration was rejected by the Candidate Verification Service: "endpoint" must be a valid uri',
		);
		// n8n attaches the node (with its parameters, as stored in the workflow) to every node error;
		// what the error itself says must not repeat the secret, and the API key appears nowhere.
		// eslint-disable-next-line @typescript-eslint/no-unused-vars -- destructured only to leave it out of the rest
		const { node: _node, ...errorOwnFields } = JSON.parse(JSON.stringify(result.error)) as Record<
			string,
			unknown
		>;
		expect(JSON.stringify(errorOwnFields)).not.toContain(WEBHOOK_SECRET);
		expect(JSON.stringify(result.error)).not.toContain(TEST_API_KEY);
	});
});
