import { EMPLOYMENT_DOCUMENT_TYPES } from '../../../../shared/enums';
import { DOCUMENT_URL, readDate, readText, type TypedCheck } from './shared';

export const employment: TypedCheck = {
	checks: ['bgv-employment'],
	since: 1,
	fields: [
		{
			property: {
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
			},
		},
		{
			mapped: true,
			property: {
				displayName: 'Name as per Employer Records',
				name: 'nameAsPerEmployerRecords',
				type: 'string',
				required: true,
				default: '',
				placeholder: 'e.g. Asha Verma',
				description: 'The candidate’s name exactly as the employer’s document writes it',
			},
		},
		{
			mapped: true,
			property: {
				displayName: 'Employer Name',
				name: 'employerName',
				type: 'string',
				required: true,
				default: '',
				placeholder: 'e.g. Acme Technologies Pvt Ltd',
				description: 'The employer as named in the document',
			},
		},
		{
			mapped: true,
			property: {
				displayName: 'Joining Date',
				name: 'joiningDate',
				type: 'string',
				required: true,
				default: '',
				placeholder: 'e.g. 2021-04-01',
				description: 'Sent as YYYY-MM-DD; DD-MM-YYYY and date expressions are converted',
			},
		},
		{
			mapped: true,
			property: {
				displayName: 'Last Working Date',
				name: 'lastWorkingDate',
				type: 'string',
				required: true,
				default: '',
				placeholder: 'e.g. 2024-03-31',
				description: 'Sent as YYYY-MM-DD; DD-MM-YYYY and date expressions are converted',
			},
		},
	],
	uses: [DOCUMENT_URL],
	build: (input) => {
		const documentType = input.oneOf(
			'Employment Document Type',
			input.param('employmentDocumentType', 'Employment Document Type'),
			EMPLOYMENT_DOCUMENT_TYPES,
		);
		return {
			employmentDocumentType: documentType,
			nameAsPerEmployerRecords: readText(
				input,
				'nameAsPerEmployerRecords',
				'Name as per Employer Records',
			),
			employerName: readText(input, 'employerName', 'Employer Name'),
			joiningDate: readDate(input, 'joiningDate', 'Joining Date'),
			lastWorkingDate: readDate(input, 'lastWorkingDate', 'Last Working Date'),
			document: { label: documentType, url: readText(input, 'documentUrl', 'Document URL') },
		};
	},
};
