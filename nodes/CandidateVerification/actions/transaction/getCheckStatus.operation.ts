import type { INodeProperties } from 'n8n-workflow';

import type { OperationDefinition } from '../../engine/operation';
import { ACTIONS } from '../../helpers/actions';
import {
	CHECK_OPTIONS_V2,
	CHECK_STATUS_PATH,
	FORM_VERIFICATION_NAMES,
	SUBMITTABLE_CHECKS,
	SUBMITTABLE_CHECKS_V2,
} from '../../helpers/constants';
import { checkStatusOutput } from '../../helpers/checkStatus';
import { buildStatusQuery, organisationIdField } from './shared';

// Transaction ID is declared with Verification → Submit's fields.
export const description: INodeProperties[] = [
	...[FORM_VERIFICATION_NAMES, CHECK_OPTIONS_V2].map(
		(options, index): INodeProperties => ({
			displayName: 'Check',
			name: 'verificationName',
			type: 'options',
			default: 'bgv-employment',
			options: [...options],
			// Version 2 reads the check by the name Verification → Submit sent.
			description:
				index === 0
					? 'The check to read, one of the checks of the candidate’s form'
					: 'The check to read, by the name Verification → Submit sent for it',
			displayOptions: {
				show: { '@version': [index + 1], resource: ['transaction'], operation: ['getCheckStatus'] },
			},
		}),
	),
	organisationIdField('getCheckStatus'),
];

export const operation: OperationDefinition = {
	label: ACTIONS.transactionGetCheckStatus,
	method: 'GET',
	path: CHECK_STATUS_PATH,
	build: (input) => {
		// Also the submission name of the police check, from an expression.
		const check = input.oneOf(
			'Check',
			input.param('verificationName', 'Check'),
			input.nodeVersion >= 2 ? SUBMITTABLE_CHECKS_V2 : SUBMITTABLE_CHECKS,
		);
		return { ...buildStatusQuery(input), pathParameters: { verificationName: check ?? '' } };
	},
	// The answer's fields, plus reportUrl, verificationId and insufficiencies (one item per check
	// when the service answers a list, as its public documentation shows).
	output: checkStatusOutput,
};
