import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import type { CheckedItem } from '../checkItems';
import type { OperationDefinition, ServiceRead } from '../operation';
import type { ServiceEnvelope } from '../../../shared/transport/errors';
import type { RunSettings } from '../runSettings';
import type { RunLedger } from '../runLedger';
import type { GateDecision, ItemOutcome, SendGate } from '../sendGate';
import type { ClaimPace } from './claimPace';
import { DUPLICATE_MODES, type DuplicateMode } from './fields';
import { lockFailureOf } from './lock';
import * as say from './messages';
import type { RowFacts } from './formerIdentities';
import { rowIdentity } from './identity';
import { keepNewest, LostWrite, type RowState, type SentRecord } from './record';

export const PROTECTION_LOG_MESSAGE = 'Candidate Verification: duplicate protection of';

/** Rows claimed ahead of the requests in flight: sending goes on while the next claim is made. */
export const CLAIM_RESERVE_SHARE = 8;
export const MAX_CLAIM_RESERVE = 25;
const FIRST_POLL_MS = 50;
const LONGEST_POLL_MS = 2000;
/** Rows whose answer this process saw lost: not waited for (nothing is in flight for them). */
const lostInProcess = new Map<string, true>();

const SEND: GateDecision = { kind: 'send' };
const SKIP: GateDecision = { kind: 'skip' };

/** What the gate of one run is made of (DuplicateProtection, protection.ts, reads and checks it). */
export interface GateSetup {
	context: IExecuteFunctions;
	operation: OperationDefinition;
	settings: RunSettings;
	mode: DuplicateMode;
	record: SentRecord;
	pace: ClaimPace;
	identityBase: unknown[];
	/** The account and operation rows are sent with, for their former identities (formerIdentities.ts). */
	account: Pick<RowFacts, 'environment' | 'credentialId' | 'baseUrl' | 'method' | 'path'>;
	waitMs: number;
	claimLimit: number;
}

/** An item with the identity of an earlier item of the input: the same row twice. */
export interface Repeat {
	itemIndex: number;
	error: NodeOperationError;
}

interface Claimed {
	states: Map<string, RowState>;
	doubts: Promise<unknown>;
}

/** A call to n8n's store that must succeed before anything is sent: its failure names the store. */
export async function storeCall<T>(
	context: IExecuteFunctions,
	work: () => Promise<T>,
	what: 'clear' | 'record',
): Promise<T> {
	try {
		return await work();
	} catch (caught) {
		if (lockFailureOf(caught)) throw caught as NodeOperationError;
		const { message, description } = say.storeCallFailed(
			what,
			(caught as Error)?.message ?? String(caught),
		);
		throw new NodeOperationError(context.getNode(), message, { itemIndex: undefined, description });
	}
}

/**
 * Duplicate protection's gate for one run: the policy that turns a row's state in the store
 * protocol (SentRecord under WorkflowLock) into a decision, an output and a message. It answers
 * the sender per row and is told each outcome; it never writes an output nor a failure, and stops
 * the run only through states the sender reads (halted, heldUnderStop). Rows are claimed as the
 * requests in flight free their slots (at most Max Concurrent Requests plus a small reserve claimed and not
 * answered at any time), a row another execution has sent without an answer yet is waited for, and
 * a row that stands twice in one input is named (an error), never merged silently.
 */
export class ProtectionGate implements SendGate {
	readonly mode: DuplicateMode;

	private readonly context: IExecuteFunctions;

	private readonly operation: OperationDefinition;

	private readonly settings: RunSettings;

	private readonly record: SentRecord;

	private readonly pace: ClaimPace;

	private readonly identityBase: unknown[];

	/** The account and operation rows are sent with, for their former identities. */
	private readonly account: GateSetup['account'];

	private readonly waitMs: number;

	/** Rows claimed and not answered at most: Max Concurrent Requests plus a small reserve. */
	private readonly claimLimit: number;

	constructor(
		setup: GateSetup,
		private readonly ledger: RunLedger,
	) {
		this.mode = setup.mode;
		this.context = setup.context;
		this.operation = setup.operation;
		this.settings = setup.settings;
		this.record = setup.record;
		this.pace = setup.pace;
		this.identityBase = setup.identityBase;
		this.account = setup.account;
		this.waitMs = setup.waitMs;
		this.claimLimit = setup.claimLimit;
	}

	get halted(): boolean {
		return this.storeFailure !== undefined;
	}

