'use strict';

const { createSandbox } = require('../../sandbox/server');

/** The sandbox's Instant KYC checks (issue 34): strict bodies, deterministic answers. */
const API_KEY = 'test-api-key';
const V = '/verification/api/1.0/verifications';

let sandbox;
let baseUrl;

beforeEach(async () => {
	sandbox = createSandbox({ apiKey: API_KEY, orgId: 'test-org' });
	({ baseUrl } = await sandbox.listen());
});

afterEach(() => sandbox.close());

async function call(method, urlPath, body, apiKey = API_KEY) {
	const headers = { ...(apiKey && { 'x-api-key': apiKey }) };
	if (body !== undefined) headers['content-type'] = 'application/json';
	const response = await fetch(urlPath.startsWith('http') ? urlPath : baseUrl + urlPath, {
		method,
		headers,
		...(body !== undefined && { body: JSON.stringify(body) }),
	});
	return { status: response.status, json: await response.json() };
}

const post = (path, body) => call('POST', `${V}${path}`, body);

describe('instant checks: positive and negative results', () => {
	it.each([
		['/pan', { pan: 'ABCDE1234F', digiLocker: false }, { fullName: 'ASHA VERMA', pan: 'ABCDE1234F', status: 'VALID', category: 'Individual' }],
		['/bank-account', { accountNumber: '50100123456789', ifsc: 'HDFC0001234', pennyLess: true }, { accountExists: true, nameAtBank: 'ASHA VERMA' }],
		['/upi', { upi: 'asha.verma@okhdfcbank' }, { accountExists: true, nameAtBank: 'ASHA VERMA' }],
	])('POST %s answers the result', async (path, body, data) => {
		expect(await post(path, body)).toEqual({ status: 200, json: { code: 0, message: 'Success', data } });
	});

	it('GST, employment history and DIN answer the public result fields', async () => {
		const gst = await post('/gst', { gst: '27ABCDE1234F1Z5' });
		expect(gst.json.data).toMatchObject({ gstin: '27ABCDE1234F1Z5', legalName: expect.any(String), status: 'Active', dateOfRegistration: '01/07/2017' });

		const employment = await post('/employment-check', { uan: '100123456789' });
		expect(employment.json.data.employmentData).toHaveLength(2);
		expect(Object.keys(employment.json.data.employmentData[0])).toEqual(['name', 'guardianName', 'establishmentName', 'memberId', 'dateOfJoining', 'dateOfExit']);
		expect(employment.json.data.employmentData[1].dateOfExit).toBeUndefined();

		const din = await post('/din', { din: '01234567' });
		expect(din.json.data).toMatchObject({
			directorData: { din: '01234567', name: 'ASHA VERMA' },
			companyData: [{ companyName: expect.any(String), cinOrFcrn: expect.any(String), beginDate: '2015-01-01', endDate: '-' }],
			llpData: [],
		});
	});

	it.each([
		['/pan', { pan: 'ABCDE1234X', digiLocker: false }, 'Invalid PAN', 'No record found for this PAN'],
		['/bank-account', { accountNumber: '123450000', ifsc: 'SBIN0000001', pennyLess: false }, 'Invalid bank account', 'Account does not exist at this bank'],
		['/upi', { upi: 'invalid@okaxis' }, 'Invalid UPI ID', 'No account is linked to this UPI ID'],
		['/gst', { gst: '27ABCDE1234F1ZX' }, 'Invalid GSTIN', 'No registration found for this GSTIN'],
		['/employment-check', { uan: '100123450000' }, 'Invalid UAN', 'No employment record for this UAN'],
		['/din', { din: '01230000' }, 'Invalid DIN', 'No director found for this DIN'],
	])('POST %s with a test value answers a negative result as a success envelope', async (path, body, message, reason) => {
		const { status, json } = await post(path, body);
		expect(status).toBe(200);
		expect(json).toMatchObject({ code: 0, message, data: { status: 'INVALID', reason } });
	});
});

