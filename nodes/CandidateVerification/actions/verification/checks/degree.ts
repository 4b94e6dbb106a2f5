import type { IDataObject } from 'n8n-workflow';

import { DEGREE_LEVELS, DOCUMENT_LABELS } from '../../../../shared/enums';
import {
	documentIdentityFields,
	readDate,
	readDocumentIdentity,
	readText,
	type TypedCheck,
} from './shared';

/** POST_GRADUATE_DIPLOMA → "Post Graduate Diploma", PHD → "PhD". */
function levelLabel(level: string): string {
	if (level === 'PHD') return 'PhD';
	return level
		.split('_')
		.map((word) => word.charAt(0) + word.slice(1).toLowerCase())
		.join(' ');
}

/** bgv-degree, from the provider's public documentation. */
export const degree: TypedCheck = {
	checks: ['bgv-degree'],
	since: 2,
	fields: [
		{
			property: {
				displayName:
					'Fields from the provider’s public documentation. The degree is sent with the label Degree, the marksheet (when given) with the label Marksheet.',
				name: 'degreeNotice',
				type: 'notice',
				default: '',
			},
		},
		{
			mapped: true,
			property: {
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
			},
		},
		...documentIdentityFields('Delhi University'),
		{
			mapped: true,
			property: {
				displayName: 'Issue Date',
				name: 'issueDate',
				type: 'string',
				required: true,
				default: '',
				placeholder: 'e.g. 2016-06-30',
				description:
					'Issue date of the degree; sent as YYYY-MM-DD. DD-MM-YYYY, 30 Jun 2016, sheet serial numbers and date expressions are converted.',
			},
		},
		{
			mapped: true,
			property: {
				displayName: 'Degree Document URL',
				name: 'documentUrl',
				type: 'string',
				required: true,
				default: '',
				placeholder: 'e.g. {{ $json.fileUrl }}',
				description: 'URL of the uploaded degree certificate, as File → Upload returns it',
			},
		},
		{
			mapped: true,
			property: {
				displayName: 'Marksheet URL',
				name: 'marksheetUrl',
				type: 'string',
				default: '',
				placeholder: 'e.g. {{ $json.fileUrl }}',
				description:
					'Optional: URL of the uploaded marksheet, sent with the label Marksheet when given',
			},
		},
	],
	build: (input) => {
		const rawLevel = input.field('level', 'Level');
		// Any case from an expression or a column: "graduate" is GRADUATE.
		const level = input.oneOf(
			'Level',
			typeof rawLevel === 'string' ? rawLevel.trim().toUpperCase() : rawLevel,
			DEGREE_LEVELS,
		);
		const documentList: IDataObject[] = [
			{ label: DOCUMENT_LABELS.degree, url: readText(input, 'documentUrl', 'Degree Document URL') },
		];
		const marksheet = input.optionalText(
			'Marksheet URL',
			input.field('marksheetUrl', 'Marksheet URL', ''),
		);
		if (marksheet) documentList.push({ label: DOCUMENT_LABELS.marksheet, url: marksheet });
		return {
			level,
			...readDocumentIdentity(input),
			issueDate: readDate(input, 'issueDate', 'Issue Date'),
			documentList,
		};
	},
};