	get skipsRowsSent(): boolean {
		return this.mode !== DUPLICATE_MODES.sendAgain;
	}

	readonly heldUnderStop = new Map<number, NodeOperationError>();

	/** The run stopped (a failure with Stop, a row held in doubt with Stop, a cancel) or the store failed. */
	private get stopped(): boolean {
		return this.ledger.stopped || this.storeFailure !== undefined || this.heldUnderStop.size > 0;
	}

	/** Items not sent because of the record: sent before, in doubt, or the claim failed. */
	readonly skipped = new Set<number>();

	private readonly identities = new Map<number, string>();

	/** What became of each row sent, as the sender told it. */
	private readonly outcomes = new Map<number, ItemOutcome['kind']>();

	/** Rows this run recorded as SENT: they are its to record as accepted or to release. */
	private readonly claimed = new Set<string>();

	/** Rows the service accepted since the last claim (which records them): their item and ID. */
	private acceptedSinceClaim: Array<{ identity: string; id?: string; itemIndex: number }> = [];

	/** The rows to send not claimed yet, in order. */
	private readonly unclaimed: number[] = [];

	/** Per item claimed: its claim's states and, with On Error → Stop, the claim's doubts resolved. */
	private readonly claimOf = new Map<number, Promise<Claimed>>();

	/** Rows claimed (or being claimed) whose request has not been answered. */
	private outstanding = 0;

	private claimInFlight?: Promise<unknown>;

	/** Rows in doubt waited for: until when, and who is told the outcome. */
	private readonly waiting = new Map<
		string,
		{ resolve: (accepted: boolean) => void; deadline: number }
	>();

	private poller?: Promise<void>;

	/** The store failed: nothing more is sent. */
	storeFailure?: Error;

	/** Rows accepted by the service whose record failed: named in the error with their IDs. */
	unrecorded: ReadonlyArray<{ itemIndex: number; id?: string }> = [];

	/** A row's identity; `sending`: it may be claimed, so its former identities are noted for lookup. */
	private identityOf({ prepared, duplicateKey }: CheckedItem, sending = true): string {
		const { body, qs, pathParameters } = prepared!;
		const request = { body, qs, pathParameters };
		const row = this.operation.identity?.(prepared!) ?? request;
		const scope = this.operation.scope?.(prepared!);
		const formerRow = this.operation.formerIdentity?.(prepared!);
		const identity = rowIdentity(this.identityBase, row, duplicateKey, scope);
		if (!sending) return identity;
		const facts = { ...this.account, request, row, duplicateKey, scope, formerRow };
		this.record.former.note(identity, facts);
		return identity;
	}

	private error({ message, description }: say.ErrorText, itemIndex?: number): NodeOperationError {
		return new NodeOperationError(this.context.getNode(), message, { itemIndex, description });
	}

	/**
	 * Record Rows as Sent, nothing sent: a row in doubt or never sent is recorded as accepted with
	 * its ID found; a row accepted before keeps its record and ID. One ID on two rows: nothing. A row
	 * keyed before 0.5.0 of an operation that confirms it (Profile) is recorded only when the service
	 * answers that the ID given is on the row's own scope (`read`: the run's reads); the others fail.
	 */
	async recordAsSent(
		valid: number[],
		read: (label: string, request: ServiceRead) => Promise<ServiceEnvelope>,
	): Promise<{
		outputs: Map<number, INodeExecutionData[]>;
		failures: Map<number, NodeOperationError>;
	}> {
		const rowsOfId = new Map<string, Set<string>>();
		const rows = valid.map((itemIndex) => {
			const identity = this.identityOf(this.ledger.checked[itemIndex]);
			const id = this.ledger.checked[itemIndex].idFound!;
			this.identities.set(itemIndex, identity);
			rowsOfId.set(id, (rowsOfId.get(id) ?? new Set()).add(identity));
			return { identity, id };
		});
		const field = this.operation.acceptedIdField!;
		const shared = this.operation.idFromInput
			? []
			: valid.filter((_item, position) => rowsOfId.get(rows[position].id)!.size > 1);
		if (shared.length > 0) {
			throw this.error(say.oneIdForTwoRows(field, shared), shared[0]);
		}
		const failures = new Map<number, NodeOperationError>();
		const { confirmFormerRow } = this.operation;
		const confirm =
			confirmFormerRow &&
			(async (found: string[]) => {
				const confirmed = new Set<string>();
				const toRead = [...found];
				const itemsOf = (identity: string) =>
					valid.filter((_item, position) => rows[position].identity === identity);
				// The reads go out as the run's requests do: at most Max Concurrent Requests at once.
				const worker = async () => {
					for (let identity = toRead.shift(); identity !== undefined; identity = toRead.shift()) {
						const items = itemsOf(identity);
						const { id } = rows[valid.indexOf(items[0])];
						const answer = await this.readFormer(items[0], id, read);
						if (answer === undefined) confirmed.add(identity);
						for (const itemIndex of answer ? items : []) {
							failures.set(itemIndex, this.notRecordedError(itemIndex, id, answer!));
						}
					}
				};
				const workers = Math.min(this.settings.concurrency, toRead.length);
				await Promise.all(Array.from({ length: workers }, worker));
				return confirmed;
			});
		const states = await storeCall(
			this.context,
			async () => await this.record.recordAsSent(rows, confirm),
			'record',
		);
		const outputs = new Map<number, INodeExecutionData[]>();
		valid.forEach((itemIndex, position) => {
			if (failures.has(itemIndex)) return;
			const { identity, id } = rows[position];
			const json = { [field]: id, recordedAsSent: true };
			outputs.set(
				itemIndex,
				states.get(identity) === 'accepted'
					? this.alreadySentOutput(itemIndex, { recordedAsSent: false })
					: [{ json, pairedItem: { item: itemIndex } }],
			);
		});
		return { outputs, failures };
	}

