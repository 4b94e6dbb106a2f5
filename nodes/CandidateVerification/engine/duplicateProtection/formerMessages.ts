import { MODE_NAMES } from './fields';
import { CONTINUE_FOR_OTHER_ROWS, SWITCH_BACK, type ErrorText } from './messages';

/**
 * The texts of rows keyed before 0.5.0, when a Duplicate Key counted across forms and checks (and of
 * resolutions recorded without their document URLs): the migration's texts (migration.ts).
 */
/**
 * How a person tells whether a row keyed before 0.5.0 is this one: the node reads the service
 * itself when Record Rows as Sent records it (Profile: the transaction's form), a person reads the
 * check (Submit: every check of a candidate shares its transaction ID), or a person looks.
 */
export type KeyedResolution =
	| { kind: 'confirmed'; what: string; readLabel: string }
	| { kind: 'readCheck'; transactionId: string; check: string }
	| { kind: 'person' };

/**
 * A row whose Duplicate Key found a row recorded before 0.5.0, when a key counted across forms and
 * checks: the service may have this row, or another form's or check's row with that key.
 */
export function keyedBefore(facts: {
	label: string;
	itemIndex: number;
	key: string;
	field: string;
	keptId?: string;
	where: string;
	stops: boolean;
	how: KeyedResolution;
}): ErrorText {
	const { label, itemIndex, key, field, keptId, where, stops, how } = facts;
	const kept = keptId === undefined ? '' : ` (the node kept ${field} ${keptId} for that key)`;
	const before = `${label}: before 0.5.0 a Duplicate Key counted across forms and checks, and a row with the key "${key}" was sent then${kept}`;
	const sendAgain = `run only this row with Duplicate Protection → ${MODE_NAMES.sendAgain}`;
	const [maybe, lines] = {
		confirmed: () => {
			const { what, readLabel } = how as Extract<KeyedResolution, { kind: 'confirmed' }>;
			return [
				`another ${what}`,
				[
					`${before}, for this ${what} or another one. ${where}.`,
					`Run this row (item ${itemIndex}) with Duplicate Protection → ${MODE_NAMES.recordAsSent} and the ${field} written back from that run: the node reads it (${readLabel}) and records the row only if it is on this row’s ${what}. If it is on another ${what}, the node says so: then ${sendAgain}. ${SWITCH_BACK}`,
				],
			];
		},
		readCheck: () => {
			const { transactionId, check } = how as Extract<KeyedResolution, { kind: 'readCheck' }>;
			return [
				'another check',
				[
					`${before}, for this check or another check of transaction ${transactionId}: its checks share that ID, so the ID cannot tell.`,
					`Read this check with Transaction → Get Check Status (transaction ${transactionId}, check ${check}). It shows this check’s submitted data: run only this row (item ${itemIndex}) with Duplicate Protection → ${MODE_NAMES.recordAsSent}. It does not: ${sendAgain}. ${SWITCH_BACK}`,
				],
			];
		},
		person: () => [
			'another form or check',
			[
				`${before}, for this form or check or another one. ${where}.`,
				`If the service has this row: run only this row (item ${itemIndex}) with Duplicate Protection → ${MODE_NAMES.recordAsSent}, with the ${field} the service gave it. If not: ${sendAgain}. ${SWITCH_BACK}`,
			],
		],
	}[how.kind]() as [string, string[]];
	if (stops) lines.push(CONTINUE_FOR_OTHER_ROWS);
	return {
		message: `Item ${itemIndex} was keyed before 0.5.0: a row with its Duplicate Key was sent then, maybe for ${maybe}`,
		description: lines.join('\n'),
	};
}

/** What Record Rows as Sent learned of the ID given to a row keyed before 0.5.0 (FormerRowConfirmation). */
export type FormerRowAnswer =
	| { on: string[] }
	| { lacks: string }
	| { failed: string }
	| { namesNone: true };

/**
 * Record Rows as Sent did not record a row keyed before 0.5.0: the ID given is another `what`'s
 * (its form), or the node could not tell (no answer naming one, nothing to read it with).
 */
export function formerRowNotRecorded(facts: {
	itemIndex: number;
	key: string;
	field: string;
	id: string;
	what: string;
	own: string;
	readLabel: string;
	answer: FormerRowAnswer;
	stops: boolean;
}): ErrorText {
	const { itemIndex, key, field, id, what, own, readLabel, answer, stops } = facts;
	const sendAgain = `run only this row (item ${itemIndex}) with Duplicate Protection → ${MODE_NAMES.sendAgain}`;
	const lines: string[] = [];
	let message: string;
	if ('on' in answer && answer.on.length > 0) {
		message = `Item ${itemIndex} was not recorded: ${field} ${id} is on another ${what} (${answer.on.join(', ')}), not on this row’s ${what} ${own}`;
		lines.push(
			`${readLabel} names it. Before 0.5.0 the Duplicate Key "${key}" counted across ${what}s: the row sent then with it is that ${what}’s, and this row was never sent. To send it, ${sendAgain}. ${SWITCH_BACK}`,
		);
	} else {
		const [reason, thisOne] =
			'lacks' in answer
				? [
						`no ${answer.lacks} to read ${field} ${id} with (this node or the credential)`,
						`set the ${answer.lacks} in this node or the credential, and run this row with ${MODE_NAMES.recordAsSent} again.`,
					]
				: 'failed' in answer
					? [
							`reading ${field} ${id} failed: ${answer.failed}`,
							`run this row with ${MODE_NAMES.recordAsSent} again once the service answers.`,
						]
					: [
							`the service’s answer for ${field} ${id} names no ${what}`,
							`the service has this row: leave it out of this node’s input (the node records it only from an answer that names its ${what}).`,
						];
		message = `Item ${itemIndex} was not recorded: ${reason}`;
		lines.push(
			`Before 0.5.0 the Duplicate Key "${key}" counted across ${what}s, so this row is recorded only once the service shows ${field} ${id} on this row’s ${what}. Compare at the service (its dashboard): the ${what} of ${field} ${id} with this row’s ${what}, ${own}. Another ${what}: ${sendAgain}. This ${what}: ${thisOne} ${SWITCH_BACK}`,
		);
	}
	if (stops) {
		lines.push(
			'The run stopped at this row; the rows it recorded stay recorded. Set Settings → On Error to Continue to get every row not recorded on the error output.',
		);
	}
	return { message, description: lines.join('\n') };
}

/**
 * A resolution whose answers were sent before 0.5.0, when its identity left out document URLs: it
 * may be that one again, or a new document for a question raised again.
 */
export function documentsBefore(facts: {
	label: string;
	itemIndex: number;
	where: string;
	stops: boolean;
}): ErrorText {
	const { label, itemIndex, where, stops } = facts;
	const lines = [
		`${label}: before 0.5.0 a resolution was told apart without its document URLs, and one with these answers was sent then, maybe with another document. ${where}.`,
		`If this is that resolution again: run only this row (item ${itemIndex}) with Duplicate Protection → ${MODE_NAMES.recordAsSent}. If it answers a question raised again (a new upload): run only this row with Duplicate Protection → ${MODE_NAMES.sendAgain}. ${SWITCH_BACK}`,
	];
	if (stops) lines.push(CONTINUE_FOR_OTHER_ROWS);
	return {
		message: `Item ${itemIndex} may have been sent before 0.5.0 with another document: not sent`,
		description: lines.join('\n'),
	};
}
