import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { ACTIONS } from '../../shared/actions';
import {
	DOWNLOAD_FILE_PATH,
	SIGNED_URL_LIFETIME_MINUTES,
	SIGNED_URL_PATH,
} from '../../shared/constants';
import { preparedRequest, type PreparedRequest } from '../../shared/preflight';
import { serviceRouting } from '../../shared/routing';
import { serviceRequest } from '../../shared/transport';
import type { ItemInput } from '../../shared/validation';
import { readFileUrl } from './shared';

function buildTokenRequest(input: ItemInput): PreparedRequest {
	const url = readFileUrl(input);
	return { body: { url, getDownloadToken: true }, echo: { url } };
}

/** Step one of Get Signed URL, done before the routed request (step two) goes out. */
async function fetchDownloadToken(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const envelope = await serviceRequest.call(
		this,
		`${ACTIONS.fileGetSignedUrl} (download token step)`,
		{
			method: 'POST',
			path: DOWNLOAD_FILE_PATH,
			body: { url: preparedRequest(this).echo?.url, getDownloadToken: true },
			timeout: requestOptions.timeout,
		},
	);
	const token = (envelope.data as IDataObject | undefined)?.downloadToken;
	// The GET carries only the token; the checked body was for step one.
	delete requestOptions.body;
	requestOptions.qs = { ...(requestOptions.qs ?? {}), token: token as string };
	return requestOptions;
}

export const fileGetDownloadTokenRouting = serviceRouting({
	label: ACTIONS.fileGetDownloadToken,
	request: { method: 'POST', url: DOWNLOAD_FILE_PATH },
	build: buildTokenRequest,
	output: (data, sent) => ({ url: sent.echo?.url, downloadToken: data.downloadToken }),
});

export const fileGetSignedUrlRouting = serviceRouting({
	label: ACTIONS.fileGetSignedUrl,
	request: { method: 'GET', url: SIGNED_URL_PATH },
	build: buildTokenRequest,
	preSend: [fetchDownloadToken],
	output: (data, sent) => {
		const expiresAt = new Date(Date.now() + SIGNED_URL_LIFETIME_MINUTES * 60_000);
		return {
			url: sent.echo?.url,
			signedUrl: data.signedUrl,
			expiresAt: expiresAt.toISOString(),
			expiresInMinutes: SIGNED_URL_LIFETIME_MINUTES,
		};
	},
});
