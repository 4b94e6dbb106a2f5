import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runActionNode } from '../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../harness/service-mock';

const CANDIDATE_PATH = '/verification/api/1.0/ekyc-forms/form-1/diy-candidate';
const SUBMISSION_PATH = '/verification/api/1.0/bgv/diy';
const TIME_ZONES = ['Asia/Kolkata', 'America/Los_Angeles', 'UTC'];

const profile = (additionalFields: INodeParameters, gender = 'Female'): INodeParameters => ({
	resource: 'profile',
	operation: 'create',
	formId: 'form-1',
	name: 'Asha',
	gender,
	additionalFields,
});

async function sentCandidate(parameters: INodeParameters, timezone?: string) {
	const { scope, requests } = mockService();
	scope.post(CANDIDATE_PATH).reply(200, success({ transactionId: 'TXN-1' }));
	const result = await runActionNode({ items: [{}], parameters, timezone });
	expect(result.error).toBeUndefined();
	expect(requests).toHaveLength(1);
	return requests[0].body as IDataObject;
}

/** Submits a bgv-employment check with these dates; returns the `data` the service received. */
async function sentEmploymentData(dates: INodeParameters, timezone: string) {
	const { scope, requests } = mockService();
	scope.post(SUBMISSION_PATH).reply(200, success());
	await runActionNode({
		items: [{}],
		timezone,
		parameters: {
			resource: 'verification',
			operation: 'submit',
			transactionId: 'TXN-1',
			verificationName: 'bgv-employment',
			employmentDocumentType: 'salaryslip',
			nameAsPerEmployerRecords: 'Asha',
			employerName: 'Acme',
			documentUrl: 'https://files.example/p.pdf',
			...dates,
		},
	});
	return (requests[0].body as { data: IDataObject }).data;
}

/** Date values as a user's sheet, ATS or expression gives them, each meaning 17 May 1994. */
const SEVENTEENTH_OF_MAY_1994: Array<[string, string | number]> = [
	['DD-MM-YYYY', '17-05-1994'],
	['DD/MM/YYYY', '17/05/1994'],
	['DD.MM.YYYY', '17.05.1994'],
	['ISO date', '1994-05-17'],
	['YYYY/MM/DD', '1994/05/17'],
	['day month-name year', '17 May 1994'],
	['day-Mon-year', '17-May-1994'],
	['lower-case month', '17 may 1994'],
	['ISO local date-time', '1994-05-17T09:30:00'],
	['ISO date-time with an offset', '1994-05-17T23:30:00.000-05:00'],
	['spreadsheet serial number', 34471],
	['spreadsheet serial number as text', '34471'],
	['a Luxon DateTime in India', '={{ DateTime.fromISO("1994-05-17", { zone: "Asia/Kolkata" }) }}'],
	[
		'a Luxon DateTime in Los Angeles',
		'={{ DateTime.fromISO("1994-05-17", { zone: "America/Los_Angeles" }) }}',
	],
	['a JS Date at midnight UTC (a date without time)', '={{ new Date(Date.UTC(1994, 4, 17)) }}'],
	['new Date("1994-05-17")', '={{ new Date("1994-05-17") }}'],
	[
		'a JS Date at midnight in the workflow time zone',
		'={{ DateTime.fromObject({ year: 1994, month: 5, day: 17 }, { zone: $now.zoneName }).toJSDate() }}',
	],
	[
		'a JS Date at noon in the workflow time zone',
		'={{ DateTime.fromObject({ year: 1994, month: 5, day: 17, hour: 12 }, { zone: $now.zoneName }).toJSDate() }}',
	],
];

describe.each(TIME_ZONES)('Dates with the workflow time zone %s', (timezone) => {
	enableMockedNetwork();

	it.each(SEVENTEENTH_OF_MAY_1994)(
		'Date of Birth as %s is sent as 17-05-1994',
		async (_form, dob) => {
			const body = await sentCandidate(
				profile({ dob: typeof dob === 'number' ? `={{ ${dob} }}` : dob }),
				timezone,
			);
			expect(body.verificationFields).toEqual({ dob: '17-05-1994' });
		},
	);

	it('employment dates from JS Dates are the days meant, sent as YYYY-MM-DD', async () => {
		const data = await sentEmploymentData(
			{
				joiningDate:
					'={{ DateTime.fromObject({ year: 2021, month: 4, day: 1 }, { zone: $now.zoneName }).toJSDate() }}',
				lastWorkingDate: '31 Mar 2024',
			},
			timezone,
		);
		expect(data).toMatchObject({ joiningDate: '2021-04-01', lastWorkingDate: '2024-03-31' });
	});
});

