import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { OperationDefinition } from '../../engine/operation';
import { PURPOSES_PATH } from '../../../shared/constants';
import type { OperationOption } from '../../helpers/descriptions';

const showOnlyForGetAll = { resource: ['purpose'], operation: ['getAll'] };

/** Listing purposes comes from the provider's public documentation, not the contract. */
export const option: OperationOption = {
	name: 'Get Many',
	description:
		'List the purposes a form can have, one item per purpose with its _id (changes nothing)',
};

export const description: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
		displayOptions: { show: showOnlyForGetAll },
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { ...showOnlyForGetAll, returnAll: [false] } },
	},
];

export const operation: OperationDefinition = {
	label: 'Get many purposes',
	method: 'GET',
	path: PURPOSES_PATH,
	build: (input) => {
		const returnAll = input.boolean('Return All', input.param('returnAll', 'Return All', false));
		if (returnAll) return {};
		const limit = Number(input.param('limit', 'Limit', 50));
		if (!Number.isInteger(limit) || limit < 1) {
			input.problem('Limit', `${String(limit)} is not a whole number of 1 or more`);
		}
		// The service returns the whole list; the node keeps the first ones.
		return { echo: { limit } };
	},
	output: (data, sent) => {
		const list = Array.isArray(data.list) ? (data.list as IDataObject[]) : [];
		const limit = sent.echo?.limit;
		return typeof limit === 'number' ? list.slice(0, limit) : list;
	},
};
