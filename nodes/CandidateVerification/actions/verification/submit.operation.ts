import type { IDataObject } from 'n8n-workflow';

import { describe, type ItemInput } from '../../engine/itemInput';
import { duplicateProtectionFields } from '../../engine/duplicateProtection/fields';
import { formListName, withoutDocumentUrls } from '../../helpers/checkIdentity';
import type { OperationDefinition, PreparedRequest } from '../../engine/operation';
import type { NodeVersion } from '../../../shared/checks';
import { SUBMISSION_PATH } from '../../../shared/constants';
import { sentOn, submittableChecks, typedCheckFor } from './checks';
import { readText, type DataBuilder } from './checks/shared';
import { verificationSubmitFields } from './fields';
import type { OperationOption } from '../../helpers/descriptions';

export const option: OperationOption = {
	name: 'Submit',
	description:
		'Submit the data of one check for a candidate; creates a submission at the service, which starts (and may bill) the check',
};

export const description = [
	...verificationSubmitFields,
	...duplicateProtectionFields(
		{ resource: ['verification'], operation: ['submit'] },
		'Transaction ID',
		{
			within: 'one transaction’s check',
			apart: 'submissions',
			urls: 'document URLs aside: a new upload of the same data is the same submission',
		},
		true,
	),
];

const buildJsonData: DataBuilder = (input) => {
	let data = input.field('data', 'Data (JSON)', '{}');
	if (data === '') data = {};
	if (typeof data === 'string') {
		try {
			data = JSON.parse(data) as unknown;
		} catch (error) {
			input.problem('Data (JSON)', `it is not valid JSON (${(error as Error).message})`);
			return {};
		}
	}
	if (typeof data !== 'object' || data === null || Array.isArray(data)) {
		input.problem('Data (JSON)', `expected a JSON object, got ${describe(data)}`);
		return {};
	}
	if (Object.keys(data).length === 0) {
		input.problem('Data (JSON)', 'the object is empty; give the fields this check needs');
	}
	return data as IDataObject;
};

function buildSubmission(input: ItemInput): PreparedRequest {
	const transactionId = readText(input, 'transactionId', 'Transaction ID');
	const nodeVersion: NodeVersion = input.nodeVersion >= 2 ? 2 : 1;
	const verificationName = input.oneOf(
		'Check',
		input.param('verificationName', 'Check'),
		submittableChecks(nodeVersion),
	);
	const buildData =
		(verificationName && typedCheckFor(verificationName, nodeVersion)?.build) || buildJsonData;
	const data = verificationName ? buildData(input, verificationName) : {};
	const sentName = verificationName && sentOn(verificationName, nodeVersion);
	return {
		body: { data, verificationName: sentName, transactionId },
		echo: { transactionId, verificationName: sentName },
	};
}

export const operation: OperationDefinition = {
	label: 'Submit a check for a candidate',
	method: 'POST',
	path: SUBMISSION_PATH,
	// Its Mapping Mode field is among its fields, after the fields Map Automatically does not read.
	mappingMode: true,
	build: buildSubmission,
	// The service answers without data: give the next node what it needs to chain on.
	output: (_data, sent) => ({ ...sent.echo, submitted: true }),
	acceptedIdField: 'transactionId',
	duplicateProtection: {
		idFromInput: true,
		seenAt: 'transactionStatus',
		checkOf: ({ body = {} }) => ({
			transactionId: String(body.transactionId),
			check: String(body.verificationName),
		}),
		// The transaction, the check as sent (by its form-list name) and its data without document URLs.
		identity: ({ body = {} }) => ({
			transactionId: body.transactionId,
			check: formListName(body.verificationName),
			data: withoutDocumentUrls(body.data),
		}),
		// A Duplicate Key tells rows apart within one transaction's check: two checks are two rows.
		scope: ({ body = {} }) => ({
			transactionId: body.transactionId,
			check: formListName(body.verificationName),
		}),
	},
};
