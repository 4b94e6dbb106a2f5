import type { INodeParameters } from 'n8n-workflow';

import { failRequest } from '../harness/fail-request';
import { TEST_API_KEY, TEST_CREDENTIALS } from '../harness/credentials-helper';
import { DeduplicationStore } from '../harness/deduplication-store';
import { outputJson, runActionNode } from '../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../harness/service-mock';

const PATH = '/verification/api/1.0/bgv/insufficiency';
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const resolve = (fields: INodeParameters = {}): INodeParameters => ({
	resource: 'verification',
	operation: 'resolveInsufficiency',
	transactionId: '={{ $json.transactionId }}',
	verificationId: '={{ $json.verificationId }}',
	answers: {
		answer: [
			{ insufficiencyId: 'ins-1', value: '2012/0456789' },
			{ insufficiencyId: '={{ $json.second }}', value: 2012 },
		],
	},
	documents: {
		document: [
			{
				documentType: 'EducationalCertificates',
				fileName: 'degree.pdf',
				label: 'Degree Certificate',
				url: 'https://files.example/private/degree.pdf',
			},
		],
	},
	...fields,
});

const row = { transactionId: 'TXN-9', verificationId: '65a1b2c3d4e5f6a7b8c9d0e1', second: 'ins-2' };

const EXPECTED_BODY = {
	transactionId: 'TXN-9',
	orgId: 'org-123',
	subType: '65a1b2c3d4e5f6a7b8c9d0e1',
	dataToUpload: {
		insufficiencyDataList: [
			{ insufficiencyId: 'ins-1', value: '2012/0456789' },
			{ insufficiencyId: 'ins-2', value: '2012' },
		],
		documents: [
			{
				documentType: 'EducationalCertificates',
				fileType: 'Url',
				fileName: 'degree.pdf',
				document: { label: 'Degree Certificate', url: 'https://files.example/private/degree.pdf' },
			},
		],
	},
};

describe('Verification → Resolve Insufficiency (from the provider public documentation)', () => {
	enableMockedNetwork();

	it('posts transactionId, orgId (credential), subType and dataToUpload with answers and Url documents', async () => {
		const { scope, requests } = mockService();
		scope.post(PATH).reply(200, success());

		const result = await runActionNode({ items: [row], parameters: resolve() });

		expect(result.error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'POST', path: PATH });
		expect(requests[0].headers['x-api-key']).toBe(TEST_API_KEY);
		expect(requests[0].body).toEqual(EXPECTED_BODY);
		expect(result.items).toEqual([
			{
				json: { transactionId: 'TXN-9', verificationId: row.verificationId, resolved: true },
				pairedItem: { item: 0 },
			},
		]);
	});

	it('a node-level Organisation ID wins; answers only or documents only send the other list empty', async () => {
		const { scope, requests } = mockService();
		scope.post(PATH).times(2).reply(200, success());

		await runActionNode({
			items: [row],
			parameters: resolve({ orgId: 'org-node', documents: {} }),
		});
		await runActionNode({ items: [row], parameters: resolve({ answers: {} }) });

		expect(requests.map((request) => request.body)).toEqual([
			{
				...EXPECTED_BODY,
				orgId: 'org-node',
				dataToUpload: { ...EXPECTED_BODY.dataToUpload, documents: [] },
			},
			{
				...EXPECTED_BODY,
				dataToUpload: { ...EXPECTED_BODY.dataToUpload, insufficiencyDataList: [] },
			},
		]);
	});

	it('nothing to send, empty fields and no organisation ID: every problem named before anything leaves', async () => {
		const { requests } = mockService();

		const nothing = await runActionNode({
			items: [row],
			parameters: resolve({ answers: {}, documents: {} }),
		});
		const incomplete = await runActionNode({
			items: [{ ...row, verificationId: '' }],
			parameters: resolve({
				answers: { answer: [{ insufficiencyId: 'ins-1', value: '' }] },
				documents: {
					document: [{ documentType: 'Other', fileName: 'a.pdf', label: 'A', url: '' }],
				},
			}),
			credentials: { ...TEST_CREDENTIALS, orgId: '' },
		});

		expect(requests).toHaveLength(0);
		expect(nothing.error?.message).toBe(
			'Invalid "Answers or Documents" in item 0: there is no answer and no document to send',
		);
		expect(nothing.error?.description).toContain(
			'Add at least one answer (Insufficiency ID and Value) or one document (Documents).',
		);
		expect(incomplete.error?.message).toBe('4 invalid fields in item 0');
		for (const problem of [
			'Invalid "Verification ID" in item 0: it is required and is empty',
			'Invalid "Answer 1 → Value" in item 0: it is required and is empty',
			'Invalid "Document 1 → URL" in item 0: it is required and is empty',
			'Invalid "Organisation ID" in item 0: it is empty here and in the credential',
		]) {
			expect(incomplete.error?.description).toContain(problem);
		}
	});

	it('a refusal (code -1) names the operation and the service’s message', async () => {
		const { scope } = mockService();
		scope.post(PATH).reply(200, { code: -1, message: '"subType" is invalid' });

		const result = await runActionNode({ items: [row], parameters: resolve() });

		expect(result.error?.message).toBe(
			'Resolve an insufficiency of a check was rejected by the Candidate Verification Service: "subType" is invalid',
		);
	});

	it('is not retried after a reset: the service may have taken it', async () => {
		const { scope, requests } = mockService();
		scope.post(PATH).times(2).reply(200, success());
		const reset = failRequest(1, { code: 'ECONNRESET', message: 'socket hang up' });
		try {
			const result = await runActionNode({ items: [row], parameters: resolve() });

			expect(reset).toHaveBeenCalledTimes(1);
			expect(requests).toHaveLength(0);
			expect(result.error?.message).toBe(
				'Resolve an insufficiency of a check failed: the Candidate Verification Service closed the connection before answering',
			);
			expect(result.error?.description).toContain('the service may have');
		} finally {
			reset.mockRestore();
		}
	});

	it('is not retried after a timeout either', async () => {
		const { scope } = mockService();
		scope.post(PATH).times(2).reply(200, success());
		const timeout = failRequest(1, { code: 'ETIMEDOUT', message: 'timeout of 60000ms exceeded' });
		try {
			const result = await runActionNode({ items: [row], parameters: resolve() });

			expect(timeout).toHaveBeenCalledTimes(1);
			expect(result.error?.message).toContain('did not answer');
		} finally {
			timeout.mockRestore();
		}
	});

	it('duplicate protection: the same row in a later execution is not sent again; different answers are', async () => {
		const store = new DeduplicationStore();
		const { scope, requests } = mockService();
		scope.post(PATH).times(2).reply(200, success());

		await runActionNode({ items: [row], parameters: resolve(), deduplicationStore: store });
		const again = await runActionNode({
			items: [row],
			parameters: resolve(),
			deduplicationStore: store,
		});
		const corrected = await runActionNode({
			items: [{ ...row, second: 'ins-3' }],
			parameters: resolve(),
			deduplicationStore: store,
		});

		expect(requests).toHaveLength(2);
		expect(outputJson(again)).toEqual([
			{
				transactionId: 'TXN-9',
				verificationId: row.verificationId,
				resolved: true,
				alreadySent: true,
				sentAt: expect.stringMatching(ISO_TIME),
			},
		]);
		expect(outputJson(corrected)[0]).toEqual({
			transactionId: 'TXN-9',
			verificationId: row.verificationId,
			resolved: true,
		});
	});
});

