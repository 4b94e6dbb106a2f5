import type { INodeProperties } from 'n8n-workflow';

import { ACTIONS } from '../../../shared/actions';
import { operationSelector } from '../../helpers/descriptions';
import * as create from './create.operation';

export { create };

export const description: INodeProperties[] = [
	operationSelector('form', [
		{
			name: 'Create',
			value: 'create',
			action: ACTIONS.formCreate,
			description:
				'Create a form at the service: a reusable list of the checks its candidates go through',
		},
	]),
	...create.description,
];
