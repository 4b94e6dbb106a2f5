import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { ACTIONS } from '../../shared/actions';
import { GENDERS, VERIFICATION_API } from '../../shared/constants';
import { formatDayMonthYear, isAfterToday, toCalendarDate } from '../../shared/dates';
import { handleResponse } from '../../shared/routing';
import {
	describe,
	invalidParameter,
	isEmail,
	optionalText,
	requireOneOf,
	requireText,
} from '../../shared/validation';

const showOnlyForProfileCreate = { operation: ['create'], resource: ['profile'] };

export const profileCreateDescription: INodeProperties[] = [
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
	{
		displayName: 'Candidate Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Asha Verma',
		description: 'The candidate’s full name',
		displayOptions: { show: showOnlyForProfileCreate },
	},
	{
		displayName: 'Gender',
		name: 'gender',
		type: 'options',
		required: true,
		default: 'Female',
		options: GENDERS.map((gender) => ({ name: gender, value: gender })),
		description: 'The candidate’s gender as the service records it: Male, Female or Other',
		displayOptions: { show: showOnlyForProfileCreate },
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: showOnlyForProfileCreate },
		options: [
			{
				displayName: 'Date of Birth',
				name: 'dob',
				type: 'string',
				default: '',
				placeholder: 'e.g. 17-05-1994',
				description:
					'DD-MM-YYYY, an ISO date (1994-05-17) or a date from an expression. Always sent as DD-MM-YYYY. Required when Father’s Name is set.',
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
				description: 'Mobile number including the country code',
			},
			{
				displayName: 'Profession',
				name: 'profession',
				type: 'string',
				default: '',
				placeholder: 'e.g. Software Engineer',
				description: 'The candidate’s profession or job title',
			},
		],
	},
];

function buildVerificationFields(
	context: IExecuteSingleFunctions,
	dob: unknown,
	fatherName: string | undefined,
): IDataObject | undefined {
	if ((dob === undefined || dob === '') && fatherName === undefined) return undefined;
	if (dob === undefined || dob === '') {
		throw invalidParameter(context, 'Date of Birth', 'it is required when Father’s Name is given');
	}
	const date = toCalendarDate(dob);
	if (!date) {
		throw invalidParameter(
			context,
			'Date of Birth',
			`${describe(dob)} is not a date`,
			'Use DD-MM-YYYY (17-05-1994), an ISO date (1994-05-17) or a date expression.',
		);
	}
	if (isAfterToday(date, context.getTimezone())) {
		throw invalidParameter(
			context,
			'Date of Birth',
			`${formatDayMonthYear(date)} is in the future`,
		);
	}
	return { dob: formatDayMonthYear(date), ...(fatherName ? { fatherName } : {}) };
}

async function buildCandidateBody(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const formId = requireText(this, 'formId', 'Form ID');
	const extra = this.getNodeParameter('additionalFields', {}) as IDataObject;
	const body: IDataObject = {
		name: requireText(this, 'name', 'Candidate Name'),
		gender: requireOneOf(this, 'Gender', this.getNodeParameter('gender', ''), GENDERS),
	};
	const mobile = optionalText(this, 'Mobile', extra.mobile);
	if (mobile) body.mobile = mobile;
	const profession = optionalText(this, 'Profession', extra.profession);
	if (profession) body.profession = profession;
	const email = optionalText(this, 'Email', extra.email);
	if (email) {
		if (!isEmail(email))
			throw invalidParameter(this, 'Email', `"${email}" is not an email address`);
		body.email = email;
	}
	const verificationFields = buildVerificationFields(
		this,
		extra.dob,
		optionalText(this, 'Father’s Name', extra.fatherName),
	);
	if (verificationFields) body.verificationFields = verificationFields;

	requestOptions.url = `${VERIFICATION_API}/ekyc-forms/${encodeURIComponent(formId)}/diy-candidate`;
	requestOptions.body = body;
	return requestOptions;
}

export const profileCreateRouting = {
	// The URL carries the form ID and is set once the ID is validated.
	request: { method: 'POST' as const },
	send: { preSend: [buildCandidateBody] },
	output: {
		postReceive: [
			handleResponse(ACTIONS.profileCreate, function (data) {
				return {
					transactionId: data.transactionId,
					formId: String(this.getNodeParameter('formId')).trim(),
					name: String(this.getNodeParameter('name')).trim(),
				};
			}),
		],
	},
};
