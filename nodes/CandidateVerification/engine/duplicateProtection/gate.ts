import type { NodeOperationError } from 'n8n-workflow';

import type { RunLedger } from '../runLedger';
import type { GateDecision, ItemOutcome, SendGate } from '../sendGate';
import { DoubtResolution } from './doubts';
import { DUPLICATE_MODES } from './fields';
import { GateTexts } from './gateTexts';
import * as say from './messages';
import type { RowState } from './record';
import type { ReadForRecording } from './migration';
import { recordRowsAsSent } from './recordAsSent';
import { RowIdentities } from './rowIdentities';
import type { GateSetup } from './setup';

export const PROTECTION_LOG_MESSAGE = 'Candidate Verification: duplicate protection of';

const SEND: GateDecision = { kind: 'send' };
const SKIP: GateDecision = { kind: 'skip' };

interface Claimed {
	states: Map<string, RowState>;
	doubts: Promise<unknown>;
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
	readonly mode = this.setup.mode;

	private readonly rows = new RowIdentities(this.setup, this.ledger.checked);

	private readonly doubts = new DoubtResolution(this.setup);

	private readonly texts = new GateTexts(this.setup, this.ledger, this.rows, this.doubts);

	constructor(
		private readonly setup: GateSetup,
		private readonly ledger: RunLedger,
	) {}

	get halted(): boolean {
		return this.storeFailure !== undefined;
	}

	get skipsRowsSent(): boolean {
		return this.mode !== DUPLICATE_MODES.sendAgain;
	}

	readonly heldUnderStop = new Map<number, NodeOperationError>();

	/** Items not sent because of the record: sent before or in doubt (a failed claim's are not sent). */
	readonly skipped = new Set<number>();

	private readonly outcomes = new Map<number, ItemOutcome['kind']>();

	/** Rows this run recorded as SENT: they are its to record as accepted or to release. */
	private readonly claimed = new Set<string>();

	/** Rows the service accepted since the last claim (which records them): their item and ID. */
	private acceptedSinceClaim: Array<{ identity: string; id?: string; itemIndex: number }> = [];

	private readonly unclaimed: number[] = [];

	/** Per item claimed: its claim's states and, with On Error → Stop, the claim's doubts resolved. */
	private readonly claimOf = new Map<number, Promise<Claimed>>();

	/** Rows claimed (or being claimed) whose request has not been answered. */
	private outstanding = 0;

	private claimInFlight?: Promise<unknown>;

	/** The store failed: nothing more is sent. */
	storeFailure?: Error;

	/** Rows accepted by the service whose record failed: named in the error with their IDs. */
	unrecorded: ReadonlyArray<{ itemIndex: number; id?: string }> = [];

	async recordAsSent(valid: number[], read: ReadForRecording): ReturnType<typeof recordRowsAsSent> {
		return await recordRowsAsSent(this.texts, valid, read);
	}

