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
		`Submitting it sends the police clearance certificate as ${POLICE_CLEARANCE_CERTIFICATE}`,
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

// ---- Instant KYC (issue 34) ---------------------------------------------------------------------
// From the provider's public documentation: instant checks have their own endpoints (not bgv/diy),
// answer synchronously and are billed per call. The paths marked "inferred" follow the pattern of
// the others: no public page shows them.

const VERIFICATIONS = `${VERIFICATION_API}/verifications`;
export const KYC_PAN_PATH = `${VERIFICATIONS}/pan`;
/** Inferred from the pattern of the other instant checks' paths. */
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
