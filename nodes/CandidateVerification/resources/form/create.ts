import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { FORM_VERIFICATION_NAMES, VERIFICATION_API } from '../../shared/constants';
import { toUnixSeconds } from '../../shared/dates';
import { envelopeData, handleResponse } from '../../shared/routing';
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
		placeholder: 'Engineering hires 2026',
		displayOptions: { show: showOnlyForFormCreate },
	},
	{
		displayName: 'Purpose',
		name: 'purpose',
		type: 'resourceLocator',
		required: true,
		default: { mode: 'list', value: '' },
		description:
			'Why the checks are run: pick one of the purposes the service lists, or give its ID (the _id from Purpose → Get Many)',
		displayOptions: { show: showOnlyForFormCreate },
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a purpose...',
				typeOptions: { searchListMethod: 'searchPurposes', searchable: true },
			},
			{
				displayName: 'ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 65f1c0ffee0000000000abcd',
			},
		],
	},
	{
		displayName: 'Verifications',
		name: 'verifications',
		type: 'fixedCollection',
		required: true,
		default: {},
		placeholder: 'Add Check',
		typeOptions: { multipleValues: true, sortable: true },
		description: 'The checks every candidate of this form goes through',
		displayOptions: { show: showOnlyForFormCreate },
		options: [
			{
				displayName: 'Check',
				name: 'checks',
				values: [
					{
						displayName: 'Check Name',
						name: 'name',
						type: 'options',
						default: 'bgv-employment',
						options: [...FORM_VERIFICATION_NAMES],
					},
					{
						displayName: 'Skip Allowed',
						name: 'skipAllowed',
						type: 'boolean',
						default: false,
						description: 'Whether the candidate may skip this check',
					},
				],
			},
		],
	},
	{
		displayName: 'User Payment Required',
		name: 'userPaymentRequired',
		type: 'boolean',
		default: false,
		description: 'Whether the candidate pays for the checks',
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
		description: 'Sharing visibility of the form',
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
					'When the form expires. Sent as a Unix timestamp; a date without a time zone is read in the workflow time zone.',
			},
		],
	},
];

interface CheckParameter {
	name?: unknown;
	skipAllowed?: unknown;
}

async function buildFormBody(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const checks = (this.getNodeParameter('verifications.checks', []) as CheckParameter[]) ?? [];
	if (!Array.isArray(checks) || checks.length === 0) {
		throw invalidParameter(this, 'Verifications', 'add at least one check');
	}
	const allowedNames = FORM_VERIFICATION_NAMES.map(({ value }) => value);
	const verifications = checks.map((check, index) => ({
		name: requireOneOf(
			this,
			`Verifications → Check ${index + 1} → Check Name`,
			check.name,
			allowedNames,
		),
		skipAllowed: requireBoolean(
			this,
			`Verifications → Check ${index + 1} → Skip Allowed`,
			check.skipAllowed ?? false,
		),
	}));

	const body: IDataObject = {
		name: requireText(this, 'name', 'Form Name'),
		purpose: requireText(
			this,
			'purpose',
			'Purpose',
			this.getNodeParameter('purpose', '', { extractValue: true }),
		),
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
	output: { postReceive: [handleResponse('Create Form', envelopeData)] },
};
