import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteData,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	PreSendAction,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { CREDENTIAL_TYPE, DEFAULT_TIMEOUT_MS } from './constants';
import { ExpressionBatch } from './expressions';
import { baseUrlFromCredentials } from './transport';
import { ItemInput, problemLine, type Problem } from './validation';

export const CHECK_LOG_MESSAGE = 'Candidate Verification: all-items check of';

/** What the all-items check prepared for one valid item; preSend only applies it. */
export interface PreparedRequest {
	body?: IDataObject | FormData;
	qs?: IDataObject;
	/** Values for `:name` placeholders of the routing's URL, already validated. */
	pathParameters?: Record<string, string>;
	/** Validated values the output item repeats (so they are not resolved a second time). */
	echo?: IDataObject;
}

/** Validates and normalises one item; records problems on `input` instead of throwing. */
export type RequestBuilder = (input: ItemInput) => PreparedRequest;

interface PreparedItem {
	request?: PreparedRequest;
	problems: Problem[];
	error?: NodeOperationError;
}

interface Accepted {
	itemIndex: number;
	id: string;
}

/** Everything one node run shares: the checked items, the base URL, what the service accepted. */
export interface RunState {
	items: PreparedItem[];
	/** Thrown by every item when any item is invalid and the node stops on errors. */
	allItemsError?: NodeOperationError;
	/** The credential, read and decrypted once per run (n8n would otherwise do it for every item). */
	credentials?: Promise<ICredentialDataDecryptedObject>;
	accepted: Accepted[];
	/** Failures whose description lists what was accepted; refreshed as the last items settle. */
	failures: Array<{ error: { description?: string | null }; description: string }>;
	settled: number;
	/** Settles once the last item's preSend has been called (see `everyItemStarted`). */
	allItemsStarted: Promise<void>;
	lastItemStarted: () => void;
	lastItemHasStarted: boolean;
	/** Settles once RoutingNode's synchronous loop (no batching) has given the event loop back. */
	loopEnded: Promise<void>;
}

/**
 * One state per node run, keyed by the run's IExecuteData: RoutingNode hands the same object to
 * every item's context of one run and a new one to the next run. A WeakMap lets it go with the run.
 */
const runs = new WeakMap<object, RunState>();

/**
 * The run's execute data when it is this node's. A node called as an AI Agent's tool is handed the
 * agent's execute data, the same object for every tool and every call of the agent's run: keying
 * on it would reuse one call's checked request for the next call.
 */
function ownExecuteData(context: IExecuteSingleFunctions): IExecuteData | undefined {
	const executeData = context.getExecuteData() as IExecuteData | undefined;
	return executeData?.node?.name === context.getNode().name ? executeData : undefined;
}

/**
 * Every input item of the run by index, as RoutingNode gets them: n8n hands a node set to Execute
 * Once only the first item (the execute data keeps them all). Only this item when the run's data
 * is not available.
 */
function inputItems(context: IExecuteSingleFunctions): Array<[number, INodeExecutionData]> {
	const data = ownExecuteData(context)?.data;
	const all = data?.main?.[0] ?? data?.ai_tool?.[0];
	if (all) {
		const items = context.getNode().executeOnce === true ? all.slice(0, 1) : all;
		return items.map((item, itemIndex) => [itemIndex, item]);
	}
	return [[context.getItemIndex(), context.getInputData()]];
}

function runKey(context: IExecuteSingleFunctions): object {
	return ownExecuteData(context) ?? context;
}

export function runStateOf(context: IExecuteSingleFunctions): RunState | undefined {
	return runs.get(runKey(context));
}

function allItemsError(context: IExecuteSingleFunctions, problems: Problem[]): NodeOperationError {
	const itemIndexes = [...new Set(problems.map((problem) => problem.itemIndex))];
	const only = problems.length === 1 ? problems[0] : undefined;
	const message = only
		? problemLine(only)
		: `${problems.length} invalid fields in ${itemIndexes.length === 1 ? 'item' : 'items'} ${itemIndexes.join(', ')}`;
	const lines = only ? [] : problems.map((problem) => `- ${problemLine(problem)}`);
	if (only?.hint) lines.push(only.hint);
	lines.push(
		'Nothing was sent to the Candidate Verification Service for any item. Fix these items and run again, or set Settings → On Error to Continue to send the valid items.',
	);
	return new NodeOperationError(context.getNode(), message, {
		itemIndex: itemIndexes[0],
		description: lines.join('\n'),
	});
}

function itemError(context: IExecuteSingleFunctions, problems: Problem[]): NodeOperationError {
	const [first] = problems;
	const message =
		problems.length === 1
			? problemLine(first)
			: `${problems.length} invalid fields in item ${first.itemIndex}`;
	const lines = problems.length === 1 ? [] : problems.map((problem) => `- ${problemLine(problem)}`);
	if (problems.length === 1 && first.hint) lines.push(first.hint);
	return new NodeOperationError(context.getNode(), message, {
		itemIndex: first.itemIndex,
		description: lines.join('\n') || undefined,
	});
}

/**
 * Checks every item of the run, synchronously. RoutingNode starts each item's request in one
 * loop and calls item 0's first preSend before item 1's context exists, so doing all of this
 * before the first await means no request of the run can leave before every item is checked,
 * also with Request Options → Batching (its sleep comes after item 0's preSend has begun).
 */
