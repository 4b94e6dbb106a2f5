import { ACTIONS } from '../../shared/actions';
import { VERIFICATION_API } from '../../shared/constants';
import { handleResponse } from '../../shared/routing';
import { buildWebhookConfigBody, webhookConfigOutput } from './fields';

export const webhookConfigCreateRouting = {
	request: { method: 'POST' as const, url: `${VERIFICATION_API}/webhook-config` },
	send: { preSend: [buildWebhookConfigBody] },
	output: {
		postReceive: [
			handleResponse(ACTIONS.webhookConfigCreate, function (data) {
				return webhookConfigOutput.call(this, data.id);
			}),
		],
	},
};
