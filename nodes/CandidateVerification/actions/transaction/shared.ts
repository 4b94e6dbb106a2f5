import type { INodeProperties } from 'n8n-workflow';

import type { ItemInput } from '../../engine/itemInput';
import type { PreparedRequest } from '../../engine/operation';

/** Transaction status comes from the provider's public documentation, not the contract. */
export function organisationIdField(operation: string, resource = 'transaction'): INodeProperties {
	return {
		displayName: 'Organisation ID',
		name: 'orgId',
		type: 'string',
		default: '',
		placeholder: 'e.g. 64f1c2a9e4b0a1b2c3d4e5f6',
		description:
			'Your organisation’s ID at the service. Leave empty to use the one of the credential.',
		displayOptions: { show: { resource: [resource], operation: [operation] } },
	};
}

/** The organisation ID of the node, else of the credential; undefined when both are empty. */
export function optionalOrganisationId(input: ItemInput): string | undefined {
	return (
		input.optionalText('Organisation ID', input.param('orgId', 'Organisation ID', '')) ??
		input.optionalText('Organisation ID', input.credentials.orgId)
	);
}

/** The organisation ID of the node, else of the credential; a problem when both are empty. */
export function readOrganisationId(input: ItemInput): string | undefined {
	const orgId = optionalOrganisationId(input);
	if (orgId === undefined) {
		input.problem(
			'Organisation ID',
			'it is empty here and in the credential',
			'Set the Organisation ID in the credential or in this node.',
		);
	}
	return orgId;
}

/** The query of both status reads: the transaction and the organisation (node, else credential). */
export function buildStatusQuery(input: ItemInput): PreparedRequest {
	const txnId = input.text('Transaction ID', input.param('transactionId', 'Transaction ID'));
	return { qs: { orgId: readOrganisationId(input), txnId } };
}
