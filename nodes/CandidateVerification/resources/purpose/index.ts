import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { VERIFICATION_API } from '../../shared/constants';
import { ACTIONS } from '../../shared/actions';
import { operationSelector } from '../../shared/descriptions';
import { handleResponse } from '../../shared/routing';

/** Listing purposes comes from the provider's public documentation, not the contract. */
export const purposeDescription: INodeProperties[] = [
	operationSelector('purpose', [
		{
			name: 'Get Many',
			value: 'getAll',
			action: ACTIONS.purposeGetAll,
			description:
				'List the purposes a form can have, one item per purpose with its _id (changes nothing)',
			routing: {
				request: { method: 'GET', url: `${VERIFICATION_API}/purposes` },
				output: {
					postReceive: [
						handleResponse(ACTIONS.purposeGetAll, (data) =>
							Array.isArray(data.list) ? (data.list as IDataObject[]) : [],
						),
					],
				},
			},
		},
	]),
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
		displayOptions: { show: { resource: ['purpose'], operation: ['getAll'] } },
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { resource: ['purpose'], operation: ['getAll'], returnAll: [false] } },
		// The service returns the whole list; n8n keeps the first ones.
		routing: { output: { maxResults: '={{$value}}' } },
	},
];
