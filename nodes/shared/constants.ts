export const CREDENTIAL_TYPE = 'candidateVerificationApi';
/** The header carrying the API key on every request (and the webhook secret on notifications). */
export const API_KEY_HEADER = 'x-api-key';

export const VERIFICATION_API = '/verification/api/1.0';
/** From the provider's public documentation: uploads live under a different prefix. */
export const UTILITY_API = '/utility/api/1.0';

export const FORMS_PATH = `${VERIFICATION_API}/ekyc-forms`;
export const CANDIDATE_PATH = `${FORMS_PATH}/:formId/diy-candidate`;
export const SUBMISSION_PATH = `${VERIFICATION_API}/bgv/diy`;
export const WEBHOOK_CONFIG_PATH = `${VERIFICATION_API}/webhook-config`;
export const PURPOSES_PATH = `${VERIFICATION_API}/purposes`;
export const DOWNLOAD_FILE_PATH = `${VERIFICATION_API}/download-manager/download-file`;
export const SIGNED_URL_PATH = `${VERIFICATION_API}/download-manager/url`;
export const UPLOAD_PATH = `${UTILITY_API}/files`;
export const TRANSACTION_STATUS_PATH = `${VERIFICATION_API}/transactions/info`;
export const CHECK_STATUS_PATH = `${VERIFICATION_API}/transactions/:verificationName/info`;

/** Default per-request timeout (n8n's is 5 minutes); Request Options → Timeout overrides it. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** Check states seen in notifications (newState) and transaction status. */
export const CHECK_STATES = [
	{ name: 'Completed', value: 'COMPLETED' },
	{ name: 'In Progress', value: 'IN_PROGRESS' },
	{ name: 'Insufficient Data', value: 'INSUFFICIENT_DATA' },
	{ name: 'Not Started', value: 'NOT_STARTED' },
];

export const SIGNED_URL_LIFETIME_MINUTES = 180;

export interface CheckOption {
	/** Short label shown in the editor. */
	name: string;
	/** The exact check name the service takes. */
	value: string;
	/** Shown under the option: the check name sent, so the slug never clutters the label. */
	description: string;
}

function check(value: string, name: string, what?: string): CheckOption {
	return { name, value, description: `${what ? `${what}. ` : ''}Check name: ${value}` };
}

function byName(options: CheckOption[]): CheckOption[] {
	return [...options].sort((a, b) => a.name.localeCompare(b.name));
}

/** Submissions of the police check use this name where the form list says bgv-police-verification. */
export const POLICE_CLEARANCE_CERTIFICATE = 'bgv-police-clearance-certificate';
export const POLICE_VERIFICATION = 'bgv-police-verification';

/** The check names a form accepts (exact values from the contract), sorted by label. */
export const FORM_VERIFICATION_NAMES: readonly CheckOption[] = byName([
	check('bgv-tenth', '10th Education'),
	check('bgv-twelfth', '12th Education'),
	check('aadhaar', 'Aadhaar'),
	check('bank-account', 'Bank Account'),
	check('cin', 'CIN', 'Company identification number'),
	check('bgv-cibil', 'Credit (CIBIL)'),
	check('bgv-criminal', 'Criminal Court Record'),
	check('bgv-degree', 'Degree or Marksheet'),
	check('bgv-degree-with-marksheet', 'Degree With Marksheet'),
	check('din', 'DIN', 'Director identification number'),
	check('dl', 'Driving Licence'),
	check('bgv-employment', 'Employment'),
	check('employment-check', 'Employment (Instant)', 'Instant employment check'),
	check('face-match', 'Face Match'),
	check('form26as', 'Form 26AS', 'Tax credit statement'),
	check('bgv-global-database-check', 'Global Database'),
	check('gst', 'GST', 'GST registration'),
	check('liveness', 'Liveness'),
	check('bgv-local-address-digital', 'Local Address (Digital)'),
	check('bgv-local-address-postal', 'Local Address (Postal)'),
	check('pan', 'PAN', 'Permanent account number'),
	check('passport', 'Passport'),
	check('bgv-permanent-address-digital', 'Permanent Address (Digital)'),
	check('bgv-permanent-address-postal', 'Permanent Address (Postal)'),
	check(
		POLICE_VERIFICATION,
		'Police Verification',
		`Police verification at the candidate’s address. Verification → Submit version 1 sends the clearance certificate (${POLICE_CLEARANCE_CERTIFICATE}) for it`,
	),
	check('bgv-professional-reference-check', 'Professional Reference'),
	check('bgv-social-media', 'Social Media'),
	check('upi', 'UPI', 'UPI ID'),
	check('voter-id', 'Voter ID'),
]);

/** The check name Verification → Submit sends for a check of the list. */
export function submissionName(check: string): string {
	return check === POLICE_VERIFICATION ? POLICE_CLEARANCE_CERTIFICATE : check;
}

/** The label of a check, e.g. for canvas subtitles and messages. */
export function checkLabel(value: string): string {
	if (value === POLICE_CLEARANCE_CERTIFICATE) value = POLICE_VERIFICATION;
	return FORM_VERIFICATION_NAMES.find((option) => option.value === value)?.name ?? value;
}

