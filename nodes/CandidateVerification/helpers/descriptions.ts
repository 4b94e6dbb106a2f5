import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** The Operation dropdown of one resource; the first operation is the default. */
export function operationSelector(
	resource: string,
	operations: INodePropertyOptions[],
): INodeProperties {
	const firstOperation = operations[0].value;
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options: operations,
		default: firstOperation,
	};
}
