import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
	INode,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../helpers/constants';
import { baseUrlFromCredentials, jsonRequest, sendWithCredential } from '../transport';
import {
	assertSuccessfulResponse,
	networkCode,
	networkError,
	networkFailureKind,
} from '../transport/errors';
import { AcceptedMemory, type AcceptedItem } from './acceptedMemory';
import { ExpressionBatch } from './expressions';
import { ItemInput, problemLine, type Problem } from './itemInput';
import type { ItemCall, OperationDefinition, PreparedRequest } from './operation';
import { readRunSettings, type RunSettings } from './requestOptions';

export const CHECK_LOG_MESSAGE = 'Candidate Verification: all-items check of';

const NOTHING_SENT =
	'Nothing was sent to the Candidate Verification Service for any item. Fix these items and run again, or set Settings → On Error to Continue to send the valid items.';
/** Answers after which the service has certainly not acted on the request. */
const NOT_PROCESSED_STATUSES = [429, 503];
/** Answers of a gateway that may come after the service acted: retried only when nothing changes. */
const GATEWAY_STATUSES = [502, 504];
const READ_RETRY_STATUSES = [...NOT_PROCESSED_STATUSES, ...GATEWAY_STATUSES];
/**
 * Network failures before the request could reach the service. A broken pipe or an aborted
 * connection is not one: the request may have been read before the connection went.
 */
const NOT_SENT_CODES = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'];
const MAX_RETRY_AFTER_MS = 30_000;
/**
 * The longest the all-items check holds n8n's main thread before letting its other work run (the
 * editor, webhooks, other executions): with expressions it takes 1–3 ms per item.
 */
const CHECK_SLICE_MS = 50;

type NodeError = NodeApiError | NodeOperationError;

interface CheckedItem {
	prepared?: PreparedRequest;
	problems: Problem[];
}

interface Failure {
	error: NodeError;
	/** No answer came (timeout, reset): the service may have acted on the request. */
	answerLost: boolean;
}

function withItemIndex<T extends NodeError>(error: T, itemIndex: number): T {
	error.context = { ...(error.context ?? {}), itemIndex };
	return error;
}

function problemsError(context: IExecuteFunctions, problems: Problem[], allItems: boolean) {
	const itemIndexes = [...new Set(problems.map((problem) => problem.itemIndex))];
	const only = problems.length === 1 ? problems[0] : undefined;
	const where = itemIndexes.length === 1 ? 'item' : 'items';
	const message = only
		? problemLine(only)
		: `${problems.length} invalid fields in ${where} ${itemIndexes.join(', ')}`;
	const lines = only ? [] : problems.map((problem) => `- ${problemLine(problem)}`);
	if (only?.hint) lines.push(only.hint);
	if (allItems) lines.push(NOTHING_SENT);
	return new NodeOperationError(context.getNode(), message, {
		itemIndex: itemIndexes[0],
		description: lines.join('\n') || undefined,
	});
}

function fillPath(path: string, parameters: Record<string, string> = {}): string {
	return path.replace(/:([A-Za-z]+)/g, (placeholder, name: string) =>
		name in parameters ? encodeURIComponent(parameters[name]) : placeholder,
	);
}

function itemList(indexes: number[]): string {
	return indexes.map((index) => `item ${index}`).join(', ');
}

/** How long to wait before retry number `attempt` (0-based), following a Retry-After header. */
function retryDelay(settings: RunSettings, attempt: number, response?: IN8nHttpFullResponse) {
	const header = (response?.headers as IDataObject | undefined)?.['retry-after'];
	if (header !== undefined) {
		const seconds = Number(header);
		const until = Number.isFinite(seconds)
			? seconds * 1000
			: Date.parse(String(header)) - Date.now();
		if (Number.isFinite(until) && until >= 0) return Math.min(until, MAX_RETRY_AFTER_MS);
	}
	return settings.retryWait * 2 ** attempt;
}

/** A streamed answer that will not be read is closed, so its connection is freed. */
function discardBody(response: IN8nHttpFullResponse): void {
	const body = response.body as { destroy?: () => void } | undefined;
	if (body && typeof body.destroy === 'function') body.destroy();
}

