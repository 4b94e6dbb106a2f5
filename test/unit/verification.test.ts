import { TEST_API_KEY } from '../harness/credentials-helper';
import { runActionNode } from '../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../harness/service-mock';

const PATH = '/verification/api/1.0/bgv/diy';

const address = (line1: string) => ({
	address: {
		line1,
		vtc: 'Indiranagar',
		district: 'Bengaluru Urban',
		state: 'Karnataka',
		pincode: '560038',
		country: 'India',
	},
});

const expectedAddress = (line1: string) => address(line1).address;

const submit = (verificationName: string, fields: object) => ({
	resource: 'verification',
	operation: 'submit',
	transactionId: '={{ $json.transactionId }}',
	verificationName,
	...fields,
});

const everyTypedField = {
	nameAsPerEmployerRecords: 'A',
	employerName: 'B',
	joiningDate: '2021-01-01',
	lastWorkingDate: '2022-01-01',
	pan: 'ABCDE1234F',
	documentUrl: 'u',
	fileUrl: 'u',
	nameAsPerDocument: 'A',
	nameOfInstitute: 'I',
	registrationNumber: 'R',
};

async function submitOne(parameters: object) {
	const { scope, requests } = mockService();
	scope.post(PATH).reply(200, success());
	const result = await runActionNode({
		items: [{ transactionId: 'TXN-9' }],
		parameters: parameters as never,
	});
	return { result, requests };
}

