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

import { CREDENTIAL_TYPE } from '../../shared/constants';
import { fillPath } from '../../shared/paths';
import { baseUrlFromCredentials, jsonRequest } from '../../shared/transport';
import {
	assertSuccessfulResponse,
	certainlyNotActedOn,
	type ServiceEnvelope,
} from '../../shared/transport/errors';
import {
	neverReachedService,
	requestWithRetries,
	type RetryingSender,
} from '../../shared/transport/retry';
import { AcceptedMemory } from './acceptedMemory';
import type { AcceptedFacts } from './messages';
import * as say from './messages';
import type { ItemCall, OperationDefinition, PreparedRequest, ServiceRead } from './operation';
import type { RunSettings } from './runSettings';
import { sendInLearnedShape } from './requestShapes';
import { acceptedIdOf, type NodeError, type RunLedger } from './runLedger';
import type { ItemOutcome, SendGate } from './sendGate';

/**
 * Requests started in one turn of n8n's event loop when a run starts: each costs n8n's request
 * helper about 0.5 ms before it leaves, so 200 at once would hold n8n's main thread for 100 ms.
 */
const REQUESTS_STARTED_PER_TURN = 25;

/** Resolves after `turns` turns of the event loop. */
async function afterTurns(turns: number): Promise<void> {
	for (let turn = 0; turn < turns; turn++) await sleep(0);
}

function withItemIndex<T extends NodeError>(error: T, itemIndex: number): T {
	error.context = { ...(error.context ?? {}), itemIndex };
	return error;
}

/**
 * An item's output under On Error → Continue: its error (with the error output, n8n routes an item
 * whose JSON holds only `error` there, so the description goes into it).
 */
export function errorOutputOf(
	node: INode,
	error: NodeError,
	itemIndex: number,
	extra: IDataObject = {},
): INodeExecutionData[] {
	const json =
		node.onError === 'continueErrorOutput'
			? { error: [error.message, extra.description].filter(Boolean).join('\n') }
			: { error: error.message, ...extra };
	return [{ json, pairedItem: { item: itemIndex } }];
}

/**
 * The sending half of one run: requests, retries, what was accepted and what failed, written in the
 * run's ledger. A gate (duplicate protection), when there is one, decides before each row leaves.
 */
export class Sender {
	readonly memory: AcceptedMemory;

	private readonly baseURL: string;

	/** Who sends the run's requests, for the retry loop (transport/retry.ts). */
	private readonly retrying: RetryingSender;

	private readonly abortSignal?: AbortSignal;

	/** Read once per run: n8n's getNode() deep-copies the node and its parameters at every call. */
	private readonly node: INode;

	readonly creates: boolean;

	/** Creates something or is billed per call: never sent again once it may have reached the service. */
	private readonly sentOnce: boolean;

	/**
	 * Guarded by duplicate protection or billed: n8n's Retry On Fail never sends again an item whose
	 * answer was lost (File → Upload and Webhook Config → Update try it again: a second file, the
	 * same change again).
	 */
	private readonly lostKeptForTries: boolean;

	/** Where the request shape the service takes is learned: one credential's service, one operation. */
	private readonly shapeKey: string;

	/** The options every request of the run shares, beside its own method, URL, body and query. */
	private readonly runRequestOptions: Partial<IHttpRequestOptions>;

