import type { INodeProperties } from 'n8n-workflow';

import { ACTIONS } from '../../../shared/actions';
import { operationSelector } from '../../helpers/descriptions';
import * as getAll from './getAll.operation';

export { getAll };

export const description: INodeProperties[] = [
	operationSelector('purpose', [
		{
			name: 'Get Many',
			value: 'getAll',
			action: ACTIONS.purposeGetAll,
			description:
				'List the purposes a form can have, one item per purpose with its _id (changes nothing)',
		},
	]),
	...getAll.description,
];
