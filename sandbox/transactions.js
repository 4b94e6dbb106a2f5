'use strict';

const { CHECK_STATES, deterministicObjectId } = require('./constants');
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

function createTransaction({ transactionId, orgId, form, candidate, at }) {
	return {
		transactionId,
		orgId,
		formId: form._id,
		candidate,
		verificationList: form.verificationList.map((check) => newCheck(transactionId, check.name)),
		reportFileId: null,
		createdAt: at,
		updatedAt: at,
	};
}

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

function transactionView(transaction, reportUrl) {
	return {
		transactionId: transaction.transactionId,
		orgId: transaction.orgId,
		formId: transaction.formId,
		candidate: transaction.candidate,
		verificationList: transaction.verificationList.map(({ name, state }) => ({ name, state })),
		state: overallState(transaction),
		report: reportUrl,
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

module.exports = {
	createTransaction,
	findCheck,
	findCheckById,
	updateCheck,
	overallState,
	transactionReportUrl,
	checkReportUrl,
	transactionView,
	checkView,
};
