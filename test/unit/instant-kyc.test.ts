import { BinaryDataService } from 'n8n-core';
// eslint-disable-next-line @n8n/community-nodes/no-restricted-imports -- test code run by jest, never published
import { Container } from '@n8n/di';
import type { IDataObject, INodeParameters, INodePropertyOptions } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { CandidateVerification } from '../../nodes/CandidateVerification/CandidateVerification.node';
import {
	howToSendTheRest,
	noClearAnswer,
	notSentAfterStop,
} from '../../nodes/CandidateVerification/engine/messages';
import * as transport from '../../nodes/shared/transport';
import { TEST_API_KEY } from '../harness/credentials-helper';
import { ACTION_NODE_TYPE, nodeTypes } from '../harness/environment';
import { outputJson, runActionNode, type NodeRunResult } from '../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../harness/service-mock';

/** Instant KYC (issue 34): one billed call per check, the answer is the result. */
const V = '/verification/api/1.0/verifications';

const kyc = (operation: string, fields: INodeParameters = {}): INodeParameters => ({
	resource: 'instantKyc',
	operation,
	...fields,
});

/** A 1×1 JPEG, as the service sends the Aadhaar photo (base64). */
const JPEG_BASE64 =
	'/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxD/2Q==';
const PNG_BYTES = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

const AADHAAR_DATA = {
	aadhaarId: 'XXXXXXXX1234',
	name: 'Asha Verma',
	dateOfBirth: '17-05-1994',
	gender: 'F',
	address: {
		house: '12',
		street: 'MG Road',
		vtc: 'Bengaluru',
		state: 'Karnataka',
		pincode: '560001',
	},
};

interface Case {
	operation: string;
	fields: INodeParameters;
	path: string;
	body: IDataObject;
	data: IDataObject;
}

const CASES: Case[] = [
	{
		operation: 'verifyPan',
		fields: { pan: ' abcde 1234f ' },
		path: `${V}/pan`,
		body: { pan: 'ABCDE1234F', digiLocker: false },
		data: { fullName: 'ASHA VERMA', pan: 'ABCDE1234F', status: 'VALID' },
	},
	{
		operation: 'verifyBankAccount',
		fields: { accountNumber: '5010 0123 4567 89', ifsc: 'hdfc0001234' },
		path: `${V}/bank-account`,
		body: { accountNumber: '50100123456789', ifsc: 'HDFC0001234', pennyLess: true },
		data: { accountExists: true, nameAtBank: 'ASHA VERMA' },
	},
	{
		operation: 'verifyBankAccount',
		fields: { accountNumber: 50100123456789, ifsc: 'HDFC0001234', pennyLess: '={{ false }}' },
		path: `${V}/bank-account`,
		body: { accountNumber: '50100123456789', ifsc: 'HDFC0001234', pennyLess: false },
		data: { accountExists: true, nameAtBank: 'ASHA VERMA' },
	},
	{
		operation: 'verifyUpi',
		fields: { upi: ' asha.verma@okhdfcbank ' },
		path: `${V}/upi`,
		body: { upi: 'asha.verma@okhdfcbank' },
		data: { accountExists: true, nameAtBank: 'ASHA VERMA' },
	},
	{
		operation: 'verifyGst',
		fields: { gst: '27abcde1234f1z5' },
		path: `${V}/gst`,
		body: { gst: '27ABCDE1234F1Z5' },
		data: {
			legalName: 'ACME TECHNOLOGIES PRIVATE LIMITED',
			tradeName: 'ACME',
			gstin: '27ABCDE1234F1Z5',
			status: 'Active',
			dateOfRegistration: '01/07/2017',
		},
	},
	{
		operation: 'getEmploymentHistory',
		fields: { uan: '1001 2345 6789' },
		path: `${V}/employment-check`,
		body: { uan: '100123456789' },
		data: {
			employmentData: [
				{
					name: 'ASHA VERMA',
					guardianName: 'RAKESH VERMA',
					establishmentName: 'ACME TECHNOLOGIES',
					memberId: 'MHBAN00123450000012345',
					dateOfJoining: '2021-04-01',
				},
			],
		},
	},
	{
		operation: 'verifyDin',
		fields: { din: '01234567' },
		path: `${V}/din`,
		body: { din: '01234567' },
		data: {
			directorData: { din: '01234567', name: 'ASHA VERMA' },
			companyData: [
				{
					companyName: 'ACME',
					cinOrFcrn: 'U72200KA2015PTC000001',
					beginDate: '2015-01-01',
					endDate: '-',
				},
			],
		},
	},
	{
		operation: 'aadhaarStart',
		fields: { redirectUrl: 'https://example.com/thank-you' },
		path: `${V}/pre-verify/aadhaar`,
		body: { digiLocker: true, redirectUrl: 'https://example.com/thank-you' },
		data: { transactionId: 'DL-TXN-1', authUrl: 'https://digilocker.example/auth?txn=DL-TXN-1' },
	},
	{
		operation: 'aadhaarGetResult',
		fields: { digiLockerTransactionId: '={{ $json.transactionId }}' },
		path: `${V}/self/aadhaar`,
		body: { digiLocker: true, transactionId: 'DL-TXN-1' },
		data: AADHAAR_DATA,
	},
];