describe('instant checks: strict bodies', () => {
	it.each([
		['/pan', { pan: 'ABCDE1234F' }, '"digiLocker" is required'],
		['/pan', { pan: 'ABCDE1234F', digiLocker: true }, '"digiLocker" must be [false]'],
		['/pan', { pan: 'ABCDE1234F', digiLocker: false, transactionId: 'T' }, '"transactionId" is not allowed'],
		['/pan', { pan: 'abcde1234f', digiLocker: false }, '"pan" must be a valid PAN'],
		['/bank-account', { accountNumber: '50100123456789', ifsc: 'HDFC1001234' }, '"ifsc" must be a valid IFSC/"pennyLess" is required'],
		['/upi', { upi: 'asha', verificationName: 'upi' }, '"upi" must be a valid UPI ID/"verificationName" is not allowed'],
		['/gst', {}, '"gst" is required'],
		['/employment-check', { uan: 100123456789 }, '"uan" must be a string'],
		['/din', { din: '1234567' }, '"din" must be a valid DIN'],
		['/pre-verify/aadhaar', { redirectUrl: 'https://example.com' }, '"digiLocker" is required'],
		['/self/aadhaar', { digiLocker: true }, '"transactionId" is required'],
	])('POST %s %j → code -1 under HTTP 200: %s', async (path, body, message) => {
		expect(await post(path, body)).toEqual({ status: 200, json: { code: -1, message } });
	});

	it('the API key is required', async () => {
		const { status, json } = await call('POST', `${V}/pan`, { pan: 'ABCDE1234F', digiLocker: false }, null);
		expect(status).toBe(401);
		expect(json.code).toBe(-1);
	});
});

describe('Aadhaar through DigiLocker', () => {
	it('pre-verify answers a transactionId and an authUrl; the result is pending until the candidate consents at authUrl', async () => {
		const start = await post('/pre-verify/aadhaar', { digiLocker: true, redirectUrl: 'https://example.com/done' });
		expect(start.status).toBe(200);
		const { transactionId, authUrl } = start.json.data;
		expect(Object.keys(start.json.data)).toEqual(['transactionId', 'authUrl']);
		expect(authUrl).toBe(`${baseUrl}/__sandbox/digilocker/${transactionId}`);

		const pending = await post('/self/aadhaar', { digiLocker: true, transactionId });
		expect(pending).toEqual({
			status: 200,
			json: { code: -1, message: 'Consent pending: the candidate has not completed DigiLocker authorisation' },
		});

		const consent = await call('GET', authUrl, undefined, null);
		expect(consent.json).toEqual({ transactionId, consented: true, redirectUrl: 'https://example.com/done' });

		const result = await post('/self/aadhaar', { digiLocker: true, transactionId });
		expect(result.json.code).toBe(0);
		expect(result.json.data).toMatchObject({
			aadhaarId: 'XXXXXXXX1234',
			name: 'Asha Verma',
			dateOfBirth: '17-05-1994',
			gender: 'F',
			address: { state: 'Karnataka', pincode: '560001' },
		});
		expect(result.json.data.dateOfBirth).toMatch(/^\d{2}-\d{2}-\d{4}$/);
		expect([...Buffer.from(result.json.data.photo, 'base64').subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
	});

	it('POST /__sandbox/kyc/consent gives the consent too; an unknown transaction is refused', async () => {
		const start = await post('/pre-verify/aadhaar', { digiLocker: true, redirectUrl: 'http://localhost/done' });
		const { transactionId } = start.json.data;

		expect((await call('POST', '/__sandbox/kyc/consent', { transactionId }, null)).json.consented).toBe(true);
		expect((await post('/self/aadhaar', { digiLocker: true, transactionId })).json.code).toBe(0);

		const unknown = await post('/self/aadhaar', { digiLocker: true, transactionId: 'nope' });
		expect(unknown.json).toEqual({ code: -1, message: 'Invalid transactionId: no DigiLocker request with this ID' });
		expect((await call('POST', '/__sandbox/kyc/consent', { transactionId: 'nope' }, null)).status).toBe(404);
	});

	it('a redirectUrl that is not an http(s) URL is answered with HTTP 422', async () => {
		expect(await post('/pre-verify/aadhaar', { digiLocker: true, redirectUrl: 'ftp://example.com' })).toEqual({
			status: 422,
			json: { code: -1, message: '"redirectUrl" must be a valid uri with a scheme matching the http|https pattern' },
		});
	});

	it('the instant checks are recorded like the other API requests; the consent control route is not', async () => {
		const start = await post('/pre-verify/aadhaar', { digiLocker: true, redirectUrl: 'https://example.com/done' });
		await call('GET', start.json.data.authUrl, undefined, null);
		expect(sandbox.requests.map(({ method, path, body }) => ({ method, path, body }))).toEqual([
			{ method: 'POST', path: `${V}/pre-verify/aadhaar`, body: { digiLocker: true, redirectUrl: 'https://example.com/done' } },
		]);
	});
});
