import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

import { ACTIONS } from '../../shared/actions';
import { FILE_CATEGORIES, UPLOAD_PATH } from '../../shared/constants';
import { preparedRequest, type PreparedRequest } from '../../shared/preflight';
import { serviceRouting } from '../../shared/routing';
import type { ItemInput } from '../../shared/validation';

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

/**
 * Multipart body with the file in the `file` field. n8n gives nodes no way to build a multipart
 * stream without a runtime dependency, so the file is read once into a Blob for the request.
 */
async function attachFile(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const propertyName = String(preparedRequest(this).echo?.propertyName);
	const binary = this.getInputData().binary![propertyName];
	const content = await this.helpers.getBinaryDataBuffer(propertyName);
	const form = new FormData();
	form.append(
		'file',
		new Blob([content], { type: binary.mimeType || 'application/octet-stream' }),
		binary.fileName ?? `document.${binary.fileExtension ?? 'bin'}`,
	);
	requestOptions.body = form;
	return requestOptions;
}

export const fileUploadRouting = serviceRouting({
	label: ACTIONS.fileUpload,
	request: { method: 'POST', url: UPLOAD_PATH },
	build: checkUpload,
	preSend: [attachFile],
	output: (data, sent) => ({
		fileUrl: data.fileUrl,
		fileCategory: sent.echo?.fileCategory,
		fileName: sent.echo?.fileName,
	}),
	acceptedId: (json) => json.fileUrl,
});
