'use strict';

/**
 * How the end-to-end scripts tell an item in doubt, from the node's own texts
 * (nodes/CandidateVerification/engine/duplicateProtection/messages.ts): a row an earlier try or
 * execution sent without an answer (`heldInDoubt`), and a row whose own answer was lost (`lostAnswerAdvice`).
 * test/unit/duplicate-protection.test.ts checks both against what the node outputs.
 */

/** A row an earlier try or execution sent, held in doubt: the error's message (its item is the match's group 1). */
const HELD_IN_DOUBT = /^Item (\d+) was sent by an earlier try or execution that got no answer/;
/** The advice on a row whose answer this run lost. */
const ANSWER_LOST_IN_DOUBT = /Duplicate protection holds this row as in doubt/;

/**
 * An output item in doubt: `inDoubt` (On Error → Continue, regular output) or, on the error output
 * (where n8n passes only `error`, the message then the advice), its text.
 */
function isInDoubt(json) {
	const error = typeof json.error === 'string' ? json.error : '';
	return json.inDoubt === true || HELD_IN_DOUBT.test(error) || ANSWER_LOST_IN_DOUBT.test(error);
}

module.exports = { HELD_IN_DOUBT, isInDoubt };
