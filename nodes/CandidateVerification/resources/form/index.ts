import type { INodeProperties } from 'n8n-workflow';

import { formCreateDescription, formCreateRouting } from './create';

const showOnlyForForms = { resource: ['form'] };

export const formDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: showOnlyForForms },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a form',
				description: 'Create a reusable form listing the checks candidates go through',
				routing: formCreateRouting,
			},
		],
		default: 'create',
	},
	...formCreateDescription,
];
