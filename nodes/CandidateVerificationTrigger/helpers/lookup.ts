import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

import { ACTIONS } from '../../shared/actions';
import { checkItemsOf, verificationIdOf } from '../../shared/checkStatus';
import { CHECK_STATUS_PATH } from '../../shared/constants';
import { fillPath } from '../../shared/paths';
import { serviceRequest } from '../../shared/transport';
import { networkFailureKind } from '../../shared/transport/errors';
import { READ_RETRY_STATUSES } from '../../shared/transport/retry';
import { readTransaction } from './payload';

/**
 * The lookup's timings (the unit tests shorten them). The lookup of a check by its ID ends within
 * `deadlineMs`, its retries included: the service waits for the answer to its delivery, and nothing
 * public says how long it waits. `retryPausesMs`: the pauses before the second and third try of a
 * read the service may answer on a later try.
 */
export const lookupTiming = {
	deadlineMs: 10_000,
	retryPausesMs: [500, 1000],
};

/**
 * Why an event could not be placed:
 * - 'transient': a read failed in a way a later delivery of the event may not meet (isTransient);
 * - 'needsPerson': the notification has no transactionId or verificationId, the credential no
 *   Organisation ID, or the service refused a read with a 3xx or 4xx (or the transaction read under a
 *   2xx): a later delivery fails the same way;
 * - 'noMatch': every read was answered and no check of the transaction has that ID.
 */
export type UnplacedKind = 'transient' | 'needsPerson' | 'noMatch';

export interface CheckResolution {
	/** The check whose status has the notification's verificationId as its subType. */
	checkName?: string;
	/** Why no check was found, when none was. */
	unplaced?: { kind: UnplacedKind; reason: string };
	/** The transaction read on the way (reused by Add Transaction Details). */
	transaction?: IDataObject;
}

/** A read the lookup did not make: its time had run out. */
class TimeUsedUp extends Error {}

/** The HTTP status a read's failure carries, when the service answered at all. */
function statusOf(error: unknown): number | undefined {
	if (!(error instanceof NodeApiError)) return undefined;
	return /^\d{3}$/.test(String(error.httpCode)) ? Number(error.httpCode) : undefined;
}

/**
 * A failure a later delivery may not meet: no answer, the time ran out, a 5xx, a 408 or 429, or a
 * refusal under a 2xx (the service answers errors so; of a check read it may be passing). A 3xx or
 * 4xx, or an error that is no answer of the service (readTransaction: the notification or the
 * credential lacks something), needs a person.
 */
function isTransient(error: unknown): boolean {
	if (error instanceof TimeUsedUp) return true;
	if (!(error instanceof NodeApiError)) return false;
	const status = statusOf(error);
	if (status === undefined) return true;
	return status < 300 || status >= 500 || status === 408 || status === 429;
}

/**
 * The transaction read's failure: as isTransient, except a refusal under a 2xx, which the contract
 * gives for invalid data (e.g. another organisation's ID): every later delivery would meet it too, so
 * it needs a person rather than a 503 to every delivery.
 */
function isTransientTransactionFailure(error: unknown): boolean {
	const status = statusOf(error);
	return isTransient(error) && !(status !== undefined && status < 300);
}

/** Worth a second try within the lookup: no answer, or a status the action node's reads try again after. */
function worthAnotherTry(error: unknown): boolean {
	if (!(error instanceof NodeApiError)) return false;
	const status = Number(error.httpCode);
	return Number.isNaN(status) || READ_RETRY_STATUSES.includes(status);
}

class Deadline {
	private readonly end = Date.now() + lookupTiming.deadlineMs;

	get remainingMs(): number {
		return this.end - Date.now();
	}
}

const lookupSeconds = (): string => `${lookupTiming.deadlineMs / 1000} s`;

/** The reason a read failed, in the words of its error, or of the lookup's time limit. */
function failureText(operation: string, error: unknown): string {
	if (error instanceof TimeUsedUp) return `not read, the lookup's ${lookupSeconds()} had run out`;
	if (networkFailureKind(error) === 'timeout') {
		return `${operation} failed: the Candidate Verification Service did not answer within the lookup's ${lookupSeconds()}`;
	}
	return (error as Error).message;
}

