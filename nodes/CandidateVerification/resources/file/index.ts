import type { INodeProperties } from 'n8n-workflow';

import { ACTIONS } from '../../shared/actions';
import { operationSelector } from '../../shared/descriptions';
import { fileDownloadDescription, fileDownloadRouting } from './download';
import { privateFileUrlField } from './shared';
import { fileGetDownloadTokenRouting, fileGetSignedUrlRouting } from './signedUrl';
import { fileUploadDescription, fileUploadRouting } from './upload';

export const fileDescription: INodeProperties[] = [
	operationSelector('file', [
		{
			name: 'Download',
			value: 'download',
			action: ACTIONS.fileDownload,
			description:
				'Download a private file held by the service (a document or a report) into a binary field; keeps the input item’s fields',
			routing: fileDownloadRouting,
		},
		{
			name: 'Get Download Token',
			value: 'getDownloadToken',
			action: ACTIONS.fileGetDownloadToken,
			description:
				'Create a one-time download token for a private file (the first step of a signed URL; Get Signed URL does both)',
			routing: fileGetDownloadTokenRouting,
		},
		{
			name: 'Get Signed URL',
			value: 'getSignedUrl',
			action: ACTIONS.fileGetSignedUrl,
			description:
				'Create a signed link to a private file that anyone can open for 180 minutes (token and URL in one step)',
			routing: fileGetSignedUrlRouting,
		},
		{
			name: 'Upload',
			value: 'upload',
			action: ACTIONS.fileUpload,
			description:
				'Upload a PDF or image from a binary field to the service; returns the file URL that submissions take',
			routing: fileUploadRouting,
		},
	]),
	privateFileUrlField(['download', 'getDownloadToken', 'getSignedUrl']),
	...fileDownloadDescription,
	...fileUploadDescription,
];
