export const CREDENTIAL_TYPE = 'candidateVerificationApi';

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

export const SIGNED_URL_LIFETIME_MINUTES = 180;

/** The check names a form accepts (exact values from the contract). */
export const FORM_VERIFICATION_NAMES: ReadonlyArray<{ value: string; name: string }> = [
	{ value: 'bgv-tenth', name: '10th Education Check (bgv-tenth)' },
	{ value: 'bgv-twelfth', name: '12th Education Check (bgv-twelfth)' },
	{ value: 'bgv-degree', name: 'Degree or Marksheet Check (bgv-degree)' },
	{ value: 'bgv-degree-with-marksheet', name: 'Degree With Marksheet (bgv-degree-with-marksheet)' },
	{ value: 'bgv-employment', name: 'Employment Check (bgv-employment)' },
	{ value: 'bgv-criminal', name: 'Criminal / Court Record Check (bgv-criminal)' },
	{ value: 'bgv-cibil', name: 'Credit Check (bgv-cibil)' },
	{
		value: 'bgv-local-address-digital',
		name: 'Local Address, Digital (bgv-local-address-digital)',
	},
	{ value: 'bgv-local-address-postal', name: 'Local Address, Postal (bgv-local-address-postal)' },
	{
		value: 'bgv-permanent-address-digital',
		name: 'Permanent Address, Digital (bgv-permanent-address-digital)',
	},
	{
		value: 'bgv-permanent-address-postal',
		name: 'Permanent Address, Postal (bgv-permanent-address-postal)',
	},
	{ value: 'bgv-global-database-check', name: 'Global Database Check (bgv-global-database-check)' },
	{ value: 'bgv-social-media', name: 'Social Media Check (bgv-social-media)' },
	{
		value: 'bgv-professional-reference-check',
		name: 'Professional Reference Check (bgv-professional-reference-check)',
	},
	{ value: 'bgv-police-verification', name: 'Police Verification (bgv-police-verification)' },
	{ value: 'pan', name: 'PAN (pan)' },
	{ value: 'gst', name: 'GST (gst)' },
	{ value: 'bank-account', name: 'Bank Account (bank-account)' },
	{ value: 'upi', name: 'UPI (upi)' },
	{ value: 'cin', name: 'CIN (cin)' },
	{ value: 'din', name: 'DIN (din)' },
	{ value: 'voter-id', name: 'Voter ID (voter-id)' },
	{ value: 'employment-check', name: 'Employment Check, Instant (employment-check)' },
	{ value: 'face-match', name: 'Face Match (face-match)' },
	{ value: 'aadhaar', name: 'Aadhaar (aadhaar)' },
	{ value: 'dl', name: 'Driving Licence (dl)' },
	{ value: 'liveness', name: 'Liveness (liveness)' },
	{ value: 'passport', name: 'Passport (passport)' },
	{ value: 'form26as', name: 'Form 26AS (form26as)' },
];

/** Submissions use bgv-police-clearance-certificate where the form list says bgv-police-verification. */
export const POLICE_CLEARANCE_CERTIFICATE = 'bgv-police-clearance-certificate';

export const SUBMISSION_VERIFICATION_NAMES: ReadonlyArray<{ value: string; name: string }> = [
	...FORM_VERIFICATION_NAMES,
	{
		value: POLICE_CLEARANCE_CERTIFICATE,
		name: 'Police Clearance Certificate (bgv-police-clearance-certificate)',
	},
];

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
