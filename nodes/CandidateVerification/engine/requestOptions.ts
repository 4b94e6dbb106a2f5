import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_TIMEOUT_MS } from '../../shared/constants';

export const DEFAULT_CONCURRENCY = 200;
export const DEFAULT_RETRIES = 2;
export const DEFAULT_RETRY_WAIT_MS = 1000;

/**
 * Settings → Request Options, at the parameter paths n8n gives declarative nodes (so workflows
 * saved with batching, timeout or proxy keep them), plus how many requests run at once and the
 * node's own retries of transient failures.
 */
export const requestOptionsProperty: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	isNodeSetting: true,
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Batching',
			name: 'batching',
			placeholder: 'Add Batching',
			type: 'fixedCollection',
			typeOptions: { multipleValues: false },
			default: { batch: {} },
			options: [
				{
					displayName: 'Batching',
					name: 'batch',
					values: [
						{
							displayName: 'Items per Batch',
							name: 'batchSize',
							type: 'number',
							typeOptions: { minValue: -1 },
							default: 50,
							description:
								'Input will be split in batches to throttle requests. -1 for disabled. 0 will be treated as 1.',
						},
						{
							displayName: 'Batch Interval',
							name: 'batchInterval',
							type: 'number',
							typeOptions: { minValue: 0 },
							default: 1000,
							description: 'Time (in milliseconds) between each batch of requests. 0 for disabled.',
						},
					],
				},
			],
		},
		{
			displayName: 'Ignore SSL Issues (Insecure)',
			name: 'allowUnauthorizedCerts',
			type: 'boolean',
			default: false,
			description: 'Whether to connect even if SSL certificate validation is not possible',
		},
		{
			displayName: 'Max Concurrent Requests',
			name: 'maxConcurrentRequests',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_CONCURRENCY,
			description:
				'How many requests to the service may be in flight at once. Lower it if the service answers 429 (too many requests).',
		},
		{
			displayName: 'Proxy',
			name: 'proxy',
			type: 'string',
			default: '',
			placeholder: 'e.g. http://myproxy:3128',
			description:
				'HTTP proxy to use. If authentication is required it can be defined as follow: http://username:password@myproxy:3128.',
		},
		{
			displayName: 'Retries on Transient Failures',
			name: 'transientRetries',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: DEFAULT_RETRIES,
			description:
				'How often one item’s request is tried again after a 429 or 503 answer or a refused connection (operations that only read: also after a timeout, a reset, a 502 or a 504). Never after an answer that may have come after the service acted on a request that creates something or is billed per call (Instant KYC); for those, a 503 counts only in the service’s own JSON answer. 0 to disable.',
		},
		{
			displayName: 'Timeout',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: DEFAULT_TIMEOUT_MS,
			description:
				'Time in ms to wait for the server to send response headers (and start the response body) before aborting the request. Without this option: 60 s.',
		},
		{
			displayName: 'Wait Between Retries',
			name: 'retryWait',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: DEFAULT_RETRY_WAIT_MS,
			description:
				'Pause in milliseconds before the first retry; it doubles for each further retry. A Retry-After header of the service is followed (up to 30 s).',
		},
	],
};
