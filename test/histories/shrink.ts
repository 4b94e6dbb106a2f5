import type { HistoryOutcome } from './run';
import { runHistory } from './run';
import type { History } from './steps';
import { describeStep } from './steps';

/** Re-runs a shrunk history must all fail to be kept. */
export const CONFIRMING_RUNS = 20;

export interface ShrunkFailure {
	history: History;
	outcome: HistoryOutcome;
	/** Whether the shrunk history failed on every one of CONFIRMING_RUNS re-runs (else the original is kept). */
	confirmed: boolean;
}

/** Every history one smaller than `history`: a step less, or a row less in one step. */
function smaller(history: History): History[] {
	const withoutStep = history.steps.map((_, index) => ({
		...history,
		steps: history.steps.filter((__, other) => other !== index),
	}));
	const withoutRow = history.steps.flatMap((step, index) =>
		step.rows.length < 2
			? []
			: step.rows.map((_, row) => ({
					...history,
					steps: history.steps.map((other, otherIndex) =>
						otherIndex === index
							? { ...other, rows: other.rows.filter((__, otherRow) => otherRow !== row) }
							: other,
					),
				})),
	);
	const alone = history.steps.flatMap((step, index) =>
		step.alongside
			? [
					{
						...history,
						steps: history.steps.map((other, otherIndex) =>
							otherIndex === index ? { ...other, alongside: undefined } : other,
						),
					},
				]
			: [],
	);
	const withoutRowAlongside = history.steps.flatMap((step, index) =>
		!step.alongside || step.alongside.rows.length < 2
			? []
			: step.alongside.rows.map((_, row) => ({
					...history,
					steps: history.steps.map((other, otherIndex) =>
						otherIndex === index && other.alongside
							? {
									...other,
									alongside: {
										...other.alongside,
										rows: other.alongside.rows.filter((__, otherRow) => otherRow !== row),
									},
								}
							: other,
					),
				})),
	);
	return [...withoutStep.reverse(), ...alone, ...withoutRow, ...withoutRowAlongside].filter(
		(candidate) => candidate.steps.length > 0,
	);
}

/**
 * Shrinks a failing history: drops steps, a step's second execution, then rows of a step (of
 * either execution), one at a time and again until
 * nothing can go, while the history still fails; the steps after the failing one go first. The shrunk history is kept only if
 * it fails on every one of CONFIRMING_RUNS re-runs; otherwise the original is returned.
 */
export async function shrink(history: History, outcome: HistoryOutcome): Promise<ShrunkFailure> {
	let current: History = {
		...history,
		steps: history.steps.slice(0, (outcome.failedStep ?? 0) + 1),
	};
	let currentOutcome = outcome;
	let dropped = true;
	while (dropped) {
		dropped = false;
		for (const candidate of smaller(current)) {
			const candidateOutcome = await runHistory(candidate);
			if (candidateOutcome.broken.length > 0) {
				current = candidate;
				currentOutcome = candidateOutcome;
				dropped = true;
				break;
			}
		}
	}
	for (let run = 0; run < CONFIRMING_RUNS; run += 1) {
		if ((await runHistory(current)).broken.length === 0)
			return { history, outcome, confirmed: false };
	}
	return { history: current, outcome: currentOutcome, confirmed: true };
}

/** What a failing history prints: its seed, its steps (shrunk) and the promises it broke. */
export function report({ history, outcome, confirmed }: ShrunkFailure): string {
	return [
		`History seed ${history.seed} broke a promise at step ${outcome.failedStep! + 1}` +
			(confirmed
				? ` (shrunk to ${history.steps.length} steps, failed on ${CONFIRMING_RUNS} of ${CONFIRMING_RUNS} re-runs)`
				: ' (not shrunk: a shrunk history did not fail on every re-run)'),
		`History Size: ${history.historySize ?? 'default'}`,
		...(history.inDoubtWaitMs ? [`In-Doubt Wait: ${history.inDoubtWaitMs} ms`] : []),
		...history.steps.map((step, index) => `  ${index + 1}. ${describeStep(step)}`),
		...outcome.broken.map((broken) => `  broken: ${broken}`),
		`  replay: ${JSON.stringify(history)}`,
	].join('\n');
}
