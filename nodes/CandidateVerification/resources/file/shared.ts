import type { INodeProperties } from 'n8n-workflow';

import type { ItemInput } from '../../shared/validation';

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
