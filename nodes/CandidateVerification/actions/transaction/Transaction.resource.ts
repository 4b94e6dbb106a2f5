import type { INodeProperties } from 'n8n-workflow';

import { operationSelector, type ResourceOperations } from '../../helpers/descriptions';
import * as getCheckStatus from './getCheckStatus.operation';
import * as getStatus from './getStatus.operation';

/** How the Resource selector names the resource. */
export const displayName = 'Transaction';

/** The resource's operations by value, in the order its Operation selector lists them. */
export const operations = { getStatus, getCheckStatus } satisfies ResourceOperations;

export const description: INodeProperties[] = [
	operationSelector('transaction', operations),
	// Fields in the order of releases before the selector was derived, so the description is unchanged.
	...getCheckStatus.description,
	...getStatus.description,
];
