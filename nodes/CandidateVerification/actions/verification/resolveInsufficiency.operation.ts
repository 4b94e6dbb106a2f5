import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { duplicateProtectionFields } from '../../engine/duplicateProtection/fields';
import { withoutDocumentUrls } from '../../helpers/checkIdentity';
import { describe, type ItemInput } from '../../engine/itemInput';
import type { OperationDefinition, PreparedRequest } from '../../engine/operation';
import { INSUFFICIENCY_PATH } from '../../../shared/constants';
import { INSUFFICIENCY_DOCUMENT_TYPES, INSUFFICIENCY_FILE_TYPE } from '../../../shared/enums';
import { organisationIdField, readOrganisationId } from '../transaction/shared';
import type { OperationOption } from '../../helpers/descriptions';

const OPERATION = 'resolveInsufficiency';
const SHOW = { resource: ['verification'], operation: [OPERATION] };

const ANSWER_FIELDS = [
	{ name: 'insufficiencyId', displayName: 'Insufficiency ID' },
	{ name: 'value', displayName: 'Value' },
] as const;

const DOCUMENT_FIELDS = [
	{ name: 'documentType', displayName: 'Document Type' },
	{ name: 'fileName', displayName: 'File Name' },
	{ name: 'label', displayName: 'Label' },
	{ name: 'url', displayName: 'URL' },
] as const;

// Transaction ID is declared with Verification → Submit's fields; Organisation ID with the
// Transaction operations' (transaction/shared.ts).
export const option: OperationOption = {
	name: 'Resolve Insufficiency',
	description:
		'Send the answers and documents a check in INSUFFICIENT_DATA asks for to the service. A row is the request it sends (transaction, organisation, check ID, answers, documents): Duplicate Protection does not send the same row twice.',
};

export const description: INodeProperties[] = [
	{
		displayName:
			'From the provider’s public documentation: answers the questions of a check whose state is INSUFFICIENT_DATA (Transaction → Get Check Status lists them under insufficiencies) and sends the documents asked for',
		name: 'insufficiencyNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: SHOW },
	},
	{
		displayName: 'Verification ID',
		name: 'verificationId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. {{ $json.verificationId }}',
		description:
			'The check’s ID at the service, sent as subType: the verificationId output of Transaction → Get Check Status (the check’s subType), or the verificationId of an insufficiency-raised notification when it carries the ID',
		displayOptions: { show: SHOW },
	},
	{
		displayName: 'Answers',
		name: 'answers',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Answer',
		description:
			'One answer per insufficiency: its ID (insufficiencies[].insufficiencyId of Get Check Status) and the value. Give at least one answer or one document.',
		displayOptions: { show: SHOW },
		options: [
			{
				displayName: 'Answer',
				name: 'answer',
				values: [
					{
						displayName: 'Insufficiency ID',
						name: 'insufficiencyId',
						type: 'string',
						default: '',
						placeholder: 'e.g. {{ $json.insufficiencies[0].insufficiencyId }}',
						description: 'The ID of the question answered, from the check’s insufficiencies',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						placeholder: 'e.g. 2012/0456789',
						description: 'The answer, sent as text',
					},
				],
			},
		],
	},
	{
		displayName: 'Documents',
		name: 'documents',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Document',
		description:
			'Documents asked for, each given by the URL File → Upload returned. Give at least one answer or one document. A question raised again is answered by uploading again: a new upload is a new document, and is sent.',
		displayOptions: { show: SHOW },
		options: [
			{
				displayName: 'Document',
				name: 'document',
				values: [
					{
						displayName: 'Document Type',
						name: 'documentType',
						type: 'options',
						default: 'Other',
						options: INSUFFICIENCY_DOCUMENT_TYPES,
						description:
							'The kind of document. The provider’s public documentation shows these two; give another type with an expression.',
					},
					{
						displayName: 'File Name',
						name: 'fileName',
						type: 'string',
						default: '',
						placeholder: 'e.g. degree-certificate.pdf',
						description: 'The document’s file name',
					},
					{
						displayName: 'Label',
						name: 'label',
						type: 'string',
						default: '',
						placeholder: 'e.g. Degree Certificate',
						description: 'What the document is, as the service shows it',
						hint: 'For a document that answers a question, an older page of the provider labels it with the question’s insufficiencyId followed by ::FILE::1 (e.g. 64ab12::FILE::1); the current page does not say',
					},
					{
						displayName: 'URL',
						name: 'url',
						type: 'string',
						default: '',
						placeholder: 'e.g. {{ $json.fileUrl }}',
						description: 'The document’s URL, as File → Upload returns it (fileUrl)',
					},
				],
			},
		],
	},
	organisationIdField(OPERATION, 'verification'),
	...duplicateProtectionFields(
		SHOW,
		'Transaction ID',
		{
			within: 'one check’s questions (its transaction, check and insufficiency IDs)',
			apart: 'answers',
			urls: 'document URLs included: a new upload is a new document',
		},
		true,
	),
];

