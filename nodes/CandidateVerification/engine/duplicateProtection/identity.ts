import type { IDataObject } from 'n8n-workflow';

import { DIGITAL_ADDRESS_SUBMISSION_NAMES } from '../../helpers/constants';

function withoutUrl(value: unknown): unknown {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
	const copy = { ...(value as IDataObject) };
	delete copy.url;
	return copy;
}

/**
 * A row's data without its document URLs (File → Upload returns a new URL for each upload):
 * `fileUrl`, `document.url`, `documentList[].url` and `documents[].document.url`.
 */
export function withoutDocumentUrls(data: IDataObject = {}): IDataObject {
	const copy: IDataObject = { ...data };
	delete copy.fileUrl;
	if ('document' in copy) copy.document = withoutUrl(copy.document) as IDataObject;
	if (Array.isArray(copy.documentList))
		copy.documentList = copy.documentList.map(withoutUrl) as IDataObject[];
	if (Array.isArray(copy.documents)) {
		copy.documents = (copy.documents as IDataObject[]).map((entry) => ({
			...entry,
			document: withoutUrl(entry.document) as IDataObject,
		}));
	}
	return copy;
}

const FORM_LIST_NAME: Readonly<Record<string, string>> = Object.fromEntries(
	Object.entries(DIGITAL_ADDRESS_SUBMISSION_NAMES).map(([formName, sentName]) => [
		sentName,
		formName,
	]),
);

/** A check sent, by its form-list name: two names of one check are one check. */
export function formListName(check: unknown): unknown {
	return typeof check === 'string' ? (FORM_LIST_NAME[check] ?? check) : check;
}