export const EMPLOYMENT_DOCUMENT_TYPES = [
	'salaryslip',
	'appointmentletter',
	'experienceletter',
] as const;

export const GENDERS = ['Male', 'Female', 'Other'] as const;

/** Short forms accepted for Gender (any case); full names are matched in any case too. */
export const GENDER_ALIASES: Readonly<Record<string, (typeof GENDERS)[number]>> = {
	m: 'Male',
	f: 'Female',
	o: 'Other',
};

/** From the provider's public documentation (file upload categories). */
export const FILE_CATEGORIES = [
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
] as const;

/** File → Upload's File Category list: the checks' names, sorted; the service's value is sent. */
export const FILE_CATEGORY_OPTIONS: readonly CheckOption[] = byName(
	FILE_CATEGORIES.map((category) =>
		category === POLICE_CLEARANCE_CERTIFICATE
			? check(category, 'Police Clearance Certificate')
			: FORM_VERIFICATION_NAMES.find(({ value }) => value === category)!,
	),
);

/** Check names Verification → Submit and Transaction → Get Check Status accept from expressions. */
export const SUBMITTABLE_CHECKS: readonly string[] = [
	...FORM_VERIFICATION_NAMES.map(({ value }) => value),
	POLICE_CLEARANCE_CERTIFICATE,
];

// ---- Node version 2: every check the provider documents, typed, in Verification → Submit ----
// (issue 34). Version 1 keeps FORM_VERIFICATION_NAMES, SUBMITTABLE_CHECKS and submissionName above.

/**
 * The digital address checks: the form list's (and upload category's) name → the name the
 * provider's submission pages send. From the provider's public documentation; the two disagree and
 * which one the live service takes for a submission is not settled, so version 2's list sends the
 * submission pages' name and an expression may send the form list's name as given.
 */
export const DIGITAL_ADDRESS_SUBMISSION_NAMES: Readonly<Record<string, string>> = {
	'bgv-local-address-digital': 'bgv-local-extended-address',
	'bgv-permanent-address-digital': 'bgv-permanent-extended-address',
};

/** Every name of a digital address check version 2 takes: the submission pages' and the form list's. */
export const DIGITAL_ADDRESS_CHECKS: readonly string[] = [
	...Object.values(DIGITAL_ADDRESS_SUBMISSION_NAMES),
	...Object.keys(DIGITAL_ADDRESS_SUBMISSION_NAMES),
];

/**
 * The other name of a digital address check, both ways (Transaction → Get Check Status asks it
 * when the name asked is not found). The police checks have none: they are two different checks.
 */
export const DIGITAL_ADDRESS_OTHER_NAME: Readonly<Record<string, string>> = Object.fromEntries(
	Object.entries(DIGITAL_ADDRESS_SUBMISSION_NAMES).flatMap(([formName, sentName]) => [
		[formName, sentName],
		[sentName, formName],
	]),
);

/**
 * Where Transaction → Get Check Status version 2 asks again for a check the service answers not found
 * under the name asked: a digital address under its other name (both ways), and the police clearance
 * certificate under the form list's police check name (no public sample reads the certificate; the
 * form list names the police check only so). Not the other way: Police Verification (Address) is a
 * check of its own. Version 1 keeps DIGITAL_ADDRESS_OTHER_NAME.
 */
export const CHECK_STATUS_OTHER_NAME_V2: Readonly<Record<string, string>> = {
	...DIGITAL_ADDRESS_OTHER_NAME,
	[POLICE_CLEARANCE_CERTIFICATE]: POLICE_VERIFICATION,
};

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

/** Checks of the form list with instant calls of their own (the Instant KYC resource). */
export const INSTANT_CHECKS: readonly string[] = [
	'pan',
	'gst',
	'bank-account',
	'upi',
	'din',
	'employment-check',
	'aadhaar',
	'voter-id',
	'cin',
	'dl',
	'face-match',
	'liveness',
	'passport',
	'form26as',
];

/**
 * Version 2's Check list of Verification → Submit and Transaction → Get Check Status: each value is
 * the name Submit sends. The form list's police check is the police verification at an address;
 * the certificate is its own choice; the digital address checks carry the submission pages' names.
 */
export const CHECK_OPTIONS_V2: readonly CheckOption[] = byName([
	...FORM_VERIFICATION_NAMES.filter(
		({ value }) => value !== POLICE_VERIFICATION && !(value in DIGITAL_ADDRESS_SUBMISSION_NAMES),
	),
	check(
		POLICE_VERIFICATION,
		'Police Verification (Address)',
		'Police verification at the candidate’s permanent address',
	),
	check(
		POLICE_CLEARANCE_CERTIFICATE,
		'Police Clearance Certificate',
		'The candidate’s police clearance certificate, uploaded',
	),
	...Object.entries(DIGITAL_ADDRESS_SUBMISSION_NAMES).map(([formName, sentName]) =>
		check(sentName, checkLabel(formName), `The form lists it as ${formName}`),
	),
]);

