'use strict';

const http = require('node:http');
const path = require('node:path');
const { spawn } = require('node:child_process');

const { createSandbox } = require('../../sandbox/server');

const API_KEY = 'test-api-key';
const ORG_ID = 'test-org';
const V = '/verification/api/1.0';
const START = new Date('2025-01-15T10:00:00.000Z');

// Exact values from the contract, kept here so the sandbox is checked against the spec, not itself.
const FORM_NAMES = [
	'bgv-tenth', 'bgv-twelfth', 'bgv-degree', 'bgv-employment', 'bgv-criminal', 'bgv-cibil',
	'bgv-local-address-digital', 'bgv-local-address-postal', 'bgv-permanent-address-digital',
	'bgv-permanent-address-postal', 'bgv-global-database-check', 'bgv-social-media', 'bgv-degree-with-marksheet',
	'bgv-professional-reference-check', 'bgv-police-verification', 'pan', 'gst', 'bank-account', 'upi', 'cin', 'din',
	'voter-id', 'employment-check', 'face-match', 'aadhaar', 'dl', 'liveness', 'passport', 'form26as',
];
// The certificate's own name and the digital address checks' names of the provider's submission pages.
const SUBMISSION_NAMES = [...FORM_NAMES, 'bgv-police-clearance-certificate', 'bgv-local-extended-address', 'bgv-permanent-extended-address'];
const DEGREE_LEVELS = ['DIPLOMA', 'GRADUATE', 'MASTERS', 'PHD', 'POST_DOC', 'POST_GRADUATE_DIPLOMA', 'PROFESSIONAL_COURSE', 'OTHER'];
const FILE_CATEGORIES = [
	'bgv-tenth', 'bgv-twelfth', 'bgv-degree', 'bgv-employment', 'bgv-criminal', 'bgv-police-verification',
	'bgv-police-clearance-certificate', 'bgv-cibil', 'bgv-local-address-digital', 'bgv-local-address-postal',
	'bgv-permanent-address-digital', 'bgv-permanent-address-postal',
];

const ADDRESS = { pincode: '560001', country: 'India', district: 'Bengaluru Urban', state: 'Karnataka', vtc: 'Bengaluru', line1: '1 MG Road' };
/** A 10th / 12th submission as the provider's public pages show it; `changes` replaces fields (undefined drops one). */
const schoolData = (level, label, changes = {}) =>
	JSON.parse(
		JSON.stringify({
			level,
			nameAsPerDocument: 'Asha Rao',
			nameOfInstitute: 'Kendriya Vidyalaya',
			registrationNumber: '3056789',
			yearOfPassing: '2012',
			documentList: [{ label, url: 'https://files.example/marks.pdf' }],
			...changes,
		}),
	);
const degreeData = (changes = {}) =>
	JSON.parse(
		JSON.stringify({
			level: 'GRADUATE',
			nameAsPerDocument: 'Asha Rao',
			nameOfInstitute: 'Delhi University',
			registrationNumber: 'DU-2016-0421',
			issueDate: '2016-06-30',
			documentList: [
				{ label: 'Degree', url: 'https://files.example/degree.pdf' },
				{ label: 'Marksheet', url: 'https://files.example/marks.pdf' },
			],
			...changes,
		}),
	);
const PDF_BYTES = Buffer.from('%PDF-1.4\n% tiny test file\n%%EOF\n');
const PNG_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

let sandbox;
let baseUrl;

beforeEach(async () => {
	sandbox = createSandbox({ apiKey: API_KEY, orgId: ORG_ID, now: () => START });
	({ baseUrl } = await sandbox.listen());
});

afterEach(() => sandbox.close());

async function call(method, urlPath, { body, headers = {}, apiKey = API_KEY } = {}) {
	const init = { method, headers: { ...(apiKey && { 'x-api-key': apiKey }), ...headers } };
	if (body instanceof FormData) init.body = body;
	else if (body !== undefined) {
		init.body = typeof body === 'string' ? body : JSON.stringify(body);
		init.headers['content-type'] = 'application/json';
	}
	const response = await fetch(urlPath.startsWith('http') ? urlPath : baseUrl + urlPath, init);
	const buffer = Buffer.from(await response.arrayBuffer());
	let json;
	try {
		json = JSON.parse(buffer.toString('utf8'));
	} catch {
		json = undefined;
	}
	return { status: response.status, headers: response.headers, buffer, json };
}

const purposeId = (name = 'BGV') => sandbox.state.purposes.find((purpose) => purpose.name === name)._id;

function formBody(overrides = {}) {
	return {
		name: 'Onboarding',
		purpose: purposeId(),
		expiry: 1767225600,
		verifications: [
			{ name: 'bgv-employment', skipAllowed: false },
			{ name: 'bgv-degree', skipAllowed: true },
		],
		userPaymentRequired: false,
		type: 'diy',
		sharing: { visibility: 'private' },
		...overrides,
	};
}

async function createForm(overrides) {
	const { json } = await call('POST', `${V}/ekyc-forms`, { body: formBody(overrides) });
	return json.data;
}

async function createTransaction() {
	const form = await createForm();
	const { json } = await call('POST', `${V}/ekyc-forms/${form._id}/diy-candidate`, {
		body: { name: 'Asha Rao', gender: 'Female', email: 'asha@example.com', mobile: '+919876543210' },
	});
	return { form, transactionId: json.data.transactionId };
}

const submit = (transactionId, verificationName, data) => call('POST', `${V}/bgv/diy`, { body: { data, verificationName, transactionId } });

/** The check's ID (its subType): what the sandbox's notifications carry as verificationId by default. */
function checkIdOf(transactionId, verificationName) {
	return sandbox.state.transactions.get(transactionId).verificationList.find((check) => check.name === verificationName).subType;
}

function employmentData(overrides = {}) {
	return {
		employmentDocumentType: 'experienceletter',
		nameAsPerEmployerRecords: 'Asha Rao',
		employerName: 'Acme',
		joiningDate: '2020-01-01',
		lastWorkingDate: '2023-06-30',
		document: { label: 'experienceletter', url: 'https://files.example/x.pdf' },
		...overrides,
	};
}

function uploadForm(bytes, { filename = 'doc.pdf', type = 'application/pdf', field = 'file' } = {}) {
	const form = new FormData();
	form.append(field, new Blob([bytes], { type }), filename);
	return form;
}

/** category null leaves the fileCategory parameter out. */
const upload = (form, category = 'bgv-employment') =>
	call('POST', `/utility/api/1.0/files${category === null ? '' : `?fileCategory=${category}`}`, { body: form });

const webhookBody = (endpoint, apiKey = 'hook-secret') => ({ endpoint, apiKey, description: 'test receiver' });

/** A local webhook receiver that records every request it gets. */
async function startReceiver() {
	const received = [];
	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (chunk) => chunks.push(chunk));
		req.on('end', () => {
			received.push({ method: req.method, url: req.url, headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString()) });
			res.end('ok');
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		received,
		url: (suffix = '/hook') => `http://127.0.0.1:${server.address().port}${suffix}`,
		close: () => new Promise((resolve) => server.close(resolve)),
	};
}

describe('authentication and generic behaviour', () => {
	test.each([
		['missing key', null],
		['wrong key', 'nope'],
	])('%s under /verification and /utility answers 401', async (_, apiKey) => {
		for (const urlPath of [`${V}/purposes`, '/utility/api/1.0/files?fileCategory=bgv-cibil', `${V}/no-such-route`]) {
			const response = await call('GET', urlPath, { apiKey });
			expect(response.status).toBe(401);
			expect(response.headers.get('content-type')).toBe('application/json');
			expect(response.json).toEqual({ code: -1, message: 'Invalid or missing API key' });
		}
	});

	test('unknown route answers 404 with code -1', async () => {
		for (const urlPath of [`${V}/no-such-route`, '/elsewhere']) {
			const response = await call('GET', urlPath);
			expect(response.status).toBe(404);
			expect(response.json.code).toBe(-1);
		}
	});

	test('malformed JSON answers 400 with code -1', async () => {
		const response = await call('POST', `${V}/ekyc-forms`, { body: '{"name": ' });
		expect(response.status).toBe(400);
		expect(response.json).toEqual({ code: -1, message: 'Malformed JSON body' });
	});

	test('x-sandbox-fail: 502 simulates a gateway failure with an HTML body', async () => {
		const response = await call('GET', `${V}/purposes`, { headers: { 'x-sandbox-fail': '502' } });
		expect(response.status).toBe(502);
		expect(response.headers.get('content-type')).toBe('text/html');
		expect(response.buffer.toString()).toBe('<html><body><h1>502 Bad Gateway</h1></body></html>');
	});
});

