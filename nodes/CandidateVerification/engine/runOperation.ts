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
import { DUPLICATE_KEY, DUPLICATE_MODES, SentRecord, type RowState } from './sentRecord';

export const CHECK_LOG_MESSAGE = 'Candidate Verification: all-items check of';
export const PROTECTION_LOG_MESSAGE = 'Candidate Verification: duplicate protection of';

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
/** Rows claimed at once, per concurrent request, when the run is not batched. */
const CLAIM_CHUNK_PER_CONCURRENT_REQUEST = 4;
export const IN_DOUBT_ADVICE =
	'No answer came, so the service may have created it. Check at the service (Transaction → Get Status, or the service’s dashboard) before sending this row again. Duplicate protection holds it as in doubt: a later run does not send it unless its Duplicate Protection is Send These Rows Again.';
/**
 * The longest the all-items check holds n8n's main thread before letting its other work run (the
 * editor, webhooks, other executions): with expressions it takes 1–3 ms per item.
 */
const CHECK_SLICE_MS = 20;
/**
 * Requests started in one turn of n8n's event loop when a run starts: each costs n8n's request
 * helper about 0.5 ms before it leaves, so 200 at once would hold n8n's main thread for 100 ms.
 */
const REQUESTS_STARTED_PER_TURN = 25;

type NodeError = NodeApiError | NodeOperationError;

/** Resolves after `turns` turns of the event loop. */
async function afterTurns(turns: number): Promise<void> {
	for (let turn = 0; turn < turns; turn++) await sleep(0);
}

interface CheckedItem {
	prepared?: PreparedRequest;
	/** Duplicate Key, when the node's duplicate protection uses one. */
	duplicateKey?: string;
	problems: Problem[];
}

interface Failure {
	error: NodeError;
	/** No answer came (timeout, reset): the service may have acted on the request. */
	answerLost: boolean;
	/** Not sent: an earlier execution sent this row and got no answer (duplicate protection). */
	heldInDoubt?: true;
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
 *    earlier try of n8n's Retry On Fail are not sent again: their outputs are reused;
 * 5. for operations that create something, duplicate protection (DuplicateProtection, SentRecord)
 *    claims each chunk of rows in n8n's deduplication store just before it leaves, so no later
 *    execution sends a row again.
 */
export async function runOperation(
	this: IExecuteFunctions,
	operation: OperationDefinition,
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const continueOnFail = this.continueOnFail();
	const settings = readRunSettings(this);
	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	const record = operation.protectedFromDuplicates
		? SentRecord.open(this, [
				credentials.environment,
				baseUrlFromCredentials(credentials),
				operation.method,
				operation.path,
			])
		: undefined;
	if (record?.mode === DUPLICATE_MODES.forgetAll) {
		await record.forgetAll();
		return [items.map((item, itemIndex) => ({ ...item, pairedItem: { item: itemIndex } }))];
	}
	const checked = await checkAllItems(this, operation, items, credentials, record !== undefined);

	const problems = checked.flatMap((item) => item.problems);
	if (problems.length > 0 && !continueOnFail) throw problemsError(this, problems, true);

	const run = new OperationRun(this, operation, settings, credentials);
	const outputs: INodeExecutionData[][] = [];
	let toSend: number[] = [];
	checked.forEach(({ problems: itemProblems }, itemIndex) => {
		if (itemProblems.length > 0) {
			outputs[itemIndex] = run.errorOutput(problemsError(this, itemProblems, false), itemIndex);
			return;
		}
		const remembered = run.memory.outputOf(itemIndex);
		if (remembered) {
			outputs[itemIndex] = remembered;
			run.accepted.set(itemIndex, { output: remembered });
		} else toSend.push(itemIndex);
	});

	const protection = record && new DuplicateProtection(run, record, checked, outputs);
	if (protection) toSend = protection.firstOfEachRow(toSend);

	await run.sendAll(toSend, checked, items, outputs, protection);
	await protection?.settle();

	if (run.failures.size > 0 && !continueOnFail) {
		run.memory.keep(run.accepted);
		const notSent = toSend.filter((index) => !protection?.skipped.has(index));
		throw run.stopError(notSent, protection !== undefined);
	}
	run.memory.clear();
	return [outputs.flat()];
}

async function checkAllItems(
	context: IExecuteFunctions,
	operation: OperationDefinition,
	items: INodeExecutionData[],
	credentials: ICredentialDataDecryptedObject,
	readsDuplicateKey: boolean,
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
		const duplicateKey = readsDuplicateKey
			? input.optionalText('Duplicate Key', input.param(DUPLICATE_KEY, 'Duplicate Key', ''))
			: undefined;
		input.settle();
		checked.push({ prepared, duplicateKey, problems: input.problems });
	}
	// Read by `npm run bench` (N8N_LOG_LEVEL=debug) to report what the check costs in a run.
	context.logger.debug(
		`${CHECK_LOG_MESSAGE} ${items.length} items in ${Date.now() - started} ms, ${checked.reduce((sum, item) => sum + item.problems.length, 0)} problems`,
	);
	return checked;
}

