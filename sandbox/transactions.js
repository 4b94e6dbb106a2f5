'use strict';

const { CHECK_STATES, EDUCATION_CHECKS, FORM_NAME_OF_SUBMISSION_NAME, deterministicObjectId } = require('./constants');
const { buildPdf } = require('./pdf');

/**
 * subType: the check's ID (24 hex, stable for a check of a transaction). insufficiencies: the open
 * questions of an insufficiency (item shape presumed: { insufficiencyId, label, type }).
 */
function newCheck(transactionId, name) {
	return {
		name,
		subType: deterministicObjectId(`check:${transactionId}:${name}`),
		state: CHECK_STATES.notStarted,
		request: null,
		submittedAt: null,
		reportFileId: null,
		insufficiencies: [],
		resolutions: [],
	};
}

/**
 * candidate: the body's fields as received (those the mode knows); profile: the candidate's details
 * wherever the mode takes them ({ name, gender, dob?, fatherName?, profession?, mobile?, email? }),
 * which the transaction status shows as candidate.profileDetails; candidateId: the candidate's `id`.
 */
function createTransaction({ transactionId, orgId, form, candidate, profile, candidateId, at }) {
	return {
		transactionId,
		orgId,
		formId: form._id,
		candidateId,
		candidate,
		profile,
		verificationList: form.verificationList.map((check) => newCheck(transactionId, check.name)),
		reportFileId: null,
		createdAt: at,
		updatedAt: at,
	};
}

/**
 * The name a check is kept under. Contract mode: the name it was submitted under, as is (a digital
 * address submitted as bgv-local-extended-address is a check of that name, beside the form's
 * bgv-local-address-digital). Current mode (from the provider's current public pages): its form-list name.
 */
const storedCheckName = (pages, name) => (pages === 'current' && FORM_NAME_OF_SUBMISSION_NAME[name]) || name;

const findCheck = (transaction, name) => transaction.verificationList.find((check) => check.name === name);
const findCheckById = (transaction, subType) => transaction.verificationList.find((check) => check.subType === subType);

/** NOT_STARTED until something moves, COMPLETED once every check is, IN_PROGRESS otherwise. */
function overallState(transaction) {
	const states = transaction.verificationList.map((check) => check.state);
	if (states.every((state) => state === CHECK_STATES.notStarted)) return CHECK_STATES.notStarted;
	if (states.every((state) => state === CHECK_STATES.completed)) return CHECK_STATES.completed;
	return CHECK_STATES.inProgress;
}

/**
 * Moves a check to a new state (adding it when the form did not list it) and drops cached
 * reports, which would otherwise show the old state.
 */
function updateCheck(transaction, name, { state, request, at }) {
	let check = findCheck(transaction, name);
	if (!check) {
		check = newCheck(transaction.transactionId, name);
		transaction.verificationList.push(check);
	}
	check.state = state;
	if (request !== undefined) {
		check.request = request;
		check.submittedAt = at;
	}
	check.reportFileId = null;
	transaction.reportFileId = null;
	transaction.updatedAt = at;
	return check;
}

/** Documents named in a submission: document.url, fileUrl and documentList[].url. */
function documentListOf(check) {
	const request = check.request || {};
	const documents = [];
	if (request.document && typeof request.document.url === 'string') {
		documents.push({ label: request.document.label || check.name, url: request.document.url });
	}
	if (typeof request.fileUrl === 'string') documents.push({ label: check.name, url: request.fileUrl });
	if (Array.isArray(request.documentList)) {
		for (const item of request.documentList) {
			if (item && typeof item.url === 'string') documents.push({ label: item.label || check.name, url: item.url });
		}
	}
	return documents;
}

/** Creates the report PDF on first need and keeps it until the state changes. */
function ensureReport(owner, files, { filename, lines }) {
	if (!owner.reportFileId) {
		const file = files.add({ filename, contentType: 'application/pdf', data: buildPdf(lines), source: 'report' });
		owner.reportFileId = file.id;
	}
	return files.privateUrl(files.get(owner.reportFileId));
}

function transactionReportUrl(transaction, files, at) {
	return ensureReport(transaction, files, {
		filename: `report-${transaction.transactionId}.pdf`,
		lines: [
			'Candidate Verification Service - sandbox report',
			`Transaction: ${transaction.transactionId}`,
			`Candidate: ${transaction.candidate.name}`,
			`Overall state: ${overallState(transaction)}`,
			...transaction.verificationList.map((check) => `${check.name}: ${check.state}`),
			`Generated: ${at}`,
		],
	});
}

function checkReportUrl(transaction, check, files, at) {
	return ensureReport(check, files, {
		filename: `report-${transaction.transactionId}-${check.name}.pdf`,
		lines: [
			'Candidate Verification Service - sandbox check report',
			`Transaction: ${transaction.transactionId}`,
			`Check: ${check.name}`,
			`State: ${check.state}`,
			`Generated: ${at}`,
		],
	});
}

/** From the provider's public pages: the candidate's details under candidate.profileDetails. */
function profileDetails({ profile }) {
	const { name, gender, dob, fatherName, profession } = profile;
	return Object.fromEntries(
		Object.entries({ name, gender, dob, fatherName, profession }).filter(([, value]) => value !== undefined),
	);
}

