import { TEST_API_KEY, TEST_CREDENTIALS } from '../harness/credentials-helper';
import { outputJson, runActionNode } from '../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../harness/service-mock';

const purposes = [
	{
		_id: 'p-bgv',
		name: 'BGV',
		createdAt: '2024-01-01T00:00:00.000Z',
		updatedAt: '2024-01-01T00:00:00.000Z',
	},
	{
		_id: 'p-kyc',
		name: 'KYC',
		createdAt: '2024-01-01T00:00:00.000Z',
		updatedAt: '2024-01-01T00:00:00.000Z',
	},
];

describe('Purpose → Get Many (from the provider public documentation)', () => {
	enableMockedNetwork();

	it('outputs one item per purpose, each paired with the input item', async () => {
		const { scope, requests } = mockService();
		scope.get('/verification/api/1.0/purposes').reply(200, success({ total: 2, list: purposes }));

		const result = await runActionNode({
			parameters: { resource: 'purpose', operation: 'getAll', returnAll: true },
		});

		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'GET', path: '/verification/api/1.0/purposes' });
		expect(requests[0].headers['x-api-key']).toBe(TEST_API_KEY);
		expect(result.items).toEqual(purposes.map((json) => ({ json, pairedItem: { item: 0 } })));
	});

	it('Return All off keeps the first Limit purposes (default 50)', async () => {
		const many = Array.from({ length: 60 }, (_, index) => ({
			_id: `p-${index}`,
			name: `P${index}`,
		}));
		const { scope } = mockService();
		scope
			.get('/verification/api/1.0/purposes')
			.times(2)
			.reply(200, success({ total: 60, list: many }));

		const byDefault = await runActionNode({
			parameters: { resource: 'purpose', operation: 'getAll' },
		});
		const limited = await runActionNode({
			parameters: { resource: 'purpose', operation: 'getAll', returnAll: false, limit: 1 },
		});

		expect(outputJson(byDefault)).toEqual(many.slice(0, 50));
		expect(outputJson(limited)).toEqual([many[0]]);
	});
});

describe('Transaction (from the provider public documentation)', () => {
	enableMockedNetwork();

	const status = {
		transactionId: 'TXN-1',
		verificationList: [{ name: 'bgv-employment', state: 'IN_PROGRESS' }],
		state: 'IN_PROGRESS',
		report: 'https://files.cv.test/private/reports/TXN-1.pdf',
	};

	it('Get Status queries by org (from the credential) and transaction; outputs the data with the report URL', async () => {
		const { scope, requests } = mockService();
		scope
			.get('/verification/api/1.0/transactions/info')
			.query({ orgId: 'org-123', txnId: 'TXN-1' })
			.reply(200, success(status));

		const result = await runActionNode({
			parameters: { resource: 'transaction', operation: 'getStatus', transactionId: 'TXN-1' },
		});

		expect(requests.map((request) => request.path)).toEqual([
			'/verification/api/1.0/transactions/info?orgId=org-123&txnId=TXN-1',
		]);
		expect(outputJson(result)).toEqual([status]);
	});

	it('Get Status on the current page (the transaction as _id, no transactionId): the ID asked is added, the answer kept', async () => {
		const current = {
			_id: 'TXN-1',
			form: { id: { _id: 'form-1' } },
			verificationList: [{ name: 'bgv-employment', state: 'IN_PROGRESS' }],
			state: 'IN_PROGRESS',
		};
		const { scope } = mockService();
		scope
			.get('/verification/api/1.0/transactions/info')
			.query({ orgId: 'org-123', txnId: 'TXN-1' })
			.reply(200, success(current));

		const result = await runActionNode({
			parameters: { resource: 'transaction', operation: 'getStatus', transactionId: 'TXN-1' },
		});

		expect(outputJson(result)).toEqual([{ ...current, transactionId: 'TXN-1' }]);
	});

	it('Get Check Status puts the check in the path; a node-level org ID wins over the credential', async () => {
		const check = {
			state: 'COMPLETED',
			note: null,
			request: {},
			response: {},
			documentList: [],
			reportData: null,
			reportUrl: 'u',
		};
		const { scope, requests } = mockService();
		scope
			.get('/verification/api/1.0/transactions/bgv-employment/info')
			.query({ orgId: 'org-node', txnId: 'TXN-1' })
			.reply(200, success(check));

		const result = await runActionNode({
			parameters: {
				resource: 'transaction',
				operation: 'getCheckStatus',
				transactionId: 'TXN-1',
				verificationName: 'bgv-employment',
				orgId: 'org-node',
			},
		});

		expect(requests).toHaveLength(1);
		// Every field of the answer unchanged, plus the check's ID and insufficiencies (none here).
		expect(outputJson(result)).toEqual([{ ...check, verificationId: null, insufficiencies: [] }]);
	});

	it('names the missing organisation ID before sending anything', async () => {
		const { requests } = mockService();

		const result = await runActionNode({
			parameters: { resource: 'transaction', operation: 'getStatus', transactionId: 'TXN-1' },
			credentials: { ...TEST_CREDENTIALS, orgId: '' },
		});

		expect(result.error?.message).toBe(
			'Invalid "Organisation ID" in item 0: it is empty here and in the credential',
		);
		expect(requests).toHaveLength(0);
	});
});

