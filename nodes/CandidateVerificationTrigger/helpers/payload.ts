import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { ACTIONS } from '../../shared/actions';
import { candidateNameOf } from '../../shared/checkStatus';
import { CREDENTIAL_TYPE, TRANSACTION_STATUS_PATH } from '../../shared/constants';
import { serviceRequest } from '../../shared/transport';
import { SECRET_HEADERS } from './authentication';

const HIDDEN_HEADERS = new Set<string>([
	...SECRET_HEADERS,
	'authorization',
	'proxy-authorization',
	'cookie',
]);

function isPlainObject(value: unknown): value is IDataObject {
	return (
		typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value)
	);
}

async function rawBodyText(this: IWebhookFunctions, parsedBody: unknown): Promise<string> {
	const request = this.getRequestObject();
	if (request.rawBody === undefined && typeof request.readRawBody === 'function') {
		await request.readRawBody();
	}
	const raw: unknown = request.rawBody;
	if (Buffer.isBuffer(raw)) return raw.toString(request.encoding ?? 'utf8');
	if (typeof raw === 'string') return raw;
	if (typeof parsedBody === 'string') return parsedBody;
	if (parsedBody === undefined || parsedBody === null) return '';
	if (isPlainObject(parsedBody) && Object.keys(parsedBody).length === 0) return '';
	return JSON.stringify(parsedBody);
}

function visibleHeaders(this: IWebhookFunctions): IDataObject {
	const headers: IDataObject = {};
	for (const [name, value] of Object.entries(this.getHeaderData())) {
		if (value === undefined || HIDDEN_HEADERS.has(name.toLowerCase())) continue;
		headers[name] = value;
	}
	return headers;
}

/**
 * One item per notification: a JSON object body is passed through field by field; anything else
 * (empty, text, an array) is kept as text under rawBody. receivedAt and headers are set by the
 * node and take precedence over payload fields of the same name.
 */
export async function notificationItem(
	this: IWebhookFunctions,
	includeHeaders: boolean,
): Promise<IDataObject> {
	const body: unknown = this.getBodyData();
	const payload =
		isPlainObject(body) && Object.keys(body).length > 0
			? { ...body }
			: { rawBody: await rawBodyText.call(this, body) };
	return {
		...payload,
		receivedAt: new Date().toISOString(),
		...(includeHeaders ? { headers: visibleHeaders.call(this) } : {}),
	};
}

/**
 * Reads the transaction a notification names with Transaction → Get Status's request (organisation
 * ID from the credential). Throws an Error saying what is missing (a plain Error) or what the service
 * answered (its NodeApiError). `timeout`: the check lookup's time left.
 */
export async function readTransaction(
	this: IWebhookFunctions,
	item: IDataObject,
	timeout?: number,
): Promise<{ query: { orgId: string; txnId: string }; transaction: IDataObject }> {
	const txnId = typeof item.transactionId === 'string' ? item.transactionId.trim() : '';
	if (txnId === '') throw new Error('the notification has no transactionId');
	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	const orgId = String(credentials.orgId ?? '').trim();
	if (orgId === '') throw new Error('set the Organisation ID in the credential');
	const query = { orgId, txnId };
	const envelope = await serviceRequest.call(this, ACTIONS.transactionGetStatus, {
		method: 'GET',
		path: TRANSACTION_STATUS_PATH,
		qs: query,
		timeout,
	});
	return { query, transaction: envelope.data ?? {} };
}

/**
 * Adds the candidate's name (profileDetails.name, else name), the overall state and the report URL
 * (null when the transaction has none), read with Transaction → Get Status's request (or taken from
 * `transaction`, when this event already read it). A failed read never loses the notification: the
 * item carries the error instead.
 */
export async function addTransactionDetails(
	this: IWebhookFunctions,
	item: IDataObject,
	alreadyRead?: IDataObject,
): Promise<IDataObject> {
	try {
		const transaction = alreadyRead ?? (await readTransaction.call(this, item)).transaction;
		return {
			...item,
			candidateName: candidateNameOf(transaction),
			transactionState: transaction.state ?? null,
			// Only the older page has `report`; per-check reports: Transaction → Get Check Status.
			reportUrl: transaction.report ?? null,
			transaction,
		};
	} catch (error) {
		return {
			...item,
			transactionDetailsError: `Could not add the transaction's details: ${(error as Error).message}`,
		};
	}
}
