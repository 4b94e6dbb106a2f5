import nock from 'nock';
import { sleep } from 'n8n-workflow';

import * as transport from '../../nodes/shared/transport';
import { TEST_BASE_URL } from '../harness/credentials-helper';
import { success } from '../harness/service-mock';
import type { Prng } from './prng';
import { PANS } from './steps';

/**
 * What the simulated service does with one request:
 * - accept: creates the candidate and answers with its transaction ID;
 * - refuse: answers `code: -1` (a clear refusal), creates nothing;
 * - lost: creates the candidate, then the connection resets before the answer reaches n8n;
 * - fail5xx: answers 502 before acting;
 * - slowActed / slowNotActed: n8n's request times out, after or before the service acted;
 * - stopped: a person stops the execution while the service acts (its request is cancelled).
 */
export const OUTCOMES = [
	'accept',
	'refuse',
	'lost',
	'fail5xx',
	'slowActed',
	'slowNotActed',
	'stopped',
] as const;
export type Outcome = (typeof OUTCOMES)[number];

const OUTCOME_WEIGHTS: Record<Outcome, number> = {
	accept: 12,
	refuse: 2,
	lost: 2,
	fail5xx: 2,
	slowActed: 1,
	slowNotActed: 1,
	stopped: 1,
};

/**
 * The longest delay (ms) of a request's answer: each answer waits 0 to this many ms, drawn from the
 * step's seed, so that the order in which concurrent requests are answered comes from the seed.
 */
export const LONGEST_ANSWER_DELAY_MS = 4;

/** The header the harness adds to each request so that the service reads its decided outcome. */
const REQUEST_HEADER = 'x-history-request';
const CREATE_PATH = /^\/verification\/api\/1\.0\/ekyc-forms\/([^/]+)\/diy-candidate$/;
const SUBMIT_PATH = /^\/verification\/api\/1\.0\/bgv\/diy$/;
/** The form name `rowOf` is given for a Verification → Submit request. */
export const SUBMIT_FORM = 'submit';
const PAN_PATH = /^\/verification\/api\/1\.0\/verifications\/pan$/;
/** Get Status, which Record Rows as Sent reads to confirm a row found under a 0.4.x key is on its form. */
const STATUS_PATH = /^\/verification\/api\/1\.0\/transactions\/info\?/;

/** The outcomes of a Verify PAN call the service acted on, so billed (a refusal, a 5xx before acting and a timeout before acting are not). */
export const BILLED_OUTCOMES: readonly Outcome[] = ['accept', 'lost', 'slowActed', 'stopped'];

/** One Verify PAN call the service received. */
export interface BilledCall {
	executionId: string;
	account: string;
	/** The PAN's index in PANS. */
	pan: number;
	outcome: Outcome;
	step: number;
}

export interface Creation {
	/** The n8n execution whose request created it. */
	executionId: string;
	/** The account (the credential's API key). */
	account: string;
	/** What the service sees as one person on one form: the form and every field sent. */
	rowKey: string;
	transactionId: string;
	step: number;
	/** Whether the answer with the transaction ID reached n8n. */
	delivered: boolean;
}

export interface ServiceRequest {
	/** The n8n execution that sent it. */
	executionId: string;
	account: string;
	rowKey: string;
	outcome: Outcome;
	step: number;
}

/** The service's own truth: every candidate created, and every request it received. */
export class SimulatedService {
	readonly creations: Creation[] = [];

	readonly requests: ServiceRequest[] = [];

	/** Every Verify PAN call, per account and PAN (billed: BILLED_OUTCOMES). */
	readonly panCalls: BilledCall[] = [];

	/** The forms of candidates created outside n8n (the IDs a person gives Record Rows as Sent). */
	readonly createdOutside = new Map<string, string>();

	/** Requests to anything but Profile → Create, Verify PAN, Submit and Get Status (none is expected). */
	readonly unexpected: string[] = [];

	private readonly outcomes = new Map<string, Outcome>();

	private step = 0;

	private prng: Prng | undefined;

	private delays: Prng | undefined;

	private transactions = 0;

	/** `rowOf` names the row a request is for (its form and the person it carries). */
	constructor(private readonly rowOf: (formId: string, body: unknown) => string) {}

