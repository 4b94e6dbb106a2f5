import type { INodeProperties } from 'n8n-workflow';

import { ACTIONS } from '../../../shared/actions';
import { operationSelector } from '../../helpers/descriptions';
import * as create from './create.operation';

export { create };

export const description: INodeProperties[] = [
	operationSelector('profile', [
		{
			name: 'Create',
			value: 'create',
			action: ACTIONS.profileCreate,
			description:
				'Create a candidate on a form at the service; returns the transaction ID that submissions and status reads use',
		},
	]),
	...create.description,
];
