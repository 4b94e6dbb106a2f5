import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { acceptedBeforeStop } from '../../nodes/CandidateVerification/engine/messages';
import { outputJson, runActionNode } from '../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../harness/service-mock';

const FORM_ID = 'form-1';
const CANDIDATE_PATH = `/verification/api/1.0/ekyc-forms/${FORM_ID}/diy-candidate`;
const NOTHING_SENT =
	'Nothing was sent to the Candidate Verification Service for any item. Fix these items and run again, or set Settings → On Error to Continue to send the valid items.';

const createProfile: INodeParameters = {
	resource: 'profile',
	operation: 'create',
	formId: FORM_ID,
	name: '={{ $json.name }}',
	gender: '={{ $json.gender }}',
	additionalFields: { email: '={{ $json.email }}' },
};

const rows = (count: number, override: Record<number, IDataObject> = {}) =>
	Array.from({ length: count }, (_, index) => ({
		name: `Candidate ${index}`,
		gender: 'Female',
		email: `c${index}@example.com`,
		...(override[index] ?? {}),
	}));

/** The service answers each candidate with TXN-<n>, <n> taken from the name. */
function acceptEveryCandidate(scope: ReturnType<typeof mockService>['scope'], times: number) {
	scope
		.post(CANDIDATE_PATH)
		.times(times)
		.reply(200, (_uri, body) =>
			success({ transactionId: `TXN-${String((body as { name: string }).name).split(' ')[1]}` }),
		);
}

