import type { INodeProperties } from 'n8n-workflow';

import { ACTIONS } from '../../shared/actions';
import { operationSelector } from '../../shared/descriptions';
import { profileCreateDescription, profileCreateRouting } from './create';

export const profileDescription: INodeProperties[] = [
	operationSelector('profile', [
		{
			name: 'Create',
			value: 'create',
			action: ACTIONS.profileCreate,
			description:
				'Create a candidate on a form at the service; returns the transaction ID that submissions and status reads use',
			routing: profileCreateRouting,
		},
	]),
	...profileCreateDescription,
];
