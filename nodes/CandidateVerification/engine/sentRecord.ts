import { createHash } from 'node:crypto';
import type {
	DeduplicationHelperFunctions,
	ICheckProcessedOptions,
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

export const DUPLICATE_PROTECTION = 'duplicateProtection';
export const DUPLICATE_KEY = 'duplicateKey';

export const DUPLICATE_MODES = {
	skipSent: 'skipSent',
	sendAgain: 'sendAgain',
	forgetAll: 'forgetAll',
	off: 'off',
} as const;
export type DuplicateMode = (typeof DUPLICATE_MODES)[keyof typeof DUPLICATE_MODES];

const TURN_OFF_HINT =
	'Set Duplicate Protection to Off to send without it, or to Send These Rows Again to send rows you have checked.';

/**
 * The node's fields for an operation that creates something at the service: whether a row sent by
 * an earlier execution is skipped, and what identifies a row.
 */
export function duplicateProtectionFields(show: IDisplayOptions['show']): INodeProperties[] {
	return [
		{
			displayName: 'Duplicate Protection',
			name: DUPLICATE_PROTECTION,
			type: 'options',
			default: 'skipSent',
			options: [
				{
					name: 'Skip Rows Sent Before',
					value: DUPLICATE_MODES.skipSent,
					description:
						'A row this node sent in an earlier execution is not sent again: its output item says alreadySent',
				},
				{
					name: 'Send These Rows Again',
					value: DUPLICATE_MODES.sendAgain,
					description:
						'Forget the earlier send of each row of this run and send it: the service creates it once more',
				},
				{
					name: 'Forget All Rows Sent Before',
					value: DUPLICATE_MODES.forgetAll,
					description:
						'Clear everything this node recorded; nothing is sent and the input items pass through',
				},
				{
					name: 'Off',
					value: DUPLICATE_MODES.off,
					description: 'Send every row and record nothing',
				},
			],
			description:
				'Each row this node sends is recorded (as a hash, in n8n’s database), so no later execution creates it twice: not a Retry from the Executions list, not the same sheet run again, not a crashed worker’s rows run again',
			displayOptions: { show },
		},
		{
			displayName: 'Duplicate Key',
			name: DUPLICATE_KEY,
			type: 'string',
			default: '',
			placeholder: 'e.g. {{ $json.employeeId }}',
			description:
				'What makes a row the same row. Empty: the request as sent (every field, after normalisation). With a key, such as the row’s employee ID, a corrected row counts as the one already sent; include everything that makes two rows different (e.g. employee ID and check).',
			displayOptions: {
				show: {
					...show,
					[DUPLICATE_PROTECTION]: [DUPLICATE_MODES.skipSent, DUPLICATE_MODES.sendAgain],
				},
			},
		},
	];
}

/** n8n's deduplication store in its plain mode: a set of hashes of the recorded values. */
const STORE_OPTIONS: ICheckProcessedOptions = { mode: 'entries' };
/** This node's own record (n8n keys it by the node's ID, so a rename keeps it). */
const STORE_SCOPE = 'node';
/** Recorded before a row's request leaves. */
const SENT = 's:';
/** Recorded once the service accepted the row. */
const ACCEPTED = 'a:';
/** Earlier results kept in the workflow's static data and in this process. */
const MAX_RESULTS = 10_000;
const RESULTS_KEY = 'sentRows';

export type RowState = 'new' | 'accepted' | 'inDoubt';

/** When a row was accepted and the ID the service gave it, where n8n could keep them. */
export interface EarlierResult {
	sentAt: string;
	id?: string;
}

/** Results this process saw accepted (manual executions have no saved static data). */
const resultsInProcess = new Map<string, EarlierResult>();

function keepBounded<T>(map: Map<string, T>, key: string, value: T): void {
	map.delete(key);
	map.set(key, value);
	while (map.size > MAX_RESULTS) map.delete(map.keys().next().value as string);
}

/** One read-modify-write of a node's record at a time in this process. */
const recordQueues = new Map<string, Promise<unknown>>();

async function oneAtATime<T>(queueKey: string, work: () => Promise<T>): Promise<T> {
	const previous = recordQueues.get(queueKey) ?? Promise.resolve();
	const result = previous.then(work, work);
	const settled = result.then(
		() => undefined,
		() => undefined,
	);
	recordQueues.set(queueKey, settled);
	void settled.then(() => {
		if (recordQueues.get(queueKey) === settled) recordQueues.delete(queueKey);
	});
	return await result;
}

function storeError(context: IExecuteFunctions, caught: unknown): NodeOperationError {
	return new NodeOperationError(
		context.getNode(),
		'Duplicate protection could not read n8n’s record of rows sent before',
		{
			description: `${(caught as Error)?.message ?? String(caught)}\nNothing was sent to the Candidate Verification Service. ${TURN_OFF_HINT}`,
		},
	);
}

/**
 * The rows a node sent in earlier executions, in n8n's deduplication store (n8n's database: every
 * process of a queue-mode setup shares it, and it survives restarts). A row is recorded as sent
 * before its request leaves and as accepted once the service answered; a row the service certainly
 * did not act on is released. Only SHA-256 hashes are stored (n8n hashes them once more).
 */
export class SentRecord {
	private readonly queueKey: string;

	/** Round trips to n8n's store in this run, and the time they took (read by `npm run bench`). */
	roundTrips = 0;

	storeMs = 0;

	private constructor(
		private readonly context: IExecuteFunctions,
		private readonly store: DeduplicationHelperFunctions,
		private readonly identityBase: unknown[],
		readonly mode: DuplicateMode,
	) {
		const workflowId = context.getWorkflow().id ?? '';
		this.queueKey = JSON.stringify([workflowId, context.getNode().id]);
	}

	/** The record for this run, or undefined when the node's Duplicate Protection is Off. */
	static open(context: IExecuteFunctions, identityBase: unknown[]): SentRecord | undefined {
		const mode = context.getNodeParameter(
			DUPLICATE_PROTECTION,
			0,
			DUPLICATE_MODES.skipSent,
		) as DuplicateMode;
		if (mode === DUPLICATE_MODES.off) return undefined;
		if (!Object.values(DUPLICATE_MODES).includes(mode)) {
			throw new NodeOperationError(
				context.getNode(),
				`Duplicate Protection "${String(mode)}" is not one of Skip Rows Sent Before, Send These Rows Again, Forget All Rows Sent Before, Off`,
			);
		}
		const store = context.helpers as Partial<DeduplicationHelperFunctions>;
		if (typeof store.checkProcessedAndRecord !== 'function' || !context.getWorkflow().id) {
			throw new NodeOperationError(
				context.getNode(),
				'Duplicate protection needs n8n’s deduplication store, which this run does not have',
				{
					description: `n8n offers it to saved workflows from n8n 1.60 on (as the Remove Duplicates node uses it). Nothing was sent. ${TURN_OFF_HINT}`,
				},
			);
		}
		return new SentRecord(context, store as DeduplicationHelperFunctions, identityBase, mode);
	}

	/** A row's identity: the operation, the service's environment and the key or the request as sent. */
	identity(request: unknown, duplicateKey?: string): string {
		const what = duplicateKey === undefined ? ['request', request] : ['key', duplicateKey];
		return createHash('sha256')
			.update(JSON.stringify([...this.identityBase, ...what]))
			.digest('hex');
	}

	/** A store call, tried once more after a failure (two processes inserting a node's first row). */
	private async call<T>(work: () => Promise<T>): Promise<T> {
		const started = Date.now();
		this.roundTrips += 1;
		try {
			return await work();
		} catch {
			await sleep(50);
			this.roundTrips += 1;
			return await work();
		} finally {
			this.storeMs += Date.now() - started;
		}
	}

	/**
	 * Records the rows as sent and says for each whether an earlier execution sent it: accepted by
	 * the service, or in doubt (sent, no answer recorded). With Send These Rows Again their earlier
	 * record is forgotten first. Throws, having recorded nothing new, when the store fails.
	 */
	async claim(
		identities: string[],
		acceptedSinceLastClaim: Array<{ identity: string; id?: string }> = [],
	): Promise<Map<string, RowState>> {
		const unique = [...new Set(identities)];
		const states = new Map<string, RowState>();
		if (unique.length === 0) return states;
		this.keepResults(acceptedSinceLastClaim);
		try {
			await oneAtATime(this.queueKey, async () => {
				if (this.mode === DUPLICATE_MODES.sendAgain) {
					const values = unique.flatMap((identity) => [SENT + identity, ACCEPTED + identity]);
					await this.call(() => this.store.removeProcessed(values, STORE_SCOPE, STORE_OPTIONS));
				}
				// One round trip: this chunk's rows as sent, and the rows accepted since the last one.
				const acceptedValues = acceptedSinceLastClaim.map(({ identity }) => ACCEPTED + identity);
				const sentValues = unique.map((identity) => SENT + identity);
				const sent = await this.call(() =>
					this.store.checkProcessedAndRecord(
						[...sentValues, ...acceptedValues],
						STORE_SCOPE,
						STORE_OPTIONS,
					),
				);
				const fresh = new Set(
					sent.new
						.map(String)
						.filter((value) => value.startsWith(SENT))
						.map((value) => value.slice(SENT.length)),
				);
				const before = unique.filter((identity) => !fresh.has(identity));
				for (const identity of fresh) states.set(identity, 'new');
				if (before.length === 0) return;
				// The store has no read-only check: what this records for rows never accepted is removed.
				const accepted = await this.call(() =>
					this.store.checkProcessedAndRecord(
						before.map((identity) => ACCEPTED + identity),
						STORE_SCOPE,
						STORE_OPTIONS,
					),
				);
				const wronglyRecorded = accepted.new.map(String);
				if (wronglyRecorded.length > 0) {
					await this.call(() =>
						this.store.removeProcessed(wronglyRecorded, STORE_SCOPE, STORE_OPTIONS),
					);
				}
				const acceptedBefore = new Set(
					accepted.processed.map((value) => String(value).slice(ACCEPTED.length)),
				);
				for (const identity of before) {
					states.set(identity, acceptedBefore.has(identity) ? 'accepted' : 'inDoubt');
				}
			});
		} catch (caught) {
			throw storeError(this.context, caught);
		}
		return states;
	}

	/**
	 * After sending: rows the service accepted are recorded as accepted (with their results where n8n
	 * keeps them); rows it certainly did not act on, or that were never sent, are released so a later
	 * execution sends them. A failure here is logged: the rows then stay in doubt, never lost.
	 */
	async settle(
		accepted: Array<{ identity: string; id?: string }>,
		released: string[],
	): Promise<void> {
		this.keepResults(accepted);
		if (accepted.length === 0 && released.length === 0) return;
		try {
			await oneAtATime(this.queueKey, async () => {
				if (accepted.length > 0) {
					await this.call(() =>
						this.store.checkProcessedAndRecord(
							accepted.map(({ identity }) => ACCEPTED + identity),
							STORE_SCOPE,
							STORE_OPTIONS,
						),
					);
				}
				if (released.length > 0) {
					await this.call(() =>
						this.store.removeProcessed(
							released.map((identity) => SENT + identity),
							STORE_SCOPE,
							STORE_OPTIONS,
						),
					);
				}
			});
		} catch (caught) {
			this.context.logger.warn(
				`Candidate Verification: duplicate protection could not record the outcome of ${accepted.length + released.length} rows (they count as in doubt): ${(caught as Error)?.message}`,
			);
		}
	}

	/** When and with which ID rows were accepted, in this process and the node's static data. */
	private keepResults(accepted: Array<{ identity: string; id?: string }>): void {
		if (accepted.length === 0) return;
		const sentAt = new Date().toISOString();
		const results = this.savedResults();
		for (const { identity, id } of accepted) {
			const result: EarlierResult = id === undefined ? { sentAt } : { sentAt, id };
			keepBounded(resultsInProcess, this.resultKey(identity), result);
			if (results) {
				delete results[identity];
				results[identity] = id === undefined ? [sentAt] : [sentAt, id];
			}
		}
		if (results) {
			const keys = Object.keys(results);
			for (const key of keys.slice(0, Math.max(0, keys.length - MAX_RESULTS))) delete results[key];
		}
	}

	/** Clears everything this node recorded (Forget All Rows Sent Before). */
	async forgetAll(): Promise<void> {
		const results = this.savedResults();
		if (results) for (const key of Object.keys(results)) delete results[key];
		for (const key of resultsInProcess.keys()) {
			if (key.startsWith(this.queueKey)) resultsInProcess.delete(key);
		}
		try {
			await oneAtATime(this.queueKey, async () => {
				await this.call(() => this.store.clearAllProcessedItems(STORE_SCOPE, STORE_OPTIONS));
			});
		} catch (caught) {
			throw storeError(this.context, caught);
		}
	}

	/** When an accepted row was sent and its ID, where n8n kept them. */
	earlierResult(identity: string): EarlierResult | undefined {
		const inProcess = resultsInProcess.get(this.resultKey(identity));
		if (inProcess) return inProcess;
		const saved = this.savedResults()?.[identity];
		if (!Array.isArray(saved) || typeof saved[0] !== 'string') return undefined;
		return saved[1] === undefined
			? { sentAt: saved[0] }
			: { sentAt: saved[0], id: String(saved[1]) };
	}

	private resultKey(identity: string): string {
		return `${this.queueKey}${identity}`;
	}

	/**
	 * The node's static data, which n8n saves after production and retry executions (not manual
	 * ones): hash → [sent at, ID], the newest MAX_RESULTS.
	 */
	private savedResults(): Record<string, IDataObject[string]> | undefined {
		try {
			const staticData = this.context.getWorkflowStaticData('node');
			staticData[RESULTS_KEY] ??= {};
			return staticData[RESULTS_KEY] as Record<string, IDataObject[string]>;
		} catch {
			return undefined;
		}
	}
}
