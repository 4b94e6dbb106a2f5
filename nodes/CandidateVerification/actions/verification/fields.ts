import type { INodeProperties } from 'n8n-workflow';

import { DEGREE_LEVELS, DOCUMENT_LABELS } from '../../../shared/enums';
import {
	CHECK_OPTIONS_V2,
	DIGITAL_ADDRESS_CHECKS,
	DIGITAL_ADDRESS_SUBMISSION_NAMES,
	FORM_VERIFICATION_NAMES,
	INSTANT_CHECKS,
	POLICE_CLEARANCE_CERTIFICATE,
	POLICE_VERIFICATION,
} from '../../../shared/checks';
import {
	MAP_EACH_FIELD,
	MAPPING_MODE,
	mappedField,
	mappingModeProperties,
} from '../../helpers/mapping';
import { dataExample, EXAMPLE_ADDRESS } from './examples';

const POLICE_CHECKS = [POLICE_VERIFICATION, POLICE_CLEARANCE_CERTIFICATE];
/** Education checks (bgv-tenth, bgv-twelfth): from the provider's public documentation. */
export const EDUCATION_LEVELS: Record<string, string> = {
	'bgv-tenth': 'TENTH_STD',
	'bgv-twelfth': 'TWELFTH_STD',
};
const EDUCATION_CHECKS = Object.keys(EDUCATION_LEVELS);

/** Checks with typed fields on node version 1; every other check takes `data` as JSON. */
export const TYPED_CHECKS = [
	'bgv-employment',
	'bgv-cibil',
	'bgv-criminal',
	...POLICE_CHECKS,
	...EDUCATION_CHECKS,
];
/** Checks typed on node version 2 only (JSON on version 1). */
export const TYPED_CHECKS_V2_ONLY = ['bgv-degree', ...DIGITAL_ADDRESS_CHECKS];

const JSON_CHECKS_V1 = FORM_VERIFICATION_NAMES.map(({ value }) => value).filter(
	(check) => !TYPED_CHECKS.includes(check),
);
const JSON_CHECKS_V2 = CHECK_OPTIONS_V2.map(({ value }) => value).filter(
	(check) => !TYPED_CHECKS.includes(check) && !TYPED_CHECKS_V2_ONLY.includes(check),
);
/** Checks that take `data` as JSON: on both versions (`versions` undefined) or on version 1 only. */
const JSON_CHECK_VERSIONS: Array<{ check: string; versions?: number[] }> = JSON_CHECKS_V1.map(
	(check) => ({ check, versions: JSON_CHECKS_V2.includes(check) ? undefined : [1] }),
);

export const JSON_CHECKS = JSON_CHECK_VERSIONS.map(({ check }) => check);

export const ADDRESS_FIELDS = [
	{ name: 'line1', displayName: 'Address Line 1' },
	{ name: 'vtc', displayName: 'Village / Town / City' },
	{ name: 'district', displayName: 'District' },
	{ name: 'state', displayName: 'State' },
	{ name: 'pincode', displayName: 'Pincode' },
	{ name: 'country', displayName: 'Country' },
] as const;

/**
 * Shown for these checks of Submit; on the node versions given, else on every version. The version
 * comes first: n8n shows a field at once when a condition's value is an expression (a Check set by
 * an expression), without reading the conditions after it.
 */
function showFor(verificationNames: readonly string[], versions?: number[]) {
	return {
		show: {
			...(versions ? { '@version': versions } : {}),
			resource: ['verification'],
			operation: ['submit'],
			verificationName: [...verificationNames],
		},
	};
}

/**
 * A field of one or more checks that Map Automatically reads from the input. Its Mapping Mode
 * condition is also one of `show`, before the Check's: n8n shows a field at once when a condition's
 * value is an expression, so with a Check set by an expression, Map Automatically still hides (and
 * n8n does not require) the fields it reads.
 */
function checkField(property: INodeProperties): INodeProperties {
	const { '@version': versions, ...show } = property.displayOptions?.show ?? {};
	return mappedField({
		...property,
		displayOptions: {
			...property.displayOptions,
			show: {
				...(versions ? { '@version': versions } : {}),
				[MAPPING_MODE]: [MAP_EACH_FIELD],
				...show,
			},
		},
	});
}

