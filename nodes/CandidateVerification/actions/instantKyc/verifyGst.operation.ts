import type { INodeProperties } from 'n8n-workflow';

import { ACTIONS } from '../../helpers/actions';
import { KYC_GST_PATH } from '../../helpers/constants';
import {
	compactUpper,
	identifierField,
	kycOperation,
	readIdentifier,
	type IdentifierRule,
} from './shared';

const GSTIN: IdentifierRule = {
	name: 'gst',
	label: 'GSTIN',
	aliases: ['gst'],
	what: 'a GSTIN',
	expected:
		'15 characters: 2 digits (the state), the PAN, an entity character, Z and a check character, e.g. 27ABCDE1234F1Z5',
	pattern: /^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/,
	normalise: compactUpper,
};

export const description: INodeProperties[] = [
	identifierField(
		'verifyGst',
		GSTIN,
		'e.g. 27ABCDE1234F1Z5',
		'The GST identification number to check, 15 characters (any case; spaces are removed)',
	),
];

export const operation = kycOperation({
	label: ACTIONS.instantKycVerifyGst,
	path: KYC_GST_PATH,
	fields: [GSTIN],
	body: (input) => ({ gst: readIdentifier(input, GSTIN) }),
});
