import { DOCUMENT_URL, PERMANENT_ADDRESS, readAddress, readText, type TypedCheck } from './shared';

export const credit: TypedCheck = {
	checks: ['bgv-cibil'],
	since: 1,
	fields: [
		{
			mapped: true,
			property: {
				displayName: 'PAN',
				name: 'pan',
				type: 'string',
				required: true,
				default: '',
				placeholder: 'e.g. ABCDE1234F',
				description: 'The candidate’s PAN (permanent account number), ten characters',
			},
		},
		DOCUMENT_URL,
	],
	uses: [PERMANENT_ADDRESS],
	build: (input) => ({
		pan: readText(input, 'pan', 'PAN'),
		document: { url: readText(input, 'documentUrl', 'Document URL') },
		permanentAddress: readAddress(input, 'permanentAddress', 'Permanent Address'),
	}),
};