/** Asked before each item's request leaves, and told when its answer came. */
interface SendGate {
	mayBeSent(itemIndex: number): Promise<boolean>;
	answered(itemIndex: number): void;
}

/**
 * A run's use of the node's SentRecord: rows an earlier execution sent are not sent again (their
 * output says alreadySent, with the earlier result where n8n kept it), rows an earlier execution
 * sent without an answer are in doubt, and a row that stands twice in the input is sent once.
 * Rows are claimed chunk by chunk just before they leave, so a crash leaves at most the rows of one
 * chunk in doubt that never left; each claim also records the rows accepted since the last one.
 */
class DuplicateProtection implements SendGate {
	private readonly identities = new Map<number, string>();

	/** Items whose row stands earlier in this input: item → that earlier item. */
	private readonly repeats = new Map<number, number>();

	/** Items not sent because an earlier execution sent their row. */
	readonly skipped = new Set<number>();

	/** Rows this run recorded as sent: they are its to record as accepted or to release. */
	private readonly claimed = new Set<string>();

	private readonly acceptedSinceClaim: Array<{ identity: string; id?: string }> = [];

	private readonly chunkClaims = new Map<number, Promise<Map<string, RowState>>>();

	private readonly positionOf = new Map<number, number>();

	private chunks: number[][] = [];

	constructor(
		private readonly run: OperationRun,
		private readonly record: SentRecord,
		private readonly checked: CheckedItem[],
		private readonly outputs: INodeExecutionData[][],
	) {}

	/** The items to send: each row's first item (its repeats get its outcome). */
	firstOfEachRow(indexes: number[]): number[] {
		const firstItemOf = new Map<string, number>();
		const toSend: number[] = [];
		for (const itemIndex of indexes) {
			const { prepared, duplicateKey } = this.checked[itemIndex];
			const { body, qs, pathParameters } = prepared!;
			const identity = this.record.identity({ body, qs, pathParameters }, duplicateKey);
			this.identities.set(itemIndex, identity);
			const first = firstItemOf.get(identity);
			if (first === undefined) {
				firstItemOf.set(identity, itemIndex);
				this.positionOf.set(itemIndex, toSend.length);
				toSend.push(itemIndex);
			} else this.repeats.set(itemIndex, first);
		}
		const { batchSize, concurrency } = this.run.settings;
		const chunkSize = batchSize || Math.max(CLAIM_CHUNK_PER_CONCURRENT_REQUEST * concurrency, 1);
		this.chunks = [];
		for (let start = 0; start < toSend.length; start += chunkSize) {
			this.chunks.push(toSend.slice(start, start + chunkSize));
		}
		return toSend;
	}

	async mayBeSent(itemIndex: number): Promise<boolean> {
		const chunkSize = this.chunks[0].length;
		const position = this.positionOf.get(itemIndex)!;
		const chunk = Math.floor(position / chunkSize);
		const claim = this.claimOnce(chunk);
		// Unbatched, the next chunk is claimed while this one's second half is sent, so the round trip
		// to n8n's store does not hold the requests up. Batches are spaced out: each claims its own.
		if (!this.run.settings.batchSize && position % chunkSize >= chunkSize / 2) {
			if (chunk + 1 < this.chunks.length) void this.claimOnce(chunk + 1).catch(() => undefined);
		}
		return (await claim).get(this.identities.get(itemIndex)!) === 'new';
	}

