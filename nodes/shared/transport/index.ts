import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IWebhookFunctions,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE, DEFAULT_TIMEOUT_MS } from '../constants';
import { assertSuccessfulResponse, networkError, type ServiceEnvelope } from './errors';

type RequestContext =
	| IHookFunctions
	| ILoadOptionsFunctions
	| IExecuteFunctions
	| IWebhookFunctions;

/** Mirrors CREDENTIAL_BASE_URL in the credential, for code that builds requests itself. */
export function baseUrlFromCredentials(credentials: ICredentialDataDecryptedObject): string {
	const key = credentials.environment === 'production' ? 'productionBaseUrl' : 'stagingBaseUrl';
	return String(credentials[key] ?? '').replace(/\/+$/, '');
}

export interface ServiceRequest {
	method: IHttpRequestMethods;
	path: string;
	body?: IDataObject;
	qs?: IDataObject;
	timeout?: number;
}

/**
 * The JSON request options every call to the service starts from. Redirects are not followed:
 * the key would go along to wherever they point, a create would become a GET, and n8n's request
 * helper is cheaper without its redirect layer (see docs/performance.md).
 */
export function jsonRequest(
	baseURL: string,
	request: Pick<IHttpRequestOptions, 'method' | 'url' | 'body' | 'qs'>,
	timeout = DEFAULT_TIMEOUT_MS,
): IHttpRequestOptions {
	return {
		...request,
		baseURL,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		headers: { Accept: 'application/json' },
		timeout,
		disableFollowRedirect: true,
	};
}

/**
 * One request to the service for code outside the action node's engine (trigger lifecycle,
 * option loaders), with the same envelope check as the operations.
 */
export async function serviceRequest(
	this: RequestContext,
	operationLabel: string,
	request: ServiceRequest,
): Promise<ServiceEnvelope> {
	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	const options = jsonRequest(
		baseUrlFromCredentials(credentials),
		{ method: request.method, url: request.path, qs: request.qs, body: request.body },
		request.timeout,
	);
	const response = await authenticatedRequest.call(this, operationLabel, options);
	return assertSuccessfulResponse(this.getNode(), operationLabel, response);
}

/**
 * The full response of one request with the credential applied by n8n. Failures to get any answer
 * are thrown as they come (see `authenticatedRequest` for the explained form).
 * `credentialsDecrypted`: the credential already read for this run, so n8n does not read and
 * decrypt it again for this request.
 */
export async function sendWithCredential(
	this: RequestContext,
	options: IHttpRequestOptions,
	credentialsDecrypted?: ICredentialsDecrypted,
): Promise<IN8nHttpFullResponse> {
	return (await this.helpers.httpRequestWithAuthentication.call(
		this,
		CREDENTIAL_TYPE,
		{ ...options, returnFullResponse: true },
		credentialsDecrypted && { credentialsDecrypted },
	)) as IN8nHttpFullResponse;
}

/**
 * `sendWithCredential`, with a failure to get any answer (reset, timeout, refused) turned into an
 * error that names the operation and the service.
 */
export async function authenticatedRequest(
	this: RequestContext,
	operationLabel: string,
	options: IHttpRequestOptions,
	credentialsDecrypted?: ICredentialsDecrypted,
): Promise<IN8nHttpFullResponse> {
	try {
		return await sendWithCredential.call(this, options, credentialsDecrypted);
	} catch (error) {
		throw networkError(this.getNode(), operationLabel, error, options);
	}
}
