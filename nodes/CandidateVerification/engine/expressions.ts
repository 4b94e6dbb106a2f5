import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

/** What reading an item needs of n8n: the node's parameters and its expression engine. */
export type ExpressionContext = Pick<IExecuteFunctions, 'getNode' | 'evaluateExpression'>;

/** `={{ … }}` and nothing else: its value is the expression's own value, not a text. */
const SINGLE_EXPRESSION = /^=\{\{([\s\S]*)\}\}$/;

function singleExpressionBody(value: string): string | undefined {
	const match = SINGLE_EXPRESSION.exec(value);
	if (!match) return undefined;
	const body = match[1];
	return body.includes('{{') || body.includes('}}') ? undefined : body;
}

function collect(value: unknown, found: Set<string>): void {
	if (typeof value === 'string') {
		if (singleExpressionBody(value) !== undefined) found.add(value);
	} else if (Array.isArray(value)) {
		for (const entry of value) collect(entry, found);
	} else if (typeof value === 'object' && value !== null) {
		for (const entry of Object.values(value)) collect(entry, found);
	}
}

/**
 * Every `={{ … }}` of the node's parameters, evaluated for one item as one array expression.
 * Each evaluation by n8n's expression engine has a fixed cost far above what a field's own
 * expression costs, and the all-items check reads every mapped field of every item: one
 * evaluation per item instead of one per field. Values are the same as evaluating each alone;
 * when the combined evaluation fails (one field's expression throws for this item), the fields
 * are evaluated one by one so the failing one is named.
 */
export class ExpressionBatch {
	private readonly expressions: string[];

	private readonly combined?: string;

	/** False once the combination failed where every field alone succeeded (e.g. a syntax it breaks). */
	private usable = true;

	constructor(parameters: IDataObject) {
		const found = new Set<string>();
		collect(parameters, found);
		this.expressions = [...found];
		if (this.expressions.length > 1) {
			// Each body on its own lines: a trailing // comment ends at its line.
			const bodies = this.expressions.map((value) => `(\n${singleExpressionBody(value)}\n)`);
			this.combined = `{{ [${bodies.join(',')}] }}`;
		}
	}

	/**
	 * The values of the batched expressions for one item; 'failed' when the combination threw (the
	 * fields are then evaluated one by one), undefined when there is nothing to batch.
	 */
	evaluate(
		context: ExpressionContext,
		itemIndex: number,
	): Map<string, unknown> | 'failed' | undefined {
		if (!this.combined || !this.usable) return undefined;
		let values: unknown;
		try {
			values = context.evaluateExpression(this.combined, itemIndex);
		} catch {
			return 'failed';
		}
		if (!Array.isArray(values) || values.length !== this.expressions.length) {
			this.usable = false;
			return undefined;
		}
		return new Map(this.expressions.map((expression, index) => [expression, values[index]]));
	}

	/**
	 * After an item whose combination failed: when every field evaluated alone, the combination
	 * itself does not work for these expressions and is not tried again in this run.
	 */
	settle(combinationFailed: boolean, someFieldFailed: boolean): void {
		if (combinationFailed && !someFieldFailed) this.usable = false;
	}
}
