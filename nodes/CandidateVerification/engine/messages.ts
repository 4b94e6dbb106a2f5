import type { IDataObject } from 'n8n-workflow';

/**
 * The texts users read that the sender composes when a run stops: pure functions from the facts
 * (item indexes, IDs, what the operation is, whether answers were lost) to strings. The sender
 * (sender.ts) decides when one is said; the tests build what they expect with the same
 * functions. Duplicate protection's own texts are in duplicateProtection/messages.ts.
 */

/** On an item whose answer was lost where no duplicate protection holds it. */
export const LOST_ANSWER_ADVICE =
	'No clear answer came (a timeout, a reset, a cancel, a 5xx or an answer that is not the service’s), so the service may have acted on it. Check at the service (its dashboard) before sending this row again: nothing stops a later run from sending it.';

/**
 * A row the service refused in both request shapes it may take, the second time for a reason that
 * names the shape's fields: the second refusal (`problems`, listed by the error) and the first, as
 * either may be the one to act on. Both refusals created nothing, so sending the row again is safe.
 */
export function bothShapesRefused(
	problems: string[],
	refused: { firstShape: string; firstProblems: string[]; secondShape: string },
	itemIndex: number,
): { problem: string; advice: string } {
	const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
	return {
		problem: `both request shapes were refused: ${problems[0] ?? 'no message'}${more}`,
		advice: [
			`Refused as above with ${refused.secondShape}, and before that with ${refused.firstShape}:`,
			...refused.firstProblems.map((problem) => `- ${problem}`),
			`Correct what the refusals name in item ${itemIndex}, then send that row again (nothing was created).`,
		].join('\n'),
	};
}

/** "item 0, item 2". */
function itemList(indexes: number[]): string {
	return indexes.map((index) => `item ${index}`).join(', ');
}

/** The items the service accepted in a stopped run, with the ID it gave each. */
export function acceptedBeforeStop(accepted: Array<[itemIndex: number, id: unknown]>): string {
	const list = accepted.map(([index, id]) => `item ${index}: ${String(id)}`);
	return `Already accepted by the service (not lost, do not send them again): ${list.join(', ')}`;
}

/** What the service accepted in a run, per item: created IDs, billed answers' summaries. */
export interface AcceptedFacts {
	ids: Array<[itemIndex: number, id: unknown]>;
	answers: Array<[itemIndex: number, summary: IDataObject]>;
}

/** The lines of an error that name what the service accepted (none when it accepted nothing). */
export function acceptedLines({ ids, answers }: AcceptedFacts): string[] {
	return [
		ids.length > 0 ? acceptedBeforeStop(ids) : '',
		answers.length > 0 ? answeredBeforeStop(answers) : '',
	].filter(Boolean);
}

/** Answered items a stopped run lists in full; the rest by index. */
export const ANSWERS_LISTED = 20;

/**
 * The items a billed call answered in a stopped run, with what a flow branches on (the operation's
 * `summary`): in full up to ANSWERS_LISTED, then by index.
 */
export function answeredBeforeStop(
	answered: Array<[itemIndex: number, summary: IDataObject]>,
): string {
	const listed = answered
		.slice(0, ANSWERS_LISTED)
		.map(([index, summary]) => `item ${index}: ${JSON.stringify(summary)}`);
	const more = answered.slice(ANSWERS_LISTED).map(([index]) => index);
	const rest = more.length > 0 ? `; also answered: ${itemList(more)}` : '';
	return `Already answered by the service and billed (do not call them again): ${listed.join(', ')}${rest}`;
}

/** A billed call an earlier try of this execution sent without a clear answer: not called again. */
export function lostInEarlierTry(
	label: string,
	itemIndex: number,
): { message: string; description: string } {
	return {
		message: `Item ${itemIndex} got no clear answer in an earlier try of this execution: not called again`,
		description: `${label}: the service may have answered, and billed, that call. n8n's Retry On Fail does not call it again in this execution. Check the result at the service (its dashboard) before calling it in a new execution.`,
	};
}

/**
 * A create (or a resolution) an earlier try of this execution sent without a clear answer: not sent
 * again; `advice`: the one its own try gave (what to check, and how to send it safely).
 */
export function sentWithoutAnswerInEarlierTry(
	label: string,
	itemIndex: number,
	advice: string,
): { message: string; description: string } {
	return {
		message: `Item ${itemIndex} got no clear answer in an earlier try of this execution: not sent again`,
		description: `${label}: n8n's Retry On Fail does not send it again in this execution.\n${advice}`,
	};
}

/**
 * A try of n8n's Retry On Fail that finds the mark an earlier try of this node's run left in the
 * execution, but not what that try kept in this process (another process, or kept too long ago).
 */
