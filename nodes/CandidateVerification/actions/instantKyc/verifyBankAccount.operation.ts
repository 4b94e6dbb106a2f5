import type { INodeProperties } from 'n8n-workflow';

import { KYC_BANK_ACCOUNT_PATH } from '../../../shared/constants';
import {
	billed,
	compact,
	compactUpper,
	identifierField,
	type IdentifierRule,
	kycOperation,
	readIdentifier,
	showFor,
} from './shared';
import type { OperationOption } from '../../helpers/descriptions';

const ACCOUNT_NUMBER: IdentifierRule = {
	name: 'accountNumber',
	label: 'Account Number',
	aliases: ['account number', 'account'],
	what: 'a bank account number',
	expected: '9 to 18 digits',
	pattern: /^\d{9,18}$/,
	normalise: compact,
};

const IFSC: IdentifierRule = {
	name: 'ifsc',
	label: 'IFSC',
	what: 'an IFSC',
	expected: '4 letters, a zero and 6 letters or digits, e.g. HDFC0001234',
	pattern: /^[A-Z]{4}0[A-Z0-9]{6}$/,
	normalise: compactUpper,
};

export const option: OperationOption = {
	name: 'Verify Bank Account',
	description: billed(
		'Check that a bank account exists and read the name the bank holds (accountExists, nameAtBank). Its path is the one public client code calls (the provider’s pages do not show it).',
	),
};

export const description: INodeProperties[] = [
	identifierField(
		'verifyBankAccount',
		ACCOUNT_NUMBER,
		'e.g. 50100123456789',
		'The bank account number, 9 to 18 digits (spaces are removed). Give it as text: a spreadsheet number loses leading zeros.',
	),
	identifierField(
		'verifyBankAccount',
		IFSC,
		'e.g. HDFC0001234',
		'The branch’s IFSC: 4 letters, a zero and 6 letters or digits (any case)',
	),
	{
		displayName: 'Penny-Less',
		name: 'pennyLess',
		type: 'boolean',
		default: true,
		description:
			'Whether to check the account without depositing a rupee into it (on by default, as in the provider’s sample). Off: a penny-drop check, which deposits a small amount.',
		displayOptions: { show: showFor(['verifyBankAccount']) },
	},
];

export const operation = kycOperation({
	label: 'Verify a bank account',
	path: KYC_BANK_ACCOUNT_PATH,
	mappingMode: true,
	fields: [ACCOUNT_NUMBER, IFSC],
	body: (input) => ({
		accountNumber: readIdentifier(input, ACCOUNT_NUMBER),
		ifsc: readIdentifier(input, IFSC),
		pennyLess: input.boolean('Penny-Less', input.param('pennyLess', 'Penny-Less', true)),
	}),
});
