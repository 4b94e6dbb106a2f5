import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { ACTIONS } from '../../shared/actions';
import { FORM_VERIFICATION_NAMES, VERIFICATION_API } from '../../shared/constants';
import { toUnixSeconds } from '../../shared/dates';
import { handleResponse } from '../../shared/routing';
import {
	describe,
	invalidParameter,
	requireBoolean,
	requireOneOf,
	requireText,
} from '../../shared/validation';

const showOnlyForFormCreate = { operation: ['create'], resource: ['form'] };

export const formCreateDescription: INodeProperties[] = [
	{
		displayName: 'Form Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Engineering hires 2026',
		description: 'The form’s name, shown to candidates',
		displayOptions: { show: showOnlyForFormCreate },
	},
	{
		displayName: 'Purpose Name or ID',
		name: 'purpose',
		type: 'options',
		required: true,
		default: '',
		typeOptions: { loadOptionsMethod: 'getPurposes' },
		description:
			'Why the checks are run. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: { show: showOnlyForFormCreate },
	},
	{
		displayName: 'Checks',
		name: 'checks',
		type: 'multiOptions',
		required: true,
		default: [],
		options: [...FORM_VERIFICATION_NAMES],
		description: 'The checks every candidate of this form goes through',
		displayOptions: { show: showOnlyForFormCreate },
	},
	{
		displayName: 'Checks the Candidate May Skip',
		name: 'skippableChecks',
		type: 'multiOptions',
		default: [],
		options: [...FORM_VERIFICATION_NAMES],
		description: 'Checks of the list above that the candidate may skip; the others are mandatory',
		displayOptions: { show: showOnlyForFormCreate },
	},
	{
		displayName: 'User Payment Required',
		name: 'userPaymentRequired',
		type: 'boolean',
		default: false,
		description: 'Whether the candidate pays for the checks instead of your organisation',
		displayOptions: { show: showOnlyForFormCreate },
	},
	{
		displayName: 'Visibility',
		name: 'visibility',
		type: 'options',
		default: 'private',
		options: [
			{ name: 'Private', value: 'private' },
			{ name: 'Public', value: 'public' },
		],
		description: 'Whether the form can be shared publicly or only with candidates you add',
		displayOptions: { show: showOnlyForFormCreate },
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: showOnlyForFormCreate },
		options: [
			{
				displayName: 'Expiry',
				name: 'expiry',
				type: 'dateTime',
				default: '',
				description:
					'When the form expires. Sent as a Unix timestamp; a date without a time zone is read in the workflow time zone. The output has it as expiry (Unix seconds) and expiryDate (ISO).',
			},
		],
	},
];

function readCheckList(
	context: IExecuteSingleFunctions,
	parameterName: string,
	displayName: string,
) {
	const value = context.getNodeParameter(parameterName, []) as unknown;
	const list = typeof value === 'string' ? value.split(',').map((name) => name.trim()) : value;
	if (!Array.isArray(list)) {
		throw invalidParameter(
			context,
			displayName,
			`expected a list of checks, got ${describe(value)}`,
		);
	}
	const allowed = FORM_VERIFICATION_NAMES.map(({ value: name }) => name);
	return list
		.filter((name) => name !== '')
		.map((name, index) => requireOneOf(context, `${displayName} → ${index + 1}`, name, allowed));
}

async function buildFormBody(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const checks = readCheckList(this, 'checks', 'Checks');
	if (checks.length === 0) throw invalidParameter(this, 'Checks', 'choose at least one check');
	const skippable = readCheckList(this, 'skippableChecks', 'Checks the Candidate May Skip');
	const notInForm = skippable.filter((name) => !checks.includes(name));
	if (notInForm.length > 0) {
		throw invalidParameter(
			this,
			'Checks the Candidate May Skip',
			`${notInForm.join(', ')} is not one of the form's checks`,
		);
	}
	const verifications = [...new Set(checks)].map((name) => ({
		name,
		skipAllowed: skippable.includes(name),
	}));

	const body: IDataObject = {
		name: requireText(this, 'name', 'Form Name'),
		purpose: requireText(this, 'purpose', 'Purpose Name or ID'),
		verifications,
		userPaymentRequired: requireBoolean(
			this,
			'User Payment Required',
			this.getNodeParameter('userPaymentRequired', false),
		),
		type: 'diy',
		sharing: {
			visibility: requireOneOf(this, 'Visibility', this.getNodeParameter('visibility', ''), [
				'public',
				'private',
			]),
		},
	};

	const { expiry } = this.getNodeParameter('additionalFields', {}) as IDataObject;
	if (expiry !== undefined && expiry !== '') {
		const seconds = toUnixSeconds(expiry, this.getTimezone());
		if (seconds === undefined) {
			throw invalidParameter(this, 'Expiry', `${describe(expiry)} is not a date and time`);
		}
		body.expiry = seconds;
	}

	requestOptions.body = body;
	return requestOptions;
}

export const formCreateRouting = {
	request: { method: 'POST' as const, url: `${VERIFICATION_API}/ekyc-forms` },
	send: { preSend: [buildFormBody] },
	output: {
		postReceive: [
			handleResponse(ACTIONS.formCreate, (data) =>
				typeof data.expiry === 'number'
					? { ...data, expiryDate: new Date(data.expiry * 1000).toISOString() }
					: data,
			),
		],
	},
};
