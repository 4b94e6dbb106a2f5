import type { INodeProperties } from 'n8n-workflow';

import { ACTIONS } from '../../shared/actions';
import { WEBHOOK_CONFIG_PATH } from '../../shared/constants';
import type { PreparedRequest } from '../../shared/preflight';
import { serviceRouting } from '../../shared/routing';
import type { ItemInput } from '../../shared/validation';
import { buildWebhookConfig, webhookConfigOutput } from './fields';

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

function buildUpdate(input: ItemInput): PreparedRequest {
	const configId = input.text('Configuration ID', input.param('configId', 'Configuration ID'));
	const prepared = buildWebhookConfig(input);
	return {
		...prepared,
		pathParameters: { id: configId ?? '' },
		echo: { ...prepared.echo, configId },
	};
}

export const webhookConfigUpdateRouting = serviceRouting({
	label: ACTIONS.webhookConfigUpdate,
	request: { method: 'PUT', url: `${WEBHOOK_CONFIG_PATH}/:id` },
	build: buildUpdate,
	output: (_data, sent) => webhookConfigOutput(sent.echo?.configId, sent),
	acceptedId: (json) => json.id,
});
