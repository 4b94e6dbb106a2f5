import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

/** How long the outputs of a failed try wait for n8n's next try (Retry On Fail waits at most 5 s). */
const KEPT_FOR_MS = 30 * 60_000;
/** Failed runs remembered at once in this process; the oldest go first. */
const MAX_RUNS = 500;

interface AcceptedItem {
	output: INodeExecutionData[];
}

interface FailedRun {
	expires: number;
	items: Map<number, AcceptedItem>;
	/** Items whose call may have reached the service without a clear answer (billed calls). */
	lost: Set<number>;
}

const failedRuns = new Map<string, FailedRun>();

function forget(now: number): void {
	for (const [key, run] of failedRuns) {
		if (run.expires <= now) failedRuns.delete(key);
	}
	while (failedRuns.size > MAX_RUNS) failedRuns.delete(failedRuns.keys().next().value as string);
}

/**
 * What the service accepted in an earlier try of this node's run, so n8n's Retry On Fail never
 * sends an accepted item again (a second candidate, a second charge), nor calls again a billed call
 * whose answer was lost (it may have been billed). n8n runs every try of one
 * node run in the same process, with the same execution ID, node and run index; the memory is
 * kept only after a failed try, for a bounded time, and dropped when a try succeeds.
 */
export class AcceptedMemory {
	private constructor(private readonly key: string | undefined) {}

	static of(context: IExecuteFunctions): AcceptedMemory {
		let executionId: string | undefined;
		let runIndex = 0;
		try {
			executionId = context.getExecutionId();
			runIndex = Number(context.getWorkflowDataProxy(0).$thisRunIndex ?? 0);
		} catch {
			executionId = undefined;
		}
		if (!executionId) return new AcceptedMemory(undefined);
		const workflowId = context.getWorkflow().id ?? '';
		const key = JSON.stringify([workflowId, executionId, context.getNode().name, runIndex]);
		return new AcceptedMemory(key);
	}

	/**
	 * The output an earlier try got for this item, if the service accepted it then. By item alone: a
	 * try runs on the same input items, and an expression such as {{ $now }} may change the request.
	 */
	outputOf(itemIndex: number): INodeExecutionData[] | undefined {
		if (!this.key) return undefined;
		forget(Date.now());
		return failedRuns.get(this.key)?.items.get(itemIndex)?.output;
	}

	/** Whether an earlier try's call for this item got no clear answer (it may have been billed). */
	lostBefore(itemIndex: number): boolean {
		if (!this.key) return false;
		forget(Date.now());
		return failedRuns.get(this.key)?.lost.has(itemIndex) === true;
	}

	/** After a failed try: keep what was accepted (and the billed calls without an answer) for the next one. */
	keep(accepted: Map<number, AcceptedItem>, lost: number[] = []): void {
		if (!this.key || (accepted.size === 0 && lost.length === 0)) return;
		failedRuns.delete(this.key);
		const expires = Date.now() + KEPT_FOR_MS;
		failedRuns.set(this.key, { expires, items: accepted, lost: new Set(lost) });
		forget(Date.now());
	}

	/** After a try that succeeded: nothing is left to retry. */
	clear(): void {
		if (this.key) failedRuns.delete(this.key);
	}
}

export type { AcceptedItem };
