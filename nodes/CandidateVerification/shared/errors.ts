import type { IDataObject, IN8nHttpFullResponse, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

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

function parseJsonText(body: unknown): unknown {
	if (Buffer.isBuffer(body)) body = body.toString('utf8');
	if (typeof body !== 'string') return body;
	try {
		return JSON.parse(body) as unknown;
	} catch {
		return body;
	}
}

function excerpt(text: string): string {
	const plain = text
		.replace(/<[^>]*>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();
	return plain.length > MAX_BODY_EXCERPT ? `${plain.slice(0, MAX_BODY_EXCERPT)}…` : plain;
}

function rejectionError(
	node: INode,
	operationLabel: string,
	statusCode: number,
	envelope: ServiceEnvelope,
): NodeApiError {
	const problems = splitProblems(envelope.message);
	const summary =
		problems.length === 0
			? 'the service answered code ' + String(envelope.code) + ' without a message'
			: problems.length === 1
				? problems[0]
				: `${problems[0]} (and ${problems.length - 1} more)`;
	return new NodeApiError(node, envelope as unknown as JsonObject, {
		message: `${operationLabel} was rejected by the Candidate Verification Service: ${summary}`,
		description: [
			...problems.map((problem) => `- ${problem}`),
			`(HTTP ${statusCode}, code ${envelope.code})`,
		].join('\n'),
		httpCode: String(statusCode),
	});
}

/**
 * Decides success on the envelope's `code`, not on the HTTP status: the service answers
 * `code: -1` under HTTP 200 as well as under 4xx. Returns the parsed envelope on success.
 */
export function assertSuccessfulResponse(
	node: INode,
	operationLabel: string,
	response: Pick<IN8nHttpFullResponse, 'statusCode' | 'body'>,
): ServiceEnvelope {
	const { statusCode } = response;
	const body = parseJsonText(response.body);

	if (isEnvelope(body)) {
		if (body.code !== 0 || statusCode >= 400) {
			throw rejectionError(node, operationLabel, statusCode, body);
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
				description: text ? `Body starts with: ${text}` : undefined,
				httpCode: String(statusCode),
			},
		);
	}

	throw new NodeApiError(node, body as JsonObject, {
		message: `${operationLabel} failed: the Candidate Verification Service answered HTTP ${statusCode} without a response envelope (no numeric "code")`,
		description: `Body: ${excerpt(JSON.stringify(body))}`,
		httpCode: String(statusCode),
	});
}