/**
 * One run of one operation over the node's input, on n8n's public `execute()` API:
 * 1. every item is read and checked (all of an item's expressions in one evaluation); with
 *    On Error = Stop one invalid item means nothing is sent for any item;
 * 2. the credential is read once;
 * 3. valid items are sent with bounded concurrency (and Request Options → Batching), each with the
 *    node's own retries of transient failures; with Stop the first failure stops sending more;
 * 4. outputs are paired with their input items, in input order. Items the service accepted in an
 *    earlier try of n8n's Retry On Fail are not sent again: their outputs are reused.
 */
export async function runOperation(
	this: IExecuteFunctions,
	operation: OperationDefinition,
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const continueOnFail = this.continueOnFail();
	const settings = readRunSettings(this);
	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	const checked = await checkAllItems(this, operation, items, credentials);

	const problems = checked.flatMap((item) => item.problems);
	if (problems.length > 0 && !continueOnFail) throw problemsError(this, problems, true);

	const run = new OperationRun(this, operation, settings, credentials);
	const outputs: INodeExecutionData[][] = [];
	const toSend: number[] = [];
	checked.forEach(({ prepared, problems: itemProblems }, itemIndex) => {
		if (itemProblems.length > 0) {
			outputs[itemIndex] = run.errorOutput(problemsError(this, itemProblems, false), itemIndex);
			return;
		}
		const remembered = run.memory.outputOf(itemIndex, run.fingerprint(prepared!));
		if (remembered) {
			outputs[itemIndex] = remembered;
			run.accepted.set(itemIndex, { fingerprint: run.fingerprint(prepared!), output: remembered });
		} else toSend.push(itemIndex);
	});

	await run.sendAll(toSend, checked, items, outputs);

	if (run.failures.size > 0 && !continueOnFail) {
		run.memory.keep(run.accepted);
		throw run.stopError(toSend);
	}
	run.memory.clear();
	return [outputs.flat()];
}

async function checkAllItems(
	context: IExecuteFunctions,
	operation: OperationDefinition,
	items: INodeExecutionData[],
	credentials: ICredentialDataDecryptedObject,
): Promise<CheckedItem[]> {
	const started = Date.now();
	const timezone = context.getTimezone();
	// Request Options are read once per run, not per item.
	const parameters = { ...(context.getNode().parameters as IDataObject), requestOptions: {} };
	const batch = new ExpressionBatch(parameters);
	const checked: CheckedItem[] = [];
	let sliceStarted = started;
	for (const [itemIndex, item] of items.entries()) {
		if (Date.now() - sliceStarted >= CHECK_SLICE_MS) {
			await sleep(0);
			sliceStarted = Date.now();
		}
		const input = new ItemInput(context, itemIndex, item, timezone, batch, credentials);
		const prepared = operation.build(input);
		input.settle();
		checked.push({ prepared, problems: input.problems });
	}
	// Read by `npm run bench` (N8N_LOG_LEVEL=debug) to report what the check costs in a run.
	context.logger.debug(
		`${CHECK_LOG_MESSAGE} ${items.length} items in ${Date.now() - started} ms, ${checked.reduce((sum, item) => sum + item.problems.length, 0)} problems`,
	);
	return checked;
}

/** The sending half of one run: requests, retries, what was accepted and what failed. */
class OperationRun {
	readonly memory: AcceptedMemory;

	readonly accepted = new Map<number, AcceptedItem>();

	readonly failures = new Map<number, Failure>();

	private readonly started = new Set<number>();

	/** Failures after which the request may have reached the service (no answer came). */
	private readonly lostAnswers = new WeakSet<object>();

	private readonly baseURL: string;

	private readonly credentialsDecrypted: ICredentialsDecrypted;

	private readonly abortSignal?: AbortSignal;

	/** Read once per run: n8n's getNode() deep-copies the node and its parameters at every call. */
	private readonly node: INode;

	private readonly continueOnFail: boolean;

