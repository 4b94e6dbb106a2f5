import type { INodeExecutionData, NodeOperationError } from 'n8n-workflow';

import type { GateTexts } from './gateTexts';
import { storeCall } from './lock';
import * as migration from './migration';
import * as say from './messages';

/**
 * Record Rows as Sent, nothing sent: a row in doubt or never sent is recorded as accepted with
 * its ID found; a row accepted before keeps its record and ID. One ID on two rows: nothing. A row
 * keyed before 0.5.0 of an operation that confirms it (Profile) is recorded only when the service
 * answers that the ID given is on the row's own scope (`read`: the run's reads); the others fail.
 */
export async function recordRowsAsSent(
	texts: GateTexts,
	valid: number[],
	read: migration.ReadForRecording,
) {
	const { setup, ledger, rows: identities } = texts;
	const { operation, settings, record } = setup;
	const rowsOfId = new Map<string, Set<string>>();
	const rows = valid.map((itemIndex) => {
		const identity = identities.identityOf(itemIndex);
		const id = setup.itemKeys[itemIndex].idFound!;
		identities.ofItem.set(itemIndex, identity);
		rowsOfId.set(id, (rowsOfId.get(id) ?? new Set()).add(identity));
		return { identity, id };
	});
	const field = operation.acceptedIdField!;
	const shared = operation.duplicateProtection?.idFromInput
		? []
		: valid.filter((_item, position) => rowsOfId.get(rows[position].id)!.size > 1);
	if (shared.length > 0) throw texts.error(say.oneIdForTwoRows(field, shared), shared[0]);
	const failures = new Map<number, NodeOperationError>();
	const { confirmFormerRow } = operation.duplicateProtection ?? {};
	const confirm =
		confirmFormerRow &&
		(async (found: string[]) => {
			const confirmed = new Set<string>();
			const toRead = [...found];
			// The reads go out as the run's requests do: at most Max Concurrent Requests at once.
			const worker = async () => {
				for (let identity = toRead.shift(); identity !== undefined; identity = toRead.shift()) {
					const items = valid.filter((_item, position) => rows[position].identity === identity);
					const { id } = rows[valid.indexOf(items[0])];
					const { prepared } = ledger.checked[items[0]];
					const answer = await migration.readFormerRow(confirmFormerRow, prepared!, id, read);
					if (answer === undefined) confirmed.add(identity);
					for (const itemIndex of answer ? items : []) {
						failures.set(itemIndex, texts.formerRowNotRecorded(itemIndex, id, answer!));
					}
				}
			};
			const workers = Math.min(settings.concurrency, toRead.length);
			await Promise.all(Array.from({ length: workers }, worker));
			return confirmed;
		});
	const recording = async () => await record.recordAsSent(rows, confirm);
	const states = await storeCall(setup.context, recording, 'record');
	const outputs = new Map<number, INodeExecutionData[]>();
	valid.forEach((itemIndex, position) => {
		if (failures.has(itemIndex)) return;
		const { identity, id } = rows[position];
		const json = { [field]: id, recordedAsSent: true };
		outputs.set(
			itemIndex,
			states.get(identity) === 'accepted'
				? texts.alreadySentOutput(itemIndex, { recordedAsSent: false })
				: [{ json, pairedItem: { item: itemIndex } }],
		);
	});
	return { outputs, failures };
}
