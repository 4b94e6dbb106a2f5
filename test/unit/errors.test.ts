import nock from 'nock';
import type { INode } from 'n8n-workflow';

import { networkError } from '../../nodes/shared/transport/errors';

import { TEST_API_KEY, TEST_CREDENTIALS } from '../harness/credentials-helper';
import { runActionNode, type NodeRunResult } from '../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../harness/service-mock';

const PURPOSES = '/verification/api/1.0/purposes';
const listPurposes = { resource: 'purpose', operation: 'getAll' };
/** The node's own retries of transient failures, without their default pauses. */
const quickRetries = { requestOptions: { retryWait: 1 } };
const node = { name: 'Candidate Verification', parameters: {} } as unknown as INode;

function expectNoKey(result: NodeRunResult) {
	const serialized = JSON.stringify({ error: result.error, items: result.items, run: result.run });
	expect(serialized).not.toContain(TEST_API_KEY);
}

describe('Provider failures become node errors', () => {
	enableMockedNetwork();

	it.each([200, 400, 422, 500])(
		'code -1 under HTTP %i: message names the operation, description lists each problem',
		async (status) => {
			const { scope } = mockService();
			scope
				.get(PURPOSES)
				.reply(status, { code: -1, message: '"orgId" is invalid/"limit" must be a number' });

			const result = await runActionNode({ parameters: listPurposes });

			expect(result.error?.name).toBe('NodeApiError');
			expect(result.error?.message).toBe(
				'Get many purposes was rejected by the Candidate Verification Service: "orgId" is invalid (and 1 more)',
			);
			expect(result.error?.description).toBe(
				`- "orgId" is invalid\n- "limit" must be a number\n(HTTP ${status}, code -1)`,
			);
			expect((result.error as unknown as { httpCode: string }).httpCode).toBe(String(status));
			expectNoKey(result);
		},
	);

	it('an HTML 502 from a gateway, after the retries of a read', async () => {
		const { scope, requests } = mockService();
		scope.get(PURPOSES).times(3).reply(502, '<html><body><h1>502 Bad Gateway</h1></body></html>', {
			'content-type': 'text/html',
		});

		const result = await runActionNode({ parameters: { ...listPurposes, ...quickRetries } });

		expect(requests).toHaveLength(3);
		expect(result.error?.message).toBe(
			'Get many purposes failed: the Candidate Verification Service answered HTTP 502 with a body that is not JSON',
		);
		expect(result.error?.description).toBe('Body starts with: 502 Bad Gateway');
		expectNoKey(result);
	});

	it('a JSON 500 without the envelope, and an empty 503', async () => {
		const { scope } = mockService();
		scope.get(PURPOSES).reply(500, { error: 'boom' });
		scope.get(PURPOSES).times(3).reply(503, '');

		const json = await runActionNode({ parameters: { ...listPurposes, ...quickRetries } });
		const empty = await runActionNode({ parameters: { ...listPurposes, ...quickRetries } });

		expect(json.error?.message).toBe(
			'Get many purposes failed: the Candidate Verification Service answered HTTP 500 without a response envelope (no numeric "code")',
		);
		expect(json.error?.description).toBe('Body: {"error":"boom"}');
		expect(empty.error?.message).toBe(
			'Get many purposes failed: the Candidate Verification Service answered HTTP 503 with an empty body',
		);
	});

	it('a timeout (Request Options → Timeout), after the node’s own retries', async () => {
		const { scope, requests } = mockService();
		scope
			.get(PURPOSES)
			.times(3)
			.delay(2000)
			.reply(200, success({ total: 0, list: [] }));

		const result = await runActionNode({
			parameters: { ...listPurposes, requestOptions: { timeout: 100, retryWait: 1 } },
		});

		expect(result.error?.name).toBe('NodeApiError');
		expect(requests).toHaveLength(3);
		// 3 × 100 ms waited out, and the pauses of 1 and 2 ms between the attempts.
		expect(result.error?.message).toBe(
			'Get many purposes failed: the Candidate Verification Service did not answer within 100 ms, 3 attempts over 303 ms',
		);
		expect(result.error?.description).toContain('Raise Request Options → Timeout');
		expectNoKey(result);
	});

	it('a timeout after retries at the defaults says the total time and the attempts', () => {
		const timedOut = Object.assign(new Error('timeout of 60000ms exceeded'), {
			code: 'ECONNABORTED',
		});
		const error = networkError(node, 'Get the status of a transaction', timedOut, {
			timeout: 60_000,
			attempts: 3,
			spentMs: 3 * 60_000 + 1000 + 2000,
		});
		const single = networkError(node, 'Get the status of a transaction', timedOut, {
			timeout: 60_000,
		});

		expect(error.message).toBe(
			'Get the status of a transaction failed: the Candidate Verification Service did not answer within 60 s, 3 attempts over 3 min 3 s',
		);
		expect(single.message).toBe(
			'Get the status of a transaction failed: the Candidate Verification Service did not answer within 60 s',
		);
	});

	it('a refused connection', async () => {
		nock.enableNetConnect('127.0.0.1');
		const result = await runActionNode({
			parameters: { ...listPurposes, ...quickRetries },
			credentials: { ...TEST_CREDENTIALS, stagingBaseUrl: 'http://127.0.0.1:9' },
		});

		expect(result.error?.name).toBe('NodeApiError');
		expect(result.error?.message).toBe(
			'Get many purposes failed: the Candidate Verification Service refused the connection',
		);
		expect(result.error?.description).toBe(
			'Check the base URL of the credential and that the service is up. (ECONNREFUSED)',
		);
		expectNoKey(result);
	});
});

