import type { IDataObject } from 'n8n-workflow';

/**
 * How the status answers are read, in one place for Transaction → Get Check Status and the trigger.
 * A check status answer (GET …/transactions/<check>/info), from the provider's public
 * documentation: the envelope's `data.data` is a list with one item per check of that name, each
 * with `subType` (the check's verificationId) and `insufficiencyData` (what the candidate must
 * answer; item shape not shown). The sandbox answers one flat check object with the same fields.
 */
export const CHECK_ID_FIELD = 'subType';
export const INSUFFICIENCY_DATA_FIELD = 'insufficiencyData';

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The check items of an answer: the double-wrapped list's (none when it is empty: the public pages'
 * list answers a check the transaction does not have so, under `code: 0`), else the data itself.
 */
export function checkItemsOf(data: IDataObject): IDataObject[] {
	return Array.isArray(data.data) ? data.data.filter(isObject) : [data];
}

/** The check's verificationId (its `subType`), null when the answer has none. */
export function verificationIdOf(item: IDataObject): string | null {
	const id = item[CHECK_ID_FIELD];
	return typeof id === 'string' && id !== '' ? id : null;
}

/** The service's insufficiency list unchanged; [] when absent. */
export function insufficienciesOf(item: IDataObject): IDataObject[] {
	const list = item[INSUFFICIENCY_DATA_FIELD];
	if (list === undefined || list === null) return [];
	return (Array.isArray(list) ? list : [list]) as IDataObject[];
}

/**
 * The check's report: its own `reportUrl` (the older page) or else the first
 * `responseList[].data.eduvReport.pdfServingUrl` (the newer page); null when neither is there.
 */
export function reportUrlOf(item: IDataObject): IDataObject[string] {
	if ('reportUrl' in item) return item.reportUrl;
	const responses = Array.isArray(item.responseList) ? item.responseList : [];
	for (const response of responses) {
		const data = isObject(response) ? response.data : undefined;
		const report = isObject(data) ? data.eduvReport : undefined;
		const url = isObject(report) ? report.pdfServingUrl : undefined;
		if (typeof url === 'string' && url !== '') return url;
	}
	return null;
}

/**
 * One output per check item: its fields plus reportUrl (the service's own one kept),
 * verificationId and insufficiencies.
 */
export function checkStatusOutput(data: IDataObject): IDataObject[] {
	return checkItemsOf(data).map((item) => ({
		...item,
		reportUrl: reportUrlOf(item),
		verificationId: verificationIdOf(item),
		insufficiencies: insufficienciesOf(item),
	}));
}

/**
 * The candidate's name in a transaction status answer (GET …/transactions/info): both public pages
 * put it at `candidate.profileDetails.name`; `candidate.name` is read next; null when neither is set.
 */
export function candidateNameOf(transaction: IDataObject): string | null {
	const candidate = isObject(transaction.candidate) ? transaction.candidate : {};
	const profile = isObject(candidate.profileDetails) ? candidate.profileDetails : {};
	for (const name of [profile.name, candidate.name]) {
		if (typeof name === 'string' && name.trim() !== '') return name;
	}
	return null;
}
