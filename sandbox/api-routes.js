'use strict';

const { CHECK_STATES, CHECK_WITHOUT_REPORT, NOTIFICATION_ACTIONS, PURPOSES } = require('./constants');
const { reply } = require('./http-utils');
const ids = require('./ids');
const transactions = require('./transactions');
const {
	validate,
	formSchema,
	candidateSchema,
	currentCandidateSchema,
	submissionSchema,
	downloadFileSchema,
	signedUrlQuerySchema,
	webhookConfigSchema,
	uploadQuerySchema,
	transactionQuerySchema,
	insufficiencyResolutionSchema,
} = require('./validation');

const V = '/verification/api/1.0';

const FILE_SIGNATURES = [
	{ bytes: [0x25, 0x50, 0x44, 0x46], contentType: 'application/pdf' }, // %PDF
	{ bytes: [0x89, 0x50, 0x4e, 0x47], contentType: 'image/png' },
	{ bytes: [0xff, 0xd8, 0xff], contentType: 'image/jpeg' },
];

const isPdfOrImageType = (type) => /^(application\/pdf|image\/[\w.+-]+)$/i.test(type || '');

/** The declared part type when it is a PDF or an image, else the type sniffed from magic bytes. */
function acceptedContentType(part) {
	if (part.data.length === 0) return undefined;
	const declared = (part.contentType || '').split(';')[0].trim();
	if (isPdfOrImageType(declared)) return declared;
	const signature = FILE_SIGNATURES.find(({ bytes }) => bytes.every((byte, index) => part.data[index] === byte));
	return signature && signature.contentType;
}

/** The listed keys of source that are present. */
function pick(source, keys) {
	return Object.fromEntries(keys.filter((key) => source[key] !== undefined).map((key) => [key, source[key]]));
}

function storedVerification({ name, skipAllowed }) {
	const item = { name, mode: 'manual', skipAllowed };
	if (name === 'bgv-degree') item.marksheetRequired = false;
	return item;
}

/**
 * The service's API routes. Each handler receives { params, query, body, parts } and returns a reply
 * description (see http-utils). deps: { state, clock, files, orgId, moveCheck, notifyAction }.
 */
