import { KYC_PAN_PATH } from '../../../shared/constants';
import { billed, compactUpper, identifierCheck } from './shared';
import type { OperationOption } from '../../helpers/descriptions';

export const option: OperationOption = {
	name: 'Verify PAN',
	description: billed('Check a PAN and read the name on it (fullName).'),
};

export const { description, operation } = identifierCheck({
	operation: 'verifyPan',
	label: 'Verify a PAN',
	path: KYC_PAN_PATH,
	mappingMode: true,
	rule: {
		name: 'pan',
		label: 'PAN',
		what: 'a PAN',
		expected: '5 letters, 4 digits and a letter, e.g. ABCDE1234F',
		pattern: /^[A-Z]{5}\d{4}[A-Z]$/,
		normalise: compactUpper,
	},
	placeholder: 'e.g. ABCDE1234F',
	description:
		'The permanent account number to check: 5 letters, 4 digits and a letter (any case; spaces are removed)',
	// A direct check of the number, not through DigiLocker (from the provider's public documentation).
	constants: { digiLocker: false },
});