	/**
	 * The service's behaviour during step `step` comes from `prng`, its answers' delays from `delays`
	 * (a prng of their own, so that a history recorded before the delays keeps its outcomes).
	 */
	beginStep(step: number, prng: Prng, delays?: Prng): void {
		this.step = step;
		this.prng = prng;
		this.delays = delays;
	}

	/** Requests sent and not answered yet. */
	inFlight = 0;

	/** The executions a person stopped, and the requests they sent after that (none is expected). */
	readonly stopped = new Set<string>();

	readonly sentAfterStop: string[] = [];

	/**
	 * Requests the node handed to the transport after its execution was stopped: each is a
	 * violation only if it reaches the service (n8n's cancel signal may end it before it leaves).
	 */
	private readonly handedOverAfterStop = new Set<string>();

	/** A request reached the service: one handed over after its execution's stop breaks the test. */
	private received(headers: Record<string, string | undefined>, uri: string): void {
		const id = String(headers[REQUEST_HEADER]);
		if (this.handedOverAfterStop.has(id))
			this.sentAfterStop.push(`${this.executionOf.get(id) ?? '?'}: ${uri}`);
	}

	private readonly executionOf = new Map<string, string>();

	/** Stops the execution running now; undefined while two run at once (it stops neither). */
	stopExecution: (() => void) | undefined;

	private decide(): Outcome {
		const outcome = this.prng ? this.prng.weighted(OUTCOME_WEIGHTS) : 'accept';
		return outcome === 'stopped' && !this.stopExecution ? 'accept' : outcome;
	}

	private answerDelay(): number {
		return this.delays ? this.delays.int(0, LONGEST_ANSWER_DELAY_MS) : 0;
	}

	/** The transaction ID the account has for a row, if the service created it. */
	transactionOf(account: string, rowKey: string): string | undefined {
		return this.creations.find(
			(creation) => creation.account === account && creation.rowKey === rowKey,
		)?.transactionId;
	}

	/** What the service does with a request to create a candidate: its truth, then its answer. */
	private answer(
		headers: Record<string, string | undefined>,
		uri: string,
		body: unknown,
	): [number, object] {
		this.received(headers, uri);
		const outcome = this.outcomes.get(String(headers[REQUEST_HEADER])) ?? 'accept';
		const account = String(headers['x-api-key']);
		const path = uri.split('?')[0];
		// A submission's ID is its transaction's: the service records which checks it was given.
		const submits = SUBMIT_PATH.test(path);
		const formId = submits ? SUBMIT_FORM : (CREATE_PATH.exec(path)?.[1] ?? '?');
		const rowKey = this.rowOf(formId, body);
		const executionId = this.executionOf.get(String(headers[REQUEST_HEADER])) ?? '?';
		this.requests.push({ executionId, account, rowKey, outcome, step: this.step });
		if (outcome === 'refuse') return [200, { code: -1, message: '"name" is invalid' }];
		if (outcome === 'fail5xx') return [502, { message: 'Bad gateway' }];
		// Its answer never arrives: n8n's timeout ends the request (the transport spy, below).
		if (outcome === 'slowNotActed') return [200, {}];
		const transactionId = submits
			? String((body as { transactionId?: unknown }).transactionId)
			: `TXN-${++this.transactions}`;
		this.creations.push({
			executionId,
			account,
			rowKey,
			transactionId,
			step: this.step,
			delivered: outcome === 'accept',
		});
		return [200, submits ? success() : success({ transactionId })];
	}

	/**
	 * What the service does with a Verify PAN call: the PAN's result, in the newer flat answer for
	 * PANs of even index and the older nested one (`data.data`, `full_name`) for the others.
	 */
	private answerPan(headers: Record<string, string | undefined>, body: unknown): [number, object] {
		this.received(headers, 'verifications/pan');
		const outcome = this.outcomes.get(String(headers[REQUEST_HEADER])) ?? 'accept';
		const sent = String((body as { pan?: unknown }).pan);
		const pan = PANS.findIndex((candidate) => candidate.pan === sent);
		this.panCalls.push({
			executionId: this.executionOf.get(String(headers[REQUEST_HEADER])) ?? '?',
			account: String(headers['x-api-key']),
			pan,
			outcome,
			step: this.step,
		});
		if (outcome === 'refuse') return [200, { code: -1, message: 'Invalid PAN', data: null }];
		if (outcome === 'fail5xx') return [502, { message: 'Bad gateway' }];
		if (outcome === 'slowNotActed') return [200, {}];
		const { fullName } = PANS[pan] ?? { fullName: '?' };
		return pan % 2 === 0
			? [200, success({ fullName, pan: sent, status: 'VALID' })]
			: [
					200,
					success({
						code: 200,
						data: { pan: sent, full_name: fullName, status: 'VALID', category: 'Individual' },
						transaction_id: `KYC-${this.panCalls.length}`,
					}),
				];
	}

