import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { API_KEY_HEADER, PURPOSES_PATH } from '../nodes/shared/constants';

/**
 * Resolves to the base URL of the environment chosen in the credential, without a trailing slash.
 * Used by the credential test, the action node and the trigger, so all three talk to the same host.
 */
export const CREDENTIAL_BASE_URL =
	"={{ ($credentials.environment === 'production' ? $credentials.productionBaseUrl : $credentials.stagingBaseUrl).replace(/\\/+$/, '') }}";

export class CandidateVerificationApi implements ICredentialType {
	// A literal, not CREDENTIAL_TYPE: n8n's package scanner reads the name statically.
	name = 'candidateVerificationApi';

	displayName = 'Candidate Verification API';

	icon = {
		light: 'file:../icons/candidateVerification.svg',
		dark: 'file:../icons/candidateVerification.dark.svg',
	} as const;

	documentationUrl =
		'https://github.com/n8n-nodes-candidate-verification/n8n-nodes-candidate-verification#credential';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'Generated in the provider portal. The same key works in staging and production. Sent as the x-api-key header.',
		},
		{
			displayName: 'Environment',
			name: 'environment',
			type: 'options',
			options: [
				{ name: 'Staging', value: 'staging', description: 'For development and testing' },
				{ name: 'Production', value: 'production', description: 'Real candidates' },
			],
			default: 'staging',
		},
		{
			displayName: 'Staging Base URL',
			name: 'stagingBaseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://staging.example.com',
			description:
				'Base URL of the staging environment as given by the provider (without /verification). A local sandbox works too, e.g. http://127.0.0.1:8790.',
			displayOptions: { show: { environment: ['staging'] } },
		},
		{
			displayName: 'Production Base URL',
			name: 'productionBaseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com',
			description: 'Base URL of the production environment as given by the provider',
			displayOptions: { show: { environment: ['production'] } },
		},
		{
			displayName: 'Organisation ID',
			name: 'orgId',
			type: 'string',
			default: '',
			description:
				'Your organisation ID at the provider. Used by Transaction → Get Status and Get Check Status (where the node’s own Organisation ID, when set, replaces it) and by the trigger, which reads it from here only: its Add Transaction Details option, and the lookup of a check a notification names by its ID (insufficiency events always, other events under a Checks filter). Without it those events start the workflow with checkUnknown, or under a Checks filter start nothing (logged).',
		},
	];

	// A function, not a generic block: n8n resolves a generic block's `={{$credentials.apiKey}}` with
	// its expression engine for every request, which is most of a bulk run's per-item cost.
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return {
			...requestOptions,
			headers: { ...(requestOptions.headers ?? {}), [API_KEY_HEADER]: String(credentials.apiKey) },
		};
	}

	// Listing purposes is read-only, so testing the credential changes nothing at the provider.
	// HTTP errors (a refused key answers 401) fail the test anyway. n8n-workflow takes rules of one
	// type only; a responseSuccessBody rule FAILS the test when the body's value at `key` equals
	// `value`, so two of them fail it on code -1 and on an answer without `code` (an HTML page, a
	// JSON body that is not the service's envelope: a wrong base URL).
	test: ICredentialTestRequest = {
		request: {
			baseURL: CREDENTIAL_BASE_URL,
			url: PURPOSES_PATH,
			method: 'GET',
			json: true,
			// The key does not go along to wherever a redirect points: a redirect fails the test.
			disableFollowRedirect: true,
		},
		rules: [
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'code',
					value: -1,
					message: 'The service rejected the API key or the request (code -1)',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'code',
					value: undefined,
					message:
						'The base URL did not answer like the Candidate Verification Service (no response envelope): check the base URL of the chosen environment',
				},
			},
		],
	};
}
