'use strict';

/**
 * A tiny joi-like validator: every problem is collected (abortEarly: false) and reported in joi's
 * wording, `"path.to[0].field" <problem>`, so the sandbox answers like the real service.
 * Types are strict (no joi-style conversion of "123" to 123): the nodes must send proper JSON types.
 *
 * A schema is a function (value, path, errors) => void that is only called for values that are present.
 */

const {
	ADDRESS_FIELDS,
	DEGREE_LEVELS,
	DIGITAL_ADDRESS_SUBMISSION_NAMES,
	EMPLOYMENT_DOCUMENT_TYPES,
	FILE_CATEGORIES,
	FORM_TYPES,
	FORM_VERIFICATION_NAMES,
	GENDERS,
	SHARING_VISIBILITIES,
	SUBMISSION_VERIFICATION_NAMES,
} = require('./constants');

const quote = (path) => `"${path || 'value'}"`;
const childPath = (path, key) => (path ? `${path}.${key}` : key);
const isPlainObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

function describeAllowed(values) {
	return values.length === 1 ? `must be [${values[0]}]` : `must be one of [${values.join(', ')}]`;
}

/** `custom` returns the problem (without the label) or undefined. */
function applyCustom(custom, value, path, errors) {
	const problem = custom && custom(value);
	if (problem) errors.push(`${quote(path)} ${problem}`);
}

function string({ valid, custom } = {}) {
	return (value, path, errors) => {
		if (typeof value !== 'string') return errors.push(`${quote(path)} must be a string`);
		if (valid) {
			if (!valid.includes(value)) errors.push(`${quote(path)} ${describeAllowed(valid)}`);
			return;
		}
		if (value === '') return errors.push(`${quote(path)} is not allowed to be empty`);
		applyCustom(custom, value, path, errors);
	};
}

function number({ integer = false, custom } = {}) {
	return (value, path, errors) => {
		if (typeof value !== 'number' || !Number.isFinite(value)) return errors.push(`${quote(path)} must be a number`);
		if (integer && !Number.isInteger(value)) return errors.push(`${quote(path)} must be an integer`);
		applyCustom(custom, value, path, errors);
	};
}

function boolean() {
	return (value, path, errors) => {
		if (typeof value !== 'boolean') errors.push(`${quote(path)} must be a boolean`);
	};
}

function anyValue() {
	return () => {};
}

/** Marks a field of an object schema as required; unmarked fields are optional. */
function required(schema) {
	return { schema, required: true };
}

/**
 * Unknown keys are allowed (the contract does not say the service rejects them), unless
 * `forbidUnknown` (the instant checks, whose body is exactly the check's own fields).
 */
function object(shape = {}, { minKeys, refine, forbidUnknown = false } = {}) {
	return (value, path, errors) => {
		if (!isPlainObject(value)) return errors.push(`${quote(path)} must be of type object`);
		if (minKeys && Object.keys(value).length < minKeys) {
			errors.push(`${quote(path)} must have at least ${minKeys} key${minKeys === 1 ? '' : 's'}`);
		}
		for (const [key, field] of Object.entries(shape)) {
			const { schema, required: isRequired } = typeof field === 'function' ? { schema: field } : field;
			const fieldPath = childPath(path, key);
			if (value[key] === undefined) {
				if (isRequired) errors.push(`${quote(fieldPath)} is required`);
			} else {
				schema(value[key], fieldPath, errors);
			}
		}
		if (forbidUnknown) {
			for (const key of Object.keys(value)) {
				if (!(key in shape)) errors.push(`${quote(childPath(path, key))} is not allowed`);
			}
		}
		if (refine) refine(value, path, errors);
	};
}

function array(itemSchema, { min } = {}) {
	return (value, path, errors) => {
		if (!Array.isArray(value)) return errors.push(`${quote(path)} must be an array`);
		if (min && value.length < min) errors.push(`${quote(path)} must contain at least ${min} items`);
		value.forEach((item, index) => itemSchema(item, `${path}[${index}]`, errors));
	};
}

