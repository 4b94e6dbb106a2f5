import { createHash, randomUUID } from 'node:crypto';
import type {
	DeduplicationHelperFunctions,
	ICheckProcessedOptions,
	IDataObject,
	IExecuteFunctions,
} from 'n8n-workflow';

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
/**
 * Recorded with each 0.3.x lookup, in the same call: the 0.3.x identity was looked up before, so the
 * 0.3.x value, if any, counts no more (it is an earlier lookup's, or a 0.3.x row that counts for the
 * credential that first looked it up: another credential is another account).
 */
const LOOKED_UP = 'l:';
/** Values n8n's store keeps per row: SENT and ACCEPTED (and 0.3.x lookups', see PHASE_MARKS). */
const VALUES_PER_ROW = 2;
/** The IDs of the newest rows, kept where n8n keeps them (see `earlierResult`). */
export const MAX_KEPT_IDS = 10_000;
const STATIC_DATA_KEY = 'candidateVerificationSentRows';
/** Where 0.2.0 kept the IDs (the node's static data, keyed by the node's name): still read. */
const LEGACY_STATIC_DATA_KEY = 'sentRows';
/**
 * A version 1 node's record after the upgrade from 0.3.x, in two phases. Each ends once n8n has
 * trimmed the mark its claims record: n8n trims the oldest values first, so every older value is
 * gone too (CHANGELOG: every process is upgraded at once, so every 0.3.x value is older).
 * 1. It may hold 0.3.x rows: each row is also looked up under its 0.3.x identity. A lookup's values
 *    stay (removing a value costs n8n a scan of the whole record): the 0.3.x SENT, if it was not
 *    there, and LOOKED_UP.
 * 2. Those lookups' values may still be in it.
 * During both, History Size counts four values a row; after them two, as on a version 2 node.
 */
const PHASE_MARKS = ['m:0.3.x-rows-are-older', 'm:0.3.x-lookups-are-older'];
/** Per node ID, in the workflow's static data: the phases ended, and whether the current mark was seen. */
const FORMER_ROWS_KEY = 'candidateVerificationFormerRows';

export type RowState = 'new' | 'accepted' | 'inDoubt';

/** A claim's write was lost: its rows (SENT by this run) may be sent by another execution too. */
export class LostWrite extends Error {
	constructor(readonly identities: string[]) {
		super('A write to n8n’s record of rows sent before was lost');
	}
}

export interface AcceptedRow {
	identity: string;
	id?: string;
}

/** IDs this process saw accepted (manual executions save no static data): [sent at, ID]. */
const idsInProcess = new Map<string, string[]>();

export function keepNewest<T>(map: Map<string, T>, key: string, value: T): void {
	map.delete(key);
	map.set(key, value);
	while (map.size > MAX_KEPT_IDS) map.delete(map.keys().next().value as string);
}

const acceptedValues = (rows: AcceptedRow[]) => rows.map(({ identity }) => ACCEPTED + identity);

