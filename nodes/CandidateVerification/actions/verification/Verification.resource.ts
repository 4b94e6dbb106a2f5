import type { INodeProperties } from 'n8n-workflow';

import {
	operationFields,
	operationSelector,
	type ResourceOperations,
} from '../../helpers/descriptions';
import * as resolveInsufficiency from './resolveInsufficiency.operation';
import * as submit from './submit.operation';

/** How the Resource selector names the resource. */
export const displayName = 'Verification';

/** The resource's operations by value, in the order its Operation selector lists them. */
export const operations = { submit, resolveInsufficiency } satisfies ResourceOperations;

export const description: INodeProperties[] = [
	operationSelector('verification', operations),
	...operationFields(operations),
];
