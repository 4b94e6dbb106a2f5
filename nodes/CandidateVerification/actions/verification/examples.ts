import { exampleDocument, findCheck } from '../../../shared/checks';

export { EXAMPLE_ADDRESS } from '../../../shared/checks';

/**
 * e.g. {"pan": "ABCDE1234F"} for the placeholder of a check's Data (JSON): the catalogue's example
 * (nodes/shared/checks.ts), else a document list. Shown, never sent by itself.
 */
export function dataExample(check: string): string {
	return `e.g. ${JSON.stringify(findCheck(check)?.example ?? exampleDocument('document'))}`;
}
