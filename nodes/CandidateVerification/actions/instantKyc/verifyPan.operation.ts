import type { INodeProperties } from 'n8n-workflow';

import { ACTIONS } from '../../helpers/actions';
import { KYC_PAN_PATH } from '../../helpers/constants';
import {
	compactUpper,
	identifierField,
	kycOperation,
	readIdentifier,
	type IdentifierRule,
} from './shared';

const PAN: IdentifierRule = {
	name: 'pan',
	label: 'PAN',
	what: 'a PAN',
	expected: '5 letters, 4 digits and a letter, e.g. ABCDE1234F',
	pattern: /^[A-Z]{5}\d{4}[A-Z]$/,
	normalise: compactUpper,
};

export const description: INodeProperties[] = [
	identifierField(
		'verifyPan',
		PAN,
		'e.g. ABCDE1234F',
		'The permanent account number to check: 5 letters, 4 digits and a letter (any case; spaces are removed)',
	),
];

export const operation = kycOperation({
	label: ACTIONS.instantKycVerifyPan,
	path: KYC_PAN_PATH,
	fields: [PAN],
	// digiLocker false: a direct check of the number (from the provider's public documentation).
	body: (input) => ({ pan: readIdentifier(input, PAN), digiLocker: false }),
});
