import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { ACTIONS } from '../../shared/actions';
import {
	EMPLOYMENT_DOCUMENT_TYPES,
	POLICE_CLEARANCE_CERTIFICATE,
	POLICE_VERIFICATION,
	SUBMITTABLE_CHECKS,
	submissionName,
	VERIFICATION_API,
} from '../../shared/constants';
import { formatYearMonthDay, toCalendarDate } from '../../shared/dates';
import { handleResponse } from '../../shared/routing';
import {
	describe,
	invalidParameter,
	optionalText,
	requireOneOf,
	requireText,
} from '../../shared/validation';
import { ADDRESS_FIELDS, EDUCATION_LEVELS } from './fields';

type DataBuilder = (context: IExecuteSingleFunctions) => IDataObject;

function readDate(context: IExecuteSingleFunctions, parameterName: string, displayName: string) {
	const value = context.getNodeParameter(parameterName, '');
	const date = toCalendarDate(value);
	if (!date) {
		throw invalidParameter(
			context,
			displayName,
			`${describe(value)} is not a date`,
			'Use YYYY-MM-DD or DD-MM-YYYY.',
		);
	}
	return formatYearMonthDay(date);
}

function readAddress(context: IExecuteSingleFunctions, parameterName: string, displayName: string) {
	const raw = (context.getNodeParameter(`${parameterName}.address`, {}) ?? {}) as IDataObject;
	const address: IDataObject = {};
	for (const field of ADDRESS_FIELDS) {
		const value = raw[field.name];
		if (value === undefined || value === null || value === '') continue;
		if (typeof value !== 'string' && typeof value !== 'number') {
			throw invalidParameter(
				context,
				`${displayName} → ${field.displayName}`,
				`expected text, got ${describe(value)}`,
			);
		}
		const text = String(value).trim();
		if (text) address[field.name] = text;
	}
	if (Object.keys(address).length === 0) {
		throw invalidParameter(context, displayName, 'it is required and is empty');
	}
	return address;
}

const buildEmploymentData: DataBuilder = (context) => {
	const documentType = requireOneOf(
		context,
		'Employment Document Type',
		context.getNodeParameter('employmentDocumentType', ''),
		EMPLOYMENT_DOCUMENT_TYPES,
	);
	return {
		employmentDocumentType: documentType,
		nameAsPerEmployerRecords: requireText(
			context,
			'nameAsPerEmployerRecords',
			'Name as per Employer Records',
		),
		employerName: requireText(context, 'employerName', 'Employer Name'),
		joiningDate: readDate(context, 'joiningDate', 'Joining Date'),
		lastWorkingDate: readDate(context, 'lastWorkingDate', 'Last Working Date'),
		document: { label: documentType, url: requireText(context, 'documentUrl', 'Document URL') },
	};
};

const buildCreditData: DataBuilder = (context) => ({
	pan: requireText(context, 'pan', 'PAN'),
	document: { url: requireText(context, 'documentUrl', 'Document URL') },
	permanentAddress: readAddress(context, 'permanentAddress', 'Permanent Address'),
});

const buildCriminalData: DataBuilder = (context) => ({
	currentAddress: readAddress(context, 'currentAddress', 'Current Address'),
	permanentAddress: readAddress(context, 'permanentAddress', 'Permanent Address'),
});

const buildPoliceClearanceData: DataBuilder = (context) => ({
	fileUrl: requireText(context, 'fileUrl', 'Certificate File URL'),
});

const buildEducationData: DataBuilder = (context) => {
	const check = context.getNodeParameter('verificationName', '') as string;
	const data: IDataObject = {
		level: EDUCATION_LEVELS[check],
		nameAsPerDocument: requireText(context, 'nameAsPerDocument', 'Name as per Document'),
		nameOfInstitute: requireText(context, 'nameOfInstitute', 'Name of Institute'),
		registrationNumber: requireText(context, 'registrationNumber', 'Registration Number'),
	};
	const board = optionalText(context, 'Name of Board', context.getNodeParameter('nameOfBoard', ''));
	if (board) data.nameOfBoard = board;
	const year = optionalText(
		context,
		'Year of Passing',
		context.getNodeParameter('yearOfPassing', ''),
	);
	if (year !== undefined && !/^\d{4}$/.test(year)) {
		throw invalidParameter(
			context,
			'Year of Passing',
			`"${year}" is not a year`,
			'Use four digits, e.g. 2012.',
		);
	}
	if (year) data.yearOfPassing = year;
	if (optionalText(context, 'Issue Date', context.getNodeParameter('issueDate', ''))) {
		data.issueDate = readDate(context, 'issueDate', 'Issue Date');
	}
	if (!data.yearOfPassing && !data.issueDate) {
		throw invalidParameter(
			context,
			'Year of Passing',
			'give the year of passing or the issue date',
		);
	}
	data.documentList = [
		{
			label: requireText(context, 'documentLabel', 'Document Label'),
			url: requireText(context, 'documentUrl', 'Document URL'),
		},
	];
	return data;
};

const buildJsonData: DataBuilder = (context) => {
	let data = context.getNodeParameter('data', '') as unknown;
	if (data === '') data = {};
	if (typeof data === 'string') {
		try {
			data = JSON.parse(data) as unknown;
		} catch (error) {
			throw invalidParameter(
				context,
				'Data (JSON)',
				`it is not valid JSON (${(error as Error).message})`,
			);
		}
	}
	if (typeof data !== 'object' || data === null || Array.isArray(data)) {
		throw invalidParameter(context, 'Data (JSON)', `expected a JSON object, got ${describe(data)}`);
	}
	if (Object.keys(data).length === 0) {
		throw invalidParameter(
			context,
			'Data (JSON)',
			'the object is empty; give the fields this check needs',
		);
	}
	return data as IDataObject;
};

const DATA_BUILDERS: Record<string, DataBuilder> = {
	'bgv-employment': buildEmploymentData,
	'bgv-cibil': buildCreditData,
	'bgv-criminal': buildCriminalData,
	[POLICE_VERIFICATION]: buildPoliceClearanceData,
	[POLICE_CLEARANCE_CERTIFICATE]: buildPoliceClearanceData,
	...Object.fromEntries(Object.keys(EDUCATION_LEVELS).map((check) => [check, buildEducationData])),
};

function readCheck(context: IExecuteSingleFunctions): string {
	return requireOneOf(
		context,
		'Check',
		context.getNodeParameter('verificationName', ''),
		SUBMITTABLE_CHECKS,
	);
}

async function buildSubmissionBody(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const transactionId = requireText(this, 'transactionId', 'Transaction ID');
	const check = readCheck(this);
	const buildData = DATA_BUILDERS[check] ?? buildJsonData;
	requestOptions.body = {
		data: buildData(this),
		verificationName: submissionName(check),
		transactionId,
	};
	return requestOptions;
}

export const verificationSubmitRouting = {
	request: { method: 'POST' as const, url: `${VERIFICATION_API}/bgv/diy` },
	send: { preSend: [buildSubmissionBody] },
	output: {
		postReceive: [
			// The service answers without data: give the next node what it needs to chain on.
			handleResponse(ACTIONS.verificationSubmit, function () {
				return {
					transactionId: String(this.getNodeParameter('transactionId')).trim(),
					verificationName: submissionName(this.getNodeParameter('verificationName') as string),
					submitted: true,
				};
			}),
		],
	},
};
