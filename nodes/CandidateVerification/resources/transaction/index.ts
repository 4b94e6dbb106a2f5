import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

import { ACTIONS } from '../../shared/actions';
import {
	CREDENTIAL_TYPE,
	FORM_VERIFICATION_NAMES,
	SUBMITTABLE_CHECKS,
	TRANSACTION_STATUS_PATH,
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
			SUBMITTABLE_CHECKS,
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
			action: ACTIONS.transactionGetStatus,
			description:
				'Read a candidate’s overall state, each check’s state, the candidate details and the report URL (changes nothing)',
			routing: {
				request: { method: 'GET', url: TRANSACTION_STATUS_PATH },
				send: { preSend: [buildStatusQuery] },
				output: { postReceive: [handleResponse(ACTIONS.transactionGetStatus, envelopeData)] },
			},
		},
		{
			name: 'Get Check Status',
			value: 'getCheckStatus',
			action: ACTIONS.transactionGetCheckStatus,
			description:
				'Read one check’s state, note, request, response, documents and report URL (changes nothing)',
			routing: {
				request: { method: 'GET' },
				send: { preSend: [buildStatusQuery] },
				output: { postReceive: [handleResponse(ACTIONS.transactionGetCheckStatus, envelopeData)] },
			},
		},
	]),
	{
		displayName: 'Transaction ID',
		name: 'transactionId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. TXN1a2b3c4d',
		description: 'The candidate’s transaction ID, returned by Profile → Create',
		displayOptions: showFor(['getStatus', 'getCheckStatus']),
	},
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
