import { NodeConnectionTypes } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';

/**
 * The baseline of the per-item cost guard: what n8n's HTTP Request node does for a bulk POST, written as a
 * plain programmatic node. It reads the credential once, resolves the same per-item parameters as
 * Profile → Create, then sends every item's request with this.helpers.httpRequest, all at once.
 */
// eslint-disable-next-line @n8n/community-nodes/node-usable-as-tool -- a test-only baseline node, never published or offered to an agent
export class BulkPost implements INodeType {
	description: INodeType['description'] = {
		displayName: 'Bulk Post',
		name: 'bulkPost',
		group: ['transform'],
		version: 1,
		description: 'POSTs one JSON body per item',
		defaults: { name: 'Bulk Post' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'candidateVerificationApi', required: true }],
		properties: [
			{ displayName: 'Path', name: 'path', type: 'string', default: '' },
			{ displayName: 'Body', name: 'body', type: 'json', default: '{}' },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const credentials = await this.getCredentials('candidateVerificationApi');
		const baseUrl = String(credentials.stagingBaseUrl).replace(/\/+$/, '');
		const items = this.getInputData();
		const answers = await Promise.all(
			items.map(async (_item, itemIndex) => {
				const body = this.getNodeParameter('body', itemIndex) as IDataObject;
				return (await this.helpers.httpRequest({
					method: 'POST',
					url: `${baseUrl}${this.getNodeParameter('path', itemIndex) as string}`,
					headers: { 'x-api-key': String(credentials.apiKey) },
					body,
					json: true,
				})) as IDataObject;
			}),
		);
		return [
			answers.map((answer, item) => ({ json: answer.data as IDataObject, pairedItem: { item } })),
		];
	}
}
