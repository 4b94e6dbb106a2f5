// eslint-disable-next-line @n8n/community-nodes/no-restricted-imports -- test code run by jest, never published
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import nock from 'nock';
import type { INodeParameters } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import * as transport from '../../nodes/shared/transport';
import {
	acceptedBeforeStop,
	howToSendTheRest,
	LOST_ANSWER_ADVICE,
	noClearAnswer,
	notSentAfterStop,
	sentWithoutAnswerInEarlierTry,
	type RestFacts,
} from '../../nodes/CandidateVerification/engine/messages';
import { operation as profileCreateOperation } from '../../nodes/CandidateVerification/actions/profile/create.operation';
import { PROFILE_LOST_ANSWER_ADVICE } from '../harness/advice';
import { TEST_CREDENTIALS } from '../harness/credentials-helper';
import { outputJson, runActionNode } from '../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../harness/service-mock';

/**
 * The action node's own engine (issue 17): Request Options read with their expressions resolved,
 * bounded concurrency, a stop at the first failure, n8n's Retry On Fail never sending an accepted
 * item again, and the node's own retries of transient failures.
 */
const FORM_ID = 'form-1';
const CANDIDATE_PATH = `/verification/api/1.0/ekyc-forms/${FORM_ID}/diy-candidate`;
const PURPOSES = '/verification/api/1.0/purposes';

const createProfile: INodeParameters = {
	resource: 'profile',
	operation: 'create',
	formId: FORM_ID,
	name: '={{ $json.name }}',
	gender: '={{ $json.gender }}',
};

const rows = (count: number) =>
	Array.from({ length: count }, (_, index) => ({ name: `Candidate ${index}`, gender: 'Female' }));

const nameOf = (body: unknown) => String((body as { name: string }).name);
const numberOf = (body: unknown) => nameOf(body).split(' ')[1];

const HTML_502 = '<html><body><h1>502 Bad Gateway</h1></body></html>';

/** Profile → Create with Skip Rows Sent Before (the default), nothing lost, in doubt or accepted. */
const PROFILE_CREATE_SKIPPING: RestFacts = {
	creates: true,
	billedPerCall: false,
	skipsRowsSent: true,
	answersLost: false,
	heldInDoubt: false,
	accepted: false,
	lostKeptForTries: true,
};

describe('Request Options → Batching with expressions', () => {
	enableMockedNetwork();

	it('Items per Batch ={{ 1 }} and Batch Interval ={{ 50 }}: every item is sent, one per batch, and the run ends', async () => {
		const { scope, requests } = mockService();
		const sentAt: number[] = [];
		scope
			.post(CANDIDATE_PATH)
			.times(3)
			.reply(200, (_uri, body) => {
				sentAt.push(Date.now());
				return success({ transactionId: `TXN-${numberOf(body)}` });
			});

		const result = await runActionNode({
			items: rows(3),
			parameters: {
				...createProfile,
				requestOptions: {
					batching: { batch: { batchSize: '={{ 1 }}', batchInterval: '={{ 50 }}' } },
				},
			},
		});

		expect(result.error).toBeUndefined();
		expect(requests.map((request) => nameOf(request.body))).toEqual([
			'Candidate 0',
			'Candidate 1',
			'Candidate 2',
		]);
		expect(outputJson(result).map((json) => json.transactionId)).toEqual([
			'TXN-0',
			'TXN-1',
			'TXN-2',
		]);
		// The pause between batches is kept (a lower bound: the machine may only be slower).
		expect(sentAt[1] - sentAt[0]).toBeGreaterThanOrEqual(45);
		expect(sentAt[2] - sentAt[1]).toBeGreaterThanOrEqual(45);
	});
});

/** The service answers Candidate 1's first request with a gateway's HTML 502, then accepts every candidate. */
function serviceAnswering502Once(times: number) {
	const { scope, requests } = mockService();
	let failedOnce = false;
	scope
		.post(CANDIDATE_PATH)
		.times(times)
		.reply((_uri, body) => {
			if (numberOf(body) === '1' && !failedOnce) {
				failedOnce = true;
				return [502, HTML_502, { 'content-type': 'text/html' }];
			}
			return [200, success({ transactionId: `TXN-${numberOf(body)}` })];
		});
	return requests;
}

