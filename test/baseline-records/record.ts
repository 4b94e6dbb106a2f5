/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code run by jest, never published: it writes fixtures */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { DeduplicationStore } from '../harness/deduplication-store';
import { outputJson, runActionNode } from '../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../harness/service-mock';

/**
 * Writes the baseline-records fixtures: every protected operation, on node versions 1 and 2, with and
 * without a Duplicate Key, run once through a service that accepts every row; each fixture keeps what
 * the deduplication store and the workflow's static data hold afterwards. Not a test of the suites
 * (no jest project matches this folder): scripts/record-baseline-records.js copies it into a worktree
 * of the commit to record (test/unit/, where `../harness` is that commit's harness) and runs it there
 * with CV_RECORD_TO set to the folder to write to.
 */
enableMockedNetwork();

const V = '/verification/api/1.0';
const named = (body: unknown) => String((body as IDataObject).name);

interface Operation {
	name: string;
	path: string;
	parameters: INodeParameters;
	items: IDataObject[];
	/** The service's answer to each accepted row. */
	reply: (body: unknown) => object;
}

const operations: Operation[] = [
	{
		name: 'form-create',
		path: `${V}/ekyc-forms`,
		parameters: {
			resource: 'form',
			operation: 'create',
			name: '={{ $json.name }}',
			purpose: 'purpose-bgv',
			checks: ['bgv-employment'],
			skippableChecks: [],
			userPaymentRequired: false,
			visibility: 'private',
		},
		items: [
			{ name: 'Engineering hires', key: 'FORM-A' },
			{ name: 'Sales hires', key: 'FORM-B' },
		],
		reply: (body) => success({ _id: `form-id-${named(body)}`, name: named(body) }),
	},
	{
		name: 'profile-create',
		path: `${V}/ekyc-forms/form-1/diy-candidate`,
		parameters: {
			resource: 'profile',
			operation: 'create',
			formId: 'form-1',
			name: '={{ $json.name }}',
			gender: 'Female',
			additionalFields: { dob: '={{ $json.dob }}' },
		},
		items: [
			{ name: 'Asha Verma', dob: '17-05-1994', key: 'EMP-1' },
			{ name: 'Ravi Kumar', dob: '02-01-1990', key: 'EMP-2' },
		],
		reply: (body) => success({ transactionId: `TXN-${named(body)}` }),
	},
	{
		name: 'webhook-config-create',
		path: `${V}/webhook-config`,
		parameters: {
			resource: 'webhookConfig',
			operation: 'create',
			endpoint: '={{ $json.endpoint }}',
			apiKey: 'made-up-webhook-secret',
			description: '={{ $json.description }}',
		},
		items: [
			{ endpoint: 'https://n8n.example.com/webhook/a', description: 'ATS A', key: 'HOOK-A' },
			{ endpoint: 'https://n8n.example.com/webhook/b', description: 'ATS B', key: 'HOOK-B' },
		],
		reply: (body) => success({ id: `cfg-${String((body as IDataObject).description)}` }),
	},
	{
		name: 'verification-submit',
		path: `${V}/bgv/diy`,
		parameters: {
			resource: 'verification',
			operation: 'submit',
			transactionId: '={{ $json.transactionId }}',
			verificationName: 'bgv-employment',
			employmentDocumentType: 'salaryslip',
			nameAsPerEmployerRecords: '={{ $json.name }}',
			employerName: 'Acme',
			joiningDate: '2020-01-01',
			lastWorkingDate: '2023-01-01',
			documentUrl: 'https://files.example/upload-1.pdf',
		},
		items: [
			{ transactionId: 'TXN-Asha Verma', name: 'Asha Verma', key: 'EMP-1' },
			{ transactionId: 'TXN-Ravi Kumar', name: 'Ravi Kumar', key: 'EMP-2' },
		],
		reply: () => success(),
	},
	{
		name: 'verification-resolve-insufficiency',
		path: `${V}/bgv/insufficiency`,
		parameters: {
			resource: 'verification',
			operation: 'resolveInsufficiency',
			transactionId: '={{ $json.transactionId }}',
			verificationId: 'bgv-employment',
			answers: { answer: [{ insufficiencyId: 'ins-1', value: '={{ $json.employer }}' }] },
		},
		items: [
			{ transactionId: 'TXN-Asha Verma', employer: 'Acme Ltd', key: 'EMP-1' },
			{ transactionId: 'TXN-Ravi Kumar', employer: 'Globex', key: 'EMP-2' },
		],
		reply: () => success(),
	},
];

const cases = operations.flatMap((operation) =>
	[1, 2].flatMap((typeVersion) =>
		[false, true].map((keyed) => ({ operation, typeVersion, keyed })),
	),
);

const folder = process.env.CV_RECORD_TO ?? '';
const writtenBy = process.env.CV_RECORD_COMMIT ?? '';

it.each(cases.map((each) => [each.operation.name, each.typeVersion, each.keyed, each] as const))(
	'%s, version %i, keyed %s: the service accepts both rows; writes the store and static data',
	async (name, typeVersion, keyed, { operation }) => {
		if (!folder || !writtenBy) throw new Error('set CV_RECORD_TO and CV_RECORD_COMMIT');
		const parameters: INodeParameters = {
			...operation.parameters,
			...(keyed ? { duplicateKey: '={{ $json.key }}' } : {}),
		};
		const store = new DeduplicationStore();
		const staticData: IDataObject = {};
		const { scope, requests } = mockService();
		scope
			.post(operation.path)
			.times(operation.items.length)
			.reply(200, (_uri, body) => operation.reply(body));

		const result = await runActionNode({
			items: operation.items,
			parameters,
			typeVersion,
			mode: 'trigger',
			deduplicationStore: store,
			staticData,
		});

		// Only a run the service accepted whole is a baseline record.
		expect(result.error).toBeUndefined();
		expect(requests).toHaveLength(operation.items.length);
		const outputs = outputJson(result);
		expect(outputs).toHaveLength(operation.items.length);
		mkdirSync(folder, { recursive: true });
		const fixture = {
			writtenBy,
			operation: name,
			typeVersion,
			keyed,
			mode: 'trigger',
			parameters,
			items: operation.items,
			requests: requests.map(({ method, path: sentTo, body }) => ({ method, path: sentTo, body })),
			outputs,
			rows: [...store.rows],
			staticData,
		};
		const file = `${name}-v${typeVersion}-${keyed ? 'keyed' : 'unkeyed'}.json`;
		writeFileSync(path.join(folder, file), `${JSON.stringify(fixture, null, '\t')}\n`);
	},
);
