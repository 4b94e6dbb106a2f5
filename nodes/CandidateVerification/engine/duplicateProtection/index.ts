import type {
	DeduplicationHelperFunctions,
	ICredentialDataDecryptedObject,
	IDataObject,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../../../shared/constants';
import type { CheckedItem } from '../checkItems';
import type { OperationRun } from '../operationRun';
import {
	DEFAULT_HISTORY_ROWS,
	DEFAULT_IN_DOUBT_WAIT_SECONDS,
	DUPLICATE_MODES,
	DUPLICATE_OPTIONS,
	DUPLICATE_PROTECTION,
	HISTORY_SIZE,
	IN_DOUBT_WAIT,
	MODE_NAMES,
	type DuplicateMode,
} from './fields';
import { ClaimPace } from './claimPace';
import { lockFailureOf } from './lock';
import { keepNewest, LostWrite, rowIdentity, SentRecord, type RowState } from './record';

export * from './fields';

export const PROTECTION_LOG_MESSAGE = 'Candidate Verification: duplicate protection of';

/** Rows claimed ahead of the requests in flight: sending goes on while the next claim is made. */
const CLAIM_RESERVE_SHARE = 8;
const MAX_CLAIM_RESERVE = 25;
const FIRST_POLL_MS = 50;
const LONGEST_POLL_MS = 2000;
/** Rows whose answer this process saw lost: not waited for (nothing is in flight for them). */
const lostInProcess = new Map<string, true>();

/** The run (OperationRun) the protection is part of: it sends the rows, the protection gates them. */
export type ProtectedRun = OperationRun;

interface Claimed {
	states: Map<string, RowState>;
	doubts: Promise<unknown>;
}

/** "item 3", "items 3, 5". */
function itemList(indexes: number[]): string {
	return `${indexes.length === 1 ? 'item' : 'items'} ${indexes.join(', ')}`;
}

/**
 * Duplicate protection, one engine part: the store protocol (SentRecord under WorkflowLock) and the
 * policy that turns a row's state into an output and a message. Rows are claimed as the requests in
 * flight free their slots (at most Max Concurrent Requests plus a small reserve claimed and not
 * answered at any time), a row another execution has sent without an answer yet is waited for, and
 * a row that stands twice in one input is named (an error), never merged silently.
 */
export class DuplicateProtection {
	/** Items not sent because of the record: sent before, in doubt, or the claim failed. */
	readonly skipped = new Set<number>();

	private readonly record: SentRecord;

	private readonly pace: ClaimPace;

	private readonly identityBase: unknown[];

	/** Version 1 nodes may hold 0.3.x rows, whose identity had the host instead of the credential. */
	private readonly formerBase?: unknown[];

	private readonly waitMs: number;

	/** Rows claimed and not answered at most: Max Concurrent Requests plus a small reserve. */
	private readonly claimLimit: number;

	private readonly identities = new Map<number, string>();

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
	private unrecorded: Array<{ itemIndex: number; id?: string }> = [];

	private constructor(
		private readonly run: ProtectedRun,
		store: DeduplicationHelperFunctions,
		readonly mode: DuplicateMode,
		credentials: ICredentialDataDecryptedObject,
		baseUrl: string,
	) {
		const { context, operation } = run;
		const options = context.getNodeParameter(DUPLICATE_OPTIONS, 0, {}) as IDataObject;
		const historyRows = Number(options[HISTORY_SIZE] ?? DEFAULT_HISTORY_ROWS);
		const waitSeconds = Number(options[IN_DOUBT_WAIT] ?? DEFAULT_IN_DOUBT_WAIT_SECONDS);
		if (!Number.isInteger(historyRows) || historyRows < 1) {
			throw new NodeOperationError(
				context.getNode(),
				`Duplicate Protection Options → History Size "${String(options[HISTORY_SIZE])}" is not a whole number of rows (1 or more)`,
			);
		}
		if (!Number.isFinite(waitSeconds) || waitSeconds < 0) {
			throw new NodeOperationError(
				context.getNode(),
				`Duplicate Protection Options → Wait for an Answer Elsewhere "${String(options[IN_DOUBT_WAIT])}" is not a number of seconds (0 or more)`,
			);
		}
		this.waitMs = waitSeconds * 1000;
		const { concurrency } = run.settings;
		const reserve = Math.min(MAX_CLAIM_RESERVE, Math.ceil(concurrency / CLAIM_RESERVE_SHARE));
		this.claimLimit = concurrency + reserve;
		const version1 = context.getNode().typeVersion < 2;
		this.record = new SentRecord(context, store, historyRows, this.claimLimit, version1);
		this.pace = new ClaimPace({ claimLimit: this.claimLimit, concurrency, reserve });
		// A row's identity: the account that sent it (environment and n8n credential), not host or key.
		const { id } = context.getNode().credentials?.[CREDENTIAL_TYPE] ?? {};
		this.identityBase = [credentials.environment, id ?? null, operation.method, operation.path];
		if (this.record.mayHoldFormerRows) {
			this.formerBase = [credentials.environment, baseUrl, operation.method, operation.path];
		}
	}

	/** The run's protection, or undefined when the node's Duplicate Protection is Off. */
	static open(
		run: ProtectedRun,
		credentials: ICredentialDataDecryptedObject,
		baseUrl: string,
	): DuplicateProtection | undefined {
		const { context } = run;
		const mode = context.getNodeParameter(
			DUPLICATE_PROTECTION,
			0,
			DUPLICATE_MODES.skipSent,
		) as DuplicateMode;
		if (!Object.values(DUPLICATE_MODES).includes(mode)) {
			throw new NodeOperationError(
				context.getNode(),
				`Duplicate Protection "${String(mode)}" is not one of ${Object.values(MODE_NAMES).join(', ')}`,
			);
		}
		const items = String(context.getNode().parameters[DUPLICATE_PROTECTION]).startsWith('=')
			? context.getInputData().map((_item, itemIndex) => itemIndex)
			: [];
		const differing = items.filter(
			(itemIndex) => context.getNodeParameter(DUPLICATE_PROTECTION, itemIndex, mode) !== mode,
		);
		if (differing.length > 0) {
			throw new NodeOperationError(
				context.getNode(),
				`Duplicate Protection differs between items: item 0 has ${MODE_NAMES[mode]}, ${itemList(differing)} another mode`,
				{
					itemIndex: differing[0],
					description:
						'Nothing was sent or recorded: a run of this node treats every row one way. Give every item the same Duplicate Protection, e.g. split the input (If node) into two Candidate Verification nodes.',
				},
			);
		}
		if (mode === DUPLICATE_MODES.off) return undefined;
		const store = context.helpers as DeduplicationHelperFunctions;
		if (typeof store.checkProcessedAndRecord !== 'function' || !context.getWorkflow().id) {
			throw new NodeOperationError(
				context.getNode(),
				'Duplicate protection needs n8n’s deduplication store, which this run does not have',
				{
					description:
						'n8n offers it to saved workflows from n8n 1.60 on (as the Remove Duplicates node uses it). Nothing was sent. Save the workflow, or set Duplicate Protection to Off to send without it (then nothing stops a later run from sending the same rows again).',
				},
			);
		}
		return new DuplicateProtection(run, store, mode, credentials, baseUrl);
	}

	/** Forget All, Release Stuck Lock: the node's items pass through. */
	async runModeWithoutRows(items: INodeExecutionData[]) {
		if (this.mode === DUPLICATE_MODES.forgetAll) {
			await this.storeCall(async () => await this.record.forgetAll(), 'clear');
		} else if (this.mode === DUPLICATE_MODES.releaseLock) {
			const { lock } = this.record;
			const released = await this.storeCall(async () => await lock.releaseStuck(), 'clear');
			this.run.context.logger.info(
				`Candidate Verification: duplicate protection's lock ${released ? 'released' : 'was not held'}`,
			);
		} else return undefined;
		return [items.map((item, itemIndex) => ({ ...item, pairedItem: { item: itemIndex } }))];
	}

	private identityOf({ prepared, duplicateKey }: CheckedItem): string {
		const { body, qs, pathParameters } = prepared!;
		const request = { body, qs, pathParameters };
		const row = this.run.operation.identity?.(prepared!) ?? request;
		const identity = rowIdentity(this.identityBase, row, duplicateKey);
		if (this.formerBase) {
			this.record.former.set(identity, rowIdentity(this.formerBase, request, duplicateKey));
		}
		return identity;
	}

	private error(message: string, description: string, itemIndex?: number): NodeOperationError {
		return new NodeOperationError(this.run.context.getNode(), message, { itemIndex, description });
	}

	/**
	 * Record Rows as Sent, nothing sent: a row in doubt or never sent is recorded as accepted with
	 * its ID found; a row accepted before keeps its record and ID. One ID on two rows: nothing.
	 */
	async recordAsSent(valid: number[]): Promise<void> {
		const rowsOfId = new Map<string, Set<string>>();
		const rows = valid.map((itemIndex) => {
			const identity = this.identityOf(this.run.checked[itemIndex]);
			const id = this.run.checked[itemIndex].idFound!;
			this.identities.set(itemIndex, identity);
			rowsOfId.set(id, (rowsOfId.get(id) ?? new Set()).add(identity));
			return { identity, id };
		});
		const field = this.run.operation.acceptedIdField!;
		const shared = valid.filter((_item, position) => rowsOfId.get(rows[position].id)!.size > 1);
		if (shared.length > 0) {
			throw this.error(
				`${MODE_NAMES.recordAsSent}: items ${shared.join(', ')} give one ${field} to different rows`,
				`Nothing was recorded or sent. One ${field} belongs to one candidate: run only the rows to resolve (the rows named in doubt, or created outside n8n), each with the ${field} the service gave it.`,
				shared[0],
			);
		}
		const states = await this.storeCall(async () => await this.record.recordAsSent(rows), 'record');
		valid.forEach((itemIndex, position) => {
			const { identity, id } = rows[position];
			const json = { [field]: id, recordedAsSent: true };
			this.run.outputs[itemIndex] =
				states.get(identity) === 'accepted'
					? this.alreadySentOutput(itemIndex, { recordedAsSent: false })
					: [{ json, pairedItem: { item: itemIndex } }];
		});
	}

	private async storeCall<T>(work: () => Promise<T>, what: 'clear' | 'record'): Promise<T> {
		try {
			return await work();
		} catch (caught) {
			if (lockFailureOf(caught)) throw caught as NodeOperationError;
			throw this.error(
				`Duplicate protection could not ${what === 'clear' ? 'change' : 'write'} n8n’s record of rows sent before`,
				`${(caught as Error)?.message ?? String(caught)}\nNothing was sent to the Candidate Verification Service. Run again once n8n’s database answers.`,
			);
		}
	}

	/**
	 * Plans the run: each row's first item is sent. An item with the same identity as an earlier
	 * one is an error (Stop: nothing is sent; Continue: on the error output).
	 */
	firstOfEachRow(indexes: number[]): number[] {
		const firstItemOf = new Map<string, number>();
		for (const itemIndex of indexes) {
			const identity = this.identityOf(this.run.checked[itemIndex]);
			const first = firstItemOf.get(identity);
			if (first === undefined) {
				this.identities.set(itemIndex, identity);
				firstItemOf.set(identity, itemIndex);
				this.unclaimed.push(itemIndex);
				continue;
			}
			const key = this.run.checked[itemIndex].duplicateKey;
			const what = key === undefined ? 'every field' : 'the Duplicate Key';
			const todo =
				key === undefined ? 'map an ID column as the Duplicate Key' : 'give each row its own key';
			const error = this.error(
				`Item ${itemIndex} has ${what} of item ${first}, so it is the same row: ${todo}`,
				`Item ${itemIndex} was not sent. If they are two rows, ${todo} (e.g. an employee ID); if one, remove the repeat.`,
				itemIndex,
			);
			if (!this.run.continueOnFail) throw error;
			this.run.outputs[itemIndex] = this.run.errorOutput(error, itemIndex);
		}
		return [...this.unclaimed];
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
					.filter((index) => !this.run.continueOnFail && stateOf(index) === 'inDoubt')
					.map(async (itemIndex) => {
						if (await this.resolveDoubt(this.identities.get(itemIndex)!)) return;
						this.run.stopWith(itemIndex, this.inDoubtError(itemIndex));
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
		if (this.run.settings.batchSize || this.claimInFlight || this.storeFailure) return;
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

	/** Asked before an item's request leaves: whether it is sent (else its output is set here). */
	async mayBeSent(itemIndex: number): Promise<boolean> {
		const { batchSize } = this.run.settings;
		while (!this.claimOf.has(itemIndex)) {
			if (this.storeFailure || this.run.stopped) break;
			if (this.claimInFlight) await this.claimInFlight;
			else if (batchSize || this.outstanding === 0 || this.worthAClaim()) {
				this.startClaim(batchSize || this.claimLimit - this.outstanding);
			} else {
				// Requests are in flight: their answers free the slots for a claim worth its cost.
				await new Promise<void>((wake) => this.waiters.push(wake));
			}
		}
		if (this.run.stopped && !this.claimOf.has(itemIndex)) return false;
		const claimed = await this.claimOf.get(itemIndex)?.catch(() => undefined);
		if (!claimed) {
			this.skipped.add(itemIndex);
			this.notClaimed.add(itemIndex);
			return false;
		}
		const identity = this.identities.get(itemIndex)!;
		const state = claimed.states.get(identity);
		if (state === 'new') {
			// With On Error → Stop a row in doubt before it stops the run: the new rows claimed with it
			// wait for its outcome.
			if (this.run.continueOnFail) return true;
			await claimed.doubts;
			return !this.run.stopped;
		}
		this.skipped.add(itemIndex);
		const answered = state === 'accepted' || (await this.resolveDoubt(identity));
		if (answered) {
			this.run.outputs[itemIndex] = this.alreadySentOutput(itemIndex);
			return false;
		}
		const error = this.inDoubtError(itemIndex);
		this.run.outputs[itemIndex] = this.run.errorOutput(error, itemIndex, {
			inDoubt: true,
			description: error.description,
		});
		if (!this.run.continueOnFail) this.run.stopWith(itemIndex, error);
		return false;
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
			const waits = this.waitMs > 0 && !lostInProcess.has(this.processKey(identity));
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

	answered(itemIndex: number, output: INodeExecutionData[] | undefined): void {
		this.outstanding -= 1;
		this.pace.answered();
		const identity = this.identities.get(itemIndex)!;
		if (this.run.answerLost(itemIndex)) keepNewest(lostInProcess, this.processKey(identity), true);
		else if (!this.run.refused(itemIndex) && output?.[0]?.json.error === undefined) {
			this.acceptedSinceClaim.push({ identity, id: this.run.acceptedIdOf(output), itemIndex });
		}
		this.claimAhead();
		this.notifyChange();
	}

	private processKey(identity: string): string {
		return `${String(this.run.context.getWorkflow().id)}:${identity}`;
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
			if (!this.run.started.has(itemIndex) || this.run.refused(itemIndex)) released.push(identity);
		}
		const accepted = this.acceptedSinceClaim.splice(0);
		try {
			await this.record.settle(accepted, released);
		} catch (caught) {
			this.storeFailure ??= caught as Error;
			this.unrecorded = accepted;
			this.run.context.logger.warn(
				`Candidate Verification: duplicate protection could not record the outcome of ${accepted.length + released.length} rows: ${(caught as Error)?.message}`,
			);
		}
		// Read by `npm run bench` (N8N_LOG_LEVEL=debug): the protection's share of a run.
		this.run.context.logger.debug(
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
		if (lockFailureOf(cause) && this.run.started.size === 0 && this.unrecorded.length === 0) {
			return cause as NodeOperationError;
		}
		const lines = [`${(cause as Error)?.message ?? String(cause)}`];
		if (this.run.started.size === 0) {
			lines.push(
				'Nothing was sent to the Candidate Verification Service. Run again once n8n’s database answers.',
			);
		} else if (this.unrecorded.length > 0) {
			const list = this.unrecorded
				.sort((a, b) => a.itemIndex - b.itemIndex)
				.map(({ itemIndex, id }) => `item ${itemIndex}: ${id ?? 'accepted (no ID in the answer)'}`)
				.join(', ');
			lines.push(
				`Accepted by the service but not recorded as accepted (a later run holds them in doubt): ${list}. Run only these rows with Duplicate Protection → ${MODE_NAMES.recordAsSent}, each with its ID, or leave them out of the input.`,
			);
		} else {
			lines.push('The rows the service accepted in this run are recorded: a later run skips them.');
		}
		if (notSent.length > 0 && this.run.started.size > 0) {
			lines.push(
				`Not sent: ${itemList(notSent)}. Run again once n8n’s database answers: a later run sends ${notSent.length === 1 ? 'it' : 'them'}${this.unrecorded.length > 0 ? ' (with On Error → Stop, only once the rows above are recorded: it stops at the first row in doubt)' : ''}.`,
			);
		}
		return this.error(
			'Duplicate protection could not use n8n’s record of rows sent before: the run stopped',
			lines.join('\n'),
		);
	}

	/** The tripwire: this run's claim was overwritten by another execution's write. */
	private lostWriteError(lost: LostWrite, notSent: number[]): NodeOperationError {
		const items = [...this.identities]
			.filter(([, identity]) => lost.identities.includes(identity))
			.map(([itemIndex]) => itemIndex);
		const lines = [
			`${items.length > 0 ? `Recorded as sent in that write: ${itemList(items)}. They are in doubt, and may have been sent twice (by this execution and by the other one, if it sent them too). ${this.whereToCheck(items)}; if the service has one twice, cancel the extra one in its dashboard. Then run only these rows with Duplicate Protection → ${MODE_NAMES.recordAsSent} (each with the ID the service gave it) or, if the service has none, ${this.whenSafeToSendAgain}, with ${MODE_NAMES.sendAgain}.` : 'No row was recorded as sent in that write.'}`,
			'n8n’s deduplication store did not keep duplicate protection’s lock (it rests on store behaviour n8n does not promise: see docs/store-contract.md); report it with your n8n version, and run one execution of this workflow at a time until then.',
		];
		if (notSent.length > 0) lines.push(`Not sent: ${itemList(notSent)}.`);
		return this.error(
			'Duplicate protection found one of its writes to n8n’s record lost: another execution wrote the record at the same time, so the run stopped',
			lines.join('\n'),
		);
	}

	private alreadySentOutput(itemIndex: number, extra: IDataObject = {}): INodeExecutionData[] {
		const { operation, checked } = this.run;
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
		if (earlier?.id === undefined) {
			delete json[field];
			json.idKnown = false;
			json.note = `Sent by an earlier execution and accepted by the service; not sent again. Its ${field} is not known here: n8n keeps it only in the process that sent the row and, for the newest rows, in the workflow's static data once a production execution ends. Do not write an empty ${field} back.`;
		}
		return [{ json, pairedItem: { item: itemIndex } }];
	}

	/** Where the user can see whether the service has the row. */
	private whereToCheck(itemIndexes: number[]): string {
		const transactionIds = itemIndexes
			.map((index) => this.run.checked[index].prepared!.body?.transactionId)
			.filter((id) => typeof id === 'string' && id !== '');
		return transactionIds.length === itemIndexes.length
			? `Transaction → Get Status for ${transactionIds.join(', ')} shows whether the check was submitted`
			: 'The service’s dashboard lists what it holds (the API cannot list or search them)';
	}

	/** A row in doubt (sent by an earlier execution that got no answer). */
	private inDoubtError(itemIndex: number): NodeOperationError {
		const waited = this.waitedFor.has(this.identities.get(itemIndex)!)
			? `; no answer came in the ${this.waitMs / 1000} s waited for it`
			: '';
		const lines = [
			`${this.run.operation.label}: the earlier request left n8n without an answer recorded${waited} (a timeout, a reset, a stopped or crashed execution, or an execution still waiting for its answer). ${this.whereToCheck([itemIndex])}.`,
			`If the service has it: run only this row (item ${itemIndex}) with Duplicate Protection → ${MODE_NAMES.recordAsSent}, with the ID the service gave it; later runs then skip it and output that ID. If not: ${this.whenSafeToSendAgain}, run only this row (item ${itemIndex}) with Duplicate Protection → ${MODE_NAMES.sendAgain}.`,
		];
		if (!this.run.continueOnFail) {
			lines.push(
				'Set Settings → On Error to Continue to send the other rows and get the rows in doubt on the error output.',
			);
		}
		return this.error(
			`Item ${itemIndex} was sent by an earlier execution that got no answer: the service may have created it`,
			lines.join('\n'),
			itemIndex,
		);
	}

	/** The advice on an item whose answer this run lost: the protection holds it in doubt. */
	lostAnswerAdvice(itemIndex: number): string {
		return `No clear answer came (a timeout, a reset, a cancel, a 5xx or an answer that is not the service’s), so the service may have created it. ${this.whereToCheck([itemIndex])}. Duplicate protection holds this row as in doubt: later runs of this node with ${MODE_NAMES.skipSent} do not send it. If the service has it, run only this row with Duplicate Protection → ${MODE_NAMES.recordAsSent} and the ID the service gave it; if not, ${this.whenSafeToSendAgain}, run only this row with ${MODE_NAMES.sendAgain}.`;
	}

	/** When no execution can still be sending a row in doubt (its tries and their timeouts, and a minute). */
	private get whenSafeToSendAgain(): string {
		const { timeout, retries } = this.run.settings;
		const seconds = Math.ceil((timeout * (retries + 1)) / 1000) + 60;
		return `once no execution that sent it is still running (Executions list) and at least ${seconds} s (Timeout × (Retries + 1) + 60 s) have passed since it ended`;
	}
}
