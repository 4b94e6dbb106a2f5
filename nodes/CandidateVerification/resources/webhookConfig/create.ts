import { ACTIONS } from '../../shared/actions';
import { WEBHOOK_CONFIG_PATH } from '../../shared/constants';
import { serviceRouting } from '../../shared/routing';
import { buildWebhookConfig, webhookConfigOutput } from './fields';

export const webhookConfigCreateRouting = serviceRouting({
	label: ACTIONS.webhookConfigCreate,
	request: { method: 'POST', url: WEBHOOK_CONFIG_PATH },
	build: buildWebhookConfig,
	output: (data, sent) => webhookConfigOutput(data.id, sent),
	acceptedId: (json) => json.id,
});