	/**
	 * A row keyed before 0.5.0 that Record Rows as Sent is asked to record: the service is read for
	 * the ID given (the operation's FormerRowConfirmation). Undefined when the answer names the row's
	 * own scope; else what was learned.
	 */
	private async readFormer(
		itemIndex: number,
		id: string,
		read: (label: string, request: ServiceRead) => Promise<ServiceEnvelope>,
	): Promise<say.FormerRowAnswer | undefined> {
		const { ownValue, readLabel, read: readOf, valuesIn } = this.operation.confirmFormerRow!;
		const prepared = this.ledger.checked[itemIndex].prepared!;
		const own = ownValue(prepared);
		const request = readOf(prepared, id);
		if ('lacks' in request) return request;
		try {
			const { data } = await read(readLabel, request);
			const on = valuesIn((data ?? {}) as IDataObject);
			if (on.length > 0 && on.every((value) => value === own)) return undefined;
			return on.length > 0 ? { on: on.filter((value) => value !== own) } : { namesNone: true };
		} catch (caught) {
			return { failed: (caught as Error)?.message ?? String(caught) };
		}
	}

	/** The error of a row keyed before 0.5.0 that Record Rows as Sent did not record. */
	private notRecordedError(
		itemIndex: number,
		id: string,
		answer: say.FormerRowAnswer,
	): NodeOperationError {
		const { what, ownValue, readLabel } = this.operation.confirmFormerRow!;
		const { prepared, duplicateKey } = this.ledger.checked[itemIndex];
		const text = say.formerRowNotRecorded({
			itemIndex,
			key: duplicateKey ?? '',
			field: this.operation.acceptedIdField!,
			id,
			what,
			own: ownValue(prepared!),
			readLabel,
			answer,
			stops: !this.ledger.continueOnFail,
		});
		return this.error(text, itemIndex);
	}

	/**
	 * Plans the run: each row's first item is sent. An item with the same identity as an earlier
	 * one is a repeat, with its error (Stop: the first one, nothing is sent; Continue: each on the
	 * error output). `settledBefore`: items an earlier try of n8n's Retry On Fail settled, never
	 * sent again, whose repeats are still named.
	 */
	firstOfEachRow(
		indexes: number[],
		settledBefore: ReadonlySet<number> = new Set(),
	): { rows: number[]; repeats: Repeat[] } {
		const repeats: Repeat[] = [];
		const firstItemOf = new Map<string, number>();
		for (const itemIndex of indexes) {
			const settled = settledBefore.has(itemIndex);
			const identity = this.identityOf(this.ledger.checked[itemIndex], !settled);
			const first = firstItemOf.get(identity);
			if (first === undefined) {
				firstItemOf.set(identity, itemIndex);
				if (settled) continue;
				this.identities.set(itemIndex, identity);
				this.unclaimed.push(itemIndex);
				continue;
			}
			const keyed = this.ledger.checked[itemIndex].duplicateKey !== undefined;
			const error = this.error(say.repeatedRow(itemIndex, first, keyed), itemIndex);
			repeats.push({ itemIndex, error });
			if (!this.ledger.continueOnFail) break;
		}
		return { rows: [...this.unclaimed], repeats };
	}

