import type { INodeProperties } from 'n8n-workflow';

import type { ItemInput } from '../../engine/itemInput';
import { KYC_AADHAAR_START_PATH } from '../../../shared/constants';
import { billed, kycOperation, type SentField, showFor } from './shared';
import type { OperationOption } from '../../helpers/descriptions';

const REDIRECT_URL: SentField = { name: 'redirectUrl', label: 'Redirect URL' };

export const option: OperationOption = {
	name: 'Aadhaar (DigiLocker) Start',
	description: billed(
		'Step 1 of an Aadhaar check: returns transactionId and authUrl. Send authUrl to the candidate (the DigiLocker consent link); keep transactionId for Get Result.',
		false,
	),
};

export const description: INodeProperties[] = [
	{
		displayName:
			'Each run starts a new consent request, and the candidate gets a new link: run it once per candidate.',
		name: 'aadhaarStartNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: showFor(['aadhaarStart']) },
	},
	{
		displayName: 'Redirect URL',
		name: 'redirectUrl',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://example.com/thank-you',
		description:
			'Where DigiLocker sends the candidate after they consent (an http or https URL, e.g. a thank-you page or an n8n Form)',
		displayOptions: { show: showFor(['aadhaarStart']) },
	},
];

function readRedirectUrl(input: ItemInput): string | undefined {
	const text = input.text(REDIRECT_URL.label, input.param('redirectUrl', REDIRECT_URL.label));
	if (text === undefined) return undefined;
	let url: URL | undefined;
	try {
		url = new URL(text);
	} catch {
		url = undefined;
	}
	if (url && (url.protocol === 'https:' || url.protocol === 'http:')) return text;
	return input.problem(
		REDIRECT_URL.label,
		`"${text}" is not an http or https URL: give a full address, e.g. https://example.com/thank-you`,
	);
}

export const operation = kycOperation({
	label: 'Start an Aadhaar check through DigiLocker',
	path: KYC_AADHAAR_START_PATH,
	fields: [REDIRECT_URL],
	body: (input) => ({ digiLocker: true, redirectUrl: readRedirectUrl(input) }),
});
