import type { OperationDefinition } from '../../engine/operation';
import { ACTIONS } from '../../../shared/actions';
import { DOWNLOAD_FILE_PATH } from '../../../shared/constants';
import { buildTokenRequest, privateFileUrlField } from './shared';

export const description = [privateFileUrlField(['getDownloadToken'])];

export const operation: OperationDefinition = {
	label: ACTIONS.fileGetDownloadToken,
	method: 'POST',
	path: DOWNLOAD_FILE_PATH,
	build: buildTokenRequest,
	output: (data, sent) => ({ url: sent.echo?.url, downloadToken: data.downloadToken }),
};
