import type { INodeProperties } from 'n8n-workflow';

import { ACTIONS } from '../../../shared/actions';
import { operationSelector } from '../../helpers/descriptions';
import { mappingModeProperties } from '../../helpers/mapping';
import * as aadhaarGetResult from './aadhaarGetResult.operation';
import * as aadhaarStart from './aadhaarStart.operation';
import * as getEmploymentHistory from './getEmploymentHistory.operation';
import { BILLED_NOTE, MAPPED_OPERATIONS, RESOURCE, showFor } from './shared';
import * as verifyBankAccount from './verifyBankAccount.operation';
import * as verifyDin from './verifyDin.operation';
import * as verifyGst from './verifyGst.operation';
import * as verifyPan from './verifyPan.operation';
import * as verifyUpi from './verifyUpi.operation';

export {
	aadhaarGetResult,
	aadhaarStart,
	getEmploymentHistory,
	verifyBankAccount,
	verifyDin,
	verifyGst,
	verifyPan,
	verifyUpi,
};

/** What sets valid (shared.ts, isNegative and kycOutput), said wherever the node describes it. */
const VALID_MEANING =
	'false when the service’s answer says status "INVALID" (at its top level or, in the older PAN answer, nested) or accountExists false, true otherwise; a valid the service sends itself is kept as sent';

/** The outcome fields every Instant KYC output adds to the service's answer. */
const OUTCOME = `The output is the service’s answer plus reason and valid, ${VALID_MEANING}.`;

/** An operation's description: what it does, the outcome fields where they matter, the billing. */
function billed(what: string, outcome = true): string {
	return [what, outcome ? OUTCOME : '', BILLED_NOTE].filter(Boolean).join(' ');
}

export const description: INodeProperties[] = [
	{
		...operationSelector(RESOURCE, [
			{
				name: 'Aadhaar (DigiLocker) Get Result',
				value: 'aadhaarGetResult',
				action: ACTIONS.instantKycAadhaarGetResult,
				description: billed(
					'Step 2 of an Aadhaar check, after the candidate consented: the masked Aadhaar number, name, date of birth, gender, address, and the photo as binary data (field photo). Before consent it fails with the service’s message.',
					false,
				),
			},
			{
				name: 'Aadhaar (DigiLocker) Start',
				value: 'aadhaarStart',
				action: ACTIONS.instantKycAadhaarStart,
				description: billed(
					'Step 1 of an Aadhaar check: returns transactionId and authUrl. Send authUrl to the candidate (the DigiLocker consent link); keep transactionId for Get Result.',
					false,
				),
			},
			{
				name: 'Get Employment History (UAN)',
				value: 'getEmploymentHistory',
				action: ACTIONS.instantKycGetEmploymentHistory,
				description: billed(
					'Read the candidate’s employers from EPFO by UAN (employmentData; no dateOfExit means still employed there).',
				),
			},
			{
				name: 'Verify Bank Account',
				value: 'verifyBankAccount',
				action: ACTIONS.instantKycVerifyBankAccount,
				description: billed(
					'Check that a bank account exists and read the name the bank holds (accountExists, nameAtBank). Its path is the one public client code calls (the provider’s pages do not show it).',
				),
			},
			{
				name: 'Verify DIN',
				value: 'verifyDin',
				action: ACTIONS.instantKycVerifyDin,
				description: billed(
					'Check a director identification number and read the director and their companies (directorData, companyData). Its path is inferred from the provider’s other checks.',
				),
			},
			{
				name: 'Verify GST',
				value: 'verifyGst',
				action: ACTIONS.instantKycVerifyGst,
				description: billed(
					'Check a GSTIN and read the registration (legalName, tradeName, status, address…).',
				),
			},
			{
				name: 'Verify PAN',
				value: 'verifyPan',
				action: ACTIONS.instantKycVerifyPan,
				description: billed('Check a PAN and read the name on it (fullName).'),
			},
			{
				name: 'Verify UPI',
				value: 'verifyUpi',
				action: ACTIONS.instantKycVerifyUpi,
				description: billed(
					'Check a UPI ID (VPA) and read the account holder’s name (accountExists, nameAtBank).',
				),
			},
		]),
		default: 'verifyPan',
	},
	{
		displayName: `Each call is billed by the provider and answers at once; a new execution calls (and bills) again, n8n's Retry On Fail does not. A negative result is an output with valid = false and the reason, not an error: branch on it with an If node. The field valid is ${VALID_MEANING}. For batches, set Settings → On Error to Continue (using error output): a rejected item goes to the error output and every answer comes out.`,
		name: 'instantKycNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { resource: [RESOURCE] } },
	},
	...mappingModeProperties(showFor(MAPPED_OPERATIONS), 'PAN or pan, IFSC or ifsc, UAN or uan'),
	...aadhaarGetResult.description,
	...aadhaarStart.description,
	...getEmploymentHistory.description,
	...verifyBankAccount.description,
	...verifyDin.description,
	...verifyGst.description,
	...verifyPan.description,
	...verifyUpi.description,
];
