import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { INSUFFICIENCY_RAISED, INSUFFICIENCY_RESOLVED } from '../../shared/enums';
import { CHECK_FILTER_ALSO_MATCHES, NOTIFICATION_CHECK_OPTIONS } from '../../shared/checks';
import { resolveCheckName } from './lookup';

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

function isInsufficiency(item: IDataObject): boolean {
	const event = eventOf(item);
	return event === INSUFFICIENCY_RAISED || event === INSUFFICIENCY_RESOLVED;
}

/** The log line of an event the Checks filter could not place and dropped. */
export function unplacedEventLog(notification: IDataObject, reason: string): string {
	return `Candidate Verification Trigger: an event of transaction ${String(notification.transactionId)} (verificationId ${String(notification.verificationId)}) started nothing: ${reason}. Options → Pass Unplaced Events lets such events start the workflow.`;
}

/** The log line of an event answered 503 because its check could not be looked up for now. */
function unavailableEventLog(notification: IDataObject, reason: string): string {
	return `Candidate Verification Trigger: an event of transaction ${String(notification.transactionId)} (verificationId ${String(notification.verificationId)}) was answered HTTP 503 and started nothing: its check could not be looked up: ${reason}. Options → Pass Unplaced Events lets such events start the workflow.`;
}

/** The trigger's option that lets an event the Checks filter cannot place start the workflow. */
export const PASS_UNPLACED = 'passUnplacedEvents';

/** Where an event goes: the workflow (with this item), nowhere (answered 200), or back (answered 503). */
export type Placement =
	| { outcome: 'start'; item: IDataObject; transaction?: IDataObject }
	| { outcome: 'filtered' }
	| { outcome: 'unavailable' };

const FILTERED_OUT: Placement = { outcome: 'filtered' };

/**
 * The Checks filter, and the lookup of a check named by its ID. A verificationId that is a check name
 * is taken as it is. An ID is looked up (resolveCheckName) for an insufficiency event, and for a
 * state change when Checks is set (their payload is presumed); found, the item gets checkName.
 * An event the lookup cannot place:
 * - without a Checks filter, or with Pass Unplaced Events: starts the workflow with checkUnknown and
 *   checkUnknownReason (an event is never dropped without a filter);
 * - with a Checks filter: a transient failure is answered 503 (the event was not taken); one that needs
 *   a person, or an ID no check has, starts nothing. Each is logged.
 */
export async function placeEvent(
	this: IWebhookFunctions,
	notification: IDataObject,
	checks: string[],
	passUnplaced: boolean,
): Promise<Placement> {
	const filtering = checks.length > 0;
	const id =
		typeof notification.verificationId === 'string' ? notification.verificationId.trim() : '';
	if (KNOWN_CHECK_NAMES.has(id)) {
		return !filtering || matchesChecks(id, checks)
			? { outcome: 'start', item: notification }
			: FILTERED_OUT;
	}
	if (!filtering && !isInsufficiency(notification)) return { outcome: 'start', item: notification };
	const { checkName, unplaced, transaction } = await resolveCheckName.call(
		this,
		notification,
		(names) => [
			...names.filter((name) => matchesChecks(name, checks)),
			...names.filter((name) => !matchesChecks(name, checks)),
		],
	);
	if (checkName !== undefined) {
		if (filtering && !matchesChecks(checkName, checks)) return FILTERED_OUT;
		return { outcome: 'start', item: { ...notification, checkName }, transaction };
	}
	const { kind, reason } = unplaced!;
	if (!filtering || passUnplaced) {
		const item = { ...notification, checkUnknown: true, checkUnknownReason: reason };
		return { outcome: 'start', item, transaction };
	}
	if (kind === 'transient') {
		this.logger.error(unavailableEventLog(notification, reason));
		return { outcome: 'unavailable' };
	}
	// An ID no check has, every read answered: the event is another check's, as before 0.6.0.
	if (kind === 'noMatch') this.logger.warn(unplacedEventLog(notification, reason));
	else this.logger.error(unplacedEventLog(notification, reason));
	return FILTERED_OUT;
}
