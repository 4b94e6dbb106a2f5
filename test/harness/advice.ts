/**
 * The advice on a Profile → Create row whose answer was lost, with duplicate protection on (the
 * default), written out as the user reads it.
 */
export const PROFILE_LOST_ANSWER_ADVICE =
	'No clear answer came (a timeout, a reset, a cancel, a 5xx or an answer that is not the service’s), so the service may have created it. The service’s dashboard lists what it holds (the API cannot list or search them). Duplicate protection holds this row as in doubt: later runs of this node with Skip Rows Sent Before do not send it. If the service has it, run only this row with Duplicate Protection → Record Rows as Sent and the ID the service gave it; if not, once no execution that sent it is still running (Executions list) and at least 240 s (Timeout × (Retries + 1) + 60 s) have passed since it ended, run only this row with Send These Rows Again.';