function addressField(
	name: string,
	displayName: string,
	checks: string[],
	versions?: number[],
): INodeProperties {
	return checkField({
		displayName,
		name,
		type: 'fixedCollection',
		required: true,
		default: {},
		placeholder: 'Add Address',
		displayOptions: showFor(checks, versions),
		options: [
			{
				displayName: 'Address',
				name: 'address',
				values: ADDRESS_FIELDS.map((field) => ({
					displayName: field.displayName,
					name: field.name,
					type: 'string' as const,
					default: '',
				})),
			},
		],
	});
}

export const verificationSubmitFields: INodeProperties[] = [
	mappedField({
		displayName: 'Transaction ID',
		name: 'transactionId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. TXN1a2b3c4d',
		description:
			'The candidate’s transaction ID, returned by Profile → Create (e.g. its transactionId output field)',
		// One declaration for Submit and the Transaction operations: the value stays when the
		// operation is switched.
		displayOptions: {
			show: {
				resource: ['verification', 'transaction'],
				operation: ['submit', 'getStatus', 'getCheckStatus', 'resolveInsufficiency'],
			},
		},
	}),
	{
		displayName: 'Check',
		name: 'verificationName',
		type: 'options',
		required: true,
		default: 'bgv-employment',
		options: [...FORM_VERIFICATION_NAMES],
		description:
			'The check to submit data for, one of the checks of the candidate’s form. Employment, credit, criminal, police, 10th and 12th education have typed fields; every other check takes its data as JSON.',
		displayOptions: {
			show: { '@version': [1], resource: ['verification'], operation: ['submit'] },
		},
	},
	{
		displayName: 'Check',
		name: 'verificationName',
		type: 'options',
		required: true,
		default: 'bgv-employment',
		options: [...CHECK_OPTIONS_V2],
		description:
			'The check to submit data for, one of the checks of the candidate’s form. Every check with a public submission shape has typed fields; the others take their data as JSON. The form’s Police Verification is Police Verification (Address); the certificate has its own choice.',
		displayOptions: {
			show: { '@version': [2], resource: ['verification'], operation: ['submit'] },
		},
	},
	...mappingModeProperties(
		{ resource: ['verification'], operation: ['submit'] },
		'Transaction ID or transactionId, Employer Name or employerName',
	),
	{
		displayName: 'Employment Document Type',
		name: 'employmentDocumentType',
		type: 'options',
		required: true,
		default: 'salaryslip',
		options: [
			{ name: 'Salary Slip', value: 'salaryslip' },
			{ name: 'Appointment Letter', value: 'appointmentletter' },
			{ name: 'Experience Letter', value: 'experienceletter' },
		],
		description: 'Which document proves the employment; also sent as the document label',
		displayOptions: showFor(['bgv-employment']),
	},
	checkField({
		displayName: 'Name as per Employer Records',
		name: 'nameAsPerEmployerRecords',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Asha Verma',
		description: 'The candidate’s name exactly as the employer’s document writes it',
		displayOptions: showFor(['bgv-employment']),
	}),
	checkField({
		displayName: 'Employer Name',
		name: 'employerName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Acme Technologies Pvt Ltd',
		description: 'The employer as named in the document',
		displayOptions: showFor(['bgv-employment']),
	}),
	checkField({
		displayName: 'Joining Date',
		name: 'joiningDate',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 2021-04-01',
		description: 'Sent as YYYY-MM-DD; DD-MM-YYYY and date expressions are converted',
		displayOptions: showFor(['bgv-employment']),
	}),
	checkField({
		displayName: 'Last Working Date',
		name: 'lastWorkingDate',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 2024-03-31',
		description: 'Sent as YYYY-MM-DD; DD-MM-YYYY and date expressions are converted',
		displayOptions: showFor(['bgv-employment']),
	}),
	checkField({
		displayName: 'PAN',
		name: 'pan',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. ABCDE1234F',
		description: 'The candidate’s PAN (permanent account number), ten characters',
		displayOptions: showFor(['bgv-cibil']),
	}),
	checkField({
		displayName: 'Document URL',
		name: 'documentUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. {{ $json.fileUrl }}',
		description:
			'URL of the uploaded document (the employment document, the PAN document for a credit check, the marksheet for an education check), as File → Upload returns it',
		displayOptions: showFor(['bgv-employment', 'bgv-cibil', ...EDUCATION_CHECKS]),
	}),
	addressField('currentAddress', 'Current Address', ['bgv-criminal']),
	addressField('permanentAddress', 'Permanent Address', ['bgv-cibil', 'bgv-criminal']),
	addressField('permanentAddress', 'Permanent Address', [POLICE_VERIFICATION], [2]),
	// Version 1 sends the certificate for both police names; version 2 for the certificate's own.
	certificateField(POLICE_CHECKS, [1]),
	certificateField([POLICE_CLEARANCE_CERTIFICATE], [2]),
	...educationFields(),
	...degreeFields(),
	...digitalAddressFields(),
	{
		displayName:
			'PAN, bank account, UPI, GST, employment history (UAN), DIN and Aadhaar (DigiLocker) have instant calls of their own: use the Instant KYC resource. Submitted here, the check’s data goes to the form’s check as JSON; the placeholder shows presumed field names.',
		name: 'instantCheckNotice',
		type: 'notice',
		default: '',
		displayOptions: showFor(INSTANT_CHECKS),
	},
	// One notice for the JSON checks of both versions, one for those typed on version 2.
	...[undefined, [1]].map(
		(versions): INodeProperties => ({
			displayName:
				'The provider’s public pages do not give this check’s data: enter the object the provider gives you. The placeholder shows a presumed example.',
			name: 'jsonDataNotice',
			type: 'notice',
			default: '',
			displayOptions: showFor(
				JSON_CHECK_VERSIONS.filter(
					({ check, versions: shownOn }) =>
						!INSTANT_CHECKS.includes(check) && String(shownOn) === String(versions),
				).map(({ check }) => check),
				versions,
			),
		}),
	),
	// One Data field per check so that each shows its own example.
	...JSON_CHECK_VERSIONS.map(
		({ check, versions }): INodeProperties =>
			checkField({
				displayName: 'Data (JSON)',
				name: 'data',
				type: 'json',
				required: true,
				default: '',
				placeholder: dataExample(check),
				description:
					'The check’s data object, sent unchanged as "data". Map values from earlier nodes with expressions.',
				displayOptions: showFor([check], versions),
			}),
	),
];