/** Contract mode: the candidate as sent, plus profileDetails (shown by both public pages). */
function transactionView(transaction, reportUrl) {
	return {
		transactionId: transaction.transactionId,
		orgId: transaction.orgId,
		formId: transaction.formId,
		candidate: { ...transaction.candidate, profileDetails: profileDetails(transaction) },
		verificationList: transaction.verificationList.map(({ name, state }) => ({ name, state })),
		state: overallState(transaction),
		report: reportUrl,
		createdAt: transaction.createdAt,
		updatedAt: transaction.updatedAt,
	};
}

/** Presumed: the public pages name a check's category but show no values. */
function categoryNameOf(name) {
	if (EDUCATION_CHECKS.includes(name) || name === 'bgv-degree-with-marksheet') return 'education';
	if (name.includes('address')) return 'address';
	if (['bgv-employment', 'employment-check', 'bgv-professional-reference-check'].includes(name)) return 'employment';
	if (name.startsWith('bgv-police') || ['bgv-criminal', 'bgv-global-database-check'].includes(name)) return 'criminal';
	if (name === 'bgv-cibil') return 'credit';
	if (name === 'bgv-social-media') return 'social-media';
	return 'identity';
}

/** From the provider's current public pages: a check's category is `{ id, name }` (both values presumed). */
function categoryOf(name) {
	const category = categoryNameOf(name);
	return { id: deterministicObjectId(`category:${category}`), name: category };
}

/** Presumed values (the current pages show these fields, not what they hold). */
const VERIFIER_NAME = 'Sandbox Verification Team';
const consentMessageOf = (name) => `I authorise the verification of the details I provide for ${name}.`;

/**
 * Current mode (from the provider's current public pages): the transaction's ID is `_id` and its form's
 * is `form.id._id` (no transactionId, no formId), the candidate is { id, email, mobile, profileDetails }
 * (no candidate.name), there is no `report`, and the transaction adds `insufficiency` (a check waits on
 * the candidate), `verifierName` and per-check fields. `form` is the transaction's form: a check it
 * does not list has skipAllowed and marksheetRequired false.
 */
function currentTransactionView(transaction, form) {
	const listed = new Map(((form && form.verificationList) || []).map((item) => [item.name, item]));
	const { email, mobile } = transaction.profile;
	return {
		_id: transaction.transactionId,
		orgId: transaction.orgId,
		form: { id: { _id: transaction.formId } },
		candidate: {
			id: transaction.candidateId,
			...(email !== undefined && { email }),
			...(mobile !== undefined && { mobile }),
			profileDetails: profileDetails(transaction),
		},
		verificationList: transaction.verificationList.map(({ name, state, markedAsSkip }) => {
			const item = listed.get(name) || {};
			return {
				name,
				state,
				consentMessage: consentMessageOf(name),
				skipAllowed: item.skipAllowed === true,
				markedAsSkip: markedAsSkip === true,
				marksheetRequired: item.marksheetRequired === true,
				category: categoryOf(name),
			};
		}),
		state: overallState(transaction),
		insufficiency: transaction.verificationList.some((check) => check.state === CHECK_STATES.insufficientData),
		verifierName: VERIFIER_NAME,
		createdAt: transaction.createdAt,
		updatedAt: transaction.updatedAt,
	};
}

const CHECK_NOTES = {
	[CHECK_STATES.notStarted]: 'Verification not started',
	[CHECK_STATES.inProgress]: 'Verification in progress',
	[CHECK_STATES.completed]: 'Verification completed',
	[CHECK_STATES.insufficientData]: 'Insufficient data: the candidate must answer',
};

function checkView(check, reportUrl) {
	return {
		verificationName: check.name,
		subType: check.subType,
		state: check.state,
		note: CHECK_NOTES[check.state] || `Verification ${check.state.toLowerCase()}`,
		request: check.request,
		response: null,
		documentList: documentListOf(check),
		reportData: null,
		reportUrl,
		insufficiencyData: check.insufficiencies,
	};
}

/**
 * Current mode (from the provider's current public pages): the double-wrapped list, `{ data: [check] }`
 * (the envelope's data.data, one entry per check of that name), each check with its `name` (no
 * verificationName); a per-check report only once the check is COMPLETED (null before: a sandbox
 * choice); for education checks as the newer page's responseList[].data.eduvReport.pdfServingUrl (and
 * no reportUrl), for the others as reportUrl.
 */
function currentCheckView(check, reportUrl) {
	const { verificationName, ...fields } = checkView(check, reportUrl);
	const view = { name: verificationName, ...fields };
	if (EDUCATION_CHECKS.includes(check.name)) {
		delete view.reportUrl;
		view.responseList = reportUrl ? [{ data: { eduvReport: { pdfServingUrl: reportUrl } } }] : [];
	}
	return { data: [view] };
}

module.exports = {
	storedCheckName,
	createTransaction,
	findCheck,
	findCheckById,
	updateCheck,
	overallState,
	transactionReportUrl,
	checkReportUrl,
	transactionView,
	currentTransactionView,
	checkView,
	currentCheckView,
};
