import type { OperationDefinition } from '../../engine/operation';
import { ACTIONS } from '../../../shared/actions';
import { TRANSACTION_STATUS_PATH } from '../../../shared/constants';
import { buildStatusQuery, organisationIdField } from './shared';
import type { OperationOption } from '../../helpers/descriptions';

// Transaction ID is declared with Verification → Submit's fields.
export const option: OperationOption = {
	name: 'Get Status',
	description:
		'Read a candidate’s overall state, each check’s state, the candidate details and the report URL (changes nothing)',
};

export const description = [organisationIdField('getStatus')];

export const operation: OperationDefinition = {
	label: ACTIONS.transactionGetStatus,
	method: 'GET',
	path: TRANSACTION_STATUS_PATH,
	build: buildStatusQuery,
	// The provider's current page answers with the transaction's `_id` and no `transactionId`: the ID
	// asked is added where the answer lacks it, so `$json.transactionId` reads the same from both pages.
	output: (data, prepared) =>
		data.transactionId === undefined ? { ...data, transactionId: prepared.qs?.txnId } : data,
};
