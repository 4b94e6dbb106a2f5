/** The run's limits on claiming: see DuplicateProtection. */
export interface ClaimLimits {
	/** Rows claimed and not answered at most (Max Concurrent Requests plus the reserve). */
	claimLimit: number;
	concurrency: number;
	reserve: number;
}

/**
 * Share of a claim's time that also slows the requests: n8n parses and rewrites the node's whole
 * record in the process that sends them, and the database does the rest, as a rule on the same
 * machines. Counted whole (with half, 1000-row runs at 20 ms of latency made twice the claims and took
 * longer on Postgres with 10,000 rows recorded).
 */
const BUSY_SHARE_OF_A_CLAIM = 1;

/**
 * The free slots at which the next claim costs the run least per row it claims. A claim takes
 * `claimMs` and is made while the requests still in flight are answered (at `answersPerMs`): if
 * they are all answered before it is made, sending waits for it. A later claim hides better; a
 * larger one is needed less often.
 */
export function cheapestClaimThreshold(
	{ claimLimit, concurrency, reserve }: ClaimLimits,
	answersPerMs: number,
	claimMs: number,
): number {
	const busyMs = claimMs * BUSY_SHARE_OF_A_CLAIM;
	let best = concurrency;
	let bestCost = Number.POSITIVE_INFINITY;
	for (let free = Math.max(1, reserve); free <= concurrency; free++) {
		const answeringMs =
			answersPerMs > 0 ? (claimLimit - free) / answersPerMs : Number.POSITIVE_INFINITY;
		const waitMs = Math.max(0, claimMs - answeringMs);
		const costPerRow = (waitMs + busyMs) / free;
		if (costPerRow <= bestCost) {
			best = free;
			bestCost = costPerRow;
		}
	}
	return best;
}

/**
 * When the next claim is made, learned in the run: every claim reads and writes the node's whole
 * record, so its time grows with the rows recorded. The answers' pace is measured between claims
 * (while sending does not wait for one); until both were measured, a claim is made once half the
 * slots are free.
 */
export class ClaimPace {
	private threshold: number;

	private answers = 0;

	private claimStartedAt?: number;

	private claimMs?: number;

	private answersPerMs?: number;

	private sendingSince?: { at: number; answers: number };

	constructor(private readonly limits: ClaimLimits) {
		this.threshold = Math.max(limits.reserve, Math.floor(limits.concurrency / 2));
	}

	/** Free slots worth a claim. */
	get slotsWorthAClaim(): number {
		return this.threshold;
	}

	answered(): void {
		this.answers += 1;
	}

	claimStarted(now = Date.now()): void {
		this.claimStartedAt = now;
		if (this.sendingSince && now > this.sendingSince.at) {
			const answers = this.answers - this.sendingSince.answers;
			if (answers > 0) this.answersPerMs = answers / (now - this.sendingSince.at);
		}
		this.sendingSince = undefined;
	}

	claimDone(now = Date.now()): void {
		if (this.claimStartedAt === undefined) return;
		this.claimMs = Math.max(1, now - this.claimStartedAt);
		this.claimStartedAt = undefined;
		this.sendingSince = { at: now, answers: this.answers };
		if (this.answersPerMs !== undefined) {
			this.threshold = cheapestClaimThreshold(this.limits, this.answersPerMs, this.claimMs);
		}
	}
}
