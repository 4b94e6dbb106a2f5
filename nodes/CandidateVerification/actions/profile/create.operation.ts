import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { describe, isEmail, type ItemInput } from '../../engine/itemInput';
import type {
	FormerRowConfirmation,
	OperationDefinition,
	PreparedRequest,
} from '../../engine/operation';
import { ACTIONS } from '../../../shared/actions';
import { CANDIDATE_PATH, TRANSACTION_STATUS_PATH } from '../../../shared/constants';
import { GENDER_ALIASES, GENDERS } from '../../../shared/enums';
import { formatDayMonthYear, isAfterToday, toCalendarDate } from '../../helpers/dates';
import { fromVersion } from '../../helpers/versions';
import { mappedField, mappingModeProperties } from '../../engine/mapping';
import {
	DUPLICATE_MODES,
	duplicateProtectionFields,
} from '../../engine/duplicateProtection/fields';
import { optionalOrganisationId, organisationIdField } from '../transaction/shared';
import type { OperationOption } from '../../helpers/descriptions';

const showOnlyForProfileCreate = { operation: ['create'], resource: ['profile'] };

/** The optional fields; Map Automatically reads them from the columns of the same names. */
const ADDITIONAL_FIELD_OPTIONS: INodeProperties[] = [
	{
		displayName: 'Date of Birth',
		name: 'dob',
		type: 'string',
		default: '',
		placeholder: 'e.g. 17-05-1994',
		description:
			'Required on node version 2, as the provider’s current page requires it for every candidate (version 1 and the API contract: only with Father’s Name). DD-MM-YYYY, 17 May 1994, an ISO date (1994-05-17), a spreadsheet serial number or a date from an expression; the day is read in the workflow’s time zone. Always sent as DD-MM-YYYY.',
	},
	{
		displayName: 'Email',
		name: 'email',
		type: 'string',
		placeholder: 'e.g. name@email.com',
		default: '',
		description: 'The candidate’s email address',
	},
	{
		displayName: 'Father’s Name',
		name: 'fatherName',
		type: 'string',
		default: '',
		placeholder: 'e.g. Rakesh Verma',
		description: 'The candidate’s father’s name; needs the Date of Birth too',
	},
	{
		displayName: 'Mobile',
		name: 'mobile',
		type: 'string',
		default: '',
		placeholder: 'e.g. +919876543210',
		description:
			'Mobile number including the country code; spaces, dashes and brackets are removed (the provider’s page shows +91-9119216041: that it also takes +919119216041 is presumed)',
	},
	{
		displayName: 'Profession',
		name: 'profession',
		type: 'string',
		default: '',
		placeholder: 'e.g. Software Engineer',
		description: 'The candidate’s profession or job title',
	},
];

export const option: OperationOption = {
	name: 'Create',
	description:
		'Create a candidate on a form at the service; returns the transaction ID that submissions and status reads use',
};

export const description: INodeProperties[] = [
	{
		displayName: 'Form ID',
		name: 'formId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 65f1c0ffee0000000000abcd',
		description: 'The _ID of the form the candidate is added to (output of Form → Create)',
		displayOptions: { show: showOnlyForProfileCreate },
	},
	...mappingModeProperties(
		showOnlyForProfileCreate,
		'Candidate Name or name, Date of Birth or dob',
	),
	mappedField({
		displayName: 'Candidate Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Asha Verma',
		description: 'The candidate’s full name',
		displayOptions: { show: showOnlyForProfileCreate },
	}),
	mappedField({
		displayName: 'Gender',
		name: 'gender',
		type: 'options',
		required: true,
		// No default: a forgotten mapping must fail, not send every candidate with one gender.
		default: '',
		options: GENDERS.map((gender) => ({ name: gender, value: gender })),
		description:
			'The candidate’s gender as the service records it: Male, Female or Other. From an expression, any case and M / F / O are accepted (female → Female).',
		displayOptions: { show: showOnlyForProfileCreate },
	}),
	{
		// Version 2 requires the Date of Birth, which stays in Additional Fields (saved workflows keep it).
		displayName:
			'Node version 2 requires a Date of Birth for every candidate: Additional Fields → Date of Birth (with Map Automatically, a dob or Date of Birth column). Leave candidates whose date of birth is unknown out of this node’s input.',
		name: 'dateOfBirthNotice',
		type: 'notice',
		default: '',
		displayOptions: {
			show: { ...showOnlyForProfileCreate, '@version': fromVersion(2) },
		},
	},
	mappedField({
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: showOnlyForProfileCreate },
		options: ADDITIONAL_FIELD_OPTIONS,
	}),
	...duplicateProtectionFields(showOnlyForProfileCreate, 'Transaction ID', {
		within: 'one form',
		apart: 'people',
	}),
	{
		...organisationIdField('create', 'profile'),
		description:
			'Your organisation’s ID at the service, to read the transaction of a row keyed before 0.5.0: it is recorded only if its transaction is on this form. Leave empty to use the one of the credential.',
		displayOptions: {
			show: { ...showOnlyForProfileCreate, duplicateProtection: [DUPLICATE_MODES.recordAsSent] },
		},
	},
];

