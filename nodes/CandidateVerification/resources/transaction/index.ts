import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

import {
	CREDENTIAL_TYPE,
	SUBMISSION_VERIFICATION_NAMES,
	VERIFICATION_API,
} from '../../shared/constants';
import { operationSelector } from '../../shared/descriptions';
import { envelopeData, handleResponse } from '../../shared/routing';
import { invalidParameter, optionalText, requireOneOf, requireText } from '../../shared/validation';

/** Transaction status comes from the provider's public documentation, not the contract. */
const showFor = (operations: string[]) => ({
	show: { resource: ['transaction'], operation: operations },
});

async function buildStatusQuery(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const txnId = requireText(this, 'transactionId', 'Transaction ID');
	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	const orgId =
		optionalText(this, 'Organisation ID', this.getNodeParameter('orgId', '')) ??
		optionalText(this, 'Organisation ID (credential)', credentials.orgId);
	if (!orgId) {
		throw invalidParameter(
			this,
			'Organisation ID',
			'it is empty here and in the credential',
			'Set the Organisation ID in the credential or in this node.',
		);
	}
	const operation = this.getNodeParameter('operation') as string;
	if (operation === 'getCheckStatus') {
		const check = requireOneOf(
			this,
			'Check',
			this.getNodeParameter('verificationName', ''),
			SUBMISSION_VERIFICATION_NAMES.map(({ value }) => value),
		);
		requestOptions.url = `${VERIFICATION_API}/transactions/${encodeURIComponent(check)}/info`;
	}
	requestOptions.qs = { ...(requestOptions.qs ?? {}), orgId, txnId };
	return requestOptions;
}

export const transactionDescription: INodeProperties[] = [
	operationSelector('transaction', [
		{
			name: 'Get Status',
			value: 'getStatus',
			action: 'Get the status of a transaction',
			description:
				'Overall state, each check’s state and the report URL of a candidate (from the provider public documentation)',
			routing: {
				request: { method: 'GET', url: `${VERIFICATION_API}/transactions/info` },
				send: { preSend: [buildStatusQuery] },
				output: { postReceive: [handleResponse('Get Transaction Status', envelopeData)] },
			},
		},
		{
			name: 'Get Check Status',
			value: 'getCheckStatus',
			action: 'Get the status of one check',
			description:
				'State, request, response, documents and report URL of one check (from the provider public documentation)',
			routing: {
				request: { method: 'GET' },
				send: { preSend: [buildStatusQuery] },
				output: { postReceive: [handleResponse('Get Check Status', envelopeData)] },
			},
		},
	]),
	{
		displayName: 'Transaction ID',
		name: 'transactionId',
		type: 'string',
		required: true,
		default: '',
		description: 'Output of Profile → Create',
		displayOptions: showFor(['getStatus', 'getCheckStatus']),
	},
	{
		displayName: 'Check',
		name: 'verificationName',
		type: 'options',
		default: 'bgv-employment',
		options: [...SUBMISSION_VERIFICATION_NAMES],
		displayOptions: showFor(['getCheckStatus']),
	},
	{
		displayName: 'Organisation ID',
		name: 'orgId',
		type: 'string',
		default: '',
		description: 'Leave empty to use the Organisation ID of the credential',
		displayOptions: showFor(['getStatus', 'getCheckStatus']),
	},
];