	/** Claims the next `count` rows (one round trip under the lock). */
	private startClaim(count: number): void {
		const rows = this.unclaimed.splice(0, Math.max(1, count));
		this.outstanding += rows.length;
		this.notifyChange();
		const identities = rows.map((index) => this.identities.get(index)!);
		const accepted = this.acceptedSinceClaim.splice(0);
		this.pace.claimStarted();
		const claim = this.record
			.claim(identities, accepted, this.mode === DUPLICATE_MODES.sendAgain)
			.then((states) => {
				this.pace.claimDone();
				for (const [identity, state] of states) {
					if (state !== 'new') continue;
					this.claimed.add(identity);
					lostInProcess.delete(this.processKey(identity));
				}
				const stateOf = (index: number) => states.get(this.identities.get(index)!);
				this.outstanding -= rows.filter((index) => stateOf(index) !== 'new').length;
				// With On Error → Stop the run stops at a row still in doubt before any new row of the
				// claim leaves.
				const doubts = rows
					.filter((index) => !this.ledger.continueOnFail && stateOf(index) === 'inDoubt')
					.map(async (itemIndex) => {
						if (await this.resolveDoubt(this.identities.get(itemIndex)!)) return;
						this.heldUnderStop.set(itemIndex, this.inDoubtError(itemIndex));
					});
				return { states, doubts: Promise.all(doubts) };
			});
		for (const index of rows) this.claimOf.set(index, claim);
		const done = claim.catch((caught: Error) => {
			// The accepted rows this claim carried are not recorded yet: settle records them.
			this.acceptedSinceClaim.unshift(...accepted);
			this.outstanding -= rows.length;
			this.storeFailure ??= caught;
			this.notifyChange();
		});
		this.claimInFlight = done;
		void done.then(() => {
			if (this.claimInFlight === done) this.claimInFlight = undefined;
			this.claimAhead();
		});
	}

	/**
	 * Unbatched: the next rows are claimed as answers free slots, once as many are free as the claim
	 * pace finds cheapest (every claim reads and writes the node's whole record).
	 */
	private claimAhead(): void {
		if (this.settings.batchSize || this.claimInFlight || this.storeFailure) return;
		if (this.worthAClaim()) this.startClaim(this.claimLimit - this.outstanding);
	}

	/** Enough slots are free for a claim (ClaimPace: every claim reads and writes the whole record). */
	private worthAClaim(): boolean {
		const left = this.unclaimed.length;
		const free = this.claimLimit - this.outstanding;
		return left > 0 && free >= Math.min(this.pace.slotsWorthAClaim, left);
	}

	/** Woken at the next answer or claim: workers without a claimed row wait for one. */
	private readonly waiters: Array<() => void> = [];

	private notifyChange(): void {
		for (const wake of this.waiters.splice(0)) wake();
	}

	/** Asked before an item's request leaves: send it, output this instead, or hold it in doubt. */
	async decide(itemIndex: number): Promise<GateDecision> {
		const { batchSize } = this.settings;
		while (!this.claimOf.has(itemIndex)) {
			if (this.storeFailure || this.stopped) break;
			if (this.claimInFlight) await this.claimInFlight;
			else if (batchSize || this.outstanding === 0 || this.worthAClaim()) {
				this.startClaim(batchSize || this.claimLimit - this.outstanding);
			} else {
				// Requests are in flight: their answers free the slots for a claim worth its cost.
				await new Promise<void>((wake) => this.waiters.push(wake));
			}
		}
		if (this.stopped && !this.claimOf.has(itemIndex)) return SKIP;
		const claimed = await this.claimOf.get(itemIndex)?.catch(() => undefined);
		if (!claimed) {
			this.skipped.add(itemIndex);
			this.notClaimed.add(itemIndex);
			return SKIP;
		}
		const identity = this.identities.get(itemIndex)!;
		const state = claimed.states.get(identity);
		if (state === 'new') {
			// With On Error → Stop a row in doubt before it stops the run: the new rows claimed with it
			// wait for its outcome.
			if (this.ledger.continueOnFail) return SEND;
			await claimed.doubts;
			return this.stopped ? SKIP : SEND;
		}
		this.skipped.add(itemIndex);
		const answered = state === 'accepted' || (await this.resolveDoubt(identity));
		if (answered) return { kind: 'output', output: this.alreadySentOutput(itemIndex) };
		return { kind: 'inDoubt', error: this.inDoubtError(itemIndex) };
	}

