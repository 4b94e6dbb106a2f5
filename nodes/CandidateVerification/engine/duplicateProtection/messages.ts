import { MODE_NAMES, SEND_AGAIN_WAIT, sendAgainCondition } from './fields';

/**
 * The texts users read, as pure functions of the facts (item indexes, IDs, mode, settings): gate.ts,
 * protection.ts and lock.ts decide when one is said; the tests build what they expect with them.
 */

/** An error's message and its description (the advice n8n shows under it). */
export interface ErrorText {
	message: string;
	description: string;
}

/** "item 3", "items 3, 5". */
export function itemList(indexes: number[]): string {
	return `${indexes.length === 1 ? 'item' : 'items'} ${indexes.join(', ')}`;
}

const NOTHING_SENT_UNTIL_STORE_ANSWERS =
	'Nothing was sent to the Candidate Verification Service. Run again once n8n’s database answers.';

/** The last step of every way to resolve a row: the tools act once, the node goes back to skipping. */
export const SWITCH_BACK = `Then set Duplicate Protection back to ${MODE_NAMES.skipSent}.`;

/** Under On Error → Stop, after a row in doubt: how to send the others. */
export const CONTINUE_FOR_OTHER_ROWS =
	'Set Settings → On Error to Continue to send the other rows and get the rows in doubt on the error output.';

// The settings (protection.ts)

export function historySizeInvalid(value: string): string {
	return `Duplicate Protection Options → History Size "${value}" is not a whole number of rows (1 or more)`;
}

export function waitInvalid(value: string): string {
	return `Duplicate Protection Options → Wait for an Answer Elsewhere "${value}" is not a number of seconds (0 or more)`;
}

export function unknownMode(mode: string): string {
	return `Duplicate Protection "${mode}" is not one of ${Object.values(MODE_NAMES).join(', ')}`;
}

/** Items whose Duplicate Protection (an expression) is not the first item's `modeName`. */
export function modesDiffer(modeName: string, differing: number[]): ErrorText {
	return {
		message: `Duplicate Protection differs between items: item 0 has ${modeName}, ${itemList(differing)} another mode`,
		description:
			'Nothing was sent or recorded: a run of this node treats every row one way. Give every item the same Duplicate Protection, e.g. split the input (If node) into two Candidate Verification nodes.',
	};
}

/** A one-off mode (`modeName`) in an execution nobody started in the editor (`executionMode`). */
export function oneOffOutsideEditor(modeName: string, executionMode: string): ErrorText {
	return {
		message: `Duplicate Protection → ${modeName} acts only in an execution started in the editor; this one is a "${executionMode}" execution`,
		description: `Nothing was sent or recorded. ${modeName} is a one-off tool: open the workflow, run this node in the editor with only the rows to resolve, then set Duplicate Protection back to ${MODE_NAMES.skipSent} and save, so production executions send new rows again.`,
	};
}

/** The execution hint of a run whose one-off mode came from an expression. */
export function oneOffFromExpression(modeName: string): string {
	return `Duplicate Protection's expression gave ${modeName}, a one-off tool. Once the rows are resolved, set Duplicate Protection back to ${MODE_NAMES.skipSent}.`;
}

export const NO_STORE: ErrorText = {
	message: 'Duplicate protection needs n8n’s deduplication store, which this run does not have',
	description:
		'n8n offers it to saved workflows from n8n 1.60 on (as the Remove Duplicates node uses it). Nothing was sent. Save the workflow, or set Duplicate Protection to Off to send without it (then nothing stops a later run from sending the same rows again).',
};

export function lockReleasedLog(released: boolean): string {
	return `Candidate Verification: duplicate protection's lock ${released ? 'released' : 'was not held'}`;
}

// The store (gate.ts, protection.ts)

/** A store call that must succeed before anything is sent failed (`cause`: the store's message). */
export function storeCallFailed(what: 'clear' | 'record', cause: string): ErrorText {
	return {
		message: `Duplicate protection could not ${what === 'clear' ? 'change' : 'write'} n8n’s record of rows sent before`,
		description: `${cause}\n${NOTHING_SENT_UNTIL_STORE_ANSWERS}`,
	};
}

/** The message of a run the store failed in (`storeStopped`). */
export const STORE_STOPPED =
	'Duplicate protection could not use n8n’s record of rows sent before: the run stopped';

/**
 * The error of a run the store failed in (`cause`: the store's message): what the service accepted
 * (recorded or not, with the IDs), and what was not sent.
 */
