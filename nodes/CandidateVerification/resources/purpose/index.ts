import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { PURPOSES_PATH } from '../../shared/constants';
import { operationSelector } from '../../shared/descriptions';
import { serviceRouting } from '../../shared/routing';

/** Listing purposes comes from the provider's public documentation, not the contract. */
export const purposeDescription: INodeProperties[] = [
	operationSelector('purpose', [
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many purposes',
			description: 'List the purposes a form can have (one item per purpose)',
			routing: serviceRouting({
				label: 'Get Purposes',
				request: { method: 'GET', url: PURPOSES_PATH },
				build: () => ({}),
				output: (data) => (Array.isArray(data.list) ? (data.list as IDataObject[]) : []),
			}),
		},
	]),
];