/** Check names version 2 takes from an expression: its list and the form list's digital names. */
export const SUBMITTABLE_CHECKS_V2: readonly string[] = [
	...CHECK_OPTIONS_V2.map(({ value }) => value),
	...Object.keys(DIGITAL_ADDRESS_SUBMISSION_NAMES),
];

/** The label of a check on version 2, e.g. for canvas subtitles. */
export function checkLabelV2(value: string): string {
	const option = CHECK_OPTIONS_V2.find((candidate) => candidate.value === value);
	return option?.name ?? checkLabel(value);
}

// ---- Issue 34: the insufficiency loop and the trigger's check filter ----------------------------

/** From the provider's public documentation: answers and documents for a check's insufficiency. */
export const INSUFFICIENCY_PATH = `${VERIFICATION_API}/bgv/insufficiency`;

/** From the provider's public documentation: the only document type of an insufficiency document. */
export const INSUFFICIENCY_FILE_TYPE = 'Url';

/** documentType samples of the provider's public documentation; others are accepted by expression. */
export const INSUFFICIENCY_DOCUMENT_TYPES = [
	{ name: 'Educational Certificates', value: 'EducationalCertificates' },
	{ name: 'Other', value: 'Other' },
];

/** Notification `action` values of the provider's public documentation. */
export const INSUFFICIENCY_RAISED = 'insufficiency-raised';
export const INSUFFICIENCY_RESOLVED = 'insufficiency-resolved';

const LOCAL_EXTENDED_ADDRESS = DIGITAL_ADDRESS_SUBMISSION_NAMES['bgv-local-address-digital'];
const PERMANENT_EXTENDED_ADDRESS =
	DIGITAL_ADDRESS_SUBMISSION_NAMES['bgv-permanent-address-digital'];

/**
 * The trigger's Checks filter: the other names a chosen check also matches. The service's public
 * pages call the digital address checks by two names; Police Verification also matches the
 * certificate, which earlier versions of Verification → Submit sent for it (saved filters keep
 * their events).
 */
export const CHECK_FILTER_ALSO_MATCHES: Readonly<Record<string, readonly string[]>> = {
	'bgv-local-address-digital': [LOCAL_EXTENDED_ADDRESS],
	[LOCAL_EXTENDED_ADDRESS]: ['bgv-local-address-digital'],
	'bgv-permanent-address-digital': [PERMANENT_EXTENDED_ADDRESS],
	[PERMANENT_EXTENDED_ADDRESS]: ['bgv-permanent-address-digital'],
	[POLICE_VERIFICATION]: [POLICE_CLEARANCE_CERTIFICATE],
};

/**
 * The trigger's Checks filter: every check name a notification may carry, sorted by label. Both
 * police checks are listed (they are different checks), and the digital address checks' other names.
 */
export const NOTIFICATION_CHECK_OPTIONS: readonly CheckOption[] = byName([
	...FORM_VERIFICATION_NAMES.map((option) =>
		option.value === POLICE_VERIFICATION
			? check(
					POLICE_VERIFICATION,
					'Police Verification (Address)',
					`Also matches ${POLICE_CLEARANCE_CERTIFICATE}, which earlier versions submitted for it`,
				)
			: option,
	),
	check(POLICE_CLEARANCE_CERTIFICATE, 'Police Clearance Certificate'),
	check(
		LOCAL_EXTENDED_ADDRESS,
		'Local Extended Address',
		'Another name of Local Address (Digital); each matches both',
	),
	check(
		PERMANENT_EXTENDED_ADDRESS,
		'Permanent Extended Address',
		'Another name of Permanent Address (Digital); each matches both',
	),
]);

// ---- Instant KYC (issue 34) ---------------------------------------------------------------------
// From the provider's public documentation: instant checks have their own endpoints (not bgv/diy),
// answer synchronously and are billed per call. The bank account's path is the one public client code
// calls (no page of the documentation shows it); the path marked "inferred" follows the pattern of
// the others: nothing public shows it.

const VERIFICATIONS = `${VERIFICATION_API}/verifications`;
export const KYC_PAN_PATH = `${VERIFICATIONS}/pan`;
/** The path public client code calls (public material, not the contract nor the provider's pages). */
export const KYC_BANK_ACCOUNT_PATH = `${VERIFICATIONS}/bank-account`;
export const KYC_UPI_PATH = `${VERIFICATIONS}/upi`;
export const KYC_GST_PATH = `${VERIFICATIONS}/gst`;
export const KYC_EMPLOYMENT_HISTORY_PATH = `${VERIFICATIONS}/employment-check`;
/** Inferred from the pattern of the other instant checks' paths. */
export const KYC_DIN_PATH = `${VERIFICATIONS}/din`;
/** Aadhaar through DigiLocker, step 1: the consent link for the candidate. */
export const KYC_AADHAAR_START_PATH = `${VERIFICATIONS}/pre-verify/aadhaar`;
/** Aadhaar through DigiLocker, step 2: the result once the candidate consented. */
export const KYC_AADHAAR_RESULT_PATH = `${VERIFICATIONS}/self/aadhaar`;
