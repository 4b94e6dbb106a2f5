import { TEST_API_KEY } from '../../../harness/credentials-helper';
import { outputJson, runActionNode } from '../../../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../../../harness/service-mock';

const PATH = '/verification/api/1.0/ekyc-forms/65f1c0ffee0000000000abcd/diy-candidate';

/** Mapped from spreadsheet columns, as a user would. */
const fromRow = {
	resource: 'profile',
	operation: 'create',
	formId: '65f1c0ffee0000000000abcd',
	name: '={{ $json.name }}',
	gender: '={{ $json.gender }}',
	additionalFields: {
		mobile: '={{ $json.mobile }}',
		email: '={{ $json.email }}',
		profession: '={{ $json.profession }}',
		dob: '={{ $json.dob }}',
		fatherName: '={{ $json.fatherName }}',
	},
};

const row = {
	name: 'Asha Verma',
	gender: 'Female',
	mobile: '+919876543210',
	email: 'asha@example.com',
	profession: 'Engineer',
	dob: '17-05-1994',
	fatherName: 'Raj Verma',
};

describe('Profile → Create', () => {
	enableMockedNetwork();

	it('posts the candidate to the form and outputs the transaction ID with the form ID', async () => {
		const { scope, requests } = mockService();
		scope.post(PATH).reply(200, success({ transactionId: 'TXN-1' }));

		const result = await runActionNode({ items: [row], parameters: fromRow });

		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'POST', path: PATH });
		expect(requests[0].headers['x-api-key']).toBe(TEST_API_KEY);
		expect(requests[0].body).toEqual({
			name: 'Asha Verma',
			gender: 'Female',
			mobile: '+919876543210',
			profession: 'Engineer',
			email: 'asha@example.com',
			verificationFields: { dob: '17-05-1994', fatherName: 'Raj Verma' },
		});
		expect(result.items).toEqual([
			{
				json: { transactionId: 'TXN-1', formId: '65f1c0ffee0000000000abcd', name: 'Asha Verma' },
				pairedItem: { item: 0 },
			},
		]);
	});

	it('sends only name and gender when nothing else is given (no empty fields)', async () => {
		const { scope, requests } = mockService();
		scope.post(PATH).reply(200, success({ transactionId: 'TXN-2' }));

		await runActionNode({ items: [{ name: 'Ravi', gender: 'Male' }], parameters: fromRow });

		expect(requests[0].body).toEqual({ name: 'Ravi', gender: 'Male' });
	});

	it.each([
		['17-05-1994', '17-05-1994'],
		['7/5/1994', '07-05-1994'],
		['1994-05-17', '17-05-1994'],
		['1994-05-17T23:30:00.000-05:00', '17-05-1994'],
		['={{ DateTime.fromISO("1994-05-17") }}', '17-05-1994'],
		['={{ new Date(Date.UTC(1994, 4, 17)) }}', '17-05-1994'],
	])('sends the date of birth %s as %s', async (dob, expected) => {
		const { scope, requests } = mockService();
		scope.post(PATH).reply(200, success({ transactionId: 'TXN-3' }));

		await runActionNode({
			items: [{}],
			parameters: { ...fromRow, name: 'Asha', gender: 'Female', additionalFields: { dob } },
		});

		expect(requests[0].body).toEqual({
			name: 'Asha',
			gender: 'Female',
			verificationFields: { dob: expected },
		});
	});

	it.each([
		[{ gender: 'femal' }, 'Invalid "Gender" in item 0: "femal" is not one of Male, Female, Other'],
		[
			{ gender: '' },
			'Invalid "Gender" in item 0: it is required and is empty (one of Male, Female, Other)',
		],
		[{ mobile: '98765' }, 'Invalid "Mobile" in item 0: "98765" is not a mobile number'],
		[{ name: '' }, 'Invalid "Candidate Name" in item 0: it is required and is empty'],
		[{ name: 42 }, undefined],
		[
			{ email: 'asha-at-example' },
			'Invalid "Email" in item 0: "asha-at-example" is not an email address',
		],
		[{ dob: '31-02-1994' }, 'Invalid "Date of Birth" in item 0: "31-02-1994" is not a date'],
		[{ dob: 'yesterday' }, 'Invalid "Date of Birth" in item 0: "yesterday" is not a date'],
		[{ dob: '01-01-2999' }, 'Invalid "Date of Birth" in item 0: 01-01-2999 is in the future'],
		[
			{ dob: '', fatherName: 'Raj' },
			'Invalid "Date of Birth" in item 0: it is required when Father’s Name is given',
		],
		[{ mobile: { number: 1 } }, 'Invalid "Mobile" in item 0: expected text, got an object'],
	])('rejects %j without sending a request', async (override, message) => {
		const { scope, requests } = mockService();
		scope.post(PATH).reply(200, success({ transactionId: 'never' }));

		const result = await runActionNode({ items: [{ ...row, ...override }], parameters: fromRow });

		if (message === undefined) {
			// A number is a valid name once read as text.
			expect(result.error).toBeUndefined();
			expect(requests).toHaveLength(1);
			return;
		}
		expect(result.error?.message).toBe(message);
		expect(requests).toHaveLength(0);
	});

	it('names the failing item, and sends nothing for the valid one either', async () => {
		const { scope, requests } = mockService();
		scope.post(PATH).reply(200, success({ transactionId: 'TXN-4' }));

		const result = await runActionNode({
			items: [row, { ...row, gender: 'X' }],
			parameters: fromRow,
		});

		expect(result.error?.message).toBe(
			'Invalid "Gender" in item 1: "X" is not one of Male, Female, Other',
		);
		expect(requests).toHaveLength(0);
	});

	it('splits the provider message of a rejected candidate into its problems', async () => {
		const { scope } = mockService();
		scope.post(PATH).reply(200, {
			code: -1,
			message: '"mobile" must be a string/"gender" must be one of [Male, Female, Other]',
		});

		const result = await runActionNode({ items: [row], parameters: fromRow });

		expect(result.error?.message).toBe(
			'Add a candidate to a form was rejected by the Candidate Verification Service: "mobile" must be a string (and 1 more)',
		);
		expect(result.error?.description).toBe(
			[
				'- "mobile" must be a string',
				'- "gender" must be one of [Male, Female, Other]',
				'(HTTP 200, code -1)',
			].join('\n'),
		);
		expect(outputJson(result)).toEqual([]);
	});
});
