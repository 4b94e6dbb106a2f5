'use strict';

const { randomUUID } = require('node:crypto');

const { reply } = require('./http-utils');
const { validate, object, string, boolean, required, httpUriProblem } = require('./validation');

/**
 * Instant KYC checks (issue 34), from the provider's public documentation: their own endpoints,
 * synchronous (the answer is the result), each call billed. The body is exactly the check's own
 * fields: a missing or unknown field is `code: -1` under HTTP 200, as the other validation failures.
 * A valid call with a negative result is a success envelope (`code: 0`) whose data.status is
 * INVALID with a reason. The result fields follow the public pages; the rest is presumed (marked).
 *
 * Deterministic answers (documented in sandbox/README.md):
 * - PAN ending in X, GSTIN ending in X, account number / UAN / DIN ending in 0000, a UPI ID whose
 *   name is "invalid": a negative result (status INVALID, reason);
 * - anything else well formed: a positive result;
 * - Aadhaar: pre-verify gives { transactionId, authUrl }; self answers code -1 "Consent pending …"
 *   until the candidate consents: GET authUrl, or POST /__sandbox/kyc/consent { transactionId }.
 */

const V = '/verification/api/1.0/verifications';

const NAME = 'ASHA VERMA';

/** A 1×1 JPEG, base64: the Aadhaar photo. */
const PHOTO_JPEG_BASE64 =
	'/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxD/2Q==';

const PAN = /^[A-Z]{5}\d{4}[A-Z]$/;
const IFSC = /^[A-Z]{4}0[A-Z0-9]{6}$/;
const GSTIN = /^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;
const UPI = /^[A-Za-z0-9._-]+@[A-Za-z][A-Za-z0-9.-]*$/;

/** A string matching `pattern`, else `"field" must be a valid <what>`. */
const matching = (pattern, what) => string({ custom: (v) => (pattern.test(v) ? undefined : `must be a valid ${what}`) });

/** Exactly this boolean (digiLocker). */
const exactly = (expected) => (value, path, errors) => {
	if (value !== expected) errors.push(`"${path}" must be [${expected}]`);
};

/** The check's own fields, nothing else. */
const strict = (shape) => object(shape, { forbidUnknown: true });

const schemas = {
	pan: strict({ pan: required(matching(PAN, 'PAN')), digiLocker: required(exactly(false)) }),
	bankAccount: strict({
		accountNumber: required(matching(/^\d{9,18}$/, 'account number')),
		ifsc: required(matching(IFSC, 'IFSC')),
		pennyLess: required(boolean()),
	}),
	upi: strict({ upi: required(matching(UPI, 'UPI ID')) }),
	gst: strict({ gst: required(matching(GSTIN, 'GSTIN')) }),
	employment: strict({ uan: required(matching(/^\d{12}$/, 'UAN')) }),
	din: strict({ din: required(matching(/^\d{8}$/, 'DIN')) }),
	aadhaarStart: strict({ digiLocker: required(exactly(true)), redirectUrl: required(string()) }),
	aadhaarResult: strict({ digiLocker: required(exactly(true)), transactionId: required(string()) }),
};

/** A negative result: a success envelope whose data says INVALID and why. */
function negative(message, reason, data = {}) {
	return { status: 200, body: { code: 0, message, data: { ...data, status: 'INVALID', reason } } };
}

/** A handler that validates the body with `schema`, then answers with `answer(body)`. */
function check(schema, answer) {
	return ({ body }) => {
		const problems = validate(schema, body);
		if (problems.length) return reply.invalid(problems);
		return answer(body);
	};
}

/**
 * deps: { state, getBaseUrl }. Returns { api, control }: the API routes (key required, recorded)
 * and the control routes of the DigiLocker consent (no key).
 */
