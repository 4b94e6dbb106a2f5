import type {
	IDataObject,
	IExecuteFunctions,
	IN8nHttpFullResponse,
	INode,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { describe, type ItemInput } from '../../engine/itemInput';
import type { ItemCall, OperationDefinition } from '../../engine/operation';
import { mappedField } from '../../engine/mapping';
import {
	assertSuccessfulResponse,
	parseJsonText,
	rejectionError,
	splitProblems,
	type ServiceEnvelope,
} from '../../../shared/transport/errors';

export const RESOURCE = 'instantKyc';

/** Said by every Instant KYC operation's description, for people and AI agents alike. */
export const BILLED_NOTE = 'Billed per call; a re-run calls again.';

/** What sets valid (isNegative and kycOutput below), said wherever the node describes it. */
export const VALID_MEANING =
	'false when the service’s answer says status "INVALID" (at its top level or, in the older PAN answer, nested) or accountExists false, true otherwise; a valid the service sends itself is kept as sent';

/** The outcome fields every Instant KYC output adds to the service's answer. */
const OUTCOME = `The output is the service’s answer plus reason and valid, ${VALID_MEANING}.`;

/** An operation's description: what it does, the outcome fields where they matter, the billing. */
export function billed(what: string, outcome = true): string {
	return [what, outcome ? OUTCOME : '', BILLED_NOTE].filter(Boolean).join(' ');
}

export function showFor(operations: string[]) {
	return { resource: [RESOURCE], operation: operations };
}

/** A field the item gives, as the service's messages may name it. */
export interface SentField {
	/** The parameter's name, also the field the service takes. */
	name: string;
	/** The field's label, as errors name it. */
	label: string;
	/** Other words a service message may use for the field (e.g. VPA for a UPI ID). */
	aliases?: string[];
}

/** One identifier the service checks, as the node reads and checks it before sending. */
export interface IdentifierRule extends SentField {
	/** What the value is, e.g. "a PAN". */
	what: string;
	/** What a right value looks like, e.g. "5 letters, 4 digits and a letter, e.g. ABCDE1234F". */
	expected: string;
	pattern: RegExp;
	/** Forgiving only where it is safe (case, spaces): never turns a wrong value into another. */
	normalise(text: string): string;
}

/** Spaces removed, letters in capitals: PAN, IFSC, GSTIN. */
export const compactUpper = (text: string) => text.replace(/\s+/g, '').toUpperCase();
/** Spaces removed: account numbers, UAN, DIN. */
export const compact = (text: string) => text.replace(/\s+/g, '');

/** The editor field of an identifier; Map Automatically reads it from the column of its name. */
export function identifierField(
	operation: string,
	rule: IdentifierRule,
	placeholder: string,
	description: string,
): INodeProperties {
	return mappedField({
		displayName: rule.label,
		name: rule.name,
		type: 'string',
		required: true,
		default: '',
		placeholder,
		description,
		displayOptions: { show: showFor([operation]) },
	});
}

/** The identifier of one item, normalised and checked; a wrong one is a problem naming the field. */
export function readIdentifier(input: ItemInput, rule: IdentifierRule): string | undefined {
	const raw = input.field(rule.name, rule.label);
	if (typeof raw === 'number' && !Number.isSafeInteger(raw)) {
		return input.problem(
			rule.label,
			`${describe(raw)} is a number too large to be exact (digits are lost); give it as text, e.g. from a text column`,
		);
	}
	const text = input.text(rule.label, raw);
	if (text === undefined) return undefined;
	const value = rule.normalise(text);
	if (rule.pattern.test(value)) return value;
	return input.problem(rule.label, `"${text}" is not ${rule.what}: expected ${rule.expected}`);
}

const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The one definition of a negative result (`valid: false`): the answer says `status: "INVALID"` at the
 * top level of its data or, in the older PAN answer, nested (`data.status` there), or
 * `accountExists: false` (Bank Account, UPI). A call declared `messageOnlyIsNegative` also reads a
 * 2xx answer that is exactly `{ message }` as one (messageOnlyAnswer).
 */
function isNegative(data: IDataObject, nested: IDataObject): boolean {
	return data.status === 'INVALID' || nested.status === 'INVALID' || data.accountExists === false;
}

/**
 * The output of every Instant KYC call: the answer's data as the service sent it, plus the fields a
 * flow reads. The service's own fields are never overwritten: a field at the top level of its data
 * (its own `valid` or `reason` included) stays as sent; the node adds a field only where the answer
 * lacks it.
 * - `valid`: false for a negative result (isNegative), else true.
 * - `reason`: why, when the service says: `reason`, else `message` (the data's, then the nested
 *   data's), else the envelope's message; null when none.
 * - The older PAN page answers nested, `data: { code: 200, data: { pan, full_name, status, category },
 *   transaction_id }`, the newer one flat (`data: { fullName, pan, … }`): the nested `fullName` (from
 *   `full_name`), `pan`, `status` and `category` are added at the top level too, so a flow reads both
 *   answers alike; the nested data stays as sent.
 */
export function kycOutput(envelope: ServiceEnvelope): IDataObject {
	const data = envelope.data ?? {};
	const nested = isObject(data.data) ? data.data : {};
	const added: IDataObject = {
		fullName: nested.full_name,
		pan: nested.pan,
		status: nested.status,
		category: nested.category,
		valid: !isNegative(data, nested),
		reason:
			data.reason ?? nested.reason ?? data.message ?? nested.message ?? envelope.message ?? null,
	};
	const output: IDataObject = { ...data };
	for (const [name, value] of Object.entries(added)) {
		if (output[name] === undefined && value !== undefined) output[name] = value;
	}
	return output;
}

function mentions(message: string, word: string): boolean {
	const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	return new RegExp(`(^|[^a-z0-9])${escaped}([^a-z0-9]|$)`, 'i').test(message);
}

const quoted = (labels: string[]) => labels.map((label) => `"${label}"`).join(', ');

/** Statuses that keep their own advice (the key, the pace) even with a `{ message }` answer. */
const OWN_ADVICE_STATUSES = [401, 403, 429];

/**
 * The message of a 2xx answer that is exactly `{ message }` (no code, no data, nothing else): Verify
 * GST's public page answers an invalid GSTIN so, under HTTP 200. Undefined for any other answer.
 */
function messageOnlyAnswer(
	response: Pick<IN8nHttpFullResponse, 'statusCode' | 'body'>,
): string | undefined {
	if (response.statusCode < 200 || response.statusCode >= 300) return undefined;
	const body = parseJsonText(response.body);
	if (!isObject(body) || Object.keys(body).length !== 1) return undefined;
	const { message } = body;
	return typeof message === 'string' && message.trim() !== '' ? message : undefined;
}

/**
 * A refusal without the service's envelope: a 4xx (other than 401, 403, 429) whose answer is a
 * `{ message }` with no `code` at all, as Aadhaar (DigiLocker) Start answers a bad Redirect URL
 * (HTTP 422).
 */
export function refusedWithoutCode(response: Pick<IN8nHttpFullResponse, 'statusCode' | 'body'>) {
	const { statusCode } = response;
	if (statusCode < 400 || statusCode >= 500 || OWN_ADVICE_STATUSES.includes(statusCode))
		return false;
	const body = parseJsonText(response.body) as IDataObject | undefined;
	return (
		isObject(body) &&
		body.code === undefined &&
		typeof body.message === 'string' &&
		body.message.trim() !== ''
	);
}

/**
 * A rejection (a failure code such as `code: -1` or Aadhaar's `code: 1`, or a 4xx `{ message }` with
 * no code) names the node's field the service's message is about, else the fields the item sent, and
 * what to do.
 */
function explainRejection(
	error: unknown,
	response: IN8nHttpFullResponse,
	spec: KycCall,
	call: { node: INode; itemIndex: number },
): unknown {
	const { itemIndex } = call;
	const body = parseJsonText(response.body) as Partial<ServiceEnvelope> | undefined;
	const withoutCode = refusedWithoutCode(response);
	if (withoutCode) error = rejectionError(call.node, spec.label, response.statusCode, body ?? {});
	const isRejection = withoutCode || (typeof body?.code === 'number' && body.code !== 0);
	if (!(error instanceof NodeApiError) || !isRejection) return error;
	const message = splitProblems(body?.message).join(' / ');
	const named = spec.fields
		.filter(({ name, label, aliases = [] }) =>
			[name, label, ...aliases].some((word) => mentions(message, word)),
		)
		.map(({ label }) => label);
	const sent = spec.fields.map(({ label }) => label);
	const lines = [String(error.description ?? '')];
	if (named.length > 0) {
		error.message = `${error.message} (${quoted(named)} of item ${itemIndex})`;
		lines.push(`Correct ${quoted(named)} in item ${itemIndex}, then run only that item again.`);
	} else {
		error.message = `${error.message} (the service named no field; item ${itemIndex} sent ${quoted(sent)})`;
		lines.push(
			spec.rejectionHint ??
				`Check ${quoted(sent)} in item ${itemIndex}, then run only that item again.`,
		);
	}
	error.description = lines.filter(Boolean).join('\n');
	return error;
}

/** One Instant KYC call, declared: what it sends and how its answer becomes the output. */
export interface KycCall {
	/** The action name, as errors name the operation. */
	label: string;
	/** One path constant of nodes/shared/constants.ts. */
	path: string;
	/** Offers Mapping Mode: Map Automatically reads the identifiers from their columns. */
	mappingMode?: true;
	/** The fields the item gives (not the constant ones, such as digiLocker). */
	fields: SentField[];
	/** The body of one item: the check's own fields only; records problems on `input`. */
	body(input: ItemInput): IDataObject;
	/** What to do after a rejection that names no field. */
	rejectionHint?: string;
	/**
	 * A 2xx answer that is exactly `{ message }` is a negative result (`valid: false`, `reason` the
	 * message), not an answer without an envelope: Verify GST's page answers an invalid GSTIN so.
	 */
	messageOnlyIsNegative?: true;
	/** Changes the output item further (e.g. a photo into binary data). */
	finish?(this: IExecuteFunctions, output: INodeExecutionData, call: ItemCall): Promise<void>;
}

/**
 * An Instant KYC operation for the node's engine: POST, billed per call (no retry once the request
 * may have reached the service), a negative result is an output, a rejection an error naming the field.
 */
export function kycOperation(spec: KycCall): OperationDefinition {
	return {
		label: spec.label,
		method: 'POST',
		path: spec.path,
		...(spec.mappingMode && { mappingMode: spec.mappingMode }),
		build: (input) => ({ body: spec.body(input) }),
		output: {
			async read(this: IExecuteFunctions, response, call) {
				const negative = spec.messageOnlyIsNegative ? messageOnlyAnswer(response) : undefined;
				if (negative !== undefined) {
					return [
						{ json: { valid: false, reason: negative }, pairedItem: { item: call.itemIndex } },
					];
				}
				let envelope: ServiceEnvelope;
				try {
					envelope = assertSuccessfulResponse(call.node, spec.label, response);
				} catch (error) {
					throw explainRejection(error, response, spec, {
						node: call.node,
						itemIndex: call.itemIndex,
					});
				}
				const output: INodeExecutionData = {
					json: kycOutput(envelope),
					pairedItem: { item: call.itemIndex },
				};
				if (spec.finish) await spec.finish.call(this, output, call);
				return [output];
			},
			requestOptions: {},
		},
		billedPerCall: true,
		summary: kycSummary,
		refused: refusedWithoutCode,
	};
}

/** The fields that carry the name an Instant KYC answer returns (PAN, bank account and UPI, GST). */
const NAME_FIELDS = ['fullName', 'nameAtBank', 'legalName', 'name'];

/** What a flow branches on in one answer: `valid`, `reason` and the name returned, if any. */
export function kycSummary(json: IDataObject): IDataObject {
	const name = NAME_FIELDS.map((field) => json[field]).find((value) => typeof value === 'string');
	return { valid: json.valid, reason: json.reason ?? null, ...(name ? { name } : {}) };
}

/** A check of one identifier: its editor field and its operation. */
export interface IdentifierCheck {
	/** The operation's value. */
	operation: string;
	label: string;
	path: string;
	/** See KycCall.mappingMode. */
	mappingMode?: true;
	rule: IdentifierRule;
	placeholder: string;
	/** The field's description. */
	description: string;
	/** Constant fields of the body (e.g. digiLocker: false), after the identifier. */
	constants?: IDataObject;
	/** See KycCall.messageOnlyIsNegative. */
	messageOnlyIsNegative?: true;
}

/** The description and operation of a check of one identifier. */
export function identifierCheck(spec: IdentifierCheck): {
	description: INodeProperties[];
	operation: OperationDefinition;
} {
	const { rule } = spec;
	return {
		description: [identifierField(spec.operation, rule, spec.placeholder, spec.description)],
		operation: kycOperation({
			label: spec.label,
			path: spec.path,
			mappingMode: spec.mappingMode,
			fields: [rule],
			body: (input) => ({ [rule.name]: readIdentifier(input, rule), ...spec.constants }),
			messageOnlyIsNegative: spec.messageOnlyIsNegative,
		}),
	};
}
