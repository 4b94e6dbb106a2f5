import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { mappingModeProperties } from '../engine/mapping';
import type { OperationDefinition } from '../engine/operation';

/** How an operation shows in its resource's Operation selector (its value is its key in the resource's list). */
export interface OperationOption {
	name: string;
	description: string;
}

/**
 * One operation module (`actions/<resource>/<operation>.operation.ts`): its selector option, its
 * fields and its declaration. The selector's action label is the declaration's label, so the node
 * creator and the operation's errors name it alike.
 */
export interface OperationModule {
	option: OperationOption;
	description: INodeProperties[];
	operation: OperationDefinition;
}

/** A resource's operations by their value, in the order its Operation selector lists them. */
export type ResourceOperations = Record<string, OperationModule>;

/** The Operation dropdown of one resource, one option per operation; the first is the default. */
export function operationSelector(
	resource: string,
	operations: ResourceOperations,
): INodeProperties {
	const options: INodePropertyOptions[] = Object.entries(operations).map(
		([value, { option, operation }]) => ({
			name: option.name,
			value,
			action: operation.label,
			description: option.description,
		}),
	);
	const firstOperation = options[0].value;
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options,
		default: firstOperation,
	};
}

/**
 * The Mapping Mode field of a resource's operations that offer it (their declaration's mappingMode),
 * shown for those, in the order of the resource's list; none when none offers it.
 */
export function mappingModeFor(
	resource: string,
	operations: Record<string, Pick<OperationModule, 'operation'>>,
	example: string,
): INodeProperties[] {
	const offering = Object.entries(operations)
		.filter(([, module]) => module.operation.mappingMode)
		.map(([value]) => value);
	if (offering.length === 0) return [];
	return mappingModeProperties({ resource: [resource], operation: offering }, example);
}

/** The fields of a resource's operations, in the order of its list. */
export function operationFields(operations: ResourceOperations): INodeProperties[] {
	return Object.values(operations).flatMap((module) => module.description);
}

/** A resource as the router indexes it: its name in the Resource selector, its operations, its fields. */
export interface ResourceModule<Operations extends ResourceOperations = ResourceOperations> {
	displayName: string;
	operations: Operations;
	description: INodeProperties[];
}

/** A resource whose fields are its Operation selector and its operations' fields, in their order. */
export function resourceOf<Operations extends ResourceOperations>(
	resource: string,
	displayName: string,
	operations: Operations,
): ResourceModule<Operations> {
	return {
		displayName,
		operations,
		description: [operationSelector(resource, operations), ...operationFields(operations)],
	};
}
