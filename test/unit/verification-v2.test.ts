import type { IDataObject } from 'n8n-workflow';

import { runActionNode } from '../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../harness/service-mock';

const PATH = '/verification/api/1.0/bgv/diy';
const DEGREE_URL = 'https://files.example/private/degree.pdf';
const MARKSHEET_URL = 'https://files.example/private/marks.pdf';

const flatAddress = {
	line1: '12 MG Road',
	vtc: 'Indiranagar',
	district: 'Bengaluru Urban',
	state: 'Karnataka',
	pincode: '560038',
	country: 'India',
};

const submit = (verificationName: string, fields: object = {}) => ({
	resource: 'verification',
	operation: 'submit',
	transactionId: '={{ $json.transactionId }}',
	verificationName,
	...fields,
});

const degreeFields = {
	level: 'MASTERS',
	nameAsPerDocument: 'Asha Verma',
	nameOfInstitute: 'Delhi University',
	registrationNumber: 'DU-2018-0042',
	issueDate: '30-06-2018',
	documentUrl: DEGREE_URL,
};

async function submitOn(
	typeVersion: number,
	parameters: object,
	items: IDataObject[] = [{ transactionId: 'TXN-9' }],
) {
	const { scope, requests } = mockService();
	scope.post(PATH).times(items.length).reply(200, success());
	const result = await runActionNode({ items, parameters: parameters as never, typeVersion });
	return { result, requests };
}

const envelope = (verificationName: string, data: object, transactionId = 'TXN-9') => ({
	data,
	verificationName,
	transactionId,
});