function certificateField(checks: string[], versions: number[]): INodeProperties {
	return checkField({
		displayName: 'Certificate File URL',
		name: 'fileUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. {{ $json.fileUrl }}',
		description: `URL of the uploaded police clearance certificate, as File → Upload returns it. Sent with the check name ${POLICE_CLEARANCE_CERTIFICATE}.`,
		displayOptions: showFor(checks, versions),
	});
}

/** Name as per Document, Name of Institute, Registration Number: education and degree alike. */
function documentIdentityFields(
	displayOptions: INodeProperties['displayOptions'],
	institute: string,
): INodeProperties[] {
	return (
		[
			{
				displayName: 'Name as per Document',
				name: 'nameAsPerDocument',
				type: 'string',
				required: true,
				default: '',
				placeholder: 'e.g. Asha Verma',
				description: 'The candidate’s name exactly as the marksheet or certificate writes it',
				displayOptions,
			},
			{
				displayName: 'Name of Institute',
				name: 'nameOfInstitute',
				type: 'string',
				required: true,
				default: '',
				placeholder: `e.g. ${institute}`,
				displayOptions,
				description: 'The school, college or university as named in the document',
			},
			{
				displayName: 'Registration Number',
				name: 'registrationNumber',
				type: 'string',
				required: true,
				default: '',
				placeholder: 'e.g. 2012/0456789',
				description: 'Roll or registration number printed on the document',
				displayOptions,
			},
		] as INodeProperties[]
	).map(checkField);
}

/** POST_GRADUATE_DIPLOMA → "Post Graduate Diploma", PHD → "PhD". */
function levelLabel(level: string): string {
	if (level === 'PHD') return 'PhD';
	return level
		.split('_')
		.map((word) => word.charAt(0) + word.slice(1).toLowerCase())
		.join(' ');
}

