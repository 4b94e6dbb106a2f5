import { resourceOf } from '../../helpers/descriptions';
import * as download from './download.operation';
import * as getDownloadToken from './getDownloadToken.operation';
import * as getSignedUrl from './getSignedUrl.operation';
import * as upload from './upload.operation';

/** Its name in the Resource selector, its operations in the selector's order, and its fields. */
export const { displayName, operations, description } = resourceOf('file', 'File', {
	download,
	getDownloadToken,
	getSignedUrl,
	upload,
});
