import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

export const DUPLICATE_PROTECTION = 'duplicateProtection';
export const DUPLICATE_KEY = 'duplicateKey';
export const ID_FOUND = 'idFoundAtService';
export const DUPLICATE_OPTIONS = 'duplicateProtectionOptions';
export const IN_DOUBT_WAIT = 'inDoubtWaitSeconds';
export const HISTORY_SIZE = 'historySize';
export const ANY_EXECUTION = 'actInAnyExecution';

export const DEFAULT_IN_DOUBT_WAIT_SECONDS = 30;
export const DEFAULT_HISTORY_ROWS = 100_000;

export const DUPLICATE_MODES = {
	skipSent: 'skipSent',
	sendAgain: 'sendAgain',
	recordAsSent: 'recordAsSent',
	forgetAll: 'forgetAll',
	releaseLock: 'releaseLock',
	off: 'off',
} as const;
export type DuplicateMode = (typeof DUPLICATE_MODES)[keyof typeof DUPLICATE_MODES];

/**
 * The modes that resolve rows once, and what each does in every execution while Act in Any
 * Execution is left on: they act only in an execution a person started in the editor, unless Act in
 * Any Execution.
 */
const RISK_IN_ANY_EXECUTION: Partial<Record<DuplicateMode, string>> = {
	sendAgain: 'sends its rows again',
	recordAsSent: 'records rows as sent without sending them',
	forgetAll: 'clears the record',
	releaseLock: 'deletes the lock, which a live execution may hold',
};
export const ONE_OFF_MODES = Object.keys(RISK_IN_ANY_EXECUTION) as readonly DuplicateMode[];

function anyExecutionRisk(): string {
	const risks = ONE_OFF_MODES.map((mode) => `${RISK_IN_ANY_EXECUTION[mode]} (${MODE_NAMES[mode]})`);
	const last = risks.pop();
	return `Risk: left selected, every such execution ${risks.join(', ')}, or ${last}`;
}

/** The execution mode of a run a person started in the editor (n8n's WorkflowExecuteMode). */
export const EDITOR_EXECUTION_MODE = 'manual';

/** The editor's notice while a one-off mode is selected (its first sentence; the node adds how to switch back). */
export const ONE_OFF_NOTICE =
	'A one-off tool: it acts in an execution you start here in the editor, with only the rows to resolve; other executions stop at this node before sending or recording anything.';

export const MODE_NAMES: Record<DuplicateMode, string> = {
	skipSent: 'Skip Rows Sent Before',
	sendAgain: 'Send These Rows Again',
	recordAsSent: 'Record Rows as Sent',
	forgetAll: 'Forget All Rows Sent Before',
	releaseLock: 'Release Stuck Lock',
	off: 'Off',
};

/**
 * When a row in doubt may be sent again (Send These Rows Again): the rule of
 * docs/duplicate-protection.md#rule-send-again, said in these words by the field's description and
 * by every error's advice (scripts/check-docs.js fails when the doc's rule says otherwise). `wait`: the time to let pass, as a formula or in seconds.
 */
export function sendAgainCondition(wait: string): string {
	return `once no execution that sent it is still running (Executions list), the worker that ran it was restarted or is gone (queue mode: a paused worker may still send it), and at least ${wait} have passed since it ended`;
}

/** The time to let pass before sending a row in doubt again, as the editor names it. */
export const SEND_AGAIN_WAIT = 'Timeout × (Retries + 1) + 60 s';

/**
 * What a Duplicate Key counts within, for an operation with a scope (its `scope`): e.g. "one form",
 * and what tells the rows apart there (e.g. "people").
 */
export interface KeyScope {
	within: string;
	apart: string;
	/** How document URLs count in the row's fields (Submit: aside; Resolve: a new upload is new). */
	urls?: string;
}

/** The Duplicate Key's description and hint: within the operation's scope, if it has one. */
function keyTexts(scope?: KeyScope): Pick<INodeProperties, 'description' | 'hint'> {
	const urls = scope?.urls ? ` (${scope.urls})` : '';
	const empty = `Empty: every field the row sends, after normalisation${urls}, so rows with identical fields are one row, in one input (an error) and across executions (sent once).`;
	const mapped =
		'Changing what is mapped (or mapping a key) makes rows sent before new rows: record them first (Record Rows as Sent with their IDs) or they are sent again.';
	if (!scope) {
		return {
			description: `What makes a row the same row (for the same credential). ${empty} With a key, rows with the same key are one row. ${mapped}`,
			hint: 'Empty: identical rows are one row, also across executions. Map an ID column to tell rows apart',
		};
	}
	return {
		description: `What tells rows apart within ${scope.within} (for the same credential): the same key in another one is another row. ${empty} With a key, such as the row’s employee ID, two ${scope.apart} with the same fields are two rows and a corrected row counts as the one already sent. ${mapped}`,
		hint: `Counts within ${scope.within}. Empty: identical rows are one row, also across executions. Map an ID column (e.g. employee ID) to tell ${scope.apart} apart`,
	};
}

/**
 * The node's fields for an operation that creates something at the service: whether a row sent by
 * an earlier execution is skipped, what identifies a row, and the ways to resolve a row in doubt.
 */
