import type { INodeProperties } from 'n8n-workflow';

import { ACTIONS } from '../../helpers/actions';
import { KYC_EMPLOYMENT_HISTORY_PATH } from '../../helpers/constants';
import {
	compact,
	identifierField,
	kycOperation,
	readIdentifier,
	type IdentifierRule,
} from './shared';

const UAN: IdentifierRule = {
	name: 'uan',
	label: 'UAN',
	what: 'a UAN',
	expected: '12 digits, e.g. 100123456789',
	pattern: /^\d{12}$/,
	normalise: compact,
};

export const description: INodeProperties[] = [
	identifierField(
		'getEmploymentHistory',
		UAN,
		'e.g. 100123456789',
		'The candidate’s EPFO Universal Account Number, 12 digits (spaces are removed)',
	),
];

export const operation = kycOperation({
	label: ACTIONS.instantKycGetEmploymentHistory,
	path: KYC_EMPLOYMENT_HISTORY_PATH,
	fields: [UAN],
	body: (input) => ({ uan: readIdentifier(input, UAN) }),
});
