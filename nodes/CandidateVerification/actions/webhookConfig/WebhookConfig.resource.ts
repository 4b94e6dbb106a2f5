import type { INodeProperties } from 'n8n-workflow';

import { ACTIONS } from '../../../shared/actions';
import { operationSelector } from '../../helpers/descriptions';
import * as create from './create.operation';
import * as update from './update.operation';

export { create, update };

export const description: INodeProperties[] = [
	operationSelector('webhookConfig', [
		{
			name: 'Create',
			value: 'create',
			action: ACTIONS.webhookConfigCreate,
			description:
				'Create a webhook configuration at the service: it will post verification notifications to the endpoint',
		},
		{
			name: 'Update',
			value: 'update',
			action: ACTIONS.webhookConfigUpdate,
			description:
				'Repoint an existing webhook configuration: replaces its endpoint, secret and description',
		},
	]),
	...create.description,
	...update.description,
];