	constructor(
		readonly context: IExecuteFunctions,
		readonly operation: OperationDefinition,
		readonly settings: RunSettings,
		private readonly credentials: ICredentialDataDecryptedObject,
		readonly ledger: RunLedger,
		private readonly gate?: SendGate,
	) {
		this.baseURL = baseUrlFromCredentials(credentials);
		this.node = context.getNode();
		this.creates = operation.acceptedIdField !== undefined;
		this.sentOnce = this.creates || operation.billedPerCall === true;
		this.lostKeptForTries =
			operation.duplicateProtection !== undefined || operation.billedPerCall === true;
		this.memory = AcceptedMemory.of(context, this.node, this.sentOnce);
		const { id, name } = this.node.credentials?.[CREDENTIAL_TYPE] ?? { id: null, name: '' };
		const credentialsDecrypted: ICredentialsDecrypted = {
			id: id ?? '',
			name,
			type: CREDENTIAL_TYPE,
			data: credentials,
		};
		this.shapeKey = JSON.stringify([id ?? name, this.baseURL, operation.method, operation.path]);
		this.abortSignal = context.getExecutionCancelSignal?.();
		this.retrying = {
			context,
			node: this.node,
			credentials: credentialsDecrypted,
			policy: settings,
			sentOnce: this.sentOnce,
			abortSignal: this.abortSignal,
		};
		this.runRequestOptions = {
			...('read' in operation.output ? operation.output.requestOptions : {}),
			...this.transportOptions(),
		};
	}

	/** The ID the service gave an accepted item, from its output. */
	acceptedIdOf(output: INodeExecutionData[] | undefined): string | undefined {
		return acceptedIdOf(this.operation, output);
	}

	/**
	 * With On Error → Continue: the item n8n routes to the error output. n8n (1.x and 2.x) routes an
	 * item there only when its JSON is its error alone: on that output the advice follows the message
	 * in `error`, and the other fields (inDoubt) stay on the regular output's items.
	 */
	errorOutput(error: NodeError, itemIndex: number, extra: IDataObject = {}): INodeExecutionData[] {
		return errorOutputOf(this.node, error, itemIndex, extra);
	}

	/** Sends the items batch by batch, at most `concurrency` at once, until done or stopped. */
	async sendAll(indexes: number[], items: INodeExecutionData[]): Promise<void> {
		const { batchSize, batchInterval, concurrency } = this.settings;
		const { gate, ledger } = this;
		const batches: number[][] = [];
		for (let start = 0; start < indexes.length; start += batchSize || indexes.length) {
			batches.push(indexes.slice(start, start + (batchSize || indexes.length)));
		}
		for (const [batchNumber, batch] of batches.entries()) {
			if (batchNumber > 0) await sleep(batchInterval);
			let next = 0;
			const worker = async (_: unknown, workerIndex: number) => {
				let firstRequest = true;
				while (next < batch.length && !ledger.stopped(gate)) {
					const itemIndex = batch[next++];
					if (gate && !(await this.passes(gate, itemIndex))) continue;
					if (firstRequest) {
						// The first requests start a group per turn of n8n's event loop, not all at once.
						firstRequest = false;
						await afterTurns(Math.floor(workerIndex / REQUESTS_STARTED_PER_TURN));
					}
					if (ledger.stopped(gate)) return;
					ledger.started.add(itemIndex);
					const output = await this.sendItem(
						itemIndex,
						items[itemIndex],
						ledger.checked[itemIndex].prepared!,
					);
					ledger.outputs[itemIndex] = output;
					gate?.answered(itemIndex, this.outcomeOf(itemIndex, output));
				}
			};
			await Promise.all(Array.from({ length: Math.min(concurrency, batch.length) }, worker));
			if (ledger.stopped(gate)) return;
		}
	}

	/** The gate's decision on a row, acted on: whether it is sent (else its output is set here). */
	private async passes(gate: SendGate, itemIndex: number): Promise<boolean> {
		const decision = await gate.decide(itemIndex);
		if (decision.kind === 'send') return true;
		if (decision.kind === 'output') this.ledger.outputs[itemIndex] = decision.output;
		if (decision.kind === 'inDoubt') {
			const { error } = decision;
			this.ledger.outputs[itemIndex] = this.errorOutput(error, itemIndex, {
				inDoubt: true,
				description: error.description,
			});
		}
		return false;
	}

