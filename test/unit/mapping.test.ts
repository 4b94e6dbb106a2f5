import type { INode, INodeParameters } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { CandidateVerification } from '../../nodes/CandidateVerification/CandidateVerification.node';
import { TEST_API_KEY } from '../harness/credentials-helper';
import { outputJson, runActionNode } from '../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../harness/service-mock';

const FORM_ID = '65f1c0ffee0000000000abcd';
const CANDIDATE_PATH = `/verification/api/1.0/ekyc-forms/${FORM_ID}/diy-candidate`;
const SUBMIT_PATH = '/verification/api/1.0/bgv/diy';

const createAutomatically = {
	resource: 'profile',
	operation: 'create',
	formId: FORM_ID,
	mappingMode: 'autoMapInputData',
};

const submitAutomatically = (verificationName: string, settings: object = {}) => ({
	resource: 'verification',
	operation: 'submit',
	verificationName,
	mappingMode: 'autoMapInputData',
	...settings,
});

describe('Mapping Mode → Map Automatically', () => {
	enableMockedNetwork();

	it('Profile → Create reads each field from the column named like its label or API name', async () => {
		const { scope, requests } = mockService();
		scope.post(CANDIDATE_PATH).reply(200, success({ transactionId: 'TXN-1' }));

		// A sheet's headers as typed: labels, API names, any case, punctuation; one unrelated column.
		const row = {
			'Candidate Name': 'Asha Verma',
			GENDER: 'f',
			'Date of Birth': '17 May 1994',
			'Father’s Name': 'Raj Verma',
			mobile: '+91 98765-43210',
			Email: 'asha@example.com',
			profession: 'Engineer',
			'Joined On': '2024-01-01',
		};
		const result = await runActionNode({ items: [row], parameters: createAutomatically });

		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'POST', path: CANDIDATE_PATH });
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
				json: { transactionId: 'TXN-1', formId: FORM_ID, name: 'Asha Verma' },
				pairedItem: { item: 0 },
			},
		]);
	});

	it('sends only the columns there are (no empty optional fields)', async () => {
		const { scope, requests } = mockService();
		scope.post(CANDIDATE_PATH).reply(200, success({ transactionId: 'TXN-2' }));

		await runActionNode({
			items: [{ name: 'Ravi', gender: 'Male', email: '' }],
			parameters: createAutomatically,
		});

		expect(requests[0].body).toEqual({ name: 'Ravi', gender: 'Male' });
	});

	it('a missing required column fails before anything is sent, naming the columns it looked for and those the item has', async () => {
		const { scope, requests } = mockService();
		// Interceptors for both items, so a request that left would be recorded.
		scope
			.post(CANDIDATE_PATH)
			.times(2)
			.reply(200, success({ transactionId: 'TXN-3' }));

		const result = await runActionNode({
			items: [
				{ name: 'Ravi', gender: 'Male' },
				{ fullName: 'Asha', gender: 'Female', city: 'Pune' },
			],
			parameters: createAutomatically,
		});

		expect(requests).toHaveLength(0);
		expect(result.error?.message).toBe(
			'Invalid "Candidate Name" in item 1: it is required and is empty',
		);
		expect(result.error?.description).toContain(
			'Mapping Mode is Map Automatically and the item has no column "name" or "Candidate Name". Its columns: "fullName", "gender", "city".',
		);
		expect(result.error?.description).toContain('Nothing was sent');
	});

	it('Verification → Submit (employment): data fields from the columns, the document type from its setting', async () => {
		const { scope, requests } = mockService();
		scope.post(SUBMIT_PATH).reply(200, success());

		const result = await runActionNode({
			items: [
				{
					'Transaction ID': 'TXN-9',
					'Name as per Employer Records': 'Asha Verma',
					employerName: 'Acme Pvt Ltd',
					joining_date: '01-04-2021',
					lastWorkingDate: '2024-03-31',
					documentUrl: 'https://files.example/private/exp.pdf',
				},
			],
			parameters: submitAutomatically('bgv-employment', {
				employmentDocumentType: 'experienceletter',
			}),
		});

		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'POST', path: SUBMIT_PATH });
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
		expect(outputJson(result)).toEqual([
			{ transactionId: 'TXN-9', verificationName: 'bgv-employment', submitted: true },
		]);
	});

	it('Verification → Submit (criminal): each address from an object column', async () => {
		const { scope, requests } = mockService();
		scope.post(SUBMIT_PATH).reply(200, success());
		const address = {
			line1: '12 MG Road',
			vtc: 'Indiranagar',
			district: 'Bengaluru Urban',
			state: 'Karnataka',
			pincode: '560038',
			country: 'India',
		};

		await runActionNode({
			items: [
				{
					transactionId: 'TXN-7',
					'Current Address': address,
					permanentAddress: { ...address, line1: '4 Park Street' },
				},
			],
			parameters: submitAutomatically('bgv-criminal'),
		});

		expect(requests[0].body).toEqual({
			data: { currentAddress: address, permanentAddress: { ...address, line1: '4 Park Street' } },
			verificationName: 'bgv-criminal',
			transactionId: 'TXN-7',
		});
	});

	it('Verification → Submit (a JSON check): the data object from the "data" column', async () => {
		const { scope, requests } = mockService();
		scope.post(SUBMIT_PATH).reply(200, success());

		await runActionNode({
			items: [{ transactionId: 'TXN-8', data: { degree: 'B.Tech', year: '2016' } }],
			parameters: submitAutomatically('bgv-degree'),
		});

		expect(requests[0].body).toEqual({
			data: { degree: 'B.Tech', year: '2016' },
			verificationName: 'bgv-degree',
			transactionId: 'TXN-8',
		});
	});
});

