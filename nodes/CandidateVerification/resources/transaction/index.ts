import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ACTIONS } from '../../shared/actions';
import {
	CHECK_STATUS_PATH,
	CREDENTIAL_TYPE,
	FORM_VERIFICATION_NAMES,
	SUBMITTABLE_CHECKS,
	TRANSACTION_STATUS_PATH,
} from '../../shared/constants';
import { operationSelector } from '../../shared/descriptions';
import type { PreparedRequest } from '../../shared/preflight';
import { envelopeData, serviceRouting } from '../../shared/routing';
import type { ItemInput } from '../../shared/validation';

/** Also the submission name of the police check, from an expression. */
const CHECK_NAMES = SUBMITTABLE_CHECKS;

/** Transaction status comes from the provider's public documentation, not the contract. */
const showFor = (operations: string[]) => ({
	show: { resource: ['transaction'], operation: operations },
});

function buildStatusQuery(input: ItemInput): PreparedRequest {
	const txnId = input.text('Transaction ID', input.param('transactionId', 'Transaction ID'));
	const orgId = input.optionalText('Organisation ID', input.param('orgId', 'Organisation ID', ''));
	const operation = input.param('operation', 'Operation');
	const check =
		operation === 'getCheckStatus'
			? input.oneOf('Check', input.param('verificationName', 'Check'), CHECK_NAMES)
			: undefined;
	return {
		qs: { orgId, txnId },
		pathParameters: check ? { verificationName: check } : undefined,
	};
}

/** The Organisation ID of the node, else the credential's. */
async function addOrgId(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const qs = (requestOptions.qs ?? {}) as IDataObject;
	if (!qs.orgId) {
		const { orgId } = await this.getCredentials(CREDENTIAL_TYPE);
		if (typeof orgId !== 'string' || orgId.trim() === '') {
			throw new NodeOperationError(
				this.getNode(),
				`Invalid "Organisation ID" in item ${this.getItemIndex()}: it is empty here and in the credential`,
				{
					itemIndex: this.getItemIndex(),
					description: 'Set the Organisation ID in the credential or in this node.',
				},
			);
		}
		qs.orgId = orgId.trim();
	}
	requestOptions.qs = { orgId: qs.orgId, txnId: qs.txnId };
	return requestOptions;
}

const statusRouting = (label: string, url: string) =>
	serviceRouting({
		label,
		request: { method: 'GET', url },
		build: buildStatusQuery,
		preSend: [addOrgId],
		output: envelopeData,
	});

export const transactionDescription: INodeProperties[] = [
	operationSelector('transaction', [
		{
			name: 'Get Status',
			value: 'getStatus',
			action: ACTIONS.transactionGetStatus,
			description:
				'Read a candidate’s overall state, each check’s state, the candidate details and the report URL (changes nothing)',
			routing: statusRouting(ACTIONS.transactionGetStatus, TRANSACTION_STATUS_PATH),
		},
		{
			name: 'Get Check Status',
			value: 'getCheckStatus',
			action: ACTIONS.transactionGetCheckStatus,
			description:
				'Read one check’s state, note, request, response, documents and report URL (changes nothing)',
			routing: statusRouting(ACTIONS.transactionGetCheckStatus, CHECK_STATUS_PATH),
		},
	]),
	// Transaction ID is declared with Verification → Submit's fields.
	{
		displayName: 'Check',
		name: 'verificationName',
		type: 'options',
		default: 'bgv-employment',
		options: [...FORM_VERIFICATION_NAMES],
		description: 'The check to read, one of the checks of the candidate’s form',
		displayOptions: showFor(['getCheckStatus']),
	},
	{
		displayName: 'Organisation ID',
		name: 'orgId',
		type: 'string',
		default: '',
		placeholder: 'e.g. 64f1c2a9e4b0a1b2c3d4e5f6',
		description:
			'Your organisation’s ID at the service. Leave empty to use the one of the credential.',
		displayOptions: showFor(['getStatus', 'getCheckStatus']),
	},
];
