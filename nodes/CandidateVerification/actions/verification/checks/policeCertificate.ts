import { POLICE_CLEARANCE_CERTIFICATE } from '../../../../shared/checks';
import { readText, type TypedCheck } from './shared';

/** The police clearance certificate; version 1 sends it for the form list's police check too. */
export const policeCertificate: TypedCheck = {
	checks: [POLICE_CLEARANCE_CERTIFICATE],
	since: 1,
	fields: [
		{
			mapped: true,
			property: {
				displayName: 'Certificate File URL',
				name: 'fileUrl',
				type: 'string',
				required: true,
				default: '',
				placeholder: 'e.g. {{ $json.fileUrl }}',
				description: `URL of the uploaded police clearance certificate, as File → Upload returns it. Sent with the check name ${POLICE_CLEARANCE_CERTIFICATE}.`,
			},
		},
	],
	build: (input) => ({ fileUrl: readText(input, 'fileUrl', 'Certificate File URL') }),
};
