/**
 * The action node, run by n8n-core's WorkflowExecute, against the sandbox server (a faithful local
 * implementation of the contract) instead of nock: proves that what the node sends is what the
 * service accepts, end to end through one candidate's life.
 */
// eslint-disable-next-line @n8n/community-nodes/no-restricted-imports -- test code run by jest, never published
import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { outputJson, runActionNode } from '../harness/run-node';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createSandbox } = require('../../sandbox/server') as {
	createSandbox: (options: { apiKey: string; orgId: string; pages?: 'current' }) => Sandbox;
};

interface Sandbox {
	listen(port?: number): Promise<{ baseUrl: string }>;
	close(): Promise<void>;
	sampleFileUrl: string;
	baseUrl: string;
	state: { deliveries: Array<{ endpoint: string; payload: IDataObject }> };
	requests: Array<{ method: string; path: string; headers: IDataObject; body: unknown }>;
	waitForDeliveries(count: number, timeoutMs?: number): Promise<IDataObject[]>;
}

// eslint-disable-next-line @n8n/community-nodes/no-hardcoded-secrets -- a made-up key for a fake service
const API_KEY = 'integration-key-7d1e';
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

async function run(parameters: INodeParameters, items: IDataObject[] = [{}], typeVersion?: number) {
	const result = await runActionNode({ parameters, items, credentials, typeVersion });
	if (result.error) throw new Error(`${result.error.message}\n${result.error.description ?? ''}`);
	return result;
}

const address = {
	address: {
		line1: '12 MG Road',
		vtc: 'Indiranagar',
		district: 'Bengaluru Urban',
		state: 'Karnataka',
		pincode: '560038',
		country: 'India',
	},
};

