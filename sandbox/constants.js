'use strict';

const { createHash } = require('node:crypto');

const API_PREFIXES = ['/verification/api/1.0/', '/utility/api/1.0/'];

/** Names accepted in a form's `verifications[].name` (seed contract, exact values). */
const FORM_VERIFICATION_NAMES = [
	'bgv-tenth',
	'bgv-twelfth',
	'bgv-degree',
	'bgv-employment',
	'bgv-criminal',
	'bgv-cibil',
	'bgv-local-address-digital',
	'bgv-local-address-postal',
	'bgv-permanent-address-digital',
	'bgv-permanent-address-postal',
	'bgv-global-database-check',
	'bgv-social-media',
	'bgv-degree-with-marksheet',
	'bgv-professional-reference-check',
	'bgv-police-verification',
	'pan',
	'gst',
	'bank-account',
	'upi',
	'cin',
	'din',
	'voter-id',
	'employment-check',
	'face-match',
	'aadhaar',
	'dl',
	'liveness',
	'passport',
	'form26as',
];

/**
 * The submission endpoint also knows the police clearance certificate (its own submission name; the
 * form list's bgv-police-verification is the police verification at an address) and, from the
 * provider's public submission pages, the digital address checks' other names.
 */
const DIGITAL_ADDRESS_SUBMISSION_NAMES = ['bgv-local-extended-address', 'bgv-permanent-extended-address'];
const SUBMISSION_VERIFICATION_NAMES = [
	...FORM_VERIFICATION_NAMES,
	'bgv-police-clearance-certificate',
	...DIGITAL_ADDRESS_SUBMISSION_NAMES,
];

/** bgv-degree's level (provider's public documentation). */
const DEGREE_LEVELS = [
	'DIPLOMA',
	'GRADUATE',
	'MASTERS',
	'PHD',
	'POST_DOC',
	'POST_GRADUATE_DIPLOMA',
	'PROFESSIONAL_COURSE',
	'OTHER',
];

const GENDERS = ['Male', 'Female', 'Other'];
const SHARING_VISIBILITIES = ['public', 'private'];
const FORM_TYPES = ['diy'];
const EMPLOYMENT_DOCUMENT_TYPES = ['salaryslip', 'appointmentletter', 'experienceletter'];
const ADDRESS_FIELDS = ['pincode', 'country', 'district', 'state', 'vtc', 'line1'];

/** From the provider's public documentation (beyond-the-seed.md). */
const FILE_CATEGORIES = [
	'bgv-tenth',
	'bgv-twelfth',
	'bgv-degree',
	'bgv-employment',
	'bgv-criminal',
	'bgv-police-verification',
	'bgv-police-clearance-certificate',
	'bgv-cibil',
	'bgv-local-address-digital',
	'bgv-local-address-postal',
	'bgv-permanent-address-digital',
	'bgv-permanent-address-postal',
];

/**
 * Current pages mode: the check that has no report even once COMPLETED (its status's reportUrl stays
 * null), so that flows meet "a completed check without a report" (a sandbox choice: the pages do not say
 * which checks have none; the police verification at an address is one whose result may come without a
 * document).
 */
const CHECK_WITHOUT_REPORT = 'bgv-police-verification';

const CHECK_STATES = {
	notStarted: 'NOT_STARTED',
	inProgress: 'IN_PROGRESS',
	completed: 'COMPLETED',
	// From the provider's public documentation: a check waiting for the candidate's answers.
	insufficientData: 'INSUFFICIENT_DATA',
};

/** From the provider's public documentation: the `action` of the insufficiency notifications. */
const NOTIFICATION_ACTIONS = { insufficiencyRaised: 'insufficiency-raised', insufficiencyResolved: 'insufficiency-resolved' };

/**
 * How a notification names its check in verificationId (createSandbox({ notifyCheckBy }),
 * SANDBOX_NOTIFY_CHECK_BY, POST /__sandbox/notify-check-by): 'id', the check's ID (its subType), as
 * every public page that shows a notification does (the default), or 'name', the check's name.
 */
const NOTIFY_CHECK_BY = ['id', 'name'];

/**
 * Which of the provider's descriptions the sandbox follows where they differ (createSandbox({ pages }),
 * SANDBOX_PAGES, POST /__sandbox/pages): 'contract' (candidate-verification-api.md, the default) or
 * 'current' (the provider's current public pages, beyond-the-seed.md). Which one the live service
 * follows is not settled.
 */
const PAGES_MODES = ['contract', 'current'];

/**
 * From the provider's current public pages ('current' mode): the digital address checks are submitted
 * under these names but found (status, notifications) under their form-list names. The police
 * clearance certificate keeps its own name: the form list's bgv-police-verification is a check of its
 * own (the police verification at an address), not the certificate.
 */
const FORM_NAME_OF_SUBMISSION_NAME = {
	'bgv-local-extended-address': 'bgv-local-address-digital',
	'bgv-permanent-extended-address': 'bgv-permanent-address-digital',
};

/** From the provider's current public pages: the checks whose report is responseList[].data.eduvReport. */
const EDUCATION_CHECKS = ['bgv-tenth', 'bgv-twelfth', 'bgv-degree'];

const SIGNED_URL_LIFETIME_MINUTES = 180;
const MAX_BODY_BYTES = 20 * 1024 * 1024;

/** Stable 24-hex ids so purpose IDs survive restarts (tests and saved workflows can rely on them). */
function deterministicObjectId(seed) {
	return createHash('sha1').update(seed).digest('hex').slice(0, 24);
}

const PURPOSE_TIMESTAMP = '2024-01-01T00:00:00.000Z';
const PURPOSES = ['BGV', 'Compliance', 'Availing Service', 'KYC'].map((name) => ({
	_id: deterministicObjectId(`purpose:${name}`),
	name,
	createdAt: PURPOSE_TIMESTAMP,
	updatedAt: PURPOSE_TIMESTAMP,
}));

module.exports = {
	API_PREFIXES,
	FORM_VERIFICATION_NAMES,
	SUBMISSION_VERIFICATION_NAMES,
	DIGITAL_ADDRESS_SUBMISSION_NAMES,
	DEGREE_LEVELS,
	GENDERS,
	SHARING_VISIBILITIES,
	FORM_TYPES,
	EMPLOYMENT_DOCUMENT_TYPES,
	ADDRESS_FIELDS,
	FILE_CATEGORIES,
	CHECK_STATES,
	CHECK_WITHOUT_REPORT,
	NOTIFICATION_ACTIONS,
	NOTIFY_CHECK_BY,
	PAGES_MODES,
	FORM_NAME_OF_SUBMISSION_NAME,
	EDUCATION_CHECKS,
	deterministicObjectId,
	SIGNED_URL_LIFETIME_MINUTES,
	MAX_BODY_BYTES,
	PURPOSES,
};
