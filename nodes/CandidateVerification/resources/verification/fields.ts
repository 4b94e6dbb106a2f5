import type { INodeProperties } from 'n8n-workflow';

import {
	POLICE_CLEARANCE_CERTIFICATE,
	SUBMISSION_VERIFICATION_NAMES,
} from '../../shared/constants';

/** Checks whose `data` the contract specifies; every other check takes `data` as JSON. */
export const TYPED_CHECKS = [
	'bgv-employment',
	'bgv-cibil',
	'bgv-criminal',
	POLICE_CLEARANCE_CERTIFICATE,
] as const;

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
	return {
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
	};
}

export const verificationSubmitFields: INodeProperties[] = [
	{
		displayName: 'Transaction ID',
		name: 'transactionId',
		type: 'string',
		required: true,
		default: '',
		description: 'Identifies the candidate; output of Profile → Create',
		displayOptions: { show: { resource: ['verification'], operation: ['submit'] } },
	},
	{
		displayName: 'Check',
		name: 'verificationName',
		type: 'options',
		required: true,
		default: 'bgv-employment',
		options: [...SUBMISSION_VERIFICATION_NAMES],
		description:
			'The check to submit data for. Employment, credit, criminal and police clearance checks have typed fields; every other check takes its data as JSON.',
		displayOptions: { show: { resource: ['verification'], operation: ['submit'] } },
	},
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
		description: 'Also used as the document label',
		displayOptions: showFor(['bgv-employment']),
	},
	{
		displayName: 'Name as per Employer Records',
		name: 'nameAsPerEmployerRecords',
		type: 'string',
		required: true,
		default: '',
		description: 'The candidate name as written in the document',
		displayOptions: showFor(['bgv-employment']),
	},
	{
		displayName: 'Employer Name',
		name: 'employerName',
		type: 'string',
		required: true,
		default: '',
		displayOptions: showFor(['bgv-employment']),
	},
	{
		displayName: 'Joining Date',
		name: 'joiningDate',
		type: 'string',
		required: true,
		default: '',
		placeholder: '2021-04-01',
		description: 'Sent as YYYY-MM-DD; DD-MM-YYYY and date expressions are converted',
		displayOptions: showFor(['bgv-employment']),
	},
	{
		displayName: 'Last Working Date',
		name: 'lastWorkingDate',
		type: 'string',
		required: true,
		default: '',
		placeholder: '2024-03-31',
		description: 'Sent as YYYY-MM-DD; DD-MM-YYYY and date expressions are converted',
		displayOptions: showFor(['bgv-employment']),
	},
	{
		displayName: 'PAN',
		name: 'pan',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'ABCDE1234F',
		displayOptions: showFor(['bgv-cibil']),
	},
	{
		displayName: 'Document URL',
		name: 'documentUrl',
		type: 'string',
		required: true,
		default: '',
		description:
			'URL of the uploaded document (employment document, or the PAN document for a credit check), e.g. the fileUrl field that File → Upload outputs',
		displayOptions: showFor(['bgv-employment', 'bgv-cibil']),
	},
	addressField('currentAddress', 'Current Address', ['bgv-criminal']),
	addressField('permanentAddress', 'Permanent Address', ['bgv-cibil', 'bgv-criminal']),
	{
		displayName: 'Certificate File URL',
		name: 'fileUrl',
		type: 'string',
		required: true,
		default: '',
		description: 'URL of the uploaded police clearance certificate',
		displayOptions: showFor([POLICE_CLEARANCE_CERTIFICATE]),
	},
	{
		displayName: 'Data (JSON)',
		name: 'data',
		type: 'json',
		required: true,
		default: '{}',
		description:
			'The check’s data object exactly as the service expects it. Its shape for this check is not part of the contract this node was built from.',
		displayOptions: {
			show: { resource: ['verification'], operation: ['submit'] },
			hide: { verificationName: [...TYPED_CHECKS] },
		},
	},
];
