import type { ICredentialDataDecryptedObject, IDataObject, INodeExecutionData } from 'n8n-workflow';

import { columnKey, MAP_AUTOMATICALLY, MAPPING_MODE } from './mapping';
import type { ExpressionBatch, ExpressionContext } from './expressions';

export type { ExpressionContext } from './expressions';

/** One invalid field of one item. */
export interface Problem {
	itemIndex: number;
	field: string;
	text: string;
	hint?: string;
}

export function problemLine({ itemIndex, field, text }: Problem): string {
	return `Invalid "${field}" in item ${itemIndex}: ${text}`;
}

/** Marks a value that could not be read (its expression failed); the problem is already noted. */
const UNREADABLE = Symbol('unreadable');

function valueAtPath(parameters: IDataObject, path: string): unknown {
	let value: unknown = parameters;
	for (const key of path.split('.')) {
		if (typeof value !== 'object' || value === null) return undefined;
		value = (value as IDataObject)[key];
	}
	return value;
}

/**
 * The parameters and input of one item, read for the all-items check before any request leaves.
 * Every problem is collected (all fields of the item), none is thrown.
 *
 * Parameters are read from the node and their expressions resolved with
 * `evaluateExpression(expression, itemIndex)` (n8n's public interface, the same engine, input data
 * and additional keys as getNodeParameter), all of an item's in one evaluation (ExpressionBatch).
 */
export class ItemInput {
	readonly problems: Problem[] = [];

	private readonly parameters: IDataObject;

	/** The node's version (typeVersion), for operations whose meaning changed with a version. */
	readonly nodeVersion: number;

	/** Mapping Mode → Map Automatically: fields come from the item's columns. */
	private readonly mapsAutomatically: boolean;

	private columns?: Map<string, unknown>;

	/** Fields Map Automatically looked for and did not find, with the column names it tried. */
	private readonly missingColumns = new Map<string, string[]>();

	/** This item's values of the batched expressions, evaluated at the first expression read. */
	private batchedValues?: Map<string, unknown> | 'failed';

	private batchTried = false;

	private someExpressionFailed = false;

	constructor(
		private readonly context: ExpressionContext,
		readonly itemIndex: number,
		readonly item: INodeExecutionData,
		readonly timezone: string,
		private readonly batch?: ExpressionBatch,
		/** The run's credential (read once), for settings a node parameter may leave to it. */
		readonly credentials: ICredentialDataDecryptedObject = {},
	) {
		const node = context.getNode();
		this.parameters = node.parameters as IDataObject;
		this.nodeVersion = node.typeVersion;
		this.mapsAutomatically = this.parameters[MAPPING_MODE] === MAP_AUTOMATICALLY;
	}

	problem(field: string, text: string, hint?: string): undefined {
		const tried = this.missingColumns.get(field);
		const columnHint =
			tried &&
			`Mapping Mode is Map Automatically and the item has no column ${tried.map((name) => `"${name}"`).join(' or ')}. Its columns: ${this.columnList()}.`;
		this.problems.push({ itemIndex: this.itemIndex, field, text, hint: hint ?? columnHint });
		return undefined;
	}

	/**
	 * A field of the request: its parameter, or with Map Automatically the item's column named like
	 * the parameter (its first path segment) or like its label.
	 */
	field(path: string, label: string, fallback?: unknown): unknown {
		if (!this.mapsAutomatically) return this.param(path, label, fallback);
		const names = [path.split('.')[0], label];
		const value = this.column(names);
		if (value !== undefined) return value;
		this.missingColumns.set(label, [...new Set(names)]);
		return fallback;
	}

	/** A collection of optional fields ({ name, displayName } options), read as `field` reads one. */
	fieldGroup(
		path: string,
		label: string,
		options: ReadonlyArray<{ name: string; displayName: string }>,
	): IDataObject {
		const group: IDataObject = {};
		if (!this.mapsAutomatically) {
			// Each field on its own, so a failing expression is named by its field's label.
			const raw = valueAtPath(this.parameters, path);
			if (typeof raw !== 'object' || raw === null) {
				return (this.param(path, label, {}) ?? {}) as IDataObject;
			}
			for (const key of Object.keys(raw)) {
				const option = options.find(({ name }) => name === key);
				const value = this.param(`${path}.${key}`, option?.displayName ?? `${label} → ${key}`);
				if (value !== undefined) group[key] = value as IDataObject[string];
			}
			return group;
		}
		for (const option of options) {
			const value = this.column([option.name, option.displayName]);
			if (value !== undefined) group[option.name] = value as IDataObject[string];
		}
		return group;
	}

	private column(names: string[]): unknown {
		if (!this.columns) {
			this.columns = new Map();
			for (const [key, value] of Object.entries(this.item.json)) {
				const normalised = columnKey(key);
				if (!this.columns.has(normalised)) this.columns.set(normalised, value);
			}
		}
		for (const name of names) {
			const value = this.columns.get(columnKey(name));
			if (value !== undefined) return value;
		}
		return undefined;
	}

