import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

/** Stands in for a spreadsheet or ATS node: emits the JSON items given in its parameter. */
export class ItemsSource implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Items Source',
		name: 'itemsSource',
		group: ['input'],
		version: 1,
		description: 'Emits fixed items',
		defaults: { name: 'Items' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const raw = this.getNodeParameter('items', 0) as string | object[];
		const items = (typeof raw === 'string' ? JSON.parse(raw) : raw) as object[];
		return [items.map((json) => ({ json: json as INodeExecutionData['json'] }))];
	}
}