describe("n8n's Retry On Fail never sends an accepted item again", () => {
	enableMockedNetwork();

	it('3 candidates, the service answers one with an HTML 502 once (it may have acted): no candidate is sent twice, the next try fails that one with the lost-answer advice', async () => {
		const requests = serviceAnswering502Once(3);

		const result = await runActionNode({
			items: rows(3),
			parameters: createProfile,
			retryOnFail: { maxTries: 2 },
		});

		expect(requests.map((request) => nameOf(request.body)).sort()).toEqual([
			'Candidate 0',
			'Candidate 1',
			'Candidate 2',
		]);
		const { message } = sentWithoutAnswerInEarlierTry(
			profileCreateOperation.label,
			1,
			PROFILE_LOST_ANSWER_ADVICE,
		);
		expect(result.error?.message).toBe(message);
	});

	it('with Duplicate Protection Off, the next try does not send the 502 candidate again either (issue 50)', async () => {
		const requests = serviceAnswering502Once(4);

		const result = await runActionNode({
			items: rows(3),
			parameters: { ...createProfile, duplicateProtection: 'off' },
			retryOnFail: { maxTries: 2 },
		});

		expect(requests.map((request) => nameOf(request.body)).sort()).toEqual([
			'Candidate 0',
			'Candidate 1',
			'Candidate 2',
		]);
		const { message } = sentWithoutAnswerInEarlierTry(
			profileCreateOperation.label,
			1,
			LOST_ANSWER_ADVICE,
		);
		expect(result.error?.message).toBe(message);
	});

	it('a try that stopped at the first failure: the next try sends the failed and the unsent items only', async () => {
		const { scope, requests } = mockService();
		let rejectedOnce = false;
		scope
			.post(CANDIDATE_PATH)
			.times(5)
			.reply((_uri, body) => {
				if (numberOf(body) === '1' && !rejectedOnce) {
					rejectedOnce = true;
					return [503, { code: -1, message: 'try again later' }];
				}
				return [200, success({ transactionId: `TXN-${numberOf(body)}` })];
			});

		const result = await runActionNode({
			items: rows(4),
			parameters: {
				...createProfile,
				requestOptions: { maxConcurrentRequests: 1, transientRetries: 0 },
			},
			retryOnFail: { maxTries: 2 },
		});

		expect(result.error).toBeUndefined();
		expect(requests.map((request) => nameOf(request.body))).toEqual([
			'Candidate 0',
			'Candidate 1',
			'Candidate 1',
			'Candidate 2',
			'Candidate 3',
		]);
		expect(outputJson(result).map((json) => json.transactionId)).toEqual([
			'TXN-0',
			'TXN-1',
			'TXN-2',
			'TXN-3',
		]);
	});
});

describe('A stop at the first failure', () => {
	enableMockedNetwork();

	it('sends no further item and names what was accepted and what was not sent', async () => {
		const { scope, requests } = mockService();
		scope
			.post(CANDIDATE_PATH)
			.times(5)
			.reply(200, (_uri, body) =>
				numberOf(body) === '1'
					? { code: -1, message: '"mobile" is already registered' }
					: success({ transactionId: `TXN-${numberOf(body)}` }),
			);

		const result = await runActionNode({
			items: rows(5),
			parameters: { ...createProfile, requestOptions: { maxConcurrentRequests: 1 } },
		});

		expect(requests.map((request) => nameOf(request.body))).toEqual(['Candidate 0', 'Candidate 1']);
		expect(result.error?.message).toBe(
			'Add a candidate to a form was rejected by the Candidate Verification Service: "mobile" is already registered',
		);
		expect(result.error?.description).toBe(
			[
				'- "mobile" is already registered',
				'(HTTP 200, code -1)',
				acceptedBeforeStop([[0, 'TXN-0']]),
				notSentAfterStop([2, 3, 4], howToSendTheRest(PROFILE_CREATE_SKIPPING)),
			].join('\n'),
		);
	});
});

