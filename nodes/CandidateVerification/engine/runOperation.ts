import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../../shared/constants';
import { baseUrlFromCredentials } from '../../shared/transport';
import { checkAllItems, problemsError } from './checkItems';
import { DUPLICATE_MODES, DuplicateProtection } from './duplicateProtection';
import type { OperationDefinition } from './operation';
import { OperationRun } from './operationRun';
import { readRunSettings } from './requestOptions';

export { CHECK_LOG_MESSAGE } from './checkItems';
export { LOST_ANSWER_ADVICE } from './operationRun';

/**
 * One run of one operation over the node's input, on n8n's public `execute()` API:
 * 1. every item is read and checked (all of an item's expressions in one evaluation); with
 *    On Error = Stop one invalid item means nothing is sent for any item;
 * 2. the credential is read once;
 * 3. valid items are sent with bounded concurrency (and Request Options → Batching), each with the
 *    node's own retries of transient failures; with Stop the first failure stops sending more;
 * 4. outputs are paired with their input items, in input order. Items the service accepted in an
 *    earlier try of n8n's Retry On Fail are not sent again: their outputs are reused;
 * 5. for operations that create something, duplicate protection (DuplicateProtection, SentRecord)
 *    claims each chunk of rows in n8n's deduplication store just before it leaves, so no later
 *    execution sends a row again.
 */
export async function runOperation(
	this: IExecuteFunctions,
	operation: OperationDefinition,
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const continueOnFail = this.continueOnFail();
	const settings = readRunSettings(this);
	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	const run = new OperationRun(this, operation, settings, credentials);
	const protection = operation.protectedFromDuplicates
		? DuplicateProtection.open(run, credentials, baseUrlFromCredentials(credentials))
		: undefined;
	const passedThrough = await protection?.runModeWithoutRows(items);
	if (passedThrough) return passedThrough;
	const checked = await checkAllItems(this, operation, items, credentials, protection);
	run.checked = checked;

	const problems = checked.flatMap((item) => item.problems);
	if (problems.length > 0 && !continueOnFail) throw problemsError(this, problems, true);

	const outputs = run.outputs;
	let toSend: number[] = [];
	checked.forEach(({ problems: itemProblems }, itemIndex) => {
		if (itemProblems.length > 0) {
			outputs[itemIndex] = run.errorOutput(problemsError(this, itemProblems, false), itemIndex);
			return;
		}
		const remembered = run.memory.outputOf(itemIndex);
		if (remembered) {
			outputs[itemIndex] = remembered;
			run.accepted.set(itemIndex, { output: remembered });
		} else toSend.push(itemIndex);
	});

	if (protection?.mode === DUPLICATE_MODES.recordAsSent) {
		await protection.recordAsSent(toSend);
		return [outputs.flat()];
	}
	if (protection) toSend = protection.firstOfEachRow(toSend);
	run.protection = protection;

	await run.sendAll(toSend, items);
	await protection?.settle();

	if (protection?.storeFailure !== undefined) {
		const { skipped, notClaimed } = protection;
		const notSent = toSend.filter(
			(index) => !run.started.has(index) && (!skipped.has(index) || notClaimed.has(index)),
		);
		const error = protection.storeError(notSent);
		if (!continueOnFail) {
			run.memory.keep(run.accepted);
			throw error;
		}
		const { description } = error;
		for (const index of notSent) outputs[index] = run.errorOutput(error, index, { description });
	}
	if (run.failures.size > 0 && !continueOnFail) {
		run.memory.keep(run.accepted);
		const notSent = toSend.filter((index) => !protection?.skipped.has(index));
		throw run.stopError(notSent);
	}
	run.memory.clear();
	return [outputs.flat()];
}
