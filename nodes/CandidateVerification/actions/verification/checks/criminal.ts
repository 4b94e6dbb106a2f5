import { addressField, PERMANENT_ADDRESS, readAddress, type TypedCheck } from './shared';

export const criminal: TypedCheck = {
	checks: ['bgv-criminal'],
	since: 1,
	fields: [addressField('currentAddress', 'Current Address'), PERMANENT_ADDRESS],
	build: (input) => ({
		currentAddress: readAddress(input, 'currentAddress', 'Current Address'),
		permanentAddress: readAddress(input, 'permanentAddress', 'Permanent Address'),
	}),
};
