import type {
	IDataObject,
	IExecuteData,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INode,
} from 'n8n-workflow';

import { checkItemsThenPrepare } from '../../nodes/CandidateVerification/shared/preflight';
import type { ItemInput } from '../../nodes/CandidateVerification/shared/validation';
import { TEST_BASE_URL, TEST_CREDENTIALS } from '../harness/credentials-helper';

/**
 * n8n hands a node called as an AI Agent's tool the agent's execute data (n8n-core's
 * makeHandleToolInvocation → SupplyDataContext), the same object for every tool call of the
 * agent's run. Each call must be checked and sent with its own arguments.
 */
function toolCallContext(
	agentExecuteData: IExecuteData,
	toolNode: INode,
	toolArgs: IDataObject,
): IExecuteSingleFunctions {
	return {
		getExecuteData: () => agentExecuteData,
		getNode: () => toolNode,
		getItemIndex: () => 0,
		getInputData: () => ({ json: toolArgs }),
		getTimezone: () => 'Asia/Kolkata',
		continueOnFail: () => false,
		getCredentials: async () => TEST_CREDENTIALS,
		logger: { debug: () => {} },
		evaluateExpression: (expression: string) =>
			expression.replace(/\{\{\s*\$json\.(\w+)\s*\}\}/, (_all, key: string) =>
				String(toolArgs[key]),
			),
	} as unknown as IExecuteSingleFunctions;
}

const buildStatusQuery = (input: ItemInput) => ({
	qs: { txnId: input.text('Transaction ID', input.param('transactionId', 'Transaction ID')) },
});

describe('Preflight for a node called as an AI Agent tool', () => {
	const agentExecuteData = {
		node: { name: 'AI Agent', parameters: {} },
		data: { main: [[{ json: { chatInput: 'check Asha' } }]] },
		source: null,
	} as unknown as IExecuteData;
	const toolNode = {
		name: 'Get Transaction Status',
		parameters: { transactionId: '={{ $json.transactionId }}' },
	} as unknown as INode;

	it("checks and sends each call's own arguments, not the agent's input or an earlier call's", async () => {
		const preSend = checkItemsThenPrepare(buildStatusQuery);
		const sent: IHttpRequestOptions[] = [];
		for (const transactionId of ['TXN-1', 'TXN-2']) {
			const context = toolCallContext(agentExecuteData, toolNode, { transactionId });
			sent.push(await preSend.call(context, { url: '/status', qs: {} }));
		}

		expect(sent.map((request) => request.qs)).toEqual([{ txnId: 'TXN-1' }, { txnId: 'TXN-2' }]);
		expect(sent.map((request) => request.baseURL)).toEqual([TEST_BASE_URL, TEST_BASE_URL]);
	});
});