describe('a candidate from form to report, against the sandbox', () => {
	it('runs every operation and the sandbox accepts each request', async () => {
		const purposes = await run({ resource: 'purpose', operation: 'getAll' });
		const bgv = purposes.items.find((item) => item.json.name === 'BGV')!.json;

		const form = await run({
			resource: 'form',
			operation: 'create',
			name: 'Integration hires',
			purpose: bgv._id as string,
			checks: ['bgv-employment', 'bgv-degree'],
			skippableChecks: ['bgv-degree'],
			userPaymentRequired: false,
			visibility: 'private',
			additionalFields: { expiry: '2030-01-01T00:00:00Z' },
		});
		const stored = form.items[0].json;
		expect(stored).toMatchObject({
			name: 'Integration hires',
			purpose: bgv._id,
			expiry: 1893456000,
			type: 'diy',
			archived: false,
			verificationList: [
				{ name: 'bgv-employment', mode: 'manual', skipAllowed: false },
				{ name: 'bgv-degree', mode: 'manual', skipAllowed: true, marksheetRequired: false },
			],
		});

		const profiles = await run(
			{
				resource: 'profile',
				operation: 'create',
				formId: stored._id as string,
				name: '={{ $json.name }}',
				gender: '={{ $json.gender }}',
				additionalFields: { dob: '={{ $json.dob }}', email: '={{ $json.email }}' },
			},
			[
				{ name: 'Asha Verma', gender: 'Female', dob: '1994-05-17', email: 'asha@example.com' },
				{ name: 'Ravi Kumar', gender: 'Male', dob: '03/11/1990', email: '' },
			],
		);
		const [asha, ravi] = profiles.items.map((item) => item.json);
		expect(asha.transactionId).toEqual(expect.any(String));
		expect(ravi.transactionId).not.toBe(asha.transactionId);
		const sent = sandbox.requests.filter((request) => request.path.endsWith('/diy-candidate'));
		expect(sent.map((request) => request.body)).toEqual([
			{
				name: 'Asha Verma',
				gender: 'Female',
				email: 'asha@example.com',
				verificationFields: { dob: '17-05-1994' },
			},
			{ name: 'Ravi Kumar', gender: 'Male', verificationFields: { dob: '03-11-1990' } },
		]);

		const upload = await run(
			{
				resource: 'file',
				operation: 'upload',
				binaryPropertyName: 'data',
				fileCategory: 'bgv-employment',
			},
			[
				{
					__files: {
						data: {
							base64: Buffer.from('%PDF-1.4\n% offer letter\n%%EOF\n').toString('base64'),
							fileName: 'offer.pdf',
							mimeType: 'application/pdf',
						},
					},
				},
			],
		);
		const { fileUrl } = upload.items[0].json;
		expect(fileUrl).toEqual(expect.stringContaining('/private-files/'));

		const submissions: Array<[string, INodeParameters]> = [
			[
				'bgv-employment',
				{
					employmentDocumentType: 'appointmentletter',
					nameAsPerEmployerRecords: 'Asha Verma',
					employerName: 'Acme',
					joiningDate: '2021-04-01',
					lastWorkingDate: '31-03-2024',
					documentUrl: fileUrl as string,
				},
			],
			[
				'bgv-cibil',
				{ pan: 'ABCDE1234F', documentUrl: fileUrl as string, permanentAddress: address },
			],
			['bgv-criminal', { currentAddress: address, permanentAddress: address }],
			['bgv-police-clearance-certificate', { fileUrl: fileUrl as string }],
			['pan', { data: '{"pan": "ABCDE1234F", "name": "Asha Verma"}' }],
		];
		for (const [verificationName, fields] of submissions) {
			const submitted = await run({
				resource: 'verification',
				operation: 'submit',
				transactionId: asha.transactionId as string,
				verificationName,
				...fields,
			});
			expect(submitted.items[0].json).toEqual({
				transactionId: asha.transactionId,
				verificationName,
				submitted: true,
			});
		}

		const status = await run({
			resource: 'transaction',
			operation: 'getStatus',
			transactionId: asha.transactionId as string,
		});
		expect(status.items[0].json).toMatchObject({
			transactionId: asha.transactionId,
			state: 'IN_PROGRESS',
		});
		const check = await run({
			resource: 'transaction',
			operation: 'getCheckStatus',
			transactionId: asha.transactionId as string,
			verificationName: 'bgv-employment',
		});
		expect(check.items[0].json).toMatchObject({ state: 'IN_PROGRESS' });

		const report = await run({
			resource: 'file',
			operation: 'download',
			url: status.items[0].json.report as string,
			binaryPropertyName: 'report',
		});
		expect(report.items[0].json).toMatchObject({ mimeType: 'application/pdf' });
		const bytes = await Container.get(BinaryDataService).getAsBuffer(
			report.items[0].binary!.report,
		);
		expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');

		const signed = await run({
			resource: 'file',
			operation: 'getSignedUrl',
			url: sandbox.sampleFileUrl,
		});
		const response = await fetch(signed.items[0].json.signedUrl as string);
		expect(response.status).toBe(200);
		expect(
			Buffer.from(await response.arrayBuffer())
				.subarray(0, 5)
				.toString(),
		).toBe('%PDF-');

		const config = await run({
			resource: 'webhookConfig',
			operation: 'create',
			endpoint: 'http://127.0.0.1:9/hook',
			apiKey: 'whsec-integration',
			description: 'integration',
		});
		const updated = await run({
			resource: 'webhookConfig',
			operation: 'update',
			configId: config.items[0].json.id as string,
			endpoint: 'http://127.0.0.1:9/hook2',
			// eslint-disable-next-line @n8n/community-nodes/no-hardcoded-secrets -- a made-up secret for the sandbox
			apiKey: 'whsec-integration-2',
		});
		expect(updated.items[0].json).toEqual({
			id: config.items[0].json.id,
			endpoint: 'http://127.0.0.1:9/hook2',
		});

		const apiRequests = sandbox.requests.filter((request) =>
			/^\/(verification|utility)\/api\//.test(request.path),
		);
		expect(apiRequests.length).toBeGreaterThan(15);
		expect(apiRequests.every((request) => request.headers['x-api-key'] === API_KEY)).toBe(true);
	});

	it('node version 2: the sandbox accepts every typed check and Get Check Status reads each by the name sent', async () => {
		const purposes = await run({ resource: 'purpose', operation: 'getAll' });
		const form = await run({
			resource: 'form',
			operation: 'create',
			name: 'Version 2 checks',
			purpose: purposes.items[0].json._id as string,
			checks: ['bgv-degree', 'bgv-police-verification', 'bgv-local-address-digital'],
			userPaymentRequired: false,
			visibility: 'private',
		});
		const profile = await run(
			{
				resource: 'profile',
				operation: 'create',
				formId: form.items[0].json._id as string,
				name: 'Asha Verma',
				gender: 'Female',
				// Version 2 requires a Date of Birth.
				additionalFields: { dob: '17-05-1994' },
			},
			[{}],
			2,
		);
		const transactionId = profile.items[0].json.transactionId as string;
		const url = sandbox.sampleFileUrl;
		const identity = {
			nameAsPerDocument: 'Asha Verma',
			nameOfInstitute: 'Delhi University',
			registrationNumber: 'DU-1',
		};
		const submissions: Array<[string, INodeParameters]> = [
			[
				'bgv-degree',
				{
					...identity,
					level: 'GRADUATE',
					issueDate: '30-06-2016',
					documentUrl: url,
					marksheetUrl: url,
				},
			],
			['bgv-tenth', { ...identity, yearOfPassing: '2010', documentUrl: url }],
			['bgv-twelfth', { ...identity, issueDate: '2012-05-28', documentUrl: url }],
			['bgv-police-verification', { permanentAddress: address }],
			['bgv-police-clearance-certificate', { fileUrl: url }],
			['bgv-local-extended-address', { ...address.address }],
			['bgv-permanent-extended-address', { ...address.address }],
		];
		for (const [verificationName, fields] of submissions) {
			await run(
				{
					resource: 'verification',
					operation: 'submit',
					transactionId,
					verificationName,
					...fields,
				},
				[{}],
				2,
			);
			const check = await run(
				{ resource: 'transaction', operation: 'getCheckStatus', transactionId, verificationName },
				[{}],
				2,
			);
			expect(check.items[0].json).toMatchObject({ verificationName, state: 'IN_PROGRESS' });
		}
	});

	it('surfaces what the sandbox rejects as the provider message', async () => {
		const result = await runActionNode({
			credentials,
			parameters: {
				resource: 'verification',
				operation: 'submit',
				transactionId: 'TXN-does-not-exist',
				verificationName: 'pan',
				data: '{"pan": "ABCDE1234F"}',
			},
		});

		expect(result.error?.message).toMatch(
			/^Submit a check for a candidate was rejected by the Candidate Verification Service: .*not found/,
		);
		expect(result.error?.description).toContain('(HTTP 404, code -1)');
	});
});

