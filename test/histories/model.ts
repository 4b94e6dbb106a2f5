import type { History, Row, Step } from './steps';
import { acts, operationOf } from './steps';

/**
 * The model of duplicate protection, with its documented exceptions (docs/duplicate-protection.md):
 * a row's identity carries the credential and the Duplicate Key (another credential, a key added or
 * changed: new rows); the record keeps at least the newest History Size rows (a step's rows in any
 * order); Forget All empties it; Off records nothing and holds nothing back; Send These Rows Again
 * sends the rows of its input again.
 */
export class ProtectionModel {
	/** Identities the record holds (sent, accepted or in doubt), oldest first. */
	private readonly recorded: string[] = [];

	/** The step that recorded each identity of `recorded` (counted from 1). */
	private readonly recordedAt = new Map<string, number>();

	private steps = 0;

	/** Transaction IDs whose acceptance reached n8n, per identity: never forgotten. */
	readonly accepted = new Map<string, Set<string>>();

	/** Transaction IDs a person recorded with Record Rows as Sent, per identity. */
	readonly recordedByPerson = new Map<string, Set<string>>();

	constructor(private readonly history: Pick<History, 'historySize'>) {}

	/**
	 * Whether History Size lets a row recorded during a step be dropped during it: `rows` holds
	 * more distinct rows than History Size (the others recorded after it push it out).
	 */
	mayForgetWithin(rows: string[]): boolean {
		const size = this.history.historySize;
		return size !== undefined && new Set(rows).size > size;
	}

	/**
	 * A row's identity: Profile → Create's form and person, or Submit's scope (a transaction's check,
	 * SUBMIT_SCOPES) and person; a Duplicate Key tells rows apart only within that form or scope.
	 */
	static identity(step: Step, [form, person]: Row): string {
		const operation = operationOf(step) === 'profileCreate' ? '' : `${operationOf(step)}|`;
		return `${operation}cred-${step.credential}|key=${step.duplicateKey}|${form}|${person}`;
	}

	/**
	 * Whether the record is promised to hold the row during a step that may record `newRows` rows
	 * (its own claims push the oldest out too): among the newest History Size rows once they are in.
	 */
	protects(identity: string, newRows = 0): boolean {
		const step = this.recordedAt.get(identity);
		if (step === undefined) return false;
		const size = this.history.historySize;
		// The rows one step recorded have no order the node promises (its claims, answers and
		// executions interleave): the row may be the oldest of its step (seed 10626).
		const oldestOfItsStep = this.recorded.findIndex((other) => this.recordedAt.get(other) === step);
		return size === undefined || oldestOfItsStep >= this.recorded.length + newRows - size;
	}

	/**
	 * The rows of `identities` the record is not promised to hold (new, or older than History Size):
	 * each may be sent and recorded anew by the step, pushing the oldest out.
	 */
	newRows(identities: string[]): number {
		return new Set(identities.filter((identity) => !this.protects(identity))).size;
	}

	/**
	 * Whether the step may create the row at the service although the record holds it: Off, and a
	 * Send These Rows Again that acts, send every row of their input.
	 */
	static maySendAgain(step: Step): boolean {
		return step.protection === 'off' || (step.protection === 'sendAgain' && acts(step));
	}

	/**
	 * n8n's store keeps a value recorded again in its place (store contract, behaviour 5); a row sent
	 * again was new to the record (History Size had dropped it), so it is the newest.
	 */
	private record(identity: string, sent: boolean): void {
		if (sent) this.release(identity);
		if (this.recorded.includes(identity)) return;
		this.recorded.push(identity);
		this.recordedAt.set(identity, this.steps);
	}

	private release(identity: string): void {
		const index = this.recorded.indexOf(identity);
		if (index >= 0) this.recorded.splice(index, 1);
		this.recordedAt.delete(identity);
	}

	static add(map: Map<string, Set<string>>, identity: string, id: string): void {
		map.set(identity, (map.get(identity) ?? new Set()).add(id));
	}

	/**
	 * After a step: `sent` are its requests (the row and whether the service refused it clearly),
	 * `acceptedIds` the transaction IDs that reached n8n, `personIds` what Record Rows as Sent was given,
	 * `storeFailed` whether n8n's store failed during the step (the person's rows may be recorded or not).
	 */
	afterStep(
		step: Step,
		sent: Array<{ row: Row; refused: boolean }>,
		acceptedIds: Array<{ row: Row; id: string }>,
		personIds: Array<{ row: Row; id: string }>,
		storeFailed = false,
	): void {
		this.steps += 1;
		for (const { row, id } of acceptedIds)
			ProtectionModel.add(this.accepted, ProtectionModel.identity(step, row), id);
		if (!acts(step)) return;
		switch (step.protection) {
			case 'forgetAll':
				this.recorded.length = 0;
				this.recordedAt.clear();
				return;
			case 'off':
				return;
			case 'recordAsSent':
				for (const { row, id } of personIds) {
					const identity = ProtectionModel.identity(step, row);
					ProtectionModel.add(this.recordedByPerson, identity, id);
					if (!storeFailed) this.record(identity, false);
				}
				return;
			default:
				// Send These Rows Again: a person chose to send its rows again, so a row it did not send
				// (its run stopped first) is released for a later run to send.
				if (step.protection === 'sendAgain')
					for (const row of step.rows) this.release(ProtectionModel.identity(step, row));
				for (const { row, refused } of sent) {
					const identity = ProtectionModel.identity(step, row);
					if (refused) this.release(identity);
					else this.record(identity, true);
				}
		}
	}
}
