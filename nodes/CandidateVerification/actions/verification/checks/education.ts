import type { IDataObject } from 'n8n-workflow';

import { DOCUMENT_LABELS } from '../../../../shared/enums';
import type { ItemInput } from '../../../engine/itemInput';
import {
	documentIdentityFields,
	DOCUMENT_URL,
	formatDate,
	readDocumentIdentity,
	readText,
	type TypedCheck,
	type TypedField,
} from './shared';

/** Education checks (bgv-tenth, bgv-twelfth): from the provider's public documentation. */
const EDUCATION_LEVELS: Record<string, string> = {
	'bgv-tenth': 'TENTH_STD',
	'bgv-twelfth': 'TWELFTH_STD',
};

const mapped = (property: TypedField['property']): TypedField => ({ property, mapped: true });

/** Version 1: the Document Label as set (default "marksheet"); version 2: empty sends the public label. */
function readEducationLabel(input: ItemInput, check: string) {
	const label = input.param('documentLabel', 'Document Label', '');
	if (input.nodeVersion < 2) return input.text('Document Label', label);
	return (
		input.optionalText('Document Label', label) ??
		DOCUMENT_LABELS[check as keyof typeof DOCUMENT_LABELS]
	);
}

export const education: TypedCheck = {
	checks: Object.keys(EDUCATION_LEVELS),
	since: 1,
	fields: [
		{
			property: {
				displayName: 'Fields from the provider’s public documentation (10th and 12th Education).',
				name: 'educationNotice',
				type: 'notice',
				default: '',
			},
		},
		...documentIdentityFields('Kendriya Vidyalaya, Pune'),
		mapped({
			displayName: 'Year of Passing',
			name: 'yearOfPassing',
			type: 'string',
			default: '',
			placeholder: 'e.g. 2012',
			description: 'Give the year of passing or the issue date (at least one)',
		}),
		mapped({
			displayName: 'Issue Date',
			name: 'issueDate',
			type: 'string',
			default: '',
			placeholder: 'e.g. 2012-05-28',
			description:
				'Issue date of the document; sent as YYYY-MM-DD. Give it or the year of passing.',
		}),
		mapped({
			displayName: 'Name of Board',
			name: 'nameOfBoard',
			type: 'string',
			default: '',
			placeholder: 'e.g. CBSE',
			description: 'Optional: the examination board',
		}),
		{
			version: 1,
			property: {
				displayName: 'Document Label',
				name: 'documentLabel',
				type: 'string',
				required: true,
				default: 'marksheet',
				description: 'Label of the document in the documentList sent to the service',
			},
		},
		// Version 2: empty sends the label of the provider's public samples.
		{
			version: 2,
			property: {
				displayName: 'Document Label',
				name: 'documentLabel',
				type: 'string',
				default: '',
			},
			eachCheck: (check) => {
				const label = DOCUMENT_LABELS[check as keyof typeof DOCUMENT_LABELS];
				return {
					placeholder: `e.g. ${label}`,
					description: `Label of the marksheet in the documentList sent to the service. Empty sends ${label}, the label of the provider’s public documentation.`,
				};
			},
		},
	],
	uses: [DOCUMENT_URL],
	build: (input, check) => {
		const data: IDataObject = { level: EDUCATION_LEVELS[check], ...readDocumentIdentity(input) };
		const board = input.optionalText(
			'Name of Board',
			input.field('nameOfBoard', 'Name of Board', ''),
		);
		if (board) data.nameOfBoard = board;
		const year = input.optionalText(
			'Year of Passing',
			input.field('yearOfPassing', 'Year of Passing', ''),
		);
		if (year !== undefined && !/^\d{4}$/.test(year)) {
			input.problem('Year of Passing', `"${year}" is not a year`, 'Use four digits, e.g. 2012.');
		} else if (year) data.yearOfPassing = year;
		const issueDate = input.field('issueDate', 'Issue Date', '');
		const hasIssueDate = issueDate !== undefined && issueDate !== null && issueDate !== '';
		if (hasIssueDate) data.issueDate = formatDate(input, 'Issue Date', issueDate);
		if (year === undefined && !hasIssueDate) {
			input.problem('Year of Passing', 'give the year of passing or the issue date');
		}
		data.documentList = [
			{
				label: readEducationLabel(input, check),
				url: readText(input, 'documentUrl', 'Document URL'),
			},
		];
		return data;
	},
};
