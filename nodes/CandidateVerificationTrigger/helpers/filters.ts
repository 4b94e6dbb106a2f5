import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { fillPath } from '../../shared/paths';
import { ACTIONS } from '../../shared/actions';
import { checkItemsOf, verificationIdOf } from '../../shared/checkStatus';
import {
	CHECK_FILTER_ALSO_MATCHES,
	CHECK_STATUS_PATH,
	INSUFFICIENCY_RAISED,
	INSUFFICIENCY_RESOLVED,
	NOTIFICATION_CHECK_OPTIONS,
} from '../../shared/constants';
import { serviceRequest } from '../../shared/transport';
import { readTransaction } from './payload';

/**
 * The Events filter's values: a state change, or one of the insufficiency actions. n8n's node creator
 * lists a trigger's "Events" options as its actions (`action`), each adding the trigger with that event.
 */
export const STATE_CHANGE = 'stateChange';
export const EVENT_OPTIONS = [
	{
		name: 'Insufficiency Raised',
		value: INSUFFICIENCY_RAISED,
		action: 'On insufficiency raised',
		description: 'A check needs more data from the candidate (action insufficiency-raised)',
	},
	{
		name: 'Insufficiency Resolved',
		value: INSUFFICIENCY_RESOLVED,
		action: 'On insufficiency resolved',
		description: 'The data asked for was given (action insufficiency-resolved)',
	},
	{
		name: 'State Changes',
		value: STATE_CHANGE,
		action: 'On check state change',
		description: 'A check reached a new state (a notification with newState)',
	},
];

export interface NotificationFilters {
	events: string[];
	checks: string[];
	states: string[];
}

/** What a notification is: its insufficiency action, a state change (newState), or neither. */
export function eventOf(item: IDataObject): string | undefined {
	if (item.action === INSUFFICIENCY_RAISED || item.action === INSUFFICIENCY_RESOLVED) {
		return item.action;
	}
	return item.newState !== undefined && item.newState !== null ? STATE_CHANGE : undefined;
}

/**
 * Events and New States. Events empty: every notification, and New States (when set) applies to
 * every one, as before Events existed (one without newState does not pass). Events set: the
 * notification must be one of them, and New States applies to state changes only.
 */
export function passesEventsAndStates(item: IDataObject, filters: NotificationFilters): boolean {
	const event = eventOf(item);
	if (filters.events.length > 0 && (event === undefined || !filters.events.includes(event))) {
		return false;
	}
	const statesApply = filters.events.length === 0 || event === STATE_CHANGE;
	if (!statesApply || filters.states.length === 0) return true;
	return filters.states.includes(String(item.newState ?? ''));
}

const KNOWN_CHECK_NAMES = new Set(NOTIFICATION_CHECK_OPTIONS.map(({ value }) => value));

/** True when a check of this name is one the Checks filter chose (or another name of one). */
export function matchesChecks(name: string, checks: string[]): boolean {
	return checks.some(
		(chosen) => chosen === name || (CHECK_FILTER_ALSO_MATCHES[chosen] ?? []).includes(name),
	);
}

/**
 * The Checks filter on what the notification says: 'pass', 'drop', or 'resolve' when its
 * verificationId is not a check name (a check's ID, to be looked up).
 */
export function checksVerdict(item: IDataObject, checks: string[]): 'pass' | 'drop' | 'resolve' {
	if (checks.length === 0) return 'pass';
	const id = typeof item.verificationId === 'string' ? item.verificationId.trim() : '';
	if (id === '') return 'drop';
	if (KNOWN_CHECK_NAMES.has(id)) return matchesChecks(id, checks) ? 'pass' : 'drop';
	return 'resolve';
}

export interface CheckResolution {
	/** The check whose status has the notification's verificationId as its subType. */
	checkName?: string;
	/** Why no check was found (no organisation ID, a failed read, no match). */
	reason?: string;
	/** The transaction read on the way (reused by Add Transaction Details). */
	transaction?: IDataObject;
}

/**
 * Finds the check a verificationId that is a check's ID belongs to: reads the transaction, then
 * the status of each check it lists, the chosen checks first, until one's subType is that ID. At
 * most one read per check of the transaction; stops at the first match.
 */
export async function resolveCheckName(
	this: IWebhookFunctions,
	item: IDataObject,
	checks: string[],
): Promise<CheckResolution> {
	const verificationId = String(item.verificationId).trim();
	let read;
	try {
		read = await readTransaction.call(this, item);
	} catch (error) {
		return { reason: `could not read the transaction: ${(error as Error).message}` };
	}
	const { query, transaction } = read;
	const listed = Array.isArray(transaction.verificationList) ? transaction.verificationList : [];
	const names = [
		...new Set(
			listed
				.map((check) => (check as IDataObject)?.name)
				.filter((name): name is string => typeof name === 'string' && name !== ''),
		),
	];
	const ordered = [
		...names.filter((name) => matchesChecks(name, checks)),
		...names.filter((name) => !matchesChecks(name, checks)),
	];
	const failures: string[] = [];
	for (const name of ordered) {
		try {
			const envelope = await serviceRequest.call(this, ACTIONS.transactionGetCheckStatus, {
				method: 'GET',
				path: fillPath(CHECK_STATUS_PATH, { verificationName: name }),
				qs: query,
			});
			const items = checkItemsOf(envelope.data ?? {});
			if (items.some((check) => verificationIdOf(check) === verificationId)) {
				return { checkName: name, transaction };
			}
		} catch (error) {
			failures.push(`${name}: ${(error as Error).message}`);
		}
	}
	const reason = `no check of transaction ${query.txnId} has the verificationId ${verificationId} (${ordered.length} checks read)`;
	return {
		reason: failures.length > 0 ? `${reason}; reads that failed: ${failures.join('; ')}` : reason,
		transaction,
	};
}

/** The log line of an event the Checks filter could not place and dropped. */
export function unplacedEventLog(notification: IDataObject, reason?: string): string {
	return `Candidate Verification Trigger: an event of transaction ${String(notification.transactionId)} (verificationId ${String(notification.verificationId)}) started nothing: ${reason ?? 'its check is unknown'}. Options → Pass Unplaced Events lets such events start the workflow.`;
}

/** The trigger's option that lets an event the Checks filter cannot place start the workflow. */
export const PASS_UNPLACED = 'passUnplacedEvents';

/**
 * The Checks filter: the item to emit (with checkName when the check was looked up), or no item
 * when the event is filtered out. An event the trigger cannot place is dropped with a warning in
 * n8n's log, as before 0.4.0, unless `passUnplaced` (then emitted with checkUnknown and
 * checkUnknownReason).
 */
export async function applyChecksFilter(
	this: IWebhookFunctions,
	notification: IDataObject,
	checks: string[],
	passUnplaced = false,
): Promise<{ item?: IDataObject; transaction?: IDataObject }> {
	const verdict = checksVerdict(notification, checks);
	if (verdict !== 'resolve') return { item: verdict === 'pass' ? notification : undefined };
	const { checkName, reason, transaction } = await resolveCheckName.call(
		this,
		notification,
		checks,
	);
	if (checkName === undefined) {
		if (!passUnplaced) {
			this.logger.warn(unplacedEventLog(notification, reason));
			return {};
		}
		return {
			item: { ...notification, checkUnknown: true, checkUnknownReason: reason },
			transaction,
		};
	}
	if (!matchesChecks(checkName, checks)) return {};
	return { item: { ...notification, checkName }, transaction };
}