describe('Verification → Submit on node version 2: every documented check typed', () => {
	enableMockedNetwork();

	it('bgv-degree: level, the three identity fields, issueDate as YYYY-MM-DD, Degree and Marksheet documents', async () => {
		const { result, requests } = await submitOn(
			2,
			submit('bgv-degree', { ...degreeFields, marksheetUrl: MARKSHEET_URL }),
		);

		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'POST', path: PATH });
		expect(requests[0].body).toEqual(
			envelope('bgv-degree', {
				level: 'MASTERS',
				nameAsPerDocument: 'Asha Verma',
				nameOfInstitute: 'Delhi University',
				registrationNumber: 'DU-2018-0042',
				issueDate: '2018-06-30',
				documentList: [
					{ label: 'Degree', url: DEGREE_URL },
					{ label: 'Marksheet', url: MARKSHEET_URL },
				],
			}),
		);
		expect(result.items[0].json).toEqual({
			transactionId: 'TXN-9',
			verificationName: 'bgv-degree',
			submitted: true,
		});
	});

	it('bgv-degree: the level from an expression in any case, any date form, no marksheet when none is given', async () => {
		const { requests } = await submitOn(
			2,
			submit('bgv-degree', {
				...degreeFields,
				level: '={{ $json.level }}',
				issueDate: '={{ $json.issued }}',
			}),
			[{ transactionId: 'TXN-9', level: ' post_graduate_diploma ', issued: '30 Jun 2018' }],
		);

		expect(requests[0].body).toEqual(
			envelope('bgv-degree', {
				level: 'POST_GRADUATE_DIPLOMA',
				nameAsPerDocument: 'Asha Verma',
				nameOfInstitute: 'Delhi University',
				registrationNumber: 'DU-2018-0042',
				issueDate: '2018-06-30',
				documentList: [{ label: 'Degree', url: DEGREE_URL }],
			}),
		);
	});

	it('10th and 12th Education: the public labels "10th Marksheet" / "12th Marksheet" when Document Label is empty; a label given is kept', async () => {
		const fields = {
			nameAsPerDocument: 'Asha Verma',
			nameOfInstitute: 'Kendriya Vidyalaya, Pune',
			registrationNumber: '2012/0456789',
			yearOfPassing: '2012',
			documentUrl: 'https://files.example/private/marks.pdf',
		};
		const tenth = await submitOn(2, submit('bgv-tenth', fields));
		const twelfth = await submitOn(
			2,
			submit('bgv-twelfth', { ...fields, issueDate: '2014-05-28' }),
		);
		const labelled = await submitOn(
			2,
			submit('bgv-twelfth', { ...fields, documentLabel: 'Marks' }),
		);

		const data = (level: string, label: string, extra: object = {}) => ({
			level,
			nameAsPerDocument: 'Asha Verma',
			nameOfInstitute: 'Kendriya Vidyalaya, Pune',
			registrationNumber: '2012/0456789',
			yearOfPassing: '2012',
			...extra,
			documentList: [{ label, url: 'https://files.example/private/marks.pdf' }],
		});
		expect(tenth.requests[0].body).toEqual(
			envelope('bgv-tenth', data('TENTH_STD', '10th Marksheet')),
		);
		expect(twelfth.requests[0].body).toEqual(
			envelope('bgv-twelfth', data('TWELFTH_STD', '12th Marksheet', { issueDate: '2014-05-28' })),
		);
		expect(labelled.requests[0].body).toEqual(
			envelope('bgv-twelfth', data('TWELFTH_STD', 'Marks')),
		);
	});

	it('Police Verification (Address) sends bgv-police-verification with the permanent address', async () => {
		const { result, requests } = await submitOn(
			2,
			submit('bgv-police-verification', { permanentAddress: { address: flatAddress } }),
		);

		expect(requests[0].body).toEqual(
			envelope('bgv-police-verification', { permanentAddress: flatAddress }),
		);
		expect(result.items[0].json).toEqual({
			transactionId: 'TXN-9',
			verificationName: 'bgv-police-verification',
			submitted: true,
		});
	});

	it('Police Clearance Certificate sends bgv-police-clearance-certificate with fileUrl', async () => {
		const { requests } = await submitOn(
			2,
			submit('bgv-police-clearance-certificate', { fileUrl: 'https://files.example/pcc.pdf' }),
		);

		expect(requests[0].body).toEqual(
			envelope('bgv-police-clearance-certificate', { fileUrl: 'https://files.example/pcc.pdf' }),
		);
	});

	it.each([['bgv-local-extended-address'], ['bgv-permanent-extended-address']])(
		'digital address, the list’s choice %s: the six address fields flat in data, under that name',
		async (check) => {
			const { result, requests } = await submitOn(
				2,
				submit(check, { ...flatAddress, pincode: 560038 }),
			);

			expect(requests[0].body).toEqual(envelope(check, flatAddress));
			expect(result.items[0].json).toEqual({
				transactionId: 'TXN-9',
				verificationName: check,
				submitted: true,
			});
		},
	);

	// A Check set by an expression shows (and makes n8n require) every typed field: with Map
	// Automatically the fields come from the columns instead.
	it.each([['bgv-local-address-digital'], ['bgv-permanent-address-digital']])(
		'digital address, the form list’s name %s from an expression: the same fields, sent as given',
		async (check) => {
			const { requests } = await submitOn(
				2,
				{ ...submit('={{ $json.check }}'), mappingMode: 'autoMapInputData' },
				[{ transactionId: 'TXN-9', check, ...flatAddress }],
			);

			expect(requests[0].body).toEqual(envelope(check, flatAddress));
		},
	);

	it('Map Automatically reads the digital address and degree fields from columns named like their API names or labels', async () => {
		const columns = {
			transactionId: 'TXN-4',
			'Address Line 1': '12 MG Road',
			vtc: 'Indiranagar',
			District: 'Bengaluru Urban',
			state: 'Karnataka',
			PINCODE: '560038',
			country: 'India',
		};
		const address = await submitOn(
			2,
			{ ...submit('bgv-permanent-extended-address'), mappingMode: 'autoMapInputData' },
			[columns],
		);
		const degree = await submitOn(2, { ...submit('bgv-degree'), mappingMode: 'autoMapInputData' }, [
			{
				'Transaction ID': 'TXN-5',
				Level: 'phd',
				nameAsPerDocument: 'Asha Verma',
				'Name of Institute': 'IISc',
				registrationNumber: 'R-1',
				'Issue Date': '2020-01-15',
				'Degree Document URL': DEGREE_URL,
				marksheetUrl: MARKSHEET_URL,
			},
		]);

		expect(address.requests[0].body).toEqual(
			envelope('bgv-permanent-extended-address', flatAddress, 'TXN-4'),
		);
		expect(degree.requests[0].body).toEqual(
			envelope(
				'bgv-degree',
				{
					level: 'PHD',
					nameAsPerDocument: 'Asha Verma',
					nameOfInstitute: 'IISc',
					registrationNumber: 'R-1',
					issueDate: '2020-01-15',
					documentList: [
						{ label: 'Degree', url: DEGREE_URL },
						{ label: 'Marksheet', url: MARKSHEET_URL },
					],
				},
				'TXN-5',
			),
		);
	});

	it('employment, credit and criminal checks send the same bodies as on version 1; a check with no public shape stays JSON', async () => {
		const criminal = await submitOn(
			2,
			submit('bgv-criminal', {
				currentAddress: { address: flatAddress },
				permanentAddress: { address: flatAddress },
			}),
		);
		const social = await submitOn(
			2,
			submit('bgv-social-media', { data: '{"linkedinUrl":"https://www.linkedin.com/in/asha"}' }),
		);

		expect(criminal.requests[0].body).toEqual(
			envelope('bgv-criminal', { currentAddress: flatAddress, permanentAddress: flatAddress }),
		);
		expect(social.requests[0].body).toEqual(
			envelope('bgv-social-media', { linkedinUrl: 'https://www.linkedin.com/in/asha' }),
		);
	});

	const goodItem = { transactionId: 'TXN-1' };
	it.each([
		[
			submit('bgv-degree', { ...degreeFields, level: '={{ $json.level }}' }),
			{ level: 'BACHELORS' },
			'Invalid "Level" in item 1: "BACHELORS" is not one of DIPLOMA, GRADUATE, MASTERS, PHD, POST_DOC, POST_GRADUATE_DIPLOMA, PROFESSIONAL_COURSE, OTHER',
		],
		[
			submit('bgv-degree', { ...degreeFields, issueDate: '={{ $json.issued }}' }),
			{ issued: undefined },
			'Invalid "Issue Date" in item 1: it is required and is empty',
		],
		[
			submit('bgv-degree', { ...degreeFields, issueDate: '={{ $json.issued }}' }),
			{ issued: '31-02-2018' },
			'Invalid "Issue Date" in item 1: "31-02-2018" is not a date',
		],
		[
			submit('bgv-degree', { ...degreeFields, documentUrl: '={{ $json.url }}' }),
			{ url: undefined },
			'Invalid "Degree Document URL" in item 1: it is required and is empty',
		],
		[
			submit('bgv-local-extended-address', { ...flatAddress, pincode: '={{ $json.pin }}' }),
			{ pin: undefined },
			'Invalid "Pincode" in item 1: it is required and is empty',
		],
		[
			{ ...submit('={{ $json.check }}'), mappingMode: 'autoMapInputData' },
			{ check: 'bgv-local-address-digital', ...flatAddress, line1: ' ' },
			'Invalid "Address Line 1" in item 1: it is required and is empty',
		],
		[
			{ ...submit('bgv-degree'), mappingMode: 'autoMapInputData' },
			{ level: undefined },
			'Invalid "Level" in item 1: it is required and is empty (one of DIPLOMA, GRADUATE,',
		],
		[
			{ ...submit('bgv-police-verification'), mappingMode: 'autoMapInputData' },
			{ permanentAddress: undefined },
			'Invalid "Permanent Address" in item 1: it is required and is empty',
		],
		[
			{ ...submit('={{ $json.check }}'), mappingMode: 'autoMapInputData' },
			{ check: 'bgv-police-station' },
			'Invalid "Check" in item 1: "bgv-police-station" is not one of',
		],
	])(
		'rejects a wrong or missing field naming it and the item, and sends nothing (%#)',
		async (parameters, row, message) => {
			const valid = {
				...goodItem,
				level: 'GRADUATE',
				issued: '2018-06-30',
				url: DEGREE_URL,
				pin: '560001',
				check: 'bgv-local-extended-address',
				...flatAddress,
				permanentAddress: flatAddress,
				nameAsPerDocument: 'Asha Verma',
				nameOfInstitute: 'Delhi University',
				registrationNumber: 'DU-1',
				issueDate: '2018-06-30',
				documentUrl: DEGREE_URL,
			};
			const { result, requests } = await submitOn(2, parameters, [valid, { ...valid, ...row }]);

			expect(result.error?.message).toContain(message);
			expect(requests).toHaveLength(0);
		},
	);
});