describe('Mapping Mode in the editor', () => {
	const { description } = new CandidateVerification();

	function shown(parameters: INodeParameters, typeVersion = 1): string[] {
		const node = { typeVersion } as INode;
		return description.properties
			.filter((property) =>
				NodeHelpers.displayParameter(parameters, property, node, description, parameters),
			)
			.map((property) => property.name);
	}

	it('Map Automatically hides the fields it reads and keeps the settings', () => {
		expect(shown({ resource: 'profile', operation: 'create', mappingMode: 'defineBelow' })).toEqual(
			[
				'resource',
				'operation',
				'formId',
				'mappingMode',
				'name',
				'gender',
				'additionalFields',
				'duplicateProtection',
				'requestOptions',
			],
		);
		expect(shown(createAutomatically)).toEqual([
			'resource',
			'operation',
			'formId',
			'mappingMode',
			'mappingNotice',
			'duplicateProtection',
			'requestOptions',
		]);
		expect(
			shown({
				resource: 'verification',
				operation: 'submit',
				verificationName: 'bgv-employment',
				mappingMode: 'autoMapInputData',
			}),
		).toEqual([
			'resource',
			'operation',
			'verificationName',
			'mappingMode',
			'mappingNotice',
			'employmentDocumentType',
			'duplicateProtection',
			'requestOptions',
		]);
	});

	it('version 2: each typed check shows its own fields; Map Automatically hides them even with the Check set by an expression', () => {
		const submitOn = (verificationName: string, mappingMode = 'defineBelow') =>
			shown({ resource: 'verification', operation: 'submit', verificationName, mappingMode }, 2);
		const common = ['resource', 'operation', 'transactionId', 'verificationName', 'mappingMode'];
		const settings = ['duplicateProtection', 'requestOptions'];

		expect(submitOn('bgv-degree')).toEqual([
			...common,
			'degreeNotice',
			'level',
			'nameAsPerDocument',
			'nameOfInstitute',
			'registrationNumber',
			'issueDate',
			'documentUrl',
			'marksheetUrl',
			...settings,
		]);
		expect(submitOn('bgv-local-extended-address')).toEqual([
			...common,
			'digitalAddressNotice',
			'line1',
			'vtc',
			'district',
			'state',
			'pincode',
			'country',
			...settings,
		]);
		expect(submitOn('bgv-police-verification')).toEqual([
			...common,
			'permanentAddress',
			...settings,
		]);
		expect(submitOn('={{ $json.check }}', 'autoMapInputData')).toEqual([
			'resource',
			'operation',
			'verificationName',
			'mappingMode',
			'mappingNotice',
			'employmentDocumentType',
			'educationNotice',
			'documentLabel',
			'documentLabel',
			'degreeNotice',
			'digitalAddressNotice',
			'instantCheckNotice',
			'jsonDataNotice',
			...settings,
		]);
		// Version 1: the degree is a JSON check.
		expect(shown({ ...submitAutomatically('bgv-degree'), mappingMode: 'defineBelow' }, 1)).toEqual([
			'resource',
			'operation',
			'transactionId',
			'verificationName',
			'mappingMode',
			'jsonDataNotice',
			'data',
			...settings,
		]);
	});

	it('Transaction operations keep their Transaction ID field (no Mapping Mode there)', () => {
		expect(shown({ resource: 'transaction', operation: 'getStatus' })).toContain('transactionId');
	});
});
