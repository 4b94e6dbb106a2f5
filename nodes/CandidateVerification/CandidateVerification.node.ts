import type { INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { CREDENTIAL_BASE_URL } from '../../credentials/CandidateVerificationApi.credentials';
import { fileDescription } from './resources/file';
import { formDescription } from './resources/form';
import { profileDescription } from './resources/profile';
import { purposeDescription } from './resources/purpose';
import { transactionDescription } from './resources/transaction';
import { verificationDescription } from './resources/verification';
import { webhookConfigDescription } from './resources/webhookConfig';
import { getPurposes } from './shared/loadOptions';
import { subtitleExpression } from './shared/subtitle';

const properties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'File', value: 'file' },
			{ name: 'Form', value: 'form' },
			{ name: 'Profile (Candidate)', value: 'profile' },
			{ name: 'Purpose', value: 'purpose' },
			{ name: 'Transaction', value: 'transaction' },
			{ name: 'Verification', value: 'verification' },
			{ name: 'Webhook Config', value: 'webhookConfig' },
		],
		default: 'profile',
	},
	...formDescription,
	...profileDescription,
	...verificationDescription,
	...fileDescription,
	...webhookConfigDescription,
	...purposeDescription,
	...transactionDescription,
];

export class CandidateVerification implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Candidate Verification',
		name: 'candidateVerification',
		icon: {
			light: 'file:../../icons/candidateVerification.svg',
			dark: 'file:../../icons/candidateVerification.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: subtitleExpression(properties),
		description:
			'Create verification forms, add candidates, submit background and identity checks, and fetch their documents',
		defaults: { name: 'Candidate Verification' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'candidateVerificationApi', required: true }],
		requestDefaults: {
			baseURL: CREDENTIAL_BASE_URL,
			headers: { Accept: 'application/json' },
			json: true,
			// Success is decided on the envelope's `code` by every operation's post-receive.
			ignoreHttpStatusErrors: true,
		},
		properties,
	};

	methods = { loadOptions: { getPurposes } };
}
