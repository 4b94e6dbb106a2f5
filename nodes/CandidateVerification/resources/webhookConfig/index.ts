import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../../shared/descriptions';
import { webhookConfigCreateRouting } from './create';
import { webhookConfigFields } from './fields';
import { webhookConfigUpdateDescription, webhookConfigUpdateRouting } from './update';

export const webhookConfigDescription: INodeProperties[] = [
	operationSelector('webhookConfig', [
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
	]),
	...webhookConfigUpdateDescription,
	...webhookConfigFields(['create', 'update']),
];
