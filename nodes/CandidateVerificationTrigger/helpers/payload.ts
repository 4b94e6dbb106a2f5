import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

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
