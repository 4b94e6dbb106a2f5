import type { INodeProperties } from 'n8n-workflow';

import { profileCreateDescription, profileCreateRouting } from './create';

export const profileDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['profile'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Add a candidate to a form',
				description: 'Add a candidate to a form; returns the transaction ID used for submissions',
				routing: profileCreateRouting,
			},
		],
		default: 'create',
	},
	...profileCreateDescription,
];
