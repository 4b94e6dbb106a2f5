import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

import { ACTIONS } from '../../shared/actions';
import { FILE_CATEGORIES, UTILITY_API } from '../../shared/constants';
import { handleResponse } from '../../shared/routing';
import { invalidParameter, requireOneOf, requireText } from '../../shared/validation';

const showOnlyForUpload = { resource: ['file'], operation: ['upload'] };

export const fileUploadDescription: INodeProperties[] = [
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
		options: FILE_CATEGORIES.map((category) => ({ name: category, value: category })),
		description: 'The check the document belongs to',
		displayOptions: { show: showOnlyForUpload },
	},
];

/**
 * Multipart body with the file in the `file` field. n8n gives nodes no way to build a multipart
 * stream without a runtime dependency, so the file is read once into a Blob for the request.
 */
async function buildUploadRequest(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const propertyName = requireText(this, 'binaryPropertyName', 'Input Binary Field');
	const fileCategory = requireOneOf(
		this,
		'File Category',
		this.getNodeParameter('fileCategory', ''),
		FILE_CATEGORIES,
	);
	const item = this.getInputData();
	const binary = item.binary?.[propertyName];
	if (!binary) {
		const available = Object.keys(item.binary ?? {});
		throw invalidParameter(
			this,
			'Input Binary Field',
			`the input item has no binary field "${propertyName}"`,
			available.length
				? `Binary fields on this item: ${available.join(', ')}`
				: 'This item has no binary data.',
		);
	}
	const content = await this.helpers.getBinaryDataBuffer(propertyName);
	const form = new FormData();
	form.append(
		'file',
		new Blob([content], { type: binary.mimeType || 'application/octet-stream' }),
		binary.fileName ?? `document.${binary.fileExtension ?? 'bin'}`,
	);
	requestOptions.body = form;
	requestOptions.qs = { ...(requestOptions.qs ?? {}), fileCategory };
	return requestOptions;
}

export const fileUploadRouting = {
	request: { method: 'POST' as const, url: `${UTILITY_API}/files` },
	send: { preSend: [buildUploadRequest] },
	output: {
		postReceive: [
			handleResponse(ACTIONS.fileUpload, function (data) {
				const binary =
					this.getInputData().binary?.[String(this.getNodeParameter('binaryPropertyName')).trim()];
				return {
					fileUrl: data.fileUrl,
					fileCategory: this.getNodeParameter('fileCategory') as string,
					fileName: binary?.fileName ?? null,
				};
			}),
		],
	},
};
