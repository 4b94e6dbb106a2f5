import type {
	IDataObject,
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	PostReceiveAction,
} from 'n8n-workflow';

import { assertSuccessfulResponse } from './errors';

type ItemShaper = (
	this: IExecuteSingleFunctions,
	data: IDataObject,
	response: IN8nHttpFullResponse,
) => IDataObject | IDataObject[] | Promise<IDataObject | IDataObject[]>;

/**
 * The one post-receive every JSON operation uses: checks the envelope (code must be 0, under
 * any HTTP status), then turns the envelope's data into output items paired with the input item.
 */
export function handleResponse(operationLabel: string, shape: ItemShaper): PostReceiveAction {
	return async function (
		this: IExecuteSingleFunctions,
		_items: INodeExecutionData[],
		response: IN8nHttpFullResponse,
	): Promise<INodeExecutionData[]> {
		const envelope = assertSuccessfulResponse(this.getNode(), operationLabel, response);
		const shaped = await shape.call(this, envelope.data ?? {}, response);
		const pairedItem = { item: this.getItemIndex() };
		return (Array.isArray(shaped) ? shaped : [shaped]).map((json) => ({ json, pairedItem }));
	};
}

/** Output the envelope's data object as it is. */
export const envelopeData: ItemShaper = (data) => data;
