import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteSingleFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IWebhookFunctions,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE } from './constants';
import { assertSuccessfulResponse, type ServiceEnvelope } from './errors';

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
	};
	const response = (await this.helpers.httpRequestWithAuthentication.call(
		this,
		CREDENTIAL_TYPE,
		options,
	)) as IN8nHttpFullResponse;
	return assertSuccessfulResponse(this.getNode(), operationLabel, response);
}
