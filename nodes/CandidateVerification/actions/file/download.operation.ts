import type {
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	IN8nHttpFullResponse,
	INode,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { ItemInput } from '../../engine/itemInput';
import type { ItemCall, OperationDefinition, PreparedRequest } from '../../engine/operation';
import { DOWNLOAD_FILE_PATH } from '../../../shared/constants';
import { assertSuccessfulResponse, excerpt } from '../../../shared/transport/errors';
import { privateFileUrlField, readFileUrl, storedByteCount } from './shared';
import type { OperationOption } from '../../helpers/descriptions';

const OPERATION_LABEL = 'Download a private file';
/** An error body is small; a body larger than this is not read into memory to explain an error. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

export const option: OperationOption = {
	name: 'Download',
	description:
		'Download a private file held by the service (a document or a report) into a binary field; keeps the input item’s fields',
};

export const description: INodeProperties[] = [
	privateFileUrlField(['download']),
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
				displayName: 'Allow HTML File',
				name: 'allowHtmlFile',
				type: 'boolean',
				default: false,
				description:
					'Whether a web page the service answers with is stored as the file. Off: an HTML answer (a login page, a gateway’s page) fails the item instead, as a verification report is never a web page.',
			},
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

function looksLikeJson(chunk: Buffer): boolean {
	return chunk.subarray(0, 64).toString('utf8').trimStart().startsWith('{');
}

const HTML_TYPES = ['text/html', 'application/xhtml+xml'];

/** A web page, by its content type or, whatever it is labelled, by how it starts. */
function isHtml(mimeType: string | undefined, head: Buffer): boolean {
	if (mimeType && HTML_TYPES.includes(mimeType)) return true;
	const start = head
		.subarray(0, 256)
		.toString('utf8')
		.replace(/^\uFEFF/, '')
		.trimStart();
	return /^<(!doctype\s+html|html[\s>])/i.test(start);
}

function htmlPageError(
	node: INode,
	response: IN8nHttpFullResponse,
	contentType: unknown,
	head: Buffer,
): NodeApiError {
	const text = head.toString('utf8');
	const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1].replace(/\s+/g, ' ').trim();
	const { statusCode } = response;
	return new NodeApiError(
		node,
		{ statusCode },
		{
			message: `${OPERATION_LABEL} failed: the Candidate Verification Service answered HTTP ${statusCode} with a web page (${String(contentType ?? 'no content type')}${title ? `, title "${title}"` : ''}) instead of a file`,
			description: [
				`Body starts with: ${excerpt(text)}`,
				'A login page, a proxy or a gateway may have answered instead of the service: check the Private File URL and the base URL of the credential. If the file may really be an HTML page, turn on Options → Allow HTML File.',
			].join('\n'),
			httpCode: String(statusCode),
		},
	);
}

/** The part of a Node readable stream (the response body) the download reads. */
interface BodyStream {
	read(): Buffer | string | null;
	unshift(chunk: Buffer): void;
	on(event: string, listener: (...args: unknown[]) => void): unknown;
	off(event: string, listener: (...args: unknown[]) => void): unknown;
	readableEnded?: boolean;
}

async function readChunk(stream: BodyStream): Promise<Buffer | null> {
	const ready = stream.read();
	if (ready !== null) return Buffer.from(ready);
	if (stream.readableEnded) return null;
	return await new Promise((resolve, reject) => {
		const stop = () => {
			stream.off('readable', onReadable);
			stream.off('end', onEnd);
			stream.off('error', onError);
		};
		const onReadable = () => {
			const chunk = stream.read();
			if (chunk === null) return;
			stop();
			resolve(Buffer.from(chunk));
		};
		const onEnd = () => {
			stop();
			resolve(null);
		};
		const onError = (error: unknown) => {
			stop();
			reject(error as Error);
		};
		stream.on('readable', onReadable);
		stream.on('end', onEnd);
		stream.on('error', onError);
	});
}

/**
 * Reads the start of the answer: an error envelope is small JSON, whatever content type it was
 * labelled with. `head` is what was read (all of a small JSON answer); `file` is the whole body
 * to store: the bytes read are put back into the stream, which is never held in memory.
 */
