/**
 * Instant KYC (issue 34): the action node against the sandbox, whose instant checks accept exactly
 * the check's own fields: proves the node sends what the (strict) fake accepts, and reads its answers.
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { outputJson, runActionNode } from '../harness/run-node';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createSandbox } = require('../../sandbox/server') as {
	createSandbox: (options: { apiKey: string; orgId: string }) => Sandbox;
};

interface Sandbox {
	listen(port?: number): Promise<{ baseUrl: string }>;
	close(): Promise<void>;
	requests: Array<{ method: string; path: string; body: unknown; status?: number }>;
}

// eslint-disable-next-line @n8n/community-nodes/no-hardcoded-secrets -- a made-up key for a fake service
const API_KEY = 'integration-key-kyc-5c2a';
const sandbox = createSandbox({ apiKey: API_KEY, orgId: 'org-int' });
let credentials: ICredentialDataDecryptedObject;

beforeAll(async () => {
	const { baseUrl } = await sandbox.listen(0);
	credentials = {
		apiKey: API_KEY,
		environment: 'staging',
		stagingBaseUrl: baseUrl,
		orgId: 'org-int',
	};
});
afterAll(async () => await sandbox.close());

async function run(operation: string, fields: INodeParameters, items: IDataObject[] = [{}]) {
	return await runActionNode({
		parameters: { resource: 'instantKyc', operation, ...fields },
		items,
		credentials,
	});
}

describe('Instant KYC against the sandbox', () => {
	it.each([
		['verifyPan', { pan: 'abcde1234f' }, { fullName: 'ASHA VERMA', valid: true }],
		[
			'verifyBankAccount',
			{ accountNumber: '5010 0123 4567 89', ifsc: 'hdfc0001234' },
			{ accountExists: true },
		],
		['verifyUpi', { upi: 'asha.verma@okhdfcbank' }, { nameAtBank: 'ASHA VERMA' }],
		[
			'verifyGst',
			{ gst: '27abcde1234f1z5' },
			{ gstin: '27ABCDE1234F1Z5', status: 'Active', valid: true },
		],
		['getEmploymentHistory', { uan: '100123456789' }, { valid: true }],
		['verifyDin', { din: '01234567' }, { directorData: { din: '01234567', name: 'ASHA VERMA' } }],
	])(
		'%s: the sandbox accepts the body and the output carries its answer',
		async (operation, fields, expected) => {
			const result = await run(operation, fields as INodeParameters);

			expect(result.error).toBeUndefined();
			expect(outputJson(result)[0]).toMatchObject({ ...expected, reason: 'Success' });
		},
	);

	it('a negative result is an output: valid false with the reason', async () => {
		const result = await run('verifyPan', { pan: 'ABCDE1234X' });

		expect(result.error).toBeUndefined();
		expect(outputJson(result)).toEqual([
			{
				pan: 'ABCDE1234X',
				status: 'INVALID',
				valid: false,
				reason: 'No record found for this PAN',
			},
		]);
	});

	it('Aadhaar: Start, Get Result before consent fails with the service’s message, after consent gives the photo as binary', async () => {
		const start = await run('aadhaarStart', { redirectUrl: 'https://example.com/done' });
		const [{ transactionId, authUrl }] = outputJson(start);
		expect(typeof transactionId).toBe('string');

		const pending = await run('aadhaarGetResult', {
			digiLockerTransactionId: transactionId as string,
		});
		expect(pending.error?.message).toContain(
			'Consent pending: the candidate has not completed DigiLocker authorisation',
		);

		// The candidate opens the consent link.
		expect((await fetch(String(authUrl))).status).toBe(200);

		const done = await run(
			'aadhaarGetResult',
			{ digiLockerTransactionId: '={{ $json.transactionId }}' },
			[{ transactionId }],
		);
		expect(done.error).toBeUndefined();
		expect(outputJson(done)[0]).toMatchObject({
			aadhaarId: 'XXXXXXXX1234',
			dateOfBirth: '17-05-1994',
			valid: true,
		});
		expect(outputJson(done)[0].photo).toBeUndefined();
		expect(done.items[0].binary?.photo).toMatchObject({
			mimeType: 'image/jpeg',
			fileName: 'aadhaar-photo.jpg',
		});
		expect(JSON.stringify(done.items)).not.toContain(API_KEY);
	});
});
