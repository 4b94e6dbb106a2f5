import { outputJson, runActionNode } from '../../../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../../../harness/service-mock';
import { TEST_API_KEY } from '../../../harness/credentials-helper';

const storedForm = {
	_id: '65f1c0ffee0000000000abcd',
	name: 'Engineering hires',
	purpose: 'purpose-bgv',
	expiry: 1798675200,
	verificationList: [
		{ name: 'bgv-employment', mode: 'manual', skipAllowed: false },
		{ name: 'bgv-degree', mode: 'manual', skipAllowed: true, marksheetRequired: false },
	],
	sharing: { mode: [] },
	archived: false,
	type: 'diy',
	userPaymentRequired: false,
	createdAt: '2026-11-22T00:00:00.000Z',
	updatedAt: '2026-11-22T00:00:00.000Z',
};

const formParameters = {
	resource: 'form',
	operation: 'create',
	name: 'Engineering hires',
	purpose: 'purpose-bgv',
	checks: ['bgv-employment', 'bgv-degree'],
	skippableChecks: ['bgv-degree'],
	userPaymentRequired: false,
	visibility: 'private',
	additionalFields: { expiry: '2026-12-31T00:00:00.000Z' },
};

describe('Form → Create', () => {
	enableMockedNetwork();

	it('sends the form with type diy, sharing visibility and expiry as Unix seconds; outputs the stored form', async () => {
		const { scope, requests } = mockService();
		scope.post('/verification/api/1.0/ekyc-forms').reply(200, success(storedForm));

		const result = await runActionNode({ parameters: formParameters });

		expect(requests).toHaveLength(1);
		expect(requests[0].method).toBe('POST');
		expect(requests[0].path).toBe('/verification/api/1.0/ekyc-forms');
		expect(requests[0].headers['x-api-key']).toBe(TEST_API_KEY);
		expect(requests[0].headers['content-type']).toMatch(/^application\/json/);
		expect(requests[0].body).toEqual({
			name: 'Engineering hires',
			purpose: 'purpose-bgv',
			verifications: [
				{ name: 'bgv-employment', skipAllowed: false },
				{ name: 'bgv-degree', skipAllowed: true },
			],
			userPaymentRequired: false,
			type: 'diy',
			sharing: { visibility: 'private' },
			expiry: 1798675200,
		});
		expect(outputJson(result)).toEqual([{ ...storedForm, expiryDate: '2026-12-31T00:00:00.000Z' }]);
		scope.done();
	});

	it('reads an expiry without offset in the workflow time zone and leaves expiry out when empty', async () => {
		const { scope, requests } = mockService();
		scope.post('/verification/api/1.0/ekyc-forms').times(2).reply(200, success(storedForm));

		await runActionNode({
			parameters: { ...formParameters, additionalFields: { expiry: '2026-12-31T05:30:00' } },
		});
		await runActionNode({ parameters: { ...formParameters, additionalFields: {} } });

		// Workflow time zone defaults to America/New_York in n8n-workflow (UTC-5 in December).
		expect((requests[0].body as { expiry: number }).expiry).toBe(
			Date.UTC(2026, 11, 31, 10, 30) / 1000,
		);
		expect(requests[1].body).not.toHaveProperty('expiry');
	});

	it.each([
		[
			'chosen from the list',
			{ __rl: true, mode: 'list', value: 'purpose-bgv', cachedResultName: 'BGV' },
		],
		['given as an ID', { __rl: true, mode: 'id', value: ' purpose-bgv ' }],
		['given as an ID expression', { __rl: true, mode: 'id', value: '={{ "purpose-" + "bgv" }}' }],
		['a plain string (workflows saved before the resource locator)', 'purpose-bgv'],
	])('sends the purpose _id when it is %s', async (_how, purpose) => {
		const { scope, requests } = mockService();
		scope.post('/verification/api/1.0/ekyc-forms').reply(200, success(storedForm));

		const result = await runActionNode({ parameters: { ...formParameters, purpose } });

		expect(result.error).toBeUndefined();
		expect((requests[0].body as { purpose: unknown }).purpose).toBe('purpose-bgv');
	});

	it.each([
		[{ checks: '={{ [] }}' }, 'Invalid "Checks" in item 0: choose at least one check'],
		[
			{ checks: ['bgv-employment', 'bgv-unknown'] },
			'Invalid "Checks → 2" in item 0: "bgv-unknown" is not one of',
		],
		[
			{ skippableChecks: ['pan'] },
			'Invalid "Checks the Candidate May Skip" in item 0: pan is not one of the form\'s checks',
		],
		[{ name: '  ' }, 'Invalid "Form Name" in item 0: it is required and is empty'],
		[
			{ purpose: { __rl: true, mode: 'id', value: '={{ $json.missing ?? "" }}' } },
			'Invalid "Purpose" in item 0: it is required and is empty',
		],
		[
			{ visibility: 'friends' },
			'Invalid "Visibility" in item 0: "friends" is not one of public, private',
		],
		[
			{ additionalFields: { expiry: 'next tuesday' } },
			'Invalid "Expiry" in item 0: "next tuesday" is not a date and time',
		],
	])('rejects %j before sending anything', async (override, message) => {
		const { scope, requests } = mockService();
		scope.post('/verification/api/1.0/ekyc-forms').reply(200, success(storedForm));

		const result = await runActionNode({ parameters: { ...formParameters, ...override } });

		expect(result.error?.message).toContain(message);
		expect(requests).toHaveLength(0);
	});
});
