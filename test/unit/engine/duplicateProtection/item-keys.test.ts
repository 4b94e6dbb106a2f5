import { ExecuteContext } from 'n8n-core';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { DeduplicationStore } from '../../../harness/deduplication-store';
import { CANDIDATE_PATH, keyedCreateProfile } from '../../../harness/keyed-profile';
import { outputJson, runActionNode } from '../../../harness/run-node';
import { enableMockedNetwork, mockService, success } from '../../../harness/service-mock';

/**
 * Duplicate protection reads each item's Duplicate Key and ID Found through a reader the all-items
 * check calls with the item's other fields, before the item's expressions are settled: an item's
 * expressions (its mapped fields, its key, its ID found) are evaluated once, all together.
 */
enableMockedNetwork();

const items = [
	{ name: 'Asha Verma', key: 'item-keys-EMP-1', foundId: 'TXN-A' },
	{ name: 'Ravi Kumar', key: 'item-keys-EMP-2', foundId: 'TXN-R' },
	{ name: 'Meera Iyer', key: 'item-keys-EMP-3', foundId: 'TXN-M' },
];

/** One run on `store`, with n8n's evaluations of expressions counted. */
async function countedRun(store: DeduplicationStore, parameters: INodeParameters, rows = items) {
	const evaluate = jest.spyOn(ExecuteContext.prototype, 'evaluateExpression');
	try {
		const result = await runActionNode({ items: rows, parameters, deduplicationStore: store });
		return { result, evaluations: evaluate.mock.calls.length };
	} finally {
		evaluate.mockRestore();
	}
}

describe("Duplicate protection reads an item's keys with its other fields", () => {
	it('Skip Rows Sent: one evaluation per item, and the keys read make the rows (renamed, still alreadySent)', async () => {
		const { scope, requests } = mockService();
		scope
			.post(CANDIDATE_PATH)
			.times(3)
			.reply(200, (_uri, body) => success({ transactionId: `TXN-${(body as IDataObject).name}` }));
		const store = new DeduplicationStore();

		const first = await countedRun(store, keyedCreateProfile);
		const renamed = items.map((item) => ({ ...item, name: `${item.name} (renamed)` }));
		const again = await countedRun(store, keyedCreateProfile, renamed);

		expect(first.evaluations).toBe(3);
		expect(again.evaluations).toBe(3);
		expect(requests).toHaveLength(3);
		expect(outputJson(again.result).map((json) => json.alreadySent)).toEqual([true, true, true]);
	});

	it('Record Rows as Sent: one evaluation per item, each row recorded with the ID found its item gave', async () => {
		const recordAsSent: INodeParameters = {
			...keyedCreateProfile,
			duplicateProtection: 'recordAsSent',
			idFoundAtService: '={{ $json.foundId }}',
		};
		const rows = items.map((item) => ({ ...item, key: `${item.key}-recorded` }));

		const { result, evaluations } = await countedRun(new DeduplicationStore(), recordAsSent, rows);

		expect(evaluations).toBe(3);
		expect(outputJson(result)).toEqual([
			{ transactionId: 'TXN-A', recordedAsSent: true },
			{ transactionId: 'TXN-R', recordedAsSent: true },
			{ transactionId: 'TXN-M', recordedAsSent: true },
		]);
	});
});