describe('GET /purposes', () => {
	test('lists the four purposes with stable 24-hex ids', async () => {
		const { status, json } = await call('GET', `${V}/purposes`);
		expect(status).toBe(200);
		expect(json.code).toBe(0);
		expect(json.message).toBe('Success');
		expect(json.data.total).toBe(4);
		expect(json.data.list.map((purpose) => purpose.name)).toEqual(['BGV', 'Compliance', 'Availing Service', 'KYC']);
		for (const purpose of json.data.list) {
			expect(purpose).toEqual({ _id: expect.stringMatching(/^[0-9a-f]{24}$/), name: expect.any(String), createdAt: expect.any(String), updatedAt: expect.any(String) });
		}
		expect(createSandbox().state.purposes.map((purpose) => purpose._id)).toEqual(json.data.list.map((purpose) => purpose._id));
	});
});

describe('POST /ekyc-forms', () => {
	test('stores and returns the form in the stored-form shape', async () => {
		const { status, json } = await call('POST', `${V}/ekyc-forms`, { body: formBody() });
		expect(status).toBe(200);
		expect(json).toEqual({
			code: 0,
			message: 'Success',
			data: {
				_id: expect.stringMatching(/^[0-9a-f]{24}$/),
				name: 'Onboarding',
				purpose: purposeId(),
				expiry: 1767225600,
				verificationList: [
					{ name: 'bgv-employment', mode: 'manual', skipAllowed: false },
					{ name: 'bgv-degree', mode: 'manual', skipAllowed: true, marksheetRequired: false },
				],
				sharing: { mode: [], visibility: 'private' },
				archived: false,
				type: 'diy',
				userPaymentRequired: false,
				createdAt: START.toISOString(),
				updatedAt: START.toISOString(),
			},
		});
		expect(sandbox.state.forms.get(json.data._id)).toEqual(json.data);
	});

	test('accepts every allowed verification name and an omitted expiry', async () => {
		expect(FORM_NAMES).toHaveLength(29);
		const verifications = FORM_NAMES.map((name) => ({ name, skipAllowed: false }));
		const { json } = await call('POST', `${V}/ekyc-forms`, { body: formBody({ verifications, expiry: undefined }) });
		expect(json.code).toBe(0);
		expect(json.data.verificationList.map((item) => item.name)).toEqual(FORM_NAMES);
		expect(json.data).not.toHaveProperty('expiry');
	});

	test('reports every missing field, joined by a slash, under HTTP 200', async () => {
		const { status, json } = await call('POST', `${V}/ekyc-forms`, { body: {} });
		expect(status).toBe(200);
		expect(json).toEqual({
			code: -1,
			message:
				'"name" is required/"purpose" is required/"verifications" is required/"userPaymentRequired" is required/"type" is required/"sharing" is required',
		});
	});

	test('reports wrong values and types', async () => {
		const body = {
			name: '',
			purpose: 'not-a-purpose',
			expiry: 1.5,
			verifications: [{ name: 'bogus', skipAllowed: 'yes' }],
			userPaymentRequired: 'no',
			type: 'link',
			sharing: { visibility: 'everyone' },
		};
		const { json } = await call('POST', `${V}/ekyc-forms`, { body });
		expect(json.message.split('/')).toEqual([
			'"name" is not allowed to be empty',
			'"purpose" must be a valid purpose _id',
			'"expiry" must be an integer',
			`"verifications[0].name" must be one of [${FORM_NAMES.join(', ')}]`,
			'"verifications[0].skipAllowed" must be a boolean',
			'"userPaymentRequired" must be a boolean',
			'"type" must be [diy]',
			'"sharing.visibility" must be one of [public, private]',
		]);
	});

	test.each([
		[{ expiry: '1767225600' }, '"expiry" must be a number'],
		[{ expiry: 1767225600000 }, '"expiry" must be a Unix timestamp in seconds'],
		[{ verifications: [] }, '"verifications" must contain at least 1 items'],
		[{ verifications: 'bgv-tenth' }, '"verifications" must be an array'],
		[{ verifications: [{ name: 'bgv-tenth' }] }, '"verifications[0].skipAllowed" is required'],
		[{ name: 5 }, '"name" must be a string'],
		[{ sharing: {} }, '"sharing.visibility" is required'],
		[{ sharing: 'public' }, '"sharing" must be of type object'],
	])('rejects %j', async (overrides, message) => {
		const { json } = await call('POST', `${V}/ekyc-forms`, { body: formBody(overrides) });
		expect(json).toEqual({ code: -1, message });
	});

	test('rejects a body that is not an object', async () => {
		const { json } = await call('POST', `${V}/ekyc-forms`, { body: [] });
		expect(json).toEqual({ code: -1, message: '"value" must be of type object' });
	});
});