	private claimOnce(chunk: number): Promise<Map<string, RowState>> {
		let claim = this.chunkClaims.get(chunk);
		if (!claim) {
			claim = this.claimChunk(chunk);
			this.chunkClaims.set(chunk, claim);
		}
		return claim;
	}

	answered(itemIndex: number): void {
		if (this.run.failures.has(itemIndex)) return;
		const identity = this.identities.get(itemIndex)!;
		this.acceptedSinceClaim.push({ identity, id: this.run.acceptedIdOf(this.outputs[itemIndex]) });
	}

	private async claimChunk(chunk: number): Promise<Map<string, RowState>> {
		const identities = this.chunks[chunk].map((index) => this.identities.get(index)!);
		const accepted = this.acceptedSinceClaim.splice(0);
		const states = await this.record.claim(identities, accepted);
		for (const [identity, state] of states) if (state === 'new') this.claimed.add(identity);
		const inDoubt: number[] = [];
		for (const itemIndex of this.chunks[chunk]) {
			const state = states.get(this.identities.get(itemIndex)!) ?? 'inDoubt';
			if (state === 'new') continue;
			this.skipped.add(itemIndex);
			if (state === 'accepted') this.outputs[itemIndex] = this.alreadySentOutput(itemIndex);
			else inDoubt.push(itemIndex);
		}
		if (inDoubt.length > 0 && !this.run.context.continueOnFail()) {
			// As a failure at the service: the run stops here, naming every such row of the chunk.
			const error = this.inDoubtError(inDoubt);
			for (const index of inDoubt) {
				this.run.failures.set(index, { error, answerLost: false, heldInDoubt: true });
			}
		}
		for (const itemIndex of inDoubt) {
			const error = this.inDoubtError([itemIndex]);
			this.outputs[itemIndex] = this.run.errorOutput(error, itemIndex, {
				inDoubt: true,
				description: error.description,
			});
		}
		return states;
	}

	/** Records what the service accepted and releases what it certainly did not act on. */
	async settle(): Promise<void> {
		// A chunk claimed ahead may still be on its way: its rows are released below if never sent.
		await Promise.allSettled(this.chunkClaims.values());
		const released: string[] = [];
		for (const [itemIndex, identity] of this.identities) {
			if (!this.claimed.has(identity) || this.repeats.has(itemIndex)) continue;
			const failure = this.run.failures.get(itemIndex);
			if (!this.run.started.has(itemIndex) || (failure && !failure.answerLost)) {
				released.push(identity);
			}
		}
		await this.record.settle(this.acceptedSinceClaim.splice(0), released);
		// Read by `npm run bench` (N8N_LOG_LEVEL=debug): the protection's share of a run.
		this.run.context.logger.debug(
			`${PROTECTION_LOG_MESSAGE} ${this.identities.size} items: ${this.record.roundTrips} round trips to n8n's store in ${this.record.storeMs} ms`,
		);
		for (const [itemIndex, first] of this.repeats) {
			this.outputs[itemIndex] = this.repeatOutput(itemIndex, first, this.outputs[first]);
		}
	}

	private alreadySentOutput(itemIndex: number): INodeExecutionData[] {
		const { operation } = this.run;
		const earlier = this.record.earlierResult(this.identities.get(itemIndex)!);
		const field = operation.acceptedIdField!;
		const prepared = this.checked[itemIndex].prepared!;
		const data = earlier?.id === undefined ? {} : { [field]: earlier.id };
		const shaped = 'read' in operation.output ? data : operation.output(data, prepared);
		const json: IDataObject = {
			...(Array.isArray(shaped) ? shaped[0] : shaped),
			alreadySent: true,
			sentAt: earlier?.sentAt ?? null,
		};
		json[field] ??= null;
		if (earlier?.id === undefined) {
			json.note =
				'Sent by an earlier execution and accepted by the service; not sent again. Its ID is kept only by the n8n process that sent it and, best effort, in the node’s static data after production executions.';
		}
		return [{ json, pairedItem: { item: itemIndex } }];
	}