async function runOnce(
	parameters: INodeParameters,
	answer: object,
	items: IDataObject[] = [{ transactionId: 'DL-TXN-1' }],
	status = 200,
) {
	const { scope, requests } = mockService();
	scope.post(/\/verifications\//).reply(status, answer);
	const result = await runActionNode({ items, parameters });
	return { result, requests };
}

function expectNoKey(result: NodeRunResult) {
	expect(JSON.stringify(result.items)).not.toContain(TEST_API_KEY);
	expect(JSON.stringify(result.error ?? {})).not.toContain(TEST_API_KEY);
}

describe('Instant KYC: one billed call per check', () => {
	enableMockedNetwork();

	it.each(CASES.map((entry) => [`${entry.operation} ${JSON.stringify(entry.fields)}`, entry]))(
		'%s: exact path and body (the check’s own fields only); output = data + valid + reason',
		async (_name, { operation, fields, path, body, data }) => {
			const { result, requests } = await runOnce(kyc(operation, fields), success(data));

			expect(result.error).toBeUndefined();
			expect(requests).toHaveLength(1);
			expect(requests[0]).toMatchObject({ method: 'POST', path });
			expect(requests[0].headers['x-api-key']).toBe(TEST_API_KEY);
			expect(requests[0].body).toEqual(body);
			expect(result.items).toEqual([
				{ json: { ...data, valid: true, reason: 'Success' }, pairedItem: { item: 0 } },
			]);
			expectNoKey(result);
		},
	);

	it('a negative result (code 0, status INVALID) is an output with valid false and the reason, not an error', async () => {
		const { result, requests } = await runOnce(kyc('verifyPan', { pan: 'ABCDE1234X' }), {
			code: 0,
			message: 'Invalid PAN',
			data: { pan: 'ABCDE1234X', status: 'INVALID', reason: 'No record found for this PAN' },
		});

		expect(result.error).toBeUndefined();
		expect(requests).toHaveLength(1);
		expect(result.items).toEqual([
			{
				json: {
					pan: 'ABCDE1234X',
					status: 'INVALID',
					valid: false,
					reason: 'No record found for this PAN',
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	it('Verify GST: a body that is exactly { message } under HTTP 200 (the page’s invalid GSTIN) is a negative result, answered, never in doubt', async () => {
		const { scope, requests } = mockService();
		scope.post(`${V}/gst`).reply(200, { message: 'Invalid GSTIN' });
		scope.post(`${V}/gst`).reply(200, success({ legalName: 'ACME', gstin: '29ABCDE1234F1Z5' }));

		const result = await runActionNode({
			items: [{ gst: '27ABCDE1234F1Z5' }, { gst: '29ABCDE1234F1Z5' }],
			parameters: kyc('verifyGst', {
				gst: '={{ $json.gst }}',
				requestOptions: { maxConcurrentRequests: 1 },
			}),
			continueOnFail: true,
		});

		expect(result.error).toBeUndefined();
		expect(requests.map((request) => request.body)).toEqual([
			{ gst: '27ABCDE1234F1Z5' },
			{ gst: '29ABCDE1234F1Z5' },
		]);
		expect(result.items).toEqual([
			{ json: { valid: false, reason: 'Invalid GSTIN' }, pairedItem: { item: 0 } },
			{
				json: { legalName: 'ACME', gstin: '29ABCDE1234F1Z5', valid: true, reason: 'Success' },
				pairedItem: { item: 1 },
			},
		]);
	});

	it.each([
		[
			'data.message when data has no reason',
			{ status: 'INVALID', message: 'Account closed' },
			'Invalid account',
			'Account closed',
		],
		[
			'the envelope’s message when data has neither',
			{ status: 'INVALID' },
			'Invalid account',
			'Invalid account',
		],
		['null when the service says nothing', { status: 'INVALID' }, undefined, null],
	])('reason is %s', async (_what, data, message, reason) => {
		const { result } = await runOnce(
			kyc('verifyBankAccount', { accountNumber: '123456789', ifsc: 'SBIN0000001' }),
			{ code: 0, ...(message ? { message } : {}), data },
		);

		expect(outputJson(result)).toEqual([{ ...data, valid: false, reason }]);
	});

	it('one output per input item, in order, each with its own result', async () => {
		const { scope, requests } = mockService();
		scope
			.post(`${V}/pan`)
			.times(2)
			.reply(200, (_uri, body) => {
				const { pan } = body as { pan: string };
				return pan.endsWith('X')
					? {
							code: 0,
							message: 'Invalid PAN',
							data: { pan, status: 'INVALID', reason: 'No record' },
						}
					: success({ pan, fullName: 'ASHA VERMA', status: 'VALID' });
			});

		const result = await runActionNode({
			items: [{ pan: 'ABCDE1234F' }, { pan: 'ABCDE1234X' }],
			parameters: kyc('verifyPan', { pan: '={{ $json.pan }}' }),
		});

		expect(requests.map((request) => request.body)).toEqual([
			{ pan: 'ABCDE1234F', digiLocker: false },
			{ pan: 'ABCDE1234X', digiLocker: false },
		]);
		expect(outputJson(result).map(({ valid, reason }) => ({ valid, reason }))).toEqual([
			{ valid: true, reason: 'Success' },
			{ valid: false, reason: 'No record' },
		]);
	});

	it('Map Automatically reads each identifier from the column named like it', async () => {
		const { result, requests } = await runOnce(
			kyc('verifyBankAccount', { mappingMode: 'autoMapInputData' }),
			success({ accountExists: true, nameAtBank: 'ASHA VERMA' }),
			[{ 'Account Number': '123 456 789', IFSC: 'sbin0000001', city: 'Pune' }],
		);

		expect(result.error).toBeUndefined();
		expect(requests[0].body).toEqual({
			accountNumber: '123456789',
			ifsc: 'SBIN0000001',
			pennyLess: true,
		});
	});
});

describe('Instant KYC: valid and reason, whatever shape the service answers in', () => {
	enableMockedNetwork();

	/** The older PAN page's answer: the result nested under data.data. */
	const nestedPan = (result: IDataObject) => ({
		code: 200,
		data: result,
		transaction_id: 'PAN-TXN-1',
	});

	it('the newer (flat) and the older (nested) PAN answer: a flow reads valid, reason, fullName and pan alike; the flat answer is unchanged', async () => {
		const flat = { fullName: 'ASHA VERMA', pan: 'ABCDE1234F' };
		const nested = nestedPan({
			pan: 'ABCDE1234F',
			full_name: 'ASHA VERMA',
			status: 'VALID',
			category: 'Individual',
		});

		const fromFlat = await runOnce(kyc('verifyPan', { pan: 'ABCDE1234F' }), success(flat));
		const fromNested = await runOnce(kyc('verifyPan', { pan: 'ABCDE1234F' }), success(nested));

		const read = ({ valid, reason, fullName, pan }: IDataObject) => ({
			valid,
			reason,
			fullName,
			pan,
		});
		expect(outputJson(fromNested.result).map(read)).toEqual(outputJson(fromFlat.result).map(read));
		expect(outputJson(fromFlat.result)).toEqual([
			{ fullName: 'ASHA VERMA', pan: 'ABCDE1234F', valid: true, reason: 'Success' },
		]);
		expect(outputJson(fromNested.result)).toEqual([
			{
				code: 200,
				data: {
					pan: 'ABCDE1234F',
					full_name: 'ASHA VERMA',
					status: 'VALID',
					category: 'Individual',
				},
				transaction_id: 'PAN-TXN-1',
				fullName: 'ASHA VERMA',
				pan: 'ABCDE1234F',
				status: 'VALID',
				category: 'Individual',
				valid: true,
				reason: 'Success',
			},
		]);
	});

	it('a nested INVALID (the older PAN answer) is valid false, with the nested reason', async () => {
		const { result } = await runOnce(kyc('verifyPan', { pan: 'ABCDE1234X' }), {
			code: 0,
			message: 'Invalid PAN',
			data: nestedPan({
				pan: 'ABCDE1234X',
				status: 'INVALID',
				reason: 'No record found for this PAN',
			}),
		});

		expect(result.error).toBeUndefined();
		expect(outputJson(result)).toEqual([
			{
				code: 200,
				data: { pan: 'ABCDE1234X', status: 'INVALID', reason: 'No record found for this PAN' },
				transaction_id: 'PAN-TXN-1',
				pan: 'ABCDE1234X',
				status: 'INVALID',
				valid: false,
				reason: 'No record found for this PAN',
			},
		]);
	});

	it.each([
		[
			'verifyBankAccount',
			{ accountNumber: '123456789', ifsc: 'SBIN0000001' },
			'Invalid Account Number or IFSC',
		],
		['verifyUpi', { upi: 'asha.verma@okhdfcbank' }, 'Invalid VPA'],
	])(
		'%s: accountExists false without a status is valid false, with the service’s message',
		async (operation, fields, message) => {
			const { result } = await runOnce(kyc(operation, fields), {
				code: 0,
				message,
				data: { accountExists: false, nameAtBank: null },
			});

			expect(result.error).toBeUndefined();
			expect(outputJson(result)).toEqual([
				{ accountExists: false, nameAtBank: null, valid: false, reason: message },
			]);
		},
	);

	it.each([
		[
			'its valid false beside status VALID',
			'verifyPan',
			{ pan: 'ABCDE1234F' },
			{
				fullName: 'ASHA VERMA',
				pan: 'ABCDE1234F',
				status: 'VALID',
				valid: false,
				reason: 'PAN not linked with Aadhaar',
			},
		],
		[
			'its reason null (not the envelope’s message)',
			'verifyUpi',
			{ upi: 'asha.verma@okhdfcbank' },
			{ accountExists: true, nameAtBank: 'ASHA VERMA', valid: true, reason: null },
		],
	])('the service’s own fields are kept as sent: %s', async (_what, operation, fields, data) => {
		const { result } = await runOnce(kyc(operation, fields), success(data));

		expect(outputJson(result)).toEqual([data]);
	});
});

describe('Instant KYC: rejections (code -1, code 1, or a 4xx message with no code) name the operation and the field', () => {
	enableMockedNetwork();

	it('a message about a field names the node’s field and the item', async () => {
		const { result, requests } = await runOnce(kyc('verifyPan', { pan: 'ABCDE1234F' }), {
			code: -1,
			message: '"pan" must be a valid PAN',
		});

		expect(requests).toHaveLength(1);
		expect(result.error?.message).toBe(
			'Verify a PAN was rejected by the Candidate Verification Service: "pan" must be a valid PAN ("PAN" of item 0)',
		);
		expect(result.error?.description).toBe(
			[
				'- "pan" must be a valid PAN',
				'(HTTP 200, code -1)',
				'Correct "PAN" in item 0, then run only that item again.',
			].join('\n'),
		);
		expectNoKey(result);
	});

	it('a message the service words its own way (IFSC under a 422) still names the field', async () => {
		const { result } = await runOnce(
			kyc('verifyBankAccount', { accountNumber: '123456789', ifsc: 'SBIN0000001' }),
			{ code: -1, message: 'Invalid IFSC code' },
			undefined,
			422,
		);

		expect(result.error?.message).toBe(
			'Verify a bank account was rejected by the Candidate Verification Service: Invalid IFSC code ("IFSC" of item 0)',
		);
	});

	it.each([
		[
			'Verify GST, an invalid GSTIN (HTTP 400)',
			'verifyGst',
			{ gst: '27ABCDE1234F1Z5' },
			400,
			'Invalid GSTIN',
			'Verify a GSTIN',
			'"GSTIN"',
		],
		[
			'Aadhaar (DigiLocker) Start, a bad redirect URL (HTTP 422)',
			'aadhaarStart',
			{ redirectUrl: 'https://example.com/thank-you' },
			422,
			'"redirectUrl" must be a valid uri',
			'Start an Aadhaar check through DigiLocker',
			'"Redirect URL"',
		],
	])(
		'a { message } with no code under a 4xx is a rejection naming the field: %s',
		async (_what, operation, fields, status, message, action, field) => {
			const { result, requests } = await runOnce(
				kyc(operation, fields),
				{ message },
				undefined,
				status,
			);

			expect(requests).toHaveLength(1);
			expect(result.items).toEqual([]);
			expect(result.error?.message).toBe(
				`${action} was rejected by the Candidate Verification Service: ${message} (${field} of item 0)`,
			);
			expect(result.error?.description).toBe(
				[
					`- ${message}`,
					`(HTTP ${status}, no code)`,
					`Correct ${field} in item 0, then run only that item again.`,
				].join('\n'),
			);
			expectNoKey(result);
		},
	);

	it('a message naming no field lists the fields the item sent', async () => {
		const { result } = await runOnce(
			kyc('verifyBankAccount', { accountNumber: '123456789', ifsc: 'SBIN0000001' }),
			{ code: -1, message: 'Source temporarily unavailable' },
		);

		expect(result.error?.message).toBe(
			'Verify a bank account was rejected by the Candidate Verification Service: Source temporarily unavailable (the service named no field; item 0 sent "Account Number", "IFSC")',
		);
		expect(result.error?.description).toContain(
			'Check "Account Number", "IFSC" in item 0, then run only that item again.',
		);
	});

	it('Aadhaar Get Result before the candidate consented: an error with the service’s message and what to do', async () => {
		const { result, requests } = await runOnce(
			kyc('aadhaarGetResult', { digiLockerTransactionId: 'DL-TXN-1' }),
			{
				code: -1,
				message: 'Consent pending: the candidate has not completed DigiLocker authorisation',
			},
		);

		expect(requests).toHaveLength(1);
		expect(result.items).toEqual([]);
		expect(result.error?.message).toBe(
			'Get the result of an Aadhaar check through DigiLocker was rejected by the Candidate Verification Service: Consent pending: the candidate has not completed DigiLocker authorisation (the service named no field; item 0 sent "DigiLocker Transaction ID")',
		);
		expect(result.error?.description).toContain(
			'If the candidate has not finished the consent at the authUrl of Aadhaar (DigiLocker) Start, run this again after they have',
		);
	});
});

describe('Instant KYC: the input check (before anything is sent)', () => {
	enableMockedNetwork();

	it.each([
		[
			'verifyPan',
			{ pan: 'ABCD1234F' },
			'Invalid "PAN" in item 1: "ABCD1234F" is not a PAN: expected 5 letters, 4 digits and a letter, e.g. ABCDE1234F',
		],
		[
			'verifyBankAccount',
			{ accountNumber: '123456789', ifsc: 'SBIN1000001' },
			'Invalid "IFSC" in item 1: "SBIN1000001" is not an IFSC: expected 4 letters, a zero and 6 letters or digits, e.g. HDFC0001234',
		],
		[
			'verifyBankAccount',
			{ accountNumber: '12-34', ifsc: 'SBIN0000001' },
			'Invalid "Account Number" in item 1: "12-34" is not a bank account number: expected 9 to 18 digits',
		],
		[
			'verifyBankAccount',
			{ accountNumber: '={{ 12345678901234567 }}', ifsc: 'SBIN0000001' },
			'Invalid "Account Number" in item 1: number 12345678901234568 is a number too large to be exact (digits are lost); give it as text, e.g. from a text column',
		],
		[
			'verifyUpi',
			{ upi: 'asha.verma' },
			'Invalid "UPI ID" in item 1: "asha.verma" is not a UPI ID: expected name@handle, e.g. asha.verma@okhdfcbank',
		],
		[
			'verifyGst',
			{ gst: '27ABCDE1234F1X5' },
			'Invalid "GSTIN" in item 1: "27ABCDE1234F1X5" is not a GSTIN: expected 15 characters: 2 digits (the state), the PAN, an entity character, Z and a check character, e.g. 27ABCDE1234F1Z5',
		],
		[
			'getEmploymentHistory',
			{ uan: '10012345678' },
			'Invalid "UAN" in item 1: "10012345678" is not a UAN: expected 12 digits, e.g. 100123456789',
		],
		[
			'verifyDin',
			{ din: '={{ 1234567 }}' },
			'Invalid "DIN" in item 1: "1234567" is not a DIN: expected 8 digits, e.g. 01234567',
		],
		[
			'aadhaarStart',
			{ redirectUrl: 'ftp://example.com/done' },
			'Invalid "Redirect URL" in item 1: "ftp://example.com/done" is not an http or https URL: give a full address, e.g. https://example.com/thank-you',
		],
		[
			'aadhaarGetResult',
			{ digiLockerTransactionId: '' },
			'Invalid "DigiLocker Transaction ID" in item 1: it is required and is empty',
		],
	])(
		'%s %j: an error naming the field and the item; nothing is sent',
		async (operation, fields, message) => {
			const { scope, requests } = mockService();
			scope.post(/.*/).reply(200, success({}));
			// Item 0 valid, item 1 not: one invalid item stops the run before any request.
			const valid: Record<string, INodeParameters> = {
				verifyPan: { pan: 'ABCDE1234F' },
				verifyBankAccount: { accountNumber: '123456789', ifsc: 'SBIN0000001' },
				verifyUpi: { upi: 'a@b' },
				verifyGst: { gst: '27ABCDE1234F1Z5' },
				getEmploymentHistory: { uan: '100123456789' },
				verifyDin: { din: '01234567' },
				aadhaarStart: { redirectUrl: 'https://example.com' },
				aadhaarGetResult: { digiLockerTransactionId: 'DL-TXN-1' },
			};
			const parameters = Object.fromEntries(
				Object.entries(fields).map(([name, value]) => [
					name,
					`={{ $itemIndex === 0 ? ${JSON.stringify(valid[operation][name])} : ${
						String(value).startsWith('={{') ? String(value).slice(4, -3) : JSON.stringify(value)
					} }}`,
				]),
			);

			const result = await runActionNode({
				items: [{}, {}],
				parameters: kyc(operation, parameters),
			});

			expect(result.error?.message).toBe(message);
			expect(result.error?.description).toContain(
				'Nothing was sent to the Candidate Verification Service for any item.',
			);
			expect(requests).toHaveLength(0);
		},
	);

	it('every wrong field of an item is reported together', async () => {
		const { requests } = mockService();
		const result = await runActionNode({
			parameters: kyc('verifyBankAccount', { accountNumber: 'abc', ifsc: 'x', pennyLess: 'maybe' }),
		});

		expect(result.error?.message).toBe('3 invalid fields in item 0');
		expect(result.error?.description).toContain('- Invalid "Account Number" in item 0');
		expect(result.error?.description).toContain('- Invalid "IFSC" in item 0');
		expect(result.error?.description).toContain(
			'- Invalid "Penny-Less" in item 0: expected true or false, got "maybe"',
		);
		expect(requests).toHaveLength(0);
	});
});

describe('Instant KYC: billed per call, so never tried again once the request may have reached the service', () => {
	enableMockedNetwork();

	/** One run whose first request fails as given; later requests reach the (mocked) service. */
	async function runFailingOnce(failure: object) {
		const { scope, requests } = mockService();
		scope.post(`${V}/pan`).reply(200, success({ pan: 'ABCDE1234F', status: 'VALID' }));
		const send = jest.spyOn(transport, 'sendWithCredential');
		send.mockImplementationOnce(async () => {
			throw Object.assign(new Error(), failure);
		});
		try {
			const result = await runActionNode({
				parameters: kyc('verifyPan', { pan: 'ABCDE1234F', requestOptions: { retryWait: 1 } }),
			});
			return { result, tries: send.mock.calls.length, received: requests.length };
		} finally {
			send.mockRestore();
		}
	}

	it.each([
		['a timeout', { code: 'ETIMEDOUT', message: 'timeout of 60000ms exceeded' }],
		['a reset', { code: 'ECONNRESET', message: 'socket hang up' }],
	])(
		'after %s: one request only, and the error says the check may have run',
		async (_what, failure) => {
			const { result, tries } = await runFailingOnce(failure);

			expect(tries).toBe(1);
			expect(result.error?.message).toMatch(
				/^Verify a PAN failed: the Candidate Verification Service/,
			);
			expect(result.error?.description).toContain(noClearAnswer([0]));
			expect(result.error?.description).not.toContain('Retry On Fail.');
		},
	);

	it('after a refused connection (nothing reached the service): tried again, one call billed', async () => {
		const { result, tries, received } = await runFailingOnce({
			code: 'ECONNREFUSED',
			message: 'connect ECONNREFUSED',
		});

		expect(result.error).toBeUndefined();
		expect(tries).toBe(2);
		expect(received).toBe(1);
		expect(outputJson(result)).toEqual([
			{ pan: 'ABCDE1234F', status: 'VALID', valid: true, reason: 'Success' },
		]);
	});

	it('after a 502 from a gateway (the service may have answered it): not tried again', async () => {
		const { scope, requests } = mockService();
		scope.post(`${V}/pan`).reply(502, '<html><body>502 Bad Gateway</body></html>');
		scope.post(`${V}/pan`).reply(200, success({ status: 'VALID' }));

		const result = await runActionNode({
			parameters: kyc('verifyPan', { pan: 'ABCDE1234F', requestOptions: { retryWait: 1 } }),
		});

		expect(requests).toHaveLength(1);
		expect(result.error?.message).toBe(
			'Verify a PAN failed: the Candidate Verification Service answered HTTP 502 with a body that is not JSON',
		);
	});

	it('after a 503 (the service did not act): tried again', async () => {
		const { scope, requests } = mockService();
		scope.post(`${V}/pan`).reply(503, { code: -1, message: 'Busy' });
		scope.post(`${V}/pan`).reply(200, success({ status: 'VALID' }));

		const result = await runActionNode({
			parameters: kyc('verifyPan', { pan: 'ABCDE1234F', requestOptions: { retryWait: 1 } }),
		});

		expect(result.error).toBeUndefined();
		expect(requests).toHaveLength(2);
	});

	it('a run stopped at a lost answer names the items not sent and how to send only them', async () => {
		const { scope, requests } = mockService();
		scope.post(`${V}/pan`).reply(200, success({ status: 'VALID' }));
		const original = transport.sendWithCredential;
		const send = jest.spyOn(transport, 'sendWithCredential');
		// The second request is reset after it left (it reaches no mock).
		send.mockImplementation(async function (this: never, ...args) {
			if (send.mock.calls.length === 2) throw Object.assign(new Error(), { code: 'ECONNRESET' });
			return await original.apply(this, args);
		});
		try {
			const result = await runActionNode({
				items: [{ pan: 'ABCDE1234F' }, { pan: 'ABCDE1234G' }, { pan: 'ABCDE1234H' }],
				parameters: kyc('verifyPan', {
					pan: '={{ $json.pan }}',
					requestOptions: { maxConcurrentRequests: 1 },
				}),
			});

			expect(send).toHaveBeenCalledTimes(2);
			expect(requests.map((request) => (request.body as IDataObject).pan)).toEqual(['ABCDE1234F']);
			const rest = howToSendTheRest({
				creates: false,
				billedPerCall: true,
				skipsRowsSent: false,
				answersLost: true,
				heldInDoubt: false,
				accepted: false,
				lostKeptForTries: true,
			});
			expect(result.error?.description).toContain(notSentAfterStop([2], rest));
		} finally {
			send.mockRestore();
		}
	});

	it('a re-run calls (and bills) again: nothing is recorded across executions', async () => {
		const { scope, requests } = mockService();
		scope
			.post(`${V}/pan`)
			.times(2)
			.reply(200, success({ status: 'VALID' }));

		await runActionNode({ parameters: kyc('verifyPan', { pan: 'ABCDE1234F' }) });
		await runActionNode({ parameters: kyc('verifyPan', { pan: 'ABCDE1234F' }) });

		expect(requests).toHaveLength(2);
	});
});

describe('Instant KYC: Aadhaar through DigiLocker', () => {
	enableMockedNetwork();

	async function storedBytes(result: NodeRunResult) {
		const binary = result.items[0].binary?.photo;
		if (!binary) throw new Error('no binary property photo');
		return await Container.get(BinaryDataService).getAsBuffer(binary);
	}

	it('Get Result: the photo becomes binary data (photo, image/jpeg) and leaves the JSON', async () => {
		const { result } = await runOnce(
			kyc('aadhaarGetResult', { digiLockerTransactionId: 'DL-TXN-1' }),
			success({ ...AADHAAR_DATA, photo: JPEG_BASE64 }),
		);

		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toEqual({ ...AADHAAR_DATA, valid: true, reason: 'Success' });
		expect(result.items[0].binary?.photo).toMatchObject({
			fileName: 'aadhaar-photo.jpg',
			mimeType: 'image/jpeg',
		});
		expect(await storedBytes(result)).toEqual(Buffer.from(JPEG_BASE64, 'base64'));
		expectNoKey(result);
	});

	it.each([
		['sniffed from its bytes', PNG_BYTES.toString('base64')],
		['from a data URL', `data:image/png;base64,${PNG_BYTES.toString('base64')}`],
	])('Get Result: a PNG photo keeps its type, %s', async (_how, photo) => {
		const { result } = await runOnce(
			kyc('aadhaarGetResult', { digiLockerTransactionId: 'DL-TXN-1' }),
			success({ ...AADHAAR_DATA, photo }),
		);

		expect(result.items[0].binary?.photo).toMatchObject({
			fileName: 'aadhaar-photo.png',
			mimeType: 'image/png',
		});
		expect(await storedBytes(result)).toEqual(PNG_BYTES);
	});
});

describe('Instant KYC in the editor', () => {
	const { description } = new CandidateVerification();
	const resources = description.properties.find((property) => property.name === 'resource')!
		.options as INodePropertyOptions[];
	const operations = description.properties.find(
		(property) =>
			property.name === 'operation' &&
			property.displayOptions?.show?.resource?.includes('instantKyc'),
	)!;

	it.each([
		['verifyPan', 'Verify PAN: Instant KYC'],
		['aadhaarStart', 'Aadhaar (DigiLocker) Start: Instant KYC'],
	])('canvas subtitle of %s reads "%s"', (operation, subtitle) => {
		const node = {
			id: '1',
			name: 'Candidate Verification',
			type: ACTION_NODE_TYPE,
			typeVersion: 1,
			position: [0, 0] as [number, number],
			parameters: { resource: 'instantKyc', operation },
		};
		const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
		expect(
			workflow.expression.getSimpleParameterValue(
				node,
				description.subtitle as string,
				'internal',
				{},
			),
		).toBe(subtitle);
	});

	it('is a resource of its own, in alphabetical order', () => {
		const names = resources.map((resource) => resource.name);
		expect(names).toContain('Instant KYC');
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
	});

	it('says what sets valid: in the notice and in the description of every operation whose output has it', () => {
		const meaning =
			'false when the service’s answer says status "INVALID" (at its top level or, in the older PAN answer, nested) or accountExists false, true otherwise; a valid the service sends itself is kept as sent';
		const notice = description.properties.find((property) => property.name === 'instantKycNotice');
		expect(notice?.displayName).toContain(`The field valid is ${meaning}.`);
		const options = operations.options as INodePropertyOptions[];
		const withValid = options.filter((option) => !String(option.value).startsWith('aadhaar'));
		// Every call but the two Aadhaar (DigiLocker) steps.
		expect(withValid).toHaveLength(options.length - 2);
		for (const option of withValid) {
			expect(option.description).toContain(
				`The output is the service’s answer plus reason and valid, ${meaning}.`,
			);
		}
	});

	it('every operation says it is billed per call, for people and AI agents; Verify PAN is the default', () => {
		const options = operations.options as INodePropertyOptions[];
		const values = options.map((option) => String(option.value));
		expect(values).toEqual([...values].sort());
		expect(values).toEqual(
			expect.arrayContaining([
				'aadhaarGetResult',
				'aadhaarStart',
				'getEmploymentHistory',
				'verifyBankAccount',
				'verifyDin',
				'verifyGst',
				'verifyPan',
				'verifyUpi',
			]),
		);
		for (const option of options) {
			expect(option.description).toContain('Billed per call; a re-run calls again.');
		}
		expect(operations.default).toBe('verifyPan');
		const start = options.find((option) => option.value === 'aadhaarStart');
		expect(start?.description).toContain('Send authUrl to the candidate');
	});

	it('Aadhaar (DigiLocker) Start says that a re-run sends the candidate a new link', () => {
		const notices = description.properties.filter(
			(property) =>
				property.type === 'notice' &&
				property.displayOptions?.show?.operation?.includes('aadhaarStart'),
		);
		expect(notices.map((notice) => notice.displayName)).toEqual([
			'Each run starts a new consent request, and the candidate gets a new link: run it once per candidate.',
		]);
	});
});
