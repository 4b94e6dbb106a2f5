import type { IDataObject, IN8nHttpFullResponse, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

const MAX_BODY_EXCERPT = 300;

export interface ServiceEnvelope {
	code: number;
	message?: string;
	data?: IDataObject;
}

/** The service joins several validation problems with a slash. */
export function splitProblems(message: unknown): string[] {
	if (typeof message !== 'string' || message.trim() === '') return [];
	return message
		.split('/')
		.map((problem) => problem.trim())
		.filter((problem) => problem !== '');
}

function isEnvelope(body: unknown): body is ServiceEnvelope {
	return (
		typeof body === 'object' &&
		body !== null &&
		!Array.isArray(body) &&
		typeof (body as IDataObject).code === 'number'
	);
}

export function parseJsonText(body: unknown): unknown {
	if (Buffer.isBuffer(body)) body = body.toString('utf8');
	if (typeof body !== 'string') return body;
	try {
		return JSON.parse(body) as unknown;
	} catch {
		return body;
	}
}

/** The text of a body without markup, shortened for an error. */
export function excerpt(text: string): string {
	const plain = text
		.replace(/<[^>]*>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();
	return plain.length > MAX_BODY_EXCERPT ? `${plain.slice(0, MAX_BODY_EXCERPT)}…` : plain;
}

/** After a 429 the node's own retries are used up: how to send more slowly. */
function rateLimitHint(statusCode: number): string[] {
	return statusCode === 429
		? [
				'The service limits how fast requests may come: lower Settings → Request Options → Max Concurrent Requests, or add Batching there.',
			]
		: [];
}

/** What to do after a 401 or 403 that is not the service's envelope (a gateway's page). */
function refusedKeyHint(statusCode: number): string[] {
	return statusCode === 401 || statusCode === 403
		? [
				'The service or a gateway in front of it refused the request before acting on it: check the API key and the Environment of the credential, then run again.',
			]
		: [];
}

/**
 * Statuses after which the service certainly did not act, whatever the body (the node's choice, see
 * docs/troubleshooting.md): the key or the request was refused (401, 403) or is to be sent later (429).
 */
const REFUSED_STATUSES = [401, 403, 429];

/** The service's own envelope with a failure code: it refused the request. */
function isServiceRefusal(body: unknown): boolean {
	const parsed = parseJsonText(body);
	return isEnvelope(parsed) && parsed.code !== 0;
}

/**
 * Whether the service certainly did not act on a request answered so: a 401, 403 or 429 whatever
 * the body, or the service's own refusal (`code` other than 0) under a 2xx, a 4xx or a 503. A bare
 * 503 (a proxy may answer it after forwarding), any other 5xx and a redirect may come after it acted.
 */
export function certainlyNotActedOn(response: ServiceAnswer): boolean {
	const { statusCode } = response;
	if (REFUSED_STATUSES.includes(statusCode)) return true;
	if (statusCode >= 300 && statusCode < 400) return false;
	if (statusCode >= 500 && statusCode !== 503) return false;
	return isServiceRefusal(response.body);
}

/**
 * The problems the service listed in a refusal after which it certainly did not act (its envelope
 * with a non-zero code, see certainlyNotActedOn); undefined for any other answer.
 */
export function refusalProblems(response: ServiceAnswer): string[] | undefined {
	const body = parseJsonText(response.body);
	if (!isEnvelope(body) || body.code === 0 || !certainlyNotActedOn(response)) return undefined;
	return splitProblems(body.message);
}

/** The service accepted the request: its envelope with code 0 under a 2xx. */
export function isServiceSuccess(response: ServiceAnswer): boolean {
	const body = parseJsonText(response.body);
	return response.statusCode < 300 && isEnvelope(body) && body.code === 0;
}

/**
 * Whether a request that creates something may be sent again after this answer: a 429, or a 503 in
 * the service's envelope (it did not act and asks for a later try). A bare 503 never.
 */
export function mayRetryCreate(response: ServiceAnswer): boolean {
	const { statusCode } = response;
	return statusCode === 429 || (statusCode === 503 && isServiceRefusal(response.body));
}

/** What an operation says of a refusal beyond the service's words (OperationDefinition.explainRefusal). */
export interface RefusalExplanation {
	problem: string;
	advice: string;
}

/**
 * The service refused the request: its envelope with a failure code, or (Instant KYC) a `{ message }`
 * with no code at all.
 */
export function rejectionError(
	node: INode,
	operationLabel: string,
	statusCode: number,
	envelope: Omit<ServiceEnvelope, 'code'> & { code?: number },
	explain?: (problems: string[]) => RefusalExplanation | undefined,
): NodeApiError {
	const problems = splitProblems(envelope.message);
	const explained = explain?.(problems);
	const summary = explained
		? explained.problem
		: problems.length === 0
			? 'the service answered code ' + String(envelope.code) + ' without a message'
			: problems.length === 1
				? problems[0]
				: `${problems[0]} (and ${problems.length - 1} more)`;
	return new NodeApiError(node, envelope as unknown as JsonObject, {
		message: `${operationLabel} was rejected by the Candidate Verification Service: ${summary}`,
		description: [
			...problems.map((problem) => `- ${problem}`),
			`(HTTP ${statusCode}, ${envelope.code === undefined ? 'no code' : `code ${envelope.code}`})`,
			...rateLimitHint(statusCode),
			...(explained ? [explained.advice] : []),
		].join('\n'),
		httpCode: String(statusCode),
	});
}

/** An answer of the service as the checks below read it (headers only where a redirect needs them). */
type ServiceAnswer = Pick<IN8nHttpFullResponse, 'statusCode' | 'body'> &
	Partial<Pick<IN8nHttpFullResponse, 'headers'>>;

/** Where a redirect points, without its query (which may carry a token). */
function redirectTarget(headers: IN8nHttpFullResponse['headers'] | undefined): string | undefined {
	const location = headers?.location;
	const value = Array.isArray(location) ? location[0] : location;
	if (typeof value !== 'string' || value === '') return undefined;
	return value.split(/[?#]/)[0];
}

/**
 * The service's requests are not followed to another address (the key would go along, and a
 * create could be sent as a GET), so a redirect is a failure that says where it points.
 */
function redirectError(
	node: INode,
	operationLabel: string,
	response: Omit<ServiceAnswer, 'body'>,
): NodeApiError {
	const { statusCode } = response;
	const target = redirectTarget(response.headers);
	return new NodeApiError(
		node,
		{ statusCode },
		{
			message: `${operationLabel} failed: the Candidate Verification Service answered HTTP ${statusCode}, a redirect${
				target ? ` to ${target}` : ''
			}`,
			description:
				'The node does not follow redirects with your API key. Check the base URL in the credential (https:// rather than http://, the host the provider gave you) and run again.',
			httpCode: String(statusCode),
		},
	);
}

/**
 * Decides success on the envelope's `code`, not on the HTTP status: the service answers
 * `code: -1` under HTTP 200 as well as under 4xx. Returns the parsed envelope on success.
 */
export function assertSuccessfulResponse(
	node: INode,
	operationLabel: string,
	response: ServiceAnswer,
	explain?: (problems: string[]) => RefusalExplanation | undefined,
): ServiceEnvelope {
	const { statusCode } = response;
	if (statusCode >= 300 && statusCode < 400) throw redirectError(node, operationLabel, response);
	const body = parseJsonText(response.body);

	if (isEnvelope(body)) {
		if (body.code !== 0 || statusCode >= 400) {
			throw rejectionError(node, operationLabel, statusCode, body, explain);
		}
		return body;
	}

	if (typeof body === 'string' || body === undefined || body === null) {
		const text = typeof body === 'string' ? excerpt(body) : '';
		throw new NodeApiError(
			node,
			{ statusCode, body: text },
			{
				message: `${operationLabel} failed: the Candidate Verification Service answered HTTP ${statusCode} with ${
					text ? 'a body that is not JSON' : 'an empty body'
				}`,
				description:
					[
						text ? `Body starts with: ${text}` : '',
						...rateLimitHint(statusCode),
						...refusedKeyHint(statusCode),
					]
						.filter(Boolean)
						.join('\n') || undefined,
				httpCode: String(statusCode),
			},
		);
	}

	throw new NodeApiError(node, body as JsonObject, {
		message: `${operationLabel} failed: the Candidate Verification Service answered HTTP ${statusCode} without a response envelope (no numeric "code")`,
		description: [`Body: ${excerpt(JSON.stringify(body))}`, ...refusedKeyHint(statusCode)].join(
			'\n',
		),
		httpCode: String(statusCode),
	});
}

/**
 * `retryAdvice` is given only where sending again is safe: never for a request that creates
 * something and got no answer (the service may have acted on it).
 */
const NETWORK_FAILURES: Record<string, { problem: string; action: string; retryAdvice?: string }> =
	{
		timeout: {
			problem: 'did not answer within {timeout}',
			action:
				'The service may be slow or unreachable. Raise Request Options → Timeout if it is slow.',
			retryAdvice: 'Try again later, or set Settings → Retry On Fail.',
		},
		ECONNRESET: {
			problem: 'closed the connection before answering',
			action: 'The service or a proxy in between dropped the connection.',
			retryAdvice: 'Try again later, or set Settings → Retry On Fail.',
		},
		ECONNREFUSED: {
			problem: 'refused the connection',
			action: 'Check the base URL of the credential and that the service is up.',
		},
		ENOTFOUND: {
			problem: 'could not be found (unknown host)',
			action: 'Check the base URL of the credential.',
		},
		unreachable: {
			problem: 'could not be reached',
			action: 'Check the base URL of the credential and the network between n8n and the service.',
		},
	};

const TIMEOUT_CODES = ['ETIMEDOUT', 'ECONNABORTED', 'ESOCKETTIMEDOUT', 'UND_ERR_HEADERS_TIMEOUT'];
const UNREACHABLE_CODES = ['EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'];
/** The connection went while the request was being sent or answered. */
const DROPPED_CODES = ['ECONNRESET', 'EPIPE'];

/**
 * The network error code of a failure, wherever n8n put it: on the error, its cause, or (n8n 1.x
 * wraps request errors in a NodeApiError) the error response it keeps; last, the message n8n 1.x
 * gives a reset or an aborted connection.
 */
export function networkCode(error: unknown): string | undefined {
	const seen: IDataObject[] = [];
	const queue = [error as IDataObject | undefined];
	while (queue.length > 0 && seen.length < 8) {
		const cause = queue.shift();
		if (typeof cause !== 'object' || cause === null || seen.includes(cause)) continue;
		seen.push(cause);
		// n8n 1.x and 2.0 keep the code of the error they wrap only in httpCode.
		for (const code of [cause.code, cause.httpCode]) {
			if (typeof code === 'string' && /^E[A-Z_]+$|^UND_ERR/.test(code)) return code;
		}
		queue.push(cause.cause as IDataObject, cause.errorResponse as IDataObject);
	}
	const message = String((error as Error | undefined)?.message ?? '');
	if (/closed unexpectedly/i.test(message)) return 'ECONNRESET';
	if (/connection was aborted/i.test(message)) return 'ECONNABORTED';
	if (/connection was refused/i.test(message)) return 'ECONNREFUSED';
	return undefined;
}

function formatTimeout(milliseconds: unknown): string {
	const value = Number(milliseconds);
	if (!Number.isFinite(value) || value <= 0) return 'the timeout';
	return value % 1000 === 0 ? `${value / 1000} s` : `${value} ms`;
}

function formatDuration(milliseconds: number): string {
	if (milliseconds < 1000) return `${Math.round(milliseconds)} ms`;
	const seconds = Math.round(milliseconds / 1000);
	if (seconds < 60) return `${seconds} s`;
	const rest = seconds % 60;
	return `${Math.floor(seconds / 60)} min${rest ? ` ${rest} s` : ''}`;
}

/** How a request was tried, for the error once the node's own retries are used up. */
export interface RequestAttempts {
	timeout?: number;
	/** Attempts made, the first one included. */
	attempts?: number;
	/** The timeouts waited out and the pauses between attempts, in ms. */
	spentMs?: number;
}

/** ", 3 attempts over 3 min 3 s" after retries of a timed-out read; nothing for one attempt. */
function attemptsNote({ attempts = 1, spentMs = 0 }: RequestAttempts): string {
	return attempts > 1 ? `, ${attempts} attempts over ${formatDuration(spentMs)}` : '';
}

/** What kind of failure to get an answer this was (a key of NETWORK_FAILURES), if it was one. */
export function networkFailureKind(caught: unknown): string | undefined {
	const code = networkCode(caught);
	const message = String((caught as Error | undefined)?.message ?? '');
	if (TIMEOUT_CODES.includes(code ?? '') || /timeout|timed out/i.test(message)) return 'timeout';
	if (code && DROPPED_CODES.includes(code)) return 'ECONNRESET';
	if (code && code in NETWORK_FAILURES) return code;
	return code && UNREACHABLE_CODES.includes(code) ? 'unreachable' : undefined;
}

/**
 * A request that got no answer (timeout, reset, refused, unknown host) becomes an error naming the
 * operation, the service and what to do. Errors with an answer (already explained) pass through.
 */
export function networkError(
	node: INode,
	operationLabel: string,
	caught: unknown,
	request: RequestAttempts,
	mayHaveCreated = false,
): NodeApiError | NodeOperationError {
	const code = networkCode(caught);
	const message = String((caught as Error | undefined)?.message ?? '');
	const kind = networkFailureKind(caught);
	if (!kind) {
		if (caught instanceof NodeApiError || caught instanceof NodeOperationError) return caught;
		return new NodeApiError(node, { message } as JsonObject, {
			message: `${operationLabel} failed: ${message || 'the request to the Candidate Verification Service failed'}`,
		});
	}
	const failure = NETWORK_FAILURES[kind];
	return new NodeApiError(node, { code: code ?? 'timeout', message } as JsonObject, {
		message: `${operationLabel} failed: the Candidate Verification Service ${failure.problem.replace(
			'{timeout}',
			formatTimeout(request.timeout),
		)}${kind === 'timeout' ? attemptsNote(request) : ''}`,
		description: `${[failure.action, mayHaveCreated ? '' : failure.retryAdvice].filter(Boolean).join(' ')} (${code ?? 'timeout'})`,
		httpCode: 'none',
	});
}
