import { randomBytes } from 'node:crypto';
import type { IExecuteFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';
import { BINARY_ENCODING, NodeOperationError } from 'n8n-workflow';

import type { ItemInput } from '../../engine/itemInput';
import type { ItemCall, OperationDefinition, PreparedRequest } from '../../engine/operation';
import { UPLOAD_PATH } from '../../../shared/constants';
import { FILE_CATEGORIES, FILE_CATEGORY_OPTIONS } from '../../../shared/checks';
import { storedByteCount } from './shared';
import type { OperationOption } from '../../helpers/descriptions';

const showOnlyForUpload = { resource: ['file'], operation: ['upload'] };

export const option: OperationOption = {
	name: 'Upload',
	description:
		'Upload a PDF or image from a binary field to the service; returns the file URL that submissions take',
};

export const description: INodeProperties[] = [
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		hint: 'The name of the input binary field holding the file (PDF or image)',
		description: 'Binary field of the input item that holds the document to upload, usually data',
		displayOptions: { show: showOnlyForUpload },
	},
	{
		displayName: 'File Category',
		name: 'fileCategory',
		type: 'options',
		required: true,
		default: 'bgv-employment',
		options: [...FILE_CATEGORY_OPTIONS],
		description: 'The check the document belongs to',
		displayOptions: { show: showOnlyForUpload },
	},
];

function checkUpload(input: ItemInput): PreparedRequest {
	const propertyName = input.text(
		'Input Binary Field',
		input.param('binaryPropertyName', 'Input Binary Field'),
	);
	const fileCategory = input.oneOf(
		'File Category',
		input.param('fileCategory', 'File Category'),
		FILE_CATEGORIES,
	);
	const binary = propertyName ? input.item.binary?.[propertyName] : undefined;
	if (propertyName && !binary) {
		const available = Object.keys(input.item.binary ?? {});
		input.problem(
			'Input Binary Field',
			`the input item has no binary field "${propertyName}"`,
			available.length
				? `Binary fields on this item: ${available.join(', ')}`
				: 'This item has no binary data.',
		);
	}
	return {
		qs: { fileCategory },
		echo: { propertyName, fileCategory, fileName: binary?.fileName ?? null },
	};
}

/** Escapes a multipart header's quoted value as axios and the browsers do. */
function quoted(value: string): string {
	return value.replace(/[\r\n"]/g, (character) =>
		character === '\r' ? '%0D' : character === '\n' ? '%0A' : '%22',
	);
}

/** A MIME type as a Blob normalises it: lower case, or none when it has other than printable ASCII. */
function blobType(mimeType: string | undefined): string {
	return mimeType && /^[\x20-\x7E]*$/.test(mimeType) ? mimeType.toLowerCase() : '';
}

/**
 * The multipart body of an upload (one part, `file`), in the layout n8n's HTTP client gave a
 * FormData body. It is Blob-like: n8n's HTTP client sends a Blob with its `type` as the content
 * type and its `size` as the content length, reading `stream()` at each send. So the file is read
 * from n8n's binary data while it goes out, never held whole, and a retry reads it afresh.
 */
class MultipartUploadBody {
	readonly [Symbol.toStringTag] = 'Blob';

	readonly type: string;

	readonly size: number;

	constructor(
		private readonly head: Buffer,
		fileSize: number,
		private readonly tail: Buffer,
		private readonly readFile: () => Promise<AsyncIterable<Uint8Array> | Buffer>,
		boundary: string,
	) {
		this.type = `multipart/form-data; boundary=${boundary}`;
		this.size = head.length + fileSize + tail.length;
	}

	async *stream(): AsyncGenerator<Uint8Array> {
		yield this.head;
		const file = await this.readFile();
		if (Buffer.isBuffer(file)) yield file;
		else yield* file;
		yield this.tail;
	}
}

/**
 * Puts the item's binary into the request as a streamed multipart body: from n8n's binary store
 * when the binary has an ID, else from the item's in-memory data, decoded while it is sent.
 */
async function attachFile(this: IExecuteFunctions, call: ItemCall): Promise<void> {
	const propertyName = String(call.prepared.echo?.propertyName);
	const binary = call.item.binary![propertyName];
	const fileSize = await storedByteCount.call(this, binary);
	if (fileSize === null) {
		throw new NodeOperationError(
			this.getNode(),
			`The size of the file in the binary field "${propertyName}" is unknown`,
			{ itemIndex: call.itemIndex },
		);
	}
	const boundary = `candidate-verification-boundary-${randomBytes(12).toString('hex')}`;
	const fileName = binary.fileName ?? `document.${binary.fileExtension ?? 'bin'}`;
	const head = Buffer.from(
		`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoted(fileName)}"\r\n` +
			`Content-Type: ${blobType(binary.mimeType) || 'application/octet-stream'}\r\n\r\n`,
	);
	const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
	const readFile = async () =>
		binary.id
			? await this.helpers.getBinaryStream(binary.id)
			: Buffer.from(binary.data, BINARY_ENCODING);
	call.request.body = new MultipartUploadBody(
		head,
		fileSize,
		tail,
		readFile,
		boundary,
	) as unknown as IHttpRequestOptions['body'];
}

export const operation: OperationDefinition = {
	label: 'Upload a document',
	method: 'POST',
	path: UPLOAD_PATH,
	build: checkUpload,
	beforeSend: attachFile,
	output: (data, sent) => ({
		fileUrl: data.fileUrl,
		fileCategory: sent.echo?.fileCategory,
		fileName: sent.echo?.fileName,
	}),
	acceptedIdField: 'fileUrl',
};
