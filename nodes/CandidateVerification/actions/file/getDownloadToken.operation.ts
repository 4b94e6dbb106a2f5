import type { OperationDefinition } from '../../engine/operation';
import { DOWNLOAD_FILE_PATH } from '../../../shared/constants';
import { buildTokenRequest, privateFileUrlField } from './shared';
import type { OperationOption } from '../../helpers/descriptions';

export const option: OperationOption = {
	name: 'Get Download Token',
	description:
		'Create a one-time download token for a private file (the first step of a signed URL; Get Signed URL does both)',
};

export const description = [privateFileUrlField(['getDownloadToken'])];

export const operation: OperationDefinition = {
	label: 'Get a download token for a private file',
	method: 'POST',
	path: DOWNLOAD_FILE_PATH,
	build: buildTokenRequest,
	output: (data, sent) => ({ url: sent.echo?.url, downloadToken: data.downloadToken }),
};
