import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { isAuthentic } from './helpers/authentication';
import { isRegistered, register, unregister } from './helpers/lifecycle';
import { notificationItem } from './helpers/payload';

export class CandidateVerificationTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Candidate Verification Trigger',
		name: 'candidateVerificationTrigger',
		icon: {
			light: 'file:../../icons/candidateVerification.svg',
			dark: 'file:../../icons/candidateVerification.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{$parameter["webhookConfigurationId"] ? "Configuration " + $parameter["webhookConfigurationId"] : "Verification notifications"}}',
		description:
			'Starts the workflow when the Candidate Verification Service posts a notification, e.g. a change of verification state',
		defaults: {
			name: 'Candidate Verification Trigger',
		},
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'candidateVerificationApi',
				required: true,
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'webhook',
			},
		],
		properties: [
			{
				displayName:
					'The service cannot delete webhook configurations. Activating registers one configuration (later activations update the same one, with a new secret); deactivating invalidates its secret but the configuration stays at the service. Test listens use a separate configuration.',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Existing Webhook Configuration ID',
				name: 'webhookConfigurationId',
				type: 'string',
				default: '',
				placeholder: 'e.g. 64f1c2a9e4b0a1b2c3d4e5f6',
				description:
					'ID of a webhook configuration that already exists at the service (for example one created with the Candidate Verification node). Activation then updates that configuration instead of creating a new one. Leave empty to let the trigger create one and reuse it.',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Include Headers',
						name: 'includeHeaders',
						type: 'boolean',
						default: false,
						description:
							'Whether to add the request headers to the output, without the secret headers (x-api-key, x-webhook-key) and without authorization or cookie headers',
					},
					{
						displayName: 'Test Webhook Configuration ID',
						name: 'testWebhookConfigurationId',
						type: 'string',
						default: '',
						description:
							'ID of a configuration to use while listening for a test event; must differ from the production one. n8n starts every test listen without memory of earlier ones, so without this ID each test listen creates a new configuration at the service.',
					},
				],
			},
		],
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return isRegistered.call(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await register.call(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await unregister.call(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		if (!isAuthentic.call(this)) {
			this.getResponseObject().status(401).json({ message: 'Unauthorized' });
			return { noWebhookResponse: true };
		}
		const { includeHeaders } = this.getNodeParameter('options', {}) as { includeHeaders?: boolean };
		const json = await notificationItem.call(this, includeHeaders === true);
		return { workflowData: [[{ json }]] };
	}
}
