import { createHash } from 'node:crypto';
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
/** An execution waits for this row's answer (another execution sent it): hand its ID over. */
const WAITED_FOR = 'w:';
/** One bit of a handed-over ID: `b:<row>:<bit>` is recorded for each bit that is 1. */
const ID_BIT = 'b:';
/**
 * Present while no execution waits for a row: the calls that record ACCEPTED rows carry it at no
 * cost, and only when a waiter removed it do they look for WAITED_FOR rows among theirs.
 */
const NO_WAITERS = 'n:no-waiters';
/**
 * A waiting execution holds one of WAITER_SLOTS tokens of the current minute (`t:<minute>:<slot>`)
 * while it waits: NO_WAITERS is put back only when no token of this or the last minute is held, so
 * one execution's end never hides another's wait, and a token left by a crashed process ages out.
 */
const WAITER_TOKEN = 't:';
const WAITER_SLOTS = 32;
const TOKEN_MINUTE_MS = 60_000;

const minuteNow = () => Math.floor(Date.now() / TOKEN_MINUTE_MS);
const tokensOf = (minute: number) =>
	Array.from({ length: WAITER_SLOTS }, (_, slot) => `${WAITER_TOKEN}${minute}:${slot}`);
/** Tokens a waiter may still hold: this minute's and the last one's. */
const liveTokens = () => [...tokensOf(minuteNow() - 1), ...tokensOf(minuteNow())];
/** IDs longer than this (in UTF-8 bytes) are not handed over (the service's are far shorter). */
const MAX_HANDED_ID_BYTES = 64;
const LENGTH_BITS = 8;
/** n8n's store options for a probe: the same mode, no trimming. */
const PROBE_OPTIONS: ICheckProcessedOptions = { mode: 'entries' };
/** This node's own record: n8n keys it by the node's ID, so a rename keeps it. */
const RECORD_SCOPE = 'node';
/** Values n8n's store keeps per row: SENT and ACCEPTED. */
export const VALUES_PER_ROW = 2;
/** The IDs of the newest rows, kept where n8n keeps them (see `earlierResult`). */
export const MAX_KEPT_IDS = 10_000;
const STATIC_DATA_KEY = 'candidateVerificationSentRows';
/** Where 0.2.0 kept the IDs (the node's static data, keyed by the node's name): still read. */
const LEGACY_STATIC_DATA_KEY = 'sentRows';

export type RowState = 'new' | 'accepted' | 'inDoubt';

/** When a row was accepted and the ID the service gave it, where n8n kept them. */
export interface EarlierResult {
	sentAt: string;
	id?: string;
}

export interface AcceptedRow {
	identity: string;
	id?: string;
}

/** IDs this process saw accepted (manual executions save no static data). */
const idsInProcess = new Map<string, EarlierResult>();

function keepNewest<T>(map: Map<string, T>, key: string, value: T): void {
	map.delete(key);
	map.set(key, value);
	while (map.size > MAX_KEPT_IDS) map.delete(map.keys().next().value as string);
}

/** The store values that hand `id` over for a row: one per bit that is 1 (length byte first). */
function idBits(identity: string, id: string): string[] {
	const bytes = Buffer.from(id, 'utf8');
	const values: string[] = [];
	[bytes.length, ...bytes].forEach((byte, index) => {
		for (let bit = 0; bit < 8; bit++) {
			if (byte & (1 << (7 - bit))) values.push(`${ID_BIT}${identity}:${index * 8 + bit}`);
		}
	});
	return values;
}

