import type { IBinaryData, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { BINARY_ENCODING } from 'n8n-workflow';

import type { ItemInput } from '../../engine/itemInput';
import type { PreparedRequest } from '../../engine/operation';

export function privateFileUrlField(operations: string[]): INodeProperties {
	return {
		displayName: 'Private File URL',
		name: 'url',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. {{ $json.report }}',
		description:
			'URL of a private file held by the service, e.g. an uploaded document or a report URL from Transaction → Get Status',
		displayOptions: { show: { resource: ['file'], operation: operations } },
	};
}

export function readFileUrl(input: ItemInput): string | undefined {
	return input.text('Private File URL', input.param('url', 'Private File URL'));
}

/** Body of the download-file request; with a token asked for, the first step of a signed URL. */
export function buildTokenRequest(input: ItemInput): PreparedRequest {
	const url = readFileUrl(input);
	return { body: { url, getDownloadToken: true }, echo: { url } };
}

/**
 * A binary's size in bytes as stored: from the binary store's metadata when it is stored there,
 * else from the length of its in-memory data (without decoding it).
 */
export async function storedByteCount(
	this: IExecuteFunctions,
	binary: IBinaryData,
): Promise<number | null> {
	if (binary.id) {
		const { fileSize } = await this.helpers.getBinaryMetadata(binary.id);
		return Number.isFinite(Number(fileSize)) ? Number(fileSize) : null;
	}
	return binary.data ? Buffer.byteLength(binary.data, BINARY_ENCODING) : null;
}
