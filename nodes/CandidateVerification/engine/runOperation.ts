import type { IExecuteFunctions, INodeExecutionData, NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../../shared/constants';
import { baseUrlFromCredentials } from '../../shared/transport';
import { checkAllItems, problemsError } from './checkItems';
import { DUPLICATE_MODES } from './duplicateProtection/fields';
import { DuplicateProtection, OneOffRefused } from './duplicateProtection/protection';
import type { OperationDefinition, ServiceRead } from './operation';
import { errorOutputOf, Sender } from './sender';
import { readRunSettings } from './runSettings';
import { RunLedger } from './runLedger';

export { CHECK_LOG_MESSAGE } from './checkItems';
export { LOST_ANSWER_ADVICE } from './messages';

/**
 * One run of one operation over the node's input, on n8n's public `execute()` API:
 * 1. every item is read and checked (all of an item's expressions in one evaluation); with
 *    On Error = Stop one invalid item means nothing is sent for any item;
 * 2. the credential is read once;
 * 3. valid items are sent with bounded concurrency (and Request Options → Batching), each with the
 *    node's own retries of transient failures; with Stop the first failure stops sending more;
 * 4. outputs are paired with their input items, in input order. Items an earlier try of n8n's
 *    Retry On Fail settled are not sent again: the accepted ones' outputs are reused, and a guarded
 *    create or a billed call that got no clear answer fails again (AcceptedMemory);
 * 5. for operations that create something, duplicate protection's gate (ProtectionGate, SentRecord)
 *    claims each chunk of rows in n8n's deduplication store just before it leaves, so no later
 *    execution sends a row again. The gate decides per row (send, output this, hold in doubt),
 *    the sender (Sender) acts on it and tells it each outcome; both read and the sender alone
 *    writes one RunLedger.
 */
export async function runOperation(
	this: IExecuteFunctions,
	operation: OperationDefinition,
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const continueOnFail = this.continueOnFail();
	const settings = readRunSettings(this);
	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	let protection: DuplicateProtection | undefined;
	try {
		protection = operation.duplicateProtection
			? DuplicateProtection.open(
					this,
					operation,
					settings,
					credentials,
					baseUrlFromCredentials(credentials),
				)
			: undefined;
	} catch (caught) {
		// A one-off tool left selected: under Continue each item says so (n8n would pass them through).
		if (!(caught instanceof OneOffRefused) || !continueOnFail) throw caught as NodeOperationError;
		const node = this.getNode();
		const { description } = caught;
		return [items.flatMap((_item, index) => errorOutputOf(node, caught, index, { description }))];
	}
	const passedThrough = await protection?.runModeWithoutRows(items);
	if (passedThrough) return passedThrough;
	const checked = await checkAllItems(this, operation, items, credentials, protection?.readItem);

	const problems = checked.flatMap((item) => item.problems);
	if (problems.length > 0 && !continueOnFail) throw problemsError(this, problems, true);

	// One ledger for the run: the sender writes it, the gate reads it; neither knows the other.
	const ledger = new RunLedger(checked, continueOnFail, this.getExecutionCancelSignal?.());
	const gate = protection?.gateFor(ledger);
	const sender = new Sender(this, operation, settings, credentials, ledger, gate);

	const { outputs } = ledger;
	const valid: number[] = [];
	checked.forEach(({ problems: itemProblems }, itemIndex) => {
		if (itemProblems.length > 0) {
			// What to do (a problem's hint) goes with the item, as the error shows it.
			const error = problemsError(this, itemProblems, false);
			const { description } = error;
			outputs[itemIndex] = sender.errorOutput(error, itemIndex, description ? { description } : {});
			return;
		}
		valid.push(itemIndex);
	});
	const settledBefore = new Set(valid.filter((itemIndex) => sender.fromEarlierTry(itemIndex)));
	let toSend = valid.filter((itemIndex) => !settledBefore.has(itemIndex));

	if (gate?.mode === DUPLICATE_MODES.recordAsSent) {
		const read = async (label: string, request: ServiceRead) => await sender.read(label, request);
		const recorded = await gate.recordAsSent(toSend, read);
		for (const [itemIndex, output] of recorded.outputs) outputs[itemIndex] = output;
		const [firstFailure] = recorded.failures.values();
		if (firstFailure && !continueOnFail) throw firstFailure;
		for (const [itemIndex, error] of recorded.failures) {
			outputs[itemIndex] = sender.errorOutput(error, itemIndex, { description: error.description });
		}
		return [outputs.flat()];
	}
	if (gate) {
		// An item an earlier try settled still names its repeats, which are never sent.
		const { rows, repeats } = gate.firstOfEachRow(valid, settledBefore);
		if (repeats.length > 0 && !continueOnFail) throw repeats[0].error;
		for (const { itemIndex, error } of repeats)
			outputs[itemIndex] = sender.errorOutput(error, itemIndex);
		toSend = rows;
	}

	await sender.sendAll(toSend, items);
	await gate?.settle();

	if (gate?.storeFailure !== undefined) {
		// Before the rows held in doubt are written as failures: the store's error names them not sent.
		const notSent = ledger.notSent(toSend, gate.skipped);
		const error = gate.storeError(notSent);
		if (!continueOnFail) {
			sender.keepForNextTry();
			throw error;
		}
		const { description } = error;
		for (const index of notSent) outputs[index] = sender.errorOutput(error, index, { description });
		// A row accepted but not recorded carries the error too, with its ID: else a run that sent
		// every row would end as a success while later runs hold those rows in doubt.
		const idField = operation.acceptedIdField;
		for (const { itemIndex, id } of gate.unrecorded) {
			const withId = idField && id !== undefined ? { [idField]: id } : {};
			outputs[itemIndex] = sender.errorOutput(error, itemIndex, { ...withId, description });
		}
	}
	sender.writeRowsHeldInDoubt();
	if (ledger.failures.size > 0 && !continueOnFail) {
		sender.keepForNextTry();
		throw sender.stopError(ledger.notSent(toSend, gate?.skipped));
	}
	const output = outputs.flat();
	// Under Continue, n8n's Retry On Fail runs the node again when its first output item carries an
	// error (n8n-core, WorkflowExecute.processRunExecutionData: `checkFailure` reads
	// `data[0][0].json.error`, and `while (nodeFailed && tryIndex !== maxTries - 1)` calls runNode
	// again): what this try settled is kept whenever an item failed, whichever item it is.
	if (continueOnFail && output.some(({ json }) => json.error !== undefined)) {
		sender.keepForNextTry();
	} else {
		sender.memory.clear();
	}
	return [output];
}