/** What one read of the lookup came to: its answer, or why it has none. */
type ReadResult<T> = { answer: T } | { failure: unknown };

/**
 * One read of the lookup: tried again after a failure worth it while the lookup's time allows, each try
 * with the time left as its timeout. Its failure is the last try's, or TimeUsedUp when no time was left.
 */
async function readWithinDeadline<T>(
	deadline: Deadline,
	read: (timeout: number) => Promise<T>,
): Promise<ReadResult<T>> {
	for (let attempt = 0; ; attempt++) {
		const timeout = Math.floor(deadline.remainingMs);
		if (timeout <= 0) return { failure: new TimeUsedUp() };
		try {
			return { answer: await read(timeout) };
		} catch (failure) {
			const pause = lookupTiming.retryPausesMs[attempt];
			if (pause === undefined || !worthAnotherTry(failure) || deadline.remainingMs <= pause) {
				return { failure };
			}
			await sleep(pause);
		}
	}
}

/**
 * Finds the check a verificationId that is a check's ID belongs to: reads the transaction, then the
 * status of each check it lists, the chosen checks first (`ordered`), until one's subType is that ID.
 * At most one read per check of the transaction (besides tries again of a failed one); stops at the
 * first match; ends within lookupTiming.deadlineMs.
 */
export async function resolveCheckName(
	this: IWebhookFunctions,
	item: IDataObject,
	orderChecks: (names: string[]) => string[],
): Promise<CheckResolution> {
	const verificationId = typeof item.verificationId === 'string' ? item.verificationId.trim() : '';
	if (verificationId === '') {
		return { unplaced: { kind: 'needsPerson', reason: 'the notification has no verificationId' } };
	}
	const deadline = new Deadline();
	const read = await readWithinDeadline(deadline, (timeout) =>
		readTransaction.call(this, item, timeout),
	);
	if ('failure' in read) {
		const { failure } = read;
		const reason = `could not read the transaction: ${failureText(ACTIONS.transactionGetStatus, failure)}`;
		const kind = isTransientTransactionFailure(failure) ? 'transient' : 'needsPerson';
		return { unplaced: { kind, reason } };
	}
	const { query, transaction } = read.answer;
	const listed = Array.isArray(transaction.verificationList) ? transaction.verificationList : [];
	const names = [
		...new Set(
			listed
				.map((check) => (check as IDataObject)?.name)
				.filter((name): name is string => typeof name === 'string' && name !== ''),
		),
	];
	const ordered = orderChecks(names);
	const failures: Array<{ name: string; error: unknown }> = [];
	for (const name of ordered) {
		const read = await readWithinDeadline(deadline, (timeout) =>
			serviceRequest.call(this, ACTIONS.transactionGetCheckStatus, {
				method: 'GET',
				path: fillPath(CHECK_STATUS_PATH, { verificationName: name }),
				qs: query,
				timeout,
			}),
		);
		if ('failure' in read) {
			failures.push({ name, error: read.failure });
			continue;
		}
		const items = checkItemsOf(read.answer.data ?? {});
		if (items.some((check) => verificationIdOf(check) === verificationId)) {
			return { checkName: name, transaction };
		}
	}
	const reason = `no check of transaction ${query.txnId} has the verificationId ${verificationId} (${ordered.length} checks read)`;
	if (failures.length === 0) return { unplaced: { kind: 'noMatch', reason }, transaction };
	const failed = failures.map(
		({ name, error }) => `${name}: ${failureText(ACTIONS.transactionGetCheckStatus, error)}`,
	);
	// The unread check may be the one: only a refusal of every failed read by a person's cause is final.
	const kind = failures.some(({ error }) => isTransient(error)) ? 'transient' : 'needsPerson';
	return {
		unplaced: { kind, reason: `${reason}; reads that failed: ${failed.join('; ')}` },
		transaction,
	};
}
