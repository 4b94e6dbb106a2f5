import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { invalidParameter, optionalText, requireText } from '../../shared/validation';

export function webhookConfigFields(operations: string[]): INodeProperties[] {
	const displayOptions = { show: { resource: ['webhookConfig'], operation: operations } };
	return [
		{
			displayName: 'Endpoint',
			name: 'endpoint',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. https://n8n.example.com/webhook/…',
			description: 'URL the service posts notifications to',
			displayOptions,
		},
		{
			displayName: 'Webhook Secret',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description:
				'Secret the service sends back in the x-api-key and x-webhook-key headers of every notification, so the receiver can authenticate it',
			displayOptions,
		},
		{
			displayName: 'Description',
			name: 'description',
			type: 'string',
			default: '',
			placeholder: 'e.g. Hiring workflow notifications',
			description: 'A note kept with the configuration at the service',
			displayOptions,
		},
	];
}

/** Body shared by Create and Update; the secret is validated but never echoed in outputs or errors. */
export async function buildWebhookConfigBody(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const endpoint = requireText(this, 'endpoint', 'Endpoint');
	let parsed: URL | undefined;
	try {
		parsed = new URL(endpoint);
	} catch {
		parsed = undefined;
	}
	if (!parsed || !['http:', 'https:'].includes(parsed.protocol)) {
		throw invalidParameter(this, 'Endpoint', `"${endpoint}" is not an absolute http(s) URL`);
	}
	const apiKey = this.getNodeParameter('apiKey', '');
	if (typeof apiKey !== 'string' || apiKey.trim() === '') {
		throw invalidParameter(this, 'Webhook Secret', 'it is required and is empty');
	}
	const body: IDataObject = { endpoint, apiKey };
	const description = optionalText(this, 'Description', this.getNodeParameter('description', ''));
	if (description) body.description = description;
	requestOptions.body = body;
	return requestOptions;
}

export function webhookConfigOutput(
	this: IExecuteSingleFunctions,
	id: IDataObject[string],
): IDataObject {
	return { id, endpoint: String(this.getNodeParameter('endpoint')).trim() };
}