describe('POST /ekyc-forms/:formId/diy-candidate', () => {
	test('adds a candidate and returns a unique transactionId', async () => {
		const form = await createForm();
		const candidate = {
			name: 'Asha Rao',
			gender: 'Female',
			mobile: '+919876543210',
			profession: 'Engineer',
			email: 'asha@example.com',
			verificationFields: { dob: '29-02-1996', fatherName: 'Ravi Rao' },
		};
		const first = await call('POST', `${V}/ekyc-forms/${form._id}/diy-candidate`, { body: candidate });
		const second = await call('POST', `${V}/ekyc-forms/${form._id}/diy-candidate`, { body: { name: 'B', gender: 'Other' } });
		expect(first.json).toEqual({ code: 0, message: 'Success', data: { transactionId: expect.any(String) } });
		expect(second.json.data.transactionId).not.toBe(first.json.data.transactionId);

		const stored = sandbox.state.transactions.get(first.json.data.transactionId);
		expect(stored).toMatchObject({ formId: form._id, orgId: ORG_ID, candidate });
		expect(stored.verificationList.map(({ name, state }) => ({ name, state }))).toEqual([
			{ name: 'bgv-employment', state: 'NOT_STARTED' },
			{ name: 'bgv-degree', state: 'NOT_STARTED' },
		]);
	});

	test('POST /__sandbox/refusals: candidates of those names are refused (code -1) until the list is emptied', async () => {
		const form = await createForm();
		const path = `${V}/ekyc-forms/${form._id}/diy-candidate`;
		const set = await call('POST', '/__sandbox/refusals', { body: { names: ['Refused Rao'] } });
		expect(set.json).toEqual({ names: ['Refused Rao'] });
		const refused = await call('POST', path, { body: { name: 'Refused Rao', gender: 'Male' } });
		const other = await call('POST', path, { body: { name: 'Other Rao', gender: 'Male' } });
		await call('POST', '/__sandbox/refusals', { body: { names: [] } });
		const later = await call('POST', path, { body: { name: 'Refused Rao', gender: 'Male' } });
		expect(refused.status).toBe(200);
		expect(refused.json).toEqual({ code: -1, message: 'The service cannot take this candidate right now' });
		expect(other.json.code).toBe(0);
		expect(later.json.code).toBe(0);
		const names = [...sandbox.state.transactions.values()].map((t) => t.candidate.name);
		expect(names.filter((name) => name === 'Refused Rao')).toHaveLength(1);
	});

	test('POST /__sandbox/latency with hold: the candidate exists and the request is logged on arrival, the answer comes ms later; other paths and { ms: 0 } answer at once', async () => {
		const form = await createForm();
		const path = `${V}/ekyc-forms/${form._id}/diy-candidate`;
		const set = await call('POST', '/__sandbox/latency', { body: { ms: 3000, paths: ['/diy-candidate'], hold: true } });
		expect(set.json).toEqual({ ms: 3000, paths: ['/diy-candidate'], hold: true });
		const started = Date.now();
		let answeredAt;
		const held = call('POST', path, { body: { name: 'Held Rao', gender: 'Female' } }).then((answer) => {
			answeredAt = Date.now();
			return answer;
		});
		// Polled: the candidate and the logged request appear long before the answer.
		const deadline = Date.now() + 10_000;
		const arrived = () => (sandbox.requests.some((r) => r.path === path) && [...sandbox.state.transactions.values()].some((t) => t.candidate.name === 'Held Rao'));
		while (!arrived() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
		expect(arrived()).toBe(true);
		expect(answeredAt).toBeUndefined();
		const logged = (await call('GET', '/__sandbox/requests', { apiKey: null })).json.requests.filter((r) => r.path === path);
		expect(logged).toHaveLength(1);
		expect(logged[0].status).toBeUndefined();
		// A path not listed is not held.
		const purposes = await call('GET', `${V}/purposes`);
		expect(purposes.json.code).toBe(0);
		expect(answeredAt).toBeUndefined();
		const answer = await held;
		expect(answer.json.code).toBe(0);
		expect(answeredAt - started).toBeGreaterThanOrEqual(2900);
		expect(sandbox.requests.find((r) => r.path === path).status).toBe(200);
		expect([...sandbox.state.transactions.values()].filter((t) => t.candidate.name === 'Held Rao')).toHaveLength(1);

		// A client that gives up on a held request: created all the same, logged as closed before the answer.
		const abort = new AbortController();
		const gaveUp = fetch(baseUrl + path, { method: 'POST', signal: abort.signal, headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Gone Rao', gender: 'Male' }) }).catch(() => 'aborted');
		const abortDeadline = Date.now() + 10_000;
		while (!sandbox.requests.some((r) => r.body && r.body.name === 'Gone Rao') && Date.now() < abortDeadline) await new Promise((resolve) => setTimeout(resolve, 20));
		abort.abort();
		expect(await gaveUp).toBe('aborted');
		const gone = sandbox.requests.find((r) => r.body && r.body.name === 'Gone Rao');
		while (!gone.closedBeforeAnswer && Date.now() < abortDeadline) await new Promise((resolve) => setTimeout(resolve, 20));
		expect(gone).toMatchObject({ closedBeforeAnswer: true });
		expect(gone.status).toBeUndefined();
		expect([...sandbox.state.transactions.values()].filter((t) => t.candidate.name === 'Gone Rao')).toHaveLength(1);

		expect((await call('POST', '/__sandbox/latency', { body: { ms: 0 } })).json).toEqual({ ms: 0, paths: null, hold: false });
		const quick = Date.now();
		expect((await call('POST', path, { body: { name: 'Quick Rao', gender: 'Male' } })).json.code).toBe(0);
		expect(Date.now() - quick).toBeLessThan(2900);
	});

	test('POST /__sandbox/latency without hold: the service acts only when it answers; invalid settings answer 400', async () => {
		const form = await createForm();
		const path = `${V}/ekyc-forms/${form._id}/diy-candidate`;
		await call('POST', '/__sandbox/latency', { body: { ms: 1500 } });
		const started = Date.now();
		const slow = call('POST', path, { body: { name: 'Slow Rao', gender: 'Female' } });
		const deadline = Date.now() + 10_000;
		while (!sandbox.requests.some((r) => r.path === path) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
		const createdEarly = [...sandbox.state.transactions.values()].some((t) => t.candidate.name === 'Slow Rao');
		const checkedAfter = Date.now() - started;
		const answer = await slow;
		expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
		expect(answer.json.code).toBe(0);
		// Unless the machine stalled past the latency before the look, nothing was created on arrival.
		if (checkedAfter < 1400) expect(createdEarly).toBe(false);
		expect([...sandbox.state.transactions.values()].filter((t) => t.candidate.name === 'Slow Rao')).toHaveLength(1);
		await call('POST', '/__sandbox/latency', { body: { ms: 0 } });
		for (const body of [{}, { ms: -1 }, { ms: 1.5 }, { ms: 10, paths: 'x' }, { ms: 10, paths: [''] }, { ms: 10, hold: 'yes' }]) {
			const bad = await call('POST', '/__sandbox/latency', { body, apiKey: null });
			expect(bad.status).toBe(400);
			expect(bad.json.code).toBe(-1);
		}
	});

	test('unknown form answers 404', async () => {
		const { status, json } = await call('POST', `${V}/ekyc-forms/${'0'.repeat(24)}/diy-candidate`, { body: { name: 'A', gender: 'Male' } });
		expect(status).toBe(404);
		expect(json).toEqual({ code: -1, message: 'Form not found' });
	});

	test.each([
		[{ gender: 'Unknown', verificationFields: { dob: '1990-01-31' } }, '"name" is required/"gender" must be one of [Male, Female, Other]/"verificationFields.dob" must be in DD-MM-YYYY format'],
		[
			{ name: 'A', gender: 'Male', mobile: 9876543210, profession: 5, email: 'not-an-email', verificationFields: { fatherName: 7 } },
			'"mobile" must be a string/"profession" must be a string/"email" must be a valid email/"verificationFields.dob" is required/"verificationFields.fatherName" must be a string',
		],
		[{ name: 'A', gender: 'Male', verificationFields: { dob: '31-02-2000' } }, '"verificationFields.dob" must be in DD-MM-YYYY format'],
		[{ name: 'A', gender: 'Male', verificationFields: 'x' }, '"verificationFields" must be of type object'],
		[{ name: 'A' }, '"gender" is required'],
	])('rejects %j', async (body, message) => {
		const form = await createForm();
		const { status, json } = await call('POST', `${V}/ekyc-forms/${form._id}/diy-candidate`, { body });
		expect(status).toBe(200);
		expect(json).toEqual({ code: -1, message });
	});
});

describe('POST /bgv/diy', () => {
	test.each([
		['bgv-employment', employmentData()],
		['bgv-cibil', { pan: 'ABCDE1234F', document: { url: 'https://files.example/pan.pdf' }, permanentAddress: ADDRESS }],
		['bgv-criminal', { currentAddress: ADDRESS, permanentAddress: ADDRESS }],
		['bgv-police-clearance-certificate', { fileUrl: 'https://files.example/pcc.pdf' }],
		['bgv-twelfth', schoolData('TWELFTH_STD', '12th Marksheet', { issueDate: '2014-05-28', yearOfPassing: undefined })],
		['bgv-tenth', schoolData('TENTH_STD', '10th Marksheet', { nameOfBoard: 'CBSE' })],
		// What node version 1 sends: the label "marksheet".
		['bgv-tenth', schoolData('TENTH_STD', 'marksheet')],
		['bgv-degree', degreeData()],
		['bgv-degree', degreeData({ level: 'POST_DOC', documentList: [{ label: 'Degree', url: 'https://files.example/d.pdf' }] })],
		['bgv-police-verification', { permanentAddress: ADDRESS }],
		['bgv-local-extended-address', ADDRESS],
		['bgv-permanent-extended-address', ADDRESS],
		['bgv-local-address-digital', ADDRESS],
		['bgv-permanent-address-digital', ADDRESS],
	])('accepts a valid %s submission and moves the check to IN_PROGRESS', async (verificationName, data) => {
		const { transactionId } = await createTransaction();
		const { status, json } = await submit(transactionId, verificationName, data);
		expect(status).toBe(200);
		expect(json).toEqual({ code: 0, message: 'Success' });
		const check = sandbox.state.transactions.get(transactionId).verificationList.find((item) => item.name === verificationName);
		expect(check).toMatchObject({ state: 'IN_PROGRESS', request: data });
	});

	test('reports missing envelope fields', async () => {
		const { json } = await call('POST', `${V}/bgv/diy`, { body: {} });
		expect(json).toEqual({ code: -1, message: '"data" is required/"verificationName" is required/"transactionId" is required' });
	});

	test('reports an unknown verification name, a wrong transactionId type and empty data', async () => {
		const { json } = await call('POST', `${V}/bgv/diy`, { body: { data: {}, verificationName: 'bgv-unknown', transactionId: 5 } });
		expect(SUBMISSION_NAMES).toHaveLength(32);
		expect(json.message.split('/')).toEqual([
			`"verificationName" must be one of [${SUBMISSION_NAMES.join(', ')}]`,
			'"transactionId" must be a string',
			'"data" must have at least 1 key',
		]);
	});

	test.each([
		[
			'bgv-employment',
			{ employmentDocumentType: 'payslip', employerName: 3, document: { url: 'x' } },
			'"data.employmentDocumentType" must be one of [salaryslip, appointmentletter, experienceletter]/"data.nameAsPerEmployerRecords" is required/"data.employerName" must be a string/"data.joiningDate" is required/"data.lastWorkingDate" is required/"data.document.label" is required',
		],
		['bgv-employment', employmentData({ document: { label: 'salaryslip', url: 'x' } }), '"data.document.label" must be [experienceletter]'],
		['bgv-employment', employmentData({ document: undefined }), '"data.document" is required'],
		[
			'bgv-cibil',
			{ pan: 'ABCDE1234F', document: {}, permanentAddress: { pincode: 560001, country: 'India' } },
			'"data.document.url" is required/"data.permanentAddress.pincode" must be a string/"data.permanentAddress.district" is required/"data.permanentAddress.state" is required/"data.permanentAddress.vtc" is required/"data.permanentAddress.line1" is required',
		],
		['bgv-cibil', { document: { url: 'x' }, permanentAddress: ADDRESS }, '"data.pan" is required'],
		['bgv-criminal', { currentAddress: ADDRESS, permanentAddress: 'x' }, '"data.permanentAddress" must be of type object'],
		['bgv-criminal', { permanentAddress: ADDRESS }, '"data.currentAddress" is required'],
		['bgv-criminal', [], '"data" must be of type object'],
		['bgv-police-clearance-certificate', { fileUrl: 1 }, '"data.fileUrl" must be a string'],
		['bgv-police-clearance-certificate', { certificate: 'x' }, '"data.fileUrl" is required'],
		['pan', 'ABCDE1234F', '"data" must be of type object'],
		[
			'bgv-degree',
			degreeData({ level: 'GRADUATION', issueDate: '30-06-2016' }),
			`"data.level" must be one of [${DEGREE_LEVELS.join(', ')}]/"data.issueDate" must be in YYYY-MM-DD format`,
		],
		['bgv-degree', degreeData({ issueDate: undefined, registrationNumber: undefined }), '"data.registrationNumber" is required/"data.issueDate" is required'],
		[
			'bgv-degree',
			degreeData({ documentList: [{ label: 'Marksheet', url: 'x' }, { label: 'degree', url: 'x' }] }),
			'"data.documentList[1].label" must be one of [Degree, Marksheet]/"data.documentList" must contain a document labelled [Degree]',
		],
		['bgv-degree', degreeData({ documentList: [] }), '"data.documentList" must contain at least 1 items'],
		[
			'bgv-tenth',
			schoolData('TWELFTH_STD', '12th Marksheet', { yearOfPassing: undefined }),
			'"data.level" must be [TENTH_STD]/"data.documentList[0].label" must be one of [10th Marksheet, marksheet]/"data" must contain at least one of [issueDate, yearOfPassing]',
		],
		[
			'bgv-twelfth',
			schoolData('TWELFTH_STD', '12th Marksheet', { yearOfPassing: '14', nameOfInstitute: undefined }),
			'"data.nameOfInstitute" is required/"data.yearOfPassing" must be a 4-digit year',
		],
		['bgv-police-verification', { fileUrl: 'https://files.example/pcc.pdf' }, '"data.permanentAddress" is required'],
		['bgv-local-extended-address', { ...ADDRESS, pincode: 560001, vtc: undefined }, '"data.pincode" must be a string/"data.vtc" is required'],
		[
			'bgv-permanent-address-digital',
			{ permanentAddress: ADDRESS },
			'"data.pincode" is required/"data.country" is required/"data.district" is required/"data.state" is required/"data.vtc" is required/"data.line1" is required',
		],
	])('rejects an invalid %s payload', async (verificationName, data, message) => {
		const { transactionId } = await createTransaction();
		const { status, json } = await submit(transactionId, verificationName, data);
		expect(status).toBe(200);
		expect(json).toEqual({ code: -1, message });
		expect(sandbox.state.transactions.get(transactionId).verificationList.every((check) => check.state === 'NOT_STARTED')).toBe(true);
	});

	test('unknown transaction answers 404', async () => {
		const { status, json } = await submit('TXNUNKNOWN', 'bgv-police-clearance-certificate', { fileUrl: 'x' });
		expect(status).toBe(404);
		expect(json).toEqual({ code: -1, message: 'Transaction not found' });
	});

	test('adds a check the form did not list', async () => {
		const { transactionId } = await createTransaction();
		await submit(transactionId, 'pan', { pan: 'ABCDE1234F' });
		const names = sandbox.state.transactions.get(transactionId).verificationList.map((check) => check.name);
		expect(names).toEqual(['bgv-employment', 'bgv-degree', 'pan']);
	});
});

describe('webhook configuration and notifications', () => {
	let receiver;

	beforeEach(async () => {
		receiver = await startReceiver();
	});

	afterEach(() => receiver.close());

	test('creates a configuration and notifies every endpoint with both headers', async () => {
		const first = await call('POST', `${V}/webhook-config`, { body: webhookBody(receiver.url('/one'), 'secret-one') });
		const second = await call('POST', `${V}/webhook-config`, { body: { endpoint: receiver.url('/two'), apiKey: 'secret-two' } });
		expect(first.json).toEqual({ code: 0, message: 'Success', data: { id: expect.any(String) } });
		expect(second.json.data.id).not.toBe(first.json.data.id);

		const { transactionId } = await createTransaction();
		await submit(transactionId, 'bgv-employment', employmentData());
		const deliveries = await sandbox.waitForDeliveries(2, 2000);

		const payload = { transactionId, verificationId: checkIdOf(transactionId, 'bgv-employment'), newState: 'IN_PROGRESS' };
		const byUrl = Object.fromEntries(receiver.received.map((request) => [request.url, request]));
		for (const [suffix, secret] of [['/one', 'secret-one'], ['/two', 'secret-two']]) {
			expect(byUrl[suffix].method).toBe('POST');
			expect(byUrl[suffix].headers).toMatchObject({ 'x-api-key': secret, 'x-webhook-key': secret, 'content-type': 'application/json' });
			expect(byUrl[suffix].body).toEqual(payload);
		}
		expect(deliveries).toEqual(
			expect.arrayContaining([
				{ configId: first.json.data.id, endpoint: receiver.url('/one'), payload, statusCode: 200, at: START.toISOString() },
				{ configId: second.json.data.id, endpoint: receiver.url('/two'), payload, statusCode: 200, at: START.toISOString() },
			]),
		);
	});

	test('updates a configuration; later notifications use the new endpoint and key', async () => {
		const created = await call('POST', `${V}/webhook-config`, { body: webhookBody(receiver.url('/old')) });
		const id = created.json.data.id;
		const updated = await call('PUT', `${V}/webhook-config/${id}`, { body: { endpoint: receiver.url('/new'), apiKey: 'rotated' } });
		expect(updated.json).toEqual({ code: 0, message: 'Success' });
		expect(sandbox.state.webhookConfigs.get(id)).toMatchObject({ id, endpoint: receiver.url('/new'), apiKey: 'rotated' });

		const { transactionId } = await createTransaction();
		await submit(transactionId, 'bgv-police-clearance-certificate', { fileUrl: 'x' });
		await sandbox.waitForDeliveries(1);
		expect(receiver.received).toHaveLength(1);
		expect(receiver.received[0]).toMatchObject({ url: '/new', headers: { 'x-api-key': 'rotated', 'x-webhook-key': 'rotated' } });
	});

	test('update of an unknown configuration answers 404', async () => {
		const { status, json } = await call('PUT', `${V}/webhook-config/${'f'.repeat(24)}`, { body: webhookBody(receiver.url()) });
		expect(status).toBe(404);
		expect(json).toEqual({ code: -1, message: 'Webhook configuration not found' });
	});

	test.each([
		[{}, '"endpoint" is required/"apiKey" is required'],
		[{ endpoint: 'not a url', apiKey: '' }, '"endpoint" must be a valid uri/"apiKey" is not allowed to be empty'],
		[{ endpoint: 'ftp://example.com/x', apiKey: 'k', description: 4 }, '"endpoint" must be a valid uri with a scheme matching the http|https pattern/"description" must be a string'],
	])('rejects %j on create and update', async (body, message) => {
		const created = await call('POST', `${V}/webhook-config`, { body });
		expect(created.json).toEqual({ code: -1, message });
		const valid = await call('POST', `${V}/webhook-config`, { body: webhookBody(receiver.url()) });
		const updated = await call('PUT', `${V}/webhook-config/${valid.json.data.id}`, { body });
		expect(updated.json).toEqual({ code: -1, message });
	});

	test('a failing endpoint is recorded as a failed delivery and does not crash the sandbox', async () => {
		await call('POST', `${V}/webhook-config`, { body: webhookBody('http://127.0.0.1:1/unreachable') });
		const { transactionId } = await createTransaction();
		await submit(transactionId, 'pan', { pan: 'ABCDE1234F' });
		const [delivery] = await sandbox.waitForDeliveries(1);
		expect(delivery).toMatchObject({ endpoint: 'http://127.0.0.1:1/unreachable', error: expect.any(String) });
		expect(delivery).not.toHaveProperty('statusCode');
		expect((await call('GET', `${V}/purposes`)).status).toBe(200);
	});

	test('with notifyDelayMs the response comes before the delivery', async () => {
		await sandbox.close();
		sandbox = createSandbox({ apiKey: API_KEY, orgId: ORG_ID, notifyDelayMs: 100 });
		({ baseUrl } = await sandbox.listen());
		await call('POST', `${V}/webhook-config`, { body: webhookBody(receiver.url()) });
		const { transactionId } = await createTransaction();
		await submit(transactionId, 'pan', { pan: 'ABCDE1234F' });
		expect(sandbox.state.deliveries).toHaveLength(0);
		await sandbox.waitForDeliveries(1, 2000);
		expect(receiver.received).toHaveLength(1);
	});

	test('waitForDeliveries rejects after its timeout', async () => {
		await expect(sandbox.waitForDeliveries(1, 20)).rejects.toThrow(/waiting for 1 webhook deliveries \(got 0\)/);
	});
});

describe('POST /utility/api/1.0/files', () => {
	test('stores a PDF as a private file and answers its URL', async () => {
		const { status, json } = await upload(uploadForm(PDF_BYTES, { filename: 'payslip.pdf' }));
		expect(status).toBe(200);
		expect(json).toEqual({ code: 0, message: 'Success', data: { fileUrl: expect.stringMatching(new RegExp(`^${baseUrl}/private-files/[0-9a-f]+/payslip\\.pdf$`)) } });
		const file = [...sandbox.state.files.values()].find((item) => item.filename === 'payslip.pdf');
		expect(file.contentType).toBe('application/pdf');
		expect(file.data.equals(PDF_BYTES)).toBe(true);
	});

	test('accepts every documented category and recognises an image by its magic bytes', async () => {
		for (const category of FILE_CATEGORIES) {
			const { json } = await upload(uploadForm(PNG_BYTES, { filename: 'scan.png', type: 'application/octet-stream' }), category);
			expect(json.code).toBe(0);
		}
		expect([...sandbox.state.files.values()].find((item) => item.filename === 'scan.png').contentType).toBe('image/png');
	});

	test.each([
		['a missing category', null, '"fileCategory" is required'],
		['an unknown category', 'bgv-unknown', `"fileCategory" must be one of [${FILE_CATEGORIES.join(', ')}]`],
	])('rejects %s', async (_, category, message) => {
		const { json } = await upload(uploadForm(PDF_BYTES), category);
		expect(json).toEqual({ code: -1, message });
	});

	test('rejects a missing file part and a file that is neither a PDF nor an image', async () => {
		const wrongField = await upload(uploadForm(PDF_BYTES, { field: 'document' }));
		expect(wrongField.json).toEqual({ code: -1, message: '"file" is required' });
		const notMultipart = await call('POST', '/utility/api/1.0/files?fileCategory=bgv-cibil', { body: { file: 'x' } });
		expect(notMultipart.json).toEqual({ code: -1, message: '"file" is required' });
		const text = await upload(uploadForm(Buffer.from('hello'), { filename: 'notes.txt', type: 'text/plain' }));
		expect(text.json).toEqual({ code: -1, message: '"file" must be a PDF or an image' });
		const both = await upload(uploadForm(Buffer.from('hello'), { type: 'text/plain' }), 'nope');
		expect(both.json.message).toMatch(/^"fileCategory" must be one of \[.*\]\/"file" must be a PDF or an image$/);
	});
});

describe('private files, download tokens and signed URLs', () => {
	const downloadFile = (body) => call('POST', `${V}/download-manager/download-file`, { body });
	const signedUrlFor = (token) => call('GET', `${V}/download-manager/url?token=${encodeURIComponent(token)}`);

	test('the sample file is a valid PDF with a correct xref table', () => {
		const sample = [...sandbox.state.files.values()].find((file) => file.filename === 'sample-document.pdf');
		const pdf = sample.data.toString('latin1');
		expect(pdf.startsWith('%PDF-1.4')).toBe(true);
		expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true);
		const xrefOffset = Number(/startxref\n(\d+)/.exec(pdf)[1]);
		expect(pdf.slice(xrefOffset, xrefOffset + 4)).toBe('xref');
		const offsets = [...pdf.matchAll(/^(\d{10}) 00000 n $/gm)].map((match) => Number(match[1]));
		expect(offsets).toHaveLength(5);
		offsets.forEach((offset, index) => expect(pdf.slice(offset).startsWith(`${index + 1} 0 obj`)).toBe(true));
		expect(sandbox.sampleFileUrl).toBe(`${baseUrl}/private-files/${sample.id}/sample-document.pdf`);
	});

	test('getDownloadToken false streams the file with its headers', async () => {
		const { json: uploaded } = await upload(uploadForm(PDF_BYTES, { filename: 'letter.pdf' }));
		const response = await downloadFile({ url: uploaded.data.fileUrl, getDownloadToken: false });
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toBe('application/pdf');
		expect(response.headers.get('content-disposition')).toBe('attachment; filename="letter.pdf"');
		expect(response.headers.get('content-length')).toBe(String(PDF_BYTES.length));
		expect(response.buffer.equals(PDF_BYTES)).toBe(true);
	});

	test('token -> signed URL -> file, without an API key; a private URL itself answers 403', async () => {
		const { json: tokenReply } = await downloadFile({ url: sandbox.sampleFileUrl, getDownloadToken: true });
		expect(tokenReply).toEqual({ code: 0, message: 'Success', data: { downloadToken: expect.any(String) } });
		const { json: urlReply } = await signedUrlFor(tokenReply.data.downloadToken);
		expect(urlReply).toEqual({ code: 0, message: 'Success', data: { signedUrl: expect.stringMatching(new RegExp(`^${baseUrl}/signed-files/[0-9a-f]+$`)) } });

		const file = await call('GET', urlReply.data.signedUrl, { apiKey: null });
		expect(file.status).toBe(200);
		expect(file.headers.get('content-type')).toBe('application/pdf');
		expect(file.buffer.toString('latin1').startsWith('%PDF')).toBe(true);

		const direct = await call('GET', sandbox.sampleFileUrl, { apiKey: null });
		expect(direct.status).toBe(403);
		expect((await call('GET', `${baseUrl}/signed-files/${'0'.repeat(48)}`, { apiKey: null })).status).toBe(404);
	});

	test('tokens and signed URLs live 180 minutes by the injected clock', async () => {
		const { json: tokenReply } = await downloadFile({ url: sandbox.sampleFileUrl, getDownloadToken: true });
		const token = tokenReply.data.downloadToken;
		const { json: urlReply } = await signedUrlFor(token);

		sandbox.advanceClock(179);
		expect((await signedUrlFor(token)).json.code).toBe(0);
		expect((await call('GET', urlReply.data.signedUrl, { apiKey: null })).status).toBe(200);

		const clock = await call('POST', '/__sandbox/clock', { body: { advanceMinutes: 2 }, apiKey: null });
		expect(clock.json).toEqual({ now: new Date(START.getTime() + 181 * 60000).toISOString(), offsetMinutes: 181 });

		const expiredToken = await signedUrlFor(token);
		expect(expiredToken.status).toBe(200);
		expect(expiredToken.json).toEqual({ code: -1, message: 'Invalid or expired token' });
		expect((await call('GET', urlReply.data.signedUrl, { apiKey: null })).status).toBe(403);
	});

	test('setNow replaces the injected clock', async () => {
		const { json: tokenReply } = await downloadFile({ url: sandbox.sampleFileUrl, getDownloadToken: true });
		sandbox.setNow(() => new Date(START.getTime() + 3 * 60 * 60000));
		expect((await signedUrlFor(tokenReply.data.downloadToken)).json.message).toBe('Invalid or expired token');
	});

	test('rejects unknown files, unknown tokens and invalid bodies', async () => {
		const unknown = await downloadFile({ url: `${baseUrl}/private-files/abc/none.pdf`, getDownloadToken: true });
		expect(unknown.status).toBe(404);
		expect(unknown.json).toEqual({ code: -1, message: 'File not found' });
		expect((await downloadFile({ url: 'https://elsewhere.example/x.pdf', getDownloadToken: false })).status).toBe(404);
		expect((await downloadFile({})).json).toEqual({ code: -1, message: '"url" is required/"getDownloadToken" is required' });
		expect((await downloadFile({ url: 1, getDownloadToken: 'yes' })).json).toEqual({ code: -1, message: '"url" must be a string/"getDownloadToken" must be a boolean' });
		expect((await signedUrlFor('nope')).json).toEqual({ code: -1, message: 'Invalid or expired token' });
		expect((await call('GET', `${V}/download-manager/url`)).json).toEqual({ code: -1, message: '"token" is required' });
	});
});

describe('transaction status', () => {
	const txnInfo = (query) => call('GET', `${V}/transactions/info?${new URLSearchParams(query)}`);
	const checkInfo = (name, query) => call('GET', `${V}/transactions/${name}/info?${new URLSearchParams(query)}`);

	test('reports the candidate, the checks, the overall state and a downloadable report', async () => {
		const { form, transactionId } = await createTransaction();
		const before = await txnInfo({ orgId: ORG_ID, txnId: transactionId });
		expect(before.json).toEqual({
			code: 0,
			message: 'Success',
			data: {
				transactionId,
				orgId: ORG_ID,
				formId: form._id,
				// profileDetails: shown by both of the provider's public pages, so in both sandbox modes.
				candidate: {
					name: 'Asha Rao',
					gender: 'Female',
					email: 'asha@example.com',
					mobile: '+919876543210',
					profileDetails: { name: 'Asha Rao', gender: 'Female' },
				},
				verificationList: [
					{ name: 'bgv-employment', state: 'NOT_STARTED' },
					{ name: 'bgv-degree', state: 'NOT_STARTED' },
				],
				state: 'NOT_STARTED',
				report: expect.stringMatching(new RegExp(`^${baseUrl}/private-files/[0-9a-f]+/report-${transactionId}\\.pdf$`)),
				createdAt: START.toISOString(),
				updatedAt: START.toISOString(),
			},
		});
		expect((await txnInfo({ orgId: ORG_ID, txnId: transactionId })).json.data.report).toBe(before.json.data.report);

		await submit(transactionId, 'bgv-employment', employmentData());
		const after = await txnInfo({ orgId: ORG_ID, txnId: transactionId });
		expect(after.json.data.state).toBe('IN_PROGRESS');
		expect(after.json.data.verificationList[0]).toEqual({ name: 'bgv-employment', state: 'IN_PROGRESS' });

		const report = await call('POST', `${V}/download-manager/download-file`, { body: { url: after.json.data.report, getDownloadToken: false } });
		expect(report.headers.get('content-type')).toBe('application/pdf');
		expect(report.buffer.toString('latin1')).toContain('bgv-employment: IN_PROGRESS');
	});

	test('reports one check with its request, documents and report URL', async () => {
		const { transactionId } = await createTransaction();
		const notStarted = await checkInfo('bgv-degree', { orgId: ORG_ID, txnId: transactionId });
		expect(notStarted.json.data).toMatchObject({ verificationName: 'bgv-degree', state: 'NOT_STARTED', request: null, documentList: [] });

		const data = employmentData();
		await submit(transactionId, 'bgv-employment', data);
		const { json } = await checkInfo('bgv-employment', { orgId: ORG_ID, txnId: transactionId });
		expect(json).toEqual({
			code: 0,
			message: 'Success',
			data: {
				verificationName: 'bgv-employment',
				subType: expect.stringMatching(/^[0-9a-f]{24}$/),
				state: 'IN_PROGRESS',
				note: expect.any(String),
				request: data,
				response: null,
				documentList: [{ label: 'experienceletter', url: 'https://files.example/x.pdf' }],
				reportData: null,
				reportUrl: expect.stringMatching(new RegExp(`^${baseUrl}/private-files/[0-9a-f]+/report-${transactionId}-bgv-employment\\.pdf$`)),
				insufficiencyData: [],
			},
		});
		await submit(transactionId, 'bgv-police-clearance-certificate', { fileUrl: 'https://files.example/pcc.pdf' });
		const pcc = await checkInfo('bgv-police-clearance-certificate', { orgId: ORG_ID, txnId: transactionId });
		expect(pcc.json.data.documentList).toEqual([{ label: 'bgv-police-clearance-certificate', url: 'https://files.example/pcc.pdf' }]);
	});

	test.each([
		['a wrong orgId', { orgId: 'other', txnId: 'x' }, '"orgId" is invalid'],
		['missing parameters', {}, '"orgId" is required/"txnId" is required'],
	])('rejects %s with code -1', async (_, query, message) => {
		for (const response of [await txnInfo(query), await checkInfo('bgv-degree', query)]) {
			expect(response.status).toBe(200);
			expect(response.json).toEqual({ code: -1, message });
		}
	});

	test('unknown transactions and checks answer 404', async () => {
		const { transactionId } = await createTransaction();
		const unknownTxn = await txnInfo({ orgId: ORG_ID, txnId: 'TXNNONE' });
		expect(unknownTxn.status).toBe(404);
		expect(unknownTxn.json).toEqual({ code: -1, message: 'Transaction not found' });
		expect((await checkInfo('bgv-degree', { orgId: ORG_ID, txnId: 'TXNNONE' })).status).toBe(404);
		const unknownCheck = await checkInfo('passport', { orgId: ORG_ID, txnId: transactionId });
		expect(unknownCheck.status).toBe(404);
		expect(unknownCheck.json).toEqual({ code: -1, message: 'Verification not found for this transaction' });
	});
});

describe('control endpoints and recording', () => {
	test('records API requests with headers and bodies, but not control requests', async () => {
		await call('POST', `${V}/ekyc-forms`, { body: { name: 'x' } });
		await upload(uploadForm(PDF_BYTES, { filename: 'a.pdf' }), 'bgv-cibil');
		await call('GET', '/__sandbox/state', { apiKey: null });

		const { json } = await call('GET', '/__sandbox/requests', { apiKey: null });
		expect(json.requests).toHaveLength(2);
		expect(json.requests[0]).toEqual({
			method: 'POST',
			path: `${V}/ekyc-forms`,
			query: {},
			headers: expect.objectContaining({ 'x-api-key': API_KEY, 'content-type': 'application/json' }),
			body: { name: 'x' },
			at: START.toISOString(),
			status: 200,
		});
		expect(json.requests[1]).toMatchObject({
			query: { fileCategory: 'bgv-cibil' },
			body: { fields: {}, files: [{ field: 'file', filename: 'a.pdf', contentType: 'application/pdf', size: PDF_BYTES.length }] },
		});
		expect(sandbox.requests).toHaveLength(2);

		expect((await call('DELETE', '/__sandbox/requests', { apiKey: null })).json).toEqual({ cleared: 2 });
		expect(sandbox.requests).toHaveLength(0);
	});

	test('GET /__sandbox/state exposes forms, transactions, webhook configurations and the sample file', async () => {
		const { transactionId } = await createTransaction();
		await call('POST', `${V}/webhook-config`, { body: webhookBody('http://127.0.0.1:1/x', 'visible-secret') });
		const { json } = await call('GET', '/__sandbox/state', { apiKey: null });
		expect(json.sampleFileUrl).toBe(sandbox.sampleFileUrl);
		expect(json.forms).toHaveLength(1);
		expect(json.transactions[0].transactionId).toBe(transactionId);
		expect(json.webhookConfigs[0]).toMatchObject({ endpoint: 'http://127.0.0.1:1/x', apiKey: 'visible-secret' });
		expect(json.files.find((file) => file.url === sandbox.sampleFileUrl)).toMatchObject({ filename: 'sample-document.pdf', source: 'sample' });
		expect(json).toHaveProperty('deliveries');
	});

	test('POST /__sandbox/transition moves a check and notifies', async () => {
		const receiver = await startReceiver();
		try {
			await call('POST', `${V}/webhook-config`, { body: webhookBody(receiver.url()) });
			const { transactionId } = await createTransaction();
			const moved = await call('POST', '/__sandbox/transition', {
				apiKey: null,
				body: { transactionId, verificationName: 'bgv-degree', newState: 'COMPLETED' },
			});
			expect(moved.status).toBe(200);
			await sandbox.waitForDeliveries(1);
			expect(receiver.received[0].body).toEqual({ transactionId, verificationId: checkIdOf(transactionId, 'bgv-degree'), newState: 'COMPLETED' });
			expect(sandbox.state.transactions.get(transactionId).verificationList[1].state).toBe('COMPLETED');
			expect((await call('POST', '/__sandbox/transition', { apiKey: null, body: {} })).status).toBe(400);
		} finally {
			await receiver.close();
		}
	});

	test('POST /__sandbox/files adds a large private file that File Download serves byte for byte', async () => {
		const sizeBytes = 3 * 1024 * 1024;
		const added = await call('POST', '/__sandbox/files', { apiKey: null, body: { sizeBytes, filename: 'big.bin' } });
		expect(added.status).toBe(200);
		expect(added.json.size).toBe(sizeBytes);
		expect(added.json.url).toMatch(new RegExp(`^${baseUrl}/private-files/[0-9a-f]+/big\\.bin$`));
		const served = await call('POST', `${V}/download-manager/download-file`, { body: { url: added.json.url, getDownloadToken: false } });
		expect(served.status).toBe(200);
		expect(served.buffer.length).toBe(sizeBytes);
		expect(require('node:crypto').createHash('sha256').update(served.buffer).digest('hex')).toBe(added.json.sha256);
		const rejected = await call('POST', '/__sandbox/files', { apiKey: null, body: { sizeBytes: 0 } });
		expect(rejected.status).toBe(400);
		expect(rejected.json).toEqual({ code: -1, message: '"sizeBytes" must be an integer from 1 to 536870912' });
	});

	test('POST /__sandbox/files with contentType application/pdf: random bytes behind a PDF header, served as a PDF', async () => {
		const sizeBytes = 300_000;
		const added = await call('POST', '/__sandbox/files', {
			apiKey: null,
			body: { sizeBytes, filename: 'report.pdf', contentType: 'application/pdf' },
		});
		expect(added.status).toBe(200);
		const served = await call('POST', `${V}/download-manager/download-file`, { body: { url: added.json.url, getDownloadToken: false } });
		expect(served.status).toBe(200);
		expect(served.headers.get('content-type')).toBe('application/pdf');
		expect(served.buffer.length).toBe(sizeBytes);
		expect(served.buffer.subarray(0, 9).toString('latin1')).toBe('%PDF-1.4\n');
		expect(require('node:crypto').createHash('sha256').update(served.buffer).digest('hex')).toBe(added.json.sha256);
		const tiny = await call('POST', '/__sandbox/files', { apiKey: null, body: { sizeBytes: 4, contentType: 'application/pdf' } });
		expect(tiny.json.size).toBe(4);
		const tinyServed = await call('POST', `${V}/download-manager/download-file`, { body: { url: tiny.json.url, getDownloadToken: false } });
		expect(tinyServed.buffer.toString('latin1')).toBe('%PDF');
	});

	test('POST /__sandbox/clock rejects a non-numeric advance', async () => {
		const { status, json } = await call('POST', '/__sandbox/clock', { apiKey: null, body: { advanceMinutes: '10' } });
		expect(status).toBe(400);
		expect(json).toEqual({ code: -1, message: '"advanceMinutes" must be a number' });
	});
});

describe('insufficiency (from the provider public documentation; item shape presumed)', () => {
	let receiver;

	beforeEach(async () => {
		receiver = await startReceiver();
		await call('POST', `${V}/webhook-config`, { body: webhookBody(receiver.url()) });
	});

	afterEach(() => receiver.close());

	const checkInfo = (name, txnId) => call('GET', `${V}/transactions/${name}/info?${new URLSearchParams({ orgId: ORG_ID, txnId })}`);
	const raise = (body) => call('POST', '/__sandbox/insufficiency', { apiKey: null, body });
	const resolve = (body) => call('POST', `${V}/bgv/insufficiency`, { body });

	async function raised() {
		const { transactionId } = await createTransaction();
		const { json } = await raise({
			transactionId,
			verificationName: 'bgv-degree',
			insufficiencies: [{ insufficiencyId: 'ins-1', label: 'Registration number', type: 'text' }, { label: 'Degree certificate', type: 'document' }],
		});
		return { transactionId, raisedAnswer: json };
	}

	const resolution = (transactionId, subType, overrides = {}) => ({
		transactionId,
		orgId: ORG_ID,
		subType,
		dataToUpload: {
			insufficiencyDataList: [{ insufficiencyId: 'ins-1', value: '2012/0456789' }],
			documents: [{ documentType: 'EducationalCertificates', fileType: 'Url', fileName: 'degree.pdf', document: { label: 'Degree', url: 'https://files.example/degree.pdf' } }],
		},
		...overrides,
	});

	test('every check has a stable 24-hex subType of its own', async () => {
		const { transactionId } = await createTransaction();
		const employment = (await checkInfo('bgv-employment', transactionId)).json.data;
		const degree = (await checkInfo('bgv-degree', transactionId)).json.data;
		expect(employment.subType).toMatch(/^[0-9a-f]{24}$/);
		expect(degree.subType).not.toBe(employment.subType);
		expect((await checkInfo('bgv-degree', transactionId)).json.data.subType).toBe(degree.subType);
		expect(degree.insufficiencyData).toEqual([]);
		await submit(transactionId, 'bgv-employment', employmentData());
		expect((await checkInfo('bgv-employment', transactionId)).json.data.subType).toBe(employment.subType);
	});

	test('POST /__sandbox/insufficiency: INSUFFICIENT_DATA, open questions in the check status, an insufficiency-raised notification', async () => {
		const { transactionId, raisedAnswer } = await raised();
		const { json } = await checkInfo('bgv-degree', transactionId);

		expect(raisedAnswer).toEqual({
			transactionId,
			verificationName: 'bgv-degree',
			verificationId: json.data.subType,
			state: 'INSUFFICIENT_DATA',
			insufficiencyData: [
				{ insufficiencyId: 'ins-1', label: 'Registration number', type: 'text' },
				{ insufficiencyId: expect.stringMatching(/^[0-9a-f]{24}$/), label: 'Degree certificate', type: 'document' },
			],
		});
		expect(json.data).toMatchObject({ state: 'INSUFFICIENT_DATA', insufficiencyData: raisedAnswer.insufficiencyData });
		await sandbox.waitForDeliveries(1);
		expect(receiver.received.map((request) => request.body)).toEqual([{ action: 'insufficiency-raised', transactionId, verificationId: json.data.subType }]);

		expect((await raise({ transactionId, verificationName: 'nope' })).status).toBe(400);
		expect((await raise({ transactionId: 'TXNNONE', verificationName: 'bgv-degree' })).status).toBe(404);
		const defaulted = await raise({ transactionId, verificationName: 'bgv-employment' });
		expect(defaulted.json.insufficiencyData).toEqual([{ insufficiencyId: expect.stringMatching(/^[0-9a-f]{24}$/), label: 'Please provide the missing detail', type: 'text' }]);
	});

	test('POST bgv/insufficiency resolves: IN_PROGRESS again, no open questions, an insufficiency-resolved notification', async () => {
		const { transactionId, raisedAnswer } = await raised();
		const answer = await resolve(resolution(transactionId, raisedAnswer.verificationId));

		expect(answer.json).toEqual({ code: 0, message: 'Success' });
		const { json } = await checkInfo('bgv-degree', transactionId);
		expect(json.data).toMatchObject({ state: 'IN_PROGRESS', insufficiencyData: [] });
		await sandbox.waitForDeliveries(2);
		expect(receiver.received.map((request) => request.body)).toEqual([
			{ action: 'insufficiency-raised', transactionId, verificationId: raisedAnswer.verificationId },
			{ action: 'insufficiency-resolved', transactionId, verificationId: raisedAnswer.verificationId },
		]);
		// Resolved: the same answer again finds nothing open.
		expect((await resolve(resolution(transactionId, raisedAnswer.verificationId))).json).toEqual({ code: -1, message: '"subType" has no open insufficiency' });
	});

	test('POST bgv/insufficiency is strict: shape, organisation, check ID, open IDs, Url documents (code -1)', async () => {
		const { transactionId, raisedAnswer } = await raised();
		const subType = raisedAnswer.verificationId;
		const cases = [
			[{}, '"transactionId" is required/"orgId" is required/"subType" is required/"dataToUpload" is required'],
			[resolution(transactionId, subType, { dataToUpload: { insufficiencyDataList: [], documents: [] } }), '"dataToUpload" must contain at least one of [insufficiencyDataList, documents] with items'],
			[
				resolution(transactionId, subType, {
					dataToUpload: { documents: [{ documentType: 'Other', fileType: 'Base64', fileName: 'a.pdf', document: { label: 'A', url: 'not a url' } }] },
				}),
				'"dataToUpload.documents[0].fileType" must be [Url]/"dataToUpload.documents[0].document.url" must be a valid uri',
			],
			[resolution(transactionId, subType, { orgId: 'other-org' }), '"orgId" is invalid'],
			[resolution(transactionId, 'bgv-degree'), '"subType" is not a verification of this transaction'],
			[
				resolution(transactionId, subType, { dataToUpload: { insufficiencyDataList: [{ insufficiencyId: 'ins-9', value: 'x' }] } }),
				'"dataToUpload.insufficiencyDataList[0].insufficiencyId" is not an open insufficiency of this verification',
			],
		];
		for (const [body, message] of cases) {
			const { status, json } = await resolve(body);
			expect(status).toBe(200);
			expect(json).toEqual({ code: -1, message });
		}
		const unknown = await resolve(resolution('TXNNONE', subType));
		expect(unknown.status).toBe(404);
		expect(unknown.json).toEqual({ code: -1, message: 'Transaction not found' });
		const employmentId = (await checkInfo('bgv-employment', transactionId)).json.data.subType;
		expect((await resolve(resolution(transactionId, employmentId))).json).toEqual({ code: -1, message: '"subType" has no open insufficiency' });
		expect((await checkInfo('bgv-degree', transactionId)).json.data.state).toBe('INSUFFICIENT_DATA');
	});

	test('notifications name the check by its ID (subType) by default, as the provider\'s pages do; POST /__sandbox/notify-check-by switches to its name and back', async () => {
		const { transactionId } = await createTransaction();
		const degreeId = (await checkInfo('bgv-degree', transactionId)).json.data.subType;

		await call('POST', '/__sandbox/transition', { apiKey: null, body: { transactionId, verificationName: 'bgv-degree', newState: 'COMPLETED' } });
		await sandbox.waitForDeliveries(1);
		await raise({ transactionId, verificationName: 'bgv-degree' });
		await sandbox.waitForDeliveries(2);
		expect((await call('POST', '/__sandbox/notify-check-by', { apiKey: null, body: { by: 'name' } })).json).toEqual({ by: 'name' });
		await call('POST', '/__sandbox/transition', { apiKey: null, body: { transactionId, verificationName: 'bgv-degree', newState: 'IN_PROGRESS' } });
		await sandbox.waitForDeliveries(3);
		expect((await call('POST', '/__sandbox/notify-check-by', { apiKey: null, body: { by: 'id' } })).json).toEqual({ by: 'id' });
		await call('POST', '/__sandbox/transition', { apiKey: null, body: { transactionId, verificationName: 'bgv-degree', newState: 'COMPLETED' } });
		await sandbox.waitForDeliveries(4);

		expect(receiver.received.map((request) => request.body)).toEqual([
			{ transactionId, verificationId: degreeId, newState: 'COMPLETED' },
			{ action: 'insufficiency-raised', transactionId, verificationId: degreeId },
			{ transactionId, verificationId: 'bgv-degree', newState: 'IN_PROGRESS' },
			{ transactionId, verificationId: degreeId, newState: 'COMPLETED' },
		]);
		const invalid = await call('POST', '/__sandbox/notify-check-by', { apiKey: null, body: { by: 'subType' } });
		expect(invalid.status).toBe(400);
		expect(invalid.json.message).toBe('"by" must be one of [id, name]');
	});

	test('createSandbox({ notifyCheckBy }): "id" when not given, "name" on request; an unknown value is refused', async () => {
		expect(createSandbox({ apiKey: API_KEY, orgId: ORG_ID }).state.notifyCheckBy).toBe('id');
		expect(createSandbox({ apiKey: API_KEY, orgId: ORG_ID, notifyCheckBy: 'name' }).state.notifyCheckBy).toBe('name');
		expect(() => createSandbox({ notifyCheckBy: 'subType' })).toThrow('notifyCheckBy must be one of id, name');
	});
});

describe('benchmark options: latency, concurrency, generated file', () => {
	const concurrency = async () => (await call('GET', '/__sandbox/concurrency', { apiKey: null })).json;

	async function restart(options) {
		await sandbox.close();
		sandbox = createSandbox({ apiKey: API_KEY, orgId: ORG_ID, now: () => START, ...options });
		({ baseUrl } = await sandbox.listen());
	}

	test('latencyMs holds every API answer that long; control requests answer at once and are not counted', async () => {
		await restart({ latencyMs: 500 });
		const started = Date.now();
		const answers = await Promise.all(Array.from({ length: 5 }, () => call('GET', `${V}/purposes`)));
		expect(Date.now() - started).toBeGreaterThanOrEqual(495);
		expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
		// All five were held by the latency at the same time.
		expect(await concurrency()).toEqual({ inFlight: 0, maxInFlight: 5, requests: 5, connections: 5 });
		expect(sandbox.concurrency()).toEqual({ inFlight: 0, maxInFlight: 5, requests: 5, connections: 5 });
	});

	test('without latency sequential requests never overlap; connections are counted once each; DELETE /__sandbox/concurrency resets the counters', async () => {
		// fetch keeps the connection alive: two requests, one connection; Connection: close opens a new one.
		await call('GET', `${V}/purposes`);
		await call('GET', `${V}/purposes`);
		await call('GET', `${V}/purposes`, { headers: { connection: 'close' } });
		await call('GET', `${V}/purposes`);
		expect(await concurrency()).toEqual({ inFlight: 0, maxInFlight: 1, requests: 4, connections: 2 });
		expect((await call('DELETE', '/__sandbox/concurrency', { apiKey: null })).json).toEqual({ inFlight: 0, maxInFlight: 0, requests: 0, connections: 0 });
	});

	test('generatedFileBytes: a 300 MiB private file streamed on download, never held in memory', async () => {
		const size = 300 * 1024 * 1024;
		await restart({ generatedFileBytes: size });
		const generated = [...sandbox.state.files.values()].find((file) => file.source === 'generated');
		expect(generated.data).toBeUndefined();
		expect(sandbox.generatedFileUrl).toBe(`${baseUrl}/private-files/${generated.id}/generated-document.pdf`);
		const { json: state } = await call('GET', '/__sandbox/state', { apiKey: null });
		expect(state.generatedFileUrl).toBe(sandbox.generatedFileUrl);
		expect(state.files.find((file) => file.source === 'generated')).toMatchObject({ size, filename: 'generated-document.pdf' });

		// Counted as it arrives (the test does not buffer it either).
		const { status, headers, bytes, head } = await new Promise((resolve, reject) => {
			const req = http.request(`${baseUrl}${V}/download-manager/download-file`, {
				method: 'POST',
				headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
			});
			req.on('response', (res) => {
				let received = 0;
				let first = Buffer.alloc(0);
				res.on('data', (chunk) => {
					if (received === 0) first = Buffer.from(chunk.subarray(0, 8));
					received += chunk.length;
				});
				res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, bytes: received, head: first }));
				res.on('error', reject);
			});
			req.on('error', reject);
			req.end(JSON.stringify({ url: sandbox.generatedFileUrl, getDownloadToken: false }));
		});
		expect(status).toBe(200);
		expect(headers['content-length']).toBe(String(size));
		expect(headers['content-type']).toBe('application/pdf');
		expect(bytes).toBe(size);
		expect(head.toString('latin1')).toBe('%PDF-1.4');
	}, 180000);
});

