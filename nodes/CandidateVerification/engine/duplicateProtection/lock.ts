import type {
	DeduplicationHelperFunctions,
	ICheckProcessedOptions,
	IExecuteFunctions,
} from 'n8n-workflow';
import { randomUUID } from 'node:crypto';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { lockFailed, storeCallFailed, type LockFailure } from './messages';

/**
 * The lock: the workflow-scope row of n8n's deduplication store holding this value. n8n creates a
 * scope's first row with an INSERT the primary key guards (of two processes taking a free lock at
 * once, one gets a unique violation); releasing is its one DELETE of the row. Nothing else n8n
 * offers a node is atomic across processes.
 */
const LOCK_VALUE = 'n8n-nodes-candidate-verification:record-lock';
/** Each take adds a mark of its own: seen again, the row was not re-created since (same hold). */
const MARK = 'n8n-nodes-candidate-verification:mark:';
const LOCK_SCOPE = 'workflow';
const LOCK_OPTIONS: ICheckProcessedOptions = { mode: 'entries' };
/**
 * The lock's timings (the unit tests shorten them). A hold lasts milliseconds to about 2 s: one
 * hold lasting `stuckMs` is named stuck; a lock that keeps changing hands is waited for up to
 * `busyMs`. A failed release is tried again after each of `releasePausesMs`.
 */
export const lockTiming = {
	stuckMs: 30_000,
	busyMs: 300_000,
	releasePausesMs: [500, 1500, 3000, 5000],
};
const FIRST_PAUSE_MS = 5;
const COUNTING = "counting the values in duplicate protection's lock row";
const LONGEST_PAUSE_MS = 50;

/** Postgres, SQLite and MySQL/MariaDB's answers to a second INSERT of the same key. */
const UNIQUE_VIOLATION_CODES = ['23505', 'SQLITE_CONSTRAINT_UNIQUE', 'ER_DUP_ENTRY'];

export function isUniqueViolation(caught: unknown): boolean {
	const error = caught as { code?: unknown; driverError?: { code?: unknown }; message?: unknown };
	const codes = [error?.code, error?.driverError?.code].map(String);
	if (codes.some((code) => UNIQUE_VIOLATION_CODES.includes(code))) return true;
	return /UNIQUE constraint failed|duplicate key value|Duplicate entry/i.test(
		String(error?.message ?? ''),
	);
}

/** The lock errors this module made (a waiter's timeout, another node's history in the way). */
const lockErrors = new WeakMap<object, LockFailure>();

export function lockFailureOf(error: unknown): LockFailure | undefined {
	return typeof error === 'object' && error !== null ? lockErrors.get(error) : undefined;
}

export function lockError(context: IExecuteFunctions, failure: LockFailure): NodeOperationError {
	const { message, description } = lockFailed(failure, lockTiming);
	const error = new NodeOperationError(context.getNode(), message, { description });
	lockErrors.set(error, failure);
	return error;
}

/** A store failure as an error n8n shows (the database's message kept). */
export function storeFailure(context: IExecuteFunctions, caught: unknown): NodeOperationError {
	if (caught instanceof NodeOperationError) return caught;
	return new NodeOperationError(context.getNode(), caught as Error);
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
		const { message, description } = storeCallFailed(
			what,
			(caught as Error)?.message ?? String(caught),
		);
		throw new NodeOperationError(context.getNode(), message, { itemIndex: undefined, description });
	}
}

/** One read-modify-write of a workflow's record at a time in this process (fewer waits on the lock). */
const inProcess = new Map<string, Promise<unknown>>();

async function oneAtATimeInProcess<T>(key: string, work: () => Promise<T>): Promise<T> {
	const previous = inProcess.get(key) ?? Promise.resolve();
	const result = previous.then(work, work);
	const settled = result.catch(() => undefined);
	inProcess.set(key, settled);
	void settled.then(() => {
		if (inProcess.get(key) === settled) inProcess.delete(key);
	});
	return await result;
}

/**
 * A lock around every read-modify-write of the node's record, held for that call only (never
 * around a request to the service). A waiter never deletes a lock: a lock that never changes hands
 * for `stuckMs` is reported stuck, and a person releases it (Release Stuck Lock).
 */
