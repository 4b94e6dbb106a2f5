import type { INodeProperties } from 'n8n-workflow';

import { ACTIONS } from '../../shared/actions';
import { operationSelector } from '../../shared/descriptions';
import { webhookConfigCreateRouting } from './create';
import { webhookConfigFields } from './fields';
import { webhookConfigUpdateDescription, webhookConfigUpdateRouting } from './update';

export const webhookConfigDescription: INodeProperties[] = [
	operationSelector('webhookConfig', [
		{
			name: 'Create',
			value: 'create',
			action: ACTIONS.webhookConfigCreate,
			description:
				'Create a webhook configuration at the service: it will post verification notifications to the endpoint',
			routing: webhookConfigCreateRouting,
		},
		{
			name: 'Update',
			value: 'update',
			action: ACTIONS.webhookConfigUpdate,
			description:
				'Repoint an existing webhook configuration: replaces its endpoint, secret and description',
			routing: webhookConfigUpdateRouting,
		},
	]),
	...webhookConfigUpdateDescription,
	...webhookConfigFields(['create', 'update']),
];