describe('Verification → Submit on node version 1: the meanings saved workflows were built with', () => {
	enableMockedNetwork();

	it('the police choice still sends the clearance certificate', async () => {
		const { requests } = await submitOn(
			1,
			submit('bgv-police-verification', { fileUrl: 'https://files.example/pcc.pdf' }),
		);

		expect(requests[0].body).toEqual(
			envelope('bgv-police-clearance-certificate', { fileUrl: 'https://files.example/pcc.pdf' }),
		);
	});

	it('degree and the digital addresses still take Data (JSON), sent as given under the form list’s names', async () => {
		const degreeData = { level: 'GRADUATION', documentList: [{ label: 'degree', url: 'u' }] };
		const degree = await submitOn(1, submit('bgv-degree', { data: JSON.stringify(degreeData) }));
		const address = await submitOn(
			1,
			submit('bgv-local-address-digital', { data: '{"currentAddress":{"line1":"x"}}' }),
		);

		expect(degree.requests[0].body).toEqual(envelope('bgv-degree', degreeData));
		expect(address.requests[0].body).toEqual(
			envelope('bgv-local-address-digital', { currentAddress: { line1: 'x' } }),
		);
	});

	it('10th Education’s Document Label still defaults to "marksheet"', async () => {
		const { requests } = await submitOn(
			1,
			submit('bgv-tenth', {
				nameAsPerDocument: 'Asha Verma',
				nameOfInstitute: 'KV',
				registrationNumber: 'R',
				yearOfPassing: '2010',
				documentUrl: 'https://files.example/m.pdf',
			}),
		);

		expect((requests[0].body as IDataObject).data).toMatchObject({
			documentList: [{ label: 'marksheet', url: 'https://files.example/m.pdf' }],
		});
	});

	it('the submission pages’ digital address names are not version 1 checks', async () => {
		const { result, requests } = await submitOn(1, {
			...submit('={{ "bgv-local-extended-address" }}'),
			mappingMode: 'autoMapInputData',
		});

		expect(result.error?.message).toContain(
			'Invalid "Check" in item 0: "bgv-local-extended-address" is not one of',
		);
		expect(requests).toHaveLength(0);
	});
});

