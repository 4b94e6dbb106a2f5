import { DIGITAL_ADDRESS_SUBMISSION_NAMES } from '../../shared/checks';

/**
 * A row's data without its document URLs (File → Upload returns a new URL for each upload):
 * `fileUrl`, `document.url`, `documentList[].url` and `documents[].document.url`.
 */
export function withoutDocumentUrls(value: unknown, key = ''): unknown {
	if (Array.isArray(value)) return value.map((entry) => withoutDocumentUrls(entry, key));
	if (typeof value !== 'object' || value === null) return value;
	const documentUrl = (name: string) =>
		name === 'fileUrl' || (name === 'url' && ['document', 'documentList'].includes(key));
	return Object.fromEntries(
		Object.entries(value)
			.filter(([name]) => !documentUrl(name))
			.map(([name, entry]) => [name, withoutDocumentUrls(entry, name)]),
	);
}

const FORM_LIST_NAME: Readonly<Record<string, string>> = Object.fromEntries(
	Object.entries(DIGITAL_ADDRESS_SUBMISSION_NAMES).map(([form, sent]) => [sent, form]),
);

/** A check sent, by its form-list name: two names of one check are one check. */
export function formListName(check: unknown): unknown {
	return typeof check === 'string' ? (FORM_LIST_NAME[check] ?? check) : check;
}
