import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { ItemInput } from '../../engine/itemInput';
import type { ItemCall, OperationDefinition, PreparedRequest } from '../../engine/operation';
import { ACTIONS } from '../../helpers/actions';
import { FILE_CATEGORIES, FILE_CATEGORY_OPTIONS, UPLOAD_PATH } from '../../helpers/constants';

const showOnlyForUpload = { resource: ['file'], operation: ['upload'] };

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

/**
 * Multipart body with the file in the `file` field. n8n gives nodes no way to build a multipart
 * stream without a runtime dependency, so the file is read once into a Blob for the request.
 */
async function attachFile(this: IExecuteFunctions, call: ItemCall): Promise<void> {
	const propertyName = String(call.prepared.echo?.propertyName);
	const binary = call.item.binary![propertyName];
	const content = await this.helpers.getBinaryDataBuffer(call.itemIndex, propertyName);
	const form = new FormData();
	form.append(
		'file',
		new Blob([content], { type: binary.mimeType || 'application/octet-stream' }),
		binary.fileName ?? `document.${binary.fileExtension ?? 'bin'}`,
	);
	call.request.body = form;
}

export const operation: OperationDefinition = {
	label: ACTIONS.fileUpload,
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
