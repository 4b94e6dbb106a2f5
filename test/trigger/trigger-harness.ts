import { HookContext, WebhookContext } from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeParameters,
	IWebhookData,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import type { CandidateVerificationTrigger } from '../../nodes/CandidateVerificationTrigger/CandidateVerificationTrigger.node';
import { createAdditionalData, nodeTypes, TRIGGER_NODE_TYPE } from '../harness/environment';

export const TRIGGER_NODE_NAME = 'Verification Events';
export const WORKFLOW_ID = 'wf-trigger-1';
export const WORKFLOW_NAME = 'Background checks';
const WEBHOOK_ID = '5b0c9f4e-1d2a-4c3b-9e8f-7a6b5c4d3e2f';
export const PRODUCTION_URL = `http://localhost:5678/webhook/${WEBHOOK_ID}/webhook`;
export const TEST_URL = `http://localhost:5678/webhook-test/${WEBHOOK_ID}/webhook`;

export interface IncomingNotification {
	headers?: Record<string, string | string[]>;
	/** What n8n's body parser left in req.body. */
	body?: unknown;
	/** The unparsed request body, as n8n keeps it in req.rawBody. */
	rawBody?: Buffer;
}

/** The part of an express response the trigger touches, recording what was sent. */
export class RecordedResponse {
	statusCode?: number;

	sentBody?: unknown;

	status(code: number): this {
		this.statusCode = code;
		return this;
	}

	json(body: unknown): this {
		this.sentBody = body;
		return this;
	}

	send(body: unknown): this {
		this.sentBody = body;
		return this;
	}

	end(): this {
		return this;
	}
}

export interface Delivery {
	result: IWebhookResponseData;
	response: RecordedResponse;
	/** JSON of the emitted items (empty when the notification was rejected). */
	items: IDataObject[];
}

/**
 * One trigger node in one workflow, driven through n8n-core's own HookContext and WebhookContext
 * the way n8n's WebhookService does. The Workflow object (and so its static data) lives as long as
 * the harness, like a workflow whose static data n8n stores between activations.
 */
export class TriggerHarness {
	readonly workflow: Workflow;

	readonly node: INode;

	private readonly additionalData: IWorkflowExecuteAdditionalData;

	private readonly nodeType = nodeTypes.getByNameAndVersion(
		TRIGGER_NODE_TYPE,
		1,
	) as CandidateVerificationTrigger;

	constructor(
		parameters: INodeParameters = {},
		additionalData: Partial<IWorkflowExecuteAdditionalData> = {},
	) {
		this.additionalData = createAdditionalData(undefined, additionalData);
		this.node = {
			id: '00000000-0000-4000-8000-0000000000a1',
			name: TRIGGER_NODE_NAME,
			type: TRIGGER_NODE_TYPE,
			typeVersion: 1,
			position: [0, 0],
			webhookId: WEBHOOK_ID,
			parameters,
			credentials: { candidateVerificationApi: { id: 'cred-1', name: 'Candidate Verification' } },
		};
		this.workflow = new Workflow({
			id: WORKFLOW_ID,
			name: WORKFLOW_NAME,
			nodes: [this.node],
			connections: {},
			nodeTypes,
			active: false,
			staticData: {},
		});
	}

	/** The node's static data (a copy, so later changes do not alter what a test captured). */
	get staticData(): IDataObject {
		return JSON.parse(
			JSON.stringify(this.workflow.getStaticData('node', this.node)),
		) as IDataObject;
	}

	/** n8n's logger, the one instance every context of this process hands out. */
	get logger() {
		return this.hookContext('trigger', 'activate', false).logger;
	}

	setStaticData(data: IDataObject): void {
		Object.assign(this.workflow.getStaticData('node', this.node), data);
	}

	private webhookData(isTest: boolean): IWebhookData {
		const description = this.nodeType.description.webhooks![0];
		return {
			httpMethod: 'POST',
			node: this.node.name,
			path: NodeHelpers.getNodeWebhookPath(WORKFLOW_ID, this.node, String(description.path)),
			webhookDescription: description,
			workflowId: WORKFLOW_ID,
			workflowExecuteAdditionalData: this.additionalData,
			webhookId: WEBHOOK_ID,
			isTest,
		};
	}

	hookContext(mode: WorkflowExecuteMode, activation: WorkflowActivateMode, isTest: boolean) {
		return new HookContext(
			this.workflow,
			this.node,
			this.additionalData,
			mode,
			activation,
			this.webhookData(isTest),
		);
	}

	private get methods() {
		return this.nodeType.webhookMethods.default;
	}

	async checkExists(context = this.hookContext('trigger', 'activate', false)): Promise<boolean> {
		return await this.methods.checkExists.call(context);
	}

	/** What n8n does for each webhook when it registers one: checkExists, then create if needed. */
	private async createIfNotExists(context: HookContext): Promise<void> {
		if (!(await this.methods.checkExists.call(context))) {
			await this.methods.create.call(context);
		}
	}

	/** Activation of the workflow (ActiveWorkflowManager: mode 'trigger'). */
	async activate(activation: WorkflowActivateMode = 'activate'): Promise<void> {
		await this.createIfNotExists(this.hookContext('trigger', activation, false));
	}

	/** Deactivation (ActiveWorkflowManager.clearWebhooks: mode 'internal', activation 'update'). */
	async deactivate(context = this.hookContext('internal', 'update', false)): Promise<boolean> {
		return await this.methods.delete.call(context);
	}

	/** "Listen for test event" (TestWebhooks.needsWebhook: mode and activation 'manual', isTest). */
	async listenForTestEvent(): Promise<void> {
		await this.createIfNotExists(this.hookContext('manual', 'manual', true));
	}

	/** End of a test listen (TestWebhooks.deactivateWebhooks: 'internal', 'update', isTest). */
	async stopListening(): Promise<boolean> {
		return await this.methods.delete.call(this.hookContext('internal', 'update', true));
	}

	/** A notification posted to the production URL (mode 'webhook') or the test URL ('manual'). */
	async deliver(notification: IncomingNotification, { test = false } = {}): Promise<Delivery> {
		const response = new RecordedResponse();
		const request = {
			method: 'POST',
			headers: notification.headers ?? {},
			body: notification.body,
			rawBody: notification.rawBody,
			params: {},
			query: {},
		};
		const additionalData = {
			...this.additionalData,
			httpRequest: request,
			httpResponse: response,
		} as unknown as IWorkflowExecuteAdditionalData;
		const context = new WebhookContext(
			this.workflow,
			this.node,
			additionalData,
			test ? 'manual' : 'webhook',
			this.webhookData(test),
			[],
			null,
		);
		const result = await this.nodeType.webhook.call(context);
		const items = (result.workflowData ?? []).flat().map((item) => item.json);
		return { result, response, items };
	}
}