describe('cli', () => {
	test('prints the base URL, key and org ID, logs requests without header values and stops on SIGTERM', async () => {
		const child = spawn(process.execPath, [path.join(__dirname, '../../sandbox/cli.js')], {
			env: { ...process.env, SANDBOX_PORT: '0', SANDBOX_API_KEY: 'cli-key', SANDBOX_ORG_ID: 'cli-org' },
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		// One listener for the whole run: a line printed while no waitFor is pending (the request's log
		// line can come before fetch resolves) is kept, not lost with a listener that was taken off.
		let output = '';
		const waiting = new Set();
		child.stdout.on('data', (chunk) => {
			output += chunk;
			for (const check of waiting) check();
		});
		const waitFor = (pattern) =>
			new Promise((resolve, reject) => {
				const check = () => {
					const match = pattern.exec(output);
					if (match) {
						waiting.delete(check);
						resolve(match);
					}
				};
				waiting.add(check);
				check();
				child.once('exit', () => reject(new Error(`cli exited early:\n${output}`)));
			});
		const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));

		try {
			const [, cliBaseUrl] = await waitFor(/listening on (http:\/\/\S+) \(API key: cli-key, org ID: cli-org\)/);
			const response = await fetch(`${cliBaseUrl}${V}/purposes`, { headers: { 'x-api-key': 'cli-key', 'x-secret-header': 'do-not-log-me' } });
			expect(response.status).toBe(200);
			await waitFor(/GET \/verification\/api\/1\.0\/purposes -> 200/);
			expect(output).not.toContain('do-not-log-me');

			child.kill('SIGTERM');
			expect(await exited).toBe(0);
		} finally {
			// A failed step must not leave the sandbox running: jest would wait for it and never end.
			if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
		}
	});
});