describe('Continue on fail', () => {
	enableMockedNetwork();

	const PATH = '/verification/api/1.0/ekyc-forms/form-1/diy-candidate';
	const parameters = {
		resource: 'profile',
		operation: 'create',
		formId: 'form-1',
		name: '={{ $json.name }}',
		gender: '={{ $json.gender }}',
	};

	it('good items go through; the invalid and the rejected item carry their error, each paired with its input', async () => {
		const { scope, requests } = mockService();
		scope
			.post(PATH, (body: { name: string }) => body.name === 'Asha')
			.reply(200, success({ transactionId: 'TXN-A' }));
		scope
			.post(PATH, (body: { name: string }) => body.name === 'Rejected')
			.reply(200, { code: -1, message: '"name" contains invalid characters' });
		scope
			.post(PATH, (body: { name: string }) => body.name === 'Ravi')
			.reply(200, success({ transactionId: 'TXN-R' }));

		const result = await runActionNode({
			continueOnFail: true,
			items: [
				{ name: 'Asha', gender: 'Female' },
				{ name: 'Bad Gender', gender: 'Femme' },
				{ name: 'Rejected', gender: 'Male' },
				{ name: 'Ravi', gender: 'Male' },
			],
			parameters,
		});

		expect(result.error).toBeUndefined();
		expect(requests.map((request) => (request.body as { name: string }).name).sort()).toEqual([
			'Asha',
			'Ravi',
			'Rejected',
		]);
		expect(result.items.map(({ json, pairedItem }) => ({ json, pairedItem }))).toEqual([
			{ json: { transactionId: 'TXN-A', formId: 'form-1', name: 'Asha' }, pairedItem: { item: 0 } },
			{
				json: { error: 'Invalid "Gender" in item 1: "Femme" is not one of Male, Female, Other' },
				pairedItem: { item: 1 },
			},
			{
				json: {
					error:
						'Add a candidate to a form was rejected by the Candidate Verification Service: "name" contains invalid characters',
				},
				pairedItem: { item: 2 },
			},
			{ json: { transactionId: 'TXN-R', formId: 'form-1', name: 'Ravi' }, pairedItem: { item: 3 } },
		]);
		expectNoKey(result);
	});

	it('without continue on fail an invalid item stops the node before anything is sent', async () => {
		const { scope, requests } = mockService();
		scope.post(PATH).reply(200, success({ transactionId: 'TXN-A' }));

		const result = await runActionNode({
			items: [
				{ name: 'Asha', gender: 'Female' },
				{ name: 'Bad Gender', gender: 'Femme' },
			],
			parameters,
		});

		expect(result.error?.message).toBe(
			'Invalid "Gender" in item 1: "Femme" is not one of Male, Female, Other',
		);
		expect(result.run.status).toBe('error');
		expect(requests).toHaveLength(0);
	});
});
