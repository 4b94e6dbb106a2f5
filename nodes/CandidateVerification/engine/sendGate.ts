import type { INodeExecutionData, NodeOperationError } from 'n8n-workflow';

/**
 * What a gate answers for one row before its request would leave:
 * - `send`: send it;
 * - `output`: do not send it, output this instead (e.g. sent and accepted before);
 * - `inDoubt`: do not send it, it is held in doubt (an earlier request got no answer): its error;
 * - `skip`: do not send it (the run stopped, or the gate could not decide).
 */
export type GateDecision =
	| { kind: 'send' }
	| { kind: 'output'; output: INodeExecutionData[] }
	| { kind: 'inDoubt'; error: NodeOperationError }
	| { kind: 'skip' };

/**
 * Asked by the sender (Sender, sender.ts) before each row leaves and told each answer; the duplicate
 * protection is one (duplicateProtection/gate.ts). A gate never writes outputs nor stops the run:
 * the sender acts on its decisions.
 */
export interface SendGate {
	decide(itemIndex: number): Promise<GateDecision>;
	/** The row's request was answered (or failed): `output` is what the sender made of it. */
	answered(itemIndex: number, output: INodeExecutionData[] | undefined): void;
	/** The gate cannot go on (its store failed): nothing more is sent. */
	readonly halted: boolean;
	/** Rows the service accepted before are skipped by later runs (not Send These Rows Again). */
	readonly skipsRowsSent: boolean;
	/** The advice on a row whose answer this run lost. */
	lostAnswerAdvice(itemIndex: number): string;
}
