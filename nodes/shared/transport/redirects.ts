import type {
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { API_KEY_HEADER } from '../constants';
import { sendWithCredential } from './index';

/** Redirects followed for one request at most; one more is refused (a loop). */
export const MAX_REDIRECTS = 5;

/** Headers that never go along to a redirect's target: the node's credential puts the key back. */
const DROPPED_HEADERS = [API_KEY_HEADER, 'authorization', 'proxy-authorization', 'cookie'];
/** Headers of the body, dropped when a redirect turns the request into a GET. */
const BODY_HEADERS = ['content-type', 'content-length'];

/** A streamed answer that will not be read is closed, so its connection is freed. */
export function discardBody(response: IN8nHttpFullResponse): void {
	const body = response.body as { destroy?: () => void } | undefined;
	if (body && typeof body.destroy === 'function') body.destroy();
}

/** The address a request goes to, as n8n's request helper joins the base URL and the URL. */
function requestUrl(options: IHttpRequestOptions): string {
	if (!options.baseURL || /^https?:\/\//i.test(options.url)) return options.url;
	return `${options.baseURL.replace(/\/+$/, '')}/${options.url.replace(/^\/+/, '')}`;
}

/** An address for an error, without its query (it may carry a token) or a user and password. */
function shown(url: URL): string {
	return `${url.origin}${url.pathname}`;
}

function locationOf(response: IN8nHttpFullResponse): string | undefined {
	const location = (response.headers as IDataObject | undefined)?.location;
	const value = Array.isArray(location) ? location[0] : location;
	return typeof value === 'string' && value !== '' ? value : undefined;
}

function redirectRefusal(
	context: IExecuteFunctions,
	operationLabel: string,
	statusCode: number,
	what: string,
	whatToDo: string,
): NodeApiError {
	return new NodeApiError(
		context.getNode(),
		{ statusCode },
		{
			message: `${operationLabel} failed: the Candidate Verification Service ${what}`,
			description: whatToDo,
			httpCode: String(statusCode),
		},
	);
}

/**
 * The request to the redirect's target: 301, 302 and 303 turn it into a GET without a body (as
 * browsers do), 307 and 308 keep the method and the body. Never the key's header or a cookie.
 */
function nextHop(
	options: IHttpRequestOptions,
	statusCode: number,
	url: string,
): IHttpRequestOptions {
	const keepsMethod = statusCode === 307 || statusCode === 308 || options.method === 'HEAD';
	const dropped = keepsMethod ? DROPPED_HEADERS : [...DROPPED_HEADERS, ...BODY_HEADERS];
	const headers = Object.fromEntries(
		Object.entries(options.headers ?? {}).filter(([name]) => !dropped.includes(name.toLowerCase())),
	);
	const { body, ...rest } = options;
	return {
		...rest,
		// The target is a whole address with its own query: no base URL, no query of the first request.
		baseURL: undefined,
		qs: undefined,
		url,
		method: keepsMethod ? options.method : 'GET',
		headers,
		...(keepsMethod && body !== undefined ? { body } : {}),
		disableFollowRedirect: true,
	};
}

/**
 * Follows the redirects of an answer, at most MAX_REDIRECTS: to the service's own origin with the
 * credential (its key), to any other origin without it, through n8n's plain request helper (and
 * no later hop carries the key again). A redirect from https to http is refused: the answer would
 * travel unencrypted. Returns the first answer that is not a redirect.
 */
export async function followRedirects(
	this: IExecuteFunctions,
	operationLabel: string,
	request: IHttpRequestOptions,
	first: IN8nHttpFullResponse,
	credentialsDecrypted?: ICredentialsDecrypted,
): Promise<IN8nHttpFullResponse> {
	let current = new URL(requestUrl(request));
	const serviceOrigin = current.origin;
	let withKey = true;
	let options = request;
	let response = first;
	for (let hops = 0; response.statusCode >= 300 && response.statusCode < 400; hops++) {
		discardBody(response);
		const { statusCode } = response;
		const location = locationOf(response);
		let target: URL | undefined;
		try {
			target = location === undefined ? undefined : new URL(location, current);
		} catch {
			target = undefined;
		}
		if (!target || !['http:', 'https:'].includes(target.protocol)) {
			throw redirectRefusal(
				this,
				operationLabel,
				statusCode,
				location
					? `answered HTTP ${statusCode}, a redirect to "${location.split(/[?#]/)[0]}", an address the node cannot follow`
					: `answered HTTP ${statusCode}, a redirect without an address`,
				'Check the Private File URL and the base URL of the credential; if they are right, ask the provider about the redirect.',
			);
		}
		if (hops >= MAX_REDIRECTS) {
			throw redirectRefusal(
				this,
				operationLabel,
				statusCode,
				`redirected the request more than ${MAX_REDIRECTS} times (the last time to ${shown(target)})`,
				'The addresses may redirect in a loop: check the Private File URL and the base URL of the credential; if they are right, ask the provider about the redirect.',
			);
		}
		if (current.protocol === 'https:' && target.protocol === 'http:') {
			throw redirectRefusal(
				this,
				operationLabel,
				statusCode,
				`redirected the request from https to http (${shown(target)})`,
				'The node does not follow a redirect from https to http: the answer would travel unencrypted. Ask the provider to serve it over https; the Private File URL and the credential’s base URL should start with https://.',
			);
		}
		withKey = withKey && target.origin === serviceOrigin;
		options = nextHop(options, statusCode, target.href);
		response = withKey
			? await sendWithCredential.call(this, options, credentialsDecrypted)
			: ((await this.helpers.httpRequest({
					...options,
					returnFullResponse: true,
				})) as IN8nHttpFullResponse);
		current = target;
	}
	return response;
}