describe('Transaction → Get Check Status: reportUrl and the check’s other name (the provider’s pages)', () => {
	enableMockedNetwork();

	const CHECK = '/verification/api/1.0/transactions';
	const QUERY = 'orgId=org-1&txnId=TXN-1';
	const NOT_FOUND = { code: -1, message: 'Verification not found for this transaction' };

	const read = (verificationName: string, typeVersion = 2) =>
		runActionNode({
			parameters: {
				resource: 'transaction',
				operation: 'getCheckStatus',
				transactionId: 'TXN-1',
				verificationName,
				orgId: 'org-1',
			},
			typeVersion,
		});

	it('reportUrl: the older page’s own reportUrl kept; else the newer page’s first pdfServingUrl; else null', async () => {
		const older = { name: 'bgv-degree', state: 'COMPLETED', reportUrl: 'https://files/r-1.pdf' };
		const newer = {
			name: 'bgv-degree',
			state: 'COMPLETED',
			responseList: [
				{ data: {} },
				{ data: { eduvReport: { pdfServingUrl: 'https://files/eduv-1.pdf' } } },
				{ data: { eduvReport: { pdfServingUrl: 'https://files/eduv-2.pdf' } } },
			],
		};
		// The service's own field is never replaced, even when null and a pdfServingUrl is there.
		const ownNull = { ...newer, reportUrl: null };
		const none = { name: 'bgv-degree', state: 'IN_PROGRESS', responseList: [] };
		const { scope, requests } = mockService();
		scope
			.get(`${CHECK}/bgv-degree/info`)
			.query({ orgId: 'org-1', txnId: 'TXN-1' })
			.reply(200, success({ data: [older, newer, ownNull, none] }));

		const result = await read('bgv-degree');

		expect(requests.map((request) => request.path)).toEqual([`${CHECK}/bgv-degree/info?${QUERY}`]);
		const added = { verificationId: null, insufficiencies: [], readUnder: 'bgv-degree' };
		expect(outputJson(result)).toEqual([
			{ ...older, reportUrl: 'https://files/r-1.pdf', ...added },
			{ ...newer, reportUrl: 'https://files/eduv-1.pdf', ...added },
			{ ...ownNull, reportUrl: null, ...added },
			{ ...none, reportUrl: null, ...added },
		]);
	});

	it.each([
		// Version 2 sends the submission pages' name; the public samples read the form list's.
		[2, 'bgv-local-extended-address', 'bgv-local-address-digital'],
		[2, 'bgv-permanent-extended-address', 'bgv-permanent-address-digital'],
		[2, '={{ "bgv-local-address-digital" }}', 'bgv-local-extended-address'],
		[1, 'bgv-local-address-digital', 'bgv-local-extended-address'],
	])(
		'version %i, Check %s: not found (HTTP 404) → asked once under %s, whose answer is the output',
		async (typeVersion, check, other) => {
			const asked = check.replace(/^=\{\{ "(.*)" \}\}$/, '$1');
			const answer = { name: other, state: 'IN_PROGRESS', subType: 'aaaaaaaaaaaaaaaaaaaaaaaa' };
			const { scope, requests } = mockService();
			scope.get(`${CHECK}/${asked}/info`).query(true).reply(404, NOT_FOUND);
			scope
				.get(`${CHECK}/${other}/info`)
				.query({ orgId: 'org-1', txnId: 'TXN-1' })
				.reply(200, success(answer));

			const result = await read(check, typeVersion);

			expect(requests.map(({ method, path }) => ({ method, path }))).toEqual([
				{ method: 'GET', path: `${CHECK}/${asked}/info?${QUERY}` },
				{ method: 'GET', path: `${CHECK}/${other}/info?${QUERY}` },
			]);
			expect(requests[1].headers['x-api-key']).toBe(TEST_API_KEY);
			expect(result.error).toBeUndefined();
			// Version 2's readUnder says which name answered (version 1 keeps 0.3.1's output).
			expect(outputJson(result)).toEqual([
				{
					...answer,
					reportUrl: null,
					verificationId: 'aaaaaaaaaaaaaaaaaaaaaaaa',
					insufficiencies: [],
					...(typeVersion >= 2 ? { readUnder: other } : {}),
				},
			]);
		},
	);

	it.each([
		['a not-found refusal under HTTP 200 (code -1)', NOT_FOUND],
		['version 2: code 0 with an empty list (not found)', success({ data: [] })],
	])(
		'%s is also asked under the other name, and the item says which name was read',
		async (_what, notFound) => {
			const { scope, requests } = mockService();
			scope.get(`${CHECK}/bgv-local-extended-address/info`).query(true).reply(200, notFound);
			scope
				.get(`${CHECK}/bgv-local-address-digital/info`)
				.query(true)
				.reply(200, success({ name: 'bgv-local-address-digital', state: 'COMPLETED' }));

			const result = await read('bgv-local-extended-address');

			expect(requests.map((request) => request.path)).toEqual([
				`${CHECK}/bgv-local-extended-address/info?${QUERY}`,
				`${CHECK}/bgv-local-address-digital/info?${QUERY}`,
			]);
			expect(result.error).toBeUndefined();
			expect(outputJson(result)).toEqual([
				{
					name: 'bgv-local-address-digital',
					state: 'COMPLETED',
					reportUrl: null,
					verificationId: null,
					insufficiencies: [],
					readUnder: 'bgv-local-address-digital',
				},
			]);
		},
	);

	it('version 2: the police clearance certificate not found under its submission name is read under the form list’s name, and the item says so', async () => {
		const { scope, requests } = mockService();
		scope.get(`${CHECK}/bgv-police-clearance-certificate/info`).query(true).reply(404, NOT_FOUND);
		scope
			.get(`${CHECK}/bgv-police-verification/info`)
			.query({ orgId: 'org-1', txnId: 'TXN-1' })
			.reply(200, success({ data: [{ name: 'bgv-police-verification', state: 'IN_PROGRESS' }] }));

		const result = await read('bgv-police-clearance-certificate');

		expect(requests.map((request) => request.path)).toEqual([
			`${CHECK}/bgv-police-clearance-certificate/info?${QUERY}`,
			`${CHECK}/bgv-police-verification/info?${QUERY}`,
		]);
		expect(outputJson(result)).toEqual([
			{
				name: 'bgv-police-verification',
				state: 'IN_PROGRESS',
				reportUrl: null,
				verificationId: null,
				insufficiencies: [],
				readUnder: 'bgv-police-verification',
			},
		]);
	});

	it('version 2: an empty list under a check with no other name is an error saying not found; version 1 keeps 0.3.1’s output', async () => {
		const { scope, requests } = mockService();
		scope
			.get(`${CHECK}/bgv-degree/info`)
			.times(2)
			.query(true)
			.reply(200, success({ data: [] }));

		const v2 = await read('bgv-degree');
		const v1 = await read('bgv-degree', 1);

		expect(requests).toHaveLength(2);
		expect(v2.items).toEqual([]);
		expect(v2.error?.message).toBe(
			'Get the status of one check found nothing: the Candidate Verification Service answered that bgv-degree is not found for this transaction (code 0, an empty list)',
		);
		expect(v2.error?.description).toBe(
			'Check the Check and the Transaction ID: Transaction → Get Status lists the checks the transaction has.',
		);
		expect(outputJson(v1)).toEqual([{ data: [] }]);
	});

	it.each([
		[2, 'bgv-police-verification'],
		[1, 'bgv-police-verification'],
		[1, 'bgv-police-clearance-certificate'],
		[2, 'bgv-degree'],
	])(
		'version %i, Check %s (no other name: Police Verification is not the certificate, and version 1 keeps 0.3.1’s reads): one request, its refusal',
		async (typeVersion, check) => {
			const { scope, requests } = mockService();
			scope.get(`${CHECK}/${check}/info`).query(true).reply(404, NOT_FOUND);

			const result = await read(check, typeVersion);

			expect(requests.map((request) => request.path)).toEqual([`${CHECK}/${check}/info?${QUERY}`]);
			expect(result.error?.message).toBe(
				'Get the status of one check was rejected by the Candidate Verification Service: Verification not found for this transaction',
			);
			// Asked under no other name (nock records only the requests it matched).
			expect(result.error?.description).toBe(
				'- Verification not found for this transaction\n(HTTP 404, code -1)',
			);
		},
	);

	it('not found under both names: the first name’s refusal, saying the other was asked too', async () => {
		const { scope, requests } = mockService();
		scope.get(`${CHECK}/bgv-local-extended-address/info`).query(true).reply(404, NOT_FOUND);
		scope
			.get(`${CHECK}/bgv-local-address-digital/info`)
			.query(true)
			.reply(404, { code: -1, message: 'No such check' });

		const result = await read('bgv-local-extended-address');

		expect(requests.map((request) => request.path)).toEqual([
			`${CHECK}/bgv-local-extended-address/info?${QUERY}`,
			`${CHECK}/bgv-local-address-digital/info?${QUERY}`,
		]);
		expect(result.error?.message).toBe(
			'Get the status of one check was rejected by the Candidate Verification Service: Verification not found for this transaction',
		);
		expect(result.error?.description).toBe(
			'- Verification not found for this transaction\n(HTTP 404, code -1)\nNot found under bgv-local-address-digital either.',
		);
	});

	it('another refusal of the first name is not asked again under the other name', async () => {
		const { scope, requests } = mockService();
		scope
			.get(`${CHECK}/bgv-local-extended-address/info`)
			.query(true)
			.reply(400, { code: -1, message: 'orgId is invalid' });

		const result = await read('bgv-local-extended-address');

		expect(requests).toHaveLength(1);
		expect(result.error?.message).toBe(
			'Get the status of one check was rejected by the Candidate Verification Service: orgId is invalid',
		);
	});
});
