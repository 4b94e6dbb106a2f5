import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { PURPOSES_PATH } from '../../shared/constants';
import { serviceRequest } from '../../shared/transport';

/**
 * The "From List" mode of Form → Create's Purpose (list endpoint from the provider's public
 * documentation). A resource locator, not an `options` dropdown: n8n's editor loads an options
 * dropdown the moment a node is added, before it has attached the credential, and does not retry
 * while that first load is in flight ("Node does not have any credentials set"). A resource
 * locator loads when the list is opened and caches its results per credential.
 * The service returns every purpose at once, so the search filters here, by name or ID.
 */
export async function searchPurposes(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const envelope = await serviceRequest.call(this, 'Get Purposes', {
		method: 'GET',
		path: PURPOSES_PATH,
	});
	const list = (envelope.data?.list ?? []) as IDataObject[];
	const needle = (filter ?? '').trim().toLowerCase();
	const results = list
		.filter((purpose) => typeof purpose._id === 'string')
		.map((purpose) => ({
			name: String(purpose.name ?? purpose._id),
			value: purpose._id as string,
		}))
		.filter(
			({ name, value }) =>
				needle === '' ||
				name.toLowerCase().includes(needle) ||
				value.toLowerCase().includes(needle),
		)
		.sort((a, b) => a.name.localeCompare(b.name));
	return { results };
}
