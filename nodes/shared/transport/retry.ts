import type {
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INode,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { mayRetryCreate, networkCode, networkError, networkFailureKind } from './errors';
import { sendWithCredential } from './index';
import { discardBody, followRedirects } from './redirects';

/**
 * Answers a read is tried again after. A create is tried again only when the service certainly
 * did not act (`mayRetryCreate`: a 429, a 503 in the service's envelope).
 */
export const READ_RETRY_STATUSES = [429, 503, 502, 504];
/**
 * Network failures before the request could reach the service. A broken pipe or an aborted
 * connection is not one: the request may have been read before the connection went.
 */
export const NOT_SENT_CODES = [
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
];
const MAX_RETRY_AFTER_MS = 30_000;

/** How many times, and how long apart, a transient failure is tried again (Request Options). */
export interface RetryPolicy {
	retries: number;
	/** The first pause in ms, doubled at each retry unless the service's Retry-After says otherwise. */
	retryWait: number;
}

/** One run's sender: who sends, with which credential, and whether a retry may duplicate. */
export interface RetryingSender {
	context: IExecuteFunctions;
	/** Named in the errors. */
	node: INode;
	credentials: ICredentialsDecrypted;
	policy: RetryPolicy;
	/** Creates something or is billed per call: retried only when the service certainly did not act. */
	sentOnce: boolean;
	abortSignal?: AbortSignal;
}

/** Failures before the request could reach the service (a refused connection, an unknown host). */
const neverReached = new WeakSet<object>();

/** The error came before its request could reach the service: the service certainly did not act. */
export function neverReachedService(error: object): boolean {
	return neverReached.has(error);
}

/** How long to wait before retry number `attempt` (0-based), following a Retry-After header. */
export function retryDelay(policy: RetryPolicy, attempt: number, response?: IN8nHttpFullResponse) {
	const header = (response?.headers as IDataObject | undefined)?.['retry-after'];
	if (header !== undefined) {
		const seconds = Number(header);
		const until = Number.isFinite(seconds)
			? seconds * 1000
			: Date.parse(String(header)) - Date.now();
		if (Number.isFinite(until) && until >= 0) return Math.min(until, MAX_RETRY_AFTER_MS);
	}
	return policy.retryWait * 2 ** attempt;
}

/**
 * One request with the node's own retries of transient failures. An operation that creates
 * something or is billed per call is retried only when the service certainly did not act on it.
 */
export async function requestWithRetries(
	sender: RetryingSender,
	label: string,
	options: IHttpRequestOptions,
	follow = false,
): Promise<IN8nHttpFullResponse> {
	const { context, credentials, policy, sentOnce, abortSignal } = sender;
	let spentMs = 0;
	for (let attempt = 0; ; attempt++) {
		let response: IN8nHttpFullResponse | undefined;
		let failure: unknown;
		try {
			const answer = await sendWithCredential.call(context, options, credentials);
			response = follow
				? await followRedirects.call(context, label, options, answer, credentials)
				: answer;
		} catch (caught) {
			failure = caught;
		}
		const kind = failure === undefined ? undefined : networkFailureKind(failure);
		const notSent = NOT_SENT_CODES.includes(networkCode(failure) ?? '');
		const transient = response
			? sentOnce
				? mayRetryCreate(response)
				: READ_RETRY_STATUSES.includes(response.statusCode)
			: kind !== undefined && (!sentOnce || notSent);
		if (kind === 'timeout') spentMs += options.timeout ?? 0;
		if (!transient || attempt >= policy.retries || abortSignal?.aborted) {
			if (response) return response;
			const mayHaveCreated = sentOnce && kind !== undefined && !notSent;
			const attempts = { timeout: options.timeout, attempts: attempt + 1, spentMs };
			const error = networkError(sender.node, label, failure, attempts, mayHaveCreated);
			if (notSent) neverReached.add(error);
			throw error;
		}
		if (response) discardBody(response);
		const pause = retryDelay(policy, attempt, response);
		spentMs += pause;
		await sleep(pause);
	}
}
