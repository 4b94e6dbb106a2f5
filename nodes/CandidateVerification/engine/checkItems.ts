import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { ExpressionBatch } from './expressions';
import { ItemInput, problemLine, type Problem } from './itemInput';
import type { OperationDefinition, PreparedRequest } from './operation';

export const CHECK_LOG_MESSAGE = 'Candidate Verification: all-items check of';

const NOTHING_SENT =
	'Nothing was sent to the Candidate Verification Service for any item. Fix these items and run again, or set Settings → On Error to Continue to send the valid items.';
/**
 * The longest the all-items check holds n8n's main thread before letting its other work run (the
 * editor, webhooks, other executions): with expressions it takes 1–3 ms per item.
 */
const CHECK_SLICE_MS = 20;
export interface CheckedItem {
	prepared?: PreparedRequest;
	problems: Problem[];
}

export function problemsError(context: IExecuteFunctions, problems: Problem[], allItems: boolean) {
	const itemIndexes = [...new Set(problems.map((problem) => problem.itemIndex))];
	const only = problems.length === 1 ? problems[0] : undefined;
	const where = itemIndexes.length === 1 ? 'item' : 'items';
	const message = only
		? problemLine(only)
		: `${problems.length} invalid fields in ${where} ${itemIndexes.join(', ')}`;
	const lines = only ? [] : problems.map((problem) => `- ${problemLine(problem)}`);
	if (only?.hint) lines.push(only.hint);
	if (allItems) lines.push(NOTHING_SENT);
	return new NodeOperationError(context.getNode(), message, {
		itemIndex: itemIndexes[0],
		description: lines.join('\n') || undefined,
	});
}

/**
 * Every item read and checked before anything is sent (all of an item's expressions in one
 * evaluation), letting n8n's other work run every CHECK_SLICE_MS.
 */
export async function checkAllItems(
	context: IExecuteFunctions,
	operation: OperationDefinition,
	items: INodeExecutionData[],
	credentials: ICredentialDataDecryptedObject,
	/** Reads what else the run needs of an item (duplicate protection's keys) with its fields. */
	readAlso?: (input: ItemInput) => void,
): Promise<CheckedItem[]> {
	const started = Date.now();
	const timezone = context.getTimezone();
	// Request Options are read once per run, not per item.
	const parameters = { ...(context.getNode().parameters as IDataObject), requestOptions: {} };
	const batch = new ExpressionBatch(parameters);
	const checked: CheckedItem[] = [];
	let sliceStarted = started;
	for (const [itemIndex, item] of items.entries()) {
		if (Date.now() - sliceStarted >= CHECK_SLICE_MS) {
			await sleep(0);
			sliceStarted = Date.now();
		}
		const input = new ItemInput(context, itemIndex, item, timezone, batch, credentials);
		const prepared = operation.build(input);
		readAlso?.(input);
		input.settle();
		checked.push({ prepared, problems: input.problems });
	}
	// Read by `npm run bench` (N8N_LOG_LEVEL=debug) to report what the check costs in a run.
	context.logger.debug(
		`${CHECK_LOG_MESSAGE} ${items.length} items in ${Date.now() - started} ms, ${checked.reduce((sum, item) => sum + item.problems.length, 0)} problems`,
	);
	return checked;
}
