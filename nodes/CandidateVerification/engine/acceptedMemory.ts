import type { IContextObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { AcceptedFacts } from './messages';
import * as say from './messages';

/** How long the outputs of a failed try wait for n8n's next try (Retry On Fail waits at most 5 s). */
const KEPT_FOR_MS = 30 * 60_000;
/** Failed runs remembered at once in this process; the oldest go first. */
const MAX_RUNS = 500;
/** Where a failed try leaves its mark in the node's context (IExecuteFunctions.getContext('node')). */
const MARK = 'candidateVerificationEarlierTry';

interface AcceptedItem {
	output: INodeExecutionData[];
}

interface FailedRun {
	expires: number;
	items: Map<number, AcceptedItem>;
	/** Items whose request may have reached the service without a clear answer (created, billed). */
	lost: Set<number>;
}

/**
 * The mark a failed try leaves in the execution: which run of the node, what it settled, and what
 * the service accepted (created IDs, billed answers' summaries), so a try that cannot see this
 * process's memory still names them.
 */
interface TryMark extends Partial<AcceptedFacts> {
	executionId: string;
	runIndex: number;
	answered: number[];
	lost: number[];
}

const failedRuns = new Map<string, FailedRun>();

function forget(now: number): void {
	for (const [key, run] of failedRuns) {
		if (run.expires <= now) failedRuns.delete(key);
	}
	while (failedRuns.size > MAX_RUNS) failedRuns.delete(failedRuns.keys().next().value as string);
}

/** This run of the node: n8n gives every try of it the same execution ID and run index. */
interface NodeRun {
	executionId: string;
	runIndex: number;
	key: string;
}

function nodeRunOf(context: IExecuteFunctions, node: INode): NodeRun | undefined {
	try {
		const executionId = context.getExecutionId();
		const runIndex = Number(context.getWorkflowDataProxy(0).$thisRunIndex ?? 0);
		if (!executionId) return undefined;
		const key = JSON.stringify([context.getWorkflow().id ?? '', executionId, node.name, runIndex]);
		return { executionId, runIndex, key };
	} catch {
		return undefined;
	}
}

function nodeContextOf(context: IExecuteFunctions): IContextObject | undefined {
	try {
		return context.getContext('node');
	} catch {
		return undefined;
	}
}

/**
 * What an earlier try of this node's run settled, so n8n's Retry On Fail never sends an accepted
 * item again (a second candidate, a second charge), nor one whose answer was lost (it may have been
 * created or billed): n8n runs the node again after a try that threw (On Error → Stop), and under
 * On Error → Continue after a try whose first output item carries an error (see runOperation.ts).
 *
 * n8n's interfaces promise none of this: that every try of one node run comes with the same
 * execution ID and run index, in the same process, on the same input items. What a try kept lives
 * in this process (outputs can be large), for a bounded time, only with Retry On Fail on, and is
 * dropped when a try succeeds. Its mark lives in the node's context, which n8n keeps with the
 * execution's data: a try that finds the mark without what it stands for (another process, or
 * kept too long) stops before sending anything, rather than send those items again.
 * test/unit/retry-on-fail.test.ts runs n8n's own loop of tries and catches a change.
 */
export class AcceptedMemory {
	/** `run` is undefined without Settings → Retry On Fail: n8n then runs no other try. */
	private constructor(
		private readonly run: NodeRun | undefined,
		private readonly nodeContext: IContextObject | undefined,
	) {}

	/**
	 * The memory of this node's run. `sendsOnce`: the operation creates something or is billed; with
	 * Retry On Fail on, it stops here when an earlier try's memory cannot be found.
	 */
	static of(context: IExecuteFunctions, node: INode, sendsOnce: boolean): AcceptedMemory {
		// Without Retry On Fail n8n runs no other try: nothing is kept, nor the node's context made.
		if (!sendsOnce || node.retryOnFail !== true) return new AcceptedMemory(undefined, undefined);
		const memory = new AcceptedMemory(nodeRunOf(context, node), nodeContextOf(context));
		if (!memory.run) {
			const { message, description } = say.TRIES_NOT_TOLD;
			throw new NodeOperationError(node, message, { description });
		}
		forget(Date.now());
		const mark = memory.markOfThisRun();
		// Another run's mark (an earlier run of the node, or the execution a Retry from the Executions
		// list copied) stands for nothing any more.
		if (!mark) delete memory.nodeContext?.[MARK];
		if (mark && !failedRuns.has(memory.run.key)) {
			const { message, description } = say.earlierTryNotKept(mark);
			throw new NodeOperationError(node, message, { description });
		}
		return memory;
	}

	/** The mark an earlier try of this very run left, if any. */
	private markOfThisRun(): TryMark | undefined {
		const mark = this.nodeContext?.[MARK] as TryMark | undefined;
		const { run } = this;
		if (!mark || !run) return undefined;
		return mark.executionId === run.executionId && mark.runIndex === run.runIndex
			? mark
			: undefined;
	}

	/**
	 * The output an earlier try got for this item, if the service accepted it then. By item alone: a
	 * try runs on the same input items, and an expression such as {{ $now }} may change the request.
	 */
	outputOf(itemIndex: number): INodeExecutionData[] | undefined {
		if (!this.run) return undefined;
		forget(Date.now());
		return failedRuns.get(this.run.key)?.items.get(itemIndex)?.output;
	}

	/** Whether an earlier try's request for this item got no clear answer (it may have acted). */
	lostBefore(itemIndex: number): boolean {
		if (!this.run) return false;
		forget(Date.now());
		return failedRuns.get(this.run.key)?.lost.has(itemIndex) === true;
	}

	/** After a failed try: keep what was accepted (and what got no clear answer) for the next one. */
	keep(accepted: Map<number, AcceptedItem>, lost: number[] = [], facts?: AcceptedFacts): void {
		if (!this.run) return;
		if (accepted.size === 0 && lost.length === 0) {
			this.clear();
			return;
		}
		const { key, executionId, runIndex } = this.run;
		failedRuns.delete(key);
		failedRuns.set(key, {
			expires: Date.now() + KEPT_FOR_MS,
			items: accepted,
			lost: new Set(lost),
		});
		forget(Date.now());
		if (this.nodeContext) {
			const answered = [...accepted.keys()].sort((a, b) => a - b);
			const mark: TryMark = {
				executionId,
				runIndex,
				answered,
				lost: [...lost].sort((a, b) => a - b),
				...facts,
			};
			this.nodeContext[MARK] = mark;
		}
	}

	/** After a try that succeeded: nothing is left to retry. */
	clear(): void {
		if (!this.run) return;
		failedRuns.delete(this.run.key);
		if (this.markOfThisRun()) delete this.nodeContext![MARK];
	}
}

export type { AcceptedItem };
