import type { INodeProperties } from 'n8n-workflow';

export const DOWNLOAD_FILE_PATH = '/verification/api/1.0/download-manager/download-file';

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
