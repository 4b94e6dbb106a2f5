import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ItemInput } from '../../engine/itemInput';
import type { PreparedRequest } from '../../engine/operation';

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
export function buildWebhookConfig(input: ItemInput): PreparedRequest {
	const endpoint = input.text('Endpoint', input.param('endpoint', 'Endpoint'));
	if (endpoint !== undefined) {
		let protocol: string | undefined;
		try {
			protocol = new URL(endpoint).protocol;
		} catch {
			protocol = undefined;
		}
		if (protocol !== 'http:' && protocol !== 'https:') {
			input.problem('Endpoint', `"${endpoint}" is not an absolute http(s) URL`);
		}
	}
	const apiKey = input.param('apiKey', 'Webhook Secret', '');
	if (typeof apiKey !== 'string' || apiKey.trim() === '') {
		input.problem('Webhook Secret', 'it is required and is empty');
	}
	const body: IDataObject = { endpoint, apiKey: apiKey as string };
	const description = input.optionalText('Description', input.param('description', 'Description'));
	if (description) body.description = description;
	return { body, echo: { endpoint } };
}

/** What Create and Update output: the configuration ID and endpoint, never the secret. */
export function webhookConfigOutput(id: unknown, sent: PreparedRequest): IDataObject {
	return { id: id as IDataObject[string], endpoint: sent.echo?.endpoint };
}