export class WorkflowLock {
	/** Store calls the lock made in this run (read by `npm run bench`). */
	calls = 0;

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly store: DeduplicationHelperFunctions,
		private readonly workflowKey: string,
	) {}

	/**
	 * `releaseInBackground`: the work's result is handed back before the lock is released (a claim's
	 * rows are recorded by then, and sending them need not wait for two more round trips). The next
	 * use of the lock in this process waits for that release and fails if it failed.
	 */
	async around<T>(work: () => Promise<T>, releaseInBackground = false): Promise<T> {
		return await new Promise<T>((handBack, fail) => {
			void oneAtATimeInProcess(this.workflowKey, async () => {
				this.throwIfReleaseFailed();
				await this.acquire();
				const done = await work().then(
					(value) => ({ value }),
					(caught: unknown) => void fail(caught),
				);
				if (done && releaseInBackground) handBack(done.value);
				// The work's error is the run's: a release that fails then (or in the background) even on
				// its last try is kept for the next use of the lock.
				await this.release().catch((caught: unknown) => {
					if (done && !releaseInBackground) throw caught;
					this.releaseFailure ??= caught;
				});
				if (done) handBack(done.value);
			}).catch(fail);
		});
	}

	/** A release made in the background failed: the lock may still be held. */
	private releaseFailure?: unknown;

	private throwIfReleaseFailed(): void {
		if (this.releaseFailure !== undefined) throw storeFailure(this.context, this.releaseFailure);
	}

	/** Waits for a release made in the background; throws if it failed. */
	async released(): Promise<void> {
		await oneAtATimeInProcess(this.workflowKey, async () => this.throwIfReleaseFailed());
	}

	private async count(): Promise<number> {
		this.calls += 1;
		return await this.store.getProcessedDataCount(LOCK_SCOPE, LOCK_OPTIONS);
	}

	/** One try: records the lock and this wait's mark; says which of them were new. */
	private async tryTake(mark: string): Promise<{ taken: boolean; marked: boolean }> {
		this.calls += 1;
		try {
			const call = this.store.checkProcessedAndRecord([LOCK_VALUE, mark], LOCK_SCOPE, LOCK_OPTIONS);
			const added = new Set((await call).new.map(String));
			return { taken: added.has(LOCK_VALUE), marked: added.has(mark) };
		} catch (caught) {
			if (isUniqueViolation(caught)) return { taken: false, marked: true };
			// n8n refuses an `entries` call on a row another node saved in a "latest" mode.
			throw /incompatible setting/i.test(String((caught as Error)?.message ?? ''))
				? lockError(this.context, 'conflict')
				: storeFailure(this.context, caught);
		}
	}

	/**
	 * Takes the lock. Each try counts the row's values, then records the lock value (new: this process
	 * created the row) and this wait's mark (new: the row was released and taken again since the last
	 * try, the lock changed hands). Waiting ends when one hold lasts `stuckMs` (stuck) or after
	 * `busyMs` (busy). A row holding values before the try that created the lock, and 2 more after
	 * it, is another node's history. A count that fails is tried again, never a reason to give a
	 * taken lock back: that removes two values, and n8n writes a row whole, so a waiter's write that
	 * read the row before could put the lock's value back with nobody holding it.
	 */
	private async acquire(): Promise<void> {
		const mark = MARK + randomUUID();
		const started = Date.now();
		let lastChange = started;
		let seen = false;
		let pause = FIRST_PAUSE_MS;
		for (;;) {
			const before = await this.triedAgain(COUNTING, async () => await this.count());
			const { taken, marked } = await this.tryTake(mark);
			if (taken) {
				if (before === 0) return;
				let after: number;
				try {
					after = await this.triedAgain(COUNTING, async () => await this.count());
				} catch (caught) {
					await this.giveBack(mark);
					throw storeFailure(this.context, caught);
				}
				if (after < before + 2) return;
				await this.giveBack(mark);
				throw lockError(this.context, 'conflict');
			}
			if (marked && seen) lastChange = Date.now();
			seen = true;
			if (Date.now() - lastChange >= lockTiming.stuckMs) throw lockError(this.context, 'stuck');
			if (Date.now() - started >= lockTiming.busyMs) throw lockError(this.context, 'busy');
			await sleep(pause + Math.floor(Math.random() * pause));
			pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
		}
	}

	/**
	 * Takes back a lock just taken that must not be held (another node's history in its row, or the
	 * count failed), keeping whatever else the row holds. A row left empty is deleted: n8n keeps an
	 * emptied row, and writes into an existing row without the check its creation has (a second
	 * INSERT fails), so two processes could then both take the lock.
	 */
	private async giveBack(mark: string): Promise<void> {
		this.calls += 1;
		await this.store.removeProcessed([LOCK_VALUE, mark], LOCK_SCOPE, LOCK_OPTIONS);
		if ((await this.count()) === 0) {
			this.calls += 1;
			await this.store.clearAllProcessedItems(LOCK_SCOPE, LOCK_OPTIONS);
		}
	}

	/** Deletes the lock row, tried again like a count. */
	private async release(): Promise<void> {
		await this.triedAgain("releasing duplicate protection's lock", async () => {
			this.calls += 1;
			await this.store.clearAllProcessedItems(LOCK_SCOPE, LOCK_OPTIONS);
		});
	}

	/** A store call tried again after each of `releasePausesMs` when the store fails. */
	private async triedAgain<T>(what: string, call: () => Promise<T>): Promise<T> {
		for (const pause of [...lockTiming.releasePausesMs, undefined]) {
			try {
				return await call();
			} catch (caught) {
				if (pause === undefined) throw storeFailure(this.context, caught);
				this.context.logger.warn(
					`Candidate Verification: ${what} failed, trying again in ${pause} ms: ${(caught as Error)?.message}`,
				);
				await sleep(pause);
			}
		}
		throw new Error('unreachable: the last try throws');
	}

	/**
	 * Duplicate Protection → Release Stuck Lock: deletes the lock row when it holds the lock (and
	 * waiters' marks), never another node's history. Returns whether there was a lock to release.
	 */
	async releaseStuck(): Promise<boolean> {
		if ((await this.count()) === 0) return false;
		const check = await this.store.checkProcessedAndRecord([LOCK_VALUE], LOCK_SCOPE, LOCK_OPTIONS);
		if (check.new.length > 0) {
			await this.store.removeProcessed([LOCK_VALUE], LOCK_SCOPE, LOCK_OPTIONS);
			throw lockError(this.context, 'conflict');
		}
		await this.store.clearAllProcessedItems(LOCK_SCOPE, LOCK_OPTIONS);
		return true;
	}
}