const MOBILE = /^\+?\d{6,15}$/;

function readMobile(input: ItemInput, value: unknown): string | undefined {
	const text = input.optionalText('Mobile', value);
	if (text === undefined) return undefined;
	const mobile = text.replace(/[\s().-]/g, '');
	if (MOBILE.test(mobile)) return mobile;
	return input.problem(
		'Mobile',
		`"${text}" is not a mobile number`,
		'Give 6 to 15 digits, with the country code, e.g. +919876543210.',
	);
}

function readDateOfBirth(input: ItemInput, dob: unknown): string | undefined {
	const date = toCalendarDate(dob, input.timezone);
	if (!date) {
		return input.problem(
			'Date of Birth',
			`${describe(dob)} is not a date`,
			'Use DD-MM-YYYY (17-05-1994), 17 May 1994, an ISO date (1994-05-17), a spreadsheet serial number or a date expression.',
		);
	}
	if (isAfterToday(date, input.timezone)) {
		return input.problem('Date of Birth', `${formatDayMonthYear(date)} is in the future`);
	}
	return formatDayMonthYear(date);
}

/**
 * Version 2 requires a Date of Birth, as the provider's current page does: with name and gender
 * alone, two people would be one row to duplicate protection, and the second never created.
 */
export const DOB_REQUIRED = {
	text: 'it is required on node version 2 (the service’s current page requires it, and it tells two people with the same name apart)',
	hint: 'Map Additional Fields → Date of Birth. If this node sent rows before without it, those rows are new rows once it is mapped, and would be sent again: map it, then run this node once in the editor with Duplicate Protection → Record Rows as Sent and each row’s transaction ID, then set it back to Skip Rows Sent Before. Leave rows whose date of birth is unknown out of this node’s input.',
};

function buildVerificationFields(input: ItemInput, extra: IDataObject): IDataObject | undefined {
	const fatherName = input.optionalText('Father’s Name', extra.fatherName);
	const hasDob = extra.dob !== undefined && extra.dob !== null && extra.dob !== '';
	if (!hasDob && input.nodeVersion >= 2) {
		return input.problem('Date of Birth', DOB_REQUIRED.text, DOB_REQUIRED.hint);
	}
	if (!hasDob && fatherName === undefined) return undefined;
	if (!hasDob) {
		return input.problem('Date of Birth', 'it is required when Father’s Name is given');
	}
	const dob = readDateOfBirth(input, extra.dob);
	return dob === undefined ? undefined : { dob, ...(fatherName ? { fatherName } : {}) };
}

function buildCandidate(input: ItemInput): PreparedRequest {
	const formId = input.text('Form ID', input.param('formId', 'Form ID'));
	const name = input.text('Candidate Name', input.field('name', 'Candidate Name'));
	const gender = input.oneOf('Gender', input.field('gender', 'Gender'), GENDERS, GENDER_ALIASES);
	const extra = input.fieldGroup('additionalFields', 'Additional Fields', ADDITIONAL_FIELD_OPTIONS);
	const body: IDataObject = { name, gender };
	const mobile = readMobile(input, extra.mobile);
	if (mobile) body.mobile = mobile;
	const profession = input.optionalText('Profession', extra.profession);
	if (profession) body.profession = profession;
	const email = input.optionalText('Email', extra.email);
	if (email !== undefined) {
		if (isEmail(email)) body.email = email;
		else input.problem('Email', `"${email}" is not an email address`);
	}
	const verificationFields = buildVerificationFields(input, extra);
	if (verificationFields) body.verificationFields = verificationFields;
	// Read only by Record Rows as Sent, for a row keyed before 0.5.0 (confirmFormerRow).
	const orgId = optionalOrganisationId(input);
	return {
		body,
		pathParameters: { formId: formId ?? '' },
		echo: { formId, name },
		readWith: { orgId },
	};
}

