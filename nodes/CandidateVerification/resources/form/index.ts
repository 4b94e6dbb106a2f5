import type { INodeProperties } from 'n8n-workflow';

import { ACTIONS } from '../../shared/actions';
import { operationSelector } from '../../shared/descriptions';
import { formCreateDescription, formCreateRouting } from './create';

export const formDescription: INodeProperties[] = [
	operationSelector('form', [
		{
			name: 'Create',
			value: 'create',
			action: ACTIONS.formCreate,
			description:
				'Create a form at the service: a reusable list of the checks its candidates go through',
			routing: formCreateRouting,
		},
	]),
	...formCreateDescription,
];
