import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../../shared/descriptions';
import { profileCreateDescription, profileCreateRouting } from './create';

export const profileDescription: INodeProperties[] = [
	operationSelector('profile', [
		{
			name: 'Create',
			value: 'create',
			action: 'Add a candidate to a form',
			description: 'Add a candidate to a form; returns the transaction ID used for submissions',
			routing: profileCreateRouting,
		},
	]),
	...profileCreateDescription,
];