function createKycRoutes({ state, getBaseUrl }) {
	const consents = state.aadhaarChecks;

	/**
	 * From the provider's current public pages ('current' mode): the older PAN page's nested answer, a
	 * success envelope either way; the verdict is the nested status (a reader must not call a nested
	 * INVALID valid). Presumed: full_name and category null on INVALID, the message "Success" on both.
	 */
	const nestedPan = (pan) => {
		const valid = !pan.endsWith('X');
		return reply.success({
			code: 200,
			data: { pan, full_name: valid ? NAME : null, status: valid ? 'VALID' : 'INVALID', category: valid ? 'Individual' : null },
			transaction_id: randomUUID(),
		});
	};

	const verifyPan = check(schemas.pan, ({ pan }) => {
		if (state.pages === 'current') return nestedPan(pan);
		return pan.endsWith('X')
			? negative('Invalid PAN', 'No record found for this PAN', { pan })
			: // The older public page also shows status and category: presumed present.
				reply.success({ fullName: NAME, pan, status: 'VALID', category: 'Individual' });
	});

	const verifyBankAccount = check(schemas.bankAccount, ({ accountNumber }) =>
		accountNumber.endsWith('0000')
			? // Presumed: accountExists false with the negative result.
				negative('Invalid bank account', 'Account does not exist at this bank', { accountExists: false, nameAtBank: null })
			: reply.success({ accountExists: true, nameAtBank: NAME }),
	);

	const verifyUpi = check(schemas.upi, ({ upi }) =>
		upi.split('@')[0] === 'invalid'
			? negative('Invalid UPI ID', 'No account is linked to this UPI ID', { accountExists: false, nameAtBank: null })
			: reply.success({ accountExists: true, nameAtBank: NAME }),
	);

	// Current mode (from the provider's current public pages): the page's invalid GSTIN is exactly
	// { message } under HTTP 200, no code, no data (the wording presumed).
	const invalidGstin = () =>
		state.pages === 'current'
			? { status: 200, body: { message: 'Invalid GSTIN' } }
			: negative('Invalid GSTIN', 'No registration found for this GSTIN');

	const verifyGst = check(schemas.gst, ({ gst }) =>
		gst.endsWith('X')
			? invalidGstin()
			: reply.success({
					legalName: 'ACME TECHNOLOGIES PRIVATE LIMITED',
					tradeName: 'ACME',
					gstin: gst,
					// The registration's own status (not VALID / INVALID): presumed "Active".
					status: 'Active',
					taxpayerType: 'Regular',
					constitutionOfBusiness: 'Private Limited Company',
					dateOfRegistration: '01/07/2017',
					principalAddress: '12 MG Road, Bengaluru, Karnataka 560001',
					natureOfBusinessActivity: ['Supplier of Services'],
				}),
	);

	const getEmploymentHistory = check(schemas.employment, ({ uan }) =>
		uan.endsWith('0000')
			? negative('Invalid UAN', 'No employment record for this UAN')
			: reply.success({
					employmentData: [
						{
							name: NAME,
							guardianName: 'RAKESH VERMA',
							establishmentName: 'EARLIER EMPLOYER PRIVATE LIMITED',
							memberId: 'MHBAN00123450000011111',
							dateOfJoining: '2016-07-01',
							dateOfExit: '2021-03-31',
						},
						// No dateOfExit: still employed there.
						{
							name: NAME,
							guardianName: 'RAKESH VERMA',
							establishmentName: 'ACME TECHNOLOGIES PRIVATE LIMITED',
							memberId: 'KABNG00123450000022222',
							dateOfJoining: '2021-04-01',
						},
					],
				}),
	);

	const verifyDin = check(schemas.din, ({ din }) =>
		din.endsWith('0000')
			? negative('Invalid DIN', 'No director found for this DIN')
			: reply.success({
					directorData: { din, name: NAME },
					companyData: [
						{
							companyName: 'ACME TECHNOLOGIES PRIVATE LIMITED',
							cinOrFcrn: 'U72200KA2015PTC000001',
							beginDate: '2015-01-01',
							endDate: '-',
						},
					],
					llpData: [],
				}),
	);

	function startAadhaar({ body }) {
		const problems = validate(schemas.aadhaarStart, body);
		if (problems.length) return reply.invalid(problems);
		// From the provider's public documentation: a bad redirectUrl is answered with HTTP 422; the
		// current pages show it as { message } with no code.
		const urlProblem = httpUriProblem(body.redirectUrl);
		if (urlProblem) {
			const message = `"redirectUrl" ${urlProblem}`;
			return state.pages === 'current' ? { status: 422, body: { message } } : reply.failure(422, message);
		}
		const transactionId = randomUUID();
		consents.set(transactionId, { redirectUrl: body.redirectUrl, consented: false });
		return reply.success({ transactionId, authUrl: `${getBaseUrl()}/__sandbox/digilocker/${transactionId}` });
	}

	function aadhaarResult({ body }) {
		const problems = validate(schemas.aadhaarResult, body);
		if (problems.length) return reply.invalid(problems);
		const consent = consents.get(body.transactionId);
		// Current mode (from the provider's current public pages): this step's refusals are code 1, under
		// HTTP 404 (which status for which refusal is presumed) or 400.
		const current = state.pages === 'current';
		const refuse = (status, message) => (current ? { status, body: { code: 1, message } } : reply.failure(200, message));
		if (!consent) return refuse(404, 'Invalid transactionId: no DigiLocker request with this ID');
		// Presumed wording; the public page says only that the result needs the candidate's consent.
		if (!consent.consented) return refuse(400, 'Consent pending: the candidate has not completed DigiLocker authorisation');
		// Presumed shapes of gender and the address parts.
		return reply.success({
			aadhaarId: 'XXXXXXXX1234',
			name: 'Asha Verma',
			dateOfBirth: '17-05-1994',
			gender: 'F',
			address: {
				careOf: 'D/O Rakesh Verma',
				house: '12',
				street: 'MG Road',
				locality: 'Shivajinagar',
				vtc: 'Bengaluru',
				district: 'Bengaluru Urban',
				state: 'Karnataka',
				pincode: '560001',
				country: 'India',
			},
			photo: PHOTO_JPEG_BASE64,
		});
	}

	/** The candidate consents (what DigiLocker's page would record). */
	function consent(transactionId) {
		const entry = consents.get(transactionId);
		if (!entry) return reply.failure(404, 'No DigiLocker request with this transactionId');
		entry.consented = true;
		return reply.json({ transactionId, consented: true, redirectUrl: entry.redirectUrl });
	}

	return {
		api: [
			{ method: 'POST', path: `${V}/pan`, body: 'json', handler: verifyPan },
			// Inferred path (by the pattern of the other checks).
			{ method: 'POST', path: `${V}/bank-account`, body: 'json', handler: verifyBankAccount },
			{ method: 'POST', path: `${V}/upi`, body: 'json', handler: verifyUpi },
			{ method: 'POST', path: `${V}/gst`, body: 'json', handler: verifyGst },
			{ method: 'POST', path: `${V}/employment-check`, body: 'json', handler: getEmploymentHistory },
			// Inferred path (by the pattern of the other checks).
			{ method: 'POST', path: `${V}/din`, body: 'json', handler: verifyDin },
			{ method: 'POST', path: `${V}/pre-verify/aadhaar`, body: 'json', handler: startAadhaar },
			{ method: 'POST', path: `${V}/self/aadhaar`, body: 'json', handler: aadhaarResult },
		],
		control: [
			// The authUrl the candidate opens.
			{ method: 'GET', path: '/__sandbox/digilocker/:transactionId', handler: ({ params }) => consent(params.transactionId) },
			{
				method: 'POST',
				path: '/__sandbox/kyc/consent',
				body: 'json',
				handler: ({ body }) =>
					typeof (body && body.transactionId) === 'string'
						? consent(body.transactionId)
						: reply.failure(400, '"transactionId" must be a string'),
			},
		],
	};
}

module.exports = { createKycRoutes, PHOTO_JPEG_BASE64 };
