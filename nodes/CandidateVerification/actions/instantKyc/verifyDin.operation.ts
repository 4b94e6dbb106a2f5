import type { INodeProperties } from 'n8n-workflow';

import { ACTIONS } from '../../helpers/actions';
import { KYC_DIN_PATH } from '../../helpers/constants';
import {
	compact,
	identifierField,
	kycOperation,
	readIdentifier,
	type IdentifierRule,
} from './shared';

const DIN: IdentifierRule = {
	name: 'din',
	label: 'DIN',
	what: 'a DIN',
	expected: '8 digits, e.g. 01234567',
	pattern: /^\d{8}$/,
	normalise: compact,
};

export const description: INodeProperties[] = [
	identifierField(
		'verifyDin',
		DIN,
		'e.g. 01234567',
		'The director identification number, 8 digits. Give it as text: a spreadsheet number loses its leading zeros.',
	),
];

export const operation = kycOperation({
	label: ACTIONS.instantKycVerifyDin,
	path: KYC_DIN_PATH,
	fields: [DIN],
	body: (input) => ({ din: readIdentifier(input, DIN) }),
});
