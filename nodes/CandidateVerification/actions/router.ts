import type { IExecuteFunctions, INodeExecutionData, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { runOperation } from '../engine/runOperation';
import type { OperationModule, ResourceModule, ResourceOperations } from '../helpers/descriptions';
import * as file from './file/File.resource';
import * as form from './form/Form.resource';
import * as instantKyc from './instantKyc/InstantKyc.resource';
import * as profile from './profile/Profile.resource';
import * as purpose from './purpose/Purpose.resource';
import * as transaction from './transaction/Transaction.resource';
import * as verification from './verification/Verification.resource';
import * as webhookConfig from './webhookConfig/WebhookConfig.resource';

/**
 * Every resource by its value, each with its own list of operations: the node's Resource and
 * Operation selectors are built from the same lists, so an option without an operation cannot be
 * written. Listed in the order of their fields in the node.
 */
export const RESOURCES = {
	form,
	profile,
	verification,
	file,
	webhookConfig,
	purpose,
	transaction,
	instantKyc,
} satisfies Record<string, ResourceModule>;

export type ResourceValue = keyof typeof RESOURCES;

/** The Resource selector's options, by name (the editor's order). */
export function resourceOptions(): INodePropertyOptions[] {
	return Object.entries(RESOURCES)
		.map(([value, { displayName }]) => ({ name: displayName, value }))
		.sort((one, other) => (one.name < other.name ? -1 : one.name > other.name ? 1 : 0));
}

/** The operation a resource's and an operation's value name, if the node has it. */
export function findOperation(resource: string, operation: string): OperationModule | undefined {
	if (!Object.prototype.hasOwnProperty.call(RESOURCES, resource)) return undefined;
	const operations: ResourceOperations = RESOURCES[resource as ResourceValue].operations;
	return Object.prototype.hasOwnProperty.call(operations, operation)
		? operations[operation]
		: undefined;
}

/** Runs the chosen operation on all input items with the node's one engine. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const chosen = findOperation(resource, operation);
	if (!chosen) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of the resource "${resource}" is not supported`,
		);
	}
	return await runOperation.call(this, chosen.operation);
}
