import type { INodeProperties } from 'n8n-workflow';

import {
	operationFields,
	operationSelector,
	type ResourceOperations,
} from '../../helpers/descriptions';
import * as download from './download.operation';
import * as getDownloadToken from './getDownloadToken.operation';
import * as getSignedUrl from './getSignedUrl.operation';
import * as upload from './upload.operation';

/** How the Resource selector names the resource. */
export const displayName = 'File';

/** The resource's operations by value, in the order its Operation selector lists them. */
export const operations = {
	download,
	getDownloadToken,
	getSignedUrl,
	upload,
} satisfies ResourceOperations;

export const description: INodeProperties[] = [
	operationSelector('file', operations),
	...operationFields(operations),
];