export function duplicateProtectionFields(
	show: IDisplayOptions['show'],
	idName: string,
	keyScope?: KeyScope,
	/** The ID is the item's own (Submit's transaction): several rows share it by design. */
	idSharedByRows = false,
): INodeProperties[] {
	const { skipSent, sendAgain, recordAsSent } = DUPLICATE_MODES;
	const inModes = (...modes: DuplicateMode[]) => ({
		show: { ...show, [DUPLICATE_PROTECTION]: modes },
	});
	const descriptions: Record<DuplicateMode, string> = {
		skipSent:
			'A row this node sent in an earlier execution is not sent again: its output item says alreadySent',
		sendAgain: `Send every row of this run, also rows the service accepted before (it creates them once more). Put only the rows to send in the input; a row in doubt only ${sendAgainCondition(SEND_AGAIN_WAIT)}.`,
		recordAsSent: `Send nothing. A row in doubt, or never sent (created outside n8n), is recorded as accepted with its own ${idName} found at the service, so later runs skip it and output that ID; a row accepted before keeps its ID. ${idSharedByRows ? `Rows of one transaction share its ${idName}.` : 'One ID on several rows: nothing is recorded.'}`,
		forgetAll:
			'Clear everything this node recorded; nothing is sent and the input items pass through',
		releaseLock:
			'Only when an error says the lock is stuck and no execution of this workflow is running (Executions list, Status → Running): releases it; nothing is sent',
		off: 'Send every row and record nothing',
	};
	// The one-off tools say where they act and how to switch back.
	for (const mode of ONE_OFF_MODES) {
		descriptions[mode] =
			`${descriptions[mode].replace(/\.?$/, '.')} One-off: acts in an execution started in the editor; then set Duplicate Protection back to ${MODE_NAMES.skipSent}.`;
	}
	return [
		{
			displayName: 'Duplicate Protection',
			name: DUPLICATE_PROTECTION,
			type: 'options',
			default: 'skipSent',
			options: (Object.keys(MODE_NAMES) as DuplicateMode[]).map((mode) => ({
				name: MODE_NAMES[mode],
				value: mode,
				description: descriptions[mode],
			})),
			description:
				'Each row this node sends is recorded (as a hash, in n8n’s database). Skip Rows Sent Before: a row the service accepted is not sent again while it is among the newest History Size rows, for the same credential, mapped fields and Duplicate Key, and a row without an answer is held until a person resolves it (the promises and their conditions: docs/duplicate-protection.md#promises).',
			displayOptions: { show },
		},
		{
			displayName: `${ONE_OFF_NOTICE} Then set Duplicate Protection back to ${MODE_NAMES.skipSent}.`,
			name: 'oneOffNotice',
			type: 'notice',
			default: '',
			displayOptions: inModes(...ONE_OFF_MODES),
		},
		{
			displayName: 'Act in Any Execution',
			name: ANY_EXECUTION,
			type: 'boolean',
			default: false,
			description: `Whether this mode also acts in executions nobody started in the editor (a trigger, a webhook, a schedule, a retry, a sub-workflow). ${anyExecutionRisk()}.`,
			displayOptions: inModes(...ONE_OFF_MODES),
		},
		{
			displayName: 'Duplicate Key',
			name: DUPLICATE_KEY,
			type: 'string',
			default: '',
			placeholder: 'e.g. {{ $json.employeeId }}',
			...keyTexts(keyScope),
			displayOptions: inModes(skipSent, sendAgain, recordAsSent),
		},
		{
			displayName: `${idName} Found at the Service`,
			name: ID_FOUND,
			type: 'string',
			default: '',
			// Not `required`: n8n checks that on publishing even when Duplicate Protection is an
			// expression that never makes it Record Rows as Sent; the all-items check requires it instead.
			placeholder: 'e.g. {{ $json.foundId }}',
			description: `Required with Record Rows as Sent: the ${idName} the service gave this row, its own (its dashboard lists what it holds). Later runs skip the row and output this ID.`,
			displayOptions: inModes(recordAsSent),
		},
		{
			displayName: 'Duplicate Protection Options',
			name: DUPLICATE_OPTIONS,
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			displayOptions: inModes(skipSent, sendAgain, recordAsSent),
			options: [
				{
					displayName: 'History Size (Rows)',
					name: HISTORY_SIZE,
					type: 'number',
					typeOptions: { minValue: 1 },
					default: DEFAULT_HISTORY_ROWS,
					description:
						'How many of the newest rows the record keeps at least. An older row may be forgotten: a later run would then send it again. To run a whole sheet of N rows again without sending any twice, keep it at least N plus the rows other executions of this node record in between (and above the rows all executions of this node send while one waits for an answer). Each run reads and writes the whole record, so a smaller history makes runs faster.',
				},
				{
					displayName: 'Wait for an Answer Elsewhere (Seconds)',
					name: IN_DOUBT_WAIT,
					type: 'number',
					typeOptions: { minValue: 0 },
					default: DEFAULT_IN_DOUBT_WAIT_SECONDS,
					description:
						'A row another execution sent and has no answer for yet (it may be sending it right now) is waited for up to this long; then it is named in doubt',
				},
			],
		},
	];
}
