import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { ACTIONS } from '../../shared/actions';
import { assertSuccessfulResponse } from '../../shared/errors';
import { invalidParameter, requireText } from '../../shared/validation';
import { DOWNLOAD_FILE_PATH } from './shared';

const OPERATION_LABEL = ACTIONS.fileDownload;
/** An error body is small; a body larger than this is not read into memory to explain an error. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

export const fileDownloadDescription: INodeProperties[] = [
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		hint: 'The name of the output binary field to put the file in',
		description: 'Binary field of the output item that receives the downloaded file',
		displayOptions: { show: { resource: ['file'], operation: ['download'] } },
	},
	{
		displayName: 'Options',
		name: 'downloadOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show: { resource: ['file'], operation: ['download'] } },
		options: [
			{
				displayName: 'File Name',
				name: 'fileName',
				type: 'string',
				default: '',
				description: 'Overrides the file name given by the service or taken from the URL',
			},
		],
	},
];

function fileNameFromContentDisposition(header: unknown): string | undefined {
	if (typeof header !== 'string') return undefined;
	const encoded = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
	if (encoded) {
		try {
			return decodeURIComponent(encoded[1].trim());
		} catch {
			return encoded[1].trim();
		}
	}
	const plain = /filename\s*=\s*"?([^";]+)"?/.exec(header);
	return plain ? plain[1].trim() : undefined;
}

function fileNameFromUrl(url: string): string | undefined {
	try {
		const lastSegment = new URL(url).pathname.split('/').filter(Boolean).pop();
		return lastSegment ? decodeURIComponent(lastSegment) : undefined;
	} catch {
		return undefined;
	}
}

function mimeTypeOf(header: unknown): string | undefined {
	if (typeof header !== 'string') return undefined;
	const type = header.split(';')[0].trim().toLowerCase();
	return type || undefined;
}

async function readSmallBody(body: unknown): Promise<string> {
	if (typeof body === 'string') return body;
	if (Buffer.isBuffer(body)) return body.toString('utf8');
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of body as AsyncIterable<Buffer | string>) {
		const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
		size += buffer.length;
		if (size > MAX_ERROR_BODY_BYTES) break;
		chunks.push(buffer);
	}
	return Buffer.concat(chunks).toString('utf8');
}

async function buildDownloadRequest(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const url = requireText(this, 'url', 'Private File URL');
	const binaryPropertyName = requireText(this, 'binaryPropertyName', 'Put Output File in Field');
	if (/\s/.test(binaryPropertyName)) {
		throw invalidParameter(this, 'Put Output File in Field', 'field names cannot contain spaces');
	}
	requestOptions.body = { url, getDownloadToken: false };
	return requestOptions;
}

/**
 * The service answers a download with the file as a stream. The stream goes straight into n8n's
 * binary data store; only an error answer (JSON envelope or HTTP error) is read, capped.
 */
async function storeDownloadedFile(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const url = String(this.getNodeParameter('url')).trim();
	const headers = response.headers as IDataObject;
	const mimeType = mimeTypeOf(headers['content-type']);

	if (response.statusCode >= 400 || mimeType === 'application/json') {
		const text = await readSmallBody(response.body);
		assertSuccessfulResponse(this.getNode(), OPERATION_LABEL, {
			statusCode: response.statusCode,
			body: text,
		});
		throw new NodeApiError(
			this.getNode(),
			{ statusCode: response.statusCode },
			{
				message: `${OPERATION_LABEL} failed: the Candidate Verification Service answered with JSON instead of a file`,
				description: 'Check that the URL is the private URL of a file held by the service.',
			},
		);
	}

	const options = this.getNodeParameter('downloadOptions', {}) as IDataObject;
	const fileName =
		(typeof options.fileName === 'string' && options.fileName.trim()) ||
		fileNameFromContentDisposition(headers['content-disposition']) ||
		fileNameFromUrl(url) ||
		'file';
	const binaryPropertyName = String(this.getNodeParameter('binaryPropertyName')).trim();
	const binary = await this.helpers.prepareBinaryData(
		response.body as Buffer,
		fileName,
		mimeType ?? undefined,
	);
	return [
		{
			// The input item's fields (transaction, candidate name…) stay next to the file's.
			json: {
				...this.getInputData().json,
				url,
				fileName: binary.fileName ?? fileName,
				mimeType: binary.mimeType,
				fileSize: binary.fileSize ?? null,
				bytes: binary.bytes ?? null,
				binaryPropertyName,
			},
			binary: { [binaryPropertyName]: binary },
			pairedItem: { item: this.getItemIndex() },
		},
	];
}

export const fileDownloadRouting = {
	request: {
		method: 'POST' as const,
		url: DOWNLOAD_FILE_PATH,
		encoding: 'stream' as const,
		json: false,
		headers: { Accept: '*/*', 'Content-Type': 'application/json' },
	},
	send: { preSend: [buildDownloadRequest] },
	output: { postReceive: [storeDownloadedFile] },
};
