import type {
	DeduplicationHelperFunctions,
	ICheckProcessedOptions,
	IExecuteFunctions,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

/**
 * The lock is the workflow-scope row of n8n's deduplication store holding this one value. n8n
 * creates a scope's first row with an INSERT that the table's primary key guards, so of two
 * processes taking a free lock at once exactly one succeeds; the other gets the driver's
 * unique-violation error. Releasing is n8n's one DELETE of the row. Nothing else n8n offers a node
 * is atomic across processes.
 */
const LOCK_VALUE = 'n8n-nodes-candidate-verification:record-lock';
const LOCK_SCOPE = 'workflow';
const LOCK_OPTIONS: ICheckProcessedOptions = { mode: 'entries' };
/** How long an execution waits for the lock before it gives up (a holder keeps it milliseconds). */
export const LOCK_WAIT_MS = 30_000;
/** The wait in force (the unit tests shorten it to prove the timeout). */
export const lockTiming = { waitMs: LOCK_WAIT_MS };
const FIRST_PAUSE_MS = 5;
const LONGEST_PAUSE_MS = 50;

export const RELEASE_LOCK_MODE_NAME = 'Release Stuck Lock';

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

/** n8n refuses an `entries` call on a row another node saved in a "latest" mode. */
function isOtherModeRow(caught: unknown): boolean {
	return /incompatible setting/i.test(String((caught as Error)?.message ?? ''));
}

export type LockFailure = 'timeout' | 'conflict';

/** The lock errors this module made (a waiter's timeout, another node's history in the way). */
const lockErrors = new WeakMap<object, LockFailure>();

export function lockFailureOf(error: unknown): LockFailure | undefined {
	return typeof error === 'object' && error !== null ? lockErrors.get(error) : undefined;
}

export function lockError(context: IExecuteFunctions, failure: LockFailure): NodeOperationError {
	const error = new NodeOperationError(
		context.getNode(),
		failure === 'timeout'
			? `Duplicate protection could not take its lock on this workflow's record within ${lockTiming.waitMs / 1000} s`
			: 'Duplicate protection cannot use this workflow’s shared record: another node keeps its history there',
		{
			description:
				failure === 'timeout'
					? `Another execution of this workflow holds it (each holds it for milliseconds, around one read and write of the record), or an n8n process stopped while holding it. If no other execution of this workflow is running, run this node once with Duplicate Protection → ${RELEASE_LOCK_MODE_NAME}, then run again.`
					: 'A node of this workflow (such as Remove Duplicates with Scope → Workflow) keeps its history in the workflow-wide record, where duplicate protection takes its lock; neither is changed. Set that node’s scope to Node, or set this node’s Duplicate Protection to Off.',
		},
	);
	lockErrors.set(error, failure);
	return error;
}

/** A store failure as an error n8n shows (the database's message kept). */
export function storeFailure(context: IExecuteFunctions, caught: unknown): NodeOperationError {
	if (caught instanceof NodeOperationError) return caught;
	return new NodeOperationError(context.getNode(), caught as Error);
}

/** One read-modify-write of a workflow's record at a time in this process (fewer waits on the lock). */
const inProcess = new Map<string, Promise<unknown>>();

async function oneAtATimeInProcess<T>(key: string, work: () => Promise<T>): Promise<T> {
	const previous = inProcess.get(key) ?? Promise.resolve();
	const result = previous.then(work, work);
	const settled = result.then(
		() => undefined,
		() => undefined,
	);
	inProcess.set(key, settled);
	void settled.then(() => {
		if (inProcess.get(key) === settled) inProcess.delete(key);
	});
	return await result;
}

/**
 * A lock around every read-modify-write of the node's record, held for that call only (never
 * around a request to the service). A waiter never deletes a lock: it waits up to LOCK_WAIT_MS,
 * then fails and names the explicit way to release a lock left by a stopped process.
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
		let handBack!: (value: T) => void;
		let fail!: (caught: unknown) => void;
		const result = new Promise<T>((resolve, reject) => {
			handBack = resolve;
			fail = reject;
		});
		void oneAtATimeInProcess(this.workflowKey, async () => {
			this.throwIfReleaseFailed();
			await this.acquire();
			let value!: T;
			let workFailed = true;
			try {
				value = await work();
				workFailed = false;
			} finally {
				// A release that fails after the work failed must not hide the work's error.
				if (workFailed) await this.release().catch(() => undefined);
			}
			if (!releaseInBackground) {
				await this.release();
				handBack(value);
				return;
			}
			handBack(value);
			await this.release().catch((caught: unknown) => {
				this.releaseFailure ??= caught;
			});
		}).catch(fail);
		return await result;
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

	/** Takes the lock: true once this process inserted the row. */
	private async tryTake(): Promise<boolean> {
		this.calls += 1;
		try {
			const taken = await this.store.checkProcessedAndRecord(
				[LOCK_VALUE],
				LOCK_SCOPE,
				LOCK_OPTIONS,
			);
			return taken.new.length === 1;
		} catch (caught) {
			if (isUniqueViolation(caught)) return false;
			throw isOtherModeRow(caught)
				? lockError(this.context, 'conflict')
				: storeFailure(this.context, caught);
		}
	}

	/**
	 * Takes the lock, checking that the row holds nothing but it. The check and the take go out
	 * together (one round trip's wait instead of two): a count of 0 was read before this process's
	 * INSERT, so the row was free; a count of 1 may be this process's own lock, the previous
	 * holder's, or another node's one value, so it is counted again after the take.
	 */
	private async acquire(): Promise<void> {
		const deadline = Date.now() + lockTiming.waitMs;
		let pause = FIRST_PAUSE_MS;
		for (;;) {
			const [counted, took] = await Promise.allSettled([this.count(), this.tryTake()]);
			if (took.status === 'rejected') throw took.reason;
			const taken = took.value;
			if (counted.status === 'rejected') {
				if (taken) await this.release().catch(() => undefined);
				throw storeFailure(this.context, counted.reason);
			}
			const before = counted.value;
			if (taken) {
				if (before === 0) return;
				if (before === 1 && (await this.count()) === 1) return;
				// This call added the lock to a row that holds another node's values: only it goes.
				this.calls += 1;
				await this.store.removeProcessed([LOCK_VALUE], LOCK_SCOPE, LOCK_OPTIONS);
				throw lockError(this.context, 'conflict');
			}
			if (before > 1) throw lockError(this.context, 'conflict');
			if (Date.now() >= deadline) throw lockError(this.context, 'timeout');
			await sleep(pause + Math.floor(Math.random() * pause));
			pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
		}
	}

	private async release(): Promise<void> {
		const held = await this.count();
		this.calls += 1;
		if (held <= 1) {
			await this.store.clearAllProcessedItems(LOCK_SCOPE, LOCK_OPTIONS);
			return;
		}
		// Another node added to the row while it was held: only the lock's own value goes.
		await this.store.removeProcessed([LOCK_VALUE], LOCK_SCOPE, LOCK_OPTIONS);
		this.context.logger.warn(
			'Candidate Verification: another node wrote to the workflow-wide deduplication record while duplicate protection held its lock there; only the lock was removed',
		);
	}

	/**
	 * Duplicate Protection → Release Stuck Lock: deletes the lock row when it holds the lock alone,
	 * never another node's history. Returns whether there was a lock to release.
	 */
	async releaseStuck(): Promise<boolean> {
		const held = await this.count();
		if (held === 0) return false;
		if (held > 1) throw lockError(this.context, 'conflict');
		const check = await this.store.checkProcessedAndRecord([LOCK_VALUE], LOCK_SCOPE, LOCK_OPTIONS);
		if (check.new.length > 0) {
			await this.store.removeProcessed([LOCK_VALUE], LOCK_SCOPE, LOCK_OPTIONS);
			throw lockError(this.context, 'conflict');
		}
		await this.store.clearAllProcessedItems(LOCK_SCOPE, LOCK_OPTIONS);
		return true;
	}
}
