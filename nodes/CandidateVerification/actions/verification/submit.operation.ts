import type { IDataObject } from 'n8n-workflow';

import { describe, type ItemInput } from '../../engine/itemInput';
import { duplicateProtectionFields } from '../../engine/duplicateProtection';
import { formListName, withoutDocumentUrls } from '../../helpers/checkIdentity';
import type { OperationDefinition, PreparedRequest } from '../../engine/operation';
import { ACTIONS } from '../../../shared/actions';
import {
	DEGREE_LEVELS,
	DIGITAL_ADDRESS_CHECKS,
	DOCUMENT_LABELS,
	EMPLOYMENT_DOCUMENT_TYPES,
	POLICE_CLEARANCE_CERTIFICATE,
	POLICE_VERIFICATION,
	SUBMISSION_PATH,
	SUBMITTABLE_CHECKS,
	SUBMITTABLE_CHECKS_V2,
	submissionName,
} from '../../../shared/constants';
import { formatYearMonthDay, toCalendarDate } from '../../helpers/dates';
import { ADDRESS_FIELDS, EDUCATION_LEVELS, verificationSubmitFields } from './fields';

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

/** Builds a check's `data`; `check` is the check chosen (validated). */
type DataBuilder = (input: ItemInput, check: string) => IDataObject;

function readText(input: ItemInput, parameterName: string, displayName: string) {
	return input.text(displayName, input.field(parameterName, displayName));
}

function readDate(input: ItemInput, parameterName: string, displayName: string) {
	const value = input.field(parameterName, displayName);
	if (value === undefined || value === null || value === '') {
		return input.problem(displayName, 'it is required and is empty');
	}
	return formatDate(input, displayName, value);
}

function formatDate(input: ItemInput, displayName: string, value: unknown) {
	const date = toCalendarDate(value, input.timezone);
	if (date) return formatYearMonthDay(date);
	return input.problem(
		displayName,
		`${describe(value)} is not a date`,
		'Use YYYY-MM-DD, DD-MM-YYYY, 17 May 1994, a spreadsheet serial number or a date expression.',
	);
}

function readAddress(input: ItemInput, parameterName: string, displayName: string) {
	const raw = (input.field(`${parameterName}.address`, displayName, {}) ?? {}) as IDataObject;
	const address: IDataObject = {};
	for (const field of ADDRESS_FIELDS) {
		const text = input.optionalText(`${displayName} → ${field.displayName}`, raw[field.name]);
		if (text) address[field.name] = text;
	}
	if (Object.keys(address).length === 0) input.problem(displayName, 'it is required and is empty');
	return address;
}

const buildEmploymentData: DataBuilder = (input) => {
	const documentType = input.oneOf(
		'Employment Document Type',
		input.param('employmentDocumentType', 'Employment Document Type'),
		EMPLOYMENT_DOCUMENT_TYPES,
	);
	return {
		employmentDocumentType: documentType,
		nameAsPerEmployerRecords: readText(
			input,
			'nameAsPerEmployerRecords',
			'Name as per Employer Records',
		),
		employerName: readText(input, 'employerName', 'Employer Name'),
		joiningDate: readDate(input, 'joiningDate', 'Joining Date'),
		lastWorkingDate: readDate(input, 'lastWorkingDate', 'Last Working Date'),
		document: { label: documentType, url: readText(input, 'documentUrl', 'Document URL') },
	};
};

const buildCreditData: DataBuilder = (input) => ({
	pan: readText(input, 'pan', 'PAN'),
	document: { url: readText(input, 'documentUrl', 'Document URL') },
	permanentAddress: readAddress(input, 'permanentAddress', 'Permanent Address'),
});

const buildCriminalData: DataBuilder = (input) => ({
	currentAddress: readAddress(input, 'currentAddress', 'Current Address'),
	permanentAddress: readAddress(input, 'permanentAddress', 'Permanent Address'),
});

const buildPoliceClearanceData: DataBuilder = (input) => ({
	fileUrl: readText(input, 'fileUrl', 'Certificate File URL'),
});

/** Name as per Document, Name of Institute, Registration Number (education and degree). */
function readDocumentIdentity(input: ItemInput): IDataObject {
	return {
		nameAsPerDocument: readText(input, 'nameAsPerDocument', 'Name as per Document'),
		nameOfInstitute: readText(input, 'nameOfInstitute', 'Name of Institute'),
		registrationNumber: readText(input, 'registrationNumber', 'Registration Number'),
	};
}

/** Version 1: the Document Label as set (default "marksheet"); version 2: empty sends the public label. */
function readEducationLabel(input: ItemInput, check: string) {
	const label = input.param('documentLabel', 'Document Label', '');
	if (input.nodeVersion < 2) return input.text('Document Label', label);
	return (
		input.optionalText('Document Label', label) ??
		DOCUMENT_LABELS[check as keyof typeof DOCUMENT_LABELS]
	);
}