describe('All-or-nothing: one invalid item sends no request for any item', () => {
	enableMockedNetwork();

	it('Profile → Create, 5 items with item 2 invalid: 0 requests, the error names item 2 and its field', async () => {
		const { scope, requests } = mockService();
		acceptEveryCandidate(scope, 5);

		const result = await runActionNode({
			items: rows(5, { 2: { gender: 'Femme' } }),
			parameters: createProfile,
		});

		expect(requests).toHaveLength(0);
		expect(result.error?.message).toBe(
			'Invalid "Gender" in item 2: "Femme" is not one of Male, Female, Other',
		);
		expect(result.error?.description).toBe(NOTHING_SENT);
		expect(result.run.status).toBe('error');
	});

	it('lists every invalid item and every invalid field, two bad fields of one item included', async () => {
		const { scope, requests } = mockService();
		acceptEveryCandidate(scope, 5);

		const result = await runActionNode({
			items: rows(5, { 1: { gender: 'X', email: 'not-an-email' }, 3: { name: '' } }),
			parameters: createProfile,
		});

		expect(requests).toHaveLength(0);
		expect(result.error?.message).toBe('3 invalid fields in items 1, 3');
		expect(result.error?.description).toBe(
			[
				'- Invalid "Gender" in item 1: "X" is not one of Male, Female, Other',
				'- Invalid "Email" in item 1: "not-an-email" is not an email address',
				'- Invalid "Candidate Name" in item 3: it is required and is empty',
				NOTHING_SENT,
			].join('\n'),
		);
	});

	it('holds with Request Options → Batching (1 item per batch, a pause between batches)', async () => {
		const { scope, requests } = mockService();
		acceptEveryCandidate(scope, 4);

		const result = await runActionNode({
			items: rows(4, { 3: { email: 'nope' } }),
			parameters: {
				...createProfile,
				requestOptions: { batching: { batch: { batchSize: 1, batchInterval: 30 } } },
			},
		});

		expect(requests).toHaveLength(0);
		expect(result.error?.message).toBe('Invalid "Email" in item 3: "nope" is not an email address');
	});

	it('with batching and valid items, every item is still sent once', async () => {
		const { scope, requests } = mockService();
		acceptEveryCandidate(scope, 3);

		const result = await runActionNode({
			items: rows(3),
			parameters: {
				...createProfile,
				requestOptions: { batching: { batch: { batchSize: 2, batchInterval: 20 } } },
			},
		});

		expect(result.error).toBeUndefined();
		expect(requests.map((request) => (request.body as IDataObject).name)).toEqual([
			'Candidate 0',
			'Candidate 1',
			'Candidate 2',
		]);
		expect(outputJson(result).map((json) => json.transactionId)).toEqual([
			'TXN-0',
			'TXN-1',
			'TXN-2',
		]);
	});

	it.each<[string, INodeParameters, IDataObject[], string]>([
		[
			'Verification → Submit',
			{
				resource: 'verification',
				operation: 'submit',
				transactionId: '={{ $json.txn }}',
				verificationName: 'bgv-police-clearance-certificate',
				fileUrl: '={{ $json.file }}',
			},
			[
				{ txn: 'TXN-0', file: 'https://f/0.pdf' },
				{ txn: 'TXN-1', file: '' },
				{ txn: 'TXN-2', file: 'https://f/2.pdf' },
			],
			'Invalid "Certificate File URL" in item 1: it is required and is empty',
		],
		[
			'Form → Create',
			{
				resource: 'form',
				operation: 'create',
				name: '={{ $json.name }}',
				purpose: { __rl: true, mode: 'id', value: 'p-1' },
				checks: ['pan'],
				visibility: '={{ $json.visibility }}',
			},
			[
				{ name: 'A', visibility: 'private' },
				{ name: 'B', visibility: 'secret' },
				{ name: 'C', visibility: 'public' },
			],
			'Invalid "Visibility" in item 1: "secret" is not one of public, private',
		],
		[
			'Form → Create (checks and purpose from the item)',
			{
				resource: 'form',
				operation: 'create',
				name: 'Hires',
				purpose: { __rl: true, mode: 'id', value: '={{ $json.purpose }}' },
				checks: '={{ $json.checks }}',
				skippableChecks: '={{ $json.skippable }}',
				visibility: 'private',
			},
			[
				{ purpose: 'p-1', checks: ['pan', 'gst'], skippable: ['gst'] },
				{ purpose: 'p-1', checks: ['pan'], skippable: ['gst'] },
				{ purpose: 'p-1', checks: ['upi'], skippable: [] },
			],
			'Invalid "Checks the Candidate May Skip" in item 1: gst is not one of the form\'s checks',
		],
		[
			'Webhook Config → Create',
			{
				resource: 'webhookConfig',
				operation: 'create',
				endpoint: '={{ $json.endpoint }}',
				apiKey: 'secret-1',
			},
			[
				{ endpoint: 'https://a.example/hook' },
				{ endpoint: 'not a url' },
				{ endpoint: 'https://c.example/hook' },
			],
			'Invalid "Endpoint" in item 1: "not a url" is not an absolute http(s) URL',
		],
		[
			'Webhook Config → Update',
			{
				resource: 'webhookConfig',
				operation: 'update',
				configId: '={{ $json.id }}',
				endpoint: 'https://a.example/hook',
				apiKey: 'secret-1',
			},
			[{ id: 'cfg-0' }, { id: '' }, { id: 'cfg-2' }],
			'Invalid "Configuration ID" in item 1: it is required and is empty',
		],
		[
			'File → Upload',
			{ resource: 'file', operation: 'upload', binaryPropertyName: '={{ $json.field }}' },
			[
				{
					field: 'data',
					__files: { data: { base64: 'JVBERi0=', fileName: 'a.pdf', mimeType: 'application/pdf' } },
				},
				{ field: 'data' },
				{
					field: 'data',
					__files: { data: { base64: 'JVBERi0=', fileName: 'c.pdf', mimeType: 'application/pdf' } },
				},
			],
			'Invalid "Input Binary Field" in item 1: the input item has no binary field "data"',
		],
	])('%s: item 1 of 3 invalid sends nothing', async (_operation, parameters, items, message) => {
		const { scope, requests } = mockService();
		const accepted = success({ transactionId: 'T', _id: 'F', id: 'W', fileUrl: 'U' });
		scope.post(/.*/).times(3).reply(200, accepted);
		scope.put(/.*/).times(3).reply(200, accepted);

		const result = await runActionNode({ items, parameters });

		expect(requests).toHaveLength(0);
		expect(result.error?.message).toBe(message);
	});
});