describe('Transaction → Get Check Status: verificationId and insufficiencies', () => {
	enableMockedNetwork();

	const read = (credentials = TEST_CREDENTIALS, typeVersion = 1) =>
		runActionNode({
			credentials,
			typeVersion,
			parameters: {
				resource: 'transaction',
				operation: 'getCheckStatus',
				transactionId: 'TXN-1',
				verificationName: 'bgv-degree',
			},
		});

	it('the flat answer (the sandbox’s): subType as verificationId, insufficiencyData as insufficiencies', async () => {
		const insufficiencyData = [{ insufficiencyId: 'ins-1', label: 'Registration number' }];
		const check = {
			verificationName: 'bgv-degree',
			state: 'INSUFFICIENT_DATA',
			subType: '65a1b2c3d4e5f6a7b8c9d0e1',
			insufficiencyData,
		};
		const { scope } = mockService();
		scope
			.get('/verification/api/1.0/transactions/bgv-degree/info')
			.query({ orgId: 'org-123', txnId: 'TXN-1' })
			.reply(200, success(check));

		const result = await read();

		expect(outputJson(result)).toEqual([
			{
				...check,
				reportUrl: null,
				verificationId: '65a1b2c3d4e5f6a7b8c9d0e1',
				insufficiencies: insufficiencyData,
			},
		]);
	});

	it('the public double-wrapped answer, version 2: one item per check of that name; [] and null when absent', async () => {
		const first = {
			name: 'bgv-degree',
			state: 'INSUFFICIENT_DATA',
			note: 'Registration number unreadable',
			subType: 'aaaaaaaaaaaaaaaaaaaaaaaa',
			insufficiencyData: [{ insufficiencyId: 'ins-7' }],
			documentList: [],
		};
		const second = { name: 'bgv-degree', state: 'COMPLETED' };
		const { scope } = mockService();
		scope
			.get('/verification/api/1.0/transactions/bgv-degree/info')
			.query(true)
			.reply(200, success({ data: [first, second] }))
			.get('/verification/api/1.0/transactions/bgv-degree/info')
			.query(true)
			.reply(200, success({ data: [first, second] }));

		// Version 1 keeps 0.3.1's output: the answer's data as sent ($json.data[0].state still reads it).
		const v1 = await read(TEST_CREDENTIALS, 1);
		expect(outputJson(v1)).toEqual([{ data: [first, second] }]);

		const result = await read(TEST_CREDENTIALS, 2);

		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
		expect(outputJson(result)).toEqual([
			{
				...first,
				reportUrl: null,
				verificationId: first.subType,
				insufficiencies: first.insufficiencyData,
				readUnder: 'bgv-degree',
			},
			{
				...second,
				reportUrl: null,
				verificationId: null,
				insufficiencies: [],
				readUnder: 'bgv-degree',
			},
		]);
	});
});
