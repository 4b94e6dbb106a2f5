import type {
	IDataObject,
	IExecuteFunctions,
	IN8nHttpFullResponse,
	INode,
	INodeExecutionData,
	INodeProperties,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ItemCall, OperationDefinition } from '../../engine/operation';
import { fillPath } from '../../../shared/paths';
import { ACTIONS } from '../../../shared/actions';
import { CHECK_STATUS_PATH } from '../../../shared/constants';
import {
	CHECK_OPTIONS_V2,
	CHECK_STATUS_OTHER_NAME_V2,
	DIGITAL_ADDRESS_OTHER_NAME,
	FORM_VERIFICATION_NAMES,
	SUBMITTABLE_CHECKS,
	SUBMITTABLE_CHECKS_V2,
} from '../../../shared/checks';
import { checkItemsOf, checkStatusOutput } from '../../../shared/checkStatus';
import { assertSuccessfulResponse, type ServiceEnvelope } from '../../../shared/transport/errors';
import { buildStatusQuery, organisationIdField } from './shared';
import type { OperationOption } from '../../helpers/descriptions';
import { fromVersion } from '../../helpers/versions';

// Transaction ID is declared with Verification → Submit's fields.
export const option: OperationOption = {
	name: 'Get Check Status',
	description:
		'Read one check’s state, note, request, response, documents and report URL (changes nothing)',
};

export const description: INodeProperties[] = [
	...[FORM_VERIFICATION_NAMES, CHECK_OPTIONS_V2].map(
		(options, index): INodeProperties => ({
			displayName: 'Check',
			name: 'verificationName',
			type: 'options',
			default: 'bgv-employment',
			options: [...options],
			// Version 2 reads the check by the name Verification → Submit sent.
			description:
				index === 0
					? 'The check to read, one of the checks of the candidate’s form'
					: 'The check to read, by the name Verification → Submit sent for it',
			displayOptions: {
				show: {
					'@version': index === 0 ? [1] : fromVersion(2),
					resource: ['transaction'],
					operation: ['getCheckStatus'],
				},
			},
		}),
	),
	organisationIdField('getCheckStatus'),
];

const LABEL = ACTIONS.transactionGetCheckStatus;

/**
 * The service's answer that it has no check of that name for the transaction: HTTP 404 (the
 * sandbox: `{ code: -1, message: 'Verification not found for this transaction' }`), or a refusal
 * whose message says "not found" (a live service may answer it under HTTP 200). Read on the error
 * the envelope check throws (its httpCode and its message, which carries the service's message).
 */
function isNotFound(error: unknown): error is NodeApiError {
	return (
		error instanceof NodeApiError &&
		(error.httpCode === '404' || /\bnot found\b/i.test(error.message))
	);
}

/** A failure as the engine reports it (the envelope check and callService throw these). */
function nodeError(node: INode, caught: unknown): NodeApiError | NodeOperationError {
	return caught instanceof NodeApiError || caught instanceof NodeOperationError
		? caught
		: new NodeOperationError(node, caught as Error);
}

/**
 * Version 2: an answer listing no check (`code: 0` with an empty `data.data`, as the public pages'
 * list shape answers a check the transaction does not have) is not found, like a 404: an error
 * isNotFound reads, so the other name is asked. Version 1 keeps 0.3.1's output, the answer as sent.
 */
function found(node: INode, envelope: ServiceEnvelope, name: string): ServiceEnvelope {
	if (node.typeVersion < 2 || checkItemsOf(envelope.data ?? {}).length > 0) return envelope;
	throw new NodeApiError(node, envelope as unknown as JsonObject, {
		message: `${LABEL} found nothing: the Candidate Verification Service answered that ${name} is not found for this transaction (code 0, an empty list)`,
		description:
			'Check the Check and the Transaction ID: Transaction → Get Status lists the checks the transaction has.',
		httpCode: '404',
	});
}

/**
 * The check's status under the name asked; when the service answers not found and the check has
 * another name (CHECK_STATUS_OTHER_NAME_V2 on version 2: a digital address's other name, the
 * certificate's form-list name; DIGITAL_ADDRESS_OTHER_NAME on version 1), asked once more under that
 * name, a read being safe to repeat. The operation reads its own answer (`output.read`) because only
 * after the answer is known whether a second request is needed (`beforeSend` runs before); the second
 * goes with `call.callService` (the run's credential, settings and retries). Both not found: the
 * first name's refusal. Version 2's items say which name was read (`readUnder`).
 */
async function readCheckStatus(
	this: IExecuteFunctions,
	response: IN8nHttpFullResponse,
	call: ItemCall,
): Promise<INodeExecutionData[]> {
	const { node } = call;
	const asked = call.prepared.pathParameters?.verificationName ?? '';
	let readUnder = asked;
	let envelope: ServiceEnvelope;
	try {
		envelope = found(node, assertSuccessfulResponse(node, LABEL, response), asked);
	} catch (caught) {
		const refusal = nodeError(node, caught);
		const other = (node.typeVersion >= 2 ? CHECK_STATUS_OTHER_NAME_V2 : DIGITAL_ADDRESS_OTHER_NAME)[
			asked
		];
		if (other === undefined || !isNotFound(refusal)) throw refusal;
		try {
			const answer = await call.callService(`${LABEL} (under its other name, ${other})`, {
				method: 'GET',
				url: fillPath(CHECK_STATUS_PATH, { verificationName: other }),
				qs: call.request.qs,
			});
			envelope = found(node, answer, other);
			readUnder = other;
		} catch (caughtAgain) {
			const second = nodeError(node, caughtAgain);
			if (!isNotFound(second)) throw second;
			refusal.description = [refusal.description, `Not found under ${other} either.`]
				.filter(Boolean)
				.join('\n');
			throw refusal;
		}
	}
	return checkStatusItems(envelope.data ?? {}, node.typeVersion, readUnder).map((json) => ({
		json,
		pairedItem: { item: call.itemIndex },
	}));
}

/**
 * The output items of one answer. Version 2: one per check (checkStatusOutput), each with
 * `readUnder`, the check name its status was read under. Version 1 keeps 0.3.1's output, the
 * answer's data as sent, so saved expressions such as `$json.data[0].state` still read it: a list
 * answer stays one item; a single check gains reportUrl, verificationId and insufficiencies beside
 * its own fields.
 */
export function checkStatusItems(
	data: IDataObject,
	typeVersion: number,
	readUnder: string,
): IDataObject[] {
	if (typeVersion < 2) return Array.isArray(data.data) ? [data] : checkStatusOutput(data);
	return checkStatusOutput(data).map((item) => ({ ...item, readUnder }));
}

export const operation: OperationDefinition = {
	label: LABEL,
	method: 'GET',
	path: CHECK_STATUS_PATH,
	build: (input) => {
		// Also the submission name of the police check, from an expression.
		const check = input.oneOf(
			'Check',
			input.param('verificationName', 'Check'),
			input.nodeVersion >= 2 ? SUBMITTABLE_CHECKS_V2 : SUBMITTABLE_CHECKS,
		);
		return { ...buildStatusQuery(input), pathParameters: { verificationName: check ?? '' } };
	},
	// The answer's fields, plus reportUrl, verificationId and insufficiencies (one item per check
	// when the service answers a list, as its public documentation shows).
	output: { read: readCheckStatus, requestOptions: {} },
};
