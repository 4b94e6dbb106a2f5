import { randomBytes } from 'node:crypto';
import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { WEBHOOK_CONFIG_PATH } from '../../shared/constants';
import { serviceRequest } from '../../shared/transport';
import { readRegistration, writeRegistration, type RegistrationKind } from './registration';

const SECRET_BYTES = 32;
/** Path segment of n8n's default test webhook endpoint (N8N_ENDPOINT_WEBHOOK_TEST). */
const TEST_URL_SEGMENT = '/webhook-test/';

function generateSecret(): string {
	return randomBytes(SECRET_BYTES).toString('hex');
}

function currentWebhookUrl(this: IHookFunctions): string {
	const url = this.getNodeWebhookUrl('default');
	if (!url) {
		throw new NodeOperationError(
			this.getNode(),
			'n8n could not determine the webhook URL of this trigger',
		);
	}
	return url;
}

/**
 * n8n runs the lifecycle with the webhook name 'default' for both URLs, so the kind is inferred:
 * a test listen is created in mode 'manual' and its URL is the test URL; its removal runs in mode
 * 'internal' with the test URL. A test URL on a custom test endpoint is still recognised on removal
 * because it is the URL stored in the test slot.
 */
function registrationKind(this: IHookFunctions, url: string, data: IDataObject): RegistrationKind {
	if (this.getMode() === 'manual' || url.includes(TEST_URL_SEGMENT)) return 'test';
	const test = readRegistration(data, 'test');
	const production = readRegistration(data, 'production');
	if (test?.webhookUrl === url && production?.webhookUrl !== url) return 'test';
	return 'production';
}

function trimmedParameter(this: IHookFunctions, name: string): string | undefined {
	const value = String(this.getNodeParameter(name, '') ?? '').trim();
	return value === '' ? undefined : value;
}

/** The configuration ID the user asked this kind of registration to use, if any. */
function chosenConfigurationId(this: IHookFunctions, kind: RegistrationKind): string | undefined {
	if (kind === 'production') return trimmedParameter.call(this, 'webhookConfigurationId');
	const testId = trimmedParameter.call(this, 'options.testWebhookConfigurationId');
	if (testId !== undefined && testId === trimmedParameter.call(this, 'webhookConfigurationId')) {
		throw new NodeOperationError(
			this.getNode(),
			'The test webhook configuration ID must differ from the production one',
			{
				description:
					'Listening for a test event would otherwise point the production configuration at the test URL.',
			},
		);
	}
	return testId;
}

function describeRegistration(this: IHookFunctions, kind: RegistrationKind, state?: 'inactive') {
	const { id, name } = this.getWorkflow();
	return [
		`n8n workflow "${name ?? 'unnamed'}" (${id ?? 'unsaved'})`,
		kind === 'test' ? 'test listener' : undefined,
		state,
	]
		.filter((part) => part !== undefined)
		.join(', ');
}

function configurationPath(configurationId: string): string {
	return `${WEBHOOK_CONFIG_PATH}/${encodeURIComponent(configurationId)}`;
}

/**
 * Resolves false instead of failing when the service answers 404 for a configuration the trigger
 * remembered (e.g. the environment was reset), so that a new one can be created in its place. An
 * ID the user entered is never replaced silently.
 */
async function updateConfiguration(
	this: IHookFunctions,
	configurationId: string,
	body: IDataObject,
	replaceIfGone: boolean,
): Promise<boolean> {
	return await serviceRequest
		.call(this, 'Updating the webhook configuration', {
			method: 'PUT',
			path: configurationPath(configurationId),
			body,
		})
		.then(
			() => true,
			(error: unknown) => {
				const gone = error instanceof NodeApiError && error.httpCode === '404';
				if (replaceIfGone && gone) return false;
				throw error;
			},
		);
}