	/** What became of a row sent, from what this run wrote of it, for the gate. */
	private outcomeOf(itemIndex: number, output: INodeExecutionData[]): ItemOutcome {
		const failure = this.ledger.failures.get(itemIndex);
		if (failure) return { kind: failure.answerLost ? 'answerLost' : 'refused' };
		if (output[0]?.json.error !== undefined) return { kind: 'answeredWithError' };
		return { kind: 'accepted', id: this.acceptedIdOf(output) };
	}

	/** The rows the gate held in doubt with On Error → Stop, written as the run's failures. */
	writeRowsHeldInDoubt(): void {
		for (const [itemIndex, error] of this.gate?.heldUnderStop ?? []) {
			this.ledger.holdInDoubt(itemIndex, error);
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
			node,
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
		let requestLeft = false;
		let response: IN8nHttpFullResponse | undefined;
		try {
			if (operation.beforeSend) await operation.beforeSend.call(context, call);
			requestLeft = true;
			const follow = 'read' in operation.output && operation.output.followRedirects === true;
			const send = async (body?: IDataObject) =>
				await this.request(operation.label, body ? { ...request, body } : request, follow);
			const answer = operation.otherShape
				? await sendInLearnedShape(this.shapeKey, operation.otherShape, prepared, send)
				: { response: await send() };
			response = answer.response;
			let output: INodeExecutionData[];
			if ('read' in operation.output) {
				output = await operation.output.read.call(context, response, call);
			} else {
				const { explainRefusal } = operation;
				const { bothRefused } = answer;
				const envelope = assertSuccessfulResponse(
					node,
					operation.label,
					response,
					bothRefused
						? (problems) => say.bothShapesRefused(problems, bothRefused, itemIndex)
						: explainRefusal && ((problems) => explainRefusal(problems, prepared, itemIndex)),
				);
				const shaped = operation.output(envelope.data ?? {}, prepared);
				output = (Array.isArray(shaped) ? shaped : [shaped]).map((json) => ({
					json,
					pairedItem: { item: itemIndex },
				}));
			}
			// A billed answer is kept like an accepted create: n8n's next try reuses it, never calls again.
			if (this.acceptedIdOf(output) !== undefined || operation.billedPerCall) {
				this.ledger.accepted.set(itemIndex, { output });
			}
			return output;
		} catch (caught) {
			const error =
				caught instanceof NodeApiError || caught instanceof NodeOperationError
					? caught
					: new NodeOperationError(node, caught as Error);
			const clearlyNotActedOn =
				!requestLeft ||
				neverReachedService(error) ||
				(response !== undefined &&
					(certainlyNotActedOn(response) || operation.refused?.(response) === true));
			const answerLost = this.sentOnce && !clearlyNotActedOn;
			this.ledger.failures.set(itemIndex, { error: withItemIndex(error, itemIndex), answerLost });
			if (answerLost) {
				const advice = this.lostAnswerAdvice(itemIndex);
				error.description = [error.description, advice].filter(Boolean).join('\n');
				return this.errorOutput(error, itemIndex, { inDoubt: true, description: advice });
			}
			return this.errorOutput(error, itemIndex);
		}
	}

	/**
	 * A read about a row, not one of the run's items (Record Rows as Sent reads the ID given): the
	 * run's settings and credential, with the retries of a read, and the service's envelope.
	 */
	async read(label: string, request: ServiceRead): Promise<ServiceEnvelope> {
		const options = {
			...jsonRequest(this.baseURL, request, this.settings.timeout),
			...this.transportOptions(),
		};
		const response = await requestWithRetries(
			{ ...this.retrying, sentOnce: false },
			label,
			options,
		);
		return assertSuccessfulResponse(this.node, label, response);
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

	/** One request with the node's own retries of transient failures (transport/retry.ts). */
	private async request(
		label: string,
		options: IHttpRequestOptions,
		follow = false,
	): Promise<IN8nHttpFullResponse> {
		return await requestWithRetries(this.retrying, label, options, follow);
	}

	/** The advice on an item whose answer was lost: duplicate protection's, when it holds the row. */
	private lostAnswerAdvice(itemIndex: number): string {
		return this.gate?.lostAnswerAdvice(itemIndex) ?? say.LOST_ANSWER_ADVICE;
	}

	/**
	 * An item an earlier try of this node's run settled (n8n's Retry On Fail): its accepted output
	 * again, or, for a guarded create or a billed call that got no clear answer then, a failure with
	 * the lost-answer advice, not sent again. False when the item is to be sent.
	 */
	fromEarlierTry(itemIndex: number): boolean {
		const { ledger, operation } = this;
		const remembered = this.memory.outputOf(itemIndex);
		if (remembered) {
			ledger.outputs[itemIndex] = remembered;
			ledger.accepted.set(itemIndex, { output: remembered });
			return true;
		}
		if (!this.lostKeptForTries || !this.memory.lostBefore(itemIndex)) return false;
		const { message, description } = operation.billedPerCall
			? say.lostInEarlierTry(operation.label, itemIndex)
			: say.sentWithoutAnswerInEarlierTry(
					operation.label,
					itemIndex,
					this.lostAnswerAdvice(itemIndex),
				);
		const error = new NodeOperationError(this.node, message, { itemIndex, description });
		ledger.failures.set(itemIndex, { error, answerLost: true });
		ledger.outputs[itemIndex] = this.errorOutput(error, itemIndex, { inDoubt: true, description });
		return true;
	}

	/** After a try n8n may run again: what its next try must not send (or call) again. */
	keepForNextTry(): void {
		const lost = this.lostKeptForTries
			? [...this.ledger.failures].filter(([, { answerLost }]) => answerLost).map(([index]) => index)
			: [];
		this.memory.keep(this.ledger.accepted, lost, this.acceptedFacts());
	}

	/**
	 * What the service accepted in this run, as a stopped run's error names it: the created IDs and
	 * the billed answers (what a flow branches on), per item.
	 */
	private acceptedFacts(): AcceptedFacts {
		const accepted = [...this.ledger.accepted.entries()].sort(([a], [b]) => a - b);
		const { summary } = this.operation;
		return {
			ids: this.creates
				? accepted.map(([index, { output }]): [number, unknown] => [
						index,
						this.acceptedIdOf(output),
					])
				: [],
			answers: summary
				? accepted.map(([index, { output }]): [number, IDataObject] => [
						index,
						summary(output[0]?.json ?? {}),
					])
				: [],
		};
	}

	/**
	 * The error a run stops with: the first failed item's, with what the service accepted (not
	 * lost, not to be sent again), what may have reached it, and what was never sent (`notSent`).
	 */
	stopError(notSent: number[]): NodeError {
		const [firstIndex] = [...this.ledger.failures.keys()].sort((a, b) => a - b);
		const { error } = this.ledger.failures.get(firstIndex)!;
		const lines = [String(error.description ?? ''), ...say.acceptedLines(this.acceptedFacts())];
		const lost = [...this.ledger.failures.entries()].filter(([, failure]) => failure.answerLost);
		if (lost.length > 0) lines.push(say.noClearAnswer(lost.map(([index]) => index)));
		if (notSent.length > 0) {
			lines.push(say.notSentAfterStop(notSent, this.howToSendTheRest(lost.length > 0)));
		}
		error.description = lines.filter(Boolean).join('\n');
		return error;
	}

	/** How the rows a stopped run did not send get sent, true for this run's rows. */
	private howToSendTheRest(answersLost: boolean): string {
		return say.howToSendTheRest({
			creates: this.creates,
			billedPerCall: this.operation.billedPerCall === true,
			skipsRowsSent: this.gate?.skipsRowsSent === true,
			answersLost,
			heldInDoubt: [...this.ledger.failures.values()].some((failure) => failure.heldInDoubt),
			accepted: this.ledger.accepted.size > 0,
			lostKeptForTries: this.lostKeptForTries,
		});
	}
}
