import type {
	DeclarativeRestApiSettings,
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodePropertyRouting,
	IHttpRequestOptions,
	PreSendAction,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from './constants';
import { assertSuccessfulResponse } from './errors';
import {
	checkItemsThenPrepare,
	preparedRequest,
	runCredentials,
	runStateOf,
	type PreparedRequest,
	type RequestBuilder,
	type RunState,
} from './preflight';
import { authenticatedRequest } from './transport';

/** Turns the service's full response into the output items of one input item. */
type ResponseHandler = (
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
) => Promise<INodeExecutionData[]>;

type ItemShaper = (
	this: IExecuteSingleFunctions,
	data: IDataObject,
	sent: PreparedRequest,
	response: IN8nHttpFullResponse,
) => IDataObject | IDataObject[] | Promise<IDataObject | IDataObject[]>;

/**
 * The one post-receive every JSON operation uses: checks the envelope (code must be 0, under
 * any HTTP status), then turns the envelope's data into output items paired with the input item.
 */
export function handleResponse(operationLabel: string, shape: ItemShaper): ResponseHandler {
	return async function (
		this: IExecuteSingleFunctions,
		_items: INodeExecutionData[],
		response: IN8nHttpFullResponse,
	): Promise<INodeExecutionData[]> {
		const envelope = assertSuccessfulResponse(this.getNode(), operationLabel, response);
		const shaped = await shape.call(this, envelope.data ?? {}, preparedRequest(this), response);
		const pairedItem = { item: this.getItemIndex() };
		return (Array.isArray(shaped) ? shaped : [shaped]).map((json) => ({ json, pairedItem }));
	};
}

/** Output the envelope's data object as it is. */
export const envelopeData: ItemShaper = (data) => data;

function acceptedList(run: RunState): string {
	const accepted = [...run.accepted].sort((a, b) => a.itemIndex - b.itemIndex);
	return accepted.map(({ itemIndex, id }) => `item ${itemIndex}: ${id}`).join(', ');
}

function describeAccepted(run: RunState, failures = run.failures): void {
	if (run.accepted.length === 0) return;
	const note = `Already accepted by the service (not lost, do not send them again): ${acceptedList(run)}`;
	for (const failure of failures) {
		failure.error.description = [failure.description, note].filter(Boolean).join('\n');
	}
}

/**
 * The operation's transport. RoutingNode has no hook around the request itself; the function form
 * of `operations.pagination` is the one place that wraps it. A single-page "pagination" sends the
 * request through n8n's httpRequestWithAuthentication with the credential the run read once (n8n's
 * own routing request would read and decrypt it again for every item: most of a bulk run's cost
 * after the expressions), turns network failures into bounded errors that name the operation,
 * shapes the output with the operation's post-receive, and, for operations that create or change
 * something, records what the service accepted so a failure stopping the node names them.
 */
function sendOnce(
	operationLabel: string,
	postReceive: ResponseHandler,
	acceptedId?: (json: IDataObject) => unknown,
): (
	this: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
) => Promise<INodeExecutionData[]> {
	return async function (this: IExecutePaginationFunctions, requestData) {
		const run = runStateOf(this);
		const tracked = acceptedId && run && !this.continueOnFail() ? run : undefined;
		try {
			const response = await authenticatedRequest.call(
				this,
				operationLabel,
				requestData.options as IHttpRequestOptions,
				runCredentialsDecrypted(this, await runCredentials(this)),
			);
			const items = await postReceive.call(
				this,
				[{ json: response.body as IDataObject }],
				response,
			);
			const id = tracked && items[0] ? acceptedId!(items[0].json) : undefined;
			if (tracked && id !== undefined && id !== null) {
				tracked.accepted.push({ itemIndex: this.getItemIndex(), id: String(id) });
			}
			return items;
		} catch (caught) {
			const error =
				caught instanceof NodeApiError || caught instanceof NodeOperationError
					? caught
					: new NodeOperationError(this.getNode(), caught as Error);
			if (tracked) {
				const failure = { error, description: String(error.description ?? '') };
				tracked.failures.push(failure);
				describeAccepted(tracked, [failure]);
			}
			throw error;
		} finally {
			// RoutingNode throws the first failure only once every item has settled.
			if (tracked && ++tracked.settled === tracked.items.length) describeAccepted(tracked);
		}
	};
}

/** The credential as httpRequestWithAuthentication takes it ready-decrypted (only `data` is read). */
function runCredentialsDecrypted(
	context: IExecutePaginationFunctions,
	data: ICredentialDataDecryptedObject,
): ICredentialsDecrypted {
	const { id, name } = context.getNode().credentials?.[CREDENTIAL_TYPE] ?? { id: null, name: '' };
	return { id: id ?? '', name, type: CREDENTIAL_TYPE, data };
}

export interface ServiceOperation {
	/** How errors name the operation, e.g. "Create Profile". */
	label: string;
	/** Method and URL; `:name` placeholders are filled from the checked item. */
	request: DeclarativeRestApiSettings.HttpRequestOptions;
	/** Checks and normalises every item before any request of the run leaves. */
	build: RequestBuilder;
	/** Per-item work after the check (reading a file, a first request). */
	preSend?: PreSendAction[];
	output: ItemShaper | { postReceive: ResponseHandler };
	/** For operations that create or change something: the ID the service returned. */
	acceptedId?: (json: IDataObject) => unknown;
}

/** The routing of one operation: its request, the all-items check, the call, its output. */
export function serviceRouting(operation: ServiceOperation): INodePropertyRouting {
	const postReceive =
		typeof operation.output === 'function'
			? handleResponse(operation.label, operation.output)
			: operation.output.postReceive;
	return {
		request: operation.request,
		send: {
			preSend: [checkItemsThenPrepare(operation.build), ...(operation.preSend ?? [])],
			paginate: true,
		},
		operations: { pagination: sendOnce(operation.label, postReceive, operation.acceptedId) },
	};
}
