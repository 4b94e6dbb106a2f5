import type { INodeProperties } from 'n8n-workflow';

import {
	operationFields,
	operationSelector,
	type ResourceOperations,
} from '../../helpers/descriptions';
import * as create from './create.operation';

/** How the Resource selector names the resource. */
export const displayName = 'Form';

/** The resource's operations by value, in the order its Operation selector lists them. */
export const operations = { create } satisfies ResourceOperations;

export const description: INodeProperties[] = [
	operationSelector('form', operations),
	...operationFields(operations),
];