/** The entries of a fixedCollection list, each field read (expressions resolved) and required. */
function readEntries(
	input: ItemInput,
	collection: string,
	entry: string,
	label: string,
	fields: ReadonlyArray<{ name: string; displayName: string }>,
): Array<Record<string, string | undefined>> {
	const raw = input.param(`${collection}.${entry}`, label, []);
	if (!Array.isArray(raw)) {
		input.problem(label, `expected a list, got ${describe(raw)}`);
		return [];
	}
	return raw.map((value: unknown, index) => {
		const values = (typeof value === 'object' && value !== null ? value : {}) as IDataObject;
		const read: Record<string, string | undefined> = {};
		for (const field of fields) {
			read[field.name] = input.text(
				`${label} ${index + 1} → ${field.displayName}`,
				values[field.name],
			);
		}
		return read;
	});
}

function buildResolution(input: ItemInput): PreparedRequest {
	const transactionId = input.text(
		'Transaction ID',
		input.param('transactionId', 'Transaction ID'),
	);
	const subType = input.text('Verification ID', input.param('verificationId', 'Verification ID'));
	const answers = readEntries(input, 'answers', 'answer', 'Answer', ANSWER_FIELDS);
	const documents = readEntries(input, 'documents', 'document', 'Document', DOCUMENT_FIELDS);
	if (answers.length === 0 && documents.length === 0) {
		input.problem(
			'Answers or Documents',
			'there is no answer and no document to send',
			'Add at least one answer (Insufficiency ID and Value) or one document (Documents).',
		);
	}
	const orgId = readOrganisationId(input);
	return {
		body: {
			transactionId,
			orgId,
			subType,
			dataToUpload: {
				insufficiencyDataList: answers.map(({ insufficiencyId, value }) => ({
					insufficiencyId,
					value,
				})),
				documents: documents.map(({ documentType, fileName, label, url }) => ({
					documentType,
					fileType: INSUFFICIENCY_FILE_TYPE,
					fileName,
					document: { label, url },
				})),
			},
		},
		echo: { transactionId, verificationId: subType },
	};
}

export const operation: OperationDefinition = {
	label: 'Resolve an insufficiency of a check',
	method: 'POST',
	path: INSUFFICIENCY_PATH,
	build: buildResolution,
	// The service answers without data (as for a submission): what the next node chains on.
	output: (_data, sent) => ({ ...sent.echo, resolved: true }),
	acceptedIdField: 'transactionId',
	duplicateProtection: {
		idFromInput: true,
		seenAt: 'checkStatus',
		// The request as sent, document URLs included: a new upload is a new document (a question raised
		// again is answered by uploading again). n8n's Retry of a failed execution reuses the upload.
		identity: ({ body }) => body,
		formerIdentity: ({ body }) => {
			const without = withoutDocumentUrls(body);
			// Without documents both are one: the row keeps its 0.4.x identity.
			return JSON.stringify(without) === JSON.stringify(body) ? undefined : without;
		},
		// A Duplicate Key tells rows apart within one transaction's check and its questions.
		scope: ({ body = {} }) => ({
			transactionId: body.transactionId,
			check: body.subType,
			questions: insufficiencyIds(body),
		}),
	},
};

/** The questions a resolution answers: its answers' insufficiency IDs and its documents' labels. */
function insufficiencyIds(body: IDataObject): unknown[] {
	const upload = (body.dataToUpload ?? {}) as IDataObject;
	const answers = (upload.insufficiencyDataList ?? []) as IDataObject[];
	const documents = (upload.documents ?? []) as IDataObject[];
	return [
		...answers.map(({ insufficiencyId }) => insufficiencyId),
		...documents.map(({ document }) => (document as IDataObject | undefined)?.label),
	];
}
