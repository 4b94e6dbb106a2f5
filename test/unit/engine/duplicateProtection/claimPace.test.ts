import {
	ClaimPace,
	cheapestClaimThreshold,
} from '../../../../nodes/CandidateVerification/engine/duplicateProtection/claimPace';

/** The defaults: Max Concurrent Requests 200 and a reserve of 25 claimed ahead. */
const DEFAULT_LIMITS = { claimLimit: 225, concurrency: 200, reserve: 25 };

describe('When duplicate protection makes its next claim', () => {
	it('answers faster than any claim can hide behind (a big record, a service answering at once): as seldom as the slots allow', () => {
		// 1.5 answers per ms: the 200 requests claimable in flight are answered in 133 ms, a claim takes 200.
		expect(cheapestClaimThreshold(DEFAULT_LIMITS, 1.5, 200)).toBe(200);
	});

	it('answers slower than a claim: the largest claim still made while requests are in flight', () => {
		// 0.5 answers per ms and 100 ms a claim: 50 answers come meanwhile, so a claim at 175 free slots
		// is made while the other 50 are answered; one at 200 would leave sending waiting 50 ms.
		// (Per row claimed: 100 ms / 175 against 150 ms / 200.)
		expect(cheapestClaimThreshold(DEFAULT_LIMITS, 0.5, 100)).toBe(175);
	});

	it('no answer came between claims: a claim once every slot is free', () => {
		expect(cheapestClaimThreshold(DEFAULT_LIMITS, 0, 100)).toBe(200);
	});

	it('never below the reserve, never above Max Concurrent Requests', () => {
		const limits = { claimLimit: 5, concurrency: 4, reserve: 1 };
		for (const [rate, claimMs] of [
			[0.001, 1],
			[10, 1],
			[0.5, 1000],
			[100, 1000],
		]) {
			const threshold = cheapestClaimThreshold(limits, rate, claimMs);
			expect(threshold).toBeGreaterThanOrEqual(1);
			expect(threshold).toBeLessThanOrEqual(4);
		}
	});

	it('a claim of fewer than half of Max Concurrent Requests never pays off, whatever the pace', () => {
		for (const rate of [0.01, 0.1, 0.5, 1, 1.5, 3, 10]) {
			for (const claimMs of [1, 10, 50, 100, 140, 300, 1000]) {
				expect(cheapestClaimThreshold(DEFAULT_LIMITS, rate, claimMs)).toBeGreaterThanOrEqual(100);
			}
		}
	});

	it('learns the pace in the run: half the slots until a claim and the answers between two claims were timed', () => {
		const pace = new ClaimPace(DEFAULT_LIMITS);
		expect(pace.slotsWorthAClaim).toBe(100);

		// The first claim (before any request) takes 40 ms; 100 answers come in the 200 ms after it.
		pace.claimStarted(0);
		pace.claimDone(40);
		expect(pace.slotsWorthAClaim).toBe(100);
		for (let answer = 0; answer < 100; answer++) pace.answered();
		pace.claimStarted(240);
		// That claim took 100 ms at 0.5 answers per ms: as in the case above.
		pace.claimDone(340);
		expect(pace.slotsWorthAClaim).toBe(175);
	});
});