/** Where a transaction's answer names its form: `formId` (the sandbox's contract mode), `form.id._id` (the current pages). */
function formsOfTransaction(data: IDataObject): string[] {
	const form = (data.form ?? {}) as IDataObject;
	const formRef = form.id;
	const found = [
		data.formId,
		form._id,
		formRef,
		typeof formRef === 'object' && formRef !== null ? (formRef as IDataObject)._id : undefined,
	];
	return [...new Set(found.filter((id): id is string => typeof id === 'string' && id !== ''))];
}

/**
 * Before 0.5.0 a Duplicate Key counted across forms: the transaction ID written back for a key may
 * be another form's candidate. Record Rows as Sent reads it (Get Status) and records the row only
 * when it is on this row's form.
 */
const confirmFormerRow: FormerRowConfirmation = {
	what: 'form',
	ownValue: ({ pathParameters }) => pathParameters?.formId ?? '',
	readLabel: ACTIONS.transactionGetStatus,
	read: ({ readWith }, txnId) =>
		typeof readWith?.orgId === 'string'
			? { method: 'GET', url: TRANSACTION_STATUS_PATH, qs: { orgId: readWith.orgId, txnId } }
			: { lacks: 'Organisation ID' },
	valuesIn: formsOfTransaction,
};

const SHAPE_FIELDS = /(^|[^a-z])(dob|fatherName|verificationFields)([^a-z]|$)/i;
const DATE_OF_BIRTH = /(^|[^a-z])dob([^a-z]|$)/i;
/** A top-level field the service does not take ("property dob should not exist", `"dob" is not allowed`). */
const FIELD_NOT_ALLOWED =
	/^(?:property\s+)?["']?(dob|fatherName|verificationFields)["']?\s+(?:should not exist|is not allowed(?! to)|not allowed(?! to))/i;
/** A top-level `dob` missing ("dob must be a string" is how the current page says it). */
const DOB_MISSING =
	/^["']?dob["']?\s+(?:is required|must be a string|should not be empty|must not be empty|is not allowed to be empty)/i;

/**
 * Whether a refusal rejects the shape sent itself, so the other shape may be what the service takes:
 * a top-level `dob`, `fatherName` or `verificationFields` not allowed, or `dob` required (or not a
 * string) when none was sent top level. A problem naming a nested path (`verificationFields.dob …`)
 * proves the service reads the nested shape, and a value refused ("fatherName must …") is the row's:
 * neither is a reason to send the other shape, nor to learn it.
 */
function refusesShape(problems: string[], sent: IDataObject): boolean {
	return problems.some(
		(problem) =>
			FIELD_NOT_ALLOWED.test(problem) || (sent.dob === undefined && DOB_MISSING.test(problem)),
	);
}

/**
 * The contract nests the date of birth and the father's name in `verificationFields`; the
 * provider's current page sends them top level (and requires `dob`). The same candidate in the
 * page's shape, undefined when the candidate has neither (the two shapes are then one).
 */
function currentPageShape({ body }: PreparedRequest): IDataObject | undefined {
	const { verificationFields, ...candidate } = body ?? {};
	if (!verificationFields) return undefined;
	return { ...candidate, ...(verificationFields as IDataObject) };
}

export const operation: OperationDefinition = {
	label: 'Add a candidate to a form',
	method: 'POST',
	path: CANDIDATE_PATH,
	// Its Mapping Mode field is among its fields, after the fields Map Automatically does not read.
	mappingMode: true,
	build: buildCandidate,
	output: (data, sent) => ({
		transactionId: data.transactionId,
		formId: sent.echo?.formId,
		name: sent.echo?.name,
	}),
	acceptedIdField: 'transactionId',
	duplicateProtection: {
		confirmFormerRow,
		// A Duplicate Key tells candidates apart within one form: the same employee on two forms is two rows.
		scope: ({ pathParameters }) => ({ formId: pathParameters?.formId }),
	},
	otherShape: {
		body: currentPageShape,
		refusesShape,
		namesShapeFields: (problems) => problems.some((problem) => SHAPE_FIELDS.test(problem)),
		labels: {
			declared: 'Date of Birth and Father’s Name in verificationFields (the API contract)',
			other: 'Date of Birth and Father’s Name top level (the provider’s current page)',
		},
	},
	explainRefusal: (problems, { body }, itemIndex) =>
		!body?.verificationFields && problems.some((problem) => DATE_OF_BIRTH.test(problem))
			? {
					problem: 'Date of Birth is required by the service',
					advice: `The service requires a Date of Birth for every candidate, as the provider’s current page says: give item ${itemIndex} a Date of Birth (Additional Fields → Date of Birth), then send that row again.`,
				}
			: undefined,
};
