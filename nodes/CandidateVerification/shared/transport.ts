import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IDataObject,
	IExecuteSingleFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IWebhookFunctions,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE, DEFAULT_TIMEOUT_MS } from './constants';
import { assertSuccessfulResponse, networkError, type ServiceEnvelope } from './errors';

type RequestContext =
	| IHookFunctions
	| ILoadOptionsFunctions
	| IExecuteSingleFunctions
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
 * One request to the service for code outside the declarative routing (trigger lifecycle,
 * option loaders, two-step operations), with the same envelope check as the routed operations.
 */
export async function serviceRequest(
	this: RequestContext,
	operationLabel: string,
	request: ServiceRequest,
): Promise<ServiceEnvelope> {
	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	const options: IHttpRequestOptions = {
		method: request.method,
		baseURL: baseUrlFromCredentials(credentials),
		url: request.path,
		qs: request.qs,
		body: request.body,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		headers: { Accept: 'application/json' },
		timeout: request.timeout ?? DEFAULT_TIMEOUT_MS,
	};
	const response = await authenticatedRequest.call(this, operationLabel, options);
	return assertSuccessfulResponse(this.getNode(), operationLabel, response);
}

/**
 * The full response of one request with the credential applied by n8n; a failure to get any
 * answer (reset, timeout, refused) becomes an error that names the operation and the service.
 * `credentialsDecrypted`: the credential already read for this run, so n8n does not read and
 * decrypt it again for this request.
 */
export async function authenticatedRequest(
	this: RequestContext,
	operationLabel: string,
	options: IHttpRequestOptions,
	credentialsDecrypted?: ICredentialsDecrypted,
): Promise<IN8nHttpFullResponse> {
	try {
		return (await this.helpers.httpRequestWithAuthentication.call(
			this,
			CREDENTIAL_TYPE,
			{ ...options, returnFullResponse: true },
			credentialsDecrypted && { credentialsDecrypted },
		)) as IN8nHttpFullResponse;
	} catch (error) {
		throw networkError(this.getNode(), operationLabel, error, options);
	}
}
