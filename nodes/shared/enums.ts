/**
 * The service's value lists other than its checks (nodes/shared/checks.ts): what a field may take and
 * what a notification or status answer may say. From the provider's public documentation unless said.
 */

/** Check states seen in notifications (newState) and transaction status. */
export const CHECK_STATES = [
	{ name: 'Completed', value: 'COMPLETED' },
	{ name: 'In Progress', value: 'IN_PROGRESS' },
	{ name: 'Insufficient Data', value: 'INSUFFICIENT_DATA' },
	{ name: 'Not Started', value: 'NOT_STARTED' },
];

/** Notification `action` values of the provider's public documentation. */
export const INSUFFICIENCY_RAISED = 'insufficiency-raised';
export const INSUFFICIENCY_RESOLVED = 'insufficiency-resolved';

export const GENDERS = ['Male', 'Female', 'Other'] as const;

/** Short forms accepted for Gender (any case); full names are matched in any case too. */
export const GENDER_ALIASES: Readonly<Record<string, (typeof GENDERS)[number]>> = {
	m: 'Male',
	f: 'Female',
	o: 'Other',
};

export const EMPLOYMENT_DOCUMENT_TYPES = [
	'salaryslip',
	'appointmentletter',
	'experienceletter',
] as const;

/** bgv-degree's `level`, from the provider's public documentation. */
export const DEGREE_LEVELS = [
	'DIPLOMA',
	'GRADUATE',
	'MASTERS',
	'PHD',
	'POST_DOC',
	'POST_GRADUATE_DIPLOMA',
	'PROFESSIONAL_COURSE',
	'OTHER',
] as const;

/** The documentList labels of the provider's public samples. */
export const DOCUMENT_LABELS = {
	'bgv-tenth': '10th Marksheet',
	'bgv-twelfth': '12th Marksheet',
	degree: 'Degree',
	marksheet: 'Marksheet',
} as const;

/** From the provider's public documentation: the only document type of an insufficiency document. */
export const INSUFFICIENCY_FILE_TYPE = 'Url';

/** documentType samples of the provider's public documentation; others are accepted by expression. */
export const INSUFFICIENCY_DOCUMENT_TYPES = [
	{ name: 'Educational Certificates', value: 'EducationalCertificates' },
	{ name: 'Other', value: 'Other' },
];