function checkAllItems(context: IExecuteSingleFunctions, build: RequestBuilder): RunState {
	const started = Date.now();
	const timezone = context.getTimezone();
	const batch = new ExpressionBatch(context.getNode().parameters);
	const items: PreparedItem[] = [];
	for (const [itemIndex, item] of inputItems(context)) {
		const input = new ItemInput(context, itemIndex, item, timezone, batch);
		const request = build(input);
		input.settle();
		items[itemIndex] =
			input.problems.length === 0
				? { request, problems: [] }
				: { problems: input.problems, error: itemError(context, input.problems) };
	}
	const problems = items.flatMap((item) => item?.problems ?? []);
	// Read by `npm run bench` (N8N_LOG_LEVEL=debug) to report what the check costs in a run.
	context.logger.debug(
		`${CHECK_LOG_MESSAGE} ${items.length} items in ${Date.now() - started} ms, ${problems.length} problems`,
	);
	let lastItemStarted = () => {};
	const allItemsStarted = new Promise<void>((resolve) => (lastItemStarted = resolve));
	return {
		items,
		allItemsError: problems.length ? allItemsError(context, problems) : undefined,
		accepted: [],
		failures: [],
		settled: 0,
		allItemsStarted,
		lastItemStarted,
		lastItemHasStarted: false,
		loopEnded: sleep(0),
	};
}

/** The pause n8n's Request Options → Batching puts between batches, over the whole run. */
function batchingPauses(context: IExecuteSingleFunctions, itemCount: number): number {
	const requestOptions = (context.getNode().parameters.requestOptions ?? {}) as IDataObject;
	const batch = ((requestOptions.batching as IDataObject | undefined)?.batch ?? {}) as IDataObject;
	const size = Number(batch.batchSize) > 0 ? Number(batch.batchSize) : 1;
	const interval = Number(batch.batchInterval) > 0 ? Number(batch.batchInterval) : 0;
	return Math.floor(Math.max(itemCount - 1, 0) / size) * interval;
}

/**
 * Whether RoutingNode started every item's request. It collects the items' promises with
 * Promise.allSettled only after its loop; when it fails an item itself (an error of its own in
 * the loop) and the node stops on errors, it throws at once and never collects them: the items
 * already started must then neither send (half a batch) nor reject (an unhandled rejection).
 * Without batching the loop is synchronous, so a zero timer after it tells; with batching it
 * pauses between batches, so items failing the check wait for the last item (bounded, in case
 * RoutingNode fails that one before its preSend).
 */
async function everyItemStarted(
	context: IExecuteSingleFunctions,
	run: RunState,
	batching: boolean,
): Promise<boolean> {
	const pauses = batchingPauses(context, run.items.length);
	await (batching ? Promise.race([run.allItemsStarted, sleep(pauses + 5_000)]) : run.loopEnded);
	return run.lastItemHasStarted || context.continueOnFail();
}

function fillPath(url: string, parameters: Record<string, string> = {}): string {
	return url.replace(/:([A-Za-z]+)/g, (placeholder, name: string) =>
		name in parameters ? encodeURIComponent(parameters[name]) : placeholder,
	);
}

/** The run's credential: read once, for the base URL and for every item's request. */
export async function runCredentials(
	context: IExecuteSingleFunctions,
): Promise<ICredentialDataDecryptedObject> {
	const run = runStateOf(context);
	if (!run) return await context.getCredentials(CREDENTIAL_TYPE);
	run.credentials ??= context.getCredentials(CREDENTIAL_TYPE);
	return await run.credentials;
}

/** The timeout n8n's Request Options → Timeout sets, when the user set one. */
function userTimeout(context: IExecuteSingleFunctions): unknown {
	const requestOptions = (context.getNode().parameters.requestOptions ?? {}) as IDataObject;
	return requestOptions.timeout;
}

/**
 * The first preSend of every operation: all items are checked once per run (all-or-nothing when
 * the node stops on errors), then this item's prepared request is applied.
 */
export function checkItemsThenPrepare(build: RequestBuilder): PreSendAction {
	return async function (
		this: IExecuteSingleFunctions,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const key = runKey(this);
		let run = runs.get(key);
		if (!run) {
			run = checkAllItems(this, build);
			runs.set(key, run);
		}
		if (this.getItemIndex() >= run.items.length - 1) {
			run.lastItemHasStarted = true;
			run.lastItemStarted();
		}
		const prepared = run.items[this.getItemIndex()];
		const error = this.continueOnFail() ? prepared?.error : (run.allItemsError ?? prepared?.error);
		// With batching, valid items go as their batch starts (that is what batching is for).
		const batching = batchingPauses(this, run.items.length) > 0;
		if ((error || !batching) && !(await everyItemStarted(this, run, batching))) {
			// The run has already failed in n8n's own loop: nothing to send, and no one to tell.
			return await new Promise<never>(() => {});
		}
		if (error) throw error;
		const request = prepared?.request ?? {};

		requestOptions.baseURL = baseUrlFromCredentials(await runCredentials(this));
		requestOptions.url = fillPath(requestOptions.url, request.pathParameters);
		if (request.body !== undefined) requestOptions.body = request.body;
		if (request.qs) requestOptions.qs = { ...(requestOptions.qs ?? {}), ...request.qs };
		if (!userTimeout(this)) requestOptions.timeout = DEFAULT_TIMEOUT_MS;
		return requestOptions;
	};
}

/** The request the all-items check prepared for this item. */
export function preparedRequest(context: IExecuteSingleFunctions): PreparedRequest {
	return runStateOf(context)?.items[context.getItemIndex()]?.request ?? {};
}
