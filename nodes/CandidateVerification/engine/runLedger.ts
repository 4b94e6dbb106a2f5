import type { INodeExecutionData, NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { AcceptedItem } from './acceptedMemory';
import type { CheckedItem } from './checkItems';
import type { OperationDefinition } from './operation';
import type { SendGate } from './sendGate';

export type NodeError = NodeApiError | NodeOperationError;

export interface Failure {
	error: NodeError;
	/**
	 * The request left and no clear answer came (a timeout, a reset, a cancel, a 5xx, an answer
	 * that is not the service's): the service may have acted on it.
	 */
	answerLost: boolean;
	/** Not sent: an earlier try or execution sent this row and got no answer (duplicate protection). */
	heldInDoubt?: true;
}

/** The ID the service gave an accepted item, from its output. */
export function acceptedIdOf(
	operation: OperationDefinition,
	output: INodeExecutionData[] | undefined,
): string | undefined {
	const field = operation.acceptedIdField;
	const id = field && output?.[0]?.json[field];
	return id === undefined || id === null || id === '' ? undefined : String(id);
}

/**
 * What one run of the node knows about its items: what the check made of them, what was started,
 * accepted, failed, and each item's output. The sender (Sender, sender.ts) alone writes it; the
 * duplicate protection's gate reads the checked items and whether the run stopped, and is told each
 * outcome by the sender. Neither knows the other: runOperation.ts hands both the same ledger.
 */
export class RunLedger {
	readonly outputs: INodeExecutionData[][] = [];

	readonly accepted = new Map<number, AcceptedItem>();

	readonly failures = new Map<number, Failure>();

	readonly started = new Set<number>();

	constructor(
		readonly checked: CheckedItem[],
		readonly continueOnFail: boolean,
		private readonly abortSignal?: AbortSignal,
	) {}

	/** A row held in doubt (not sent): the run stops as at a failure at the service (On Error → Stop). */
	holdInDoubt(itemIndex: number, error: NodeOperationError): void {
		this.failures.set(itemIndex, { error, answerLost: false, heldInDoubt: true });
	}

	/**
	 * The run stopped: a failure with On Error → Stop, the execution was cancelled, or the gate (when
	 * there is one) halted or holds a row in doubt with Stop. Nothing more is sent.
	 */
	stopped(gate?: Pick<SendGate, 'halted' | 'heldUnderStop'>): boolean {
		const stopOnFailure = this.failures.size > 0 && !this.continueOnFail;
		const gateStopped = gate !== undefined && (gate.halted || gate.heldUnderStop.size > 0);
		return stopOnFailure || this.abortSignal?.aborted === true || gateStopped;
	}

	/**
	 * The items of `toSend` never sent: not started, not failed, and not answered by the gate's record
	 * (`skipped`: sent before or in doubt).
	 */
	notSent(toSend: number[], skipped: ReadonlySet<number> = new Set()): number[] {
		const { started, failures } = this;
		return toSend.filter(
			(index) => !started.has(index) && !failures.has(index) && !skipped.has(index),
		);
	}
}
