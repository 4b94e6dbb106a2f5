import type { INodeProperties } from 'n8n-workflow';

import {
	mappingModeFor,
	operationFields,
	operationSelector,
	type ResourceOperations,
} from '../../helpers/descriptions';
import * as aadhaarGetResult from './aadhaarGetResult.operation';
import * as aadhaarStart from './aadhaarStart.operation';
import * as getEmploymentHistory from './getEmploymentHistory.operation';
import { RESOURCE, VALID_MEANING } from './shared';
import * as verifyBankAccount from './verifyBankAccount.operation';
import * as verifyDin from './verifyDin.operation';
import * as verifyGst from './verifyGst.operation';
import * as verifyPan from './verifyPan.operation';
import * as verifyUpi from './verifyUpi.operation';

/** How the Resource selector names the resource. */
export const displayName = 'Instant KYC';

/** The resource's operations by value, in the order its Operation selector lists them. */
export const operations = {
	aadhaarGetResult,
	aadhaarStart,
	getEmploymentHistory,
	verifyBankAccount,
	verifyDin,
	verifyGst,
	verifyPan,
	verifyUpi,
} satisfies ResourceOperations;

export const description: INodeProperties[] = [
	{ ...operationSelector(RESOURCE, operations), default: 'verifyPan' },
	{
		displayName: `Each call is billed by the provider and answers at once; a new execution calls (and bills) again, n8n's Retry On Fail does not. A negative result is an output with valid = false and the reason, not an error: branch on it with an If node. The field valid is ${VALID_MEANING}. For batches, set Settings → On Error to Continue (using error output): a rejected item goes to the error output and every answer comes out.`,
		name: 'instantKycNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { resource: [RESOURCE] } },
	},
	// The checks of one identifier: Map Automatically reads it from its column.
	...mappingModeFor(RESOURCE, operations, 'PAN or pan, IFSC or ifsc, UAN or uan'),
	...operationFields(operations),
];