export function earlierTryNotKept(
	facts: { answered: number[]; lost: number[] } & Partial<AcceptedFacts>,
): {
	message: string;
	description: string;
} {
	const { answered, lost } = facts;
	// What the earlier try's own error said it got (n8n shows only this try's): never lost.
	const got = acceptedLines({ ids: facts.ids ?? [], answers: facts.answers ?? [] });
	const settled = [
		answered.length > 0 ? `answered ${itemList(answered)}` : '',
		lost.length > 0 ? `got no clear answer for ${itemList(lost)}` : '',
	].filter(Boolean);
	return {
		message:
			"This try of n8n's Retry On Fail cannot see what the earlier try sent: nothing was sent",
		description: `An earlier try of this node in this execution ${settled.join(' and ')}, and this n8n process does not hold what it kept (n8n ran this try in another process, or more than 30 min later), so sending now could create or bill them twice. Check at the service which of them it has before running any of them again, in a new execution; report this with your n8n version, and turn off Settings → Retry On Fail for this node until then.${got.map((line) => `\n${line}`).join('')}`,
	};
}

/** n8n's Retry On Fail is on, but this run cannot be told apart from the node's other runs. */
export const TRIES_NOT_TOLD = {
	message:
		"n8n's Retry On Fail is on, but n8n gave this run no execution ID to keep what it sends for the next try: nothing was sent",
	description:
		'Without it, a later try could send again an item the service accepted or whose answer was lost. Turn off Settings → Retry On Fail for this node, and report this with your n8n version.',
};

/** The items of a stopped run whose answer was lost. */
export function noClearAnswer(indexes: number[]): string {
	const them = indexes.length === 1 ? 'it' : 'them';
	return `No clear answer for ${itemList(indexes)}: the service may have accepted ${them}; check at the service before sending ${them} again.`;
}

/** The items a stopped run did not send, and how they get sent (`howToSendTheRest`). */
export function notSentAfterStop(indexes: number[], howToSend: string): string {
	return `Not sent (the run stopped at the first failure): ${itemList(indexes)}. ${howToSend}`;
}

/** What decides how the rows a stopped run did not send get sent. */
export interface RestFacts {
	/** The operation creates something (it has an accepted ID). */
	creates: boolean;
	/** The operation is billed per call. */
	billedPerCall: boolean;
	/** Duplicate protection skips the rows sent before (not Off, not Send These Rows Again). */
	skipsRowsSent: boolean;
	/** Some answers of this run were lost. */
	answersLost: boolean;
	/** Some row of this run was held in doubt. */
	heldInDoubt: boolean;
	/** The service accepted some items of this run. */
	accepted: boolean;
	/**
	 * n8n's Retry On Fail never sends again an item whose answer was lost (the operations duplicate
	 * protection guards, and billed calls): its tries stop again at that item.
	 */
	lostKeptForTries: boolean;
}

const NEW_EXECUTION =
	'a new execution (running the workflow again, or a Retry from the Executions list) sends every item of its input again';

/** How the rows a stopped run did not send get sent, true for this run's rows. */
export function howToSendTheRest(facts: RestFacts): string {
	const { creates, billedPerCall, skipsRowsSent, answersLost, heldInDoubt, accepted } = facts;
	if (billedPerCall && !creates) {
		const retries = answersLost
			? 'Settings → Retry On Fail calls none of them: each of its tries stops again at the items without a clear answer (check those at the service), and calls no answered item again'
			: 'Settings → Retry On Fail does the same within this execution (it calls no answered item again)';
		return `Run only these items and the rejected ones once corrected, never the answered ones. ${retries}. For batches, set Settings → On Error to Continue (using error output): each rejection goes to the error output and every answer comes out.`;
	}
	if (!creates) return 'Settings → Retry On Fail sends them, and the failed items.';
	if (skipsRowsSent) {
		return answersLost || heldInDoubt
			? 'With Settings → On Error → Continue, running the same rows again sends them and puts the rows in doubt on the error output (with Stop, it stops again at the first row in doubt).'
			: 'Running the same rows again sends them: duplicate protection skips the rows the service accepted.';
	}
	// Off, Send These Rows Again, or no protection: n8n's Retry On Fail keeps what was accepted, and
	// the guarded items without an answer, for the next try of this execution only (AcceptedMemory);
	// a new execution sends them again.
	if (answersLost) {
		const retries = facts.lostKeptForTries
			? 'Settings → Retry On Fail sends none of them: each of its tries stops again at the items without an answer, which it never sends again'
			: 'Settings → Retry On Fail sends them within this execution, and sends the items without an answer again';
		return `${retries}; ${NEW_EXECUTION}: check the items without an answer at the service first, then run only the items it does not have${
			accepted ? ' (not the items listed as accepted above)' : ''
		}.`;
	}
	return `With Settings → Retry On Fail, n8n tries them and the failed items again within this execution without sending an accepted item again; ${NEW_EXECUTION}${
		accepted ? ', so leave out the items listed as accepted above' : ''
	}.`;
}
