import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { refusalReason } from './helpers/authentication';
import { isRegistered, register, unregister } from './helpers/lifecycle';
import {
	EVENT_OPTIONS,
	PASS_UNPLACED,
	passesEventsAndStates,
	placeEvent,
	type NotificationFilters,
} from './helpers/filters';
import { addTransactionDetails, notificationItem } from './helpers/payload';
import { CHECK_STATES } from '../shared/enums';
import { NOTIFICATION_CHECK_OPTIONS } from '../shared/checks';

const FILTERED = {
	webhookResponse: { message: 'Notification received; not one this workflow starts on' },
};

const UNAVAILABLE = {
	message: 'Notification not taken: its check could not be looked up at the service for now',
};

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
			'={{ ($parameter["checks"] || []).length || ($parameter["states"] || []).length || ($parameter["events"] || []).length ? "Filtered verification events" : "Every verification event" }}',
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
					'Publishing the workflow registers its URL with the service, which then posts each verification event here.',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				default: [],
				options: EVENT_OPTIONS,
				description:
					'Start the workflow only for these kinds of notification. Empty: every notification. Other events are answered with 200 (as accepted ones) and start nothing.',
			},
			{
				displayName: 'Checks',
				name: 'checks',
				type: 'multiOptions',
				default: [],
				options: [...NOTIFICATION_CHECK_OPTIONS],
				description:
					'Start the workflow only for events of these checks (the notification’s verificationId). Empty: every check. An insufficiency event whose verificationId is a check’s ID is looked up with or without this filter, other events only with it: the trigger reads the transaction and its checks’ status (Organisation ID of the credential, 10 s at most) and adds checkName. Without this filter an event it cannot place starts the workflow with checkUnknown: true and checkUnknownReason. With it: a lookup that failed for now (no answer, a 5xx, a check read that failed) is answered HTTP 503 and logged as an error; one that cannot succeed without you (no transactionId, no Organisation ID, a 4xx, the transaction read refused) is logged as an error and starts nothing; an ID no check of the transaction has starts nothing (logged). Options → Pass Unplaced Events starts the workflow with checkUnknown instead. Other events are answered with 200 (as accepted ones) and start nothing.',
			},
			{
				displayName: 'New States',
				name: 'states',
				type: 'multiOptions',
				default: [],
				options: [...CHECK_STATES],
				description:
					'Start the workflow only when a check reaches one of these states (the notification’s newState). Empty: every state. With Events empty it applies to every notification; with Events set, to state changes only (insufficiency events pass it). Other events are answered with 200 (as accepted ones) and start nothing.',
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
						displayName: 'Add Transaction Details',
						name: 'addTransactionDetails',
						type: 'boolean',
						default: false,
						description:
							'Whether to read the transaction with Transaction → Get Status’s request and add candidateName, transactionState, reportUrl and the whole transaction to each item (needs the Organisation ID in the credential). reportUrl is the transaction’s report link when the service gives one (older page), else null: per-check reports come with Transaction → Get Check Status.',
					},
					{
						displayName: 'Include Headers',
						name: 'includeHeaders',
						type: 'boolean',
						default: false,
						description:
							'Whether to add the request headers to the output, without the secret headers (x-api-key, x-webhook-key) and without authorization or cookie headers',
					},
					{
						displayName: 'Pass Unplaced Events',
						name: PASS_UNPLACED,
						type: 'boolean',
						default: false,
						description:
							'Whether an event the Checks filter cannot place (its verificationId is a check’s ID the trigger could not look up or find among the transaction’s checks) starts the workflow, with checkUnknown: true and checkUnknownReason. Off: it is logged and starts nothing, or is answered HTTP 503 when the lookup failed for now (see Checks). Without a Checks filter such events always start the workflow.',
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
		const refused = refusalReason.call(this);
		if (refused !== undefined) {
			this.logger.warn(
				`Candidate Verification Trigger: refused a notification (HTTP 401): ${refused}`,
			);
			this.getResponseObject().status(401).json({ message: 'Unauthorized' });
			return { noWebhookResponse: true };
		}
		const options = this.getNodeParameter('options', {}) as {
			includeHeaders?: boolean;
			addTransactionDetails?: boolean;
			[PASS_UNPLACED]?: boolean;
		};
		const notification = await notificationItem.call(this, options.includeHeaders === true);
		const filters: NotificationFilters = {
			events: this.getNodeParameter('events', []) as string[],
			checks: this.getNodeParameter('checks', []) as string[],
			states: this.getNodeParameter('states', []) as string[],
		};
		// Answered 200 like an accepted one: filtering is the user's choice, not a failure to report to
		// the service (whose delivery retry policy is not published).
		if (!passesEventsAndStates(notification, filters)) return FILTERED;
		const placement = await placeEvent.call(
			this,
			notification,
			filters.checks,
			options[PASS_UNPLACED] === true,
		);
		if (placement.outcome === 'filtered') return FILTERED;
		if (placement.outcome === 'unavailable') {
			// Not taken: a 200 would tell the service the event was delivered. Answered as the 401 is,
			// through the response object, so no execution starts.
			this.getResponseObject().status(503).json(UNAVAILABLE);
			return { noWebhookResponse: true };
		}
		const { item, transaction } = placement;
		const json = options.addTransactionDetails
			? await addTransactionDetails.call(this, item, transaction)
			: item;
		return { workflowData: [[{ json }]] };
	}
}