describe('Dates in India (Asia/Kolkata), the service’s home market', () => {
	enableMockedNetwork();

	it.each([
		['={{ new Date("1994-05-17T00:00:00+05:30") }}'],
		['={{ DateTime.fromISO("1994-05-17", { zone: "Asia/Kolkata" }).toJSDate() }}'],
		// What such a Date becomes once serialised (JSON, a Code node, another service).
		['1994-05-16T18:30:00.000Z'],
	])('%s is sent as 17-05-1994, not 16-05-1994', async (dob) => {
		const body = await sentCandidate(profile({ dob }), 'Asia/Kolkata');
		expect(body.verificationFields).toEqual({ dob: '17-05-1994' });
	});

	it('an employment date given as an IST Date keeps its day', async () => {
		const data = await sentEmploymentData(
			{
				joiningDate: '={{ new Date("2021-04-01T00:00:00+05:30") }}',
				lastWorkingDate: '2024-03-31',
			},
			'Asia/Kolkata',
		);
		expect(data.joiningDate).toBe('2021-04-01');
	});

	it.each([['1994-13-01'], ['32 May 1994'], ['17 Mayo 1994'], ['={{ 17051994 }}'], ['17-05-94']])(
		'refuses %s, naming the field',
		async (dob) => {
			const { requests } = mockService();
			const result = await runActionNode({ items: [{}], parameters: profile({ dob }) });
			expect(result.error?.message).toMatch(
				/^Invalid "Date of Birth" in item 0: .* is not a date$/,
			);
			expect(requests).toHaveLength(0);
		},
	);
});

describe('Gender and mobile: forgiving where safe', () => {
	enableMockedNetwork();

	it.each([
		['female', 'Female'],
		['MALE', 'Male'],
		['F', 'Female'],
		['m', 'Male'],
		['o', 'Other'],
		[' other ', 'Other'],
	])('gender %j is sent as %s', async (gender, expected) => {
		const body = await sentCandidate(profile({}, gender));
		expect(body.gender).toBe(expected);
	});

	it('has no default gender: a forgotten mapping fails instead of sending everyone as Female', async () => {
		const { requests } = mockService();
		// eslint-disable-next-line @typescript-eslint/no-unused-vars -- destructured only to leave it out of the rest
		const { gender: _forgotten, ...withoutGender } = profile({});

		// n8n itself refuses to run a required parameter left at its empty default.
		await expect(runActionNode({ items: [{}], parameters: withoutGender })).rejects.toThrow(
			'Parameter "Gender" is required.',
		);
		expect(requests).toHaveLength(0);
	});

	it.each([
		['+91 98765 43210', '+919876543210'],
		['+91-98765-43210', '+919876543210'],
		['(+91) 98765 43210', '+919876543210'],
		['={{ 919876543210 }}', '919876543210'],
	])('mobile %j is sent as %s (country code kept, spaces removed)', async (mobile, expected) => {
		const body = await sentCandidate(profile({ mobile }));
		expect(body.mobile).toBe(expected);
	});

	it('reports two bad fields of one item together', async () => {
		const { requests } = mockService();

		const result = await runActionNode({
			items: [{}],
			parameters: profile({ mobile: 'call me', dob: 'someday' }, 'Femme'),
		});

		expect(result.error?.message).toBe('3 invalid fields in item 0');
		expect(result.error?.description).toContain(
			'- Invalid "Gender" in item 0: "Femme" is not one of Male, Female, Other\n' +
				'- Invalid "Mobile" in item 0: "call me" is not a mobile number\n' +
				'- Invalid "Date of Birth" in item 0: "someday" is not a date',
		);
		expect(requests).toHaveLength(0);
	});
});
