import type { INodeProperties } from 'n8n-workflow';

import {
	FORM_VERIFICATION_NAMES,
	POLICE_CLEARANCE_CERTIFICATE,
	POLICE_VERIFICATION,
} from '../../helpers/constants';
import { mappedField, mappingModeProperties } from '../../helpers/mapping';
import { dataExample } from './examples';

const POLICE_CHECKS = [POLICE_VERIFICATION, POLICE_CLEARANCE_CERTIFICATE];
/** Education checks: bgv-twelfth from the provider's public documentation, bgv-tenth presumed alike. */
export const EDUCATION_LEVELS: Record<string, string> = {
	'bgv-tenth': 'TENTH_STD',
	'bgv-twelfth': 'TWELFTH_STD',
};
const EDUCATION_CHECKS = Object.keys(EDUCATION_LEVELS);

/** Checks with typed fields; every other check takes `data` as JSON. */
export const TYPED_CHECKS = [
	'bgv-employment',
	'bgv-cibil',
	'bgv-criminal',
	...POLICE_CHECKS,
	...EDUCATION_CHECKS,
];

export const JSON_CHECKS = FORM_VERIFICATION_NAMES.map(({ value }) => value).filter(
	(check) => !TYPED_CHECKS.includes(check),
);

export const ADDRESS_FIELDS = [
	{ name: 'line1', displayName: 'Address Line 1' },
	{ name: 'vtc', displayName: 'Village / Town / City' },
	{ name: 'district', displayName: 'District' },
	{ name: 'state', displayName: 'State' },
	{ name: 'pincode', displayName: 'Pincode' },
	{ name: 'country', displayName: 'Country' },
] as const;

function showFor(verificationNames: readonly string[]) {
	return {
		show: {
			resource: ['verification'],
			operation: ['submit'],
			verificationName: [...verificationNames],
		},
	};
}

function addressField(name: string, displayName: string, checks: string[]): INodeProperties {
	return mappedField({
		displayName,
		name,
		type: 'fixedCollection',
		required: true,
		default: {},
		placeholder: 'Add Address',
		displayOptions: showFor(checks),
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
		displayOptions: { show: { resource: ['verification'], operation: ['submit'] } },
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
	mappedField({
		displayName: 'Name as per Employer Records',
		name: 'nameAsPerEmployerRecords',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Asha Verma',
		description: 'The candidate’s name exactly as the employer’s document writes it',
		displayOptions: showFor(['bgv-employment']),
	}),
	mappedField({
		displayName: 'Employer Name',
		name: 'employerName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Acme Technologies Pvt Ltd',
		description: 'The employer as named in the document',
		displayOptions: showFor(['bgv-employment']),
	}),
	mappedField({
		displayName: 'Joining Date',
		name: 'joiningDate',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 2021-04-01',
		description: 'Sent as YYYY-MM-DD; DD-MM-YYYY and date expressions are converted',
		displayOptions: showFor(['bgv-employment']),
	}),
	mappedField({
		displayName: 'Last Working Date',
		name: 'lastWorkingDate',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 2024-03-31',
		description: 'Sent as YYYY-MM-DD; DD-MM-YYYY and date expressions are converted',
		displayOptions: showFor(['bgv-employment']),
	}),
	mappedField({
		displayName: 'PAN',
		name: 'pan',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. ABCDE1234F',
		description: 'The candidate’s PAN (permanent account number), ten characters',
		displayOptions: showFor(['bgv-cibil']),
	}),
	mappedField({
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
	mappedField({
		displayName: 'Certificate File URL',
		name: 'fileUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. {{ $json.fileUrl }}',
		description: `URL of the uploaded police clearance certificate, as File → Upload returns it. Sent with the check name ${POLICE_CLEARANCE_CERTIFICATE}.`,
		displayOptions: showFor(POLICE_CHECKS),
	}),
	...educationFields(),
	{
		displayName:
			'The contract does not give this check’s data: enter the object the provider documents. The placeholder shows a presumed example.',
		name: 'jsonDataNotice',
		type: 'notice',
		default: '',
		displayOptions: showFor(JSON_CHECKS),
	},
	// One Data field per check so that each shows its own example.
	...JSON_CHECKS.map(
		(check): INodeProperties =>
			mappedField({
				displayName: 'Data (JSON)',
				name: 'data',
				type: 'json',
				required: true,
				default: '',
				placeholder: dataExample(check),
				description:
					'The check’s data object, sent unchanged as "data". Map values from earlier nodes with expressions.',
				displayOptions: showFor([check]),
			}),
	),
];

function educationFields(): INodeProperties[] {
	const displayOptions = showFor(EDUCATION_CHECKS);
	return [
		{
			displayName:
				'Fields from the provider’s public documentation for 12th Education; 10th Education is presumed to take the same fields.',
			name: 'educationNotice',
			type: 'notice',
			default: '',
			displayOptions,
		},
		...(
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
					placeholder: 'e.g. Kendriya Vidyalaya, Pune',
					displayOptions,
					description: 'The school as named in the document',
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
		).map(mappedField),
		{
			displayName: 'Document Label',
			name: 'documentLabel',
			type: 'string',
			required: true,
			default: 'marksheet',
			description: 'Label of the document in the documentList sent to the service',
			displayOptions,
		},
	];
}
