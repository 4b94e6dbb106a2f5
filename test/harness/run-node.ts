import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	IRun,
	ITaskData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { DeduplicationStore, useDeduplicationStore } from './deduplication-store';
import {
	ACTION_NODE_TYPE,
	createAdditionalData,
	initBinaryDataService,
	ITEMS_SOURCE_TYPE,
	nodeTypes,
} from './environment';

export const NODE_NAME = 'Candidate Verification';

const ON_ERROR = {
	false: 'stopWorkflow',
	true: 'continueRegularOutput',
	errorOutput: 'continueErrorOutput',
} as const satisfies Record<string, INode['onError']>;

/** Every run is an execution of its own unless a test says otherwise. */
let executions = 0;

export interface RunOptions {
	/** Items the node receives, as a spreadsheet row or an ATS record would arrive. */
	items?: IDataObject[];
	parameters: INodeParameters;
	/**
	 * Settings → On Error: true is Continue (the error items on the one output), 'errorOutput' is
	 * Continue (using error output); Stop Workflow when not given.
	 */
	continueOnFail?: boolean | 'errorOutput';
	/** Settings → Execute Once: n8n runs the node on the first item only. */
	executeOnce?: boolean;
	credentials?: ICredentialDataDecryptedObject;
	/** The workflow's time zone (Settings → Timezone); n8n's default when not given. */
	timezone?: string;
	/** The execution's ID (runs with the same ID are tries of one execution). */
	executionId?: string;
	/**
	 * Settings → Retry On Fail: n8n runs the node again after it failed, up to `maxTries` times,
	 * `waitBetweenTries` ms apart (1 by default here: n8n reads 0 as 1000 ms, which only slowed the tests).
	 */
	retryOnFail?: { maxTries: number; waitBetweenTries?: number };
	/** Another node type of the harness in place of Candidate Verification (e.g. the perf guard's baseline). */
	nodeType?: string;
	/**
	 * n8n's deduplication store (n8n's database) as it stands when the run starts: runs that share
	 * one are executions of one workflow. A new, empty one when not given.
	 */
	deduplicationStore?: DeduplicationStore;
	/** The workflow's static data, as n8n loads it for a production execution (kept across runs). */
	staticData?: IDataObject;
	/**
	 * The node's version (typeVersion). 1 when not given: the version saved workflows and the
	 * tests written before version 2 use; new nodes are created on version 2.
	 */
	typeVersion?: number;
	/** The node's ID (n8n keys its deduplication record by it): another ID is another node. */
	nodeId?: string;
	/** n8n's execution mode (default `manual`: started in the editor). */
	mode?: WorkflowExecuteMode;
	/** The ID of the n8n credential the node uses ('cred-1' when not given). */
	credentialId?: string;
	/** Given the execution's stop (a person pressing Stop: n8n cancels it and aborts its requests). */
	onStarted?: (stop: () => void) => void;
}

export interface NodeRunResult {
	run: IRun;
	task: ITaskData;
	/** Output items of the node under test (main output 0). */
	items: INodeExecutionData[];
	/** Items n8n routed to the error output (On Error → Continue (using error output)). */
	errorItems: INodeExecutionData[];
	/** The error the node failed with, when it failed. */
	error: ITaskData['error'];
}

/**
 * Runs a two-node workflow (items source → Candidate Verification) through n8n's own
 * WorkflowExecute, with the credential applied by its `authenticate` definition.
 */
export async function runActionNode(options: RunOptions): Promise<NodeRunResult> {
	await initBinaryDataService();
	await useDeduplicationStore(options.deduplicationStore ?? new DeduplicationStore());
	const nodes: INode[] = [
		{
			id: '00000000-0000-4000-8000-000000000001',
			name: 'Items',
			type: ITEMS_SOURCE_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: { items: JSON.stringify(options.items ?? [{}]) },
		},
		{
			id: options.nodeId ?? '00000000-0000-4000-8000-000000000002',
			name: NODE_NAME,
			type: options.nodeType ?? ACTION_NODE_TYPE,
			typeVersion: options.typeVersion ?? 1,
			position: [200, 0],
			parameters: options.parameters,
			credentials: {
				candidateVerificationApi: {
					id: options.credentialId ?? 'cred-1',
					name: 'Candidate Verification',
				},
			},
			onError: ON_ERROR[String(options.continueOnFail ?? false) as keyof typeof ON_ERROR],
			...(options.executeOnce ? { executeOnce: true } : {}),
			...(options.retryOnFail
				? {
						retryOnFail: true,
						maxTries: options.retryOnFail.maxTries,
						waitBetweenTries: options.retryOnFail.waitBetweenTries ?? 1,
					}
				: {}),
		},
	];
	const workflow = new Workflow({
		id: 'wf-test',
		name: 'test',
		nodes,
		connections: { Items: { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] } },
		nodeTypes,
		active: false,
		settings: { executionOrder: 'v1', ...(options.timezone ? { timezone: options.timezone } : {}) },
		...(options.staticData ? { staticData: options.staticData } : {}),
	});

	const executionId = options.executionId ?? `exec-${++executions}`;
	const mode = options.mode ?? 'manual';
	const hooks = new ExecutionLifecycleHooks(mode, executionId, {
		id: 'wf-test',
		name: 'test',
		nodes,
		connections: {},
		active: false,
		activeVersionId: null,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		settings: {},
	} as never);
	const additionalData = createAdditionalData(options.credentials, {
		hooks,
		executionId,
	} as never);
	const execution = new WorkflowExecute(additionalData, mode);
	const running = execution.run({ workflow, startNode: workflow.getNode('Items')! });
	options.onStarted?.(() => running.cancel());
	const run = await running;

	const task = run.data.resultData.runData[NODE_NAME]?.[0];
	if (!task) {
		throw new Error(
			`the node did not run: ${JSON.stringify(run.data.resultData.error ?? run.data.resultData)}`,
		);
	}
	const [items = [], errorItems = []] = task.data?.main ?? [];
	return { run, task, items: items ?? [], errorItems: errorItems ?? [], error: task.error };
}

/** The JSON of each output item, the way a next node sees it. */
export function outputJson(result: NodeRunResult): IDataObject[] {
	return result.items.map((item) => item.json);
}
