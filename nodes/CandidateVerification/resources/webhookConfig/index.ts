import type { INodeProperties } from 'n8n-workflow';

import { webhookConfigCreateRouting } from './create';
import { webhookConfigFields } from './fields';
import { webhookConfigUpdateDescription, webhookConfigUpdateRouting } from './update';

export const webhookConfigDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['webhookConfig'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a webhook configuration',
				description: 'Register an endpoint for verification notifications',
				routing: webhookConfigCreateRouting,
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update a webhook configuration',
				description: 'Change the endpoint, secret or description of a configuration',
				routing: webhookConfigUpdateRouting,
			},
		],
		default: 'create',
	},
	...webhookConfigUpdateDescription,
	...webhookConfigFields(['create', 'update']),
];
