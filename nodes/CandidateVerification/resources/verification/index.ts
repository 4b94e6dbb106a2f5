import type { INodeProperties } from 'n8n-workflow';

import { verificationSubmitFields } from './fields';
import { verificationSubmitRouting } from './submit';

export const verificationDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['verification'] } },
		options: [
			{
				name: 'Submit',
				value: 'submit',
				action: 'Submit verification data for a candidate',
				description: 'Submit the data of one check for a candidate (transaction)',
				routing: verificationSubmitRouting,
			},
		],
		default: 'submit',
	},
	...verificationSubmitFields,
];