	private readonly doubts = new Map<string, Promise<boolean>>();

	/** Rows whose answer was waited for (the in-doubt message says how long). */
	private readonly waitedFor = new Set<string>();

	/**
	 * Whether a row in doubt turned out accepted, once per row. A row SENT by another execution
	 * without an answer yet may be on its way right now: it is waited for (polling the record, all
	 * such rows of the run in one call) up to the node's wait, unless this process saw its answer lost.
	 */
	private async resolveDoubt(identity: string): Promise<boolean> {
		let doubt = this.doubts.get(identity);
		if (!doubt) {
			// A key found before 0.5.0: nothing is on its way for this row, a person tells.
			const waits =
				this.waitMs > 0 &&
				!lostInProcess.has(this.processKey(identity)) &&
				!this.record.foundUnderWider(identity);
			doubt = new Promise<boolean>((resolve) => {
				if (!waits) return resolve(false);
				this.waitedFor.add(identity);
				this.waiting.set(identity, { resolve, deadline: Date.now() + this.waitMs });
				this.poller ??= this.poll().finally(() => (this.poller = undefined));
			});
			this.doubts.set(identity, doubt);
		}
		return await doubt;
	}

	answered(itemIndex: number, outcome: ItemOutcome): void {
		this.outstanding -= 1;
		this.pace.answered();
		this.outcomes.set(itemIndex, outcome.kind);
		const identity = this.identities.get(itemIndex)!;
		if (outcome.kind === 'answerLost') keepNewest(lostInProcess, this.processKey(identity), true);
		else if (outcome.kind === 'accepted') {
			this.acceptedSinceClaim.push({ identity, id: outcome.id, itemIndex });
		}
		this.claimAhead();
		this.notifyChange();
	}

	private processKey(identity: string): string {
		return `${String(this.context.getWorkflow().id)}:${identity}`;
	}

	private async poll(): Promise<void> {
		let pause = FIRST_POLL_MS;
		while (this.waiting.size > 0) {
			const nextDeadline = Math.min(...[...this.waiting.values()].map(({ deadline }) => deadline));
			await sleep(Math.max(0, Math.min(pause, nextDeadline - Date.now())));
			pause = Math.min(pause * 2, LONGEST_POLL_MS);
			const identities = [...this.waiting.keys()];
			const accepted = await this.record.acceptedSince(identities).catch(() => undefined);
			// A failing store ends the wait: every row waited for is in doubt.
			const now = accepted ? Date.now() : Number.POSITIVE_INFINITY;
			for (const identity of identities) {
				const { resolve, deadline } = this.waiting.get(identity)!;
				if (accepted?.has(identity) || deadline <= now) {
					resolve(accepted?.has(identity) === true);
					this.waiting.delete(identity);
				}
			}
		}
	}

	/**
	 * After sending: records what the service accepted and releases rows never sent or clearly
	 * refused. A row whose request left without an answer (a timeout, a reset, a cancel, a 5xx)
	 * stays in doubt. When the store fails, the accepted rows are named in the run's error.
	 */
	async settle(): Promise<void> {
		while (this.claimInFlight) await this.claimInFlight;
		const released: string[] = [];
		for (const [itemIndex, identity] of this.identities) {
			if (!this.claimed.has(identity)) continue;
			const outcome = this.outcomes.get(itemIndex);
			if (outcome === undefined || outcome === 'refused') released.push(identity);
		}
		const accepted = this.acceptedSinceClaim.splice(0);
		try {
			await this.record.settle(accepted, released);
		} catch (caught) {
			this.storeFailure ??= caught as Error;
			this.unrecorded = accepted;
			this.context.logger.warn(
				`Candidate Verification: duplicate protection could not record the outcome of ${accepted.length + released.length} rows: ${(caught as Error)?.message}`,
			);
		}
		// Read by `npm run bench` (N8N_LOG_LEVEL=debug): the protection's share of a run.
		this.context.logger.debug(
			`${PROTECTION_LOG_MESSAGE} ${this.identities.size} items: ${this.record.roundTrips} round trips to n8n's store (${this.record.lock.calls} for the lock) in ${this.record.storeMs} ms`,
		);
	}

	/** Items never sent because the store failed (their claim failed or never came). */
	readonly notClaimed = new Set<number>();