	private columnList(): string {
		const keys = Object.keys(this.item.json);
		if (keys.length === 0) return 'none';
		const shown = keys.slice(0, 12).map((key) => `"${key}"`);
		return keys.length > 12 ? `${shown.join(', ')} and ${keys.length - 12} more` : shown.join(', ');
	}

	/** The parameter's value for this item, expressions resolved. */
	param(path: string, field: string, fallback?: unknown): unknown {
		const raw = valueAtPath(this.parameters, path);
		const value = this.resolve(raw === undefined ? fallback : raw, field);
		return value === UNREADABLE ? undefined : value;
	}

	/**
	 * A resource locator's value, as getNodeParameter's extractValue gives it for modes without an
	 * extraction pattern (a plain value, from workflows saved before the field was a locator, too).
	 */
	locatorValue(path: string, field: string): unknown {
		const value = this.param(path, field);
		const isLocator = typeof value === 'object' && value !== null && '__rl' in value;
		return isLocator ? (value as IDataObject).value : value;
	}

	private resolve(raw: unknown, field: string): unknown {
		if (typeof raw === 'string') {
			if (raw.charAt(0) !== '=') return raw;
			if (!this.batchTried) {
				this.batchTried = true;
				this.batchedValues = this.batch?.evaluate(this.context, this.itemIndex);
			}
			if (this.batchedValues instanceof Map && this.batchedValues.has(raw)) {
				return this.batchedValues.get(raw);
			}
			try {
				return this.context.evaluateExpression(raw.slice(1), this.itemIndex);
			} catch (error) {
				this.someExpressionFailed = true;
				this.problem(field, `its expression failed: ${(error as Error).message}`);
				return UNREADABLE;
			}
		}
		if (Array.isArray(raw)) {
			const values = raw.map((entry) => this.resolve(entry, field));
			return values.includes(UNREADABLE) ? UNREADABLE : values;
		}
		if (
			typeof raw === 'object' &&
			raw !== null &&
			Object.getPrototypeOf(raw) === Object.prototype
		) {
			const resolved: IDataObject = {};
			for (const [key, entry] of Object.entries(raw as IDataObject)) {
				const value = this.resolve(entry, field);
				if (value !== UNREADABLE) resolved[key] = value as IDataObject[string];
			}
			return resolved;
		}
		return raw;
	}

	/** Tells the run's expression batch how this item went (see ExpressionBatch.settle). */
	settle(): void {
		this.batch?.settle(this.batchedValues === 'failed', this.someExpressionFailed);
	}

	/** A trimmed non-empty text (numbers are read as text). */
	text(field: string, value: unknown): string | undefined {
		if (value === undefined || value === null || value === '') {
			return this.problem(field, 'it is required and is empty');
		}
		const text = this.optionalText(field, value);
		return text === undefined ? this.problem(field, 'it is required and is empty') : text;
	}

	/** Empty is fine (undefined); when given it must be text. */
	optionalText(field: string, value: unknown): string | undefined {
		if (value === undefined || value === null || value === '') return undefined;
		if (typeof value === 'number' || typeof value === 'bigint') return String(value);
		if (typeof value !== 'string') {
			return this.problem(field, `expected text, got ${describe(value)}`);
		}
		return value.trim() || undefined;
	}

	/** One of `allowed`, matched exactly or, with `aliases`, by any case and by alias. */
	oneOf<T extends string>(
		field: string,
		value: unknown,
		allowed: readonly T[],
		aliases?: Readonly<Record<string, T>>,
	): T | undefined {
		if (typeof value === 'string') {
			if ((allowed as readonly string[]).includes(value)) return value as T;
			if (aliases) {
				const key = value.trim().toLowerCase();
				const match = allowed.find((option) => option.toLowerCase() === key) ?? aliases[key];
				if (match) return match;
			}
		}
		if (value === undefined || value === null || value === '') {
			return this.problem(field, `it is required and is empty (one of ${allowed.join(', ')})`);
		}
		return this.problem(field, `${describe(value)} is not one of ${allowed.join(', ')}`);
	}

	boolean(field: string, value: unknown): boolean | undefined {
		if (typeof value === 'boolean') return value;
		if (value === 'true' || value === 'false') return value === 'true';
		return this.problem(field, `expected true or false, got ${describe(value)}`);
	}
}

export function describe(value: unknown): string {
	if (value === undefined) return 'nothing';
	if (value === null) return 'null';
	if (typeof value === 'string') return `"${value}"`;
	if (value instanceof Date) return `the date ${value.toISOString()}`;
	if (typeof value === 'object') return Array.isArray(value) ? 'a list' : 'an object';
	return `${typeof value} ${String(value)}`;
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmail(value: string): boolean {
	return EMAIL_PATTERN.test(value);
}