describe('Transaction → Get Check Status: the name read follows the node version', () => {
	enableMockedNetwork();

	const readCheck = async (typeVersion: number, verificationName: string, path?: string) => {
		const { scope, requests } = mockService();
		if (path) {
			scope
				.get(`/verification/api/1.0/transactions/${path}/info`)
				.query({ orgId: 'org-1', txnId: 'TXN-1' })
				.reply(200, success({ state: 'IN_PROGRESS' }));
		}
		const result = await runActionNode({
			parameters: {
				resource: 'transaction',
				operation: 'getCheckStatus',
				transactionId: 'TXN-1',
				verificationName,
				orgId: 'org-1',
			},
			typeVersion,
		});
		return { result, requests };
	};

	it.each([
		// Version 1: the form list's name, as today.
		[1, 'bgv-police-verification', 'bgv-police-verification'],
		[1, 'bgv-local-address-digital', 'bgv-local-address-digital'],
		// Version 2: the name Submit sent.
		[2, 'bgv-police-clearance-certificate', 'bgv-police-clearance-certificate'],
		[2, 'bgv-police-verification', 'bgv-police-verification'],
		[2, 'bgv-local-extended-address', 'bgv-local-extended-address'],
		[2, 'bgv-permanent-extended-address', 'bgv-permanent-extended-address'],
		[2, '={{ "bgv-permanent-address-digital" }}', 'bgv-permanent-address-digital'],
	])('version %i, Check %s reads /transactions/%s/info', async (typeVersion, check, path) => {
		const { result, requests } = await readCheck(typeVersion, check, path);

		expect(requests.map((request) => request.path)).toEqual([
			`/verification/api/1.0/transactions/${path}/info?orgId=org-1&txnId=TXN-1`,
		]);
		expect(result.items[0].json).toEqual({
			state: 'IN_PROGRESS',
			reportUrl: null,
			verificationId: null,
			insufficiencies: [],
			...(typeVersion >= 2 ? { readUnder: path } : {}),
		});
	});

	it('version 1 does not know the submission pages’ digital address names', async () => {
		const { result, requests } = await readCheck(1, '={{ "bgv-local-extended-address" }}');

		expect(result.error?.message).toContain(
			'Invalid "Check" in item 0: "bgv-local-extended-address" is not one of',
		);
		expect(requests).toHaveLength(0);
	});
});