/** Bytes from probed bit values: a bit is 1 when its value was found in the store. */
function bitsToBytes(probe: string[], found: string[], bitCount: number): number[] {
	const ones = new Set(found);
	const bytes = new Array<number>(Math.ceil(bitCount / 8)).fill(0);
	probe.slice(0, bitCount).forEach((value, index) => {
		if (ones.has(value)) bytes[Math.floor(index / 8)] |= 1 << (7 - (index % 8));
	});
	return bytes;
}

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

	private readonly lock: WorkflowLock;

	private readonly processKey: string;

	/**
	 * `historyRows`: the newest rows kept at least. n8n drops the oldest values first, and a row's
	 * SENT is older than its ACCEPTED by the rows claimed while its answer was awaited (at most
	 * `rowsClaimedAhead`), so those are kept on top.
	 */
	constructor(
		private readonly context: IExecuteFunctions,
		private readonly store: DeduplicationHelperFunctions,
		historyRows: number,
		rowsClaimedAhead: number,
	) {
		this.options = {
			mode: 'entries',
			maxEntries: (historyRows + rowsClaimedAhead) * VALUES_PER_ROW,
		};
		const workflowId = String(context.getWorkflow().id ?? '');
		this.lock = new WorkflowLock(context, store, workflowId);
		this.processKey = JSON.stringify([workflowId, context.getNode().id]);
	}

	get lockCalls(): number {
		return this.lock.calls;
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
	private async record(values: string[], keepsRows = false) {
		this.roundTrips += 1;
		return await this.store.checkProcessedAndRecord(
			values,
			RECORD_SCOPE,
			keepsRows ? this.options : PROBE_OPTIONS,
		);
	}

	private async remove(values: string[]): Promise<void> {
		if (values.length === 0) return;
		this.roundTrips += 1;
		await this.store.removeProcessed(values, RECORD_SCOPE, this.options);
	}

	/**
	 * Which of these rows are ACCEPTED. The store has no read-only check: what it adds is removed.
	 * Rows in `waitFor` that are not accepted are marked WAITED_FOR (their sender hands the ID over),
	 * and this execution holds a waiter token (taken, or moved to the current minute) meanwhile.
	 */
	private async acceptedAmong(
		identities: string[],
		waitFor: Set<string> = new Set(),
	): Promise<Set<string>> {
		if (identities.length === 0) return new Set();
		const waiting = identities.filter((identity) => waitFor.has(identity));
		const minute = minuteNow();
		const tokenProbe = waiting.length > 0 && this.tokenMinute !== minute ? tokensOf(minute) : [];
		const checked = await this.record([
			...identities.flatMap((identity) => [ACCEPTED + identity, PROBING + identity]),
			...waiting.map((identity) => WAITED_FOR + identity),
			...tokenProbe,
		]);
		const added = new Set(checked.new.map(String));
		const accepted = new Set(
			identities.filter(
				(identity) => !added.has(ACCEPTED + identity) && added.has(PROBING + identity),
			),
		);
		const waitingStill = waiting.filter((identity) => !accepted.has(identity));
		const oldToken = this.token;
		if (waitingStill.length > 0 && tokenProbe.length > 0) {
			// The first free slot is this execution's; with all taken it waits without one.
			const taken = tokenProbe.find((token) => added.has(token));
			if (taken !== undefined) {
				this.token = taken;
				this.tokenMinute = minute;
			}
		}
		await this.remove([
			...[...added].filter((value) => value.startsWith(ACCEPTED) || value.startsWith(PROBING)),
			...tokenProbe.filter((token) => added.has(token) && token !== this.token),
			...(oldToken !== undefined && oldToken !== this.token ? [oldToken] : []),
			...waiting
				.filter((identity) => accepted.has(identity))
				.map((identity) => WAITED_FOR + identity),
			...(waitingStill.length > 0 ? [NO_WAITERS] : []),
		]);
		return accepted;
	}

	/** The waiter token this execution holds, and the minute it was taken in. */
	private token?: string;

	private tokenMinute?: number;

	/** This execution waits no more: its token goes, and NO_WAITERS comes back if nobody else waits. */
	private async stopWaitingEntirely(): Promise<void> {
		if (this.token !== undefined) await this.remove([this.token]);
		this.token = undefined;
		this.tokenMinute = undefined;
		await this.putBackNoWaitersUnlessWaited();
	}

	/** Probes the live waiter tokens (with NO_WAITERS): keeps NO_WAITERS only when none is held. */
	private async putBackNoWaitersUnlessWaited(alsoProbe: string[] = []) {
		const probe = liveTokens();
		const checked = await this.record([...alsoProbe, ...probe, NO_WAITERS]);
		const added = new Set(checked.new.map(String));
		const held = probe.some((token) => !added.has(token));
		// NO_WAITERS is present now (put back by this call or the caller's): it stays only if nobody waits.
		await this.remove([
			...[...added].filter((value) => value !== NO_WAITERS),
			...(held ? [NO_WAITERS] : []),
		]);
		return checked;
	}

	/**
	 * Records ACCEPTED rows (with `alsoRecord`, in one call) and hands the IDs of those another
	 * execution waits for over, bit by bit (n8n's store keeps hashes only, so membership is all a
	 * reader can ask). Only while NO_WAITERS is absent does this cost more than the one call.
	 */
	private async recordAccepted(accepted: AcceptedRow[], alsoRecord: string[] = []) {
		const withAccepted = accepted.length > 0;
		const recorded = await this.record(
			[
				...alsoRecord,
				...accepted.map(({ identity }) => ACCEPTED + identity),
				...(withAccepted ? [NO_WAITERS] : []),
			],
			true,
		);
		if (!withAccepted || !recorded.new.map(String).includes(NO_WAITERS)) return recorded;
		const handed = accepted.filter(
			({ id }) => id !== undefined && Buffer.byteLength(id) <= MAX_HANDED_ID_BYTES,
		);
		const markers = handed.map(({ identity }) => WAITED_FOR + identity);
		// NO_WAITERS was put back by the call above: it stays only if no waiter holds a token.
		const checked = await this.putBackNoWaitersUnlessWaited(markers);
		const waitedFor = new Set(
			checked.processed
				.map(String)
				.filter((value) => value.startsWith(WAITED_FOR))
				.map((value) => value.slice(WAITED_FOR.length)),
		);
		const bits = handed
			.filter(({ identity }) => waitedFor.has(identity))
			.flatMap(({ identity, id }) => idBits(identity, id!));
		if (bits.length > 0) await this.record(bits);
		return recorded;
	}

	/** The ID handed over for a row, read bit by bit; its bits and WAITED_FOR are removed. */
	private async handedId(identity: string): Promise<string | undefined> {
		const probe = (from: number, to: number) =>
			Array.from({ length: to - from }, (_, bit) => `${ID_BIT}${identity}:${from + bit}`);
		const lengthProbe = probe(0, LENGTH_BITS);
		const lengthBits = await this.record(lengthProbe);
		const length = bitsToBytes(lengthProbe, lengthBits.processed.map(String), LENGTH_BITS)[0];
		const bytesProbe = length > 0 ? probe(LENGTH_BITS, LENGTH_BITS + length * 8) : [];
		const idBitsSet = bytesProbe.length > 0 ? await this.record(bytesProbe) : undefined;
		await this.remove([...lengthProbe, ...bytesProbe, WAITED_FOR + identity]);
		if (!length || !idBitsSet) return undefined;
		return Buffer.from(
			bitsToBytes(bytesProbe, idBitsSet.processed.map(String), length * 8),
		).toString('utf8');
	}

	/**
	 * Records the rows as SENT (and `accepted` as ACCEPTED, in the same call) and says what an
	 * earlier execution did with each. With `forgetFirst` (Send These Rows Again) their earlier
	 * record goes first. Rows in `waitFor` found in doubt are marked as waited for. Throws when the
	 * store fails.
	 */
	async claim(
		identities: string[],
		accepted: AcceptedRow[],
		forgetFirst = false,
		waitFor: Set<string> = new Set(),
	): Promise<Map<string, RowState>> {
		const unique = [...new Set(identities)];
		this.keepIds(accepted);
		return await this.underLock(async () => {
			if (forgetFirst) {
				await this.remove(
					unique.flatMap((identity) => [SENT, ACCEPTED, PROBING].map((kind) => kind + identity)),
				);
			}
			return await this.claimLocked(unique, accepted, waitFor);
		}, true);
	}

	private async claimLocked(unique: string[], accepted: AcceptedRow[], waitFor: Set<string>) {
		const claimed = await this.recordAccepted(
			accepted,
			unique.map((identity) => SENT + identity),
		);
		const fresh = new Set(
			claimed.new
				.map(String)
				.filter((value) => value.startsWith(SENT))
				.map((value) => value.slice(SENT.length)),
		);
		const before = unique.filter((identity) => !fresh.has(identity));
		const acceptedBefore = await this.acceptedAmong(before, waitFor);
		const states = new Map<string, RowState>();
		for (const identity of unique) {
			if (fresh.has(identity)) states.set(identity, 'new');
			else states.set(identity, acceptedBefore.has(identity) ? 'accepted' : 'inDoubt');
		}
		return states;
	}

	/**
	 * Of rows waited for (in doubt), those accepted since, with the ID their sender handed over.
	 * `stopWaiting`: rows no longer waited for (their wait ran out).
	 */
	async acceptedSince(
		identities: string[],
		stopWaiting: string[] = [],
	): Promise<Map<string, string | undefined>> {
		return await this.underLock(async () => {
			const waiting = new Set(identities);
			const accepted = await this.acceptedAmong(identities, waiting);
			const ids = new Map<string, string | undefined>();
			for (const identity of accepted) {
				const id = this.earlierResult(identity)?.id ?? (await this.handedId(identity));
				ids.set(identity, id);
				if (id !== undefined) this.keepIds([{ identity, id }]);
			}
			if (stopWaiting.length > 0)
				await this.remove(stopWaiting.map((identity) => WAITED_FOR + identity));
			if (accepted.size + stopWaiting.length >= identities.length) await this.stopWaitingEntirely();
			return ids;
		});
	}

	/**
	 * After sending: ACCEPTED for what the service accepted; SENT removed for rows never sent or
	 * clearly refused, so a later execution sends them. Throws when the store fails.
	 */
	async settle(accepted: AcceptedRow[], released: string[]): Promise<void> {
		this.keepIds(accepted);
		await this.lock.released();
		if (accepted.length === 0 && released.length === 0) return;
		await this.underLock(async () => {
			if (accepted.length > 0) await this.recordAccepted(accepted);
			await this.remove(released.map((identity) => SENT + identity));
		});
	}

	/**
	 * Duplicate Protection → Record Rows as Sent: rows in doubt or never sent count as accepted with
	 * the IDs given (a marker a failed probe left goes); a row accepted before is left as it is.
	 * Returns each row's state before.
	 */
	async recordAsSent(rows: AcceptedRow[]): Promise<Map<string, RowState>> {
		return await this.underLock(async () => {
			const states = await this.claimLocked(
				[...new Set(rows.map((row) => row.identity))],
				[],
				new Set(),
			);
			const toRecord = rows.filter(({ identity }) => states.get(identity) !== 'accepted');
			if (toRecord.length > 0) await this.recordAccepted(toRecord);
			await this.remove(toRecord.map(({ identity }) => PROBING + identity));
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

	/** Duplicate Protection → Release Stuck Lock. */
	async releaseStuckLock(): Promise<boolean> {
		return await this.lock.releaseStuck();
	}

	/** When an accepted row was sent and its ID, where n8n kept them. */
	earlierResult(identity: string): EarlierResult | undefined {
		const inProcess = idsInProcess.get(this.processKey + identity);
		if (inProcess) return inProcess;
		const saved = this.keptIds()?.[identity] ?? this.legacyIds()?.[identity];
		if (!Array.isArray(saved) || typeof saved[0] !== 'string') return undefined;
		return saved[1] === undefined || saved[1] === null || saved[1] === ''
			? { sentAt: saved[0] }
			: { sentAt: saved[0], id: String(saved[1]) };
	}

	/** Keeps when and with which ID rows were accepted: in this process and the static data. */
	private keepIds(rows: AcceptedRow[]): void {
		if (rows.length === 0) return;
		const sentAt = new Date().toISOString();
		const kept = this.keptIds();
		for (const { identity, id } of rows) {
			keepNewest(
				idsInProcess,
				this.processKey + identity,
				id === undefined ? { sentAt } : { sentAt, id },
			);
			if (kept) {
				delete kept[identity];
				kept[identity] = id === undefined ? [sentAt] : [sentAt, id];
			}
		}
		if (kept) {
			const keys = Object.keys(kept);
			for (const key of keys.slice(0, Math.max(0, keys.length - MAX_KEPT_IDS))) delete kept[key];
		}
	}

	/**
	 * The workflow's static data, per node ID (a rename keeps it): hash → [sent at, ID] for the
	 * newest MAX_KEPT_IDS rows. n8n saves it after production and retry executions only, whole, when
	 * the execution ends: a later execution sees it when it starts after that one ended.
	 */
	private keptIds(): Record<string, IDataObject[string]> | undefined {
		try {
			const staticData = this.context.getWorkflowStaticData('global');
			const perNode = (staticData[STATIC_DATA_KEY] ??= {}) as IDataObject;
			const nodeId = this.context.getNode().id;
			perNode[nodeId] ??= {};
			return perNode[nodeId] as Record<string, IDataObject[string]>;
		} catch {
			return undefined;
		}
	}

	private legacyIds(): Record<string, IDataObject[string]> | undefined {
		try {
			const legacy = this.context.getWorkflowStaticData('node')[LEGACY_STATIC_DATA_KEY];
			return legacy && typeof legacy === 'object'
				? (legacy as Record<string, IDataObject[string]>)
				: undefined;
		} catch {
			return undefined;
		}
	}
}
