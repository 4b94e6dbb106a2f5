import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { DEFAULT_TIMEOUT_MS } from '../../shared/constants';
import { DEFAULT_CONCURRENCY, DEFAULT_RETRIES, DEFAULT_RETRY_WAIT_MS } from './requestOptions';

/**
 * The run's Request Options, read and checked (requestOptions.ts declares the field): what the
 * sender and the gate use.
 */
export interface RunSettings {
	/** Items per batch; 0 when the run is not batched. */
	batchSize: number;
	batchInterval: number;
	concurrency: number;
	timeout: number;
	retries: number;
	retryWait: number;
	proxy?: {
		host: string;
		port: number;
		protocol?: string;
		auth?: { username: string; password: string };
	};
	skipSslCertificateValidation: boolean;
}

function positive(value: unknown, fallback: number): number {
	const number = Number(value);
	return Number.isFinite(number) && number > 0 ? number : fallback;
}

function atLeastZero(value: unknown, fallback: number): number {
	const number = Number(value);
	return value !== undefined && value !== '' && Number.isFinite(number) && number >= 0
		? number
		: fallback;
}

function parseProxy(context: IExecuteFunctions, proxy: unknown): RunSettings['proxy'] {
	if (typeof proxy !== 'string' || proxy.trim() === '') return undefined;
	let url: URL;
	try {
		url = new URL(proxy.trim());
	} catch {
		url = new URL('invalid:');
	}
	if (!url.hostname || !url.port) {
		throw new NodeOperationError(context.getNode(), 'The proxy is not valid', {
			description: `Request Options → Proxy "${url.hostname ? url.origin : proxy}" needs a host and a port, e.g. http://myproxy:3128`,
		});
	}
	return {
		host: url.hostname,
		port: Number(url.port),
		protocol: url.protocol.replace(/:$/, '') || undefined,
		...(url.username
			? {
					auth: {
						username: decodeURIComponent(url.username),
						password: decodeURIComponent(url.password),
					},
				}
			: {}),
	};
}

/**
 * The run's Request Options, expressions resolved once (for the first item, as n8n's routing
 * engine read them).
 */
export function readRunSettings(context: IExecuteFunctions): RunSettings {
	const options = context.getNodeParameter('requestOptions', 0, {}) as IDataObject;
	const batch = ((options.batching as IDataObject | undefined)?.batch ?? {}) as IDataObject;
	const batchSize = Number(batch.batchSize ?? 50);
	const batchInterval = atLeastZero(batch.batchInterval, 1000);
	const batched = options.batching !== undefined && batchSize >= 0 && batchInterval > 0;
	return {
		batchSize: batched ? Math.max(batchSize, 1) : 0,
		batchInterval: batched ? batchInterval : 0,
		concurrency: Math.floor(positive(options.maxConcurrentRequests, DEFAULT_CONCURRENCY)),
		timeout: positive(options.timeout, DEFAULT_TIMEOUT_MS),
		retries: Math.floor(atLeastZero(options.transientRetries, DEFAULT_RETRIES)),
		retryWait: atLeastZero(options.retryWait, DEFAULT_RETRY_WAIT_MS),
		proxy: parseProxy(context, options.proxy),
		skipSslCertificateValidation: options.allowUnauthorizedCerts === true,
	};
}