const buildEducationData: DataBuilder = (input, check) => {
	const data: IDataObject = { level: EDUCATION_LEVELS[check], ...readDocumentIdentity(input) };
	const board = input.optionalText(
		'Name of Board',
		input.field('nameOfBoard', 'Name of Board', ''),
	);
	if (board) data.nameOfBoard = board;
	const year = input.optionalText(
		'Year of Passing',
		input.field('yearOfPassing', 'Year of Passing', ''),
	);
	if (year !== undefined && !/^\d{4}$/.test(year)) {
		input.problem('Year of Passing', `"${year}" is not a year`, 'Use four digits, e.g. 2012.');
	} else if (year) data.yearOfPassing = year;
	const issueDate = input.field('issueDate', 'Issue Date', '');
	const hasIssueDate = issueDate !== undefined && issueDate !== null && issueDate !== '';
	if (hasIssueDate) data.issueDate = formatDate(input, 'Issue Date', issueDate);
	if (year === undefined && !hasIssueDate) {
		input.problem('Year of Passing', 'give the year of passing or the issue date');
	}
	data.documentList = [
		{
			label: readEducationLabel(input, check),
			url: readText(input, 'documentUrl', 'Document URL'),
		},
	];
	return data;
};

/** bgv-degree on version 2 (from the provider's public documentation). */
const buildDegreeData: DataBuilder = (input) => {
	const rawLevel = input.field('level', 'Level');
	// Any case from an expression or a column: "graduate" is GRADUATE.
	const level = input.oneOf(
		'Level',
		typeof rawLevel === 'string' ? rawLevel.trim().toUpperCase() : rawLevel,
		DEGREE_LEVELS,
	);
	const documentList: IDataObject[] = [
		{ label: DOCUMENT_LABELS.degree, url: readText(input, 'documentUrl', 'Degree Document URL') },
	];
	const marksheet = input.optionalText(
		'Marksheet URL',
		input.field('marksheetUrl', 'Marksheet URL', ''),
	);
	if (marksheet) documentList.push({ label: DOCUMENT_LABELS.marksheet, url: marksheet });
	return {
		level,
		...readDocumentIdentity(input),
		issueDate: readDate(input, 'issueDate', 'Issue Date'),
		documentList,
	};
};

/** Police verification at an address, version 2: the form list's bgv-police-verification. */
const buildPoliceAddressData: DataBuilder = (input) => ({
	permanentAddress: readAddress(input, 'permanentAddress', 'Permanent Address'),
});

/** Digital address checks, version 2: the six address fields flat in `data`, all required. */
const buildDigitalAddressData: DataBuilder = (input) =>
	Object.fromEntries(
		ADDRESS_FIELDS.map(({ name, displayName }) => [name, readText(input, name, displayName)]),
	);

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

const DATA_BUILDERS: Record<string, DataBuilder> = {
	'bgv-employment': buildEmploymentData,
	'bgv-cibil': buildCreditData,
	'bgv-criminal': buildCriminalData,
	[POLICE_VERIFICATION]: buildPoliceClearanceData,
	[POLICE_CLEARANCE_CERTIFICATE]: buildPoliceClearanceData,
	...Object.fromEntries(Object.keys(EDUCATION_LEVELS).map((check) => [check, buildEducationData])),
};

/** Version 2: every check with a public submission shape; the name chosen is the name sent. */
const DATA_BUILDERS_V2: Record<string, DataBuilder> = {
	...DATA_BUILDERS,
	[POLICE_VERIFICATION]: buildPoliceAddressData,
	'bgv-degree': buildDegreeData,
	...Object.fromEntries(DIGITAL_ADDRESS_CHECKS.map((check) => [check, buildDigitalAddressData])),
};

function buildSubmission(input: ItemInput): PreparedRequest {
	const transactionId = readText(input, 'transactionId', 'Transaction ID');
	const isVersion2 = input.nodeVersion >= 2;
	const verificationName = input.oneOf(
		'Check',
		input.param('verificationName', 'Check'),
		isVersion2 ? SUBMITTABLE_CHECKS_V2 : SUBMITTABLE_CHECKS,
	);
	const builders = isVersion2 ? DATA_BUILDERS_V2 : DATA_BUILDERS;
	const buildData = builders[verificationName ?? ''] ?? buildJsonData;
	const data = verificationName ? buildData(input, verificationName) : {};
	const sentName =
		verificationName && (isVersion2 ? verificationName : submissionName(verificationName));
	return {
		body: { data, verificationName: sentName, transactionId },
		echo: { transactionId, verificationName: sentName },
	};
}

export const operation: OperationDefinition = {
	label: ACTIONS.verificationSubmit,
	method: 'POST',
	path: SUBMISSION_PATH,
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