function createApiRoutes({ state, clock, files, orgId, moveCheck, notifyAction }) {
	const nowIso = () => clock.now().toISOString();
	const purposeIds = new Set(PURPOSES.map((purpose) => purpose._id));
	const validForm = formSchema({ isKnownPurpose: (id) => purposeIds.has(id) });
	const validTransactionQuery = transactionQuerySchema({ orgId });

	function listPurposes() {
		return reply.success({ total: PURPOSES.length, list: PURPOSES.map((purpose) => ({ ...purpose })) });
	}

	function createForm({ body }) {
		const problems = validate(validForm, body);
		if (problems.length) return reply.invalid(problems);
		const at = nowIso();
		const form = {
			_id: ids.objectId(clock.now()),
			name: body.name,
			purpose: body.purpose,
			...(body.expiry !== undefined && { expiry: body.expiry }),
			verificationList: body.verifications.map(storedVerification),
			sharing: { mode: [], visibility: body.sharing.visibility },
			archived: false,
			type: body.type,
			userPaymentRequired: body.userPaymentRequired,
			createdAt: at,
			updatedAt: at,
		};
		state.forms.set(form._id, form);
		return reply.success(structuredClone(form));
	}

	function createCandidate({ params, body }) {
		const form = state.forms.get(params.formId);
		if (!form) return reply.failure(404, 'Form not found');
		const current = state.pages === 'current';
		// Contract: dob and fatherName nested in verificationFields (unknown keys accepted, as everywhere
		// in contract mode). Current pages: top level, dob required, anything else refused.
		const problems = validate(current ? currentCandidateSchema : candidateSchema, body);
		if (problems.length) return reply.invalid(problems);
		if (state.refusedNames.has(body.name)) {
			return reply.failure(200, 'The service cannot take this candidate right now');
		}
		const candidate = current
			? pick(body, ['name', 'gender', 'dob', 'mobile', 'profession', 'fatherName', 'email'])
			: pick(body, ['name', 'gender', 'mobile', 'profession', 'email', 'verificationFields']);
		// dob and fatherName from where the mode takes them.
		const details = current ? candidate : candidate.verificationFields || {};
		const profile = {
			...pick(candidate, ['name', 'gender']),
			...pick(details, ['dob', 'fatherName']),
			...pick(candidate, ['profession', 'mobile', 'email']),
		};
		const transaction = transactions.createTransaction({
			transactionId: ids.transactionId(),
			orgId,
			form,
			candidate,
			profile,
			candidateId: ids.objectId(clock.now()),
			at: nowIso(),
		});
		state.transactions.set(transaction.transactionId, transaction);
		return reply.success({ transactionId: transaction.transactionId });
	}

	function submitVerification({ body }) {
		const problems = validate(submissionSchema, body);
		if (problems.length) return reply.invalid(problems);
		const transaction = state.transactions.get(body.transactionId);
		if (!transaction) return reply.failure(404, 'Transaction not found');
		const name = transactions.storedCheckName(state.pages, body.verificationName);
		moveCheck(transaction, name, CHECK_STATES.inProgress, body.data);
		return reply.success();
	}

	function downloadFile({ body }) {
		const problems = validate(downloadFileSchema, body);
		if (problems.length) return reply.invalid(problems);
		const file = files.findByPrivateUrl(body.url);
		if (!file) return reply.failure(404, 'File not found');
		if (body.getDownloadToken) return reply.success({ downloadToken: files.issueDownloadToken(file) });
		return reply.file(file);
	}

	function getSignedUrl({ query }) {
		const problems = validate(signedUrlQuerySchema, query);
		if (problems.length) return reply.invalid(problems);
		const signedUrl = files.signedUrlForToken(query.token);
		if (!signedUrl) return reply.failure(200, 'Invalid or expired token');
		return reply.success({ signedUrl });
	}

	function saveWebhookConfig(id, body, createdAt) {
		const config = { id, ...pick(body, ['endpoint', 'apiKey', 'description']), createdAt, updatedAt: nowIso() };
		state.webhookConfigs.set(id, config);
	}

	function createWebhookConfig({ body }) {
		const problems = validate(webhookConfigSchema, body);
		if (problems.length) return reply.invalid(problems);
		const id = ids.objectId(clock.now());
		saveWebhookConfig(id, body, nowIso());
		return reply.success({ id });
	}

	function updateWebhookConfig({ params, body }) {
		const existing = state.webhookConfigs.get(params.id);
		if (!existing) return reply.failure(404, 'Webhook configuration not found');
		const problems = validate(webhookConfigSchema, body);
		if (problems.length) return reply.invalid(problems);
		saveWebhookConfig(existing.id, body, existing.createdAt);
		return reply.success();
	}

	/** From the provider's public documentation: the file field is `file`, the category a query parameter. */
	function uploadFile({ query, parts }) {
		const problems = validate(uploadQuerySchema, query);
		const part = parts.find((candidate) => candidate.field === 'file' && candidate.filename !== undefined);
		const contentType = part && acceptedContentType(part);
		if (!part) problems.push('"file" is required');
		else if (!contentType) problems.push('"file" must be a PDF or an image');
		if (problems.length) return reply.invalid(problems);
		const file = files.add({ filename: part.filename, contentType, data: part.data, source: `upload:${query.fileCategory}` });
		return reply.success({ fileUrl: files.privateUrl(file) });
	}

	/** Shared start of both transaction reads: query validation, then the transaction lookup. */
	function findTransaction(query) {
		const problems = validate(validTransactionQuery, query);
		if (problems.length) return { failed: reply.invalid(problems) };
		const transaction = state.transactions.get(query.txnId);
		if (!transaction) return { failed: reply.failure(404, 'Transaction not found') };
		return { transaction };
	}

	function getTransactionInfo({ query }) {
		const { failed, transaction } = findTransaction(query);
		if (failed) return failed;
		if (state.pages === 'current') {
			const form = state.forms.get(transaction.formId);
			return reply.success(structuredClone(transactions.currentTransactionView(transaction, form)));
		}
		const reportUrl = transactions.transactionReportUrl(transaction, files, nowIso());
		return reply.success(structuredClone(transactions.transactionView(transaction, reportUrl)));
	}

	function getCheckInfo({ params, query }) {
		const { failed, transaction } = findTransaction(query);
		if (failed) return failed;
		// The exact name in both modes: in current mode a digital address is kept under its form-list
		// name only, so its submission name is not found.
		const check = transactions.findCheck(transaction, params.verificationName);
		if (!check) return reply.failure(404, 'Verification not found for this transaction');
		if (state.pages === 'current') {
			const hasReport = check.state === CHECK_STATES.completed && check.name !== CHECK_WITHOUT_REPORT;
			const reportUrl = hasReport ? transactions.checkReportUrl(transaction, check, files, nowIso()) : null;
			return reply.success(structuredClone(transactions.currentCheckView(check, reportUrl)));
		}
		const reportUrl = transactions.checkReportUrl(transaction, check, files, nowIso());
		return reply.success(structuredClone(transactions.checkView(check, reportUrl)));
	}

	/**
	 * From the provider's public documentation: answers and documents for a check's insufficiency.
	 * Sandbox choices: every answered ID must be open; an accepted resolution closes all of the check's
	 * open questions, sets it back to IN_PROGRESS and notifies insufficiency-resolved.
	 */
	function resolveInsufficiency({ body }) {
		const problems = validate(insufficiencyResolutionSchema, body);
		if (problems.length) return reply.invalid(problems);
		const transaction = state.transactions.get(body.transactionId);
		if (!transaction) return reply.failure(404, 'Transaction not found');
		if (body.orgId !== transaction.orgId) return reply.invalid(['"orgId" is invalid']);
		const check = transactions.findCheckById(transaction, body.subType);
		if (!check) return reply.invalid(['"subType" is not a verification of this transaction']);
		if (check.state !== CHECK_STATES.insufficientData) return reply.invalid(['"subType" has no open insufficiency']);
		const open = new Set(check.insufficiencies.map((item) => item.insufficiencyId));
		const unknown = (body.dataToUpload.insufficiencyDataList || [])
			.map((answer, index) => [answer.insufficiencyId, index])
			.filter(([id]) => !open.has(id))
			.map(([, index]) => `"dataToUpload.insufficiencyDataList[${index}].insufficiencyId" is not an open insufficiency of this verification`);
		if (unknown.length) return reply.invalid(unknown);
		check.resolutions.push({ dataToUpload: body.dataToUpload, at: nowIso() });
		check.insufficiencies = [];
		transactions.updateCheck(transaction, check.name, { state: CHECK_STATES.inProgress, at: nowIso() });
		notifyAction(transaction, check, NOTIFICATION_ACTIONS.insufficiencyResolved);
		return reply.success();
	}

	return [
		{ method: 'GET', path: `${V}/purposes`, handler: listPurposes },
		{ method: 'POST', path: `${V}/bgv/insufficiency`, body: 'json', handler: resolveInsufficiency },
		{ method: 'POST', path: `${V}/ekyc-forms`, body: 'json', handler: createForm },
		{ method: 'POST', path: `${V}/ekyc-forms/:formId/diy-candidate`, body: 'json', handler: createCandidate },
		{ method: 'POST', path: `${V}/bgv/diy`, body: 'json', handler: submitVerification },
		{ method: 'POST', path: `${V}/download-manager/download-file`, body: 'json', handler: downloadFile },
		{ method: 'GET', path: `${V}/download-manager/url`, handler: getSignedUrl },
		{ method: 'POST', path: `${V}/webhook-config`, body: 'json', handler: createWebhookConfig },
		{ method: 'PUT', path: `${V}/webhook-config/:id`, body: 'json', handler: updateWebhookConfig },
		{ method: 'GET', path: `${V}/transactions/info`, handler: getTransactionInfo },
		{ method: 'GET', path: `${V}/transactions/:verificationName/info`, handler: getCheckInfo },
		{ method: 'POST', path: '/utility/api/1.0/files', body: 'multipart', handler: uploadFile },
	];
}

module.exports = { createApiRoutes };
