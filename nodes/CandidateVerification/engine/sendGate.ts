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
 * What became of a row the sender sent, as the sender tells the gate:
 * - `accepted`: the service accepted it (the ID it gave, if any);
 * - `refused`: the service certainly did not act on it (a clear refusal, or it never left);
 * - `answerLost`: it left and no clear answer came (a timeout, a reset, a cancel, a 5xx ...);
 * - `answeredWithError`: an answer whose output carries an error: neither accepted nor refused.
 */
export type ItemOutcome =
	| { kind: 'accepted'; id?: string }
	| { kind: 'refused' }
	| { kind: 'answerLost' }
	| { kind: 'answeredWithError' };

/**
 * Asked by the sender (Sender, sender.ts) before each row leaves and told each row's outcome; the
 * duplicate protection is one (duplicateProtection/gate.ts). A gate never writes outputs nor
 * failures: the sender acts on its decisions and reads its states. A gate can stop the run: the
 * sender sends nothing more once it is `halted` or holds a row in doubt under On Error → Stop.
 */
export interface SendGate {
	decide(itemIndex: number): Promise<GateDecision>;
	/** What became of the row's request (the sender sent it). */
	answered(itemIndex: number, outcome: ItemOutcome): void;
	/** The gate cannot go on (its store failed): nothing more is sent. */
	readonly halted: boolean;
	/**
	 * Rows held in doubt with On Error → Stop, each with its error, as soon as known: the run stops
	 * as at a failure at the service, and the sender writes each as one of the run's failures.
	 */
	readonly heldUnderStop: ReadonlyMap<number, NodeOperationError>;
	/** Rows the service accepted before are skipped by later runs (not Send These Rows Again). */
	readonly skipsRowsSent: boolean;
	/** The advice on a row whose answer this run lost. */
	lostAnswerAdvice(itemIndex: number): string;
}
