import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { RunLedger } from '../runLedger';
import type { DoubtResolution } from './doubts';
import { lockFailureOf } from './lock';
import * as migration from './migration';
import * as say from './messages';
import { LostWrite } from './record';
import type { RowIdentities } from './rowIdentities';
import type { GateSetup } from './setup';

/**
 * What the gate of one run composes from what it knows of its rows: the errors it gives (their
 * texts are messages.ts's) and the output of a row sent before.
 */
export class GateTexts {
	constructor(
		readonly setup: GateSetup,
		readonly ledger: RunLedger,
		readonly rows: RowIdentities,
		private readonly doubts: DoubtResolution,
	) {}

	error({ message, description }: say.ErrorText, itemIndex?: number): NodeOperationError {
		const node = this.setup.context.getNode();
		return new NodeOperationError(node, message, { itemIndex, description });
	}

	storeError(
		cause: Error,
		facts: Omit<Parameters<typeof say.storeStopped>[0], 'cause'>,
	): NodeOperationError {
		const { sentAny, unrecorded, notSent } = facts;
		if (cause instanceof LostWrite) return this.lostWriteError(cause, notSent);
		if (lockFailureOf(cause) && !sentAny && unrecorded.length === 0) {
			return cause as NodeOperationError;
		}
		return this.error(say.storeStopped({ cause: cause?.message ?? String(cause), ...facts }));
	}

	private lostWriteError(lost: LostWrite, notSent: number[]): NodeOperationError {
		const items = [...this.rows.ofItem]
			.filter(([, identity]) => lost.identities.includes(identity))
			.map(([itemIndex]) => itemIndex);
		const whereToCheck = items.length > 0 ? this.whereToCheck(items) : '';
		const whenSafe = this.whenSafeToSendAgain;
		return this.error(say.writeLost({ items, whereToCheck, whenSafe, notSent }));
	}

	alreadySentOutput(itemIndex: number, extra: IDataObject = {}): INodeExecutionData[] {
		const { operation, record } = this.setup;
		const { checked } = this.ledger;
		const earlier = record.earlierResult(this.rows.ofItem.get(itemIndex)!);
		const field = operation.acceptedIdField!;
		const data = earlier?.id === undefined ? {} : { [field]: earlier.id };
		const shaped =
			'read' in operation.output ? data : operation.output(data, checked[itemIndex].prepared!);
		const json: IDataObject = {
			...(Array.isArray(shaped) ? shaped[0] : shaped),
			alreadySent: true,
			sentAt: earlier?.sentAt ?? null,
			...extra,
		};
		// An ID the item gave (Submit's transaction) is known whatever this process kept.
		if (earlier?.id === undefined && !operation.duplicateProtection?.idFromInput) {
			delete json[field];
			json.idKnown = false;
			json.note = say.idNotKnownNote(field);
		}
		return [{ json, pairedItem: { item: itemIndex } }];
	}

	private whereToCheck(itemIndexes: number[]): string {
		return say.whereToCheck(
			itemIndexes.map((index) => this.ledger.checked[index].prepared!.body?.transactionId),
			this.setup.operation.duplicateProtection?.seenAt,
		);
	}

	inDoubtError(itemIndex: number): NodeOperationError {
		const { operation, record, waitMs, itemKeys } = this.setup;
		const identity = this.rows.ofItem.get(itemIndex)!;
		const former = record.migration.foundUnderWider(identity);
		const key = itemKeys[itemIndex].duplicateKey;
		const where = this.whereToCheck([itemIndex]);
		const row = { label: operation.label, itemIndex, where, stops: !this.ledger.continueOnFail };
		const text = !former
			? say.heldInDoubt({
					...row,
					waitedSeconds: this.doubts.waitedFor.has(identity) ? waitMs / 1000 : undefined,
					whereToCheck: where,
					whenSafe: this.whenSafeToSendAgain,
				})
			: key === undefined
				? migration.documentsBefore(row)
				: migration.keyedBefore({
						...row,
						key,
						field: operation.acceptedIdField!,
						keptId: former.id,
						how: this.keyedResolution(itemIndex),
					});
		return this.error(text, itemIndex);
	}

	private keyedResolution(itemIndex: number): migration.KeyedResolution {
		const { confirmFormerRow, checkOf } = this.setup.operation.duplicateProtection ?? {};
		if (confirmFormerRow) return { kind: 'confirmed', ...confirmFormerRow };
		const prepared = this.ledger.checked[itemIndex].prepared!;
		return checkOf ? { kind: 'readCheck', ...checkOf(prepared) } : { kind: 'person' };
	}

	formerRowNotRecorded(itemIndex: number, id: string, answer: migration.FormerRowAnswer) {
		const { operation, itemKeys } = this.setup;
		const { what, ownValue, readLabel } = operation.duplicateProtection!.confirmFormerRow!;
		const text = migration.formerRowNotRecorded({
			itemIndex,
			key: itemKeys[itemIndex].duplicateKey ?? '',
			field: operation.acceptedIdField!,
			id,
			what,
			own: ownValue(this.ledger.checked[itemIndex].prepared!),
			readLabel,
			answer,
			stops: !this.ledger.continueOnFail,
		});
		return this.error(text, itemIndex);
	}

	lostAnswerAdvice(itemIndex: number): string {
		return say.lostAnswerAdvice(this.whereToCheck([itemIndex]), this.whenSafeToSendAgain);
	}

	private get whenSafeToSendAgain(): string {
		return say.whenSafeToSendAgain(this.setup.settings.timeout, this.setup.settings.retries);
	}
}
