import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { KYC_AADHAAR_RESULT_PATH } from '../../../shared/constants';
import { billed, kycOperation, type SentField, showFor } from './shared';
import type { OperationOption } from '../../helpers/descriptions';

/** The output's binary field holding the Aadhaar photo. */
export const PHOTO_PROPERTY = 'photo';

const TRANSACTION_ID: SentField = {
	name: 'transactionId',
	label: 'DigiLocker Transaction ID',
};

export const option: OperationOption = {
	name: 'Aadhaar (DigiLocker) Get Result',
	description: billed(
		'Step 2 of an Aadhaar check, after the candidate consented: the masked Aadhaar number, name, date of birth, gender, address, and the photo as binary data (field photo). Before consent it fails with the service’s message.',
		false,
	),
};

export const description: INodeProperties[] = [
	{
		displayName: 'DigiLocker Transaction ID',
		name: 'digiLockerTransactionId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. {{ $json.transactionId }}',
		description:
			'The transactionId that Aadhaar (DigiLocker) Start returned for this candidate (not the candidate’s Transaction ID of Profile → Create)',
		displayOptions: { show: showFor(['aadhaarGetResult']) },
	},
];

const SIGNATURES: Array<{ bytes: number[]; mimeType: string; extension: string }> = [
	{ bytes: [0xff, 0xd8, 0xff], mimeType: 'image/jpeg', extension: 'jpg' },
	{ bytes: [0x89, 0x50, 0x4e, 0x47], mimeType: 'image/png', extension: 'png' },
];

/** The photo's bytes and type: from a data URL's prefix, else sniffed, else JPEG. */
function decodePhoto(photo: string): { bytes: Buffer; mimeType: string; extension: string } {
	const dataUrl = /^data:(image\/[\w.+-]+);base64,/i.exec(photo);
	const bytes = Buffer.from(dataUrl ? photo.slice(dataUrl[0].length) : photo, 'base64');
	const sniffed = SIGNATURES.find((signature) =>
		signature.bytes.every((byte, index) => bytes[index] === byte),
	);
	const mimeType = dataUrl?.[1].toLowerCase() ?? sniffed?.mimeType ?? 'image/jpeg';
	const extension =
		SIGNATURES.find((signature) => signature.mimeType === mimeType)?.extension ??
		mimeType.split('/')[1];
	return { bytes, mimeType, extension };
}

/** The base64 photo becomes binary data and leaves the JSON, so outputs stay small. */
async function photoToBinary(this: IExecuteFunctions, output: INodeExecutionData): Promise<void> {
	const photo = output.json.photo;
	if (typeof photo !== 'string' || photo === '') return;
	delete output.json.photo;
	const { bytes, mimeType, extension } = decodePhoto(photo);
	output.binary = {
		[PHOTO_PROPERTY]: await this.helpers.prepareBinaryData(
			bytes,
			`aadhaar-photo.${extension}`,
			mimeType,
		),
	};
}

export const operation = kycOperation({
	label: 'Get the result of an Aadhaar check through DigiLocker',
	path: KYC_AADHAAR_RESULT_PATH,
	fields: [TRANSACTION_ID],
	body: (input) => ({
		digiLocker: true,
		transactionId: input.text(
			TRANSACTION_ID.label,
			input.param('digiLockerTransactionId', TRANSACTION_ID.label),
		),
	}),
	rejectionHint:
		'If the candidate has not finished the consent at the authUrl of Aadhaar (DigiLocker) Start, run this again after they have (each call is billed); otherwise check the DigiLocker Transaction ID.',
	finish: photoToBinary,
});
