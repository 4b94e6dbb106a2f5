export const CREDENTIAL_TYPE = 'candidateVerificationApi';

export const VERIFICATION_API = '/verification/api/1.0';
/** From the provider's public documentation: uploads live under a different prefix. */
export const UTILITY_API = '/utility/api/1.0';

export const SIGNED_URL_LIFETIME_MINUTES = 180;

/** The check names a form accepts (exact values from the contract). */
export const FORM_VERIFICATION_NAMES: ReadonlyArray<{ value: string; name: string }> = [
	{ value: 'bgv-tenth', name: '10th Education Check' },
	{ value: 'bgv-twelfth', name: '12th Education Check' },
	{ value: 'bgv-degree', name: 'Degree or Marksheet Check' },
	{ value: 'bgv-degree-with-marksheet', name: 'Degree With Marksheet' },
	{ value: 'bgv-employment', name: 'Employment Check' },
	{ value: 'bgv-criminal', name: 'Criminal / Court Record Check' },
	{ value: 'bgv-cibil', name: 'Credit Check' },
	{
		value: 'bgv-local-address-digital',
		name: 'Local Address, Digital',
	},
	{ value: 'bgv-local-address-postal', name: 'Local Address, Postal' },
	{
		value: 'bgv-permanent-address-digital',
		name: 'Permanent Address, Digital',
	},
	{
		value: 'bgv-permanent-address-postal',
		name: 'Permanent Address, Postal',
	},
	{ value: 'bgv-global-database-check', name: 'Global Database Check' },
	{ value: 'bgv-social-media', name: 'Social Media Check' },
	{
		value: 'bgv-professional-reference-check',
		name: 'Professional Reference Check',
	},
	{ value: 'bgv-police-verification', name: 'Police Verification' },
	{ value: 'pan', name: 'PAN' },
	{ value: 'gst', name: 'GST' },
	{ value: 'bank-account', name: 'Bank Account' },
	{ value: 'upi', name: 'UPI' },
	{ value: 'cin', name: 'CIN' },
	{ value: 'din', name: 'DIN' },
	{ value: 'voter-id', name: 'Voter ID' },
	{ value: 'employment-check', name: 'Employment Check, Instant' },
	{ value: 'face-match', name: 'Face Match' },
	{ value: 'aadhaar', name: 'Aadhaar' },
	{ value: 'dl', name: 'Driving Licence' },
	{ value: 'liveness', name: 'Liveness' },
	{ value: 'passport', name: 'Passport' },
	{ value: 'form26as', name: 'Form 26AS' },
];

/** Submissions use bgv-police-clearance-certificate where the form list says bgv-police-verification. */
export const POLICE_CLEARANCE_CERTIFICATE = 'bgv-police-clearance-certificate';

export const SUBMISSION_VERIFICATION_NAMES: ReadonlyArray<{ value: string; name: string }> = [
	...FORM_VERIFICATION_NAMES,
	{
		value: POLICE_CLEARANCE_CERTIFICATE,
		name: 'Police Clearance Certificate',
	},
];

export const EMPLOYMENT_DOCUMENT_TYPES = [
	'salaryslip',
	'appointmentletter',
	'experienceletter',
] as const;

export const GENDERS = ['Male', 'Female', 'Other'] as const;

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
