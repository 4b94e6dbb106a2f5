import type { IExecuteSingleFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * Bad parameters stop the item before any request is sent, with an error that names the field
 * (by its display name) and the item.
 */
export function invalidParameter(
	context: IExecuteSingleFunctions,
	fieldDisplayName: string,
	problem: string,
	hint?: string,
): NodeOperationError {
	const itemIndex = context.getItemIndex();
	return new NodeOperationError(
		context.getNode(),
		`Invalid "${fieldDisplayName}" in item ${itemIndex}: ${problem}`,
		{ itemIndex, description: hint },
	);
}

/** A trimmed non-empty string, or an error naming the field. */
export function requireText(
	context: IExecuteSingleFunctions,
	parameterName: string,
	fieldDisplayName: string,
	value: unknown = context.getNodeParameter(parameterName, ''),
): string {
	if (typeof value === 'number') value = String(value);
	if (typeof value !== 'string') {
		throw invalidParameter(context, fieldDisplayName, `expected text, got ${describe(value)}`);
	}
	const text = value.trim();
	if (text === '') {
		throw invalidParameter(context, fieldDisplayName, 'it is required and is empty');
	}
	return text;
}

/** The value is optional; when given it must be text. Returns undefined for empty. */
export function optionalText(
	context: IExecuteSingleFunctions,
	fieldDisplayName: string,
	value: unknown,
): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	return requireText(context, '', fieldDisplayName, value);
}

export function requireOneOf<T extends string>(
	context: IExecuteSingleFunctions,
	fieldDisplayName: string,
	value: unknown,
	allowed: readonly T[],
): T {
	if (typeof value === 'string' && (allowed as readonly string[]).includes(value))
		return value as T;
	throw invalidParameter(
		context,
		fieldDisplayName,
		`${describe(value)} is not one of ${allowed.join(', ')}`,
	);
}

export function requireBoolean(
	context: IExecuteSingleFunctions,
	fieldDisplayName: string,
	value: unknown,
): boolean {
	if (typeof value === 'boolean') return value;
	if (value === 'true' || value === 'false') return value === 'true';
	throw invalidParameter(
		context,
		fieldDisplayName,
		`expected true or false, got ${describe(value)}`,
	);
}

export function describe(value: unknown): string {
	if (value === undefined) return 'nothing';
	if (value === null) return 'null';
	if (typeof value === 'string') return `"${value}"`;
	if (typeof value === 'object') return Array.isArray(value) ? 'a list' : 'an object';
	return `${typeof value} ${String(value)}`;
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmail(value: string): boolean {
	return EMAIL_PATTERN.test(value);
}