	/**
	 * The error of a run the store failed in: what the service accepted (recorded or not, with the
	 * IDs), and what was not sent.
	 */
	storeError(notSent: number[]): NodeOperationError {
		const cause = this.storeFailure!;
		if (cause instanceof LostWrite) return this.lostWriteError(cause, notSent);
		if (lockFailureOf(cause) && this.outcomes.size === 0 && this.unrecorded.length === 0) {
			return cause as NodeOperationError;
		}
		const text = say.storeStopped({
			cause: `${(cause as Error)?.message ?? String(cause)}`,
			sentAny: this.outcomes.size > 0,
			unrecorded: this.unrecorded,
			notSent,
		});
		return this.error(text);
	}

	/** The tripwire: this run's claim was overwritten by another execution's write. */
	private lostWriteError(lost: LostWrite, notSent: number[]): NodeOperationError {
		const items = [...this.identities]
			.filter(([, identity]) => lost.identities.includes(identity))
			.map(([itemIndex]) => itemIndex);
		const whereToCheck = items.length > 0 ? this.whereToCheck(items) : '';
		const whenSafe = this.whenSafeToSendAgain;
		return this.error(say.writeLost({ items, whereToCheck, whenSafe, notSent }));
	}

	private alreadySentOutput(itemIndex: number, extra: IDataObject = {}): INodeExecutionData[] {
		const { operation } = this;
		const { checked } = this.ledger;
		const earlier = this.record.earlierResult(this.identities.get(itemIndex)!);
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
		if (earlier?.id === undefined && !operation.idFromInput) {
			delete json[field];
			json.idKnown = false;
			json.note = say.idNotKnownNote(field);
		}
		return [{ json, pairedItem: { item: itemIndex } }];
	}

	/** Where the user can see whether the service has the rows. */
	private whereToCheck(itemIndexes: number[]): string {
		const { checked } = this.ledger;
		return say.whereToCheck(
			itemIndexes.map((index) => checked[index].prepared!.body?.transactionId),
			this.operation.seenAt,
		);
	}

	/** A row in doubt (sent by an earlier try or execution that got no answer). */
	private inDoubtError(itemIndex: number): NodeOperationError {
		const former = this.record.foundUnderWider(this.identities.get(itemIndex)!);
		const { duplicateKey } = this.ledger.checked[itemIndex];
		if (former && duplicateKey === undefined) {
			const text = say.documentsBefore({
				label: this.operation.label,
				itemIndex,
				where: this.whereToCheck([itemIndex]),
				stops: !this.ledger.continueOnFail,
			});
			return this.error(text, itemIndex);
		}
		if (former) {
			const text = say.keyedBefore({
				label: this.operation.label,
				itemIndex,
				key: duplicateKey!,
				field: this.operation.acceptedIdField!,
				keptId: former.id,
				where: this.whereToCheck([itemIndex]),
				stops: !this.ledger.continueOnFail,
				how: this.keyedResolution(itemIndex),
			});
			return this.error(text, itemIndex);
		}
		const waited = this.waitedFor.has(this.identities.get(itemIndex)!);
		const text = say.heldInDoubt({
			label: this.operation.label,
			itemIndex,
			waitedSeconds: waited ? this.waitMs / 1000 : undefined,
			whereToCheck: this.whereToCheck([itemIndex]),
			whenSafe: this.whenSafeToSendAgain,
			stops: !this.ledger.continueOnFail,
		});
		return this.error(text, itemIndex);
	}

	/** How a person tells whether a row keyed before 0.5.0 is this one (the operation declares it). */
	private keyedResolution(itemIndex: number): say.KeyedResolution {
		const { confirmFormerRow, checkOf } = this.operation;
		if (confirmFormerRow) {
			const { what, readLabel } = confirmFormerRow;
			return { kind: 'confirmed', what, readLabel };
		}
		const prepared = this.ledger.checked[itemIndex].prepared!;
		return checkOf ? { kind: 'readCheck', ...checkOf(prepared) } : { kind: 'person' };
	}

	/** The advice on an item whose answer this run lost: the protection holds it in doubt. */
	lostAnswerAdvice(itemIndex: number): string {
		return say.lostAnswerAdvice(this.whereToCheck([itemIndex]), this.whenSafeToSendAgain);
	}

	/** When no execution can still be sending a row in doubt (its tries and their timeouts, and a minute). */
	private get whenSafeToSendAgain(): string {
		return say.whenSafeToSendAgain(this.settings.timeout, this.settings.retries);
	}
}
