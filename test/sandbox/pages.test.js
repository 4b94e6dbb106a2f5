'use strict';

const path = require('node:path');
const { spawn } = require('node:child_process');

const { createSandbox } = require('../../sandbox/server');

/**
 * The sandbox's two modes where the contract (candidate-verification-api.md) and the provider's current
 * public pages (beyond-the-seed.md) differ: 'contract' (the default) and 'current'. Field by field, each
 * difference in 'current' mode, and that 'contract' mode keeps today's answer for it.
 */
const API_KEY = 'test-api-key';
const ORG_ID = 'test-org';
const V = '/verification/api/1.0';
const START = new Date('2025-01-15T10:00:00.000Z');
const HEX24 = /^[0-9a-f]{24}$/;
const ADDRESS = {
	pincode: '560001',
	country: 'India',
	district: 'Bengaluru Urban',
	state: 'Karnataka',
	vtc: 'Bengaluru',
	line1: '1 MG Road',
};
const NOT_FOUND_CHECK = { code: -1, message: 'Verification not found for this transaction' };

let sandbox;
let baseUrl;

async function start(options = {}) {
	sandbox = createSandbox({ apiKey: API_KEY, orgId: ORG_ID, now: () => START, ...options });
	({ baseUrl } = await sandbox.listen());
}

afterEach(() => sandbox && sandbox.close());

async function call(method, urlPath, { body, apiKey = API_KEY } = {}) {
	const init = { method, headers: { ...(apiKey && { 'x-api-key': apiKey }) } };
	if (body !== undefined) {
		init.body = JSON.stringify(body);
		init.headers['content-type'] = 'application/json';
	}
	const response = await fetch(baseUrl + urlPath, init);
	const buffer = Buffer.from(await response.arrayBuffer());
	let json;
	try {
		json = JSON.parse(buffer.toString('utf8'));
	} catch {
		json = undefined;
	}
	return { status: response.status, headers: response.headers, buffer, json };
}

const control = (method, urlPath, body) => call(method, urlPath, { body, apiKey: null });
const setPages = (pages) => control('POST', '/__sandbox/pages', { pages });

async function createForm(verifications) {
	const purpose = sandbox.state.purposes.find((item) => item.name === 'BGV')._id;
	const { json } = await call('POST', `${V}/ekyc-forms`, {
		body: {
			name: 'Onboarding',
			purpose,
			verifications: verifications || [
				{ name: 'bgv-employment', skipAllowed: false },
				{ name: 'bgv-degree', skipAllowed: true },
			],
			userPaymentRequired: false,
			type: 'diy',
			sharing: { visibility: 'private' },
		},
	});
	return json.data;
}

const addCandidate = (form, body) =>
	call('POST', `${V}/ekyc-forms/${form._id}/diy-candidate`, { body });

/** A candidate as the current pages send it (top-level dob and fatherName). */
const CURRENT_CANDIDATE = {
	name: 'Asha Rao',
	gender: 'Female',
	dob: '29-02-1996',
	mobile: '+91-9876543210',
	profession: 'Engineer',
	fatherName: 'Ravi Rao',
	email: 'asha@example.com',
};
/** The same candidate as the contract sends it (dob and fatherName in verificationFields). */
const CONTRACT_CANDIDATE = {
	name: 'Asha Rao',
	gender: 'Female',
	mobile: '+91-9876543210',
	profession: 'Engineer',
	email: 'asha@example.com',
	verificationFields: { dob: '29-02-1996', fatherName: 'Ravi Rao' },
};

async function createTransaction(candidate, verifications) {
	const form = await createForm(verifications);
	const { json } = await addCandidate(form, candidate);
	expect(json).toMatchObject({ code: 0 });
	return { form, transactionId: json.data.transactionId };
}

const submit = (transactionId, verificationName, data) =>
	call('POST', `${V}/bgv/diy`, { body: { data, verificationName, transactionId } });
const txnInfo = (transactionId) =>
	call('GET', `${V}/transactions/info?orgId=${ORG_ID}&txnId=${transactionId}`);
const checkInfo = (name, transactionId) =>
	call('GET', `${V}/transactions/${name}/info?orgId=${ORG_ID}&txnId=${transactionId}`);
