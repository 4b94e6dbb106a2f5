import type { IDataObject } from 'n8n-workflow';

import type { NodeRunResult } from '../harness/run-node';
import { ProtectionModel } from './model';
import type { Creation, ServiceRequest } from './service';
import type { Row, Step } from './steps';
import { acts, describeRow as describeRowOf, isOneOff, operationOf } from './steps';

/** What one step did, as the promises read it. */
export interface StepObservation {
	step: Step;
	/** The rows of the execution started at the same time, if any (its requests are among these). */
	otherRows: Row[];
	/** The model before the step ran. */
	model: ProtectionModel;
	result: NodeRunResult;
	/** The service's requests and creations during the step, each with the row it was for. */
	requests: Array<ServiceRequest & { row: Row }>;
	creations: Array<Creation & { row: Row }>;
	/** The IDs given to Record Rows as Sent, per input item. */
	personIds: string[];
	/** Whether the node's record in n8n's store is as it was before the step. */
	recordUnchanged: boolean;
}

const sameRow = (a: Row, b: Row) => a[0] === b[0] && a[1] === b[1];

/**
 * The promises of point 1 of issue 51, each checked against the service's truth and the outputs;
 * returns the broken ones, each named.
 */
export function brokenPromises(observation: StepObservation): string[] {
	const { step, model, result, requests, creations } = observation;
	const broken: string[] = [];
	// Rows named as the step's operation names them (a Submit row: its transaction's check).
	const describeRow = (row: Row) => describeRowOf(row, operationOf(step));

	// 1 and 2: a row the record holds (accepted, or its answer lost) is not created again, unless
	// a documented exception allows it (Off, Send These Rows Again, History Size, another credential
	// or Duplicate Key: the last three are in the model's identity and History Size).
	if (!ProtectionModel.maySendAgain(step)) {
		const newRows = model.newRows(
			[...step.rows, ...observation.otherRows].map((row) => ProtectionModel.identity(step, row)),
		);
		for (const creation of creations) {
			const identity = ProtectionModel.identity(step, creation.row);
			if (model.protects(identity, newRows))
				broken.push(
					`sent again and created: ${describeRow(creation.row)} (${creation.transactionId}) was in the record (accepted or in doubt) before this step`,
				);
		}
	}
	// Within one execution, Retry On Fail's tries included, a row is created at most once per item
	// of the input (and once under Skip Rows Sent Before, which names the second item), also with
	// another execution of the same rows at the same time.
	const stepRows = [...step.rows, ...observation.otherRows];
	const forgetsWithin = model.mayForgetWithin(stepRows.map((row) => describeRow(row)));
	for (const creation of forgetsWithin ? [] : creations) {
		const times = creations.filter((other) => sameRow(other.row, creation.row)).length;
		const items = stepRows.filter((row) => sameRow(row, creation.row)).length;
		const allowed = step.protection === 'skipSent' ? 1 : items;
		if (times > allowed && creation === creations.find((c) => sameRow(c.row, creation.row)))
			broken.push(
				`created ${times} times in one step (its executions, all their tries): ${describeRow(creation.row)} (${items} item(s))`,
			);
	}

	// 3: no row is output as sent unless the service accepted it (and n8n saw the answer) or a
	// person recorded it; an ID output is the one the service gave or the person recorded.
	// Forget All and Release Stuck Lock pass their input through.
	const passesThrough = step.protection === 'forgetAll' || step.protection === 'releaseLock';
	// A node that threw under On Error → Continue: n8n passes the input items through (no output of the node's).
	const outputs = (passesThrough && acts(step)) || result.error !== undefined ? [] : result.items;
	outputs.forEach((item) => {
		const json = item.json as IDataObject;
		if (json.error !== undefined) return;
		const index = (item.pairedItem as { item: number } | undefined)?.item ?? -1;
		const row = step.rows[index];
		if (!row) {
			broken.push(`an output item without its input row: ${JSON.stringify(json)}`);
			return;
		}
		const identity = ProtectionModel.identity(step, row);
		const id = json.transactionId === undefined ? undefined : String(json.transactionId);
		const deliveredNow = creations.some(
			(creation) =>
				sameRow(creation.row, row) && creation.delivered && creation.transactionId === id,
		);
		if (json.recordedAsSent === true) {
			if (id !== observation.personIds[index])
				broken.push(`recorded ${describeRow(row)} as ${id}, given ${observation.personIds[index]}`);
			return;
		}
		if (json.alreadySent === true) {
			// Accepted before, or during this step for the execution running at the same time; or
			// recorded by this step's Record Rows as Sent in an earlier Retry On Fail try.
			const known = new Set([
				...(model.accepted.get(identity) ?? []),
				...(model.recordedByPerson.get(identity) ?? []),
				...(step.protection === 'recordAsSent' && acts(step) ? [observation.personIds[index]] : []),
				...creations
					.filter((creation) => sameRow(creation.row, row) && creation.delivered)
					.map((creation) => creation.transactionId),
			]);
			if (known.size === 0)
				broken.push(`output as sent before: ${describeRow(row)}, never accepted nor recorded`);
			else if (id !== undefined && !known.has(id))
				broken.push(
					`output as sent before: ${describeRow(row)} with ${id}, not one of ${[...known]}`,
				);
			return;
		}
		if (!deliveredNow)
			broken.push(
				`output as sent: ${describeRow(row)} with ${id}, no acceptance with that ID reached n8n`,
			);
	});

	// 4: a one-off tool never acts in an execution a person did not start (Act in Any Execution off).
	if (isOneOff(step) && !acts(step)) {
		if (requests.length > 0)
			broken.push(
				`${step.protection} in a ${step.executionMode} execution sent ${requests.length} request(s)`,
			);
		if (!observation.recordUnchanged)
			broken.push(`${step.protection} in a ${step.executionMode} execution changed the record`);
	}
	return broken;
}
