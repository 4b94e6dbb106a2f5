/**
 * The action labels the trigger uses too (it reads a transaction's and a check's status): one name per
 * operation, the action n8n shows in the node creator and the AI agent's tool list, and the operation
 * every error of that operation names, so the two nodes never disagree. Every other operation declares
 * its label in its operation file (actions/<resource>/<operation>.operation.ts).
 */
export const ACTIONS = {
	transactionGetCheckStatus: 'Get the status of one check',
	transactionGetStatus: 'Get the status of a transaction',
} as const;
