import { randomUUID } from 'node:crypto';
import type {
	DeduplicationHelperFunctions,
	ICheckProcessedOptions,
	IExecuteFunctions,
} from 'n8n-workflow';

import { Migration } from './migration';
import { KeptIds, type AcceptedRow } from './keptIds';
import { WorkflowLock } from './lock';

/** Recorded before a row's request leaves. */
const SENT = 's:';
/** Recorded once the service accepted the row (or the user recorded it as sent). */
const ACCEPTED = 'a:';
/**
 * Recorded with each ACCEPTED a probe adds, removed only by that probe's own clean-up: a row that
 * has it is in doubt (a probe failed or crashed between its two calls and left its ACCEPTED behind).
 */
const PROBING = 'p:';
/**
 * The tripwire: each claim records a value of its own, which the run's next record call checks is
 * still there. Gone, the claim's write was lost (another execution wrote the whole record from an
 * older read: the lock did not keep them apart).
 */
const WRITE = 'w:';
/** n8n's store options for a probe: the same mode, no trimming. */
const PROBE_OPTIONS: ICheckProcessedOptions = { mode: 'entries' };
/** This node's own record: n8n keys it by the node's ID, so a rename keeps it. */
const RECORD_SCOPE = 'node';
/** Values n8n's store keeps per row: SENT and ACCEPTED (and former lookups', migration.ts). */
const VALUES_PER_ROW = 2;

export type RowState = 'new' | 'accepted' | 'inDoubt';

/** A claim's write was lost: its rows (SENT by this run) may be sent by another execution too. */
export class LostWrite extends Error {
	constructor(readonly identities: string[]) {
		super('A write to n8n’s record of rows sent before was lost');
	}
}

const acceptedValues = (rows: AcceptedRow[]) => rows.map(({ identity }) => ACCEPTED + identity);

/**
 * The store protocol: what a node's record in n8n's deduplication store says of each row, read and
 * changed only under the workflow's lock (WorkflowLock), so two executions on two processes never
 * lose each other's writes nor both find a row new. A row is SENT before its request leaves and
 * ACCEPTED once the service accepted it; SENT alone is a row in doubt. Only SHA-256 hashes are
 * given to the store (n8n hashes them once more).
 */
export class SentRecord {
	/** Round trips to n8n's store in this run, and the time they took (read by `npm run bench`). */
	roundTrips = 0;

	storeMs = 0;

	private readonly options: ICheckProcessedOptions;

	readonly lock: WorkflowLock;

	private readonly kept: KeptIds;

	/** Rows are looked up under their identities of 0.2–0.4 too. */
	readonly migration: Migration;

	/**
	 * `historyRows`: the newest rows kept at least. n8n drops the oldest values first, and a row's
	 * SENT is older than its ACCEPTED by the rows claimed while its answer was awaited (at most
	 * `claimedAhead`), so those are kept on top.
	 */
	constructor(
		context: IExecuteFunctions,
		private readonly store: DeduplicationHelperFunctions,
		historyRows: number,
		claimedAhead: number,
	) {
		const workflowId = String(context.getWorkflow().id ?? '');
		const { id: nodeId, typeVersion } = context.getNode();
		this.kept = new KeptIds(context, JSON.stringify([workflowId, nodeId]));
		this.migration = new Migration(this.kept, nodeId, typeVersion, { SENT, ACCEPTED });
		const valuesPerRow = VALUES_PER_ROW + this.migration.extraValuesPerRow;
		this.options = { mode: 'entries', maxEntries: (historyRows + claimedAhead) * valuesPerRow };
		this.lock = new WorkflowLock(context, store, workflowId);
	}

	private async underLock<T>(work: () => Promise<T>, releaseInBackground = false): Promise<T> {
		const started = Date.now();
		try {
			return await this.lock.around(work, releaseInBackground);
		} finally {
			this.storeMs += Date.now() - started;
		}
	}

