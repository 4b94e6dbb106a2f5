import type { INodeProperties } from 'n8n-workflow';

import { ACTIONS } from '../../../shared/actions';
import { operationSelector } from '../../helpers/descriptions';
import * as download from './download.operation';
import * as getDownloadToken from './getDownloadToken.operation';
import * as getSignedUrl from './getSignedUrl.operation';
import * as upload from './upload.operation';

export { download, getDownloadToken, getSignedUrl, upload };

export const description: INodeProperties[] = [
	operationSelector('file', [
		{
			name: 'Download',
			value: 'download',
			action: ACTIONS.fileDownload,
			description:
				'Download a private file held by the service (a document or a report) into a binary field; keeps the input item’s fields',
		},
		{
			name: 'Get Download Token',
			value: 'getDownloadToken',
			action: ACTIONS.fileGetDownloadToken,
			description:
				'Create a one-time download token for a private file (the first step of a signed URL; Get Signed URL does both)',
		},
		{
			name: 'Get Signed URL',
			value: 'getSignedUrl',
			action: ACTIONS.fileGetSignedUrl,
			description:
				'Create a signed link to a private file that anyone can open for 180 minutes (token and URL in one step)',
		},
		{
			name: 'Upload',
			value: 'upload',
			action: ACTIONS.fileUpload,
			description:
				'Upload a PDF or image from a binary field to the service; returns the file URL that submissions take',
		},
	]),
	...download.description,
	...getDownloadToken.description,
	...getSignedUrl.description,
	...upload.description,
];
