import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { PURPOSES_PATH } from './constants';
import { serviceRequest } from './transport';

/** Purposes by name for Form → Create (list endpoint from the provider's public documentation). */
export async function getPurposes(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const envelope = await serviceRequest.call(this, 'Get Purposes', {
		method: 'GET',
		path: PURPOSES_PATH,
	});
	const list = (envelope.data?.list ?? []) as IDataObject[];
	return list
		.filter((purpose) => typeof purpose._id === 'string')
		.map((purpose) => ({
			name: String(purpose.name ?? purpose._id),
			value: purpose._id as string,
		}))
		.sort((a, b) => a.name.localeCompare(b.name));
}