	private repeatOutput(
		itemIndex: number,
		first: number,
		firstOutput: INodeExecutionData[] | undefined,
	): INodeExecutionData[] {
		const json = firstOutput?.[0]?.json;
		if (!json || json.error !== undefined) {
			const error = new NodeOperationError(
				this.run.context.getNode(),
				`Item ${itemIndex} is the same row as item ${first}, which was not accepted: it was not sent`,
				{ itemIndex },
			);
			return this.run.errorOutput(error, itemIndex);
		}
		return [
			{
				json: { ...json, alreadySent: true, sameRowAsItem: first },
				pairedItem: { item: itemIndex },
			},
		];
	}

	private inDoubtError(itemIndexes: number[]): NodeOperationError {
		const one = itemIndexes.length === 1;
		const message = `${one ? `Item ${itemIndexes[0]} was` : `${itemIndexes.length} items (${itemIndexes.join(', ')}) were`} sent by an earlier execution that got no answer: the service may have created ${one ? 'it' : 'them'}`;
		const lines = [
			`${this.run.operation.label}: the earlier request left n8n but no answer was recorded (a timeout, a reset, a crash, or an execution still running). Check at the service (Transaction → Get Status, or the service’s dashboard) whether ${one ? 'this row exists' : 'these rows exist'}.`,
			`If ${one ? 'it does' : 'they do'}, nothing is to be done. If not, send ${one ? 'it' : 'them'} with Duplicate Protection → Send These Rows Again.`,
		];
		if (!this.run.context.continueOnFail()) {
			lines.push(
				'Set Settings → On Error to Continue to send the other rows and get these on the error output.',
			);
		}
		return new NodeOperationError(this.run.context.getNode(), message, {
			itemIndex: itemIndexes[0],
			description: lines.join('\n'),
		});
	}
}

/** The sending half of one run: requests, retries, what was accepted and what failed. */
class OperationRun {
	readonly memory: AcceptedMemory;

	readonly accepted = new Map<number, AcceptedItem>();

	readonly failures = new Map<number, Failure>();

	readonly started = new Set<number>();

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
		readonly context: IExecuteFunctions,
		readonly operation: OperationDefinition,
		readonly settings: RunSettings,
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

	get creates(): boolean {
		return this.operation.acceptedIdField !== undefined;
	}

	/** The ID the service gave an accepted item, from its output. */
	acceptedIdOf(output: INodeExecutionData[] | undefined): string | undefined {
		const field = this.operation.acceptedIdField;
		const id = field && output?.[0]?.json[field];
		return id === undefined || id === null || id === '' ? undefined : String(id);
	}

	private get stopped(): boolean {
		const stopOnFailure = this.failures.size > 0 && !this.continueOnFail;
		return stopOnFailure || this.abortSignal?.aborted === true;
	}

	/** With On Error → Continue: the item n8n routes to the error output. */
	errorOutput(error: NodeError, itemIndex: number, extra: IDataObject = {}): INodeExecutionData[] {
		return [{ json: { error: error.message, ...extra }, pairedItem: { item: itemIndex } }];
	}