	/**
	 * Installs the service (nock) and the per-request outcome (a spy on the transport, and on each of
	 * `otherTransports`: the copies other processes loaded); returns the undo.
	 */
	install(otherTransports: Array<typeof transport> = []): () => void {
		const scope = nock(TEST_BASE_URL).persist();
		const answer = this.answer.bind(this);
		for (const path of [CREATE_PATH, SUBMIT_PATH])
			scope.post(path).reply(function (uri, body) {
				return answer(this.req.headers as Record<string, string | undefined>, uri, body);
			});
		const answerPan = this.answerPan.bind(this);
		scope.post(PAN_PATH).reply(function (_uri, body) {
			return answerPan(this.req.headers as Record<string, string | undefined>, body);
		});
		// Get Status: the transaction's form, from the service's truth.
		scope.get(STATUS_PATH).reply((uri) => {
			const txnId = new URL(uri, TEST_BASE_URL).searchParams.get('txnId') ?? '';
			const created = this.creations.find(({ transactionId }) => transactionId === txnId);
			const formId = created ? created.rowKey.split('|')[0] : this.createdOutside.get(txnId);
			return formId
				? [200, success({ transactionId: txnId, formId })]
				: [200, { code: -1, message: 'Transaction not found' }];
		});
		scope.get(/.*/).reply((uri) => {
			this.unexpected.push(`GET ${uri}`);
			return [404, {}];
		});
		const send = transport.sendWithCredential;
		const decide = () => this.decide();
		const answerDelay = () => this.answerDelay();
		const stop = () => this.stopExecution?.();
		const { stopped, handedOverAfterStop, executionOf } = this;
		const flight = (change: number) => (this.inFlight += change);
		const outcomes = this.outcomes;
		let requestCount = 0;
		const spy = jest.spyOn(transport, 'sendWithCredential').mockImplementation(async function (
			this: unknown,
			options,
			credentials,
		) {
			const id = String(++requestCount);
			const outcome = decide();
			outcomes.set(id, outcome);
			const executionId = (this as { getExecutionId(): string }).getExecutionId();
			executionOf.set(id, executionId);
			if (stopped.has(executionId)) handedOverAfterStop.add(id);
			const delayMs = answerDelay();
			flight(1);
			const answered = await send
				.call(
					this as never,
					{ ...options, headers: { ...options.headers, [REQUEST_HEADER]: id } },
					credentials,
				)
				// The service has acted; its answer (or its failure) reaches n8n after the seed's delay.
				.finally(async () => {
					if (delayMs > 0) await sleep(delayMs);
					flight(-1);
				});
			if (outcome === 'stopped') {
				stopped.add(executionId);
				stop();
				throw Object.assign(new Error('canceled'), { code: 'ERR_CANCELED', name: 'CanceledError' });
			}
			if (outcome === 'lost')
				throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
			if (outcome === 'slowActed' || outcome === 'slowNotActed')
				throw Object.assign(new Error('timeout of 60000ms exceeded'), { code: 'ETIMEDOUT' });
			return answered;
		});
		// Another process's copy sends through this one (the transport keeps no state), so that the
		// service decides its requests' outcomes too.
		const others = otherTransports.map((other) =>
			jest.spyOn(other, 'sendWithCredential').mockImplementation(async function (
				this: unknown,
				options,
				credentials,
			) {
				return await transport.sendWithCredential.call(this as never, options, credentials);
			}),
		);
		return () => {
			for (const other of others) other.mockRestore();
			spy.mockRestore();
			scope.persist(false);
			nock.cleanAll();
		};
	}
}
