// eslint-disable-next-line @n8n/community-nodes/no-restricted-imports -- test code run by jest, never published
import { readFileSync } from 'node:fs';

import nock from 'nock';

import { runHistory } from './run';
import { report, shrink } from './shrink';
import type { History } from './steps';
import { generateHistory } from './steps';

/**
 * Duplicate protection's promises checked over random histories (test/histories/README in
 * docs/development.md): from CV_HISTORY_SEED (1), CV_HISTORIES histories, at least
 * CV_HISTORIES_MIN (100) and then as many as fit in CV_HISTORIES_SECONDS (60).
 */
// eslint-disable-next-line @n8n/community-nodes/no-restricted-globals -- test code run by jest, never published
const env = process.env;
const FIRST_SEED = Number(env.CV_HISTORY_SEED ?? 1);
const AT_LEAST = Number(env.CV_HISTORIES ?? env.CV_HISTORIES_MIN ?? 100);
const FIXED = env.CV_HISTORIES !== undefined;
const BUDGET_MS = Number(env.CV_HISTORIES_SECONDS ?? 60) * 1000;

/**
 * CV_HISTORY_REPLAY: a failing history's replay JSON (or a file holding it), run CV_REPLAYS times (1),
 * printing each run's outcome: what `npm run test:histories -- --replay FILE` runs.
 */
const REPLAY = env.CV_HISTORY_REPLAY;

describe('duplicate protection over random histories', () => {
	beforeAll(() => nock.disableNetConnect());
	afterAll(() => nock.enableNetConnect());

	// Registered only to replay, so the suite never reports a skipped test.
	if (REPLAY)
		it(
			'replays a history',
			async () => {
				const text = REPLAY!.trim().startsWith('{') ? REPLAY! : readFileSync(REPLAY!, 'utf8');
				const history = JSON.parse(text) as History;
				for (let run = 1; run <= Number(env.CV_REPLAYS ?? 1); run += 1) {
					const outcome = await runHistory(history);
					// eslint-disable-next-line no-console -- test output read by people, never published
					console.log(
						outcome.broken.length === 0
							? `run ${run}: every promise kept`
							: `run ${run}: broke a promise at step ${outcome.failedStep! + 1}\n  ${outcome.broken.join('\n  ')}`,
					);
				}
			},
			24 * 3600 * 1000,
		);

	if (!REPLAY)
		it(
			'keeps every promise after every step',
			async () => {
				const started = Date.now();
				let seed = FIRST_SEED;
				for (
					;
					seed < FIRST_SEED + AT_LEAST || (!FIXED && Date.now() - started < BUDGET_MS);
					seed += 1
				) {
					const history = generateHistory(seed);
					const outcome = await runHistory(history);
					if (outcome.broken.length > 0) {
						const failure = report(await shrink(history, outcome));
						// eslint-disable-next-line no-console -- test output read by people, never published
						console.log(failure);
						throw new Error(failure);
					}
				}
				// eslint-disable-next-line no-console -- test output read by people, never published
				console.log(
					`${seed - FIRST_SEED} histories from seed ${FIRST_SEED}: 0 violations in ${((Date.now() - started) / 1000).toFixed(1)} s`,
				);
			},
			24 * 3600 * 1000,
		);
});