/** bgv-degree on version 2, from the provider's public documentation. */
function degreeFields(): INodeProperties[] {
	const displayOptions = showFor(['bgv-degree'], [2]);
	return [
		{
			displayName:
				'Fields from the provider’s public documentation. The degree is sent with the label Degree, the marksheet (when given) with the label Marksheet.',
			name: 'degreeNotice',
			type: 'notice',
			default: '',
			displayOptions,
		},
		checkField({
			displayName: 'Level',
			name: 'level',
			type: 'options',
			required: true,
			// No default: a forgotten mapping must fail, not send every degree at one level.
			default: '',
			options: DEGREE_LEVELS.map((value) => ({ name: levelLabel(value), value })).sort((a, b) =>
				a.name.localeCompare(b.name),
			),
			description: `The degree’s level; from an expression one of ${DEGREE_LEVELS.join(', ')} (any case)`,
			displayOptions,
		}),
		...documentIdentityFields(displayOptions, 'Delhi University'),
		checkField({
			displayName: 'Issue Date',
			name: 'issueDate',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. 2016-06-30',
			description:
				'Issue date of the degree; sent as YYYY-MM-DD. DD-MM-YYYY, 30 Jun 2016, sheet serial numbers and date expressions are converted.',
			displayOptions,
		}),
		checkField({
			displayName: 'Degree Document URL',
			name: 'documentUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. {{ $json.fileUrl }}',
			description: 'URL of the uploaded degree certificate, as File → Upload returns it',
			displayOptions,
		}),
		checkField({
			displayName: 'Marksheet URL',
			name: 'marksheetUrl',
			type: 'string',
			default: '',
			placeholder: 'e.g. {{ $json.fileUrl }}',
			description:
				'Optional: URL of the uploaded marksheet, sent with the label Marksheet when given',
			displayOptions,
		}),
	];
}

/** The digital address checks on version 2: the six address fields, flat in `data`. */
function digitalAddressFields(): INodeProperties[] {
	const displayOptions = showFor(DIGITAL_ADDRESS_CHECKS, [2]);
	const [local, permanent] = Object.entries(DIGITAL_ADDRESS_SUBMISSION_NAMES);
	return [
		{
			displayName: `From the provider’s public documentation. The provider’s pages name these checks twice: the submission pages ${local[1]} / ${permanent[1]} (sent from this list), the form list ${local[0]} / ${permanent[0]} (set one by an expression to send it instead).`,
			name: 'digitalAddressNotice',
			type: 'notice',
			default: '',
			displayOptions,
		},
		...ADDRESS_FIELDS.map((field) =>
			checkField({
				displayName: field.displayName,
				name: field.name,
				type: 'string',
				required: true,
				default: '',
				placeholder: `e.g. ${EXAMPLE_ADDRESS[field.name]}`,
				description: `The candidate’s address: ${field.displayName.toLowerCase()}`,
				displayOptions,
			}),
		),
	];
}

function educationFields(): INodeProperties[] {
	const displayOptions = showFor(EDUCATION_CHECKS);
	return [
		{
			displayName: 'Fields from the provider’s public documentation (10th and 12th Education).',
			name: 'educationNotice',
			type: 'notice',
			default: '',
			displayOptions,
		},
		...documentIdentityFields(displayOptions, 'Kendriya Vidyalaya, Pune'),
		...(
			[
				{
					displayName: 'Year of Passing',
					name: 'yearOfPassing',
					type: 'string',
					default: '',
					placeholder: 'e.g. 2012',
					description: 'Give the year of passing or the issue date (at least one)',
					displayOptions,
				},
				{
					displayName: 'Issue Date',
					name: 'issueDate',
					type: 'string',
					default: '',
					placeholder: 'e.g. 2012-05-28',
					description:
						'Issue date of the document; sent as YYYY-MM-DD. Give it or the year of passing.',
					displayOptions,
				},
				{
					displayName: 'Name of Board',
					name: 'nameOfBoard',
					type: 'string',
					default: '',
					placeholder: 'e.g. CBSE',
					description: 'Optional: the examination board',
					displayOptions,
				},
			] as INodeProperties[]
		).map(checkField),
		{
			displayName: 'Document Label',
			name: 'documentLabel',
			type: 'string',
			required: true,
			default: 'marksheet',
			description: 'Label of the document in the documentList sent to the service',
			displayOptions: showFor(EDUCATION_CHECKS, [1]),
		},
		// Version 2: empty sends the label of the provider's public samples.
		...EDUCATION_CHECKS.map(
			(check): INodeProperties => ({
				displayName: 'Document Label',
				name: 'documentLabel',
				type: 'string',
				default: '',
				placeholder: `e.g. ${DOCUMENT_LABELS[check as keyof typeof DOCUMENT_LABELS]}`,
				description: `Label of the marksheet in the documentList sent to the service. Empty sends ${DOCUMENT_LABELS[check as keyof typeof DOCUMENT_LABELS]}, the label of the provider’s public documentation.`,
				displayOptions: showFor([check], [2]),
			}),
		),
	];
}
