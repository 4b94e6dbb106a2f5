import { KYC_EMPLOYMENT_HISTORY_PATH } from '../../../shared/constants';
import { billed, compact, identifierCheck } from './shared';
import type { OperationOption } from '../../helpers/descriptions';

export const option: OperationOption = {
	name: 'Get Employment History (UAN)',
	description: billed(
		'Read the candidate’s employers from EPFO by UAN (employmentData; no dateOfExit means still employed there).',
	),
};

export const { description, operation } = identifierCheck({
	operation: 'getEmploymentHistory',
	label: 'Get employment history by UAN',
	path: KYC_EMPLOYMENT_HISTORY_PATH,
	mappingMode: true,
	rule: {
		name: 'uan',
		label: 'UAN',
		what: 'a UAN',
		expected: '12 digits, e.g. 100123456789',
		pattern: /^\d{12}$/,
		normalise: compact,
	},
	placeholder: 'e.g. 100123456789',
	description: 'The candidate’s EPFO Universal Account Number, 12 digits (spaces are removed)',
});