	/** The options every request of the run shares, beside its own method, URL, body and query. */
	private readonly runRequestOptions: Partial<IHttpRequestOptions>;

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly operation: OperationDefinition,
		private readonly settings: RunSettings,
		private readonly credentials: ICredentialDataDecryptedObject,
	) {
		this.memory = AcceptedMemory.of(context);
		this.baseURL = baseUrlFromCredentials(credentials);
		this.node = context.getNode();
		this.continueOnFail = context.continueOnFail();
		const { id, name } = this.node.credentials?.[CREDENTIAL_TYPE] ?? { id: null, name: '' };
		this.credentialsDecrypted = { id: id ?? '', name, type: CREDENTIAL_TYPE, data: credentials };
		this.abortSignal = context.getExecutionCancelSignal?.();
		this.runRequestOptions = {
			...('read' in operation.output ? operation.output.requestOptions : {}),
			...this.transportOptions(),
		};
	}

	private get creates(): boolean {
		return this.operation.acceptedId !== undefined;
	}

	private get stopped(): boolean {
		const stopOnFailure = this.failures.size > 0 && !this.continueOnFail;
		return stopOnFailure || this.abortSignal?.aborted === true;
	}

	fingerprint(prepared: PreparedRequest): string {
		const { method, path } = this.operation;
		return JSON.stringify([method, path, prepared]);
	}

	errorOutput(error: NodeError, itemIndex: number): INodeExecutionData[] {
		return [{ json: { error: error.message }, pairedItem: { item: itemIndex } }];
	}

	/** Sends the items batch by batch, at most `concurrency` at once, until done or stopped. */
	async sendAll(
		indexes: number[],
		checked: CheckedItem[],
		items: INodeExecutionData[],
		outputs: INodeExecutionData[][],
	): Promise<void> {
		const { batchSize, batchInterval, concurrency } = this.settings;
		const batches: number[][] = [];
		for (let start = 0; start < indexes.length; start += batchSize || indexes.length) {
			batches.push(indexes.slice(start, start + (batchSize || indexes.length)));
		}
		for (const [batchNumber, batch] of batches.entries()) {
			if (batchNumber > 0) await sleep(batchInterval);
			let next = 0;
			const worker = async () => {
				while (next < batch.length && !this.stopped) {
					const itemIndex = batch[next++];
					this.started.add(itemIndex);
					outputs[itemIndex] = await this.sendItem(
						itemIndex,
						items[itemIndex],
						checked[itemIndex].prepared!,
					);
				}
			};
			await Promise.all(Array.from({ length: Math.min(concurrency, batch.length) }, worker));
			if (this.stopped) return;
		}
	}

	private async sendItem(
		itemIndex: number,
		item: INodeExecutionData,
		prepared: PreparedRequest,
	): Promise<INodeExecutionData[]> {
		const { operation, context, node } = this;
		const request: IHttpRequestOptions = {
			...jsonRequest(
				this.baseURL,
				{
					method: operation.method,
					url: fillPath(operation.path, prepared.pathParameters),
					body: prepared.body,
					qs: prepared.qs,
				},
				this.settings.timeout,
			),
			...this.runRequestOptions,
		};
		const call: ItemCall = {
			itemIndex,
			item,
			prepared,
			request,
			credentials: this.credentials,
			callService: async (label, stepRequest) => {
				const response = await this.request(label, {
					...request,
					...stepRequest,
					...this.jsonOnly(),
				});
				return assertSuccessfulResponse(node, label, response);
			},
		};
		try {
			if (operation.beforeSend) await operation.beforeSend.call(context, call);
			const response = await this.request(operation.label, request);
			let output: INodeExecutionData[];
			if ('read' in operation.output) {
				output = await operation.output.read.call(context, response, call);
			} else {
				const envelope = assertSuccessfulResponse(node, operation.label, response);
				const shaped = operation.output(envelope.data ?? {}, prepared);
				output = (Array.isArray(shaped) ? shaped : [shaped]).map((json) => ({
					json,
					pairedItem: { item: itemIndex },
				}));
			}
			const id = operation.acceptedId && output[0] && operation.acceptedId(output[0].json);
			if (id !== undefined && id !== null && id !== '') {
				this.accepted.set(itemIndex, { fingerprint: this.fingerprint(prepared), output });
			}
			return output;
		} catch (caught) {
			const error =
				caught instanceof NodeApiError || caught instanceof NodeOperationError
					? caught
					: new NodeOperationError(node, caught as Error);
			const gatewayAnswer = GATEWAY_STATUSES.includes(Number((caught as NodeApiError).httpCode));
			const answerLost = this.lostAnswers.has(error) || (this.creates && gatewayAnswer);
			this.failures.set(itemIndex, { error: withItemIndex(error, itemIndex), answerLost });
			return this.errorOutput(error, itemIndex);
		}
	}

	/** Request Options that apply to every request of the run. */
	private transportOptions(): Partial<IHttpRequestOptions> {
		const { proxy, skipSslCertificateValidation } = this.settings;
		return {
			...(proxy ? { proxy } : {}),
			...(skipSslCertificateValidation ? { skipSslCertificateValidation } : {}),
			...(this.abortSignal ? { abortSignal: this.abortSignal } : {}),
		};
	}

	/** A first step of an operation is plain JSON even when the operation reads a file. */
	private jsonOnly(): Partial<IHttpRequestOptions> {
		return { json: true, encoding: undefined, headers: { Accept: 'application/json' } };
	}

	/**
	 * One request with the node's own retries of transient failures. An operation that creates
	 * something is retried only when the service certainly did not act on the request.
	 */
	private async request(
		label: string,
		options: IHttpRequestOptions,
	): Promise<IN8nHttpFullResponse> {
		const retryStatuses = this.creates ? NOT_PROCESSED_STATUSES : READ_RETRY_STATUSES;
		for (let attempt = 0; ; attempt++) {
			let response: IN8nHttpFullResponse | undefined;
			let failure: unknown;
			try {
				response = await sendWithCredential.call(this.context, options, this.credentialsDecrypted);
			} catch (caught) {
				failure = caught;
			}
			const kind = failure === undefined ? undefined : networkFailureKind(failure);
			const notSent = NOT_SENT_CODES.includes(networkCode(failure) ?? '');
			const transient = response
				? retryStatuses.includes(response.statusCode)
				: kind !== undefined && (!this.creates || notSent);
			if (!transient || attempt >= this.settings.retries || this.abortSignal?.aborted) {
				if (response) return response;
				const error = networkError(this.node, label, failure, options);
				if (kind !== undefined && !notSent) this.lostAnswers.add(error);
				throw error;
			}
			if (response) discardBody(response);
			await sleep(retryDelay(this.settings, attempt, response));
		}
	}

	/**
	 * The error a run stops with: the first failed item's, with what the service accepted (not
	 * lost, not to be sent again), what may have reached it, and what was never sent.
	 */
	stopError(indexes: number[]): NodeError {
		const [firstIndex] = [...this.failures.keys()].sort((a, b) => a - b);
		const { error } = this.failures.get(firstIndex)!;
		const lines = [String(error.description ?? '')];
		if (this.creates && this.accepted.size > 0) {
			const accepted = [...this.accepted.entries()]
				.sort(([a], [b]) => a - b)
				.map(
					([index, { output }]) =>
						`item ${index}: ${String(this.operation.acceptedId!(output[0].json))}`,
				);
			lines.push(
				`Already accepted by the service (not lost, do not send them again): ${accepted.join(', ')}`,
			);
		}
		const lost = [...this.failures.entries()].filter(([, failure]) => failure.answerLost);
		if (this.creates && lost.length > 0) {
			lines.push(
				`No answer for ${itemList(lost.map(([index]) => index))}: the service may have accepted ${lost.length === 1 ? 'it' : 'them'}; check at the service before sending ${lost.length === 1 ? 'it' : 'them'} again.`,
			);
		}
		const notSent = indexes.filter((index) => !this.started.has(index));
		if (notSent.length > 0) {
			lines.push(
				`Not sent (the run stopped at the first failure): ${itemList(notSent)}. Settings → Retry On Fail sends them, and the failed items, without sending an accepted item again.`,
			);
		}
		error.description = lines.filter(Boolean).join('\n');
		return error;
	}
}
