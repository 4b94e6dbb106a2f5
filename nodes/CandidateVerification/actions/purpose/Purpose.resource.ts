import type { INodeProperties } from 'n8n-workflow';

import {
	operationFields,
	operationSelector,
	type ResourceOperations,
} from '../../helpers/descriptions';
import * as getAll from './getAll.operation';

/** How the Resource selector names the resource. */
export const displayName = 'Purpose';

/** The resource's operations by value, in the order its Operation selector lists them. */
export const operations = { getAll } satisfies ResourceOperations;

export const description: INodeProperties[] = [
	operationSelector('purpose', operations),
	...operationFields(operations),
];