export function storeStopped(facts: {
	cause: string;
	sentAny: boolean;
	/** Rows the service accepted whose record failed, with the ID the service gave each. */
	unrecorded: ReadonlyArray<{ itemIndex: number; id?: string }>;
	notSent: number[];
}): ErrorText {
	const { cause, sentAny, unrecorded, notSent } = facts;
	const lines = [cause];
	if (!sentAny) {
		lines.push(NOTHING_SENT_UNTIL_STORE_ANSWERS);
	} else if (unrecorded.length > 0) {
		const list = [...unrecorded]
			.sort((a, b) => a.itemIndex - b.itemIndex)
			.map(({ itemIndex, id }) => `item ${itemIndex}: ${id ?? 'accepted (no ID in the answer)'}`)
			.join(', ');
		lines.push(
			`Accepted by the service but not recorded as accepted (a later run holds them in doubt): ${list}. Run only these rows with Duplicate Protection → ${MODE_NAMES.recordAsSent}, each with its ID, or leave them out of the input. ${SWITCH_BACK}`,
		);
	} else {
		lines.push('The rows the service accepted in this run are recorded: a later run skips them.');
	}
	if (notSent.length > 0 && sentAny) {
		lines.push(
			`Not sent: ${itemList(notSent)}. Run again once n8n’s database answers: a later run sends ${notSent.length === 1 ? 'it' : 'them'}${unrecorded.length > 0 ? ' (with On Error → Stop, only once the rows above are recorded: it stops at the first row in doubt)' : ''}.`,
		);
	}
	return { message: STORE_STOPPED, description: lines.join('\n') };
}

/** Where a person sees whether the service has a row, and when it may be sent again (built below). */
type Advice = { whereToCheck: string; whenSafe: string };

/**
 * The tripwire: this run's claim was overwritten by another execution's write. `items`: the rows
 * recorded as sent in that write.
 */
export function writeLost(facts: Advice & { items: number[]; notSent: number[] }): ErrorText {
	const { items, whereToCheck: where, whenSafe, notSent } = facts;
	const lines = [
		`${items.length > 0 ? `Recorded as sent in that write: ${itemList(items)}. They are in doubt, and may have been sent twice (by this execution and by the other one, if it sent them too). ${where}; if the service has one twice, cancel the extra one in its dashboard. Then run only these rows with Duplicate Protection → ${MODE_NAMES.recordAsSent} (each with the ID the service gave it) or, if the service has none, ${whenSafe}, with ${MODE_NAMES.sendAgain}. ${SWITCH_BACK}` : 'No row was recorded as sent in that write.'}`,
		'n8n’s deduplication store did not keep duplicate protection’s lock (it rests on store behaviour n8n does not promise: see docs/store-contract.md); report it with your n8n version, and run one execution of this workflow at a time until then.',
	];
	if (notSent.length > 0) lines.push(`Not sent: ${itemList(notSent)}.`);
	return {
		message:
			'Duplicate protection found one of its writes to n8n’s record lost: another execution wrote the record at the same time, so the run stopped',
		description: lines.join('\n'),
	};
}

// Rows (gate.ts)

/** Record Rows as Sent: items giving one ID (`field`) to different rows. */
export function oneIdForTwoRows(field: string, shared: number[]): ErrorText {
	return {
		message: `${MODE_NAMES.recordAsSent}: items ${shared.join(', ')} give one ${field} to different rows`,
		description: `Nothing was recorded or sent. One ${field} belongs to one candidate: run only the rows to resolve (the rows named in doubt, or created outside n8n), each with the ${field} the service gave it. ${SWITCH_BACK}`,
	};
}

/** An item with the identity of an earlier item (`first`): by its Duplicate Key or every field. */
export function repeatedRow(itemIndex: number, first: number, keyed: boolean): ErrorText {
	const what = keyed ? 'the Duplicate Key' : 'every field';
	const todo = keyed ? 'give each row its own key' : 'map an ID column as the Duplicate Key';
	return {
		message: `Item ${itemIndex} has ${what} of item ${first}, so it is the same row: ${todo}`,
		description: `Item ${itemIndex} was not sent. If they are two rows, ${todo} (e.g. an employee ID); if one, remove the repeat.`,
	};
}

/** On a row sent and accepted before whose ID (`field`) this process does not know. */
export function idNotKnownNote(field: string): string {
	return `Sent by an earlier execution and accepted by the service; not sent again. Its ${field} is not known here: n8n keeps it only in the process that sent the row and, for the newest rows, in the workflow's static data once a production execution ends. Do not write an empty ${field} back.`;
}

export type SeenAt = 'transactionStatus' | 'checkStatus';

/**
 * Where the user can see whether the service has the rows, given their transaction IDs: a
 * submission in Transaction → Get Status, a resolution in Get Check Status (the check's state).
 */