/** 'current' mode: the check of a status answer, from its double-wrapped list (one entry a name). */
async function currentCheck(name, transactionId) {
	const { json } = await checkInfo(name, transactionId);
	expect(json.code).toBe(0);
	expect(json.data.data).toHaveLength(1);
	return json.data.data[0];
}
const transition = (transactionId, verificationName, newState) =>
	control('POST', '/__sandbox/transition', { transactionId, verificationName, newState });

/** Fetches a private file URL through the download operation, as the node does. */
async function download(url) {
	const file = await call('POST', `${V}/download-manager/download-file`, {
		body: { url, getDownloadToken: false },
	});
	expect(file.status).toBe(200);
	expect(file.headers.get('content-type')).toBe('application/pdf');
	return file.buffer.toString('latin1');
}

const privateReportUrl = (transactionId, name) =>
	new RegExp(`^${baseUrl}/private-files/[0-9a-f]+/report-${transactionId}-${name}\\.pdf$`);

describe('selecting the mode', () => {
	test("default is 'contract'; GET /__sandbox/state shows it", async () => {
		await start();
		expect(sandbox.state.pages).toBe('contract');
		expect((await control('GET', '/__sandbox/state')).json.pages).toBe('contract');
	});

	test("createSandbox({ pages: 'current' }) starts in that mode; an unknown mode is refused", async () => {
		expect(() => createSandbox({ pages: 'newest' })).toThrow(
			'pages must be one of contract, current',
		);
		await start({ pages: 'current' });
		expect((await control('GET', '/__sandbox/state')).json.pages).toBe('current');
	});

	test('POST /__sandbox/pages switches at run time and answers { pages }; an invalid body answers 400', async () => {
		await start();
		expect(await setPages('current')).toMatchObject({ status: 200, json: { pages: 'current' } });
		expect((await control('GET', '/__sandbox/state')).json.pages).toBe('current');
		expect(await setPages('contract')).toMatchObject({ status: 200, json: { pages: 'contract' } });
		for (const body of [{ pages: 'newest' }, {}, { pages: 1 }]) {
			const refused = await control('POST', '/__sandbox/pages', body);
			expect(refused.status).toBe(400);
			expect(refused.json).toEqual({
				code: -1,
				message: '"pages" must be one of [contract, current]',
			});
		}
		expect(sandbox.state.pages).toBe('contract');
		// Control requests are not API requests: never recorded.
		expect(sandbox.requests).toHaveLength(0);
	});

	test('stored candidates are kept across a switch; reads answer in the new mode', async () => {
		await start();
		const { transactionId } = await createTransaction(CONTRACT_CANDIDATE);
		await setPages('current');
		const { json } = await txnInfo(transactionId);
		expect(json.data.candidate).toEqual({
			id: expect.stringMatching(HEX24),
			email: 'asha@example.com',
			mobile: '+91-9876543210',
			profileDetails: {
				name: 'Asha Rao',
				gender: 'Female',
				dob: '29-02-1996',
				fatherName: 'Ravi Rao',
				profession: 'Engineer',
			},
		});
		expect(json.data).not.toHaveProperty('report');
	});

	test('SANDBOX_PAGES=current selects the mode for node sandbox/cli.js', async () => {
		const child = spawn(process.execPath, [path.join(__dirname, '../../sandbox/cli.js')], {
			env: { ...process.env, SANDBOX_PORT: '0', SANDBOX_PAGES: 'current' },
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let output = '';
		const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
		try {
			await new Promise((resolve, reject) => {
				child.stdout.on('data', (chunk) => {
					output += chunk;
					if (/Pages: \w+/.test(output) && /listening on/.test(output)) resolve();
				});
				child.once('exit', () => reject(new Error(`cli exited early:\n${output}`)));
			});
			expect(output).toContain('Pages: current');
			const cliBaseUrl = /listening on (http:\/\/\S+)/.exec(output)[1];
			const state = await (await fetch(`${cliBaseUrl}/__sandbox/state`)).json();
			expect(state.pages).toBe('current');
		} finally {
			child.kill('SIGTERM');
		}
		expect(await exited).toBe(0);
	});
});

describe('1. Create Profile', () => {
	describe("'current' mode: every field top level, dob required, verificationFields refused", () => {
		beforeEach(() => start({ pages: 'current' }));

		test('accepts the page body and keeps dob and fatherName from the top level', async () => {
			const form = await createForm();
			const { status, json } = await addCandidate(form, CURRENT_CANDIDATE);
			expect(status).toBe(200);
			expect(json).toEqual({
				code: 0,
				message: 'Success',
				data: { transactionId: expect.any(String) },
			});
			const stored = sandbox.state.transactions.get(json.data.transactionId);
			expect(stored.candidate).toEqual(CURRENT_CANDIDATE);
			expect(stored.profile).toMatchObject({ dob: '29-02-1996', fatherName: 'Ravi Rao' });
		});

		test.each([
			// The page's own validation sample, in its order.
			[
				{ gender: 'Unknown' },
				'name must be a string/dob must be a string/gender must be one of Male, Female, Other',
			],
			// dob is required for every candidate.
			[{ name: 'A', gender: 'Male' }, 'dob must be a string'],
			[{ name: 'A', gender: 'Male', dob: 29021996 }, 'dob must be a string'],
			// The contract's nesting is an unknown property here, listed first (class-validator's whitelist).
			[
				{ name: 'A', gender: 'Male', dob: '29-02-1996', verificationFields: { dob: '29-02-1996' } },
				'property verificationFields should not exist',
			],
			[
				{ name: 'A', gender: 'Male', verificationFields: { dob: '29-02-1996' } },
				'property verificationFields should not exist/dob must be a string',
			],
			[
				{ name: 'A', gender: 'Male', dob: '29-02-1996', nickname: 'x' },
				'property nickname should not exist',
			],
			[
				{ name: 'A', gender: 'Male', dob: '1996-02-29' },
				'dob must be a valid date in DD-MM-YYYY format',
			],
			[
				{ name: 'A', gender: 'Male', dob: '31-02-2000' },
				'dob must be a valid date in DD-MM-YYYY format',
			],
			[
				{
					name: '',
					gender: 'male',
					dob: '01-01-2000',
					mobile: 9876543210,
					profession: '',
					fatherName: 7,
					email: 'not-an-email',
				},
				'name should not be empty/gender must be one of Male, Female, Other/mobile must be a string/profession should not be empty/fatherName must be a string/email must be an email',
			],
		])('refuses %j with code -1 under HTTP 200: %s', async (body, message) => {
			const form = await createForm();
			const { status, json } = await addCandidate(form, body);
			expect(status).toBe(200);
			expect(json).toEqual({ code: -1, message });
			expect(sandbox.state.transactions.size).toBe(0);
		});

		test('a body that is not an object is refused', async () => {
			const form = await createForm();
			expect((await addCandidate(form, [])).json).toEqual({
				code: -1,
				message: 'body must be an object',
			});
		});

		test('unchanged: the unknown form is looked up first (404)', async () => {
			const { status, json } = await call(
				'POST',
				`${V}/ekyc-forms/${'0'.repeat(24)}/diy-candidate`,
				{ body: {} },
			);
			expect(status).toBe(404);
			expect(json).toEqual({ code: -1, message: 'Form not found' });
		});
	});

	describe("'contract' mode: unchanged", () => {
		beforeEach(() => start());

		test('verificationFields carries dob and fatherName; dob is not required without it', async () => {
			const form = await createForm();
			const nested = await addCandidate(form, CONTRACT_CANDIDATE);
			expect(nested.json).toMatchObject({ code: 0 });
			const stored = sandbox.state.transactions.get(nested.json.data.transactionId);
			expect(stored.candidate).toEqual(CONTRACT_CANDIDATE);
			expect(stored.profile).toMatchObject({ dob: '29-02-1996', fatherName: 'Ravi Rao' });
			expect((await addCandidate(form, { name: 'B', gender: 'Other' })).json).toMatchObject({
				code: 0,
			});
		});

		test('contract-style refusals are unchanged', async () => {
			const form = await createForm();
			const { json } = await addCandidate(form, {
				gender: 'Unknown',
				verificationFields: { dob: '1990-01-31' },
			});
			expect(json).toEqual({
				code: -1,
				message:
					'"name" is required/"gender" must be one of [Male, Female, Other]/"verificationFields.dob" must be in DD-MM-YYYY format',
			});
		});

		test('a top-level dob or fatherName is accepted and ignored, not refused: the contract schema accepts unknown keys', async () => {
			// The contract's create schema is not strict about unknown properties (validation.js: "Unknown
			// keys are accepted"), so the page's shape is not refused here; its dob and fatherName are
			// not taken either: the candidate has no dob.
			const form = await createForm();
			const { json } = await addCandidate(form, {
				name: 'A',
				gender: 'Male',
				dob: '29-02-1996',
				fatherName: 'R',
			});
			expect(json).toMatchObject({ code: 0, message: 'Success' });
			const stored = sandbox.state.transactions.get(json.data.transactionId);
			expect(stored.candidate).toEqual({ name: 'A', gender: 'Male' });
			expect(stored.profile).toEqual({ name: 'A', gender: 'Male' });
			expect((await txnInfo(json.data.transactionId)).json.data.candidate.profileDetails).toEqual({
				name: 'A',
				gender: 'Male',
			});
		});
	});
});

describe('2. transaction status', () => {
	test("'current' mode: candidate { id, email, mobile, profileDetails } without name, no report, insufficiency, verifierName, per-check fields", async () => {
		await start({ pages: 'current' });
		const { form, transactionId } = await createTransaction(CURRENT_CANDIDATE);
		const { status, json } = await txnInfo(transactionId);
		expect(status).toBe(200);
		expect(json).toEqual({
			code: 0,
			message: 'Success',
			data: {
				_id: transactionId,
				orgId: ORG_ID,
				form: { id: { _id: form._id } },
				candidate: {
					id: expect.stringMatching(HEX24),
					email: 'asha@example.com',
					mobile: '+91-9876543210',
					profileDetails: {
						name: 'Asha Rao',
						gender: 'Female',
						dob: '29-02-1996',
						fatherName: 'Ravi Rao',
						profession: 'Engineer',
					},
				},
				verificationList: [
					{
						name: 'bgv-employment',
						state: 'NOT_STARTED',
						consentMessage: expect.any(String),
						skipAllowed: false,
						markedAsSkip: false,
						marksheetRequired: false,
						category: { id: expect.stringMatching(HEX24), name: 'employment' },
					},
					{
						name: 'bgv-degree',
						state: 'NOT_STARTED',
						consentMessage: expect.any(String),
						skipAllowed: true,
						markedAsSkip: false,
						marksheetRequired: false,
						category: { id: expect.stringMatching(HEX24), name: 'education' },
					},
				],
				state: 'NOT_STARTED',
				insufficiency: false,
				verifierName: expect.any(String),
				createdAt: START.toISOString(),
				updatedAt: START.toISOString(),
			},
		});
		expect(json.data.candidate).not.toHaveProperty('name');
		for (const field of ['report', 'transactionId', 'formId'])
			expect(json.data).not.toHaveProperty(field);
		// The candidate's id stays the same from read to read.
		expect((await txnInfo(transactionId)).json.data.candidate.id).toBe(json.data.candidate.id);
	});

	test("'current' mode: insufficiency is true while any check is INSUFFICIENT_DATA; a check the form did not list has skipAllowed false", async () => {
		await start({ pages: 'current' });
		const { transactionId } = await createTransaction({
			name: 'A',
			gender: 'Male',
			dob: '01-01-1990',
		});
		const candidate = (await txnInfo(transactionId)).json.data.candidate;
		expect(candidate).toEqual({
			id: expect.stringMatching(HEX24),
			profileDetails: { name: 'A', gender: 'Male', dob: '01-01-1990' },
		});

		await control('POST', '/__sandbox/insufficiency', {
			transactionId,
			verificationName: 'bgv-degree',
		});
		expect((await txnInfo(transactionId)).json.data.insufficiency).toBe(true);
		await transition(transactionId, 'bgv-degree', 'IN_PROGRESS');
		expect((await txnInfo(transactionId)).json.data.insufficiency).toBe(false);

		await submit(transactionId, 'bgv-police-clearance-certificate', {
			fileUrl: 'https://files.example/pcc.pdf',
		});
		const added = (await txnInfo(transactionId)).json.data.verificationList[2];
		expect(added).toMatchObject({
			name: 'bgv-police-clearance-certificate',
			state: 'IN_PROGRESS',
			skipAllowed: false,
			marksheetRequired: false,
			category: { id: expect.stringMatching(HEX24), name: 'criminal' },
		});
	});

	test("'contract' mode: today's fields (candidate.name, report) plus profileDetails; none of the current pages' additions", async () => {
		await start();
		const { transactionId } = await createTransaction(CONTRACT_CANDIDATE);
		const { json } = await txnInfo(transactionId);
		expect(json.data.candidate).toEqual({
			...CONTRACT_CANDIDATE,
			profileDetails: {
				name: 'Asha Rao',
				gender: 'Female',
				dob: '29-02-1996',
				fatherName: 'Ravi Rao',
				profession: 'Engineer',
			},
		});
		expect(json.data.verificationList).toEqual([
			{ name: 'bgv-employment', state: 'NOT_STARTED' },
			{ name: 'bgv-degree', state: 'NOT_STARTED' },
		]);
		expect(json.data.report).toMatch(
			new RegExp(`^${baseUrl}/private-files/[0-9a-f]+/report-${transactionId}\\.pdf$`),
		);
		for (const field of ['insufficiency', 'verifierName'])
			expect(json.data).not.toHaveProperty(field);
		expect(await download(json.data.report)).toContain('Candidate: Asha Rao');
	});
});

describe('3. check status: per-check reports', () => {
	const EDUCATION = ['bgv-tenth', 'bgv-twelfth', 'bgv-degree'];

	test.each(EDUCATION)(
		"'current' mode, %s: no reportUrl; responseList is [] until COMPLETED, then [{ data: { eduvReport: { pdfServingUrl } } }], a private file the download operation fetches",
		async (name) => {
			await start({ pages: 'current' });
			const { transactionId } = await createTransaction(CURRENT_CANDIDATE, [
				{ name, skipAllowed: false },
			]);
			const before = await currentCheck(name, transactionId);
			expect(before).toMatchObject({ name, state: 'NOT_STARTED', responseList: [] });
			expect(before).not.toHaveProperty('reportUrl');
			expect(before).not.toHaveProperty('verificationName');

			await transition(transactionId, name, 'COMPLETED');
			const completed = await currentCheck(name, transactionId);
			expect(completed).not.toHaveProperty('reportUrl');
			expect(completed.state).toBe('COMPLETED');
			expect(completed.responseList).toEqual([
				{
					data: {
						eduvReport: {
							pdfServingUrl: expect.stringMatching(privateReportUrl(transactionId, name)),
						},
					},
				},
			]);
			const url = completed.responseList[0].data.eduvReport.pdfServingUrl;
			const pdf = await download(url);
			expect(pdf).toContain(`Check: ${name}`);
			expect(pdf).toContain('State: COMPLETED');
			// The token route works too, as for the transaction report.
			const token = await call('POST', `${V}/download-manager/download-file`, {
				body: { url, getDownloadToken: true },
			});
			expect(token.json).toEqual({
				code: 0,
				message: 'Success',
				data: { downloadToken: expect.any(String) },
			});
		},
	);

	test("'current' mode, other checks: reportUrl null until COMPLETED, then a private file the download operation fetches; no responseList", async () => {
		await start({ pages: 'current' });
		const { transactionId } = await createTransaction(CURRENT_CANDIDATE);
		await submit(transactionId, 'bgv-employment', {
			employmentDocumentType: 'experienceletter',
			nameAsPerEmployerRecords: 'Asha Rao',
			employerName: 'Acme',
			joiningDate: '2019-01-01',
			lastWorkingDate: '2021-01-01',
			document: { label: 'experienceletter', url: 'https://files.example/x.pdf' },
		});
		const inProgress = await currentCheck('bgv-employment', transactionId);
		expect(inProgress).toMatchObject({ state: 'IN_PROGRESS', reportUrl: null });
		expect(inProgress).not.toHaveProperty('responseList');

		await transition(transactionId, 'bgv-employment', 'COMPLETED');
		const completed = await currentCheck('bgv-employment', transactionId);
		expect(completed).toEqual({
			name: 'bgv-employment',
			subType: expect.stringMatching(HEX24),
			state: 'COMPLETED',
			note: expect.any(String),
			request: expect.objectContaining({ employerName: 'Acme' }),
			response: null,
			documentList: [{ label: 'experienceletter', url: 'https://files.example/x.pdf' }],
			reportData: null,
			reportUrl: expect.stringMatching(privateReportUrl(transactionId, 'bgv-employment')),
			insufficiencyData: [],
		});
		expect(await download(completed.reportUrl)).toContain('Check: bgv-employment');
	});

	test("'current' mode, a check with no report: bgv-police-verification completed still has reportUrl null; 'contract' mode gives it one", async () => {
		// The check's status as either shape the current pages show: one object, or the data.data[] list.
		const checkOf = ({ data }) => (Array.isArray(data && data.data) ? data.data[0] : data);
		const address = {
			line1: '1 MG Road',
			vtc: 'Bengaluru',
			district: 'Bengaluru Urban',
			state: 'Karnataka',
			pincode: '560001',
			country: 'India',
		};
		const FORM = [
			{ name: 'bgv-police-verification', skipAllowed: false },
			{ name: 'bgv-criminal', skipAllowed: false },
		];
		await start({ pages: 'current' });
		const { transactionId } = await createTransaction(CURRENT_CANDIDATE, FORM);
		await submit(transactionId, 'bgv-police-verification', { permanentAddress: address });
		await transition(transactionId, 'bgv-police-verification', 'COMPLETED');
		await transition(transactionId, 'bgv-criminal', 'COMPLETED');
		const police = checkOf((await checkInfo('bgv-police-verification', transactionId)).json);
		expect(police).toMatchObject({ state: 'COMPLETED', reportUrl: null });
		const criminal = checkOf((await checkInfo('bgv-criminal', transactionId)).json);
		expect(criminal).toMatchObject({
			state: 'COMPLETED',
			reportUrl: expect.stringMatching(privateReportUrl(transactionId, 'bgv-criminal')),
		});

		await setPages('contract');
		const inContract = (await checkInfo('bgv-police-verification', transactionId)).json.data;
		expect(inContract.reportUrl).toMatch(
			privateReportUrl(transactionId, 'bgv-police-verification'),
		);
	});

	test("POST /__sandbox/skip marks a check the form lets the candidate skip: markedAsSkip true in 'current' mode, its state kept, nothing notified; another check is refused", async () => {
		await start({ pages: 'current' });
		const { transactionId } = await createTransaction(CURRENT_CANDIDATE);
		const skipped = await control('POST', '/__sandbox/skip', {
			transactionId,
			verificationName: 'bgv-degree',
		});
		expect(skipped).toMatchObject({
			status: 200,
			json: { transactionId, verificationName: 'bgv-degree', markedAsSkip: true },
		});
		const { verificationList, state } = (await txnInfo(transactionId)).json.data;
		expect(
			verificationList.map(({ name, state: checkState, markedAsSkip }) => [
				name,
				checkState,
				markedAsSkip,
			]),
		).toEqual([
			['bgv-employment', 'NOT_STARTED', false],
			['bgv-degree', 'NOT_STARTED', true],
		]);
		expect(state).toBe('NOT_STARTED');
		expect(sandbox.state.deliveries).toEqual([]);

		const refused = await control('POST', '/__sandbox/skip', {
			transactionId,
			verificationName: 'bgv-employment',
		});
		expect(refused).toMatchObject({
			status: 400,
			json: {
				code: -1,
				message:
					'"verificationName" is not a check of this transaction that the form lets the candidate skip',
			},
		});
		expect(
			(
				await control('POST', '/__sandbox/skip', {
					transactionId: 'TXN-none',
					verificationName: 'bgv-degree',
				})
			).status,
		).toBe(404);
	});

	test("'contract' mode: reportUrl on every check, whatever its state (education ones included), downloadable; no responseList", async () => {
		await start();
		const { transactionId } = await createTransaction(CONTRACT_CANDIDATE);
		for (const name of ['bgv-degree', 'bgv-employment']) {
			const { json } = await checkInfo(name, transactionId);
			expect(json.data.state).toBe('NOT_STARTED');
			expect(json.data.reportUrl).toMatch(privateReportUrl(transactionId, name));
			expect(json.data).not.toHaveProperty('responseList');
			expect(await download(json.data.reportUrl)).toContain(`Check: ${name}`);
		}
	});
});

describe('4. check names: digital address and police certificate', () => {
	const FORM = [
		{ name: 'bgv-local-address-digital', skipAllowed: false },
		{ name: 'bgv-permanent-address-digital', skipAllowed: false },
		{ name: 'bgv-police-verification', skipAllowed: false },
	];
	const PAIRS = [
		['bgv-local-extended-address', 'bgv-local-address-digital'],
		['bgv-permanent-extended-address', 'bgv-permanent-address-digital'],
	];

	test.each(PAIRS)(
		"'current' mode: submitted as %s, found (and notified) only under %s",
		async (submissionName, formName) => {
			await start({ pages: 'current' });
			await call('POST', `${V}/webhook-config`, {
				body: { endpoint: 'http://127.0.0.1:1/hook', apiKey: 'k' },
			});
			const { transactionId } = await createTransaction(CURRENT_CANDIDATE, FORM);
			expect((await submit(transactionId, submissionName, ADDRESS)).json).toEqual({
				code: 0,
				message: 'Success',
			});

			expect(await currentCheck(formName, transactionId)).toMatchObject({
				name: formName,
				state: 'IN_PROGRESS',
				request: ADDRESS,
			});
			const notFound = await checkInfo(submissionName, transactionId);
			expect(notFound.status).toBe(404);
			expect(notFound.json).toEqual(NOT_FOUND_CHECK);
			// No second check: the form's own is the one that moved.
			const list = (await txnInfo(transactionId)).json.data.verificationList.map(
				({ name, state }) => [name, state],
			);
			expect(list).toEqual(
				FORM.map(({ name }) => [name, name === formName ? 'IN_PROGRESS' : 'NOT_STARTED']),
			);
			const [delivery] = await sandbox.waitForDeliveries(1);
			expect(delivery.payload).toEqual({
				transactionId,
				// The check's ID (its subType), read where the sandbox keeps it, whatever the answer's shape.
				verificationId: sandbox.state.transactions
					.get(transactionId)
					.verificationList.find((check) => check.name === formName).subType,
				newState: 'IN_PROGRESS',
			});
			// By name (notifyCheckBy 'name'), the check is named as the form lists it.
			await call('POST', '/__sandbox/notify-check-by', { apiKey: null, body: { by: 'name' } });
			await submit(transactionId, submissionName, ADDRESS);
			const [, byName] = await sandbox.waitForDeliveries(2);
			expect(byName.payload).toEqual({
				transactionId,
				verificationId: formName,
				newState: 'IN_PROGRESS',
			});
		},
	);

	test("'current' mode: the police clearance certificate keeps its own name (constants: bgv-police-verification is another check)", async () => {
		await start({ pages: 'current' });
		const { transactionId } = await createTransaction(CURRENT_CANDIDATE, FORM);
		await submit(transactionId, 'bgv-police-clearance-certificate', {
			fileUrl: 'https://files.example/pcc.pdf',
		});
		expect((await currentCheck('bgv-police-clearance-certificate', transactionId)).state).toBe(
			'IN_PROGRESS',
		);
		expect((await currentCheck('bgv-police-verification', transactionId)).state).toBe(
			'NOT_STARTED',
		);
	});

	test("'current' mode: the control endpoints take either name and move the form-list check", async () => {
		await start({ pages: 'current' });
		const { transactionId } = await createTransaction(CURRENT_CANDIDATE, FORM);
		await transition(transactionId, 'bgv-local-extended-address', 'COMPLETED');
		expect((await currentCheck('bgv-local-address-digital', transactionId)).state).toBe(
			'COMPLETED',
		);
		expect((await checkInfo('bgv-local-extended-address', transactionId)).json).toEqual(
			NOT_FOUND_CHECK,
		);
	});

	test.each(PAIRS)(
		"'contract' mode (today's lookup: the exact name a check was submitted under): %s is a check of its own, %s stays NOT_STARTED",
		async (submissionName, formName) => {
			await start();
			const { transactionId } = await createTransaction(CONTRACT_CANDIDATE, FORM);
			await submit(transactionId, submissionName, ADDRESS);
			expect((await checkInfo(submissionName, transactionId)).json.data).toMatchObject({
				state: 'IN_PROGRESS',
				request: ADDRESS,
			});
			expect((await checkInfo(formName, transactionId)).json.data.state).toBe('NOT_STARTED');
			const names = (await txnInfo(transactionId)).json.data.verificationList.map(
				({ name }) => name,
			);
			expect(names).toEqual([...FORM.map(({ name }) => name), submissionName]);
		},
	);
});

describe('5. PAN', () => {
	const pan = (body) => call('POST', `${V}/verifications/pan`, { body });

	test("'current' mode: the older page's nested answer, VALID", async () => {
		await start({ pages: 'current' });
		const { status, json } = await pan({ pan: 'ABCDE1234F', digiLocker: false });
		expect(status).toBe(200);
		expect(json).toEqual({
			code: 0,
			message: 'Success',
			data: {
				code: 200,
				data: {
					pan: 'ABCDE1234F',
					full_name: 'ASHA VERMA',
					status: 'VALID',
					category: 'Individual',
				},
				transaction_id: expect.any(String),
			},
		});
		expect(json.data).not.toHaveProperty('fullName');
	});

	test("'current' mode: a PAN ending in X is a success envelope whose nested status is INVALID", async () => {
		await start({ pages: 'current' });
		const { json } = await pan({ pan: 'ABCDE1234X', digiLocker: false });
		expect(json).toEqual({
			code: 0,
			message: 'Success',
			data: {
				code: 200,
				data: { pan: 'ABCDE1234X', full_name: null, status: 'INVALID', category: null },
				transaction_id: expect.any(String),
			},
		});
	});

	test.each(['current', 'contract'])(
		"'%s' mode: a malformed body is refused the same way (code -1)",
		async (pages) => {
			await start({ pages });
			expect((await pan({ pan: 'abc', digiLocker: false, extra: 1 })).json).toEqual({
				code: -1,
				message: '"pan" must be a valid PAN/"extra" is not allowed',
			});
		},
	);

	test("'contract' mode: the flat answer, unchanged", async () => {
		await start();
		expect((await pan({ pan: 'ABCDE1234F', digiLocker: false })).json).toEqual({
			code: 0,
			message: 'Success',
			data: { fullName: 'ASHA VERMA', pan: 'ABCDE1234F', status: 'VALID', category: 'Individual' },
		});
		expect((await pan({ pan: 'ABCDE1234X', digiLocker: false })).json).toEqual({
			code: 0,
			message: 'Invalid PAN',
			data: { pan: 'ABCDE1234X', status: 'INVALID', reason: 'No record found for this PAN' },
		});
	});
});

describe('6. Instant KYC refusals', () => {
	const kyc = (check, body) => call('POST', `${V}/verifications/${check}`, { body });

	test("'current' mode: GST's invalid GSTIN is exactly { message } under HTTP 200; 'contract' mode: a negative result", async () => {
		await start({ pages: 'current' });
		const invalid = await kyc('gst', { gst: '27ABCDE1234F1ZX' });
		expect(invalid.status).toBe(200);
		expect(invalid.json).toEqual({ message: 'Invalid GSTIN' });

		await setPages('contract');
		expect((await kyc('gst', { gst: '27ABCDE1234F1ZX' })).json).toEqual({
			code: 0,
			message: 'Invalid GSTIN',
			data: { status: 'INVALID', reason: 'No registration found for this GSTIN' },
		});
	});

	test("'current' mode: Aadhaar Start's bad redirect URL is { message } with no code under 422; Get Result's refusals are code 1 under 404 and 400", async () => {
		await start({ pages: 'current' });
		const badUrl = await kyc('pre-verify/aadhaar', { digiLocker: true, redirectUrl: 'not a url' });
		expect(badUrl.status).toBe(422);
		expect(badUrl.json).toEqual({ message: expect.stringMatching(/^"redirectUrl" /) });

		const unknown = await kyc('self/aadhaar', { digiLocker: true, transactionId: 'nope' });
		expect(unknown.status).toBe(404);
		expect(unknown.json).toEqual({
			code: 1,
			message: 'Invalid transactionId: no DigiLocker request with this ID',
		});

		const started = await kyc('pre-verify/aadhaar', {
			digiLocker: true,
			redirectUrl: 'https://example.com/done',
		});
		const pending = await kyc('self/aadhaar', {
			digiLocker: true,
			transactionId: started.json.data.transactionId,
		});
		expect(pending.status).toBe(400);
		expect(pending.json).toEqual({
			code: 1,
			message: 'Consent pending: the candidate has not completed DigiLocker authorisation',
		});
	});

	test("'contract' mode: code -1 as before (Start's 422 too, Get Result's under HTTP 200)", async () => {
		await start();
		const badUrl = await kyc('pre-verify/aadhaar', { digiLocker: true, redirectUrl: 'not a url' });
		expect(badUrl.status).toBe(422);
		expect(badUrl.json.code).toBe(-1);
		const unknown = await kyc('self/aadhaar', { digiLocker: true, transactionId: 'nope' });
		expect([unknown.status, unknown.json.code]).toEqual([200, -1]);
	});
});
