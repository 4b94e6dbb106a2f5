import type { OperationDefinition } from '../../engine/operation';
import { ACTIONS } from '../../../shared/actions';
import { TRANSACTION_STATUS_PATH } from '../../../shared/constants';
import { buildStatusQuery, organisationIdField } from './shared';

// Transaction ID is declared with Verification → Submit's fields.
export const description = [organisationIdField('getStatus')];

export const operation: OperationDefinition = {
	label: ACTIONS.transactionGetStatus,
	method: 'GET',
	path: TRANSACTION_STATUS_PATH,
	build: buildStatusQuery,
	output: (data) => data,
};
