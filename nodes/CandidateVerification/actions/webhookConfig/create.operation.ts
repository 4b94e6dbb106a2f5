import { duplicateProtectionFields } from '../../engine/duplicateProtection/fields';
import type { OperationDefinition } from '../../engine/operation';
import { WEBHOOK_CONFIG_PATH } from '../../../shared/constants';
import { buildWebhookConfig, webhookConfigFields, webhookConfigOutput } from './fields';
import type { OperationOption } from '../../helpers/descriptions';

export const option: OperationOption = {
	name: 'Create',
	description:
		'Create a webhook configuration at the service: it will post verification notifications to the endpoint',
};

export const description = [
	...webhookConfigFields(['create']),
	...duplicateProtectionFields(
		{ resource: ['webhookConfig'], operation: ['create'] },
		'Configuration ID',
	),
];

export const operation: OperationDefinition = {
	label: 'Create a webhook configuration',
	method: 'POST',
	path: WEBHOOK_CONFIG_PATH,
	build: buildWebhookConfig,
	output: (data, sent) => webhookConfigOutput(data.id, sent),
	acceptedIdField: 'id',
	duplicateProtection: {},
};