	/**
	 * Plans the run: each row's first item is sent; an item with the identity of an earlier one
	 * (`first`) is a repeat, the same row twice, and comes with its error (Stop: the first one ends
	 * the plan, nothing is sent; Continue: each on the error output). `settledBefore`: items an
	 * earlier try of n8n's Retry On Fail settled, never sent again, whose repeats are still named.
	 */
	firstOfEachRow(indexes: number[], settledBefore: ReadonlySet<number> = new Set()) {
		const repeats: Array<{ itemIndex: number; error: NodeOperationError }> = [];
		const firstItemOf = new Map<string, number>();
		for (const itemIndex of indexes) {
			const settled = settledBefore.has(itemIndex);
			const identity = this.rows.identityOf(itemIndex, !settled);
			const first = firstItemOf.get(identity);
			if (first === undefined) {
				firstItemOf.set(identity, itemIndex);
				if (settled) continue;
				this.rows.ofItem.set(itemIndex, identity);
				this.unclaimed.push(itemIndex);
				continue;
			}
			const keyed = this.setup.itemKeys[itemIndex].duplicateKey !== undefined;
			const error = this.texts.error(say.repeatedRow(itemIndex, first, keyed), itemIndex);
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
		const identities = rows.map((index) => this.rows.ofItem.get(index)!);
		const accepted = this.acceptedSinceClaim.splice(0);
		this.setup.pace.claimStarted();
		const claim = this.setup.record
			.claim(identities, accepted, this.mode === DUPLICATE_MODES.sendAgain)
			.then((states) => {
				this.setup.pace.claimDone();
				for (const [identity, state] of states) {
					if (state !== 'new') continue;
					this.claimed.add(identity);
					this.doubts.claimed(identity);
				}
				const stateOf = (index: number) => states.get(this.rows.ofItem.get(index)!);
				this.outstanding -= rows.filter((index) => stateOf(index) !== 'new').length;
				// With On Error → Stop the run stops at a row still in doubt before any new row of the
				// claim leaves.
				const doubts = rows
					.filter((index) => !this.ledger.continueOnFail && stateOf(index) === 'inDoubt')
					.map(async (itemIndex) => {
						if (await this.doubts.resolve(this.rows.ofItem.get(itemIndex)!)) return;
						this.heldUnderStop.set(itemIndex, this.texts.inDoubtError(itemIndex));
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
		if (this.setup.settings.batchSize || this.claimInFlight || this.storeFailure) return;
		if (this.worthAClaim()) this.startClaim(this.setup.pace.limits.claimLimit - this.outstanding);
	}

	private worthAClaim(): boolean {
		const left = this.unclaimed.length;
		const free = this.setup.pace.limits.claimLimit - this.outstanding;
		return left > 0 && free >= Math.min(this.setup.pace.slotsWorthAClaim, left);
	}

	/** Woken at the next answer or claim: workers without a claimed row wait for one. */
	private readonly waiters: Array<() => void> = [];

	private notifyChange(): void {
		for (const wake of this.waiters.splice(0)) wake();
	}

	async decide(itemIndex: number): Promise<GateDecision> {
		const { batchSize } = this.setup.settings;
		while (!this.claimOf.has(itemIndex)) {
			if (this.ledger.stopped(this)) break;
			if (this.claimInFlight) await this.claimInFlight;
			else if (batchSize || this.outstanding === 0 || this.worthAClaim()) {
				this.startClaim(batchSize || this.setup.pace.limits.claimLimit - this.outstanding);
			} else {
				// Requests are in flight: their answers free the slots for a claim worth its cost.
				await new Promise<void>((wake) => this.waiters.push(wake));
			}
		}
		if (this.ledger.stopped(this) && !this.claimOf.has(itemIndex)) return SKIP;
		const claimed = await this.claimOf.get(itemIndex)?.catch(() => undefined);
		if (!claimed) return SKIP;
		const identity = this.rows.ofItem.get(itemIndex)!;
		const state = claimed.states.get(identity);
		if (state === 'new') {
			// With On Error → Stop a row in doubt before it stops the run: the new rows claimed with it
			// wait for its outcome.
			if (this.ledger.continueOnFail) return SEND;
			await claimed.doubts;
			return this.ledger.stopped(this) ? SKIP : SEND;
		}
		this.skipped.add(itemIndex);
		const answered = state === 'accepted' || (await this.doubts.resolve(identity));
		if (answered) return { kind: 'output', output: this.texts.alreadySentOutput(itemIndex) };
		return { kind: 'inDoubt', error: this.texts.inDoubtError(itemIndex) };
	}

	answered(itemIndex: number, outcome: ItemOutcome): void {
		this.outstanding -= 1;
		this.setup.pace.answered();
		this.outcomes.set(itemIndex, outcome.kind);
		const identity = this.rows.ofItem.get(itemIndex)!;
		if (outcome.kind === 'answerLost') this.doubts.answerLost(identity);
		else if (outcome.kind === 'accepted') {
			this.acceptedSinceClaim.push({ identity, id: outcome.id, itemIndex });
		}
		this.claimAhead();
		this.notifyChange();
	}

	/**
	 * After sending: records what the service accepted and releases rows never sent or clearly
	 * refused. A row whose request left without an answer (a timeout, a reset, a cancel, a 5xx)
	 * stays in doubt. When the store fails, the accepted rows are named in the run's error.
	 */
	async settle(): Promise<void> {
		while (this.claimInFlight) await this.claimInFlight;
		const released: string[] = [];
		for (const [itemIndex, identity] of this.rows.ofItem) {
			if (!this.claimed.has(identity)) continue;
			const outcome = this.outcomes.get(itemIndex);
			if (outcome === undefined || outcome === 'refused') released.push(identity);
		}
		const accepted = this.acceptedSinceClaim.splice(0);
		try {
			await this.setup.record.settle(accepted, released);
		} catch (caught) {
			this.storeFailure ??= caught as Error;
			this.unrecorded = accepted;
			this.setup.context.logger.warn(
				`Candidate Verification: duplicate protection could not record the outcome of ${accepted.length + released.length} rows: ${(caught as Error)?.message}`,
			);
		}
		// Read by `npm run bench` (N8N_LOG_LEVEL=debug): the protection's share of a run.
		this.setup.context.logger.debug(
			`${PROTECTION_LOG_MESSAGE} ${this.rows.ofItem.size} items: ${this.setup.record.roundTrips} round trips to n8n's store (${this.setup.record.lock.calls} for the lock) in ${this.setup.record.storeMs} ms`,
		);
	}

	/** The error of a run the store failed in (its texts: GateTexts.storeError). */
	storeError(notSent: number[]): NodeOperationError {
		const { storeFailure, unrecorded } = this;
		const sentAny = this.outcomes.size > 0;
		return this.texts.storeError(storeFailure!, { sentAny, unrecorded, notSent });
	}

	lostAnswerAdvice(itemIndex: number): string {
		return this.texts.lostAnswerAdvice(itemIndex);
	}
}