export function whereToCheck(transactionIds: unknown[], seenAt?: SeenAt): string {
	const known = transactionIds.filter((id) => typeof id === 'string' && id !== '');
	if (!seenAt || known.length !== transactionIds.length) {
		return 'The service’s dashboard lists what it holds (the API cannot list or search them)';
	}
	return seenAt === 'checkStatus'
		? `Transaction → Get Check Status for ${known.join(', ')} shows whether the check still waits for this answer (state INSUFFICIENT_DATA) or moved on`
		: `Transaction → Get Status for ${known.join(', ')} shows whether the check was submitted`;
}

/**
 * When no execution can still be sending a row in doubt: its tries and their timeouts (Request
 * Options → Timeout in ms, Retries), and a minute.
 */
export function whenSafeToSendAgain(timeout: number, retries: number): string {
	const seconds = Math.ceil((timeout * (retries + 1)) / 1000) + 60;
	return sendAgainCondition(`${seconds} s (${SEND_AGAIN_WAIT})`);
}

/**
 * A row in doubt (sent by an earlier try or execution that got no answer). `waitedSeconds`: how long this
 * run waited for its answer, if it did; `stops`: On Error → Stop.
 */
export function heldInDoubt(
	facts: Advice & { label: string; itemIndex: number; waitedSeconds?: number; stops: boolean },
): ErrorText {
	const { label, itemIndex, waitedSeconds, whereToCheck: where, whenSafe, stops } = facts;
	const waited =
		waitedSeconds === undefined ? '' : `; no answer came in the ${waitedSeconds} s waited for it`;
	const lines = [
		`${label}: the earlier request left n8n without an answer recorded${waited} (a timeout, a reset, a stopped or crashed execution, or an execution still waiting for its answer). ${where}.`,
		`If the service has it: run only this row (item ${itemIndex}) with Duplicate Protection → ${MODE_NAMES.recordAsSent}, with the ID the service gave it; later runs then skip it and output that ID. If not: ${whenSafe}, run only this row (item ${itemIndex}) with Duplicate Protection → ${MODE_NAMES.sendAgain}. ${SWITCH_BACK}`,
	];
	if (stops) lines.push(CONTINUE_FOR_OTHER_ROWS);
	return {
		message: `Item ${itemIndex} was sent by an earlier try or execution that got no answer: the service may have created it`,
		description: lines.join('\n'),
	};
}

/** The advice on a row whose answer this run lost: duplicate protection holds it in doubt. */
export function lostAnswerAdvice(where: string, whenSafe: string): string {
	return `No clear answer came (a timeout, a reset, a cancel, a 5xx or an answer that is not the service’s), so the service may have created it. ${where}. Duplicate protection holds this row as in doubt: later runs of this node with ${MODE_NAMES.skipSent} do not send it. If the service has it, run only this row with Duplicate Protection → ${MODE_NAMES.recordAsSent} and the ID the service gave it; if not, ${whenSafe}, run only this row with ${MODE_NAMES.sendAgain}. ${SWITCH_BACK}`;
}

// The lock (lock.ts)

export type LockFailure = 'stuck' | 'busy' | 'conflict';

/** Where a user sees whether an execution of the workflow still runs, in regular and queue mode. */
export const RUNNING_CHECK =
	'the Executions list, filtered to Status → Running (in queue mode it lists the executions every worker runs)';

const seconds = (ms: number) => `${ms / 1000} s`;

/** The lock's failure; `timing`: after how long a hold is stuck and a waiter gives up (ms). */
export function lockFailed(
	failure: LockFailure,
	timing: { stuckMs: number; busyMs: number },
): ErrorText {
	const [message, description] = {
		stuck: [
			`Duplicate protection’s lock on this workflow’s record is stuck: one execution has held it for ${seconds(timing.stuckMs)}`,
			`Nothing was sent. A hold lasts about a second at most, so the n8n process holding it most likely stopped (a killed worker, a crash, a restart) or n8n’s database stalled. Check ${RUNNING_CHECK}: once no execution of this workflow is running there, run this node once in the editor with Duplicate Protection → ${MODE_NAMES.releaseLock}, set it back to ${MODE_NAMES.skipSent}, then run again.`,
		],
		busy: [
			`Duplicate protection’s lock on this workflow’s record stayed busy for ${seconds(timing.busyMs)}`,
			'Nothing was sent. Other executions of this workflow kept using this node’s record in turn the whole time (the lock changed hands, so it is not stuck). Try again later, or run fewer executions of this workflow at once.',
		],
		conflict: [
			'Duplicate protection cannot use this workflow’s shared record: another node keeps its history there',
			'A node of this workflow (such as Remove Duplicates with Scope → Workflow) keeps its history in the workflow-wide record, where duplicate protection takes its lock; neither is changed. Set that node’s scope to Node, or set this node’s Duplicate Protection to Off.',
		],
	}[failure];
	return { message, description };
}