/** A row's hash: the operation, the service's environment, and the key or the request as sent. */
export function rowIdentity(identityBase: unknown[], request: unknown, duplicateKey?: string) {
	const what = duplicateKey === undefined ? ['request', request] : ['key', duplicateKey];
	return createHash('sha256')
		.update(JSON.stringify([...identityBase, ...what]))
		.digest('hex');
}

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

	private readonly processKey: string;

	/**
	 * A row's identity under 0.3.x (host and request as sent), for nodes that may hold 0.3.x rows:
	 * looked up in the same calls until LOOKED_UP says it was looked up before.
	 */
	readonly former = new Map<string, string>();

	/** This run's phase (PHASE_MARKS; a version 2 node's record is past both). */
	private readonly phase: number;

	/**
	 * `historyRows`: the newest rows kept at least. n8n drops the oldest values first, and a row's
	 * SENT is older than its ACCEPTED by the rows claimed while its answer was awaited (at most
	 * `claimedAhead`), so those are kept on top.
	 */
	constructor(
		private readonly context: IExecuteFunctions,
		private readonly store: DeduplicationHelperFunctions,
		historyRows: number,
		claimedAhead: number,
		version1: boolean,
	) {
		this.phase = version1 ? this.formerRowsState().phasesEnded : PHASE_MARKS.length;
		const valuesPerRow = VALUES_PER_ROW * (this.phase < PHASE_MARKS.length ? 2 : 1);
		this.options = { mode: 'entries', maxEntries: (historyRows + claimedAhead) * valuesPerRow };
		const workflowId = String(context.getWorkflow().id ?? '');
		this.lock = new WorkflowLock(context, store, workflowId);
		this.processKey = JSON.stringify([workflowId, context.getNode().id]);
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
	private async record(values: string[], keepsRows = false, claimed: string[] = []) {
		this.roundTrips += 1;
		if (!keepsRows) {
			return await this.store.checkProcessedAndRecord(values, RECORD_SCOPE, PROBE_OPTIONS);
		}
		const check = this.writes[this.writes.length - 1];
		const write = claimed.length > 0 ? WRITE + randomUUID() : undefined;
		// The run's own tripwire values (removed at its settle) and the marks never push a row out.
		const marks = this.phase < PHASE_MARKS.length ? PHASE_MARKS.length : 0;
		const own = this.writes.length + Number(write !== undefined) + marks;
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

	/** The tripwire's values this run recorded (its settle removes them), and the last one's rows. */
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
				.flatMap((id) => this.both(id))
				.flatMap((each) => [ACCEPTED + each, PROBING + each]),
		);
		const added = new Set(checked.new.map(String));
		const accepted = (each: string) => !added.has(ACCEPTED + each) && added.has(PROBING + each);
		const found = identities.filter((identity) => this.both(identity).some(accepted));
		// Accepted under its 0.3.x identity alone: the row keeps the ACCEPTED of its own the probe added.
		const migrated = found.filter((identity) => added.has(ACCEPTED + identity));
		for (const identity of migrated) this.migrateKeptId(identity);
		const kept = new Set(migrated.map((identity) => ACCEPTED + identity));
		await this.remove([...added].filter((value) => !kept.has(value)));
		return new Set(found);
	}

	/** A row's identity, and its 0.3.x identity where it may have one. */
	private both(identity: string): string[] {
		const former = this.former.get(identity);
		return former === undefined ? [identity] : [identity, former];
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
		this.keepIds(accepted);
		return await this.underLock(async () => {
			if (forgetFirst) {
				await this.remove(
					unique
						.flatMap((identity) => this.both(identity))
						.flatMap((identity) => [SENT, ACCEPTED, PROBING].map((kind) => kind + identity)),
				);
			}
			return await this.claimLocked(unique, accepted);
		}, true);
	}

	private async claimLocked(unique: string[], accepted: AcceptedRow[]) {
		// A 0.3.x row is looked up in the same call: its SENT, older than the row's own (trimmed first).
		const former = unique.flatMap((identity) => this.both(identity).slice(1));
		const mark = PHASE_MARKS.slice(this.phase, this.phase + 1);
		const values = [
			...former.flatMap((each) => [SENT + each, LOOKED_UP + each]),
			...mark,
			...unique.map((identity) => SENT + identity),
		];
		const claimed = await this.record([...values, ...acceptedValues(accepted)], true, unique);
		const added = new Set(claimed.new.map(String));
		if (mark.length > 0) this.learnPhase(added.has(mark[0]));
		// Looked up before (LOOKED_UP was there): the 0.3.x identity counts no more for the row.
		for (const identity of unique.filter((id) => !added.has(LOOKED_UP + this.former.get(id)))) {
			this.former.delete(identity);
		}
		const fresh = new Set(
			unique.filter((identity) => this.both(identity).every((each) => added.has(SENT + each))),
		);
		const before = unique.filter((identity) => !fresh.has(identity));
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
		this.keepIds(accepted);
		await this.lock.released();
		const nothingToDo = accepted.length === 0 && released.length === 0;
		if (nothingToDo && this.writes.length === 0) return;
		await this.underLock(async () => {
			// Recorded first: its call is also the tripwire's last check.
			if (accepted.length > 0) await this.record(acceptedValues(accepted), true);
			await this.cleanUp(released.map((identity) => SENT + identity));
		});
	}

	/** Removes `values` and the tripwire's values: a run's last call. */
	private async cleanUp(values: string[]): Promise<void> {
		await this.remove([...values, ...this.writes.splice(0)]);
	}

	/**
	 * Duplicate Protection → Record Rows as Sent: rows in doubt or never sent count as accepted with
	 * the IDs given (a marker a failed probe left goes); a row accepted before is left as it is.
	 * Returns each row's state before.
	 */
	async recordAsSent(rows: AcceptedRow[]): Promise<Map<string, RowState>> {
		return await this.underLock(async () => {
			const states = await this.claimLocked([...new Set(rows.map((row) => row.identity))], []);
			const toRecord = rows.filter(({ identity }) => states.get(identity) !== 'accepted');
			if (toRecord.length > 0) await this.record(acceptedValues(toRecord), true);
			await this.cleanUp(toRecord.map(({ identity }) => PROBING + identity));
			this.keepIds(toRecord);
			return states;
		});
	}

	/** Duplicate Protection → Forget All Rows Sent Before: the node's record and kept IDs. */
	async forgetAll(): Promise<void> {
		const kept = this.keptIds();
		if (kept) for (const key of Object.keys(kept)) delete kept[key];
		for (const key of idsInProcess.keys()) {
			if (key.startsWith(this.processKey)) idsInProcess.delete(key);
		}
		await this.underLock(async () => {
			this.roundTrips += 1;
			await this.store.clearAllProcessedItems(RECORD_SCOPE, this.options);
		});
	}

	/** When an accepted row was sent and its ID, where n8n kept them. */
	earlierResult(identity: string): { sentAt: string; id?: string } | undefined {
		const saved =
			idsInProcess.get(this.processKey + identity) ??
			this.both(identity)
				.map((each) => this.keptIds()?.[each] ?? this.legacyKeptIds()?.[each])
				.find(Array.isArray);
		if (!Array.isArray(saved) || typeof saved[0] !== 'string') return undefined;
		return [undefined, null, ''].includes(saved[1])
			? { sentAt: saved[0] }
			: { sentAt: saved[0], id: String(saved[1]) };
	}

	/** A row accepted under its 0.3.x identity alone: its kept ID, under its own. */
	private migrateKeptId(identity: string): void {
		const former = this.former.get(identity)!;
		const saved = this.keptIds()?.[former] ?? this.legacyKeptIds()?.[former];
		if (Array.isArray(saved)) this.keptIds(true)![identity] = saved;
	}

	/** Keeps when and with which ID rows were accepted: in this process and the static data. */
	private keepIds(rows: AcceptedRow[]): void {
		if (rows.length === 0) return;
		const sentAt = new Date().toISOString();
		const kept = this.keptIds(true);
		for (const { identity, id } of rows) {
			const saved = id === undefined ? [sentAt] : [sentAt, id];
			keepNewest(idsInProcess, this.processKey + identity, saved);
			if (kept) {
				delete kept[identity];
				kept[identity] = saved;
			}
		}
		for (const key of Object.keys(kept ?? {}).slice(0, -MAX_KEPT_IDS)) delete kept![key];
	}

	/**
	 * The workflow's static data, per node ID (a rename keeps it): hash → [sent at, ID] for the
	 * newest MAX_KEPT_IDS rows. n8n saves it after production and retry executions only, whole, when
	 * the execution ends: a later execution sees it when it starts after that one ended. `toWrite`:
	 * the node’s section is made where it is missing (a read adds none).
	 */
	private keptIds(toWrite = false): IDataObject | undefined {
		const perNode = this.globalSection(STATIC_DATA_KEY, toWrite);
		const nodeId = this.context.getNode().id;
		if (perNode && toWrite) perNode[nodeId] ??= {};
		return perNode?.[nodeId] as IDataObject | undefined;
	}

	/** Where 0.2.0 kept the IDs, only read (n8n makes the node's section when it is first read). */
	private legacyKeptIds(): IDataObject | undefined {
		return this.staticData('node')?.[LEGACY_STATIC_DATA_KEY];
	}

	/** The workflow's static data, or undefined where the run has none. */
	private staticData(type: 'global' | 'node'): Record<string, IDataObject> | undefined {
		try {
			return this.context.getWorkflowStaticData(type) as Record<string, IDataObject>;
		} catch {
			return undefined;
		}
	}

	/** A section of the workflow-wide static data; `toWrite`: made where it is missing. */
	private globalSection(key: string, toWrite = false): IDataObject | undefined {
		const staticData = this.staticData('global');
		if (staticData && toWrite) staticData[key] ??= {};
		return staticData?.[key];
	}

	/** Whether the node's record may still hold 0.3.x rows (see PHASE_MARKS). */
	get mayHoldFormerRows(): boolean {
		return this.phase === 0;
	}

	private formerRowsState(): { phasesEnded: number; markSeen: boolean } {
		const known = this.globalSection(FORMER_ROWS_KEY)?.[this.context.getNode().id];
		return { phasesEnded: 0, markSeen: false, ...(known as object) };
	}

	/**
	 * After a claim that carried its phase's mark: a mark seen before and missing now (added again)
	 * was trimmed, and the phase ended. Fail-safe: a static data that lost it starts again.
	 */
	private learnPhase(markAdded: boolean): void {
		const known = this.globalSection(FORMER_ROWS_KEY, true);
		const { phasesEnded, markSeen } = this.formerRowsState();
		if (!known || phasesEnded !== this.phase) return;
		known[this.context.getNode().id] =
			markAdded && markSeen
				? { phasesEnded: phasesEnded + 1, markSeen: false }
				: { phasesEnded, markSeen: true };
	}
}
