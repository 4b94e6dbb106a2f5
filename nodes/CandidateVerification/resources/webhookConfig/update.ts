import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

import { ACTIONS } from '../../shared/actions';
import { VERIFICATION_API } from '../../shared/constants';
import { handleResponse } from '../../shared/routing';
import { requireText } from '../../shared/validation';
import { buildWebhookConfigBody, webhookConfigOutput } from './fields';

export const webhookConfigUpdateDescription: INodeProperties[] = [
	{
		displayName: 'Configuration ID',
		name: 'configId',
		type: 'string',
		required: true,
		default: '',
		description: 'ID returned by Webhook Config → Create',
		displayOptions: { show: { resource: ['webhookConfig'], operation: ['update'] } },
	},
];

async function setConfigUrl(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const configId = requireText(this, 'configId', 'Configuration ID');
	requestOptions.url = `${VERIFICATION_API}/webhook-config/${encodeURIComponent(configId)}`;
	return requestOptions;
}

export const webhookConfigUpdateRouting = {
	request: { method: 'PUT' as const },
	send: { preSend: [setConfigUrl, buildWebhookConfigBody] },
	output: {
		postReceive: [
			handleResponse(ACTIONS.webhookConfigUpdate, function () {
				return webhookConfigOutput.call(this, String(this.getNodeParameter('configId')).trim());
			}),
		],
	},
};
