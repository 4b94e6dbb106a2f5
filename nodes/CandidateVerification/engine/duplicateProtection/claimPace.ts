/**
 * The run's limits on claiming (see DuplicateProtection): `claimLimit` rows claimed and not
 * answered at most (Max Concurrent Requests plus the reserve).
 */
type ClaimLimits = Record<'claimLimit' | 'concurrency' | 'reserve', number>;

/**
 * The free slots at which the next claim costs the run least per row it claims. A claim takes
 * `claimMs`, also of the sending process's time (n8n parses and rewrites the node's whole record),
 * and is made while the requests in flight are answered (`answersPerMs`). Per row claimed at `free`
 * slots that is (claimMs + the wait for it once every request is answered) / free: least at the most
 * slots whose answers still hide the claim, unless the answers outrun twice a claim (then at all).
 */
export function cheapestClaimThreshold(
	{ claimLimit, concurrency, reserve }: ClaimLimits,
	answersPerMs: number,
	claimMs: number,
): number {
	const answeredDuringAClaim = answersPerMs * claimMs;
	if (2 * answeredDuringAClaim >= claimLimit) return concurrency;
	return Math.max(reserve, Math.min(concurrency, Math.floor(claimLimit - answeredDuringAClaim)));
}

/**
 * When the next claim is made, learned in the run: a claim's time grows with the rows recorded. The
 * answers' pace is measured between claims; until both were measured, a claim is made at half the slots.
 */
export class ClaimPace {
	slotsWorthAClaim: number;

	private answers = 0;

	private claimStartedAt?: number;

	private answersPerMs?: number;

	private sendingSince?: { at: number; answers: number };

	constructor(readonly limits: ClaimLimits) {
		this.slotsWorthAClaim = Math.max(limits.reserve, Math.floor(limits.concurrency / 2));
	}

	answered(): void {
		this.answers += 1;
	}

	claimStarted(now = Date.now()): void {
		this.claimStartedAt = now;
		const since = this.sendingSince;
		if (since && now > since.at && this.answers > since.answers) {
			this.answersPerMs = (this.answers - since.answers) / (now - since.at);
		}
	}

	claimDone(now = Date.now()): void {
		if (this.claimStartedAt === undefined) return;
		const claimMs = Math.max(1, now - this.claimStartedAt);
		this.sendingSince = { at: now, answers: this.answers };
		if (this.answersPerMs !== undefined) {
			this.slotsWorthAClaim = cheapestClaimThreshold(this.limits, this.answersPerMs, claimMs);
		}
	}
}