describe('the insufficiency loop, against the sandbox', () => {
	const ENDPOINT = 'http://127.0.0.1:9/insufficiency-hook';

	/** Polls the deliveries to ENDPOINT until `count` concern this transaction (5 s deadline). */
	async function deliveriesOf(transactionId: string, count: number) {
		const deadline = Date.now() + 5000;
		for (;;) {
			const payloads = sandbox.state.deliveries
				.filter((delivery) => delivery.endpoint === ENDPOINT)
				.map((delivery) => delivery.payload)
				.filter((payload) => payload.transactionId === transactionId);
			if (payloads.length >= count || Date.now() > deadline) return payloads;
			await sleep(20);
		}
	}

	it('raise → Get Check Status shows it → Upload → Resolve Insufficiency → the check is in progress again; raised and resolved notified', async () => {
		const purposes = await run({ resource: 'purpose', operation: 'getAll' });
		const form = await run({
			resource: 'form',
			operation: 'create',
			name: 'Insufficiency loop',
			purpose: purposes.items[0].json._id as string,
			checks: ['bgv-degree'],
			userPaymentRequired: false,
			visibility: 'private',
		});
		const profile = await run({
			resource: 'profile',
			operation: 'create',
			formId: form.items[0].json._id as string,
			name: 'Meera Iyer',
			gender: 'Female',
		});
		const transactionId = profile.items[0].json.transactionId as string;
		await run({
			resource: 'webhookConfig',
			operation: 'create',
			endpoint: ENDPOINT,
			apiKey: 'whsec-insufficiency',
		});

		const raised = await fetch(`${sandbox.baseUrl}/__sandbox/insufficiency`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				transactionId,
				verificationName: 'bgv-degree',
				insufficiencies: [{ label: 'Registration number', type: 'text' }],
			}),
		});
		expect(raised.status).toBe(200);

		const readCheck = () =>
			run({
				resource: 'transaction',
				operation: 'getCheckStatus',
				transactionId,
				verificationName: 'bgv-degree',
			});
		const insufficient = (await readCheck()).items[0].json;
		expect(insufficient).toMatchObject({
			state: 'INSUFFICIENT_DATA',
			verificationId: expect.stringMatching(/^[0-9a-f]{24}$/),
			insufficiencies: [
				{ insufficiencyId: expect.any(String), label: 'Registration number', type: 'text' },
			],
		});
		const [question] = insufficient.insufficiencies as IDataObject[];

		const upload = await run(
			{
				resource: 'file',
				operation: 'upload',
				binaryPropertyName: 'data',
				fileCategory: 'bgv-degree',
			},
			[
				{
					__files: {
						data: {
							base64: Buffer.from('%PDF-1.4\n% degree\n%%EOF\n').toString('base64'),
							fileName: 'degree.pdf',
							mimeType: 'application/pdf',
						},
					},
				},
			],
		);
		const fileUrl = upload.items[0].json.fileUrl as string;

		const resolved = await run({
			resource: 'verification',
			operation: 'resolveInsufficiency',
			transactionId,
			verificationId: insufficient.verificationId as string,
			answers: {
				answer: [{ insufficiencyId: question.insufficiencyId as string, value: '2012/0456789' }],
			},
			documents: {
				document: [
					{
						documentType: 'EducationalCertificates',
						fileName: 'degree.pdf',
						label: 'Degree Certificate',
						url: fileUrl,
					},
				],
			},
		});

		expect(resolved.items[0].json).toEqual({
			transactionId,
			verificationId: insufficient.verificationId,
			resolved: true,
		});
		expect(
			sandbox.requests.filter((request) => request.path.endsWith('/bgv/insufficiency')).at(-1)
				?.body,
		).toEqual({
			transactionId,
			orgId: 'org-int',
			subType: insufficient.verificationId,
			dataToUpload: {
				insufficiencyDataList: [
					{ insufficiencyId: question.insufficiencyId, value: '2012/0456789' },
				],
				documents: [
					{
						documentType: 'EducationalCertificates',
						fileType: 'Url',
						fileName: 'degree.pdf',
						document: { label: 'Degree Certificate', url: fileUrl },
					},
				],
			},
		});
		expect((await readCheck()).items[0].json).toMatchObject({
			state: 'IN_PROGRESS',
			insufficiencies: [],
		});
		// The notifications name the check by its ID, the verificationId Get Check Status outputs.
		expect(await deliveriesOf(transactionId, 2)).toEqual([
			{
				action: 'insufficiency-raised',
				transactionId,
				verificationId: insufficient.verificationId,
			},
			{
				action: 'insufficiency-resolved',
				transactionId,
				verificationId: insufficient.verificationId,
			},
		]);
	});
});

