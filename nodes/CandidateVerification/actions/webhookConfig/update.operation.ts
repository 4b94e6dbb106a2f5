import type { INodeProperties } from 'n8n-workflow';

import type { ItemInput } from '../../engine/itemInput';
import type { OperationDefinition, PreparedRequest } from '../../engine/operation';
import { WEBHOOK_CONFIG_PATH } from '../../../shared/constants';
import { buildWebhookConfig, webhookConfigFields, webhookConfigOutput } from './fields';
import type { OperationOption } from '../../helpers/descriptions';

export const option: OperationOption = {
	name: 'Update',
	description:
		'Repoint an existing webhook configuration: replaces its endpoint, secret and description',
};

export const description: INodeProperties[] = [
	{
		displayName: 'Configuration ID',
		name: 'configId',
		type: 'string',
		required: true,
		default: '',
		description: 'ID returned by Webhook Config → Create',
		displayOptions: { show: { resource: ['webhookConfig'], operation: ['update'] } },
	},
	...webhookConfigFields(['update']),
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

export const operation: OperationDefinition = {
	label: 'Update a webhook configuration',
	method: 'PUT',
	path: `${WEBHOOK_CONFIG_PATH}/:id`,
	build: buildUpdate,
	output: (_data, sent) => webhookConfigOutput(sent.echo?.configId, sent),
	acceptedIdField: 'id',
};