describe('The stop error’s advice for the rows not sent, true for the Duplicate Protection mode', () => {
	enableMockedNetwork();

	/** How the rest of a Profile → Create run stopped after item 0 was accepted get sent, `facts` changed. */
	const restOf = (facts: Partial<RestFacts>) =>
		howToSendTheRest({ ...PROFILE_CREATE_SKIPPING, accepted: true, ...facts });

	/** Candidate 1 is refused (or gets a gateway’s 502), the others accepted; one request at a time. */
	async function stopAtItemOne(duplicateProtection: string, answerOfItemOne: 'refused' | 'lost') {
		const { scope } = mockService();
		scope
			.post(CANDIDATE_PATH)
			.times(2)
			.reply((_uri, body) =>
				numberOf(body) !== '1'
					? [200, success({ transactionId: `TXN-${numberOf(body)}` })]
					: answerOfItemOne === 'refused'
						? [200, { code: -1, message: '"mobile" is already registered' }]
						: [502, HTML_502, { 'content-type': 'text/html' }],
			);
		const result = await runActionNode({
			items: rows(4),
			parameters: {
				...createProfile,
				duplicateProtection,
				requestOptions: { maxConcurrentRequests: 1 },
			},
		});
		return String(result.error?.description).split('\n');
	}

	it.each([['off'], ['sendAgain']])(
		'Duplicate Protection %s: Retry On Fail keeps the accepted items within this execution only; a new execution sends them again',
		async (mode) => {
			const lines = await stopAtItemOne(mode, 'refused');

			expect(lines.slice(-2)).toEqual([
				acceptedBeforeStop([[0, 'TXN-0']]),
				notSentAfterStop([2, 3], restOf({ skipsRowsSent: false })),
			]);
		},
	);

	it('Duplicate Protection off, an item without an answer: no advice that would send it again unchecked', async () => {
		const lines = await stopAtItemOne('off', 'lost');

		expect(lines.slice(-3)).toEqual([
			acceptedBeforeStop([[0, 'TXN-0']]),
			noClearAnswer([1]),
			notSentAfterStop([2, 3], restOf({ skipsRowsSent: false, answersLost: true })),
		]);
	});

	it('Skip Rows Sent Before (the default): running the same rows again is safe, as before', async () => {
		const lines = await stopAtItemOne('skipSent', 'refused');

		expect(lines.slice(-1)).toEqual([notSentAfterStop([2, 3], restOf({}))]);
	});
});

