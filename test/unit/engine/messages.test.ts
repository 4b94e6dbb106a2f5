import * as say from '../../../nodes/CandidateVerification/engine/duplicateProtection/messages';

/** How the end-to-end scripts tell an item in doubt (test/e2e/in-doubt.js). */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain script of the e2e suite
const { HELD_IN_DOUBT, isInDoubt } = require('../../e2e/in-doubt') as {
	HELD_IN_DOUBT: RegExp;
	isInDoubt: (json: { error?: string }) => boolean;
};

describe('Duplicate protection’s texts, as the end-to-end scripts read them', () => {
	const whenSafe = say.whenSafeToSendAgain(60_000, 2);
	const where = say.whereToCheck([undefined]);

	it('a row held in doubt: its message names its item', () => {
		const { message, description } = say.heldInDoubt({
			label: 'Add a candidate to a form',
			itemIndex: 7,
			whereToCheck: where,
			whenSafe,
			stops: false,
		});
		expect(HELD_IN_DOUBT.exec(message)?.[1]).toBe('7');
		expect(isInDoubt({ error: `${message}\n${description}` })).toBe(true);
	});

	it('a row whose answer was lost: its advice says it is held in doubt', () => {
		const advice = say.lostAnswerAdvice(where, whenSafe);
		expect(isInDoubt({ error: `Add a candidate to a form failed\n${advice}` })).toBe(true);
		expect(isInDoubt({ error: 'Add a candidate to a form failed' })).toBe(false);
	});

	it('where to check: the transaction IDs when every row has one, else the dashboard; a resolution in Get Check Status', () => {
		expect(say.whereToCheck(['TXN-1', 'TXN-2'], 'transactionStatus')).toMatch(
			/^Transaction → Get Status for TXN-1, TXN-2 /,
		);
		expect(say.whereToCheck(['TXN-1'], 'checkStatus')).toMatch(
			/^Transaction → Get Check Status for TXN-1 shows whether the check still waits for this answer/,
		);
		expect(say.whereToCheck(['TXN-1', ''], 'transactionStatus')).toBe(
			say.whereToCheck([undefined]),
		);
		expect(say.whereToCheck(['TXN-1'])).toBe(say.whereToCheck([undefined]));
	});

	it('when a row in doubt is safe: also once a queue-mode worker that ran it is restarted or gone (a paused one may still send it)', () => {
		expect(whenSafe).toContain('the worker that ran it was restarted or is gone');
	});

	it('when a row in doubt is safe to send again: its tries, their timeouts and a minute', () => {
		expect(whenSafe).toContain('at least 240 s');
		expect(say.whenSafeToSendAgain(1500, 0)).toContain('at least 62 s');
	});
});