	/** Sends the items batch by batch, at most `concurrency` at once, until done or stopped. */
	async sendAll(
		indexes: number[],
		checked: CheckedItem[],
		items: INodeExecutionData[],
		outputs: INodeExecutionData[][],
		gate?: SendGate,
	): Promise<void> {
		const { batchSize, batchInterval, concurrency } = this.settings;
		const batches: number[][] = [];
		for (let start = 0; start < indexes.length; start += batchSize || indexes.length) {
			batches.push(indexes.slice(start, start + (batchSize || indexes.length)));
		}
		for (const [batchNumber, batch] of batches.entries()) {
			if (batchNumber > 0) await sleep(batchInterval);
			let next = 0;
			const worker = async (_: unknown, workerIndex: number) => {
				let firstRequest = true;
				while (next < batch.length && !this.stopped) {
					const itemIndex = batch[next++];
					if (gate && !(await gate.mayBeSent(itemIndex))) continue;
					if (firstRequest) {
						// The first requests start a group per turn of n8n's event loop, not all at once.
						firstRequest = false;
						await afterTurns(Math.floor(workerIndex / REQUESTS_STARTED_PER_TURN));
					}
					if (this.stopped) return;
					this.started.add(itemIndex);
					outputs[itemIndex] = await this.sendItem(
						itemIndex,
						items[itemIndex],
						checked[itemIndex].prepared!,
					);
					gate?.answered(itemIndex);
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
			if (this.acceptedIdOf(output) !== undefined) this.accepted.set(itemIndex, { output });
			return output;
		} catch (caught) {
			const error =
				caught instanceof NodeApiError || caught instanceof NodeOperationError
					? caught
					: new NodeOperationError(node, caught as Error);
			const gatewayAnswer = GATEWAY_STATUSES.includes(Number((caught as NodeApiError).httpCode));
			const answerLost = this.lostAnswers.has(error) || (this.creates && gatewayAnswer);
			this.failures.set(itemIndex, { error: withItemIndex(error, itemIndex), answerLost });
			if (this.creates && answerLost) {
				error.description = [error.description, IN_DOUBT_ADVICE].filter(Boolean).join('\n');
				return this.errorOutput(error, itemIndex, { inDoubt: true, description: IN_DOUBT_ADVICE });
			}
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
		return {
			json: true,
			encoding: undefined,
			headers: { Accept: 'application/json' },
			disableFollowRedirect: true,
		};
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
		let spentMs = 0;
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
			if (kind === 'timeout') spentMs += options.timeout ?? 0;
			if (!transient || attempt >= this.settings.retries || this.abortSignal?.aborted) {
				if (response) return response;
				const mayHaveCreated = this.creates && kind !== undefined && !notSent;
				const attempts = { timeout: options.timeout, attempts: attempt + 1, spentMs };
				const error = networkError(this.node, label, failure, attempts, mayHaveCreated);
				if (kind !== undefined && !notSent) this.lostAnswers.add(error);
				throw error;
			}
			if (response) discardBody(response);
			const pause = retryDelay(this.settings, attempt, response);
			spentMs += pause;
			await sleep(pause);
		}
	}

	/**
	 * The error a run stops with: the first failed item's, with what the service accepted (not
	 * lost, not to be sent again), what may have reached it, and what was never sent.
	 */
	stopError(indexes: number[], protectedFromDuplicates: boolean): NodeError {
		const [firstIndex] = [...this.failures.keys()].sort((a, b) => a - b);
		const { error } = this.failures.get(firstIndex)!;
		const lines = [String(error.description ?? '')];
		if (this.creates && this.accepted.size > 0) {
			const accepted = [...this.accepted.entries()]
				.sort(([a], [b]) => a - b)
				.map(([index, { output }]) => `item ${index}: ${this.acceptedIdOf(output)}`);
			lines.push(
				`Already accepted by the service (not lost, do not send them again): ${accepted.join(', ')}`,
			);
		}
		const lost = [...this.failures.entries()].filter(([, failure]) => failure.answerLost);
		if (this.creates && lost.length > 0) {
			const them = lost.length === 1 ? 'it' : 'them';
			lines.push(
				`No answer for ${itemList(lost.map(([index]) => index))}: the service may have accepted ${them}; check at the service before sending ${them} again.`,
			);
		}
		const notSent = indexes.filter(
			(index) => !this.started.has(index) && !this.failures.has(index),
		);
		if (notSent.length > 0) {
			let how = 'Settings → Retry On Fail sends them, and the failed items.';
			const held = [...this.failures.values()].some((failure) => failure.heldInDoubt);
			if (held) {
				how =
					'With Settings → On Error → Continue, running the same rows again sends them and puts the rows in doubt on the error output.';
			} else if (this.creates && protectedFromDuplicates) {
				how =
					'Running the same rows again sends them: duplicate protection skips the rows the service accepted and holds the rows without an answer as in doubt.';
			} else if (this.creates) {
				how =
					lost.length > 0
						? 'Settings → Retry On Fail would send them, but also the items without an answer: check those at the service first.'
						: 'Settings → Retry On Fail sends them and the failed items, without sending an accepted item again.';
			}
			lines.push(`Not sent (the run stopped at the first failure): ${itemList(notSent)}. ${how}`);
		}
		error.description = lines.filter(Boolean).join('\n');
		return error;
	}
}
