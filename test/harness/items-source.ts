import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

/** A file attached to a test item: `{ __files: { data: { text, fileName, mimeType } } }`. */
export interface TestFile {
	base64: string;
	fileName: string;
	mimeType: string;
	/** Kept in the item as base64 (as n8n's default binary mode does), not in the binary store. */
	inMemory?: boolean;
}

/**
 * Stands in for a spreadsheet, an ATS or a Read File node: emits the JSON items given in its
 * parameter, with files (stored by n8n's binary data service) where an item lists `__files`.
 */
// eslint-disable-next-line @n8n/community-nodes/node-usable-as-tool -- a test stand-in for a source node, not a node offered to agents
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
		const raw = this.getNodeParameter('items', 0) as string | IDataObject[];
		const items = (typeof raw === 'string' ? JSON.parse(raw) : raw) as IDataObject[];
		const output: INodeExecutionData[] = [];
		for (const { __files, ...json } of items) {
			const item: INodeExecutionData = { json };
			if (__files) {
				const binary: IBinaryKeyData = {};
				for (const [name, file] of Object.entries(__files as Record<string, TestFile>)) {
					binary[name] = file.inMemory
						? { data: file.base64, fileName: file.fileName, mimeType: file.mimeType }
						: await this.helpers.prepareBinaryData(
								Buffer.from(file.base64, 'base64'),
								file.fileName,
								file.mimeType,
							);
				}
				item.binary = binary;
			}
			output.push(item);
		}
		return [output];
	}
}
