import {
	heldInDoubt,
	lostAnswerAdvice,
	whenSafeToSendAgain,
	whereToCheck,
	type ErrorText,
} from '../../nodes/CandidateVerification/engine/duplicateProtection/messages';
import { operation as profileCreateOperation } from '../../nodes/CandidateVerification/actions/profile/create.operation';

/** Profile → Create's default Timeout (ms) and Retries on Transient Failures. */
const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_RETRIES = 2;

/** A Profile → Create row has no transaction ID: the service's dashboard is where to check. */
export const PROFILE_WHERE_TO_CHECK = whereToCheck([undefined]);

/** When a Profile → Create row in doubt is safe to send again, with `retries` (Timeout 60 s). */
export function profileWhenSafe(retries = DEFAULT_RETRIES): string {
	return whenSafeToSendAgain(DEFAULT_TIMEOUT_MS, retries);
}

/** The advice on a Profile → Create row whose answer was lost, with duplicate protection on. */
export function profileLostAnswerAdvice(retries = DEFAULT_RETRIES): string {
	return lostAnswerAdvice(PROFILE_WHERE_TO_CHECK, profileWhenSafe(retries));
}

/**
 * The advice on a Profile → Create row whose answer was lost, with duplicate protection on (the
 * default settings).
 */
export const PROFILE_LOST_ANSWER_ADVICE = profileLostAnswerAdvice();

/**
 * A Profile → Create row held in doubt (On Error → Stop unless `stops` is false); `waitedSeconds`:
 * how long the run waited for its answer, if it did.
 */
export function profileInDoubt(
	itemIndex: number,
	{
		retries = DEFAULT_RETRIES,
		stops = true,
		waitedSeconds,
	}: { retries?: number; stops?: boolean; waitedSeconds?: number } = {},
): ErrorText {
	return heldInDoubt({
		label: profileCreateOperation.label,
		itemIndex,
		waitedSeconds,
		whereToCheck: PROFILE_WHERE_TO_CHECK,
		whenSafe: profileWhenSafe(retries),
		stops,
	});
}