	/**
	 * One checkProcessedAndRecord on the node's record. Only calls that record rows trim it to History
	 * Size: a probe (whose new values are removed at once) must never push real rows out.
	 */
	private async record(values: string[], keepsRows = false, claimed: string[] = [], passing = 0) {
		this.roundTrips += 1;
		if (!keepsRows) {
			return await this.store.checkProcessedAndRecord(values, RECORD_SCOPE, PROBE_OPTIONS);
		}
		const check = this.writes[this.writes.length - 1];
		const write = claimed.length > 0 ? WRITE + randomUUID() : undefined;
		// The run's own tripwire values (removed at its settle) and the marks never push a row out.
		const marks = this.migration.marksKept;
		// `passing`: values this run removes again at once (lookups under a key before 0.5.0).
		const own = this.writes.length + Number(write !== undefined) + marks + passing;
		const result = await this.store.checkProcessedAndRecord(
			[...values, ...[check, write].filter((value) => value !== undefined)],
			RECORD_SCOPE,
			{ ...this.options, maxEntries: this.options.maxEntries! + own },
		);
		const added = new Set(result.new.map(String));
		if (check !== undefined && added.has(check)) throw new LostWrite(this.claimedInLastWrite);
		if (write !== undefined) {
			this.writes.push(write);
			this.claimedInLastWrite = claimed.filter((identity) => added.has(SENT + identity));
		}
		return result;
	}

	/** The tripwire's values this run recorded (its last call removes them), and the last one's rows. */
	private readonly writes: string[] = [];

	private claimedInLastWrite: string[] = [];

	private async remove(values: string[]): Promise<void> {
		if (values.length === 0) return;
		this.roundTrips += 1;
		await this.store.removeProcessed(values, RECORD_SCOPE, this.options);
	}

	/**
	 * Which of these rows are ACCEPTED. The store has no read-only check: the probe records ACCEPTED
	 * with a PROBING marker, and its clean-up removes what it added. A row whose PROBING was there
	 * already (a probe that failed or crashed before its clean-up) is in doubt, never accepted.
	 */
	private async acceptedAmong(identities: string[]): Promise<Set<string>> {
		if (identities.length === 0) return new Set();
		const checked = await this.record(
			identities
				.flatMap((id) => this.migration.withFormer(id))
				.flatMap((each) => [ACCEPTED + each, PROBING + each]),
		);
		const added = new Set(checked.new.map(String));
		const accepted = (each: string) => !added.has(ACCEPTED + each) && added.has(PROBING + each);
		const found = identities.filter((identity) =>
			this.migration.withFormer(identity).some(accepted),
		);
		// Accepted under a former identity alone: the row keeps the ACCEPTED of its own the probe added.
		const migrated = found.filter((identity) => added.has(ACCEPTED + identity));
		for (const identity of migrated) this.migration.keepIdUnderOwn(identity);
		const kept = new Set(migrated.map((identity) => ACCEPTED + identity));
		await this.remove([...added].filter((value) => !kept.has(value)));
		return new Set(found);
	}

	/**
	 * Records the rows as SENT (and `accepted` as ACCEPTED, in the same call) and says what an
	 * earlier execution did with each. With `forgetFirst` (Send These Rows Again) their earlier
	 * record goes first. Throws when the store fails.
	 */
	async claim(
		identities: string[],
		accepted: AcceptedRow[],
		forgetFirst = false,
	): Promise<Map<string, RowState>> {
		const unique = [...new Set(identities)];
		this.kept.keep(accepted);
		return await this.underLock(async () => {
			if (forgetFirst) {
				await this.remove(
					unique
						.flatMap((identity) => this.migration.withFormer(identity))
						.flatMap((identity) => [SENT, ACCEPTED, PROBING].map((kind) => kind + identity)),
				);
			}
			// Send These Rows Again: a person chose to send the row, whatever its key found before 0.5.0.
			return await this.claimLocked(unique, accepted, !forgetFirst);
		}, true);
	}