describe("The node's own retries of transient failures", () => {
	enableMockedNetwork();

	it('a read is tried again after a 503 and a 504', async () => {
		const { scope, requests } = mockService();
		scope.get(PURPOSES).reply(503, HTML_502);
		scope.get(PURPOSES).reply(504, HTML_502);
		scope.get(PURPOSES).reply(200, success({ total: 1, list: [{ _id: 'p-1', name: 'Hiring' }] }));

		const result = await runActionNode({
			parameters: { resource: 'purpose', operation: 'getAll', requestOptions: { retryWait: 1 } },
		});

		expect(result.error).toBeUndefined();
		expect(requests).toHaveLength(3);
		expect(outputJson(result)).toEqual([{ _id: 'p-1', name: 'Hiring' }]);
	});

	it('creating a candidate is tried again after a 429 (the service did not act), following Retry-After', async () => {
		const { scope, requests } = mockService();
		scope
			.post(CANDIDATE_PATH)
			.reply(429, { code: -1, message: 'slow down' }, { 'retry-after': '0' });
		scope.post(CANDIDATE_PATH).reply(200, success({ transactionId: 'TXN-0' }));

		const result = await runActionNode({ items: rows(1), parameters: createProfile });

		expect(result.error).toBeUndefined();
		expect(requests).toHaveLength(2);
		expect(outputJson(result)).toEqual([
			{ transactionId: 'TXN-0', formId: FORM_ID, name: 'Candidate 0' },
		]);
	});

	it('creating a candidate is not tried again after a 502 (the service may have acted): the error says so', async () => {
		const { scope, requests } = mockService();
		scope.post(CANDIDATE_PATH).times(3).reply(502, HTML_502, { 'content-type': 'text/html' });

		const result = await runActionNode({
			items: rows(1),
			parameters: { ...createProfile, requestOptions: { retryWait: 1 } },
		});

		expect(requests).toHaveLength(1);
		expect(result.error?.description).toBe(
			['Body starts with: 502 Bad Gateway', PROFILE_LOST_ANSWER_ADVICE, noClearAnswer([0])].join(
				'\n',
			),
		);
	});

	/**
	 * One run whose first request fails as given (what n8n's request helper throws); later requests
	 * reach the (mocked) service. How often the node tried, and what the service received.
	 */
	async function runFailingOnce(
		failure: object,
		parameters: INodeParameters,
		items?: Array<Record<string, string>>,
	) {
		const { scope, requests } = mockService();
		scope.post(CANDIDATE_PATH).reply(200, success({ transactionId: 'TXN-0' }));
		scope.get(PURPOSES).reply(200, success({ total: 0, list: [] }));
		const send = jest.spyOn(transport, 'sendWithCredential');
		send.mockImplementationOnce(async () => {
			throw Object.assign(new Error(), failure);
		});
		try {
			const result = await runActionNode({
				items,
				parameters: { ...parameters, requestOptions: { retryWait: 1 } },
			});
			return { result, tries: send.mock.calls.length, received: requests.length };
		} finally {
			send.mockRestore();
		}
	}

	it.each([
		['a broken pipe', { code: 'EPIPE', message: 'write EPIPE' }],
		['a reset', { code: 'ECONNRESET', message: 'socket hang up' }],
		[
			'a reset as n8n 1.x and 2.0 wrap it (its code in httpCode)',
			{ httpCode: 'ECONNRESET', message: 'read ECONNRESET' },
		],
		[
			'a reset as n8n 1.x words it (no code)',
			{ message: 'The connection to the server was closed unexpectedly, perhaps it is offline.' },
		],
		[
			'an aborted connection as n8n 1.x words it (no code)',
			{ message: 'The connection was aborted, perhaps the server is offline' },
		],
	])(
		'creating a candidate is not tried again after %s (the request may have been read)',
		async (_what, failure) => {
			const { result, tries, received } = await runFailingOnce(failure, createProfile, rows(1));

			expect(tries).toBe(1);
			expect(received).toBe(0);
			expect(result.error?.message).toMatch(
				/^Add a candidate to a form failed: the Candidate Verification Service (closed the connection before answering|did not answer within 60 s)$/,
			);
			expect(result.error?.description).toContain(noClearAnswer([0]));
		},
	);

	it.each([
		['a refused connection', { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' }],
		['a failed name look-up', { code: 'EAI_AGAIN', message: 'getaddrinfo EAI_AGAIN' }],
	])(
		'creating a candidate is tried again after %s (nothing reached the service)',
		async (_what, failure) => {
			const { result, tries, received } = await runFailingOnce(failure, createProfile, rows(1));

			expect(result.error).toBeUndefined();
			expect(tries).toBe(2);
			expect(received).toBe(1);
		},
	);

	it('a read is tried again after a reset', async () => {
		const { result, tries, received } = await runFailingOnce(
			{ code: 'ECONNRESET', message: 'socket hang up' },
			{ resource: 'purpose', operation: 'getAll' },
		);

		expect(result.error).toBeUndefined();
		expect(tries).toBe(2);
		expect(received).toBe(1);
	});

	it('after the retries of a 429 the error says how to send more slowly', async () => {
		const { scope, requests } = mockService();
		scope.get(PURPOSES).times(2).reply(429, { code: -1, message: 'Too many requests' });

		const result = await runActionNode({
			parameters: {
				resource: 'purpose',
				operation: 'getAll',
				requestOptions: { retryWait: 1, transientRetries: '={{ 1 }}' },
			},
		});

		expect(requests).toHaveLength(2);
		expect(result.error?.description).toBe(
			[
				'- Too many requests',
				'(HTTP 429, code -1)',
				'The service limits how fast requests may come: lower Settings → Request Options → Max Concurrent Requests, or add Batching there.',
			].join('\n'),
		);
	});
});

describe('Request Options → Max Concurrent Requests', () => {
	enableMockedNetwork();
	beforeEach(() => nock.enableNetConnect('127.0.0.1'));

	/**
	 * A service that counts the requests it holds at once. It answers them all 200 ms after it holds
	 * `limit` (time for any request over the limit to arrive and be counted), or 10 s after the first
	 * when fewer come, so the node has every allowed request on the wire before the first answer,
	 * also on a busy machine.
	 */
	async function countingService(limit: number) {
		let most = 0;
		const held: ServerResponse[] = [];
		// Only the latest wait answers: a later one replaces it.
		let latestWait = 0;
		const answerAll = () => {
			for (const response of held.splice(0)) {
				response.setHeader('content-type', 'application/json');
				response.end(JSON.stringify(success({ transactionId: 'TXN' })));
			}
		};
		const answerIn = (ms: number) => {
			const wait = ++latestWait;
			void sleep(ms).then(() => wait === latestWait && answerAll());
		};
		const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
			request.resume();
			held.push(response);
			most = Math.max(most, held.length);
			if (held.length === limit) answerIn(200);
			else if (held.length === 1) answerIn(10_000);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as { port: number };
		return {
			credentials: { ...TEST_CREDENTIALS, stagingBaseUrl: `http://127.0.0.1:${port}` },
			most: () => most,
			close: async () => await new Promise((resolve) => server.close(resolve)),
		};
	}

	it.each([
		[{ maxConcurrentRequests: 3 }, 3],
		[{ maxConcurrentRequests: '={{ 2 }}' }, 2],
		[{}, 200],
	] as Array<[INodeParameters, number]>)(
		'with %j at most %i requests are in flight, and at times that many',
		async (requestOptions, limit) => {
			const service = await countingService(limit);
			try {
				const result = await runActionNode({
					// Two rounds of requests at the limit.
					items: rows(2 * limit),
					parameters: { ...createProfile, requestOptions },
					credentials: service.credentials,
				});

				expect(result.error).toBeUndefined();
				expect(result.items).toHaveLength(2 * limit);
				expect(service.most()).toBe(limit);
			} finally {
				await service.close();
			}
		},
	);

	it('the first 200 requests start 25 per turn of the event loop, not all at once, so n8n answers other work between them', async () => {
		const service = await countingService(200);
		// A turn counter: one step per pass of the event loop's timers phase, the phase the groups start
		// in (n8n's sleep(0), as the engine waits). A timer set during a pass never runs in that pass,
		// so each pass is its own turn of the loop; the counter is always the first timer of a pass it
		// runs in (it was set first), so any pass that starts a group steps it first.
		let turn = 0;
		let ticking = true;
		const tick = () => {
			turn++;
			if (ticking) void sleep(0).then(tick);
		};
		tick();
		const startedInTurn: number[] = [];
		const { sendWithCredential } = transport;
		const send = jest.spyOn(transport, 'sendWithCredential');
		send.mockImplementation(async function (this: unknown, ...args) {
			startedInTurn.push(turn);
			return await sendWithCredential.apply(this as never, args);
		});
		try {
			const result = await runActionNode({
				items: rows(200),
				parameters: createProfile,
				credentials: service.credentials,
			});

			expect(result.error).toBeUndefined();
			expect(startedInTurn).toHaveLength(200);
			const perTurn = new Map<number, number>();
			for (const started of startedInTurn) perTurn.set(started, (perTurn.get(started) ?? 0) + 1);
			// Eight groups of 25, each in a turn of its own, however busy the machine (a counter in the
			// check phase saw two or three groups between two of its steps on a loaded machine).
			expect([...perTurn.values()]).toEqual(Array(8).fill(25));
		} finally {
			ticking = false;
			send.mockRestore();
			await service.close();
		}
	});
});
