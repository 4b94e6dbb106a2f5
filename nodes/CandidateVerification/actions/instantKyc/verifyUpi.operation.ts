import type { INodeProperties } from 'n8n-workflow';

import { ACTIONS } from '../../helpers/actions';
import { KYC_UPI_PATH } from '../../helpers/constants';
import { identifierField, kycOperation, readIdentifier, type IdentifierRule } from './shared';

const UPI: IdentifierRule = {
	name: 'upi',
	label: 'UPI ID',
	aliases: ['vpa'],
	what: 'a UPI ID',
	expected: 'name@handle, e.g. asha.verma@okhdfcbank',
	pattern: /^[A-Za-z0-9._-]+@[A-Za-z][A-Za-z0-9.-]*$/,
	normalise: (text) => text,
};

export const description: INodeProperties[] = [
	identifierField(
		'verifyUpi',
		UPI,
		'e.g. asha.verma@okhdfcbank',
		'The UPI ID (VPA) to check, name@handle',
	),
];

export const operation = kycOperation({
	label: ACTIONS.instantKycVerifyUpi,
	path: KYC_UPI_PATH,
	fields: [UPI],
	body: (input) => ({ upi: readIdentifier(input, UPI) }),
});
