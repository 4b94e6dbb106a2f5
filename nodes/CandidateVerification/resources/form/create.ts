import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { FORM_VERIFICATION_NAMES, FORMS_PATH } from '../../shared/constants';
import { toUnixSeconds } from '../../shared/dates';
import type { PreparedRequest } from '../../shared/preflight';
import { envelopeData, serviceRouting } from '../../shared/routing';
import { describe, type ItemInput } from '../../shared/validation';

const showOnlyForFormCreate = { operation: ['create'], resource: ['form'] };

export const formCreateDescription: INodeProperties[] = [
	{
		displayName: 'Form Name',
		// Not `name`: n8n's routing engine resolves every declaration of a parameter name for
		// every item, so a name shared with Profile → Create's Candidate Name doubles its cost.
		name: 'formName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'Engineering hires 2026',
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
		name: 'formAdditionalFields',
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

const CHECK_NAMES = FORM_VERIFICATION_NAMES.map(({ value }) => value);

function buildForm(input: ItemInput): PreparedRequest {
	const checks = input.param('verifications.checks', 'Verifications', []) as CheckParameter[];
	if (!Array.isArray(checks) || checks.length === 0) {
		input.problem('Verifications', 'add at least one check');
	}
	const verifications = (Array.isArray(checks) ? checks : []).map((check, index) => ({
		name: input.oneOf(`Verifications → Check ${index + 1} → Check Name`, check.name, CHECK_NAMES),
		skipAllowed: input.boolean(
			`Verifications → Check ${index + 1} → Skip Allowed`,
			check.skipAllowed ?? false,
		),
	}));
	const body: IDataObject = {
		name: input.text('Form Name', input.param('formName', 'Form Name')),
		purpose: input.text('Purpose Name or ID', input.param('purpose', 'Purpose Name or ID')),
		verifications,
		userPaymentRequired: input.boolean(
			'User Payment Required',
			input.param('userPaymentRequired', 'User Payment Required', false),
		),
		type: 'diy',
		sharing: {
			visibility: input.oneOf('Visibility', input.param('visibility', 'Visibility'), [
				'public',
				'private',
			]),
		},
	};
	const { expiry } = (input.param('formAdditionalFields', 'Additional Fields', {}) ??
		{}) as IDataObject;
	if (expiry !== undefined && expiry !== '') {
		const seconds = toUnixSeconds(expiry, input.timezone);
		if (seconds === undefined)
			input.problem('Expiry', `${describe(expiry)} is not a date and time`);
		else body.expiry = seconds;
	}
	return { body };
}

export const formCreateRouting = serviceRouting({
	label: 'Create Form',
	request: { method: 'POST', url: FORMS_PATH },
	build: buildForm,
	output: envelopeData,
	acceptedId: (json) => json._id,
});
