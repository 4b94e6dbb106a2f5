// eslint-disable-next-line @n8n/community-nodes/no-restricted-imports -- test code run by jest, never published
import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	INodeType,
	INodeTypes,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code run by jest, never published */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
/* eslint-enable @n8n/community-nodes/no-restricted-imports */

import { BulkPost } from './bulk-post';
import { CandidateVerification } from '../../nodes/CandidateVerification/CandidateVerification.node';
import { CandidateVerificationTrigger } from '../../nodes/CandidateVerificationTrigger/CandidateVerificationTrigger.node';
import { TestCredentialsHelper } from './credentials-helper';
import { ItemsSource } from './items-source';

export const PACKAGE = 'n8n-nodes-candidate-verification';
export const ACTION_NODE_TYPE = `${PACKAGE}.candidateVerification`;
export const TRIGGER_NODE_TYPE = `${PACKAGE}.candidateVerificationTrigger`;
export const ITEMS_SOURCE_TYPE = 'test.itemsSource';
export const BULK_POST_TYPE = 'test.bulkPost';

const nodeTypesByName: Record<string, INodeType | IVersionedNodeType> = {
	[ACTION_NODE_TYPE]: new CandidateVerification(),
	[TRIGGER_NODE_TYPE]: new CandidateVerificationTrigger(),
	[ITEMS_SOURCE_TYPE]: new ItemsSource(),
	[BULK_POST_TYPE]: new BulkPost(),
};

/** Adds a node type to the harness (e.g. 0.3.1's node, loaded by the upgrade test). */
export function addNodeType(name: string, type: INodeType | IVersionedNodeType): void {
	nodeTypesByName[name] = type;
}

export const nodeTypes: INodeTypes = {
	getByName: (name) => nodeTypesByName[name],
	getByNameAndVersion: (name, version) =>
		NodeHelpers.getVersionedNodeType(nodeTypesByName[name], version),
	getKnownTypes: () => ({}),
};

let binaryDataReady: Promise<void> | undefined;

/** Binary data as n8n 2.x stores it by default: streamed to files, not kept in memory. */
export async function initBinaryDataService(): Promise<BinaryDataService> {
	const service = Container.get(BinaryDataService);
	binaryDataReady ??= (async () => {
		const config = (service as unknown as { config: { mode: string; localStoragePath: string } })
			.config;
		config.mode = 'filesystem';
		config.localStoragePath = mkdtempSync(join(tmpdir(), 'cv-binary-'));
		await service.init();
	})();
	await binaryDataReady;
	return service;
}

export function createAdditionalData(
	credentials?: ICredentialDataDecryptedObject,
	overrides: Partial<IWorkflowExecuteAdditionalData> = {},
): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper: new TestCredentialsHelper(credentials),
		executeWorkflow: async () => {
			throw new Error('sub-workflows are not used by these tests');
		},
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
		webhookBaseUrl: 'http://localhost:5678/webhook',
		webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
		formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
		variables: {},
		userId: 'test-user',
		currentNodeParameters: undefined,
		executionTimeoutTimestamp: undefined,
		setExecutionStatus: () => {},
		sendDataToUI: () => {},
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new Error('task runners are not used by these tests');
		},
		...overrides,
	} as unknown as IWorkflowExecuteAdditionalData;
}
