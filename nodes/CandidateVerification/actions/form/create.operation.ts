import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { describe, type ItemInput } from '../../engine/itemInput';
import { duplicateProtectionFields } from '../../engine/duplicateProtection/fields';
import type { OperationDefinition, PreparedRequest } from '../../engine/operation';
import { FORMS_PATH } from '../../../shared/constants';
import { FORM_VERIFICATION_NAMES } from '../../../shared/checks';
import { toUnixSeconds } from '../../helpers/dates';
import type { OperationOption } from '../../helpers/descriptions';

const showOnlyForFormCreate = { operation: ['create'], resource: ['form'] };

export const option: OperationOption = {
	name: 'Create',
	description:
		'Create a form at the service: a reusable list of the checks its candidates go through',
};

export const description: INodeProperties[] = [
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
	...duplicateProtectionFields({ resource: ['form'], operation: ['create'] }, 'Form ID'),
];

const CHECK_NAMES = FORM_VERIFICATION_NAMES.map(({ value }) => value);

/** A multi-select's checks (an expression may also give them comma-separated). */
function checkList(input: ItemInput, path: string, field: string): string[] {
	const value = input.param(path, field, []);
	const list = typeof value === 'string' ? value.split(',').map((name) => name.trim()) : value;
	if (!Array.isArray(list)) {
		input.problem(field, `expected a list of checks, got ${describe(value)}`);
		return [];
	}
	return list
		.filter((name) => name !== '')
		.map((name, index) => input.oneOf(`${field} → ${index + 1}`, name, CHECK_NAMES))
		.filter((name): name is string => name !== undefined);
}

function buildForm(input: ItemInput): PreparedRequest {
	const problemsBefore = input.problems.length;
	const checks = checkList(input, 'checks', 'Checks');
	if (checks.length === 0 && input.problems.length === problemsBefore) {
		input.problem('Checks', 'choose at least one check');
	}
	const checksValid = input.problems.length === problemsBefore;
	const skippable = checkList(input, 'skippableChecks', 'Checks the Candidate May Skip');
	const notInForm = skippable.filter((name) => !checks.includes(name));
	// Against an invalid Checks list this would only repeat that problem.
	if (checksValid && notInForm.length > 0) {
		input.problem(
			'Checks the Candidate May Skip',
			`${notInForm.join(', ')} is not one of the form's checks`,
		);
	}
	const verifications = [...new Set(checks)].map((name) => ({
		name,
		skipAllowed: skippable.includes(name),
	}));
	const body: IDataObject = {
		name: input.text('Form Name', input.param('name', 'Form Name')),
		purpose: input.text('Purpose', input.locatorValue('purpose', 'Purpose')),
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
	const { expiry } = (input.param('additionalFields', 'Additional Fields', {}) ??
		{}) as IDataObject;
	if (expiry !== undefined && expiry !== '') {
		const seconds = toUnixSeconds(expiry, input.timezone);
		if (seconds === undefined)
			input.problem('Expiry', `${describe(expiry)} is not a date and time`);
		else body.expiry = seconds;
	}
	return { body };
}

export const operation: OperationDefinition = {
	label: 'Create a form',
	method: 'POST',
	path: FORMS_PATH,
	build: buildForm,
	// The expiry also as a date a person can read.
	output: (data) =>
		typeof data.expiry === 'number'
			? { ...data, expiryDate: new Date(data.expiry * 1000).toISOString() }
			: data,
	acceptedIdField: '_id',
	duplicateProtection: {},
};
