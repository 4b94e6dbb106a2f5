import type { INodeProperties } from 'n8n-workflow';

import { ACTIONS } from '../../../shared/actions';
import { operationSelector } from '../../helpers/descriptions';
import * as getCheckStatus from './getCheckStatus.operation';
import * as getStatus from './getStatus.operation';

export { getCheckStatus, getStatus };

export const description: INodeProperties[] = [
	operationSelector('transaction', [
		{
			name: 'Get Status',
			value: 'getStatus',
			action: ACTIONS.transactionGetStatus,
			description:
				'Read a candidate’s overall state, each check’s state, the candidate details and the report URL (changes nothing)',
		},
		{
			name: 'Get Check Status',
			value: 'getCheckStatus',
			action: ACTIONS.transactionGetCheckStatus,
			description:
				'Read one check’s state, note, request, response, documents and report URL (changes nothing)',
		},
	]),
	...getCheckStatus.description,
	...getStatus.description,
];
