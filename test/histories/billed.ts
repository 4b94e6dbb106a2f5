import type { IDataObject } from 'n8n-workflow';

import type { NodeRunResult } from '../harness/run-node';
import type { BilledCall } from './service';
import { BILLED_OUTCOMES } from './service';
import type { Step } from './steps';
import { describeRow, PANS } from './steps';

/** What one Verify PAN execution did, as its promises read it. */
export interface BilledObservation {
	step: Step;
	result: NodeRunResult;
	/** The service's Verify PAN calls from this execution (all its tries). */
	calls: BilledCall[];
	/** Whether a person stopped this execution (n8n cancels it: it outputs nothing). */
	stoppedByPerson: boolean;
}

/** The items a stopped run's error lists as answered and billed (answeredBeforeStop's words). */
function listedAsAnswered(result: NodeRunResult): number[] {
	const text = `${result.error?.message ?? ''} ${String(result.error?.description ?? '')}`;
	const start = text.indexOf('Already answered by the service and billed');
	if (start < 0) return [];
	// The list ends with its sentence; the rest of the description names the items to run.
	const listed = text.slice(start).split(/\.\s/)[0];
	return [...listed.matchAll(/item (\d+)/g)].map((match) => Number(match[1]));
}

/**
 * Promise 5 for a billed call (docs/duplicate-protection.md), and its answers kept, for one Verify
 * PAN execution: returns the broken ones, each named.
 * - Within one execution, all of Retry On Fail's tries included, a PAN is called at most once per
 *   input item of that PAN, besides calls the service clearly refused (not billed; the node calls
 *   those again, test/unit/retry-on-fail.test.ts), so it is billed at most once per item.
 * - An item the service answered with a result reaching n8n is output (main output), or listed as
 *   answered in the error of a run that stops: never only an error.
 * - An item output as answered carries the answer the service gave for its PAN (both answer shapes:
 *   `pan` and `fullName` at the top level), and no PAN is output as answered without a call answered.
 */
export function brokenBilledPromises(observation: BilledObservation): string[] {
	const { step, result, calls, stoppedByPerson } = observation;
	const broken: string[] = [];
	const name = (pan: number) => describeRow([0, pan], 'verifyPan');
	const itemsOf = (pan: number) => step.rows.filter(([, other]) => other === pan).length;
	const pans = [...new Set(step.rows.map(([, pan]) => pan))];

	for (const pan of pans) {
		const ofPan = calls.filter((call) => call.pan === pan);
		// The node cannot tell a 5xx or a timeout before acting from one after: only a clear refusal
		// lets it call again.
		const notRefused = ofPan.filter((call) => call.outcome !== 'refuse').length;
		if (notRefused > itemsOf(pan))
			broken.push(
				`called ${notRefused} times in one execution without a clear refusal, billed ${
					ofPan.filter((call) => BILLED_OUTCOMES.includes(call.outcome)).length
				} times: ${name(pan)} (${itemsOf(pan)} item(s); outcomes ${ofPan
					.map((call) => call.outcome)
					.join(', ')})`,
			);
	}

	const outputs = result.items.filter((item) => (item.json as IDataObject).error === undefined);
	const outputPans = outputs.map((item) => {
		const index = (item.pairedItem as { item: number } | undefined)?.item ?? -1;
		return step.rows[index]?.[1] ?? -1;
	});
	outputs.forEach((item, which) => {
		const json = item.json as IDataObject;
		const pan = outputPans[which];
		if (pan < 0) {
			broken.push(`an output item without its input PAN: ${JSON.stringify(json)}`);
			return;
		}
		if (json.pan !== PANS[pan].pan || json.fullName !== PANS[pan].fullName || json.valid !== true)
			broken.push(`output for ${name(pan)} is not its answer: ${JSON.stringify(json)}`);
	});
	const listed = listedAsAnswered(result).map((index) => step.rows[index]?.[1] ?? -1);
	for (const pan of pans) {
		const answered = calls.filter((call) => call.pan === pan && call.outcome === 'accept').length;
		const kept = [...outputPans, ...listed].filter((other) => other === pan).length;
		if (answered === 0 && outputPans.includes(pan))
			broken.push(`output as answered: ${name(pan)}, no answer reached n8n`);
		if (!stoppedByPerson && kept < Math.min(answered, itemsOf(pan)))
			broken.push(
				`answered ${answered} time(s) and billed, but output or listed for ${kept} item(s): ${name(pan)}`,
			);
	}
	return broken;
}
