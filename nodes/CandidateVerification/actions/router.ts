import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { runOperation } from '../engine/runOperation';
import type { OperationDefinition } from '../engine/operation';
import * as file from './file/File.resource';
import * as form from './form/Form.resource';
import * as instantKyc from './instantKyc/InstantKyc.resource';
import * as profile from './profile/Profile.resource';
import * as purpose from './purpose/Purpose.resource';
import * as transaction from './transaction/Transaction.resource';
import * as verification from './verification/Verification.resource';
import * as webhookConfig from './webhookConfig/WebhookConfig.resource';

type OperationModule = { operation: OperationDefinition };

/** Every operation by resource and operation value, as the node's selectors name them. */
export const OPERATIONS: Record<string, Record<string, OperationModule>> = {
	file: {
		download: file.download,
		getDownloadToken: file.getDownloadToken,
		getSignedUrl: file.getSignedUrl,
		upload: file.upload,
	},
	form: { create: form.create },
	instantKyc: {
		aadhaarGetResult: instantKyc.aadhaarGetResult,
		aadhaarStart: instantKyc.aadhaarStart,
		getEmploymentHistory: instantKyc.getEmploymentHistory,
		verifyBankAccount: instantKyc.verifyBankAccount,
		verifyDin: instantKyc.verifyDin,
		verifyGst: instantKyc.verifyGst,
		verifyPan: instantKyc.verifyPan,
		verifyUpi: instantKyc.verifyUpi,
	},
	profile: { create: profile.create },
	purpose: { getAll: purpose.getAll },
	transaction: { getStatus: transaction.getStatus, getCheckStatus: transaction.getCheckStatus },
	verification: {
		submit: verification.submit,
		resolveInsufficiency: verification.resolveInsufficiency,
	},
	webhookConfig: { create: webhookConfig.create, update: webhookConfig.update },
};

/** Runs the chosen operation on all input items with the node's one engine. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const chosen = OPERATIONS[resource]?.[operation];
	if (!chosen) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of the resource "${resource}" is not supported`,
		);
	}
	return await runOperation.call(this, chosen.operation);
}