	private async claimLocked(unique: string[], accepted: AcceptedRow[], widerLookups = true) {
		const lookups = this.migration.lookUp(unique, widerLookups);
		const claimed = await this.record(
			[
				...lookups.first,
				...unique.map((identity) => SENT + identity),
				...lookups.passing,
				...acceptedValues(accepted),
			],
			true,
			unique,
			lookups.passing.length,
		);
		const { fresh, toRemove } = lookups.read(new Set(claimed.new.map(String)));
		await this.remove(toRemove);
		const before = unique.filter(
			(identity) => !fresh.has(identity) && !this.migration.heldByWider(identity),
		);
		const acceptedBefore = await this.acceptedAmong(before);
		const states = new Map(unique.map((identity): [string, RowState] => [identity, 'inDoubt']));
		for (const identity of fresh) states.set(identity, 'new');
		for (const identity of acceptedBefore) states.set(identity, 'accepted');
		return states;
	}

	/** Of rows in doubt waited for, those accepted since. */
	async acceptedSince(identities: string[]): Promise<Set<string>> {
		return await this.underLock(async () => await this.acceptedAmong(identities));
	}

	/**
	 * After sending: ACCEPTED for what the service accepted; SENT removed for rows never sent or
	 * clearly refused, so a later execution sends them. Throws when the store fails.
	 */
	async settle(accepted: AcceptedRow[], released: string[]): Promise<void> {
		this.kept.keep(accepted);
		await this.lock.released();
		const nothingToDo = accepted.length === 0 && released.length === 0;
		if (nothingToDo && this.writes.length === 0) return;
		await this.underLock(async () => {
			// Recorded first: its call is also the tripwire's last check.
			if (accepted.length > 0) await this.record(acceptedValues(accepted), true);
			await this.remove([...released.map((identity) => SENT + identity), ...this.writes.splice(0)]);
		});
	}

	/**
	 * Record Rows as Sent in the record (recordAsSent.ts), a marker a failed probe left gone: `confirm`
	 * reads the service, so it is asked between two holds of the lock. Returns each row's state before.
	 */
	async recordAsSent(
		rows: AcceptedRow[],
		confirm?: (foundUnderWider: string[]) => Promise<Set<string>>,
	): Promise<Map<string, RowState>> {
		let toConfirm: AcceptedRow[] = [];
		const states = await this.underLock(async () => {
			const claimed = await this.claimLocked([...new Set(rows.map((row) => row.identity))], []);
			const toRecord = rows.filter(({ identity }) => claimed.get(identity) !== 'accepted');
			if (confirm)
				toConfirm = toRecord.filter(({ identity }) => this.migration.heldByWider(identity));
			await this.recordLocked(toRecord.filter((row) => !toConfirm.includes(row)));
			return claimed;
		});
		if (toConfirm.length === 0) return states;
		const confirmed = await confirm!(toConfirm.map(({ identity }) => identity));
		const toRecord = toConfirm.filter(({ identity }) => confirmed.has(identity));
		if (toRecord.length > 0) await this.underLock(async () => await this.recordLocked(toRecord));
		return states;
	}

	/** Records rows as accepted with their IDs (under the lock), and ends the run's use of the record. */
	private async recordLocked(toRecord: AcceptedRow[]): Promise<void> {
		// SENT too: a row held in doubt by its key before 0.5.0 had its SENT taken back by the claim.
		const sent = toRecord.map(({ identity }) => SENT + identity);
		if (toRecord.length > 0) await this.record([...sent, ...acceptedValues(toRecord)], true);
		const probing = toRecord.map(({ identity }) => PROBING + identity);
		await this.remove([...probing, ...this.writes.splice(0)]);
		this.kept.keep(toRecord);
	}

	/** Duplicate Protection → Forget All Rows Sent Before: the node's record and kept IDs. */
	async forgetAll(): Promise<void> {
		this.kept.forgetAll();
		await this.underLock(async () => {
			this.roundTrips += 1;
			await this.store.clearAllProcessedItems(RECORD_SCOPE, this.options);
		});
	}

	/** When an accepted row was sent and its ID, where n8n kept them. */
	earlierResult(identity: string): { sentAt: string; id?: string } | undefined {
		const saved = this.kept.inProcess(identity) ?? this.migration.keptOf(identity);
		if (!Array.isArray(saved) || typeof saved[0] !== 'string') return undefined;
		return [undefined, null, ''].includes(saved[1])
			? { sentAt: saved[0] }
			: { sentAt: saved[0], id: String(saved[1]) };
	}
}
