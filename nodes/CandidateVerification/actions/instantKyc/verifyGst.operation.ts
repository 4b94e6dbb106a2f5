import { KYC_GST_PATH } from '../../../shared/constants';
import { billed, compactUpper, identifierCheck } from './shared';
import type { OperationOption } from '../../helpers/descriptions';

export const option: OperationOption = {
	name: 'Verify GST',
	description: billed(
		'Check a GSTIN and read the registration (legalName, tradeName, status, address…).',
	),
};

export const { description, operation } = identifierCheck({
	operation: 'verifyGst',
	label: 'Verify a GSTIN',
	path: KYC_GST_PATH,
	mappingMode: true,
	rule: {
		name: 'gst',
		label: 'GSTIN',
		aliases: ['gst'],
		what: 'a GSTIN',
		expected:
			'15 characters: 2 digits (the state), the PAN, an entity character, Z and a check character, e.g. 27ABCDE1234F1Z5',
		pattern: /^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/,
		normalise: compactUpper,
	},
	placeholder: 'e.g. 27ABCDE1234F1Z5',
	// The page's invalid GSTIN: `{ message }` under HTTP 200, the service's verdict on a GSTIN of the
	// right form (checked before sending), answered and billed: a negative result, never an error
	// whose advice would call it again.
	messageOnlyIsNegative: true,
	description:
		'The GST identification number to check, 15 characters (any case; spaces are removed)',
});