/** Runs a schema on a whole body (an empty body counts as {}); returns the problems, empty when valid. */
function validate(schema, value) {
	const errors = [];
	schema(value === undefined ? {} : value, '', errors);
	return errors;
}

// ---- Field rules ----------------------------------------------------------------------------------

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE_DD_MM_YYYY = /^(\d{2})-(\d{2})-(\d{4})$/;
// Larger values are almost certainly milliseconds (year 2286+ in seconds).
const MAX_UNIX_SECONDS = 9_999_999_999;

function isCalendarDate(text) {
	const match = DATE_DD_MM_YYYY.exec(text);
	if (!match) return false;
	const [day, month, year] = match.slice(1).map(Number);
	const date = new Date(Date.UTC(year, month - 1, day));
	return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function httpUriProblem(text) {
	let url;
	try {
		url = new URL(text);
	} catch {
		return 'must be a valid uri';
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		return 'must be a valid uri with a scheme matching the http|https pattern';
	}
	return undefined;
}

const DATE_YYYY_MM_DD = /^(\d{4})-(\d{2})-(\d{2})$/;

function isYearMonthDay(text) {
	const match = DATE_YYYY_MM_DD.exec(text);
	return Boolean(match) && isCalendarDate(`${match[3]}-${match[2]}-${match[1]}`);
}

const emailRule = string({ custom: (v) => (EMAIL_PATTERN.test(v) ? undefined : 'must be a valid email') });
const yyyyMmDdRule = string({ custom: (v) => (isYearMonthDay(v) ? undefined : 'must be in YYYY-MM-DD format') });
const ddMmYyyyRule = string({ custom: (v) => (isCalendarDate(v) ? undefined : 'must be in DD-MM-YYYY format') });
const unixSecondsRule = number({
	integer: true,
	custom: (v) => (v > MAX_UNIX_SECONDS ? 'must be a Unix timestamp in seconds' : undefined),
});

// ---- Request schemas ------------------------------------------------------------------------------

function formSchema({ isKnownPurpose }) {
	return object({
		name: required(string()),
		purpose: required(string({ custom: (v) => (isKnownPurpose(v) ? undefined : 'must be a valid purpose _id') })),
		expiry: unixSecondsRule,
		verifications: required(
			array(
				object({
					name: required(string({ valid: FORM_VERIFICATION_NAMES })),
					skipAllowed: required(boolean()),
				}),
				{ min: 1 },
			),
		),
		userPaymentRequired: required(boolean()),
		type: required(string({ valid: FORM_TYPES })),
		sharing: required(object({ visibility: required(string({ valid: SHARING_VISIBILITIES })) })),
	});
}

const candidateSchema = object({
	name: required(string()),
	gender: required(string({ valid: GENDERS })),
	mobile: string(),
	profession: string(),
	email: emailRule,
	verificationFields: object({
		dob: required(ddMmYyyyRule),
		fatherName: string(),
	}),
});

/**
 * Create Profile as the provider's current public pages show it ('current' mode): every field top
 * level, dob required for every candidate, anything else refused. The wording is that of the page's
 * validation sample ("name must be a string/dob must be a string/gender must be one of Male, Female,
 * Other", in that order), class-validator style: no quotes, unknown properties "should not exist"
 * (listed first, as class-validator's whitelist check runs first). Sandbox choices: the wording for an
 * empty string, an invalid date and an invalid email; a mobile without the page's dash is accepted.
 */
const CURRENT_CANDIDATE_FIELDS = ['name', 'dob', 'gender', 'mobile', 'profession', 'fatherName', 'email'];
const CURRENT_CANDIDATE_REQUIRED = ['name', 'dob', 'gender'];

function currentCandidateSchema(value, path, errors) {
	if (!isPlainObject(value)) return errors.push('body must be an object');
	for (const key of Object.keys(value)) {
		if (!CURRENT_CANDIDATE_FIELDS.includes(key)) errors.push(`property ${key} should not exist`);
	}
	for (const key of CURRENT_CANDIDATE_FIELDS) {
		const field = value[key];
		if (field === undefined && !CURRENT_CANDIDATE_REQUIRED.includes(key)) continue;
		if (key === 'gender') {
			if (!GENDERS.includes(field)) errors.push(`gender must be one of ${GENDERS.join(', ')}`);
		} else if (key === 'email') {
			if (typeof field !== 'string' || !EMAIL_PATTERN.test(field)) errors.push('email must be an email');
		} else if (typeof field !== 'string') errors.push(`${key} must be a string`);
		else if (field === '') errors.push(`${key} should not be empty`);
		else if (key === 'dob' && !isCalendarDate(field)) errors.push('dob must be a valid date in DD-MM-YYYY format');
	}
}

// The contract lists the address fields but not which are required; the sandbox requires all six.
const addressSchema = object(Object.fromEntries(ADDRESS_FIELDS.map((field) => [field, required(string())])));

const employmentDataSchema = object(
	{
		employmentDocumentType: required(string({ valid: EMPLOYMENT_DOCUMENT_TYPES })),
		nameAsPerEmployerRecords: required(string()),
		employerName: required(string()),
		joiningDate: required(string()),
		lastWorkingDate: required(string()),
		document: required(object({ label: required(string()), url: required(string()) })),
	},
	{
		refine(data, path, errors) {
			const type = data.employmentDocumentType;
			const label = data.document && data.document.label;
			if (EMPLOYMENT_DOCUMENT_TYPES.includes(type) && typeof label === 'string' && label !== type) {
				errors.push(`${quote(childPath(path, 'document.label'))} must be [${type}]`);
			}
		},
	},
);

/** documentList `[{ label, url }]`, labels from `labels`; with `mustHave`, one document has that label. */
function documentListSchema(labels, mustHave) {
	const list = array(object({ label: required(string({ valid: labels })), url: required(string()) }), { min: 1 });
	return (value, path, errors) => {
		list(value, path, errors);
		const labelled = Array.isArray(value) && value.some((item) => item && item.label === mustHave);
		if (mustHave && Array.isArray(value) && value.length > 0 && !labelled) {
			errors.push(`${quote(path)} must contain a document labelled [${mustHave}]`);
		}
	};
}

const documentIdentity = {
	nameAsPerDocument: required(string()),
	nameOfInstitute: required(string()),
	registrationNumber: required(string()),
};

/**
 * bgv-tenth / bgv-twelfth (provider's public documentation): issueDate or yearOfPassing, the
 * marksheet labelled as the public samples do, or "marksheet" (what node version 1 sends by default).
 */
function schoolSchema(level, label) {
	return object(
		{
			level: required(string({ valid: [level] })),
			...documentIdentity,
			nameOfBoard: string(),
			issueDate: yyyyMmDdRule,
			yearOfPassing: string({ custom: (v) => (/^\d{4}$/.test(v) ? undefined : 'must be a 4-digit year') }),
			documentList: required(documentListSchema([label, 'marksheet'])),
		},
		{
			refine(data, path, errors) {
				if (data.issueDate === undefined && data.yearOfPassing === undefined) {
					errors.push(`${quote(path)} must contain at least one of [issueDate, yearOfPassing]`);
				}
			},
		},
	);
}

/** bgv-degree (provider's public documentation): no nameOfBoard, no yearOfPassing; a Degree document. */
const degreeSchema = object({
	level: required(string({ valid: DEGREE_LEVELS })),
	...documentIdentity,
	issueDate: required(yyyyMmDdRule),
	documentList: required(documentListSchema(['Degree', 'Marksheet'], 'Degree')),
});

const SUBMISSION_DATA_SCHEMAS = {
	'bgv-employment': employmentDataSchema,
	'bgv-cibil': object({
		pan: required(string()),
		document: required(object({ url: required(string()) })),
		permanentAddress: required(addressSchema),
	}),
	'bgv-criminal': object({
		currentAddress: required(addressSchema),
		permanentAddress: required(addressSchema),
	}),
	'bgv-police-clearance-certificate': object({ fileUrl: required(string()) }),
	// From the provider's public documentation: the police verification at an address.
	'bgv-police-verification': object({ permanentAddress: required(addressSchema) }),
	'bgv-tenth': schoolSchema('TENTH_STD', '10th Marksheet'),
	'bgv-twelfth': schoolSchema('TWELFTH_STD', '12th Marksheet'),
	'bgv-degree': degreeSchema,
	// Digital address checks, under both names the provider's pages give: six flat fields.
	...Object.fromEntries(
		[...DIGITAL_ADDRESS_SUBMISSION_NAMES, 'bgv-local-address-digital', 'bgv-permanent-address-digital'].map((name) => [
			name,
			addressSchema,
		]),
	),
};

// Shapes of the other checks are not in the contract: any non-empty object is accepted.
const genericSubmissionDataSchema = object({}, { minKeys: 1 });

const submissionSchema = object(
	{
		data: required(anyValue()),
		verificationName: required(string({ valid: SUBMISSION_VERIFICATION_NAMES })),
		transactionId: required(string()),
	},
	{
		refine(body, path, errors) {
			if (body.data === undefined) return;
			const dataSchema = SUBMISSION_DATA_SCHEMAS[body.verificationName] || genericSubmissionDataSchema;
			dataSchema(body.data, childPath(path, 'data'), errors);
		},
	},
);

const downloadFileSchema = object({
	url: required(string()),
	getDownloadToken: required(boolean()),
});

const signedUrlQuerySchema = object({ token: required(string()) });

const webhookConfigSchema = object({
	endpoint: required(string({ custom: httpUriProblem })),
	apiKey: required(string()),
	description: string(),
});

const uploadQuerySchema = object({ fileCategory: required(string({ valid: FILE_CATEGORIES })) });

function transactionQuerySchema({ orgId }) {
	return object({
		orgId: required(string({ custom: (v) => (v === orgId ? undefined : 'is invalid') })),
		txnId: required(string()),
	});
}

/**
 * From the provider's public documentation: POST bgv/insufficiency. The lookups (transaction, orgId,
 * subType, open insufficiency IDs) come after this shape check, in the route.
 */
const insufficiencyResolutionSchema = object({
	transactionId: required(string()),
	orgId: required(string()),
	subType: required(string()),
	dataToUpload: required(
		object(
			{
				insufficiencyDataList: array(
					object({ insufficiencyId: required(string()), value: required(string()) }),
				),
				documents: array(
					object({
						documentType: required(string()),
						fileType: required(string({ valid: ['Url'] })),
						fileName: required(string()),
						document: required(object({ label: required(string()), url: required(string({ custom: httpUriProblem })) })),
					}),
				),
			},
			{
				refine(data, path, errors) {
					const count = (list) => (Array.isArray(list) ? list.length : 0);
					if (count(data.insufficiencyDataList) + count(data.documents) === 0) {
						errors.push(`${quote(path)} must contain at least one of [insufficiencyDataList, documents] with items`);
					}
				},
			},
		),
	),
});

/** POST /__sandbox/insufficiency: items are optional (one presumed question when left out). */
const raiseInsufficiencySchema = object({
	transactionId: required(string()),
	verificationName: required(string({ valid: SUBMISSION_VERIFICATION_NAMES })),
	insufficiencies: array(object({ label: required(string()), type: string(), insufficiencyId: string() }), { min: 1 }),
});

const transitionSchema = object({
	transactionId: required(string()),
	verificationName: required(string({ valid: SUBMISSION_VERIFICATION_NAMES })),
	newState: required(string()),
});

/** POST /__sandbox/skip: the check of a transaction the candidate skips. */
const skipSchema = object({
	transactionId: required(string()),
	verificationName: required(string({ valid: SUBMISSION_VERIFICATION_NAMES })),
});

module.exports = {
	// The building blocks, for routes that declare their own schemas (kyc-routes.js).
	object,
	string,
	boolean,
	required,
	httpUriProblem,
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
	transitionSchema,
	skipSchema,
	insufficiencyResolutionSchema,
	raiseInsufficiencySchema,
};