/** checkExists: answered from static data only, the service cannot list configurations. */
export function isRegistered(this: IHookFunctions): boolean {
	const url = this.getNodeWebhookUrl('default');
	if (!url) return false;
	const data = this.getWorkflowStaticData('node');
	const kind = registrationKind.call(this, url, data);
	const registration = readRegistration(data, kind);
	if (registration?.secret === undefined || registration.webhookUrl !== url) return false;
	const chosenId = chosenConfigurationId.call(this, kind);
	return chosenId === undefined || chosenId === registration.configurationId;
}

/**
 * create: points a configuration at this trigger's URL with a fresh secret. A configuration
 * registered before (or chosen by the user) is updated; one is created only when there is none,
 * because the service has no delete endpoint and every created configuration stays there.
 */
export async function register(this: IHookFunctions): Promise<boolean> {
	const webhookUrl = currentWebhookUrl.call(this);
	const data = this.getWorkflowStaticData('node');
	const kind = registrationKind.call(this, webhookUrl, data);
	const secret = generateSecret();
	const body = {
		endpoint: webhookUrl,
		apiKey: secret,
		description: describeRegistration.call(this, kind),
	};

	const chosenId = chosenConfigurationId.call(this, kind);
	const reusedId = chosenId ?? readRegistration(data, kind)?.configurationId;
	if (reusedId !== undefined) {
		const updated = await updateConfiguration.call(this, reusedId, body, chosenId === undefined);
		if (updated) {
			writeRegistration(data, kind, { configurationId: reusedId, webhookUrl, secret });
			return true;
		}
		this.logger.info(
			`Candidate Verification Trigger: webhook configuration ${reusedId} no longer exists at the service; creating a new one.`,
		);
	}

	const envelope = await serviceRequest.call(this, 'Creating the webhook configuration', {
		method: 'POST',
		path: WEBHOOK_CONFIG_PATH,
		body,
	});
	const createdId = envelope.data?.id;
	if ((typeof createdId !== 'string' && typeof createdId !== 'number') || createdId === '') {
		throw new NodeOperationError(
			this.getNode(),
			'The Candidate Verification Service created a webhook configuration but returned no ID',
			{
				description:
					'Without the ID the configuration cannot be reused. Find its ID with the provider and enter it in "Existing Webhook Configuration ID".',
			},
		);
	}
	const configurationId = String(createdId);
	writeRegistration(data, kind, { configurationId, webhookUrl, secret });
	if (kind === 'test') {
		this.logger.info(
			`Candidate Verification Trigger: created test webhook configuration ${configurationId}. Enter it under Options > Test Webhook Configuration ID to reuse it for later test listens.`,
		);
	}
	return true;
}

/**
 * delete: the service cannot delete a configuration, so the registration is made harmless
 * instead. The secret is forgotten at once (nothing is accepted any more) and the ID kept for
 * reuse. The configuration is then given a random secret nobody knows, so the key the service
 * still held cannot authenticate anything either, wherever an old copy of it survives. That update
 * is best effort: its failure is logged and never blocks deactivation.
 */
export async function unregister(this: IHookFunctions): Promise<boolean> {
	const data = this.getWorkflowStaticData('node');
	const url = this.getNodeWebhookUrl('default') ?? '';
	const kind = registrationKind.call(this, url, data);
	const registration = readRegistration(data, kind);
	if (registration === undefined) return true;

	const { configurationId, webhookUrl, secret } = registration;
	writeRegistration(data, kind, { configurationId, webhookUrl });
	if (secret === undefined) return true;

	try {
		await serviceRequest.call(this, 'Replacing the webhook configuration secret', {
			method: 'PUT',
			path: configurationPath(configurationId),
			body: {
				endpoint: webhookUrl || url,
				apiKey: generateSecret(),
				description: describeRegistration.call(this, kind, 'inactive'),
			},
		});
	} catch (error) {
		this.logger.warn(
			`Candidate Verification Trigger: could not replace the secret of webhook configuration ${configurationId} on deactivation; notifications signed with the old secret are rejected anyway. ${(error as Error).message}`,
		);
	}
	return true;
}