describe('On Error = Continue: valid items go through, each invalid one carries its own error', () => {
	enableMockedNetwork();

	it('pairs every output with its input item', async () => {
		const { scope, requests } = mockService();
		acceptEveryCandidate(scope, 3);

		const result = await runActionNode({
			continueOnFail: true,
			items: rows(5, { 1: { gender: 'X', email: 'bad' }, 3: { gender: '' } }),
			parameters: createProfile,
		});

		expect(result.error).toBeUndefined();
		expect(requests.map((request) => (request.body as IDataObject).name)).toEqual([
			'Candidate 0',
			'Candidate 2',
			'Candidate 4',
		]);
		expect(result.items.map(({ json, pairedItem }) => ({ json, pairedItem }))).toEqual([
			{
				json: { transactionId: 'TXN-0', formId: FORM_ID, name: 'Candidate 0' },
				pairedItem: { item: 0 },
			},
			{
				// Each of its problems listed with it, as the error shows them.
				json: {
					error: '2 invalid fields in item 1',
					description:
						'- Invalid "Gender" in item 1: "X" is not one of Male, Female, Other\n- Invalid "Email" in item 1: "bad" is not an email address',
				},
				pairedItem: { item: 1 },
			},
			{
				json: { transactionId: 'TXN-2', formId: FORM_ID, name: 'Candidate 2' },
				pairedItem: { item: 2 },
			},
			{
				json: {
					error:
						'Invalid "Gender" in item 3: it is required and is empty (one of Male, Female, Other)',
				},
				pairedItem: { item: 3 },
			},
			{
				json: { transactionId: 'TXN-4', formId: FORM_ID, name: 'Candidate 4' },
				pairedItem: { item: 4 },
			},
		]);
	});
});

describe('On Error = Continue with Request Options → Batching', () => {
	enableMockedNetwork();

	it('sends the valid items batch by batch; the invalid one carries its error', async () => {
		const { scope, requests } = mockService();
		acceptEveryCandidate(scope, 3);

		const result = await runActionNode({
			continueOnFail: true,
			items: rows(4, { 1: { email: 'bad' } }),
			parameters: {
				...createProfile,
				requestOptions: { batching: { batch: { batchSize: 1, batchInterval: 30 } } },
			},
		});

		expect(result.error).toBeUndefined();
		expect(requests).toHaveLength(3);
		expect(outputJson(result)).toEqual([
			{ transactionId: 'TXN-0', formId: FORM_ID, name: 'Candidate 0' },
			{ error: 'Invalid "Email" in item 1: "bad" is not an email address' },
			{ transactionId: 'TXN-2', formId: FORM_ID, name: 'Candidate 2' },
			{ transactionId: 'TXN-3', formId: FORM_ID, name: 'Candidate 3' },
		]);
	});
});

describe('A rejection mid-batch with On Error = Stop loses nothing', () => {
	enableMockedNetwork();

	it('the error names the items the service had already accepted, with their transaction IDs', async () => {
		const { scope } = mockService();
		scope
			.post(CANDIDATE_PATH)
			.times(4)
			.reply(200, (_uri, body) => {
				const name = String((body as { name: string }).name);
				return name === 'Candidate 2'
					? { code: -1, message: '"mobile" is already registered' }
					: success({ transactionId: `TXN-${name.split(' ')[1]}` });
			});

		const result = await runActionNode({ items: rows(4), parameters: createProfile });

		expect(result.error?.message).toBe(
			'Add a candidate to a form was rejected by the Candidate Verification Service: "mobile" is already registered',
		);
		expect(result.error?.description).toBe(
			[
				'- "mobile" is already registered',
				'(HTTP 200, code -1)',
				acceptedBeforeStop([
					[0, 'TXN-0'],
					[1, 'TXN-1'],
					[3, 'TXN-3'],
				]),
			].join('\n'),
		);
	});

	it('Form → Create names the accepted forms by _id', async () => {
		const { scope } = mockService();
		scope
			.post('/verification/api/1.0/ekyc-forms')
			.times(2)
			.reply(200, (_uri, body) =>
				(body as { name: string }).name === 'B'
					? { code: -1, message: 'duplicate name' }
					: success({ _id: 'form-A', name: 'A' }),
			);

		const result = await runActionNode({
			items: [{ name: 'A' }, { name: 'B' }],
			parameters: {
				resource: 'form',
				operation: 'create',
				name: '={{ $json.name }}',
				purpose: { __rl: true, mode: 'id', value: 'p-1' },
				checks: ['pan'],
			},
		});

		expect(result.error?.description).toContain(acceptedBeforeStop([[0, 'form-A']]));
	});
});