async function peekBody(
	body: unknown,
): Promise<{ head: Buffer; complete: boolean; file: unknown }> {
	if (typeof body === 'string' || Buffer.isBuffer(body)) {
		const buffer = Buffer.isBuffer(body) ? body : Buffer.from(body);
		return { head: buffer, complete: true, file: buffer };
	}
	const stream = body as BodyStream;
	const chunks: Buffer[] = [];
	let size = 0;
	for (let chunk = await readChunk(stream); ; chunk = await readChunk(stream)) {
		if (chunk === null) {
			const head = Buffer.concat(chunks);
			return { head, complete: true, file: head };
		}
		chunks.push(chunk);
		size += chunk.length;
		if (!looksLikeJson(chunks[0]) || size > MAX_ERROR_BODY_BYTES) break;
	}
	const head = Buffer.concat(chunks);
	stream.unshift(head);
	return { head, complete: false, file: stream };
}

function buildDownloadRequest(input: ItemInput): PreparedRequest {
	const url = readFileUrl(input);
	const binaryPropertyName = input.text(
		'Put Output File in Field',
		input.param('binaryPropertyName', 'Put Output File in Field'),
	);
	if (binaryPropertyName && /\s/.test(binaryPropertyName)) {
		input.problem('Put Output File in Field', 'field names cannot contain spaces');
	}
	const options = (input.param('downloadOptions', 'Options', {}) ?? {}) as IDataObject;
	const fileName = typeof options.fileName === 'string' ? options.fileName.trim() : '';
	return {
		body: { url, getDownloadToken: false },
		echo: { url, binaryPropertyName, fileName, allowHtmlFile: options.allowHtmlFile === true },
	};
}

/** The stored file's size in bytes: n8n 2.x records it on the binary; n8n 1.x and 2.0 do not. */
async function byteCount(this: IExecuteFunctions, binary: IBinaryData): Promise<number | null> {
	return typeof binary.bytes === 'number' ? binary.bytes : await storedByteCount.call(this, binary);
}

/**
 * The service answers a download with the file as a stream. The stream goes straight into n8n's
 * binary data store; an error answer (a JSON envelope under any content type, or an HTTP error)
 * is read, capped, and never stored as a file.
 */
async function storeDownloadedFile(
	this: IExecuteFunctions,
	response: IN8nHttpFullResponse,
	call: ItemCall,
): Promise<INodeExecutionData[]> {
	const {
		url,
		binaryPropertyName,
		fileName: fileNameOption,
		allowHtmlFile,
	} = call.prepared.echo ?? {};
	const headers = response.headers as IDataObject;
	const mimeType = mimeTypeOf(headers['content-type']);
	const { head, complete, file } = await peekBody(response.body);
	let envelope: unknown;
	try {
		// Only a complete small JSON answer can be an envelope; larger ones are files.
		envelope = complete && looksLikeJson(head) ? JSON.parse(head.toString('utf8')) : undefined;
	} catch {
		envelope = undefined;
	}
	const isEnvelope =
		typeof envelope === 'object' &&
		envelope !== null &&
		typeof (envelope as IDataObject).code === 'number';

	if (response.statusCode >= 400 || isEnvelope || mimeType === 'application/json') {
		assertSuccessfulResponse(this.getNode(), OPERATION_LABEL, {
			statusCode: response.statusCode,
			body: head.toString('utf8'),
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

	if (!allowHtmlFile && isHtml(mimeType, head)) {
		(file as { destroy?: () => void }).destroy?.();
		throw htmlPageError(this.getNode(), response, headers['content-type'], head);
	}

	const fileName =
		(typeof fileNameOption === 'string' && fileNameOption) ||
		fileNameFromContentDisposition(headers['content-disposition']) ||
		fileNameFromUrl(String(url)) ||
		'file';
	const binary = await this.helpers.prepareBinaryData(
		file as Buffer,
		fileName,
		mimeType ?? undefined,
	);
	return [
		{
			// The input item's fields (transaction, candidate name…) stay next to the file's.
			json: {
				...call.item.json,
				url,
				fileName: binary.fileName ?? fileName,
				mimeType: binary.mimeType,
				fileSize: binary.fileSize ?? null,
				bytes: await byteCount.call(this, binary),
				binaryPropertyName,
			},
			binary: { [String(binaryPropertyName)]: binary },
			pairedItem: { item: call.itemIndex },
		},
	];
}

export const operation: OperationDefinition = {
	label: OPERATION_LABEL,
	method: 'POST',
	path: DOWNLOAD_FILE_PATH,
	build: buildDownloadRequest,
	output: {
		read: storeDownloadedFile,
		requestOptions: {
			encoding: 'stream',
			json: false,
			headers: { Accept: '*/*', 'Content-Type': 'application/json' },
		},
		// A file may be served from another address (a storage service): followed, the key only to
		// the service's own origin.
		followRedirects: true,
	},
};
