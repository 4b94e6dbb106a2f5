import { KYC_DIN_PATH } from '../../../shared/constants';
import { billed, compact, identifierCheck } from './shared';
import type { OperationOption } from '../../helpers/descriptions';

export const option: OperationOption = {
	name: 'Verify DIN',
	description: billed(
		'Check a director identification number and read the director and their companies (directorData, companyData). Its path is inferred from the provider’s other checks.',
	),
};

export const { description, operation } = identifierCheck({
	operation: 'verifyDin',
	label: 'Verify a director identification number (DIN)',
	path: KYC_DIN_PATH,
	mappingMode: true,
	rule: {
		name: 'din',
		label: 'DIN',
		what: 'a DIN',
		expected: '8 digits, e.g. 01234567',
		pattern: /^\d{8}$/,
		normalise: compact,
	},
	placeholder: 'e.g. 01234567',
	description:
		'The director identification number, 8 digits. Give it as text: a spreadsheet number loses its leading zeros.',
});
