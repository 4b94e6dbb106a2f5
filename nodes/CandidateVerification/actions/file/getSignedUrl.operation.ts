import type { IDataObject } from 'n8n-workflow';

import type { ItemCall, OperationDefinition } from '../../engine/operation';
import {
	DOWNLOAD_FILE_PATH,
	SIGNED_URL_LIFETIME_MINUTES,
	SIGNED_URL_PATH,
} from '../../../shared/constants';
import { buildTokenRequest, privateFileUrlField } from './shared';
import type { OperationOption } from '../../helpers/descriptions';

export const option: OperationOption = {
	name: 'Get Signed URL',
	description:
		'Create a signed link to a private file that anyone can open for 180 minutes (token and URL in one step)',
};

export const description = [privateFileUrlField(['getSignedUrl'])];

/** The operation's action label, as the node creator and its errors name it. */
const LABEL = 'Get a signed URL for a private file';

/** Step one: a download token for the file; step two (the operation's request) carries only it. */
async function fetchDownloadToken(call: ItemCall): Promise<void> {
	const envelope = await call.callService(`${LABEL} (download token step)`, {
		method: 'POST',
		url: DOWNLOAD_FILE_PATH,
		body: call.prepared.body,
	});
	const token = (envelope.data as IDataObject | undefined)?.downloadToken;
	delete call.request.body;
	call.request.qs = { token: token as string };
}

export const operation: OperationDefinition = {
	label: LABEL,
	method: 'GET',
	path: SIGNED_URL_PATH,
	build: buildTokenRequest,
	beforeSend: async (call) => await fetchDownloadToken(call),
	output: (data, sent) => {
		const expiresAt = new Date(Date.now() + SIGNED_URL_LIFETIME_MINUTES * 60_000);
		return {
			url: sent.echo?.url,
			signedUrl: data.signedUrl,
			expiresAt: expiresAt.toISOString(),
			expiresInMinutes: SIGNED_URL_LIFETIME_MINUTES,
		};
	},
};
