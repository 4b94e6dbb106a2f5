import type { INodeProperties } from 'n8n-workflow';

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