describe('Verification → Submit', () => {
	enableMockedNetwork();

	it('bgv-employment: typed fields, dates as YYYY-MM-DD, document label set to the document type', async () => {
		const { result, requests } = await submitOne(
			submit('bgv-employment', {
				employmentDocumentType: 'experienceletter',
				nameAsPerEmployerRecords: 'Asha Verma',
				employerName: 'Acme Pvt Ltd',
				joiningDate: '01-04-2021',
				lastWorkingDate: '2024-03-31',
				documentUrl: 'https://files.example/private/exp.pdf',
			}),
		);

		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'POST', path: PATH });
		expect(requests[0].headers['x-api-key']).toBe(TEST_API_KEY);
		expect(requests[0].body).toEqual({
			data: {
				employmentDocumentType: 'experienceletter',
				nameAsPerEmployerRecords: 'Asha Verma',
				employerName: 'Acme Pvt Ltd',
				joiningDate: '2021-04-01',
				lastWorkingDate: '2024-03-31',
				document: { label: 'experienceletter', url: 'https://files.example/private/exp.pdf' },
			},
			verificationName: 'bgv-employment',
			transactionId: 'TXN-9',
		});
		expect(result.items).toEqual([
			{
				json: { transactionId: 'TXN-9', verificationName: 'bgv-employment', submitted: true },
				pairedItem: { item: 0 },
			},
		]);
	});

	it('bgv-cibil: pan, document url and permanent address', async () => {
		const { requests } = await submitOne(
			submit('bgv-cibil', {
				pan: 'ABCDE1234F',
				documentUrl: 'https://files.example/private/pan.pdf',
				permanentAddress: address('12 MG Road'),
			}),
		);

		expect(requests[0].body).toEqual({
			data: {
				pan: 'ABCDE1234F',
				document: { url: 'https://files.example/private/pan.pdf' },
				permanentAddress: expectedAddress('12 MG Road'),
			},
			verificationName: 'bgv-cibil',
			transactionId: 'TXN-9',
		});
	});

	it('bgv-criminal: current and permanent address', async () => {
		const { requests } = await submitOne(
			submit('bgv-criminal', {
				currentAddress: address('4 Lake View'),
				permanentAddress: address('12 MG Road'),
			}),
		);

		expect(requests[0].body).toEqual({
			data: {
				currentAddress: expectedAddress('4 Lake View'),
				permanentAddress: expectedAddress('12 MG Road'),
			},
			verificationName: 'bgv-criminal',
			transactionId: 'TXN-9',
		});
	});

	it('Police Verification, the form’s name for the check, submits the certificate as bgv-police-clearance-certificate', async () => {
		const { result, requests } = await submitOne(
			submit('bgv-police-verification', { fileUrl: 'https://files.example/private/pcc.pdf' }),
		);

		expect(requests[0].body).toEqual({
			data: { fileUrl: 'https://files.example/private/pcc.pdf' },
			verificationName: 'bgv-police-clearance-certificate',
			transactionId: 'TXN-9',
		});
		expect(result.items[0].json).toEqual({
			transactionId: 'TXN-9',
			verificationName: 'bgv-police-clearance-certificate',
			submitted: true,
		});
	});

	it('12th and (presumed) 10th Education: typed fields, level set by the check, document list', async () => {
		const fields = {
			nameAsPerDocument: ' Asha Verma ',
			nameOfInstitute: 'Kendriya Vidyalaya, Pune',
			registrationNumber: '2012/0456789',
			yearOfPassing: '2012',
			issueDate: '28-05-2012',
			nameOfBoard: 'CBSE',
			documentLabel: 'marksheet',
			documentUrl: 'https://files.example/private/12th.pdf',
		};
		const twelfth = await submitOne(submit('bgv-twelfth', fields));
		const tenth = await submitOne(
			submit('bgv-tenth', { ...fields, issueDate: '', nameOfBoard: '' }),
		);

		expect(twelfth.requests[0].body).toEqual({
			data: {
				level: 'TWELFTH_STD',
				nameAsPerDocument: 'Asha Verma',
				nameOfInstitute: 'Kendriya Vidyalaya, Pune',
				registrationNumber: '2012/0456789',
				nameOfBoard: 'CBSE',
				yearOfPassing: '2012',
				issueDate: '2012-05-28',
				documentList: [{ label: 'marksheet', url: 'https://files.example/private/12th.pdf' }],
			},
			verificationName: 'bgv-twelfth',
			transactionId: 'TXN-9',
		});
		expect(tenth.requests[0].body).toEqual({
			data: {
				level: 'TENTH_STD',
				nameAsPerDocument: 'Asha Verma',
				nameOfInstitute: 'Kendriya Vidyalaya, Pune',
				registrationNumber: '2012/0456789',
				yearOfPassing: '2012',
				documentList: [{ label: 'marksheet', url: 'https://files.example/private/12th.pdf' }],
			},
			verificationName: 'bgv-tenth',
			transactionId: 'TXN-9',
		});
	});

	it('bgv-police-clearance-certificate (from an expression or an older workflow): fileUrl', async () => {
		const { requests } = await submitOne(
			submit('bgv-police-clearance-certificate', {
				fileUrl: 'https://files.example/private/pcc.pdf',
			}),
		);

		expect(requests[0].body).toEqual({
			data: { fileUrl: 'https://files.example/private/pcc.pdf' },
			verificationName: 'bgv-police-clearance-certificate',
			transactionId: 'TXN-9',
		});
	});

	it('any other check takes its data as JSON and sends it as given', async () => {
		const data = {
			level: 'GRADUATION',
			nameAsPerDocument: 'Asha Verma',
			documentList: [{ label: 'degree', url: 'u' }],
		};
		const { result, requests } = await submitOne(
			submit('bgv-degree', { data: JSON.stringify(data) }),
		);

		expect(requests[0].body).toEqual({
			data,
			verificationName: 'bgv-degree',
			transactionId: 'TXN-9',
		});
		expect(result.items[0].json).toEqual({
			transactionId: 'TXN-9',
			verificationName: 'bgv-degree',
			submitted: true,
		});
	});

	it.each([
		[
			submit('bgv-employment', {
				employmentDocumentType: 'payslip',
				nameAsPerEmployerRecords: 'A',
				employerName: 'B',
				joiningDate: '2021-01-01',
				lastWorkingDate: '2022-01-01',
				documentUrl: 'u',
			}),
			'Invalid "Employment Document Type" in item 0: "payslip" is not one of salaryslip, appointmentletter, experienceletter',
		],
		[
			submit('bgv-employment', {
				employmentDocumentType: 'salaryslip',
				nameAsPerEmployerRecords: 'A',
				employerName: 'B',
				joiningDate: 'last year',
				lastWorkingDate: '2022-01-01',
				documentUrl: 'u',
			}),
			'Invalid "Joining Date" in item 0: "last year" is not a date',
		],
		[
			submit('bgv-cibil', {
				pan: 'ABCDE1234F',
				documentUrl: '={{ "" }}',
				permanentAddress: address('x'),
			}),
			'Invalid "Document URL" in item 0: it is required and is empty',
		],
		[
			submit('bgv-criminal', { currentAddress: {}, permanentAddress: address('x') }),
			'Invalid "Current Address" in item 0: it is required and is empty',
		],
		[
			submit('bgv-police-clearance-certificate', { fileUrl: '  ' }),
			'Invalid "Certificate File URL" in item 0: it is required and is empty',
		],
		[submit('pan', { data: '{"pan": ' }), 'Invalid "Data (JSON)" in item 0: it is not valid JSON'],
		[
			submit('pan', { data: '[1, 2]' }),
			'Invalid "Data (JSON)" in item 0: expected a JSON object, got a list',
		],
		[submit('pan', { data: '{}' }), 'Invalid "Data (JSON)" in item 0: the object is empty'],
		[
			submit('bgv-twelfth', { ...everyTypedField, documentLabel: 'marksheet' }),
			'Invalid "Year of Passing" in item 0: give the year of passing or the issue date',
		],
		[
			submit('bgv-tenth', { ...everyTypedField, documentLabel: 'm', yearOfPassing: '12' }),
			'Invalid "Year of Passing" in item 0: "12" is not a year',
		],
		// With the check set by an expression, n8n cannot tell which typed fields apply: all are given.
		[
			submit('={{ "bgv-astrology" }}', { data: '{"a":1}', ...everyTypedField }),
			'Invalid "Check" in item 0: "bgv-astrology" is not one of',
		],
		[
			{ ...submit('pan', { data: '{"a":1}' }), transactionId: '={{ $json.nothing }}' },
			'Invalid "Transaction ID" in item 0: expected text, got nothing',
		],
	])('rejects bad input without a request (%#)', async (parameters, message) => {
		const { result, requests } = await submitOne(parameters);

		expect(result.error?.message).toContain(message);
		expect(requests).toHaveLength(0);
	});
});