/**
 * Instant KYC (issue 34): the sandbox's instant checks accept exactly the check's own fields, so
 * these runs prove the node sends what the (strict) fake accepts, and reads its answers.
 */
async function runKyc(operation: string, fields: INodeParameters, items: IDataObject[] = [{}]) {
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
			const result = await runKyc(operation, fields as INodeParameters);

			expect(result.error).toBeUndefined();
			expect(outputJson(result)[0]).toMatchObject({ ...expected, reason: 'Success' });
		},
	);

	it('a negative result is an output: valid false with the reason', async () => {
		const result = await runKyc('verifyPan', { pan: 'ABCDE1234X' });

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
		const start = await runKyc('aadhaarStart', { redirectUrl: 'https://example.com/done' });
		const [{ transactionId, authUrl }] = outputJson(start);
		expect(typeof transactionId).toBe('string');

		const pending = await runKyc('aadhaarGetResult', {
			digiLockerTransactionId: transactionId as string,
		});
		expect(pending.error?.message).toContain(
			'Consent pending: the candidate has not completed DigiLocker authorisation',
		);

		// The candidate opens the consent link.
		expect((await fetch(String(authUrl))).status).toBe(200);

		const done = await runKyc(
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

describe('the answers where the provider’s current pages put them (the sandbox’s current pages mode)', () => {
	const current = createSandbox({ apiKey: API_KEY, orgId: 'org-int', pages: 'current' });
	let pages: ICredentialDataDecryptedObject;
	beforeAll(async () => {
		const { baseUrl } = await current.listen(0);
		pages = { ...credentials, stagingBaseUrl: baseUrl };
	});
	afterAll(async () => await current.close());

	const runOn = async (parameters: INodeParameters, items: IDataObject[] = [{}]) =>
		await runActionNode({ parameters, items, credentials: pages, typeVersion: 2 });

	/** A candidate of a form listing Employment and Police Verification (the address check). */
	async function candidate(): Promise<{ formId: string; transactionId: string }> {
		const purposes = await runOn({ resource: 'purpose', operation: 'getAll' });
		const form = await runOn({
			resource: 'form',
			operation: 'create',
			name: 'Current pages',
			purpose: purposes.items.find((item) => item.json.name === 'BGV')!.json._id as string,
			checks: ['bgv-employment', 'bgv-police-verification'],
			userPaymentRequired: false,
			visibility: 'private',
		});
		const formId = outputJson(form)[0]._id as string;
		const profile = await runOn({
			resource: 'profile',
			operation: 'create',
			formId,
			name: 'Asha Verma',
			gender: 'Female',
			additionalFields: { dob: '17-05-1994' },
		});
		expect(profile.error).toBeUndefined();
		return { formId, transactionId: outputJson(profile)[0].transactionId as string };
	}

	it('Get Status gives the page’s transaction (_id, form.id._id, category { id, name }); Get Check Status reads the data.data list, each item saying which name was read', async () => {
		const { formId, transactionId } = await candidate();

		const status = await runOn({ resource: 'transaction', operation: 'getStatus', transactionId });
		expect(outputJson(status)[0]).toMatchObject({
			_id: transactionId,
			form: { id: { _id: formId } },
			verificationList: [
				{ name: 'bgv-employment', category: { id: expect.any(String), name: 'employment' } },
				{ name: 'bgv-police-verification', category: { name: 'criminal' } },
			],
		});

		const check = await runOn({
			resource: 'transaction',
			operation: 'getCheckStatus',
			transactionId,
			verificationName: 'bgv-employment',
		});
		expect(check.error).toBeUndefined();
		expect(outputJson(check)).toEqual([
			expect.objectContaining({
				name: 'bgv-employment',
				state: 'NOT_STARTED',
				verificationId: expect.stringMatching(/^[0-9a-f]{24}$/),
				reportUrl: null,
				insufficiencies: [],
				readUnder: 'bgv-employment',
			}),
		]);
	});

	it('the police clearance certificate not found under its submission name is read under the form list’s name', async () => {
		const { transactionId } = await candidate();

		const check = await runOn({
			resource: 'transaction',
			operation: 'getCheckStatus',
			transactionId,
			verificationName: 'bgv-police-clearance-certificate',
		});

		expect(check.error).toBeUndefined();
		expect(outputJson(check)).toEqual([
			expect.objectContaining({
				name: 'bgv-police-verification',
				state: 'NOT_STARTED',
				readUnder: 'bgv-police-verification',
			}),
		]);
	});

	it('Verify GST: the page’s invalid GSTIN ({ message } under HTTP 200) is a negative result', async () => {
		const result = await runOn({
			resource: 'instantKyc',
			operation: 'verifyGst',
			gst: '27ABCDE1234F1ZX',
		});

		expect(result.error).toBeUndefined();
		expect(outputJson(result)).toEqual([{ valid: false, reason: 'Invalid GSTIN' }]);
	});

	it('Aadhaar Get Result before consent: the page’s code 1 refusal is a rejection with the service’s message', async () => {
		const start = await runOn({
			resource: 'instantKyc',
			operation: 'aadhaarStart',
			redirectUrl: 'https://example.com/done',
		});
		const pending = await runOn({
			resource: 'instantKyc',
			operation: 'aadhaarGetResult',
			digiLockerTransactionId: outputJson(start)[0].transactionId as string,
		});

		expect(pending.error?.message).toContain(
			'was rejected by the Candidate Verification Service: Consent pending: the candidate has not completed DigiLocker authorisation',
		);
		expect(pending.error?.description).toContain('(HTTP 400, code 1)');
	});
});
