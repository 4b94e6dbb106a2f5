import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { ACTIONS } from '../../shared/actions';
import { SIGNED_URL_LIFETIME_MINUTES, VERIFICATION_API } from '../../shared/constants';
import { handleResponse } from '../../shared/routing';
import { serviceRequest } from '../../shared/transport';
import { requireText } from '../../shared/validation';
import { DOWNLOAD_FILE_PATH } from './shared';

function readUrl(context: IExecuteSingleFunctions): string {
	return requireText(context, 'url', 'Private File URL');
}

async function buildTokenRequest(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	requestOptions.body = { url: readUrl(this), getDownloadToken: true };
	return requestOptions;
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
			body: { url: readUrl(this), getDownloadToken: true },
		},
	);
	const token = (envelope.data as IDataObject | undefined)?.downloadToken;
	requestOptions.qs = { ...(requestOptions.qs ?? {}), token: token as string };
	return requestOptions;
}

export const fileGetDownloadTokenRouting = {
	request: { method: 'POST' as const, url: DOWNLOAD_FILE_PATH },
	send: { preSend: [buildTokenRequest] },
	output: {
		postReceive: [
			handleResponse(ACTIONS.fileGetDownloadToken, function (data) {
				return { url: readUrl(this), downloadToken: data.downloadToken };
			}),
		],
	},
};

export const fileGetSignedUrlRouting = {
	request: { method: 'GET' as const, url: `${VERIFICATION_API}/download-manager/url` },
	send: { preSend: [fetchDownloadToken] },
	output: {
		postReceive: [
			handleResponse(ACTIONS.fileGetSignedUrl, function (data) {
				const expiresAt = new Date(Date.now() + SIGNED_URL_LIFETIME_MINUTES * 60_000);
				return {
					url: readUrl(this),
					signedUrl: data.signedUrl,
					expiresAt: expiresAt.toISOString(),
					expiresInMinutes: SIGNED_URL_LIFETIME_MINUTES,
				};
			}),
		],
	},
};
