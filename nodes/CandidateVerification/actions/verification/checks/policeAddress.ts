import { POLICE_VERIFICATION } from '../../../../shared/checks';
import { addressField, readAddress, type TypedCheck } from './shared';

/** Police verification at an address: the form list's bgv-police-verification. */
export const policeAddress: TypedCheck = {
	checks: [POLICE_VERIFICATION],
	since: 2,
	fields: [addressField('permanentAddress', 'Permanent Address')],
	build: (input) => ({
		permanentAddress: readAddress(input, 'permanentAddress', 'Permanent Address'),
	}),
};
