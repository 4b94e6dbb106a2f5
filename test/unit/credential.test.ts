import { LoadOptionsContext } from 'n8n-core';
import type { INode } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import nock from 'nock';

import {
	CandidateVerificationApi,
	CREDENTIAL_BASE_URL,
} from '../../credentials/CandidateVerificationApi.credentials';
import { CandidateVerification } from '../../nodes/CandidateVerification/CandidateVerification.node';
import { baseUrlFromCredentials } from '../../nodes/CandidateVerification/shared/transport';
import { TEST_API_KEY, TEST_CREDENTIALS } from '../harness/credentials-helper';
import { ACTION_NODE_TYPE, createAdditionalData, nodeTypes } from '../harness/environment';
import { runActionNode } from '../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../harness/service-mock';

const node: INode = {
	id: '00000000-0000-4000-8000-000000000009',
	name: 'Candidate Verification',
	type: ACTION_NODE_TYPE,
	typeVersion: 1,
	position: [0, 0],
	parameters: { resource: 'form', operation: 'create' },
	credentials: { candidateVerificationApi: { id: 'cred-1', name: 'Candidate Verification' } },
};
const workflow = new Workflow({
	id: 'wf',
	nodes: [node],
	connections: {},
	nodeTypes,
	active: false,
});

describe('Credential candidateVerificationApi', () => {
	const credential = new CandidateVerificationApi();

	it('keeps the API key in a password field and sends it as x-api-key', () => {
		const apiKey = credential.properties.find((property) => property.name === 'apiKey');
		expect(apiKey?.typeOptions?.password).toBe(true);
		expect(credential.authenticate).toEqual({
			type: 'generic',
			properties: { headers: { 'x-api-key': '={{$credentials.apiKey}}' } },
		});
	});

	it('has no invented hosts: both base URLs start empty', () => {
		const defaults = credential.properties
			.filter((property) => property.name.endsWith('BaseUrl'))
			.map((property) => [property.name, property.default]);
		expect(defaults).toEqual([
			['stagingBaseUrl', ''],
			['productionBaseUrl', ''],
		]);
	});

	it.each([
		[
			{
				environment: 'staging',
				stagingBaseUrl: 'http://127.0.0.1:8790/',
				productionBaseUrl: 'https://p',
			},
			'http://127.0.0.1:8790',
		],
		[
			{
				environment: 'production',
				stagingBaseUrl: 'https://s',
				productionBaseUrl: 'https://api.example.com//',
			},
			'https://api.example.com',
		],
	])('resolves the base URL of the chosen environment (%j)', (credentials, expected) => {
		const resolved = workflow.expression.getSimpleParameterValue(
			node,
			CREDENTIAL_BASE_URL,
			'internal',
			{
				$credentials: credentials,
			},
		);
		expect(resolved).toBe(expected);
		expect(baseUrlFromCredentials(credentials)).toBe(expected);
	});

	it('tests with the read-only purposes list and fails the test on code -1', () => {
		expect(credential.test.request).toEqual({
			baseURL: CREDENTIAL_BASE_URL,
			url: '/verification/api/1.0/purposes',
			method: 'GET',
		});
		// n8n fails the credential test when the body's value at `key` equals `value`.
		expect(credential.test.rules).toEqual([
			{
				type: 'responseSuccessBody',
				properties: { key: 'code', value: -1, message: expect.stringContaining('code -1') },
			},
		]);
	});
});

describe('Environment switch', () => {
	enableMockedNetwork();

	it('sends requests to the production base URL when production is chosen', async () => {
		const scope = nock('https://production.cv.test', { reqheaders: { 'x-api-key': TEST_API_KEY } })
			.get('/verification/api/1.0/purposes')
			.reply(200, success({ total: 0, list: [] }));

		const result = await runActionNode({
			parameters: { resource: 'purpose', operation: 'getAll' },
			credentials: { ...TEST_CREDENTIALS, environment: 'production' },
		});

		expect(result.error).toBeUndefined();
		scope.done();
	});
});

describe('Purpose dropdown of Form → Create', () => {
	enableMockedNetwork();

	it('lists purposes by name with the _id as value, sorted', async () => {
		const { scope, requests } = mockService();
		scope.get('/verification/api/1.0/purposes').reply(
			200,
			success({
				total: 2,
				list: [
					{ _id: 'p-kyc', name: 'KYC' },
					{ _id: 'p-bgv', name: 'BGV' },
				],
			}),
		);
		const context = new LoadOptionsContext(workflow, node, createAdditionalData(), 'purpose');

		const options = await new CandidateVerification().methods.loadOptions.getPurposes.call(context);

		expect(options).toEqual([
			{ name: 'BGV', value: 'p-bgv' },
			{ name: 'KYC', value: 'p-kyc' },
		]);
		expect(requests[0].headers['x-api-key']).toBe(TEST_API_KEY);
	});

	it('shows the provider message when the list is refused', async () => {
		const { scope } = mockService();
		scope
			.get('/verification/api/1.0/purposes')
			.reply(401, { code: -1, message: 'Invalid or missing API key' });
		const context = new LoadOptionsContext(workflow, node, createAdditionalData(), 'purpose');

		await expect(
			new CandidateVerification().methods.loadOptions.getPurposes.call(context),
		).rejects.toThrow(
			'Get Purposes was rejected by the Candidate Verification Service: Invalid or missing API key',
		);
	});
});

describe('Node description', () => {
	const { description } = new CandidateVerification();

	// The subtitle's wording is checked in editor.test.ts, evaluated by n8n's expression engine.
	it('is usable as a tool, has a subtitle expression and themed icons', () => {
		expect(description.usableAsTool).toBe(true);
		expect(description.subtitle).toMatch(/^={{ .* }}$/);
		expect(description.icon).toEqual({
			light: 'file:../../icons/candidateVerification.svg',
			dark: 'file:../../icons/candidateVerification.dark.svg',
		});
	});

	it('offers every operation of the contract plus the documented extras', () => {
		const operations = description.properties
			.filter((property) => property.name === 'operation')
			.flatMap((property) =>
				(property.options as Array<{ value: string }>).map(
					(option) => `${property.displayOptions?.show?.resource?.[0]}:${option.value}`,
				),
			);
		expect(operations.sort()).toEqual(
			[
				'file:download',
				'file:getDownloadToken',
				'file:getSignedUrl',
				'file:upload',
				'form:create',
				'profile:create',
				'purpose:getAll',
				'transaction:getCheckStatus',
				'transaction:getStatus',
				'verification:submit',
				'webhookConfig:create',
				'webhookConfig:update',
			].sort(),
		);
	});
});
