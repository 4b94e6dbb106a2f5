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
