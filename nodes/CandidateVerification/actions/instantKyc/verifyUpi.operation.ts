import { KYC_UPI_PATH } from '../../../shared/constants';
import { billed, identifierCheck } from './shared';
import type { OperationOption } from '../../helpers/descriptions';

export const option: OperationOption = {
	name: 'Verify UPI',
	description: billed(
		'Check a UPI ID (VPA) and read the account holder’s name (accountExists, nameAtBank).',
	),
};

export const { description, operation } = identifierCheck({
	operation: 'verifyUpi',
	label: 'Verify a UPI ID',
	path: KYC_UPI_PATH,
	mappingMode: true,
	rule: {
		name: 'upi',
		label: 'UPI ID',
		aliases: ['vpa'],
		what: 'a UPI ID',
		expected: 'name@handle, e.g. asha.verma@okhdfcbank',
		pattern: /^[A-Za-z0-9._-]+@[A-Za-z][A-Za-z0-9.-]*$/,
		normalise: (text) => text,
	},
	placeholder: 'e.g. asha.verma@okhdfcbank',
	description: 'The UPI ID (VPA) to check, name@handle',
});
