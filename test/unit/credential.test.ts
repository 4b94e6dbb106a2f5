import { ExecuteContext, LoadOptionsContext, RoutingNode } from 'n8n-core';
import type { IDataObject, INode, INodeExecutionData, INodeType } from 'n8n-workflow';
import { createEmptyRunExecutionData, Workflow } from 'n8n-workflow';
import nock from 'nock';

import {
	CandidateVerificationApi,
	CREDENTIAL_BASE_URL,
} from '../../credentials/CandidateVerificationApi.credentials';
import { CandidateVerification } from '../../nodes/CandidateVerification/CandidateVerification.node';
import { RESOURCES } from '../../nodes/CandidateVerification/actions/router';
import { baseUrlFromCredentials } from '../../nodes/shared/transport';
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

	it('keeps the API key in a password field and sends it as x-api-key', async () => {
		const apiKey = credential.properties.find((property) => property.name === 'apiKey');
		expect(apiKey?.typeOptions?.password).toBe(true);
		// Applied the way n8n's CredentialsHelper applies a function authenticate.
		const options = await credential.authenticate(
			{ apiKey: 'key-1', environment: 'staging' },
			{ url: '/x', headers: { Accept: 'application/json' } },
		);
		expect(options).toEqual({
			url: '/x',
			headers: { Accept: 'application/json', 'x-api-key': 'key-1' },
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

	it('tests with the read-only purposes list', () => {
		expect(credential.test.request).toEqual({
			baseURL: CREDENTIAL_BASE_URL,
			url: '/verification/api/1.0/purposes',
			method: 'GET',
			json: true,
			disableFollowRedirect: true,
		});
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

describe('Purpose of Form → Create (resource locator, list searched through searchPurposes)', () => {
	enableMockedNetwork();
	const purposeList = success({
		total: 3,
		list: [
			{ _id: 'p-kyc', name: 'KYC' },
			{ _id: 'p-bgv', name: 'BGV' },
			{ _id: 'p-avail', name: 'Availing Service' },
		],
	});
	const searchPurposes = (filter?: string) =>
		new CandidateVerification().methods.listSearch.searchPurposes.call(
			new LoadOptionsContext(workflow, node, createAdditionalData(), 'purpose'),
			filter,
		);

	it('is a resource locator (list + ID) whose list mode calls a registered list search', () => {
		const { description, methods } = new CandidateVerification();
		const purpose = description.properties.find((property) => property.name === 'purpose');
		expect(purpose?.type).toBe('resourceLocator');
		expect(purpose?.default).toEqual({ mode: 'list', value: '' });
		expect(purpose?.modes?.map((mode) => [mode.name, mode.type])).toEqual([
			['list', 'list'],
			['id', 'string'],
		]);
		const listMethod = purpose?.modes?.[0].typeOptions?.searchListMethod as string;
		expect(Object.keys(methods.listSearch)).toEqual([listMethod]);
		// No options dropdown loads on its own when the node is added (before n8n sets the credential).
		const eagerLoaders = description.properties.filter(
			(property) => property.typeOptions?.loadOptionsMethod || property.typeOptions?.loadOptions,
		);
		expect(eagerLoaders).toEqual([]);
	});

	it('lists purposes by name with the _id as value, sorted, with the credential key', async () => {
		const { scope, requests } = mockService();
		scope.get('/verification/api/1.0/purposes').reply(200, purposeList);

		expect(await searchPurposes()).toEqual({
			results: [
				{ name: 'Availing Service', value: 'p-avail' },
				{ name: 'BGV', value: 'p-bgv' },
				{ name: 'KYC', value: 'p-kyc' },
			],
		});
		expect(requests).toHaveLength(1);
		expect(requests[0].method).toBe('GET');
		expect(requests[0].path).toBe('/verification/api/1.0/purposes');
		expect(requests[0].headers['x-api-key']).toBe(TEST_API_KEY);
	});

	it.each([
		['kY', [{ name: 'KYC', value: 'p-kyc' }]],
		['  service ', [{ name: 'Availing Service', value: 'p-avail' }]],
		['p-bg', [{ name: 'BGV', value: 'p-bgv' }]],
		['nothing like it', []],
	])('filters the list by name or ID (search %j)', async (filter, results) => {
		const { scope } = mockService();
		scope.get('/verification/api/1.0/purposes').reply(200, purposeList);

		expect(await searchPurposes(filter)).toEqual({ results });
	});

	it('fails with the provider message when the list is refused', async () => {
		const { scope } = mockService();
		scope
			.get('/verification/api/1.0/purposes')
			.reply(401, { code: -1, message: 'Invalid or missing API key' });

		await expect(searchPurposes()).rejects.toThrow(
			'Get Purposes was rejected by the Candidate Verification Service: Invalid or missing API key',
		);
	});

	it('fails with "Node does not have any credentials set" when called without a credential', async () => {
		// What n8n answered to the old options dropdown, loaded before the editor set the credential.
		const bare = { ...node, credentials: undefined };
		const context = new LoadOptionsContext(
			new Workflow({ id: 'wf', nodes: [bare], connections: {}, nodeTypes, active: false }),
			bare,
			createAdditionalData(),
			'purpose',
		);
		await expect(
			new CandidateVerification().methods.listSearch.searchPurposes.call(context),
		).rejects.toThrow('Node does not have any credentials set');
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

	it('offers every operation the resource modules declare, the contract’s and the documented extras among them', () => {
		const operations = description.properties
			.filter((property) => property.name === 'operation')
			.flatMap((property) =>
				(property.options as Array<{ value: string }>).map(
					(option) => `${property.displayOptions?.show?.resource?.[0]}:${option.value}`,
				),
			);
		const declared = Object.entries(RESOURCES).flatMap(([resource, { operations: ofResource }]) =>
			Object.keys(ofResource).map((operation) => `${resource}:${operation}`),
		);
		expect([...operations].sort()).toEqual(declared.sort());
		// A floor: a new operation or resource needs no edit here, a lost one fails.
		expect(operations).toEqual(
			expect.arrayContaining([
				'file:download',
				'file:getDownloadToken',
				'file:getSignedUrl',
				'file:upload',
				'form:create',
				'instantKyc:aadhaarGetResult',
				'instantKyc:aadhaarStart',
				'instantKyc:getEmploymentHistory',
				'instantKyc:verifyBankAccount',
				'instantKyc:verifyDin',
				'instantKyc:verifyGst',
				'instantKyc:verifyPan',
				'instantKyc:verifyUpi',
				'profile:create',
				'purpose:getAll',
				'transaction:getCheckStatus',
				'transaction:getStatus',
				'verification:resolveInsufficiency',
				'verification:submit',
				'webhookConfig:create',
				'webhookConfig:update',
			]),
		);
	});
});

/**
 * The credential test as n8n 2.41.1's CredentialsTester runs it (services/credentials-tester):
 * the test request as the routing of a one-property node through RoutingNode, then each
 * responseSuccessBody rule fails the test when the first item's value at `key` equals `value`.
 */
async function runCredentialTest(): Promise<{ status: 'OK' | 'Error'; message: string }> {
	const credentialType = new CandidateVerificationApi();
	const testNode: INode = {
		id: '00000000-0000-4000-8000-0000000000aa',
		name: 'Temp-Node',
		type: 'test.credentialTest',
		typeVersion: 1,
		position: [0, 0],
		parameters: { temp: '' },
		credentials: { [credentialType.name]: { id: 'cred-1', name: 'Candidate Verification' } },
	};
	const testNodeType = {
		description: {
			...new CandidateVerification().description,
			credentials: [{ name: credentialType.name, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: credentialType.test.request },
					default: '',
				},
			],
		},
	} as unknown as INodeType;
	const testWorkflow = new Workflow({
		nodes: [testNode],
		connections: {},
		active: false,
		nodeTypes: {
			getByName: () => testNodeType,
			getByNameAndVersion: () => testNodeType,
			getKnownTypes: () => ({}),
		},
	});
	const context = new ExecuteContext(
		testWorkflow,
		testNode,
		createAdditionalData(),
		'internal',
		createEmptyRunExecutionData(),
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node: testNode, data: {}, source: null },
		[],
	);
	const routingNode = new RoutingNode(context, testNodeType, {
		id: 'cred-1',
		name: 'Candidate Verification',
		type: credentialType.name,
		data: TEST_CREDENTIALS,
	});
	let response: INodeExecutionData[][];
	try {
		response = (await routingNode.runNode()) as INodeExecutionData[][];
	} catch (error) {
		return { status: 'Error', message: (error as Error).message };
	}
	for (const rule of credentialType.test.rules ?? []) {
		if (rule.type !== 'responseSuccessBody') continue;
		// n8n reads the key with lodash's get; the rules here use a top-level key.
		const json = response[0][0].json as unknown;
		const value =
			typeof json === 'object' && json !== null
				? (json as IDataObject)[rule.properties.key]
				: undefined;
		if (value === rule.properties.value) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}

describe('Credential test, run as n8n runs it', () => {
	enableMockedNetwork();
	const PURPOSES = '/verification/api/1.0/purposes';

	it('passes when the service answers its envelope with code 0', async () => {
		mockService()
			.scope.get(PURPOSES)
			.reply(200, success({ total: 0, list: [] }));
		expect(await runCredentialTest()).toEqual({ status: 'OK', message: 'Connection successful!' });
	});

	it('fails on code -1 (a refused key answered under HTTP 200)', async () => {
		mockService().scope.get(PURPOSES).reply(200, { code: -1, message: 'Invalid API key' });
		expect(await runCredentialTest()).toEqual({
			status: 'Error',
			message: 'The service rejected the API key or the request (code -1)',
		});
	});

	it.each([
		['an HTML page under HTTP 200', '<html><body>Welcome to nginx!</body></html>', 'text/html'],
		['JSON without the envelope under HTTP 200', { status: 'ok', version: 3 }, 'application/json'],
	])('fails on %s (a wrong base URL)', async (_answer, body, contentType) => {
		mockService().scope.get(PURPOSES).reply(200, body, { 'content-type': contentType });
		expect(await runCredentialTest()).toEqual({
			status: 'Error',
			message: expect.stringContaining('did not answer like the Candidate Verification Service'),
		});
	});

	it('fails on a redirect, without sending the key to where it points', async () => {
		mockService()
			.scope.get(PURPOSES)
			.reply(301, '', { Location: 'https://elsewhere.example/verification/api/1.0/purposes' });
		const elsewhere = nock('https://elsewhere.example')
			.get(/.*/)
			.reply(200, success({ total: 0, list: [] }));
		expect((await runCredentialTest()).status).toBe('Error');
		expect(elsewhere.isDone()).toBe(false);
	});

	it('fails on an HTTP error', async () => {
		mockService().scope.get(PURPOSES).reply(401, { code: -1, message: 'Invalid API key' });
		expect((await runCredentialTest()).status).toBe('Error');
	});
});
