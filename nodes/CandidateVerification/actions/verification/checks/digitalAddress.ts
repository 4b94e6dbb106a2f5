import { DIGITAL_ADDRESS_SUBMISSION_NAMES } from '../../../../shared/checks';
import { EXAMPLE_ADDRESS } from '../examples';
import { ADDRESS_FIELDS, readText, type TypedCheck } from './shared';

const [local, permanent] = Object.entries(DIGITAL_ADDRESS_SUBMISSION_NAMES);

/** The digital address checks: the six address fields, flat in `data`, all required. */
export const digitalAddress: TypedCheck = {
	// Both names of each: the submission pages' (the list's) and the form list's (an expression's).
	checks: [
		...Object.values(DIGITAL_ADDRESS_SUBMISSION_NAMES),
		...Object.keys(DIGITAL_ADDRESS_SUBMISSION_NAMES),
	],
	since: 2,
	fields: [
		{
			property: {
				displayName: `From the provider’s public documentation. The provider’s pages name these checks twice: the submission pages ${local[1]} / ${permanent[1]} (sent from this list), the form list ${local[0]} / ${permanent[0]} (set one by an expression to send it instead).`,
				name: 'digitalAddressNotice',
				type: 'notice',
				default: '',
			},
		},
		...ADDRESS_FIELDS.map((field) => ({
			mapped: true,
			property: {
				displayName: field.displayName,
				name: field.name,
				type: 'string' as const,
				required: true,
				default: '',
				placeholder: `e.g. ${EXAMPLE_ADDRESS[field.name]}`,
				description: `The candidate’s address: ${field.displayName.toLowerCase()}`,
			},
		})),
	],
	build: (input) =>
		Object.fromEntries(
			ADDRESS_FIELDS.map(({ name, displayName }) => [name, readText(input, name, displayName)]),
		),
};
