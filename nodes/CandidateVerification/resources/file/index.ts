import type { INodeProperties } from 'n8n-workflow';

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
			action: 'Download a private file',
			description: 'Download a private file into a binary field',
			routing: fileDownloadRouting,
		},
		{
			name: 'Get Download Token',
			value: 'getDownloadToken',
			action: 'Get a download token for a private file',
			description: 'First step of a signed URL; Get Signed URL does both steps',
			routing: fileGetDownloadTokenRouting,
		},
		{
			name: 'Get Signed URL',
			value: 'getSignedUrl',
			action: 'Get a signed URL for a private file',
			description: 'A link anyone can open for 180 minutes (token and URL in one step)',
			routing: fileGetSignedUrlRouting,
		},
		{
			name: 'Upload',
			value: 'upload',
			action: 'Upload a document',
			description:
				'Upload a PDF or image from a binary field; returns the file URL submissions take (from the provider public documentation)',
			routing: fileUploadRouting,
		},
	]),
	privateFileUrlField(['download', 'getDownloadToken', 'getSignedUrl']),
	...fileDownloadDescription,
	...fileUploadDescription,
];
