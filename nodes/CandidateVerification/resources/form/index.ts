import type { INodeProperties } from 'n8n-workflow';

import { operationSelector } from '../../shared/descriptions';
import { formCreateDescription, formCreateRouting } from './create';

export const formDescription: INodeProperties[] = [
	operationSelector('form', [
		{
			name: 'Create',
			value: 'create',
			action: 'Create a form',
			description: 'Create a reusable form listing the checks candidates go through',
			routing: formCreateRouting,
		},
	]),
	...formCreateDescription,
];
