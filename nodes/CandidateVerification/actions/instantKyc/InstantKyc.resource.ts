import type { INodeProperties } from 'n8n-workflow';

import { ACTIONS } from '../../helpers/actions';
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

/** The outcome fields every Instant KYC output adds to the service's answer. */
const OUTCOME =
	'The output is the service’s answer plus valid (false for a negative result) and reason.';

export const description: INodeProperties[] = [
	{
		...operationSelector(RESOURCE, [
			{
				name: 'Aadhaar (DigiLocker) Get Result',
				value: 'aadhaarGetResult',
				action: ACTIONS.instantKycAadhaarGetResult,
				description: `Step 2 of an Aadhaar check, after the candidate consented: the masked Aadhaar number, name, date of birth, gender, address, and the photo as binary data (field photo). Before consent it fails with the service’s message. ${BILLED_NOTE}`,
			},
			{
				name: 'Aadhaar (DigiLocker) Start',
				value: 'aadhaarStart',
				action: ACTIONS.instantKycAadhaarStart,
				description: `Step 1 of an Aadhaar check: returns transactionId and authUrl. Send authUrl to the candidate (the DigiLocker consent link); keep transactionId for Get Result. ${BILLED_NOTE}`,
			},
			{
				name: 'Get Employment History (UAN)',
				value: 'getEmploymentHistory',
				action: ACTIONS.instantKycGetEmploymentHistory,
				description: `Read the candidate’s employers from EPFO by UAN (employmentData; no dateOfExit means still employed there). ${OUTCOME} ${BILLED_NOTE}`,
			},
			{
				name: 'Verify Bank Account',
				value: 'verifyBankAccount',
				action: ACTIONS.instantKycVerifyBankAccount,
				description: `Check that a bank account exists and read the name the bank holds (accountExists, nameAtBank). ${OUTCOME} ${BILLED_NOTE}`,
			},
			{
				name: 'Verify DIN',
				value: 'verifyDin',
				action: ACTIONS.instantKycVerifyDin,
				description: `Check a director identification number and read the director and their companies (directorData, companyData). ${OUTCOME} ${BILLED_NOTE}`,
			},
			{
				name: 'Verify GST',
				value: 'verifyGst',
				action: ACTIONS.instantKycVerifyGst,
				description: `Check a GSTIN and read the registration (legalName, tradeName, status, address…). ${OUTCOME} ${BILLED_NOTE}`,
			},
			{
				name: 'Verify PAN',
				value: 'verifyPan',
				action: ACTIONS.instantKycVerifyPan,
				description: `Check a PAN and read the name on it (fullName). ${OUTCOME} ${BILLED_NOTE}`,
			},
			{
				name: 'Verify UPI',
				value: 'verifyUpi',
				action: ACTIONS.instantKycVerifyUpi,
				description: `Check a UPI ID (VPA) and read the account holder’s name (accountExists, nameAtBank). ${OUTCOME} ${BILLED_NOTE}`,
			},
		]),
		default: 'verifyPan',
	},
	{
		displayName:
			'Each call is billed by the provider and answers at once; a re-run calls (and bills) again. A negative result is an output with valid = false and the reason, not an error: branch on it with an If node.',
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
